//! The report being built: one entry per stream, aoi's own failures, what
//! reading as a log passed over, and the [`Standing`] they add up to. In
//! `--format jsonl` each entry is written as it comes; the
//! other formats need every entry at once (column widths, failed runs
//! first, counts before the cases) and keep them.

use std::io::{self, Write};
use std::path::Path;

use super::entry::{Entry, Own};
use super::files::FileRead;
use super::jsonl::JsonlReport;
use super::standing::Standing;
use super::targets::{JsonlOut, Target};
use super::words::why_line;
use super::{Taken, junit, markdown, table, tap};
use crate::cli::{MergeArgs, MergeFormat};
use crate::demux;
use crate::out::{Logs, budget, eprint_line, eprint_safe, stop_code};
use crate::spec::exit::Code;

pub(super) struct Merged {
    /// Kept for the formats written at the end (not jsonl), when asked.
    entries: Vec<Entry>,
    keep: bool,
    /// When the report began (ms since the epoch), for CTRF.
    start: u64,
    /// The jsonl report, written as entries come.
    jsonl: Option<JsonlReport>,
    standing: Standing,
    own: Vec<Own>,
    log: demux::Counts,
    /// Entries of the input being taken.
    input_entries: u64,
    /// `--log`, `--max-runs`, as resolved.
    logs: Logs,
}

impl Merged {
    /// A report written as jsonl to `jsonl` as runs end, and kept
    /// (`keep`) for the other formats.
    pub(super) fn new(jsonl: Option<JsonlOut>, keep: bool, logs: Logs) -> Merged {
        Merged {
            entries: Vec::new(),
            keep,
            start: super::ctrf::now_ms(),
            jsonl: jsonl.map(JsonlReport::start),
            standing: Standing::default(),
            own: Vec::new(),
            log: demux::Counts::default(),
            input_entries: 0,
            logs,
        }
    }

    /// Takes a judged input, or a run of it that ended, into the report,
    /// saying on stderr what the report cannot show; false once the
    /// report cannot be written any more.
    pub(super) fn take(&mut self, path: &Path, read: FileRead, args: &MergeArgs) -> bool {
        let source = path.display().to_string();
        let (g, taken, counts) = match read {
            FileRead::Part(t) => return self.add(*t, args),
            FileRead::BlockEnd => return self.jsonl.as_mut().is_none_or(JsonlReport::flush),
            FileRead::Judged { g, taken, counts } => (g, taken, counts),
            FileRead::Stopped => return true,
            FileRead::Unreadable(msg) => {
                eprint_line(args.quiet, &format!("aoi merge-report: {msg}"));
                let own = Own::new("not_found", "INPUT_UNREADABLE", msg, source, Code::NOINPUT);
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
            if let Some(report) = &mut self.jsonl {
                writing &= report.entry(&e, &self.standing);
            }
            if self.keep {
                self.entries.push(e);
            }
        }
        writing
    }

    /// aoi's own failures of an input: runs past `--max-runs` not judged,
    /// or no AOI stream at all.
    fn limits(&mut self, source: &str, counts: &demux::Counts, any: bool, args: &MergeArgs) {
        if let Some(msg) = counts.past_cap(self.logs.max_runs, "read") {
            eprint_line(args.quiet, &format!("aoi merge-report: {source}: {msg}"));
            self.own.push(Own::new(
                "io",
                "TOO_MANY_RUNS",
                msg,
                source.to_string(),
                Code::IOERR,
            ));
        } else if !any {
            let msg = format!("no AOI stream in {source}");
            eprint_line(args.quiet, &format!("aoi merge-report: {msg}"));
            self.own.push(Own::new(
                "io",
                "NO_AOI_STREAM",
                msg,
                source.to_string(),
                Code::IOERR,
            ));
        }
    }

    /// The most severe exit of every stream and of aoi's own failures.
    fn code(&self) -> Code {
        let worst = self.standing.worst().map_or(Code::OK, |w| w.1);
        self.own.iter().map(|o| o.exit).fold(worst, Code::worst)
    }

    /// Ends the report in every format asked for: jsonl (written as runs
    /// ended) first, then the others in the order given; returns the one
    /// exit status.
    pub(super) fn write(mut self, args: &MergeArgs, targets: Vec<Target>, tty: bool) -> Code {
        let code = self.code();
        if let Some(line) = budget::closing("merge-report", "--format jsonl") {
            eprint_line(args.quiet, &line);
        }
        let good = match args.no_fail && code != Code::NOINPUT {
            true => Code::OK,
            false => code,
        };
        // The first write that failed decides the exit (a closed stdout
        // quietly, a file said); the verdict's otherwise.
        let mut failed = None;
        if let Some(report) = self.jsonl.take() {
            let r = report.finish(args, &self.own, code, &self.standing, &self.log);
            failed = (r != good).then_some(r);
        }
        let mut on_terminal_table = false;
        for mut t in targets
            .into_iter()
            .filter(|t| t.format != MergeFormat::Jsonl)
        {
            let text = self.text(args, t.format, tty && t.on_stdout(), code);
            on_terminal_table |= tty && t.on_stdout() && t.format == MergeFormat::Table;
            if let Err(stop) = t.write(&text) {
                failed.get_or_insert_with(|| stop_code("merge-report", &stop));
            }
        }
        match failed {
            Some(r) => r,
            None => {
                // The table on a terminal already ends with the verdict.
                if !on_terminal_table {
                    say_why(args, &self.standing, code);
                }
                good
            }
        }
    }

    /// The whole report in one of the formats written at the end;
    /// `tty`: for a terminal.
    fn text(&self, args: &MergeArgs, format: MergeFormat, tty: bool, code: Code) -> String {
        let (entries, own) = (&self.entries, &self.own);
        // Stated in every format whenever lines were read as a log, here or
        // by a report merged in (leniency shows).
        let log = &self.log;
        let note = (self.logs.log || log.skipped > 0 || log.trimmed > 0).then(|| log.log_note());
        let note = note.as_deref();
        match format {
            MergeFormat::Table => {
                let color = args.color.enabled(tty);
                table(entries, &self.standing, own, code, color, note)
            }
            MergeFormat::Markdown => markdown::markdown(entries, &self.standing, own, code, note),
            MergeFormat::Junit => junit(entries, own, note),
            MergeFormat::Ctrf => {
                super::ctrf::ctrf(entries, &self.standing, own, code, note, self.start)
            }
            _ => tap(entries, &self.standing, own, note),
        }
    }
}

/// Why the exit is non-zero, in one line on stderr, where the report may
/// be in a file (every non-zero exit says why).
fn say_why(args: &MergeArgs, standing: &Standing, code: Code) {
    if code != Code::OK && !args.quiet {
        eprint_safe(
            false,
            &format!("aoi merge-report: {}", why_line(standing, code)),
        );
    }
}
