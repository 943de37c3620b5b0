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

pub mod discovery;
pub(crate) mod framework;
mod guard;
mod producer;
mod status;
mod typed;

pub use guard::Refusal;
pub use producer::{Ended, Flush, Producer};
pub use status::Exit;
pub use typed::{Category, Scope, Warning};

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

/// An [`Emitter`]'s place, to undo an event it encoded.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    seq: u64,
    counts: Counts,
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

    /// Where the emitter is: undone by [`restore`](Self::restore).
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            seq: self.seq,
            counts: self.counts,
        }
    }

    /// Forgets the events encoded since `m` (a refused event: its `seq`
    /// is the next one's, and it is not counted).
    pub(crate) fn restore(&mut self, m: Mark) {
        self.seq = m.seq;
        self.counts = m.counts;
    }

    /// The last event encoded.
    pub(crate) fn last(&self) -> &[u8] {
        &self.buf
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

    /// `ok:false` with `reason`. [`Reason::Skipped`] goes with `ok:true`
    /// only ([`Summary::skipped`]): a producer refuses a summary that
    /// pairs it with `ok:false` (`summary.reason`, § 8.3).
    pub fn failed(reason: Reason) -> Self {
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

    /// `ok:true` with results cut at a limit (§ 15): `truncated:true`,
    /// and `next_cursor`, the cursor that fetches the rest (`None` when
    /// there is no way to fetch it: `null`).
    pub fn truncated(next_cursor: Option<&str>) -> Self {
        Self::ok()
            .field("truncated", true)
            .field("next_cursor", next_cursor)
    }

    /// `ok:true` with usable output and at least one failed item, which
    /// the run reported as an item-scope `aoi:error` (§ 8.3, § 9.2):
    /// `partial:true`.
    pub fn partial() -> Self {
        Self::ok().field("partial", true)
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

    /// The exit status that goes with this summary alone (§ 6): 0 for
    /// `ok:true`, 130 cancelled, 124 timeout, 77 denied, 1 failed. What
    /// the whole stream says (75 after a retryable failure, 143 for
    /// SIGTERM) is [`Producer::close`]'s [`Exit`].
    pub fn exit_code(&self) -> i32 {
        if self.ok {
            return exit::OK;
        }
        match self.reason {
            Some(Reason::Cancelled) => exit::CANCELLED,
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
    /// An error of a [`Category`] with a `code` in `[A-Z][A-Z0-9_]*` and
    /// a one-line message for people; `retryable` is the category's
    /// default unless [set](Self::retryable).
    pub fn of(category: Category, code: &str, message: impl Into<String>) -> Self {
        Self::new(category.as_str(), code, message)
    }

    /// `scope` (§ 9.1): [`Scope::Process`] ends the run,
    /// [`Scope::Item`] one item of it.
    pub fn scope(self, scope: Scope) -> Self {
        self.field("scope", scope.as_str())
    }

    /// `target`: what failed (a path, an id, a URL without secrets).
    pub fn target(self, target: impl Into<Value>) -> Self {
        self.field("target", target)
    }

    /// `retry_after_ms` (§ 9.1): when to retry; only with `retryable:true`.
    pub fn retry_after_ms(self, ms: u64) -> Self {
        self.field("retry_after_ms", ms)
    }

    /// An error of `category` (§ 9.2, by its name on the wire) with a
    /// `code` in `[A-Z][A-Z0-9_]*` and a message for people.
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
    redact_args_with(args, &[])
}

/// [`redact_args`], and the values of the tool's own secret flags besides:
/// `secret_flags` names them as written (`--access`, `-t`), and each is
/// redacted as `--access V`, `--access=V`, `-t V`, `-t=V` and `-tV`. A
/// short flag's name says nothing of a secret, so only the tool can tell.
///
/// ```
/// let (args, _) = aoi::emit::redact_args_with(["-t", "abc", "-kxyz", "-v"], &["-t", "-k"]);
/// assert_eq!(args, ["-t", "[REDACTED]", "-k[REDACTED]", "-v"]);
/// ```
pub fn redact_args_with<I, S>(args: I, secret_flags: &[&str]) -> (Vec<String>, bool)
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
        // and `-----BEGIN PRIVATE KEY-----` are values.
        let r = if secret_next && !(a.starts_with("--") && flag_like(&a)) {
            secret_next = false;
            hide(&a).to_string()
        } else {
            secret_next = false;
            own_secret(&a, secret_flags, &mut secret_next)
                .unwrap_or_else(|| redact_one(&a, &mut secret_next))
        };
        changed |= r != a;
        out.push(r);
    }
    (out, changed)
}

/// `a` when it is one of the tool's `secret_flags`: the flag (its value
/// next), or the flag with its value hidden.
fn own_secret(a: &str, secret_flags: &[&str], secret_next: &mut bool) -> Option<String> {
    for flag in secret_flags
        .iter()
        .filter(|f| f.starts_with('-') && f.len() > 1)
    {
        let Some(rest) = a.strip_prefix(flag) else {
            continue;
        };
        if rest.is_empty() {
            *secret_next = true;
            return Some(a.to_string());
        }
        if let Some(val) = rest.strip_prefix('=') {
            return Some(format!("{flag}={}", hide(val)));
        }
        // `-tVALUE`: a short flag's value joined to it.
        if !flag.starts_with("--") && flag.len() == 2 {
            return Some(format!("{flag}{}", hide(rest)));
        }
    }
    None
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
/// reader of aoi's output.
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
mod judged_tests;

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
        assert!(matches!(
            p.event("aoi:summary", &[]),
            Err(Ended::Refused(_))
        ));
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
