//! The example streams shipped in `examples/` (the README's quick start uses
//! them) keep giving their documented verdicts.

use crate::util::{check, example, report_full};

#[test]
fn shipped_examples_give_their_documented_exit_codes() {
    for (file, code) in [
        ("search.jsonl", 0),        // complete, conforming, ok:true
        ("rate-limited.jsonl", 75), // ok:false after a retryable rate_limited error
        ("truncated.jsonl", 74),    // summary cut mid-line
    ] {
        let path = example(file);
        let out = check(&["--no-relay", &path], b"");
        assert_eq!(out.code, code, "{file}: {}", out.stderr);
        let bytes = std::fs::read(&path).expect("example exists");
        // The report on it is itself conforming (checked inside report_full).
        let rep = report_full(&bytes, &[]);
        assert_eq!(rep.summary()["properties"]["exit_code"], code, "{file}");
    }
}

/// The messy log is no AOI stream for `aoi check` (prose, prefixes); the
/// verdict names the first rule it broke in stream order (line 1's prose),
/// not the first of the catalog.
#[test]
fn messy_log_names_the_first_violation_in_stream_order() {
    let out = check(&["--no-relay", &example("messy.log")], b"");
    assert_eq!(out.code, 65);
    assert!(
        out.stderr.contains("first: line.not-json"),
        "{}",
        out.stderr
    );
}
