//! `merge-report --format FORMAT=PATH`, repeated: several formats in one
//! pass, each file byte for byte what that format alone writes (jsonl's
//! run id and times aside), at most one on stdout, one exit.

use serde_json::Value;

use crate::util::{aoi, assert_conforming_report, example, fed_back_code, parse_jsonl, scratch};

/// The inputs: a CI log (a retryable run among passing ones, read with
/// `--log`), a run file and a cut one.
fn inputs() -> Vec<String> {
    ["messy.log", "search.jsonl", "truncated.jsonl"]
        .iter()
        .map(|n| example(n))
        .collect()
}

fn merge(extra: &[&str]) -> crate::util::Out {
    let files = inputs();
    let mut a = vec!["merge-report", "--log"];
    a.extend_from_slice(extra);
    a.extend(files.iter().map(String::as_str));
    aoi(&a, b"")
}

/// A jsonl report without what differs from run to run: aoi's own run
/// id, its times.
fn steady(bytes: &[u8]) -> Vec<Value> {
    let mut events = parse_jsonl(bytes);
    for e in &mut events {
        if let Some(env) = e.get_mut("aoi").and_then(Value::as_object_mut) {
            env.remove("run");
            env.remove("t");
        }
        if let Some(o) = e.as_object_mut() {
            o.remove("elapsed_ms");
        }
    }
    events
}

#[test]
fn each_file_is_what_its_format_alone_writes() {
    let dir = scratch("several-formats");
    let path = |name: &str| dir.join(name).to_str().expect("utf-8").to_string();
    let (junit, md, tap, jsonl) = (
        path("aoi-junit.xml"),
        path("summary.md"),
        path("aoi.tap"),
        path("aoi.jsonl"),
    );
    let args = [
        format!("junit={junit}"),
        format!("markdown={md}"),
        format!("tap={tap}"),
        format!("jsonl={jsonl}"),
    ];
    let mut a: Vec<&str> = Vec::new();
    for f in &args {
        a.extend(["--format", f]);
    }
    a.extend(["--format", "table"]);
    let all = merge(&a);
    let table = merge(&["--format", "table"]);
    // One exit, the single runs' (the cut stream: 74), one verdict line.
    assert_eq!(all.code, 74, "{}", all.stderr);
    assert_eq!(table.code, 74);
    assert_eq!(all.stdout_str(), table.stdout_str(), "stdout is the table");
    assert_eq!(all.stderr, table.stderr);
    for (format, file) in [("junit", &junit), ("markdown", &md), ("tap", &tap)] {
        let alone = merge(&["--format", format]);
        assert_eq!(alone.code, 74, "{format}");
        let written = std::fs::read_to_string(file).expect("the format's file");
        assert_eq!(written, alone.stdout_str(), "{format}");
    }
    let alone = merge(&["--format", "jsonl"]);
    let written = std::fs::read(&jsonl).expect("the jsonl file");
    assert_eq!(steady(&written), steady(&alone.stdout));
    assert_conforming_report(&written, fed_back_code(74));
}

#[test]
fn jsonl_to_a_file_beside_markdown_on_stdout() {
    let dir = scratch("several-formats-jsonl");
    let jsonl = dir.join("r.jsonl").to_str().expect("utf-8").to_string();
    let arg = format!("jsonl={jsonl}");
    let out = merge(&["--format", &arg, "--format", "markdown"]);
    assert_eq!(out.code, 74, "{}", out.stderr);
    assert!(out.stdout_str().starts_with("### ❌ AOI merge report"));
    let written = std::fs::read(&jsonl).expect("the jsonl file");
    assert_conforming_report(&written, fed_back_code(74));
    // --no-fail: one exit for the whole, 0, the files still written.
    let out = merge(&["--format", &arg, "--format", "tap", "--no-fail"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout_str().starts_with("TAP version 13"));
}

#[test]
fn two_on_stdout_a_format_twice_or_a_file_not_created_fail_before_reading() {
    let out = merge(&["--format", "junit", "--format", "tap"]);
    assert_eq!(out.code, 64, "{}", out.stderr);
    assert!(
        out.stderr.contains("at most one --format on stdout"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
    let dir = scratch("several-formats-twice");
    let a = format!("tap={}", dir.join("a.tap").display());
    let b = format!("tap={}", dir.join("b.tap").display());
    let out = merge(&["--format", &a, "--format", &b]);
    assert_eq!(out.code, 64, "{}", out.stderr);
    assert!(
        out.stderr.contains("--format tap given twice"),
        "{}",
        out.stderr
    );
    let bad = format!("junit={}", dir.join("no/such/dir/j.xml").display());
    let out = merge(&["--format", &bad, "--format", "table"]);
    assert_eq!(out.code, 73, "{}", out.stderr);
    assert!(
        out.stderr.contains("cannot create report"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
    let out = merge(&["--format", "yaml=x"]);
    assert_eq!(out.code, 64);
    assert!(
        out.stderr.contains("`yaml` is not a format"),
        "{}",
        out.stderr
    );
    let out = merge(&["--format", "junit="]);
    assert_eq!(out.code, 64);
}
