//! The report (`--output jsonl` and `--report FILE`): itself an AOI stream.

use serde_json::Value;

use super::{INTERNAL, RATE_LIMITED, WARNING, err};
use crate::util::{
    RUN, Stream, assert_conforming_report, assert_report_framing, check, code_of, fed_back_code,
    identity, parse_jsonl, read_some, report, report_full, s, scratch, spawn_fed, write_file,
};

#[test]
fn framing_meta_seq_run_summary() {
    let ev = report(&s().hits(2).bytes(), &[]);
    assert_report_framing(&ev);
    let meta = &ev[0];
    assert_eq!(meta["tool"], "aoi");
    assert_eq!(meta["tool_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(meta["aoi_version"], "1.0-alpha");
    assert_eq!(meta["schema_name"], "aoi.toolkit.events");
    assert_eq!(meta["schema_version"], "1.0.0");
    assert_eq!(meta["command"], "check");
    // Each report has its own run.
    let again = report(&s().hits(2).bytes(), &[]);
    assert_ne!(again[0]["aoi"]["run"], meta["aoi"]["run"]);
}

#[test]
fn findings_carry_rule_line_seq_message_spec() {
    // Line 3 repeats seq 1: the finding knows the line's seq.
    let st = s()
        .hits(1)
        .ev(&super::j(r#"{"type":"hit","aoi":{"seq":1,"run":"$RUN"}}"#))
        .raw("prose")
        .summary_without(&["event_count"]);
    let r = report_full(&st.bytes(), &[]);
    let gap = r.of("seq.gap");
    assert_eq!(gap.len(), 1, "{}", r.brief());
    let g = gap[0];
    assert_eq!(g["type"], "violation");
    assert_eq!(g["severity"], "violation");
    assert_eq!(g["line_number"], 3);
    assert_eq!(g["seq"], 1, "seq of the line when known: {g}");
    assert_eq!(g["source"], "-");
    assert!(
        g["message"]
            .as_str()
            .unwrap()
            .contains("expected aoi.seq 2")
    );
    assert_eq!(g["spec"], "§ 8.1");
    assert!(g["hint"].is_string());
    // A non-JSON line has no seq.
    let p = r.of("line.not-json")[0];
    assert_eq!(p["line_number"], 4);
    assert!(p.get("seq").is_none(), "{p}");
    // Advisory findings are `advisory` events.
    let a = r.of("summary.event-count-absent")[0];
    assert_eq!(a["type"], "advisory");
    assert_eq!(a["severity"], "advisory");
    assert_eq!(a["line_number"], 5);
    assert_eq!(a["seq"], 2);
    // Incomplete findings are `violation` events of severity incomplete.
    let r = report_full(&s().no_summary().bytes(), &[]);
    let m = r.of("summary.missing")[0];
    assert_eq!(m["type"], "violation");
    assert_eq!(m["severity"], "incomplete");
    assert_eq!(m["line_number"], 0);
    assert!(m.get("seq").is_none());
}

#[test]
fn stream_event_describes_the_input() {
    let st = s().hits(2).ev(WARNING).ev(&err("{}"));
    let bytes = st.bytes();
    let r = report_full(&bytes, &[]);
    let v = r.stream();
    assert_eq!(v["source"], "-");
    assert_eq!(v["lines"], 6);
    assert_eq!(v["bytes"], bytes.len() as u64);
    assert_eq!(v["terminated"], true);
    assert_eq!(v["outcome"], "ok");
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["ok"], true);
    assert_eq!(v["domain_count"], 2);
    assert_eq!(v["framework_count"], 4);
    assert_eq!(v["warning_count"], 1);
    assert_eq!(v["error_count"], 1);
    assert_eq!(v["run"], RUN);
    let events = v["events"].as_object().unwrap();
    assert_eq!(events["hit"], 2);
    assert_eq!(events["aoi:meta"], 1);
    assert_eq!(events["aoi:summary"], 1);
    assert_eq!(events["aoi:warning"], 1);
    assert_eq!(events["aoi:error"], 1);
    for f in ["typed", "verifiable", "versioned", "composable", "bounded"] {
        assert_eq!(v["factors"][f], true, "factor {f}: {v}");
    }
    for (k, val) in identity() {
        assert_eq!(v[&k], val, "stream event {k}");
    }
}

#[test]
fn stream_event_factors_follow_the_findings() {
    // No seq: not verifiable. No identity: not versioned.
    let st = s()
        .hits(1)
        .no_envelope()
        .meta_without(&["tool_version"])
        .summary(r#"{"truncated":true}"#);
    let r = report_full(&st.bytes(), &[]);
    let f = &r.stream()["factors"];
    assert_eq!(f["verifiable"], false);
    assert_eq!(f["versioned"], false);
    assert_eq!(f["bounded"], false);
    assert_eq!(f["typed"], true);
    assert_eq!(f["composable"], true);
    assert_eq!(r.code, 0, "advisories only: {}", r.brief());
    assert_eq!(r.stream()["advisory_count"], 3, "{}", r.brief());
}

#[test]
fn one_stream_event_per_input() {
    let dir = scratch("per-input");
    let a = write_file(&dir, "a.jsonl", &s().hits(1).bytes());
    let b = write_file(&dir, "b.jsonl", &s().hits(3).no_summary().bytes());
    let r = report_full(b"", &[&a, &b]);
    let st = r.streams();
    assert_eq!(st.len(), 2);
    assert_eq!(st[0]["source"], a.as_str());
    assert_eq!(st[0]["lines"], 3);
    assert_eq!(st[0]["exit_code"], 0);
    assert_eq!(st[1]["source"], b.as_str());
    assert_eq!(st[1]["lines"], 4);
    assert_eq!(st[1]["outcome"], "incomplete");
    assert_eq!(st[1]["exit_code"], 74);
    assert_eq!(r.code, 74);
    // Findings name their source.
    assert_eq!(r.of("summary.missing")[0]["source"], b.as_str());
}

#[test]
fn summary_ok_only_for_exit_0_and_upstream_identity() {
    let r = report_full(&s().hits(1).bytes(), &[]);
    let sum = r.summary();
    assert_eq!(sum["ok"], true);
    assert!(sum.get("reason").is_none());
    assert_eq!(sum["event_count"], r.events.len() as u64);
    let up = sum["upstream"].as_object().expect("upstream");
    assert_eq!(*up, identity(), "upstream is the input's identity");
    assert!(sum.get("caused_by").is_none());

    // Advisories only: still ok.
    let r = report_full(&s().summary_anonymous().bytes(), &[]);
    assert_eq!(r.summary()["ok"], true);
    // Every non-zero exit is ok:false with a reason.
    for st in [
        s().raw("prose"),
        s().no_summary(),
        s().summary(r#"{"ok":false,"reason":"failed"}"#),
    ] {
        let r = report_full(&st.bytes(), &[]);
        assert_ne!(r.code, 0);
        assert_eq!(r.summary()["ok"], false, "{}", r.brief());
        assert_eq!(r.summary()["reason"], "failed");
    }
}

#[test]
fn summary_upstream_omitted_without_meta() {
    let st = s().no_meta().hits(1).summary_anonymous();
    let r = report_full(&st.bytes(), &[]);
    assert_eq!(r.code, 0, "{}", r.brief());
    assert!(
        r.summary().get("upstream").is_none(),
        "no identity known: upstream must be omitted, never null: {}",
        r.summary()
    );
    // An empty stream has no identity either.
    let r = report_full(b"", &["--unbounded"]);
    assert!(r.summary().get("upstream").is_none());
}

#[test]
fn summary_caused_by_reproduces_the_retry_fields() {
    let st = s()
        .hits(1)
        .ev(RATE_LIMITED)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let r = report_full(&st.bytes(), &[]);
    assert_eq!(r.code, 75);
    let sum = r.summary();
    assert_eq!(sum["ok"], false);
    assert_eq!(sum["reason"], "failed");
    let cb = &sum["caused_by"];
    assert_eq!(cb["retryable"], true, "{sum}");
    assert_eq!(cb["retry_after_ms"], 4500);
    assert_eq!(cb["category"], "rate_limited");
    assert_eq!(cb["code"], "UPSTREAM_RATE_LIMIT");
    assert_eq!(
        cb["origin"], "outline",
        "origin defaults to the upstream tool"
    );
    assert_eq!(sum["upstream"]["tool"], "outline");
    // The stream event carries it too.
    assert_eq!(r.stream()["caused_by"]["retry_after_ms"], 4500);
    assert_eq!(r.stream()["upstream_ok"], false);
    assert_eq!(r.stream()["upstream_reason"], "failed");

    // From the upstream's own caused_by, origin kept.
    let st = s().summary(
        r#"{"ok":false,"reason":"failed","caused_by":{"origin":"fetcher","category":"unavailable","code":"DOWN","retryable":true,"retry_after_ms":250}}"#,
    );
    let r = report_full(&st.bytes(), &[]);
    assert_eq!(r.code, 75);
    let cb = &r.summary()["caused_by"];
    assert_eq!(cb["origin"], "fetcher");
    assert_eq!(cb["retry_after_ms"], 250);

    // Not retryable: retryable false and no retry_after_ms (§ 9.1).
    let st = s()
        .ev(INTERNAL)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let r = report_full(&st.bytes(), &[]);
    assert_eq!(r.code, 1);
    let cb = &r.summary()["caused_by"];
    assert_eq!(cb["retryable"], false);
    assert!(cb.get("retry_after_ms").is_none());
    assert_eq!(cb["code"], "PANIC");
}

/// The report of a failed upstream reproduces the outcome: fed back through
/// `aoi check` it exits like the original (1, 75, 77, 124, 130), an ok input
/// gives 0, and aoi's own verdicts 65/74 become a non-retryable failure (1).
#[test]
fn report_fed_back_reproduces_the_outcome() {
    let cases: Vec<(i32, Stream)> = vec![
        (0, s().hits(1)),
        (
            1,
            s().ev(INTERNAL)
                .summary(r#"{"ok":false,"reason":"failed"}"#),
        ),
        (
            75,
            s().ev(RATE_LIMITED)
                .summary(r#"{"ok":false,"reason":"failed"}"#),
        ),
        (77, s().summary(r#"{"ok":false,"reason":"denied"}"#)),
        (124, s().summary(r#"{"ok":false,"reason":"timeout"}"#)),
        (130, s().summary(r#"{"ok":false,"reason":"cancelled"}"#)),
        (65, s().raw("prose")),
        (74, s().no_summary()),
    ];
    for (code, st) in cases {
        let out = check(&["--output", "jsonl"], &st.bytes());
        assert_eq!(out.code, code);
        let again = check(&["-q"], &out.stdout);
        assert_eq!(again.stdout, out.stdout);
        let want = if code == 65 || code == 74 { 1 } else { code };
        assert_eq!(again.code, want, "report of a {code} stream fed back");
        assert_eq!(fed_back_code(code), want);
        assert_conforming_report(&out.stdout, want);
    }
}

#[test]
fn own_error_event_for_violation_and_incomplete() {
    let r = report_full(&s().raw("prose").bytes(), &[]);
    let e: Vec<&Value> = r
        .events
        .iter()
        .filter(|e| e["type"] == "aoi:error")
        .collect();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0]["category"], "validation");
    assert_eq!(e[0]["retryable"], false);
    assert_eq!(r.summary()["error_count"], 1);
    // § 13.1: upstream EOF without summary → an io aoi:error first.
    let r = report_full(&s().no_summary().bytes(), &[]);
    let e: Vec<&Value> = r
        .events
        .iter()
        .filter(|e| e["type"] == "aoi:error")
        .collect();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0]["category"], "io");
    let n = r.events.len();
    assert_eq!(
        r.events[n - 2]["type"],
        "aoi:error",
        "the error comes before the summary"
    );
}

#[test]
fn summary_counts_reconcile() {
    let st = s().hits(3).ev(WARNING).ev(WARNING).raw("prose");
    let r = report_full(&st.bytes(), &[]);
    let sum = r.summary();
    let domain = r
        .events
        .iter()
        .filter(|e| !e["type"].as_str().unwrap().starts_with("aoi:"))
        .count() as u64;
    assert_eq!(sum["count"], domain);
    assert_eq!(sum["input_count"], 3);
    assert_eq!(
        sum["warning_count"], 2,
        "upstream warnings are counted (§ 13.1)"
    );
    assert_eq!(sum["properties"]["streams"], 1);
    assert_eq!(sum["properties"]["exit_code"], 65);
}

#[test]
fn report_file_while_relaying() {
    let dir = scratch("report-file");
    let path = dir.join("check.jsonl");
    let path = path.to_str().unwrap();
    for st in [
        s().hits(2),
        s().hits(1).raw("prose"),
        s().ev(RATE_LIMITED)
            .summary(r#"{"ok":false,"reason":"failed"}"#),
        s().hits(1).no_summary().unterminated(),
    ] {
        let bytes = st.bytes();
        let out = check(&["--report", path], &bytes);
        assert_eq!(out.stdout, bytes, "stdout is the byte-identical relay");
        let file = std::fs::read(path).unwrap();
        let ev = parse_jsonl(&file);
        assert_report_framing(&ev);
        assert_eq!(ev.iter().filter(|e| e["type"] == "stream").count(), 1);
        let stream = ev.iter().find(|e| e["type"] == "stream").unwrap();
        assert_eq!(stream["exit_code"], out.code);
        assert_eq!(stream["bytes"], bytes.len() as u64);
        assert_eq!(ev.last().unwrap()["properties"]["exit_code"], out.code);
        assert_conforming_report(&file, fed_back_code(out.code));
        // The same kind of report as --output jsonl, apart from run and times.
        let same = report_full(&bytes, &[]);
        let strip = |evs: &[Value]| -> Vec<Value> {
            evs.iter()
                .map(|e| {
                    let mut e = e.clone();
                    e["aoi"] = Value::Null;
                    if let Some(o) = e.as_object_mut() {
                        o.remove("elapsed_ms");
                    }
                    e
                })
                .collect()
        };
        assert_eq!(strip(&ev), strip(&same.events));
    }
}

#[test]
fn report_with_output_and_report_file_agree() {
    let dir = scratch("both");
    let path = dir.join("r.jsonl");
    let path = path.to_str().unwrap();
    let out = check(
        &["--output", "jsonl", "--report", path],
        &s().hits(1).bytes(),
    );
    assert_eq!(out.code, 0);
    assert_eq!(std::fs::read(path).unwrap(), out.stdout);
    assert_conforming_report(&out.stdout, 0);
}

#[test]
fn report_of_several_disagreeing_identities_omits_upstream() {
    let dir = scratch("ids");
    let a = write_file(&dir, "a.jsonl", &s().bytes());
    let b = write_file(
        &dir,
        "b.jsonl",
        &s().meta(r#"{"tool":"other"}"#)
            .summary(r#"{"tool":"other"}"#)
            .bytes(),
    );
    let r = report_full(b"", &[&a, &b]);
    assert!(r.summary().get("upstream").is_none(), "{}", r.summary());
    let r = report_full(b"", &[&a, &a]);
    assert_eq!(r.summary()["upstream"]["tool"], "outline");
}

/// When stdout (the report) goes away, the `--report` file still holds
/// every event whole and ends with the io error and an ok:false summary.
#[test]
fn the_report_file_is_closed_when_stdout_goes_away() {
    let dir = scratch("report-closed");
    let input: Vec<u8> = "not json\n".repeat(200_000).into_bytes();
    let file = write_file(&dir, "in.txt", &input);
    let report = dir.join("r.jsonl");
    let (mut child, writer) = spawn_fed(
        &[
            "check",
            "-q",
            "--max-per-rule",
            "1000000",
            "--output",
            "jsonl",
            "--report",
            report.to_str().expect("utf-8"),
            &file,
        ],
        Vec::new(),
    );
    let mut out = child.stdout.take().expect("stdout");
    let _ = read_some(&mut out, 100);
    drop(out);
    let status = child.wait().expect("wait");
    let _ = writer.join();
    assert_eq!(code_of(status), 141);
    let rep = std::fs::read(&report).expect("report");
    let events = parse_jsonl(&rep);
    let last = events.last().expect("events");
    assert_eq!(last["type"], "aoi:summary", "{last}");
    assert_eq!(last["ok"], false);
    let err = &events[events.len() - 2];
    assert_eq!(err["code"], "BROKEN_PIPE", "{err}");
    // Every line of the file is whole and the stream reconciles.
    assert_conforming_report(&rep, 1);
}
