//! aoi's report, live: what the framed engine writes ([`Rec`]) goes
//! into it as one thread writes it, numbered there, whether the filter
//! ran here or on a worker whose record is replayed; and how the report
//! ends once every input is taken (§ 13, § 13.1).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;

use super::sink::{ItemError, Rec};
use crate::cli::FilterArgs;
use crate::emit::ErrorEvent;
use crate::judge::{Cause, Finding, Outcome, Verdict};
use crate::out::{
    Closing, Output, Sinks, Stop, close_report, eprint_line, finding_line, unreadable_error,
    verdict_line,
};
use crate::spec::exit::Code;

/// aoi's report and what the filter's results made of the run so far.
pub(super) struct Report {
    pub(super) sinks: Sinks,
    /// Own item-level errors (the filter failed on an event).
    pub(super) item_errors: u64,
    /// The code of the first of them, which `caused_by` names.
    pub(super) first_item_code: Option<&'static str>,
    /// The first of them as stderr says it (code, place, message).
    pub(super) first_item: Option<String>,
    /// Set by `halt`/`halt_error`: the filter stops, the streams are still
    /// read to their end so the verdicts stay true.
    pub(super) halted: Option<i32>,
    /// Inputs were named: a verdict says which.
    named: bool,
}

impl Report {
    pub(super) fn new(sinks: Sinks, named: bool) -> Self {
        Report {
            named,
            sinks,
            item_errors: 0,
            first_item_code: None,
            first_item: None,
            halted: None,
        }
    }

    /// Ends the report as `stop` cuts it; returns the exit status.
    pub(super) fn end(&mut self, stop: Stop) -> Code {
        let sinks = std::mem::replace(&mut self.sinks, Sinks::new(None, None, None));
        sinks.end("filter", stop)
    }
}

/// Set when aoi's report halts (`halt`, `halt_error`): workers stop
/// running the filter on later files' events, whose results the report
/// drops, as one thread never runs it after a halt.
static HALTED: AtomicBool = AtomicBool::new(false);

/// Whether aoi's report halted.
pub(super) fn halted_in_report() -> bool {
    HALTED.load(Ordering::Relaxed)
}

/// The filter's writes, as this thread writes them: its events numbered
/// in the report, its item errors counted, nothing of the filter's after
/// a halt but the upstream's errors passed on.
impl Output<Rec> for Report {
    type Error = Stop;
    /// The framed engine writes no text of its own.
    fn text(&mut self, _: &[u8]) -> Result<(), Stop> {
        Ok(())
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.sinks.out.flush()
    }
    fn put(&mut self, rec: Rec) -> Result<(), Stop> {
        self.put_with(rec, &[])
    }
    fn put_with(&mut self, rec: Rec, bytes: &[u8]) -> Result<(), Stop> {
        let live = self.halted.is_none();
        match rec {
            Rec::Forward(ty) => self.sinks.out.forward(ty, bytes)?,
            Rec::Event(ty) if live => {
                let (ty, body) = bytes.split_at(ty.min(bytes.len()));
                let ty = std::str::from_utf8(ty).unwrap_or_default();
                self.sinks.out.raw_event(ty, body)?;
            }
            Rec::ItemError(e) if live => {
                let ItemError { code, fields, said } = *e;
                self.item_errors += 1;
                self.first_item_code.get_or_insert(code);
                self.first_item.get_or_insert(said);
                self.sinks.out.event(crate::spec::types::ERROR, &fields)?;
            }
            Rec::Stderr if live => {
                let _ = io::stderr().lock().write_all(bytes);
            }
            Rec::Halt(h) if live => {
                self.halted = Some(h);
                HALTED.store(true, Ordering::Relaxed);
            }
            Rec::Consumed(v) => self.sinks.add_consumed(&v),
            _ => {}
        }
        Ok(())
    }
}

/// What the inputs made of the run so far.
#[derive(Default)]
pub(super) struct Taken {
    pub(super) code: Code,
    pub(super) verdicts: crate::out::Verdicts,
    pub(super) own_cause: Option<Cause>,
}

/// Ends the report once every input is taken; returns the exit status.
pub(super) fn close_framed(r: &mut Report, args: &FilterArgs, t: Taken) -> Result<Code, Stop> {
    let Taken {
        mut code,
        verdicts,
        mut own_cause,
    } = t;
    // § 13: upstream aoi:error events fail the run, unless
    // --continue-on-error; caused_by reproduces the most severe one.
    let upstream = verdicts
        .upstream_errors()
        .filter(|_| !args.continue_on_error);
    if let Some((upstream_code, _)) = &upstream {
        code = code.worst(*upstream_code);
    }
    if r.item_errors > 0 && !args.continue_on_error {
        code = code.worst(Code::FAILED);
        let first = r.first_item_code.unwrap_or("FILTER_ERROR");
        own_cause.get_or_insert_with(|| Cause::own("validation", first));
    }
    crate::out::say_upstream_errors("filter", args.quiet, code, upstream.as_ref());
    let upstream_said = upstream.as_ref().is_some_and(|(c, _)| *c == code);
    // The upstream error is the cause only when it decides the status: an
    // input aoi could not read (66), a cut stream (74) or the filter's own
    // errors (1, over a retryable 75) outrank it.
    let cause = upstream
        .filter(|(c, _)| *c == code)
        .and_then(|(_, worst)| worst);
    let mut exit_code = code;
    if let Some(h) = r.halted.filter(|h| *h != 0) {
        // halt_error: the filter's own verdict; the report says failed.
        r.sinks.out.error(&ErrorEvent::new(
            "validation",
            "FILTER_HALTED",
            format!("the filter halted with exit code {h}"),
        ))?;
        own_cause = Some(Cause::own("validation", "FILTER_HALTED"));
        code = code.worst(Code::FAILED);
        // As a process status (jq's `& 0xff`), never 0 for a failed run.
        exit_code = match h.rem_euclid(256) {
            0 => Code::FAILED,
            c => Code::of(c),
        };
    }
    say_own_errors(r, args, exit_code, upstream_said);
    let properties = json!({
        "streams": verdicts.streams,
        "item_errors": r.item_errors,
        "exit_code": exit_code,
    });
    let closing = Closing {
        code,
        properties,
        cause: cause.or(own_cause),
        extra: (0, 0, 0),
    };
    close_report(&mut r.sinks, &verdicts, closing)?;
    Ok(exit_code)
}

/// Says an input's verdict (its first findings and one line) unless it
/// is ok, and takes it into `t`.
pub(super) fn take_verdict(
    r: &mut Report,
    args: &FilterArgs,
    t: &mut Taken,
    source: &str,
    v: Verdict,
    shown: &[Finding],
) {
    let name = r.named.then_some(source);
    if !args.quiet && v.outcome != Outcome::Ok {
        let mut err = io::stderr().lock();
        for finding in shown {
            let _ = writeln!(err, "{}", finding_line(finding, name));
        }
        let _ = writeln!(err, "{}", verdict_line("filter", &v, name));
    }
    t.code = t.code.worst(Code::of(v.exit_code));
    r.sinks.add_consumed(&v);
    t.verdicts.add(v);
}

/// Says why the run failed when the filter's own failures decided it
/// (§ 13.1 counts them as a transformer's errors): every non-zero exit
/// says why in one line. A halt says nothing of aoi's: as in
/// jq, `halt_error`'s message is the why.
fn say_own_errors(r: &Report, args: &FilterArgs, exit_code: Code, upstream_said: bool) {
    if r.item_errors == 0 || args.continue_on_error || exit_code != Code::FAILED {
        return;
    }
    if upstream_said || r.halted.is_some_and(|h| h != 0) {
        return;
    }
    let first = r.first_item.as_deref().unwrap_or("FILTER_ERROR");
    eprint_line(
        args.quiet,
        &format!(
            "aoi filter: exit 1: the filter failed on {} event(s), the first {}; \
             --continue-on-error to go on",
            r.item_errors,
            crate::out::sanitize(first)
        ),
    );
}

/// An input that could not be opened: said, 66, and an `aoi:error`.
pub(super) fn unreadable(
    r: &mut Report,
    args: &FilterArgs,
    t: &mut Taken,
    msg: &str,
    source: &str,
) -> Result<(), Stop> {
    eprint_line(args.quiet, &format!("aoi filter: {msg}"));
    t.code = t.code.worst(Code::NOINPUT);
    t.own_cause
        .get_or_insert_with(|| Cause::own("not_found", "INPUT_UNREADABLE"));
    r.sinks.out.error(&unreadable_error(msg, source))
}
