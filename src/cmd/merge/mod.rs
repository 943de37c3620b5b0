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
use std::io::{self, IsTerminal, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cli::{MergeArgs, MergeFormat};
use crate::demux;
use crate::out::{
    eprint_line, finding_line, install_cancel, sanitize, source_for, stdout_writer, stop_code,
    verdict_line, write_err,
};

mod entry;
mod files;
mod jsonl;
mod junit;
mod markdown;
mod table;
mod tap;
mod words;

use crate::emit::SCHEMA_NAME;
use crate::judge::Outcome;
use crate::peek::span;
use crate::spec::exit;
use entry::cap;
use entry::{Check, Checks, Entry, MAX_CHECKS, MAX_TEXT, Own, SHOWN};
use files::FileRead;
use jsonl::write_jsonl;
use junit::junit;
use table::table;
use tap::tap;
use words::{short_run, summary_line, verdict_word, why_line};

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
    let inputs = match inputs(args) {
        Ok(inputs) => inputs,
        Err((code, msg)) => {
            eprint_line(false, &format!("aoi merge-report: {msg}"));
            return code;
        }
    };
    let named = !args.files.is_empty() || args.files_from.is_some();
    crate::out::say_reading_terminal("merge-report", named, args.quiet);
    let mut merged = Merged::default();
    files::each_judged(&inputs, args, |path, read| {
        // Stopped by SIGINT/SIGTERM: what was read whole before the stop
        // is reported, then the report says cancelled.
        if matches!(read, FileRead::Stopped) {
            return false;
        }
        merged.take(path, read, args);
        true
    });
    merged.write(args, format, tty)
}

/// The inputs: the FILEs, then the names `--files-from` lists (one per
/// line, empty lines skipped); stdin when there are none. An unreadable
/// or empty list is an error (66), stdin as both list and input a usage
/// error (64).
fn inputs(args: &MergeArgs) -> Result<Vec<PathBuf>, (i32, String)> {
    let mut inputs = args.files.clone();
    if let Some(list) = &args.files_from {
        let text = if list == Path::new("-") {
            let mut buf = Vec::new();
            io::stdin().read_to_end(&mut buf).map(|_| buf)
        } else {
            std::fs::read(list)
        };
        let text = text.map_err(|e| {
            let msg = format!("cannot read --files-from {}: {e}", list.display());
            (exit::NOINPUT, msg)
        })?;
        let names = text
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
        inputs.extend(
            names
                .filter(|l| !l.is_empty())
                .map(|l| PathBuf::from(std::ffi::OsStr::from_bytes(l))),
        );
        // stdin is read once: as the list, it cannot also be an input.
        if list == Path::new("-") && inputs.iter().any(|p| p == Path::new("-")) {
            let msg = "stdin (-) is the --files-from list; it cannot also be an input";
            return Err((exit::USAGE, msg.into()));
        }
        // An empty list is no input, never an empty report that passes.
        if inputs.is_empty() {
            return Err((
                exit::NOINPUT,
                format!("--files-from {} names no file", list.display()),
            ));
        }
    } else if inputs.is_empty() {
        inputs.push(PathBuf::from("-"));
    }
    Ok(inputs)
}

/// The report being built: one entry per stream, aoi's own failures, and
/// what reading as a log passed over, summed over the inputs.
#[derive(Default)]
struct Merged {
    entries: Vec<Entry>,
    own: Vec<Own>,
    log: demux::Counts,
}

impl Merged {
    /// Takes one judged input into the report, saying on stderr what the
    /// report cannot show.
    fn take(&mut self, path: &Path, read: FileRead, args: &MergeArgs) {
        let source = path.display().to_string();
        let (mut g, streams, counts) = match read {
            FileRead::Judged { g, streams, counts } => (g, streams, counts),
            FileRead::Stopped => return,
            FileRead::Unreadable(msg) => {
                eprint_line(args.quiet, &format!("aoi merge-report: {msg}"));
                let own = Own::new("not_found", "INPUT_UNREADABLE", msg, source, exit::NOINPUT);
                self.own.push(own);
                return;
            }
        };
        self.log.add(&counts);
        self.log.add(&g.carried_log);
        if !args.quiet && (counts.skipped > 0 || counts.trimmed > 0) {
            let note = counts.log_note();
            eprint_line(false, &format!("aoi merge-report: {source}: {note}"));
        }
        let before = self.entries.len();
        for st in streams {
            self.add(&source, st, &mut g, args.quiet);
        }
        self.limits(&source, &counts, self.entries.len() > before, args);
    }

    /// Adds one stream: the entries it carried when it is an earlier
    /// report, else (or when it is itself broken) its own entry.
    fn add(&mut self, source: &str, st: demux::Judged, g: &mut Gathered, quiet: bool) {
        let carried = g.carried.remove(&st.run).unwrap_or_default();
        let container = g.containers.contains(&st.run) || !carried.is_empty();
        let v = &st.verdict;
        let broken = matches!(v.outcome, Outcome::Violation | Outcome::Incomplete);
        if !quiet && broken {
            say_broken(source, &st);
        }
        self.entries.extend(carried);
        self.own
            .extend(g.carried_own.remove(&st.run).unwrap_or_default());
        if !container || broken {
            let checks = g.checks.remove(&st.run).unwrap_or_default();
            let entry = Entry::from_verdict(source, st.run.clone(), v, checks, &st.findings);
            self.entries.push(entry);
        }
    }

    /// aoi's own failures of an input: runs past `--max-runs` not judged,
    /// or no AOI stream at all.
    fn limits(&mut self, source: &str, counts: &demux::Counts, any: bool, args: &MergeArgs) {
        if counts.untracked > 0 {
            let msg = format!(
                "more than --max-runs {} runs: {} line(s) of further runs were not judged",
                args.logs.max_runs, counts.untracked
            );
            eprint_line(args.quiet, &format!("aoi merge-report: {source}: {msg}"));
            self.own.push(Own::new(
                "io",
                "TOO_MANY_RUNS",
                msg,
                source.to_string(),
                exit::IOERR,
            ));
        } else if !any {
            let msg = format!("no AOI stream in {source}");
            eprint_line(args.quiet, &format!("aoi merge-report: {msg}"));
            self.own.push(Own::new(
                "io",
                "NO_AOI_STREAM",
                msg,
                source.to_string(),
                exit::IOERR,
            ));
        }
    }

    /// The most severe exit of every stream and of aoi's own failures.
    fn code(&self) -> i32 {
        self.own
            .iter()
            .map(|o| o.exit)
            .chain(self.entries.iter().map(|e| e.exit_code))
            .fold(exit::OK, exit::worst)
    }

    /// Writes the report in `format`; returns the exit status.
    fn write(&self, args: &MergeArgs, format: MergeFormat, tty: bool) -> i32 {
        let (entries, own, code) = (&self.entries, &self.own, self.code());
        if format == MergeFormat::Jsonl {
            let r = write_jsonl(args, entries, own, code, &self.log);
            // Not after a stop (a closed pipe, a signal): that is its own exit.
            if r == code || (args.no_fail && r == exit::OK) {
                say_why(args, entries, code);
            }
            return r;
        }
        // Stated in every format whenever lines were read as a log, here or
        // by a report merged in (issue 24: leniency shows).
        let log = &self.log;
        let note = (args.logs.log || log.skipped > 0 || log.trimmed > 0).then(|| log.log_note());
        let note = note.as_deref();
        let text = match format {
            MergeFormat::Table => {
                let color = args.color.enabled(tty);
                table(entries, own, code, color, note)
            }
            MergeFormat::Markdown => markdown::markdown(entries, own, code, note),
            MergeFormat::Junit => junit(entries, own, note),
            _ => tap(entries, own, note),
        };
        let mut out = stdout_writer();
        let written = out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| write_err(e, "stdout"));
        // The table on a terminal already ends with the verdict.
        if written.is_ok() && !(tty && format == MergeFormat::Table) {
            say_why(args, entries, code);
        }
        match written {
            Ok(()) if args.no_fail && code != exit::NOINPUT => exit::OK,
            Ok(()) => code,
            Err(stop) => stop_code("merge-report", &stop),
        }
    }
}

/// stderr: only what the report cannot show, why a stream is broken or
/// cut (its findings); outcomes are in the report.
fn say_broken(source: &str, st: &demux::Judged) {
    let name = match &st.run {
        Some(r) => format!("{source} run {r}"),
        None => source.to_string(),
    };
    let mut err = io::stderr().lock();
    for f in &st.findings {
        let _ = writeln!(err, "{}", finding_line(f, Some(&name)));
    }
    let _ = writeln!(
        err,
        "{}",
        verdict_line("merge-report", &st.verdict, Some(&name))
    );
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
