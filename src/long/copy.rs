//! The reduced copy of a long line that the judge reads: every top-level
//! member as written, except that a key or value past [`VALUE_KEEP`] is
//! replaced by a stand-in of its kind, and that past [`KEPT_MAX`] only the
//! members the spec defines for a framework event are kept (docs/rules.md,
//! "Lines of any length").

use super::{AoiSpan, KEPT_MAX, LongLine, STRING_KEEP, St, VALUE_KEEP};
use crate::peek::Kind;

impl LongLine {
    /// A top-level key is complete: keep its member or leave it out.
    pub(super) fn key_read(&mut self) {
        let key = self.out.get(self.key_at..).unwrap_or_default();
        let key = key.get(1..key.len().saturating_sub(1)).unwrap_or_default();
        let name = crate::peek::unescape(key);
        if name == "aoi" && self.aoi.is_none() {
            self.aoi = Some(AoiSpan {
                key: self.key_raw,
                prev_end: self.prev_end,
                ..AoiSpan::default()
            });
        }
        if self.out.len() <= KEPT_MAX {
            return;
        }
        let known = crate::spec::framework_field(&name);
        if !self.keep_late(known) {
            self.out.truncate(self.member_at);
            self.dropping = true;
        }
    }

    /// Whether a member read past [`KEPT_MAX`] is kept: a name the spec
    /// defines for a framework event (`type`, `aoi`, `ok`, `reason`, …,
    /// § 8.1, § 8.3, § 9.1), at most twice each, so that a duplicate is
    /// still seen and hostile repetition cannot grow the copy.
    pub(super) fn keep_late(&mut self, known: Option<&'static str>) -> bool {
        let Some(known) = known else {
            return false;
        };
        match self.late.iter_mut().find(|(n, _)| *n == known) {
            Some((_, count)) if *count >= 2 => false,
            Some((_, count)) => {
                *count += 1;
                true
            }
            None => {
                self.late.push((known, 1));
                true
            }
        }
    }

    /// Copies bytes of the line into the reduced copy, unless they are in
    /// a left-out member, an elided value, or the line is no object.
    pub(super) fn copy(&mut self, bytes: &[u8]) {
        if self.dropping || self.eliding || self.top.is_some_and(|k| k != Kind::Object) {
            return;
        }
        if self.depth == 0 && self.top.is_none() && bytes != b"{" {
            return;
        }
        self.out.extend_from_slice(bytes);
        if self.depth >= 1 && self.st != Some(St::Start) {
            self.maybe_elide();
        }
    }

    /// Starts a stand-in when the current top-level key or value has
    /// grown past [`VALUE_KEEP`].
    pub(super) fn maybe_elide(&mut self) {
        let in_value = matches!(
            self.st,
            Some(St::Str | St::Esc | St::Hex(..)) if !self.in_key
        ) || self.depth > 1
            || self.number_state();
        let in_key = self.in_key && self.depth == 1;
        let from = if in_key {
            self.key_at
        } else if in_value {
            self.value_at
        } else {
            return;
        };
        let keep = if from > KEPT_MAX {
            STRING_KEEP
        } else {
            VALUE_KEEP
        };
        if self.out.len().saturating_sub(from) <= keep {
            return;
        }
        self.eliding = true;
        let first = self.out.get(from).copied().unwrap_or(b'"');
        match first {
            b'"' => {
                // A pair's second half is in the copy when the first is
                // 12 bytes before its end.
                let max = STRING_KEEP.min(keep - 12);
                let cut = string_cut(self.out.get(from..).unwrap_or_default(), max);
                self.out.truncate(from + cut);
            }
            b'{' | b'[' => self.out.truncate(from + 1),
            _ => self.out.truncate(from),
        }
    }
}

/// The longest start of the string `s` (from its opening quote), at most
/// `max` bytes, that does not cut an escape or a UTF-8 sequence.
fn string_cut(s: &[u8], max: usize) -> usize {
    let lim = s.len().min(max);
    let mut i = 1;
    while i < lim {
        let c = s.get(i).copied().unwrap_or(0);
        let n = match c {
            // A surrogate pair is one character: never cut between.
            b'\\' if s.get(i + 1) == Some(&b'u') && pair_at(s, i) => 12,
            b'\\' if s.get(i + 1) == Some(&b'u') => 6,
            b'\\' => 2,
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        if i + n > lim {
            break;
        }
        i += n;
    }
    i
}

/// Whether `s[i..]` starts with an escaped UTF-16 surrogate pair
/// (`\uD83D\uDE00`).
fn pair_at(s: &[u8], i: usize) -> bool {
    let unit = |at: usize| {
        let hex = s.get(at + 2..at + 6)?;
        let text = std::str::from_utf8(hex).ok()?;
        let v = u16::from_str_radix(text, 16).ok()?;
        (s.get(at..at + 2) == Some(b"\\u")).then_some(v)
    };
    matches!(
        (unit(i), unit(i + 6)),
        (Some(0xD800..=0xDBFF), Some(0xDC00..=0xDFFF))
    )
}
