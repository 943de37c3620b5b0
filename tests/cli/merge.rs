//! `aoi merge-report`: many runs, one verdict; reports of reports.

use proptest::prelude::*;
use serde_json::Value;

use crate::util::{
    RUN, aoi, assert_conforming_report, fed_back_code, normalized, parse_jsonl, s, scratch,
    write_file,
};

fn merge(args: &[&str], input: &[u8]) -> crate::util::Out {
    let mut a = vec!["merge-report"];
    a.extend_from_slice(args);
    aoi(&a, input)
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A clean stream of run `run` with `n` hits, patched summary.
fn stream(run: &str, n: usize, summary: &str) -> Vec<u8> {
    String::from_utf8(s().hits(n).summary(summary).bytes())
        .expect("test input")
        .replace(RUN, run)
        .into_bytes()
}

/// Summary patches for the property tests: ok, failed, timeout, a wrong
/// count (a violation), partial.
const PATCHES: [&str; 5] = [
    "{}",
    r#"{"ok":false,"reason":"failed"}"#,
    r#"{"ok":false,"reason":"timeout"}"#,
    r#"{"event_count":99}"#,
    r#"{"ok":true,"partial":true}"#,
];

fn run_id(i: usize) -> String {
    format!("01JZQ7X4TQ9KZ8V6R2M3N4P{i:03}")
}

/// Merges `files` as jsonl; checks the output conforms; returns the events.
fn merged(files: &[&str], code: i32) -> Vec<Value> {
    let mut a = vec!["--format", "jsonl"];
    a.extend_from_slice(files);
    let out = merge(&a, b"");
    assert_eq!(out.code, code, "{}", out.stderr);
    assert_conforming_report(&out.stdout, fed_back_code(code));
    parse_jsonl(&out.stdout)
}

/// The report events without aoi's envelope (which differs run to run).
fn reports(ev: &[Value]) -> Vec<Value> {
    ev.iter()
        .filter(|e| e["type"] == "report")
        .map(|e| {
            let mut e = e.clone();
            e.as_object_mut().map(|o| o.remove("aoi"));
            e
        })
        .collect()
}

#[test]
fn one_report_per_stream_and_the_worst_outcome() {
    let ev = merged(
        &[
            &example("search.jsonl"),
            &example("rate-limited.jsonl"),
            &example("truncated.jsonl"),
        ],
        74,
    );
    let r = reports(&ev);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["outcome"], "ok");
    assert_eq!(r[0]["tool"], "outline");
    assert_eq!(r[0]["run"], "01JZQ7X4TQ9KZ8V6R2M3N4P5Q6");
    assert_eq!(r[0]["lines"], 5);
    assert_eq!(r[1]["outcome"], "retryable");
    assert_eq!(r[1]["exit_code"], 75);
    assert_eq!(r[1]["caused_by"]["retry_after_ms"], 7200);
    assert_eq!(r[2]["outcome"], "incomplete");
    assert_eq!(r[2]["exit_code"], 74);
    assert_eq!(r[2]["caused_by"]["code"], "STREAM_INCOMPLETE");
    let sum = ev.last().unwrap();
    assert_eq!(sum["ok"], false);
    assert_eq!(sum["count"], 3);
    assert_eq!(sum["input_count"], 2 + 1 + 2);
    assert_eq!(sum["error_count"], 1);
    assert_eq!(sum["caused_by"]["code"], "STREAM_INCOMPLETE");
    assert_eq!(sum["properties"]["outcomes"]["ok"], 1);
    assert_eq!(sum["properties"]["outcomes"]["retryable"], 1);
    assert_eq!(sum["properties"]["outcomes"]["incomplete"], 1);
    assert_eq!(sum["properties"]["exit_code"], 74);
    // all good: exit 0, ok:true, upstream when all streams agree
    let ev = merged(&[&example("search.jsonl"), &example("search.jsonl")], 0);
    let sum = ev.last().unwrap();
    assert_eq!(sum["ok"], true);
    assert_eq!(sum["upstream"]["tool"], "outline");
}

#[test]
fn each_outcome_of_the_table() {
    let dir = scratch("merge-outcomes");
    for (patch, code) in [
        (r#"{"ok":true}"#, 0),
        (r#"{"ok":false,"reason":"failed"}"#, 1),
        (r#"{"ok":false,"reason":"denied"}"#, 77),
        (r#"{"ok":false,"reason":"timeout"}"#, 124),
        (r#"{"ok":false,"reason":"cancelled"}"#, 130),
        (r#"{"event_count":99}"#, 65),
    ] {
        let f = write_file(
            &dir,
            &format!("{code}.jsonl"),
            &stream(&run_id(1), 1, patch),
        );
        let ev = merged(&[&f], code);
        assert_eq!(reports(&ev)[0]["exit_code"], code);
        if code != 0 {
            assert_eq!(ev.last().unwrap()["ok"], false);
        }
        if matches!(code, 77 | 124 | 130) {
            let reason = ["denied", "timeout", "cancelled"]
                [[77, 124, 130].iter().position(|c| *c == code).unwrap()];
            assert_eq!(ev.last().unwrap()["reason"], reason);
        }
    }
}

#[test]
fn one_log_of_three_concurrent_runs_is_three_streams() {
    let a = stream(&run_id(1), 2, "{}");
    let b = stream(&run_id(2), 1, r#"{"ok":false,"reason":"failed"}"#);
    let c = stream(&run_id(3), 3, "{}");
    let mut lines: Vec<Vec<u8>> = Vec::new();
    let split = |x: &[u8]| -> Vec<Vec<u8>> {
        x.split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| l.to_vec())
            .collect()
    };
    let (la, lb, lc) = (split(&a), split(&b), split(&c));
    for i in 0..5 {
        for (tag, l) in [("[a] ", &la), ("[b] ", &lb), ("[c] ", &lc)] {
            if let Some(x) = l.get(i) {
                let mut line = tag.as_bytes().to_vec();
                line.extend_from_slice(x);
                lines.push(line);
            }
        }
        lines.push(b"some prose between".to_vec());
    }
    let mut log = lines.join(&b'\n');
    log.push(b'\n');
    let dir = scratch("merge-log");
    let f = write_file(&dir, "ci.log", &log);
    let ev = merged(&["--log", &f], 1);
    let r = reports(&ev);
    assert_eq!(r.len(), 3);
    let runs: Vec<&Value> = r.iter().map(|e| &e["run"]).collect();
    assert_eq!(
        runs,
        vec![
            &Value::from(run_id(1)),
            &Value::from(run_id(2)),
            &Value::from(run_id(3))
        ]
    );
    assert_eq!(r[1]["outcome"], "failed");
    assert_eq!(ev.last().unwrap()["properties"]["skipped_lines"], 5);
}

#[test]
fn empty_input_is_a_failure_not_a_success() {
    // Read as logs, neither holds an AOI stream (74); read as a stream,
    // prose is the violation `aoi check` calls it (65).
    for (input, args, code) in [
        (&b""[..], &[][..], 74),
        (b"", &["--log"], 74),
        (b"only prose\n", &["--log"], 74),
        (b"only prose\n", &[], 65),
    ] {
        let mut a = vec!["--format", "jsonl"];
        a.extend_from_slice(args);
        let out = merge(&a, input);
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
        if code == 74 {
            assert!(out.stderr.contains("no AOI stream"), "{}", out.stderr);
        }
        if args.is_empty() {
            assert_eq!(
                out.code,
                crate::util::check(&["-q"], input).code,
                "as aoi check"
            );
        }
        assert_conforming_report(&out.stdout, fed_back_code(code));
        let mut a = vec!["--no-fail", "-q"];
        a.extend_from_slice(args);
        assert_eq!(merge(&a, input).code, 0);
    }
}

#[test]
fn a_report_merged_again_is_carried_not_rejudged() {
    let dir = scratch("merge-assoc");
    let a = write_file(
        &dir,
        "a.jsonl",
        &std::fs::read(example("search.jsonl")).unwrap(),
    );
    let b = write_file(
        &dir,
        "b.jsonl",
        &std::fs::read(example("rate-limited.jsonl")).unwrap(),
    );
    let c = write_file(
        &dir,
        "c.jsonl",
        &std::fs::read(example("truncated.jsonl")).unwrap(),
    );
    let all = merged(&[&a, &b, &c], 74);
    let ab = merge(&["--format", "jsonl", &a, &b], b"");
    let ab = write_file(&dir, "ab.jsonl", &ab.stdout);
    let again = merged(&[&ab, &c], 74);
    assert_eq!(reports(&again), reports(&all), "the same entries");
    let (x, y) = (all.last().unwrap(), again.last().unwrap());
    for k in [
        "ok",
        "count",
        "input_count",
        "warning_count",
        "error_count",
        "caused_by",
    ] {
        assert_eq!(x[k], y[k], "{k}");
    }
    assert_eq!(x["properties"]["outcomes"], y["properties"]["outcomes"]);
    // a cut report is itself a failing entry besides what it carried
    let mut cut = std::fs::read(&ab).unwrap();
    cut.truncate(cut.len() - 10);
    let cut = write_file(&dir, "cut.jsonl", &cut);
    let ev = merged(&[&cut], 74);
    let r = reports(&ev);
    assert_eq!(r.len(), 3, "two carried, one for the cut report");
    assert_eq!(r[2]["outcome"], "incomplete");
    assert_eq!(r[2]["tool"], "aoi");
}

#[test]
fn junit_is_xml_with_totals_that_match_its_testcases() {
    let check_line = |seq: u64, name: &str, ok: bool| {
        format!(
            r#"{{"type":"aoi:check","aoi":{{"seq":{seq},"run":"{RUN}"}},"name":"{name}","ok":{ok},"severity":"error","detail":"d<&>"}}"#
        )
    };
    let doctor = s()
        .raw(check_line(1, "config", true))
        .raw(check_line(2, "token", false))
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let dir = scratch("merge-junit");
    let d = write_file(&dir, "doctor.jsonl", &doctor.bytes());
    let out = merge(
        &[
            "--format",
            "junit",
            &d,
            &example("rate-limited.jsonl"),
            &example("truncated.jsonl"),
        ],
        b"",
    );
    assert_eq!(out.code, 74);
    let text = out.stdout_str();
    let doc = roxmltree::Document::parse(&text).expect("JUnit output is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let num = |n: roxmltree::Node, a: &str| -> u64 {
        n.attribute(a)
            .unwrap_or_else(|| panic!("{a} missing"))
            .parse()
            .unwrap()
    };
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 3);
    for suite in &suites {
        assert!(suite.attribute("name").is_some());
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let f = cases
            .iter()
            .filter(|c| c.children().any(|x| x.has_tag_name("failure")))
            .count() as u64;
        let e = cases
            .iter()
            .filter(|c| c.children().any(|x| x.has_tag_name("error")))
            .count() as u64;
        assert_eq!(num(*suite, "tests"), cases.len() as u64);
        assert_eq!(num(*suite, "failures"), f);
        assert_eq!(num(*suite, "errors"), e);
        for c in &cases {
            assert!(c.attribute("name").is_some() && c.attribute("classname").is_some());
        }
        tests += cases.len() as u64;
        failures += f;
        errors += e;
    }
    assert_eq!(
        (
            num(root, "tests"),
            num(root, "failures"),
            num(root, "errors")
        ),
        (tests, failures, errors)
    );
    // doctor: outcome (failure) + 2 checks (token failed, of error
    // severity, in a run that failed: a failure of its own); rate-limited:
    // 1 failure; truncated: 1 error
    assert_eq!((tests, failures, errors), (5, 3, 1));
    assert!(text.contains("d&lt;&amp;&gt;"));
}

/// A run that passed with failed `aoi:check` events passes in every format
/// (JUnit said failures="1", and "334" of 1,500 past the cap, where the
/// exit code, TAP and Markdown said passed); the checks past the
/// cap are stated in every format, not only in JSON Lines.
#[test]
fn failed_checks_of_a_run_that_passed_fail_no_format() {
    let mut st = s();
    for i in 0..1500 {
        st = st.ev(&format!(
            r#"{{"type":"aoi:check","name":"c{i}","ok":{},"severity":"warning","detail":"slow"}}"#,
            i % 3 != 0
        ));
    }
    let input = st.bytes();
    assert_eq!(crate::util::check(&["-q"], &input).code, 0);
    let junit = merge(&["--format", "junit"], &input);
    assert_eq!(junit.code, 0, "{}", junit.stderr);
    let text = junit.stdout_str();
    let doc = roxmltree::Document::parse(&text).expect("JUnit output is XML");
    let root = doc.root_element();
    assert_eq!(root.attribute("failures"), Some("0"), "{}", &text[..300]);
    assert_eq!(root.attribute("errors"), Some("0"));
    assert!(
        text.contains("500 more aoi:check event(s), past the 1000 kept per stream"),
        "the cap is stated"
    );
    let tap = merge(&["--format", "tap"], &input);
    assert_eq!(tap.code, 0);
    assert!(tap.stdout_str().lines().any(|l| l.starts_with("ok 1")));
    let jsonl = merge(&["--format", "jsonl"], &input);
    assert_eq!(jsonl.code, 0);
    let ev = parse_jsonl(&jsonl.stdout);
    assert_eq!(reports(&ev)[0]["checks_dropped"], 500);
    assert_eq!(reports(&ev)[0]["checks_failed"], 500);
    // The formats that do not list checks state them, and the cap.
    let note = "500 of 1500 aoi:check failed, 500 past the 1000 listed";
    for format in ["tap", "markdown", "table"] {
        let out = merge(&["--format", format], &input);
        assert_eq!(out.code, 0, "{format}");
        assert!(
            out.stdout_str().contains(note),
            "{format}: {}",
            out.stdout_str()
        );
    }
    // Carried through a report of reports.
    let again = merge(&["--format", "table"], &jsonl.stdout);
    assert!(again.stdout_str().contains(note), "{}", again.stdout_str());
}

#[test]
fn tap_has_a_correct_plan() {
    let out = merge(
        &[
            "--format",
            "tap",
            &example("search.jsonl"),
            &example("rate-limited.jsonl"),
        ],
        b"",
    );
    assert_eq!(out.code, 75);
    let text = out.stdout_str();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "TAP version 13");
    assert_eq!(lines[1], "1..2");
    let points: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("ok ") || l.starts_with("not ok "))
        .collect();
    assert_eq!(points.len(), 2);
    // Worst first: the failed run is point 1.
    assert!(points[0].starts_with("not ok 1 - "));
    assert!(points[1].starts_with("ok 2 - "));
    // the YAML block is indented and closed
    let start = lines.iter().position(|l| *l == "  ---").unwrap();
    let end = lines.iter().position(|l| *l == "  ...").unwrap();
    assert!(start < end);
    assert!(
        lines[start..end]
            .iter()
            .any(|l| l.contains("retry_after_ms"))
    );
    // no stream at all: one failing point, not an empty success
    let out = merge(&["--format", "tap"], b"");
    assert_eq!(out.code, 74);
    assert!(
        out.stdout_str().contains("1..1\nnot ok 1 - "),
        "{}",
        out.stdout_str()
    );
}

#[test]
fn markdown_and_table() {
    let out = merge(
        &[
            "--format",
            "markdown",
            &example("search.jsonl"),
            &example("rate-limited.jsonl"),
        ],
        b"",
    );
    let text = out.stdout_str();
    assert!(
        text.starts_with("### ❌ AOI merge report: FAIL (exit 75)"),
        "{text}"
    );
    // The failed runs first, with their cause; the passing ones folded.
    assert!(text.contains("**1 of 2 run(s) failed.**"), "{text}");
    assert!(text.contains("- ❌ **retryable, exit 75** · `"), "{text}");
    let failed_at = text.find("#### Failed runs (1)").expect("failed runs");
    let passed_at = text
        .find("<summary>✅ Passed runs (1)</summary>")
        .expect("passed runs");
    assert!(failed_at < passed_at, "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("- ") && l.contains("outline"))
            .count(),
        2
    );
    assert!(text.contains("rate_limited UPSTREAM_RATE_LIMIT, retry after 7.2 s"));
    let out = merge(
        &[
            "--format",
            "table",
            "--color",
            "never",
            &example("search.jsonl"),
        ],
        b"",
    );
    let text = out.stdout_str();
    assert!(text.lines().next().unwrap().starts_with("SOURCE"));
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("ok: 1 stream(s): 1 ok"),
        "{text}"
    );
    assert!(!text.contains('\x1b'));
    let out = merge(
        &[
            "--format",
            "table",
            "--color",
            "always",
            &example("search.jsonl"),
        ],
        b"",
    );
    assert!(out.stdout_str().contains("\x1b[32m"));
}

#[test]
fn unreadable_inputs_are_66_and_named() {
    let out = merge(
        &[
            "--format",
            "jsonl",
            &example("search.jsonl"),
            "/nonexistent.jsonl",
        ],
        b"",
    );
    assert_eq!(out.code, 66);
    assert_conforming_report(&out.stdout, fed_back_code(66));
    assert!(out.stderr.contains("/nonexistent.jsonl"), "{}", out.stderr);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Merging shard by shard gives what merging everything at once gives.
    #[test]
    fn merging_is_associative(outcomes in proptest::collection::vec(0usize..5, 1..7), cut in 0usize..7) {
        let patches = PATCHES;
        let dir = scratch("merge-prop");
        let files: Vec<String> = outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| write_file(&dir, &format!("s{i}.jsonl"), &stream(&run_id(i), i % 3, patches[*o])))
            .collect();
        let refs: Vec<&str> = files.iter().map(String::as_str).collect();
        let mut a = vec!["--format", "jsonl"];
        a.extend_from_slice(&refs);
        let all = merge(&a, b"");
        let k = cut.min(refs.len());
        let mut parts = Vec::new();
        for (i, chunk) in [&refs[..k], &refs[k..]].iter().enumerate() {
            if chunk.is_empty() {
                continue;
            }
            let mut a = vec!["--format", "jsonl"];
            a.extend_from_slice(chunk);
            let out = merge(&a, b"");
            parts.push(write_file(&dir, &format!("part{i}.jsonl"), &out.stdout));
        }
        let prefs: Vec<&str> = parts.iter().map(String::as_str).collect();
        let mut a = vec!["--format", "jsonl"];
        a.extend_from_slice(&prefs);
        let again = merge(&a, b"");
        prop_assert_eq!(again.code, all.code);
        let (x, y) = (parse_jsonl(&all.stdout), parse_jsonl(&again.stdout));
        prop_assert_eq!(reports(&x), reports(&y));
        let (sx, sy) = (x.last().unwrap(), y.last().unwrap());
        for key in ["ok", "count", "input_count", "warning_count", "error_count", "caused_by"] {
            prop_assert_eq!(&sx[key], &sy[key], "{}", key);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    /// Any contiguous partition into shards, merged, and the
    /// shards' reports partitioned and merged again, gives merging at once
    /// byte for byte but for run ids and times.
    #[test]
    fn merging_in_shards_is_merging_at_once(
        outcomes in proptest::collection::vec(0usize..6, 1..12),
        cuts in proptest::collection::vec(any::<bool>(), 12),
        again in proptest::collection::vec(any::<bool>(), 12),
    ) {
        // The last one is cut before its summary (below).
        let patches: Vec<&str> = PATCHES.iter().copied().chain(["{}"]).collect();
        let dir = scratch("merge-shards");
        let files: Vec<String> = outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let mut bytes = stream(&run_id(i), i % 4, patches[*o]);
                if *o == 5 {
                    bytes.truncate(bytes.len() / 2);
                }
                write_file(&dir, &format!("s{i}.jsonl"), &bytes)
            })
            .collect();
        let jsonl = |files: &[String]| {
            let mut a = vec!["-q", "--format", "jsonl"];
            a.extend(files.iter().map(String::as_str));
            merge(&a, b"")
        };
        // Contiguous shards, cut where `cuts` says.
        let shard = |files: &[String], cuts: &[bool], name: &str| -> Vec<String> {
            let mut out = Vec::new();
            let mut group: Vec<String> = Vec::new();
            for (i, f) in files.iter().enumerate() {
                group.push(f.clone());
                if cuts[i % cuts.len()] || i + 1 == files.len() {
                    let r = jsonl(&group);
                    out.push(write_file(&dir, &format!("{name}{}.jsonl", out.len()), &r.stdout));
                    group.clear();
                }
            }
            out
        };
        let at_once = jsonl(&files);
        let level1 = shard(&files, &cuts, "a");
        let level2 = shard(&level1, &again, "b");
        let in_shards = jsonl(&level2);
        prop_assert_eq!(in_shards.code, at_once.code);
        prop_assert_eq!(normalized(&in_shards.stdout), normalized(&at_once.stdout));
    }
}

#[test]
fn an_earlier_merges_own_failures_are_carried() {
    let dir = scratch("merge-own");
    let ok = write_file(
        &dir,
        "ok.jsonl",
        &std::fs::read(example("search.jsonl")).unwrap(),
    );
    let empty = write_file(&dir, "empty.jsonl", b"");
    let m2 = merge(&["--format", "jsonl", "-q", &ok, &empty], b"");
    assert_eq!(m2.code, 74);
    let m2 = write_file(&dir, "m2.jsonl", &m2.stdout);
    let again = merged(&[&m2, &ok], 74);
    let all = merged(&[&ok, &empty, &ok], 74);
    let (x, y) = (again.last().unwrap(), all.last().unwrap());
    for k in ["ok", "count", "input_count", "error_count", "caused_by"] {
        assert_eq!(x[k], y[k], "{k}");
    }
    let gone = merge(&["--format", "jsonl", "-q", &ok, "/nonexistent.jsonl"], b"");
    let gone = write_file(&dir, "gone.jsonl", &gone.stdout);
    assert_eq!(merge(&["-q", &gone], b"").code, 66);
}

#[test]
fn junit_stays_xml_with_hostile_text() {
    let hostile = "a\u{FFFF}b\u{FFFE}c]]><x>&\u{1b}[31m";
    let check = serde_json::json!({"type":"aoi:check","aoi":{"seq":1,"run":RUN},"name":hostile,"ok":false,"detail":hostile}).to_string();
    let st = s()
        .meta(&serde_json::json!({"tool": hostile}).to_string())
        .raw(check)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let dir = scratch("merge-hostile");
    let f = write_file(&dir, "h.jsonl", &st.bytes());
    let out = merge(&["--format", "junit", &f], b"");
    roxmltree::Document::parse(&out.stdout_str()).expect("well-formed XML");
    let out = merge(&["--format", "tap", &f], b"");
    assert!(!out.stdout_str().contains('\u{FFFF}'));
}

/// § 4.2, `--idle-timeout` on a log of interleaved runs: silence ends the
/// runs still open as `timeout` (exit 124); a run that had already ended
/// keeps its own verdict.
#[test]
fn idle_timeout_ends_the_open_runs_only() {
    let mut head = stream(&run_id(1), 2, "{}");
    let open = String::from_utf8(s().hits(1).no_summary().bytes())
        .unwrap()
        .replace(RUN, &run_id(2));
    head.extend_from_slice(open.as_bytes());
    let out = crate::util::fed_then_silent(
        &[
            "merge-report",
            "--log",
            "--format",
            "jsonl",
            "--idle-timeout",
            "300ms",
        ],
        &head,
    )
    .expect("a small head fits in a pipe");
    assert_eq!(out.code, 124, "{}", out.stderr);
    assert_conforming_report(&out.stdout, fed_back_code(124));
    let events = parse_jsonl(&out.stdout);
    let outcome = |run: &str| {
        events
            .iter()
            .find(|e| e["type"] == "report" && e["run"] == run)
            .map(|e| e["outcome"].clone())
    };
    assert_eq!(outcome(&run_id(1)), Some(Value::from("ok")));
    assert_eq!(outcome(&run_id(2)), Some(Value::from("timeout")));
    assert_eq!(events.last().unwrap()["reason"], "timeout");
}

/// A stream that broke the contract or was cut failed for that, whatever
/// retryable error it carried: the report and the summary name aoi's own
/// cause, so the merged output does not read as "retry may help" (it was
/// the upstream's rate-limit error, exit 75 when fed back; found by review).
#[test]
fn a_broken_or_cut_stream_is_not_caused_by_its_retryable_error() {
    let rate_limited = r#"{"type":"aoi:error","category":"rate_limited","code":"RL","message":"m","retryable":true,"retry_after_ms":100}"#;
    let cause = r#"{"caused_by":{"origin":"t","category":"rate_limited","code":"RL","retryable":true,"retry_after_ms":100},"ok":false,"reason":"failed"}"#;
    let dir = scratch("merge-broken-cause");
    let broken = s()
        .ev(rate_limited)
        .ev(r#"{"type":"aoi:error","category":"partial","code":"P","message":"m","retryable":false}"#)
        .summary(cause)
        .bytes();
    let cut = s().ev(rate_limited).no_summary().bytes();
    for (name, bytes, code, own) in [
        ("broken.jsonl", broken, 65, "STREAM_NONCONFORMING"),
        ("cut.jsonl", cut, 74, "STREAM_INCOMPLETE"),
    ] {
        let f = write_file(&dir, name, &bytes);
        // merged() feeds the output back: a non-retryable failure exits 1
        let ev = merged(&[&f], code);
        let r = reports(&ev);
        assert_eq!(r[0]["caused_by"]["code"], own, "{name}");
        let sum = ev.last().unwrap();
        assert_eq!(sum["caused_by"]["code"], own, "{name}");
        assert_eq!(sum["caused_by"]["retryable"], false, "{name}");
    }
}

/// The text reports for people name aoi's own failures, as JUnit and TAP
/// do (an unreadable input showed only as "FAIL (exit 66)" beside a row
/// that said ok), and upstream text in Markdown is inert: GitHub renders a
/// step summary's HTML and links (found by review).
#[test]
fn markdown_and_table_name_own_failures_and_keep_upstream_text_inert() {
    for format in ["markdown", "table"] {
        let out = merge(
            &[
                "--format",
                format,
                "--color",
                "never",
                "/nonexistent",
                &example("search.jsonl"),
            ],
            b"",
        );
        assert_eq!(out.code, 66, "{}", out.stderr);
        let text = out.stdout_str();
        assert!(text.contains("/nonexistent"), "{format}: {text}");
        assert!(text.contains("INPUT_UNREADABLE"), "{format}: {text}");
    }
    let hostile = r#"<img src=x onerror=alert(1)> [click](https://evil.example) *b* `c` | d"#;
    let st = s()
        .meta(&serde_json::json!({ "tool": hostile }).to_string())
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let dir = scratch("merge-md-inert");
    let f = write_file(&dir, "h.jsonl", &st.bytes());
    let out = merge(&["--format", "markdown", &f], b"");
    let text = out.stdout_str();
    let row = text
        .lines()
        .find(|l| l.contains("h.jsonl"))
        .expect("the stream's row");
    // Upstream text in a code span (nothing in one is read as
    // HTML, a link or emphasis; consumers.rs renders it with cmark-gfm),
    // fenced past the backticks it holds; a list item, not a table cell,
    // so `|` stays as written (a code span would show a backslash).
    assert!(
        row.contains(
            " · `` <img src=x onerror=alert(1)> [click](https://evil.example) *b* `c` | d 1.8.2 ``"
        ),
        "{row}"
    );
}

/// JUnit error bodies keep one finding a line (a line feed was replaced as
/// a control character, running the findings together).
#[test]
fn junit_error_bodies_keep_one_finding_a_line() {
    let st = s()
        .ev(r#"{"type":"aoi:error","category":"partial","code":"P","message":"m","retryable":false}"#)
        .ev(r#"{"type":"aoi:error","category":"io","code":"lower","message":"m","retryable":false}"#)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let dir = scratch("merge-junit-lines");
    let f = write_file(&dir, "v.jsonl", &st.bytes());
    let out = merge(&["--format", "junit", &f], b"");
    let xml = out.stdout_str();
    let doc = roxmltree::Document::parse(&xml).expect("XML");
    let body = doc
        .descendants()
        .find(|n| n.has_tag_name("error"))
        .and_then(|n| n.text())
        .expect("an error body");
    let lines: Vec<&str> = body.lines().collect();
    assert!(lines.len() >= 2, "{body:?}");
    assert!(!body.contains('\u{FFFD}'), "{body:?}");
    assert!(lines.iter().all(|l| l.contains(": ")), "{body:?}");
}

/// A carried `report` (from an earlier merge-report's output) that does not
/// hold together is carried as a violation saying why, not believed: an
/// exit_code of -1 made the process exit 0 beside ok:false, 256 exited
/// 255, outcome violation with exit_code 0 read ok:true. Counts from a
/// report add up without wrapping (found by review).
#[test]
fn carried_reports_that_do_not_hold_together_fail_the_merge() {
    let container = |report: &str| {
        let meta = r#"{"type":"aoi:meta","aoi":{"seq":0,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5QA"},"tool":"aoi","tool_version":"0.1.0","aoi_version":"1.0-alpha","schema_name":"aoi.toolkit.events","schema_version":"1.0.0","command":"merge-report"}"#;
        let report = format!(
            r#"{{"type":"report","aoi":{{"seq":1,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5QA"}},"source":"x",{report}}}"#
        );
        let summary = r#"{"type":"aoi:summary","aoi":{"seq":2,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5QA"},"ok":true,"count":1,"event_count":3,"tool":"aoi","tool_version":"0.1.0","aoi_version":"1.0-alpha","schema_name":"aoi.toolkit.events","schema_version":"1.0.0"}"#;
        format!("{meta}\n{report}\n{summary}\n").into_bytes()
    };
    let counts =
        r#""lines":4,"domain_count":0,"warning_count":0,"error_count":0,"violation_count":0"#;
    let dir = scratch("merge-forged");
    for (i, (fields, why)) in [
        (
            r#""outcome":"failed","exit_code":-1,"ok":false"#,
            "exit_code -1",
        ),
        (
            r#""outcome":"failed","exit_code":256,"ok":false"#,
            "exit_code 256",
        ),
        (
            r#""outcome":"violation","exit_code":0,"ok":true"#,
            "exit_code 0",
        ),
        (r#""outcome":"ok","exit_code":0,"ok":false"#, "ok is false"),
        (r#""outcome":"great","exit_code":0"#, "no known outcome"),
        (
            r#""outcome":"ok","exit_code":0,"ok":true,"lines":-1"#,
            "no lines",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let body = if fields.contains("\"lines\"") {
            fields.replace(r#","lines":-1"#, "")
                + r#","lines":-1,"domain_count":0,"warning_count":0,"error_count":0,"violation_count":0"#
        } else {
            format!("{fields},{counts}")
        };
        let f = write_file(&dir, &format!("c{i}.jsonl"), &container(&body));
        let ev = merged(&[&f], 65);
        let r = reports(&ev);
        assert_eq!(r.len(), 1, "{fields}");
        assert_eq!(r[0]["outcome"], "violation", "{fields}");
        assert!(
            r[0]["reason"].as_str().unwrap().contains(why),
            "{fields}: {}",
            r[0]["reason"]
        );
    }
    // two huge counts: the totals saturate
    let big = format!(
        r#""outcome":"ok","exit_code":0,"ok":true,"lines":{m},"domain_count":{m},"warning_count":0,"error_count":0,"violation_count":0"#,
        m = u64::MAX - 1
    );
    let a = write_file(&dir, "big1.jsonl", &container(&big));
    let b = write_file(&dir, "big2.jsonl", &container(&big));
    let ev = merged(&[&a, &b], 0);
    let sum = ev.last().unwrap();
    assert_eq!(sum["input_count"].as_u64(), Some(u64::MAX), "{sum}");
}

/// The table measures names in terminal columns: a name in CJK
/// is not cut when it fits, and the columns after it line up.
#[test]
fn the_table_measures_wide_names_in_columns() {
    use unicode_width::UnicodeWidthStr;
    let dir = scratch("merge-wide");
    let name = "日本語のファイル名テスト.jsonl";
    write_file(&dir, name, &s().hits(1).bytes());
    // Named as given, relative: 19 characters, 32 columns, under the cap.
    let out = crate::util::command(crate::util::AOI)
        .args([
            "merge-report",
            "--format",
            "table",
            "--color",
            "never",
            name,
        ])
        .current_dir(&dir)
        .output()
        .expect("run aoi");
    assert_eq!(crate::util::code_of(out.status), 0);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    let row = lines.next().expect("row");
    assert!(row.contains(name), "cut: {row}");
    let at = |l: &str, word: &str| l.find(word).map(|i| l[..i].width());
    let run = &RUN[RUN.len() - 8..];
    assert_eq!(at(header, "RUN"), at(row, run), "{header}\n{row}");
}

/// The Markdown report stays under GitHub's 1 MiB step-summary limit
/// whatever the number of runs, failed runs first, and says what it left
/// out and where to find it.
#[test]
fn markdown_stays_under_a_step_summary_limit() {
    let mut log = String::new();
    for i in 0..30_000 {
        let run = format!("01JZQ7X4TQ9KZ8V6R2M{i:07}");
        let ok = i % 1000 != 0;
        log.push_str(&format!(
            r#"{{"type":"aoi:meta","aoi":{{"seq":0,"run":"{run}"}},"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"s","schema_version":"1","command":"c"}}"#
        ));
        log.push('\n');
        let end = if ok { "" } else { r#","reason":"failed""# };
        log.push_str(&format!(
            r#"{{"type":"aoi:summary","aoi":{{"seq":1,"run":"{run}"}},"ok":{ok},"count":0,"event_count":2{end}}}"#
        ));
        log.push('\n');
    }
    let out = merge(
        &["--log", "--max-runs", "40000", "--format", "markdown"],
        log.as_bytes(),
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let text = out.stdout_str();
    assert!(text.len() <= 1 << 20, "{} bytes", text.len());
    assert!(text.contains("#### Failed runs (30)"));
    assert_eq!(text.lines().filter(|l| l.starts_with("- ❌ ")).count(), 30);
    assert!(text.contains("run(s) not listed"), "the cut is said");
    assert!(text.contains("--format jsonl"));
    // aoi's own failures count against the limit too (found by review:
    // 5,000 unreadable files gave 1.14 MB).
    let list: String = (0..5000)
        .map(|i| format!("/nonexistent/dir/with/a/long/name/for/the/fleet/run-{i:06}.jsonl\n"))
        .collect();
    let own = merge(
        &["-q", "--format", "markdown", "--files-from", "-"],
        list.as_bytes(),
    );
    assert_eq!(own.code, 66);
    assert!(own.stdout.len() <= 1 << 20, "{} bytes", own.stdout.len());
    assert!(own.stdout_str().contains("not listed"));
}

/// `-q` and `--color` before the command apply to it, as after it
/// (options every command shares are accepted in one place).
#[test]
fn shared_options_before_the_command_apply_to_it() {
    let file = format!("{}/examples/rate-limited.jsonl", env!("CARGO_MANIFEST_DIR"));
    let before = aoi(&["-q", "check", &file], b"");
    let after = aoi(&["check", "-q", &file], b"");
    assert_eq!((before.code, before.stderr.as_str()), (75, ""));
    assert_eq!((after.code, after.stderr.as_str()), (75, ""));
    let table = |args: &[&str]| aoi(args, b"").stdout_str();
    let coloured = table(&[
        "--color",
        "always",
        "merge-report",
        "-q",
        "--format",
        "table",
        &file,
    ]);
    let plain = table(&[
        "--color",
        "never",
        "merge-report",
        "-q",
        "--format",
        "table",
        &file,
    ]);
    assert!(coloured.contains('\u{1b}'), "{coloured}");
    assert!(!plain.contains('\u{1b}'), "{plain}");
    // The command's own choice wins.
    let own = table(&[
        "--color",
        "always",
        "merge-report",
        "-q",
        "--color",
        "never",
        "--format",
        "table",
        &file,
    ]);
    assert!(!own.contains('\u{1b}'), "{own}");
}

/// `--files-from`: names read from a list or stdin, after the
/// FILEs, give the report those names as arguments give; an empty or
/// unreadable list is 66, never an empty report that passes.
#[test]
fn files_from_lists_the_inputs() {
    let (a, b, c) = (
        example("search.jsonl"),
        example("rate-limited.jsonl"),
        example("truncated.jsonl"),
    );
    let args = merge(&["--format", "table", "--color", "never", &a, &b, &c], b"");
    assert_eq!(args.code, 74);
    let dir = scratch("merge-files-from");
    let list = write_file(&dir, "list", format!("{b}\r\n\n{c}\n").as_bytes());
    let from_file = merge(
        &[
            "--format",
            "table",
            "--color",
            "never",
            "--files-from",
            &list,
            &a,
        ],
        b"",
    );
    let stdin = format!("{b}\n{c}");
    let from_stdin = merge(
        &[
            "--format",
            "table",
            "--color",
            "never",
            "--files-from",
            "-",
            &a,
        ],
        stdin.as_bytes(),
    );
    for out in [&from_file, &from_stdin] {
        assert_eq!(out.code, 74, "{}", out.stderr);
        assert_eq!(out.stdout, args.stdout);
    }
    let empty = merge(&["--files-from", "-"], b"\n");
    assert_eq!(empty.code, 66);
    assert!(empty.stderr.contains("names no file"), "{}", empty.stderr);
    // stdin is read once: as the list it cannot also be an input.
    let twice = merge(&["--files-from", "-", "-"], format!("{a}\n").as_bytes());
    assert_eq!(twice.code, 64, "{}", twice.stderr);
    let listed = merge(&["--files-from", "-"], format!("{a}\n-\n").as_bytes());
    assert_eq!(listed.code, 64, "{}", listed.stderr);
    let gone = merge(&["--files-from", "/nonexistent/list"], b"");
    assert_eq!(gone.code, 66);
    assert!(
        gone.stderr.contains("cannot read --files-from"),
        "{}",
        gone.stderr
    );
    // The report of a listed fleet is a conforming stream.
    let jsonl = merge(&["-q", "--format", "jsonl", "--files-from", &list], b"");
    assert_conforming_report(&jsonl.stdout, fed_back_code(jsonl.code));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Files judged on several threads give one thread's output,
    /// byte for byte, in every format and on stderr, whatever the sizes
    /// and the scheduling (the jsonl report but for aoi's run id and times).
    #[test]
    fn threads_over_files_change_nothing(
        files in proptest::collection::vec((0usize..400, 0usize..6), 20..70),
    ) {
        // The last two are cut and led by prose (below).
        let patches: Vec<&str> = PATCHES[..4].iter().copied().chain(["{}", "{}"]).collect();
        let dir = scratch("merge-threads");
        let names: Vec<String> = files
            .iter()
            .enumerate()
            .map(|(i, (hits, o))| {
                let mut bytes = stream(&run_id(i), *hits, patches[*o]);
                if *o == 4 {
                    bytes.truncate(bytes.len() / 2);
                }
                if *o == 5 {
                    bytes.splice(0..0, b"prose before the stream\n".iter().copied());
                }
                write_file(&dir, &format!("f{i:03}.jsonl"), &bytes)
            })
            .collect();
        for format in ["table", "markdown", "junit", "tap", "jsonl"] {
            let run = |threads: &str| {
                let mut a = vec!["--format", format, "--color", "never", "--threads", threads];
                a.extend(names.iter().map(String::as_str));
                merge(&a, b"")
            };
            let one = run("1");
            for threads in ["2", "0", "5"] {
                let many = run(threads);
                prop_assert_eq!(many.code, one.code, "{} --threads {}", format, threads);
                prop_assert_eq!(&many.stderr, &one.stderr, "{} --threads {}", format, threads);
                if format == "jsonl" {
                    prop_assert_eq!(normalized(&many.stdout), normalized(&one.stdout));
                } else {
                    prop_assert_eq!(&many.stdout, &one.stdout, "{} --threads {}", format, threads);
                }
            }
        }
    }
}

/// Every report names the cause of a broken or cut run (its first
/// finding, line and count of others), failed runs worst first, and the
/// error counts of every row.
#[test]
fn reports_name_the_first_finding_worst_first() {
    let files = [
        example("rate-limited.jsonl"),
        example("search.jsonl"),
        example("truncated.jsonl"),
    ];
    let first = "line 4: line.unterminated: final line has no line feed (80 bytes discarded) (and 1 other finding(s))";
    for format in ["markdown", "table", "ctrf"] {
        let mut a = vec!["merge-report", "-q", "--color", "never", "--format", format];
        a.extend(files.iter().map(String::as_str));
        let out = aoi(&a, b"");
        assert_eq!(out.code, 74, "{format}");
        assert!(
            out.stdout_str().contains(first),
            "{format}: {}",
            out.stdout_str()
        );
    }
    let report = |format: &str| {
        let mut a = vec!["merge-report", "-q", "--color", "never", "--format", format];
        a.extend(files.iter().map(String::as_str));
        aoi(&a, b"").stdout_str()
    };
    // JUnit and TAP name the cause too, and every row of every format
    // counts warnings and errors; runs worst first (74, 75, then 0).
    let cut = "truncated.jsonl";
    let order = [cut, "rate-limited.jsonl", "search.jsonl"];
    for format in ["junit", "tap", "table", "markdown"] {
        let text = report(format);
        assert!(text.contains(first), "{format}: {text}");
        let at: Vec<usize> = order
            .iter()
            .map(|f| {
                text.find(f)
                    .unwrap_or_else(|| panic!("{format}: {f}: {text}"))
            })
            .collect();
        assert!(
            at[0] < at[1] && at[1] < at[2],
            "{format} worst first: {text}"
        );
    }
    let tap = report("tap");
    for line in tap
        .lines()
        .filter(|l| l.starts_with("ok") || l.starts_with("not ok"))
    {
        assert!(
            line.contains(" warning(s), ") && line.contains(" error(s)"),
            "{line}"
        );
    }
    let junit = report("junit");
    assert_eq!(junit.matches("<system-out>").count(), 3, "{junit}");
    assert!(
        junit.contains("0 warning(s), 1 error(s), 0 violation(s)</system-out>"),
        "{junit}"
    );
    let md = report("markdown");
    // 74 before 75 (the exit table's order), though given after it.
    let (cut, retry) = (md.find("exit 74**"), md.find("exit 75**"));
    assert!(cut.is_some() && cut < retry, "{md}");
    assert!(
        md.contains("1 warning(s), 0 error(s)"),
        "passing rows count errors: {md}"
    );
    assert!(
        md.contains("0 warning(s), 1 error(s), 0 violation(s)"),
        "{md}"
    );
}

/// A lint report (§ 18) merged to JUnit: each `aoi:check` a testcase
/// named by file, run and check; a failed error check of a failed run a
/// `failure`, a check not tested `<skipped/>`, a failed warning a passing
/// testcase that says so; no two testcases share a name. The same checks
/// in a run that passed fail nothing: the exit decides (DECISIONS).
#[test]
fn junit_names_testcases_by_run_and_reads_a_lint_report() {
    let check = |name: &str, ok: bool, severity: &str, status: &str| {
        format!(
            r#"{{"type":"aoi:check","name":"{name}","ok":{ok},"severity":"{severity}","detail":"d {name}","properties":{{"status":"{status}"}}}}"#
        )
    };
    let lint = |i: usize, summary: &str| {
        let st = s()
            .ev(&check("1.discoverable", false, "error", "fail"))
            .ev(&check("2.typed", true, "info", "pass"))
            .ev(&check("7.idempotent", true, "warning", "not_tested"))
            .ev(&check("9.safe", false, "warning", "fail"))
            .summary(summary);
        String::from_utf8(st.bytes())
            .expect("test input")
            .replace(RUN, &run_id(i))
            .into_bytes()
    };
    let dir = scratch("merge-junit-lint");
    let failed = r#"{"ok":false,"reason":"failed"}"#;
    let files: Vec<String> = (0..3)
        .map(|i| write_file(&dir, &format!("lint-{i}.jsonl"), &lint(i, failed)))
        .collect();
    let mut a = vec!["--format", "junit"];
    a.extend(files.iter().map(String::as_str));
    let out = merge(&a, b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    let text = out.stdout_str();
    let doc = roxmltree::Document::parse(&text).expect("JUnit output is XML");
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 15, "{text}");
    let names: std::collections::HashSet<(Option<&str>, Option<&str>)> = cases
        .iter()
        .map(|c| (c.attribute("classname"), c.attribute("name")))
        .collect();
    assert_eq!(names.len(), cases.len(), "testcases are unique: {text}");
    for c in &cases {
        let name = c.attribute("name").unwrap_or_default();
        assert!(
            name.contains("lint-") && name.contains(" run 01JZQ"),
            "{name}"
        );
    }
    let kind = |check: &str, tag: &str| {
        cases.iter().any(|c| {
            c.attribute("name").is_some_and(|n| n.ends_with(check))
                && c.children().any(|x| x.has_tag_name(tag))
        })
    };
    assert!(kind("1.discoverable", "failure"), "{text}");
    assert!(kind("7.idempotent", "skipped"), "{text}");
    assert!(
        kind("9.safe", "system-out") && !kind("9.safe", "failure"),
        "{text}"
    );
    let root = doc.root_element();
    // Per run: the outcome and 1.discoverable fail; 7.idempotent skipped.
    assert_eq!(root.attribute("failures"), Some("6"));
    let skipped: u64 = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .filter_map(|n| n.attribute("skipped")?.parse::<u64>().ok())
        .sum();
    assert_eq!(skipped, 3);
    crate::consumers::assert_valid_junit(&dir, &out.stdout);

    // The same checks in a run that passed: nothing fails, the exit is 0.
    let ok = write_file(&dir, "lint-ok.jsonl", &lint(9, "{}"));
    let out = merge(&["--format", "junit", &ok], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout_str();
    assert!(
        text.contains(r#"failures="0" errors="0" skipped="1""#),
        "{text}"
    );
    crate::consumers::assert_valid_junit(&dir, &out.stdout);
}

/// Testcase names stay unique where a stream says a check's name more
/// than once: `aoi lint` runs each check once per command of the tool
/// (its `properties.command`, as `aoi lint --self` writes 2.typed-output
/// for check, summary, errors, filter and merge-report), and a tool may
/// repeat a name. Two unreadable inputs are two testcases as well. The
/// names survive a report of reports (jsonl, then JUnit).
#[test]
fn junit_testcases_stay_unique_when_check_names_repeat() {
    let check = |name: &str, command: Option<&str>| {
        let props = command.map_or(String::new(), |c| {
            format!(r#","properties":{{"status":"pass","command":"{c}"}}"#)
        });
        format!(r#"{{"type":"aoi:check","name":"{name}","ok":true,"severity":"info"{props}}}"#)
    };
    let st = s()
        .ev(&check("2.typed-output", Some("search")))
        .ev(&check("2.typed-output", Some("list")))
        .ev(&check("x", None))
        .ev(&check("x", None))
        .ev(&check("x #2", None))
        .summary("{}")
        .bytes();
    let dir = scratch("merge-junit-unique");
    let file = write_file(&dir, "lint.jsonl", &st);
    let gone = |n: &str| dir.as_ref().join(n).display().to_string();
    let (a, b) = (gone("missing-a.jsonl"), gone("missing-b.jsonl"));
    let names = |bytes: &[u8]| -> Vec<String> {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let doc = roxmltree::Document::parse(&text).expect("JUnit output is XML");
        let cases: Vec<(String, String)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|c| {
                let at = |k: &str| c.attribute(k).unwrap_or_default().to_string();
                (at("classname"), at("name"))
            })
            .collect();
        let unique: std::collections::HashSet<&(String, String)> = cases.iter().collect();
        assert_eq!(unique.len(), cases.len(), "testcases are unique: {text}");
        cases.into_iter().map(|(_, n)| n).collect()
    };
    let out = merge(&["--format", "junit", &file, &a, &b], b"");
    assert_eq!(out.code, 66, "{}", out.stderr);
    crate::consumers::assert_valid_junit(&dir, &out.stdout);
    let got = names(&out.stdout);
    for want in [
        "2.typed-output (search)".to_string(),
        "2.typed-output (list)".to_string(),
        "x #1".to_string(),
        "x #3".to_string(),
        "x #2".to_string(),
        format!("{a}: INPUT_UNREADABLE"),
        format!("{b}: INPUT_UNREADABLE"),
    ] {
        assert!(got.iter().any(|n| n.ends_with(&want)), "{want}: {got:?}");
    }
    // Carried through a jsonl report, the checks keep what they ran on.
    let report = merge(&["--format", "jsonl", &file], b"");
    assert_eq!(report.code, 0, "{}", report.stderr);
    let again = merge(&["--format", "junit"], &report.stdout);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let checks = |v: Vec<String>| -> Vec<String> {
        v.into_iter()
            .filter_map(|n| n.split_once(": ").map(|(_, c)| c.to_string()))
            .collect()
    };
    let direct = merge(&["--format", "junit", &file], b"");
    assert_eq!(checks(names(&again.stdout)), checks(names(&direct.stdout)));
}

/// A path longer than the SOURCE column is cut at the front, so the row
/// still names the file wherever the files live (a CI clone's path made
/// the cut fall inside the file name once).
#[test]
fn a_long_path_keeps_its_file_name_in_the_table() {
    let dir = scratch("long-path");
    let deep = dir
        .as_ref()
        .join("a-folder-name-long-enough/to-push/the-name-out");
    std::fs::create_dir_all(&deep).expect("deep dir");
    let bytes = std::fs::read(example("truncated.jsonl")).expect("example");
    let file = write_file(&deep, "truncated.jsonl", &bytes);
    let out = aoi(&["merge-report", "-q", "--format", "table", &file], b"");
    assert_eq!(out.code, 74);
    let row = out
        .stdout_str()
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    assert!(
        row.starts_with('…') && row.contains("/the-name-out/truncated.jsonl"),
        "{row}"
    );
}
