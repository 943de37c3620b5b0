//! `--schema FILE`: every event validated against the tool's JSON Schema
//! (§ 10, § 18's typed factor), on every command that judges a stream; the
//! schema file judged before any input; aoi's own machine output valid
//! against `aoi schema` through the same option.

use crate::util::{
    aoi, aoi_schema_file, assert_conforming_report, check, env, parse_jsonl, s, scratch, write_file,
};

/// A discriminated event schema (§ 10.4): `hit` wants an integer rank of
/// at least 1 and an absolute path; the framework events are left open.
const SCHEMA: &str = r##"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://schemas.example.com/outline/events/1.0.0/schema.json",
  "type": "object",
  "required": ["type"],
  "allOf": [
    {"if": {"properties": {"type": {"const": "hit"}}}, "then": {"$ref": "#/$defs/hit"}}
  ],
  "$defs": {
    "hit": {
      "required": ["rank"],
      "properties": {
        "rank": {"type": "integer", "minimum": 1},
        "path": {"type": "string", "pattern": "^/"}
      }
    }
  }
}"##;

fn hit(rank: &str, extra: &str) -> String {
    format!(r#"{{"type":"hit","rank":{rank}{extra}}}"#)
}

/// The issue's own example: the finding names the line, the seq, the
/// pointer, the keyword and what it wanted; the relay stays byte-exact.
#[test]
fn an_invalid_event_is_one_finding_and_65_with_the_relay_intact() {
    let dir = scratch("schema-example");
    let schema = write_file(&dir, "schema.json", SCHEMA.as_bytes());
    let input = s()
        .ev(&hit("1", r#","path":"/a""#))
        .ev(&hit("0", r#","path":"/b""#))
        .summary("{}")
        .bytes();
    assert_eq!(check(&["-q"], &input).code, 0, "valid without --schema");
    let out = check(&["--schema", &schema], &input);
    assert_eq!(out.code, 65, "{}", out.stderr);
    assert_eq!(out.stdout, input, "the relay is byte-exact");
    assert!(
        out.stderr
            .contains("line 3 (seq 2): schema.invalid: /rank: 0 is less than the minimum 1"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("minimum at #/$defs/hit"),
        "{}",
        out.stderr
    );
    // One finding per invalid event, however many keywords it fails.
    let two = s()
        .ev(&hit("\"x\"", r#","path":"b""#))
        .summary("{}")
        .bytes();
    let report = check(&["--output", "jsonl", "--schema", &schema], &two);
    assert_eq!(report.code, 65);
    let found: Vec<_> = parse_jsonl(&report.stdout)
        .into_iter()
        .filter(|e| e["rule"] == "schema.invalid")
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["line_number"], 2);
    assert_eq!(found[0]["seq"], 1);
    assert_conforming_report(&report.stdout, crate::util::fed_back_code(65));
}

/// Members the schema does not mention pass (§ 10.3), unless it forbids
/// them; framework events are validated as well as domain ones.
#[test]
fn unknown_fields_pass_unless_forbidden_and_framework_events_count() {
    let dir = scratch("schema-strict");
    let open = write_file(&dir, "open.json", SCHEMA.as_bytes());
    let input = s()
        .ev(&hit("2", r#","extra":{"x":1}"#))
        .summary("{}")
        .bytes();
    assert_eq!(check(&["-q", "--schema", &open], &input).code, 0);
    let closed = write_file(
        &dir,
        "closed.json",
        br#"{"if":{"properties":{"type":{"const":"hit"}}},
             "then":{"properties":{"type":{},"aoi":{},"rank":{}},"additionalProperties":false}}"#,
    );
    let out = check(&["--no-relay", "--schema", &closed], &input);
    assert_eq!(out.code, 65, "{}", out.stderr);
    assert!(
        out.stderr.contains("\"extra\" not allowed"),
        "{}",
        out.stderr
    );
    let meta_wants = write_file(
        &dir,
        "meta.json",
        br#"{"if":{"properties":{"type":{"const":"aoi:meta"}}},"then":{"required":["license"]}}"#,
    );
    let out = check(&["--no-relay", "--schema", &meta_wants], &input);
    assert_eq!(out.code, 65, "{}", out.stderr);
    assert!(
        out.stderr.contains("line 1 (seq 0): schema.invalid"),
        "{}",
        out.stderr
    );
}

/// The schema file is judged first, each fault one line: missing 66, not
/// JSON 64, not a valid JSON Schema 64 naming the place, a $ref to
/// another document 64 (not fetched) unless the file holds it by $id.
#[test]
fn the_schema_file_is_judged_before_the_input() {
    let dir = scratch("schema-file");
    let input = s().hits(1).summary("{}").bytes();
    let run = |path: &str| check(&["--schema", path], &input);
    let missing = dir.join("none.json");
    let out = run(missing.to_str().expect("UTF-8"));
    assert_eq!((out.code, out.stdout.len()), (66, 0), "{}", out.stderr);
    let cases: [(&str, &[u8], &str); 4] = [
        ("text.json", b"{\"type\":", "not JSON"),
        (
            "invalid.json",
            br#"{"properties":{"rank":{"minimum":"1"}}}"#,
            "not a valid JSON Schema: at /properties/rank/minimum",
        ),
        (
            "remote.json",
            br#"{"properties":{"rank":{"$ref":"https://other.example/rank.json"}}}"#,
            "refers to https://other.example/rank.json, another document, which aoi does not fetch",
        ),
        (
            "relative.json",
            br#"{"properties":{"rank":{"$ref":"rank.json"}}}"#,
            "refers to rank.json, another document",
        ),
    ];
    for (name, text, said) in cases {
        let out = run(&write_file(&dir, name, text));
        assert_eq!(out.code, 64, "{name}: {}", out.stderr);
        assert!(
            out.stdout.is_empty(),
            "{name}: nothing read, nothing relayed"
        );
        assert_eq!(out.stderr.lines().count(), 1, "{name}: {}", out.stderr);
        assert!(out.stderr.contains(said), "{name}: {}", out.stderr);
    }
    // A $ref by an $id the file itself declares resolves in the file.
    let by_id = write_file(
        &dir,
        "by-id.json",
        br#"{"$defs":{"rank":{"$id":"https://example.org/rank.json","minimum":1}},
             "properties":{"rank":{"$ref":"https://example.org/rank.json"}}}"#,
    );
    assert_eq!(
        check(&["-q", "--schema", &by_id], &input).code,
        65,
        "hits(1) has rank 0"
    );
    let ok = s().ev(&hit("1", "")).summary("{}").bytes();
    assert_eq!(check(&["-q", "--schema", &by_id], &ok).code, 0);
}

/// `$schema` picks the draft: draft 7's array form of `items` is a tuple
/// there and no valid 2020-12 schema.
#[test]
fn draft_7_is_read_as_draft_7_when_schema_says_so() {
    let dir = scratch("schema-draft7");
    let body = r#""properties":{"pair":{"items":[{"type":"integer"},{"type":"string"}]}}}"#;
    let d7 = write_file(
        &dir,
        "d7.json",
        format!(r#"{{"$schema":"http://json-schema.org/draft-07/schema#",{body}"#).as_bytes(),
    );
    let d2020 = write_file(&dir, "d2020.json", format!("{{{body}").as_bytes());
    let good = s()
        .ev(r#"{"type":"pair","pair":[1,"a"]}"#)
        .summary("{}")
        .bytes();
    let bad = s()
        .ev(r#"{"type":"pair","pair":["a",1]}"#)
        .summary("{}")
        .bytes();
    assert_eq!(check(&["-q", "--schema", &d7], &good).code, 0);
    assert_eq!(check(&["-q", "--schema", &d7], &bad).code, 65);
    assert_eq!(check(&["-q", "--schema", &d2020], &good).code, 64);
}

/// Every command that judges takes `--schema` with the same verdict, and
/// `--log` finds the events in a log before validating them.
#[test]
fn every_judging_command_takes_the_schema() {
    let dir = scratch("schema-commands");
    let schema = write_file(&dir, "schema.json", SCHEMA.as_bytes());
    let bad = s().ev(&hit("0", "")).summary("{}").bytes();
    let good = s().ev(&hit("3", "")).summary("{}").bytes();
    let commands: &[&[&str]] = &[
        &["check", "-q"],
        &["summary", "-q"],
        &["strip", "-q"],
        &["errors", "-q"],
        &["filter", "-q", "--continue-on-error", "."],
        &["merge-report", "-q"],
        &["summary", "-q", "--log"],
        &["errors", "-q", "--log"],
        &["merge-report", "-q", "--log"],
    ];
    for args in commands {
        let with = |input: &[u8]| aoi(&[args, &["--schema", schema.as_str()][..]].concat(), input);
        assert_eq!(with(&bad).code, 65, "{args:?}: {}", with(&bad).stderr);
        assert_eq!(with(&good).code, 0, "{args:?}: {}", with(&good).stderr);
    }
}

/// An event longer than the reader holds is not validated from its
/// reduced copy: said in an advisory, never passed as checked.
#[test]
fn an_event_past_a_mebibyte_is_said_unchecked() {
    let dir = scratch("schema-long");
    let schema = write_file(&dir, "schema.json", SCHEMA.as_bytes());
    let long = format!(r#"{{"type":"note","text":"{}"}}"#, "x".repeat(2 << 20));
    let input = s().ev(&long).summary("{}").bytes();
    let out = check(&["--no-relay", "--schema", &schema, "--show", "20"], &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("schema.unchecked"), "{}", out.stderr);
}

/// aoi eats its own: each command's `--output jsonl` passes `aoi check
/// --schema` with `aoi schema`'s output (the feed-back every test runs
/// does too; here each command once, on a failing and a passing stream).
#[test]
fn every_command_output_validates_against_aoi_schema() {
    let schema = aoi_schema_file();
    let inputs = [
        s().hits(2).summary("{}").bytes(),
        s().hits(1)
            .ev(r#"{"type":"aoi:error","category":"rate_limited","code":"RL","message":"m","retryable":true,"retry_after_ms":5}"#)
            .summary(r#"{"ok":false,"reason":"failed"}"#)
            .bytes(),
        b"prose\n".to_vec(),
    ];
    let commands: &[&[&str]] = &[
        &["check", "--output", "jsonl"],
        &["errors", "--output", "jsonl"],
        &["summary", "--output", "jsonl"],
        &["filter", "--output", "jsonl", "."],
        &["merge-report", "--format", "jsonl"],
        &["merge-report", "--format", "jsonl", "--log"],
    ];
    for input in &inputs {
        for args in commands {
            let out = aoi(args, input);
            assert!(!out.stdout.is_empty(), "{args:?}: {}", out.stderr);
            let fed = check(&["--no-relay", "--schema", schema], &out.stdout);
            assert!(
                !fed.stderr.contains("schema."),
                "{args:?}: aoi's output is not valid against aoi schema: {}",
                fed.stderr
            );
        }
    }
    let lint = aoi(
        &[
            "lint",
            "--output",
            "jsonl",
            "--",
            crate::util::AOI,
            "summary",
        ],
        b"",
    );
    let fed = check(&["--no-relay", "--schema", schema], &lint.stdout);
    assert!(
        !lint.stdout.is_empty() && !fed.stderr.contains("schema."),
        "{}",
        fed.stderr
    );
}

/// A string with a lone surrogate escape is JSON (§ 2's grammar) that no
/// Unicode string holds: the event is said unchecked, never passed as
/// checked; other escapes are validated as the characters they stand for.
#[test]
fn a_lone_surrogate_is_said_unchecked_and_escapes_are_validated() {
    let dir = scratch("schema-surrogate");
    let schema = write_file(&dir, "schema.json", SCHEMA.as_bytes());
    // serde_json (the builder's) cannot hold the surrogate: written raw,
    // and the next line too, so the builder counts seq on from it.
    let lone = format!(r#"{{"type":"hit","rank":1,"path":"\ud800",{}}}"#, env(1));
    let slash = format!(r#"{{"type":"hit","rank":1,"path":"\u002fa",{}}}"#, env(2));
    let input = s()
        .raw(lone)
        .raw(slash)
        .ev(&hit("1", r#","path":"\u0061""#))
        .summary("{}")
        .bytes();
    let out = check(&["--no-relay", "--schema", &schema, "--show", "20"], &input);
    assert_eq!(out.code, 65, "{}", out.stderr);
    assert!(
        out.stderr.contains("line 2 (seq 1): schema.unchecked"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("line 3 (seq 2)"),
        "\\u002fa is /a: {}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("line 4 (seq 3): schema.invalid: /path:"),
        "{}",
        out.stderr
    );
}

/// One thread or two, however the two share the lines, from a pipe or a
/// file: the same findings in the same order, the same verdict. The
/// reading thread validates the lines it peeks and the judge the others;
/// an invalid event is asked again on the judging thread, in order. The
/// mix holds valid and invalid events, an event after a byte order mark
/// (validated without it), and a lone surrogate (not validated, said so).
#[test]
fn schema_findings_are_the_same_on_one_thread_and_two() {
    let dir = scratch("schema-threads");
    let schema = write_file(&dir, "schema.json", SCHEMA.as_bytes());
    let mut stream = s();
    for i in 0..2000 {
        stream = match i % 97 {
            0 => stream.ev(&hit("0", r#","path":"/a""#)),
            1 => stream.ev(&hit("2", r#","path":"b""#)),
            2 => stream.ev(r#"{"type":"hit","path":"/c"}"#),
            3 => stream.ev(&hit("0", r#","path":"/bom""#)),
            4 => stream.ev(&hit("5", r#","path":"/sur""#)),
            _ => stream.ev(&hit(&(i + 1).to_string(), r#","path":"/d""#)),
        };
    }
    // The events marked "/bom" get a byte order mark before them, those
    // marked "/sur" a lone surrogate in their path (no builder writes one).
    let mut bytes = Vec::new();
    for line in stream
        .summary("{}")
        .bytes()
        .split_inclusive(|&b| b == b'\n')
    {
        if line.windows(6).any(|w| w == b"\"/bom\"") {
            bytes.extend_from_slice("\u{feff}".as_bytes());
        }
        let text = String::from_utf8_lossy(line).replace("\"/sur\"", r#""/\ud800""#);
        bytes.extend_from_slice(text.as_bytes());
    }
    let input = write_file(&dir, "in.jsonl", &bytes);
    // Each report has its own run id and clock, and names its input
    // (`-` or the file): those are set aside.
    let records = |out: &crate::util::Out| {
        let mut all = parse_jsonl(&out.stdout);
        for r in &mut all {
            if let Some(o) = r.as_object_mut() {
                o.remove("aoi");
                o.remove("elapsed_ms");
                o.remove("source");
            }
        }
        all
    };
    let args = ["check", "--output", "jsonl", "--schema", &schema];
    let mut first: Option<(i32, Vec<serde_json::Value>)> = None;
    crate::util::across_splits(&args, &bytes, &input, |label, out| {
        assert_eq!(out.code, 65, "{label}: {}", out.stderr);
        let count = |rule: &str| {
            parse_jsonl(&out.stdout)
                .into_iter()
                .filter(|e| e["rule"] == rule)
                .count()
        };
        assert_eq!(
            count("schema.invalid"),
            4 * 21,
            "{label}: four invalid events in every 97"
        );
        assert_eq!(
            count("schema.unchecked"),
            21,
            "{label}: a lone surrogate in every 97"
        );
        assert_eq!(count("line.bom"), 21, "{label}");
        assert_conforming_report(&out.stdout, crate::util::fed_back_code(65));
        match &first {
            None => first = Some((out.code, records(&out))),
            Some((code, recs)) => {
                assert_eq!(*code, out.code, "{label}");
                assert_eq!(*recs, records(&out), "{label}");
            }
        }
    });
}
