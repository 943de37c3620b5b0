//! One event (§ 8.1): its reserved names once each, its `type`, domain or
//! framework, and each framework type sent to its family's rules; the
//! fields a framework type does not define.

use super::fields::{Ev, bool_value, duplicate_key, keep, keys_plain, str_ref};
use super::{Judge, LineClass};
use crate::peek::{Kind, Member, bytes_eq, span, unescape};
use crate::rules::RuleId;
use crate::spec;

impl Judge {
    /// Judges a line that is a JSON object as an event (§ 8.1): reserved
    /// names, envelope, `type`; then a domain event is counted and a
    /// framework one judged by its type.
    pub(super) fn event(&mut self, line: &[u8], members: &[Member]) {
        self.object_lines += 1;
        let ev = Ev { line, members };
        let ty = self.peeker.type_member.and_then(|i| members.get(i));
        let env = self.peeker.aoi_member.and_then(|i| members.get(i));
        self.reserved_once();
        self.envelope(line, env);

        let Some(ty) = ty else {
            self.summary_order_check(false);
            self.here(RuleId::TypeMissing, "event has no \"type\"".into());
            return;
        };
        let raw = ev.raw(ty);
        let Kind::String { escaped } = ty.kind else {
            self.summary_order_check(false);
            self.here(
                RuleId::TypeNotString,
                format!("\"type\" is a {}, not a string", ty.kind.name()),
            );
            return;
        };
        let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
        let decoded;
        let tname: &[u8] = if escaped {
            decoded = unescape(body).into_owned();
            decoded.as_bytes()
        } else {
            body
        };
        let is_summary = tname == b"aoi:summary";
        self.summary_order_check(is_summary);
        self.count_type(tname);
        if !tname.starts_with(b"aoi:") {
            self.domain += 1;
            self.last_class = LineClass::Domain;
            return;
        }
        self.framework_event(&ev, tname);
    }

    /// A framework event (§ 8.1): its keys once each and the spec's, its
    /// type's own rules (meta, summary, error: their families), counted.
    fn framework_event(&mut self, ev: &Ev<'_>, tname: &[u8]) {
        let (line, members) = (ev.line, ev.members);
        self.framework += 1;
        self.last_class = LineClass::Framework;
        // The name as text, for messages only (the peek validated it as
        // UTF-8, so nothing is replaced).
        let tstr = || String::from_utf8_lossy(tname);
        // Spec-owned fields appear once (parsers disagree which duplicate
        // wins) and are the spec's (§ 8.1, § 9.1): one hash per key proves
        // both for the usual line; any other takes the exact checks.
        let table = spec::field_table(tname);
        let plain = keys_plain(line, members, table);
        let dup = if plain {
            None
        } else {
            duplicate_key(line, members)
        };
        if let Some(dup) = dup {
            self.here(
                RuleId::FrameworkDuplicateKey,
                format!("{} has \"{}\" more than once", keep(&tstr()), keep(&dup)),
            );
        }
        match tname {
            b"aoi:meta" => self.meta(ev),
            b"aoi:summary" => self.summary(ev),
            b"aoi:error" => {
                self.errors += 1;
                self.error(ev);
            }
            b"aoi:warning" => self.warnings += 1,
            b"aoi:check" => {
                if ev.get("ok").and_then(bool_value) == Some(false) {
                    let (n, first) = &mut self.failed_checks;
                    *n += 1;
                    if first.is_none() {
                        let name = ev.get("name").and_then(|m| str_ref(line, m));
                        *first = Some(keep(name.as_deref().unwrap_or("(unnamed)")));
                    }
                }
            }
            b"aoi:heartbeat" | b"aoi:plan" | b"aoi:progress" => {}
            _ => {
                self.here(
                    RuleId::UnknownFramework,
                    format!("unknown framework type \"{}\"", keep(&tstr())),
                );
                return;
            }
        }
        if let Some(known) = table.filter(|_| !plain).map(|t| t.names) {
            self.unknown_fields(ev, tname, known);
        }
    }

    /// The members of a framework event its type does not define (they
    /// belong in `properties`, § 8.1), the first few by name.
    fn unknown_fields(&mut self, ev: &Ev<'_>, tname: &[u8], known: &[&str]) {
        let (line, members) = (ev.line, ev.members);
        let tstr = || String::from_utf8_lossy(tname);
        let is_known = |m: &Member| {
            let k = span(line, &m.key);
            if m.key_escaped {
                known.contains(&&*unescape(k))
            } else {
                known.iter().any(|n| bytes_eq(n.as_bytes(), k))
            }
        };
        if !members.iter().all(is_known) {
            // The first few by name, so a line of a million keys makes
            // a message of a line's length, not of megabytes.
            const NAMED: usize = 16;
            let unknown: Vec<&Member> = members.iter().filter(|m| !is_known(m)).collect();
            let mut list = unknown
                .iter()
                .take(NAMED)
                .map(|m| keep(&unescape(span(line, &m.key))))
                .collect::<Vec<_>>()
                .join(", ");
            if unknown.len() > NAMED {
                list = format!("{} … and {} more", keep(&list), unknown.len() - NAMED);
            }
            self.here(
                RuleId::UnknownField,
                format!(
                    "{} has fields the spec does not define: {list} (belong in \"properties\")",
                    tstr()
                ),
            );
        }
    }

    /// The reserved names once each (§ 8.1); one finding per name, however
    /// often it repeats.
    fn reserved_once(&mut self) {
        let dups = &self.peeker.reserved_dups;
        let repeated = ["type", "aoi"].map(|n| dups.contains(&n));
        for name in ["type", "aoi"]
            .into_iter()
            .zip(repeated)
            .filter_map(|(n, r)| r.then_some(n))
        {
            self.here(
                RuleId::DuplicateReserved,
                format!("top-level \"{name}\" appears more than once"),
            );
        }
    }

    fn count_type(&mut self, tname: &[u8]) {
        if !self.types.count(tname) {
            self.other_types += 1;
        }
    }
}
