//! `aoi errors`: the control plane out of streams and real logs (§ 8.2,
//! § 9, § 13.1).

use proptest::prelude::*;
use serde_json::Value;

use crate::util::{
    RUN, aoi, assert_conforming_report, assert_quiet_on_early_close, check, fed_back_code, lines,
    parse_jsonl, s, scratch, write_file,
};

fn errors(args: &[&str], input: &[u8]) -> crate::util::Out {
    let mut a = vec!["errors"];
    a.extend_from_slice(args);
    aoi(&a, input)
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn messy() -> Vec<u8> {
    std::fs::read(example("messy.log")).expect("examples/messy.log")
}

/// The `aoi:error` of a second run, interleaved into the builder's stream.
const RUN_B: &str = "01JZQ7X4TQ9KZ8V6R2M3N4P5B2";

fn rate_limited(seq: u64) -> String {
    format!(
        r#"{{"type":"aoi:error","aoi":{{"seq":{seq},"run":"{RUN}"}},"category":"rate_limited","code":"UPSTREAM_RATE_LIMIT","message":"slow down","retryable":true,"retry_after_ms":7200}}"#
    )
}

#[test]
fn messy_log_yields_the_errors_of_both_runs_and_the_worst_outcome() {
    let out = errors(&["--log"], &messy());
    // run A: ok:true partial:true (0); run B: rate_limited, retryable (75).
    assert_eq!(out.code, 75, "{}", out.stderr);
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 2, "{got:#?}");
    // raw: the objects as they came, prefixes and CRs gone
    assert!(
        got[0].starts_with(
            r#"{"type":"aoi:error","aoi":{"seq":3,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5A1"}"#
        )
    );
    assert!(got[0].ends_with(r#""item_index":4}"#));
    assert!(got[1].contains(r#""code":"UPSTREAM_RATE_LIMIT""#));
    for l in &got {
        serde_json::from_str::<Value>(l).expect("raw lines are JSON");
    }
    // prose, the stack trace, another program's JSON, ANSI, a blank line
    assert!(
        out.stderr
            .contains("aoi errors: read as a log (--log): 9 line(s) skipped (not AOI events)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("run 01JZQ7X4TQ9KZ8V6R2M3N4P5B2: upstream retryable (exit 75)"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("5A1:"), "run A is ok: {}", out.stderr);
}

#[test]
fn messy_log_with_warnings_as_a_table() {
    let out = errors(
        &[
            "--log",
            "--warnings",
            "--output",
            "table",
            "--color",
            "never",
        ],
        &messy(),
    );
    assert_eq!(out.code, 75);
    let text = out.stdout_str();
    let rows = lines(&out.stdout);
    assert_eq!(rows.len(), 4, "{text}");
    for h in [
        "LINE", "KIND", "RUN", "ORIGIN", "CATEGORY", "CODE", "RETRY", "MESSAGE",
    ] {
        assert!(rows[0].contains(h), "{}", rows[0]);
    }
    // line numbers are the log's, origins the run's aoi:meta.tool
    assert!(
        rows[1]
            .trim_start()
            .starts_with("8  warning  M3N4P5A1  outline"),
        "{text}"
    );
    assert!(rows[2].trim_start().starts_with("10  error"), "{text}");
    assert!(rows[2].contains("not_found") && rows[2].contains("[/documents/xyz]"));
    assert!(
        rows[3]
            .trim_start()
            .starts_with("14  error    M3N4P5B2  indexer"),
        "{text}"
    );
    assert!(rows[3].contains("yes 4.5s"), "{text}");
    // columns align: CODE starts at the same character in every row
    let col = |r: &str, w: &str| r.find(w);
    assert_eq!(col(&rows[0], "CODE"), col(&rows[1], "STALE_INDEX"));
    assert_eq!(col(&rows[0], "CODE"), col(&rows[3], "UPSTREAM_RATE_LIMIT"));
    assert!(!text.contains('\x1b'), "no colour with --color never");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let out = errors(
        &["--log", "--output", "table", "--color", "always"],
        &messy(),
    );
    assert!(
        out.stdout_str().contains("\x1b[33m"),
        "rate_limited is yellow"
    );
    let out = errors(&["--log", "--output", "table"], &messy());
    assert!(!out.stdout_str().contains('\x1b'), "auto: stdout is a pipe");
}

#[test]
fn upstream_text_cannot_drive_the_terminal() {
    let st = s().ev(
        r#"{"type":"aoi:error","category":"internal","code":"X","message":"a\u001b[2Jb\u0007","retryable":false,"target":"\u001b]0;t\u0007"}"#,
    );
    let out = errors(&["--output", "table", "--color", "never"], &st.bytes());
    assert!(!out.stdout.contains(&0x1b), "{:?}", out.stdout_str());
    assert!(!out.stdout.contains(&0x07));
    assert!(out.stdout_str().contains("a\u{FFFD}[2Jb\u{FFFD}"));
}

#[test]
fn filters() {
    let m = messy();
    let count = |args: &[&str]| -> String {
        let mut a = vec!["--log", "--count"];
        a.extend_from_slice(args);
        errors(&a, &m).stdout_str()
    };
    assert_eq!(count(&[]), "2\n");
    assert_eq!(count(&["--warnings"]), "3\n");
    assert_eq!(count(&["--category", "rate_limited"]), "1\n");
    assert_eq!(count(&["--category", "rate_limited,not_found"]), "2\n");
    assert_eq!(
        count(&["--category", "rate_limited", "--category", "not_found"]),
        "2\n"
    );
    assert_eq!(count(&["--code", "DOC_MISSING"]), "1\n");
    assert_eq!(count(&["--retryable"]), "1\n");
    assert_eq!(count(&["--not-retryable"]), "1\n");
    assert_eq!(count(&["--not-retryable", "--warnings"]), "2\n");
    assert_eq!(count(&["--scope", "item"]), "1\n");
    assert_eq!(count(&["--scope", "process"]), "1\n");
    // A category outside § 9.2 is a typo, not an empty answer.
    let out = errors(&["--log", "--count", "--category", "rate_limit"], &m);
    assert_eq!(out.code, 64, "{}", out.stderr);
    assert!(out.stderr.contains("rate_limited"), "{}", out.stderr);
    // --run narrows the input to one run: its verdict alone decides
    let out = errors(
        &["--log", "--count", "--run", "01JZQ7X4TQ9KZ8V6R2M3N4P5A"],
        &m,
    );
    assert_eq!(
        (out.stdout_str().as_str(), out.code),
        ("1\n", 0),
        "{}",
        out.stderr
    );
    let out = errors(&["--log", "--run", "01JZQ7X4TQ9KZ8V6R2M3N4P5B2", "-q"], &m);
    assert_eq!(out.code, 75);
    let out = errors(&["--log", "--run", "NOPE"], &m);
    assert_eq!(out.code, 66, "{}", out.stderr);
    assert!(
        out.stderr.contains("no run matching --run NOPE"),
        "{}",
        out.stderr
    );
}

/// What aoi shows, aoi accepts: every run id as `summary
/// --log` and the merge table show it (its last 8 characters) selects
/// that run in `errors --run`, with that run's exit and errors alone.
#[test]
fn a_run_as_shown_selects_it() {
    let m = messy();
    let shown = aoi(&["summary", "--log"], &m);
    let table = aoi(&["merge-report", "--log", "--format", "table"], &m);
    let mut runs = Vec::new();
    for line in shown.stdout_str().lines() {
        let short = line.split(" run ").nth(1).and_then(|r| r.split(':').next());
        let short = short.expect("a run in the summary line").to_string();
        let code = line
            .split("(exit ")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .map_or(0, |c| c.parse().expect("an exit code"));
        assert!(
            table.stdout_str().contains(&short),
            "{short} not in the table"
        );
        runs.push((short, code));
    }
    assert_eq!(runs.len(), 2, "{}", shown.stdout_str());
    for (short, code) in runs {
        let out = errors(&["--log", "--run", &short], &m);
        assert_eq!(out.code, code, "--run {short}: {}", out.stderr);
        // As a producer, errors fails on forwarded errors (§ 13.1).
        let out = errors(&["--log", "--output", "jsonl", "--run", &short], &m);
        let events = parse_jsonl(&out.stdout);
        let errors: Vec<_> = events.iter().filter(|e| e["type"] == "aoi:error").collect();
        assert!(!errors.is_empty(), "--run {short}");
        for e in errors {
            let run = e["properties"]["forwarded"]["run"]
                .as_str()
                .unwrap_or_default();
            assert!(run.ends_with(&short), "--run {short} gave an error of {e}");
        }
        assert_conforming_report(&out.stdout, fed_back_code(out.code));
    }
}

/// `--run` naming no run of any input is 66 (no such input: there is no
/// verdict to give), with the runs that are there; a run found in one of
/// several inputs is no problem of the others.
#[test]
fn a_run_named_nowhere_is_66_and_names_the_runs() {
    let m = messy();
    let out = errors(&["--log", "--run", "ZZZZZZZZ"], &m);
    assert_eq!(out.code, 66, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("the runs read: 01JZQ7X4TQ9KZ8V6R2M3N4P5A1, 01JZQ7X4TQ9KZ8V6R2M3N4P5B2"),
        "{}",
        out.stderr
    );
    assert_eq!(
        errors(&["--log", "--run", "ZZZZZZZZ", "--no-fail"], &m).code,
        66
    );
    let out = errors(&["--log", "--run", "ZZZZZZZZ", "--output", "jsonl"], &m);
    assert_eq!(out.code, 66);
    let events = parse_jsonl(&out.stdout);
    assert!(
        events.iter().any(|e| e["code"] == "NO_MATCHING_RUN"),
        "{events:?}"
    );
    assert_conforming_report(&out.stdout, fed_back_code(66));
    // Events without a run hold no run to ask for: 66, said as such (the
    // review found 74, "no AOI stream"); without --log an input is one
    // stream, not runs to choose from: --run is a usage error there.
    let out = errors(&["--log", "--run", "ZZZZ"], &s().no_envelope().bytes());
    assert_eq!(out.code, 66, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("the runs read: (events without aoi.run)"),
        "{}",
        out.stderr
    );
    let out = errors(&["--run", "ZZZZ"], &m);
    assert_eq!(out.code, 64, "{}", out.stderr);
    assert!(out.stderr.contains("--log"), "{}", out.stderr);
    // The run is in the second input: the first holds other runs only.
    let dir = scratch("errors-run-elsewhere");
    let a = write_file(&dir, "a.log", &m);
    let b = write_file(&dir, "b.jsonl", &s().hits(1).bytes());
    let out = errors(&["--log", "--run", &RUN[RUN.len() - 8..], &a, &b], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("no run"), "{}", out.stderr);
}

#[test]
fn retryable_defaults_to_the_category_only_when_absent() {
    // § 9.3: retryable is authoritative; rate_limited with retryable:false
    // is not retryable.
    let st = s()
        .ev(r#"{"type":"aoi:error","category":"rate_limited","code":"QUOTA","message":"m","retryable":false}"#)
        .ev(r#"{"type":"aoi:error","category":"unavailable","code":"DOWN","message":"m","retryable":true}"#);
    let out = errors(&["--retryable"], &st.bytes());
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 1);
    assert!(got[0].contains("DOWN"));
    // § 9.4: an unknown category without retryable is routed as internal,
    // whose default is not retryable (it matched neither filter)
    let st = s()
        .ev(r#"{"type":"aoi:error","category":"weird","code":"B","message":"m"}"#)
        .ev(r#"{"type":"aoi:error","category":"unavailable","code":"U","message":"m"}"#);
    let got = lines(&errors(&["--not-retryable"], &st.bytes()).stdout);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].contains(r#""code":"B""#), "{got:?}");
    let got = lines(&errors(&["--retryable"], &st.bytes()).stdout);
    assert!(
        got.len() == 1 && got[0].contains(r#""code":"U""#),
        "{got:?}"
    );
    // a warning has no disposition: neither filter matches it
    let st = s().ev(r#"{"type":"aoi:warning","code":"W","message":"m"}"#);
    for f in ["--retryable", "--not-retryable"] {
        assert_eq!(
            errors(&["--warnings", "--count", f], &st.bytes()).stdout_str(),
            "0\n"
        );
    }
}

#[test]
fn jsonl_is_a_conforming_producer_with_origin_and_retry_fields() {
    let out = errors(&["--log", "--warnings", "--output", "jsonl"], &messy());
    assert_eq!(out.code, 75, "{}", out.stderr);
    assert_conforming_report(&out.stdout, 75);
    let ev = parse_jsonl(&out.stdout);
    assert_eq!(ev.len(), 5);
    assert_eq!(ev[0]["type"], "aoi:meta");
    assert_eq!(ev[0]["command"], "errors");
    assert_eq!(ev[1]["type"], "aoi:warning");
    assert_eq!(ev[1]["origin"], "outline");
    assert_eq!(ev[2]["origin"], "outline");
    assert_eq!(ev[2]["item_index"], 4);
    let e = &ev[3];
    assert_eq!(e["origin"], "indexer");
    assert_eq!(e["retryable"], true);
    assert_eq!(e["retry_after_ms"], 4500);
    assert_eq!(e["wrapped"]["status"], 429);
    assert_eq!(e["properties"]["forwarded"]["line"], 14);
    assert_eq!(
        e["properties"]["forwarded"]["run"],
        "01JZQ7X4TQ9KZ8V6R2M3N4P5B2"
    );
    assert!(e["properties"]["forwarded"]["source"].is_string());
    assert_eq!(e["aoi"]["run"], ev[0]["aoi"]["run"], "aoi's own envelope");
    let sum = &ev[4];
    assert_eq!(sum["type"], "aoi:summary");
    assert_eq!(sum["ok"], false);
    assert_eq!(sum["count"], 0, "forwarded events are framework events");
    assert_eq!(sum["input_count"], 3, "hit, hit, entry");
    assert_eq!(sum["warning_count"], 1);
    assert_eq!(sum["error_count"], 2);
    assert_eq!(sum["caused_by"]["category"], "rate_limited");
    assert_eq!(sum["caused_by"]["retry_after_ms"], 4500);
    assert_eq!(sum["caused_by"]["origin"], "indexer");
    assert_eq!(sum["properties"]["skipped_lines"], 9);
    assert_eq!(sum["properties"]["streams"], 2);
    // two upstreams with different identities: `upstream` is omitted (§ 13.1)
    assert!(sum.get("upstream").is_none());
}

#[test]
fn jsonl_for_each_outcome_feeds_back_through_check() {
    for (input, code) in [
        (s().hits(2).bytes(), 0),
        (std::fs::read(example("rate-limited.jsonl")).unwrap(), 75),
        (std::fs::read(example("truncated.jsonl")).unwrap(), 74),
        (
            s().hits(1)
                .summary(r#"{"ok":false,"reason":"denied"}"#)
                .bytes(),
            77,
        ),
        (
            s().ev(&rate_limited(1))
                .summary(r#"{"ok":false,"reason":"failed"}"#)
                .bytes(),
            75,
        ),
        (b"no stream here\n".to_vec(), 65),
    ] {
        let out = errors(&["--output", "jsonl"], &input);
        assert_eq!(out.code, code, "{}", out.stderr);
        assert_conforming_report(&out.stdout, fed_back_code(code));
        let ev = parse_jsonl(&out.stdout);
        if code == 0 {
            assert_eq!(ev.last().unwrap()["ok"], true);
            assert!(ev.last().unwrap()["upstream"]["tool"] == "outline");
        }
    }
}

#[test]
fn forwarding_twice_keeps_the_first_origin_and_replaces_provenance() {
    let first = errors(&["--log", "--output", "jsonl"], &messy());
    let again = errors(&["--log", "--output", "jsonl"], &first.stdout);
    assert_eq!(again.code, 75, "{}", again.stderr);
    assert_conforming_report(&again.stdout, 75);
    let ev = parse_jsonl(&again.stdout);
    let e: Vec<&Value> = ev.iter().filter(|e| e["type"] == "aoi:error").collect();
    assert_eq!(e.len(), 2);
    assert_eq!(e[1]["origin"], "indexer", "the tool that raised it");
    assert_eq!(e[1]["retry_after_ms"], 4500);
    let fwd = &e[1]["properties"]["forwarded"];
    assert_eq!(fwd["line"], 3, "a line of the first report, not of the log");
    let first_run = &parse_jsonl(&first.stdout)[0]["aoi"]["run"];
    assert_eq!(&fwd["run"], first_run, "the direct upstream's run");
    let sum = ev.last().unwrap();
    assert_eq!(sum["upstream"]["tool"], "aoi", "the direct upstream only");
}

#[test]
fn forwarded_members_are_copied_byte_for_byte() {
    let line = format!(
        r#"{{"type":"aoi:error",{},"code":"X","category":"internal","message":"\u00e9 \"q\"","retryable":false,"n":1.50e2,"properties":{{"a":1,"forwarded":{{"old":true}}}}}}"#,
        crate::util::env(1)
    );
    let st = s()
        .raw(&line)
        .summary(r#"{"ok":false,"reason":"failed","error_count":1}"#);
    let out = errors(&["--output", "jsonl"], &st.bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let text = out.stdout_str();
    let fwd = text.lines().nth(1).unwrap();
    assert!(
        fwd.contains(r#","origin":"outline","code":"X","category":"internal","message":"\u00e9 \"q\"","retryable":false,"properties":{"forwarded":{"source":"-","line":2,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6","fields":{"n":1.50e2}},"a":1}}"#),
        "{fwd}"
    );
    assert_conforming_report(&out.stdout, 1);
}

#[test]
fn undefined_fields_move_into_properties_never_dropped() {
    // § 8.1: tool additions to a framework event belong in `properties`;
    // a non-object `properties` is itself such a field.
    let st = s().ev(r#"{"type":"aoi:error","category":"io","code":"A","message":"m","retryable":false,"extra":[1],"properties":"oops"}"#);
    let out = errors(&["--output", "jsonl"], &st.bytes());
    // the upstream error fails aoi's run (§ 13.1), not retryable
    assert_conforming_report(&out.stdout, 1);
    let ev = parse_jsonl(&out.stdout);
    let f = &ev[1]["properties"]["forwarded"]["fields"];
    assert_eq!(f["extra"], serde_json::json!([1]));
    assert_eq!(f["properties"], "oops");
    assert!(ev[1].get("extra").is_none());
}

#[test]
fn a_wide_error_keeps_each_first_member_and_moves_every_repeat() {
    // Many members (past the pairwise comparison) with every key twice:
    // the first of each stays or moves as a single one would, every
    // repeat moves into `fields`, in order. A million members must not
    // take a million squared comparisons (checked by hand: 50,000
    // members took 1.4 s pairwise, 0.05 s now).
    let extra: String = (0..100)
        .map(|i| format!(r#","k{i}":{i},"k{i}":"again""#))
        .collect();
    let line = format!(
        r#"{{"type":"aoi:error",{},"code":"X","category":"internal","message":"m","retryable":false,"code":"Y"{extra}}}"#,
        crate::util::env(1)
    );
    let st = s()
        .raw(&line)
        .summary(r#"{"ok":false,"reason":"failed","error_count":1}"#);
    let out = errors(&["--output", "jsonl"], &st.bytes());
    assert_conforming_report(&out.stdout, 1);
    let ev = parse_jsonl(&out.stdout);
    assert_eq!(ev[1]["code"], "X", "the first code stays");
    let f = ev[1]["properties"]["forwarded"]["fields"]
        .as_object()
        .unwrap();
    assert_eq!(f["code"], "Y", "the repeat moves");
    // Undefined members move too; the object keeps the last of each.
    assert_eq!(f.len(), 101, "{f:?}");
    assert_eq!(f["k99"], "again");
}

#[test]
fn wrapped_is_read_as_the_judge_reads_it() {
    // § 9.1: `wrapped.protocol` is http, grpc or exit. The judge reads the
    // first `protocol`; a forwarded copy keeps a `wrapped` the judge
    // accepted, escapes decoded, and moves one it did not.
    let ok = r#"{"protocol":"htt\u0070","protocol":"smtp","status":500}"#;
    let bad = r#"{"protocol":"smtp","protocol":"http"}"#;
    let line = |seq, code, wrapped| {
        format!(
            r#"{{"type":"aoi:error",{},"category":"io","code":"{code}","message":"m","retryable":false,"wrapped":{wrapped}}}"#,
            crate::util::env(seq)
        )
    };
    let st = s()
        .raw(line(1, "A", ok))
        .raw(line(2, "B", bad))
        .summary(r#"{"ok":false,"reason":"failed","error_count":2}"#);
    let out = errors(&["--output", "jsonl"], &st.bytes());
    let ev = parse_jsonl(&out.stdout);
    assert_eq!(ev[1]["wrapped"]["status"], 500, "kept: {}", ev[1]);
    assert!(ev[1]["properties"]["forwarded"].get("fields").is_none());
    assert!(ev[2].get("wrapped").is_none(), "moved: {}", ev[2]);
    assert_eq!(
        ev[2]["properties"]["forwarded"]["fields"]["wrapped"]["protocol"],
        "http"
    );
    // The upstream's bad `wrapped` is a violation (65); aoi's report,
    // fed back, conforms and says it failed.
    assert_eq!(out.code, 65, "{}", out.stderr);
    assert_conforming_report(&out.stdout, 1);
}

#[test]
fn origin_falls_back_to_domain_then_unknown() {
    let st = s()
        .no_meta()
        .ev(r#"{"type":"aoi:error","category":"io","code":"A","message":"m","retryable":false,"domain":"fetcher"}"#)
        .ev(r#"{"type":"aoi:error","category":"io","code":"B","message":"m","retryable":false}"#)
        .ev(r#"{"type":"aoi:error","category":"io","code":"C","message":"m","retryable":false,"origin":"deep"}"#);
    let out = errors(&["--output", "jsonl"], &st.bytes());
    let ev = parse_jsonl(&out.stdout);
    let origins: Vec<&Value> = ev
        .iter()
        .filter(|e| e["type"] == "aoi:error" && e["code"] != "STREAM_NONCONFORMING")
        .map(|e| &e["origin"])
        .collect();
    // the summary (builder's) names outline, but a run without aoi:meta
    // has no tool when its errors pass by
    assert_eq!(origins, vec!["fetcher", "unknown", "deep"]);
}

/// An upstream that ended `denied`, `timeout` or `cancelled` with an
/// `aoi:error` keeps that outcome through every producer output: the exit
/// code `check` gives it and the summary's `reason` (§ 8.3, § 13.1). The
/// error did not overrule the outcome it came with (`errors --output
/// jsonl` said 1 and `reason:"failed"` where `check` says 124).
#[test]
fn an_upstream_outcome_survives_its_errors_in_every_output() {
    let fatal =
        r#"{"type":"aoi:error","category":"io","code":"X","message":"m","retryable":false}"#;
    for (reason, code) in [("denied", 77), ("timeout", 124), ("cancelled", 130)] {
        for error in [fatal, &rate_limited(2)] {
            let input = s()
                .hits(1)
                .ev(error)
                .summary(&format!(r#"{{"ok":false,"reason":"{reason}"}}"#))
                .bytes();
            assert_eq!(check(&["-q"], &input).code, code, "{reason}");
            for args in [
                &["errors", "--output", "jsonl"][..],
                &["filter", "."],
                &["merge-report", "--format", "jsonl"],
                &["summary", "--output", "jsonl"],
            ] {
                let out = crate::util::aoi(args, &input);
                let what = format!("{args:?} on {reason} with {error}");
                assert_eq!(out.code, code, "{what}: {}", out.stderr);
                let last = parse_jsonl(&out.stdout).pop().expect("summary");
                assert_eq!(last["reason"], reason, "{what}: {last}");
                assert_conforming_report(&out.stdout, code);
            }
        }
    }
}

#[test]
fn a_clean_stream_gets_the_verdict_aoi_check_gives() {
    let cases: Vec<Vec<u8>> = vec![
        s().hits(3).bytes(),
        s().hits(1).no_summary().bytes(),
        s().hits(2).unterminated().bytes(),
        s().hits(1).summary(r#"{"event_count":9}"#).bytes(),
        s().hits(1).summary(r#"{"ok":false,"reason":"timeout"}"#).bytes(),
        s().hits(1).summary(r#"{"ok":false,"reason":"cancelled"}"#).bytes(),
        s().hits(1).summary(r#"{"ok":false,"reason":"failed"}"#).bytes(),
        s().hits(1).summary(r#"{"partial":true}"#).bytes(),
        s().ev(&rate_limited(1)).summary(r#"{"ok":false,"reason":"failed"}"#).bytes(),
        s().ev(r#"{"type":"aoi:error","category":"partial","code":"X","message":"m","retryable":false}"#).bytes(),
        s().ev(r#"{"type":"aoi:bogus"}"#).bytes(),
    ];
    for input in cases {
        let want = check(&["-q"], &input).code;
        let got = errors(&["-q"], &input).code;
        assert_eq!(got, want, "{}", String::from_utf8_lossy(&input));
        let got = errors(&["-q", "--fail-on-partial"], &input).code;
        assert_eq!(got, check(&["-q", "--fail-on-partial"], &input).code);
    }
}

#[test]
fn interleaved_runs_are_judged_apart_with_log_line_numbers() {
    // Run A is complete; run B lost its seq 1 (a middle elision).
    let a = s().hits(2).bytes();
    let a: Vec<&[u8]> = a.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let b = s().hits(2).bytes();
    let b = String::from_utf8(b).unwrap().replace(RUN, RUN_B);
    let b: Vec<&str> = b.lines().collect();
    let mut log = Vec::new();
    for (i, l) in a.iter().enumerate() {
        log.extend_from_slice(b"[a] ");
        log.extend_from_slice(l);
        log.push(b'\n');
        if i != 1 {
            if let Some(bl) = b.get(i) {
                log.extend_from_slice(format!("[b] {bl}\n").as_bytes());
            }
        }
    }
    log.extend_from_slice(format!("[b] {}\n", b[3]).as_bytes());
    let out = errors(&["--log"], &log);
    assert_eq!(out.code, 65, "{}", out.stderr);
    // [a]0 [b]0 [a]1 [a]2 [b]2 [a]3 [b]3: b's seq 2 is on log line 5
    assert!(
        out.stderr
            .contains(&format!("run {RUN_B}: line 5 (seq 2): seq.gap")),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains(&format!("run {RUN}")),
        "{}",
        out.stderr
    );
}

#[test]
fn crlf_docker_and_cri_lines() {
    let st = s()
        .ev(&rate_limited(1))
        .summary(r#"{"ok":false,"reason":"failed"}"#)
        .bytes();
    let text = String::from_utf8(st).unwrap();
    let mut crlf = Vec::new();
    let mut docker = Vec::new();
    let mut cri = Vec::new();
    for l in text.lines() {
        crlf.extend_from_slice(format!("{l}\r\n").as_bytes());
        let wrapped = serde_json::json!({"log": format!("{l}\n"), "stream": "stdout", "time": "2026-07-30T12:00:00Z"});
        docker.extend_from_slice(format!("{wrapped}\n").as_bytes());
        cri.extend_from_slice(format!("2026-07-30T12:00:00.000000001Z stdout F {l}\n").as_bytes());
    }
    for (what, input) in [("crlf", crlf), ("docker", docker), ("cri", cri)] {
        let out = errors(&["--log", "--output", "jsonl"], &input);
        assert_eq!(out.code, 75, "{what}: {}", out.stderr);
        let ev = parse_jsonl(&out.stdout);
        assert_eq!(ev.len(), 3, "{what}");
        assert_eq!(ev[1]["code"], "UPSTREAM_RATE_LIMIT", "{what}");
        assert_eq!(ev[1]["origin"], "outline", "{what}");
        // Nothing skipped; what the log reading did is still said.
        assert!(
            out.stderr.contains("read as a log (--log): 0 line(s) skipped (not AOI events), 3 event(s) found after a prefix or decoration"),
            "{what}: {}",
            out.stderr
        );
    }
}

#[test]
fn other_programs_json_is_skipped_not_judged() {
    let mut log = s().hits(1).bytes();
    log.extend_from_slice(b"{\"type\":\"request\",\"path\":\"/\"}\n{\"level\":\"info\"}\n");
    // typed JSON after the summary, without envelope: another program's log
    let out = errors(&["--log"], &log);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("2 line(s) skipped"), "{}", out.stderr);
}

#[test]
fn no_stream_is_incomplete_and_no_fail_opts_out() {
    for input in [&b""[..], b"just prose\n", b"{\"level\":\"info\"}\n"] {
        let out = errors(&["--log"], input);
        assert_eq!(out.code, 74, "{:?}", String::from_utf8_lossy(input));
        assert!(out.stderr.contains("no AOI stream"), "{}", out.stderr);
        assert_eq!(errors(&["--log", "--no-fail"], input).code, 0);
    }
    let out = errors(&["--log", "--no-fail", "-q"], &messy());
    assert_eq!(out.code, 0);
    assert!(out.stderr.is_empty());
    assert_eq!(lines(&out.stdout).len(), 2, "output unchanged by --no-fail");
}

#[test]
fn an_unterminated_error_is_not_extracted() {
    // § 2: a final line without \n is discarded, not a complete event.
    let st = s().hits(1).ev(&rate_limited(2)).no_summary().unterminated();
    let out = errors(&[], &st.bytes());
    assert_eq!(out.code, 74);
    assert!(out.stdout.is_empty(), "{}", out.stdout_str());
    assert!(out.stderr.contains("line.unterminated"), "{}", out.stderr);
    // cut inside the JSON: the truncation is the last run's
    let mut cut = s().hits(1).no_summary().bytes();
    cut.extend_from_slice(br#"{"type":"aoi:summ"#);
    let out = errors(&[], &cut);
    assert_eq!(out.code, 74);
    assert!(
        out.stderr.contains("line 3: line.unterminated"),
        "{}",
        out.stderr
    );
}

#[test]
fn runs_past_max_runs_are_searched_but_not_judged() {
    let out = errors(&["--log", "--max-runs", "1"], &messy());
    // 74 (a run not judged) outranks 75 in the severity order
    assert_eq!(out.code, 74, "{}", out.stderr);
    assert_eq!(lines(&out.stdout).len(), 2, "both runs' errors extracted");
    assert!(
        out.stderr
            .contains("more than --max-runs 1 runs open at once"),
        "{}",
        out.stderr
    );
    let out = errors(
        &[
            "--log",
            "--max-runs",
            "1",
            "--run",
            "01JZQ7X4TQ9KZ8V6R2M3N4P5A1",
        ],
        &messy(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ok_then_ok = [
        s().hits(1).bytes(),
        String::from_utf8(s().hits(1).bytes())
            .unwrap()
            .replace(RUN, RUN_B)
            .into_bytes(),
    ]
    .concat();
    // A run ends at its summary: the cap is on runs open at
    // once, so runs one after another are all judged under any cap.
    let out = errors(&["--log", "--max-runs", "1"], &ok_then_ok);
    assert_eq!(out.code, 0, "both runs judged: {}", out.stderr);
    // The same two runs open at once: the second is past the cap.
    let (a, b) = (
        s().hits(1).bytes(),
        ok_then_ok[s().hits(1).bytes().len()..].to_vec(),
    );
    let mut both = Vec::new();
    let (la, lb): (Vec<&[u8]>, Vec<&[u8]>) = (
        a.split_inclusive(|&c| c == b'\n').collect(),
        b.split_inclusive(|&c| c == b'\n').collect(),
    );
    for (x, y) in la.iter().zip(&lb) {
        both.extend_from_slice(x);
        both.extend_from_slice(y);
    }
    let out = errors(&["--log", "--max-runs", "1"], &both);
    assert_eq!(
        out.code, 74,
        "an unjudged run is not a pass: {}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("more than --max-runs 1 runs open at once"),
        "{}",
        out.stderr
    );
    assert_eq!(errors(&["--log", "--max-runs", "2"], &both).code, 0);
}

#[test]
fn several_files_name_the_file_in_each_row() {
    let dir = scratch("errors-files");
    let a = write_file(
        &dir,
        "a.jsonl",
        &std::fs::read(example("rate-limited.jsonl")).unwrap(),
    );
    let b = write_file(&dir, "b.log", &messy());
    let out = errors(&["--log", "--output", "table", &a, &b], b"");
    assert_eq!(out.code, 75);
    let rows = lines(&out.stdout);
    assert_eq!(rows.len(), 4);
    assert!(
        rows[1].trim_start().starts_with(&format!("{a}:3 ")),
        "{}",
        rows[1]
    );
    assert!(
        rows[3].trim_start().starts_with(&format!("{b}:14 ")),
        "{}",
        rows[3]
    );
    let out = errors(&["--log", "--count", &a, "/nonexistent/x.log"], b"");
    assert_eq!(out.code, 66);
    assert_eq!(out.stdout_str(), "1\n");
    assert!(
        out.stderr.contains("cannot open /nonexistent/x.log"),
        "{}",
        out.stderr
    );
}

#[test]
fn usage_errors_are_64() {
    for args in [
        &["--retryable", "--not-retryable"][..],
        &["--count", "--output", "jsonl"],
        &["--scope", "global"],
        &["--output", "yaml"],
        &["--color", "sometimes"],
    ] {
        assert_eq!(errors(args, b"").code, 64, "{args:?}");
    }
}

#[test]
fn stdout_closed_early_is_quiet() {
    let mut st = s();
    for i in 0..60_000 {
        st = st.ev(&format!(
            r#"{{"type":"aoi:error","scope":"item","item_index":{i},"category":"not_found","code":"GONE","message":"item vanished","retryable":false}}"#
        ));
    }
    let input = st.bytes();
    for format in ["raw", "table", "jsonl"] {
        assert_quiet_on_early_close(&["errors", "--output", format], input.clone());
    }
}

/// A random log: the events of one stream with prose, prefixes, CRs and
/// other programs' JSON between and before them.
fn log_and_errors() -> impl Strategy<Value = (Vec<u8>, Vec<String>)> {
    let event = prop_oneof![
        Just(r#"{"type":"hit","rank":1}"#.to_string()),
        Just(r#"{"type":"aoi:warning","code":"W","message":"w"}"#.to_string()),
        "[A-Z][A-Z0-9_]{0,8}".prop_map(|code| format!(
            r#"{{"type":"aoi:error","scope":"item","category":"validation","code":"{code}","message":"bad","retryable":false}}"#
        )),
    ];
    let noise = prop_oneof![
        Just(String::new()),
        "[a-z ]{1,20}",
        Just(r#"{"level":"warn","msg":"{x}"}"#.to_string()),
        Just("\u{1b}[31mred\u{1b}[0m".to_string()),
    ];
    let prefix = prop_oneof![
        Just(String::new()),
        Just("[w-1] ".to_string()),
        Just("2026-07-30T12:00:00Z stdout F ".to_string()),
        Just("{x} ".to_string()),
    ];
    (proptest::collection::vec(
        (event, prefix, noise, any::<bool>()),
        0..12,
    ),)
        .prop_map(|(items,)| {
            let mut st = s();
            for (e, _, _, _) in &items {
                st = st.ev(e);
            }
            let bytes = st.bytes();
            let text = String::from_utf8(bytes).expect("test input");
            let evs: Vec<&str> = text.lines().collect();
            let mut log = String::new();
            let mut want = Vec::new();
            // meta, then each body event with its noise, then the summary
            log.push_str(evs[0]);
            log.push('\n');
            for (i, (_, prefix, noise, cr)) in items.iter().enumerate() {
                let line = evs[i + 1];
                log.push_str(noise);
                log.push('\n');
                log.push_str(prefix);
                log.push_str(line);
                if *cr {
                    log.push('\r');
                }
                log.push('\n');
                if line.contains(r#""type":"aoi:error""#) {
                    want.push(line.to_string());
                }
            }
            log.push_str(evs[evs.len() - 1]);
            log.push('\n');
            (log.into_bytes(), want)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever surrounds them, the stream's errors come out exactly as
    /// they were written, in order, and the stream is judged as clean; as
    /// a producer (`--output jsonl`), aoi's run fails on them (§ 13.1).
    #[test]
    fn errors_survive_any_log_noise((log, want) in log_and_errors()) {
        let out = errors(&["--log"], &log);
        prop_assert_eq!(lines(&out.stdout), want.clone());
        prop_assert_eq!(out.code, 0, "{}", out.stderr);
        let out = errors(&["--log", "--output", "jsonl"], &log);
        let ev = parse_jsonl(&out.stdout);
        prop_assert_eq!(ev.len(), want.len() + 2);
        let sum = ev.last().unwrap();
        prop_assert_eq!(&sum["ok"], &Value::Bool(want.is_empty()));
        prop_assert_eq!(sum["error_count"].as_u64(), Some(want.len() as u64));
    }
}

// --- found by review: each of these once let a lie or a broken stream out --

#[test]
fn runs_past_max_runs_still_count_in_a_conforming_report() {
    let out = errors(
        &["--log", "-q", "-w", "--output", "jsonl", "--max-runs", "1"],
        &messy(),
    );
    assert_eq!(out.code, 74);
    assert_conforming_report(&out.stdout, fed_back_code(74));
    let ev = parse_jsonl(&out.stdout);
    let sum = ev.last().unwrap();
    // run A's error and warning, run B's error (untracked), aoi's own
    assert_eq!(sum["error_count"], 3, "{sum}");
    assert_eq!(sum["warning_count"], 1);
    assert_eq!(sum["input_count"], 3);
    assert_eq!(sum["caused_by"]["code"], "TOO_MANY_RUNS");
}

#[test]
fn reports_of_failing_inputs_name_a_cause() {
    // cut, or one input unreadable: aoi's own failure is the cause, so the
    // report carries caused_by even though upstream errors were forwarded
    let mut cut = std::fs::read(example("rate-limited.jsonl")).unwrap();
    cut.pop();
    let out = errors(&["--output", "jsonl"], &cut);
    assert_eq!(out.code, 74);
    assert_conforming_report(&out.stdout, fed_back_code(74));
    let out = errors(
        &[
            "--output",
            "jsonl",
            &example("rate-limited.jsonl"),
            "/nonexistent",
        ],
        b"",
    );
    assert_eq!(out.code, 66);
    assert_conforming_report(&out.stdout, fed_back_code(66));
}

#[test]
fn malformed_upstream_errors_are_forwarded_conforming() {
    for bad in [
        r#"{"type":"aoi:error","category":"io","code":"lower","message":"m"}"#,
        r#"{"type":"aoi:error","code":"X","message":"m","retryable":false}"#,
        r#"{"type":"aoi:error","category":"partial","code":"X","message":"m","retryable":false}"#,
        r#"{"type":"aoi:error","category":"io","code":"X","message":"two\nlines \u001b[1m","retryable":false}"#,
        r#"{"type":"aoi:error","category":"io","code":"X","message":"m","retryable":false,"retry_after_ms":5}"#,
        r#"{"type":"aoi:error","category":"io","code":"X","code":"Y","message":"m","retryable":"no","scope":"all","origin":7}"#,
    ] {
        let st = s().raw(format!(
            "{},{}{}",
            &bad[..19],
            crate::util::env(1),
            &bad[19..]
        ));
        let out = errors(&["--output", "jsonl"], &st.bytes());
        assert_eq!(out.code, 65, "the upstream broke the contract: {bad}");
        assert_conforming_report(&out.stdout, fed_back_code(65));
        let ev = parse_jsonl(&out.stdout);
        let fwd = &ev[1];
        assert_eq!(fwd["type"], "aoi:error", "{bad}");
        // what was malformed moved into fields; what was missing supplied
        let moved = fwd["properties"]["forwarded"]["fields"].is_object();
        assert!(moved || fwd["category"] == "internal", "{bad}: {fwd}");
    }
}

#[test]
fn escaped_run_ids_are_the_same_run() {
    let text = String::from_utf8(s().hits(2).bytes()).unwrap();
    let escaped: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 1 {
                l.replace("01JZQ", "01J\\u005aQ")
            } else {
                l.to_string()
            }
        })
        .collect();
    let input = format!("{}\n", escaped.join("\n"));
    assert_eq!(check(&["-q"], input.as_bytes()).code, 0);
    let out = errors(&[], input.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn a_docker_line_cut_before_its_newline_is_truncated() {
    let text = String::from_utf8(s().hits(1).bytes()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut log = String::new();
    for (i, l) in lines.iter().enumerate() {
        let nl = if i + 1 == lines.len() { "" } else { "\n" };
        let wrapped = serde_json::json!({"log": format!("{l}{nl}"), "stream": "stdout"});
        log.push_str(&format!("{wrapped}\n"));
    }
    let out = errors(&["--log"], log.as_bytes());
    assert_eq!(out.code, 74, "{}", out.stderr);
    assert!(out.stderr.contains("line.unterminated"), "{}", out.stderr);
}

#[test]
fn trailing_prose_after_finished_runs_is_just_prose() {
    let mut m = messy();
    m.pop();
    let out = errors(&["--log"], &m);
    assert_eq!(out.code, 75, "{}", out.stderr);
    assert!(out.stderr.contains("9 line(s) skipped"), "{}", out.stderr);
}

#[test]
fn a_long_error_line_is_extracted_as_a_short_one() {
    // Past a 1 KiB hold the line is read in pieces; its error
    // is found, its message kept (up to a long line's copy of it).
    let big = format!(
        r#"{{"type":"aoi:error","category":"io","code":"XLONG","message":"{}","retryable":false}}"#,
        "m".repeat(2000)
    );
    let st = s().no_envelope().ev(&big);
    let hold = [("AOI_HOLD_LINE_BYTES", "1024")];
    let want = check(&["-q"], &st.bytes()).code;
    let out = crate::util::aoi_env(&["errors", "--output", "jsonl"], &st.bytes(), &hold);
    let short = aoi(&["errors", "--output", "jsonl"], &st.bytes());
    assert_eq!(out.code, short.code, "{}", out.stderr);
    assert_eq!(
        crate::util::aoi_env(&["errors", "-q"], &st.bytes(), &hold).code,
        want
    );
    let text = out.stdout_str();
    assert!(
        text.contains("XLONG") && text.contains(&"m".repeat(2000)),
        "{text}"
    );
}

#[test]
fn events_wrapped_in_colour_are_found() {
    let ev = rate_limited(1);
    let st = s()
        .raw(format!("\u{1b}[31m{ev}\u{1b}[0m"))
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let out = errors(&["--log", "--count"], &st.bytes());
    assert_eq!(out.stdout_str(), "1\n", "{}", out.stderr);
    // a damaged one is not silently lost
    let damaged = s()
        .no_envelope()
        .raw(r#"{"type":"aoi:error","code":"X","message":"cut"#);
    let out = errors(&["--log", "--count"], &damaged.bytes());
    assert!(out.stderr.contains("mention aoi:error"), "{}", out.stderr);
}

#[test]
fn table_columns_align_with_wide_text() {
    let st = s()
        .meta(r#"{"tool":"検索ツール"}"#)
        .ev(r#"{"type":"aoi:error","category":"io","code":"A","message":"m","retryable":false}"#)
        .ev(r#"{"type":"aoi:error","category":"io","code":"WIDE_原因","message":"m","retryable":false}"#);
    let out = errors(&["--output", "table", "--color", "never"], &st.bytes());
    let rows = lines(&out.stdout);
    // the RETRY column starts at the same terminal column in every row
    let col = |r: &str| -> usize {
        let i = r
            .find(" no ")
            .map(|i| i + 1)
            .unwrap_or_else(|| r.find("RETRY").unwrap());
        r[..i]
            .chars()
            .map(|c| {
                if ('\u{3000}'..='\u{9fff}').contains(&c) {
                    2
                } else {
                    1
                }
            })
            .sum()
    };
    assert_eq!(col(&rows[1]), col(&rows[2]), "{rows:#?}");
    assert_eq!(col(&rows[0]), col(&rows[1]), "{rows:#?}");
}

/// § 4.2, `--idle-timeout`: a silent upstream ends `aoi errors` with the
/// timeout outcome (124) instead of holding the pipeline; its report says
/// so, and conforms.
#[test]
fn idle_timeout_ends_a_silent_log() {
    let head = s().hits(2).no_summary().bytes();
    let out = crate::util::fed_then_silent(
        &["errors", "--output", "jsonl", "--idle-timeout", "300ms"],
        &head,
    )
    .expect("a small head fits in a pipe");
    assert_eq!(out.code, 124, "{}", out.stderr);
    assert!(out.stderr.contains("input.idle-timeout"), "{}", out.stderr);
    assert_conforming_report(&out.stdout, fed_back_code(124));
    let events = parse_jsonl(&out.stdout);
    assert_eq!(events.last().unwrap()["reason"], "timeout");
    // Human output too.
    let out = crate::util::fed_then_silent(&["errors", "--idle-timeout", "300ms"], &head)
        .expect("a small head fits in a pipe");
    assert_eq!(out.code, 124, "{}", out.stderr);
    assert!(out.stderr.contains("went silent"), "{}", out.stderr);
}

/// Logs rich in non-ASCII text have their UTF-8 checked a block at a time
/// (`lines::utf8_prefix`): an event line with a bad sequence is still not
/// an event (it is not JSON, § 2), and every other one is still found, on
/// one thread and on two, from a file and from a pipe.
#[test]
fn an_event_with_invalid_utf8_among_non_ascii_text_is_not_counted() {
    let good = r#"{"type":"aoi:error","category":"io","code":"E","message":"日本語 ✅ ภาษาไทย Иван Петров „Zitat“ été 🎉","retryable":false}"#;
    let mut st = s();
    let mut events = 0;
    for i in 0..5000 {
        if i % 997 == 3 {
            st = st.raw(
                [
                    &b"{\"type\":\"aoi:error\",\"category\":\"io\",\"code\":\"E\",\"message\":\"\xe6\x97\xa5 "[..],
                    b"\xed\xa0\x80",
                    b"\",\"retryable\":false}",
                ]
                .concat(),
            );
        } else {
            st = st.ev(good);
            events += 1;
        }
    }
    let input = st.bytes();
    assert!(input.len() > 3 * 256 * 1024, "spans several blocks");
    let dir = scratch("errors-utf8");
    let file = write_file(&dir, "unicode.log", &input);
    let args = ["errors", "-q", "--no-fail", "--count"];
    crate::util::across_splits(&args, &input, &file, |run, out| {
        assert_eq!(
            out.stdout_str(),
            format!("{events}\n"),
            "{run}: {}",
            out.stderr
        );
    });
}

/// § 13.1: with `--output jsonl` aoi is an AOI producer, and an upstream
/// aoi:error fails its run even when the upstream ended ok:true (a partial
/// success): ok:false, caused_by the most severe upstream error, exit 75
/// for a retryable one, else 1, as `filter` does; `--continue-on-error`
/// keeps the run ok. The other outputs exit with the upstream's verdict, as
/// `check` does. (The jsonl summary said ok:true; found by review.)
#[test]
fn jsonl_fails_on_upstream_errors_unless_continue_on_error() {
    let item = r#"{"type":"aoi:error","scope":"item","category":"not_found","code":"GONE","message":"m","retryable":false}"#;
    let retry = r#"{"type":"aoi:error","scope":"item","category":"unavailable","code":"BUSY","message":"m","retryable":true}"#;
    for (events, code, cause) in [
        (vec![item], 1, "GONE"),
        (vec![retry, item], 1, "GONE"),
        (vec![retry], 75, "BUSY"),
    ] {
        let mut st = s().hits(1);
        for e in &events {
            st = st.ev(e);
        }
        let input = st.summary(r#"{"partial":true}"#).bytes();
        // the upstream itself is ok: check and the plain outputs say so
        assert_eq!(check(&["-q"], &input).code, 0);
        assert_eq!(errors(&["-q"], &input).code, 0);
        let out = errors(&["--output", "jsonl"], &input);
        assert_eq!(out.code, code, "{events:?}: {}", out.stderr);
        assert_conforming_report(&out.stdout, fed_back_code(code));
        let ev = parse_jsonl(&out.stdout);
        let sum = ev.last().unwrap();
        assert_eq!(sum["ok"], false, "{sum}");
        assert_eq!(sum["caused_by"]["code"], cause, "{sum}");
        assert_eq!(sum["caused_by"]["origin"], "outline", "{sum}");
        let out = errors(&["--output", "jsonl", "--continue-on-error"], &input);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_conforming_report(&out.stdout, 0);
        assert_eq!(parse_jsonl(&out.stdout).last().unwrap()["ok"], true);
    }
}

/// Docker's json-file driver splits a line over 16 KiB into records whose
/// `log` lacks the `\n` until the last piece: the pieces are one event,
/// not prose and a seq gap (a false violation before), by every command
/// that reads a log.
#[test]
fn docker_records_of_a_split_line_are_one_event() {
    let big = "x".repeat(40_000);
    let st = s()
        .ev(&format!(r#"{{"type":"hit","body":"{big}"}}"#))
        .ev(&rate_limited(2))
        .summary(r#"{"ok":false,"reason":"failed"}"#)
        .bytes();
    let text = String::from_utf8(st).expect("UTF-8");
    let mut log = String::new();
    for l in text.lines() {
        let line = format!("{l}\n");
        let chars: Vec<char> = line.chars().collect();
        for piece in chars.chunks(16 * 1024) {
            let piece: String = piece.iter().collect();
            let rec = serde_json::json!({"log": piece, "stream": "stdout", "time": "2026-12-05T00:00:00Z"});
            log.push_str(&format!("{rec}\n"));
            // Another stream's record between the pieces.
            log.push_str("{\"log\":\"progress 50%\\n\",\"stream\":\"stderr\",\"time\":\"2026-12-05T00:00:00Z\"}\n");
        }
    }
    let out = errors(&["--log", "--output", "jsonl"], log.as_bytes());
    assert_eq!(out.code, 75, "{}", out.stderr);
    assert!(!out.stderr.contains("seq.gap"), "{}", out.stderr);
    let out = aoi(
        &["merge-report", "--log", "--format", "jsonl"],
        log.as_bytes(),
    );
    let reports: Vec<serde_json::Value> = parse_jsonl(&out.stdout)
        .into_iter()
        .filter(|e| e["type"] == "report")
        .collect();
    assert_eq!(reports.len(), 1, "{}", out.stderr);
    assert_eq!(reports[0]["outcome"], "retryable", "{}", reports[0]);
    assert_eq!(reports[0]["domain_count"], 1, "{}", reports[0]);
    let out = aoi(&["strip", "--log"], log.as_bytes());
    let hits = parse_jsonl(&out.stdout);
    assert_eq!(hits.len(), 1, "{}", out.stderr);
    assert_eq!(hits[0]["body"].as_str().map(str::len), Some(40_000));
}

/// Docker cuts by size wherever 16 KiB falls: right after a nested object
/// that has a `type` (the first piece then holds an object), or after the
/// whole line of exactly 16 KiB (the last piece is `"\n"` alone). Either
/// way the pieces are one event (independent review: both were false
/// violations); pieces left at the end are the cut line they are.
#[test]
fn docker_pieces_that_hold_an_object_are_still_pieces() {
    let rec = |log: &str| {
        let r = serde_json::json!({"log": log, "stream": "stdout", "time": "2026-12-05T00:00:00Z"});
        format!("{r}\n")
    };
    let text = String::from_utf8(
        s().ev(r#"{"type":"hit","data":{"type":"inner","v":1},"rank":1}"#)
            .bytes(),
    )
    .expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    let hit = lines[1];
    let cut = hit.find(r#","rank""#).expect("rank");
    let mut nested = String::new();
    let mut exact = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i == 1 {
            nested.push_str(&rec(&hit[..cut]));
            nested.push_str(&rec(&format!("{}\n", &hit[cut..])));
            exact.push_str(&rec(hit));
            exact.push_str(&rec("\n"));
        } else {
            nested.push_str(&rec(&format!("{l}\n")));
            exact.push_str(&rec(&format!("{l}\n")));
        }
    }
    for (what, log) in [("nested", &nested), ("exact", &exact)] {
        for args in [
            &["merge-report", "--log", "-q", "--format", "jsonl"][..],
            &["errors", "--log", "-q"],
            &["summary", "--log", "-q"],
        ] {
            let out = aoi(args, log.as_bytes());
            assert_eq!(out.code, 0, "{what} {args:?}: {}", out.stdout_str());
        }
        let out = aoi(&["strip", "--log"], log.as_bytes());
        assert_eq!(out.code, 0, "{what}: {}", out.stderr);
        assert_eq!(parse_jsonl(&out.stdout).len(), 1, "{what}");
    }
    // The input ends inside a split line: that line is cut (§ 2).
    let mut cut_short = String::new();
    for l in &lines[..lines.len() - 1] {
        cut_short.push_str(&rec(&format!("{l}\n")));
    }
    let last = lines[lines.len() - 1];
    cut_short.push_str(&rec(&last[..last.len() / 2]));
    let out = errors(&["--log"], cut_short.as_bytes());
    assert_eq!(out.code, 74, "{}", out.stderr);
    assert!(out.stderr.contains("line.unterminated"), "{}", out.stderr);
}

/// An escaped lone surrogate in a message (a JavaScript producer cut a
/// string between the halves of a pair) is U+FFFD in the table, and the
/// text after it is kept (it swallowed the next six bytes and made them
/// part of a wrong character).
#[test]
fn a_lone_surrogate_in_a_message_keeps_the_text_after_it() {
    // serde_json (the stream builder's) rejects lone surrogates: the
    // line is written by hand, after the builder's meta.
    let meta = s().bytes();
    let meta = meta.split(|&b| b == b'\n').next().unwrap_or_default();
    let ev = format!(
        r#"{{"type":"aoi:error",{},"category":"validation","code":"X","message":"cut \ud83d here, \ud83d\u0041 and \ude00 end","retryable":false}}"#,
        crate::util::env(1)
    );
    let input = [meta, b"\n", ev.as_bytes(), b"\n"].concat();
    let out = errors(&["--output", "table", "--color", "never"], &input);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("cut \u{FFFD} here, \u{FFFD}A and \u{FFFD} end"),
        "{text}"
    );
}
