//! Property: whatever the bytes, `aoi check` relays them unchanged and
//! exits with a verdict code.
//!
//! Inputs mix JSON-ish event lines with random bytes, NULs, CRLF, missing
//! final line feeds and occasional long lines. Each case spawns the binary,
//! so the case count is modest.

use proptest::prelude::*;

use crate::util::{RUN, VERDICT_CODES};

/// One JSON-ish event line, `\n` included.
fn event_line() -> impl Strategy<Value = Vec<u8>> {
    let ty = prop_oneof![
        Just("aoi:meta"),
        Just("aoi:summary"),
        Just("aoi:error"),
        Just("aoi:warning"),
        Just("aoi:bogus"),
        Just("hit"),
        Just("entry"),
    ];
    let extra = prop_oneof![
        Just(String::new()),
        Just(r#","ok":true"#.to_string()),
        Just(r#","ok":false,"reason":"failed""#.to_string()),
        Just(r#","ok":false,"reason":"timeout""#.to_string()),
        Just(r#","ok":false,"reason":"denied""#.to_string()),
        Just(r#","ok":false,"reason":"cancelled""#.to_string()),
        Just(r#","category":"rate_limited","code":"X","message":"m","retryable":true,"retry_after_ms":5"#.to_string()),
        Just(r#","aoi_version":"1.0-alpha","tool":"t""#.to_string()),
        Just(r#","event_count":3,"count":1"#.to_string()),
        "[a-z\\\\\"\u{e9}\u{1F600}]{0,12}".prop_map(|t| format!(r#","text":"{t}""#)),
    ];
    (ty, 0u64..6, extra, any::<bool>())
        .prop_map(|(ty, seq, extra, envelope)| {
            let env = if envelope {
                format!(r#","aoi":{{"seq":{seq},"run":"{RUN}"}}"#)
            } else {
                String::new()
            };
            format!(r#"{{"type":"{ty}"{env}{extra}}}"#).into_bytes()
        })
        .prop_map(|mut l| {
            l.push(b'\n');
            l
        })
}

/// One piece of the input.
fn segment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => event_line(),
        3 => proptest::collection::vec(any::<u8>(), 0..48),
        1 => Just(b"\r\n".to_vec()),
        1 => Just(b"\0\0\n".to_vec()),
        1 => Just(b"\n".to_vec()),
        1 => Just(b"\x1b[31m".to_vec()),
        1 => Just(b"\xff\xfe".to_vec()),
        // A long line: past a 1K limit, sometimes past the 256 KiB block.
        1 => (prop_oneof![Just(3_000usize), Just(300_000usize)], any::<u8>())
            .prop_map(|(n, b)| vec![b | 0x20; n]),
    ]
}

/// A conforming stream with one of the outcomes, then maybe damaged: cut
/// short, one byte replaced, or a CR or random bytes inserted.
fn damaged_stream() -> impl Strategy<Value = Vec<u8>> {
    let outcome = prop_oneof![
        Just("{}"),
        Just(r#"{"partial":true}"#),
        Just(r#"{"ok":false,"reason":"failed"}"#),
        Just(r#"{"ok":false,"reason":"denied"}"#),
        Just(r#"{"ok":false,"reason":"timeout"}"#),
        Just(r#"{"ok":false,"reason":"cancelled"}"#),
        Just(
            r#"{"ok":false,"reason":"failed","caused_by":{"category":"unavailable","code":"DOWN","retryable":true}}"#
        ),
    ];
    (
        0usize..5,
        outcome,
        0u8..5,
        any::<prop::sample::Index>(),
        proptest::collection::vec(any::<u8>(), 1..8),
    )
        .prop_map(|(hits, outcome, damage, at, junk)| {
            let mut b = crate::util::s().hits(hits).summary(outcome).bytes();
            let i = at.index(b.len());
            match damage {
                0 => {}
                1 => b.truncate(i),
                2 => b[i] = junk[0],
                3 => b.insert(i, b'\r'),
                _ => {
                    b.splice(i..i, junk);
                }
            }
            b
        })
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(segment(), 0..16).prop_map(|v| v.concat()),
        damaged_stream(),
    ]
}

fn args() -> impl Strategy<Value = Vec<&'static str>> {
    prop_oneof![
        4 => Just(vec![]),
        1 => Just(vec!["--unbounded"]),
        1 => Just(vec!["--fail-on-partial", "-q"]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn relay_is_byte_identical(bytes in input(), args in args(), small_hold in prop::bool::weighted(0.25)) {
        // A 1 KiB hold sends longer lines down the long-line path.
        let env: &[(&str, &str)] = if small_hold { &[("AOI_HOLD_LINE_BYTES", "1024")] } else { &[] };
        let out = crate::util::aoi_env(&[&["check"][..], &args].concat(), &bytes, env);
        prop_assert!(out.stdout == bytes, "relay differs ({} vs {} bytes)", out.stdout.len(), bytes.len());
        prop_assert!(VERDICT_CODES.contains(&out.code), "exit {}: {}", out.code, out.stderr);
        prop_assert!(!out.stderr.contains("panic"), "{}", out.stderr);
    }
}
