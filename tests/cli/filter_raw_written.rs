//! `--raw` writes a result that is the input line's value, or a member of
//! it, from the line's own bytes (src/jq/transcribe.rs): `.`, a plain path
//! (`.title`) and a filter that outputs its input unchanged
//! (`select(…)`). Its output must be the general path's byte for byte:
//! each program is compared, in every output style, with the same program
//! written as a definition (`def g: F; g`), which the fast path refuses,
//! on lines with numbers in every spelling, escapes, DEL, C1 and U+2028,
//! invalid UTF-8, lone surrogates, repeated keys, whitespace and CRLF, a
//! byte order mark, several values on a line and values across lines.

use proptest::prelude::*;

use crate::filter_construct::{RAW, same_as_general};

const PROGRAMS: &[&str] = &[
    ".",
    ".title",
    ".a",
    ".a.x",
    "select((.rank // 0) % 2 == 0)",
    "select(.title)",
    "if .rank then . else .title end",
];

const KEYS: &[&str] = &["rank", "title", "a", "x", "t\\u0069tle", "r\\u0061nk"];

/// Values in many spellings: what jaq writes otherwise, and what it
/// writes as it came.
const VALUES: &[&str] = &[
    "0",
    "-0",
    "-0.0",
    "-0e0",
    "1e-0",
    "2",
    "-12",
    "1.0",
    "0.10",
    "1e2",
    "1E+2",
    "1e400",
    "-1E-400",
    "12345678901234567890123",
    "\"x\"",
    "\"\"",
    "\"\\u00e9t\\u00e9\"",
    "\"\\/\"",
    "\"\\u007f\"",
    "\"a\x7fb\"",
    "\"\u{85}\u{9f}\"",
    "\"\u{2028}\u{2029}\"",
    "\"\\u2028\"",
    "\"\\ud83d\\ude00\"",
    "\"\\ud800\"",
    "\"\\u0000\"",
    "\"tab\\there \\\"q\\\" \\\\\"",
    "\"été 日本\"",
    "null",
    "true",
    "false",
    "{\"x\":1}",
    "{\"x\":-0}",
    "{\"x\":1,\"x\":2}",
    "{\"x\" : [1 , {\"y\":\"\\u0041\"}]}",
    "[1,\"a\",null,-0]",
    "[{\"x\":1},{\"x\":2}]",
    "[]",
    "{}",
];

/// Between tokens: nothing mostly, else JSON's whitespace.
const SPACES: &[&str] = &["", "", "", "", " ", "\t", "  "];

/// Lines that are no object, not JSON, or not one value.
const ODD_LINES: &[&[u8]] = &[
    b"1",
    b"-0",
    b" \"s\\u00e9\" ",
    b"[1, -0]",
    b"null",
    b"{\"title\":1} {\"title\":2}",
    b"{\"title\":1}{\"title\":2}",
    b"{\"title\":",
    b"\"x\"}",
    b"{\"title\":\"\xff\"}",
    b"{\"title\":\"\xc3\"}",
    b"nan",
    b"{\"title\":NaN}",
    b"",
    b"   ",
];

fn object() -> impl Strategy<Value = Vec<u8>> {
    let member = (0..KEYS.len(), 0..VALUES.len(), 0..SPACES.len());
    let members = prop::collection::vec(member, 0..6);
    (members, 0..SPACES.len(), 0..SPACES.len()).prop_map(|(members, lead, tail)| {
        let body: Vec<String> = members
            .iter()
            .map(|&(k, v, s)| format!("\"{}\"{sp}:{sp}{}", KEYS[k], VALUES[v], sp = SPACES[s]))
            .collect();
        let sep = format!(",{}", SPACES[tail]);
        format!("{}{{{}}}{}", SPACES[lead], body.join(&sep), SPACES[tail]).into_bytes()
    })
}

/// A line of input: mostly objects.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => object(),
        1 => (0..ODD_LINES.len()).prop_map(|i| ODD_LINES[i].to_vec()),
    ]
}

/// Lines joined with LF or CRLF, the first after a byte order mark or not.
fn input(lines: &[Vec<u8>], crlf: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice(b"\xef\xbb\xbf");
    }
    for l in lines {
        out.extend_from_slice(l);
        out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
    }
    out
}

#[test]
fn values_written_from_the_line_are_the_general_paths() {
    let mut lines: Vec<Vec<u8>> = [
        r#"{"rank":2,"title":"x","a":{"x":[1,2]}}"#,
        r#"{"rank":2,"title":"x","rank":4}"#,
        r#"{"rank":-0,"title":"\u00e9","a":{"x":{"y":-0,"y":1}}}"#,
        "{\"rank\":0,\"title\":\"a\x7fb\",\"a\":[1, 2]}",
        r#"{"rank":2,"title":"\ud800","a":{"x":"\udc00"}}"#,
        r#"{"rank":2, "title":"x"}"#,
        r#"{"rank":2,"title":"\u0000","a":{"x":"é\u2028"}}"#,
        r#"{"rank":1e2,"title":1E+2,"a":{"x":0.10}}"#,
        r#"{"rank":"two"}"#,
        "{\"rank\":2,\"title\":[1,",
        "2]}",
        "{}",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    lines.extend(ODD_LINES.iter().map(|l| l.to_vec()));
    for (crlf, bom) in [(false, false), (true, true)] {
        let bytes = input(&lines, crlf, bom);
        for program in PROGRAMS {
            same_as_general(program, RAW, &bytes);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn values_written_from_the_line_agree_on_any_lines(
        lines in prop::collection::vec(line(), 1..12),
        crlf in prop::bool::ANY,
        bom in prop::bool::ANY,
        which in 0..PROGRAMS.len(),
        mode in 0..RAW.len(),
    ) {
        let bytes = input(&lines, crlf, bom);
        same_as_general(PROGRAMS[which], &RAW[mode..=mode], &bytes);
    }
}
