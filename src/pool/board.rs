//! Where the pool's workers put their results, file by file, and where
//! the taker waits for them: a batch is taken when its worker ends it, or
//! after a while as far as it is done, so a file that never ends does not
//! hold back the ones before it.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Where workers put their results, batch by batch, for the taker.
pub(super) struct Board<T> {
    state: Mutex<Posted<T>>,
    moved: Condvar,
}

struct Posted<T> {
    /// Results not yet taken, and whether the batch is ended, by batch.
    batches: BTreeMap<usize, (Vec<T>, bool)>,
    /// Workers that have not ended.
    workers: usize,
    /// The batch the taker waits for.
    waiting: Option<usize>,
}

/// How long the taker waits for a batch to end before it takes what is
/// ready of it. Only when output comes depends on it, not what comes.
const PATIENCE: Duration = Duration::from_millis(20);

impl<T> Board<T> {
    pub(super) fn new() -> Self {
        Board {
            state: Mutex::new(Posted {
                batches: BTreeMap::new(),
                workers: 0,
                waiting: None,
            }),
            moved: Condvar::new(),
        }
    }

    /// A worker is about to start.
    pub(super) fn add(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.workers += 1;
        }
    }

    /// One more result of batch `b`; the taker is not woken for it (a
    /// wake-up per small file cost more than judging it).
    pub(super) fn put(&self, b: usize, result: T) {
        if let Ok(mut s) = self.state.lock() {
            s.batches.entry(b).or_default().0.push(result);
        }
    }

    /// Batch `b` has all its results (or all it will have).
    pub(super) fn end(&self, b: usize) {
        if let Ok(mut s) = self.state.lock() {
            s.batches.entry(b).or_default().1 = true;
            if s.waiting == Some(b) {
                self.moved.notify_one();
            }
        }
    }

    /// A worker ended (or never started).
    pub(super) fn gone(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.workers = s.workers.saturating_sub(1);
            self.moved.notify_one();
        }
    }

    /// Batch `b`'s results put since the last call and whether it is
    /// ended, once it is ended or [`PATIENCE`] passed with some ready;
    /// once no worker is left to end it, what is there, as ended.
    pub(super) fn wait(&self, b: usize) -> Option<(Vec<T>, bool)> {
        let mut s = self.state.lock().ok()?;
        let mut patient = true;
        loop {
            // No worker left and the batch not ended: one panicked, and
            // the batch is cut (the scope ends with the panic).
            let ended = s.workers == 0 || s.batches.get(&b).is_some_and(|p| p.1);
            if ended {
                let results = s.batches.remove(&b).map(|p| p.0).unwrap_or_default();
                return Some((results, true));
            }
            if let Some(p) = s
                .batches
                .get_mut(&b)
                .filter(|p| !patient && !p.0.is_empty())
            {
                return Some((std::mem::take(&mut p.0), false));
            }
            s.waiting = Some(b);
            let (next, timeout) = self.moved.wait_timeout(s, PATIENCE).ok()?;
            s = next;
            s.waiting = None;
            patient = !timeout.timed_out();
        }
    }
}

/// Counts a worker out of the board however it ends.
pub(super) struct Gone<'a, T>(pub(super) &'a Board<T>);

impl<T> Drop for Gone<'_, T> {
    fn drop(&mut self) {
        self.0.gone();
    }
}
