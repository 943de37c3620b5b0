//! One big input filtered on every core. The judge reads the stream on a
//! thread of its own, exactly as one thread judges it, and hands the
//! events the filter runs on, in chunks of lines, to filter workers (jaq's
//! values stay on the thread that made them: each worker holds its own);
//! a worker records what it would write ([`Record`]) and this thread
//! replays the records in stream order into aoi's report, which numbers
//! the events. stdout, stderr and the exit are one thread's, byte for byte
//! (but for aoi's run id and times).
//!
//! This thread filters its share of the chunks itself, live, in their
//! turn; so is a chunk whose results or stderr outgrow a worker's room, as
//! one thread would have (a filter that never ends included: stderr past
//! the room hands the chunk back at once). After a halt nothing waits for
//! the workers any more: one thread never ran the filter on the events
//! after it, so their results are dropped and the upstream's errors in
//! them forwarded from the chunk itself; the run then ends with the
//! process ([`Split::end`]).

use crate::spec::exit::Code;
use std::collections::BTreeMap;
use std::io::Read;
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::thread::Scope;

use jaq_core::Vars;
use jaq_std::input::RcIter;

use super::framed::{Framed, Program, Seen, forward_of, framed_stream};
use super::jq_args::thread_globals;
use super::report::{Report, halted_in_report};
use super::sink::{Emit, Rec, Said};
use super::{BoxedInputs, STACK};
use crate::cli::FilterArgs;
use crate::drive::{Source, drive_source};
use crate::jq::{self, Data};
use crate::judge::{Finding, Judge, LineClass, Verdict};
use crate::out::{Record, Stop, cancelled};
use crate::parallel::Threads;
use crate::peek::{Envelope, Member, Peeker};

/// The event bytes a chunk gathers before it goes to a worker: small
/// enough that the chunks in flight stay within a few MiB (and below the
/// allocator's large sizes: 64 KiB chunks took 3 MiB more at the peak,
/// at the same speed), large enough that handing one over costs little
/// beside filtering it.
const CHUNK_BYTES: usize = 32 << 10;
/// What a worker may keep of one chunk's results and stderr: past it, the
/// chunk is filtered again here, live.
pub(super) const ROOM: usize = 1 << 20;

/// The filter workers of a run, started the first time an input is split.
pub(super) struct Split<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    program: &'env Program<'env>,
    /// Their queue, and how many took it.
    jobs: OnceLock<(mpsc::Sender<Job>, u64)>,
}

/// A chunk for a worker: where its results go, and the input it is of.
struct Job {
    chunk: Arc<Chunk>,
    source: Arc<str>,
    done: mpsc::Sender<(u64, Option<Record<Rec>>)>,
}

/// A worker's record of one chunk, what the filter wrote to stderr put in
/// where it wrote it.
type Recording = Said<Record<Rec>, Stop>;

/// Consecutive lines of one stream, as the filter takes them: the events
/// it runs on (their bytes in `text`, the members the judge's peek found
/// in `members`) and the upstream errors and warnings it forwards, in
/// stream order.
#[derive(Default)]
struct Chunk {
    k: u64,
    text: Vec<u8>,
    members: Vec<Member>,
    items: Vec<Item>,
}

enum Item {
    Filter(Event),
    Forward(&'static str, Vec<u8>),
}

/// An event the filter runs on: its bytes in the chunk's text, what the
/// judge said of its line, and what its peek found there.
struct Event {
    start: usize,
    end: usize,
    line_no: u64,
    item_index: Option<u64>,
    domain: bool,
    long: bool,
    peek: Peeked,
}

/// What the judge's peek of an event found that the filter reads: its
/// members (in the chunk's `members`), which of them are `type` and
/// `aoi`, the envelope, a lone surrogate. The worker takes it as it is
/// rather than peeking the same bytes again.
struct Peeked {
    members: std::ops::Range<usize>,
    type_member: Option<usize>,
    aoi_member: Option<usize>,
    envelope: Option<Envelope>,
    lone_surrogate: bool,
}

impl Peeked {
    /// Keeps what `peek` found, its members in `members`.
    fn of(peek: &Peeker, members: &mut Vec<Member>) -> Self {
        let start = members.len();
        members.extend_from_slice(&peek.members);
        Peeked {
            members: start..members.len(),
            type_member: peek.type_member,
            aoi_member: peek.aoi_member,
            envelope: peek.envelope.clone(),
            lone_surrogate: peek.lone_surrogate,
        }
    }

    /// Makes `peek` what the judge's peek was (`members`: the chunk's).
    fn fill(&self, members: &[Member], peek: &mut Peeker) {
        peek.members.clear();
        peek.members
            .extend_from_slice(members.get(self.members.clone()).unwrap_or_default());
        peek.type_member = self.type_member;
        peek.aoi_member = self.aoi_member;
        peek.envelope.clone_from(&self.envelope);
        peek.lone_surrogate = self.lone_surrogate;
    }
}

impl<'scope, 'env> Split<'scope, 'env> {
    pub(super) fn new(scope: &'scope Scope<'scope, 'env>, program: &'env Program<'env>) -> Self {
        Split {
            scope,
            program,
            jobs: OnceLock::new(),
        }
    }

    /// The filter it runs.
    pub(super) fn program(&self) -> &'env Program<'env> {
        self.program
    }

    /// Whether `src` is filtered on several threads: when it is read on
    /// two from the start (a large regular file, or `--threads 2`), and
    /// the filter does more with an event than the judge does. A pipe
    /// that may prove large later stays on one thread: most are small.
    /// `.`, a plain path (`.title`) and an object of plain paths write
    /// from the line's own bytes, cheaper than handing the line over: the
    /// judge's two threads ([`drive_source`]) are theirs.
    pub(super) fn wanted<R>(&self, src: &Source<R>) -> bool {
        matches!(src.threads, Threads::Two { .. }) && !self.program.writes_from_line()
    }

    /// Ends a run that was split: after a halt a worker may still be in
    /// the filter of an event one thread never reached, so the process
    /// ends here, its output flushed, instead of waiting for it.
    pub(super) fn end(&self, code: Code, halted: bool) -> Code {
        if halted && self.jobs.get().is_some() {
            super::exit_now(code);
        }
        code
    }

    /// The queue of the workers, started now if they are not yet, and
    /// how many there are.
    fn jobs(&self) -> (mpsc::Sender<Job>, u64) {
        let (tx, n) = self.jobs.get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Job>();
            let rx = Arc::new(Mutex::new(rx));
            let mut started = 0;
            for _ in 0..workers(self.program.judging.reading.threads) {
                let rx = Arc::clone(&rx);
                let program = self.program;
                let spawned = std::thread::Builder::new()
                    .name("filter-worker".into())
                    .stack_size(STACK)
                    .spawn_scoped(self.scope, move || work(&rx, program));
                // A worker the system will not start is one fewer; with
                // none, every chunk is filtered here.
                match spawned {
                    Ok(_) => started += 1,
                    Err(_) => break,
                }
            }
            (tx, started)
        });
        (tx.clone(), *n)
    }
}

/// Filter workers for `--threads`: one per CPU by default but the one
/// this thread's share runs on, at most two: past three threads filtering,
/// the judge's thread is the limit, and each worker's heap adds to the
/// peak memory (11.5 MiB with one, 12.5 with two, on 100 MB).
pub(super) fn workers(threads: usize) -> usize {
    let n = match threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    n.clamp(2, 3) - 1
}

/// A worker: takes chunks until the queue closes, each filtered into a
/// record (none: past its room, or it could not run the filter).
fn work(rx: &Mutex<mpsc::Receiver<Job>>, program: &Program<'_>) {
    let values = thread_globals(program.args);
    let none = || Recording::new(Record::new(0));
    let mut w = values.map(|v| Framed::new(program, Vars::new(v), none()));
    let filter = program.filter;
    let empty: BoxedInputs<'_> = Box::new(std::iter::empty());
    let inputs = RcIter::new(empty);
    let data = Data {
        lut: &filter.lut,
        inputs: &inputs,
    };
    let mut peeker = Peeker::new();
    loop {
        let job = match rx.lock() {
            Ok(rx) => match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
            Err(_) => return,
        };
        // A panic in the filter is answered too (the writing thread then
        // filters the chunk itself, and panics as one thread does), never
        // left for the writing thread to wait on forever.
        let answered = std::rc::Rc::new(std::cell::Cell::new(false));
        let rec = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            w.as_mut()
                .and_then(|w| filter_chunk(w, &data, &mut peeker, &job, &answered))
        }));
        let rec = rec.unwrap_or_else(|_| {
            w = None;
            None
        });
        // A capture past its room may have handed the chunk back already.
        if !answered.get() {
            let _ = job.done.send((job.chunk.k, rec));
        }
    }
}

/// Filters one chunk into a record, as this thread would have written it.
fn filter_chunk<'d>(
    w: &mut Framed<'_, Recording>,
    data: &'d Data<'d>,
    peeker: &mut Peeker,
    job: &Job,
    answered: &std::rc::Rc<std::cell::Cell<bool>>,
) -> Option<Record<Rec>> {
    w.sinks = Recording::new(Record::sized(ROOM, job.chunk.text.len()));
    w.halted = None;
    w.reading(&job.source);
    // Past its room, stderr hands the chunk back at once: a filter that
    // only writes to stderr may never reach a result that would.
    let (done, k, answered) = (job.done.clone(), job.chunk.k, answered.clone());
    let on_full = Box::new(move || {
        answered.set(true);
        let _ = done.send((k, None));
    });
    jq::capture_stderr_then(ROOM, Some(on_full));
    for item in &job.chunk.items {
        let put = match item {
            Item::Forward(ty, body) => w.sinks.forward(ty, body),
            Item::Filter(e) => apply_event(w, data, peeker, &job.chunk, e),
        };
        put.ok()?;
    }
    // A halt went back to the writing thread already (it is never a
    // record's, [`Rec::Halt`]).
    w.sinks.said().ok()?;
    Some(std::mem::replace(&mut w.sinks, Recording::new(Record::new(0))).out)
}

/// Runs the filter on one event of a chunk, with the judge's peek of it.
fn apply_event<'d, O: Emit>(
    w: &mut Framed<'_, O>,
    data: &'d Data<'d>,
    peeker: &mut Peeker,
    chunk: &Chunk,
    e: &Event,
) -> Result<(), Stop> {
    let line = chunk.text.get(e.start..e.end).unwrap_or_default();
    e.peek.fill(&chunk.members, peeker);
    let seen = Seen {
        line,
        peek: peeker,
        domain: e.domain,
        line_no: e.line_no,
        long: e.long,
    };
    w.apply(data, &seen, e.item_index)
}

/// The filter on this thread, writing to aoi's report.
type Live<'a, 'r> = Framed<'a, &'r mut Report>;

/// How the judge's thread ended a stream.
enum Judged {
    Ended(Verdict, Vec<Finding>),
    Cancelled(Verdict, Stop),
}

/// Filters one input stream on several threads; returns its verdict and
/// first findings, as `framed_stream` does on one. A stop while writing
/// (a closed stdout) ends the run and the process here: the judge's
/// thread may be waiting on a silent producer.
pub(super) fn split_stream<R: Read + Send>(
    split: &Split<'_, '_>,
    report: &mut Report,
    src: Source<R>,
    source: &str,
) -> Result<(Verdict, Vec<Finding>), Stop> {
    // The filter thread's variables were made before any input.
    let Some(values) = thread_globals(split.program.args) else {
        return Err(crate::out::Full.into());
    };
    let f = &mut Framed::new(split.program, Vars::new(values), report);
    let (jobs, workers) = split.jobs();
    let (done_tx, done_rx) = mpsc::channel();
    // Chunks in flight: each waits here in order for its record. One per
    // worker and one more: twice that held 0.5–1 MiB more at the peak
    // (16.2 -> 15.4 MiB on 100 MB `control`) for no speed.
    let (order_tx, order_rx) = mpsc::sync_channel::<(Arc<Chunk>, bool)>(workers as usize + 1);
    // The stream goes to the judge's thread once it runs: a thread the
    // system will not start leaves it here, filtered on this one.
    let (src_tx, src_rx) = mpsc::sync_channel::<Source<R>>(1);
    let judge = Judge::new(f.judging.options(10));
    let args = f.args;
    let out = Dispatch {
        jobs,
        share: workers + 1,
        order: order_tx,
        done: done_tx,
        source: Arc::from(source),
    };
    let judged = std::thread::scope(|s| {
        let reader = std::thread::Builder::new()
            .name("filter-judge".into())
            .spawn_scoped(s, move || {
                let src = src_rx.recv().ok()?;
                Some(judge_stream(judge, src, args, out))
            });
        let Ok(reader) = reader else {
            return Err(Box::new(src));
        };
        let _ = src_tx.send(src);
        if let Err(stop) = replay_all(f, &order_rx, &done_rx, source) {
            super::end_now(f.sinks, Err(stop));
        }
        Ok(reader.join().ok().flatten())
    });
    let judged = match judged {
        Ok(judged) => judged,
        Err(src) => return framed_stream(f, *src, source),
    };
    match judged {
        Some(Judged::Ended(v, shown)) => Ok((v, shown)),
        Some(Judged::Cancelled(v, stop)) => {
            f.sinks.sinks.add_consumed(&v);
            Err(stop)
        }
        None => Err(Stop::Failed(std::io::Error::other(
            "the judge's thread failed",
        ))),
    }
}

/// Where the judge's thread sends what it gathers.
struct Dispatch {
    jobs: mpsc::Sender<Job>,
    /// One chunk in `share` is this thread's, the others the workers'.
    share: u64,
    order: mpsc::SyncSender<(Arc<Chunk>, bool)>,
    done: mpsc::Sender<(u64, Option<Record<Rec>>)>,
    source: Arc<str>,
}

impl Dispatch {
    /// Sends `chunk` to a worker (unless it is the writer's share, or the
    /// filter halted: nothing runs it any more) and to the writer, in
    /// order. Err: the writer stopped.
    fn send(&self, chunk: &mut Chunk) -> Result<(), ()> {
        let k = chunk.k;
        let next = chunk.next();
        let chunk = Arc::new(std::mem::replace(chunk, next));
        let job = Job {
            chunk: Arc::clone(&chunk),
            source: Arc::clone(&self.source),
            done: self.done.clone(),
        };
        let sent = k % self.share != 0 && !halted_in_report() && self.jobs.send(job).is_ok();
        self.order.send((chunk, sent)).map_err(|_| ())
    }
}

/// The judge's thread: judges the stream as one thread does and gathers
/// its events into chunks, each sent at the end of a block read (a live
/// producer's events go on at once) or when it is full.
fn judge_stream<R: Read + Send>(
    mut judge: Judge,
    src: Source<R>,
    args: &FilterArgs,
    out: Dispatch,
) -> Judged {
    let chunk = std::cell::RefCell::new(Chunk::default());
    let mut item_index = 0u64;
    let mut shown: Vec<Finding> = Vec::new();
    let source = Arc::clone(&out.source);
    let src = Source::one(src.reader);
    let _ = drive_source(
        src,
        &mut judge,
        |judge, line| {
            let line = judge.last_event(line);
            let index = match judge.last_class() {
                LineClass::Domain => {
                    item_index += 1;
                    Some(item_index - 1)
                }
                LineClass::Framework => {
                    if let Some((ty, body)) = forward_of(judge, line, &source) {
                        chunk.borrow_mut().items.push(Item::Forward(ty, body));
                    }
                    if !args.framework {
                        return Ok(());
                    }
                    None
                }
                LineClass::Invalid => return Ok(()),
            };
            let mut chunk = chunk.borrow_mut();
            chunk.push(judge, line, index);
            match chunk.text.len() >= CHUNK_BYTES {
                true => out.send(&mut chunk),
                false => Ok(()),
            }
        },
        |judge, _| {
            shown.extend(judge.drain().take(10usize.saturating_sub(shown.len())));
            let mut chunk = chunk.borrow_mut();
            match chunk.items.is_empty() {
                true => Ok(()),
                false => out.send(&mut chunk),
            }
        },
    );
    let mut chunk = chunk.into_inner();
    if !chunk.items.is_empty() {
        let _ = out.send(&mut chunk);
    }
    if let Err(stop) = cancelled() {
        return Judged::Cancelled(judge.finish().0, stop);
    }
    shown.extend(judge.drain().take(10usize.saturating_sub(shown.len())));
    let (v, last) = judge.finish();
    shown.extend(last.into_iter().take(10usize.saturating_sub(shown.len())));
    Judged::Ended(v, shown)
}

/// What a chunk's lists are made for: as many as the last chunk held, up
/// to these (a very wide line is not a reason to keep room for another).
const ROOM_ITEMS: usize = 1024;
const ROOM_MEMBERS: usize = 8192;

impl Chunk {
    /// The chunk after this one, its room made at once: grown line by
    /// line, its lists were copied over and over (half the split's cost
    /// in instructions), and the text ended in a buffer twice its size.
    fn next(&self) -> Chunk {
        Chunk {
            k: self.k + 1,
            text: Vec::with_capacity(CHUNK_BYTES + CHUNK_BYTES / 4),
            members: Vec::with_capacity(self.members.len().min(ROOM_MEMBERS)),
            items: Vec::with_capacity(self.items.len().min(ROOM_ITEMS)),
        }
    }

    /// Adds the event the judge just read, on `line`.
    fn push(&mut self, judge: &Judge, line: &[u8], item_index: Option<u64>) {
        let long = judge.last_long();
        let start = self.text.len();
        // A long line's event is the judge's reduced copy, which the
        // filter does not read (it says so).
        let peek = match long {
            true => Peeked::of(&Peeker::default(), &mut self.members),
            false => {
                self.text.extend_from_slice(line);
                Peeked::of(judge.last_peek(), &mut self.members)
            }
        };
        self.items.push(Item::Filter(Event {
            start,
            end: self.text.len(),
            line_no: judge.line_no(),
            item_index,
            domain: judge.last_class() == LineClass::Domain,
            long,
            peek,
        }));
    }
}

/// The writer: each chunk's record replayed into the report in stream
/// order, flushed after each (as one thread flushes after each block).
fn replay_all(
    f: &mut Live<'_, '_>,
    order: &mpsc::Receiver<(Arc<Chunk>, bool)>,
    done: &mpsc::Receiver<(u64, Option<Record<Rec>>)>,
    source: &str,
) -> Result<(), Stop> {
    let mut ready: BTreeMap<u64, Option<Record<Rec>>> = BTreeMap::new();
    let mut here = Here::default();
    f.reading(source);
    for (chunk, sent) in order {
        let rec = match sent && f.halted.is_none() {
            true => record_of(chunk.k, &mut ready, done),
            false => None,
        };
        match rec {
            Some(rec) => rec.replay(f.sinks)?,
            None => here.filter(f, &chunk)?,
        }
        f.sinks.block_end()?;
    }
    Ok(())
}

/// The record of chunk `k`, once a worker sent it (none: filter it here).
pub(super) fn record_of<T>(
    k: u64,
    ready: &mut BTreeMap<u64, Option<T>>,
    done: &mpsc::Receiver<(u64, Option<T>)>,
) -> Option<T> {
    loop {
        if let Some(rec) = ready.remove(&k) {
            return rec;
        }
        match done.recv() {
            Ok((j, rec)) => {
                ready.insert(j, rec);
            }
            // Every worker is gone and none sent it.
            Err(_) => return None,
        }
    }
}

/// What filtering a chunk on the writer's thread needs, made once.
#[derive(Default)]
struct Here {
    peeker: Peeker,
}

impl Here {
    /// Filters `chunk` here, live, as one thread would (after a halt, the
    /// filter no longer runs and only the forwarded events remain).
    fn filter(&mut self, f: &mut Live<'_, '_>, chunk: &Chunk) -> Result<(), Stop> {
        let empty: BoxedInputs<'_> = Box::new(std::iter::empty());
        let inputs = RcIter::new(empty);
        let filter = f.filter;
        let data = Data {
            lut: &filter.lut,
            inputs: &inputs,
        };
        for item in &chunk.items {
            match item {
                Item::Forward(ty, body) => f.sinks.forward(ty, body)?,
                Item::Filter(e) => apply_event(f, &data, &mut self.peeker, chunk, e)?,
            }
        }
        Ok(())
    }
}
