//! Ended runs put back in order of first appearance: a run is handed on
//! when it ends ([`super::Visit::Ended`]), and a command that reports in
//! order of first appearance holds it until every run that appeared
//! before it has ended too (`settled`), so what it holds is bounded by
//! the runs open at once, not by the runs seen.

use std::collections::BTreeMap;

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
    /// before that order has ended), in order.
    pub fn next_before(&mut self, settled: u64) -> Option<T> {
        let first = self.pending.first_entry()?;
        (*first.key() < settled).then(|| first.remove())
    }

    /// Everything held, in order (at the input's end).
    pub fn rest(&mut self) -> impl Iterator<Item = T> {
        std::mem::take(&mut self.pending).into_values()
    }
}
