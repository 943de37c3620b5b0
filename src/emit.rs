//! The producer side: conforming AOI streams, aoi's own and any Rust
//! tool's.
//!
//! Two layers, one implementation:
//!
//! - [`Emitter`] encodes events with the envelope (`type`, then
//!   `aoi:{seq,run,t}`, then the fields in the order given), keeps `seq`
//!   contiguous from 0 under one ULID `run` (§ 8.1), counts what it emitted
//!   (domain events, own warnings and errors, forwarded events) and writes
//!   the identity triple on both `aoi:meta` and `aoi:summary` (§ 5, § 8.3).
//!   It encodes into a byte buffer; the caller decides where the bytes go.
//! - [`Producer`] puts an emitter in front of a writer and makes the
//!   contract the easy path: `aoi:meta` first, a closed pipe as a normal
//!   end ([`Ended::Closed`], exit 141, nothing printed, § 7), a
//!   cancellation by SIGINT/SIGTERM ([`crate::cancel`]) ending in
//!   `reason:"cancelled"`, and a terminal `aoi:summary` on every exit it
//!   controls: the one you [`close`](Producer::close) with, or `ok:false`
//!   when the producer is dropped unfinished (an early `return`, a `?`, a
//!   panic that unwinds).
//!
//! aoi's own commands use both: there is one producer implementation.
//!
//! [`redact_args`] prepares arguments for `aoi:meta.args` (§ 11).

use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::spec::{self, AOI_VERSION, exit};

/// aoi's schema name (`schema_name`, § 5).
pub const SCHEMA_NAME: &str = "aoi.toolkit.events";
/// The version of aoi's schema (`schema_version`).
pub const SCHEMA_VERSION: &str = "1.0.0";
/// aoi's tool name (`tool`).
pub const TOOL: &str = "aoi";
/// aoi's version (`tool_version`).
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A new ULID (§ 8.1 recommends one for `aoi.run`): 48 bits of Unix
/// milliseconds and 80 random bits from the operating system (getrandom,
/// which `tempfile` already brings), Crockford base32.
pub fn ulid() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let mut random = [0u8; 16];
    if getrandom::fill(&mut random[6..]).is_err() {
        // No system randomness (a sandbox without getrandom(2) and
        // /dev/urandom): the standard library's hash keys still differ
        // per process and per call, which is enough for an identifier.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        random[8..].copy_from_slice(&h.finish().to_be_bytes());
    }
    let value = ((ms as u128 & 0xFFFF_FFFF_FFFF) << 80) | u128::from_be_bytes(random);
    (0..26)
        .rev()
        .map(|i| ALPHABET[((value >> (i * 5)) & 31) as usize] as char)
        .collect()
}

/// Who is speaking: the identity a stream carries on `aoi:meta` and
/// `aoi:summary` (§ 5), `aoi_version` aside (always [`AOI_VERSION`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolIdentity {
    /// The tool's name (`tool`).
    pub tool: String,
    /// Its version (`tool_version`).
    pub tool_version: String,
    /// The schema its domain events follow (`schema_name`, § 8.2).
    pub schema_name: String,
    /// That schema's version (`schema_version`, § 5).
    pub schema_version: String,
}

impl ToolIdentity {
    /// An identity from its four parts.
    pub fn new(
        tool: impl Into<String>,
        tool_version: impl Into<String>,
        schema_name: impl Into<String>,
        schema_version: impl Into<String>,
    ) -> Self {
        ToolIdentity {
            tool: tool.into(),
            tool_version: tool_version.into(),
            schema_name: schema_name.into(),
            schema_version: schema_version.into(),
        }
    }

    /// aoi's own identity.
    pub fn aoi() -> Self {
        Self::new(TOOL, TOOL_VERSION, SCHEMA_NAME, SCHEMA_VERSION)
    }

    /// The identity members, in the order aoi writes them.
    fn fields(&self) -> [(&'static str, &str); 5] {
        [
            ("tool", &self.tool),
            ("tool_version", &self.tool_version),
            ("aoi_version", AOI_VERSION),
            ("schema_name", &self.schema_name),
            ("schema_version", &self.schema_version),
        ]
    }
}

/// What an [`Emitter`] has emitted so far, by kind (§ 8.3's counters).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Domain events (unprefixed types): the summary's `count`.
    pub domain: u64,
    /// `aoi:warning` events of the tool's own.
    pub warnings: u64,
    /// `aoi:error` events of the tool's own.
    pub errors: u64,
    /// Upstream `aoi:warning` events passed on with [`Emitter::forward`]:
    /// counted where they were consumed, not again as the tool's own.
    pub forwarded_warnings: u64,
    /// Upstream `aoi:error` events passed on likewise.
    pub forwarded_errors: u64,
}

/// Encodes one AOI stream.
pub struct Emitter {
    identity: ToolIdentity,
    run: String,
    seq: u64,
    start: Instant,
    buf: Vec<u8>,
    counts: Counts,
}

impl Default for Emitter {
    fn default() -> Self {
        Self::new()
    }
}

impl Emitter {
    /// An emitter for aoi's own streams.
    pub fn new() -> Self {
        Self::with_identity(ToolIdentity::aoi())
    }

    /// An emitter for the tool `identity`, with a fresh ULID run.
    pub fn with_identity(identity: ToolIdentity) -> Self {
        Emitter {
            identity,
            run: ulid(),
            seq: 0,
            start: Instant::now(),
            buf: Vec::with_capacity(512),
            counts: Counts::default(),
        }
    }

    /// The run id every event carries (`aoi.run`).
    pub fn run(&self) -> &str {
        &self.run
    }

    /// Events encoded so far (the next event's `seq`).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// What was emitted so far, by kind.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The identity on meta and summary.
    pub fn identity(&self) -> &ToolIdentity {
        &self.identity
    }

    /// Milliseconds since the emitter started (its `aoi:meta`).
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Encodes one event, `\n` included, and returns its bytes.
    pub fn event(&mut self, ty: &str, fields: &[(&str, Value)]) -> &[u8] {
        self.header(ty);
        for (k, v) in fields {
            self.buf.push(b',');
            push_json(&mut self.buf, &Value::from(*k));
            self.buf.push(b':');
            push_json(&mut self.buf, v);
        }
        self.tally(ty);
        self.close()
    }

    /// Encodes one event whose members after the envelope are already
    /// encoded: `body` is empty or `,"key":value…`.
    pub fn raw_event(&mut self, ty: &str, body: &[u8]) -> &[u8] {
        self.header(ty);
        self.buf.extend_from_slice(body);
        self.tally(ty);
        self.close()
    }

    /// [`raw_event`](Self::raw_event) for an upstream event passed on
    /// (§ 13.1: an `aoi:error` or `aoi:warning` with `origin`); counted in
    /// [`Counts`] as forwarded, not as the tool's own (any other type
    /// counts as usual).
    pub fn forward(&mut self, ty: &str, body: &[u8]) -> &[u8] {
        self.header(ty);
        self.buf.extend_from_slice(body);
        match ty {
            "aoi:warning" => self.counts.forwarded_warnings += 1,
            "aoi:error" => self.counts.forwarded_errors += 1,
            _ => self.tally(ty),
        }
        self.close()
    }

    /// Encodes an `aoi:error` (§ 9.1).
    pub fn error(&mut self, e: &ErrorEvent) -> &[u8] {
        let fields = e.fields();
        self.event("aoi:error", &fields)
    }

    fn tally(&mut self, ty: &str) {
        match ty {
            "aoi:warning" => self.counts.warnings += 1,
            "aoi:error" => self.counts.errors += 1,
            t if !t.starts_with("aoi:") => self.counts.domain += 1,
            _ => {}
        }
    }

    /// `{"type":…,"aoi":{…}` into the buffer.
    fn header(&mut self, ty: &str) {
        // § 8.1: `t` counts from `aoi:meta`, whose own `t` is 0, however
        // long after the emitter was made the first event is written.
        let t = if self.seq == 0 {
            self.start = Instant::now();
            0
        } else {
            self.elapsed_ms()
        };
        self.buf.clear();
        self.buf.extend_from_slice(b"{\"type\":");
        push_json(&mut self.buf, &Value::from(ty));
        self.buf.extend_from_slice(b",\"aoi\":{\"seq\":");
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(self.seq).as_bytes());
        self.buf.extend_from_slice(b",\"run\":\"");
        self.buf.extend_from_slice(self.run.as_bytes());
        self.buf.extend_from_slice(b"\",\"t\":");
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(t).as_bytes());
        self.buf.push(b'}');
    }

    /// Closes the event in the buffer and returns it.
    fn close(&mut self) -> &[u8] {
        self.buf.extend_from_slice(b"}\n");
        self.seq += 1;
        &self.buf
    }

    /// The identity members, as fields.
    fn identity_fields(&self) -> Vec<(&'static str, Value)> {
        self.identity
            .fields()
            .iter()
            .map(|(k, v)| (*k, Value::from(*v)))
            .collect()
    }

    /// Encodes `aoi:meta` for `command`.
    pub fn meta(&mut self, command: &str) -> &[u8] {
        self.meta_with(command, Vec::new())
    }

    /// Encodes `aoi:meta` for `command` with more members after it (for
    /// instance `args` from [`redact_args`] and `args_redacted`, § 11).
    pub fn meta_with(&mut self, command: &str, more: Vec<(&str, Value)>) -> &[u8] {
        let mut f: Vec<(&str, Value)> = self.identity_fields();
        f.push(("command", command.into()));
        f.extend(more);
        self.event("aoi:meta", &f)
    }

    /// Encodes the terminal `aoi:summary` (§ 8.3): `ok`, `reason`, the
    /// counters (`count` and the tool's own warnings and errors from
    /// [`counts`](Self::counts), plus what `s` says was consumed, at least
    /// what was forwarded), `s`'s
    /// other members, then `elapsed_ms`, `event_count` and the identity.
    pub fn summary(&mut self, s: &Summary) -> &[u8] {
        let c = self.counts;
        let mut f: Vec<(&str, Value)> = vec![("ok", s.ok.into())];
        if let Some(r) = s.reason {
            f.push(("reason", r.as_str().into()));
        }
        f.push(("count", c.domain.into()));
        if let Some(n) = s.input_count {
            f.push(("input_count", n.into()));
        }
        // Consumed upstream events include every one forwarded, even when
        // the caller could not say (a run ended early, by a drop).
        let warnings = s.consumed_warnings.max(c.forwarded_warnings);
        let errors = s.consumed_errors.max(c.forwarded_errors);
        f.push(("warning_count", (c.warnings + warnings).into()));
        f.push(("error_count", (c.errors + errors).into()));
        for (k, v) in &s.fields {
            f.push((k.as_str(), v.clone()));
        }
        f.push(("elapsed_ms", self.elapsed_ms().into()));
        f.push(("event_count", (self.seq + 1).into()));
        f.extend(self.identity_fields());
        self.event("aoi:summary", &f)
    }
}

/// `aoi:summary.reason` (§ 8.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The run failed.
    Failed,
    /// It was stopped (SIGINT, SIGTERM, or the caller).
    Cancelled,
    /// It ran out of time.
    Timeout,
    /// It was not allowed.
    Denied,
    /// `ok:true`: the operation did not apply and did not run.
    Skipped,
}

impl Reason {
    /// The spelling on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Failed => "failed",
            Reason::Cancelled => "cancelled",
            Reason::Timeout => "timeout",
            Reason::Denied => "denied",
            Reason::Skipped => "skipped",
        }
    }
}

/// What a run's terminal `aoi:summary` says beyond what the [`Emitter`]
/// counted itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    ok: bool,
    reason: Option<Reason>,
    input_count: Option<u64>,
    consumed_warnings: u64,
    consumed_errors: u64,
    fields: Vec<(String, Value)>,
}

impl Summary {
    /// `ok:true`.
    pub fn ok() -> Self {
        Summary {
            ok: true,
            reason: None,
            input_count: None,
            consumed_warnings: 0,
            consumed_errors: 0,
            fields: Vec::new(),
        }
    }

    /// `ok:true`, `reason:"skipped"`: not applicable, did not run.
    pub fn skipped() -> Self {
        Summary {
            reason: Some(Reason::Skipped),
            ..Self::ok()
        }
    }

    /// `ok:false` with `reason` ([`Reason::Skipped`] is read as
    /// [`Reason::Failed`]: it is not a failure reason).
    pub fn failed(reason: Reason) -> Self {
        let reason = match reason {
            Reason::Skipped => Reason::Failed,
            r => r,
        };
        Summary {
            ok: false,
            reason: Some(reason),
            ..Self::ok()
        }
    }

    /// `ok:false`, `reason:"cancelled"`.
    pub fn cancelled() -> Self {
        Self::failed(Reason::Cancelled)
    }

    /// Whether the summary says `ok:true`.
    pub fn is_ok(&self) -> bool {
        self.ok
    }

    /// The summary's reason.
    pub fn reason(&self) -> Option<Reason> {
        self.reason
    }

    /// `input_count`: domain events consumed from stdin (transformers).
    pub fn input_count(mut self, n: u64) -> Self {
        self.input_count = Some(n);
        self
    }

    /// Upstream `aoi:warning` and `aoi:error` events consumed, added to the
    /// tool's own in `warning_count` and `error_count` (§ 8.3).
    pub fn consumed(mut self, warnings: u64, errors: u64) -> Self {
        self.consumed_warnings = warnings;
        self.consumed_errors = errors;
        self
    }

    /// Any other member (`partial`, `truncated`, `next_cursor`,
    /// `caused_by`, `upstream`, `properties`), after the counters, in the
    /// order added. Tool-specific data belongs in `properties` (§ 8.1).
    /// The members the emitter writes itself (`ok`, `reason`, the counters,
    /// `elapsed_ms`, `event_count`, the identity, `type`, `aoi`) are
    /// ignored here: a key appears once.
    pub fn field(mut self, name: &str, value: impl Into<Value>) -> Self {
        const OWN: &[&str] = &[
            "type",
            "aoi",
            "ok",
            "reason",
            "count",
            "input_count",
            "warning_count",
            "error_count",
            "elapsed_ms",
            "event_count",
            "tool",
            "tool_version",
            "aoi_version",
            "schema_name",
            "schema_version",
        ];
        if !OWN.contains(&name) && !self.fields.iter().any(|(k, _)| k == name) {
            self.fields.push((name.to_string(), value.into()));
        }
        self
    }

    /// The exit status that goes with this summary (§ 6): 0 for `ok:true`,
    /// 128 + the signal for cancelled (130 when no signal came), 124
    /// timeout, 77 denied, 1 failed.
    pub fn exit_code(&self) -> i32 {
        if self.ok {
            return exit::OK;
        }
        match self.reason {
            Some(Reason::Cancelled) => {
                crate::cancel::requested().map_or(exit::CANCELLED, crate::cancel::exit_code)
            }
            Some(Reason::Timeout) => exit::TIMEOUT,
            Some(Reason::Denied) => exit::NOPERM,
            _ => exit::FAILED,
        }
    }
}

/// An `aoi:error` (§ 9.1): category, code and message, with `retryable`
/// taken from the category's default (§ 9.2) unless set.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorEvent {
    category: String,
    code: String,
    message: String,
    retryable: Option<bool>,
    fields: Vec<(String, Value)>,
}

impl ErrorEvent {
    /// An error of `category` (§ 9.2) with a `code` in
    /// `[A-Z][A-Z0-9_]*` and a message for people.
    pub fn new(category: &str, code: &str, message: impl Into<String>) -> Self {
        ErrorEvent {
            category: category.to_string(),
            code: code.to_string(),
            message: message.into(),
            retryable: None,
            fields: Vec::new(),
        }
    }

    /// `retryable`, authoritative over the category's default (§ 9.3).
    pub fn retryable(mut self, r: bool) -> Self {
        self.retryable = Some(r);
        self
    }

    /// Any other member: `scope`, `target`, `retry_after_ms`, `origin`,
    /// `properties`…, in the order added, after `retryable`. `type`, `aoi`
    /// and the four members set by [`new`](Self::new) and
    /// [`retryable`](Self::retryable) are ignored here: a key appears once.
    pub fn field(mut self, name: &str, value: impl Into<Value>) -> Self {
        const OWN: &[&str] = &["type", "aoi", "category", "code", "message", "retryable"];
        if !OWN.contains(&name) && !self.fields.iter().any(|(k, _)| k == name) {
            self.fields.push((name.to_string(), value.into()));
        }
        self
    }

    fn fields(&self) -> Vec<(&str, Value)> {
        let retryable = self
            .retryable
            .or_else(|| spec::category_default_retryable(self.category.as_bytes()))
            .unwrap_or(false);
        let mut f: Vec<(&str, Value)> = Vec::with_capacity(4 + self.fields.len());
        // `scope` first when given, as aoi has always written it.
        if let Some((_, v)) = self.fields.iter().find(|(k, _)| k == "scope") {
            f.push(("scope", v.clone()));
        }
        f.push(("category", self.category.as_str().into()));
        f.push(("code", self.code.as_str().into()));
        f.push(("message", self.message.as_str().into()));
        f.push(("retryable", retryable.into()));
        for (k, v) in self.fields.iter().filter(|(k, _)| k != "scope") {
            f.push((k.as_str(), v.clone()));
        }
        f
    }
}

/// Why a [`Producer`] stopped before its summary.
#[derive(Debug)]
pub enum Ended {
    /// The reader closed the pipe (`EPIPE`): a normal end, exit 141, no
    /// message (§ 7).
    Closed,
    /// SIGINT or SIGTERM asked the process to stop (the signal number).
    Cancelled(i32),
    /// Writing failed for another reason.
    Failed(io::Error),
}

impl Ended {
    /// The exit status for this end: 141, 128 + signal, or 74.
    pub fn exit_code(&self) -> i32 {
        match self {
            Ended::Closed => exit::PIPE,
            Ended::Cancelled(sig) => crate::cancel::exit_code(*sig),
            Ended::Failed(_) => exit::IOERR,
        }
    }

    /// A write error as an end: `EPIPE` is [`Ended::Closed`].
    pub fn from_io(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Ended::Closed
        } else {
            Ended::Failed(e)
        }
    }
}

impl std::error::Error for Ended {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Ended::Failed(e) => Some(e),
            _ => None,
        }
    }
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::Closed => f.write_str("the reader closed the pipe"),
            Ended::Cancelled(sig) => write!(f, "cancelled by {}", crate::cancel::name(*sig)),
            Ended::Failed(e) => write!(f, "{e}"),
        }
    }
}

/// A conforming stream on a writer: see the [module docs](self).
///
/// ```
/// use aoi::emit::{Producer, Summary, ToolIdentity};
///
/// let id = ToolIdentity::new("count", "0.1.0", "org.example.count.events", "1.0.0");
/// let mut out = Vec::new();
/// let mut p = Producer::start(id, "count", &mut out).expect("a Vec takes any write");
/// for n in 1..=3 {
///     p.event("entry", &[("n", n.into())]).expect("a Vec takes any write");
/// }
/// assert_eq!(p.close(Summary::ok()), 0);
/// let text = String::from_utf8(out).expect("aoi writes UTF-8");
/// assert_eq!(text.lines().count(), 5);
/// assert!(text.lines().last().is_some_and(|l| l.contains(r#""count":3"#)));
/// ```
pub struct Producer<W: Write> {
    em: Emitter,
    out: W,
    /// The summary is written, or a write failed: nothing more to write.
    done: bool,
    /// Events are still written after a stop request.
    after_stop: bool,
    /// What the tool consumed so far, for a summary written by
    /// [`end`](Self::end) or on drop: input events, warnings, errors.
    consumed: (Option<u64>, u64, u64),
}

impl<W: Write> Producer<W> {
    /// A producer that has written nothing yet (call
    /// [`meta`](Self::meta) first, or use [`start`](Self::start)).
    pub fn new(em: Emitter, out: W) -> Self {
        Producer {
            em,
            out,
            done: false,
            after_stop: false,
            consumed: (None, 0, 0),
        }
    }

    /// A producer for `identity` that has written `aoi:meta` for `command`.
    pub fn start(identity: ToolIdentity, command: &str, out: W) -> Result<Self, Ended> {
        let mut p = Self::new(Emitter::with_identity(identity), out);
        p.meta(command, Vec::new())?;
        Ok(p)
    }

    /// The emitter (its counts, its run id).
    pub fn emitter(&self) -> &Emitter {
        &self.em
    }

    /// The writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Hands what the writer buffered to its destination, so a reader
    /// downstream sees the events written so far (a tool calls it when its
    /// own input goes quiet, e.g. after each block it read).
    pub fn flush(&mut self) -> Result<(), Ended> {
        if self.done {
            return Ok(());
        }
        self.out.flush().map_err(|e| {
            self.done = true;
            Ended::from_io(e)
        })
    }

    /// Tells the producer what the tool consumed so far (upstream domain
    /// events, warnings, errors, § 8.3), so that a summary it writes itself
    /// ([`end`](Self::end), drop) counts them.
    pub fn consumed(&mut self, input: u64, warnings: u64, errors: u64) {
        self.consumed = (Some(input), warnings, errors);
    }

    /// Keeps writing events after a stop request (SIGINT/SIGTERM), for a
    /// tool that reports what it already read before it ends with
    /// `reason:"cancelled"`.
    pub fn write_after_stop(&mut self) {
        self.after_stop = true;
    }

    /// Writes again after a failed write, for a writer whose failing part
    /// was taken out (aoi's report when stdout closed but the `--report`
    /// file is still there).
    pub(crate) fn resume(&mut self) {
        self.done = false;
    }

    /// `aoi:meta` and `aoi:summary` are the producer's own.
    fn not_own(ty: &str) -> Result<(), Ended> {
        if ty == "aoi:meta" || ty == "aoi:summary" {
            return Err(Ended::Failed(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{ty} is written by the producer itself"),
            )));
        }
        Ok(())
    }

    /// Writes `aoi:meta` with `more` members (see [`Emitter::meta_with`]);
    /// it must be the first event.
    pub fn meta(&mut self, command: &str, more: Vec<(&str, Value)>) -> Result<(), Ended> {
        if self.em.seq() > 0 {
            return Err(Ended::Failed(io::Error::new(
                io::ErrorKind::InvalidInput,
                "aoi:meta is the first event, written once",
            )));
        }
        let b = self.em.meta_with(command, more);
        write_to(&mut self.out, b, &mut self.done)
    }

    /// Writes one event (a domain event, or a framework event other than
    /// `aoi:meta` and `aoi:summary`, which this type writes itself).
    ///
    /// Returns [`Ended::Cancelled`] once SIGINT or SIGTERM arrived (see
    /// [`crate::cancel::install`]); let it end the run, through
    /// [`end`](Self::end) or by dropping the producer.
    pub fn event(&mut self, ty: &str, fields: &[(&str, Value)]) -> Result<(), Ended> {
        Self::not_own(ty)?;
        self.check()?;
        let b = self.em.event(ty, fields);
        write_to(&mut self.out, b, &mut self.done)
    }

    /// Writes an event whose members are already encoded (see
    /// [`Emitter::raw_event`]).
    pub fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Ended> {
        Self::not_own(ty)?;
        self.check()?;
        let b = self.em.raw_event(ty, body);
        write_to(&mut self.out, b, &mut self.done)
    }

    /// Passes an upstream event on (see [`Emitter::forward`]).
    pub fn forward(&mut self, ty: &str, body: &[u8]) -> Result<(), Ended> {
        Self::not_own(ty)?;
        self.check()?;
        let b = self.em.forward(ty, body);
        write_to(&mut self.out, b, &mut self.done)
    }

    /// Writes an `aoi:warning` of the tool's own.
    pub fn warning(&mut self, code: &str, message: &str) -> Result<(), Ended> {
        self.event(
            "aoi:warning",
            &[("code", code.into()), ("message", message.into())],
        )
    }

    /// Writes an `aoi:error` of the tool's own.
    pub fn error(&mut self, e: &ErrorEvent) -> Result<(), Ended> {
        self.check()?;
        let b = self.em.error(e);
        write_to(&mut self.out, b, &mut self.done)
    }

    /// [`Ended::Cancelled`] once a stop was requested.
    fn check(&self) -> Result<(), Ended> {
        match crate::cancel::requested() {
            Some(sig) if !self.after_stop => Err(Ended::Cancelled(sig)),
            _ => Ok(()),
        }
    }

    /// The summary for an early end: `reason`, with what was consumed.
    fn early(&self, s: Summary) -> Summary {
        let (input, w, e) = self.consumed;
        let s = s.consumed(w, e);
        match input {
            Some(n) => s.input_count(n),
            None => s,
        }
    }

    /// Writes the terminal `aoi:summary` and flushes. After a closed pipe
    /// nothing is written and [`Ended::Closed`] is returned.
    pub fn finish(&mut self, s: &Summary) -> Result<(), Ended> {
        if self.done {
            return Err(Ended::Closed);
        }
        let b = self.em.summary(s);
        let r = write_to(&mut self.out, b, &mut self.done)
            .and_then(|()| self.out.flush().map_err(Ended::from_io));
        self.done = true;
        r
    }

    /// [`finish`](Self::finish) and the exit status: the summary's
    /// ([`Summary::exit_code`]), or the write failure's
    /// ([`Ended::exit_code`]).
    pub fn close(mut self, s: Summary) -> i32 {
        match self.finish(&s) {
            Ok(()) => s.exit_code(),
            Err(e) => e.exit_code(),
        }
    }

    /// Ends the run early for `why` and returns the exit status: a
    /// cancellation writes `reason:"cancelled"` (exit 128 + signal); a
    /// failure that left the stream writable (an input error, a refused
    /// event) writes an `io` `aoi:error` and an `ok:false` summary (exit
    /// 74); after a failed
    /// write or a closed pipe nothing more is written, since the last line
    /// may be cut (exit 74 or 141).
    pub fn end(mut self, why: Ended) -> i32 {
        match &why {
            Ended::Closed => self.done = true,
            Ended::Cancelled(_) => {
                let s = self.early(Summary::cancelled());
                let _ = self.finish(&s);
            }
            Ended::Failed(e) => {
                if !self.done {
                    let err = ErrorEvent::new("io", "IO_ERROR", e.to_string());
                    let b = self.em.error(&err);
                    let _ = write_to(&mut self.out, b, &mut self.done);
                    let s = self.early(Summary::failed(Reason::Failed));
                    let _ = self.finish(&s);
                }
            }
        }
        why.exit_code()
    }
}

/// The guarantee: a producer dropped before its summary writes one,
/// `ok:false` with `reason:"cancelled"` after a stop request and
/// `reason:"failed"` otherwise (§ 4, § 7). Errors are ignored: there is no
/// one left to tell.
impl<W: Write> Drop for Producer<W> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let s = match crate::cancel::requested() {
            Some(_) => Summary::cancelled(),
            None => Summary::failed(Reason::Failed),
        };
        let s = self.early(s);
        let _ = self.finish(&s);
    }
}

/// Writes one encoded event; a failed write marks the producer done (the
/// line may be cut: nothing written after it could be read).
fn write_to<W: Write>(out: &mut W, bytes: &[u8], done: &mut bool) -> Result<(), Ended> {
    if *done {
        return Err(Ended::Closed);
    }
    out.write_all(bytes).map_err(|e| {
        *done = true;
        Ended::from_io(e)
    })
}

/// The placeholder written in place of a secret.
pub const REDACTED: &str = "[REDACTED]";

/// Arguments made safe for `aoi:meta.args` (§ 11): the value of a flag
/// whose name carries a secret (`--token X`, `--token=X`; a value that
/// starts with `-` is taken as the value unless it has a flag's form, so
/// `--token -----BEGIN PRIVATE KEY-----` is redacted and `--token --limit`
/// is two flags),
/// custom headers with a secret name (`-H 'Authorization: …'`,
/// `-HAuthorization: …`, `--header=…`), environment-style `NAME=value`
/// with a secret name (`GITHUB_TOKEN=…`), URL credentials, and URL query
/// or fragment parameters with a secret name (`sig`, `code`, and any name
/// with token, key, secret, password, signature, credential, auth…)
/// become [`REDACTED`]. A value that already reads as redacted (`***`,
/// `<token>`, `[REDACTED]`) is kept. Returns the arguments and whether any
/// was changed. [`crate::judge::secret_in_args`] flags what this would
/// change, where the flag's name has a § 11 word as a whole word.
///
/// ```
/// let (args, changed) = aoi::emit::redact_args(["--token", "s3cr3t", "--limit=5",
///     "https://u:p@example.com/x?sig=abc&page=2"]);
/// assert!(changed);
/// assert_eq!(args, ["--token", "[REDACTED]", "--limit=5",
///     "https://[REDACTED]@example.com/x?sig=[REDACTED]&page=2"]);
/// ```
pub fn redact_args<I, S>(args: I) -> (Vec<String>, bool)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut out = Vec::new();
    let mut changed = false;
    let mut secret_next = false;
    for a in args {
        let a = a.as_ref().to_string_lossy().into_owned();
        // After a secret flag, only a long flag ends its value: `-abc123`
        // and `-----BEGIN PRIVATE KEY-----` are values (issue 42).
        let r = if secret_next && !(a.starts_with("--") && flag_like(&a)) {
            secret_next = false;
            if spec::looks_redacted(&a) {
                a.clone()
            } else {
                REDACTED.to_string()
            }
        } else {
            secret_next = false;
            redact_one(&a, &mut secret_next)
        };
        changed |= r != a;
        out.push(r);
    }
    (out, changed)
}

/// A secret value replaced, unless it already reads as redacted.
fn hide(val: &str) -> &str {
    if spec::looks_redacted(val) {
        val
    } else {
        REDACTED
    }
}

/// Whether `f` has a flag's form: dashes, then letters,
/// digits, `-`, `_`, `.` (`-----BEGIN PRIVATE KEY-----` does not).
pub(crate) fn flag_like(f: &str) -> bool {
    let name = f.trim_start_matches('-');
    f.starts_with('-')
        && !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// One argument; sets `secret_next` when it is a secret flag whose value
/// is the next argument.
fn redact_one(a: &str, secret_next: &mut bool) -> String {
    if a.starts_with('-') {
        match a.split_once('=') {
            Some((flag, val)) if flag_like(flag) && spec::is_secret_name(flag) => {
                return format!("{flag}={}", hide(val));
            }
            None if flag_like(a) && spec::is_secret_name(a) => {
                *secret_next = true;
                return a.to_string();
            }
            _ => {}
        }
    }
    // Headers: `-H 'Name: v'` (the value is its own argument),
    // `-HName: v`, `--header=Name: v`.
    let (prefix, header) = if let Some(h) = a.strip_prefix("--header=") {
        ("--header=", h)
    } else if let Some(h) = a
        .strip_prefix("-H")
        .filter(|h| !h.is_empty() && !a.starts_with("--"))
    {
        ("-H", h)
    } else {
        ("", a)
    };
    if let Some((name, val)) = header.split_once(':') {
        let name_ok = !name.is_empty()
            && name
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_');
        if name_ok && spec::is_secret_name(name) && !val.starts_with("//") {
            return format!("{prefix}{name}: {}", hide(val.trim_start()));
        }
    }
    if a.contains("://") {
        return redact_url(a);
    }
    // Environment-style NAME=value.
    if let Some((name, val)) = a.split_once('=') {
        let name_ok = !name.is_empty()
            && !name.starts_with('-')
            && name
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'));
        if name_ok && spec::is_secret_name(name) {
            return format!("{name}={}", hide(val));
        }
    }
    a.to_string()
}

/// A `k=v&k=v` list with the values of secret keys replaced.
fn redact_params(list: &str) -> String {
    list.split('&')
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) if spec::is_secret_param(k) => format!("{k}={}", hide(v)),
            _ => kv.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A URL with its credentials and secret query and fragment values
/// replaced. The userinfo is everything before the last `@` ahead of the
/// query (a `/` in an unencoded password does not hide it).
fn redact_url(u: &str) -> String {
    let Some((scheme, rest)) = u.split_once("://") else {
        return u.to_string();
    };
    let (before_frag, frag) = match rest.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (rest, None),
    };
    let (before_query, query) = match before_frag.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (before_frag, None),
    };
    let mut s = format!("{scheme}://");
    match before_query.rsplit_once('@') {
        Some((user, host_path)) => {
            s.push_str(hide(user));
            s.push('@');
            s.push_str(host_path);
        }
        None => s.push_str(before_query),
    }
    if let Some(q) = query {
        s.push('?');
        s.push_str(&redact_params(q));
    }
    if let Some(f) = frag {
        s.push('#');
        s.push_str(&redact_params(f));
    }
    s
}

/// stdout for machine output: line-buffered on a terminal (each event
/// shows as it is made), block-buffered otherwise.
pub fn stdout_writer() -> Box<dyn Write> {
    use std::io::IsTerminal;
    let out = io::stdout();
    if out.is_terminal() {
        return Box::new(io::LineWriter::new(out.lock()));
    }
    match stdout_file() {
        Ok(f) => Box::new(io::BufWriter::with_capacity(64 * 1024, f)),
        Err(_) => Box::new(out.lock()),
    }
}

/// An unbuffered handle on fd 1 (a duplicate): what a relay writes whole
/// blocks to, one `write` each, and what [`stdout_writer`] buffers.
pub fn stdout_file() -> io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    Ok(std::fs::File::from(
        io::stdout().as_fd().try_clone_to_owned()?,
    ))
}

pub(crate) fn push_json(buf: &mut Vec<u8>, v: &Value) {
    // Serialising a Value into a Vec cannot fail.
    let start = buf.len();
    let _ = serde_json::to_writer(&mut *buf, v);
    escape_invisible(buf, start);
}

/// Writes, from `start` on, the characters serde_json leaves raw that a
/// terminal or a reader may act on as `\u` escapes: DEL, the C1 controls
/// (U+0080-U+009F; 0x9B is an 8-bit CSI), the line and paragraph
/// separators and the bidi overrides. They can only be inside strings,
/// so the JSON means the same, and no control character reaches a
/// reader of aoi's output (issue 26).
fn escape_invisible(buf: &mut Vec<u8>, start: usize) {
    let tail = buf.get(start..).unwrap_or_default();
    let invisible = |c: char| matches!(c, '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    let Ok(text) = std::str::from_utf8(tail) else {
        return;
    };
    if !text.chars().any(invisible) {
        return;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if invisible(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    buf.truncate(start);
    buf.extend_from_slice(out.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulid_shape() {
        let a = ulid();
        let b = ulid();
        assert_eq!(a.len(), 26);
        assert_ne!(a, b);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
        );
    }

    #[test]
    fn the_first_event_is_t_0_however_late_it_is_written() {
        // § 8.1: t counts from aoi:meta. A command may build its emitter
        // and write the meta only after reading began (a slow pipe).
        let mut e = Emitter::new();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let meta = String::from_utf8(e.meta("check").to_vec()).unwrap();
        assert!(meta.contains(",\"t\":0}"), "{meta}");
    }

    #[test]
    fn envelope_order_and_seq() {
        let mut e = Emitter::new();
        let l0 = String::from_utf8(e.meta("check").to_vec()).unwrap();
        assert!(l0.starts_with("{\"type\":\"aoi:meta\",\"aoi\":{\"seq\":0,\"run\":\""));
        e.event("violation", &[]);
        e.error(&ErrorEvent::new("io", "X", "m"));
        e.forward("aoi:warning", b"");
        let l1 = String::from_utf8(
            e.summary(&Summary::ok().input_count(4).consumed(2, 1))
                .to_vec(),
        )
        .unwrap();
        assert!(l1.contains("\"seq\":4,"));
        assert!(l1.contains(r#""count":1,"input_count":4,"warning_count":2,"error_count":2"#));
        assert!(l1.contains("\"event_count\":5"));
        assert!(l1.ends_with("}\n"));
    }

    #[test]
    fn error_event_defaults_retryable_from_category() {
        let mut e = Emitter::new();
        let l = String::from_utf8(
            e.error(&ErrorEvent::new("rate_limited", "SLOW", "m").field("scope", "item"))
                .to_vec(),
        )
        .unwrap();
        assert!(l.contains(r#""scope":"item","category":"rate_limited","code":"SLOW","message":"m","retryable":true}"#));
    }

    #[test]
    fn redaction() {
        let (a, changed) = redact_args(["--api-key=abc", "--password", "p", "--verbose", "x"]);
        assert!(changed);
        assert_eq!(
            a,
            [
                "--api-key=[REDACTED]",
                "--password",
                "[REDACTED]",
                "--verbose",
                "x"
            ]
        );
        let (a, _) = redact_args(["-H", "Authorization: Bearer t", "https://h/p?q=1#f"]);
        assert_eq!(a, ["-H", "Authorization: [REDACTED]", "https://h/p?q=1#f"]);
        let (a, changed) = redact_args(["--token", "--next"]);
        assert!(!changed);
        assert_eq!(a, ["--token", "--next"]);
        let (a, _) = redact_args(["https://h/p?access_token=z&a=b#frag"]);
        assert_eq!(a, ["https://h/p?access_token=[REDACTED]&a=b#frag"]);
        // What the judge looks for (§ 11) is gone from the redacted args.
        let (a, _) = redact_args(["--token", "t", "https://u:p@h/?sig=s", "--secret=x"]);
        let json = serde_json::to_vec(&a).unwrap();
        assert_eq!(crate::judge::secret_in_args(&json), None);
    }

    /// The holes an independent review found (§ 11), each redacted, and
    /// each flagged by the judge's rule when left raw.
    #[test]
    fn redaction_review_cases() {
        let cases: &[(&str, &str)] = &[
            (
                "-HAuthorization: Bearer abc123",
                "-HAuthorization: [REDACTED]",
            ),
            (
                "--header=Authorization: Bearer abc",
                "--header=Authorization: [REDACTED]",
            ),
            ("GITHUB_TOKEN=ghp_abc", "GITHUB_TOKEN=[REDACTED]"),
            ("API_KEY=k1", "API_KEY=[REDACTED]"),
            (
                "https://s3/x?X-Amz-Signature=ab&X-Amz-Credential=c&X-Amz-Security-Token=t&n=1",
                "https://s3/x?X-Amz-Signature=[REDACTED]&X-Amz-Credential=[REDACTED]&X-Amz-Security-Token=[REDACTED]&n=1",
            ),
            (
                "https://h/x?api_key=a&client_secret=b&password=c",
                "https://h/x?api_key=[REDACTED]&client_secret=[REDACTED]&password=[REDACTED]",
            ),
            (
                "https://app/cb#access_token=abc&state=1",
                "https://app/cb#access_token=[REDACTED]&state=1",
            ),
            ("https://user:pa/ss@h/x", "https://[REDACTED]@h/x"),
            (
                "https://ghp_x@github.com/o/r",
                "https://[REDACTED]@github.com/o/r",
            ),
        ];
        for (raw, want) in cases {
            let (got, changed) = redact_args([raw]);
            assert!(changed, "{raw}");
            assert_eq!(&got[0], want, "{raw}");
            let json = serde_json::to_vec(&[raw]).unwrap();
            assert!(
                crate::judge::secret_in_args(&json).is_some(),
                "judge misses {raw}"
            );
            let json = serde_json::to_vec(&got).unwrap();
            assert_eq!(
                crate::judge::secret_in_args(&json),
                None,
                "judge flags {want}"
            );
        }
        // A value after a secret flag that starts with a single dash.
        let (got, _) = redact_args(["--password", "-s3cr3t"]);
        assert_eq!(got, ["--password", "[REDACTED]"]);
        // Values already redacted stay as they are; plain ones are untouched.
        let (got, changed) = redact_args([
            "--token",
            "***",
            "--token=<t>",
            "https://h/p?page=2",
            "a:b",
            "k=v",
        ]);
        assert!(!changed, "{got:?}");
    }

    /// A writer that fails with `kind` after `ok` writes.
    struct Failing {
        ok: usize,
        kind: io::ErrorKind,
        written: Vec<u8>,
    }
    impl Write for Failing {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.ok == 0 {
                return Err(io::Error::new(self.kind, "no"));
            }
            self.ok -= 1;
            self.written.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn producer_closed_pipe_is_a_quiet_end() {
        let mut w = Failing {
            ok: 1,
            kind: io::ErrorKind::BrokenPipe,
            written: Vec::new(),
        };
        let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut w).unwrap();
        let e = p.event("hit", &[]).unwrap_err();
        assert!(matches!(e, Ended::Closed));
        assert_eq!(p.end(e), 141);
        assert_eq!(w.written.iter().filter(|&&b| b == b'\n').count(), 1);
    }

    #[test]
    fn producer_dropped_unfinished_writes_a_failed_summary() {
        let mut out = Vec::new();
        {
            let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut out).unwrap();
            p.event("hit", &[]).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.contains(r#""type":"aoi:summary""#), "{last}");
        assert!(
            last.contains(r#""ok":false,"reason":"failed","count":1"#),
            "{last}"
        );
        assert!(last.contains(r#""event_count":3"#), "{last}");
        // Meta and summary both say who is speaking.
        for l in text.lines().step_by(2) {
            assert!(l.contains(r#""tool":"aoi""#), "{l}");
        }
    }

    #[test]
    fn producer_refuses_to_write_meta_or_summary_as_events() {
        let mut out = Vec::new();
        let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut out).unwrap();
        assert!(matches!(p.event("aoi:summary", &[]), Err(Ended::Failed(_))));
        assert!(p.raw_event("aoi:summary", b"").is_err());
        assert!(p.forward("aoi:meta", b"").is_err());
        assert!(p.meta("again", Vec::new()).is_err());
        // Members the emitter writes itself are not taken twice.
        let s = Summary::ok().field("count", 99).field("ok", false);
        assert_eq!(p.close(s), 0);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        let last = text.lines().last().unwrap();
        assert_eq!(last.matches("\"count\"").count(), 1, "{last}");
        assert_eq!(last.matches("\"ok\"").count(), 1, "{last}");
    }

    #[test]
    fn nothing_is_written_after_a_failed_write() {
        let mut w = Failing {
            ok: 1,
            kind: io::ErrorKind::WouldBlock,
            written: Vec::new(),
        };
        let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut w).unwrap();
        let e = p.event("hit", &[]).unwrap_err();
        assert_eq!(p.end(e), 74);
        // The meta only: no error or summary glued to a cut line.
        assert_eq!(w.written.iter().filter(|&&b| b == b'\n').count(), 1);
    }
}
