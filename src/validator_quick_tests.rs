//! The quick validator and the in-place reader held to boon on random
//! events: the same findings (valid, the same problem, or serde_json's
//! refusal) from `EventSchema::line_problem` as from serde_json and boon
//! alone, on the discriminated schema of benches/schema and on lines made
//! to hit every case the in-place reader hands back (escapes, repeated
//! names, numbers serde_json reads its own way).

use super::*;

/// A small deterministic generator (xorshift64*): no dependency, the
/// same events on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<'a>(&mut self, all: &[&'a str]) -> &'a str {
        all[(self.next() % all.len() as u64) as usize]
    }
}

/// A member value: valid for some schema spot, wrong for another, or a
/// case the in-place reader hands to serde_json.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "1.0",
    "0.5",
    "1e2",
    "2E-1",
    "1.5e400",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678",
    "1234567890123456789",
    "true",
    "false",
    "null",
    "\"\"",
    "\"/src/a.rs\"",
    "\"src\"",
    "\"code\"",
    "\"doc\"",
    "\"rust\"",
    "\"c\"",
    "\"1.0-alpha\"",
    "\"outline\"",
    "\"Outline\"",
    "\"a\\u0041\"",
    "\"\\ud800\"",
    "\"/caf\u{e9}\"",
    "[]",
    "[1,2]",
    "[0]",
    "[1,\"x\"]",
    "{}",
    "{\"a\":1}",
    "\"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6\"",
    "\"01JZQ7X4TQ9KZ8V6R2M3N4P5QU\"",
];

const NAMES: &[&str] = &[
    "rank",
    "path",
    "score",
    "kind",
    "lines",
    "bytes",
    "lang",
    "done",
    "total",
    "aoi_version",
    "tool",
    "tool_version",
    "ok",
    "event_count",
    "extra",
    "type",
];

const TYPES: &[&str] = &[
    "\"hit\"",
    "\"file\"",
    "\"progress\"",
    "\"aoi:meta\"",
    "\"aoi:summary\"",
    "\"other\"",
    "\"\"",
    "1",
    "null",
    "\"h\\u0069t\"",
];

fn envelope(r: &mut Rng) -> String {
    match r.next() % 6 {
        0 => r.pick(VALUES).to_string(),
        1 => format!("{{\"seq\":{}}}", r.pick(VALUES)),
        _ => format!(
            "{{\"seq\":{},\"run\":{}}}",
            r.pick(&["0", "3", "-1", "2.0", "\"1\""]),
            r.pick(&[
                "\"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6\"",
                "\"01JZQ7X4TQ9KZ8V6R2M3N4P5QU\"",
                "\"short\"",
                "7",
            ])
        ),
    }
}

fn event(r: &mut Rng) -> String {
    let mut members = Vec::new();
    if r.next() % 10 != 0 {
        members.push(format!("\"type\":{}", r.pick(TYPES)));
    }
    if r.next() % 4 != 0 {
        members.push(format!("\"aoi\":{}", envelope(r)));
    }
    for _ in 0..r.next() % 6 {
        members.push(format!("\"{}\":{}", r.pick(NAMES), r.pick(VALUES)));
    }
    let sep = r.pick(&[",", ", ", " ,\t"]);
    let line = format!("{{{}}}", members.join(sep));
    match r.next() % 40 {
        0 => "[1,2]".into(),
        1 => format!(" {line} "),
        _ => line,
    }
}

#[test]
fn random_events_get_boons_findings() {
    let text = include_str!("../benches/schema/events.json");
    let schema: Value = serde_json::from_str(text).expect("the bench schema is JSON");
    let s = EventSchema::from_value(&schema).expect("the bench schema compiles");
    assert!(
        s.quick.is_some(),
        "the bench schema is the quick validator's"
    );
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut valid, mut invalid, mut refused) = (0, 0, 0);
    for _ in 0..20_000 {
        let line = event(&mut r);
        let want = serde_json::from_slice::<Value>(line.as_bytes()).map(|v| {
            s.schemas
                .validate(&v, s.index)
                .err()
                .map(|e| most_specific(&e))
        });
        let got = s.line_problem(line.as_bytes());
        match (&want, &got) {
            (Ok(w), Ok(g)) => assert_eq!(w, g, "{line}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{line}: boon {want:?}, aoi {got:?}"),
        }
        match want {
            Ok(None) => valid += 1,
            Ok(Some(_)) => invalid += 1,
            Err(_) => refused += 1,
        }
    }
    // The generator reaches every outcome, or the test proves little.
    assert!(
        valid > 1000 && invalid > 1000 && refused > 100,
        "{valid} {invalid} {refused}"
    );
}

/// Schemas the quick validator leaves to boon: keywords outside its list,
/// an embedded resource, a loop of references on one value.
#[test]
fn schemas_outside_the_subset_are_boons() {
    for s in [
        serde_json::json!({"unevaluatedProperties": false}),
        serde_json::json!({"pattern": "\\d+"}),
        serde_json::json!({"$defs": {"a": {"$id": "a.json"}}}),
        serde_json::json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
        serde_json::json!({"$schema": "http://json-schema.org/draft-07/schema#"}),
        serde_json::json!({"$ref": "#anchor", "$defs": {"a": {"$anchor": "anchor"}}}),
    ] {
        let v = EventSchema::from_value(&s).expect("compiles");
        assert!(v.quick.is_none(), "{s}");
    }
    for s in [
        serde_json::json!({"pattern": "^a\\.b$"}),
        serde_json::json!({"$defs": {"n": {"items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}),
    ] {
        let v = EventSchema::from_value(&s).expect("compiles");
        assert!(v.quick.is_some(), "{s}");
    }
}

/// A pattern that only says how a string begins is tested as a prefix, and
/// one class between anchors as a run: the same answer as boon's regex on
/// strings that begin with it, with part of it, with it after a line feed,
/// in another case, of each length around the count, with a trailing line
/// feed or a non-ASCII letter, and on patterns that look like one but are
/// not (a metacharacter after `^`, no `$`).
#[test]
fn prefix_patterns_answer_as_the_regex() {
    let patterns = [
        "^/",
        "^",
        "^abc",
        "^a/b:c",
        "^x_y=1",
        "^'\"",
        "^a.c",
        "^a+",
        "^a|b",
        "^(?m)x",
        "^a$",
        "^a-b",
        "^a#",
        "^a~",
        "^ab&",
        "^A",
        "^[0-9A-HJKMNP-TV-Z]{26}$",
        "^[a-c]{2,3}$",
        "^[a-c]+$",
        "^[a-c0]*$",
        "^[a-c]{2,}$",
        "^[ab]$",
        "^[a-c]{2}",
    ];
    let strings = [
        "",
        "/",
        "//",
        "a/",
        "\n/",
        "abc",
        "abcd",
        "ab",
        "xabc",
        "ABC",
        "a/b:c",
        "a/b:",
        "x_y=10",
        "'\"",
        "a.c",
        "abc\n",
        "aac",
        "a",
        "aa",
        "b",
        "x",
        "\nx",
        "a-b",
        "a#",
        "a~",
        "ab&",
        "A",
        "\u{e9}/",
        "/\u{e9}",
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "01ARZ3NDEKTSV4RRFFQ69G5FAVX",
        "01ARZ3NDEKTSV4RRFFQ69G5FA",
        "01ARZ3NDEKTSV4RRFFQ69G5FAI",
        "01ARZ3NDEKTSV4RRFFQ69G5FA\n",
        "01arz3ndektsv4rrffq69g5fav",
        "01ARZ3NDEKTSV4RRFFQ69G5F\u{c9}",
        "bc",
        "abc0",
        "abcd",
        "c",
        "0",
        "cab",
        "ba\n",
    ];
    for p in patterns {
        let schema = serde_json::json!({"type": "string", "pattern": p});
        let v = EventSchema::from_value(&schema).expect("compiles");
        assert!(v.quick.is_some(), "{p}");
        for s in strings {
            let (boon, quick) = v.both_answers(&serde_json::json!(s));
            assert_eq!(Some(boon), quick, "pattern {p:?} on {s:?}");
        }
    }
}
