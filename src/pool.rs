//! Many inputs worked on at once, taken in input order:
//! workers run `work` on the inputs, each on one thread, while the caller
//! takes the results strictly in input order. Whatever the scheduling,
//! what the caller does with them is therefore one thread's; memory holds
//! at most a window of results ahead of the one being taken.

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

mod board;
mod each;
use board::{Board, Gone};
pub(crate) use each::*;

thread_local! {
    /// Set on a pool's workers: the threads are the files', so a worker
    /// reads its file on one ([`on_worker`]).
    static ON_WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is a pool's worker: it reads each file on itself,
/// never on two threads of its own ([`crate::parallel`]).
pub(crate) fn on_worker() -> bool {
    ON_WORKER.with(std::cell::Cell::get)
}

/// Batches judged ahead of the one being taken, past one per worker.
const AHEAD: usize = 2;

/// What the files of one batch may keep for the taker, in bytes (as the
/// commands estimate it: relayed bytes, written text, kept findings and
/// verdicts). A file that would pass it is handed back, to be read in its
/// turn, so the workers hold at most `(workers + AHEAD)` times this.
pub(crate) const HELD: usize = 1024 * 1024;

/// Inputs handed to a worker at once, at most: one wake-up per batch,
/// not per file (per file, waking the taker cost more than judging a
/// four-line run).
const BATCH_FILES: usize = 64;

/// Bytes of input in one batch, past its first file: a batch of small
/// files is about as much work as one of a larger file.
const BATCH_BYTES: u64 = 1024 * 1024;

/// Files up to this size are worked on N at once by `check`, `errors` and
/// `summary` whatever they keep; a larger one is read in its turn (on two
/// threads from 8 MiB, [`crate::parallel`]) when what a worker would keep
/// of it (a relay, extracted events, a log's verdicts) grows with it.
const SMALL: u64 = 1024 * 1024;

/// Several files to work on at once: how many workers, and the files'
/// sizes when planned.
pub(crate) struct Plan {
    workers: usize,
    sizes: Vec<u64>,
    /// The workers' stack size, when not the default.
    stack: Option<usize>,
}

/// The plan for `inputs` under `threads` (`--threads`; 0, or more than
/// the CPUs, is one per CPU): `None` (one at a time, in turn) unless there
/// are several inputs, more than one thread, and no input is stdin or
/// anything but a regular file (a pipe, a terminal or `/dev/stdin` named
/// twice must be read in turn). An input that cannot be looked at goes to
/// a worker, whose open fails as it would in turn, with the same message.
pub(crate) fn plan<P: AsRef<Path>>(threads: usize, inputs: &[P]) -> Option<Plan> {
    // More workers than CPUs never run at once; they would only hold
    // more results ahead ([`HELD`] each).
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = match threads {
        0 => cpus,
        n => n.min(cpus),
    };
    if inputs.len() < 2 || workers < 2 {
        return None;
    }
    let size = |p: &P| {
        let p = p.as_ref();
        match std::fs::metadata(p) {
            _ if p == Path::new("-") => None,
            Ok(m) => m.is_file().then_some(m.len()),
            Err(_) => Some(0),
        }
    };
    let sizes = inputs.iter().map(size).collect::<Option<Vec<u64>>>()?;
    Some(Plan {
        workers,
        sizes,
        stack: None,
    })
}

impl Plan {
    /// The plan with workers of `bytes` of stack (`filter`'s jq recurses).
    pub(crate) fn with_stack(self, bytes: usize) -> Self {
        Plan {
            stack: Some(bytes),
            ..self
        }
    }

    /// Whether input `i` is small enough to be judged ahead ([`SMALL`]).
    pub(crate) fn small(&self, i: usize) -> bool {
        self.sizes.get(i).is_some_and(|&n| n <= SMALL)
    }

    /// Runs `work(i, room)` for every input on the workers and hands each
    /// result to `take` in input order, until `take` says stop (false).
    /// Waiting workers are then woken and end. `room` is what the file
    /// may keep (0: nothing, its batch is full: it is to be read in its
    /// turn); `work` returns its result and what it kept.
    pub(crate) fn in_order<T: Send>(
        &self,
        work: impl Fn(usize, usize) -> (T, usize) + Sync,
        mut take: impl FnMut(usize, T) -> bool,
    ) {
        let batches = self.batches();
        let n = batches.len();
        let workers = self.workers.min(n);
        let line = Line::new(workers.saturating_add(AHEAD));
        let board = Board::new();
        std::thread::scope(|scope| {
            let mut started = 0;
            for _ in 0..workers {
                let (line, work, batches, board) = (&line, &work, &batches, &board);
                let worker = move || {
                    ON_WORKER.with(|w| w.set(true));
                    let _wake = StopOnPanic(line);
                    let _gone = Gone(board);
                    while let Some(b) = line.next(n) {
                        judge_batch(b, batches[b].clone(), work, line, board);
                    }
                };
                // A thread the system will not start is one worker less.
                let builder = std::thread::Builder::new();
                let builder = match self.stack {
                    Some(bytes) => builder.stack_size(bytes),
                    None => builder,
                };
                board.add();
                match builder.spawn_scoped(scope, worker) {
                    Ok(_) => started += 1,
                    Err(_) => board.gone(),
                }
            }
            // Whatever ends the taking (done, a stop, a panic), waiting
            // workers are woken and end.
            let _wake = StopOnDrop(&line);
            if started == 0 {
                // No worker: every input is read in its turn.
                let _ = (0..self.sizes.len()).try_for_each(|i| take(i, work(i, 0).0).then_some(()));
                return;
            }
            take_in_order(&batches, &board, &line, &mut take);
        });
    }

    /// The inputs cut into batches of consecutive ones.
    fn batches(&self) -> Vec<Range<usize>> {
        let mut batches = Vec::new();
        let (mut start, mut bytes) = (0, 0u64);
        for (i, &size) in self.sizes.iter().enumerate() {
            if i > start && (i - start == BATCH_FILES || bytes + size > BATCH_BYTES) {
                batches.push(start..i);
                (start, bytes) = (i, 0);
            }
            bytes += size;
        }
        batches.push(start..self.sizes.len());
        batches
    }
}

/// Puts the results of batch `b`'s inputs on the board one by one, each
/// input given the room the ones before it left ([`HELD`]); once the
/// caller stopped, no more (it takes none).
fn judge_batch<T>(
    b: usize,
    inputs: Range<usize>,
    work: &impl Fn(usize, usize) -> (T, usize),
    line: &Line,
    board: &Board<T>,
) {
    let mut room = HELD;
    for i in inputs {
        if line.stopped.load(Ordering::Relaxed) {
            break;
        }
        let (result, held) = work(i, room);
        room = room.saturating_sub(held);
        board.put(b, result);
    }
    board.end(b);
}

/// Hands the workers' results to `take` in input order. A batch's results
/// are taken as its worker ends it, or, when that takes a while, as far
/// as they are ready: a later input that never ends (a filter that loops)
/// must not hold back the output, and so the closed pipe or the halt, of
/// the ones before it.
fn take_in_order<T>(
    batches: &[Range<usize>],
    board: &Board<T>,
    line: &Line,
    take: &mut impl FnMut(usize, T) -> bool,
) {
    for (want, inputs) in batches.iter().enumerate() {
        let mut next = inputs.start;
        loop {
            let Some((results, ended)) = board.wait(want) else {
                return;
            };
            for r in results {
                if !take(next, r) {
                    return;
                }
                next += 1;
            }
            if ended {
                break;
            }
        }
        // A batch cut short (a worker panicked and stopped the line) ends
        // the taking: no input may be skipped.
        if next != inputs.end {
            return;
        }
        line.taken(want + 1);
    }
}

/// Which batch a worker takes next, and how far ahead of the taken ones
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

    /// The next batch to work on, once it is within the window; `None`
    /// when there is none left or the caller stopped.
    fn next(&self, n: usize) -> Option<usize> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            return None;
        }
        let mut taken = self.taken.lock().ok()?;
        while i >= (*taken).saturating_add(self.ahead) && !self.stopped.load(Ordering::Relaxed) {
            taken = self.moved.wait(taken).ok()?;
        }
        (!self.stopped.load(Ordering::Relaxed)).then_some(i)
    }

    /// Batches before `n` are taken.
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

/// Stops the line if a worker panics, so the others do not wait for a
/// batch that will never be taken (the panic then ends the scope).
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

    fn plan(sizes: Vec<u64>) -> Plan {
        Plan {
            workers: 4,
            sizes,
            stack: None,
        }
    }

    #[test]
    fn results_are_taken_in_input_order_and_a_stop_ends_the_workers() {
        let p = plan(vec![10; 2000]);
        let mut seen = Vec::new();
        // Later inputs may finish first: the taking order is still 0, 1, …
        p.in_order(
            |i, _| {
                std::thread::yield_now();
                (i * 2, 0)
            },
            |i, r| {
                seen.push((i, r));
                true
            },
        );
        assert_eq!(seen, (0..2000).map(|i| (i, i * 2)).collect::<Vec<_>>());
        let mut taken = 0;
        plan(vec![10; 100_000]).in_order(
            |i, _| (i, 0),
            |_, _| {
                taken += 1;
                taken < 5
            },
        );
        assert_eq!(taken, 5);
    }

    #[test]
    fn a_batch_is_taken_as_far_as_it_is_ready_while_a_later_input_runs() {
        // Inputs 0 and 1 are one batch, and 1 does not end until 0 is
        // taken (as a filter that loops never ends): one thread would have
        // written 0, and met its closed pipe, before it started 1.
        let taken = (Mutex::new(false), Condvar::new());
        let mut seen = Vec::new();
        plan(vec![10, 10]).in_order(
            |i, _| {
                let (flag, moved) = &taken;
                let Ok(flag) = flag.lock() else {
                    return (false, 0);
                };
                if i == 0 {
                    return (true, 0);
                }
                let limit = std::time::Duration::from_secs(60);
                let waited = moved.wait_timeout_while(flag, limit, |t| !*t);
                (waited.is_ok_and(|(t, _)| *t), 0)
            },
            |i, was_taken| {
                if i == 0 {
                    if let Ok(mut flag) = taken.0.lock() {
                        *flag = true;
                    }
                    taken.1.notify_all();
                }
                seen.push(was_taken);
                true
            },
        );
        assert_eq!(seen, [true, true]);
    }

    #[test]
    fn batches_cover_every_input_within_their_bounds() {
        let mb = BATCH_BYTES;
        let p = plan(vec![1, 2, mb, 3, 5 * mb, 4, 5]);
        assert_eq!(p.batches(), vec![0..2, 2..3, 3..4, 4..5, 5..7]);
        let p = plan(vec![1; 130]);
        assert_eq!(p.batches(), vec![0..64, 64..128, 128..130]);
        assert!(p.small(0) && !plan(vec![SMALL + 1, 0]).small(0));
    }

    #[test]
    fn a_batch_keeps_at_most_its_room_and_any_thread_count_ends() {
        // Each input keeps 400 KiB if it has the room: the third of a
        // batch gets none (it is read in its turn).
        let rooms = std::sync::Mutex::new(vec![0; 6]);
        let p = Plan {
            workers: usize::MAX / 2,
            sizes: vec![1; 6],
            stack: None,
        };
        p.in_order(
            |i, room| {
                if let Ok(mut r) = rooms.lock() {
                    r[i] = room;
                }
                let held = if room >= 400 * 1024 { 400 * 1024 } else { 0 };
                (held, held)
            },
            |_, _| true,
        );
        let rooms = rooms.into_inner().unwrap_or_default();
        assert_eq!(rooms[..3], [HELD, HELD - 400 * 1024, HELD - 800 * 1024]);
    }
}
