//! [`Emitter`]: one stream's encoder. The envelope (`type`, then
//! `aoi:{seq,run,t}`, then the fields in the order given), a contiguous
//! `seq` under one run (§ 8.1), the counters and the identity the
//! summary carries (§ 8.3).

use std::time::Instant;

use serde_json::Value;

use super::stdout::{push_json, push_json_str};
use super::{ErrorEvent, Summary, ToolIdentity, ulid};
use crate::spec::types;

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
            types::WARNING => self.counts.forwarded_warnings += 1,
            types::ERROR => self.counts.forwarded_errors += 1,
            _ => self.tally(ty),
        }
        self.close()
    }

    /// Encodes an `aoi:error` (§ 9.1).
    pub fn error(&mut self, e: &ErrorEvent) -> &[u8] {
        let fields = e.fields();
        self.event(types::ERROR, &fields)
    }

    fn tally(&mut self, ty: &str) {
        match ty {
            types::WARNING => self.counts.warnings += 1,
            types::ERROR => self.counts.errors += 1,
            t if !t.starts_with(crate::spec::types::PREFIX) => self.counts.domain += 1,
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
        push_json_str(&mut self.buf, ty);
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
    /// instance `args` from [`redact_args`](super::redact_args) and `args_redacted`, § 11).
    pub fn meta_with(&mut self, command: &str, more: Vec<(&str, Value)>) -> &[u8] {
        let mut f: Vec<(&str, Value)> = self.identity_fields();
        f.push(("command", command.into()));
        f.extend(more);
        self.event(types::META, &f)
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
        self.event(types::SUMMARY, &f)
    }
}
