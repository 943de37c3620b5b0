//! The report as CTRF (`--format ctrf`), the Common Test Report Format:
//! one JSON document that CI dashboards and GitHub test-reporting actions
//! read, checked against the `ctrf` reference implementation (npm) and its
//! JSON schema (spec version 0.0.0) in tests/cli/consumers.rs.
//!
//! One test per run. Its status follows the run's exit and nothing else,
//! so no reader that counts `failed` is more lenient than `aoi check`:
//! exit 0 is `passed`, any other exit `failed` (a cancelled, timed-out or
//! retryable run included; `rawStatus` keeps the outcome, `extra` the
//! retry advice). aoi's own failures (an unreadable input, runs past
//! `--max-runs`) are failed tests too; lines read as a log are a skipped
//! test (and the summary's `extra.log`), as every format states them.
//! No test is `other` or `pending`: a reader that counts only `failed`
//! would pass what the exit fails.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::entry::{Entry, Own};
use super::junit::suite_name;
use super::standing::Standing;
use crate::out::safe_json;
use crate::spec::exit::Code;

/// When aoi started, for the summary's `start` (ms since the epoch).
pub(super) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The CTRF document for `entries` and aoi's own failures, with the exit
/// `code`, the `--log` note and the time aoi started (`start`, ms).
pub(super) fn ctrf(
    entries: &[Entry],
    standing: &Standing,
    own: &[Own],
    code: Code,
    note: Option<&str>,
    start: u64,
) -> String {
    let mut tests: Vec<Value> = entries.iter().map(test).collect();
    tests.extend(own.iter().map(own_test));
    // Reading as a log: a skipped test, which dashboards list, as JUnit's
    // skipped testcase and TAP's SKIP point say it.
    tests.extend(note.map(|n| {
        json!({
            "name": "aoi --log: lines read as a log",
            "status": "skipped",
            "duration": 0,
            "message": n,
        })
    }));
    let count = |status: &str| tests.iter().filter(|t| t["status"] == status).count();
    let (failed, skipped) = (count("failed"), count("skipped"));
    let stop = now_ms().max(start);
    let mut extra = Map::new();
    extra.insert("exit_code".into(), code.into());
    let outcomes: Map<String, Value> = standing
        .tally()
        .into_iter()
        .map(|(o, n, _)| (o.name().to_string(), n.into()))
        .collect();
    extra.insert("outcomes".into(), Value::Object(outcomes));
    if let Some(n) = note {
        extra.insert("log".into(), n.into());
    }
    let version = env!("CARGO_PKG_VERSION");
    let mut doc = json!({
        "reportFormat": "CTRF",
        "specVersion": "0.0.0",
        "generatedBy": format!("aoi {version}"),
        "results": {
            "tool": {"name": "aoi", "version": version, "extra": {"command": "merge-report"}},
            "summary": {
                "tests": tests.len(),
                "passed": tests.len() - failed - skipped,
                "failed": failed,
                "skipped": skipped,
                "pending": 0,
                "other": 0,
                "start": start,
                "stop": stop,
                "duration": stop - start,
                "extra": extra,
            },
            "tests": tests,
        },
    });
    // The one boundary: every string made safe at once, then each trace
    // (kept as its lines until here) joined, one finding a line.
    safe_json(&mut doc);
    if let Some(tests) = doc["results"]["tests"].as_array_mut() {
        for t in tests {
            if let Some(Value::Array(lines)) = t.get("trace") {
                let lines: Vec<&str> = lines.iter().filter_map(Value::as_str).collect();
                t["trace"] = lines.join("\n").into();
            }
        }
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// One run's test: named by file, run and tool (unique in the report).
fn test(e: &Entry) -> Value {
    let passed = e.exit_code.is_ok();
    let mut t = Map::new();
    t.insert("name".into(), suite_name(e).into());
    t.insert(
        "status".into(),
        if passed { "passed" } else { "failed" }.into(),
    );
    // CTRF's duration is an integer of milliseconds; a run that does not
    // say how long it took counts 0.
    let ms = e.elapsed_ms.map_or(0, |ms| ms.max(0.0).round() as u64);
    t.insert("duration".into(), ms.into());
    t.insert("rawStatus".into(), e.outcome.name().into());
    t.insert("filePath".into(), e.source.as_str().into());
    t.insert("suite".into(), json!([e.source]));
    if !passed {
        t.insert("message".into(), message(e).into());
        if !e.findings.is_empty() {
            // Its lines, joined where the document is made safe.
            t.insert("trace".into(), json!(e.findings));
        }
    }
    t.insert("extra".into(), extra(e));
    Value::Object(t)
}

/// Why the run failed: its outcome and exit, the cause (and first
/// finding) and its reason.
fn message(e: &Entry) -> String {
    let cause = e.cause_cell();
    let mut m = format!("{}, exit {}", e.outcome.name(), e.exit_code);
    if !cause.is_empty() {
        m.push_str(": ");
        m.push_str(&cause);
    }
    if !e.reason.is_empty() {
        m.push_str(" (");
        m.push_str(&e.reason);
        m.push(')');
    }
    m
}

/// The run's figures and retry advice (from its cause, § 9.3).
fn extra(e: &Entry) -> Value {
    let mut x = Map::new();
    if let Some(r) = &e.run {
        x.insert("run".into(), r.as_str().into());
    }
    for (k, v) in &e.identity {
        if let Some(v) = v {
            x.insert((*k).into(), v.as_str().into());
        }
    }
    x.insert("exit_code".into(), e.exit_code.into());
    let retryable = e
        .caused_by
        .as_ref()
        .and_then(|c| c.get("retryable"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    x.insert("retryable".into(), retryable.into());
    if let Some(ms) = e.caused_by.as_ref().and_then(|c| c.get("retry_after_ms")) {
        x.insert("retry_after_ms".into(), ms.clone());
    }
    if let Some(c) = &e.caused_by {
        x.insert("caused_by".into(), c.clone());
    }
    x.insert("lines".into(), e.lines.into());
    x.insert("warning_count".into(), e.warnings.into());
    x.insert("error_count".into(), e.errors.into());
    x.insert("violation_count".into(), e.violations.into());
    if e.checks_failed > 0 {
        x.insert("checks_failed".into(), e.checks_failed.into());
    }
    Value::Object(x)
}

/// aoi's own failure as a failed test: it decided the exit too.
fn own_test(o: &Own) -> Value {
    json!({
        "name": format!("aoi: {}", o.target),
        "status": "failed",
        "duration": 0,
        "rawStatus": o.code,
        "message": format!("{} {} (exit {}): {}", o.category, o.code, o.exit, o.message),
        "extra": {"exit_code": o.exit, "retryable": false},
    })
}
