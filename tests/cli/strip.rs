//! `aoi strip`: the data plane out of a stream (§ 8.2), by splicing bytes.

use proptest::prelude::*;
use serde_json::Value;

use crate::util::{aoi, lines, s};

fn strip(args: &[&str], input: &[u8]) -> crate::util::Out {
    let mut a = vec!["strip"];
    a.extend_from_slice(args);
    aoi(&a, input)
}

#[test]
fn drops_framework_and_splices_the_envelope() {
    let st = s()
        .ev(r#"{"type":"hit","rank":1.50,"t":"\u00e9\"x"}"#)
        .ev(r#"{"type":"aoi:warning","code":"W","message":"m"}"#);
    let out = strip(&[], &st.bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    // (The builder re-serialises its events; byte-exact splicing of number
    // spellings and escapes is `splice_keeps_every_other_byte`.)
    assert_eq!(
        lines(&out.stdout),
        vec![r#"{"type":"hit","rank":1.5,"t":"é\"x"}"#.to_string()]
    );
    assert!(out.stderr.is_empty(), "quiet on success: {}", out.stderr);
}

#[test]
fn splice_keeps_every_other_byte() {
    let run = "01JZQ7X4TQ9KZ8V6R2M3N4P5Q6";
    let input = format!(
        concat!(
            "{{\"aoi\":{{\"seq\":0,\"run\":\"{r}\"}}, \"type\":\"hit\" ,\"n\":1e2}}\n",
            "{{\"type\":\"hit\",\"aoi\":{{\"seq\":1,\"run\":\"{r}\"}},\"z\":[1,{{\"aoi\":1}}]}}\r\n",
            "{{\"type\":\"hit\",\"aoi\":{{\"seq\":2,\"run\":\"{r}\"}}}}\n",
            "{{\"type\":\"aoi:summary\",\"aoi\":{{\"seq\":3,\"run\":\"{r}\"}},\"ok\":true,\"count\":3,\"event_count\":4}}\n"
        ),
        r = run
    );
    let out = strip(&[], input.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"type\":\"hit\" ,\"n\":1e2}\n{\"type\":\"hit\",\"z\":[1,{\"aoi\":1}]}\r\n{\"type\":\"hit\"}\n"
    );
}

#[test]
fn keep_envelope_and_control_plane() {
    let st = s()
        .ev(r#"{"type":"hit","rank":1}"#)
        .ev(r#"{"type":"aoi:warning","code":"W","message":"m"}"#);
    let bytes = st.bytes();
    let all = lines(&bytes);
    let out = strip(&["--keep-envelope"], &bytes);
    assert_eq!(lines(&out.stdout), vec![all[1].clone()]);
    let out = strip(&["--control"], &bytes);
    assert_eq!(
        lines(&out.stdout),
        vec![all[0].clone(), all[2].clone(), all[3].clone()]
    );
    assert_eq!(out.code, 0);
    let out = strip(&["--control", "--keep-envelope"], &bytes);
    assert_eq!(out.code, 64, "conflicting flags are a usage error");
}

#[test]
fn verdict_is_the_check_exit_table() {
    // Truncated: 74, and the partial line is not emitted.
    let out = strip(
        &[],
        &s().hits(1)
            .no_summary()
            .raw(r#"{"type":"hit","rank":9"#)
            .unterminated()
            .bytes(),
    );
    assert_eq!(out.code, 74, "{}", out.stderr);
    assert_eq!(lines(&out.stdout).len(), 1);
    assert!(out.stderr.contains("line.unterminated"), "{}", out.stderr);
    // Upstream retryable failure: 75, with one verdict line naming the cause.
    let st = s()
        .ev(crate::check::RATE_LIMITED)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let out = strip(&[], &st.bytes());
    assert_eq!(out.code, 75);
    assert!(out.stderr.contains("rate_limited"), "{}", out.stderr);
    // Prose in the stream: 65, the prose is dropped.
    let out = strip(&[], &s().hits(1).raw("hello").bytes());
    assert_eq!(out.code, 65);
    assert!(lines(&out.stdout).iter().all(|l| !l.contains("hello")));
    // --no-fail: exit 0 whatever the verdict; -q: nothing on stderr.
    let out = strip(&["--no-fail", "-q"], &s().hits(1).raw("hello").bytes());
    assert_eq!(out.code, 0);
    assert!(out.stderr.is_empty());
    // A missing file is still 66.
    let out = strip(&["/nonexistent/x.jsonl"], b"");
    assert_eq!(out.code, 66);
}

/// An arbitrary domain event (as a JSON object) with an envelope at some
/// position among its fields.
fn event() -> impl Strategy<Value = (Vec<(String, Value)>, usize)> {
    let val = prop_oneof![
        any::<i64>().prop_map(Value::from),
        "[a-z\u{e9}\"\\\\ ]{0,8}".prop_map(Value::from),
        Just(Value::Null),
        Just(serde_json::json!([1, {"aoi": 2}, "x"])),
    ];
    (prop::collection::vec(("[a-z]{1,6}", val), 0..6), 0usize..7).prop_map(|(fields, pos)| {
        (
            fields
                .into_iter()
                .filter(|(k, _)| k != "type" && k != "aoi")
                .collect(),
            pos,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// strip == del(.aoi) over the domain events, framework events gone:
    /// value for value and key order for key order (compared as exact
    /// bytes, which is stronger), and every output line is valid JSON.
    #[test]
    fn strip_equals_del_aoi(events in prop::collection::vec(event(), 0..8)) {
        let run = "01JZQ7X4TQ9KZ8V6R2M3N4P5Q6";
        let mut input = String::new();
        let mut expected = Vec::new();
        let mut seq = 0u64;
        for (fields, pos) in &events {
            let mut obj: Vec<(String, String)> = fields.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            obj.insert(0, ("type".into(), "\"hit\"".into()));
            let render = |o: &[(String, String)]| {
                let body: Vec<String> = o.iter().map(|(k, v)| format!("{}:{v}", Value::from(k.as_str()))).collect();
                format!("{{{}}}", body.join(","))
            };
            expected.push(render(&obj));
            let env = format!(r#"{{"seq":{seq},"run":"{run}"}}"#);
            let at = (*pos).min(obj.len());
            obj.insert(at, ("aoi".into(), env));
            input.push_str(&render(&obj));
            input.push('\n');
            seq += 1;
        }
        input.push_str(&format!(r#"{{"type":"aoi:summary","aoi":{{"seq":{seq},"run":"{run}"}},"ok":true,"count":{seq},"event_count":{}}}"#, seq + 1));
        input.push('\n');
        let out = strip(&[], input.as_bytes());
        prop_assert_eq!(out.code, 0, "{}", out.stderr);
        let got = lines(&out.stdout);
        for l in &got {
            prop_assert!(serde_json::from_str::<Value>(l).is_ok(), "invalid JSON line {}", l);
        }
        prop_assert_eq!(got, expected);
    }
}

/// § 8.1: a line with `aoi` (or `type`) twice is a violation and belongs to
/// neither plane: readers taking the first or the last occurrence would see
/// different events, so strip drops it instead of splicing one of them out
/// (found by the `strip` fuzz target).
#[test]
fn a_duplicate_reserved_member_drops_the_line() {
    let run = crate::util::RUN;
    let dup = format!(
        r#"{{"type":"hit","aoi":{{"seq":1,"run":"{run}"}},"x":1,"aoi":{{"seq":9,"run":"{run}"}}}}"#
    );
    let input = crate::util::s().raw(&dup).bytes();
    let out = crate::util::aoi(&["strip", "--no-fail"], &input);
    assert!(
        !out.stdout_str().contains("\"aoi\""),
        "{}",
        out.stdout_str()
    );
    let out = crate::util::aoi(&["strip", "--no-fail", "--control"], &input);
    assert!(!out.stdout_str().contains("\"x\""), "{}", out.stdout_str());
    assert_eq!(crate::util::aoi(&["strip"], &input).code, 65);
}

/// `--log`: a CI log's events go to their planes after their
/// prefixes; each run is judged, the worst exit wins, and the skipped
/// lines are stated. Without it, the same log is the violation it is in
/// `aoi check`.
#[test]
fn a_log_is_read_when_asked_for() {
    let log = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/messy.log"))
        .expect("examples/messy.log");
    assert_eq!(strip(&["--control"], &log).code, 65);
    let control = strip(&["--log", "--control"], &log);
    assert_eq!(control.code, 75, "{}", control.stderr);
    let got = lines(&control.stdout);
    assert_eq!(got.len(), 7, "{got:?}");
    assert!(
        got.iter().all(|l| l.starts_with(r#"{"type":"aoi:"#)),
        "{got:?}"
    );
    assert!(
        control.stderr.contains(
            "read as a log (--log): 9 line(s) skipped (not AOI events), 10 event(s) found after a prefix or decoration"
        ),
        "{}",
        control.stderr
    );
    assert!(
        control
            .stderr
            .contains("run 01JZQ7X4TQ9KZ8V6R2M3N4P5B2: upstream retryable (exit 75)")
    );
    let data = strip(&["--log"], &log);
    assert_eq!(data.code, 75);
    let got = lines(&data.stdout);
    assert_eq!(got.len(), 3, "{got:?}");
    for l in &got {
        let v: Value = serde_json::from_str(l).expect("JSON");
        assert!(v.get("aoi").is_none(), "{l}");
    }
    assert!(strip(&["--log", "--keep-envelope"], &log).stdout.len() > data.stdout.len());
}

/// A log without any AOI stream is exit 74, said on stderr, even with `--log`.
#[test]
fn a_log_without_a_stream_is_74() {
    let out = strip(&["--log"], b"just prose\n");
    assert_eq!(out.code, 74);
    assert!(out.stderr.contains("no AOI stream"), "{}", out.stderr);
    assert!(out.stderr.contains("1 line(s) skipped"), "{}", out.stderr);
}
