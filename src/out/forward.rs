//! Forwarding upstream errors and warnings (§ 13.1): which events are
//! errors or warnings, and the forwarded event's bytes (its fields as
//! written, `origin` set, unknown members kept under `properties`), for
//! `aoi errors --output jsonl` and `aoi filter`.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::emit::push_json_str;
use crate::judge::fields::{Ev, bool_value, str_ref, whole_value, wrapped_protocol};
use crate::peek::{Kind, Peeker, key_is, object_members, span, unescape};
use crate::spec::{self, types};

/// Which framework event a line is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventKind {
    Error,
    Warning,
}

/// Whether the located event is an `aoi:error` (or, when asked, an
/// `aoi:warning`).
pub(crate) fn event_kind(obj: &[u8], peeker: &Peeker, warnings: bool) -> Option<EventKind> {
    let ty = peeker.type_member.and_then(|i| peeker.members.get(i))?;
    let raw = span(obj, &ty.value);
    match ty.kind {
        // The common case, decided on the bytes: no escapes to decode.
        Kind::String { escaped: false } => {
            return match raw {
                b"\"aoi:error\"" => Some(EventKind::Error),
                b"\"aoi:warning\"" if warnings => Some(EventKind::Warning),
                _ => None,
            };
        }
        Kind::String { escaped: true } => {}
        _ => return None,
    }
    let name = str_ref(obj, ty)?;
    match name.as_ref() {
        types::ERROR => Some(EventKind::Error),
        types::WARNING if warnings => Some(EventKind::Warning),
        _ => None,
    }
}

/// The members of a forwarded event after aoi's own envelope: `origin`
/// (§ 13.1: MUST when forwarded) unless the event already names one, then
/// every upstream member the spec defines but `type` and `aoi`, byte for
/// byte, in order, with aoi's provenance in `properties.forwarded`
/// (`source`, `line`, the upstream `run`).
///
/// A forwarded event is aoi's own output and must conform, whatever the
/// upstream wrote: a member the spec does not define (§ 8.1: it belongs in
/// `properties`), a second occurrence of a key, or, on an `aoi:error`, a
/// spec field of the wrong shape (§ 9.1: `category` not a string or the
/// removed `partial`, `code` not `[A-Z][A-Z0-9_]*`, `message` not one
/// line, `retryable` not a boolean, `retry_after_ms` without
/// `retryable:true`, an unknown `scope`, a non-string `origin`) moves,
/// byte for byte, into `properties.forwarded.fields`, never dropped. A
/// required error field left missing is then supplied: `category`
/// `internal` (§ 9.4 routes the unknown as internal), `code`
/// `UNSPECIFIED`, the message sanitised to one line (or `(no message)`),
/// `retryable:false` (§ 9.3: what a producer must say when it cannot
/// tell).
pub(crate) fn forwarded_body(found: &Found<'_, '_>) -> Vec<u8> {
    let ev = found.ev;
    let line = ev.line;
    let error = found.kind == EventKind::Error;
    // Each key decoded once; the checks below compare these names.
    let names: Vec<Cow<'_, [u8]>> = ev.members.iter().map(|m| key_name(line, m)).collect();
    let keep = kept_members(ev, error, &names);
    let kept = |name: &[u8]| names.iter().zip(&keep).any(|(n, k)| *k && **n == *name);
    let mut b = Vec::with_capacity(line.len() + 160 + found.source.len());
    if !kept(b"origin") {
        b.extend_from_slice(b",\"origin\":");
        push_json_str(&mut b, &origin(ev, found.tool));
    }
    let reserved = |n: &[u8]| n == b"type" || n == b"aoi";
    let mut props_done = false;
    for ((m, k), n) in ev.members.iter().zip(&keep).zip(&names) {
        if !k || reserved(n) {
            continue;
        }
        let value = span(line, &m.value);
        if **n == *b"properties" {
            // Our provenance first, then the upstream's own properties but
            // an earlier hop's `forwarded`.
            b.extend_from_slice(b",\"properties\":{\"forwarded\":");
            push_provenance(&mut b, found, &names, &keep);
            for pm in object_members(value) {
                let pk = span(value, &pm.key);
                if !key_is(pk, pm.key_escaped, "forwarded") {
                    push_member(&mut b, pk, span(value, &pm.value));
                }
            }
            b.push(b'}');
            props_done = true;
        } else {
            push_member(&mut b, span(line, &m.key), value);
        }
    }
    if error {
        if !kept(b"category") {
            b.extend_from_slice(b",\"category\":\"internal\"");
        }
        if !kept(b"code") {
            b.extend_from_slice(b",\"code\":\"UNSPECIFIED\"");
        }
        if !kept(b"message") {
            let msg = ev
                .get("message")
                .and_then(|m| str_ref(line, m))
                .map(|t| one_line_of(&t))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| "(no message)".to_string());
            b.extend_from_slice(b",\"message\":");
            push_json_str(&mut b, &msg);
        }
        if !kept(b"retryable") {
            b.extend_from_slice(b",\"retryable\":false");
        }
    }
    if !props_done {
        b.extend_from_slice(b",\"properties\":{\"forwarded\":");
        push_provenance(&mut b, found, &names, &keep);
        b.push(b'}');
    }
    b
}

/// For each member of `ev` (named `names`), whether it stays at the top
/// level of the forwarded event: the first of its name, a field the spec
/// defines, and of the shape the spec gives it ([`forwarded_body`]).
fn kept_members(ev: &Ev<'_>, error: bool, names: &[Cow<'_, [u8]>]) -> Vec<bool> {
    let line = ev.line;
    let known = spec::field_table(types::bytes::ERROR);
    let text = |m: &crate::peek::Member| str_ref(line, m);
    let retryable_true = ev.get("retryable").and_then(bool_value).is_some_and(|b| b);
    let mut keep = first_occurrences(names);
    for ((m, name), k) in ev.members.iter().zip(names).zip(keep.iter_mut()) {
        let n: &[u8] = name;
        if !*k || !known.is_some_and(|t| t.has(n, spec::field_hash(n))) {
            *k = false;
            continue;
        }
        *k = match n {
            b"properties" => m.kind == Kind::Object,
            b"origin" => text(m).is_some(),
            b"category" if error => text(m).is_some_and(|c| c != "partial"),
            b"code" if error => text(m).is_some_and(|c| spec::valid_code(c.as_bytes())),
            b"message" if error => text(m).is_some_and(|t| single_line(&t)),
            b"retryable" if error => bool_value(m).is_some(),
            b"retry_after_ms" if error => whole_value(line, m).is_some() && retryable_true,
            // § 9.1's optional fields in their types: a member
            // of another type moves into properties, as an unknown one.
            b"domain" | b"target" | b"field" | b"hint" | b"docs" if error => text(m).is_some(),
            b"item_index" | b"line_number" if error => whole_value(line, m).is_some(),
            b"details" if error => m.kind == Kind::Object,
            b"wrapped" if error => wrapped_ok(span(line, &m.value)),
            b"scope" if error => text(m).is_some_and(|t| spec::SCOPES.contains(&t.as_ref())),
            _ => true,
        };
    }
    keep
}

/// `properties.forwarded`: where the event came from (`source`, `line`,
/// the upstream `run`) and, under `fields`, the members that did not stay
/// at the top level (not `kept`) but `type` and `aoi`, byte for byte.
fn push_provenance(b: &mut Vec<u8>, found: &Found<'_, '_>, names: &[Cow<'_, [u8]>], kept: &[bool]) {
    let line = found.ev.line;
    b.extend_from_slice(b"{\"source\":");
    push_json_str(b, found.source);
    b.extend_from_slice(b",\"line\":");
    b.extend_from_slice(itoa::Buffer::new().format(found.line_no).as_bytes());
    if let Some(r) = found.run {
        b.extend_from_slice(b",\"run\":");
        b.extend_from_slice(r);
    }
    let mut moved = false;
    for ((m, k), n) in found.ev.members.iter().zip(kept).zip(names) {
        let n: &[u8] = n;
        if *k || n == b"type" || n == b"aoi" {
            continue;
        }
        match moved {
            false => b.extend_from_slice(b",\"fields\":{\""),
            true => b.extend_from_slice(b",\""),
        }
        moved = true;
        b.extend_from_slice(span(line, &m.key));
        b.extend_from_slice(b"\":");
        b.extend_from_slice(span(line, &m.value));
    }
    if moved {
        b.push(b'}');
    }
    b.push(b'}');
}

/// A member's key, decoded, as UTF-8 bytes: most keys hold no escape,
/// and the peek proved the line UTF-8, so they are their own bytes.
fn key_name<'l>(line: &'l [u8], m: &crate::peek::Member) -> Cow<'l, [u8]> {
    let raw = span(line, &m.key);
    if m.key_escaped {
        Cow::Owned(unescape(raw).into_owned().into_bytes())
    } else {
        Cow::Borrowed(raw)
    }
}

/// A message the spec accepts: one line, no ANSI or C1 controls (§ 9.1).
fn single_line(s: &str) -> bool {
    !s.chars().any(|c| {
        matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{1b}')
            || ('\u{80}'..='\u{9f}').contains(&c)
    })
}

/// `s` made one line: every control or separator character a space.
pub(crate) fn one_line_of(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if single_line(c.encode_utf8(&mut [0; 4])) && !c.is_control() {
                c
            } else {
                ' '
            }
        })
        .collect();
    t.trim().to_string()
}

/// `,"key":value` with the key's bytes as they came (still escaped).
pub(crate) fn push_member(b: &mut Vec<u8>, key: &[u8], value: &[u8]) {
    b.extend_from_slice(b",\"");
    b.extend_from_slice(key);
    b.extend_from_slice(b"\":");
    b.extend_from_slice(value);
}

// --- the table ------------------------------------------------------------

/// An upstream error or warning found, and where: what its forwarded
/// body, or a row of `aoi errors`' table, names.
#[derive(Clone, Copy)]
pub(crate) struct Found<'a, 'e> {
    pub(crate) ev: &'a Ev<'e>,
    pub(crate) kind: EventKind,
    /// The tool its run's `aoi:meta` names.
    pub(crate) tool: Option<&'a str>,
    /// Its upstream `aoi.run`, as it was written.
    pub(crate) run: Option<&'a [u8]>,
    pub(crate) line_no: u64,
    pub(crate) source: &'a str,
}

/// The tool that raised the event: its own `origin` when it was already
/// forwarded, else its run's `aoi:meta.tool`, else its `domain` (§ 9.1:
/// the namespace of `code`, which defaults to the tool), else "unknown".
pub(crate) fn origin(ev: &Ev<'_>, tool: Option<&str>) -> String {
    let field = |name: &str| ev.get(name).and_then(|m| str_ref(ev.line, m));
    field("origin")
        .map(|o| o.into_owned())
        .or_else(|| tool.map(str::to_string))
        .or_else(|| field("domain").map(|d| d.into_owned()))
        .unwrap_or_else(|| "unknown".to_string())
}

/// `wrapped` as § 9.1 has it: an object whose `protocol` is http, grpc or
/// exit.
fn wrapped_ok(raw: &[u8]) -> bool {
    wrapped_protocol(raw)
        .and_then(|p| str_ref(raw, &p))
        .is_some_and(|p| spec::WRAPPED_PROTOCOLS.contains(&p.as_ref()))
}

/// For each name, whether it is its first occurrence. Most events have a
/// dozen members, compared pairwise; a line may hold millions, where
/// pairwise comparison would take hours, so many go through a set.
fn first_occurrences(names: &[Cow<'_, [u8]>]) -> Vec<bool> {
    if names.len() <= 32 {
        return (0..names.len())
            .map(|i| match names.get(..i) {
                Some(before) => names.get(i).is_some_and(|n| !before.contains(n)),
                None => false,
            })
            .collect();
    }
    let mut seen = HashSet::with_capacity(names.len());
    names.iter().map(|n| seen.insert(n.as_ref())).collect()
}
