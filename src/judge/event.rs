//! One event (§ 8.1): its reserved names once each, its `type`, domain or
//! framework, and each framework type sent to its family's rules; the
//! fields a framework type does not define.

use super::fields::{Ev, Keys, Named, bool_value, duplicate_key, keep, named, names, str_ref};
use super::{Judge, LineClass};
use crate::peek::{Kind, Member, bytes_eq, span, unescape};
use crate::rules::RuleId;
use crate::spec;
use crate::spec::types;

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
        let extras = self.envelope(line, env);
        #[cfg(feature = "schema")]
        self.schema_event(line);

        let Some(ty) = ty else {
            self.summary_order_check(false);
            self.envelope_t(extras.t, false);
            // One cause: the type was put inside the envelope (§ 8.1).
            if extras.type_inside {
                self.here(
                    RuleId::EnvelopeType,
                    "\"type\" is inside \"aoi\", not at the top level, so the event has none"
                        .into(),
                );
            } else {
                self.here(RuleId::TypeMissing, "event has no \"type\"".into());
            }
            return;
        };
        if extras.type_inside {
            self.here(
                RuleId::EnvelopeType,
                "\"aoi\" holds a \"type\": type is top level, never inside aoi".into(),
            );
        }
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
        let is_summary = tname == types::bytes::SUMMARY;
        self.summary_order_check(is_summary);
        self.envelope_t(extras.t, tname == types::bytes::META);
        self.count_type(tname);
        if tname.is_empty() {
            self.here(
                RuleId::TypeEmpty,
                "\"type\" is an empty string, which names no event".into(),
            );
        }
        if !tname.starts_with(crate::spec::types::bytes::PREFIX) {
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
        let mut proof = Keys::new();
        let keys = (self.proves_keys() && proof.prove(line, members, table)).then_some(&proof);
        let dup = if keys.is_some() {
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
            types::bytes::META => self.meta(ev),
            types::bytes::SUMMARY => self.summary(ev),
            types::bytes::ERROR => {
                self.errors += 1;
                self.error(ev, keys);
            }
            types::bytes::WARNING => self.warnings += 1,
            types::bytes::CHECK => {
                if ev.get("ok").and_then(bool_value) == Some(false) {
                    let (n, first) = &mut self.failed_checks;
                    *n += 1;
                    if first.is_none() {
                        let name = ev.get("name").and_then(|m| str_ref(line, m));
                        *first = Some(keep(name.as_deref().unwrap_or("(unnamed)")));
                    }
                }
            }
            types::bytes::HEARTBEAT | types::bytes::PLAN | types::bytes::PROGRESS => {}
            _ => {
                self.here(
                    RuleId::UnknownFramework,
                    format!("unknown framework type \"{}\"", keep(&tstr())),
                );
                return;
            }
        }
        // After the type's rules: a meta of another AOI version is read
        // by none of AOI 1's (§ 5).
        let all_known = keys.is_some_and(|k| k.all_known);
        let flat = self.framework_members(ev, tname, keys);
        if let Some(known) = table.filter(|_| !all_known).map(|t| t.names) {
            // Members with a finding of their own are not listed again:
            // v0.2's flat seq/run, its aoi:error.upstream (§ 5.2).
            let own: &[&str] = match (flat, tname) {
                (true, types::bytes::ERROR) => &["seq", "run", "upstream"],
                (true, _) => &["seq", "run"],
                (false, types::bytes::ERROR) => &["upstream"],
                (false, _) => &[],
            };
            self.unknown_fields(ev, tname, known, own);
        }
    }

    /// Whether a framework event's keys are proved by their hashes
    /// (always, but in the tests that compare it with the general path).
    #[inline(always)]
    fn proves_keys(&self) -> bool {
        #[cfg(test)]
        return !self.general_keys;
        #[cfg(not(test))]
        true
    }

    /// The members every framework event is judged on (§ 8.1, § 5.2):
    /// `properties` an object, and no v0.2 flat `seq`/`run` (the stream's
    /// first is the one finding). True when the line has the flat ones.
    /// `tname`: the type, named in messages only.
    fn framework_members(&mut self, ev: &Ev<'_>, tname: &[u8], keys: Option<&Keys>) -> bool {
        const NAMES: [Named; 3] = named(["properties", "seq", "run"]);
        let tstr = || String::from_utf8_lossy(tname);
        let [props, seq, run] = match keys {
            // Keys proved to be the type's own hold no seq or run.
            Some(k) if k.all_known => [k.get(ev, NAMES[0]), None, None],
            Some(k) => k.fields(ev, NAMES),
            None => ev.fields(names(NAMES)),
        };
        if let Some(p) = props.filter(|p| p.kind != Kind::Object) {
            self.here(
                RuleId::Properties,
                format!(
                    "{} has \"properties\": {}, not an object",
                    keep(&tstr()),
                    super::fields::preview(ev.raw(p))
                ),
            );
        }
        // A nested seq beside them makes them unknown fields, not v0.2's.
        let flat = (seq.is_some() || run.is_some()) && self.cur_seq.is_none();
        if flat && !self.flat_envelope {
            self.flat_envelope = true;
            self.here(
                RuleId::EnvelopeFlat,
                format!(
                    "{} has a top-level {}: v0.2's flat envelope; v1.0-alpha nests it as \"aoi\":{{\"seq\":N,\"run\":\"…\"}} (later lines not reported)",
                    keep(&tstr()),
                    if seq.is_some() { "seq" } else { "run" }
                ),
            );
        }
        flat
    }

    /// The members of a framework event its type does not define (they
    /// belong in `properties`, § 8.1), the first few by name, but for
    /// `own`, which have a finding of their own.
    fn unknown_fields(&mut self, ev: &Ev<'_>, tname: &[u8], known: &[&str], own: &[&str]) {
        let (line, members) = (ev.line, ev.members);
        let tstr = || String::from_utf8_lossy(tname);
        let is_known = |m: &Member| {
            let k = span(line, &m.key);
            if m.key_escaped {
                let k = unescape(k);
                known.contains(&&*k) || own.contains(&&*k)
            } else {
                known.iter().chain(own).any(|n| bytes_eq(n.as_bytes(), k))
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
        // Nearly every line names each once.
        if dups.is_empty() {
            return;
        }
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
