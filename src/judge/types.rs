//! Event types counted by name. Every event's type is counted, so this is
//! on the path of every line: a small table searched by a key per name,
//! so the common stream costs no hashing.

use std::collections::HashMap;

/// Distinct event types tracked by name; more are counted as "other".
pub(super) const MAX_TYPES: usize = 1024;
/// Longest type name tracked by name; longer ones count as "other".
pub(super) const MAX_TYPE_LEN: usize = 256;

/// Event types by name with their counts, in first-seen order (at most
/// [`MAX_TYPES`] names of at most [`MAX_TYPE_LEN`] bytes).
///
/// Every event's type is counted, so the lookup is on the path of every
/// line. A name is looked up by its [`TypeKey`]: the last type first
/// (consecutive events mostly share one), then a linear scan of the keys
/// of the first [`TypeCounts::SCAN`] names, then a hash map for the rest.
/// (A map for every stream of more than 8 types, as before, cost `check`
/// 9% of its time on a stream of 12 types in turn: SipHash on each line.)
#[derive(Default, Clone)]
pub(super) struct TypeCounts {
    names: Vec<Vec<u8>>,
    counts: Vec<u64>,
    keys: Vec<TypeKey>,
    /// Names after the first [`TypeCounts::SCAN`], by name.
    index: HashMap<Vec<u8>, usize>,
    last: usize,
}

/// A name's length and its first and last four bytes: names with
/// different keys differ, and names of at most 8 bytes with one key are
/// equal (the key holds every byte); longer ones are compared.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct TypeKey(u64, usize);

impl TypeKey {
    #[inline(always)]
    fn of(name: &[u8]) -> TypeKey {
        let n = name.len();
        let word = match (name.first_chunk::<4>(), name.last_chunk::<4>()) {
            (Some(h), Some(t)) => {
                u64::from(u32::from_le_bytes(*h)) << 32 | u64::from(u32::from_le_bytes(*t))
            }
            // Under 4 bytes: the bytes themselves (the length tells
            // "a" from "a\0").
            _ => name.iter().fold(0u64, |w, &c| w << 8 | u64::from(c)),
        };
        TypeKey(word, n)
    }

    /// Whether `name`, whose key is `self`, is `known`, whose key is `k`.
    #[inline(always)]
    fn names(self, name: &[u8], k: TypeKey, known: Option<&Vec<u8>>) -> bool {
        self == k && (self.1 <= 8 || known.is_some_and(|t| t.as_slice() == name))
    }
}

impl TypeCounts {
    /// Names found by scanning their keys.
    const SCAN: usize = 64;

    /// Counts one event of type `name`; false if the name is not tracked
    /// (too many names, or too long).
    #[inline]
    pub(super) fn count(&mut self, name: &[u8]) -> bool {
        let key = TypeKey::of(name);
        let last = self.last;
        let found = if self
            .keys
            .get(last)
            .is_some_and(|&k| key.names(name, k, self.names.get(last)))
        {
            Some(last)
        } else {
            let scan = self.keys.get(..Self::SCAN).unwrap_or(&self.keys);
            scan.iter()
                .enumerate()
                .find(|&(i, &k)| key.names(name, k, self.names.get(i)))
                .map(|(i, _)| i)
                .or_else(|| {
                    (self.names.len() > Self::SCAN)
                        .then(|| self.index.get(name).copied())
                        .flatten()
                })
        };
        let i = match found {
            Some(i) => i,
            None if self.names.len() < MAX_TYPES && name.len() <= MAX_TYPE_LEN => {
                let i = self.names.len();
                if i >= Self::SCAN {
                    self.index.insert(name.to_vec(), i);
                }
                self.names.push(name.to_vec());
                self.counts.push(0);
                self.keys.push(key);
                i
            }
            None => return false,
        };
        self.last = i;
        if let Some(n) = self.counts.get_mut(i) {
            *n += 1;
        }
        true
    }

    /// The names with their counts, in first-seen order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&[u8], u64)> {
        self.names
            .iter()
            .map(Vec::as_slice)
            .zip(self.counts.iter().copied())
    }
}
