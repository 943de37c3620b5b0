//! Forwarding upstream errors and warnings (§ 13.1): which events are
//! errors or warnings, and the forwarded event's bytes (its fields as
//! written, `origin` set, unknown members kept under `properties`), for
//! `aoi errors --output jsonl` and `aoi filter`.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::demux::Prepared;
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
    let mut parts = Prepared::default();
    forwarded_parts(found.ev, found.kind, found.run, found.source, &mut parts);
    forwarded_from(&mut parts, found.tool, found.line_no)
}

/// The forwarded body ([`forwarded_body`]) of an event of the run whose
/// `aoi:meta` names `tool`, at `line_no`, made of its `parts`
/// ([`forwarded_parts`]), whose bytes it takes: what is kept between
/// lines holds no event's bytes.
pub(crate) fn forwarded_from(parts: &mut Prepared, tool: Option<&str>, line_no: u64) -> Vec<u8> {
    let [named, at] = parts.marks;
    let mut b = std::mem::take(&mut parts.bytes);
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(line_no).as_bytes();
    if at <= b.len() {
        b.splice(at..at, digits.iter().copied());
    }
    if named > 0 && named <= b.len() {
        let mut head = Vec::with_capacity(16 + tool.map_or(0, str::len));
        head.extend_from_slice(b",\"origin\":");
        match tool {
            Some(tool) => push_json_str(&mut head, tool),
            None => head.extend_from_slice(b.get(..named).unwrap_or_default()),
        }
        b.splice(..named, head);
    }
    b
}

/// What [`forwarded_body`] writes of an event that depends on the event
/// alone (`run`: its upstream `aoi.run` as written; `source`: the input
/// it is read from), into `out`: the body without its line number (at
/// `marks[1]`) and, when the event names no `origin` of its own, without
/// its origin member: then `bytes[..marks[0]]` is what stands for its
/// run's tool when its run names none.
pub(crate) fn forwarded_parts(
    ev: &Ev<'_>,
    kind: EventKind,
    run: Option<&[u8]>,
    source: &str,
    out: &mut Prepared,
) {
    let line = ev.line;
    let error = kind == EventKind::Error;
    // Each key decoded once; the checks below compare these names.
    let names: Vec<Cow<'_, [u8]>> = ev.members.iter().map(|m| key_name(line, m)).collect();
    let keep = kept_members(ev, error, &names);
    // The spec fields that stayed at the top level, from one pass.
    let [origin_kept, category, code, message, retryable] = kept_of(
        &names,
        &keep,
        [b"origin", b"category", b"code", b"message", b"retryable"],
    );
    let b = &mut out.bytes;
    b.clear();
    b.reserve(line.len() + 160 + source.len());
    let mut named = 0;
    if !origin_kept {
        let first = |name: &str| {
            let i = names.iter().position(|n| **n == *name.as_bytes())?;
            str_ref(line, ev.members.get(i)?)
        };
        match origin_by(first) {
            // The run's tool decides, if it names one.
            Err(fallback) => {
                push_json_str(b, &fallback);
                named = b.len();
            }
            Ok(own) => {
                b.extend_from_slice(b",\"origin\":");
                push_json_str(b, &own);
            }
        }
    }
    let prov = Provenance {
        source,
        run,
        names: &names,
        kept: &keep,
    };
    let mut at = 0;
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
            at = prov.push(b, ev);
            for pm in object_members(value) {
                let pk = span(value, &pm.key);
                if !key_is(pk, pm.key_escaped, "forwarded") {
                    push_member(b, pk, span(value, &pm.value));
                }
            }
            b.push(b'}');
            props_done = true;
        } else {
            push_member(b, span(line, &m.key), value);
        }
    }
    if error {
        if !category {
            b.extend_from_slice(b",\"category\":\"internal\"");
        }
        if !code {
            b.extend_from_slice(b",\"code\":\"UNSPECIFIED\"");
        }
        if !message {
            let msg = ev
                .get("message")
                .and_then(|m| str_ref(line, m))
                .map(|t| one_line_of(&t))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| "(no message)".to_string());
            b.extend_from_slice(b",\"message\":");
            push_json_str(b, &msg);
        }
        if !retryable {
            b.extend_from_slice(b",\"retryable\":false");
        }
    }
    if !props_done {
        b.extend_from_slice(b",\"properties\":{\"forwarded\":");
        at = prov.push(b, ev);
        b.push(b'}');
    }
    out.marks = [named, at];
}

/// For each member of `ev` (named `names`), whether it stays at the top
/// level of the forwarded event: the first of its name, a field the spec
/// defines, and of the shape the spec gives it ([`forwarded_body`]).
fn kept_members(ev: &Ev<'_>, error: bool, names: &[Cow<'_, [u8]>]) -> Vec<bool> {
    let line = ev.line;
    let known = spec::field_table(types::bytes::ERROR);
    let text = |m: &crate::peek::Member| text_bytes(line, m);
    let retryable_true = names
        .iter()
        .position(|n| **n == *b"retryable")
        .and_then(|i| ev.members.get(i))
        .and_then(bool_value)
        .is_some_and(|b| b);
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
            b"category" if error => text(m).is_some_and(|c| *c != *b"partial"),
            b"code" if error => text(m).is_some_and(|c| spec::valid_code(&c)),
            b"message" if error => text(m).is_some_and(|t| single_line_utf8(&t)),
            b"retryable" if error => bool_value(m).is_some(),
            b"retry_after_ms" if error => whole_value(line, m).is_some() && retryable_true,
            // § 9.1's optional fields in their types: a member
            // of another type moves into properties, as an unknown one.
            b"domain" | b"target" | b"field" | b"hint" | b"docs" if error => text(m).is_some(),
            b"item_index" | b"line_number" if error => whole_value(line, m).is_some(),
            b"details" if error => m.kind == Kind::Object,
            b"wrapped" if error => wrapped_ok(span(line, &m.value)),
            b"scope" if error => {
                text(m).is_some_and(|t| spec::SCOPES.iter().any(|s| *s.as_bytes() == *t))
            }
            _ => true,
        };
    }
    keep
}

/// What `properties.forwarded` says of an event: where it came from
/// (`source`, the upstream `run`; its line is the reader's) and which of
/// its members (`names`) did not stay at the top level (not `kept`).
struct Provenance<'a, 'n> {
    source: &'a str,
    run: Option<&'a [u8]>,
    names: &'a [Cow<'n, [u8]>],
    kept: &'a [bool],
}

impl Provenance<'_, '_> {
    /// `properties.forwarded` of `ev`, up to its line number, which is
    /// left out: where it goes is returned. Then the upstream `run` and,
    /// under `fields`, the members that moved there but `type` and `aoi`,
    /// byte for byte.
    fn push(&self, b: &mut Vec<u8>, ev: &Ev<'_>) -> usize {
        b.extend_from_slice(b"{\"source\":");
        push_json_str(b, self.source);
        b.extend_from_slice(b",\"line\":");
        let at = b.len();
        if let Some(r) = self.run {
            b.extend_from_slice(b",\"run\":");
            b.extend_from_slice(r);
        }
        self.push_moved(b, ev);
        b.push(b'}');
        at
    }

    /// `,"fields":{…}`: the members that did not stay at the top level but
    /// `type` and `aoi`, byte for byte; nothing when there are none.
    fn push_moved(&self, b: &mut Vec<u8>, ev: &Ev<'_>) {
        let line = ev.line;
        let mut moved = false;
        for ((m, k), n) in ev.members.iter().zip(self.kept).zip(self.names) {
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
    }
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

/// Whether each of `wanted` names a member that stayed at the top level.
fn kept_of<const N: usize>(
    names: &[Cow<'_, [u8]>],
    kept: &[bool],
    wanted: [&[u8]; N],
) -> [bool; N] {
    let mut found = [false; N];
    for (n, _) in names.iter().zip(kept).filter(|(_, k)| **k) {
        if let Some(i) = wanted.iter().position(|w| **w == **n) {
            if let Some(f) = found.get_mut(i) {
                *f = true;
            }
        }
    }
    found
}

/// A string member's text as UTF-8 bytes (`None` for another kind): an
/// unescaped one is its own bytes, as a key is ([`key_name`]); what
/// [`str_ref`] gives, without checking the UTF-8 again.
fn text_bytes<'l>(line: &'l [u8], m: &crate::peek::Member) -> Option<Cow<'l, [u8]>> {
    let Kind::String { escaped } = m.kind else {
        return None;
    };
    let raw = span(line, &m.value);
    let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    Some(match escaped {
        true => Cow::Owned(unescape(body).into_owned().into_bytes()),
        false => Cow::Borrowed(body),
    })
}

/// [`single_line`] on UTF-8 bytes: no line feed, CR or ESC byte, no C1
/// control (`C2 80`-`C2 9F`), no line or paragraph separator (`E2 80 A8`,
/// `E2 80 A9`).
fn single_line_utf8(t: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&c) = t.get(i) {
        let next = |k: usize| t.get(i + k).copied().unwrap_or(0);
        let bad = match c {
            b'\n' | b'\r' | 0x1b => true,
            0xc2 => (0x80..=0x9f).contains(&next(1)),
            0xe2 => next(1) == 0x80 && matches!(next(2), 0xa8 | 0xa9),
            _ => false,
        };
        if bad {
            return false;
        }
        i += 1;
    }
    true
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
    match (origin_by(field), tool) {
        (Ok(own), _) => own.into_owned(),
        (Err(_), Some(tool)) => tool.to_string(),
        (Err(fallback), None) => fallback.into_owned(),
    }
}

/// [`origin`] as far as the event alone tells it (`field`: the text of
/// its first member of a name): its own `origin`, or, when the run's tool
/// is to decide, what stands for it when the run names none.
fn origin_by<'e>(
    field: impl Fn(&str) -> Option<Cow<'e, str>>,
) -> Result<Cow<'e, str>, Cow<'e, str>> {
    match field("origin") {
        Some(own) => Ok(own),
        None => Err(field("domain").unwrap_or(Cow::Borrowed("unknown"))),
    }
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
