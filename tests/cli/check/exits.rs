//! The exit table (`aoi check --help`): one outcome per code, the order
//! several streams combine in, and aoi's own operational codes.

use super::{INTERNAL, RATE_LIMITED, err};
use crate::util::{Stream, aoi, check, report_full, s, scratch, write_file};

/// A conforming stream for each stream outcome, with its exit code.
fn outcome_streams() -> Vec<(i32, Stream)> {
    vec![
        (65, s().hits(1).raw("prose")),
        (74, s().hits(1).no_summary()),
        (77, s().summary(r#"{"ok":false,"reason":"denied"}"#)),
        (
            1,
            s().ev(INTERNAL)
                .summary(r#"{"ok":false,"reason":"failed"}"#),
        ),
        (124, s().summary(r#"{"ok":false,"reason":"timeout"}"#)),
        (130, s().summary(r#"{"ok":false,"reason":"cancelled"}"#)),
        (
            75,
            s().ev(RATE_LIMITED)
                .summary(r#"{"ok":false,"reason":"failed"}"#),
        ),
        (0, s().hits(2)),
    ]
}

/// `aoi check` on `stream`: the exit code (relay mode and report mode agree).
fn exit_of(stream: &Stream, args: &[&str]) -> i32 {
    let bytes = stream.bytes();
    let relay = check(args, &bytes);
    assert_eq!(relay.stdout, bytes, "relay is not byte-identical");
    let r = report_full(&bytes, args);
    assert_eq!(
        r.code,
        relay.code,
        "report mode and relay mode disagree: {}",
        r.brief()
    );
    relay.code
}

#[test]
fn ok_true_is_0() {
    assert_eq!(exit_of(&s().hits(3), &[]), 0);
}

#[test]
fn ok_true_with_upstream_errors_counted_is_0() {
    // Item errors on a run that still says ok:true: the summary decides.
    assert_eq!(exit_of(&s().hits(1).ev(&err("{}")), &[]), 0);
}

#[test]
fn partial_is_0_and_1_with_fail_on_partial() {
    let st = s()
        .hits(2)
        .ev(&err("{}"))
        .summary(r#"{"ok":true,"partial":true}"#);
    assert_eq!(exit_of(&st, &[]), 0);
    assert_eq!(exit_of(&st, &["--fail-on-partial"]), 1);
    // partial:false is not affected by the flag.
    assert_eq!(
        exit_of(&s().summary(r#"{"partial":false}"#), &["--fail-on-partial"]),
        0
    );
}

/// `--fail-on-partial` keeps the cause's disposition (§ 9.3): a
/// partial run whose item error says retry may help is 75, with the wait
/// it asks for, and its verdict line never says both "not retryable" and
/// "retryable after".
#[test]
fn fail_on_partial_keeps_a_retryable_cause() {
    let retryable = r#"{"type":"aoi:error","scope":"item","item_index":0,"category":"rate_limited","code":"SLOW","message":"slow","retryable":true,"retry_after_ms":7200}"#;
    let st = s()
        .hits(1)
        .ev(retryable)
        .summary(r#"{"ok":true,"partial":true}"#);
    assert_eq!(exit_of(&st, &[]), 0);
    let out = check(&["--no-relay", "--fail-on-partial"], &st.bytes());
    assert_eq!(out.code, 75, "{}", out.stderr);
    assert!(out.stderr.contains("retry may help"), "{}", out.stderr);
    assert!(!out.stderr.contains("not retryable"), "{}", out.stderr);
    let field = aoi(
        &["summary", "--fail-on-partial", "--field", "retry_after_ms"],
        &st.bytes(),
    );
    assert_eq!((field.code, field.stdout_str().as_str()), (75, "7200\n"));
    // A cause that says retry will not help stays 1.
    let st = s()
        .hits(1)
        .ev(&retryable.replace(
            r#""retryable":true,"retry_after_ms":7200"#,
            r#""retryable":false"#,
        ))
        .summary(r#"{"ok":true,"partial":true}"#);
    let out = check(&["--no-relay", "--fail-on-partial"], &st.bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(!out.stderr.contains("retryable after"), "{}", out.stderr);
}

#[test]
fn skipped_is_0() {
    assert_eq!(
        exit_of(&s().summary(r#"{"ok":true,"reason":"skipped"}"#), &[]),
        0
    );
}

#[test]
fn failed_without_errors_is_1() {
    assert_eq!(
        exit_of(&s().summary(r#"{"ok":false,"reason":"failed"}"#), &[]),
        1
    );
}

#[test]
fn failed_with_non_retryable_error_is_1() {
    let st = s()
        .ev(INTERNAL)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    assert_eq!(exit_of(&st, &[]), 1);
}

#[test]
fn failed_with_retryable_error_is_75() {
    let st = s()
        .hits(1)
        .ev(RATE_LIMITED)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    assert_eq!(exit_of(&st, &[]), 75);
}

#[test]
fn a_non_retryable_process_error_outranks_a_retryable_one() {
    // Retry cannot help while a non-retryable process error stands (§ 13.1
    // "most severe upstream error").
    let st = s()
        .ev(RATE_LIMITED)
        .ev(INTERNAL)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    assert_eq!(exit_of(&st, &[]), 1);
}

#[test]
fn caused_by_retryable_decides_over_the_errors() {
    // The errors say retryable, caused_by says not: 1.
    let st = s().ev(RATE_LIMITED).summary(
        r#"{"ok":false,"reason":"failed","caused_by":{"category":"rate_limited","code":"HARD_QUOTA","retryable":false}}"#,
    );
    assert_eq!(exit_of(&st, &[]), 1);
    // The errors say not retryable, caused_by says retryable: 75.
    let st = s().ev(INTERNAL).summary(
        r#"{"ok":false,"reason":"failed","caused_by":{"category":"unavailable","code":"UPSTREAM_DOWN","retryable":true,"retry_after_ms":100}}"#,
    );
    assert_eq!(exit_of(&st, &[]), 75);
    // caused_by without errors at all.
    let st = s().summary(
        r#"{"ok":false,"reason":"failed","caused_by":{"category":"unavailable","code":"UPSTREAM_DOWN","retryable":true}}"#,
    );
    assert_eq!(exit_of(&st, &[]), 75);
}

#[test]
fn denied_is_77() {
    let st = s()
        .ev(r#"{"type":"aoi:error","category":"authz","code":"FORBIDDEN","message":"not allowed","retryable":false}"#)
        .summary(r#"{"ok":false,"reason":"denied"}"#);
    assert_eq!(exit_of(&st, &[]), 77);
}

#[test]
fn timeout_is_124() {
    // reason timeout wins even with a retryable error (the reason is the outcome).
    let st = s()
        .ev(RATE_LIMITED)
        .summary(r#"{"ok":false,"reason":"timeout"}"#);
    assert_eq!(exit_of(&st, &[]), 124);
}

#[test]
fn cancelled_is_130() {
    // § 7's example summary, with the envelope the builder adds.
    let st = s().hits(2).summary(r#"{"ok":false,"reason":"cancelled"}"#);
    assert_eq!(exit_of(&st, &[]), 130);
}

#[test]
fn violation_is_65_and_incomplete_is_74() {
    assert_eq!(exit_of(&s().raw("oops"), &[]), 65);
    assert_eq!(exit_of(&s().no_summary(), &[]), 74);
    // A violation wins over the stream being incomplete.
    assert_eq!(exit_of(&s().raw("oops").no_summary(), &[]), 65);
}

#[test]
fn unbounded_clean_eof_is_0() {
    let st = s().ev(r#"{"type":"aoi:heartbeat"}"#).hits(2).no_summary();
    assert_eq!(exit_of(&st, &["--unbounded"]), 0);
    // An unbounded stream cut mid-line is still incomplete.
    assert_eq!(exit_of(&st.clone().unterminated(), &["--unbounded"]), 74);
    // An unbounded stream may still end with a summary (§ 4.2 cancellation).
    let st = s().hits(1).summary(r#"{"ok":false,"reason":"cancelled"}"#);
    assert_eq!(exit_of(&st, &["--unbounded"]), 130);
}

/// With several FILEs the most severe verdict wins: 65, 74, 77, 1, 124,
/// 130, 75, 0. Checked for every pair in both orders.
#[test]
fn several_files_most_severe_wins() {
    let order = [65, 74, 77, 1, 124, 130, 75, 0];
    let dir = scratch("order");
    let streams = outcome_streams();
    let path = |code: i32| -> String {
        let (_, st) = streams.iter().find(|(c, _)| *c == code).unwrap();
        write_file(&dir, &format!("{code}.jsonl"), &st.bytes())
    };
    for (i, &a) in order.iter().enumerate() {
        // Each stream alone.
        let pa = path(a);
        assert_eq!(check(&["-q", &pa], b"").code, a, "{pa} alone");
        for &b in &order[i + 1..] {
            let pb = path(b);
            for files in [[&pa, &pb], [&pb, &pa]] {
                let out = check(&["-q", files[0], files[1]], b"");
                assert_eq!(out.code, a, "files {files:?}: expected {a}");
            }
        }
    }
    // All eight at once, and the report agrees.
    let all: Vec<String> = order.iter().rev().map(|&c| path(c)).collect();
    let mut args = vec!["-q"];
    args.extend(all.iter().map(String::as_str));
    assert_eq!(check(&args, b"").code, 65);
    let r = report_full(b"", &args[1..]);
    assert_eq!(r.code, 65);
    assert_eq!(r.streams().len(), 8);
    assert_eq!(r.summary()["properties"]["exit_code"], 65);
}

#[test]
fn a_missing_input_file_is_66_and_the_others_are_still_judged() {
    let dir = scratch("missing");
    let good = s().hits(1).bytes();
    let p = write_file(&dir, "good.jsonl", &good);
    let missing = dir.join("nope.jsonl");
    let missing = missing.to_str().unwrap();
    let out = check(&[missing, &p], b"");
    assert_eq!(out.code, 66, "{}", out.stderr);
    assert_eq!(out.stdout, good, "the readable file is still relayed");
    assert!(out.stderr.contains("nope.jsonl"), "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("{p}: ok")),
        "the other file's verdict: {}",
        out.stderr
    );
    // 66 is aoi's own failure and outranks the stream verdicts.
    let bad = write_file(&dir, "bad.jsonl", b"prose\n");
    assert_eq!(check(&["-q", &bad, missing], b"").code, 66);
    // The report names the unreadable input and judges the rest.
    let r = report_full(b"", &[&p, missing]);
    assert_eq!(r.code, 66);
    assert_eq!(r.streams().len(), 1);
    assert_eq!(r.stream()["source"], p.as_str());
    let e: Vec<_> = r
        .events
        .iter()
        .filter(|e| e["type"] == "aoi:error")
        .collect();
    assert_eq!(e.len(), 1, "{:?}", r.events);
    assert_eq!(e[0]["target"], missing);
    assert_eq!(e[0]["retryable"], false);
    assert_eq!(r.summary()["ok"], false);
}

#[test]
fn a_directory_as_file_is_66() {
    let dir = scratch("dir");
    let d = dir.to_str().unwrap();
    let out = check(&[d], b"");
    assert_eq!(out.code, 66, "{}", out.stderr);
    assert!(out.stderr.contains("directory"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

#[test]
fn an_unwritable_report_is_73() {
    let out = check(&["--report", "/nonexistent/dir/x"], &s().bytes());
    assert_eq!(out.code, 73, "{}", out.stderr);
    assert!(out.stderr.contains("/nonexistent/dir/x"), "{}", out.stderr);
}

#[test]
fn usage_errors_are_64() {
    for args in [
        &["check", "--bogus"][..],
        &["--bogus"],
        &["check", "--output", "yaml"],
        &["filter", ".", "--max-line-bytes", "0"],
        &["filter", ".", "--max-line-bytes", "12Q"],
        &["frobnicate"],
        &[],
    ] {
        let out = aoi(args, b"");
        assert_eq!(out.code, 64, "aoi {args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "aoi {args:?} wrote stdout");
        assert!(!out.stderr.is_empty(), "aoi {args:?}: no message");
    }
}

#[test]
fn help_and_version_are_0() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["check", "--help"],
        &["check", "-h"],
        &["help", "check"],
        &["--version"],
        &["-V"],
        &["check", "--version"],
    ] {
        let out = aoi(args, b"");
        assert_eq!(out.code, 0, "aoi {args:?}: {}", out.stderr);
        assert!(!out.stdout.is_empty(), "aoi {args:?}: nothing on stdout");
    }
    let v = aoi(&["--version"], b"");
    assert!(v.stdout_str().contains(env!("CARGO_PKG_VERSION")));
    // The long help carries the exit table.
    let h = aoi(&["check", "--help"], b"").stdout_str();
    for code in ["65", "74", "77", "124", "130", "75", "141"] {
        assert!(h.contains(code), "exit table lacks {code}");
    }
}

/// The verdict line names one error and quotes that error's message, never
/// another's: a summary whose caused_by is an upstream UP_THROTTLED beside
/// a local LOCAL_FLAKY error is described by UP_THROTTLED alone.
#[test]
fn the_cause_is_described_by_its_own_fields_only() {
    let input = s()
        .ev(r#"{"type":"aoi:error","category":"unavailable","code":"LOCAL_FLAKY","message":"local flaky backend","retryable":true}"#)
        .summary(r#"{"ok":false,"reason":"failed","caused_by":{"category":"rate_limited","code":"UP_THROTTLED","origin":"up","retryable":true}}"#)
        .bytes();
    let out = check(&[], &input);
    assert_eq!(out.code, 75);
    assert!(
        out.stderr
            .contains("caused by rate_limited UP_THROTTLED from up"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("local flaky backend"),
        "{}",
        out.stderr
    );
    // The same error's message does fill a caused_by that has none.
    let input = s()
        .ev(r#"{"type":"aoi:error","category":"rate_limited","code":"UP_THROTTLED","message":"slow down","retryable":true}"#)
        .summary(r#"{"ok":false,"reason":"failed","caused_by":{"category":"rate_limited","code":"UP_THROTTLED","retryable":true}}"#)
        .bytes();
    let out = check(&[], &input);
    assert!(out.stderr.contains(r#""slow down""#), "{}", out.stderr);
}

/// An empty stream (a usage error's empty stdout) is said to be empty, not
/// a crash; it is still incomplete, exit 74.
#[test]
fn an_empty_stream_is_called_empty() {
    let out = check(&[], b"");
    assert_eq!(out.code, 74);
    assert!(
        out.stderr.contains("the stream was empty"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("crashed"), "{}", out.stderr);
    let cut = check(&[], &s().hits(1).no_summary().bytes());
    assert!(
        cut.stderr
            .contains("crashed, was killed, or the stream was cut"),
        "{}",
        cut.stderr
    );
}

/// A failed doctor run (§ 19.3) names the check it failed on, in `check`,
/// `errors` and `summary`.
#[test]
fn a_failed_doctor_run_names_its_failed_check() {
    let input = s()
        .ev(r#"{"type":"aoi:check","name":"config_file","ok":true,"severity":"info","detail":"found"}"#)
        .ev(r#"{"type":"aoi:check","name":"api_token","ok":false,"severity":"error","detail":"missing"}"#)
        .summary(r#"{"ok":false,"reason":"failed","properties":{"checks_failed":1}}"#)
        .bytes();
    let said = r#"1 failed aoi:check, the first "api_token""#;
    for cmd in ["check", "errors"] {
        let out = aoi(&[cmd], &input);
        assert_eq!(out.code, 1, "{cmd}");
        assert!(out.stderr.contains(said), "{cmd}: {}", out.stderr);
    }
    let out = aoi(&["summary", "--format", "json"], &input);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (
            v["checks_failed"].as_u64(),
            v["first_failed_check"].as_str()
        ),
        (Some(1), Some("api_token"))
    );
    // errors' own report counts them beside the errors it found.
    let out = aoi(&["errors", "--output", "jsonl"], &input);
    crate::util::assert_conforming_report(&out.stdout, 1);
    let events = crate::util::parse_jsonl(&out.stdout);
    let summary = events.last().expect("a summary");
    assert_eq!(summary["properties"]["checks_failed"], 1, "{summary}");
}

/// § 9.1 with § 4.2: an unbounded stream that ends after a
/// process-scope error of its own takes the error's disposition, 1 or
/// 75 (§ 9.3: `retryable` decides), with or without events after it;
/// item-scope and forwarded errors leave the clean end clean.
#[test]
fn unbounded_ends_after_a_process_scope_error() {
    let authn = r#"{"type":"aoi:error","category":"authn","code":"TOKEN_EXPIRED","message":"token expired","retryable":false}"#;
    let st = s().hits(1).ev(authn).no_summary();
    assert_eq!(exit_of(&st, &["--unbounded"]), 1);
    let out = check(&["--unbounded"], &st.bytes());
    assert!(
        out.stderr.contains("process-scope aoi:error of line 3")
            && out.stderr.contains("TOKEN_EXPIRED"),
        "{}",
        out.stderr
    );
    assert_eq!(exit_of(&st.clone().hits(2), &["--unbounded"]), 1);
    let st = s().hits(1).ev(RATE_LIMITED).no_summary();
    assert_eq!(exit_of(&st, &["--unbounded"]), 75);
    // Item scope: the stream continues (§ 9.1).
    let st = s().ev(&err("{}")).hits(1).no_summary();
    assert_eq!(exit_of(&st, &["--unbounded"]), 0);
    // Forwarded (origin): its upstream's run ended, not this one.
    let st = s()
        .ev(&INTERNAL.replace("\"scope\"", "\"origin\":\"up\",\"scope\""))
        .no_summary();
    assert_eq!(exit_of(&st, &["--unbounded"]), 0);
    // Without --unbounded the same stream is cut, as before.
    assert_eq!(exit_of(&s().ev(authn).no_summary(), &[]), 74);
}

/// § 9.1: `ok:true` after a process-scope error is no success,
/// with or without events after the error; partial success with
/// item-scope errors is unchanged.
#[test]
fn ok_true_after_a_process_scope_error_is_a_violation() {
    let authn = r#"{"type":"aoi:error","category":"authn","code":"TOKEN_EXPIRED","message":"token expired","retryable":false}"#;
    for st in [
        s().ev(authn),
        s().ev(authn).hits(2),
        s().hits(1).ev(RATE_LIMITED).hits(1),
    ] {
        assert_eq!(exit_of(&st, &[]), 65);
        let out = check(&[], &st.bytes());
        assert!(
            out.stderr.contains("summary.ok-after-process-error") && !out.stderr.contains("ok: "),
            "{}",
            out.stderr
        );
    }
    let partial = s()
        .hits(1)
        .ev(&err(
            r#"{"category":"rate_limited","retryable":true,"retry_after_ms":7200}"#,
        ))
        .summary(r#"{"partial":true}"#);
    assert_eq!(exit_of(&partial, &[]), 0);
}

/// § 4.2, § 2: an empty input is incomplete with --unbounded as
/// without it, and says why.
#[test]
fn an_empty_unbounded_stream_is_incomplete() {
    let out = check(&["--unbounded"], b"");
    assert_eq!(out.code, 74);
    assert!(
        out.stderr.contains("the stream was empty") && out.stderr.contains("--unbounded waives"),
        "{}",
        out.stderr
    );
    assert_eq!(check(&[], b"").code, 74);
}
