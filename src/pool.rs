//! Many inputs worked on at once, taken in input order (issue 29):
//! workers run `work` on the inputs, each on one thread, while the caller
//! takes the results strictly in input order. Whatever the scheduling,
//! what the caller does with them is therefore one thread's; memory holds
//! at most a window of results ahead of the one being taken.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

/// Results a worker may run ahead of the one being taken, per worker.
const AHEAD: usize = 16;

/// Runs `work(i)` for every input `i` below `n` on `workers` threads and
/// hands each result to `take` in input order, until `take` says stop
/// (false). Waiting workers are then woken and end.
pub(crate) fn in_order<T: Send>(
    n: usize,
    workers: usize,
    work: impl Fn(usize) -> T + Sync,
    mut take: impl FnMut(usize, T) -> bool,
) {
    let line = Line::new(workers * AHEAD);
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    std::thread::scope(|scope| {
        for _ in 0..workers.min(n) {
            let tx = tx.clone();
            let (line, work) = (&line, &work);
            scope.spawn(move || {
                let _wake = StopOnPanic(line);
                while let Some(i) = line.next(n) {
                    if tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Whatever ends the taking (done, a stop, a panic), waiting
        // workers are woken and end.
        let _wake = StopOnDrop(&line);
        take_in_order(n, &rx, &line, &mut take);
    });
}

/// How many inputs are worked on at once: `threads` (`--threads`; 0 is
/// one per CPU) when there are several inputs, all regular files (a pipe,
/// a terminal or `/dev/stdin` named twice must be read in turn), else one.
pub(crate) fn workers<P: AsRef<Path>>(threads: usize, inputs: &[P]) -> usize {
    let regular = |p: &P| {
        let p = p.as_ref();
        p != Path::new("-") && std::fs::metadata(p).is_ok_and(|m| m.is_file())
    };
    if inputs.len() < 2 || threads == 1 || !inputs.iter().all(regular) {
        return 1;
    }
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Files up to this size are worked on N at once; a larger one is read
/// in its turn (on two threads from 8 MiB, [`crate::parallel`]), so that
/// what workers hold ahead of the taker (a relay, extracted events, a
/// log's verdicts) stays within the window times this.
const SMALL: u64 = 1024 * 1024;

/// Whether `path` is a file small enough for a worker ([`SMALL`]).
pub(crate) fn small(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() <= SMALL)
}

/// Hands the workers' results to `take` in input order, holding those
/// that came early.
fn take_in_order<T>(
    n: usize,
    rx: &mpsc::Receiver<(usize, T)>,
    line: &Line,
    take: &mut impl FnMut(usize, T) -> bool,
) {
    let mut early: BTreeMap<usize, T> = BTreeMap::new();
    for want in 0..n {
        let result = loop {
            if let Some(r) = early.remove(&want) {
                break r;
            }
            match rx.recv() {
                Ok((i, r)) => {
                    early.insert(i, r);
                }
                // Every worker ended without this input: one panicked, and
                // the scope ends with its panic; nothing more is taken.
                Err(_) => return,
            }
        };
        if !take(want, result) {
            return;
        }
        line.taken(want + 1);
    }
}

/// Which input a worker takes next, and how far ahead of the taken ones
/// it may go.
struct Line {
    next: AtomicUsize,
    taken: Mutex<usize>,
    moved: Condvar,
    stopped: AtomicBool,
    ahead: usize,
}

impl Line {
    fn new(ahead: usize) -> Self {
        Line {
            next: AtomicUsize::new(0),
            taken: Mutex::new(0),
            moved: Condvar::new(),
            stopped: AtomicBool::new(false),
            ahead,
        }
    }

    /// The next input to work on, once it is within the window; `None`
    /// when there is none left or the caller stopped.
    fn next(&self, n: usize) -> Option<usize> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            return None;
        }
        let mut taken = self.taken.lock().ok()?;
        while i >= *taken + self.ahead && !self.stopped.load(Ordering::Relaxed) {
            taken = self.moved.wait(taken).ok()?;
        }
        (!self.stopped.load(Ordering::Relaxed)).then_some(i)
    }

    /// Inputs before `n` are taken.
    fn taken(&self, n: usize) {
        if let Ok(mut taken) = self.taken.lock() {
            *taken = n;
        }
        self.moved.notify_all();
    }

    /// The caller is done: waiting workers end.
    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        // Under the lock, so no worker misses the wake-up between its
        // check and its wait.
        let _guard = self.taken.lock();
        self.moved.notify_all();
    }
}

/// Stops the line when the taking ends, however it ends.
struct StopOnDrop<'a>(&'a Line);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Stops the line if a worker panics, so the others do not wait for an
/// input that will never be taken (the panic then ends the scope).
struct StopOnPanic<'a>(&'a Line);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_taken_in_input_order_and_a_stop_ends_the_workers() {
        let mut seen = Vec::new();
        // Later inputs finish first: the taking order is still 0, 1, 2, …
        in_order(
            200,
            4,
            |i| {
                std::thread::yield_now();
                i * 2
            },
            |i, r| {
                seen.push((i, r));
                true
            },
        );
        assert_eq!(seen, (0..200).map(|i| (i, i * 2)).collect::<Vec<_>>());
        let mut taken = 0;
        in_order(
            10_000,
            3,
            |i| i,
            |_, _| {
                taken += 1;
                taken < 5
            },
        );
        assert_eq!(taken, 5);
    }
}
