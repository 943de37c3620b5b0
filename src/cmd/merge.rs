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
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::cli::{MergeArgs, MergeFormat};
use crate::demux;
use crate::out::{
    Sinks, Stop, cause_json, eprint_line, finding_line, install_cancel, open_input, reason_for,
    sanitize, source_for, stdout_writer, stop_code, unreadable_error, upstream_identity,
    verdict_line, write_err,
};
use crate::out::{cell, paint};

mod markdown;
use crate::emit::{ErrorEvent, SCHEMA_NAME, Summary};
use crate::judge::{Cause, Finding, Outcome, Verdict};
use crate::peek::span;
use crate::spec::exit;

/// Findings kept per stream (shown on stderr, carried into JUnit/TAP).
const SHOWN: usize = 5;
/// `aoi:check` events kept per stream (the rest are counted).
const MAX_CHECKS: usize = 1000;
/// Characters kept of a check's name, severity or detail (with `…`).
const MAX_TEXT: usize = 500;

fn cap(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut t: String = s.chars().take(n).collect();
    t.push('…');
    t
}

/// One `aoi:check` of a stream (§ 8.3), for JUnit.
#[derive(Debug, Clone, PartialEq)]
struct Check {
    name: String,
    ok: bool,
    severity: Option<String>,
    detail: Option<String>,
}

/// One stream's line in the merged report.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    source: String,
    run: Option<String>,
    identity: [(&'static str, Option<String>); 4],
    outcome: Outcome,
    exit_code: i32,
    reason: String,
    lines: u64,
    domain: u64,
    warnings: u64,
    errors: u64,
    violations: u64,
    caused_by: Option<Value>,
    elapsed_ms: Option<f64>,
    checks: Vec<Check>,
    checks_dropped: u64,
    /// Failed checks, those past the cap included.
    checks_failed: u64,
    findings: Vec<String>,
}

const IDENTITY: [&str; 4] = ["tool", "tool_version", "schema_name", "schema_version"];

impl Entry {
    fn from_verdict(
        source: &str,
        run: Option<String>,
        v: &Verdict,
        checks: Checks,
        findings: &[Finding],
    ) -> Self {
        let id = upstream_identity(v);
        Entry {
            source: source.to_string(),
            run,
            identity: [
                ("tool", id.tool),
                ("tool_version", id.tool_version),
                ("schema_name", id.schema_name),
                ("schema_version", id.schema_version),
            ],
            outcome: v.outcome,
            exit_code: v.exit_code,
            reason: v.reason.clone(),
            lines: v.lines,
            domain: v.domain_events,
            warnings: v.warnings,
            errors: v.errors,
            violations: v.violations + v.incompletes,
            // A stream that broke the contract or was cut failed for that,
            // whatever error it carried: a retry does not mend it (as
            // `check`, `summary`, `errors` and `filter` report it).
            caused_by: if v.exit_code != 0 {
                own_cause(v.outcome).or_else(|| v.cause.as_ref().map(cause_json))
            } else {
                None
            },
            elapsed_ms: v.summary.as_ref().and_then(|s| s.elapsed_ms),
            checks: checks.kept,
            checks_dropped: checks.dropped,
            checks_failed: checks.failed,
            findings: findings
                .iter()
                .map(|f| format!("{}: {}", f.rule.id(), f.message))
                .collect(),
        }
    }

    fn tool(&self) -> Option<&str> {
        self.identity[0].1.as_deref()
    }

    /// Its `aoi:check` events in one phrase, for the formats that do not
    /// list them: how many failed (a detail of the run, not its verdict)
    /// and how many are past the cap; `None` when all passed and all are
    /// listed.
    fn checks_note(&self) -> Option<String> {
        if self.checks_failed == 0 && self.checks_dropped == 0 {
            return None;
        }
        let total = self.checks.len() as u64 + self.checks_dropped;
        let mut s = format!("{} of {total} aoi:check failed", self.checks_failed);
        if self.checks_dropped > 0 {
            let _ = write!(
                s,
                ", {} past the {} listed",
                self.checks_dropped,
                self.checks.len()
            );
        }
        Some(s)
    }

    /// The cause column of the table and Markdown: why it failed, and its
    /// checks' note.
    fn cause_cell(&self) -> String {
        let cause = cause_text(self);
        match (cause.is_empty(), self.checks_note()) {
            (_, None) => cause,
            (true, Some(n)) => n,
            (false, Some(n)) => format!("{cause}; {n}"),
        }
    }

    /// The members of this entry's `report` event.
    fn fields(&self) -> Vec<(&'static str, Value)> {
        let mut f: Vec<(&str, Value)> = vec![("source", self.source.clone().into())];
        if let Some(r) = &self.run {
            f.push(("run", r.clone().into()));
        }
        for (k, v) in &self.identity {
            if let Some(v) = v {
                f.push((k, v.clone().into()));
            }
        }
        f.push(("outcome", self.outcome.name().into()));
        f.push(("exit_code", self.exit_code.into()));
        f.push(("ok", (self.exit_code == 0).into()));
        f.push(("reason", self.reason.clone().into()));
        f.push(("lines", self.lines.into()));
        f.push(("domain_count", self.domain.into()));
        f.push(("warning_count", self.warnings.into()));
        f.push(("error_count", self.errors.into()));
        f.push(("violation_count", self.violations.into()));
        if let Some(c) = &self.caused_by {
            f.push(("caused_by", c.clone()));
        }
        if let Some(ms) = self.elapsed_ms {
            f.push(("elapsed_ms", crate::judge::ms_json(ms)));
        }
        if !self.checks.is_empty() {
            let checks: Vec<Value> = self
                .checks
                .iter()
                .map(|c| {
                    let mut m = Map::new();
                    m.insert("name".into(), c.name.clone().into());
                    m.insert("ok".into(), c.ok.into());
                    if let Some(s) = &c.severity {
                        m.insert("severity".into(), s.clone().into());
                    }
                    if let Some(d) = &c.detail {
                        m.insert("detail".into(), d.clone().into());
                    }
                    Value::Object(m)
                })
                .collect();
            f.push(("checks", Value::Array(checks)));
        }
        if self.checks_dropped > 0 {
            f.push(("checks_dropped", self.checks_dropped.into()));
        }
        if self.checks_failed > 0 {
            f.push(("checks_failed", self.checks_failed.into()));
        }
        if !self.findings.is_empty() {
            f.push(("findings", self.findings.clone().into()));
        }
        f
    }

    /// An entry carried from an earlier merge's `report` event. One that
    /// does not hold together (a field missing or of the wrong type, an
    /// unknown outcome, an exit code that is not its outcome's, `ok`
    /// against the exit code) is not believed, nor dropped: it is carried
    /// as a `violation` saying why, so a forged or damaged report fails the
    /// merge instead of passing (an `exit_code` of -1 made the process exit
    /// 0 beside `ok:false`).
    fn from_report(v: &Value) -> Entry {
        Entry::carried(v).unwrap_or_else(|why| {
            let s = |k: &str| v.get(k).and_then(Value::as_str).map(|t| cap(t, MAX_TEXT));
            let outcome = Outcome::Violation;
            Entry {
                source: s("source").unwrap_or_else(|| "(unnamed)".to_string()),
                run: s("run"),
                identity: IDENTITY.map(|k| (k, s(k))),
                outcome,
                exit_code: outcome.exit_code(),
                reason: format!("a carried report event does not hold together: {why}"),
                lines: 0,
                domain: 0,
                warnings: 0,
                errors: 0,
                violations: 1,
                caused_by: own_cause(outcome),
                elapsed_ms: None,
                checks: Vec::new(),
                checks_dropped: 0,
                checks_failed: 0,
                findings: Vec::new(),
            }
        })
    }

    /// [`Entry::from_report`] for a report that holds together; else why not.
    fn carried(v: &Value) -> Result<Entry, String> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let n = |k: &str| {
            v.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("no {k} (an integer >= 0)"))
        };
        let outcome = s("outcome")
            .and_then(|o| Outcome::from_name(&o))
            .ok_or("no known outcome")?;
        let exit_code = v.get("exit_code").and_then(Value::as_i64);
        if exit_code != Some(i64::from(outcome.exit_code())) {
            return Err(format!(
                "exit_code {} is not outcome {}'s {}",
                v.get("exit_code")
                    .map_or("absent".to_string(), Value::to_string),
                outcome.name(),
                outcome.exit_code()
            ));
        }
        let exit_code = outcome.exit_code();
        if let Some(ok) = v.get("ok") {
            if ok.as_bool() != Some(exit_code == 0) {
                return Err(format!("ok is {ok} with exit_code {exit_code}"));
            }
        }
        let checks: Vec<Check> = v
            .get("checks")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|c| {
                        Some(Check {
                            name: c.get("name")?.as_str()?.to_string(),
                            ok: c.get("ok")?.as_bool()?,
                            severity: c
                                .get("severity")
                                .and_then(Value::as_str)
                                .map(str::to_string),
                            detail: c.get("detail").and_then(Value::as_str).map(str::to_string),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let listed_failed = checks.iter().filter(|c| !c.ok).count() as u64;
        Ok(Entry {
            source: s("source").ok_or("no source")?,
            run: s("run"),
            identity: IDENTITY.map(|k| (k, s(k))),
            outcome,
            exit_code,
            reason: s("reason").unwrap_or_default(),
            lines: n("lines")?,
            domain: n("domain_count")?,
            warnings: n("warning_count")?,
            errors: n("error_count")?,
            violations: n("violation_count")?,
            caused_by: v.get("caused_by").filter(|c| c.is_object()).cloned(),
            elapsed_ms: v
                .get("elapsed_ms")
                .and_then(Value::as_f64)
                .filter(|ms| *ms >= 0.0),
            checks,
            checks_dropped: n("checks_dropped").unwrap_or(0),
            checks_failed: n("checks_failed").unwrap_or(listed_failed),
            findings: v
                .get("findings")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}

/// `caused_by` for a stream that failed by itself (cut or broken): the
/// judge's finding, as aoi reports its own failures.
fn own_cause(outcome: Outcome) -> Option<Value> {
    let (category, code) = outcome.own_failure()?;
    Some(cause_json(&Cause::own(category, code)))
}

/// A failure of aoi's own (an input it could not read, one without a
/// stream, runs past the limit), or one carried from an earlier merge.
#[derive(Debug, Clone)]
struct Own {
    category: String,
    code: String,
    message: String,
    target: String,
    exit: i32,
}

impl Own {
    fn new(category: &str, code: &str, message: String, target: String, exit: i32) -> Self {
        Own {
            category: category.to_string(),
            code: code.to_string(),
            message,
            target,
            exit,
        }
    }

    /// An earlier merge-report's own `aoi:error`, carried (the exit code
    /// follows from its code: an unreadable input is 66, the rest 74).
    fn from_event(v: &Value) -> Option<Own> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let code = s("code")?;
        let exit = match code.as_str() {
            "INPUT_UNREADABLE" => exit::NOINPUT,
            "NO_AOI_STREAM" | "TOO_MANY_RUNS" => exit::IOERR,
            _ => return None,
        };
        Some(Own {
            category: s("category").unwrap_or_else(|| "io".into()),
            code,
            message: s("message").unwrap_or_default(),
            target: s("target").unwrap_or_default(),
            exit,
        })
    }
}

/// The `aoi:check` events of one stream.
#[derive(Default)]
struct Checks {
    kept: Vec<Check>,
    dropped: u64,
    failed: u64,
}

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
}

/// Runs `aoi merge-report`; returns the exit status.
pub fn run(args: &MergeArgs) -> i32 {
    let tty = io::stdout().is_terminal();
    let format = args.format.unwrap_or(if tty {
        MergeFormat::Table
    } else {
        MergeFormat::Jsonl
    });
    if format == MergeFormat::Jsonl {
        install_cancel("merge-report");
    }
    let inputs: Vec<&Path> = if args.files.is_empty() {
        vec![Path::new("-")]
    } else {
        args.files.iter().map(|p| p.as_path()).collect()
    };
    crate::out::say_reading_terminal("merge-report", !args.files.is_empty(), args.quiet);
    let opts = args.logs.reading(&args.judge, SHOWN as u64);
    let mut entries: Vec<Entry> = Vec::new();
    let mut own: Vec<Own> = Vec::new();
    // What reading as a log passed over, summed over the inputs.
    let mut log = demux::Counts::default();
    for path in &inputs {
        let source = path.display().to_string();
        let mut g = Gathered::default();
        let read = if *path == Path::new("-") {
            gather(io::stdin(), &args.judge, &opts, &mut g)
        } else {
            match open_input(path) {
                Ok(f) => gather(f, &args.judge, &opts, &mut g),
                Err(msg) => {
                    eprint_line(args.quiet, &format!("aoi merge-report: {msg}"));
                    own.push(Own::new(
                        "not_found",
                        "INPUT_UNREADABLE",
                        msg,
                        source,
                        exit::NOINPUT,
                    ));
                    continue;
                }
            }
        };
        // Stopped by SIGINT/SIGTERM: the report says cancelled.
        if crate::cancel::requested().is_some() {
            break;
        }
        let (streams, counts) = read.finish(SHOWN);
        log.add(&counts);
        log.add(&g.carried_log);
        if !args.quiet && (counts.skipped > 0 || counts.trimmed > 0) {
            eprint_line(
                false,
                &format!("aoi merge-report: {source}: {}", counts.log_note()),
            );
        }
        let before = entries.len();
        for st in streams {
            let carried = g.carried.remove(&st.run).unwrap_or_default();
            let container = g.containers.contains(&st.run) || !carried.is_empty();
            let v = &st.verdict;
            let broken = matches!(v.outcome, Outcome::Violation | Outcome::Incomplete);
            // stderr: only what the report cannot show, why a stream is
            // broken or cut (its findings); outcomes are in the report.
            if !args.quiet && broken {
                let name = match &st.run {
                    Some(r) => format!("{source} run {r}"),
                    None => source.clone(),
                };
                let mut err = io::stderr().lock();
                for f in &st.findings {
                    let _ = writeln!(err, "{}", finding_line(f, Some(&name)));
                }
                let _ = writeln!(err, "{}", verdict_line("merge-report", v, Some(&name)));
            }
            entries.extend(carried);
            own.extend(g.carried_own.remove(&st.run).unwrap_or_default());
            if !container || broken {
                let checks = g.checks.remove(&st.run).unwrap_or_default();
                entries.push(Entry::from_verdict(
                    &source,
                    st.run,
                    v,
                    checks,
                    &st.findings,
                ));
            }
        }
        if counts.untracked > 0 {
            let msg = format!(
                "more than --max-runs {} runs: {} line(s) of further runs were not judged",
                args.logs.max_runs, counts.untracked
            );
            eprint_line(args.quiet, &format!("aoi merge-report: {source}: {msg}"));
            own.push(Own::new(
                "io",
                "TOO_MANY_RUNS",
                msg,
                source.clone(),
                exit::IOERR,
            ));
        }
        if entries.len() == before && counts.untracked == 0 {
            let msg = format!("no AOI stream in {source}");
            eprint_line(args.quiet, &format!("aoi merge-report: {msg}"));
            own.push(Own::new(
                "io",
                "NO_AOI_STREAM",
                msg,
                source.clone(),
                exit::IOERR,
            ));
        }
    }
    let code = own
        .iter()
        .map(|o| o.exit)
        .chain(entries.iter().map(|e| e.exit_code))
        .fold(exit::OK, exit::worst);
    let color = format == MergeFormat::Table && args.color.enabled(tty);
    // Stated in every format whenever lines were read as a log, here or
    // by a report merged in (issue 24: leniency shows).
    let note = (args.logs.log || log.skipped > 0 || log.trimmed > 0).then(|| log.log_note());
    let note = note.as_deref();
    let written = match format {
        MergeFormat::Jsonl => {
            let r = write_jsonl(args, &entries, &own, code, &log);
            // Not after a stop (a closed pipe, a signal): that is its own exit.
            if r == code || (args.no_fail && r == exit::OK) {
                say_why(args, &entries, code);
            }
            return r;
        }
        other => {
            let text = match other {
                MergeFormat::Table => table(&entries, &own, code, color, note),
                MergeFormat::Markdown => markdown::markdown(&entries, &own, code, note),
                MergeFormat::Junit => junit(&entries, &own, note),
                _ => tap(&entries, &own, note),
            };
            let mut out = stdout_writer();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| write_err(e, "stdout"))
        }
    };
    // The table on a terminal already ends with the verdict.
    if written.is_ok() && !(tty && format == MergeFormat::Table) {
        say_why(args, &entries, code);
    }
    match written {
        Ok(()) if args.no_fail && code != exit::NOINPUT => exit::OK,
        Ok(()) => code,
        Err(stop) => stop_code("merge-report", &stop),
    }
}

/// Reads one input, gathering checks, containers and carried reports.
fn gather<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    judge: &crate::cli::JudgeArgs,
    opts: &demux::Options,
    g: &mut Gathered,
) -> demux::Input {
    let reader = source_for(src, judge);
    let r: Result<demux::Input, std::convert::Infallible> = demux::read(reader, opts, |visit| {
        // The reports are written at the end: nothing to flush.
        let demux::Visit::Event(ev) = visit else {
            return Ok(());
        };
        let Some(stream) = ev.stream else {
            return Ok(());
        };
        if !ev.terminated {
            return Ok(());
        }
        let key = &stream.run;
        match ev.type_name().as_deref() {
            Some("aoi:check") => {
                let v: Value = serde_json::from_slice(ev.obj).unwrap_or(Value::Null);
                let checks = g.checks.entry(key.clone()).or_default();
                if v.get("ok").and_then(Value::as_bool) != Some(true) {
                    checks.failed += 1;
                }
                if checks.kept.len() >= MAX_CHECKS {
                    checks.dropped += 1;
                } else if let Some(name) = v.get("name").and_then(Value::as_str) {
                    // Capped, so a report line stays far below any line limit.
                    let s = |k: &str| v.get(k).and_then(Value::as_str).map(|t| cap(t, MAX_TEXT));
                    checks.kept.push(Check {
                        name: cap(name, MAX_TEXT),
                        ok: v.get("ok").and_then(Value::as_bool).unwrap_or(false),
                        severity: s("severity"),
                        detail: s("detail"),
                    });
                }
            }
            Some("aoi:meta") => {
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
            Some(ty @ ("aoi:error" | "aoi:summary" | "report")) if g.containers.contains(key) => {
                let Ok(v) = serde_json::from_slice::<Value>(ev.obj) else {
                    return Ok(());
                };
                match ty {
                    "aoi:error" => g
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
    match r {
        Ok(input) => input,
        Err(never) => match never {},
    }
}

/// The outcomes and how many streams had each, worst first.
fn tally(entries: &[Entry]) -> Vec<(Outcome, u64, i32)> {
    let mut t: Vec<(Outcome, u64, i32)> = Vec::new();
    for e in entries {
        match t.iter_mut().find(|(o, _, _)| *o == e.outcome) {
            Some(x) => x.1 += 1,
            None => t.push((e.outcome, 1, e.exit_code)),
        }
    }
    t.sort_by_key(|(_, _, c)| std::cmp::Reverse(exit::rank(*c)));
    t
}

fn totals(entries: &[Entry]) -> (u64, u64, u64, u64, u64) {
    // Saturating: carried counts are any integers a report held.
    entries.iter().fold((0, 0, 0, 0, 0), |t, e| {
        (
            t.0.saturating_add(e.lines),
            t.1.saturating_add(e.domain),
            t.2.saturating_add(e.warnings),
            t.3.saturating_add(e.errors),
            t.4.saturating_add(e.violations),
        )
    })
}

/// Writes the merged report as aoi's own stream; returns the exit status.
fn write_jsonl(
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

fn report_events(
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

/// The last 8 characters of a run id (a ULID's random part).
fn short_run(run: &Option<String>) -> String {
    match run {
        Some(r) => {
            let n = r.chars().count();
            r.chars().skip(n.saturating_sub(8)).collect()
        }
        None => "-".to_string(),
    }
}

/// A one-line description of why a stream failed.
fn cause_text(e: &Entry) -> String {
    if e.exit_code == 0 {
        return String::new();
    }
    let Some(c) = &e.caused_by else {
        return e.reason.clone();
    };
    let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("?");
    let mut t = format!("{} {}", s("category"), s("code"));
    match (
        c.get("retryable").and_then(Value::as_bool),
        c.get("retry_after_ms").and_then(Value::as_u64),
    ) {
        (Some(true), Some(ms)) => {
            let _ = write!(t, ", retry after {:.1} s", ms as f64 / 1000.0);
        }
        (Some(true), None) => t.push_str(", retry may help"),
        _ => {}
    }
    t
}

fn verdict_word(code: i32) -> String {
    if code == 0 {
        "ok".to_string()
    } else {
        format!("FAIL (exit {code})")
    }
}

/// Why the exit is non-zero, in one line on stderr, where the report may
/// be in a file (issue 24: every non-zero exit says why).
fn say_why(args: &MergeArgs, entries: &[Entry], code: i32) {
    if code != exit::OK && !args.quiet {
        eprint_line(
            false,
            &format!("aoi merge-report: {}", why_line(entries, code)),
        );
    }
}

/// The verdict and the stream that decided it, in one line for stderr.
fn why_line(entries: &[Entry], code: i32) -> String {
    let mut s = format!("{}: {}", verdict_word(code), summary_line(entries));
    if let Some(e) = entries.iter().find(|e| e.exit_code == code) {
        let mut who = e.source.clone();
        if let Some(r) = &e.run {
            let _ = write!(who, " run {r}");
        }
        let _ = write!(
            s,
            "; first at exit {code}: {who}: {} {}",
            e.outcome,
            cause_text(e)
        );
    }
    sanitize(&s)
}

fn summary_line(entries: &[Entry]) -> String {
    let (lines, domain, warnings, errors, violations) = totals(entries);
    let tally: Vec<String> = tally(entries)
        .into_iter()
        .map(|(o, n, _)| format!("{n} {o}"))
        .collect();
    format!(
        "{} stream(s): {}; {lines} line(s), {domain} domain event(s), {warnings} warning(s), {errors} error(s), {violations} violation(s)",
        entries.len(),
        if tally.is_empty() {
            "none".to_string()
        } else {
            tally.join(", ")
        }
    )
}

fn table(entries: &[Entry], own: &[Own], code: i32, color: bool, note: Option<&str>) -> String {
    // Terminal columns, not characters: a name in CJK takes two a character.
    let w_src = entries
        .iter()
        .map(|e| crate::out::width(&sanitize(&e.source)))
        .max()
        .unwrap_or(6)
        .clamp(6, 40);
    let mut s = String::new();
    let header = format!(
        "{}  {}  {}  {}  {:>4}  {:>8}  {:>8}  {:>5}  {:>5}  {:>5}  CAUSE",
        cell("SOURCE", w_src),
        cell("RUN", 8),
        cell("TOOL", 12),
        cell("OUTCOME", 10),
        "EXIT",
        "LINES",
        "DOMAIN",
        "WARN",
        "ERR",
        "VIOL"
    );
    s.push_str(&paint(color, "1", &header));
    s.push('\n');
    for e in entries {
        let outcome = cell(e.outcome.name(), 10);
        let sgr = match e.exit_code {
            0 => "32",
            75 => "33",
            65 | 74 => "31;1",
            _ => "31",
        };
        let _ = writeln!(
            s,
            "{}  {}  {}  {}  {:>4}  {:>8}  {:>8}  {:>5}  {:>5}  {:>5}  {}",
            cell(&e.source, w_src),
            cell(&short_run(&e.run), 8),
            cell(e.tool().unwrap_or("-"), 12),
            paint(color, sgr, &outcome),
            e.exit_code,
            e.lines,
            e.domain,
            e.warnings,
            e.errors,
            e.violations,
            sanitize(&e.cause_cell())
        );
    }
    for o in own {
        let _ = writeln!(s, "{}", paint(color, "31;1", &own_line(o)));
    }
    let _ = writeln!(s, "{}: {}", verdict_word(code), summary_line(entries));
    if let Some(n) = note {
        let _ = writeln!(s, "{n}");
    }
    s
}

/// One of aoi's own failures (an input it could not read, one without a
/// stream, runs past the limit) as a line of text: the table and Markdown
/// reports name them as JUnit and TAP do.
fn own_line(o: &Own) -> String {
    format!(
        "aoi: {}: {} (exit {}): {}",
        sanitize(&o.target),
        sanitize(&o.code),
        o.exit,
        sanitize(&o.message)
    )
}

/// `&`, `<` or `>` as the entity both HTML (Markdown) and XML read.
fn push_entity(out: &mut String, c: char) {
    out.push_str(match c {
        '&' => "&amp;",
        '<' => "&lt;",
        _ => "&gt;",
    });
}

/// XML text or attribute value: escaped, control characters replaced.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in sanitize(s).chars() {
        match c {
            '&' | '<' | '>' => push_entity(&mut out, c),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Not XML characters (1.0 § 2.2).
            '\u{FFFE}' | '\u{FFFF}' => out.push_str("&#xFFFD;"),
            // Non-ASCII as character references: the file is ASCII, which
            // readers that guess an encoding (xunit-viewer guesses CP1252
            // on a raw U+FFFD) cannot get wrong; the XML reads the same.
            c if !c.is_ascii() => {
                let _ = write!(out, "&#x{:X};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

fn suite_name(e: &Entry) -> String {
    let mut n = e.source.clone();
    if let Some(r) = &e.run {
        let _ = write!(n, " run {r}");
    }
    if let Some(t) = e.tool() {
        let _ = write!(n, " ({t})");
    }
    n
}

/// JUnit XML (the format most CI systems read): a testsuite per stream,
/// a testcase for the stream's outcome (a `failure` when the run failed, an
/// `error` when the stream itself is broken or cut) and one per
/// `aoi:check` (`ok:false` told in `system-out`: the outcome is the
/// verdict), and one saying how many checks were not kept.
fn junit(entries: &[Entry], own: &[Own], note: Option<&str>) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors) = (0u64, 0u64, 0u64);
    for e in entries {
        let (mut t, mut f, mut er) = (1u64, 0u64, 0u64);
        let classname = xml(e.tool().unwrap_or("aoi"));
        let time = e.elapsed_ms.map_or(0.0, |ms| ms / 1000.0);
        let mut cases = String::new();
        let _ = write!(
            cases,
            "    <testcase classname=\"{classname}\" name=\"stream outcome\" time=\"{time:.3}\""
        );
        // One finding a line (a line feed is text in an element, where
        // xml() would replace it as a control character).
        let detail = e
            .findings
            .iter()
            .map(|f| xml(f))
            .collect::<Vec<_>>()
            .join("\n");
        match e.outcome {
            Outcome::Ok => cases.push_str("/>\n"),
            Outcome::Violation | Outcome::Incomplete => {
                er += 1;
                let _ = write!(
                    cases,
                    ">\n      <error message=\"{}\" type=\"{}\">{}</error>\n    </testcase>\n",
                    xml(&e.reason),
                    xml(e.outcome.name()),
                    detail
                );
            }
            _ => {
                f += 1;
                let ty = e
                    .caused_by
                    .as_ref()
                    .map(|c| {
                        let s =
                            |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
                        format!("{}/{}", s("category"), s("code"))
                    })
                    .unwrap_or_else(|| e.outcome.name().to_string());
                let _ = write!(
                    cases,
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml(&e.reason),
                    xml(&ty),
                    xml(&cause_text(e))
                );
            }
        }
        // The stream's verdict is its outcome's testcase alone: a failed
        // aoi:check is shown, never counted as a failure of its own (a run
        // that passed would fail the CI job that reads JUnit; issue 24).
        for c in &e.checks {
            t += 1;
            let _ = write!(
                cases,
                "    <testcase classname=\"{classname}.checks\" name=\"{}\"",
                xml(&c.name)
            );
            if c.ok {
                cases.push_str("/>\n");
            } else {
                let _ = write!(
                    cases,
                    ">\n      <system-out>ok:false, severity {}: {}</system-out>\n    </testcase>\n",
                    xml(c.severity.as_deref().unwrap_or("error")),
                    xml(c.detail.as_deref().unwrap_or("check failed"))
                );
            }
        }
        if e.checks_dropped > 0 {
            t += 1;
            let _ = write!(
                cases,
                "    <testcase classname=\"{classname}.checks\" name=\"more aoi:check events\">\n      <system-out>{} more aoi:check event(s), past the {} kept per stream</system-out>\n    </testcase>\n",
                e.checks_dropped,
                e.checks.len()
            );
        }
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{t}\" failures=\"{f}\" errors=\"{er}\" skipped=\"0\" time=\"{time:.3}\">\n{cases}  </testsuite>\n",
            xml(&suite_name(e))
        );
        tests += t;
        failures += f;
        errors += er;
    }
    for o in own {
        tests += 1;
        errors += 1;
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">\n    <testcase classname=\"aoi\" name=\"input\">\n      <error message=\"{}\" type=\"{}\"/>\n    </testcase>\n  </testsuite>\n",
            xml(&o.target),
            xml(&o.message),
            xml(&o.code)
        );
    }
    // Reading as a log: a skipped testcase, which CI systems show.
    if let Some(n) = note {
        tests += 1;
        let _ = write!(
            suites,
            "  <testsuite name=\"aoi --log\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0.000\">\n    <testcase classname=\"aoi\" name=\"lines read as a log\">\n      <skipped message=\"{}\"/>\n    </testcase>\n  </testsuite>\n",
            xml(n)
        );
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"aoi merge-report\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n{suites}</testsuites>\n"
    )
}

/// A TAP description: one line, `#` escaped (it would start a directive).
fn tap_text(s: &str) -> String {
    sanitize(s).replace('\\', "\\\\").replace('#', "\\#")
}

/// A string as a YAML double-quoted scalar on one line, upstream text
/// sanitised first (no control character reaches a YAML reader, which
/// would decode a `\u001b` escape into a real ESC).
fn yaml_str(v: &str) -> String {
    Value::from(sanitize(v)).to_string()
}

/// A JSON value as YAML under `indent` spaces, every string through
/// [`yaml_str`]: a map as `key: value` lines (keys quoted), anything nested
/// deeper as one quoted line of JSON. The shape both Perl's TAP::Parser
/// YAMLish reader and YAML 1.2 readers take.
fn yaml_map(s: &mut String, map: &serde_json::Map<String, Value>, indent: usize) {
    for (k, v) in map {
        let value = match v {
            Value::String(t) => yaml_str(t),
            Value::Null => "~".to_string(),
            Value::Bool(_) | Value::Number(_) => v.to_string(),
            other => yaml_str(&other.to_string()),
        };
        let _ = writeln!(s, "{:indent$}{}: {value}", "", yaml_str(k));
    }
}

/// TAP version 13 (which Perl's `prove` reads; TAP 14 readers read it
/// too): one test point per stream; failures carry a YAML block whose
/// values are quoted scalars and maps, never `rule: message` text.
fn tap(entries: &[Entry], own: &[Own], note: Option<&str>) -> String {
    let mut s = String::from("TAP version 13\n");
    // Never empty: no stream at all is aoi's own failing point. Reading as
    // a log is a skipped point, as in JUnit.
    let _ = writeln!(
        s,
        "1..{}",
        entries.len() + own.len() + usize::from(note.is_some())
    );
    for (i, e) in entries.iter().enumerate() {
        let mut desc = e.source.clone();
        if let Some(r) = &e.run {
            let _ = write!(desc, " run {r}");
        }
        let _ = write!(
            desc,
            ": {} {}",
            e.tool().unwrap_or("(unnamed tool)"),
            e.outcome
        );
        if e.exit_code == 0 {
            let _ = writeln!(s, "ok {} - {}", i + 1, tap_text(&desc));
            if let Some(n) = e.checks_note() {
                let _ = writeln!(s, "  ---\n  checks: {}\n  ...", yaml_str(&n));
            }
            continue;
        }
        let _ = writeln!(
            s,
            "not ok {} - {} (exit {})",
            i + 1,
            tap_text(&desc),
            e.exit_code
        );
        s.push_str("  ---\n");
        let _ = writeln!(s, "  outcome: {}", yaml_str(e.outcome.name()));
        let _ = writeln!(s, "  exit_code: {}", e.exit_code);
        let _ = writeln!(s, "  reason: {}", yaml_str(&e.reason));
        if let Some(c) = e.caused_by.as_ref().and_then(Value::as_object) {
            s.push_str("  caused_by:\n");
            yaml_map(&mut s, c, 4);
        }
        let _ = writeln!(s, "  lines: {}", e.lines);
        let _ = writeln!(s, "  errors: {}", e.errors);
        let _ = writeln!(s, "  violations: {}", e.violations);
        if let Some(n) = e.checks_note() {
            let _ = writeln!(s, "  checks: {}", yaml_str(&n));
        }
        if !e.findings.is_empty() {
            s.push_str("  findings:\n");
            for f in &e.findings {
                // `rule.id: message`, as aoi words it: a map of the two.
                let (rule, message) = f.split_once(": ").unwrap_or(("", f));
                let _ = writeln!(
                    s,
                    "    - rule: {}\n      message: {}",
                    yaml_str(rule),
                    yaml_str(message)
                );
            }
        }
        s.push_str("  ...\n");
    }
    for (i, o) in own.iter().enumerate() {
        let _ = writeln!(
            s,
            "not ok {} - {}: {} (exit {})",
            entries.len() + i + 1,
            tap_text(&o.target),
            tap_text(&o.code),
            o.exit
        );
        let _ = writeln!(s, "  ---\n  message: {}\n  ...", yaml_str(&o.message));
    }
    if let Some(n) = note {
        let _ = writeln!(
            s,
            "ok {} - {} # SKIP not AOI events are not judged",
            entries.len() + own.len() + 1,
            tap_text(n)
        );
    }
    let _ = writeln!(s, "# {}", tap_text(&summary_line(entries)));
    s
}
