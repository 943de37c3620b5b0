//! `aoi merge-report`: many runs, one verdict.
//!
//! The spec leaves fan-in undefined (§ 13.1); orchestrators still run many
//! tools at once and tee their output into files or one log. Each input is
//! read by the log reader (`crate::demux`): split into streams by
//! `aoi.run`, each judged exactly as `aoi check` judges a stream. Every
//! figure is recomputed from the events; a producer's own totals are only
//! believed once the judge has reconciled them.
//!
//! One entry per stream, in order of input and of first appearance. A
//! merge-report output read again is recognised (its `aoi:meta` says
//! `command: "merge-report"` in schema `aoi.toolkit.events`): its `report`
//! events are carried as entries, not judged as domain data, and the
//! report stream itself adds an entry only when it is broken (cut or
//! non-conforming). So merging is associative: merge(merge(A, B), C) has
//! the entries, totals and outcome of merge(A, B, C).

use std::collections::{HashMap, HashSet};
use std::io::{self, IsTerminal, Read};

use serde_json::Value;

use crate::cli::{MergeArgs, MergeFormat};
use crate::demux;
use crate::out::{Judging, Reading, finding_line, install_cancel, source_for, verdict_line};

mod ctrf;
mod entry;
mod files;
mod jsonl;
mod junit;
mod markdown;
mod merged;
mod standing;
mod table;
mod tap;
mod targets;
mod words;

use crate::emit::SCHEMA_NAME;
use crate::judge::Outcome;
use crate::peek::span;
use crate::spec::exit::Code;
use crate::spec::types;
use entry::cap;
use entry::{Check, Checks, Entry, MAX_CHECKS, Own, SHOWN};
use files::FileRead;
use junit::junit;
use merged::Merged;
use table::table;
use tap::tap;
use words::{short_run, summary_line, verdict_word};

/// What the visitor gathers per stream (keyed by its run).
#[derive(Default)]
struct Gathered {
    checks: HashMap<Option<String>, Checks>,
    /// Streams that are merge-report outputs.
    containers: HashSet<Option<String>>,
    /// Entries carried from their `report` events.
    carried: HashMap<Option<String>, Vec<Entry>>,
    /// Their own failures (`aoi:error` events of aoi's), carried too.
    carried_own: HashMap<Option<String>, Vec<Own>>,
    /// What their own inputs read as logs passed over
    /// (`properties.skipped_lines`, `properties.trimmed_lines`).
    carried_log: demux::Counts,
    /// Runs that ended, reduced to their report, until every run that
    /// appeared before them has ended too (they are released in order of
    /// first appearance).
    pending: demux::InOrder<Taken>,
}

/// One judged stream reduced to what the report needs, so a run's judge
/// and verdict are freed when it ends.
pub(super) struct Taken {
    /// Its place in the order of first appearance in its input.
    order: u64,
    /// The entries it carried (an earlier report).
    carried: Vec<Entry>,
    /// Its own entry (not a report that carried entries, unless broken);
    /// not in `carried`, whose spare capacity would cost more than an
    /// entry for each of millions of runs.
    entry: Option<Entry>,
    /// aoi's own failures it carried.
    own: Vec<Own>,
    /// What stderr says of it when it is broken: its findings and verdict.
    said: Vec<String>,
}

impl Gathered {
    /// Reduces one stream: the entries it carried when it is an earlier
    /// report, else (or when it is itself broken) its own entry.
    fn reduce(&mut self, source: &str, st: demux::Judged) -> Taken {
        let carried = self.carried.remove(&st.run).unwrap_or_default();
        let container = self.containers.contains(&st.run) || !carried.is_empty();
        let v = &st.verdict;
        let broken = matches!(v.outcome, Outcome::Violation | Outcome::Incomplete);
        let said = if broken {
            broken_lines(source, &st)
        } else {
            Vec::new()
        };
        let own = self.carried_own.remove(&st.run).unwrap_or_default();
        let entry = (!container || broken).then(|| {
            let checks = self.checks.remove(&st.run).unwrap_or_default();
            Entry::from_verdict(source, st.run.clone(), v, checks, &st.findings)
        });
        Taken {
            order: st.order,
            carried,
            entry,
            own,
            said,
        }
    }
}

/// A report's entries are the report's whatever the format: they take
/// no room of a worker's batch.
impl crate::out::Weighed for Taken {
    fn weight(&self) -> usize {
        0
    }
}

/// Runs `aoi merge-report`; returns the exit status.
pub fn run(args: &MergeArgs) -> Code {
    super::resolve::judging("merge-report", args).map_or_else(|c| c, |j| merge(args, j))
}

/// `aoi merge-report` with the `--schema` file compiled; its inputs are
/// resolved after its formats.
fn merge(args: &MergeArgs, mut judging: Judging) -> Code {
    crate::out::budget::set_show(judging.logs.show);
    let tty = io::stdout().is_terminal();
    let mut targets = match targets::resolve(args, tty) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let jsonl = targets.iter_mut().find(|t| t.format == MergeFormat::Jsonl);
    let jsonl = jsonl.map(|t| {
        install_cancel("merge-report");
        targets::jsonl_out(t)
    });
    judging.files = match super::resolve::inputs("merge-report", args) {
        Ok(files) => files,
        Err(code) => return code,
    };
    let keep = targets.iter().any(|t| t.format != MergeFormat::Jsonl);
    let mut merged = Merged::new(jsonl, keep, judging.logs);
    files::each_judged(&judging, |path, read| {
        // Stopped by SIGINT/SIGTERM: what was read whole before the stop
        // is reported, then the report says cancelled.
        if matches!(read, FileRead::Stopped) {
            return false;
        }
        merged.take(path, read, args)
    });
    merged.write(args, targets, tty)
}

/// stderr: only what the report cannot show, why a stream is broken or
/// cut (its findings); outcomes are in the report.
fn broken_lines(source: &str, st: &demux::Judged) -> Vec<String> {
    let name = match &st.run {
        Some(r) => format!("{source} run {r}"),
        None => source.to_string(),
    };
    let findings = st.findings.iter().map(|f| finding_line(f, Some(&name)));
    let verdict = verdict_line("merge-report", &st.verdict, Some(&name));
    findings.chain(std::iter::once(verdict)).collect()
}

/// `release` said the report cannot be written any more.
struct Unwritable;

/// Reads one input, gathering checks, containers and carried reports;
/// each run that ends is given to `release`, in order of first
/// appearance, as soon as every run before it has ended (`None`: a block
/// of input ended, the moment to flush what was written). `None` when
/// `release` said stop.
fn gather<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    source: &str,
    reading: Reading,
    opts: &demux::Options,
    g: &mut Gathered,
    release: &mut dyn FnMut(Option<Taken>) -> bool,
) -> Option<demux::Input> {
    let reader = source_for(src, reading);
    let r: Result<demux::Input, Unwritable> = demux::read(reader, opts, |visit| {
        let ev = match visit {
            demux::Visit::Event(ev) => ev,
            demux::Visit::Ended { run, settled } => {
                let taken = g.reduce(source, *run);
                g.pending.push(taken.order, taken);
                return g.release(settled, release);
            }
            demux::Visit::BlockEnd => {
                return release(None).then_some(()).ok_or(Unwritable);
            }
            _ => return Ok(()),
        };
        let Some(stream) = ev.stream else {
            return Ok(());
        };
        if !ev.terminated {
            return Ok(());
        }
        let key = &stream.run;
        match ev.type_name().as_deref() {
            Some(types::CHECK) => {
                let v: Value = serde_json::from_slice(ev.obj).unwrap_or(Value::Null);
                let checks = g.checks.entry(key.clone()).or_default();
                if v.get("ok").and_then(Value::as_bool) != Some(true) {
                    checks.failed += 1;
                }
                if checks.kept.len() >= MAX_CHECKS {
                    checks.dropped += 1;
                } else {
                    checks.kept.extend(Check::from_event(&v));
                }
            }
            Some(types::META) => {
                let own_schema =
                    stream.judge.identity().schema_name.as_deref() == Some(SCHEMA_NAME);
                let command = ev
                    .peek
                    .members
                    .iter()
                    .find(|m| crate::peek::key_is(span(ev.obj, &m.key), m.key_escaped, "command"))
                    .map(|m| span(ev.obj, &m.value));
                if own_schema && command == Some(b"\"merge-report\"") {
                    g.containers.insert(key.clone());
                }
            }
            // What an earlier merge-report carried: its entries, its own
            // failures, its skipped-line count.
            Some(ty @ (types::ERROR | types::SUMMARY | "report")) if g.containers.contains(key) => {
                let Ok(v) = serde_json::from_slice::<Value>(ev.obj) else {
                    return Ok(());
                };
                match ty {
                    types::ERROR => g
                        .carried_own
                        .entry(key.clone())
                        .or_default()
                        .extend(Own::from_event(&v)),
                    "report" => g
                        .carried
                        .entry(key.clone())
                        .or_default()
                        .push(Entry::from_report(&v)),
                    _ => {
                        let n = |k: &str| {
                            v.pointer(&format!("/properties/{k}"))
                                .and_then(Value::as_u64)
                                .unwrap_or(0)
                        };
                        g.carried_log.add(&demux::Counts {
                            skipped: n("skipped_lines"),
                            trimmed: n("trimmed_lines"),
                            ..Default::default()
                        });
                    }
                }
            }
            _ => {}
        }
        Ok(())
    });
    r.ok()
}

impl Gathered {
    /// Gives `release` the pending runs that appeared before `settled`
    /// (every run before it has ended), in order.
    fn release(
        &mut self,
        settled: u64,
        release: &mut dyn FnMut(Option<Taken>) -> bool,
    ) -> Result<(), Unwritable> {
        while let Some(t) = self.pending.next_before(settled) {
            if !release(Some(t)) {
                return Err(Unwritable);
            }
        }
        Ok(())
    }
}
