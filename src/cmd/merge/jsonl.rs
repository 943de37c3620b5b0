//! The report as aoi's own conforming stream (`--format jsonl`): `report`
//! events and an `aoi:summary`, read again by a later merge.

use serde_json::{Map, Value, json};

use super::entry::{Entry, Own};
use super::words::{tally, totals};
use crate::cli::MergeArgs;
use crate::demux;
use crate::emit::{ErrorEvent, Summary};
use crate::judge::{Cause, Outcome};
use crate::out::{Sinks, Stop, cause_json, reason_for, unreadable_error};
use crate::spec::exit;

/// Writes the merged report as aoi's own stream; returns the exit status.
pub(super) fn write_jsonl(
    args: &MergeArgs,
    entries: &[Entry],
    own: &[Own],
    code: i32,
    log: &demux::Counts,
) -> i32 {
    let mut sinks = Sinks::report_to_stdout();
    match report_events(&mut sinks, entries, own, code, args.logs.log, log) {
        Ok(()) if args.no_fail && code != exit::NOINPUT => exit::OK,
        Ok(()) => code,
        Err(stop) => sinks.end("merge-report", stop),
    }
}

pub(super) fn report_events(
    sinks: &mut Sinks,
    entries: &[Entry],
    own: &[Own],
    code: i32,
    read_as_log: bool,
    log: &demux::Counts,
) -> Result<(), Stop> {
    let (lines, domain, warnings, errors, violations) = totals(entries);
    // After a stop, what was read is still reported, then the summary
    // says cancelled (§ 7) and counts what was consumed (§ 8.3).
    let out = &mut sinks.out;
    out.write_after_stop();
    out.consumed(domain, warnings, errors);
    out.meta("merge-report", Vec::new())?;
    for e in entries {
        out.event("report", &e.fields())?;
    }
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
    let ok = code == exit::OK;
    let worst = entries.iter().max_by_key(|e| exit::rank(e.exit_code));
    let mut summary = if ok {
        Summary::ok()
    } else {
        let outcome = worst.and_then(|e| match e.outcome {
            Outcome::Denied | Outcome::Timeout | Outcome::Cancelled => Some(e.outcome),
            _ => None,
        });
        let outcome = outcome.filter(|_| worst.is_some_and(|e| e.exit_code == code));
        Summary::failed(reason_for(code, outcome))
    };
    summary = summary.input_count(domain).consumed(warnings, errors);
    if !ok {
        let cause = worst
            .filter(|e| e.exit_code == code)
            .and_then(|e| e.caused_by.clone())
            .or_else(|| {
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
    let ids: Vec<&[(&str, Option<String>); 4]> = entries
        .iter()
        .map(|e| &e.identity)
        .filter(|i| i.iter().any(|(_, v)| v.is_some()))
        .collect();
    if let Some(first) = ids.first() {
        if ids.len() == entries.len() && ids.iter().all(|i| i == first) {
            let m: Map<String, Value> = first
                .iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), Value::from(v.clone()))))
                .collect();
            summary = summary.field("upstream", Value::Object(m));
        }
    }
    let outcomes: Map<String, Value> = tally(entries)
        .into_iter()
        .map(|(o, n, _)| (o.name().to_string(), n.into()))
        .collect();
    summary = summary.field(
        "properties",
        json!({
            "streams": entries.len(),
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
