//! Where the targets' oracle, serde_json, reads JSON differently from aoi
//! by design, the input is brought to what aoi reads before serde_json
//! sees it, so the targets compare everything else instead of excusing
//! serde_json's error messages (an excuse by message text went
//! stale and failed the fuzzer in minutes). Each target includes this
//! file and uses what it needs of it.
#![allow(dead_code)]

use std::borrow::Cow;

/// The byte order mark a line may start with: aoi reads the event after it
/// with one `line.bom` finding; serde_json rejects the line.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `line` without a leading byte order mark.
pub fn without_bom(line: &[u8]) -> &[u8] {
    line.strip_prefix(BOM).unwrap_or(line)
}

/// `json` with every escaped lone UTF-16 surrogate (`\ud800` not followed
/// by a `\u` escape of a low surrogate, or a low one alone) written as
/// `\ufffd`: RFC 8259's grammar allows them and aoi decodes each as
/// U+FFFD, keeping what follows; serde_json rejects them. A high surrogate
/// followed by an escaped low one is a pair, kept as written. Escapes are
/// found as a reader finds them: `\\` is one escape, so `\\ud800` is a
/// backslash and text.
pub fn surrogates_as_fffd(json: &[u8]) -> Cow<'_, [u8]> {
    if !json.windows(2).any(|w| w == b"\\u") {
        return Cow::Borrowed(json);
    }
    let mut out = Vec::with_capacity(json.len());
    let mut i = 0;
    while i < json.len() {
        if json[i] != b'\\' {
            out.push(json[i]);
            i += 1;
            continue;
        }
        let len = match unit(json, i) {
            Some(0xD800..=0xDBFF) if unit(json, i + 6).is_some_and(is_low) => 12,
            Some(u) if (0xD800..=0xDFFF).contains(&u) => {
                out.extend_from_slice(b"\\ufffd");
                i += 6;
                continue;
            }
            Some(_) => 6,
            None => 2,
        };
        let end = (i + len).min(json.len());
        out.extend_from_slice(&json[i..end]);
        i = end;
    }
    Cow::Owned(out)
}

fn is_low(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

/// The UTF-16 unit of the `\uXXXX` escape at `at`, if one is there.
fn unit(json: &[u8], at: usize) -> Option<u16> {
    let e = json.get(at..at + 6)?;
    if !e.starts_with(b"\\u") {
        return None;
    }
    let hex = std::str::from_utf8(&e[2..]).ok()?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(hex, 16).ok()
}
