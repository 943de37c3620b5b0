//! [`Producer`]: an [`Emitter`] in front of a writer, which makes the
//! contract the easy path and a broken stream impossible: every event is
//! judged by the judge `aoi check` runs before it is written (see
//! `guard`), refused with the rule it would break, and the run always
//! ends with an `aoi:summary` whose exit status is the judge's.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::guard::{Guard, Refusal};
use super::status::Exit;
use super::{Emitter, ErrorEvent, Reason, Summary, ToolIdentity, Warning};
use crate::cancel::Token;
use crate::rules::RuleId;
use crate::spec::exit;
use crate::spec::types;

/// Why a [`Producer`] did not write what it was asked to.
#[derive(Debug)]
pub enum Ended {
    /// The reader closed the pipe (`EPIPE`): a normal end, exit 141, no
    /// message (§ 7).
    Closed,
    /// A stop was requested (the signal number: SIGINT or SIGTERM, or
    /// SIGINT's for a [`Token::cancel`] in code).
    Cancelled(i32),
    /// Writing failed for another reason.
    Failed(io::Error),
    /// The event would break the rule it names; nothing was written and
    /// the stream can go on (a mistake of the tool's, not of the output).
    Refused(Refusal),
}

impl Ended {
    /// The exit status for this end: 141, 128 + signal, 74, or 1 for a
    /// refusal (the failed run [`Producer::end`] then writes).
    pub fn exit_code(&self) -> i32 {
        match self {
            Ended::Closed => exit::PIPE,
            Ended::Cancelled(sig) => crate::cancel::exit_code(*sig),
            Ended::Failed(_) => exit::IOERR,
            Ended::Refused(_) => exit::FAILED,
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

impl From<Refusal> for Ended {
    fn from(r: Refusal) -> Self {
        Ended::Refused(r)
    }
}

impl std::error::Error for Ended {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Ended::Failed(e) => Some(e),
            Ended::Refused(r) => Some(r),
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
            Ended::Refused(r) => write!(f, "{r}"),
        }
    }
}

/// When a [`Producer`] hands what it wrote to the writer's destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// After every event (the default): a reader sees each event as it is
    /// made, whatever buffer the writer has (§ 2 is a stream).
    EachEvent,
    /// At the first event written this long after the last flush (and at
    /// the summary): batches for a tool that writes many small events
    /// fast. The check runs at each write, so call
    /// [`Producer::flush`] before a long wait.
    Every(Duration),
    /// Only when [`Producer::flush`] is called, and at the summary.
    Manual,
}

/// A conforming stream on a writer: see the [module docs](super).
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
/// assert_eq!(p.close(Summary::ok()).code(), 0);
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
    /// The judge every line passes before it is written; `None` for aoi's
    /// own output, which its tests judge (and whose relays pass upstream
    /// bytes through as they are).
    guard: Option<Guard>,
    flush: Flush,
    last_flush: Instant,
    /// The stop the producer watches: a token, or (aoi's own commands)
    /// the process's signal flag.
    stop: Stop,
    /// `aoi:meta` is written.
    meta: bool,
}

/// What a producer watches for a stop request.
enum Stop {
    Nothing,
    Token(Token),
    Process,
}

impl<W: Write> Producer<W> {
    /// A producer that has written nothing yet (call
    /// [`meta`](Self::meta) first, or use [`start`](Self::start)): judged,
    /// flushed after each event, cancelled by nothing until
    /// [`cancel_on`](Self::cancel_on).
    pub fn new(em: Emitter, out: W) -> Self {
        Producer {
            em,
            out,
            done: false,
            after_stop: false,
            consumed: (None, 0, 0),
            guard: Some(Guard::new()),
            flush: Flush::EachEvent,
            last_flush: Instant::now(),
            stop: Stop::Nothing,
            meta: false,
        }
    }

    /// aoi's own output: not judged (its tests judge it, and a relay
    /// passes what it read on as it was), flushed when aoi says, stopped by
    /// the process's signals ([`crate::cancel::install`]).
    pub(crate) fn unjudged(em: Emitter, out: W) -> Self {
        let mut p = Self::new(em, out);
        p.guard = None;
        p.flush = Flush::Manual;
        p.stop = Stop::Process;
        p
    }

    /// A producer for `identity` that has written `aoi:meta` for `command`.
    pub fn start(identity: ToolIdentity, command: &str, out: W) -> Result<Self, Ended> {
        Self::start_with(identity, command, Vec::new(), out)
    }

    /// [`start`](Self::start) with more `aoi:meta` members (`args` from
    /// [`redact_args`](super::redact_args) and `args_redacted`, § 11).
    pub fn start_with(
        identity: ToolIdentity,
        command: &str,
        more: Vec<(&str, Value)>,
        out: W,
    ) -> Result<Self, Ended> {
        let mut p = Self::new(Emitter::with_identity(identity), out);
        p.meta(command, more)?;
        Ok(p)
    }

    /// Sets when events are flushed (default [`Flush::EachEvent`]).
    pub fn flush_policy(mut self, f: Flush) -> Self {
        self.flush = f;
        self
    }

    /// Watches `token`: once it is cancelled, writes return
    /// [`Ended::Cancelled`] (unless [`write_after_stop`](Self::write_after_stop))
    /// and a summary the producer writes itself says `reason:"cancelled"`.
    pub fn cancel_on(mut self, token: Token) -> Self {
        self.stop = Stop::Token(token);
        self
    }

    /// The emitter (its counts, its run id).
    pub fn emitter(&self) -> &Emitter {
        &self.em
    }

    /// The writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Hands what the writer buffered to its destination.
    pub fn flush(&mut self) -> Result<(), Ended> {
        if self.done {
            return Ok(());
        }
        self.last_flush = Instant::now();
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

    /// Keeps writing events after a stop request, for a tool that reports
    /// what it already has before it ends with `reason:"cancelled"`.
    pub fn write_after_stop(&mut self) {
        self.after_stop = true;
    }

    /// Writes again after a failed write, for a writer whose failing part
    /// was taken out (aoi's report when stdout closed but the `--report`
    /// file is still there).
    pub(crate) fn resume(&mut self) {
        self.done = false;
    }

    /// The signal of a stop request, if one came.
    fn stop_signal(&self) -> Option<i32> {
        match &self.stop {
            Stop::Nothing => None,
            Stop::Token(t) => t.signal(),
            Stop::Process => crate::cancel::requested(),
        }
    }

    /// `aoi:meta` and `aoi:summary` are the producer's own (§ 13.1: one
    /// meta, first; one summary, last); other events come after the meta.
    fn may_write(&self, ty: &str) -> Result<(), Ended> {
        let refuse = |rule, what: &str| Err(Ended::Refused(Refusal::new(rule, what)));
        match ty {
            types::META => refuse(
                RuleId::MetaDuplicate,
                "aoi:meta is written by the producer itself, once, first",
            ),
            types::SUMMARY => refuse(
                RuleId::SummaryNotLast,
                "aoi:summary is written by the producer itself, last (close)",
            ),
            _ if self.guard.is_some() && !self.meta => refuse(
                RuleId::MetaMissing,
                "an event before aoi:meta: start the producer with Producer::start or meta",
            ),
            _ => Ok(()),
        }
    }

    /// [`Ended::Cancelled`] once a stop was requested.
    fn check(&self) -> Result<(), Ended> {
        match self.stop_signal() {
            Some(sig) if !self.after_stop => Err(Ended::Cancelled(sig)),
            _ => Ok(()),
        }
    }

    /// Judges the event the emitter just encoded and writes it, or undoes
    /// its encoding and refuses it.
    fn commit(&mut self, mark: super::Mark) -> Result<(), Ended> {
        let bytes = self.em.last();
        if let Some(g) = self.guard.as_mut() {
            if let Err(r) = g.admit(bytes) {
                self.em.restore(mark);
                return Err(Ended::Refused(r));
            }
        }
        write_to(&mut self.out, bytes, &mut self.done)?;
        let due = match self.flush {
            Flush::EachEvent => true,
            Flush::Every(d) => self.last_flush.elapsed() >= d,
            Flush::Manual => false,
        };
        if due { self.flush() } else { Ok(()) }
    }

    /// Writes `aoi:meta` with `more` members (see [`Emitter::meta_with`]);
    /// it must be the first event.
    pub fn meta(&mut self, command: &str, more: Vec<(&str, Value)>) -> Result<(), Ended> {
        if self.meta || self.em.seq() > 0 {
            return Err(Ended::Refused(Refusal::new(
                RuleId::MetaDuplicate,
                "aoi:meta is the first event, written once",
            )));
        }
        if self.done {
            return Err(Ended::Closed);
        }
        let mark = self.em.mark();
        self.em.meta_with(command, more);
        self.commit(mark)?;
        self.meta = true;
        Ok(())
    }

    /// Writes one event: a domain event, or a framework event other than
    /// `aoi:meta` and `aoi:summary`, which this type writes itself. Fields
    /// come after the envelope in the order given.
    ///
    /// Returns [`Ended::Cancelled`] once a stop was requested (see
    /// [`cancel_on`](Self::cancel_on)); let it end the run, through
    /// [`end`](Self::end) or by dropping the producer.
    pub fn event(&mut self, ty: &str, fields: &[(&str, Value)]) -> Result<(), Ended> {
        self.ready(ty)?;
        let mark = self.em.mark();
        self.em.event(ty, fields);
        self.commit(mark)
    }

    /// Writes an event whose members after the envelope are already
    /// encoded (see [`Emitter::raw_event`]); a body that is not JSON is
    /// refused like any other broken event.
    pub fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Ended> {
        self.ready(ty)?;
        let mark = self.em.mark();
        self.em.raw_event(ty, body);
        self.commit(mark)
    }

    /// Passes an upstream event on (see [`Emitter::forward`]).
    pub fn forward(&mut self, ty: &str, body: &[u8]) -> Result<(), Ended> {
        self.ready(ty)?;
        let mark = self.em.mark();
        self.em.forward(ty, body);
        self.commit(mark)
    }

    /// Writes any `Serialize` value that serializes to a JSON object with
    /// a string `type` member (`#[serde(tag = "type")]` on an enum, § 20),
    /// its other members after the envelope in the order serde wrote them.
    pub fn emit<T: serde::Serialize + ?Sized>(&mut self, event: &T) -> Result<(), Ended> {
        let (ty, body) = super::typed::split(event)?;
        self.raw_event(&ty, &body)
    }

    /// Writes an `aoi:warning` of the tool's own with a code and a message.
    pub fn warning(&mut self, code: &str, message: &str) -> Result<(), Ended> {
        self.warn(&Warning::new(code, message))
    }

    /// Writes an `aoi:warning` of the tool's own with its fields.
    pub fn warn(&mut self, w: &Warning) -> Result<(), Ended> {
        self.event(types::WARNING, &w.fields())
    }

    /// Writes an `aoi:error` of the tool's own.
    pub fn error(&mut self, e: &ErrorEvent) -> Result<(), Ended> {
        self.ready(types::ERROR)?;
        let mark = self.em.mark();
        self.em.error(e);
        self.commit(mark)
    }

    /// What every event passes before it is encoded: not the producer's
    /// own type, after the meta, no stop requested, the stream open.
    fn ready(&self, ty: &str) -> Result<(), Ended> {
        self.may_write(ty)?;
        self.check()?;
        if self.done {
            return Err(Ended::Closed);
        }
        Ok(())
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
    /// nothing is written and [`Ended::Closed`] is returned; a summary the
    /// judge refuses is not written ([`Ended::Refused`]), and the producer
    /// stays open for another.
    pub fn finish(&mut self, s: &Summary) -> Result<(), Ended> {
        if self.done {
            return Err(Ended::Closed);
        }
        if self.guard.is_some() && !self.meta {
            return Err(Ended::Refused(Refusal::new(
                RuleId::MetaMissing,
                "a summary without aoi:meta: start the producer with Producer::start or meta",
            )));
        }
        let mark = self.em.mark();
        self.em.summary(s);
        let flush = std::mem::replace(&mut self.flush, Flush::EachEvent);
        let r = self.commit(mark);
        self.flush = flush;
        if !matches!(r, Err(Ended::Refused(_))) {
            self.done = true;
        }
        r
    }

    /// [`finish`](Self::finish) and the exit status: what `aoi check`
    /// says of the stream written ([`Exit`]). A summary the judge refuses
    /// is replaced by `ok:false`, `reason:"failed"` (the refusal is in
    /// [`Exit::refused`]).
    pub fn close(mut self, s: Summary) -> Exit {
        let sig = self.stop_signal();
        match self.finish(&s) {
            Ok(()) => self.exit(None, sig, &s),
            Err(Ended::Refused(r)) => {
                let fallback = self.early(Summary::failed(Reason::Failed));
                self.write_last(&fallback);
                self.exit(Some(r), sig, &fallback)
            }
            Err(e) => self.exit_for(&e, None),
        }
    }

    /// A summary written whatever the judge says of it (the last resort
    /// after a refusal: a stream must end with one).
    fn write_last(&mut self, s: &Summary) {
        if self.finish(s).is_err() && !self.done {
            self.guard = None;
            let _ = self.finish(s);
        }
        self.done = true;
    }

    /// The exit status of a stream that ended with summary `s`.
    fn exit(&mut self, refused: Option<Refusal>, sig: Option<i32>, s: &Summary) -> Exit {
        match self.guard.take() {
            Some(g) => Exit::judged(g.verdict(), sig, refused),
            None => Exit::of_summary(s, sig, refused),
        }
    }

    /// The exit status of a stream that ended by `why` (nothing more
    /// written, or what [`end`](Self::end) wrote).
    fn exit_for(&mut self, why: &Ended, refused: Option<Refusal>) -> Exit {
        match (why, self.guard.take()) {
            (Ended::Closed, _) => Exit::code_only(exit::PIPE, refused),
            (Ended::Cancelled(sig), Some(g)) => Exit::judged(g.verdict(), Some(*sig), refused),
            (_, Some(g)) => Exit::judged(g.verdict(), None, refused),
            (why, None) => Exit::code_only(why.exit_code(), refused),
        }
    }

    /// Ends the run early for `why` and returns the exit status: a
    /// cancellation writes `reason:"cancelled"` (exit 128 + signal); a
    /// refused event writes an `internal` `aoi:error` naming the rule and
    /// an `ok:false` summary (exit 1); another failure that left the
    /// stream writable (an input error) writes an `io` `aoi:error` and an
    /// `ok:false` summary (exit 74); after a failed write or a closed pipe
    /// nothing more is written, since the last line may be cut (exit 74
    /// or 141).
    pub fn end(mut self, why: Ended) -> Exit {
        let mut refused = None;
        match &why {
            Ended::Closed => self.done = true,
            Ended::Cancelled(_) => {
                let s = self.early(Summary::cancelled());
                self.write_last(&s);
            }
            Ended::Failed(e) if !self.done => {
                self.error_then_fail(ErrorEvent::new("io", "IO_ERROR", e.to_string()));
            }
            Ended::Failed(_) => {}
            Ended::Refused(r) => {
                refused = Some(r.clone());
                let e = ErrorEvent::new("internal", "EVENT_REFUSED", r.to_string())
                    .field("scope", "process");
                self.error_then_fail(e);
            }
        }
        let mut exit = self.exit_for(&why, refused);
        if let Ended::Failed(_) = why {
            // The stream is complete, but the run could not go on: the
            // write or read failure is the status (§ 6: 74).
            exit = Exit::code_only(exit::IOERR, None).with_outcome(exit.outcome());
        }
        exit
    }

    /// Writes `e` and a failed summary.
    fn error_then_fail(&mut self, e: ErrorEvent) {
        let mark = self.em.mark();
        self.em.error(&e);
        if self.commit(mark).is_ok() || !self.done {
            let s = self.early(Summary::failed(Reason::Failed));
            self.write_last(&s);
        }
    }
}

/// The guarantee: a producer dropped before its summary writes one,
/// `ok:false` with `reason:"cancelled"` after a stop request and
/// `reason:"failed"` otherwise (§ 4, § 7). Errors are ignored: there is no
/// one left to tell.
impl<W: Write> Drop for Producer<W> {
    fn drop(&mut self) {
        // A judged producer whose meta was never written began no stream:
        // a summary alone would be one line of nothing.
        if self.done || (self.guard.is_some() && !self.meta) {
            return;
        }
        let s = match self.stop_signal() {
            Some(_) => Summary::cancelled(),
            None => Summary::failed(Reason::Failed),
        };
        let s = self.early(s);
        self.write_last(&s);
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
