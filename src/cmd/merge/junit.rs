//! The report as JUnit XML (`--format junit`): a testsuite per stream,
//! ASCII only (other characters as character references), valid against
//! the xUnit `junit-10.xsd`.

use std::fmt::Write as _;

use serde_json::Value;

use super::entry::cause_text;
use super::entry::{Entry, Own};
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
pub(super) fn junit(entries: &[Entry], own: &[Own], note: Option<&str>) -> String {
    let mut suites = String::new();
    let mut all = Counts::default();
    for e in entries {
        all.add(suite(&mut suites, e));
    }
    for o in own {
        all.add(Counts {
            tests: 1,
            failures: 0,
            errors: 1,
        });
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
        all.tests += 1;
        let _ = write!(
            suites,
            "  <testsuite name=\"aoi --log\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0.000\">\n    <testcase classname=\"aoi\" name=\"lines read as a log\">\n      <skipped message=\"{}\"/>\n    </testcase>\n  </testsuite>\n",
            xml(n)
        );
    }
    let Counts {
        tests,
        failures,
        errors,
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
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.tests += o.tests;
        self.failures += o.failures;
        self.errors += o.errors;
    }
}

/// Writes one stream's testsuite into `suites`; its counts.
fn suite(suites: &mut String, e: &Entry) -> Counts {
    let classname = xml(e.tool().unwrap_or("aoi"));
    let time = e.elapsed_ms.map_or(0.0, |ms| ms / 1000.0);
    let mut cases = String::new();
    let mut n = outcome_case(&mut cases, e, &classname, time);
    n.tests += check_cases(&mut cases, e, &classname);
    let Counts {
        tests,
        failures,
        errors,
    } = n;
    let _ = write!(
        suites,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"0\" time=\"{time:.3}\">\n{cases}  </testsuite>\n",
        xml(&suite_name(e))
    );
    n
}

/// The testcase of the stream's outcome: a `failure` when the run failed,
/// an `error` when the stream is broken or cut; its counts.
fn outcome_case(cases: &mut String, e: &Entry, classname: &str, time: f64) -> Counts {
    let mut n = Counts {
        tests: 1,
        failures: 0,
        errors: 0,
    };
    let _ = write!(
        cases,
        "    <testcase classname=\"{classname}\" name=\"stream outcome\" time=\"{time:.3}\""
    );
    match e.outcome {
        Outcome::Ok => cases.push_str("/>\n"),
        Outcome::Violation | Outcome::Incomplete => {
            n.errors += 1;
            // One finding a line (a line feed is text in an element, where
            // xml() would replace it as a control character).
            let detail: Vec<String> = e.findings.iter().map(|f| xml(f)).collect();
            let _ = write!(
                cases,
                ">\n      <error message=\"{}\" type=\"{}\">{}</error>\n    </testcase>\n",
                xml(&e.reason),
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
            let _ = write!(
                cases,
                ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                xml(&e.reason),
                xml(&ty),
                xml(&cause_text(e))
            );
        }
    }
    n
}

/// A testcase per kept `aoi:check`, and one for those past the cap; how
/// many. The stream's verdict is its outcome's testcase alone: a failed
/// aoi:check is shown, never counted as a failure of its own (a run that
/// passed would fail the CI job that reads JUnit).
fn check_cases(cases: &mut String, e: &Entry, classname: &str) -> u64 {
    for c in &e.checks {
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
    if e.checks_dropped == 0 {
        return e.checks.len() as u64;
    }
    let _ = write!(
        cases,
        "    <testcase classname=\"{classname}.checks\" name=\"more aoi:check events\">\n      <system-out>{} more aoi:check event(s), past the {} kept per stream</system-out>\n    </testcase>\n",
        e.checks_dropped,
        e.checks.len()
    );
    e.checks.len() as u64 + 1
}
