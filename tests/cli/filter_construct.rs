//! A program that only builds an object of plain paths (`{id, title}`,
//! `{a: .b, "c": .d.e}`) is written from the line's own bytes
//! (src/jq/construct.rs), and so is a plain path (`.title`). Their output
//! must be the general path's byte for byte: each such program is compared,
//! framed and `--raw` in every output style, with the same program written
//! as a definition (`def g: F; g`), which the fast path refuses, on events
//! with repeated and escaped keys, numbers in every spelling, escapes, DEL,
//! nesting, and (for `--raw`) lines that are not objects or not JSON.

use proptest::prelude::*;

/// Programs the fast path takes (its unit tests check that it does), and
/// `{type: .id}`, which framed refuses (a `type` makes an event, § 8.1).
const PROGRAMS: &[&str] = &[
    "{id, title}",
    "{a: .b, \"c\": .d.e}",
    "{rank, id, rank}",
    "{a: .rank, b: .id, a: .title}",
    "{\"t\\u0069tle\", x: .a.x, y: .a.\"x\", z: .[\"b\"]}",
    "{n: .a.x.y, m: .b.x}",
    "{aoi, id}",
    "{}",
    "{type: .id}",
    ".title",
    ".a.x",
];

/// Keys the events are made of: those the programs read, one escaped.
const KEYS: &[&str] = &["rank", "title", "id", "a", "b", "d", "t\\u0069tle", "other"];

/// Values in many spellings: numbers jaq may print otherwise, escapes,
/// DEL raw and escaped, non-ASCII text, spacing, nesting, repeated keys.
const VALUES: &[&str] = &[
    "0",
    "-0",
    "-0.0",
    "1",
    "-12",
    "1.0",
    "0.10",
    "1e2",
    "1E2",
    "1e-2",
    "1.5E+3",
    "2.50",
    "12345678901234567890",
    "\"x\"",
    "\"a\\nb\"",
    "\"\\u00e9t\\u00e9\"",
    "\"été\"",
    "\"a\x7fb\"",
    "\"a\\u007fb\"",
    "\"\\/\"",
    "\"\"",
    "null",
    "true",
    "false",
    "{\"x\":1}",
    "{\"x\":\"y\",\"x\":2}",
    "{\"x\": {\"y\": -0}, \"e\": \"\\u0041\"}",
    "{\"x\":null}",
    "[1, \"a\",null]",
    "[]",
    "{}",
    "\"\\ud800\"",
    "[\"\\ud800\"]",
    "{\"x\":\"\\udc00a\"}",
];

/// Lines of `--raw` input that are no object, or no JSON.
const ODD_LINES: &[&str] = &[
    "1",
    "\"s\"",
    "[1,2]",
    "null",
    " {\"id\":1}",
    "{\"id\":1} {\"id\":2}",
    "{\"id\":",
    "",
];

fn object() -> impl Strategy<Value = String> {
    let member = (0..KEYS.len(), 0..VALUES.len());
    prop::collection::vec(member, 0..6).prop_map(|members| {
        let body: Vec<String> = members
            .iter()
            .map(|&(k, v)| format!("\"{}\":{}", KEYS[k], VALUES[v]))
            .collect();
        format!("{{{}}}", body.join(","))
    })
}

/// A domain event: `type` first, then the members.
fn event() -> impl Strategy<Value = String> {
    (object(), prop::bool::ANY).prop_map(|(o, hit)| {
        let ty = if hit { "hit" } else { "match" };
        let sep = if o == "{}" { "" } else { "," };
        format!("{{\"type\":\"{ty}\"{sep}{}", &o[1..])
    })
}

/// A line of `--raw` input: mostly objects.
fn raw_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => object(),
        1 => (0..ODD_LINES.len()).prop_map(|i| ODD_LINES[i].to_string()),
    ]
}

/// aoi's report with its own run id and times written alike, every other
/// byte as it came.
fn stable(report: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(report);
    let mut out = text.into_owned();
    // aoi's run id: the one in its first line (its meta).
    let tag = "\"run\":\"";
    if let Some(at) = out.find(tag) {
        let id: String = out[at + tag.len()..].chars().take(26).collect();
        out = out.replace(&id, "RUN");
    }
    for field in ["\"run\":\"RUN\",\"t\":", "\"elapsed_ms\":"] {
        let mut kept = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(field) {
            let digits = rest[at + field.len()..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            kept.push_str(&rest[..at + field.len()]);
            kept.push('0');
            rest = &rest[at + field.len() + digits..];
        }
        kept.push_str(rest);
        out = kept;
    }
    out.into_bytes()
}

fn run(args: &[&str], input: &[u8]) -> crate::util::Out {
    let mut a = vec!["filter"];
    a.extend_from_slice(args);
    crate::util::aoi(&a, input)
}

/// The framed modes, and `--raw` in every output style.
const FRAMED: &[&[&str]] = &[
    &[],
    &["--continue-on-error"],
    &["--threads", "1"],
    &["--threads", "2"],
];
pub(crate) const RAW: &[&[&str]] = &[
    &["--raw"],
    &["--raw", "-c"],
    &["--raw", "-r"],
    &["--raw", "-j"],
    &["--raw", "--seq"],
    &["--raw", "--tab"],
    &["--raw", "--indent", "3"],
    &["--raw", "-a"],
    &["--raw", "-S"],
    &["--raw", "-C"],
    &["--raw", "-e"],
    &["--raw", "--raw-output0"],
    &["--raw", "-a", "-C", "--indent", "1", "--seq"],
];

/// The program as the fast path takes it and as a definition it refuses
/// give the same stdout (byte for byte), stderr and exit.
pub(crate) fn same_as_general(program: &str, modes: &[&[&str]], input: &[u8]) {
    let general = format!("def aoi_general: {program}; aoi_general");
    for mode in modes {
        let fast = run(&[*mode, &[program]].concat(), input);
        let slow = run(&[*mode, &[general.as_str()]].concat(), input);
        let what = format!("{mode:?} {program}");
        assert_eq!(
            fast.code, slow.code,
            "{what}: exit differs: {}",
            fast.stderr
        );
        assert_eq!(fast.stderr, slow.stderr, "{what}: stderr differs");
        let (f, s) = match mode.first() {
            Some(&"--raw") => (fast.stdout, slow.stdout),
            _ => (stable(&fast.stdout), stable(&slow.stdout)),
        };
        assert_eq!(
            String::from_utf8_lossy(&f),
            String::from_utf8_lossy(&s),
            "{what}: stdout differs"
        );
        assert_eq!(f, s, "{what}: stdout's bytes differ");
    }
}

#[test]
fn objects_of_plain_paths_are_the_general_paths() {
    let events: Vec<String> = [
        r#"{"type":"hit","id":"a","title":"x","rank":1}"#,
        r#"{"type":"hit","id":1,"id":-0,"title":"a\u007fb","rank":1.50}"#,
        "{\"type\":\"hit\",\"id\":\"a\x7fb\",\"t\\u0069tle\":\"esc\",\"a\":{\"x\": [1, 2]}}",
        r#"{"type":"hit","a":{"x":{"y":1E2}},"b":"s","d":{"e":-0.0}}"#,
        r#"{"type":"match","rank":"two","a":"s","title":["\ud800"]}"#,
        r#"{"type":"hit"}"#,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let framed = crate::util::enveloped(&events);
    let mut raw: Vec<String> = events.clone();
    raw.extend(ODD_LINES.iter().map(|s| s.to_string()));
    let raw = (raw.join("\n") + "\n").into_bytes();
    for program in PROGRAMS {
        same_as_general(program, FRAMED, &framed);
        same_as_general(program, RAW, &raw);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn objects_of_plain_paths_agree_on_any_events(
        events in prop::collection::vec(event(), 1..10),
        lines in prop::collection::vec(raw_line(), 1..10),
        which in 0..PROGRAMS.len(),
        framed in 0..FRAMED.len(),
        raw in 0..RAW.len(),
    ) {
        same_as_general(PROGRAMS[which], &FRAMED[framed..=framed], &crate::util::enveloped(&events));
        let input = (lines.join("\n") + "\n").into_bytes();
        same_as_general(PROGRAMS[which], &RAW[raw..=raw], &input);
    }
}
