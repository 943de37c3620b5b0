//! The `aoi` envelope (§ 8.1): an object with unique keys, `seq` contiguous
//! from 0 on every line once used, `run` alongside and constant; and the
//! fast read of its usual shape, which nearly every line takes.

use super::Judge;
use super::fields::{keep, number_value, preview, whole_value};
use crate::peek::{Kind, Member, key_is, object_members, span, unescape};
use crate::rules::RuleId;

/// What an envelope says of seq and run (§ 8.1). `has_*`: the member is
/// there, whatever its type: a run of the wrong type is a field-type
/// finding, not also "missing".
#[derive(Default)]
struct Envelope<'a> {
    seq: Option<u64>,
    has_seq: bool,
    run: Option<&'a [u8]>,
    has_run: bool,
    extras: Extras,
}

/// What the envelope says beyond seq and run, for the event's rules:
/// `aoi.t` and whether `type` was put inside it (§ 8.1).
#[derive(Default, Clone, Copy)]
pub(super) struct Extras {
    pub(super) t: Option<f64>,
    pub(super) type_inside: bool,
}

/// The envelope's keys (§ 8.1).
const ENVELOPE_KEYS: &[&str] = &["seq", "run", "t", "trace_id"];

impl Judge {
    /// The `aoi` envelope: object, unique keys, field types, seq and run
    /// continuity (§ 8.1).
    pub(super) fn envelope(&mut self, line: &[u8], env: Option<&Member>) -> Extras {
        let e = self.read_envelope(line, env);
        let extras = e.extras;
        self.cur_seq = e.seq;
        // The run first: a line of another run is that one finding, not
        // also a seq out of order.
        if let Some(r) = e.run {
            self.run_continuity(r);
        }
        // seq: contiguous from 0, on every line once used (§ 8.1).
        if e.has_seq {
            self.seq_present(e.seq, e.has_run);
        } else {
            self.seq_absent();
        }
        extras
    }

    /// `aoi.t` (§ 8.1): milliseconds since `aoi:meta`, so 0 on the meta
    /// and never less than the line before. One finding per stream.
    pub(super) fn envelope_t(&mut self, t: Option<f64>, is_meta: bool) {
        let Some(t) = t else { return };
        let last = self.last_t.replace(t);
        if self.t_reported {
            return;
        }
        let msg = if is_meta && t != 0.0 {
            format!(
                "aoi:meta has aoi.t {t}: t counts milliseconds from aoi:meta, so the meta's is 0"
            )
        } else if let Some(l) = last.filter(|&l| t < l) {
            format!(
                "aoi.t goes back from {l} to {t}: it is milliseconds elapsed since aoi:meta (later ones not reported)"
            )
        } else {
            return;
        };
        self.t_reported = true;
        self.here(RuleId::EnvelopeT, msg);
    }

    /// Reads seq and run: from the usual shape without a walk, else from
    /// each member, reporting what is not of its type.
    fn read_envelope<'a>(&mut self, line: &'a [u8], env: Option<&Member>) -> Envelope<'a> {
        // The peek read the usual shape already; else try it here.
        // The peek's shape has no `t`; the longer one may end with it.
        let (fast, may_have_t) = match &self.peeker.envelope {
            Some((v, r)) => (Some((*v, span(line, r))), false),
            None => (
                env.filter(|e| e.kind == Kind::Object)
                    .and_then(|e| canonical_envelope(span(line, &e.value))),
                true,
            ),
        };
        match (fast, env) {
            (Some((v, r)), _) => Envelope {
                seq: Some(v),
                has_seq: true,
                run: Some(r),
                has_run: true,
                extras: Extras {
                    t: env
                        .filter(|_| may_have_t)
                        .and_then(|e| canonical_t(span(line, &e.value))),
                    type_inside: false,
                },
            },
            (None, Some(env)) if env.kind != Kind::Object => {
                self.here(
                    RuleId::EnvelopeNotObject,
                    format!("\"aoi\" is a {}, not an object", env.kind.name()),
                );
                Envelope::default()
            }
            // The general path (the canonical shape took the fast one).
            (None, Some(env)) => self.envelope_members(span(line, &env.value)),
            (None, None) => Envelope::default(),
        }
    }

    /// The general path: each key once, seq, run, t and trace_id in their
    /// types.
    fn envelope_members<'a>(&mut self, obj: &'a [u8]) -> Envelope<'a> {
        let mut e = Envelope::default();
        let mut unknown: Vec<String> = Vec::new();
        let mut seen: Vec<std::borrow::Cow<'_, str>> = Vec::new();
        for m in object_members(obj) {
            let k = span(obj, &m.key);
            let name = unescape(k);
            let dup = seen.contains(&name);
            if dup {
                self.here(
                    RuleId::EnvelopeDuplicateKey,
                    format!("\"aoi.{}\" appears more than once", keep(&unescape(k))),
                );
                continue;
            }
            seen.push(name);
            let v = span(obj, &m.value);
            let wrong = |what: &str| format!("{what} is {}", preview(v));
            if key_is(k, m.key_escaped, "seq") {
                e.has_seq = true;
                e.seq = self.envelope_seq(obj, &m, wrong("aoi.seq"));
            } else if key_is(k, m.key_escaped, "run") {
                e.has_run = true;
                match m.kind {
                    Kind::String { .. } if m.value.len() > 2 => e.run = Some(v),
                    _ => self.here(
                        RuleId::EnvelopeFieldType,
                        wrong("aoi.run") + ", not a non-empty string",
                    ),
                }
            } else if key_is(k, m.key_escaped, "t") {
                if !matches!(m.kind, Kind::Number { .. }) || v.first() == Some(&b'-') {
                    self.here(
                        RuleId::EnvelopeFieldType,
                        wrong("aoi.t") + ", not a non-negative number",
                    );
                } else {
                    e.extras.t = number_value(obj, &m);
                }
            } else if key_is(k, m.key_escaped, "trace_id") {
                if !matches!(m.kind, Kind::String { .. }) {
                    self.here(
                        RuleId::EnvelopeFieldType,
                        "aoi.trace_id is not a string".into(),
                    );
                }
            } else if key_is(k, m.key_escaped, "type") {
                // § 8.1: top level, never inside aoi; the event's rules
                // word the one finding (`envelope.type`).
                e.extras.type_inside = true;
            } else {
                unknown.push(keep(&unescape(k)));
            }
        }
        if !unknown.is_empty() {
            unknown.truncate(16);
            self.here(
                RuleId::EnvelopeUnknownKey,
                format!(
                    "aoi holds keys the spec does not define: {} (the envelope's are {})",
                    unknown.join(", "),
                    ENVELOPE_KEYS.join(", ")
                ),
            );
        }
        e
    }

    /// `aoi.seq` (§ 8.1): a whole number >= 0 up to 2^64-1 (aoi's limit);
    /// `3.0` is 3 with an advisory (JSON Schema 2020-12).
    fn envelope_seq(&mut self, obj: &[u8], m: &Member, wrong: String) -> Option<u64> {
        match whole_value(obj, m) {
            Some(w) => match w.value {
                Some(n) => {
                    if !w.plain {
                        self.here(
                            RuleId::NumberIntegerForm,
                            format!("{wrong}: the integer {n} written with a fraction or exponent"),
                        );
                    }
                    Some(n)
                }
                None => {
                    self.here(
                        RuleId::EnvelopeFieldType,
                        wrong + ", past 2^64-1, the largest seq aoi reads",
                    );
                    None
                }
            },
            None => {
                self.here(
                    RuleId::EnvelopeFieldType,
                    wrong + ", not a non-negative integer",
                );
                None
            }
        }
    }

    /// A line with `aoi.seq` (a number or not): the lines before it that
    /// had none, its place in the order, and its run alongside.
    fn seq_present(&mut self, seq: Option<u64>, has_run: bool) {
        if !self.seq_seen && self.lines_without_seq > 0 {
            let at = self.first_without_seq;
            let n = self.lines_without_seq;
            self.report(
                RuleId::SeqMissing,
                at,
                format!("{n} event line(s) before this one carry no aoi.seq"),
            );
            // Numbered as if those lines held their seqs (0 to n-1),
            // this one is in order: the one defect is reported once,
            // as it is in mid-stream. (Numbered from 0, it is too.)
            if seq == Some(n) {
                self.next_seq = n;
            }
        }
        self.seq_seen = true;
        match seq {
            Some(v) => self.seq_order(v),
            None => self.next_seq = self.next_seq.saturating_add(1),
        }
        if !has_run {
            self.here(RuleId::RunMissing, "aoi.seq without aoi.run".into());
        }
    }

    /// Seq `v` against the one expected: from 0, contiguous.
    fn seq_order(&mut self, v: u64) {
        let unread = std::mem::take(&mut self.unreadable_since_seq);
        let first = self.next_seq == 0 && v == 1 && self.object_lines <= 1 && unread == 0;
        if first {
            // Counts from 1 (`seq.start`), or the first two lines were
            // swapped: which one, the next lines tell (`order`).
            self.seq_first_is_one();
        } else if v > self.next_seq && v - self.next_seq <= unread {
            // The lines in between are there but unreadable, each
            // already reported: no line is missing.
            self.next_seq = v.saturating_add(1);
        } else {
            // In order, a jump held, a late line or a repeat (`order`).
            self.seq_place(v);
        }
    }

    /// A line without `aoi.seq`: missing once seq is in use; before that,
    /// counted, to be reported when the first seq comes.
    fn seq_absent(&mut self) {
        if self.seq_seen {
            let expected = self.next_seq;
            self.here(
                RuleId::SeqMissing,
                format!("event has no aoi.seq (expected {expected})"),
            );
            self.next_seq = self.next_seq.saturating_add(1);
        } else if self.lines_without_seq == 0 {
            self.first_without_seq = self.pos;
        }
        self.lines_without_seq += 1;
    }

    /// `aoi.run` the same on every line: the first change is reported.
    fn run_continuity(&mut self, r: &[u8]) {
        match &self.run {
            None => self.run = Some(r.to_vec()),
            Some(first) if !self.run_changed && !same_json_string(first, r) => {
                self.run_changed = true;
                let (a, b) = (preview(first), preview(r));
                self.here(
                    RuleId::RunChanged,
                    format!("aoi.run changed from {a} to {b}"),
                );
            }
            _ => {}
        }
    }
}

/// True when two raw JSON string values (quotes included) denote the same
/// string: bytes first, decoded only when either has an escape.
fn same_json_string(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    if !a.contains(&b'\\') && !b.contains(&b'\\') {
        return false;
    }
    let body =
        |r: &[u8]| unescape(r.get(1..r.len().saturating_sub(1)).unwrap_or_default()).into_owned();
    body(a) == body(b)
}

/// The `t` of an envelope of the canonical shape (`{"seq":N,"run":"R","t":T}`),
/// when it has one: the last member, read only on lines that carry it.
fn canonical_t(obj: &[u8]) -> Option<f64> {
    let colon = memchr::memrchr(b':', obj)?;
    if !obj.get(..colon)?.ends_with(b",\"t\"") {
        return None;
    }
    let text = std::str::from_utf8(obj.get(colon + 1..obj.len().checked_sub(1)?)?).ok()?;
    text.parse::<f64>().ok()
}

/// The raw value (quotes included) of `aoi.run` in the envelope member
/// `env` of `line`, when it is a non-empty string: the key by which logs
/// that interleave several runs are demultiplexed (§ 8.1: `aoi.run` makes
/// every line attributable on its own).
pub fn envelope_run<'a>(line: &'a [u8], env: &Member) -> Option<&'a [u8]> {
    if env.kind != Kind::Object {
        return None;
    }
    let obj = span(line, &env.value);
    if let Some((_, run)) = canonical_envelope(obj) {
        return Some(run);
    }
    object_members(obj)
        .find(|m| key_is(span(obj, &m.key), m.key_escaped, "run"))
        .filter(|m| matches!(m.kind, Kind::String { .. }) && m.value.len() > 2)
        .map(|m| span(obj, &m.value))
}

/// The common envelope shape `{"seq":N,"run":"R"}` (optionally followed by
/// `,"t":N`), read without the general member walk. Any other shape, or
/// anything needing a check (escapes, non-integer seq, an empty run, other
/// keys), returns `None` and takes the general path. The object is already
/// validated JSON. Returns seq and the run's raw value (with quotes).
#[inline]
pub(super) fn canonical_envelope(obj: &[u8]) -> Option<(u64, &[u8])> {
    let rest = obj.strip_prefix(b"{\"seq\":")?;
    let nd = rest.iter().position(|c| !c.is_ascii_digit())?;
    if nd == 0 || nd > 19 || (nd > 1 && rest.first() == Some(&b'0')) {
        return None;
    }
    let mut v: u64 = 0;
    for &c in rest.get(..nd)? {
        v = v * 10 + u64::from(c - b'0');
    }
    let rest = rest.get(nd..)?.strip_prefix(b",\"run\":\"")?;
    let q = memchr::memchr2(b'"', b'\\', rest)?;
    if q == 0 || rest.get(q) != Some(&b'"') {
        return None;
    }
    let run_start = obj.len() - rest.len() - 1;
    let run = obj.get(run_start..run_start + q + 2)?;
    let tail = rest.get(q + 1..)?;
    if tail == b"}" {
        return Some((v, run));
    }
    let t = tail.strip_prefix(b",\"t\":")?.strip_suffix(b"}")?;
    if !t.is_empty() && t.iter().all(|c| c.is_ascii_digit() || *c == b'.') {
        return Some((v, run));
    }
    None
}
