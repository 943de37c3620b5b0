//! The judge's unit tests: whole streams judged, the envelope's fast path,
//! secrets, and properties of the type table and the key checks.

use super::envelope::canonical_envelope;
use super::fields::{duplicate_key, keys_plain};
use super::types::{MAX_TYPE_LEN, MAX_TYPES, TypeCounts};
use super::*;
use crate::peek::{span, unescape};
use crate::spec;

fn judge(input: &str) -> (Verdict, Vec<Finding>) {
    let mut j = Judge::new(JudgeOptions::default());
    let mut f = Vec::new();
    for (l, t) in crate::lines::split_lines(input.as_bytes()) {
        j.line(l, t);
        f.extend(j.drain());
    }
    let (v, last) = j.finish();
    f.extend(last);
    (v, f)
}

/// A framework event with many undefined fields names the first 16:
/// the message stays short whatever the line holds.
#[test]
fn unknown_fields_are_named_up_to_a_limit() {
    let keys: String = (0..100).map(|i| format!(r#","k{i}":0"#)).collect();
    let line = format!(
        r#"{{"type":"aoi:meta","aoi":{{"seq":0,"run":"R"}},"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"s","schema_version":"1.0.0"{keys}}}"#
    );
    let (_, f) = judge(&format!("{line}\n"));
    let m = f
        .iter()
        .find(|f| f.rule == RuleId::UnknownField)
        .map(|f| f.message.clone())
        .unwrap_or_default();
    assert!(
        m.contains("k0, k1,") && m.contains("k15 … and 84 more"),
        "{m}"
    );
    assert!(!m.contains("k16"), "{m}");
}

#[test]
fn conforming_stream_is_ok() {
    let s = concat!(
        r#"{"type":"aoi:meta","aoi":{"seq":0,"run":"R"},"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"s","schema_version":"1.0.0"}"#,
        "\n",
        r#"{"type":"hit","aoi":{"seq":1,"run":"R"}}"#,
        "\n",
        r#"{"type":"aoi:summary","aoi":{"seq":2,"run":"R"},"ok":true,"count":1,"event_count":3,"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"s","schema_version":"1.0.0","truncated":false}"#,
        "\n"
    );
    let (v, f) = judge(s);
    assert_eq!(f, vec![]);
    assert_eq!(v.exit_code, 0);
    assert!(v.factors.typed && v.factors.verifiable && v.factors.versioned && v.factors.composable);
}

#[test]
fn canonical_envelope_fast_path() {
    assert_eq!(
        canonical_envelope(br#"{"seq":12,"run":"R"}"#),
        Some((12, &br#""R""#[..]))
    );
    assert_eq!(
        canonical_envelope(br#"{"seq":0,"run":"R","t":5}"#),
        Some((0, &br#""R""#[..]))
    );
    assert_eq!(canonical_envelope(br#"{"seq":1,"run":""}"#), None);
    assert_eq!(canonical_envelope(br#"{"seq":1,"run":"a\"b"}"#), None);
    assert_eq!(canonical_envelope(br#"{"seq":1.5,"run":"R"}"#), None);
    assert_eq!(canonical_envelope(br#"{"seq":1,"run":"R","seq":2}"#), None);
    assert_eq!(canonical_envelope(br#"{"seq":1,"run":"R","t":-1}"#), None);
    assert_eq!(
        canonical_envelope(br#"{"seq":99999999999999999999,"run":"R"}"#),
        None
    );
}

#[test]
fn secrets() {
    assert!(secret_in_args(br#"["--token","abc"]"#).is_some());
    assert!(secret_in_args(br#"["--token=abc"]"#).is_some());
    assert!(secret_in_args(br#"["--token","***"]"#).is_none());
    assert!(secret_in_args(br#"["https://u:p@h/x"]"#).is_some());
    assert!(secret_in_args(br#"["https://h/x?sig=abc"]"#).is_some());
    assert!(secret_in_args(br#"["--limit","2"]"#).is_none());
    assert!(secret_in_args(br#"{"api_key":"k"}"#).is_some());
}

mod key_checks {
    use super::*;
    use proptest::prelude::*;

    /// Keys to build framework lines from: known names, names that
    /// share a hash with a known one or with each other, an escaped
    /// spelling of a known name, the reserved names.
    const POOL: &[&str] = &[
        "type",
        "aoi",
        "code",
        "message",
        "scope",
        "category",
        "retryable",
        "target",
        "details",
        "properties",
        "phase",
        "done",
        "total",
        "aaqv",
        "aaah",
        "aaba",
        "aapx",
        "cod\\u0065",
        "",
        "x",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// `TypeCounts` counts as a map of names would: names that
        /// share their first and last four bytes and their length
        /// (the key), names of 0-12 bytes with NULs (an escaped type
        /// can hold one), past the scanned names into the map, and
        /// past `MAX_TYPES` and `MAX_TYPE_LEN` into "not tracked".
        #[test]
        fn type_counts_agree_with_a_map(
            picks in proptest::collection::vec((0usize..1200, 0usize..6), 0..3000),
        ) {
            // Names built from an index: a few shapes that defeat a
            // key made of the length and the first and last 4 bytes.
            let name = |i: usize, shape: usize| -> Vec<u8> {
                let b = [(i % 251) as u8, (i / 251) as u8];
                match shape {
                    0 => format!("t{i}").into_bytes(),
                    1 => [&b"abcd"[..], &b, b"wxyz"].concat(),
                    2 => [&b"abcd"[..], &b[..1], b"wxyz"].concat(),
                    3 => vec![0; i % 13],
                    4 => vec![b'x'; 250 + i % 10],
                    _ => [&b[..], b"\0"].concat(),
                }
            };
            let mut tc = TypeCounts::default();
            let mut oracle: Vec<(Vec<u8>, u64)> = Vec::new();
            for &(i, shape) in &picks {
                let n = name(i, shape);
                let tracked = tc.count(&n);
                let pos = oracle.iter().position(|(t, _)| *t == n);
                let expect = match pos {
                    Some(p) => {
                        oracle[p].1 += 1;
                        true
                    }
                    None if oracle.len() < MAX_TYPES && n.len() <= MAX_TYPE_LEN => {
                        oracle.push((n, 1));
                        true
                    }
                    None => false,
                };
                prop_assert_eq!(tracked, expect);
            }
            let got: Vec<(Vec<u8>, u64)> = tc.iter().map(|(t, n)| (t.to_vec(), n)).collect();
            prop_assert_eq!(got, oracle);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// `keys_plain` proves only what holds: no duplicate key and,
        /// with a table, every key known; and on a table type it proves
        /// every line whose keys are distinct known names without escapes.
        #[test]
        fn keys_plain_proves_only_what_holds(
            keys in proptest::collection::vec(proptest::sample::select(POOL), 0..14),
            ty in proptest::sample::select(&["aoi:error", "aoi:progress", "aoi:meta", "aoi:check"][..]),
        ) {
            let body: String = keys.iter().enumerate().map(|(i, k)| format!(r#","{k}":{i}"#)).collect();
            let line = format!(r#"{{"t":0{body}}}"#);
            let mut p = Peeker::new();
            prop_assert!(p.peek(line.as_bytes()).is_ok());
            let members = &p.members[1..];
            let line = line.as_bytes();
            let table = spec::field_table(ty.as_bytes());
            let plain = keys_plain(line, members, table);
            let decoded: Vec<String> = members.iter().map(|m| unescape(span(line, &m.key)).into_owned()).collect();
            let mut sorted = decoded.clone();
            sorted.sort();
            let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
            let known = table.is_none_or(|t| decoded.iter().all(|k| t.names.contains(&k.as_str())));
            if plain {
                prop_assert!(distinct && known, "{:?} proved plain for {}", decoded, ty);
                prop_assert!(duplicate_key(line, members).is_none());
            }
            let escaped = members.iter().any(|m| m.key_escaped);
            if table.is_some() && distinct && known && !escaped {
                prop_assert!(plain, "{:?} not proved for {}", decoded, ty);
            }
        }
    }

    /// Every name of every table is found by its own hash, and nothing
    /// else with that hash is.
    #[test]
    fn tables_find_their_names() {
        for ty in [
            "aoi:meta",
            "aoi:summary",
            "aoi:error",
            "aoi:warning",
            "aoi:check",
        ] {
            let t = spec::field_table(ty.as_bytes()).expect("a table");
            for n in t.names {
                assert!(
                    t.has(n.as_bytes(), spec::field_hash(n.as_bytes())),
                    "{ty} {n}"
                );
            }
        }
        let error = spec::field_table(b"aoi:error").expect("a table");
        assert_eq!(spec::field_hash(b"aaqv"), spec::field_hash(b"code"));
        assert!(!error.has(b"aaqv", spec::field_hash(b"aaqv")));
        assert_eq!(spec::field_hash(b"aaah"), spec::field_hash(b"aaba"));
    }
}
