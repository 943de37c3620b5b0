//! The report as aoi's own conforming stream (`--format jsonl`): `report`
//! events and an `aoi:summary`, read again by a later merge.

use serde_json::{Map, Value, json};

use super::entry::{Entry, Own};
use super::standing::Standing;
use crate::cli::MergeArgs;
use crate::demux;
use crate::emit::{ErrorEvent, Summary};
use crate::judge::{Cause, Outcome};
use crate::out::{Sinks, Stop, cause_json, reason_for, unreadable_error};
use crate::spec::exit::Code;

/// The report written as aoi's own stream, an entry at a time as runs
/// end: only the [`Standing`] is kept.
pub(super) struct JsonlReport {
    sinks: Sinks,
    /// Why writing stopped (a closed pipe, a failed write).
    stop: Option<Stop>,
}

impl JsonlReport {
    /// Starts the report: its `aoi:meta`.
    pub(super) fn start((stdout, file): super::targets::JsonlOut) -> JsonlReport {
        let mut sinks = Sinks::new(None, stdout, file);
        // After a stop, what was read is still reported, then the summary
        // says cancelled (§ 7) and counts what was consumed (§ 8.3).
        sinks.out.write_after_stop();
        sinks.out.consumed(0, 0, 0);
        let stop = sinks.out.meta("merge-report", Vec::new()).err();
        JsonlReport { sinks, stop }
    }

    /// Writes one entry (`standing`: with it); false once writing stopped.
    pub(super) fn entry(&mut self, e: &Entry, standing: &Standing) -> bool {
        if self.stop.is_none() {
            let (_, domain, warnings, errors, _) = standing.totals;
            self.sinks.out.consumed(domain, warnings, errors);
            self.stop = self.sinks.out.event("report", &e.fields()).err();
        }
        self.stop.is_none()
    }

    /// Writes out what is buffered; false once writing stopped.
    pub(super) fn flush(&mut self) -> bool {
        if self.stop.is_none() {
            self.stop = self.sinks.out.flush().err();
        }
        self.stop.is_none()
    }

    /// Ends the report: aoi's own failures and the summary; returns the
    /// exit status.
    pub(super) fn finish(
        mut self,
        args: &MergeArgs,
        own: &[Own],
        code: Code,
        standing: &Standing,
        log: &demux::Counts,
    ) -> Code {
        let r = match self.stop.take() {
            Some(stop) => Err(stop),
            None => report_end(&mut self.sinks, standing, own, code, args.logs.log, log),
        };
        match r {
            Ok(()) if args.no_fail && code != Code::NOINPUT => Code::OK,
            Ok(()) => code,
            Err(stop) => self.sinks.end("merge-report", stop),
        }
    }
}

/// The report's end: aoi's own failures and the `aoi:summary`.
fn report_end(
    sinks: &mut Sinks,
    standing: &Standing,
    own: &[Own],
    code: Code,
    read_as_log: bool,
    log: &demux::Counts,
) -> Result<(), Stop> {
    let (lines, domain, warnings, errors, violations) = standing.totals;
    let out = &mut sinks.out;
    for o in own {
        let e = if o.code == "INPUT_UNREADABLE" {
            unreadable_error(&o.message, &o.target)
        } else {
            ErrorEvent::new(&o.category, &o.code, o.message.clone())
                .retryable(false)
                .field("target", o.target.clone())
        };
        out.error(&e)?;
    }
    crate::out::cancelled()?;
    let ok = code == Code::OK;
    let worst = standing.worst().filter(|w| w.1 == code);
    let mut summary = if ok {
        Summary::ok()
    } else {
        let outcome = worst.and_then(|w| match w.0 {
            Outcome::Denied | Outcome::Timeout | Outcome::Cancelled => Some(w.0),
            _ => None,
        });
        Summary::failed(reason_for(code, outcome))
    };
    summary = summary.input_count(domain).consumed(warnings, errors);
    if !ok {
        let cause = worst.and_then(|w| w.2.clone()).or_else(|| {
            own.iter()
                .find(|o| o.exit == code)
                .map(|o| cause_json(&Cause::own(&o.category, &o.code)))
        });
        if let Some(c) = cause {
            summary = summary.field("caused_by", c);
        }
    }
    // § 13.1: the direct upstream's identity, when every stream names the
    // same one.
    if let Some(first) = standing.upstream() {
        let m: Map<String, Value> = first
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), Value::from(v.clone()))))
            .collect();
        summary = summary.field("upstream", Value::Object(m));
    }
    let outcomes: Map<String, Value> = standing
        .tally()
        .into_iter()
        .map(|(o, n, _)| (o.name().to_string(), n.into()))
        .collect();
    summary = summary.field(
        "properties",
        json!({
            "streams": standing.streams,
            "lines": lines,
            "violation_count": violations,
            "outcomes": outcomes,
            "read_as_log": read_as_log,
            "skipped_lines": log.skipped,
            "trimmed_lines": log.trimmed,
            "exit_code": code,
        }),
    );
    out.finish(&summary)
}
