//! Reading an event's fields: a view of its top-level members, values
//! decoded as the spec's types, upstream strings capped for keeping, and
//! the key checks of framework events. Shared with the commands that read
//! events themselves (`errors`, `filter`, the log reader, forwarding).

use crate::peek::{Kind, Member, bytes_eq, key_is, span, unescape};
use crate::spec;

/// Longest upstream string the judge keeps (identity, codes, messages).
const MAX_KEPT: usize = 1024;

pub(crate) fn keep(s: &str) -> String {
    if s.len() <= MAX_KEPT {
        return s.to_string();
    }
    let mut end = MAX_KEPT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", s.get(..end).unwrap_or_default())
}

/// A borrowed view of one event's top-level members.
pub(crate) struct Ev<'a> {
    pub(crate) line: &'a [u8],
    pub(crate) members: &'a [Member],
}

impl<'a> Ev<'a> {
    pub(crate) fn get(&self, name: &str) -> Option<&'a Member> {
        self.members
            .iter()
            .find(|m| key_is(span(self.line, &m.key), m.key_escaped, name))
    }
    /// [`Ev::get`] for each of `names`, in one pass over the members.
    pub(crate) fn fields<const N: usize>(&self, names: [&str; N]) -> [Option<&'a Member>; N] {
        let mut found = [None; N];
        for m in self.members {
            let k = span(self.line, &m.key);
            if let Some(slot) = found
                .iter_mut()
                .zip(names)
                .find_map(|(slot, name)| key_is(k, m.key_escaped, name).then_some(slot))
            {
                // The first of a name counts, as for `get`.
                slot.get_or_insert(m);
            }
        }
        found
    }
    pub(crate) fn raw(&self, m: &Member) -> &'a [u8] {
        span(self.line, &m.value)
    }
}

/// The bytes of a string member's value when it holds no escape: its text
/// as written (UTF-8: the peek validated it), compared without decoding.
pub(crate) fn plain<'a>(line: &'a [u8], m: &Member) -> Option<&'a [u8]> {
    match m.kind {
        Kind::String { escaped: false } => {
            let raw = span(line, &m.value);
            raw.get(1..raw.len().saturating_sub(1))
        }
        _ => None,
    }
}

/// The string value of a member, decoded, borrowed when it has no escapes
/// (the peek validated it as UTF-8).
pub(crate) fn str_ref<'a>(line: &'a [u8], m: &Member) -> Option<std::borrow::Cow<'a, str>> {
    match m.kind {
        Kind::String { escaped } => {
            let raw = span(line, &m.value);
            let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
            if escaped {
                Some(unescape(body))
            } else {
                std::str::from_utf8(body)
                    .ok()
                    .map(std::borrow::Cow::Borrowed)
            }
        }
        _ => None,
    }
}

/// Whether every byte is printable ASCII (0x20 to 0x7E): no line break,
/// no control, nothing to decode. Eight bytes at a time: a word has a
/// byte under 0x20 when subtracting 0x20 from each borrows into a clear
/// high bit, a DEL when its xor with 0x7F has a zero byte.
pub(crate) fn printable_ascii(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let bad = |w: u64| {
        let low = w.wrapping_sub(0x20 * ONES) & !w;
        let del = (w ^ (0x7F * ONES)).wrapping_sub(ONES) & !(w ^ (0x7F * ONES));
        (w | low | del) & HIGH != 0
    };
    let mut words = b.chunks_exact(8);
    let clean = words
        .by_ref()
        .all(|c| c.try_into().is_ok_and(|a| !bad(u64::from_le_bytes(a))));
    clean && words.remainder().iter().all(|&c| (0x20..0x7F).contains(&c))
}

/// Whether a member is the string `s`: compared on its bytes when it has
/// no escape, decoded else.
pub(crate) fn str_is(line: &[u8], m: &Member, s: &str) -> bool {
    match plain(line, m) {
        Some(b) => bytes_eq(b, s.as_bytes()),
        None => str_ref(line, m).is_some_and(|v| v == s),
    }
}

/// `wrapped`'s `protocol` member (§ 9.1): the first, as the judge reads
/// it, so what the judge accepts a forwarded copy keeps.
pub(crate) fn wrapped_protocol(obj: &[u8]) -> Option<Member> {
    crate::peek::object_members(obj).find(|p| key_is(span(obj, &p.key), p.key_escaped, "protocol"))
}

/// The string value of a member, decoded and owned (capped for keeping).
pub(crate) fn str_value(line: &[u8], m: &Member) -> Option<String> {
    str_ref(line, m).map(|v| keep(&v))
}

/// A JSON number whose value is a whole number >= 0 (JSON
/// Schema 2020-12, which the spec cites, counts `1000.0` and `1e3` as
/// integers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Whole {
    /// The value, `None` past 2^64-1.
    pub(crate) value: Option<u64>,
    /// Written as digits alone (`1000`), not `1000.0` or `1e3`.
    pub(crate) plain: bool,
}

/// The member as a [`Whole`], if it is a number whose value is a whole
/// number >= 0 (`-0` is 0).
pub(crate) fn whole_value(line: &[u8], m: &Member) -> Option<Whole> {
    match m.kind {
        Kind::Number { .. } => whole_number(span(line, &m.value)),
        _ => None,
    }
}

/// [`whole_value`] on a validated JSON number's text. Exact: decimal
/// digits are shifted by the exponent, never rounded through a float.
pub(crate) fn whole_number(text: &[u8]) -> Option<Whole> {
    // Digits alone, short enough not to overflow: the usual count or
    // index, read without the general path's steps.
    if (1..=19).contains(&text.len()) && text.iter().all(u8::is_ascii_digit) {
        let value = text.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
        return Some(Whole {
            value: Some(value),
            plain: true,
        });
    }
    whole_general(text)
}

/// [`whole_number`] for any number: sign, fraction and exponent.
pub(super) fn whole_general(text: &[u8]) -> Option<Whole> {
    let (neg, t) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let (mant, exp) = match t.iter().position(|&c| c == b'e' || c == b'E') {
        Some(i) => (t.get(..i)?, t.get(i + 1..)?),
        None => (t, &b""[..]),
    };
    let (int, frac) = match mant.iter().position(|&c| c == b'.') {
        Some(i) => (mant.get(..i)?, mant.get(i + 1..)?),
        None => (mant, &b""[..]),
    };
    let plain = !neg && exp.is_empty() && frac.is_empty();
    // The exponent, saturated: past 10^6 either way nothing changes below.
    let (eneg, edigits) = match exp.split_first() {
        Some((b'-', d)) => (true, d),
        Some((b'+', d)) => (false, d),
        _ => (false, exp),
    };
    let e = edigits
        .iter()
        .fold(0i64, |v, &d| (v * 10 + i64::from(d - b'0')).min(1_000_000));
    let e = if eneg { -e } else { e };
    let digits = || int.iter().chain(frac);
    if digits().all(|&d| d == b'0') {
        return Some(Whole {
            value: Some(0),
            plain,
        });
    }
    if neg {
        return None;
    }
    // The decimal point after `point` digits of int ++ frac.
    let point = int.len() as i64 + e;
    let n = (int.len() + frac.len()) as i64;
    // Digits after the point must all be zero.
    let whole_digits = point.clamp(0, n) as usize;
    if digits().skip(whole_digits).any(|&d| d != b'0') {
        return None;
    }
    let mut v: Option<u64> = Some(0);
    for &d in digits().take(whole_digits) {
        v = v.and_then(|v| v.checked_mul(10)?.checked_add(u64::from(d - b'0')));
    }
    // Zeros the exponent appends (bounded: past 20 a non-zero value overflows).
    let zeros = (point - n).max(0);
    if zeros > 20 {
        v = None;
    } else {
        for _ in 0..zeros {
            v = v.and_then(|v| v.checked_mul(10));
        }
    }
    Some(Whole { value: v, plain })
}

/// A JSON number member as an `f64` (finite: a literal past its range is
/// `None`).
pub(crate) fn number_value(line: &[u8], m: &Member) -> Option<f64> {
    if !matches!(m.kind, Kind::Number { .. }) {
        return None;
    }
    let text = std::str::from_utf8(span(line, &m.value)).ok()?;
    text.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// A duration in milliseconds as JSON: an integer when it is whole (as
/// most producers write it), else the number with its fraction.
pub fn ms_json(ms: f64) -> serde_json::Value {
    if ms.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&ms) {
        serde_json::Value::from(ms as u64)
    } else {
        serde_json::Value::from(ms)
    }
}

pub(crate) fn bool_value(m: &Member) -> Option<bool> {
    match m.kind {
        Kind::True => Some(true),
        Kind::False => Some(false),
        _ => None,
    }
}

/// The top-level keys of a framework event, proved distinct by their
/// [`spec::field_hash`]: each key sets its hash's bit, and no bit is set
/// twice. Then the one member a name can be is the one with the name's
/// hash, so a member is found by its name's hash and one comparison,
/// where [`Ev::get`] compares every key.
pub(super) struct Keys {
    seen: [u64; 4],
    /// For each hash seen, the index of its member (256 hashes at most
    /// apart, so a line of more members is never proved).
    at: [u8; 256],
    /// Every key is one of the type's table's.
    pub(super) all_known: bool,
}

impl Keys {
    /// No key proved yet.
    pub(super) fn new() -> Keys {
        Keys {
            seen: [0; 4],
            at: [0; 256],
            all_known: false,
        }
    }

    /// Proves the keys of `members` distinct, and whether they are all in
    /// `table`. False says only "not proved": the exact checks
    /// ([`duplicate_key`] and the field list) then decide and word the
    /// finding. A key with escapes is never proved here.
    pub(super) fn prove(
        &mut self,
        line: &[u8],
        members: &[Member],
        table: Option<&spec::FieldTable>,
    ) -> bool {
        self.seen = [0; 4];
        self.all_known = table.is_some();
        for (i, m) in members.iter().enumerate() {
            if m.key_escaped {
                return false;
            }
            let k = span(line, &m.key);
            let h = spec::field_hash(k);
            if self.all_known && table.is_some_and(|t| !t.has(k, h)) {
                self.all_known = false;
            }
            let (word, bit) = (usize::from(h >> 6), 1u64 << (h & 63));
            let Some(w) = self.seen.get_mut(word) else {
                return false;
            };
            if *w & bit != 0 {
                return false;
            }
            *w |= bit;
            // The index of a proved member fits: 256 hashes at most.
            let (Some(at), Ok(i)) = (self.at.get_mut(usize::from(h)), u8::try_from(i)) else {
                return false;
            };
            *at = i;
        }
        true
    }

    /// The member named `name` (its [`Named::hash`] given), as [`Ev::get`]
    /// finds it.
    #[inline(always)]
    pub(super) fn get<'a>(&self, ev: &Ev<'a>, name: Named) -> Option<&'a Member> {
        let h = name.hash;
        let (word, bit) = (usize::from(h >> 6), 1u64 << (h & 63));
        if self.seen.get(word).is_none_or(|w| w & bit == 0) {
            return None;
        }
        let m = ev.members.get(usize::from(*self.at.get(usize::from(h))?))?;
        bytes_eq(span(ev.line, &m.key), name.name.as_bytes()).then_some(m)
    }

    /// [`Keys::get`] for each of `names`: [`Ev::fields`].
    #[inline(always)]
    pub(super) fn fields<'a, const N: usize>(
        &self,
        ev: &Ev<'a>,
        names: [Named; N],
    ) -> [Option<&'a Member>; N] {
        names.map(|n| self.get(ev, n))
    }
}

/// [`Keys::prove`] as one answer: the keys are distinct and, with a
/// table, all in it.
#[cfg(test)]
pub(super) fn keys_plain(
    line: &[u8],
    members: &[Member],
    table: Option<&spec::FieldTable>,
) -> bool {
    let mut k = Keys::new();
    k.prove(line, members, table) && (table.is_none() || k.all_known)
}

/// A field's name with its [`spec::field_hash`], computed once (names are
/// constants: see [`named`]).
#[derive(Clone, Copy)]
pub(super) struct Named {
    pub(super) name: &'static str,
    hash: u8,
}

/// `names` with their hashes, for constants.
pub(super) const fn named<const N: usize>(names: [&'static str; N]) -> [Named; N] {
    let mut out = [Named { name: "", hash: 0 }; N];
    let mut i = 0;
    while i < N {
        out[i] = Named {
            name: names[i],
            hash: spec::field_hash(names[i].as_bytes()),
        };
        i += 1;
    }
    out
}

/// The names of `named`, for [`Ev::fields`].
pub(super) fn names<const N: usize>(named: [Named; N]) -> [&'static str; N] {
    named.map(|n| n.name)
}

/// The first key that occurs twice among `members` (decoded), if any,
/// ignoring `type` and `aoi` (they have their own rule). Raw bytes are
/// compared unless a key has escapes.
pub(super) fn duplicate_key(line: &[u8], members: &[Member]) -> Option<String> {
    let reserved = |k: &str| k == "type" || k == "aoi";
    if members.len() > 16 {
        // Sort-and-scan keeps hostile lines with many keys linear-logarithmic.
        let mut keys: Vec<std::borrow::Cow<'_, str>> = members
            .iter()
            .map(|m| unescape(span(line, &m.key)))
            .collect();
        keys.sort_unstable();
        return keys
            .windows(2)
            .find(|w| w[0] == w[1] && !reserved(&w[0]))
            .map(|w| w[0].to_string());
    }
    let same = |a: &Member, b: &Member| {
        let (ka, kb) = (span(line, &a.key), span(line, &b.key));
        if a.key_escaped || b.key_escaped {
            unescape(ka) == unescape(kb)
        } else {
            bytes_eq(ka, kb)
        }
    };
    // A signature per key (length, first and last byte): keys whose
    // signatures differ differ, unless one has escapes (`ANY`); only equal
    // signatures are compared byte for byte.
    const ANY: u64 = u64::MAX;
    let mut sigs = [0u64; 16];
    for (sig, m) in sigs.iter_mut().zip(members) {
        let k = span(line, &m.key);
        *sig = if m.key_escaped {
            ANY
        } else {
            let ends = |b: Option<&u8>| u64::from(b.copied().unwrap_or(0));
            ((k.len() as u64) << 16) | (ends(k.first()) << 8) | ends(k.last())
        };
    }
    for (i, (a, &sa)) in members.iter().zip(&sigs).enumerate() {
        let maybe = |&(_, &sb): &(&Member, &u64)| sa == sb || sa == ANY || sb == ANY;
        let later = members.iter().zip(&sigs).skip(i + 1);
        if later.filter(maybe).any(|(b, _)| same(a, b)) {
            let k = unescape(span(line, &a.key));
            if !reserved(&k) {
                return Some(k.into_owned());
            }
        }
    }
    None
}

/// A short, printable excerpt of upstream bytes for messages.
pub fn preview(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b.get(..b.len().min(60)).unwrap_or_default());
    let mut out: String = s
        .chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if b.len() > 60 {
        out.push('…');
    }
    out
}
