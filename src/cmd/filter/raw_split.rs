//! `--raw` on one big input, on every core: a reading thread cuts the
//! input into chunks of whole lines, each knowing the number of its first
//! line as one reader counts them; workers filter chunks into records of
//! what they would write (results, aoi's messages, the filter's stderr
//! where it wrote it), and this thread replays the records in input order
//! through the writes one thread makes, filtering its own share of the
//! chunks live, and any chunk a worker handed back (past its room, a halt,
//! a panic). Lines are filtered each on its own (the program reads no
//! other input, [`super::raw_files`]), so stdout, stderr and the exit are
//! one thread's. After a halt or a failed write the process ends here:
//! one thread never ran the filter on the chunks after it.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

use jaq_core::Vars;
use jaq_json::Val;

use super::STACK;
use super::jq_args::thread_globals;
use super::raw::{Live, Ran, RawOut, Start, filter_raw, finish, read_failed, too_long};
use super::sink::{Rec, Said};
use super::split::{ROOM, record_of, workers};
use crate::cli::FilterArgs;
use crate::jq::{self, Filter};
use crate::lines::{Chunk, LineReader};
use crate::out::Record;
use crate::parallel::{Threads, threads_for};
use crate::pool::Opened;
use crate::spec::exit::Code;

/// Bytes of whole lines a chunk gathers before it goes to a worker (or
/// fewer, at the end of a read): as the framed mode's chunks, a few in
/// flight stay within a few hundred KiB.
const CHUNK_BYTES: usize = 32 << 10;

/// Consecutive whole lines of the input, and what one reader says right
/// after them (a line past `--max-line-bytes`, a failed read).
#[derive(Default)]
struct Piece {
    k: u64,
    text: Vec<u8>,
    /// The number of the line before the first.
    line: u64,
    tail: Option<(String, Code)>,
}

/// A worker's answer for chunk `k`: what filtering it wrote, or none (the
/// writer filters it itself).
type Answer = (u64, Option<(Record<Rec>, Ran)>);

/// The program and input the threads share.
struct Shared<'a> {
    args: &'a FilterArgs,
    filter: &'a Filter,
    path: &'a Path,
}

/// Filters the input `src` at `path` into `live`: split over threads when
/// it is read on two (a large regular file, or any input with
/// `--threads 2`, [`threads_for`]), else on this thread alone.
pub(super) fn filter_input(
    args: &FilterArgs,
    filter: &Filter,
    vars: Vars<Val>,
    src: Opened,
    path: &Path,
    threads: usize,
    live: &mut Live,
) -> io::Result<Ran> {
    if !wanted(&src, threads) {
        let start = Start::Opened(Box::new(src), path);
        return filter_raw(args, filter, vars, start, live);
    }
    let shared = Shared { args, filter, path };
    split(&shared, vars, src, threads, live)
}

/// Whether `src` is read on several threads (never on a pool's worker,
/// whose threads are the files').
fn wanted(src: &Opened, threads: usize) -> bool {
    if crate::pool::on_worker() {
        return false;
    }
    let file = match src {
        Opened::File(f) => f.try_clone(),
        Opened::Stdin(s) => s.as_fd().try_clone_to_owned().map(File::from),
    };
    file.is_ok_and(|f| matches!(threads_for(&f, threads), Threads::Two { .. }))
}

/// The chunk size: [`CHUNK_BYTES`], or `AOI_RAW_CHUNK_BYTES` (the tests
/// cut small inputs into many chunks with it).
fn chunk_bytes() -> usize {
    std::env::var("AOI_RAW_CHUNK_BYTES")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(CHUNK_BYTES, |n| n.max(1))
}

/// Filters `src` on the workers and this thread, written in input order.
fn split(
    shared: &Shared<'_>,
    vars: Vars<Val>,
    src: Opened,
    threads: usize,
    live: &mut Live,
) -> io::Result<Ran> {
    std::thread::scope(|s| {
        let (jobs_tx, jobs_rx) = mpsc::channel::<Arc<Piece>>();
        let jobs_rx = Arc::new(Mutex::new(jobs_rx));
        let (done_tx, done_rx) = mpsc::channel::<Answer>();
        let mut started = 0u64;
        for _ in 0..workers(threads) {
            let (jobs, done) = (Arc::clone(&jobs_rx), done_tx.clone());
            let spawned = std::thread::Builder::new()
                .name("filter-worker".into())
                .stack_size(STACK)
                .spawn_scoped(s, move || work(shared, &jobs, &done));
            // A worker the system will not start is one fewer.
            match spawned {
                Ok(_) => started += 1,
                Err(_) => break,
            }
        }
        drop(done_tx);
        // Chunks in flight: one per worker and one more.
        let (order_tx, order_rx) = mpsc::sync_channel::<(Arc<Piece>, bool)>(started as usize + 1);
        let (src_tx, src_rx) = mpsc::sync_channel::<Opened>(1);
        let max_line = shared.args.max_line_bytes;
        let path = shared.path;
        let reader = std::thread::Builder::new()
            .name("filter-read".into())
            .spawn_scoped(s, move || {
                let Ok(src) = src_rx.recv() else { return };
                let cut = Cut {
                    share: started + 1,
                    size: chunk_bytes(),
                    max_line,
                    jobs: jobs_tx,
                    order: order_tx,
                };
                cut.read(LineReader::new(src, max_line), path);
            });
        if reader.is_err() {
            // No thread to read on: the input is filtered here alone.
            let start = Start::Opened(Box::new(src), path);
            return filter_raw(shared.args, shared.filter, vars, start, live);
        }
        let _ = src_tx.send(src);
        write_all(shared, vars, &order_rx, &done_rx, live)
    })
}

/// The writer: each chunk's record replayed, or the chunk filtered here,
/// in input order. A halt or a failed write ends the process.
fn write_all(
    shared: &Shared<'_>,
    vars: Vars<Val>,
    order: &mpsc::Receiver<(Arc<Piece>, bool)>,
    done: &mpsc::Receiver<Answer>,
    live: &mut Live,
) -> io::Result<Ran> {
    let mut ready = BTreeMap::new();
    let mut total = Ran::default();
    for (piece, sent) in order {
        let rec = match sent {
            true => record_of(piece.k, &mut ready, done),
            false => None,
        };
        let ran = match rec {
            Some((rec, ran)) => rec.replay(live).map(|()| ran),
            None => filter_piece(shared, vars.clone(), &piece, live),
        };
        match ran.map(|ran| total.then(ran)) {
            Ok(ran) if ran.halted.is_none() => total = ran,
            ended => super::exit_now(finish(ended, live, false)),
        }
    }
    Ok(total)
}

/// Filters the lines of `piece` into `out`, then says its tail.
fn filter_piece<O: RawOut>(
    shared: &Shared<'_>,
    vars: Vars<Val>,
    piece: &Piece,
    out: &mut O,
) -> io::Result<Ran> {
    let start = Start::Lines {
        text: &piece.text,
        path: shared.path,
        line: piece.line,
    };
    let mut ran = filter_raw(shared.args, shared.filter, vars, start, out)?;
    if let (Some((msg, code)), None) = (&piece.tail, ran.halted) {
        out.say(&format!("aoi filter: {msg}"))?;
        ran.code = ran.code.worst(*code);
    }
    Ok(ran)
}

/// A worker: takes chunks until the queue closes, each filtered into a
/// record (none: past its room, halted, or the filter could not run).
fn work(
    shared: &Shared<'_>,
    jobs: &Mutex<mpsc::Receiver<Arc<Piece>>>,
    done: &mpsc::Sender<Answer>,
) {
    let mut vars = thread_globals(shared.args).map(Vars::new);
    loop {
        let piece = match jobs.lock().map(|rx| rx.recv()) {
            Ok(Ok(piece)) => piece,
            _ => return,
        };
        // A panic in the filter is answered too (the writer then filters
        // the chunk itself, and panics as one thread does).
        let answered = std::rc::Rc::new(std::cell::Cell::new(false));
        let rec = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let vars = vars.clone()?;
            record_piece(shared, vars, &piece, done, &answered)
        }));
        let rec = rec.unwrap_or_else(|_| {
            vars = None;
            None
        });
        // A capture past its room may have handed the chunk back already.
        if !answered.get() {
            let _ = done.send((piece.k, rec));
        }
    }
}

/// Filters `piece` into a record, as the writer would have written it.
fn record_piece(
    shared: &Shared<'_>,
    vars: Vars<Val>,
    piece: &Piece,
    done: &mpsc::Sender<Answer>,
    answered: &std::rc::Rc<std::cell::Cell<bool>>,
) -> Option<(Record<Rec>, Ran)> {
    // Past its room, stderr hands the chunk back at once: a filter that
    // only writes to stderr may never reach a result that would.
    let (done, k, answered) = (done.clone(), piece.k, answered.clone());
    let on_full = Box::new(move || {
        answered.set(true);
        let _ = done.send((k, None));
    });
    jq::capture_stderr_then(ROOM, Some(on_full));
    let mut said = Said::<_, io::Error>::new(Record::in_pieces(ROOM));
    let ran = filter_piece(shared, vars, piece, &mut said).ok()?;
    said.said().ok()?;
    // A halt is never a record's: the writer filters the chunk again and
    // halts as one thread does.
    match ran.halted {
        Some(_) => None,
        None => Some((said.out, ran)),
    }
}

/// The reading thread's side: chunks cut and handed out.
struct Cut {
    /// One chunk in `share` is the writer's, the others the workers'.
    share: u64,
    size: usize,
    max_line: usize,
    jobs: mpsc::Sender<Arc<Piece>>,
    order: mpsc::SyncSender<(Arc<Piece>, bool)>,
}

impl Cut {
    /// Reads the input to its end (or until the writer is gone), cutting
    /// each block of lines read into chunks; a chunk also ends at the end
    /// of a block (a live producer's lines go on at once) and where one
    /// reader says something of the input.
    fn read(&self, mut reader: LineReader<Opened>, path: &Path) {
        let source = path.display().to_string();
        let mut piece = Piece::default();
        // The lines read so far, as one reader numbers them.
        let mut line = 0u64;
        loop {
            let tail = match reader.next_chunk() {
                Ok(None) => break,
                Ok(Some(Chunk::Lines(block))) => {
                    if !self.cut(&mut piece, &mut line, block) {
                        return;
                    }
                    None
                }
                Ok(Some(Chunk::LongPart { end: true, .. })) => {
                    line += 1;
                    Some(too_long(&source, line, self.max_line))
                }
                Ok(Some(Chunk::LongPart { .. })) => continue,
                Err(e) => Some(read_failed(&source, &e)),
            };
            let failed = tail.as_ref().is_some_and(|(_, c)| *c == Code::IOERR);
            piece.tail = tail;
            if !piece.is_empty() && !self.send(&mut piece, line) {
                return;
            }
            if failed {
                return;
            }
        }
        if !piece.is_empty() {
            let _ = self.send(&mut piece, line);
        }
    }

    /// Adds the lines of `block` to `piece`, handing out each chunk that
    /// fills; false when the writer is gone.
    fn cut(&self, piece: &mut Piece, line: &mut u64, mut block: &[u8]) -> bool {
        while !block.is_empty() {
            let room = self.size.saturating_sub(piece.text.len());
            let take = match block.get(..room) {
                None => block.len(),
                Some(head) => match memchr::memrchr(b'\n', head) {
                    Some(i) => i + 1,
                    None if !piece.text.is_empty() => {
                        if !self.send(piece, *line) {
                            return false;
                        }
                        continue;
                    }
                    // A line longer than a chunk is a chunk of its own.
                    None => memchr::memchr(b'\n', block.get(room..).unwrap_or_default())
                        .map_or(block.len(), |i| room + i + 1),
                },
            };
            let (lines, rest) = block.split_at(take);
            *line += lines_in(lines);
            piece.text.extend_from_slice(lines);
            block = rest;
            if piece.text.len() >= self.size && !self.send(piece, *line) {
                return false;
            }
        }
        true
    }

    /// Hands `piece` to a worker (unless it is the writer's share) and to
    /// the writer, in order; the next chunk starts after line `line`.
    /// False when the writer is gone.
    fn send(&self, piece: &mut Piece, line: u64) -> bool {
        let next = Piece {
            k: piece.k + 1,
            text: Vec::with_capacity(self.size + self.size / 4),
            line,
            tail: None,
        };
        let piece = Arc::new(std::mem::replace(piece, next));
        let sent = piece.k % self.share != 0 && self.jobs.send(Arc::clone(&piece)).is_ok();
        self.order.send((piece, sent)).is_ok()
    }
}

impl Piece {
    fn is_empty(&self) -> bool {
        self.text.is_empty() && self.tail.is_none()
    }
}

/// The lines in `text` as one reader counts them: a last line without
/// its newline (the input's end) is one.
fn lines_in(text: &[u8]) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', text).count() as u64;
    newlines + u64::from(text.last().is_some_and(|&b| b != b'\n'))
}
