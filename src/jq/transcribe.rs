//! The compact text [`super::write_json`] writes for the value jaq reads
//! from a JSON text, made from the text in one pass instead of reading it
//! into jaq's value and writing that: what `.`, `select(…)` or `.title`
//! print under `--raw` (jq -c) where the result is the input, or a part of
//! it, unchanged.
//!
//! For a text that is strict JSON (validated by the peek) without a lone
//! surrogate escape (which jaq refuses), jaq's value differs from the text
//! only in ways that can be written back from the text alone:
//!
//! - whitespace between tokens is not kept;
//! - a string holds its escapes decoded, and is written with jq's escapes
//!   (`\u00e9` becomes `é`, `\/` `/`, a raw DEL `\u007f`);
//! - a number keeps its spelling (integers are read as integers, all else
//!   as decimal text: `1.0`, `1E+2`, `1e400` are written as they came),
//!   but for `-0`, read as the integer 0;
//! - an object with a key given twice holds one member for it, at the
//!   first place with the last value: not written here (`None`), for the
//!   caller to take the general path.
//!
//! Bytes that need none of this are copied in runs, so a text already in
//! that form (most lines) is copied whole; an object line already in that
//! form is recognised from the peek's spans ([`Transcriber::as_written`]),
//! only its nested objects and arrays read again.

use super::write_str;
use crate::peek::{Kind, Peeker, bytes_eq, span, unescape};

/// Reusable room for [`Transcriber::transcribe`]: the keys of the objects
/// still open, and a decoded string.
#[derive(Default)]
pub struct Transcriber {
    /// Each key seen in an open object: its span between the quotes, and
    /// whether it holds an escape.
    keys: Vec<(usize, usize, bool)>,
    /// For each open object, where its keys start in `keys`.
    open: Vec<usize>,
    text: Vec<u8>,
}

impl Transcriber {
    /// Appends to `out` what [`super::write_json`] writes for the value jaq
    /// reads from `raw` (strict JSON, one value, no lone surrogate escape;
    /// see the module). `None` when an object in it has a key twice; `out`
    /// then holds a part, for the caller to drop.
    pub fn transcribe(&mut self, raw: &[u8], out: &mut Vec<u8>) -> Option<()> {
        self.walk::<true>(raw, out).map(drop)
    }

    /// Whether [`Transcriber::transcribe`] would write the object line
    /// `line` (validated, no lone surrogate) as it is, its top-level
    /// members in `peek`: decided from their spans (one after the other
    /// with no space between, keys distinct and without escapes, strings
    /// without escapes, no DEL, no `-0`), only nested objects and arrays
    /// walked (not the usual envelope, which the peek read).
    pub fn as_written(&mut self, line: &[u8], peek: &Peeker) -> bool {
        let ms = &peek.members;
        if line.first() != Some(&b'{') || memchr::memchr(0x7f, line).is_some() {
            return false;
        }
        // Where the next key's first byte must be: after `{"`, then `,"`.
        let mut at = 2;
        for (i, m) in ms.iter().enumerate() {
            if m.key_escaped || m.key.start != at || m.value.start != m.key.end + 2 {
                return false;
            }
            let raw = span(line, &m.value);
            let same = match m.kind {
                Kind::String { escaped } => !escaped,
                Kind::Number { .. } => raw != b"-0",
                Kind::Object if peek.aoi_member == Some(i) && peek.envelope.is_some() => true,
                Kind::Object | Kind::Array => {
                    self.walk::<false>(raw, &mut Vec::new()) == Some(true)
                }
                Kind::Null | Kind::True | Kind::False => true,
            };
            if !same {
                return false;
            }
            at = m.value.end + 2;
        }
        let end = if ms.is_empty() { 2 } else { at - 1 };
        end == line.len() && distinct_keys(line, peek)
    }

    /// [`Transcriber::transcribe`] of the object line `line` (validated,
    /// no lone surrogate), its top-level members in `peek`: written member
    /// by member from their spans, only nested objects and arrays walked.
    pub fn object(&mut self, line: &[u8], peek: &Peeker, out: &mut Vec<u8>) -> Option<()> {
        // An escaped key, or many: the walk compares them as decoded.
        if peek.top != Some(Kind::Object) || !distinct_keys(line, peek) {
            return self.transcribe(line, out);
        }
        let del = memchr::memchr(0x7f, line).is_some();
        out.push(b'{');
        for (i, m) in peek.members.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let key = line.get(m.key.start.saturating_sub(1)..m.key.end + 1);
            self.string(key.unwrap_or_default(), false, del, out);
            out.push(b':');
            let raw = span(line, &m.value);
            match m.kind {
                Kind::String { escaped } => self.string(raw, escaped, del, out),
                Kind::Number { .. } if raw == b"-0" => out.push(b'0'),
                Kind::Object if peek.aoi_member == Some(i) && peek.envelope.is_some() => {
                    out.extend_from_slice(raw)
                }
                Kind::Object | Kind::Array => {
                    self.walk::<true>(raw, out)?;
                }
                _ => out.extend_from_slice(raw),
            }
        }
        out.push(b'}');
        Some(())
    }

    /// Appends the string `raw` (with its quotes; `escaped`: it holds an
    /// escape, `del`: its line holds a DEL) as jq writes it.
    fn string(&mut self, raw: &[u8], escaped: bool, del: bool, out: &mut Vec<u8>) {
        if escaped || (del && memchr::memchr(0x7f, raw).is_some()) {
            let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
            self.text.clear();
            crate::peek::unescape_into(body, &mut self.text);
            write_str(out, &self.text);
        } else {
            out.extend_from_slice(raw);
        }
    }

    /// The walk of `raw` (see [`Transcriber::transcribe`]): `Some(true)`
    /// when it is written as it is. With `WRITE`, the text is appended to
    /// `out`; without, nothing is, and the walk stops at the first change.
    fn walk<const WRITE: bool>(&mut self, raw: &[u8], out: &mut Vec<u8>) -> Option<bool> {
        self.keys.clear();
        self.open.clear();
        let del = memchr::memchr(0x7f, raw).is_some();
        // `raw[from..i]` is still to be copied as it is.
        let mut from = 0;
        let mut i = 0;
        while let Some(&c) = raw.get(i) {
            match c {
                b'"' => {
                    let (end, escaped) = string_end(raw, i);
                    let string = raw.get(i..end).unwrap_or_default();
                    if escaped || (del && memchr::memchr(0x7f, string).is_some()) {
                        if !WRITE {
                            return Some(false);
                        }
                        out.extend_from_slice(raw.get(from..i).unwrap_or_default());
                        self.string(string, true, del, out);
                        from = end;
                    }
                    if self.is_key(raw, end) {
                        self.keys.push((i + 1, end.saturating_sub(1), escaped));
                    }
                    i = end;
                }
                b' ' | b'\t' | b'\n' | b'\r' => {
                    if !WRITE {
                        return Some(false);
                    }
                    out.extend_from_slice(raw.get(from..i).unwrap_or_default());
                    i += 1;
                    while matches!(raw.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                        i += 1;
                    }
                    from = i;
                }
                b'{' => {
                    self.open.push(self.keys.len());
                    i += 1;
                }
                b'}' => {
                    let first = self.open.pop().unwrap_or_default();
                    if !distinct(raw, self.keys.get(first..).unwrap_or_default()) {
                        return None;
                    }
                    self.keys.truncate(first);
                    i += 1;
                }
                b'-' if is_minus_zero(raw, i) => {
                    if !WRITE {
                        return Some(false);
                    }
                    out.extend_from_slice(raw.get(from..i).unwrap_or_default());
                    from = i + 1;
                    i += 2;
                }
                _ => i += 1,
            }
        }
        if WRITE {
            out.extend_from_slice(raw.get(from..).unwrap_or_default());
        }
        Some(from == 0)
    }

    /// Whether the string that ended at `end` is a key: a colon follows.
    fn is_key(&self, raw: &[u8], end: usize) -> bool {
        match raw.get(end) {
            Some(b':') => true,
            Some(b' ' | b'\t' | b'\n' | b'\r') => {
                !self.open.is_empty()
                    && raw
                        .get(end..)
                        .unwrap_or_default()
                        .iter()
                        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                        == Some(&b':')
            }
            _ => false,
        }
    }
}

/// Whether the top-level keys of the peeked `line` are all distinct, so
/// that its object has a member for each. An escaped key, or more keys
/// than are cheap to compare pairwise, is not decided here: `false`.
pub fn distinct_keys(line: &[u8], peek: &Peeker) -> bool {
    let ms = &peek.members;
    if ms.len() > 32 || ms.iter().any(|m| m.key_escaped) {
        return false;
    }
    // Keys are compared by a print of a few of their bytes first: equal
    // keys have equal prints, and unequal prints settle most pairs.
    let mut prints = [0u32; 32];
    for (p, m) in prints.iter_mut().zip(ms) {
        *p = print_of(span(line, &m.key));
    }
    let prints = prints.get(..ms.len()).unwrap_or_default();
    prints.iter().enumerate().all(|(i, a)| {
        prints.iter().enumerate().skip(i + 1).all(|(j, b)| {
            a != b || {
                let key = |n: usize| ms.get(n).map_or(&[][..], |m| span(line, &m.key));
                !bytes_eq(key(i), key(j))
            }
        })
    })
}

/// A key's length, first, middle and last bytes, in one word.
fn print_of(key: &[u8]) -> u32 {
    let at = |i: usize| u32::from(key.get(i).copied().unwrap_or_default());
    let n = key.len();
    (n as u32 & 0xff) | at(0) << 8 | at(n / 2) << 16 | at(n.wrapping_sub(1)) << 24
}

/// Past the closing quote of the string opening at `raw[start]`, and
/// whether it holds an escape.
fn string_end(raw: &[u8], start: usize) -> (usize, bool) {
    let mut escaped = false;
    let mut i = start + 1;
    while let Some(n) = raw
        .get(i..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        i += n;
        if raw.get(i) == Some(&b'"') {
            return (i + 1, escaped);
        }
        escaped = true;
        i += 2;
    }
    (raw.len(), escaped)
}

/// Whether the `-` at `raw[i]` begins the number `-0`, which jaq reads
/// as the integer 0 (`-0.0`, `-0e1` are decimals, kept as written; in
/// `1e-0` it is an exponent's sign).
fn is_minus_zero(raw: &[u8], i: usize) -> bool {
    !matches!(i.checked_sub(1).and_then(|p| raw.get(p)), Some(b'e' | b'E'))
        && raw.get(i + 1) == Some(&b'0')
        && !matches!(raw.get(i + 2), Some(b'.' | b'e' | b'E' | b'0'..=b'9'))
}

/// Whether the keys of one object (spans into `raw`) are all distinct,
/// compared as decoded (`"a"` and `"\u0061"` are one key).
fn distinct(raw: &[u8], keys: &[(usize, usize, bool)]) -> bool {
    let key = |&(s, e, _): &(usize, usize, bool)| raw.get(s..e).unwrap_or_default();
    keys.iter().enumerate().all(|(n, a)| {
        keys.iter().skip(n + 1).all(|b| match (a.2, b.2) {
            (false, false) => !bytes_eq(key(a), key(b)),
            _ => unescape(key(a)) != unescape(key(b)),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What jaq's value of `text` is written as, the general way.
    fn general(text: &str) -> String {
        let v = jaq_json::read::parse_single(text.as_bytes()).unwrap();
        let mut out = Vec::new();
        super::super::write_json(&mut out, &v).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn transcribed(text: &str) -> Option<String> {
        let mut out = Vec::new();
        Transcriber::default().transcribe(text.as_bytes(), &mut out)?;
        Some(String::from_utf8(out).unwrap())
    }

    #[test]
    fn texts_are_written_as_their_values_are() {
        for text in [
            r#"{"a":1,"b":"x","c":[1,2,{"d":null}],"e":{},"f":[]}"#,
            " { \"a\" : [ 1 , -0 , -0.0 , -0e1 , 1.0 , 1E+2 , 1e400 , 0.10 ] }\r",
            r#"{"s":"\u00e9\/\u007f\n\t\"\\\u0000\u001f\ud83d\ude00","k\u0069":"é"}"#,
            "{\"del\":\"a\x7fb\",\"c1\":\"\u{85}\u{2028}\"}",
            r#"[{"a":{"a":1},"b":{"a":2}},{"a":3}]"#,
            "-0",
            "[1e-0,1E-0,-0E-0,2e+0]",
            "\"\\u00e9\"",
            "[-0,[-0],{\"x\":-0}]",
            "12345678901234567890123",
            "true",
        ] {
            assert_eq!(transcribed(text), Some(general(text)), "{text}");
        }
    }

    fn as_written(text: &str) -> bool {
        let mut p = Peeker::new();
        p.peek(text.as_bytes()).unwrap();
        Transcriber::default().as_written(text.as_bytes(), &p)
    }

    fn from_members(text: &str) -> Option<String> {
        let mut p = Peeker::new();
        p.peek(text.as_bytes()).unwrap();
        let mut out = Vec::new();
        Transcriber::default().object(text.as_bytes(), &p, &mut out)?;
        Some(String::from_utf8(out).unwrap())
    }

    #[test]
    fn objects_are_written_member_by_member_as_walked() {
        for text in [
            r#" { "a" : "é" , "b":[ -0 ],"c":-0,"d":{"e":"\/"}}  "#,
            "{\"k\":\"a\x7fb\",\"k\x7f\":1,\"aoi\":{\"seq\":1,\"run\":\"R\"}}",
            r#"{"a":1,"b":2,"c":{"x":1,"x":2}}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":1,"a":2}"#,
            "{}",
        ] {
            assert_eq!(from_members(text), transcribed(text), "{text}");
        }
    }

    #[test]
    fn lines_written_as_they_are_are_recognised() {
        for text in [
            r#"{"a":1,"b":"x","c":[1,2,{"d":null}],"e":{},"f":[],"g":-0.0}"#,
            r#"{"type":"t","aoi":{"seq":1,"run":"R"},"x":{"aoi":{"seq":1}}}"#,
            "{\"c1\":\"\u{85}\u{2028}\"}",
            "{}",
        ] {
            assert!(as_written(text), "{text}");
            assert_eq!(transcribed(text).as_deref(), Some(text));
        }
        for text in [
            r#"{"a":1,"a":2}"#,
            r#"{"a":-0}"#,
            r#"{"a":[-0]}"#,
            r#"{"a":"\u00e9"}"#,
            r#"{"\u0061":1}"#,
            r#"{"a":{"b":1,"b":2}}"#,
            "{\"a\":\"\x7f\"}",
            "{\"a\":1 }",
            "{ \"a\":1}",
            "{\"a\" :1}",
            "{\"a\": 1}",
            "{\"a\":1 ,\"b\":2}",
            "{\"a\":[1, 2]}",
            "{\"a\":1}\r",
            "{} ",
        ] {
            assert!(!as_written(text), "{text}");
        }
    }

    #[test]
    fn a_key_given_twice_is_left_to_the_general_path() {
        for text in [
            r#"{"a":1,"a":2}"#,
            r#"{"a":1,"\u0061":2}"#,
            r#"{"x":[{"b":1,"c":{"d":1,"d":2}}]}"#,
        ] {
            assert_eq!(transcribed(text), None, "{text}");
        }
        assert!(transcribed(r#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#).is_some());
    }
}
