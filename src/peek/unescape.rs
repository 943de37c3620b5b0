//! Decoding the escapes of a validated JSON string.

use std::borrow::Cow;

use super::grammar::hex4;

/// Decodes the escapes of a validated JSON string body (without quotes).
pub fn unescape(raw: &[u8]) -> Cow<'_, str> {
    if !raw.contains(&b'\\') {
        return String::from_utf8_lossy(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    unescape_into(raw, &mut out);
    // Escapes only add whole characters, so a body that is not UTF-8 is
    // replaced here exactly as piece by piece.
    match String::from_utf8(out) {
        Ok(s) => Cow::Owned(s),
        Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// [`unescape`] appended to `out` as bytes, without a UTF-8 check (a log
/// line's embedded event is validated when it is peeked).
pub fn unescape_into(raw: &[u8], out: &mut Vec<u8>) {
    // Escapes shorten the text (but for a `\u` cut at the end): about
    // all the room it takes, reserved once.
    out.reserve(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        if c != b'\\' {
            i = copy_plain(raw, i, out);
            continue;
        }
        i = unescape_one(raw, i, out);
    }
}

/// Decodes the escape at `raw[i]` (a backslash) into `out`; returns the
/// index after it. The one-byte escapes (`\"` above all) are pushed as
/// bytes: only `\u` needs a character's encoding.
#[inline(always)]
pub(super) fn unescape_one(raw: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
    let e = raw.get(i + 1).copied().unwrap_or(b'\\');
    i += 2;
    let ch = match e {
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let u = hex4(raw, i).unwrap_or(0xFFFD);
            i += 4;
            // A high surrogate pairs with a low one that follows; alone
            // (JavaScript cuts strings between them) it is U+FFFD and what
            // follows it is text, not swallowed.
            let low = match raw.get(i..i + 2) {
                Some(b"\\u") => hex4(raw, i + 2).filter(|l| (0xDC00..0xE000).contains(l)),
                _ => None,
            };
            let cp = match low {
                Some(l) if (0xD800..0xDC00).contains(&u) => {
                    i += 6;
                    0x10000 + (((u as u32) - 0xD800) << 10) + ((l as u32) - 0xDC00)
                }
                _ => u as u32,
            };
            char::from_u32(cp).unwrap_or('\u{FFFD}')
        }
        other => other as char,
    };
    if ch.is_ascii() {
        out.push(ch as u8);
    } else {
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }
    i
}

/// `json` (validated JSON text) with each lone surrogate escape
/// (`\ud800` not followed by a low one, or a low one alone) spelled
/// `\ufffd`: what [`unescape`] decodes it to, for a parser that refuses
/// it (jaq's). Same length; every other byte as it was.
pub fn lone_surrogates_replaced(json: &[u8]) -> Vec<u8> {
    let mut out = json.to_vec();
    let mut i = 0;
    while let Some(at) = out.get(i..).and_then(|r| memchr::memchr(b'\\', r)) {
        i += at;
        if out.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let u = hex4(&out, i + 2).unwrap_or(0);
        let paired = (0xD800..0xDC00).contains(&u)
            && out.get(i + 6..i + 8) == Some(&b"\\u"[..])
            && hex4(&out, i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l));
        if paired {
            i += 12;
            continue;
        }
        if (0xD800..0xE000).contains(&u)
            && let Some(digits) = out.get_mut(i + 2..i + 6)
        {
            digits.copy_from_slice(b"fffd");
        }
        i += 6;
    }
    out
}

/// Copies `raw` from `i` up to its next backslash (or its end) to `out`;
/// returns where it stopped. A Docker `log` string has an escape every
/// few bytes (`\"`), so the run is found 16 bytes at a time and copied as
/// a whole block, then cut back: no call per run (memchr and memcpy cost
/// more than the copy on runs this short).
#[inline(always)]
pub(super) fn copy_plain(raw: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
    while let Some(block) = raw
        .get(i..i + 16)
        .and_then(|b| <&[u8; 16]>::try_from(b).ok())
    {
        let m = backslash_mask(block);
        out.extend_from_slice(block);
        if m != 0 {
            let run = m.trailing_zeros() as usize;
            out.truncate(out.len() - (16 - run));
            return i + run;
        }
        i += 16;
    }
    let rest = raw.get(i..).unwrap_or_default();
    let run = rest.iter().position(|&b| b == b'\\').unwrap_or(rest.len());
    out.extend_from_slice(rest.get(..run).unwrap_or_default());
    i + run
}

/// Bit mask of the backslashes in `block`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn backslash_mask(block: &[u8; 16]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: `block` is 16 readable bytes and `loadu` has no alignment
    // requirement; SSE2 is part of the x86_64 baseline.
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8))) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn backslash_mask(block: &[u8; 16]) -> u32 {
    let mut m = 0u32;
    for (k, &c) in block.iter().enumerate() {
        if c == b'\\' {
            m |= 1 << k;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lone_surrogates_are_replaced() {
        let cases: [(&str, &str); 7] = [
            (r#"["\ud800"]"#, r#"["\ufffd"]"#),
            (r#"["\udc00x"]"#, r#"["\ufffdx"]"#),
            (r#"["\ud83d\ude00"]"#, r#"["\ud83d\ude00"]"#),
            (r#"["\ud800\ud800\udc00"]"#, r#"["\ufffd\ud800\udc00"]"#),
            (r#"["\\ud800"]"#, r#"["\\ud800"]"#),
            (r#"{"\ud800":"\n\u0041"}"#, r#"{"\ufffd":"\n\u0041"}"#),
            (r#"["\uD800\u0041"]"#, r#"["\ufffd\u0041"]"#),
        ];
        for (raw, want) in cases {
            let got = lone_surrogates_replaced(raw.as_bytes());
            assert_eq!(String::from_utf8_lossy(&got), want, "{raw}");
            // Decoded, each lone unit is what `unescape` makes of it.
            let body = &raw[1..raw.len() - 1];
            let fixed = &want[1..want.len() - 1];
            assert_eq!(
                unescape(body.as_bytes()),
                unescape(fixed.as_bytes()),
                "{raw}"
            );
        }
    }
}
