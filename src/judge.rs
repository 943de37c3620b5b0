//! The stream judge: the state machine every stream-reading command shares.
//!
//! Feed it lines with [`Judge::line`] (and lines longer than the reader
//! holds, piece by piece, with [`Judge::long_part`]), drain the findings it produced with
//! [`Judge::drain`], and call [`Judge::finish`] at end of input for the
//! [`Verdict`]: outcome, exit code, counts, identity and the § 18 factors.
//! Memory is bounded: the judge keeps counters and a few small strings, never
//! lines.

use std::collections::HashMap;

use crate::peek::{self, Kind, Member, Peeker, bytes_eq, key_is, object_members, span, unescape};
use crate::rules::{Factor, RuleId, Severity};
use crate::spec::{self, exit};

/// Options with the same meaning in every command that judges a stream.
#[derive(Debug, Clone)]
pub struct JudgeOptions {
    /// The operation is documented unbounded (§ 4.2): EOF without a summary
    /// is a clean end.
    pub unbounded: bool,
    /// Treat `aoi:summary.partial:true` as a failure (exit 1).
    pub fail_on_partial: bool,
    /// Findings of one rule handed out per stream; the rest are only counted.
    pub per_rule_limit: u64,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            unbounded: false,
            fail_on_partial: false,
            per_rule_limit: 100,
        }
    }
}

/// One finding: a rule broken (or advised) at a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The rule broken.
    pub rule: RuleId,
    /// 1-based line number; 0 for findings about the stream as a whole.
    pub line: u64,
    /// The line's `aoi.seq`, when it had one.
    pub seq: Option<u64>,
    /// What is wrong, in one sentence.
    pub message: String,
}

/// The identity an AOI stream declares (§ 5).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Identity {
    /// `tool`.
    pub tool: Option<String>,
    /// `tool_version`.
    pub tool_version: Option<String>,
    /// `aoi_version`.
    pub aoi_version: Option<String>,
    /// `schema_name`.
    pub schema_name: Option<String>,
    /// `schema_version`.
    pub schema_version: Option<String>,
}

impl Identity {
    /// True when no field is known.
    pub fn is_empty(&self) -> bool {
        self.tool.is_none()
            && self.tool_version.is_none()
            && self.aoi_version.is_none()
            && self.schema_name.is_none()
            && self.schema_version.is_none()
    }
    /// `(name, value)` pairs of the known fields.
    pub fn fields(&self) -> Vec<(&'static str, &str)> {
        let mut v = Vec::new();
        for (k, f) in [
            ("tool", &self.tool),
            ("tool_version", &self.tool_version),
            ("aoi_version", &self.aoi_version),
            ("schema_name", &self.schema_name),
            ("schema_version", &self.schema_version),
        ] {
            if let Some(s) = f {
                v.push((k, s.as_str()));
            }
        }
        v
    }
}

/// The retry-critical fields of an error (§ 13.1 `caused_by`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cause {
    /// `origin`: the tool that raised the error first (§ 13.1).
    pub origin: Option<String>,
    /// `category` (§ 9.2).
    pub category: Option<String>,
    /// `code` (§ 9.1).
    pub code: Option<String>,
    /// `retryable`, authoritative (§ 9.3).
    pub retryable: Option<bool>,
    /// `retry_after_ms`, kept only with `retryable:true`.
    pub retry_after_ms: Option<u64>,
    /// `message`.
    pub message: Option<String>,
    /// Line of the `aoi:error` (0 when taken from `caused_by`).
    pub line: u64,
    /// `scope` is `process` (or absent, which defaults to process).
    pub process_scope: bool,
}

/// How a stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Complete, conforming, `ok:true` (or a clean unbounded end).
    Ok,
    /// Conforming, upstream `ok:false`, not retryable.
    Failed,
    /// Conforming, upstream failed, retry may help.
    Retryable,
    /// Upstream `reason:"denied"`.
    Denied,
    /// Upstream `reason:"timeout"`.
    Timeout,
    /// Upstream `reason:"cancelled"`.
    Cancelled,
    /// EOF without summary, unterminated final line, or an I/O error.
    Incomplete,
    /// The stream breaks the contract.
    Violation,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Outcome {
    /// Every outcome, best first.
    pub const ALL: [Outcome; 8] = [
        Outcome::Ok,
        Outcome::Failed,
        Outcome::Retryable,
        Outcome::Denied,
        Outcome::Timeout,
        Outcome::Cancelled,
        Outcome::Incomplete,
        Outcome::Violation,
    ];

    /// The outcome of that [`Outcome::name`].
    pub fn from_name(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The outcome's name in reports (`ok`, `failed`, …, `violation`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::Retryable => "retryable",
            Outcome::Denied => "denied",
            Outcome::Timeout => "timeout",
            Outcome::Cancelled => "cancelled",
            Outcome::Incomplete => "incomplete",
            Outcome::Violation => "violation",
        }
    }
    /// The category and code of the `aoi:error` aoi reports when a stream
    /// itself failed (broke the contract, or was cut); `None` for the
    /// upstream's own outcomes.
    pub fn own_failure(self) -> Option<(&'static str, &'static str)> {
        match self {
            Outcome::Violation => Some(("validation", "STREAM_NONCONFORMING")),
            Outcome::Incomplete => Some(("io", "STREAM_INCOMPLETE")),
            _ => None,
        }
    }

    /// The exit status of the shared table (§ 6).
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Ok => exit::OK,
            Outcome::Failed => exit::FAILED,
            Outcome::Retryable => exit::TEMPFAIL,
            Outcome::Denied => exit::NOPERM,
            Outcome::Timeout => exit::TIMEOUT,
            Outcome::Cancelled => exit::CANCELLED,
            Outcome::Incomplete => exit::IOERR,
            Outcome::Violation => exit::DATAERR,
        }
    }
}

/// Which § 18 factors the stream alone shows to hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Factors {
    /// Typed: every line is an object with a string `type`.
    pub typed: bool,
    /// Verifiable: `seq` contiguous from 0 under one `run`, reconciled with `event_count`.
    pub verifiable: bool,
    /// Versioned: the identity triple on `aoi:meta` (and on the summary).
    pub versioned: bool,
    /// Composable: forwarded errors carry `origin`, failures `caused_by`.
    pub composable: bool,
    /// Bounded: a truncated result says so (`truncated`, `next_cursor`).
    pub bounded: bool,
}

/// What the upstream's terminal summary said.
#[derive(Debug, Clone, Default)]
pub struct SummaryInfo {
    /// Its line number.
    pub line: u64,
    /// `ok`.
    pub ok: Option<bool>,
    /// `reason`.
    pub reason: Option<String>,
    /// `partial`.
    pub partial: bool,
    /// `truncated`.
    pub truncated: bool,
    /// `elapsed_ms`: any non-negative number (the spec gives it no type;
    /// `performance.now()` differences have fractions).
    pub elapsed_ms: Option<f64>,
    /// `caused_by`, read.
    pub caused_by: Option<Cause>,
    /// The identity it carries (§ 5).
    pub identity: Identity,
    /// The summary line as it came (without its line feed).
    pub raw: Vec<u8>,
}

/// The judge's conclusion on one stream.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// How the stream ended.
    pub outcome: Outcome,
    /// The exit status for it, from the shared table (§ 6).
    pub exit_code: i32,
    /// One sentence on why.
    pub reason: String,
    /// Lines read (the unterminated last one included).
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Domain events (unprefixed types).
    pub domain_events: u64,
    /// Framework events (`aoi:*`).
    pub framework_events: u64,
    /// `aoi:warning` events.
    pub warnings: u64,
    /// `aoi:error` events.
    pub errors: u64,
    /// Findings of violation severity.
    pub violations: u64,
    /// Findings that say the stream is incomplete.
    pub incompletes: u64,
    /// Advisory findings.
    pub advisories: u64,
    /// Findings per rule, in catalog order.
    pub rule_counts: Vec<(RuleId, u64)>,
    /// Events per type, in order of first appearance.
    pub events_by_type: Vec<(String, u64)>,
    /// Distinct types past the tracking cap, counted together.
    pub other_types: u64,
    /// Whether the last line ended in a line feed.
    pub terminated: bool,
    /// The identity `aoi:meta` declared.
    pub identity: Identity,
    /// The stream's `aoi.run`, decoded.
    pub run: Option<String>,
    /// The terminal summary, if one came.
    pub summary: Option<SummaryInfo>,
    /// The most severe upstream error, or the summary's `caused_by`: what a
    /// downstream `caused_by` reproduces.
    pub cause: Option<Cause>,
    /// The § 18 factors the stream shows to hold.
    pub factors: Factors,
    /// `aoi:check` events with `ok:false`, and the first one's name: what
    /// a failed doctor run failed on.
    pub failed_checks: (u64, Option<String>),
}

/// Distinct event types tracked by name; more are counted as "other".
const MAX_TYPES: usize = 1024;
/// Longest type name tracked by name; longer ones count as "other".
const MAX_TYPE_LEN: usize = 256;
/// Longest upstream string the judge keeps (identity, codes, messages).
const MAX_KEPT: usize = 1024;

/// Event types by name with their counts, in first-seen order (at most
/// [`MAX_TYPES`] names of at most [`MAX_TYPE_LEN`] bytes).
///
/// Every event's type is counted, so the lookup is on the path of every
/// line. A name is looked up by its [`TypeKey`]: the last type first
/// (consecutive events mostly share one), then a linear scan of the keys
/// of the first [`TypeCounts::SCAN`] names, then a hash map for the rest.
/// (A map for every stream of more than 8 types, as before, cost `check`
/// 9% of its time on a stream of 12 types in turn: SipHash on each line.)
#[derive(Default)]
struct TypeCounts {
    names: Vec<Vec<u8>>,
    counts: Vec<u64>,
    keys: Vec<TypeKey>,
    /// Names after the first [`TypeCounts::SCAN`], by name.
    index: HashMap<Vec<u8>, usize>,
    last: usize,
}

/// A name's length and its first and last four bytes: names with
/// different keys differ, and names of at most 8 bytes with one key are
/// equal (the key holds every byte); longer ones are compared.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct TypeKey(u64, usize);

impl TypeKey {
    #[inline(always)]
    fn of(name: &[u8]) -> TypeKey {
        let n = name.len();
        let word = match (name.first_chunk::<4>(), name.last_chunk::<4>()) {
            (Some(h), Some(t)) => {
                u64::from(u32::from_le_bytes(*h)) << 32 | u64::from(u32::from_le_bytes(*t))
            }
            // Under 4 bytes: the bytes themselves (the length tells
            // "a" from "a\0").
            _ => name.iter().fold(0u64, |w, &c| w << 8 | u64::from(c)),
        };
        TypeKey(word, n)
    }

    /// Whether `name`, whose key is `self`, is `known`, whose key is `k`.
    #[inline(always)]
    fn names(self, name: &[u8], k: TypeKey, known: Option<&Vec<u8>>) -> bool {
        self == k && (self.1 <= 8 || known.is_some_and(|t| t.as_slice() == name))
    }
}

impl TypeCounts {
    /// Names found by scanning their keys.
    const SCAN: usize = 64;

    /// Counts one event of type `name`; false if the name is not tracked
    /// (too many names, or too long).
    #[inline]
    fn count(&mut self, name: &[u8]) -> bool {
        let key = TypeKey::of(name);
        let last = self.last;
        let found = if self
            .keys
            .get(last)
            .is_some_and(|&k| key.names(name, k, self.names.get(last)))
        {
            Some(last)
        } else {
            let scan = self.keys.get(..Self::SCAN).unwrap_or(&self.keys);
            scan.iter()
                .enumerate()
                .find(|&(i, &k)| key.names(name, k, self.names.get(i)))
                .map(|(i, _)| i)
                .or_else(|| {
                    (self.names.len() > Self::SCAN)
                        .then(|| self.index.get(name).copied())
                        .flatten()
                })
        };
        let i = match found {
            Some(i) => i,
            None if self.names.len() < MAX_TYPES && name.len() <= MAX_TYPE_LEN => {
                let i = self.names.len();
                if i >= Self::SCAN {
                    self.index.insert(name.to_vec(), i);
                }
                self.names.push(name.to_vec());
                self.counts.push(0);
                self.keys.push(key);
                i
            }
            None => return false,
        };
        self.last = i;
        if let Some(n) = self.counts.get_mut(i) {
            *n += 1;
        }
        true
    }

    /// The names with their counts, in first-seen order.
    fn iter(&self) -> impl Iterator<Item = (&[u8], u64)> {
        self.names
            .iter()
            .map(Vec::as_slice)
            .zip(self.counts.iter().copied())
    }
}

/// What the last line judged was, for commands that route lines
/// (`strip` keeps domain events and drops the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineClass {
    /// Not a complete JSON object with a string `type`: blank, prose,
    /// invalid, unterminated, over-long, or without a usable `type`.
    Invalid,
    /// An event whose `type` has no `aoi:` prefix.
    Domain,
    /// An `aoi:*` event.
    Framework,
}

/// The stream-level state machine.
pub struct Judge {
    last_class: LineClass,
    opts: JudgeOptions,
    /// Boxed, so [`Judge::line_at`] trades it for the caller's in one move.
    peeker: Box<Peeker>,
    /// A line longer than the reader holds, read in pieces, and whether
    /// the last line was one.
    long: crate::long::LongLine,
    last_long: bool,
    long_piece: bool,
    pending: Vec<Finding>,
    rule_counts: Vec<u64>,
    line_no: u64,
    /// Position of the current line for findings: `line_no`, or the line
    /// number in the source a demultiplexed line came from
    /// ([`Judge::line_at`]).
    pos: u64,
    bytes: u64,
    object_lines: u64,
    domain: u64,
    framework: u64,
    warnings: u64,
    errors: u64,
    /// Distinct types with their counts.
    types: TypeCounts,
    other_types: u64,
    /// Seq of the current line, for findings.
    cur_seq: Option<u64>,
    seq_seen: bool,
    next_seq: u64,
    lines_without_seq: u64,
    /// Lines that could not be read as events (not JSON, not an object,
    /// too long): in all, and since the last event with a seq. A seq or
    /// count that misses exactly those lines is their effect, not another
    /// cause (issue 25: one cause, one finding).
    unreadable: u64,
    unreadable_since_seq: u64,
    /// Inside a run of lines that look like pretty-printed JSON: its first
    /// line was reported, the rest are only counted.
    in_pretty: bool,
    /// The stream declared another major AOI version (§ 5): after that one
    /// finding, only whether the run finished is judged.
    foreign: bool,
    first_without_seq: u64,
    run: Option<Vec<u8>>,
    run_changed: bool,
    meta_count: u64,
    identity: Identity,
    summary: Option<SummaryInfo>,
    after_summary: u64,
    terminated: bool,
    worst_error: Option<Cause>,
    /// See [`Verdict::failed_checks`].
    failed_checks: (u64, Option<String>),
    /// `aoi:error` lines carrying `origin`: errors forwarded from upstream.
    forwarded_errors: u64,
    io_error: Option<String>,
    /// Set when the input went silent past `--idle-timeout`.
    idle: Option<String>,
    /// The first violation reported, for the verdict's "first:".
    first_violation: Option<RuleId>,
}

fn keep(s: &str) -> String {
    if s.len() <= MAX_KEPT {
        return s.to_string();
    }
    let mut end = MAX_KEPT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", s.get(..end).unwrap_or_default())
}

/// A borrowed view of one event's top-level members.
pub(crate) struct Ev<'a> {
    pub(crate) line: &'a [u8],
    pub(crate) members: &'a [Member],
}

impl<'a> Ev<'a> {
    pub(crate) fn get(&self, name: &str) -> Option<&'a Member> {
        self.members
            .iter()
            .find(|m| key_is(span(self.line, &m.key), m.key_escaped, name))
    }
    /// [`Ev::get`] for each of `names`, in one pass over the members.
    fn fields<const N: usize>(&self, names: [&str; N]) -> [Option<&'a Member>; N] {
        let mut found = [None; N];
        for m in self.members {
            let k = span(self.line, &m.key);
            if let Some(slot) = found
                .iter_mut()
                .zip(names)
                .find_map(|(slot, name)| key_is(k, m.key_escaped, name).then_some(slot))
            {
                // The first of a name counts, as for `get`.
                slot.get_or_insert(m);
            }
        }
        found
    }
    fn raw(&self, m: &Member) -> &'a [u8] {
        span(self.line, &m.value)
    }
}

/// The bytes of a string member's value when it holds no escape: its text
/// as written (UTF-8: the peek validated it), compared without decoding.
fn plain<'a>(line: &'a [u8], m: &Member) -> Option<&'a [u8]> {
    match m.kind {
        Kind::String { escaped: false } => {
            let raw = span(line, &m.value);
            raw.get(1..raw.len().saturating_sub(1))
        }
        _ => None,
    }
}

/// The string value of a member, decoded, borrowed when it has no escapes
/// (the peek validated it as UTF-8).
pub(crate) fn str_ref<'a>(line: &'a [u8], m: &Member) -> Option<std::borrow::Cow<'a, str>> {
    match m.kind {
        Kind::String { escaped } => {
            let raw = span(line, &m.value);
            let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
            if escaped {
                Some(unescape(body))
            } else {
                std::str::from_utf8(body)
                    .ok()
                    .map(std::borrow::Cow::Borrowed)
            }
        }
        _ => None,
    }
}

/// The string value of a member, decoded and owned (capped for keeping).
pub(crate) fn str_value(line: &[u8], m: &Member) -> Option<String> {
    str_ref(line, m).map(|v| keep(&v))
}

/// A non-negative integer literal, if the member is one that fits u64.
pub(crate) fn uint_value(line: &[u8], m: &Member) -> Option<u64> {
    match m.kind {
        Kind::Number { integer: true } => {
            // A validated integer literal: optional '-', then digits.
            let mut v: u64 = 0;
            for &c in span(line, &m.value) {
                if !c.is_ascii_digit() {
                    return None;
                }
                v = v.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            }
            Some(v)
        }
        _ => None,
    }
}

/// A UTF-8 byte order mark (U+FEFF), which some encoders put before text.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A JSON number member as an `f64` (finite: a literal past its range is
/// `None`).
pub(crate) fn number_value(line: &[u8], m: &Member) -> Option<f64> {
    if !matches!(m.kind, Kind::Number { .. }) {
        return None;
    }
    let text = std::str::from_utf8(span(line, &m.value)).ok()?;
    text.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// A duration in milliseconds as JSON: an integer when it is whole (as
/// most producers write it), else the number with its fraction.
pub fn ms_json(ms: f64) -> serde_json::Value {
    if ms.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&ms) {
        serde_json::Value::from(ms as u64)
    } else {
        serde_json::Value::from(ms)
    }
}

/// Whether a line that is no event looks like the start of a value
/// spread over lines (pretty-printed JSON, an array of events): `[` or `{`
/// alone, or `[` opening an object (`[{"type":…`).
pub(crate) fn looks_pretty(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    matches!(t, b"[" | b"{") || (t.starts_with(b"[") && t[1..].trim_ascii_start().starts_with(b"{"))
}

/// Whether a line continues a pretty-printed value: indented, or closing
/// one (`}`, `]`, `},`).
pub(crate) fn continues_pretty(line: &[u8]) -> bool {
    matches!(line.first(), Some(b' ' | b'\t'))
        || matches!(line.trim_ascii_start().first(), Some(b'}' | b']'))
}

pub(crate) fn bool_value(m: &Member) -> Option<bool> {
    match m.kind {
        Kind::True => Some(true),
        Kind::False => Some(false),
        _ => None,
    }
}

/// Reads the retry-critical fields of an error object (top-level members of
/// an `aoi:error` line, or of a `caused_by` object).
fn read_cause(line: &[u8], members: &[Member], line_no: u64) -> Cause {
    let ev = Ev { line, members };
    let s = |k: &str| ev.get(k).and_then(|m| str_value(line, m));
    Cause {
        origin: s("origin"),
        category: s("category"),
        code: s("code"),
        retryable: ev.get("retryable").and_then(bool_value),
        retry_after_ms: ev.get("retry_after_ms").and_then(|m| uint_value(line, m)),
        message: s("message"),
        line: line_no,
        process_scope: ev
            .get("scope")
            .and_then(|m| str_value(line, m))
            .is_none_or(|s| s != "item"),
    }
}

impl Cause {
    /// A failure of aoi's own, as `caused_by` reproduces it: never
    /// retryable (§ 9.3: aoi cannot know that trying again would help).
    pub fn own(category: &str, code: &str) -> Cause {
        Cause {
            origin: Some(crate::emit::TOOL.to_string()),
            category: Some(category.to_string()),
            code: Some(code.to_string()),
            retryable: Some(false),
            ..Cause::default()
        }
    }

    /// Severity order for picking the error a `caused_by` reproduces: a
    /// process-scoped error outranks an item-scoped one, and a non-retryable
    /// one outranks a retryable one (retry cannot help while it stands); the
    /// first such error wins ties.
    fn rank(&self) -> u8 {
        Self::rank_of(self.process_scope, self.retryable)
    }

    fn rank_of(process_scope: bool, retryable: Option<bool>) -> u8 {
        (process_scope as u8) * 2 + (retryable != Some(true)) as u8
    }
}

impl Judge {
    /// A judge for one stream.
    pub fn new(opts: JudgeOptions) -> Self {
        Judge {
            last_class: LineClass::Invalid,
            opts,
            peeker: Box::new(Peeker::new()),
            long: crate::long::LongLine::new(),
            last_long: false,
            long_piece: false,
            pending: Vec::new(),
            rule_counts: vec![0; RuleId::ALL.len()],
            line_no: 0,
            pos: 0,
            bytes: 0,
            object_lines: 0,
            domain: 0,
            framework: 0,
            warnings: 0,
            errors: 0,
            types: TypeCounts::default(),
            other_types: 0,
            cur_seq: None,
            seq_seen: false,
            next_seq: 0,
            lines_without_seq: 0,
            unreadable: 0,
            unreadable_since_seq: 0,
            in_pretty: false,
            foreign: false,
            first_without_seq: 0,
            run: None,
            run_changed: false,
            meta_count: 0,
            identity: Identity::default(),
            summary: None,
            after_summary: 0,
            terminated: true,
            worst_error: None,
            failed_checks: (0, None),
            forwarded_errors: 0,
            io_error: None,
            idle: None,
            first_violation: None,
        }
    }

    /// What the last line given to [`Judge::line`] was.
    pub fn last_class(&self) -> LineClass {
        self.last_class
    }

    /// The bytes of the last line's event, which its members index: the
    /// line, or what follows its byte order mark (`line.bom`; JSON never
    /// starts with one, so a line that does and was read is that case).
    pub fn last_event<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        match line.strip_prefix(BOM) {
            Some(rest) if self.last_class != LineClass::Invalid => rest,
            _ => line,
        }
    }

    /// The top-level members of the last line, when it was a JSON object,
    /// and the index of its `aoi` member: the spans `strip` splices with.
    pub fn last_members(&self) -> (&[Member], Option<usize>) {
        (&self.peeker.members, self.peeker.aoi_member)
    }

    /// Whether the last line had a reserved name (`type`, `aoi`) more than
    /// once (§ 8.1): readers that take the first and the last occurrence
    /// see different events, so routing commands drop such a line.
    pub fn last_ambiguous(&self) -> bool {
        self.last_class != LineClass::Invalid && !self.peeker.reserved_dups.is_empty()
    }

    /// Lines judged so far (the number of the last one).
    pub fn line_no(&self) -> u64 {
        self.line_no
    }

    /// The peek of the last line (its members, `type` and `aoi` indices).
    pub fn last_peek(&self) -> &Peeker {
        &self.peeker
    }

    /// Whether the stream's `aoi:summary` has been seen.
    pub fn summary_seen(&self) -> bool {
        self.summary.is_some()
    }

    /// The identity the stream's `aoi:meta` declared, so far.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Findings produced since the last call.
    pub fn drain(&mut self) -> std::vec::Drain<'_, Finding> {
        self.pending.drain(..)
    }

    fn report(&mut self, rule: RuleId, line: u64, message: String) {
        // A stream of another AOI version is not read by AOI 1's rules: the
        // version is its one finding, besides whether the run finished
        // (issue 25: no cascade of v1.0 findings on v0.2 meanings).
        if self.foreign
            && !matches!(
                rule,
                RuleId::SummaryMissing | RuleId::LineUnterminated | RuleId::InputIo
            )
        {
            return;
        }
        if self.first_violation.is_none() && rule.severity() == Severity::Violation {
            self.first_violation = Some(rule);
        }
        let n = &mut self.rule_counts[rule as usize];
        *n += 1;
        if *n <= self.opts.per_rule_limit {
            self.pending.push(Finding {
                rule,
                line,
                seq: if line == self.pos { self.cur_seq } else { None },
                message,
            });
        }
    }

    fn here(&mut self, rule: RuleId, message: String) {
        self.report(rule, self.pos, message);
    }

    /// Judges one line (without its `\n`); `terminated` is false for a final
    /// line that lacked its line feed.
    pub fn line(&mut self, line: &[u8], terminated: bool) {
        self.line_checked(line, terminated, false);
    }

    /// [`Judge::line`] for a line whose UTF-8 may have been checked with
    /// its block ([`crate::lines::utf8_prefix`], [`Peeker::peek_checked`]).
    #[inline]
    pub fn line_checked(&mut self, line: &[u8], terminated: bool, utf8_checked: bool) {
        if self.begin_line(line, terminated, None) {
            let r = self.peeker.peek_checked(line, utf8_checked);
            self.peeked(line, r);
        }
    }

    /// Judges one complete line that the caller has already peeked with
    /// `peeker` (`result` is what [`Peeker::peek`] returned), without
    /// peeking it again: the path of commands that demultiplex one input
    /// into several streams (one judge per `aoi.run`) and must peek a line
    /// to know its stream. `source_line` is the line's number in the input,
    /// used in findings instead of the stream's own line count.
    pub fn line_at(
        &mut self,
        line: &[u8],
        terminated: bool,
        source_line: u64,
        peeker: &mut Box<Peeker>,
        result: Result<(), peek::JsonError>,
    ) {
        if self.begin_line(line, terminated, Some(source_line)) {
            std::mem::swap(&mut self.peeker, peeker);
            self.peeked(line, result);
            std::mem::swap(&mut self.peeker, peeker);
        }
    }

    /// Judges one line that was peeked elsewhere (by the reading thread of
    /// `crate::parallel`): `peeker` holds what [`Peeker::peek`] found and
    /// `result` what it returned. Exactly [`Judge::line`] otherwise. The
    /// judge takes the peeker and leaves its previous one in its place.
    pub fn line_prepeeked(
        &mut self,
        line: &[u8],
        peeker: &mut Box<Peeker>,
        result: Result<(), peek::JsonError>,
    ) {
        if self.begin_line(line, true, None) {
            // The judge keeps the line's peek, as after [`Judge::line`]
            // (strip splices with it); the caller gets the judge's old box.
            std::mem::swap(&mut self.peeker, peeker);
            self.peeked(line, result);
        }
    }

    /// Exchanges the judge's peeker with `peeker` (after
    /// [`Judge::line_prepeeked`] and what reads the line's peek, the caller
    /// takes its peeker back).
    pub fn swap_peeker(&mut self, peeker: &mut Box<Peeker>) {
        std::mem::swap(&mut self.peeker, peeker);
    }

    /// The checks before a line is peeked; false when it is not to be
    /// peeked (unterminated).
    fn begin_line(&mut self, line: &[u8], terminated: bool, source_line: Option<u64>) -> bool {
        self.last_long = false;
        self.long_piece = false;
        self.begin_len(line.len() as u64, terminated, source_line)
    }

    /// [`Judge::begin_line`] for a line of `len` bytes.
    fn begin_len(&mut self, len: u64, terminated: bool, source_line: Option<u64>) -> bool {
        self.last_class = LineClass::Invalid;
        self.line_no += 1;
        self.pos = source_line.unwrap_or(self.line_no);
        self.bytes += len + terminated as u64;
        self.cur_seq = None;
        if self.summary.is_some() {
            self.after_summary += 1;
        }
        if !terminated {
            // § 2: discard it and treat the stream as truncated. Bytes after
            // the summary still break § 13.1, complete line or not.
            self.summary_order_check(false);
            self.terminated = false;
            self.here(
                RuleId::LineUnterminated,
                format!("final line has no line feed ({len} bytes discarded)"),
            );
            return false;
        }
        true
    }

    /// Judges a line from what the peek found.
    fn peeked(&mut self, line: &[u8], result: Result<(), peek::JsonError>) {
        self.peeked_esc(line, result, None);
    }

    /// [`Judge::peeked`]; `long`: what is known of the whole line when
    /// `line` is only its start (a long line's): whether it holds an ESC
    /// byte, and its [`crate::long::Shape`].
    fn peeked_esc(
        &mut self,
        line: &[u8],
        result: Result<(), peek::JsonError>,
        long: Option<(bool, crate::long::Shape)>,
    ) {
        // A UTF-8 byte order mark before an event (Windows tools, some
        // encoders): one finding that names it, and the event judged as
        // what it is, so nothing derived (seq, meta) is blamed (issue 25).
        // A long line was read past its mark already: its start is no
        // event when the whole is none.
        let bom_rest = line
            .strip_prefix(BOM)
            .filter(|_| result.is_err() && long.is_none());
        if let Some(rest) = bom_rest {
            let again = self.peeker.peek(rest);
            if again.is_ok() && self.peeker.top == Some(Kind::Object) {
                self.here(
                    RuleId::LineBom,
                    "line starts with a UTF-8 byte order mark (U+FEFF), which is not JSON".into(),
                );
                return self.peeked(rest, again);
            }
        }
        if result.is_err() || self.peeker.top != Some(Kind::Object) {
            self.unreadable += 1;
            self.unreadable_since_seq += 1;
            let (pretty, continues) = match long {
                Some((_, shape)) => (shape.pretty, shape.continues),
                None => (looks_pretty(line), continues_pretty(line)),
            };
            if self.in_pretty && continues {
                // The rest of a pretty-printed value: its first line said so.
                self.summary_order_check(false);
                return;
            }
            self.in_pretty = false;
            if pretty {
                self.in_pretty = true;
                self.summary_order_check(false);
                self.here(
                    RuleId::LinePretty,
                    format!(
                        "this looks like a JSON array or pretty-printed JSON (a value spread over lines): {}; the lines that follow it are not reported again",
                        preview(line)
                    ),
                );
                return;
            }
        } else {
            self.in_pretty = false;
        }
        match result {
            Err(e) => {
                let esc = long.map_or_else(|| memchr::memchr(0x1b, line).is_some(), |l| l.0);
                let (rule, msg) = if esc {
                    (
                        RuleId::LineAnsi,
                        "line contains an ANSI escape (ESC byte)".to_string(),
                    )
                } else {
                    match e.kind {
                        peek::JsonErrorKind::Empty => (RuleId::LineBlank, "blank line".to_string()),
                        peek::JsonErrorKind::InvalidUtf8 => (
                            RuleId::LineInvalidUtf8,
                            format!("invalid UTF-8 at byte {}", e.offset + 1),
                        ),
                        k => {
                            let what = if line.starts_with(BOM) {
                                "line starts with a UTF-8 byte order mark".to_string()
                            } else if matches!(line.first(), Some(b'{' | b'[' | b' ' | b'\t')) {
                                format!("{} at byte {}", k.describe(), e.offset + 1)
                            } else {
                                format!(
                                    "not JSON ({} at byte {}): {}",
                                    k.describe(),
                                    e.offset + 1,
                                    preview(line)
                                )
                            };
                            (RuleId::LineNotJson, what)
                        }
                    }
                };
                self.summary_order_check(false);
                self.here(rule, msg);
            }
            Ok(()) => {
                if self.peeker.lone_surrogate {
                    self.here(
                        RuleId::LineLoneSurrogate,
                        "a \\u escape of a lone UTF-16 surrogate (valid JSON; jq and serde_json reject it)".to_string(),
                    );
                }
                if self.peeker.top != Some(Kind::Object) {
                    let name = self.peeker.top.map_or("value", Kind::name);
                    self.summary_order_check(false);
                    self.here(
                        RuleId::LineNotObject,
                        format!("line is a JSON {name}, not an object"),
                    );
                    return;
                }
                let members = std::mem::take(&mut self.peeker.members);
                self.event(line, &members);
                self.peeker.members = members;
            }
        }
    }

    /// Judges a piece of a line longer than the reader holds
    /// ([`crate::lines::Chunk::LongPart`]); `end` is true on the piece that
    /// finishes it. The line is validated as its pieces pass and judged
    /// whole at its end, as a short line is ([`crate::long`]).
    pub fn long_part(&mut self, bytes: &[u8], end: bool) {
        self.long_part_at(bytes, end, None);
    }

    /// [`Judge::long_part`] for a line at `source_line` of a demultiplexed
    /// input (see [`Judge::line_at`]).
    pub fn long_part_at(&mut self, bytes: &[u8], end: bool, source_line: Option<u64>) {
        self.long_piece = true;
        let terminated = end && bytes.last() == Some(&b'\n');
        let body = if terminated {
            bytes.get(..bytes.len() - 1).unwrap_or_default()
        } else {
            bytes
        };
        self.long.feed(body);
        if end {
            let mut long = std::mem::take(&mut self.long);
            self.long_end(long.end(), terminated, source_line);
            self.long = long;
        }
    }

    /// Judges a long line from what [`crate::long::LongLine`] found: its
    /// reduced copy is peeked and judged as the line.
    fn long_end(
        &mut self,
        r: crate::long::Reduced<'_>,
        terminated: bool,
        source_line: Option<u64>,
    ) {
        self.last_long = true;
        if !self.begin_len(r.len, terminated, source_line) {
            return;
        }
        let object = r.top == Some(Kind::Object);
        let at_bom = peek::JsonError {
            kind: peek::JsonErrorKind::Unexpected,
            offset: 0,
        };
        let result = match r.result {
            // A byte order mark before anything but an object: as the peek
            // of the whole line says, not JSON at its first byte, unless
            // the line is not UTF-8 (offsets then count the mark).
            Ok(()) if r.bom && !object => Err(at_bom),
            Err(e) if r.bom && e.kind == peek::JsonErrorKind::InvalidUtf8 => Err(peek::JsonError {
                offset: e.offset + BOM.len(),
                ..e
            }),
            Err(_) if r.bom => Err(at_bom),
            other => other,
        };
        match result {
            Ok(()) if object => {
                let again = self.peeker.peek(r.object);
                debug_assert!(again.is_ok(), "a reduced copy is JSON");
                self.peeker.lone_surrogate = r.lone_surrogate;
                if r.bom {
                    self.here(
                        RuleId::LineBom,
                        "line starts with a UTF-8 byte order mark (U+FEFF), which is not JSON"
                            .into(),
                    );
                }
                self.peeked(r.object, again);
            }
            Ok(()) => {
                let _ = self.peeker.peek(b"0");
                self.peeker.top = r.top;
                self.peeker.lone_surrogate = r.lone_surrogate;
                self.peeked_esc(r.head, Ok(()), Some((r.esc_byte, r.shape)));
            }
            Err(e) => self.peeked_esc(r.head, Err(e), Some((r.esc_byte, r.shape))),
        }
    }

    /// A cut final line of `len` bytes, judged without its bytes (a long
    /// line of a log that made no event): `line.unterminated`, § 2.
    pub fn cut_line(&mut self, len: u64, source_line: u64) {
        self.last_long = true;
        self.begin_len(len, false, Some(source_line));
    }

    /// The reduced copy of the last line when it was a long object
    /// ([`crate::long`]), which the judge read as the line.
    pub fn long_object(&self) -> &[u8] {
        self.long.object()
    }

    /// The state of the last long line (where its envelope is, for a
    /// command that writes it out from its own copy of the bytes).
    pub fn long_line(&self) -> &crate::long::LongLine {
        &self.long
    }

    /// Whether the bytes read last were a piece of a long line
    /// ([`Judge::long_part`]) rather than whole lines.
    pub fn in_long_piece(&self) -> bool {
        self.long_piece
    }

    /// Whether the last line was longer than the reader holds: then the
    /// line the judge read is its reduced copy ([`Judge::long_object`]),
    /// not its bytes.
    pub fn last_long(&self) -> bool {
        self.last_long
    }

    /// Reports the first line after the summary (once per stream).
    fn summary_order_check(&mut self, is_summary: bool) {
        if self.after_summary == 1 && !is_summary {
            let at = self.summary.as_ref().map_or(0, |s| s.line);
            self.here(
                RuleId::SummaryNotLast,
                format!("line after the aoi:summary of line {at}"),
            );
        }
    }

    fn event(&mut self, line: &[u8], members: &[Member]) {
        self.object_lines += 1;
        let ev = Ev { line, members };
        // Reserved names: once each (§ 8.1); one finding per name, however
        // often it repeats.
        let ty = self.peeker.type_member.and_then(|i| members.get(i));
        let env = self.peeker.aoi_member.and_then(|i| members.get(i));
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
            b"aoi:meta" => self.meta(&ev),
            b"aoi:summary" => self.summary(&ev),
            b"aoi:error" => {
                self.errors += 1;
                self.error(&ev);
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
    }

    fn count_type(&mut self, tname: &[u8]) {
        if !self.types.count(tname) {
            self.other_types += 1;
        }
    }

    /// The `aoi` envelope: object, unique keys, field types, seq and run
    /// continuity (§ 8.1).
    fn envelope(&mut self, line: &[u8], env: Option<&Member>) {
        let mut seq: Option<u64> = None;
        let mut has_seq = false;
        let mut run: Option<&[u8]> = None;
        // A run of the wrong type is a field-type finding, not also "missing".
        let mut has_run = false;
        // The peek read the usual shape already; else try it here.
        let fast = match &self.peeker.envelope {
            Some((v, r)) => Some((*v, span(line, r))),
            None => env
                .filter(|e| e.kind == Kind::Object)
                .and_then(|e| canonical_envelope(span(line, &e.value))),
        };
        if let Some((v, r)) = fast {
            (seq, has_seq, run, has_run) = (Some(v), true, Some(r), true);
        } else if let Some(env) = env {
            if env.kind != Kind::Object {
                self.here(
                    RuleId::EnvelopeNotObject,
                    format!("\"aoi\" is a {}, not an object", env.kind.name()),
                );
            } else {
                let obj = span(line, &env.value);
                // The general path (the canonical shape took the fast one).
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
                    if key_is(k, m.key_escaped, "seq") {
                        has_seq = true;
                        match uint_value(obj, &m) {
                            Some(v) => seq = Some(v),
                            None => self.here(
                                RuleId::EnvelopeFieldType,
                                format!(
                                    "aoi.seq is {}, not a non-negative integer",
                                    preview(span(obj, &m.value))
                                ),
                            ),
                        }
                    } else if key_is(k, m.key_escaped, "run") {
                        has_run = true;
                        match m.kind {
                            Kind::String { .. } if m.value.len() > 2 => {
                                run = Some(span(obj, &m.value))
                            }
                            _ => self.here(
                                RuleId::EnvelopeFieldType,
                                format!(
                                    "aoi.run is {}, not a non-empty string",
                                    preview(span(obj, &m.value))
                                ),
                            ),
                        }
                    } else if key_is(k, m.key_escaped, "t") {
                        let v = span(obj, &m.value);
                        if !matches!(m.kind, Kind::Number { .. }) || v.first() == Some(&b'-') {
                            self.here(
                                RuleId::EnvelopeFieldType,
                                format!("aoi.t is {}, not a non-negative number", preview(v)),
                            );
                        }
                    } else if key_is(k, m.key_escaped, "trace_id")
                        && !matches!(m.kind, Kind::String { .. })
                    {
                        self.here(
                            RuleId::EnvelopeFieldType,
                            "aoi.trace_id is not a string".into(),
                        );
                    }
                }
            }
        }
        self.cur_seq = seq;
        // seq: contiguous from 0, on every line once used (§ 8.1).
        if has_seq {
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
            if let Some(v) = seq {
                let unread = std::mem::take(&mut self.unreadable_since_seq);
                let first = self.next_seq == 0 && v == 1 && self.object_lines <= 1 && unread == 0;
                if first {
                    // The stream counts from 1: one finding, and its seqs
                    // are taken as numbered from there.
                    self.here(
                        RuleId::SeqStart,
                        "aoi.seq starts at 1, not 0; the seqs that follow are in order".into(),
                    );
                } else if v > self.next_seq && v - self.next_seq <= unread {
                    // The lines in between are there but unreadable, each
                    // already reported: no line is missing.
                } else if v != self.next_seq {
                    let expected = self.next_seq;
                    let what = if v > expected {
                        format!(
                            "expected aoi.seq {expected}, found {v}: {} line(s) missing",
                            v - expected
                        )
                    } else {
                        format!("expected aoi.seq {expected}, found {v}: repeated or out of order")
                    };
                    self.here(RuleId::SeqGap, what);
                }
                self.next_seq = v.saturating_add(1);
            } else {
                self.next_seq = self.next_seq.saturating_add(1);
            }
            if !has_run {
                self.here(RuleId::RunMissing, "aoi.seq without aoi.run".into());
            }
        } else {
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
        if let Some(r) = run {
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

    fn identity_of(&mut self, ev: &Ev<'_>, what: &str) -> Identity {
        let mut id = Identity::default();
        for (name, slot) in [
            ("tool", &mut id.tool),
            ("tool_version", &mut id.tool_version),
            ("aoi_version", &mut id.aoi_version),
            ("schema_name", &mut id.schema_name),
            ("schema_version", &mut id.schema_version),
        ] {
            if let Some(m) = ev.get(name) {
                match str_value(ev.line, m) {
                    Some(s) => *slot = Some(s),
                    None => self.here(
                        RuleId::MetaFieldType,
                        format!("{what}.{name} is a {}, not a string", m.kind.name()),
                    ),
                }
            }
        }
        id
    }

    fn meta(&mut self, ev: &Ev<'_>) {
        self.meta_count += 1;
        if self.meta_count > 1 {
            self.here(
                RuleId::MetaDuplicate,
                "second aoi:meta in the stream".into(),
            );
            return;
        }
        if self.object_lines > 1 {
            let n = self.object_lines - 1;
            self.here(
                RuleId::MetaNotFirst,
                format!("aoi:meta comes after {n} event(s)"),
            );
        }
        let id = self.identity_of(ev, "aoi:meta");
        let missing: Vec<&str> = [
            ("tool", &id.tool),
            ("tool_version", &id.tool_version),
            ("aoi_version", &id.aoi_version),
            ("schema_name", &id.schema_name),
            ("schema_version", &id.schema_version),
        ]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| *k)
        .collect();
        if !missing.is_empty() {
            self.here(
                RuleId::MetaIdentity,
                format!("aoi:meta lacks {}", missing.join(", ")),
            );
        }
        if let Some(v) = id.aoi_version.clone() {
            self.check_aoi_version(&v);
        }
        if let Some(args) = ev.get("args") {
            let raw = ev.raw(args);
            if let Some(what) = secret_in_args(raw) {
                self.here(
                    RuleId::MetaArgsSecret,
                    format!("aoi:meta.args echoes a secret: {what}"),
                );
            }
        }
        self.identity = id;
    }

    /// § 5: a consumer built for AOI 1 must not interpret another major.
    fn check_aoi_version(&mut self, v: &str) {
        let major = v.split(['.', '-']).next().unwrap_or_default();
        if major != "1" {
            let hint = if major == "0" {
                " (a v0.2 stream, § 5.2: nest seq/run under `aoi`; category temporary is now \
unavailable; drop category partial, use scope:item and summary.partial; retryable on every \
aoi:error, retry_after_ms only with retryable:true; aoi:error.upstream is now wrapped; end every \
line with \\n; reason when ok:false)"
            } else {
                ""
            };
            self.here(
                RuleId::VersionUnsupported,
                format!(
                    "aoi_version \"{v}\" is not AOI 1.x{hint}; the stream's other findings \
under AOI 1's rules are not reported"
                ),
            );
            self.foreign = true;
        }
    }

    fn summary(&mut self, ev: &Ev<'_>) {
        if self.summary.is_some() {
            self.here(
                RuleId::SummaryDuplicate,
                "second aoi:summary in the stream".into(),
            );
            return;
        }
        let line = ev.line;
        let mut info = SummaryInfo {
            line: self.pos,
            raw: line.to_vec(),
            ..SummaryInfo::default()
        };
        match ev.get("ok") {
            Some(m) => match bool_value(m) {
                Some(b) => info.ok = Some(b),
                None => self.here(
                    RuleId::SummaryOk,
                    format!("\"ok\" is a {}, not a boolean", m.kind.name()),
                ),
            },
            None => self.here(RuleId::SummaryOk, "aoi:summary has no \"ok\"".into()),
        }
        let reason = ev.get("reason");
        match (info.ok, reason) {
            (_, Some(m)) if !matches!(m.kind, Kind::String { .. }) => self.here(
                RuleId::SummaryReason,
                format!("\"reason\" is a {}, not a string", m.kind.name()),
            ),
            (Some(false), None) => {
                self.here(RuleId::SummaryReason, "ok:false without \"reason\"".into())
            }
            (Some(false), Some(m)) => {
                let r = str_value(line, m).unwrap_or_default();
                if !spec::FAILURE_REASONS.contains(&r.as_str()) {
                    self.here(
                        RuleId::SummaryReason,
                        format!("reason \"{r}\" is not one of failed, cancelled, timeout, denied"),
                    );
                }
                info.reason = Some(r);
            }
            (Some(true), Some(m)) => {
                let r = str_value(line, m).unwrap_or_default();
                if r != spec::SUCCESS_REASON {
                    self.here(
                        RuleId::SummaryReason,
                        format!("ok:true allows only reason \"skipped\", not \"{r}\""),
                    );
                }
                info.reason = Some(r);
            }
            _ => {}
        }
        // Counters and flags (§ 8.3, § 15): the counters count events;
        // elapsed_ms has no type in the spec, so any non-negative number.
        let typed = |j: &mut Judge, name: &str, what: &str| -> Option<(&Member, f64)> {
            let m = ev.get(name)?;
            let n = number_value(line, m).filter(|n| *n >= 0.0);
            let whole = what != "integer" || uint_value(line, m).is_some();
            if n.is_none() || !whole {
                j.here(
                    RuleId::SummaryFieldType,
                    format!(
                        "{name} is {}, not a non-negative {what}",
                        preview(ev.raw(m))
                    ),
                );
                return None;
            }
            Some((m, n?))
        };
        let counter = |j: &mut Judge, name: &str| {
            typed(j, name, "integer").and_then(|(m, _)| uint_value(line, m))
        };
        let event_count = counter(self, "event_count");
        let count = counter(self, "count");
        let _ = counter(self, "input_count");
        let warning_count = counter(self, "warning_count");
        let error_count = counter(self, "error_count");
        info.elapsed_ms = typed(self, "elapsed_ms", "number").map(|(_, n)| n);
        for (name, slot) in [
            ("partial", &mut info.partial),
            ("truncated", &mut info.truncated),
        ] {
            if let Some(m) = ev.get(name) {
                match bool_value(m) {
                    Some(b) => *slot = b,
                    None => self.here(
                        RuleId::SummaryFieldType,
                        format!("{name} is a {}, not a boolean", m.kind.name()),
                    ),
                }
            }
        }
        let cursor = ev.get("next_cursor");
        if let Some(m) = cursor {
            if !matches!(m.kind, Kind::String { .. } | Kind::Null) {
                self.here(
                    RuleId::SummaryFieldType,
                    format!("next_cursor is a {}, not a string", m.kind.name()),
                );
            }
        }
        if info.truncated && !cursor.is_some_and(|m| matches!(m.kind, Kind::String { .. })) {
            self.here(
                RuleId::SummaryTruncatedCursor,
                "truncated:true without next_cursor".into(),
            );
        }
        // Reconciliation (§ 8.3).
        match event_count {
            // Extra lines that could not be read (prose among the events)
            // are reported already: they are not another cause.
            Some(n) if n < self.line_no && self.line_no - n <= self.unreadable => {}
            Some(n) if n != self.line_no => {
                let got = self.line_no;
                self.here(
                    RuleId::SummaryEventCount,
                    format!("event_count is {n} but {got} line(s) were received up to the summary"),
                );
            }
            Some(_) => {}
            None => {
                if ev.get("event_count").is_none() {
                    self.here(
                        RuleId::SummaryEventCountAbsent,
                        "aoi:summary has no event_count".into(),
                    );
                }
            }
        }
        if let Some(n) = count {
            // Not when the difference is lines that could not be read:
            // they may have been domain events, and are reported already.
            let unread = n > self.domain && n - self.domain <= self.unreadable;
            if n != self.domain && !unread {
                let d = self.domain;
                self.here(
                    RuleId::SummaryCount,
                    format!("count is {n} but the stream has {d} domain event(s)"),
                );
            }
        }
        if let Some(n) = warning_count {
            if n < self.warnings {
                let w = self.warnings;
                self.here(
                    RuleId::SummaryWarningCount,
                    format!("warning_count is {n} but the stream has {w} aoi:warning line(s)"),
                );
            }
        }
        if let Some(n) = error_count {
            if n < self.errors {
                let e = self.errors;
                self.here(
                    RuleId::SummaryErrorCount,
                    format!("error_count is {n} but the stream has {e} aoi:error line(s)"),
                );
            }
        }
        // Provenance (§ 13.1).
        if let Some(m) = ev.get("upstream") {
            if m.kind == Kind::Object {
                let obj = ev.raw(m);
                let inner: Vec<Member> = object_members(obj).collect();
                let sub = Ev {
                    line: obj,
                    members: &inner,
                };
                // Read for its field types; the judge reports its own upstream.
                let _ = self.identity_of(&sub, "aoi:summary.upstream");
                // Parsers disagree which of two values wins (§ 8.1).
                if let Some(dup) = duplicate_key(obj, &inner) {
                    self.here(
                        RuleId::SummaryUpstream,
                        format!("upstream has \"{}\" more than once", keep(&dup)),
                    );
                }
            } else {
                self.here(
                    RuleId::SummaryUpstream,
                    format!("upstream is {}; omit it when unknown", m.kind.name()),
                );
            }
        }
        if let Some(m) = ev.get("caused_by") {
            if m.kind == Kind::Object {
                let obj = ev.raw(m);
                let inner: Vec<Member> = object_members(obj).collect();
                let sub = Ev {
                    line: obj,
                    members: &inner,
                };
                if let Some(r) = sub.get("retryable") {
                    if bool_value(r).is_none() {
                        self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by.retryable is not a boolean".into(),
                        );
                    }
                }
                if let Some(r) = sub.get("retry_after_ms") {
                    if uint_value(obj, r).is_none() {
                        self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by.retry_after_ms is not an integer >= 0".into(),
                        );
                    } else if sub.get("retryable").and_then(bool_value) == Some(false) {
                        self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by has retry_after_ms with retryable:false".into(),
                        );
                    }
                }
                if sub.get("retryable").is_none() {
                    self.here(
                        RuleId::SummaryCausedBy,
                        "caused_by lacks retryable, the retry-critical field it must reproduce"
                            .into(),
                    );
                }
                // It reproduces an aoi:error's fields (§ 13.1), in their
                // forms (§ 9.1, § 9.2), each once: a consumer reading the
                // last of two `retryable`s would retry what this judge
                // reads as final, or the reverse.
                if let Some(dup) = duplicate_key(obj, &inner) {
                    self.here(
                        RuleId::SummaryCausedBy,
                        format!("caused_by has \"{}\" more than once", keep(&dup)),
                    );
                }
                if let Some(m) = sub.get("code") {
                    match str_ref(obj, m) {
                        Some(c) if spec::valid_code(c.as_bytes()) => {}
                        Some(c) => self.here(
                            RuleId::SummaryCausedBy,
                            format!(
                                "caused_by.code \"{}\" does not match [A-Z][A-Z0-9_]*",
                                keep(&c)
                            ),
                        ),
                        None => self.here(
                            RuleId::SummaryCausedBy,
                            format!("caused_by.code is a {}, not a string", m.kind.name()),
                        ),
                    }
                }
                if let Some(m) = sub.get("category") {
                    match str_ref(obj, m) {
                        Some(c) if c == "partial" => self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by.category \"partial\" was removed in v1.0-alpha".into(),
                        ),
                        Some(_) => {}
                        None => self.here(
                            RuleId::SummaryCausedBy,
                            format!("caused_by.category is a {}, not a string", m.kind.name()),
                        ),
                    }
                }
                info.caused_by = Some(read_cause(obj, &inner, 0));
            } else {
                self.here(
                    RuleId::SummaryCausedBy,
                    format!("caused_by is a {}, not an object", m.kind.name()),
                );
            }
        }
        // A cancellation says itself why the run failed: no upstream error
        // to reproduce (aoi's choice, § 7, § 13.1).
        if info.ok == Some(false)
            && info.reason.as_deref() != Some("cancelled")
            && ev.get("caused_by").is_none()
            && self.forwarded_errors > 0
        {
            let n = self.forwarded_errors;
            self.here(
                RuleId::SummaryCausedByMissing,
                format!("ok:false after {n} forwarded upstream aoi:error(s) (with origin) but no caused_by"),
            );
        }
        info.identity = self.identity_of(ev, "aoi:summary");
        // The two ends describe one stream (§ 5): the same identity, AOI 1.x.
        let mismatched: Vec<&str> = [
            ("tool", &self.identity.tool, &info.identity.tool),
            (
                "tool_version",
                &self.identity.tool_version,
                &info.identity.tool_version,
            ),
            (
                "aoi_version",
                &self.identity.aoi_version,
                &info.identity.aoi_version,
            ),
            (
                "schema_name",
                &self.identity.schema_name,
                &info.identity.schema_name,
            ),
            (
                "schema_version",
                &self.identity.schema_version,
                &info.identity.schema_version,
            ),
        ]
        .iter()
        .filter(|(_, a, b)| a.is_some() && b.is_some() && a != b)
        .map(|(k, _, _)| *k)
        .collect();
        if !mismatched.is_empty() {
            self.here(
                RuleId::SummaryIdentityMismatch,
                format!(
                    "aoi:summary and aoi:meta disagree on {}",
                    mismatched.join(", ")
                ),
            );
        }
        if self.meta_count == 0 {
            if let Some(v) = info.identity.aoi_version.clone() {
                self.check_aoi_version(&v);
            }
        }
        if info.identity.tool_version.is_none()
            || info.identity.aoi_version.is_none()
            || info.identity.schema_version.is_none()
        {
            self.here(
                RuleId::SummaryIdentity,
                "aoi:summary lacks the identity triple (tool_version, aoi_version, schema_version)"
                    .into(),
            );
        }
        self.summary = Some(info);
    }

    fn error(&mut self, ev: &Ev<'_>) {
        let line = ev.line;
        let [
            category,
            code,
            message,
            retryable,
            retry_after,
            scope,
            origin,
        ] = ev.fields([
            "category",
            "code",
            "message",
            "retryable",
            "retry_after_ms",
            "scope",
            "origin",
        ]);
        // The usual values, plain strings, are accepted on their bytes;
        // anything else takes the general path.
        let known_category = |m: &Member| {
            plain(line, m)
                .is_some_and(|c| c != b"partial" && spec::category_default_retryable(c).is_some())
        };
        match category {
            None => self.here(RuleId::ErrorCategory, "aoi:error has no category".into()),
            Some(m) if known_category(m) => {}
            Some(m) => match str_ref(line, m) {
                None => self.here(
                    RuleId::ErrorCategory,
                    format!("category is a {}, not a string", m.kind.name()),
                ),
                Some(c) if c == "partial" => self.here(
                    RuleId::ErrorCategoryPartial,
                    "category \"partial\" was removed in v1.0-alpha".into(),
                ),
                Some(c) if spec::category_default_retryable(c.as_bytes()).is_none() => {
                    let hint = if c == "temporary" {
                        " (v0.2's temporary is now unavailable)"
                    } else {
                        ""
                    };
                    self.here(
                        RuleId::ErrorCategoryUnknown,
                        format!("unrecognised category \"{c}\", routed as internal{hint}"),
                    )
                }
                Some(_) => {}
            },
        }
        match code {
            None => self.here(RuleId::ErrorCode, "aoi:error has no code".into()),
            Some(m) if plain(line, m).is_some_and(spec::valid_code) => {}
            Some(m) => match str_ref(line, m) {
                Some(c) if spec::valid_code(c.as_bytes()) => {}
                Some(c) => self.here(
                    RuleId::ErrorCode,
                    format!("code \"{c}\" does not match [A-Z][A-Z0-9_]*"),
                ),
                None => self.here(
                    RuleId::ErrorCode,
                    format!("code is a {}, not a string", m.kind.name()),
                ),
            },
        }
        match message {
            None => self.here(RuleId::ErrorMessage, "aoi:error has no message".into()),
            // Printable ASCII without escapes has neither line breaks nor
            // ANSI escapes: skip the per-character checks below.
            Some(m)
                if m.kind == (Kind::String { escaped: false })
                    && ev.raw(m).iter().all(|&b| (0x20..0x7F).contains(&b)) => {}
            Some(m) => match str_ref(line, m) {
                Some(s) if s.contains(['\n', '\r', '\u{2028}', '\u{2029}', '\u{85}']) => {
                    self.here(RuleId::ErrorMessage, "message spans several lines".into())
                }
                Some(s) if s.contains('\u{1b}') => self.here(
                    RuleId::ErrorMessage,
                    "message contains an ANSI escape (\\u001b)".into(),
                ),
                // C1 controls (CSI is \u009b) drive terminals as ESC does.
                Some(s) if s.contains(|c: char| ('\u{80}'..='\u{9f}').contains(&c)) => self.here(
                    RuleId::ErrorMessage,
                    "message contains a C1 control character (\\u0080-\\u009f)".into(),
                ),
                Some(_) => {}
                None => self.here(
                    RuleId::ErrorMessage,
                    format!("message is a {}, not a string", m.kind.name()),
                ),
            },
        }
        let retryable = match retryable {
            None => {
                self.here(RuleId::ErrorRetryable, "aoi:error has no retryable".into());
                None
            }
            Some(m) => {
                let b = bool_value(m);
                if b.is_none() {
                    self.here(
                        RuleId::ErrorRetryable,
                        format!("retryable is a {}, not a boolean", m.kind.name()),
                    );
                }
                b
            }
        };
        if let Some(m) = retry_after {
            if uint_value(line, m).is_none() {
                self.here(
                    RuleId::ErrorRetryAfter,
                    format!(
                        "retry_after_ms is {}, not an integer >= 0",
                        preview(ev.raw(m))
                    ),
                );
            } else if retryable == Some(false) {
                self.here(
                    RuleId::ErrorRetryAfter,
                    "retry_after_ms with retryable:false".into(),
                );
            }
        }
        let in_scopes = |s: &[u8]| spec::SCOPES.iter().any(|n| n.as_bytes() == s);
        if let Some(m) = scope.filter(|m| !plain(line, m).is_some_and(in_scopes)) {
            let s = str_ref(line, m);
            if !s.as_deref().is_some_and(|s| in_scopes(s.as_bytes())) {
                self.here(
                    RuleId::ErrorScope,
                    format!(
                        "scope is {}, not \"process\" or \"item\"",
                        preview(ev.raw(m))
                    ),
                );
            }
        }
        if origin.is_some() {
            self.forwarded_errors += 1;
        }
        // Only an error that outranks the current worst is copied out.
        let process_scope = match scope.map(|m| (m, plain(line, m))) {
            None => true,
            Some((_, Some(s))) => s != b"item",
            Some((m, None)) => str_ref(line, m).is_none_or(|s| s != "item"),
        };
        let rank = Cause::rank_of(process_scope, retryable);
        if self.worst_error.as_ref().is_none_or(|w| rank > w.rank()) {
            self.worst_error = Some(read_cause(line, ev.members, self.pos));
        }
    }

    /// Records an error reading the input; the stream is then incomplete.
    pub fn io_error(&mut self, message: String) {
        self.report(RuleId::InputIo, 0, format!("read error: {message}"));
        self.io_error = Some(message);
    }

    /// Records that the input went silent past `--idle-timeout` (§ 4.2):
    /// the stream ends with the `timeout` outcome (exit 124).
    pub fn idle_timeout(&mut self, message: String) {
        // A stream whose summary was read is complete: silence after it
        // only ends the read (the producer did not close its output).
        if self.summary.is_some() {
            return;
        }
        // The stream's, not its last line's (as `summary.missing`).
        self.report(RuleId::InputIdleTimeout, 0, message.clone());
        self.idle = Some(message);
    }

    /// Closes the stream: the verdict, and the findings not yet drained
    /// (including the stream-level ones such as `summary.missing`).
    pub fn finish(mut self) -> (Verdict, Vec<Finding>) {
        self.cur_seq = None;
        // A pretty-printed stream holds its summary in lines that were
        // reported as that one cause (`line.pretty-json`).
        let pretty = self.rule_counts[RuleId::LinePretty as usize] > 0;
        if self.summary.is_none()
            && !self.opts.unbounded
            && self.io_error.is_none()
            && self.idle.is_none()
            && !pretty
        {
            let what = if self.line_no == 0 {
                "empty stream: no aoi:summary".to_string()
            } else {
                format!(
                    "EOF after {} line(s) without a terminal aoi:summary",
                    self.line_no
                )
            };
            self.report(RuleId::SummaryMissing, 0, what);
        }
        if self.object_lines > 0 && !self.seq_seen {
            self.report(
                RuleId::SeqAbsent,
                0,
                "no event carries aoi.seq; the stream cannot claim Verifiable".into(),
            );
        }
        if self.object_lines > 0 && self.meta_count == 0 {
            self.report(RuleId::MetaMissing, 0, "the stream has no aoi:meta".into());
        }
        let count_of = |sev: Severity| -> u64 {
            RuleId::ALL
                .iter()
                .filter(|r| r.severity() == sev)
                .map(|r| self.rule_counts[*r as usize])
                .sum()
        };
        let violations = count_of(Severity::Violation);
        let incompletes = count_of(Severity::Incomplete);
        let advisories = count_of(Severity::Advisory);

        // One cause decides the exit code and is what the report reproduces:
        // the summary's caused_by, its gaps filled from the most severe
        // aoi:error, or that error alone (§ 13.1).
        let cause = match (
            self.summary.as_ref().and_then(|s| s.caused_by.clone()),
            self.worst_error.clone(),
        ) {
            // Gaps are filled only from the same error: a summary that
            // names UP_THROTTLED is never described with a local error's
            // message or origin (issue 25).
            (Some(mut cb), Some(w))
                if (cb.code.is_none() || cb.code == w.code)
                    && (cb.category.is_none() || cb.category == w.category) =>
            {
                cb.origin = cb.origin.or(w.origin);
                cb.category = cb.category.or(w.category);
                cb.code = cb.code.or(w.code);
                cb.message = cb.message.or(w.message);
                if cb.retryable.is_none() {
                    cb.retryable = w.retryable;
                    cb.retry_after_ms = cb.retry_after_ms.or(w.retry_after_ms);
                }
                Some(cb)
            }
            (cb, w) => cb.or(w),
        }
        .map(|mut c| {
            if c.origin.is_none() {
                c.origin = self.identity.tool.clone();
            }
            c
        });
        let retryable = cause.as_ref().is_some_and(|c| c.retryable == Some(true));
        let first = |rule_sev: Severity| -> String {
            RuleId::ALL
                .iter()
                .find(|r| r.severity() == rule_sev && self.rule_counts[**r as usize] > 0)
                .map_or_else(String::new, |r| r.id().to_string())
        };
        let (outcome, reason) = if violations > 0 {
            (
                Outcome::Violation,
                format!(
                    "{violations} contract violation(s){}, first: {}",
                    // Reports count both in violation_count: the reason
                    // says so, so its numbers add up to that field.
                    if incompletes > 0 {
                        format!(" and {incompletes} incompleteness finding(s)")
                    } else {
                        String::new()
                    },
                    // The first one the stream broke, in its order.
                    self.first_violation
                        .map_or_else(|| first(Severity::Violation), |r| r.id().to_string())
                ) + match (self.foreign, &self.summary) {
                    (false, _) => "",
                    (true, Some(_)) => "; the run finished (it wrote its aoi:summary)",
                    (true, None) => "; the run did not finish (no aoi:summary)",
                },
            )
        } else if let Some(why) = &self.idle {
            (Outcome::Timeout, format!("the input went silent: {why}"))
        } else if incompletes > 0 {
            let why = if !self.terminated {
                "final line not terminated: the stream was truncated".to_string()
            } else if let Some(e) = &self.io_error {
                format!("read error: {e}")
            } else if self.line_no == 0 {
                // Nothing at all: a usage error or a tool run without its
                // machine-mode flag, far likelier than a crash (issue 25).
                "the stream was empty: no line at all (did the producer fail before writing, e.g. a usage error, or run without its machine-mode flag?)".to_string()
            } else {
                "EOF without a terminal aoi:summary: the producer crashed, was killed, or the stream was cut".to_string()
            };
            (Outcome::Incomplete, why)
        } else {
            match &self.summary {
                None => (
                    Outcome::Ok,
                    "unbounded stream ended without a summary".to_string(),
                ),
                Some(s) => match (s.ok, s.reason.as_deref()) {
                    (Some(true), _) if s.partial && self.opts.fail_on_partial => (
                        Outcome::Failed,
                        "ok:true but partial:true (--fail-on-partial)".to_string(),
                    ),
                    (Some(true), Some("skipped")) => (Outcome::Ok, "ok:true, skipped".to_string()),
                    (Some(true), _) if s.partial => {
                        (Outcome::Ok, "ok:true, partial results".to_string())
                    }
                    (Some(true), _) => {
                        (Outcome::Ok, "complete and conforming, ok:true".to_string())
                    }
                    (_, Some("denied")) => (Outcome::Denied, "upstream reason denied".to_string()),
                    (_, Some("timeout")) => {
                        (Outcome::Timeout, "upstream reason timeout".to_string())
                    }
                    (_, Some("cancelled")) => {
                        (Outcome::Cancelled, "upstream reason cancelled".to_string())
                    }
                    _ if retryable => (
                        Outcome::Retryable,
                        "upstream failed; retry may help".to_string(),
                    ),
                    _ => (Outcome::Failed, "upstream ok:false".to_string()),
                },
            }
        };
        // A factor holds unless a rule that breaks it fired (the catalog
        // says which, `rules::breaks`), given what it needs at all.
        let broken = |f: Factor| {
            RuleId::ALL
                .iter()
                .any(|r| self.rule_counts[*r as usize] > 0 && r.factors().contains(&f))
        };
        let typed = !broken(Factor::Typed) && self.object_lines > 0;
        let verifiable = self.summary.is_some() && self.seq_seen && !broken(Factor::Verifiable);
        let versioned = self.meta_count > 0 && !broken(Factor::Versioned);
        let composable = self.object_lines > 0 && !broken(Factor::Composable);
        let bounded = self.summary.is_some() && !broken(Factor::Bounded);
        let mut events_by_type: Vec<(String, u64)> = self
            .types
            .iter()
            .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), v))
            .collect();
        events_by_type.sort();
        let rule_counts = RuleId::ALL
            .iter()
            .filter(|r| self.rule_counts[**r as usize] > 0)
            .map(|r| (*r, self.rule_counts[*r as usize]))
            .collect();
        let pending = std::mem::take(&mut self.pending);
        let verdict = Verdict {
            outcome,
            exit_code: outcome.exit_code(),
            reason,
            lines: self.line_no,
            bytes: self.bytes,
            domain_events: self.domain,
            framework_events: self.framework,
            warnings: self.warnings,
            errors: self.errors,
            violations,
            incompletes,
            advisories,
            rule_counts,
            events_by_type,
            other_types: self.other_types,
            terminated: self.terminated,
            identity: self.identity,
            run: self.run.as_deref().map(|r| {
                let body = r.get(1..r.len().saturating_sub(1)).unwrap_or_default();
                keep(&unescape(body))
            }),
            summary: self.summary,
            cause,
            failed_checks: self.failed_checks,
            factors: Factors {
                typed,
                verifiable,
                versioned,
                composable,
                bounded,
            },
        };
        (verdict, pending)
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

/// Whether the top-level keys of a framework event are certainly distinct
/// and, when the type has a `table`, all in it: each key's [`spec::field_hash`]
/// sets a bit, so no bit set twice means no two keys are equal, and each
/// key is looked up by its hash. `false` says only "not proved": the exact
/// checks ([`duplicate_key`] and the field list) then decide and word the
/// finding. A key with escapes is never proved here.
fn keys_plain(line: &[u8], members: &[Member], table: Option<&spec::FieldTable>) -> bool {
    let mut seen = [0u64; 4];
    for m in members {
        if m.key_escaped {
            return false;
        }
        let k = span(line, &m.key);
        let h = spec::field_hash(k);
        if table.is_some_and(|t| !t.has(k, h)) {
            return false;
        }
        let (word, bit) = (usize::from(h >> 6), 1u64 << (h & 63));
        let Some(w) = seen.get_mut(word) else {
            return false;
        };
        if *w & bit != 0 {
            return false;
        }
        *w |= bit;
    }
    true
}

/// The first key that occurs twice among `members` (decoded), if any,
/// ignoring `type` and `aoi` (they have their own rule). Raw bytes are
/// compared unless a key has escapes.
fn duplicate_key(line: &[u8], members: &[Member]) -> Option<String> {
    let reserved = |k: &str| k == "type" || k == "aoi";
    if members.len() > 16 {
        // Sort-and-scan keeps hostile lines with many keys linear-logarithmic.
        let mut keys: Vec<std::borrow::Cow<'_, str>> = members
            .iter()
            .map(|m| unescape(span(line, &m.key)))
            .collect();
        keys.sort_unstable();
        return keys
            .windows(2)
            .find(|w| w[0] == w[1] && !reserved(&w[0]))
            .map(|w| w[0].to_string());
    }
    let same = |a: &Member, b: &Member| {
        let (ka, kb) = (span(line, &a.key), span(line, &b.key));
        if a.key_escaped || b.key_escaped {
            unescape(ka) == unescape(kb)
        } else {
            bytes_eq(ka, kb)
        }
    };
    // A signature per key (length, first and last byte): keys whose
    // signatures differ differ, unless one has escapes (`ANY`); only equal
    // signatures are compared byte for byte.
    const ANY: u64 = u64::MAX;
    let mut sigs = [0u64; 16];
    for (sig, m) in sigs.iter_mut().zip(members) {
        let k = span(line, &m.key);
        *sig = if m.key_escaped {
            ANY
        } else {
            let ends = |b: Option<&u8>| u64::from(b.copied().unwrap_or(0));
            ((k.len() as u64) << 16) | (ends(k.first()) << 8) | ends(k.last())
        };
    }
    for (i, (a, &sa)) in members.iter().zip(&sigs).enumerate() {
        let maybe = |&(_, &sb): &(&Member, &u64)| sa == sb || sa == ANY || sb == ANY;
        let later = members.iter().zip(&sigs).skip(i + 1);
        if later.filter(maybe).any(|(b, _)| same(a, b)) {
            let k = unescape(span(line, &a.key));
            if !reserved(&k) {
                return Some(k.into_owned());
            }
        }
    }
    None
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
fn canonical_envelope(obj: &[u8]) -> Option<(u64, &[u8])> {
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

/// Reads `src` to its end through `judge`, the loop every stream command
/// shares. `on_line` runs after each complete line has been judged (so it
/// can ask [`Judge::last_class`] and [`Judge::last_members`]); for a line
/// longer than the reader holds it is given the reduced copy the judge
/// read ([`Judge::last_long`]), after `on_bytes` had its last piece; `on_bytes`
/// then receives the input bytes in order and in large spans (whole blocks
/// of lines, pieces of an over-long line), which is what a relay writes and
/// the moment to drain findings. A read error ends the stream as incomplete
/// (`input.io-error`); only the callbacks' errors are returned.
pub fn drive<R: std::io::Read, E>(
    src: R,
    judge: &mut Judge,
    on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let reader = crate::lines::LineReader::new(src, crate::lines::hold());
    drive_reader(reader, judge, on_line, on_bytes)
}

/// [`drive`] on a configured reader (an idle timeout, for instance: its
/// `TimedOut` ends the stream with the `timeout` outcome).
pub fn drive_reader<R: std::io::Read, E>(
    mut reader: crate::lines::LineReader<R>,
    judge: &mut Judge,
    mut on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    mut on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    drive_until(&mut reader, judge, None, &mut on_line, &mut on_bytes).map(|_| ())
}

/// [`drive_reader`] until the input ends, or, with `later`, until it says
/// to go on two threads: then true, with the reader at a line boundary.
fn drive_until<R: std::io::Read, E>(
    reader: &mut crate::lines::LineReader<R>,
    judge: &mut Judge,
    mut later: Option<crate::parallel::Later>,
    on_line: &mut impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    on_bytes: &mut impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<bool, E> {
    use crate::lines::{Chunk, split_lines_checked};
    loop {
        match reader.next_chunk() {
            Ok(None) => return Ok(false),
            Ok(Some(Chunk::Lines(block))) => {
                for (line, terminated, utf8_checked) in split_lines_checked(block) {
                    judge.line_checked(line, terminated, utf8_checked);
                    on_line(judge, line)?;
                }
                on_bytes(judge, block)?;
                if crate::parallel::Later::due(&mut later, block) {
                    return Ok(true);
                }
            }
            Ok(Some(Chunk::LongPart { bytes, end })) => {
                judge.long_part(bytes, end);
                on_bytes(judge, bytes)?;
                if end {
                    on_line(judge, judge.long_object())?;
                }
            }
            Err(e) => {
                read_failed(judge, &e);
                return Ok(false);
            }
        }
    }
}

/// Ends a stream whose read failed: a timeout (`--idle-timeout`) or an I/O
/// error. A stop request (SIGINT/SIGTERM) is not an I/O error of the
/// stream: the caller ends the run as cancelled.
pub(crate) fn read_failed(judge: &mut Judge, e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::TimedOut {
        judge.idle_timeout(e.to_string());
    } else if crate::cancel::requested().is_none() {
        judge.io_error(e.to_string());
    }
}

/// Where a stream's bytes come from, and on how many threads they are read
/// (`crate::parallel`).
pub struct Source<R> {
    /// The stream's line reader.
    pub reader: crate::lines::LineReader<R>,
    /// One thread, two, or two once the stream proves large.
    pub threads: crate::parallel::Threads,
}

impl<R> Source<R> {
    /// A source read on the caller's thread.
    pub fn one(reader: crate::lines::LineReader<R>) -> Self {
        Source {
            reader,
            threads: crate::parallel::Threads::One,
        }
    }
}

/// [`drive_reader`] on a [`Source`], on as many threads as it says; the
/// judge, the findings and the bytes given to `on_bytes` are the same
/// either way.
pub fn drive_source<R: std::io::Read + Send, E>(
    src: Source<R>,
    judge: &mut Judge,
    mut on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    mut on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    use crate::parallel::{Later, Threads};
    let Source {
        mut reader,
        threads,
    } = src;
    let whole_blocks = match threads {
        Threads::One => return drive_reader(reader, judge, on_line, on_bytes),
        Threads::Two { whole_blocks } => whole_blocks,
        Threads::Later => {
            let later = Some(Later::default());
            if !drive_until(&mut reader, judge, later, &mut on_line, &mut on_bytes)? {
                return Ok(());
            }
            false
        }
    };
    crate::parallel::drive_judged(reader, whole_blocks, judge, on_line, on_bytes)
}

/// A short, printable excerpt of upstream bytes for messages.
pub fn preview(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b.get(..b.len().min(60)).unwrap_or_default());
    let mut out: String = s
        .chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if b.len() > 60 {
        out.push('…');
    }
    out
}

/// Looks for a secret-looking value in `aoi:meta.args` (§ 11): exactly
/// what [`crate::emit::redact_args`] would redact in an array of strings
/// (secret flags and their values, headers, `NAME=value`, URL credentials
/// and secret parameters), and in an object a string under a secret key or
/// one holding such a URL. Returns what was found, redacted.
pub fn secret_in_args(raw: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(raw).ok()?;
    match &v {
        serde_json::Value::Array(items) => {
            let strs: Vec<&str> = items.iter().filter_map(|i| i.as_str()).collect();
            let (redacted, changed) = crate::emit::redact_args(&strs);
            if !changed {
                return None;
            }
            let i = strs.iter().zip(&redacted).position(|(a, b)| a != b)?;
            let shown = redacted.get(i)?;
            // The value after a secret flag: name the flag.
            match i.checked_sub(1).and_then(|p| strs.get(p)) {
                Some(flag) if shown == crate::emit::REDACTED && spec::is_secret_name(flag) => {
                    Some(format!("{flag} …"))
                }
                _ => Some(shown.clone()),
            }
        }
        serde_json::Value::Object(map) => {
            for (k, val) in map {
                if let Some(s) = val.as_str() {
                    if spec::url_has_secret(s) {
                        return Some("a URL with credentials or a secret query parameter".into());
                    }
                    if spec::is_secret_name(k) && !spec::looks_redacted(s) {
                        return Some(format!("{k}: …"));
                    }
                }
            }
            None
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(input: &str) -> (Verdict, Vec<Finding>) {
        let mut j = Judge::new(JudgeOptions::default());
        let mut f = Vec::new();
        for (l, t) in crate::lines::split_lines(input.as_bytes()) {
            j.line(l, t);
            f.extend(j.drain());
        }
        let (v, last) = j.finish();
        f.extend(last);
        (v, f)
    }

    /// A framework event with many undefined fields names the first 16:
    /// the message stays short whatever the line holds.
    #[test]
    fn unknown_fields_are_named_up_to_a_limit() {
        let keys: String = (0..100).map(|i| format!(r#","k{i}":0"#)).collect();
        let line = format!(
            r#"{{"type":"aoi:meta","aoi":{{"seq":0,"run":"R"}},"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"s","schema_version":"1.0.0"{keys}}}"#
        );
        let (_, f) = judge(&format!("{line}\n"));
        let m = f
            .iter()
            .find(|f| f.rule == RuleId::UnknownField)
            .map(|f| f.message.clone())
            .unwrap_or_default();
        assert!(
            m.contains("k0, k1,") && m.contains("k15 … and 84 more"),
            "{m}"
        );
        assert!(!m.contains("k16"), "{m}");
    }

    #[test]
    fn conforming_stream_is_ok() {
        let s = concat!(
            r#"{"type":"aoi:meta","aoi":{"seq":0,"run":"R"},"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"s","schema_version":"1.0.0"}"#,
            "\n",
            r#"{"type":"hit","aoi":{"seq":1,"run":"R"}}"#,
            "\n",
            r#"{"type":"aoi:summary","aoi":{"seq":2,"run":"R"},"ok":true,"count":1,"event_count":3,"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"s","schema_version":"1.0.0","truncated":false}"#,
            "\n"
        );
        let (v, f) = judge(s);
        assert_eq!(f, vec![]);
        assert_eq!(v.exit_code, 0);
        assert!(
            v.factors.typed && v.factors.verifiable && v.factors.versioned && v.factors.composable
        );
    }

    #[test]
    fn canonical_envelope_fast_path() {
        assert_eq!(
            canonical_envelope(br#"{"seq":12,"run":"R"}"#),
            Some((12, &br#""R""#[..]))
        );
        assert_eq!(
            canonical_envelope(br#"{"seq":0,"run":"R","t":5}"#),
            Some((0, &br#""R""#[..]))
        );
        assert_eq!(canonical_envelope(br#"{"seq":1,"run":""}"#), None);
        assert_eq!(canonical_envelope(br#"{"seq":1,"run":"a\"b"}"#), None);
        assert_eq!(canonical_envelope(br#"{"seq":1.5,"run":"R"}"#), None);
        assert_eq!(canonical_envelope(br#"{"seq":1,"run":"R","seq":2}"#), None);
        assert_eq!(canonical_envelope(br#"{"seq":1,"run":"R","t":-1}"#), None);
        assert_eq!(
            canonical_envelope(br#"{"seq":99999999999999999999,"run":"R"}"#),
            None
        );
    }

    #[test]
    fn secrets() {
        assert!(secret_in_args(br#"["--token","abc"]"#).is_some());
        assert!(secret_in_args(br#"["--token=abc"]"#).is_some());
        assert!(secret_in_args(br#"["--token","***"]"#).is_none());
        assert!(secret_in_args(br#"["https://u:p@h/x"]"#).is_some());
        assert!(secret_in_args(br#"["https://h/x?sig=abc"]"#).is_some());
        assert!(secret_in_args(br#"["--limit","2"]"#).is_none());
        assert!(secret_in_args(br#"{"api_key":"k"}"#).is_some());
    }

    mod key_checks {
        use super::*;
        use proptest::prelude::*;

        /// Keys to build framework lines from: known names, names that
        /// share a hash with a known one or with each other, an escaped
        /// spelling of a known name, the reserved names.
        const POOL: &[&str] = &[
            "type",
            "aoi",
            "code",
            "message",
            "scope",
            "category",
            "retryable",
            "target",
            "details",
            "properties",
            "phase",
            "done",
            "total",
            "aaqv",
            "aaah",
            "aaba",
            "aapx",
            "cod\\u0065",
            "",
            "x",
        ];

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]

            /// `TypeCounts` counts as a map of names would: names that
            /// share their first and last four bytes and their length
            /// (the key), names of 0-12 bytes with NULs (an escaped type
            /// can hold one), past the scanned names into the map, and
            /// past `MAX_TYPES` and `MAX_TYPE_LEN` into "not tracked".
            #[test]
            fn type_counts_agree_with_a_map(
                picks in proptest::collection::vec((0usize..1200, 0usize..6), 0..3000),
            ) {
                // Names built from an index: a few shapes that defeat a
                // key made of the length and the first and last 4 bytes.
                let name = |i: usize, shape: usize| -> Vec<u8> {
                    let b = [(i % 251) as u8, (i / 251) as u8];
                    match shape {
                        0 => format!("t{i}").into_bytes(),
                        1 => [&b"abcd"[..], &b, b"wxyz"].concat(),
                        2 => [&b"abcd"[..], &b[..1], b"wxyz"].concat(),
                        3 => vec![0; i % 13],
                        4 => vec![b'x'; 250 + i % 10],
                        _ => [&b[..], b"\0"].concat(),
                    }
                };
                let mut tc = TypeCounts::default();
                let mut oracle: Vec<(Vec<u8>, u64)> = Vec::new();
                for &(i, shape) in &picks {
                    let n = name(i, shape);
                    let tracked = tc.count(&n);
                    let pos = oracle.iter().position(|(t, _)| *t == n);
                    let expect = match pos {
                        Some(p) => {
                            oracle[p].1 += 1;
                            true
                        }
                        None if oracle.len() < MAX_TYPES && n.len() <= MAX_TYPE_LEN => {
                            oracle.push((n, 1));
                            true
                        }
                        None => false,
                    };
                    prop_assert_eq!(tracked, expect);
                }
                let got: Vec<(Vec<u8>, u64)> = tc.iter().map(|(t, n)| (t.to_vec(), n)).collect();
                prop_assert_eq!(got, oracle);
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(3000))]

            /// `keys_plain` proves only what holds: no duplicate key and,
            /// with a table, every key known; and on a table type it proves
            /// every line whose keys are distinct known names without escapes.
            #[test]
            fn keys_plain_proves_only_what_holds(
                keys in proptest::collection::vec(proptest::sample::select(POOL), 0..14),
                ty in proptest::sample::select(&["aoi:error", "aoi:progress", "aoi:meta", "aoi:check"][..]),
            ) {
                let body: String = keys.iter().enumerate().map(|(i, k)| format!(r#","{k}":{i}"#)).collect();
                let line = format!(r#"{{"t":0{body}}}"#);
                let mut p = Peeker::new();
                prop_assert!(p.peek(line.as_bytes()).is_ok());
                let members = &p.members[1..];
                let line = line.as_bytes();
                let table = spec::field_table(ty.as_bytes());
                let plain = keys_plain(line, members, table);
                let decoded: Vec<String> = members.iter().map(|m| unescape(span(line, &m.key)).into_owned()).collect();
                let mut sorted = decoded.clone();
                sorted.sort();
                let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
                let known = table.is_none_or(|t| decoded.iter().all(|k| t.names.contains(&k.as_str())));
                if plain {
                    prop_assert!(distinct && known, "{:?} proved plain for {}", decoded, ty);
                    prop_assert!(duplicate_key(line, members).is_none());
                }
                let escaped = members.iter().any(|m| m.key_escaped);
                if table.is_some() && distinct && known && !escaped {
                    prop_assert!(plain, "{:?} not proved for {}", decoded, ty);
                }
            }
        }

        /// Every name of every table is found by its own hash, and nothing
        /// else with that hash is.
        #[test]
        fn tables_find_their_names() {
            for ty in [
                "aoi:meta",
                "aoi:summary",
                "aoi:error",
                "aoi:warning",
                "aoi:check",
            ] {
                let t = spec::field_table(ty.as_bytes()).expect("a table");
                for n in t.names {
                    assert!(
                        t.has(n.as_bytes(), spec::field_hash(n.as_bytes())),
                        "{ty} {n}"
                    );
                }
            }
            let error = spec::field_table(b"aoi:error").expect("a table");
            assert_eq!(spec::field_hash(b"aaqv"), spec::field_hash(b"code"));
            assert!(!error.has(b"aaqv", spec::field_hash(b"aaqv")));
            assert_eq!(spec::field_hash(b"aaah"), spec::field_hash(b"aaba"));
        }
    }
}
