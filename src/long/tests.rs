//! [`LongLine`] against [`crate::peek::Peeker`]: the same verdict, error
//! kind and offset, top-level kind and lone-surrogate flag, however the line
//! is cut into pieces; and a reduced copy the peek reads as the same members.

use super::*;
use crate::peek::Peeker;
use crate::peek::oracle::{TOKENS, json_value, one_byte_edit};
use proptest::prelude::*;

/// Feeds `s` cut at `cuts` (offsets, any order) and ends the line.
fn fed(
    long: &mut LongLine,
    s: &[u8],
    cuts: &[usize],
) -> (Result<(), JsonError>, Option<Kind>, bool, Vec<u8>) {
    feed_cut(long, s, cuts);
    let r = long.end();
    (r.result, r.top, r.lone_surrogate, r.object.to_vec())
}

/// Feeds `s` cut at `cuts` (offsets, any order), without ending the line.
fn feed_cut(long: &mut LongLine, s: &[u8], cuts: &[usize]) {
    let mut at: Vec<usize> = cuts.iter().map(|&c| c.min(s.len())).collect();
    at.sort_unstable();
    let mut from = 0;
    for c in at.into_iter().chain([s.len()]) {
        long.feed(&s[from..c]);
        from = c;
    }
}

/// The top-level members of an object line, as written (key, value).
fn members(s: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut p = Peeker::new();
    assert!(p.peek(s).is_ok(), "{:?}", String::from_utf8_lossy(s));
    p.members
        .iter()
        .map(|m| (s[m.key.clone()].to_vec(), s[m.value.clone()].to_vec()))
        .collect()
}

fn agree(s: &[u8], cuts: &[usize]) -> Result<(), TestCaseError> {
    if s.starts_with(BOM) {
        return Ok(());
    }
    let mut p = Peeker::new();
    let want = p.peek(s);
    let mut long = LongLine::new();
    let (got, top, lone, object) = fed(&mut long, s, cuts);
    prop_assert_eq!(got, want, "{:?}", String::from_utf8_lossy(s));
    if want.is_ok() {
        prop_assert_eq!(top, p.top);
        prop_assert_eq!(lone, p.lone_surrogate);
        if top == Some(Kind::Object) {
            // Small values are all kept as written.
            prop_assert_eq!(members(&object), members(s));
            // The envelope is cut where strip cuts a short line's.
            let want_cut = p.aoi_member.map(|i| {
                let (before, after) = crate::peek::without_member(s, &p.members, i);
                before.len() as u64..(s.len() - after.len()) as u64
            });
            prop_assert_eq!(long.envelope_cut(), want_cut);
        }
    }
    // The same state machine reads the next line afresh.
    let (again, ..) = fed(&mut long, s, &[]);
    prop_assert_eq!(again, want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn token_soup_in_pieces(toks in prop::collection::vec(prop::sample::select(TOKENS), 0..16), cuts in prop::collection::vec(0usize..64, 0..6)) {
        agree(toks.concat().as_bytes(), &cuts)?;
    }

    #[test]
    fn values_and_one_byte_edits_in_pieces(v in json_value(), pos in any::<prop::sample::Index>(), byte in any::<u8>(), kind in 0u8..3, cuts in prop::collection::vec(0usize..400, 0..6)) {
        let mut s = serde_json::to_vec(&v).unwrap_or_default();
        agree(&s, &cuts)?;
        if !s.is_empty() {
            let i = pos.index(s.len());
            one_byte_edit(&mut s, i, byte, kind);
            agree(&s, &cuts)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// After an object, what a log reader trims as decoration from a short
    /// line is what a long line says is decoration, and the event's span
    /// ends where the trimmed short line ends.
    #[cfg(feature = "cli")]
    #[test]
    fn decoration_as_a_short_line_reads(toks in prop::collection::vec(prop::sample::select(&[" ", "\r", "\t", "\x1b[0m", "\x1b[1;31m", "x", "\x1b", "m", "[", "\x0c"][..]), 0..8), cuts in prop::collection::vec(0usize..40, 0..4)) {
        let line = format!("{{\"a\":1}}{}", toks.concat());
        let s = line.as_bytes();
        let trimmed = crate::demux::trim_decoration(s);
        let short_ok = Peeker::new().peek(trimmed).is_ok();
        let mut long = LongLine::new();
        feed_cut(&mut long, s, &cuts);
        let r = long.end();
        let decorated = r.decorated;
        let long_ok = match r.result {
            Ok(()) => true,
            Err(e) => e.kind == JsonErrorKind::TrailingContent && decorated,
        };
        prop_assert_eq!(long_ok, short_ok, "{:?}", line);
        if short_ok {
            prop_assert_eq!(decorated, trimmed.len() != s.len(), "{:?}", line);
            prop_assert_eq!(long.value_span(), 0..trimmed.len() as u64, "{:?}", line);
        }
    }

    /// A line's [`Shape`] is what the judge reads from a short line.
    #[test]
    fn shape_as_a_short_line_reads(toks in prop::collection::vec(prop::sample::select(&[" ", "\t", "\r", "\x0c", "[", "{", "}", "]", "x", "\u{feff}", "\"", "\u{1b}"][..]), 0..10), cuts in prop::collection::vec(0usize..12, 0..4)) {
        let s = toks.concat();
        let s = s.as_bytes();
        let mut long = LongLine::new();
        feed_cut(&mut long, s, &cuts);
        let shape = long.end().shape;
        let want = Shape {
            pretty: crate::judge::line::looks_pretty(s),
            continues: crate::judge::line::continues_pretty(s),
        };
        prop_assert_eq!(shape, want, "{:?}", String::from_utf8_lossy(s));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Objects with an `aoi` member anywhere, whitespace around anything.
    #[test]
    fn envelopes_anywhere(members in prop::collection::vec((prop::sample::select(&["\"aoi\"", "\"type\"", "\"a\"", "\"a\\u006fi\""][..]), json_value()), 0..5), ws in prop::collection::vec(prop::sample::select(&["", " ", "\t", "  "][..]), 12), cuts in prop::collection::vec(0usize..200, 0..4)) {
        let w = |i: usize| ws[i % ws.len()];
        let mut s = format!("{}{{", w(0));
        for (i, (k, v)) in members.iter().enumerate() {
            if i > 0 {
                s.push_str(&format!("{},{}", w(i + 1), w(i + 2)));
            }
            s.push_str(&format!("{k}{}:{}{}", w(i + 3), w(i + 4), serde_json::to_string(v).unwrap_or_default()));
        }
        s.push_str(&format!("{}}}{}", w(5), w(6)));
        agree(s.as_bytes(), &cuts)?;
    }
}

#[test]
fn every_byte_its_own_piece() {
    let lines: &[&[u8]] = &[
        br#"{"type":"x","aoi":{"seq":1,"run":"r"},"s":"caf\u00e9 \ud83d\ude00 \ud83d","n":-1.5e3}"#,
        br#" { "aoi" : 12 , "type":"x" } "#,
        br#"{"a":1 ,"aoi":{}}"#,
        br#"{"aoi":-1}"#,
        "{\"é\":\"日本語 ✅\",\"a\":[1,{\"b\":null}],\"t\":true}".as_bytes(),
        b"{\"a\":\"\xE6\x97\xA5\xE6\x9C\"}",
        br#"{"a":01}"#,
        br#"{"a":"\u12"}"#,
        b"[1,2] x",
        b"  ",
    ];
    for s in lines {
        let cuts: Vec<usize> = (0..s.len()).collect();
        agree(s, &cuts).expect("agrees");
    }
}

/// A line with a value of a megabyte: its stand-in is a string's first
/// bytes, every small member is kept as written, and `type` after it too.
#[test]
fn long_values_get_stand_ins() {
    let big = "x".repeat(3 * VALUE_KEEP);
    let arr = format!("[{}1]", "1,".repeat(VALUE_KEEP));
    let s = format!(
        r#"{{"data":"{big}","list":{arr},"obj":{{"k":{arr}}},"n":-{digits},"type":"demo","aoi":{{"seq":0,"run":"r"}}}}"#,
        digits = "9".repeat(VALUE_KEEP + 5)
    );
    let mut long = LongLine::new();
    let cuts: Vec<usize> = (1..s.len()).step_by(100_003).collect();
    let (result, top, _, object) = fed(&mut long, s.as_bytes(), &cuts);
    assert_eq!(result, Ok(()));
    assert_eq!(top, Some(Kind::Object));
    assert!(object.len() < 2 * STRING_KEEP + 200, "{}", object.len());
    let v: serde_json::Value = serde_json::from_slice(&object).expect("JSON");
    assert_eq!(
        v["data"].as_str().expect("a string"),
        &big[..STRING_KEEP - 1]
    );
    assert_eq!(v["list"], serde_json::json!([]));
    assert_eq!(v["obj"], serde_json::json!({}));
    assert_eq!(v["n"], serde_json::json!(-1));
    assert_eq!(v["type"], "demo");
    assert_eq!(v["aoi"], serde_json::json!({"seq":0,"run":"r"}));
}

/// Past [`KEPT_MAX`] of kept members only the reserved ones are kept.
#[test]
fn many_members_keep_the_reserved_ones() {
    let mut s = String::from("{");
    for i in 0..200_000 {
        s.push_str(&format!(r#""k{i}":{i},"#));
    }
    s.push_str(r#""type":"demo","aoi":{"seq":3,"run":"r"},"last":1}"#);
    let mut long = LongLine::new();
    let (result, _, _, object) = fed(&mut long, s.as_bytes(), &[1 << 20]);
    assert_eq!(result, Ok(()));
    assert!(object.len() < KEPT_MAX + 100);
    let v: serde_json::Value = serde_json::from_slice(&object).expect("JSON");
    assert_eq!(v["type"], "demo");
    assert_eq!(v["aoi"]["seq"], 3);
    assert_eq!(v.get("last"), None);
    assert_eq!(v["k0"], 0);
}

/// A long line's own errors are the peek's, offsets counted in the line.
#[test]
fn errors_far_into_a_line() {
    let pad = "y".repeat(3 << 20);
    for (tail, kind) in [
        ("\"}", None),
        ("\u{1}\"}", Some(JsonErrorKind::ControlInString)),
        ("\"", Some(JsonErrorKind::Truncated)),
        ("\"} x", Some(JsonErrorKind::TrailingContent)),
        ("\\q\"}", Some(JsonErrorKind::BadEscape)),
    ] {
        let s = format!(r#"{{"a":"{pad}{tail}"#);
        let mut p = Peeker::new();
        let want = p.peek(s.as_bytes());
        assert_eq!(want.err().map(|e| e.kind), kind);
        let mut long = LongLine::new();
        let (got, ..) = fed(&mut long, s.as_bytes(), &[1 << 20, 2 << 20]);
        assert_eq!(got, want);
    }
    let mut bad = format!(r#"{{"a":"{pad}"#).into_bytes();
    bad.extend_from_slice(b"\xE6\x97");
    bad.extend_from_slice(b"x\"}");
    let mut long = LongLine::new();
    let cut = bad.len() - 4;
    let (got, ..) = fed(&mut long, &bad, &[cut]);
    assert_eq!(got, Peeker::new().peek(&bad));
}

#[test]
fn deep_nesting_is_bounded() {
    let depth = 100_000;
    let s = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let mut long = LongLine::new();
    let (got, top, ..) = fed(&mut long, s.as_bytes(), &[depth]);
    assert_eq!(got, Ok(()));
    assert_eq!(top, Some(Kind::Array));
}

#[test]
fn a_byte_order_mark_is_skipped_and_said() {
    let mut long = LongLine::new();
    long.feed(b"\xEF\xBB\xBF{\"a\"");
    long.feed(b":1}");
    let r = long.end();
    assert!(r.bom);
    assert_eq!(r.result, Ok(()));
    assert_eq!(r.object, b"{\"a\":1}");
    assert_eq!(r.len, 10);
}

/// Megabytes of whitespace between top-level tokens are not copied: the
/// first member stays, the copy stays small.
#[test]
fn top_level_whitespace_is_not_copied() {
    let pad = " ".repeat(3 << 20);
    let s = format!("{{{pad}\"a\"{pad}:{pad}1{pad},{pad}\"type\":\"t\"{pad}}}");
    let mut long = LongLine::new();
    let (result, _, _, object) = fed(&mut long, s.as_bytes(), &[1 << 20, 5 << 20]);
    assert_eq!(result, Ok(()));
    assert_eq!(object, br#"{"a":1,"type":"t"}"#);
}

/// A reserved member repeated thousands of times is kept at most thrice
/// (once before [`KEPT_MAX`], twice after): the duplicate is seen, the copy
/// stays bounded.
#[test]
fn repeated_reserved_members_are_bounded() {
    let value = "v".repeat(60 * 1024);
    let mut s = String::from("{");
    for _ in 0..300 {
        s.push_str(&format!(r#""aoi":"{value}","#));
    }
    s.push_str(r#""type":"x"}"#);
    let mut long = LongLine::new();
    let (result, _, _, object) = fed(&mut long, s.as_bytes(), &[1 << 20]);
    assert_eq!(result, Ok(()));
    assert!(object.len() < KEPT_MAX + 4 * VALUE_KEEP, "{}", object.len());
    let n = members(&object).iter().filter(|(k, _)| k == b"aoi").count();
    assert!(n >= 2, "{n}");
    assert!(members(&object).iter().any(|(k, _)| k == b"type"));
}

/// A framework event's spec-defined members after a megabyte of others
/// are kept (a summary's `ok` decides the verdict).
#[test]
fn spec_members_past_the_limit_are_kept() {
    let mut s = String::from(r#"{"type":"aoi:summary","aoi":{"seq":1,"run":"r"},"properties":{"#);
    for i in 0..100_000 {
        s.push_str(&format!(r#""k{i}":{i},"#));
    }
    s.push_str(r#""z":0},"x":"y","ok":false,"reason":"failed","elapsed_ms":12.5}"#);
    // The properties object is elided to `{}`; pad past KEPT_MAX with
    // members that are kept until then.
    let pad: String = (0..40_000)
        .map(|i| format!(r#","p{i}":"{i:020}""#))
        .collect();
    let big = "b".repeat(60 * 1024);
    let s = s.replacen(
        r#","x":"y""#,
        &format!("{pad},\"big\":\"{big}\",\"x\":\"y\""),
        1,
    );
    let mut long = LongLine::new();
    let (result, _, _, object) = fed(&mut long, s.as_bytes(), &[1 << 20]);
    assert_eq!(result, Ok(()));
    let v: serde_json::Value = serde_json::from_slice(&object).expect("JSON");
    assert_eq!(v["ok"], false);
    assert_eq!(v["reason"], "failed");
    assert_eq!(v["elapsed_ms"], 12.5);
    assert_eq!(v.get("x"), None);
}

/// A stand-in never cuts a surrogate pair in two (it would read as a lone
/// surrogate), wherever the pair falls.
#[test]
fn a_stand_in_keeps_surrogate_pairs_whole() {
    for shift in 0..12 {
        let text = format!(
            "{}{}",
            "a".repeat(shift),
            "\\ud83d\\ude00".repeat(VALUE_KEEP / 6)
        );
        let s = format!(r#"{{"t":"{text}","type":"x"}}"#);
        let mut long = LongLine::new();
        let (result, _, lone, object) = fed(&mut long, s.as_bytes(), &[]);
        assert_eq!(result, Ok(()));
        assert!(!lone);
        let mut p = Peeker::new();
        assert_eq!(p.peek(&object), Ok(()));
        assert!(!p.lone_surrogate, "shift {shift}");
    }
}
