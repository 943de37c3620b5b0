//! What lint writes: the table for people (every check, the factors ×
//! commands matrix, the failures with their evidence, the verdict), or
//! with `--output jsonl` a conforming stream of `aoi:check` events (§ 8.3);
//! and on stderr, why the exit is not 0. The tool's text (its command,
//! its output in the evidence, its messages) is made safe where it is
//! written, once per format: the table as [`Text`], each event's fields
//! at once, the stderr line ([`say`]).

use std::fmt::Write as _;
use std::io::{self, IsTerminal};

use serde_json::{Value, json};

use super::catalog::{FACTORS, check_factors, check_name};
use super::result::{CheckResult, Status};
use crate::cli::{Format, LintArgs};
use crate::emit::{Reason, Summary};
use crate::out::{Sinks, Stop, Text, eprint_safe, safe_json};

/// One line on stderr, made safe for a terminal (the tool's words and
/// output may be in it), unless `quiet`.
pub(super) fn say(quiet: bool, line: &str) {
    eprint_safe(quiet, line);
}
use crate::spec::exit::Code;
use crate::spec::types;

/// What was linted: the title, every result, the commands in order.
pub(super) struct Linted {
    pub(super) title: String,
    pub(super) results: Vec<CheckResult>,
    pub(super) commands: Vec<String>,
    /// How many times lint ran the tool, discovery included.
    pub(super) runs: usize,
}

/// Writes the report of `linted`; returns the exit status.
pub(super) fn report(args: &LintArgs, linted: &Linted, sinks: Option<Sinks>) -> Code {
    let results = &linted.results;
    let failed = results.iter().filter(|o| o.status == Status::Fail).count();
    let code = if failed > 0 { Code::FAILED } else { Code::OK };
    let tty = io::stdout().is_terminal();
    // Every non-zero exit says why on stderr, where the report may be in a
    // file; the table on a terminal already ends with it.
    let table_here = tty && args.output != Some(Format::Jsonl);
    if failed > 0 && !args.quiet && !table_here {
        let first = results.iter().find(|o| o.status == Status::Fail);
        let what = first.map_or_else(String::new, |o| {
            format!(
                "; the first: check {} ({}): {}",
                o.number, o.command, o.detail
            )
        });
        say(
            false,
            &format!("aoi lint: exit 1: {failed} check(s) failed{what}"),
        );
    }
    if let Some(sinks) = sinks {
        return write_jsonl(linted, code, sinks);
    }
    let color = args.color.enabled(tty);
    let text = table(linted, color);
    match crate::out::print_stdout("lint", &text) {
        Code::OK => code,
        other => other,
    }
}

/// The colour of a status.
fn sgr(status: Status) -> &'static str {
    match status {
        Status::Pass => "32",
        Status::Fail => "31;1",
        Status::NotTested => "33",
        Status::NotApplicable => "2",
    }
}

/// The human report: every check, the factors × commands matrix, the
/// failures with their evidence, and the verdict.
fn table(linted: &Linted, color: bool) -> String {
    let (title, results, commands, runs) = (
        &linted.title,
        &linted.results,
        &linted.commands,
        linted.runs,
    );
    let mut s = Text::default();
    let _ = write!(s, "aoi lint: {title}");
    s.line_break();
    s.line_break();
    let _ = write!(
        s,
        "  {:>2}  {:<22} {:<14} {:<11} detail",
        "#", "check", "command", "result"
    );
    s.line_break();
    for o in results {
        let status = format!("{:<11}", o.status.name());
        let _ = write!(
            s,
            "  {:>2}  {:<22} {:<14} ",
            o.number,
            check_name(o.number),
            o.command
        );
        s.painted(color, sgr(o.status), &status);
        let _ = write!(s, " {}", o.detail);
        s.line_break();
    }
    factor_matrix(&mut s, results, commands, color);
    failures(&mut s, results);
    let count = |st: Status| results.iter().filter(|o| o.status == st).count();
    s.line_break();
    let _ = write!(
        s,
        "aoi lint: {} check(s) failed, {} passed, {} not tested, {} not applicable; the tool ran {} time(s)",
        count(Status::Fail),
        count(Status::Pass),
        count(Status::NotTested),
        count(Status::NotApplicable),
        runs
    );
    s.line_break();
    s.into_string()
}

/// The factors × commands matrix: a factor shows the highest status of
/// its checks for the command ([`Status::rank`]).
fn factor_matrix(s: &mut Text, results: &[CheckResult], commands: &[String], color: bool) {
    s.line_break();
    s.push("factors × commands (a factor holds for a command when one of its checks ran and passed, and none failed)");
    s.line_break();
    let width = commands.iter().map(|c| c.len()).max().unwrap_or(0).max(10);
    let _ = write!(s, "  {:<13}", "factor");
    for c in commands {
        let _ = write!(s, " {c:<width$}");
    }
    s.line_break();
    for f in FACTORS {
        let _ = write!(s, "  {f:<13}");
        for c in commands {
            let st = results
                .iter()
                .filter(|o| {
                    (o.command == *c || o.command == "*") && check_factors(o.number).contains(f)
                })
                .map(|o| o.status)
                .max_by_key(|s| s.rank())
                .unwrap_or(Status::NotApplicable);
            let cell = format!("{:<width$}", st.name());
            s.push(" ");
            s.painted(color, sgr(st), &cell);
        }
        s.line_break();
    }
}

/// The failed checks with up to five lines of evidence each.
fn failures(s: &mut Text, results: &[CheckResult]) {
    let failures: Vec<&CheckResult> = results
        .iter()
        .filter(|o| o.status == Status::Fail)
        .collect();
    if failures.is_empty() {
        return;
    }
    s.line_break();
    s.push("failed checks");
    s.line_break();
    for o in &failures {
        let _ = write!(
            s,
            "  {} {} ({}): {}",
            o.number,
            check_name(o.number),
            o.command,
            o.detail
        );
        s.line_break();
        for e in o.evidence.iter().take(5) {
            let _ = write!(s, "      {e}");
            s.line_break();
        }
    }
}

/// `--output jsonl`: a conforming stream of `aoi:check` events (§ 8.3),
/// one per (check × command), and a summary.
fn write_jsonl(linted: &Linted, code: Code, mut sinks: Sinks) -> Code {
    let results = &linted.results;
    let r = (|| -> Result<(), Stop> {
        for o in results {
            check_event(&mut sinks, o)?;
        }
        let count = |st: Status| results.iter().filter(|o| o.status == st).count();
        let summary = if code.is_ok() {
            Summary::ok()
        } else {
            Summary::failed(Reason::Failed)
        };
        sinks.out.finish(&summary.field(
            "properties",
            json!({
                "checks": results.len(),
                "passed": count(Status::Pass),
                "failed": count(Status::Fail),
                "not_tested": count(Status::NotTested),
                "not_applicable": count(Status::NotApplicable),
                "runs": linted.runs,
                "exit_code": code,
            }),
        ))
    })();
    match r {
        Ok(()) => code,
        Err(stop) => sinks.end("lint", stop),
    }
}

/// One result as an `aoi:check` event: a failure an error, a check not
/// tested a warning.
fn check_event(sinks: &mut Sinks, o: &CheckResult) -> Result<(), Stop> {
    let severity = match o.status {
        Status::Fail => "error",
        Status::NotTested => "warning",
        _ => "info",
    };
    let status = match o.status {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::NotApplicable => "not_applicable",
        Status::NotTested => "not_tested",
    };
    // The tool's words, made safe for every reader at once.
    let mut fields: [(&str, Value); 5] = [
        (
            "name",
            format!("{}.{}", o.number, check_name(o.number)).into(),
        ),
        ("ok", (o.status != Status::Fail).into()),
        ("severity", severity.into()),
        ("detail", o.detail.as_str().into()),
        (
            "properties",
            json!({
                "check": o.number,
                "factors": check_factors(o.number),
                "command": o.command,
                "status": status,
                "evidence": o.evidence,
            }),
        ),
    ];
    fields.iter_mut().for_each(|(_, v)| safe_json(v));
    sinks.out.event(types::CHECK, &fields)
}
