//! The report being built: one entry per stream, aoi's own failures, what
//! reading as a log passed over, and the [`Standing`] they add up to. In
//! `--format jsonl` each entry is written as it comes (issue 29); the
//! other formats need every entry at once (column widths, failed runs
//! first, counts before the cases) and keep them.

use std::io::{self, Write};
use std::path::Path;

use super::entry::{Entry, Own};
use super::files::FileRead;
use super::jsonl::JsonlReport;
use super::standing::Standing;
use super::words::why_line;
use super::{Taken, junit, markdown, table, tap};
use crate::cli::{MergeArgs, MergeFormat};
use crate::demux;
use crate::out::{budget, eprint_line, stdout_writer, stop_code, write_err};
use crate::spec::exit;

pub(super) struct Merged {
    /// Kept for the formats written at the end (not jsonl).
    entries: Vec<Entry>,
    /// The jsonl report, written as entries come.
    jsonl: Option<JsonlReport>,
    standing: Standing,
    own: Vec<Own>,
    log: demux::Counts,
    /// Entries of the input being taken.
    input_entries: u64,
}

impl Merged {
    pub(super) fn new(format: MergeFormat) -> Merged {
        Merged {
            entries: Vec::new(),
            jsonl: (format == MergeFormat::Jsonl).then(JsonlReport::start),
            standing: Standing::default(),
            own: Vec::new(),
            log: demux::Counts::default(),
            input_entries: 0,
        }
    }

    /// Takes a judged input, or a run of it that ended, into the report,
    /// saying on stderr what the report cannot show; false once the
    /// report cannot be written any more.
    pub(super) fn take(&mut self, path: &Path, read: FileRead, args: &MergeArgs) -> bool {
        let source = path.display().to_string();
        let (g, taken, counts) = match read {
            FileRead::Part(t) => return self.add(*t, args),
            FileRead::Whole { parts, rest } => {
                for part in parts {
                    let read = match part {
                        Some(t) => FileRead::Part(Box::new(t)),
                        None => FileRead::BlockEnd,
                    };
                    if !self.take(path, read, args) {
                        return false;
                    }
                }
                return self.take(path, *rest, args);
            }
            FileRead::BlockEnd => return self.jsonl.as_mut().is_none_or(JsonlReport::flush),
            FileRead::Judged { g, taken, counts } => (g, taken, counts),
            FileRead::Stopped => return true,
            FileRead::Unreadable(msg) => {
                eprint_line(args.quiet, &format!("aoi merge-report: {msg}"));
                let own = Own::new("not_found", "INPUT_UNREADABLE", msg, source, exit::NOINPUT);
                self.own.push(own);
                return true;
            }
        };
        self.log.add(&counts);
        self.log.add(&g.carried_log);
        if !args.quiet && (counts.skipped > 0 || counts.trimmed > 0) {
            let note = counts.log_note();
            eprint_line(false, &format!("aoi merge-report: {source}: {note}"));
        }
        let mut writing = true;
        for t in taken {
            writing &= self.add(t, args);
        }
        self.limits(&source, &counts, self.input_entries > 0, args);
        self.input_entries = 0;
        writing
    }

    /// Adds one stream's entries and own failures; false once the report
    /// cannot be written any more.
    fn add(&mut self, t: Taken, args: &MergeArgs) -> bool {
        // A broken run is said while the --show cap lasts, then counted.
        if let Some((verdict, findings)) = t.said.split_last().filter(|_| !args.quiet) {
            if let Some(n) = budget::take(findings.len()) {
                let mut err = io::stderr().lock();
                for line in findings.iter().take(n).chain([verdict]) {
                    let _ = writeln!(err, "{line}");
                }
            }
        }
        self.own.extend(t.own);
        let mut writing = true;
        for e in t.carried.into_iter().chain(t.entry) {
            self.standing.add(&e);
            self.input_entries += 1;
            match &mut self.jsonl {
                Some(report) => writing &= report.entry(&e, &self.standing),
                None => self.entries.push(e),
            }
        }
        writing
    }

    /// aoi's own failures of an input: runs past `--max-runs` not judged,
    /// or no AOI stream at all.
    fn limits(&mut self, source: &str, counts: &demux::Counts, any: bool, args: &MergeArgs) {
        if let Some(msg) = counts.past_cap(args.logs.max_runs, "read") {
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
        let worst = self.standing.worst().map_or(exit::OK, |w| w.1);
        self.own.iter().map(|o| o.exit).fold(worst, exit::worst)
    }

    /// Ends the report in `format`; returns the exit status.
    pub(super) fn write(mut self, args: &MergeArgs, format: MergeFormat, tty: bool) -> i32 {
        let code = self.code();
        if let Some(line) = budget::closing("merge-report", "--format jsonl") {
            eprint_line(args.quiet, &line);
        }
        if let Some(report) = self.jsonl.take() {
            let r = report.finish(args, &self.own, code, &self.standing, &self.log);
            // Not after a stop (a closed pipe, a signal): that is its own exit.
            if r == code || (args.no_fail && r == exit::OK) {
                say_why(args, &self.standing, code);
            }
            return r;
        }
        let (entries, own) = (&self.entries, &self.own);
        // Stated in every format whenever lines were read as a log, here or
        // by a report merged in (issue 24: leniency shows).
        let log = &self.log;
        let note = (args.logs.log || log.skipped > 0 || log.trimmed > 0).then(|| log.log_note());
        let note = note.as_deref();
        let text = match format {
            MergeFormat::Table => {
                let color = args.color.enabled(tty);
                table(entries, &self.standing, own, code, color, note)
            }
            MergeFormat::Markdown => markdown::markdown(entries, &self.standing, own, code, note),
            MergeFormat::Junit => junit(entries, own, note),
            _ => tap(entries, &self.standing, own, note),
        };
        let mut out = stdout_writer();
        let written = out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| write_err(e, "stdout"));
        // The table on a terminal already ends with the verdict.
        if written.is_ok() && !(tty && format == MergeFormat::Table) {
            say_why(args, &self.standing, code);
        }
        match written {
            Ok(()) if args.no_fail && code != exit::NOINPUT => exit::OK,
            Ok(()) => code,
            Err(stop) => stop_code("merge-report", &stop),
        }
    }
}

/// Why the exit is non-zero, in one line on stderr, where the report may
/// be in a file (issue 24: every non-zero exit says why).
fn say_why(args: &MergeArgs, standing: &Standing, code: i32) {
    if code != exit::OK && !args.quiet {
        eprint_line(
            false,
            &format!("aoi merge-report: {}", why_line(standing, code)),
        );
    }
}
