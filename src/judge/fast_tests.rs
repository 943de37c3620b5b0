//! The judge's fast paths held to its general paths on random and odd
//! framework events: the keys proved by their hashes against the walk
//! over the members (whole streams judged both ways), and each shortcut
//! on a value (whole numbers, printable messages, the usual `wrapped`,
//! strings compared on their bytes, short byte strings) against the
//! reading it skips.

use super::error::usual_protocol;
use super::fields::{
    Ev, Keys, Named, named, plain, printable_ascii, str_is, str_ref, whole_general, whole_number,
    wrapped_protocol,
};
use super::*;
use crate::peek::{bytes_eq, span};
use crate::spec;
use proptest::prelude::*;

/// Every framework type, and one that is not the spec's.
const TYPES: &[&str] = &[
    "aoi:meta",
    "aoi:summary",
    "aoi:error",
    "aoi:warning",
    "aoi:check",
    "aoi:heartbeat",
    "aoi:progress",
    "aoi:plan",
    "aoi:other",
    "aoi:\\u0065rror",
];

/// Keys besides the types' own: v0.2's, a name that shares its hash with
/// `code` (`aaqv`), escaped spellings of known names, the reserved names,
/// the empty key.
const EXTRA_KEYS: &[&str] = &[
    "seq",
    "run",
    "upstream",
    "aaqv",
    "cod\\u0065",
    "\\u0073cope",
    "type",
    "aoi",
    "",
    "x",
    "phase",
    "done",
];

/// Values right and wrong for the types' fields: strings of the spec's
/// vocabularies plain and escaped, odd strings, numbers whole and not,
/// past 2^64, the other kinds, `wrapped` objects usual and not.
const VALUES: &[&str] = &[
    r#""item""#,
    r#""process""#,
    r#""\u0069tem""#,
    r#""rate_limited""#,
    r#""not_found""#,
    r#""partial""#,
    r#""temporary""#,
    r#""CODE_X""#,
    r#""bad code""#,
    r#""two\nlines""#,
    r#""esc \u001b[1m""#,
    r#""c1 \u009b""#,
    r#""caf\u00e9""#,
    r#""plain message.""#,
    r#""""#,
    r#""1.0-alpha""#,
    "0",
    "42",
    "-0",
    "-1",
    "1.0",
    "1e3",
    "2.5",
    "18446744073709551615",
    "18446744073709551616",
    "12345678901234567890",
    "true",
    "false",
    "null",
    "{}",
    "[]",
    "[1]",
    r#"{"a":1}"#,
    r#"{"protocol":"http","status":404}"#,
    r#"{"protocol":"grpc"}"#,
    r#"{"protocol":"exit","code":2}"#,
    r#"{"protocol":"htt\u0070"}"#,
    r#"{"protocol":"https"}"#,
    r#"{"protocol":"httpx"}"#,
    r#"{ "protocol":"http"}"#,
    r#"{"status":1,"protocol":"exit"}"#,
    r#"{"protocol":"http","protocol":"ftp"}"#,
    r#"{"protocol":1}"#,
    r#"{"retryable":true,"code":"X","category":"internal"}"#,
];

/// One framework event: its type (or none), its seq, and members drawn
/// from its type's fields and the extras, each with any value.
fn event() -> impl Strategy<Value = (Option<usize>, Vec<(usize, usize)>)> {
    (
        proptest::option::weighted(0.95, 0..TYPES.len()),
        proptest::collection::vec((0usize..64, 0..VALUES.len()), 0..12),
    )
}

/// The event's line: the type's own names are picked more often than
/// the extras.
fn line_of(ty: Option<usize>, members: &[(usize, usize)], seq: usize) -> String {
    let tname = ty.map(|t| TYPES[t]);
    let own = tname
        .and_then(|t| spec::known_fields(t.as_bytes()))
        .unwrap_or(&["phase", "done", "total", "unit", "properties"]);
    let mut s = String::from("{");
    if let Some(t) = tname {
        s.push_str(&format!(r#""type":"{t}","#));
    }
    s.push_str(&format!(r#""aoi":{{"seq":{seq},"run":"R"}}"#));
    for &(k, v) in members {
        let key = if k < 48 {
            own[k % own.len()]
        } else {
            EXTRA_KEYS[k % EXTRA_KEYS.len()]
        };
        // The type's own `type` and `aoi` stay the first ones.
        let key = if matches!(key, "type" | "aoi") && k % 3 != 0 {
            "x"
        } else {
            key
        };
        s.push_str(&format!(r#","{key}":{}"#, VALUES[v]));
    }
    s.push('}');
    s
}

/// A stream judged with the keys proved or by the general path: every
/// finding and the verdict.
fn judged(lines: &[String], general: bool) -> (String, Vec<Finding>) {
    let mut j = Judge::new(JudgeOptions::default());
    j.general_keys = general;
    let mut f = Vec::new();
    for l in lines {
        j.line(l.as_bytes(), true);
        f.extend(j.drain());
    }
    let (v, last) = j.finish();
    f.extend(last);
    (format!("{v:?}"), f)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A stream of framework events (every field of each type right,
    /// wrong, missing, repeated, escaped, of the wrong kind) is judged
    /// alike with its keys proved by their hashes and by the walk over
    /// its members.
    #[test]
    fn proved_keys_judge_as_the_general_path(
        events in proptest::collection::vec(event(), 1..8),
    ) {
        let lines: Vec<String> = events
            .iter()
            .enumerate()
            .map(|(i, (t, m))| line_of(*t, m, i))
            .collect();
        let fast = judged(&lines, false);
        let general = judged(&lines, true);
        prop_assert_eq!(fast, general, "{:#?}", lines);
    }

    /// What the proof finds by a name is what `Ev::get` finds, for every
    /// name of every table and the extras, on every line it proves.
    #[test]
    fn proved_keys_find_what_the_walk_finds((ty, members) in event()) {
        let text = line_of(ty, &members, 0);
        let line = text.as_bytes();
        let mut p = Peeker::new();
        prop_assert!(p.peek(line).is_ok(), "{}", text);
        let table = ty.and_then(|t| spec::field_table(TYPES[t].as_bytes()));
        let mut keys = Keys::new();
        if !keys.prove(line, &p.members, table) {
            return Ok(());
        }
        let ev = Ev { line, members: &p.members };
        let all_known = p.members.iter().all(|m| {
            table.is_some_and(|t| t.names.iter().any(|n| n.as_bytes() == span(line, &m.key)))
        });
        prop_assert_eq!(keys.all_known, all_known, "{}", text);
        let names = TYPES
            .iter()
            .filter_map(|t| spec::known_fields(t.as_bytes()))
            .flatten()
            .chain(EXTRA_KEYS);
        for &n in names {
            let [by_hash]: [Named; 1] = named([n]);
            let got = keys.get(&ev, by_hash).map(|m| m as *const _);
            let want = ev.get(n).map(|m| m as *const _);
            prop_assert_eq!(got, want, "{} in {}", n, text);
        }
    }

    /// Whole numbers read by digits alone are read as the general path
    /// reads them.
    #[test]
    fn whole_numbers_by_digits_agree(
        digits in "[0-9]{1,22}",
        frac in proptest::option::of("[0-9]{1,3}"),
        exp in proptest::option::of("[eE][+-]?[0-9]{1,2}"),
        neg in any::<bool>(),
    ) {
        let text = format!(
            "{}{digits}{}{}",
            if neg { "-" } else { "" },
            frac.map(|f| format!(".{f}")).unwrap_or_default(),
            exp.unwrap_or_default()
        );
        prop_assert_eq!(whole_number(text.as_bytes()), whole_general(text.as_bytes()), "{}", text);
    }

    /// The word-wise check of a message is the byte-wise one.
    #[test]
    fn printable_by_words_agrees(
        bytes in proptest::collection::vec(
            prop_oneof![
                Just(0x00u8), Just(0x1f), Just(0x20), Just(0x41), Just(0x7e),
                Just(0x7f), Just(0x80), Just(0x9b), Just(0xff), any::<u8>()
            ],
            0..40,
        ),
        printable in proptest::collection::vec(0x20u8..0x7f, 0..40),
        at in 0usize..40,
    ) {
        let naive = |b: &[u8]| b.iter().all(|c| (0x20..0x7F).contains(c));
        prop_assert_eq!(printable_ascii(&bytes), naive(&bytes));
        // Mostly printable, one odd byte anywhere.
        let mut mixed = printable;
        if let Some(&odd) = bytes.first() {
            let i = at.min(mixed.len());
            mixed.insert(i, odd);
        }
        prop_assert_eq!(printable_ascii(&mixed), naive(&mixed));
    }

    /// Short byte strings compare as slices do.
    #[test]
    fn short_bytes_compare_as_slices(
        a in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b')], 0..24),
        b in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b')], 0..24),
    ) {
        prop_assert_eq!(bytes_eq(&a, &b), a == b);
        prop_assert!(bytes_eq(&a, &a.clone()));
    }

    /// A `wrapped` taken for usual has a protocol of the spec's, as the
    /// general path reads it.
    #[test]
    fn usual_wrapped_is_what_the_walk_reads(v in 0..VALUES.len(), tail in 0..VALUES.len()) {
        let obj = VALUES[v].replacen('}', &format!(r#","more":{}}}"#, VALUES[tail]), 1);
        for obj in [VALUES[v], obj.as_str()] {
            let b = obj.as_bytes();
            if Peeker::new().peek(b).is_err() || !usual_protocol(b) {
                continue;
            }
            let walked = wrapped_protocol(b)
                .and_then(|p| str_ref(b, &p).map(|s| s.into_owned()));
            prop_assert!(
                walked.is_some_and(|s| spec::WRAPPED_PROTOCOLS.contains(&s.as_str())),
                "{}", obj
            );
        }
    }

    /// A string compared on its bytes is the string decoded.
    #[test]
    fn strings_compare_as_decoded(v in 0..VALUES.len(), w in 0..VALUES.len()) {
        let text = format!(r#"{{"k":{}}}"#, VALUES[v]);
        let line = text.as_bytes();
        let mut p = Peeker::new();
        prop_assert!(p.peek(line).is_ok());
        let m = &p.members[0];
        let other = VALUES[w].trim_matches('"');
        let decoded = str_ref(line, m).is_some_and(|s| s == other);
        prop_assert_eq!(str_is(line, m, other), decoded, "{} vs {}", text, other);
        prop_assert_eq!(str_is(line, m, "item"), str_ref(line, m).is_some_and(|s| s == "item"));
        let _ = plain(line, m);
    }
}
