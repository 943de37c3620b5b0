//! The log reader: AOI streams out of real logs, one judge per run.
//!
//! Without `--log` ([`Options::log`]) an input is one stream, every line
//! judged as it is, exactly as `aoi check` judges it (one verdict). With
//! it, `aoi errors` and `aoi merge-report` read logs as they are, not only
//! clean streams:
//!
//! - a line that is no AOI event (prose, a stack trace, another program's
//!   JSON, invalid JSON) is skipped and counted, never fatal;
//! - an event after a text prefix on the same line is found: the first `{`
//!   (of a few) that starts a JSON object with a string `type` running to the
//!   end of the line (`2026-07-30T12:00:00Z stdout F {…}`, `[worker-3] {…}`);
//!   a trailing CR and trailing ANSI SGR sequences are dropped; a Docker
//!   json-file line (`{"log":"{…}\n",…}`) is unwrapped once (and is a cut
//!   line when its `\n` is missing);
//! - runs interleaved in one log are told apart by `aoi.run` (§ 8.1: `run`
//!   makes every line attributable on its own), decoded, so `"R\/1"` and
//!   `"R/1"` are one run: each run is its own stream with its own judge,
//!   exactly the judge of `aoi check`, fed only that run's lines and
//!   reporting findings at the log's line numbers. Events without an
//!   envelope belong to the input's unnamed stream, which counts as an AOI
//!   stream only when it holds a framework event.
//! - a final line that is no event is the truncation of the run written
//!   last, if that run has not ended;
//! - a line longer than the reader holds ([`crate::lines::HOLD`]) is read
//!   in pieces, as `aoi check` reads it ([`crate::long`]); with `--log`,
//!   from each of its first few `{` at once, the first that makes an event
//!   winning.
//!
//! Memory: one judge per run open at once. A run ends when its
//! `aoi:summary` is read: its judge is finished and freed there, its
//! [`Judged`] handed to the visitor ([`Visit::Ended`]), and only what
//! judging a later line of it needs is kept ([`crate::judge::Resume`]). A
//! line of it after its summary (§ 13.1) opens the run's tail, a stream
//! judged from there, whose one cause is `summary.not_last`. At most
//! `max_runs` runs are open at once per input, a guard against a log of
//! runs that never end: lines of runs past it are still given to the
//! visitor (with no stream) and counted, and the commands report them.

mod docker;
mod in_order;
mod locate;
mod long_piece;
mod runs;

pub use in_order::InOrder;
pub(crate) use locate::trim_decoration;
use locate::*;
use runs::*;

use std::collections::HashMap;
use std::io::Read;

use crate::drive::Source;
use crate::judge::fields::str_ref;
use crate::judge::{Finding, Judge, JudgeOptions, LineClass, Verdict, envelope_run};
use crate::lines::LineReader;
use crate::long::LongLine;
use crate::parallel::{Driven, Later, Piece, Prep, Step, Threads};
use crate::peek::{JsonError, Kind, Peeker, key_is, span, unescape, unescape_into};

/// Ended runs whose keys are kept, the latest: a line of one of them is
/// judged as a line after its summary (`summary.not_last`). A line of a
/// run that ended before them opens a new stream (no meta: a violation
/// too), so memory stays bounded however many runs a log holds.
const ENDED_KEPT: usize = 65_536;

/// `{` positions tried per line before it is declared no event.
const MAX_TRIES: usize = 8;

/// Bytes of unescaping scratch a slot keeps between batches (up to a
/// thousand slots a batch, [`crate::parallel`]).
const SCRATCH_KEEP: usize = 4 * 1024;

/// How an input is read.
#[derive(Debug, Clone)]
pub struct Options {
    /// How each run is judged.
    pub judge: JudgeOptions,
    /// Runs open at once per input (a run ends at its summary).
    pub max_runs: usize,
    /// Findings kept per run, besides its verdict.
    pub shown: usize,
    /// Only the runs this names ([`run_matches`]).
    pub run: Option<String>,
    /// Read the input as a log (`--log`): events after prefixes, other
    /// lines skipped and counted, runs told apart by `aoi.run`. Without
    /// it, the input is one stream judged line by line exactly as `aoi
    /// check` judges it: a line that is no event is the violation it is
    /// there (one verdict).
    pub log: bool,
}

/// One stream of an input: a run, or the input's events without a run.
pub struct Stream {
    /// The decoded `aoi.run`; `None` for the unnamed stream.
    pub run: Option<String>,
    /// The run's judge.
    pub judge: Judge,
    /// An `aoi:*` event was seen (the unnamed stream counts only then).
    pub framework: bool,
    /// Its place in the order of first appearance.
    order: u64,
    /// It ends at its summary: a run's own stream (not the unnamed one,
    /// not a run's tail, not the one stream of a strict input).
    closes: bool,
}

/// What [`read`] gives its visitor, in input order.
pub enum Visit<'a> {
    /// An event found in the input.
    Event(Located<'a>),
    /// A piece of a line longer than aoi holds (`first`: the line's
    /// first), before the line's event (if it makes one) is visited.
    LongPiece {
        /// The piece's bytes.
        bytes: &'a [u8],
        /// Whether it starts the line.
        first: bool,
    },
    /// The end of a block of lines as a read brought it: the moment to
    /// flush output, so a live stream's readers downstream are not kept
    /// waiting for a buffer to fill.
    BlockEnd,
    /// A run ended (its summary was read, after that line's event was
    /// visited): its verdict, final. [`Input::finish`] gives the runs still
    /// open at the end; a command orders both by [`Judged::order`].
    Ended {
        /// The run's verdict.
        run: Box<Judged>,
        /// Every stream whose [`Judged::order`] is below this has ended
        /// (and was visited): a command that reports in order of first
        /// appearance may write those.
        settled: u64,
    },
}

/// One event found in the input, after its stream's judge has seen it.
pub struct Located<'a> {
    /// The event's JSON object (prefix and decoration removed).
    pub obj: &'a [u8],
    /// False for a cut final line: § 2 says it is not an event.
    pub terminated: bool,
    /// Its line in the input.
    pub line_no: u64,
    /// `aoi.run` as written, quotes included; empty without one.
    pub raw_run: &'a [u8],
    /// The stream that judged it; `None` past `max_runs`.
    pub stream: Option<&'a Stream>,
    /// The peek of `obj`: its members, `type` and `aoi`.
    pub peek: &'a Peeker,
    /// For a line longer than aoi holds, `obj` is its reduced copy
    /// ([`crate::long`], large values are stand-ins): where the event
    /// really is in the line.
    pub long: Option<LongEvent>,
    /// What the command's [`PrepareEvent`] made of this event, when it
    /// was given one and the event is the one it saw (not a long line's
    /// copy, not a joined Docker line).
    pub prepared: Option<&'a mut Prepared>,
}

/// Work of a command on a located event that depends on the event alone
/// (whether it is one the command wants, the bytes it will write of it):
/// on two threads, done on the reading thread with the rest of the line's
/// preparation ([`crate::parallel`]), so that the judging thread only takes
/// the result ([`Located::prepared`]).
pub trait PrepareEvent: Sync {
    /// Prepares the event `obj`, which `peek` describes (its `aoi.run`:
    /// [`raw_run_of`]), into `out`, whatever `out` held before.
    fn prepare(&self, obj: &[u8], peek: &Peeker, out: &mut Prepared);
}

/// What a [`PrepareEvent`] left of an event: a tag of the command's own
/// (0 by default), bytes, and places in them. Reused from line to line.
#[derive(Debug, Default)]
pub struct Prepared {
    /// What the command decided of the event.
    pub tag: u8,
    /// Bytes it will write of it.
    pub bytes: Vec<u8>,
    /// Offsets into `bytes`.
    pub marks: [usize; 2],
}

/// Where the event of a long line is, in the line's bytes (which a
/// visitor that writes them out has kept, from [`Visit::LongPiece`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongEvent {
    /// The event's JSON object.
    pub span: std::ops::Range<u64>,
    /// The bytes to cut to leave its `aoi` member out (see
    /// [`crate::long::LongLine::envelope_cut`]).
    pub envelope: Option<std::ops::Range<u64>>,
}

impl Located<'_> {
    /// The event's `type`, decoded.
    pub fn type_name(&self) -> Option<std::borrow::Cow<'_, str>> {
        let m = self
            .peek
            .type_member
            .and_then(|i| self.peek.members.get(i))?;
        str_ref(self.obj, m)
    }
}

/// How many runs other than the one asked for ([`Options::run`]) an
/// input's [`Counts`] names.
pub const OTHER_RUNS_NAMED: usize = 8;

/// How [`Counts::other_run_ids`] names the events without an `aoi.run`.
pub const WITHOUT_RUN: &str = "(events without aoi.run)";

/// Whether the run id `run` is the one `want` names: it starts with it (a
/// ULID's time part), or ends with it (the last 8 characters, as tables,
/// reports and verdict lines show a run).
pub fn run_matches(run: &str, want: &str) -> bool {
    run.starts_with(want) || run.ends_with(want)
}

/// What reading an input found besides its streams.
#[derive(Debug, Default, Clone)]
pub struct Counts {
    /// Lines that are no AOI event.
    pub skipped: u64,
    /// Lines of runs past `max_runs`, given to the visitor but not judged.
    pub untracked: u64,
    /// Events of those runs: domain, warnings, errors (still consumed, § 8.3).
    pub untracked_events: (u64, u64, u64),
    /// Lines of runs other than the run asked for.
    pub other_runs: u64,
    /// The first [`OTHER_RUNS_NAMED`] of those runs' ids, to say which
    /// runs there are when none matched.
    pub other_run_ids: Vec<String>,
    /// Whether there were more of them than that.
    pub other_run_ids_more: bool,
    /// Skipped lines that mention `aoi:error` (a damaged event, maybe).
    pub suspect: u64,
    /// Events found only by reading the line as a log: after a prefix (a
    /// BOM, a time stamp), inside a Docker wrapper, or before a trailing
    /// CR or colour code.
    pub trimmed: u64,
}

impl Counts {
    /// Adds another input's counts (saturating: carried counts are any
    /// integers an earlier report held).
    pub fn add(&mut self, o: &Counts) {
        self.skipped = self.skipped.saturating_add(o.skipped);
        self.untracked = self.untracked.saturating_add(o.untracked);
        self.other_runs = self.other_runs.saturating_add(o.other_runs);
        for id in &o.other_run_ids {
            self.name_other_run(id);
        }
        self.other_run_ids_more |= o.other_run_ids_more;
        self.suspect = self.suspect.saturating_add(o.suspect);
        self.trimmed = self.trimmed.saturating_add(o.trimmed);
        let (a, b) = (&mut self.untracked_events, o.untracked_events);
        *a = (
            a.0.saturating_add(b.0),
            a.1.saturating_add(b.1),
            a.2.saturating_add(b.2),
        );
    }

    /// Notes a run other than the one asked for, by its id, while fewer
    /// than [`OTHER_RUNS_NAMED`] are named.
    fn name_other_run(&mut self, id: &str) {
        if self.other_run_ids.iter().any(|r| r == id) {
            return;
        }
        if self.other_run_ids.len() < OTHER_RUNS_NAMED {
            self.other_run_ids.push(id.to_string());
        } else {
            self.other_run_ids_more = true;
        }
    }

    /// What a command says of the runs that came past `max_runs` open at
    /// once (a guard, never silent), `done`: what it still did with their
    /// lines; `None` when none did.
    pub fn past_cap(&self, max_runs: usize, done: &str) -> Option<String> {
        (self.untracked > 0).then(|| {
            format!(
                "more than --max-runs {max_runs} runs open at once: {} line(s) of runs past it were {done} but not judged",
                self.untracked
            )
        })
    }

    /// [`Counts::log_note`], when the reading passed over anything: what a
    /// command says on stderr after an input.
    pub fn passed_over(&self) -> Option<String> {
        (self.skipped > 0 || self.trimmed > 0).then(|| self.log_note())
    }

    /// What reading as a log passed over, in one sentence that every
    /// output format states (leniency is asked for and shows).
    pub fn log_note(&self) -> String {
        let mut s = format!(
            "read as a log (--log): {} line(s) skipped (not AOI events)",
            self.skipped
        );
        if self.trimmed > 0 {
            s.push_str(&format!(
                ", {} event(s) found after a prefix or decoration",
                self.trimmed
            ));
        }
        s
    }
}

/// One judged stream of an input.
pub struct Judged {
    /// The run's `aoi.run`, decoded (`None` for lines without one).
    pub run: Option<String>,
    /// Its verdict.
    pub verdict: Verdict,
    /// Its first findings (up to the number asked for).
    pub findings: Vec<Finding>,
    /// Its place in the order of first appearance in the input.
    pub order: u64,
}

/// Where the index sends a run's lines.
#[derive(Clone, Copy)]
enum Slot {
    /// To its open stream, `Input::streams[i]`.
    Open(usize),
    /// Nowhere yet: it ended; a later line opens its tail.
    Ended(crate::judge::Resume),
    /// Nowhere: it came past `max_runs` open runs; its lines are counted.
    Untracked,
}

/// An input being read.
pub struct Input {
    opts: Options,
    /// The open streams; a freed place is reused (`free`).
    streams: Vec<Option<Stream>>,
    free: Vec<usize>,
    /// Streams of runs open now (the unnamed stream is not counted).
    open_runs: usize,
    /// Streams made so far: the next one's [`Judged::order`].
    next_order: u64,
    /// The orders of the open streams.
    open_orders: std::collections::BTreeSet<u64>,
    /// The keys of the latest ended runs ([`ENDED_KEPT`]), oldest first.
    ended: std::collections::VecDeque<Vec<u8>>,
    index: HashMap<Vec<u8>, Slot>,
    /// The stream of the latest line that had one.
    last: Option<usize>,
    /// Run keys looked up lately and their streams: lines of one run, or
    /// of a few runs interleaved line by line (a shared CI log), skip the
    /// hash and the copy of the key.
    recent: Vec<Recent>,
    /// The slot of `recent` the next new key replaces.
    next_recent: usize,
    counts: Counts,
    scratch: Vec<u8>,
    peeker: Box<Peeker>,
    /// What the command's [`PrepareEvent`] made of the line's event, and
    /// whether it holds for the line being routed.
    prepared: Box<Prepared>,
    prepared_valid: bool,
    /// Lines read so far.
    line_no: u64,
    /// A line longer than the reader holds, as its pieces come (with
    /// `--log`: read from each of its first few `{`, and its start).
    long: Vec<(u64, LongLine)>,
    long_head: Vec<u8>,
    long_open: bool,
    /// The line holds `aoi:error` (found across pieces: the last bytes of
    /// the previous piece are kept).
    long_suspect: bool,
    long_edge: Vec<u8>,
    /// Docker records of a split line, held until its last piece.
    docker: docker::Pieces,
    /// The event of such a line: its reduced copy ([`crate::long`]).
    long_obj: Vec<u8>,
    /// Where the event being routed is, when it is such a copy.
    long_event: Option<LongEvent>,
    /// The length of a long line (from its event's start, when it made
    /// one), while it is routed.
    long_len: Option<u64>,
    /// A piece of the current line was visited.
    long_piece_seen: bool,
    /// Bytes of the long line read so far (without its line feed).
    long_seen: u64,
}

/// Reads `src` to its end, giving every located event to `visit` after its
/// stream's judge has seen it, and each block's end ([`Visit::BlockEnd`]).
/// A read error ends the input and is reported to every stream of it (they
/// are then incomplete); only the visitor's errors are returned. On two
/// threads ([`crate::parallel`]), the worker finds and peeks each line's
/// event, and this thread judges and visits them, with the same result as
/// on one.
pub fn read<R: Read + Send, E>(
    src: Source<R>,
    opts: &Options,
    visit: impl FnMut(Visit<'_>) -> Result<(), E>,
) -> Result<Input, E> {
    read_prepared(src, opts, None, visit)
}

/// [`read`], with `event` preparing each located event of a log (`--log`)
/// where the line is prepared: on the reading thread when there are two
/// ([`Located::prepared`]).
pub fn read_prepared<R: Read + Send, E>(
    src: Source<R>,
    opts: &Options,
    event: Option<&dyn PrepareEvent>,
    mut visit: impl FnMut(Visit<'_>) -> Result<(), E>,
) -> Result<Input, E> {
    let mut input = read_all(src, opts, event, &mut visit)?;
    input.docker_end(&mut visit)?;
    Ok(input)
}

/// [`read`] up to the input's end.
fn read_all<R: Read + Send, E>(
    src: Source<R>,
    opts: &Options,
    event: Option<&dyn PrepareEvent>,
    mut visit: impl FnMut(Visit<'_>) -> Result<(), E>,
) -> Result<Input, E> {
    let mut input = Input {
        opts: opts.clone(),
        streams: Vec::new(),
        free: Vec::new(),
        open_runs: 0,
        next_order: 0,
        open_orders: std::collections::BTreeSet::new(),
        ended: std::collections::VecDeque::new(),
        index: HashMap::new(),
        last: None,
        recent: Vec::new(),
        next_recent: 0,
        counts: Counts::default(),
        scratch: Vec::new(),
        peeker: Box::new(Peeker::new()),
        prepared: Box::default(),
        prepared_valid: false,
        line_no: 0,
        long: Vec::new(),
        long_head: Vec::new(),
        long_open: false,
        long_suspect: false,
        long_edge: Vec::new(),
        docker: docker::Pieces::default(),
        long_obj: Vec::new(),
        long_event: None,
        long_len: None,
        long_piece_seen: false,
        long_seen: 0,
    };
    let Source {
        mut reader,
        threads,
    } = src;
    let whole_blocks = match threads {
        Threads::One => {
            read_here(&mut reader, &mut input, None, event, &mut visit)?;
            return Ok(input);
        }
        Threads::Two { whole_blocks } => whole_blocks,
        Threads::Later => {
            let later = Some(Later::default());
            if !read_here(&mut reader, &mut input, later, event, &mut visit)? {
                return Ok(input);
            }
            false
        }
    };
    let prep = LocateLines {
        log: opts.log,
        event,
    };
    let driven = crate::parallel::drive(reader, whole_blocks, &prep, |piece| match piece {
        Piece::Lines(mut lines) => {
            lines.each(&prep, |line, terminated, slot, utf8_checked| {
                input.prepared_line(line, terminated, slot, utf8_checked, event, &mut visit)
            })?;
            visit(Visit::BlockEnd)
        }
        Piece::Long(bytes, end) => input.long_piece(bytes, end, &mut visit),
        Piece::Failed(e) => {
            input.read_failed(&e);
            Ok(())
        }
    });
    match driven {
        Driven::Done(r) => r?,
        Driven::NotStarted(mut reader) => {
            read_here(&mut reader, &mut input, None, event, &mut visit)?;
        }
    }
    Ok(input)
}

/// [`read`] on this thread, until the input ends, or, with `later`, until
/// it says to go on two threads: then true, with the reader at a line
/// boundary.
fn read_here<R: Read, E>(
    reader: &mut LineReader<R>,
    input: &mut Input,
    later: Option<Later>,
    event: Option<&dyn PrepareEvent>,
    visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
) -> Result<bool, E> {
    crate::parallel::read_here(reader, later, |step| match step {
        Step::Line(line, terminated, utf8_checked) => {
            input.prepared_line(line, terminated, None, utf8_checked, event, visit)
        }
        Step::Block(_) => visit(Visit::BlockEnd),
        Step::Long(bytes, end) => input.long_piece(bytes, end, visit),
        Step::Failed(e) => {
            input.read_failed(&e);
            Ok(())
        }
    })
}

/// The work [`read`] moves to the reading thread: with `--log`, trimming a
/// line's decoration, finding its event and peeking it ([`locate`]);
/// without, the peek of each line the judge peeks (as `aoi check` on two
/// threads), so that both kinds of input leave the judging alone to this
/// thread; and the command's [`PrepareEvent`] on the event found.
struct LocateLines<'p> {
    log: bool,
    event: Option<&'p dyn PrepareEvent>,
}

/// What [`locate`] found in a line, with the peeker and the scratch buffer
/// it left describing the event; without `--log`, the line's peek and
/// what [`Peeker::peek`] returned.
pub(crate) struct LocateSlot {
    peeker: Box<Peeker>,
    scratch: Vec<u8>,
    spot: Spot,
    peeked: Result<(), JsonError>,
    prepared: Box<Prepared>,
}

impl Default for LocateSlot {
    fn default() -> Self {
        LocateSlot {
            peeker: Box::new(Peeker::new()),
            scratch: Vec::new(),
            spot: Spot::unknown(None),
            peeked: Ok(()),
            prepared: Box::default(),
        }
    }
}

impl Prep for LocateLines<'_> {
    type Slot = LocateSlot;

    /// Every line with `--log`; without, the lines the judge peeks (an
    /// unterminated line is not, § 2: this thread peeks it itself, as
    /// `aoi check` does).
    #[inline(always)]
    fn wants(&self, _line: &[u8], terminated: bool) -> bool {
        self.log || terminated
    }

    fn prep(&self, slot: &mut LocateSlot, line: &[u8], utf8_checked: bool) {
        if !self.log {
            slot.peeked = slot.peeker.peek_checked(line, utf8_checked);
            return;
        }
        let line = trim_decoration(line);
        slot.spot = locate_spot(line, &mut slot.peeker, &mut slot.scratch, utf8_checked);
        if let Some(event) = self.event {
            prepare_found(
                event,
                line,
                slot.spot,
                &slot.peeker,
                &slot.scratch,
                &mut slot.prepared,
            );
        }
    }

    fn trim(slot: &mut LocateSlot) {
        slot.peeker.trim();
        // Up to a thousand slots a batch: each keeps little (a Docker
        // log of 50 KB events would otherwise hold 50 MB a batch).
        if slot.scratch.capacity() > SCRATCH_KEEP {
            // A new vector: a shrunk one keeps its memory (see `Peeker::trim`).
            slot.scratch = Vec::new();
        }
        if slot.prepared.bytes.capacity() > SCRATCH_KEEP {
            slot.prepared.bytes = Vec::new();
        }
    }

    #[inline(always)]
    fn prefetch(slot: &LocateSlot, near: bool) {
        slot.peeker.prefetch(near);
    }

    fn wants_trim(slot: &LocateSlot) -> bool {
        slot.peeker.wants_trim()
            || slot.scratch.capacity() > SCRATCH_KEEP
            || slot.prepared.bytes.capacity() > SCRATCH_KEEP
    }
}

/// Runs `event` on the event [`locate_spot`] found in `line` (`spot`,
/// described by `peeker`, in `line` or in `scratch`): the event that
/// [`Input::found_line`] routes as it is. Without one, `out` is left as
/// it was (its result is not used).
fn prepare_found(
    event: &dyn PrepareEvent,
    line: &[u8],
    spot: Spot,
    peeker: &Peeker,
    scratch: &[u8],
    out: &mut Prepared,
) {
    let obj = match spot {
        Spot::Found(Found::At(start)) => line.get(start..).unwrap_or_default(),
        Spot::Found(Found::Unwrapped(true)) => scratch,
        _ => return,
    };
    event.prepare(obj, peeker, out);
}

impl Input {
    /// Closes the streams still open and adds those that `ended` before
    /// ([`Visit::Ended`]): every judged stream, in order of first
    /// appearance, except that the streams that never end at a summary
    /// (the unnamed stream, a run's tail) come after every run: they do
    /// not hold back the runs that end ([`Visit::Ended`]'s `settled`). The
    /// unnamed stream without a framework event is not an AOI stream: its
    /// lines are added to the skipped count instead.
    pub fn finish(mut self, mut ended: Vec<Judged>) -> (Vec<Judged>, Counts) {
        let shown = self.opts.shown;
        let mut open: Vec<Stream> = std::mem::take(&mut self.streams)
            .into_iter()
            .flatten()
            .collect();
        open.sort_by_key(|s| (!s.closes, s.order));
        for mut stream in open {
            if !stream.closes {
                stream.order = self.next_order;
                self.next_order += 1;
            }
            ended.extend(judged(stream, shown, &mut self.counts));
        }
        ended.sort_by_key(|j| j.order);
        (ended, self.counts)
    }

    /// One whole line of the input (`slot`: what the reading thread found
    /// in it, if it looked).
    fn prepared_line<E>(
        &mut self,
        line: &[u8],
        terminated: bool,
        slot: Option<&mut LocateSlot>,
        utf8_checked: bool,
        event: Option<&dyn PrepareEvent>,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.line_no += 1;
        if !self.opts.log {
            return match slot {
                Some(slot) => {
                    // The slot's peeker holds the line's peek: this input
                    // takes it for the line, and gives it back.
                    std::mem::swap(&mut self.peeker, &mut slot.peeker);
                    let r = self.strict_line(line, terminated, slot.peeked, visit);
                    std::mem::swap(&mut self.peeker, &mut slot.peeker);
                    r
                }
                None => {
                    let peeked = self.peeker.peek_checked(line, utf8_checked);
                    self.strict_line(line, terminated, peeked, visit)
                }
            };
        }
        let full = line.len();
        let line = trim_decoration(line);
        let decorated = line.len() != full;
        match slot {
            Some(slot) => {
                // The slot's peeker and scratch describe the event: this
                // input takes them for the line, and gives them back.
                std::mem::swap(&mut self.peeker, &mut slot.peeker);
                std::mem::swap(&mut self.scratch, &mut slot.scratch);
                let prepared = event.is_some();
                if prepared {
                    std::mem::swap(&mut self.prepared, &mut slot.prepared);
                    self.prepared_valid = true;
                }
                let r = self.found_line(line, terminated, slot.spot, decorated, visit);
                std::mem::swap(&mut self.peeker, &mut slot.peeker);
                std::mem::swap(&mut self.scratch, &mut slot.scratch);
                if prepared {
                    std::mem::swap(&mut self.prepared, &mut slot.prepared);
                }
                r
            }
            None => {
                let spot = locate_spot(line, &mut self.peeker, &mut self.scratch, utf8_checked);
                if let Some(event) = event {
                    let (peeker, scratch) = (&self.peeker, &self.scratch);
                    prepare_found(event, line, spot, peeker, scratch, &mut self.prepared);
                    self.prepared_valid = true;
                }
                self.found_line(line, terminated, spot, decorated, visit)
            }
        }
    }

    /// A line of an input read as one stream (not `--log`), which
    /// `self.peeker` has peeked (`result`: what the peek returned): judged
    /// as it is, as `aoi check` judges it, and visited when it is an event.
    fn strict_line<E>(
        &mut self,
        line: &[u8],
        terminated: bool,
        result: Result<(), JsonError>,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let line_no = self.line_no;
        let i = self.only_stream();
        let Some(stream) = self.streams.get_mut(i).and_then(Option::as_mut) else {
            return Ok(());
        };
        stream
            .judge
            .line_at(line, terminated, line_no, &mut self.peeker, result);
        if stream.judge.last_class() == LineClass::Invalid {
            return Ok(());
        }
        // The judge read the event after a byte order mark (`line.bom`):
        // so does the visitor, with a peek of it.
        let event = stream.judge.last_event(line);
        if event.len() != line.len() && self.peeker.peek(event).is_err() {
            return Ok(());
        }
        self.strict_visit(i, event, terminated, line_no, None, visit)
    }

    /// Visits the event `line` of the one stream `i` (without `--log`),
    /// which `self.peeker` describes; `long`: it is a long line's
    /// reduced copy, and where the event is in the line.
    fn strict_visit<E>(
        &mut self,
        i: usize,
        line: &[u8],
        terminated: bool,
        line_no: u64,
        long: Option<LongEvent>,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let raw_run = self.raw_run(line).0;
        let Some(stream) = self.streams.get_mut(i).and_then(Option::as_mut) else {
            return Ok(());
        };
        if stream.run.is_none() && !raw_run.is_empty() {
            let body = raw_run.get(1..raw_run.len() - 1).unwrap_or_default();
            stream.run = Some(unescape(body).into_owned());
        }
        visit(Visit::Event(Located {
            obj: line,
            terminated,
            line_no,
            raw_run,
            stream: self.stream(i),
            peek: &self.peeker,
            long,
            prepared: None,
        }))
    }

    /// `aoi.run` of the event `self.peeker` describes in `obj`, as written
    /// (quotes included; empty without one), and whether the peek read it
    /// in the usual shape (no escapes to decode).
    fn raw_run<'o>(&self, obj: &'o [u8]) -> (&'o [u8], bool) {
        raw_run_of(&self.peeker, obj)
    }

    /// Ends the input on a read error.
    fn read_failed(&mut self, e: &std::io::Error) {
        // A stop request (SIGINT/SIGTERM) is no fault of the input: the
        // caller ends its run as cancelled.
        if crate::cancel::requested().is_some() {
            return;
        }
        let msg = e.to_string();
        let timed_out = e.kind() == std::io::ErrorKind::TimedOut;
        // An open run, or an unnamed stream that is an AOI stream.
        let none_open = self
            .streams
            .iter()
            .flatten()
            .all(|s| s.run.is_none() && !s.framework);
        // Nothing was read, or every run had ended (their lines after
        // the error are unknown): the unnamed stream carries the error,
        // so the input fails for it and no ended run is blamed. Silence
        // after every run ended is a clean end.
        if self.next_order == 0 || (none_open && !timed_out) {
            match self.index.get(&b""[..]) {
                Some(Slot::Open(i)) => {
                    let i = *i;
                    if let Some(s) = self.stream_mut(i) {
                        s.framework = true;
                    }
                }
                _ => {
                    self.open_unnamed();
                }
            }
        }
        // § 4.2: silence past --idle-timeout ends every run of the input
        // still open with the timeout outcome (a run that already ended
        // keeps its verdict); another read error leaves them all
        // incomplete.
        for s in self.streams.iter_mut().flatten() {
            if !timed_out {
                s.judge.io_error(msg.clone());
            } else if !s.judge.summary_seen() {
                s.judge.idle_timeout(msg.clone());
            }
        }
    }
}

/// `aoi.run` of the event `peeker` describes in `obj`, as written (quotes
/// included; empty without one), and whether the peek read it in the
/// usual shape (no escapes to decode).
pub(crate) fn raw_run_of<'o>(peeker: &Peeker, obj: &'o [u8]) -> (&'o [u8], bool) {
    match &peeker.envelope {
        Some((_, run)) => (span(obj, run), true),
        None => (
            peeker
                .aoi_member
                .and_then(|i| peeker.members.get(i))
                .and_then(|env| envelope_run(obj, env))
                .unwrap_or_default(),
            false,
        ),
    }
}

/// The verdict of a stream, with up to `shown` findings; `None` for the
/// unnamed stream without a framework event, which is no AOI stream: its
/// lines are counted as skipped.
fn judged(stream: Stream, shown: usize, counts: &mut Counts) -> Option<Judged> {
    let mut judge = stream.judge;
    let mut findings: Vec<Finding> = judge.drain().take(shown).collect();
    let (verdict, last) = judge.finish();
    if stream.run.is_none() && !stream.framework {
        counts.skipped += verdict.lines;
        return None;
    }
    findings.extend(last.into_iter().take(shown.saturating_sub(findings.len())));
    Some(Judged {
        run: stream.run,
        verdict,
        findings,
        order: stream.order,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(line: &str) -> Option<String> {
        let mut p = Peeker::new();
        let mut scratch = Vec::new();
        match locate(line.as_bytes(), &mut p, &mut scratch, true)? {
            Found::At(i) => Some(line[i..].to_string()),
            Found::Unwrapped(_) => Some(String::from_utf8(scratch).unwrap()),
        }
    }

    #[test]
    fn locates_events_after_prefixes() {
        let ev = r#"{"type":"aoi:error","code":"X"}"#;
        assert_eq!(found(ev).as_deref(), Some(ev));
        assert_eq!(
            found(&format!("2026-07-30T12:00:00Z stdout F {ev}")).as_deref(),
            Some(ev)
        );
        assert_eq!(found(&format!("[{{w}}] {ev}")).as_deref(), Some(ev));
        assert_eq!(found("plain prose"), None);
        assert_eq!(found(&format!("{ev} trailing words")), None);
        // another program's JSON: an object without `type` is no event
        assert_eq!(found(r#"{"level":"info","msg":"{}"}"#), None);
        assert_eq!(found(r#"{"type":1}"#), None);
    }

    #[test]
    fn unwraps_docker_json_file_lines() {
        let line = r#"{"log":"{\"type\":\"aoi:error\",\"code\":\"X\"}\n","stream":"stdout","time":"2026-07-30T12:00:00Z"}"#;
        assert_eq!(
            found(line).as_deref(),
            Some(r#"{"type":"aoi:error","code":"X"}"#)
        );
    }

    #[test]
    fn trims_colour_and_cr() {
        assert_eq!(trim_decoration(b"{}\x1b[0m\r"), b"{}");
        assert_eq!(trim_decoration(b"{}\x1b[1;31m\x1b[0m"), b"{}");
        assert_eq!(trim_decoration(b"{\"m\":\"am\"}"), b"{\"m\":\"am\"}");
    }

    /// A line that `locate_spot` says the Docker join passes by is one
    /// that the join, reading it again, passes by (`Join::No`, no piece
    /// held): skipping it changes nothing.
    #[test]
    fn the_join_is_skipped_only_where_it_passes_by() {
        let ev = r#"{"type":"hit","aoi":{"seq":1,"run":"R"}}"#;
        let lines = [
            "plain prose, no brace",
            r#"{"level":"info","msg":"{}"}"#,
            r#"{"log":"prose\n","stream":"stdout"}"#,
            r#"{"log":"prose without its line feed","stream":"stdout"}"#,
            r#"{"log":"{\"type\":\"hit\"","stream":"stdout"}"#,
            r#"{"log":"x\\n"}"#,
            r#"{"log":1}"#,
            r#"{"log":"x\n","type":"y"}"#,
            r#"{"aoi":1,"aoi":2,"log":"x\n"} {"log":"y"}"#,
            r#"{bad {"log":"x\n"}"#,
            &format!("[{{w}}] {ev}"),
        ];
        for line in lines {
            let (mut p, mut scratch) = (Peeker::new(), Vec::new());
            let spot = locate_spot(line.as_bytes(), &mut p, &mut scratch, true);
            let Spot::None(record) = spot else {
                continue;
            };
            let mut pieces = docker::Pieces::default();
            let passes = matches!(pieces.join(line.as_bytes(), &mut p), docker::Join::No);
            if docker::Pieces::default().passes_by(record) {
                assert!(passes, "{line}");
            }
        }
        // Without a `{`, or with a `type`: no record, not read again.
        let mut p = Peeker::new();
        let spot = locate_spot(b"prose", &mut p, &mut Vec::new(), true);
        assert!(matches!(spot, Spot::None(Record::No)));
        let spot = locate_spot(br#"{"type":1,"log":"x\n"}"#, &mut p, &mut Vec::new(), true);
        assert!(matches!(spot, Spot::None(Record::No)));
        let spot = locate_spot(br#"{"log":"p\n"}"#, &mut p, &mut Vec::new(), true);
        assert!(matches!(spot, Spot::None(Record::Whole)));
    }
}
