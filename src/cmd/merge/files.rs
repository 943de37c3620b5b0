//! Many files judged at once (issue 29): `--threads` workers read and
//! judge whole files, each on one thread, while the caller takes them into
//! the report strictly in input order. What is written and said on stderr
//! is therefore one thread's, byte for byte; memory holds at most a window
//! of judged files ahead of the one being taken.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

use super::{Gathered, SHOWN, Taken, gather};
use crate::cli::{JudgeArgs, MergeArgs};
use crate::demux;
use crate::out::open_input;

/// Judged files a worker may run ahead of the one being taken, per worker.
const AHEAD: usize = 16;

/// One input, read and judged, not yet in the report.
pub(super) enum FileRead {
    /// A stop came (SIGINT/SIGTERM) before it was read whole.
    Stopped,
    /// It could not be opened: why.
    Unreadable(String),
    /// A run of the input being read that ended, reduced to its report
    /// (given before the input's `Judged`, in order of first appearance).
    Part(Box<Taken>),
    /// A block of the input being read ended: what was written goes out
    /// (a live log's reader is not kept waiting).
    BlockEnd,
    /// Its streams reduced to their report, in order of first
    /// appearance (after its parts), what it carried, and what reading it
    /// passed over.
    Judged {
        g: Box<Gathered>,
        taken: Vec<Taken>,
        counts: demux::Counts,
    },
}

/// Judges every input and hands each to `take` in input order, until
/// `take` says stop (false).
pub(super) fn each_judged(
    inputs: &[PathBuf],
    args: &MergeArgs,
    mut take: impl FnMut(&Path, FileRead) -> bool,
) {
    let workers = workers(args, inputs);
    if workers <= 1 {
        let opts = args.logs.reading(&args.judge, SHOWN as u64, SHOWN);
        for path in inputs {
            // One thread: a log's runs go into the report as they end.
            let mut part = |t: Option<Taken>| match t {
                Some(t) => take(path, FileRead::Part(Box::new(t))),
                None => take(path, FileRead::BlockEnd),
            };
            let read = judge_file(path, &args.judge, &opts, &mut part);
            if !take(path, read) {
                return;
            }
        }
        return;
    }
    // The threads are the files': each file is read on one.
    let judge = JudgeArgs {
        threads: 1,
        ..args.judge.clone()
    };
    let opts = args.logs.reading(&judge, SHOWN as u64, SHOWN);
    let line = Line::new(workers * AHEAD);
    let (tx, rx) = mpsc::channel::<(usize, FileRead)>();
    std::thread::scope(|scope| {
        for _ in 0..workers.min(inputs.len()) {
            let tx = tx.clone();
            let (line, judge, opts) = (&line, &judge, &opts);
            scope.spawn(move || {
                let _wake = StopOnPanic(line);
                while let Some(i) = line.next(inputs.len()) {
                    if tx.send((i, judge_whole(&inputs[i], judge, opts))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Whatever ends the taking (done, a stop, a panic), waiting
        // workers are woken and end.
        let _wake = StopOnDrop(&line);
        take_in_order(inputs, &rx, &line, &mut take);
    });
}

/// Hands the workers' files to `take` in input order, holding those that
/// came early.
fn take_in_order(
    inputs: &[PathBuf],
    rx: &mpsc::Receiver<(usize, FileRead)>,
    line: &Line,
    take: &mut impl FnMut(&Path, FileRead) -> bool,
) {
    let mut early: BTreeMap<usize, FileRead> = BTreeMap::new();
    for (want, path) in inputs.iter().enumerate() {
        let read = loop {
            if let Some(r) = early.remove(&want) {
                break r;
            }
            match rx.recv() {
                Ok((i, r)) => {
                    early.insert(i, r);
                }
                // Every worker ended without this file: one panicked, and
                // the scope ends with its panic; nothing more is taken.
                Err(_) => return,
            }
        };
        if !take(path, read) {
            return;
        }
        line.taken(want + 1);
    }
}

/// Which file a worker judges next, and how far ahead of the taken ones
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

    /// The next file to judge, once it is within the window; `None` when
    /// there is none left or the caller stopped.
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

    /// Files before `n` are in the report.
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
/// file that will never be taken (the panic then ends the scope).
struct StopOnPanic<'a>(&'a Line);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// How many files are judged at once: `--threads` (0: one per CPU) when
/// there are several inputs, all regular files (a pipe, a terminal or
/// `/dev/stdin` named twice must be read in turn), else one.
fn workers(args: &MergeArgs, inputs: &[PathBuf]) -> usize {
    let regular =
        |p: &PathBuf| p != Path::new("-") && std::fs::metadata(p).is_ok_and(|m| m.is_file());
    if inputs.len() < 2 || args.judge.threads == 1 || !inputs.iter().all(regular) {
        return 1;
    }
    match args.judge.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Reads and judges `path`; nothing is said (that is the taker's).
/// [`judge_file`] with every run in the `Judged` (a worker's file waits
/// for the files before it).
fn judge_whole(path: &Path, judge: &JudgeArgs, opts: &demux::Options) -> FileRead {
    let mut early = Vec::new();
    let read = judge_file(path, judge, opts, &mut |t| {
        early.extend(t);
        true
    });
    match read {
        FileRead::Judged { g, taken, counts } => FileRead::Judged {
            g,
            taken: early.into_iter().chain(taken).collect(),
            counts,
        },
        other => other,
    }
}

/// `release`: where the runs that end go as they are released (the
/// rest are in the `Judged`).
fn judge_file(
    path: &Path,
    judge: &JudgeArgs,
    opts: &demux::Options,
    release: &mut dyn FnMut(Option<Taken>) -> bool,
) -> FileRead {
    if crate::cancel::requested().is_some() {
        return FileRead::Stopped;
    }
    let mut g = Gathered::default();
    let source = path.display().to_string();
    let read = if path == Path::new("-") {
        gather(io::stdin(), &source, judge, opts, &mut g, release)
    } else {
        match open_input(path) {
            Ok(f) => gather(f, &source, judge, opts, &mut g, release),
            Err(msg) => return FileRead::Unreadable(msg),
        }
    };
    let Some(read) = read.filter(|_| crate::cancel::requested().is_none()) else {
        return FileRead::Stopped;
    };
    let (streams, counts) = read.finish(Vec::new());
    for st in streams {
        let t = g.reduce(&source, st);
        g.pending.push(t.order, t);
    }
    let taken = g.pending.rest().collect();
    FileRead::Judged {
        g: Box::new(g),
        taken,
        counts,
    }
}
