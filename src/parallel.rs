//! Two cores on one file: a worker thread reads and validates, the caller's
//! thread judges.
//!
//! Validating a line ([`Peeker::peek`]) depends on the line alone; judging
//! it ([`Judge`]) depends on every line before it. So a large regular file
//! is read as a pipeline: the worker reads blocks of whole lines with the
//! ordinary [`LineReader`], peeks every line the judge would peek, each
//! into a [`Peeker`] of its own, and sends the block with its peekers to
//! the caller, which hands each to [`Judge::line_prepeeked`] (a swap of
//! boxes, nothing copied): the same judge, fed the same
//! lines in the same order, with the same findings, so the verdict, the
//! relay and every report are identical to the one-thread path (the tests
//! compare them byte for byte). The blocks and their results are recycled,
//! so memory stays a few blocks whatever the file's size.
//!
//! Input that is no regular file (a pipe, a terminal, a FIFO) is read on
//! one thread: its producer is on the other core, and the handoff would
//! cost more than it brings.

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{
    Receiver, Sender, SyncSender, TryRecvError, TrySendError, channel, sync_channel,
};

use crate::judge::Judge;
use crate::lines::{Chunk, LineReader, split_lines};
use crate::peek::{JsonError, Peeker};

/// Bytes of whole lines per block handed from the worker to the judge.
const BLOCK: usize = 128 * 1024;

/// Largest piece of an over-long line handed over at once (one read of
/// the line reader): smaller pieces cost a handoff each.
const LONG_PIECE: usize = 1024 * 1024;

/// Lines the worker peeks per block at most (each holds a [`Peeker`]): a
/// block of very short lines leaves the rest to the judge, so memory
/// stays bounded.
const MAX_PEEKS: usize = 1024;

/// Average line length above which a file is read on one thread (see
/// [`wanted`]).
const LONG_AVERAGE: usize = 2048;

/// A batch bigger than this holds a long line (under the limit): the worker
/// waits for the judge to finish with it before reading on, so the copy
/// exists once.
const BIG: usize = 8 * BLOCK;

/// Files at least this large use two threads when two CPUs are there.
pub const AUTO_MIN_BYTES: u64 = 8 * 1024 * 1024;

/// A block of whole lines, and for each line the judge peeks (terminated
/// and within the line limit), in order, a [`Peeker`] holding its peek and
/// the result. The peekers are handed to the judge by swapping boxes, and
/// reused, with their buffers, when the batch comes back.
#[derive(Default)]
#[allow(clippy::vec_box)] // boxes, so the judge can take one by a swap
struct Batch {
    bytes: Vec<u8>,
    peekers: Vec<Box<Peeker>>,
    results: Vec<Result<(), JsonError>>,
    /// Lines starting before this offset were peeked by the worker; the
    /// judge peeks the rest itself (see [`Share`]).
    limit: usize,
}

impl Batch {
    /// Empties the batch for reuse, giving back what a very long line or
    /// very wide objects left in it: every peeker is trimmed, not only the
    /// ones the next block will reach, so memory stays bounded by a few
    /// blocks whatever the input.
    fn clear(&mut self) {
        self.bytes.clear();
        if self.bytes.capacity() > 2 * BLOCK {
            // A new vector: a shrunk one keeps its memory (see `Peeker::trim`).
            self.bytes = Vec::with_capacity(BLOCK);
        }
        for p in &mut self.peekers {
            p.trim();
        }
        self.results.clear();
        self.limit = 0;
    }

    /// Peeks `line` into the batch's next peeker.
    fn peek(&mut self, line: &[u8]) {
        let k = self.results.len();
        if k == self.peekers.len() {
            self.peekers.push(Box::new(Peeker::new()));
        }
        if let Some(p) = self.peekers.get_mut(k) {
            let r = p.peek(line);
            self.results.push(r);
        }
    }
}

/// How much of each block the worker peeks (bytes from its start), so
/// that neither thread waits for the other: peeking is most of the work on
/// short domain events, judging weighs more on framework events. The
/// worker takes more when the judge is behind (the queue is full when it
/// sends), less when the judge waits for it (the queue is empty).
///
/// `AOI_PARALLEL_SHARE=BYTES` in the environment fixes the share instead:
/// the tests use it to hold both paths (lines peeked by the worker, lines
/// peeked by the judge) to the one-thread result.
struct Share {
    bytes: AtomicUsize,
    fixed: bool,
}

impl Share {
    const STEP: usize = BLOCK / 32;

    fn new() -> Self {
        let fixed = std::env::var("AOI_PARALLEL_SHARE")
            .ok()
            .and_then(|v| v.parse::<usize>().ok());
        Share {
            bytes: AtomicUsize::new(fixed.unwrap_or(2 * BLOCK)),
            fixed: fixed.is_some(),
        }
    }

    fn get(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    fn more(&self) {
        if !self.fixed {
            let v = self.get();
            self.bytes
                .store((v + Self::STEP).min(2 * BLOCK), Ordering::Relaxed);
        }
    }

    fn less(&self) {
        if !self.fixed {
            let v = self.get();
            self.bytes
                .store(v.saturating_sub(Self::STEP), Ordering::Relaxed);
        }
    }
}

/// What the worker sends, in input order.
enum Msg {
    Lines(Batch),
    /// A piece of a line over the limit (never peeked), as
    /// [`Chunk::LongPart`], in a batch's bytes (recycled like the others).
    Long(Batch, bool),
    /// The read failed (or was stopped, [`crate::cancel`]); nothing follows.
    Failed(io::Error),
}

/// Whether the judge peeks this line (see `Judge::begin_line`).
#[inline(always)]
fn peeked(line: &[u8], terminated: bool, max_line: usize) -> bool {
    terminated && line.len() <= max_line
}

/// Whether `file` should be read by [`drive_file`]: `threads` is the
/// `--threads` setting (0 automatic, 1 one thread, 2 or more two).
pub fn wanted(file: &File, threads: usize) -> bool {
    let Ok(meta) = file.metadata() else {
        return false;
    };
    // Asked for: two threads on any input (a pipe from a fast producer
    // gains too, but the producer may need the second core: not by default).
    if threads >= 2 {
        return true;
    }
    if !meta.is_file() {
        return false;
    }
    match threads {
        1 => false,
        0 => {
            meta.len() >= AUTO_MIN_BYTES
                && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
                && !long_lines(file)
        }
        _ => true,
    }
}

/// Whether the file's lines, sampled where reading will start, average
/// more than [`LONG_AVERAGE`] bytes. Such lines validate at several GB/s on
/// one thread already, and the handoff (a copy of every byte, a few lines
/// per block) would cost more than the second core brings (100 MB of 4-64
/// KiB lines: 7.6 GB/s on one thread, 4.4 on two).
fn long_lines(file: &File) -> bool {
    use std::io::Seek;
    use std::os::unix::fs::FileExt;
    const SAMPLE: usize = 256 * 1024;
    // Where the next read starts (stdin may have been read from already).
    let mut f = file;
    let Ok(at) = f.stream_position() else {
        return false;
    };
    let mut buf = vec![0u8; SAMPLE];
    let Ok(n) = file.read_at(&mut buf, at) else {
        return false;
    };
    let sample = buf.get(..n).unwrap_or_default();
    let lines = memchr::memchr_iter(b'\n', sample).count();
    n / lines.max(1) > LONG_AVERAGE
}

/// [`crate::judge::drive_reader`] over a file, on two threads: the same
/// calls of `on_line` and `on_bytes` after the same judge calls, with
/// `on_bytes` given whole blocks of lines.
pub fn drive_file<E>(
    file: File,
    max_line: usize,
    judge: &mut Judge,
    on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let (tx, rx) = sync_channel::<Msg>(1);
    let (back_tx, back_rx) = channel::<Batch>();
    let share = Share::new();
    let share = &share;
    // A pipe's lines go on as they come (a live producer must see its
    // lines relayed at once); a file's wait for a whole block.
    let whole_blocks = file.metadata().is_ok_and(|m| m.is_file());
    // Kept to read on one thread if no thread can be started (a process
    // limit, a memory limit).
    let Ok(spare) = file.try_clone() else {
        let reader = LineReader::new(file, max_line);
        return crate::judge::drive_reader(reader, judge, on_line, on_bytes);
    };
    std::thread::scope(|scope| {
        let started = std::thread::Builder::new()
            .name("aoi-read".into())
            .spawn_scoped(scope, move || {
                worker(file, max_line, whole_blocks, &tx, &back_rx, share);
            });
        match started {
            // Returning drops `rx`: a worker still sending stops.
            // `consume` owns both ends it holds: when it returns, a worker
            // waiting on either stops.
            Ok(_) => consume(rx, back_tx, max_line, share, judge, on_line, on_bytes),
            Err(_) => {
                drop(rx);
                let reader = LineReader::new(spare, max_line);
                crate::judge::drive_reader(reader, judge, on_line, on_bytes)
            }
        }
    })
}

/// Sends `msg`; false when the judge is gone. A full queue means the judge
/// is behind: the worker takes a larger share.
fn send(tx: &SyncSender<Msg>, msg: Msg, share: &Share) -> bool {
    match tx.try_send(msg) {
        Ok(()) => true,
        Err(TrySendError::Full(msg)) => {
            share.more();
            tx.send(msg).is_ok()
        }
        Err(TrySendError::Disconnected(_)) => false,
    }
}

/// Waits until every batch sent so far has come back (the judge is done
/// with them), clearing them, which frees a long line's copy; keeps one for
/// reuse as `batch` if it is empty. False when the judge is gone.
fn wait_back(back: &Receiver<Batch>, batch: &mut Batch) -> bool {
    loop {
        match back.recv() {
            Ok(mut b) => {
                let was_big = b.bytes.len() > BIG;
                b.clear();
                if batch.bytes.is_empty() && batch.results.is_empty() {
                    let limit = batch.limit;
                    *batch = b;
                    batch.limit = limit;
                }
                if was_big {
                    return true;
                }
            }
            Err(_) => return false,
        }
    }
}

fn worker(
    file: File,
    max_line: usize,
    whole_blocks: bool,
    tx: &SyncSender<Msg>,
    back: &Receiver<Batch>,
    share: &Share,
) {
    let mut reader = LineReader::new(file, max_line);
    let mut batch = Batch {
        limit: share.get(),
        ..Batch::default()
    };
    let fresh = |back: &Receiver<Batch>| {
        let mut b = back.try_recv().unwrap_or_default();
        b.clear();
        b.limit = share.get();
        b
    };
    loop {
        match reader.next_chunk() {
            Ok(None) => break,
            Ok(Some(Chunk::Lines(block))) => {
                let mut at = batch.bytes.len();
                for (line, terminated) in split_lines(block) {
                    if at >= batch.limit {
                        break;
                    }
                    if batch.results.len() >= MAX_PEEKS {
                        // The judge peeks from here on (see `consume`).
                        batch.limit = at;
                        break;
                    }
                    if peeked(line, terminated, max_line) {
                        batch.peek(line);
                    }
                    at += line.len() + 1;
                }
                batch.bytes.extend_from_slice(block);
                if batch.bytes.len() >= BLOCK || !whole_blocks {
                    let big = batch.bytes.len() > BIG;
                    let full = std::mem::replace(&mut batch, fresh(back));
                    if !send(tx, Msg::Lines(full), share) {
                        return;
                    }
                    // A copy of a long line (under the limit) is alive
                    // once: wait until the judge is done with it, and
                    // free it, before reading on.
                    if big && !wait_back(back, &mut batch) {
                        return;
                    }
                }
            }
            Ok(Some(Chunk::LongPart { bytes, end })) => {
                if !batch.bytes.is_empty() {
                    let full = std::mem::replace(&mut batch, fresh(back));
                    if !send(tx, Msg::Lines(full), share) {
                        return;
                    }
                }
                // In pieces of at most a read: a batch never holds more
                // than that, whatever the line limit.
                let mut parts = bytes.chunks(LONG_PIECE).peekable();
                if parts.peek().is_none() && end {
                    // EOF right after a piece closes the line (no bytes).
                    if !send(tx, Msg::Long(fresh(back), true), share) {
                        return;
                    }
                }
                while let Some(part) = parts.next() {
                    let mut piece = fresh(back);
                    piece.bytes.extend_from_slice(part);
                    let last = end && parts.peek().is_none();
                    if !send(tx, Msg::Long(piece, last), share) {
                        return;
                    }
                }
            }
            Err(e) => {
                if !batch.bytes.is_empty() {
                    let full = std::mem::take(&mut batch);
                    if !send(tx, Msg::Lines(full), share) {
                        return;
                    }
                }
                let _ = tx.send(Msg::Failed(e));
                return;
            }
        }
    }
    if !batch.bytes.is_empty() {
        let _ = tx.send(Msg::Lines(batch));
    }
}

fn consume<E>(
    rx: Receiver<Msg>,
    back: Sender<Batch>,
    max_line: usize,
    share: &Share,
    judge: &mut Judge,
    mut on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    mut on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut long_total: u64 = 0;
    loop {
        // An empty queue means the worker is behind: it takes a smaller
        // share. `recv` fails once the worker is done and gone: the end of
        // the input.
        let msg = match rx.try_recv() {
            Ok(msg) => msg,
            Err(TryRecvError::Empty) => {
                share.less();
                match rx.recv() {
                    Ok(msg) => msg,
                    Err(_) => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        match msg {
            Msg::Lines(mut batch) => {
                let (mut k, mut at) = (0, 0);
                for (line, terminated) in split_lines(&batch.bytes) {
                    let pre = if at < batch.limit && peeked(line, terminated, max_line) {
                        k += 1;
                        batch.peekers.get_mut(k - 1).zip(batch.results.get(k - 1))
                    } else {
                        None
                    };
                    at += line.len() + 1;
                    match pre {
                        Some((p, &result)) => {
                            judge.line_prepeeked(line, p, result);
                            on_line(judge, line)?;
                            // The peeker goes back to its slot: boxes stay
                            // with their batch, where they are trimmed.
                            judge.swap_peeker(p);
                        }
                        None => {
                            judge.line(line, terminated);
                            on_line(judge, line)?;
                        }
                    }
                }
                on_bytes(judge, &batch.bytes)?;
                let _ = back.send(batch);
            }
            Msg::Long(piece, end) => {
                crate::judge::long_piece(judge, &mut long_total, &piece.bytes, end);
                on_bytes(judge, &piece.bytes)?;
                let _ = back.send(piece);
            }
            Msg::Failed(e) => {
                crate::judge::read_failed(judge, &e);
                break;
            }
        }
    }
    Ok(())
}
