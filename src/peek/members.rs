//! Reading the members of an object already validated: iterate them, cut
//! one out without re-serialising, compare keys.

use std::ops::Range;

use super::grammar::{scan_number, scan_string, skip_ws};
use super::{Kind, Member, unescape};

/// Iterates the members of an object value that has already been validated
/// (a span handed out by [`super::Peeker::peek`]). Nested containers are skipped
/// with a depth counter; strings are skipped quote to quote.
pub fn object_members(s: &[u8]) -> impl Iterator<Item = Member> + '_ {
    let mut i = skip_ws(s, 0);
    if s.get(i) == Some(&b'{') {
        i += 1;
    } else {
        i = s.len();
    }
    std::iter::from_fn(move || {
        i = skip_ws(s, i);
        if s.get(i) == Some(&b',') {
            i = skip_ws(s, i + 1);
        }
        if s.get(i) != Some(&b'"') {
            return None;
        }
        let (ke, key_escaped) = scan_string::<false, true>(s, i).ok()?;
        let key = i + 1..ke - 1;
        i = skip_ws(s, ke);
        if s.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(s, i + 1);
        let start = i;
        let c = *s.get(i)?;
        let kind = match c {
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match s.get(i)? {
                        b'"' => {
                            i = scan_string::<false, true>(s, i).ok()?.0;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if c == b'{' { Kind::Object } else { Kind::Array }
            }
            b'"' => {
                let (e, escaped) = scan_string::<false, true>(s, i).ok()?;
                i = e;
                Kind::String { escaped }
            }
            b't' => {
                i += 4;
                Kind::True
            }
            b'f' => {
                i += 5;
                Kind::False
            }
            b'n' => {
                i += 4;
                Kind::Null
            }
            _ => {
                let (e, integer) = scan_number(s, i).ok()?;
                i = e;
                Kind::Number { integer }
            }
        };
        Some(Member {
            key,
            key_escaped,
            value: start..i,
            kind,
        })
    })
}

/// The line around member `idx` of `members` (its top-level members), as
/// the bytes before and after the cut, so the member can be left out
/// without re-serialising: with the comma that joined it to its neighbour,
/// and nothing else changed (other members, their order, spelling and
/// whitespace stay as they came).
pub fn without_member<'a>(line: &'a [u8], members: &[Member], idx: usize) -> (&'a [u8], &'a [u8]) {
    let Some(m) = members.get(idx) else {
        return (line, &[]);
    };
    let key_quote = m.key.start.saturating_sub(1);
    let (cut_start, cut_end) = match (
        idx.checked_sub(1).and_then(|p| members.get(p)),
        members.get(idx + 1),
    ) {
        // `…prev<ws>,<ws>"aoi":{…}` goes, from the end of the previous value.
        (Some(prev), _) => (prev.value.end, m.value.end),
        // `"aoi":{…}<ws>,<ws>` goes, up to the next key's quote.
        (None, Some(next)) => (key_quote, next.key.start.saturating_sub(1)),
        (None, None) => (key_quote, m.value.end),
    };
    (
        line.get(..cut_start).unwrap_or_default(),
        line.get(cut_end..).unwrap_or_default(),
    )
}

/// The line's bytes for `r`, empty if out of range.
#[inline]
pub fn span<'a>(line: &'a [u8], r: &Range<usize>) -> &'a [u8] {
    line.get(r.clone()).unwrap_or_default()
}

/// True when the (escaped) key `raw` equals `name`.
#[inline]
pub fn key_is(raw: &[u8], escaped: bool, name: &str) -> bool {
    if escaped {
        unescape(raw) == name
    } else {
        bytes_eq(raw, name.as_bytes())
    }
}

/// `a == b` for short byte strings (keys, names): up to 16 bytes are
/// compared as two words that overlap (the first and the last 8, or 4),
/// without a call to `memcmp`; longer ones by `memcmp`.
#[inline(always)]
pub fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match a.len() {
        8..=16 => ends::<8>(a) == ends::<8>(b),
        4..=7 => ends::<4>(a) == ends::<4>(b),
        0..=3 => a == b,
        _ => a.first() == b.first() && a == b,
    }
}

/// The first and the last `N` bytes of `s` (at least `N` long; else
/// empty).
#[inline(always)]
fn ends<const N: usize>(s: &[u8]) -> (Option<&[u8; N]>, Option<&[u8; N]>) {
    (s.first_chunk::<N>(), s.last_chunk::<N>())
}
