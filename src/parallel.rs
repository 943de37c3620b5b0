//! Two cores on one input: a worker thread reads and prepares lines, the
//! caller's thread judges them.
//!
//! Validating a line ([`crate::peek::Peeker::peek`]) depends on the line
//! alone; judging it depends on every line before it. So a large input is
//! read as a pipeline: the worker reads blocks of whole lines with the ordinary
//! [`LineReader`] and does each line's independent work (a `Prep`: the
//! peek for `check`, `strip`, `summary` and `filter`; the log reader's
//! search for the event and its peek for `errors` and `merge-report`,
//! [`crate::demux`]) into a slot of its own, and sends the block with its
//! slots to the caller, which judges each line with its slot's result (a
//! swap of boxes, nothing copied): the same judges, fed the same lines in
//! the same order, with the same findings, so the verdict, the relay and
//! every report are identical to the one-thread path (the tests compare
//! them byte for byte). The blocks and their slots are recycled, so memory
//! stays a few blocks whatever the input's size.
//!
//! By default ([`threads_for`]) a regular file is read this way when it is
//! large, and a pipe once it has carried [`AUTO_MIN_BYTES`] ([`Later`]):
//! most streams are small, and a thread would not pay for itself.

use std::fs::File;
use std::io::{self, Read};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{
    Receiver, Sender, SyncSender, TryRecvError, TrySendError, channel, sync_channel,
};

use crate::lines::{Chunk, LineReader, split_lines};

/// Bytes of whole lines per block handed from the worker to the consumer.
const BLOCK: usize = 128 * 1024;

/// Largest piece of an over-long line handed over at once (one read of
/// the line reader): smaller pieces cost a handoff each.
const LONG_PIECE: usize = 1024 * 1024;

/// Capacity of a batch's buffer kept when the batch is reused; a larger
/// one (a long line's copy) is freed. At least the line reader's buffer,
/// which batches take over and give back ([`LineReader::trade`]): a
/// traded buffer freed at each reuse would cost an allocation and its
/// zeroing per block.
const KEEP_BYTES: usize = 2 * BLOCK;
const _: () = assert!(crate::lines::BLOCK <= KEEP_BYTES);

/// Lines the worker prepares per block at most (each holds a slot): a
/// block of very short lines leaves the rest to the consumer, so memory
/// stays bounded.
const MAX_SLOTS: usize = 1024;

/// Average line length above which an input is read on one thread (see
/// [`threads_for`]).
const LONG_AVERAGE: usize = 2048;

/// A batch bigger than this holds a long line (under the limit): the worker
/// waits for the consumer to finish with it before reading on, so the copy
/// exists once.
const BIG: usize = 8 * BLOCK;

/// Files at least this large use two threads when two CPUs are there; a
/// pipe decides after this many bytes ([`Later`]).
pub const AUTO_MIN_BYTES: u64 = 8 * 1024 * 1024;

/// The work on a line that depends on the line alone, done on the reading
/// thread.
pub(crate) trait Prep: Sync {
    /// What the work leaves for the consumer; reused from line to line.
    type Slot: Default + Send;
    /// Whether this line is prepared (the others reach the consumer bare).
    fn wants(&self, line: &[u8], terminated: bool) -> bool;
    /// Prepares `line` into `slot`; `utf8_checked`: the line's UTF-8 was
    /// checked with its block ([`crate::lines::utf8_prefix`]).
    fn prep(&self, slot: &mut Self::Slot, line: &[u8], utf8_checked: bool);
    /// Gives back memory an unusual line left in `slot` (see
    /// [`crate::peek::Peeker::trim`]).
    fn trim(slot: &mut Self::Slot);
    /// Whether `slot` holds memory that [`Prep::trim`] would give back.
    fn wants_trim(slot: &Self::Slot) -> bool;
    /// Hints that `slot`, filled on the worker's core, is read soon on the
    /// consumer's: with `near` (two slots ahead of the line being taken),
    /// the memory its peek points to; else (four ahead), its peeker (see
    /// [`crate::peek::Peeker::prefetch`]). Nothing by default.
    #[inline(always)]
    fn prefetch(_slot: &Self::Slot, _near: bool) {}
}

/// A block of whole lines and, for the lines the worker prepared (those
/// before `limit` that the [`Prep`] wants), in order, their slots. Slots
/// are reused, with their buffers, when the batch comes back.
struct Batch<S> {
    /// Holds the block at `range`: a buffer the line reader gave away
    /// ([`LineReader::trade`]) or lines copied in.
    bytes: Vec<u8>,
    range: std::ops::Range<usize>,
    slots: Vec<S>,
    /// Slots filled for this block.
    used: usize,
    /// Lines starting before this offset were prepared by the worker; the
    /// consumer prepares the rest itself (see [`Share`]).
    limit: usize,
    /// Where each line the worker walked (those before `limit`) ends, as
    /// offsets in the block's bytes: the consumer takes them rather than
    /// finding the line feeds again.
    ends: Vec<usize>,
    /// A slot holds memory to give back ([`Prep::wants_trim`]).
    fat: bool,
}

impl<S> Default for Batch<S> {
    fn default() -> Self {
        Batch {
            bytes: Vec::new(),
            range: 0..0,
            slots: Vec::new(),
            used: 0,
            limit: 0,
            ends: Vec::new(),
            fat: false,
        }
    }
}

impl<S> Batch<S> {
    /// The block's bytes.
    fn data(&self) -> &[u8] {
        self.bytes.get(self.range.clone()).unwrap_or_default()
    }
}

impl<S: Default> Batch<S> {
    /// Empties the batch for reuse, giving back what a very long line or
    /// very wide objects left in it: every slot, once one holds such memory
    /// (noted when the worker fills a slot, [`Batch::prep`], and after the
    /// consumer uses one, [`Lines::each`]), not only the ones the next
    /// block will reach, so memory stays bounded by a few blocks whatever
    /// the input.
    fn clear<P: Prep<Slot = S>>(&mut self) {
        // The buffer keeps its length: the line reader gets it back as it
        // was (see `LineReader::trade`), with no bytes to zero again.
        self.range = 0..0;
        if self.bytes.capacity() > KEEP_BYTES {
            // A new vector: a shrunk one keeps its memory (see `Peeker::trim`).
            self.bytes = Vec::with_capacity(BLOCK);
        }
        if std::mem::take(&mut self.fat) {
            for s in &mut self.slots {
                P::trim(s);
            }
        }
        self.used = 0;
        self.limit = 0;
        self.ends.clear();
    }

    /// Appends `block` to the batch's bytes (copied).
    fn append(&mut self, block: &[u8]) {
        if self.range.is_empty() {
            self.range = 0..0;
        }
        self.bytes.truncate(self.range.end);
        self.bytes.extend_from_slice(block);
        self.range.end = self.bytes.len();
    }

    /// Prepares `line` into the batch's next slot.
    fn prep<P: Prep<Slot = S>>(&mut self, prep: &P, line: &[u8], utf8_checked: bool) {
        if self.used == self.slots.len() {
            self.slots.push(S::default());
        }
        if let Some(s) = self.slots.get_mut(self.used) {
            prep.prep(s, line, utf8_checked);
            self.fat |= P::wants_trim(s);
            self.used += 1;
        }
    }
}

/// A block of whole lines as the consumer gets it.
pub(crate) struct Lines<'a, S> {
    batch: &'a mut Batch<S>,
}

impl<S> Lines<'_, S> {
    /// The block's bytes (whole lines, the last one perhaps cut at the end
    /// of the input).
    pub fn bytes(&self) -> &[u8] {
        self.batch.data()
    }

    /// Calls `f` on each line in order with whether it ends in a line feed,
    /// if the worker prepared it, its slot, and if not, whether its UTF-8
    /// is known to be valid ([`crate::lines::utf8_prefix`], checked here
    /// over the lines the worker left).
    pub fn each<P: Prep<Slot = S>, E>(
        &mut self,
        prep: &P,
        mut f: impl FnMut(&[u8], bool, Option<&mut S>, bool) -> Result<(), E>,
    ) -> Result<(), E> {
        let Batch {
            bytes,
            range,
            slots,
            used,
            limit,
            ends,
            fat,
        } = &mut *self.batch;
        let bytes = bytes.get(range.clone()).unwrap_or_default();
        let slots = slots.get_mut(..*used).unwrap_or_default();
        let mut next_slot = 0;
        let mut at = 0;
        // End of the bytes known to be UTF-8, once the worker's share ends.
        let mut checked: Option<usize> = None;
        for (line, terminated) in walked_then_split(bytes, ends) {
            let mut slot = if at < *limit && prep.wants(line, terminated) {
                // What the consumer reads of a slot was written on the
                // worker's core: ask for it ahead of time.
                if let Some(s) = slots.get(next_slot + 2) {
                    P::prefetch(s, true);
                }
                if let Some(s) = slots.get(next_slot + 4) {
                    P::prefetch(s, false);
                }
                next_slot += 1;
                slots.get_mut(next_slot - 1)
            } else {
                None
            };
            let end = at + line.len();
            let utf8 = slot.is_none() && {
                let upto = *checked.get_or_insert_with(|| {
                    at + bytes.get(at..).map_or(0, crate::lines::utf8_prefix)
                });
                end <= upto
            };
            at = end + 1;
            f(line, terminated, slot.as_deref_mut(), utf8)?;
            // What the consumer did with the slot may have grown it too.
            if let Some(s) = slot {
                *fat |= P::wants_trim(s);
            }
        }
        Ok(())
    }
}

/// The lines of `bytes` as [`split_lines`] gives them: first those whose
/// `ends` the worker recorded (a prefix of the lines), then the rest,
/// found here.
fn walked_then_split<'b>(
    bytes: &'b [u8],
    ends: &'b [usize],
) -> impl Iterator<Item = (&'b [u8], bool)> + 'b {
    let rest = ends.last().map_or(0, |&e| (e + 1).min(bytes.len()));
    let walked = ends.iter().scan(0, move |start, &end| {
        let line = bytes.get(*start..end).unwrap_or_default();
        *start = end + 1;
        // Only the input's last line ends without a line feed, at the end
        // of the bytes.
        Some((line, end < bytes.len()))
    });
    walked.chain(split_lines(bytes.get(rest..).unwrap_or_default()))
}

/// What the consumer is given, in input order.
pub(crate) enum Piece<'a, S> {
    /// Whole lines.
    Lines(Lines<'a, S>),
    /// A piece of a line over the limit (never prepared), as
    /// [`Chunk::LongPart`]: its bytes and whether it ends the line.
    Long(&'a [u8], bool),
    /// The read failed (or was stopped, [`crate::cancel`]); nothing follows.
    Failed(io::Error),
}

/// How [`drive`] ended.
pub(crate) enum Driven<R, E> {
    /// The input was read to its end (or the consumer stopped it).
    Done(Result<(), E>),
    /// No thread could be started (a process or memory limit): here is the
    /// reader back, untouched, to be read on one thread.
    NotStarted(LineReader<R>),
}

/// How much of each block the worker prepares (bytes from its start), so
/// that neither thread waits for the other: preparing is most of the work on
/// short domain events, judging weighs more on framework events. The
/// worker takes more when the judge is behind (the queue is full when it
/// sends), less when the judge waits for it (the queue is empty).
///
/// `AOI_PARALLEL_SHARE=BYTES` in the environment fixes the share instead:
/// the tests use it to hold both paths (lines prepared by the worker, lines
/// prepared by the consumer) to the one-thread result.
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
enum Msg<S> {
    Lines(Batch<S>),
    /// A piece of a line over the limit (never prepared), as
    /// [`Chunk::LongPart`], in a batch's bytes (recycled like the others).
    Long(Batch<S>, bool),
    /// The read failed (or was stopped, [`crate::cancel`]); nothing follows.
    Failed(io::Error),
}

/// How a stream is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threads {
    /// On the caller's thread.
    One,
    /// On two threads from the start (a worker reads and prepares lines).
    Two {
        /// Lines wait for a whole block (a regular file) rather than going
        /// on as each read brings them (a pipe).
        whole_blocks: bool,
    },
    /// On one thread, then on two once [`Later`] says the stream is large
    /// and of short lines (a pipe: its size is not known in advance).
    Later,
}

/// How `file` is to be read: `threads` is the `--threads` setting (0
/// automatic, 1 one thread, 2 or more two).
pub fn threads_for(file: &File, threads: usize) -> Threads {
    let Ok(meta) = file.metadata() else {
        return Threads::One;
    };
    let regular = meta.is_file();
    let two = Threads::Two {
        whole_blocks: regular,
    };
    match threads {
        1 => Threads::One,
        // Asked for: two threads on any input.
        2.. => two,
        // Automatic: only with a second CPU to run on.
        _ if !std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2) => Threads::One,
        // A regular file: its size and a sample of its lines decide now.
        _ if regular => {
            if meta.len() >= AUTO_MIN_BYTES && !long_lines(file) {
                two
            } else {
                Threads::One
            }
        }
        // A pipe (a FIFO, a socket, a terminal): most streams are small,
        // and a thread would not pay; the first [`AUTO_MIN_BYTES`] decide.
        // The worker waits in `poll`, so a silent producer delays neither
        // a stop request nor the exit on a closed stdout ([`drive`]).
        _ => Threads::Later,
    }
}

/// The decision of [`Threads::Later`]: after [`AUTO_MIN_BYTES`] of whole
/// lines read on one thread, two threads if the lines average at most
/// 2 KiB (as for a file), else one to the end.
#[derive(Debug, Default)]
pub struct Later {
    bytes: u64,
    lines: u64,
}

impl Later {
    /// Counts a block of whole lines just read: `Some(true)` to go on two
    /// threads from here, `Some(false)` to stay on one (ask no more),
    /// `None` not decided yet.
    pub fn after(&mut self, block: &[u8]) -> Option<bool> {
        self.bytes += block.len() as u64;
        self.lines += memchr::memchr_iter(b'\n', block).count() as u64;
        (self.bytes >= AUTO_MIN_BYTES)
            .then(|| self.bytes / self.lines.max(1) <= LONG_AVERAGE as u64)
    }

    /// [`Later::after`] for a reader on one thread that may still switch
    /// (`slot` holds the count until the decision): true to go on two
    /// threads from here; a decision to stay on one empties `slot`.
    pub(crate) fn due(slot: &mut Option<Later>, block: &[u8]) -> bool {
        match slot.as_mut().and_then(|l| l.after(block)) {
            Some(true) => true,
            Some(false) => {
                *slot = None;
                false
            }
            None => false,
        }
    }
}

/// What a reader on the caller's thread gives, step by step ([`read_here`]).
pub(crate) enum Step<'a> {
    /// A line of a block (`terminated`, `utf8_checked`).
    Line(&'a [u8], bool, bool),
    /// The block whose lines were just given.
    Block(&'a [u8]),
    /// A piece of a line longer than the reader holds; true on its last.
    Long(&'a [u8], bool),
    /// The read failed: the stream ends here.
    Failed(io::Error),
}

/// Reads on the caller's thread, giving each [`Step`] to `each`, to the
/// end of the input (or its failure), or, with `later`, until it says to
/// go on two threads: then true, with the reader at a line boundary. The
/// loop the judge's driver and the log reader share.
#[inline]
pub(crate) fn read_here<R: Read, E>(
    reader: &mut LineReader<R>,
    mut later: Option<Later>,
    mut each: impl FnMut(Step<'_>) -> Result<(), E>,
) -> Result<bool, E> {
    loop {
        match reader.next_chunk() {
            Ok(None) => return Ok(false),
            Ok(Some(Chunk::Lines(block))) => {
                for (line, terminated, utf8_checked) in crate::lines::split_lines_checked(block) {
                    each(Step::Line(line, terminated, utf8_checked))?;
                }
                each(Step::Block(block))?;
                if Later::due(&mut later, block) {
                    return Ok(true);
                }
            }
            Ok(Some(Chunk::LongPart { bytes, end })) => each(Step::Long(bytes, end))?,
            Err(e) => {
                each(Step::Failed(e))?;
                return Ok(false);
            }
        }
    }
}

/// Whether the file's lines, sampled where reading will start, average
/// more than [`LONG_AVERAGE`] bytes. Such lines validate at several GB/s on
/// one thread already, and the handoff (a few lines per block) would cost
/// more than the second core brings (100 MB of 4-64 KiB lines: 7.6 GB/s
/// on one thread, 4.4 on two when every block was copied; still 1.2x
/// slower on two with blocks handed over without a copy).
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

/// Reads `reader` on a worker thread that prepares lines with `prep`,
/// handing every block, in order, to `take` on the caller's thread. With
/// `whole_blocks` false (a pipe), lines go on as each read brings them (a
/// live producer must see its lines relayed at once); else they wait for a
/// whole block.
///
/// A pipe may stay silent: the worker then waits in `poll` rather than in
/// `read`, also on a pipe of its own that the caller's side closes when it
/// stops taking lines (a closed stdout, an error), and on the stop request
/// ([`crate::cancel::wake_fd`]), so neither waits for the producer's next
/// write. Without that (the reader's descriptor unknown, no pipe to be
/// had), a pipe is read on one thread ([`Driven::NotStarted`]).
pub(crate) fn drive<R, P, E>(
    mut reader: LineReader<R>,
    whole_blocks: bool,
    prep: &P,
    take: impl FnMut(Piece<'_, P::Slot>) -> Result<(), E>,
) -> Driven<R, E>
where
    R: Read + Send,
    P: Prep,
{
    use std::os::fd::AsRawFd;
    // The stop pipe: the worker polls its read end, which outlives the
    // worker; the caller's side drops (closes) the write end when it stops.
    let (mut stop_r, mut stop_w) = (None, None);
    if !whole_blocks {
        match crate::cancel::pipe(false) {
            Ok((r, w)) if reader.knows_fd() => {
                reader.stop_when(Some(r.as_raw_fd()));
                (stop_r, stop_w) = (Some(r), Some(w));
            }
            _ => return Driven::NotStarted(reader),
        }
    }
    let (tx, rx) = sync_channel::<Msg<P::Slot>>(1);
    let (back_tx, back_rx) = channel::<Batch<P::Slot>>();
    let share = Share::new();
    let share = &share;
    // Taken by the worker when it starts; still here if it never does.
    let cell = Mutex::new(Some(reader));
    let cell = &cell;
    std::thread::scope(|scope| {
        let started = std::thread::Builder::new()
            .name("aoi-read".into())
            .spawn_scoped(scope, move || {
                let reader = cell.lock().ok().and_then(|mut r| r.take());
                if let Some(reader) = reader {
                    worker(reader, prep, whole_blocks, &tx, &back_rx, share);
                }
            });
        match started {
            // Returning drops `rx`: a worker still sending stops.
            // `consume` owns both ends it holds: when it returns, a worker
            // waiting on either stops.
            // Closing the stop pipe wakes a worker waiting on a silent
            // input; the scope then joins it.
            // Owned here, so that a panic in `take` closes it too while
            // unwinding, before the scope joins the worker.
            Ok(_) => {
                let stop_w = stop_w.take();
                let done = consume(rx, back_tx, share, take);
                drop(stop_w);
                Driven::Done(done)
            }
            Err(_) => match cell.lock().ok().and_then(|mut r| r.take()) {
                Some(mut reader) => {
                    reader.stop_when(None);
                    drop(stop_r.take());
                    Driven::NotStarted(reader)
                }
                // Unreachable: a thread that never started took nothing.
                None => Driven::Done(Ok(())),
            },
        }
    })
}

/// Sends `msg`; false when the consumer is gone. A full queue means the
/// consumer is behind: the worker takes a larger share.
fn send<S>(tx: &SyncSender<Msg<S>>, msg: Msg<S>, share: &Share) -> bool {
    match tx.try_send(msg) {
        Ok(()) => true,
        Err(TrySendError::Full(mut msg)) => {
            share.more();
            for _ in 0..TRIES {
                std::thread::yield_now();
                match tx.try_send(msg) {
                    Ok(()) => return true,
                    Err(TrySendError::Full(m)) => msg = m,
                    Err(TrySendError::Disconnected(_)) => return false,
                }
            }
            tx.send(msg).is_ok()
        }
        Err(TrySendError::Disconnected(_)) => false,
    }
}

/// How many times a thread tries the queue again, yielding the CPU
/// between tries, before it sleeps on it: the other thread is usually a
/// moment from sending or taking, and a sleeper wakes late (a futex wake
/// and, on a virtual machine, a halted vCPU's wake-up cost more than such
/// a wait). Yielding, not spinning, leaves the CPU to other work on a
/// busy machine.
const TRIES: usize = 64;

/// The next message, tried [`TRIES`] times before sleeping on the queue;
/// `None` once the worker is done and gone.
fn recv_soon<T>(rx: &Receiver<T>) -> Option<T> {
    for _ in 0..TRIES {
        std::thread::yield_now();
        match rx.try_recv() {
            Ok(msg) => return Some(msg),
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) => {}
        }
    }
    rx.recv().ok()
}

/// Waits until every batch sent so far has come back (the consumer is done
/// with them), clearing them, which frees a long line's copy; keeps one for
/// reuse as `batch` if it is empty. False when the consumer is gone.
fn wait_back<P: Prep>(back: &Receiver<Batch<P::Slot>>, batch: &mut Batch<P::Slot>) -> bool {
    loop {
        match back.recv() {
            Ok(mut b) => {
                let was_big = b.range.len() > BIG;
                b.clear::<P>();
                if batch.range.is_empty() && batch.used == 0 {
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

fn worker<R: Read, P: Prep>(
    mut reader: LineReader<R>,
    prep: &P,
    whole_blocks: bool,
    tx: &SyncSender<Msg<P::Slot>>,
    back: &Receiver<Batch<P::Slot>>,
    share: &Share,
) {
    let mut batch = Batch {
        limit: share.get(),
        ..Batch::default()
    };
    let fresh = |back: &Receiver<Batch<P::Slot>>| {
        let mut b = back.try_recv().unwrap_or_default();
        b.clear::<P>();
        b.limit = share.get();
        b
    };
    loop {
        match reader.next_chunk() {
            Ok(None) => break,
            Ok(Some(Chunk::Lines(block))) => {
                let mut at = batch.range.len();
                // Checked up to here (an offset in the batch's bytes, as `at`):
                // only the lines this worker prepares, those starting before
                // `limit` (the consumer checks the rest, `Lines::each`).
                let mine = match batch.limit.checked_sub(at) {
                    Some(n) if n > 0 => block
                        .get(n..)
                        .and_then(|rest| memchr::memchr(b'\n', rest))
                        .map_or(block, |nl| block.get(..n + nl).unwrap_or(block)),
                    _ => &[][..],
                };
                let checked = at + crate::lines::utf8_prefix(mine);
                for (line, terminated) in split_lines(block) {
                    if at >= batch.limit {
                        break;
                    }
                    if batch.used >= MAX_SLOTS {
                        // The consumer prepares from here on (see `Lines::each`).
                        batch.limit = at;
                        break;
                    }
                    if prep.wants(line, terminated) {
                        batch.prep(prep, line, at + line.len() <= checked);
                    }
                    at += line.len();
                    batch.ends.push(at);
                    at += 1;
                }
                let len = block.len();
                let whole = len >= BLOCK || !whole_blocks;
                // A block that makes a batch on its own is handed over in
                // the reader's buffer, which the reader trades for the
                // batch's: no copy.
                let traded = if batch.range.is_empty() && whole {
                    reader.trade(&mut batch.bytes, len)
                } else {
                    None
                };
                match traded {
                    Some(range) => batch.range = range,
                    None => batch.append(reader.handed_out(len)),
                }
                if batch.range.len() >= BLOCK || !whole_blocks {
                    let big = batch.range.len() > BIG;
                    let full = std::mem::replace(&mut batch, fresh(back));
                    if !send(tx, Msg::Lines(full), share) {
                        return;
                    }
                    // A copy of a long line (under the limit) is alive
                    // once: wait until the consumer is done with it, and
                    // free it, before reading on.
                    if big && !wait_back::<P>(back, &mut batch) {
                        return;
                    }
                }
            }
            Ok(Some(Chunk::LongPart { bytes, end })) => {
                if !batch.range.is_empty() {
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
                    piece.append(part);
                    let last = end && parts.peek().is_none();
                    if !send(tx, Msg::Long(piece, last), share) {
                        return;
                    }
                }
            }
            Err(e) => {
                if !batch.range.is_empty() {
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
    if !batch.range.is_empty() {
        let _ = tx.send(Msg::Lines(batch));
    }
}

fn consume<S, E>(
    rx: Receiver<Msg<S>>,
    back: Sender<Batch<S>>,
    share: &Share,
    mut take: impl FnMut(Piece<'_, S>) -> Result<(), E>,
) -> Result<(), E> {
    loop {
        // An empty queue means the worker is behind: it takes a smaller
        // share. `recv` fails once the worker is done and gone: the end of
        // the input.
        let msg = match rx.try_recv() {
            Ok(msg) => msg,
            Err(TryRecvError::Empty) => {
                share.less();
                match recv_soon(&rx) {
                    Some(msg) => msg,
                    None => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        match msg {
            Msg::Lines(mut batch) => {
                take(Piece::Lines(Lines { batch: &mut batch }))?;
                let _ = back.send(batch);
            }
            Msg::Long(piece, end) => {
                take(Piece::Long(piece.data(), end))?;
                let _ = back.send(piece);
            }
            Msg::Failed(e) => {
                take(Piece::Failed(e))?;
                break;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lines of random lengths (some empty), perhaps without a last line
    /// feed.
    fn lines_of(lens: &[usize], tail: bool) -> Vec<u8> {
        let mut v = Vec::new();
        for (i, &n) in lens.iter().enumerate() {
            v.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, n));
            v.push(b'\n');
        }
        if tail {
            v.extend_from_slice(b"{\"x\":1}");
        }
        v
    }

    /// A reader giving at most `step` bytes a read, so that a batch
    /// gathers several blocks.
    struct Trickle(std::io::Cursor<Vec<u8>>, usize);
    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.1);
            self.0.read(buf.get_mut(..n).unwrap_or_default())
        }
    }

    /// Prepares nothing; counts the lines it is asked to prepare.
    struct Count;
    impl Prep for Count {
        type Slot = usize;
        fn wants(&self, _: &[u8], terminated: bool) -> bool {
            terminated
        }
        fn prep(&self, slot: &mut usize, line: &[u8], _: bool) {
            *slot = line.len() + 1;
        }
        fn trim(_: &mut usize) {}
        fn wants_trim(_: &usize) -> bool {
            false
        }
    }

    proptest! {
        /// The consumer's lines, from the worker's recorded ends and then
        /// its own search, are [`split_lines`]'s, wherever the ends stop.
        #[test]
        fn walked_ends_then_split_give_the_same_lines(
            lens in prop::collection::vec(0usize..40, 0..60),
            tail in any::<bool>(),
            cut in 0usize..70,
        ) {
            let bytes = lines_of(&lens, tail);
            let all: Vec<_> = split_lines(&bytes).collect();
            let mut ends = Vec::new();
            let mut at = 0;
            for (line, _) in all.iter().take(cut) {
                at += line.len();
                ends.push(at);
                at += 1;
            }
            let got: Vec<_> = walked_then_split(&bytes, &ends).collect();
            prop_assert_eq!(got, all);
        }

        /// Through the worker and back, every line comes once, in order,
        /// with its slot when the worker prepared it (a slot holds its
        /// line's length), however the reads cut the input.
        #[test]
        fn the_consumer_sees_every_line_in_order(
            lens in prop::collection::vec(0usize..3000, 0..400),
            tail in any::<bool>(),
            step in 1usize..70_000,
        ) {
            let bytes = lines_of(&lens, tail);
            let want: Vec<_> = split_lines(&bytes).map(|(l, t)| (l.to_vec(), t)).collect();
            let reader = LineReader::new(Trickle(std::io::Cursor::new(bytes.clone()), step), 1 << 20);
            let mut got = Vec::new();
            let driven = drive(reader, true, &Count, |piece| {
                if let Piece::Lines(mut lines) = piece {
                    lines.each(&Count, |line, terminated, slot, _| {
                        if let Some(&mut n) = slot {
                            assert_eq!(n, line.len() + 1);
                        }
                        got.push((line.to_vec(), terminated));
                        Ok::<(), ()>(())
                    })?;
                }
                Ok::<(), ()>(())
            });
            prop_assert!(matches!(driven, Driven::Done(Ok(()))));
            prop_assert_eq!(got, want);
        }
    }
}
