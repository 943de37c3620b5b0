//! Ended runs put back in order of first appearance: a run is handed on
//! when it ends ([`super::Visit::Ended`]), and a command that reports in
//! order of first appearance holds it until every run that appeared
//! before it has ended too (`settled`). A run that stays open while more
//! than [`HELD`] others end (a long run around many short ones) would make
//! that memory grow with the runs seen: past it the earliest held run goes
//! on, so those runs come in the order they ended.

use std::collections::BTreeMap;

/// Ended runs held at most, waiting for an earlier one to end.
pub const HELD: usize = 4096;

/// Items keyed by their run's order of first appearance.
pub struct InOrder<T> {
    pending: BTreeMap<u64, T>,
}

impl<T> Default for InOrder<T> {
    fn default() -> Self {
        InOrder {
            pending: BTreeMap::new(),
        }
    }
}

impl<T> InOrder<T> {
    /// Holds `item`, the run of order `order`.
    pub fn push(&mut self, order: u64, item: T) {
        self.pending.insert(order, item);
    }

    /// The next item whose run appeared before `settled` (every run
    /// before that order has ended), in order; or the earliest held, when
    /// more than [`HELD`] are.
    pub fn next_before(&mut self, settled: u64) -> Option<T> {
        let over = self.pending.len() > HELD;
        let first = self.pending.first_entry()?;
        (over || *first.key() < settled).then(|| first.remove())
    }

    /// Everything held, in order (at the input's end).
    pub fn rest(&mut self) -> impl Iterator<Item = T> {
        std::mem::take(&mut self.pending).into_values()
    }
}
