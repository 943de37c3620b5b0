//! The JSON grammar's pieces, for the one pass of [`super::Peeker`]:
//! strings (with the 16-byte fast path), numbers, literals, whitespace and
//! the punctuation between them. Each returns where its token ends or why
//! the line is not JSON (RFC 8259).

use super::{JsonError, JsonErrorKind};

/// Asks the CPU to bring the cache line at `p` closer; any address will
/// do (a prefetch never faults and changes no data).
#[inline(always)]
pub fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault,
    // whatever the address; SSE is part of the x86_64 baseline.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Bit mask of the bytes in `block` that end the fast path of a string
/// scan: `"`, `\`, a control byte (< 0x20) or a non-ASCII byte (>= 0x80,
/// which starts a UTF-8 check).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn special_mask<const U: bool>(block: &[u8; 16]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: `block` is 16 readable bytes and `loadu` has no alignment
    // requirement; SSE2, the only feature used, is part of the x86_64
    // baseline, so the intrinsics are always available.
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        let q = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let b = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        // Unsigned v <= 0x1F  <=>  max(v, 0x1F) == 0x1F.
        let c = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));
        // movemask of v itself is the high bit: the non-ASCII bytes.
        let m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, b), c)) as u32;
        if U {
            m
        } else {
            m | _mm_movemask_epi8(v) as u32
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn special_mask<const U: bool>(block: &[u8; 16]) -> u32 {
    let mut m = 0u32;
    for (k, &c) in block.iter().enumerate() {
        if c == b'"' || c == b'\\' || c < 0x20 || (!U && c >= 0x80) {
            m |= 1 << k;
        }
    }
    m
}

/// Length of the UTF-8 sequence starting at `s[j]` (a byte >= 0x80), or
/// `None` if it is not valid UTF-8 (overlong, surrogate, > U+10FFFF,
/// truncated).
#[inline(always)]
pub(super) fn utf8_len(s: &[u8], j: usize) -> Option<usize> {
    let b0 = *s.get(j)?;
    // A missing byte reads as 0, which is no continuation byte.
    let at = |k: usize| s.get(j + k).copied().unwrap_or(0);
    let cont = |b: u8| b & 0xC0 == 0x80;
    let b1 = at(1);
    match b0 {
        0xC2..=0xDF => cont(b1).then_some(2),
        0xE0..=0xEF => {
            let second = match b0 {
                0xE0 => (0xA0..=0xBF).contains(&b1),
                0xED => (0x80..=0x9F).contains(&b1),
                _ => cont(b1),
            };
            (second && cont(at(2))).then_some(3)
        }
        0xF0..=0xF4 => {
            let second = match b0 {
                0xF0 => (0x90..=0xBF).contains(&b1),
                0xF4 => (0x80..=0x8F).contains(&b1),
                _ => cont(b1),
            };
            (second && cont(at(2)) && cont(at(3))).then_some(4)
        }
        _ => None,
    }
}

#[inline(always)]
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

#[inline(always)]
pub(super) fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while let Some(&b) = s.get(i) {
        if !is_ws(b) {
            break;
        }
        i += 1;
    }
    i
}

#[inline]
pub(super) fn hex4(s: &[u8], i: usize) -> Option<u16> {
    let h = s.get(i..i + 4)?;
    let mut v: u16 = 0;
    for &c in h {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => return None,
        };
        v = (v << 4) | u16::from(d);
    }
    Some(v)
}

pub(super) fn err(kind: JsonErrorKind, offset: usize) -> JsonError {
    JsonError { kind, offset }
}

/// Scans a string whose opening quote is at `i`. Returns the index after the
/// closing quote and whether the string contained escapes.
#[inline(always)]
pub(super) fn scan_string<const U: bool, const S: bool>(
    s: &[u8],
    i: usize,
) -> Result<(usize, bool), JsonError> {
    let mut j = i + 1;
    let mut escaped = false;
    loop {
        // 16 bytes at a time over plain string bytes.
        loop {
            if let Some(block) = s.get(j..j + 16) {
                let mut a = [0u8; 16];
                a.copy_from_slice(block);
                let m = special_mask::<U>(&a);
                if m == 0 {
                    j += 16;
                    continue;
                }
                j += m.trailing_zeros() as usize;
            } else if let Some(last) = s.len().checked_sub(16).and_then(|k| s.get(k..)) {
                // Fewer than 16 bytes left: the line's last 16, with the
                // bytes before `j` shifted out of the mask. (`j <= s.len()`:
                // every step of this scan stays within the line.)
                let mut a = [0u8; 16];
                a.copy_from_slice(last);
                let m = special_mask::<U>(&a) >> (16 - (s.len() - j).min(16));
                j = if m == 0 {
                    s.len()
                } else {
                    j + m.trailing_zeros() as usize
                };
            }
            break;
        }
        let Some(&c) = s.get(j) else {
            return Err(err(JsonErrorKind::Truncated, j));
        };
        match c {
            b'"' => return Ok((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                match s.get(j + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => j += 2,
                    Some(b'u') => {
                        let Some(u) = hex4(s, j + 2) else {
                            return Err(err(JsonErrorKind::BadEscape, j));
                        };
                        if (0xD800..0xDC00).contains(&u) {
                            // High surrogate: a low one must follow.
                            let low = if s.get(j + 6) == Some(&b'\\') && s.get(j + 7) == Some(&b'u')
                            {
                                hex4(s, j + 8)
                            } else {
                                None
                            };
                            match low {
                                Some(l) if (0xDC00..0xE000).contains(&l) => j += 12,
                                _ if S => j += 6,
                                _ => return Err(err(JsonErrorKind::LoneSurrogate, j)),
                            }
                        } else if (0xDC00..0xE000).contains(&u) && !S {
                            return Err(err(JsonErrorKind::LoneSurrogate, j));
                        } else {
                            j += 6;
                        }
                    }
                    None => return Err(err(JsonErrorKind::Truncated, j)),
                    Some(_) => return Err(err(JsonErrorKind::BadEscape, j)),
                }
            }
            c if c < 0x20 => return Err(err(JsonErrorKind::ControlInString, j)),
            c if c >= 0x80 => match utf8_len(s, j) {
                Some(n) => j += n,
                None => return Err(err(JsonErrorKind::InvalidUtf8, j)),
            },
            _ => j += 1,
        }
    }
}

/// End of the run of ASCII digits starting at `j`, eight bytes at a time.
#[inline(always)]
pub(super) fn digits(s: &[u8], mut j: usize) -> usize {
    while let Some(w) = s.get(j..j + 8) {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        // Per byte, with no carry between bytes: a digit is 0x30..=0x39, so
        // x = b ^ 0x30 has a zero high nibble and a low nibble below 10
        // (adding 6 to the low nibble does not reach 0x10).
        let x = u64::from_le_bytes(a) ^ 0x3030_3030_3030_3030;
        let bad = (x & 0xF0F0_F0F0_F0F0_F0F0)
            | (((x & 0x0F0F_0F0F_0F0F_0F0F) + 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010);
        if bad != 0 {
            return j + (bad.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while s.get(j).is_some_and(u8::is_ascii_digit) {
        j += 1;
    }
    j
}

/// Scans a number starting at `i`; returns the end and whether it is an
/// integer literal.
#[inline(always)]
pub(super) fn scan_number(s: &[u8], i: usize) -> Result<(usize, bool), JsonError> {
    let mut j = i;
    if s.get(j) == Some(&b'-') {
        j += 1;
    }
    match s.get(j) {
        Some(b'0') => j += 1,
        Some(b'1'..=b'9') => j = digits(s, j + 1),
        _ => return Err(err(JsonErrorKind::BadNumber, j)),
    }
    let mut integer = true;
    if s.get(j) == Some(&b'.') {
        integer = false;
        j += 1;
        let e = digits(s, j);
        if e == j {
            return Err(err(JsonErrorKind::BadNumber, j));
        }
        j = e;
    }
    if matches!(s.get(j), Some(b'e' | b'E')) {
        integer = false;
        j += 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let e = digits(s, j);
        if e == j {
            return Err(err(JsonErrorKind::BadNumber, j));
        }
        j = e;
    }
    // A digit run straight after a leading zero (`01`) is not a number.
    if matches!(s.get(j), Some(b'0'..=b'9')) {
        return Err(err(JsonErrorKind::BadNumber, j));
    }
    Ok((j, integer))
}

pub(super) fn scan_literal(s: &[u8], i: usize, lit: &[u8]) -> Result<usize, JsonError> {
    match s.get(i..i + lit.len()) {
        Some(w) if w == lit => Ok(i + lit.len()),
        Some(_) => Err(err(JsonErrorKind::Unexpected, i)),
        None => {
            // A prefix of the literal that runs to the end is a truncation.
            let tail = s.get(i..).unwrap_or_default();
            if lit.starts_with(tail) {
                Err(err(JsonErrorKind::Truncated, s.len()))
            } else {
                Err(err(JsonErrorKind::Unexpected, i))
            }
        }
    }
}

/// A key at `i` and its colon; returns the index after the colon.
#[inline(always)]
pub(super) fn key_colon<const U: bool, const S: bool>(
    s: &[u8],
    i: usize,
) -> Result<usize, JsonError> {
    let ke = scan_string::<U, S>(s, i)?.0;
    // Usually the colon follows the key directly.
    if s.get(ke) == Some(&b':') {
        Ok(ke + 1)
    } else {
        colon(s, ke)
    }
}

/// Expects `:` after a key (whitespace allowed around it); returns the index
/// after it.
#[inline(always)]
pub(super) fn colon(s: &[u8], i: usize) -> Result<usize, JsonError> {
    let i = skip_ws(s, i);
    match s.get(i) {
        Some(b':') => Ok(i + 1),
        Some(_) => Err(err(JsonErrorKind::Unexpected, i)),
        None => Err(err(JsonErrorKind::Truncated, i)),
    }
}

/// Only whitespace may follow the value that ends at `i`.
#[inline]
pub(super) fn end_of_text(s: &[u8], i: usize) -> Result<(), JsonError> {
    let i = skip_ws(s, i);
    if i == s.len() {
        Ok(())
    } else {
        Err(err(JsonErrorKind::TrailingContent, i))
    }
}
