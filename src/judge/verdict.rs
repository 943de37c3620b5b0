//! What judging a stream yields: the [`Verdict`] with its [`Outcome`], the
//! [`Finding`]s on the way, and what a verdict is made of (the identity,
//! the cause, the § 18 factors, the summary as read). Types only: the
//! judge's families fill them in.

use crate::rules::RuleId;
use crate::spec::exit::Code;

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

impl std::fmt::Display for Finding {
    /// `line 3 (seq 2): violation error.code (§ 9.1): code "bad" does not …`;
    /// `stream:` for a finding about the stream as a whole.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.seq) {
            (0, _) => f.write_str("stream")?,
            (n, Some(s)) => write!(f, "line {n} (seq {s})")?,
            (n, None) => write!(f, "line {n}")?,
        }
        let r = self.rule.rule();
        write!(
            f,
            ": {} {} ({}): {}",
            r.severity.name(),
            r.id,
            r.spec,
            self.message
        )
    }
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
        self.code().code()
    }

    /// [`Outcome::exit_code`] as a [`Code`], which knows its precedence.
    pub fn code(self) -> Code {
        match self {
            Outcome::Ok => Code::OK,
            Outcome::Failed => Code::FAILED,
            Outcome::Retryable => Code::TEMPFAIL,
            Outcome::Denied => Code::NOPERM,
            Outcome::Timeout => Code::TIMEOUT,
            Outcome::Cancelled => Code::CANCELLED,
            Outcome::Incomplete => Code::IOERR,
            Outcome::Violation => Code::DATAERR,
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
    /// `reason`: one of § 8.3's closed set, or (`Err`) any other text as
    /// written, kept because reports carry the upstream's reason as it was.
    pub reason: Option<Result<crate::emit::Reason, String>>,
    /// `partial`.
    pub partial: bool,
    /// `truncated`.
    pub truncated: bool,
    /// `next_cursor`, when it is a string: what fetches the rest (§ 15).
    pub next_cursor: Option<String>,
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
    /// Events per type, sorted by type name.
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
}
