//! A filter that reads its input only through literal keys (`.rank`,
//! `{id, title}`, `select(…)`) runs on an object built of those members
//! alone (src/jq/projection.rs). Its results must be the whole object's:
//! every such filter is compared, framed and `--raw`, with the same filter
//! written as a definition (`def g: F; g`), which the projection refuses
//! and so runs on the whole object, on events with repeated keys, escaped
//! keys, every kind of value and numbers in every spelling.

use proptest::prelude::*;
use serde_json::Value;

use crate::util::{assert_conforming_report, fed_back_code};

/// Filters the projection takes (the unit tests check that it does).
const FILTERS: &[&str] = &[
    "select((.rank // 0) % 2 == 0)",
    ".title",
    "{id, title}",
    "select(.title == \"x\") | {rank}",
    ".a.x",
    ".a[.rank]",
    "if .b then . else .title end",
    "\"\\(.id)-\\(.rank)\"",
    ".rank + 1",
    "select(.a), .b",
    ".title | length",
    "select(.rank > 1 and .title != null)",
    "{id, n: (.a // [] | length)}",
    "select(.b) | .rank",
    "try .a.x catch \"caught\"",
    ".rank as $r | select($r != null) | {r: $r, id}",
    "{\"t\\u0069tle\": .title}",
    "select(.type == \"hit\")",
    ".aoi.seq",
];

/// Keys the events are made of: those the filters read, one escaped.
const KEYS: &[&str] = &["rank", "title", "id", "a", "b", "t\\u0069tle", "other"];

/// Values in many spellings: numbers jaq may print otherwise, escapes,
/// non-ASCII text, nesting.
const VALUES: &[&str] = &[
    "0",
    "-0",
    "1",
    "2",
    "7",
    "1.0",
    "1e2",
    "2.50",
    "12345678901234567890",
    "-3",
    "\"x\"",
    "\"a\\nb\"",
    "\"\\u00e9t\\u00e9\"",
    "\"été\"",
    "\"\"",
    "null",
    "true",
    "false",
    "{\"x\":1}",
    "{\"x\":\"y\",\"x\":2}",
    "[1,\"a\",null]",
    "[]",
    "{}",
    "\"\\ud800\"",
    "[\"\\ud800\"]",
    "{\"x\":\"\\udc00a\"}",
];

fn event() -> impl Strategy<Value = String> {
    let member = (0..KEYS.len(), 0..VALUES.len());
    (prop::collection::vec(member, 0..6), prop::bool::ANY).prop_map(|(members, hit)| {
        let ty = if hit { "hit" } else { "match" };
        let mut line = format!("{{\"type\":\"{ty}\"");
        for (k, v) in members {
            line.push_str(&format!(",\"{}\":{}", KEYS[k], VALUES[v]));
        }
        line.push('}');
        line
    })
}

/// A report line without aoi's own run id and times.
fn stable(line: &[u8]) -> String {
    // serde_json refuses a lone surrogate escape, which jq reads as U+FFFD.
    let line = String::from_utf8_lossy(line)
        .replace("\\ud800", "\\ufffd")
        .replace("\\udc00", "\\ufffd");
    match serde_json::from_str::<Value>(&line) {
        Ok(Value::Object(mut m)) => {
            if let Some(Value::Object(env)) = m.get_mut("aoi") {
                env.remove("run");
                env.remove("t");
            }
            m.remove("elapsed_ms");
            Value::Object(m).to_string()
        }
        _ => line,
    }
}

fn run(args: &[&str], input: &[u8]) -> crate::util::Out {
    let mut a = vec!["filter"];
    a.extend_from_slice(args);
    crate::util::aoi(&a, input)
}

/// The filter as the projection takes it and as a definition it refuses
/// give the same stdout, stderr and exit.
fn same_as_whole(flt: &str, input: &[u8]) {
    let whole = format!("def aoi_whole: {flt}; aoi_whole");
    for mode in [&[][..], &["--continue-on-error"], &["--raw"]] {
        let fast = run(&[mode, &[flt]].concat(), input);
        let slow = run(&[mode, &[whole.as_str()]].concat(), input);
        let what = format!("{mode:?} {flt}");
        assert_eq!(
            fast.code, slow.code,
            "{what}: exit differs: {}",
            fast.stderr
        );
        assert_eq!(fast.stderr, slow.stderr, "{what}: stderr differs");
        if mode == ["--raw"] {
            assert_eq!(
                fast.stdout_str(),
                slow.stdout_str(),
                "{what}: stdout differs"
            );
        } else {
            let lines = |b: &[u8]| b.split(|&c| c == b'\n').map(stable).collect::<Vec<_>>();
            assert_eq!(
                lines(&fast.stdout),
                lines(&slow.stdout),
                "{what}: stdout differs"
            );
            assert_conforming_report(&fast.stdout, fed_back_code(fast.code));
        }
    }
}

#[test]
fn projected_filters_give_what_the_whole_object_gives() {
    let events: Vec<String> = [
        r#"{"type":"hit","rank":2,"title":"x","id":"a"}"#,
        r#"{"type":"hit","rank":1,"rank":4,"title":"y"}"#,
        r#"{"type":"hit","t\u0069tle":"esc","a":{"x":3},"b":true}"#,
        r#"{"type":"hit","rank":-0,"a":[5,6,7],"id":1e2}"#,
        r#"{"type":"match","rank":"two","a":"s"}"#,
        r#"{"type":"hit"}"#,
        r#"{"type":"hit","rank":3,"b":["\ud800"],"title":"lone"}"#,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let input = crate::util::enveloped(&events);
    for flt in FILTERS {
        same_as_whole(flt, &input);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn projected_filters_agree_on_any_events(
        events in prop::collection::vec(event(), 1..12),
        which in 0..FILTERS.len(),
    ) {
        same_as_whole(FILTERS[which], &crate::util::enveloped(&events));
    }
}
