//! The report as JUnit XML (`--format junit`): a testsuite per stream,
//! ASCII only (other characters as character references), valid against
//! the xUnit `junit-10.xsd`.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use serde_json::Value;

use super::entry::{Check, Entry, Own, cause_text, worst_first};
use crate::judge::Outcome;
use crate::out::sanitize;

/// `&`, `<` or `>` as the entity both HTML (Markdown) and XML read.
pub(super) fn push_entity(out: &mut String, c: char) {
    out.push_str(match c {
        '&' => "&amp;",
        '<' => "&lt;",
        _ => "&gt;",
    });
}

/// XML text or attribute value: escaped, control characters replaced.
pub(super) fn xml(s: &str) -> String {
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

pub(super) fn suite_name(e: &Entry) -> String {
    let mut n = e.who();
    if let Some(t) = e.tool() {
        let _ = write!(n, " ({t})");
    }
    n
}

/// JUnit XML (the format most CI systems read): a testsuite per stream,
/// worst first, each testcase named by the stream's file and run (a CI
/// viewer shows one row per run, never a column of identical names): one
/// for the stream's outcome (a `failure` when the run failed, an `error`
/// when the stream itself is broken or cut; its counts in `system-out`),
/// one per `aoi:check` (see [`check_cases`]), and one saying how many
/// checks were not kept.
pub(super) fn junit(entries: &[Entry], own: &[Own], note: Option<&str>) -> String {
    let mut suites = String::new();
    let mut all = Counts::default();
    for e in worst_first(entries) {
        all.add(suite(&mut suites, e));
    }
    for o in own {
        all.add(Counts {
            tests: 1,
            errors: 1,
            ..Counts::default()
        });
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">\n    <testcase classname=\"aoi\" name=\"{}\">\n      <error message=\"{}\" type=\"{}\"/>\n    </testcase>\n  </testsuite>\n",
            xml(&o.target),
            // Named by its input, as a stream's testcase is: two
            // unreadable files are two rows a viewer tells apart.
            xml(&own_case_name(o)),
            xml(&o.message),
            xml(&o.code)
        );
    }
    // Reading as a log: a skipped testcase, which CI systems show.
    if let Some(n) = note {
        all.tests += 1;
        let _ = write!(
            suites,
            "  <testsuite name=\"aoi --log\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0.000\">\n    <testcase classname=\"aoi\" name=\"lines read as a log\">\n      <skipped message=\"{}\"/>\n    </testcase>\n  </testsuite>\n",
            xml(n)
        );
    }
    // `testsuites` has no `skipped` in junit-10.xsd: each testsuite says it.
    let Counts {
        tests,
        failures,
        errors,
        ..
    } = all;
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"aoi merge-report\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n{suites}</testsuites>\n"
    )
}

/// A testsuite's or the whole report's counts.
#[derive(Default, Clone, Copy)]
struct Counts {
    tests: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.tests += o.tests;
        self.failures += o.failures;
        self.errors += o.errors;
        self.skipped += o.skipped;
    }
}

/// Writes one stream's testsuite into `suites`; its counts.
fn suite(suites: &mut String, e: &Entry) -> Counts {
    let classname = xml(e.tool().unwrap_or("aoi"));
    let who = xml(&e.who());
    let time = e.elapsed_ms.map_or(0.0, |ms| ms / 1000.0);
    let mut cases = String::new();
    let mut n = outcome_case(&mut cases, e, &classname, &who, time);
    n.add(check_cases(&mut cases, e, &classname, &who));
    let Counts {
        tests,
        failures,
        errors,
        skipped,
    } = n;
    let _ = write!(
        suites,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time:.3}\">\n{cases}  </testsuite>\n",
        xml(&suite_name(e))
    );
    n
}

/// The testcase of the stream's outcome, named by its file and run: a
/// `failure` when the run failed, an `error` when the stream is broken or
/// cut, its message the cause (the first finding and how many others);
/// its counts in `system-out` whatever the outcome.
fn outcome_case(cases: &mut String, e: &Entry, classname: &str, who: &str, time: f64) -> Counts {
    let mut n = Counts {
        tests: 1,
        ..Counts::default()
    };
    let _ = writeln!(
        cases,
        "    <testcase classname=\"{classname}\" name=\"{who}\" time=\"{time:.3}\">"
    );
    let cause = e.cause_cell();
    let message = xml(if cause.is_empty() { &e.reason } else { &cause });
    match e.outcome {
        Outcome::Ok => {}
        Outcome::Violation | Outcome::Incomplete => {
            n.errors += 1;
            // One finding a line (a line feed is text in an element, where
            // xml() would replace it as a control character).
            let detail: Vec<String> = e.findings.iter().map(|f| xml(f)).collect();
            let _ = writeln!(
                cases,
                "      <error message=\"{message}\" type=\"{}\">{}</error>",
                xml(e.outcome.name()),
                detail.join("\n")
            );
        }
        _ => {
            n.failures += 1;
            let ty = e
                .caused_by
                .as_ref()
                .map(|c| {
                    let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
                    format!("{}/{}", s("category"), s("code"))
                })
                .unwrap_or_else(|| e.outcome.name().to_string());
            let _ = writeln!(
                cases,
                "      <failure message=\"{message}\" type=\"{}\">{}</failure>",
                xml(&ty),
                xml(&format!("reason {}: {}", e.reason, cause_text(e)))
            );
        }
    }
    let _ = writeln!(
        cases,
        "      <system-out>{}, exit {}: {} line(s), {} domain event(s), {}</system-out>\n    </testcase>",
        xml(e.outcome.name()),
        e.exit_code,
        e.lines,
        e.domain,
        xml(&e.counts())
    );
    n
}

/// A testcase per kept `aoi:check`, named by the stream and the check, and
/// one for those past the cap; their counts. A check not run (`aoi lint`'s
/// not tested, not applicable) is `skipped`. A failed check of error
/// severity is a `failure` in a run that failed; a run that passed, or a
/// failed warning, shows it in `system-out` and passes: JUnit fails a CI
/// job exactly when the exit does (see DECISIONS).
fn check_cases(cases: &mut String, e: &Entry, classname: &str, who: &str) -> Counts {
    let mut n = Counts::default();
    let run_failed = !e.exit_code.is_ok();
    for (c, name) in e.checks.iter().zip(check_names(&e.checks)) {
        n.tests += 1;
        let _ = write!(
            cases,
            "    <testcase classname=\"{classname}.checks\" name=\"{who}: {}\">",
            xml(&name)
        );
        let detail = xml(c.detail.as_deref().unwrap_or(""));
        let severity = xml(c.severity.as_deref().unwrap_or("error"));
        if c.not_run() {
            n.skipped += 1;
            let status = xml(c.status.as_deref().unwrap_or("not_tested"));
            let _ = write!(cases, "<skipped message=\"{status}: {detail}\"/>");
        } else if c.fails() && run_failed {
            n.failures += 1;
            let _ = write!(
                cases,
                "<failure message=\"{detail}\" type=\"aoi:check {severity}\"/>"
            );
        } else if !c.ok {
            let _ = write!(
                cases,
                "<system-out>ok:false, severity {severity}: {}</system-out>",
                if detail.is_empty() {
                    "check failed"
                } else {
                    &detail
                }
            );
        }
        cases.push_str("</testcase>\n");
    }
    if e.checks_dropped > 0 {
        n.tests += 1;
        let _ = write!(
            cases,
            "    <testcase classname=\"{classname}.checks\" name=\"{who}: more aoi:check events\">\n      <system-out>{} more aoi:check event(s), past the {} kept per stream</system-out>\n    </testcase>\n",
            e.checks_dropped,
            e.checks.len()
        );
    }
    n
}

/// The testcase name of aoi's own failure: its input and code
/// (`runs/b.jsonl: INPUT_UNREADABLE`).
fn own_case_name(o: &Own) -> String {
    if o.target.is_empty() {
        o.code.clone()
    } else {
        format!("{}: {}", o.target, o.code)
    }
}

/// Each check's testcase name, unique in its stream: the check's name,
/// what it ran on (`aoi lint` names the tool's command: `2.typed-output
/// (search)`), and `#2`, `#3` for a name said again, so a CI viewer never
/// shows two rows it cannot tell apart.
fn check_names(checks: &[Check]) -> Vec<String> {
    let base: Vec<String> = checks
        .iter()
        .map(|c| match &c.command {
            Some(cmd) => format!("{} ({cmd})", c.name),
            None => c.name.clone(),
        })
        .collect();
    let mut times: HashMap<&str, usize> = HashMap::new();
    for b in &base {
        *times.entry(b).or_default() += 1;
    }
    let mut used: HashSet<String> = base
        .iter()
        .filter(|b| times[b.as_str()] == 1)
        .cloned()
        .collect();
    let mut next: HashMap<&str, usize> = HashMap::new();
    base.iter()
        .map(|b| {
            if times[b.as_str()] == 1 {
                return b.clone();
            }
            let k = next.entry(b).or_default();
            loop {
                *k += 1;
                let name = format!("{b} #{k}");
                if used.insert(name.clone()) {
                    return name;
                }
            }
        })
        .collect()
}
