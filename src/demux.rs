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
//! Memory: one judge per run open at once (issue 29). A run ends when its
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

pub use in_order::InOrder;

use std::collections::HashMap;
use std::io::Read;

use crate::drive::Source;
use crate::judge::fields::str_ref;
use crate::judge::{Finding, Judge, JudgeOptions, LineClass, Verdict, envelope_run};
use crate::lines::{Chunk, LineReader, split_lines_checked};
use crate::long::LongLine;
use crate::parallel::{Driven, Later, Piece, Prep, Threads};
use crate::peek::{Kind, Peeker, key_is, span, unescape, unescape_into};

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
    /// there (one verdict, issue 24).
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
    /// output format states (issue 24: leniency is asked for and shows).
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

/// What [`locate_spot`] found in a line: its event, or without one, what
/// it saw of the line as a Docker json-file record (so a line it has read
/// is not read again as one, [`docker::Pieces::join`]).
#[derive(Clone, Copy)]
enum Spot {
    Found(Found),
    None(Record),
}

// Two words, as `Option<Found>`: passed along for every line, in registers.
const _: () = assert!(std::mem::size_of::<Spot>() == 16);

impl Spot {
    /// `found`, with nothing known of a record.
    fn unknown(found: Option<Found>) -> Spot {
        found.map_or(Spot::None(Record::Unknown), Spot::Found)
    }

    /// The event found, if any.
    fn found(self) -> Option<Found> {
        match self {
            Spot::Found(f) => Some(f),
            Spot::None(_) => None,
        }
    }
}

/// A line as a Docker json-file record, as far as [`locate`] read it:
/// the object at its first `{`, without `type`, with a `log` string.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Record {
    /// Not one (no `{`, an invalid object, a `type`, no `log`).
    No,
    /// One whose `log` ends in its line feed: a whole line, no piece.
    Whole,
    /// A piece, or not known.
    Unknown,
}

/// A run key looked up lately and its stream ([`Input::recent`]).
struct Recent {
    /// [`key_tag`] of `key`.
    tag: u64,
    key: Vec<u8>,
    stream: usize,
}

/// A key's length and last eight bytes (its only bytes when shorter),
/// mixed: equal keys have one tag, and the run ids of one log, which
/// share their first bytes (a ULID's time), rarely share one.
#[inline]
fn key_tag(key: &[u8]) -> u64 {
    let tail = match key.last_chunk::<8>() {
        Some(t) => u64::from_le_bytes(*t),
        None => key.iter().fold(0, |w, &c| w << 8 | u64::from(c)),
    };
    tail ^ (key.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Where a line's event was found.
#[derive(Clone, Copy)]
enum Found {
    /// In the line, from this offset.
    At(usize),
    /// In the scratch buffer (a Docker json-file `log` string, unwrapped);
    /// false when the string did not end with its line feed (Docker cut the
    /// line: the event is not complete, § 2).
    Unwrapped(bool),
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
    mut visit: impl FnMut(Visit<'_>) -> Result<(), E>,
) -> Result<Input, E> {
    let mut input = read_all(src, opts, &mut visit)?;
    input.docker_end(&mut visit)?;
    Ok(input)
}

/// [`read`] up to the input's end.
fn read_all<R: Read + Send, E>(
    src: Source<R>,
    opts: &Options,
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
            read_here(&mut reader, &mut input, None, &mut visit)?;
            return Ok(input);
        }
        Threads::Two { whole_blocks } => whole_blocks,
        Threads::Later => {
            let later = Some(Later::default());
            if !read_here(&mut reader, &mut input, later, &mut visit)? {
                return Ok(input);
            }
            false
        }
    };
    let prep = LocateLines { log: opts.log };
    let driven = crate::parallel::drive(reader, whole_blocks, &prep, |piece| match piece {
        Piece::Lines(mut lines) => {
            lines.each(&prep, |line, terminated, slot, utf8_checked| {
                input.prepared_line(line, terminated, slot, utf8_checked, &mut visit)
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
            read_here(&mut reader, &mut input, None, &mut visit)?;
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
    mut later: Option<Later>,
    visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
) -> Result<bool, E> {
    loop {
        match reader.next_chunk() {
            Ok(None) => return Ok(false),
            Ok(Some(Chunk::Lines(block))) => {
                for (line, terminated, utf8_checked) in split_lines_checked(block) {
                    input.prepared_line(line, terminated, None, utf8_checked, visit)?;
                }
                visit(Visit::BlockEnd)?;
                if Later::due(&mut later, block) {
                    return Ok(true);
                }
            }
            Ok(Some(Chunk::LongPart { bytes, end })) => input.long_piece(bytes, end, visit)?,
            Err(e) => {
                input.read_failed(&e);
                return Ok(false);
            }
        }
    }
}

/// The work [`read`] moves to the reading thread: trimming a line's
/// decoration, finding its event and peeking it ([`locate`]).
struct LocateLines {
    log: bool,
}

/// What [`locate`] found in a line, with the peeker and the scratch buffer
/// it left describing the event.
pub(crate) struct LocateSlot {
    peeker: Box<Peeker>,
    scratch: Vec<u8>,
    spot: Spot,
}

impl Default for LocateSlot {
    fn default() -> Self {
        LocateSlot {
            peeker: Box::new(Peeker::new()),
            scratch: Vec::new(),
            spot: Spot::unknown(None),
        }
    }
}

impl Prep for LocateLines {
    type Slot = LocateSlot;

    /// Without `--log` this thread peeks each line itself.
    fn wants(&self, _line: &[u8], _terminated: bool) -> bool {
        self.log
    }

    fn prep(&self, slot: &mut LocateSlot, line: &[u8], utf8_checked: bool) {
        slot.spot = locate_spot(
            trim_decoration(line),
            &mut slot.peeker,
            &mut slot.scratch,
            utf8_checked,
        );
    }

    fn trim(slot: &mut LocateSlot) {
        slot.peeker.trim();
        // Up to a thousand slots a batch: each keeps little (a Docker
        // log of 50 KB events would otherwise hold 50 MB a batch).
        if slot.scratch.capacity() > SCRATCH_KEEP {
            // A new vector: a shrunk one keeps its memory (see `Peeker::trim`).
            slot.scratch = Vec::new();
        }
    }

    #[inline(always)]
    fn prefetch(slot: &LocateSlot, near: bool) {
        slot.peeker.prefetch(near);
    }

    fn wants_trim(slot: &LocateSlot) -> bool {
        slot.peeker.wants_trim() || slot.scratch.capacity() > SCRATCH_KEEP
    }
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

    /// Opens a stream for `run`, judged by `judge`; returns its place.
    fn open(&mut self, run: Option<String>, judge: Judge, closes: bool) -> usize {
        let stream = Stream {
            run,
            judge,
            framework: false,
            order: self.next_order,
            closes,
        };
        self.next_order += 1;
        if closes {
            self.open_orders.insert(stream.order);
        }
        self.open_runs += usize::from(stream.run.is_some());
        match self.free.pop() {
            Some(i) => {
                if let Some(place) = self.streams.get_mut(i) {
                    *place = Some(stream);
                }
                i
            }
            None => {
                self.streams.push(Some(stream));
                self.streams.len() - 1
            }
        }
    }

    /// Opens the unnamed stream, an AOI stream whatever it holds.
    fn open_unnamed(&mut self) -> usize {
        let i = self.open(None, Judge::new(self.opts.judge.clone()), false);
        if let Some(s) = self.stream_mut(i) {
            s.framework = true;
        }
        i
    }

    fn stream(&self, i: usize) -> Option<&Stream> {
        self.streams.get(i).and_then(Option::as_ref)
    }

    fn stream_mut(&mut self, i: usize) -> Option<&mut Stream> {
        self.streams.get_mut(i).and_then(Option::as_mut)
    }

    /// Keeps `key` among the latest ended runs, forgetting the oldest
    /// past [`ENDED_KEPT`] (unless its tail is open).
    fn forget_ended(&mut self, key: &[u8]) {
        self.ended.push_back(key.to_vec());
        if self.ended.len() <= ENDED_KEPT {
            return;
        }
        if let Some(old) = self.ended.pop_front() {
            if matches!(self.index.get(&old), Some(Slot::Ended(_))) {
                self.index.remove(&old);
            }
        }
    }

    /// Ends the run of stream `i` (keyed `key`) at its summary: its judge
    /// is finished and freed, its verdict visited, and only what a later
    /// line of it needs is kept.
    fn end_run<E>(
        &mut self,
        i: usize,
        key: &[u8],
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some(stream) = self.streams.get_mut(i).and_then(Option::take) else {
            return Ok(());
        };
        self.free.push(i);
        self.open_orders.remove(&stream.order);
        self.open_runs = self.open_runs.saturating_sub(1);
        self.recent.retain(|r| r.stream != i);
        self.next_recent = 0;
        if self.last == Some(i) {
            self.last = None;
        }
        if let (Some(at), Some(slot)) = (stream.judge.resume_point(), self.index.get_mut(key)) {
            *slot = Slot::Ended(at);
            self.forget_ended(key);
        }
        let settled = self.open_orders.first().copied();
        match judged(stream, self.opts.shown, &mut self.counts) {
            Some(run) => visit(Visit::Ended {
                run: Box::new(run),
                settled: settled.unwrap_or(self.next_order),
            }),
            None => Ok(()),
        }
    }

    /// One whole line of the input (`slot`: what the reading thread found
    /// in it, if it looked).
    fn prepared_line<E>(
        &mut self,
        line: &[u8],
        terminated: bool,
        slot: Option<&mut LocateSlot>,
        utf8_checked: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.line_no += 1;
        if !self.opts.log {
            return self.strict_line(line, terminated, utf8_checked, visit);
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
                let r = self.found_line(line, terminated, slot.spot, decorated, visit);
                std::mem::swap(&mut self.peeker, &mut slot.peeker);
                std::mem::swap(&mut self.scratch, &mut slot.scratch);
                r
            }
            None => {
                let spot = locate_spot(line, &mut self.peeker, &mut self.scratch, utf8_checked);
                self.found_line(line, terminated, spot, decorated, visit)
            }
        }
    }

    /// A line of an input read as one stream (not `--log`): judged as it
    /// is, as `aoi check` judges it, and visited when it is an event.
    fn strict_line<E>(
        &mut self,
        line: &[u8],
        terminated: bool,
        utf8_checked: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let line_no = self.line_no;
        let result = self.peeker.peek_checked(line, utf8_checked);
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
        }))
    }

    /// The one stream of an input read without `--log`, made at its first
    /// line; it is an AOI stream whatever it holds, as in `aoi check`.
    fn only_stream(&mut self) -> usize {
        if self.streams.is_empty() {
            self.open_unnamed();
        }
        self.last = Some(0);
        0
    }

    /// `aoi.run` of the event `self.peeker` describes in `obj`, as written
    /// (quotes included; empty without one), and whether the peek read it
    /// in the usual shape (no escapes to decode).
    fn raw_run<'o>(&self, obj: &'o [u8]) -> (&'o [u8], bool) {
        match &self.peeker.envelope {
            Some((_, run)) => (span(obj, run), true),
            None => (
                self.peeker
                    .aoi_member
                    .and_then(|i| self.peeker.members.get(i))
                    .and_then(|env| envelope_run(obj, env))
                    .unwrap_or_default(),
                false,
            ),
        }
    }

    /// A piece of a line longer than the reader holds (see
    /// [`Chunk::LongPart`]); on its last piece the line is judged and its
    /// event visited, as a short line's is.
    fn long_piece<E>(
        &mut self,
        bytes: &[u8],
        end: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if end {
            self.line_no += 1;
        }
        visit(Visit::LongPiece {
            bytes,
            first: !self.long_piece_seen,
        })?;
        self.long_piece_seen = !end;
        if self.opts.log {
            return self.log_long_piece(bytes, end, visit);
        }
        let i = self.only_stream();
        let Some(stream) = self.streams.get_mut(i).and_then(Option::as_mut) else {
            return Ok(());
        };
        stream.judge.long_part_at(bytes, end, Some(self.line_no));
        if !end || stream.judge.last_class() == LineClass::Invalid {
            return Ok(());
        }
        let mut obj = std::mem::take(&mut self.long_obj);
        obj.clear();
        obj.extend_from_slice(stream.judge.long_object());
        let long = stream.judge.long_line();
        let event = LongEvent {
            span: long.value_span(),
            envelope: long.envelope_cut(),
        };
        let r = match self.peeker.peek(&obj) {
            Ok(()) => self.strict_visit(i, &obj, true, self.line_no, Some(event), visit),
            Err(_) => Ok(()),
        };
        self.long_obj = obj;
        r
    }

    /// [`Input::long_piece`] with `--log`: the line is read from each of
    /// its first [`MAX_TRIES`] `{` at once (a prefix before the event is
    /// not known until the line ends); the first that makes an event
    /// (ignoring a trailing CR or colour code) is routed as a short line's.
    fn log_long_piece<E>(
        &mut self,
        bytes: &[u8],
        end: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let terminated = end && bytes.last() == Some(&b'\n');
        let body = if terminated {
            bytes.get(..bytes.len() - 1).unwrap_or_default()
        } else {
            bytes
        };
        if !self.long_open {
            self.long_open = true;
            self.long_head.clear();
            self.long_seen = 0;
            self.long.clear();
            self.long_suspect = false;
            self.long_edge.clear();
        } else {
            for (_, long) in self.long.iter_mut().filter(|(_, l)| !l.failed()) {
                long.feed(body);
            }
        }
        // The line's first `{` are tried, wherever they are (a prefix may
        // be longer than a piece), as a short line's are.
        let room = MAX_TRIES - self.long.len().min(MAX_TRIES);
        for start in memchr::memchr_iter(b'{', body).take(room) {
            let mut long = LongLine::new();
            long.feed(body.get(start..).unwrap_or_default());
            self.long.push((self.long_seen + start as u64, long));
        }
        self.suspect_scan(body);
        self.long_seen += body.len() as u64;
        let room = 4096usize
            .saturating_sub(self.long_head.len())
            .min(body.len());
        self.long_head
            .extend_from_slice(body.get(..room).unwrap_or_default());
        if !end {
            return Ok(());
        }
        self.long_open = false;
        let mut longs = std::mem::take(&mut self.long);
        let mut obj = std::mem::take(&mut self.long_obj);
        let mut found: Option<(bool, LongEvent, u64)> = None;
        for (at, long) in longs.iter_mut() {
            let r = long.end();
            let (decorated, lone) = (r.decorated, r.lone_surrogate);
            let decoration = r
                .result
                .is_err_and(|e| e.kind == crate::peek::JsonErrorKind::TrailingContent && decorated);
            if found.is_some() || r.top != Some(Kind::Object) || !(r.result.is_ok() || decoration) {
                continue;
            }
            obj.clear();
            obj.extend_from_slice(r.object);
            if self.peeker.peek(&obj).is_ok() && event_like(&self.peeker) {
                // The whole line's, not its copy's (a stand-in may hold
                // none of it).
                self.peeker.lone_surrogate = lone;
                let shift = |r: std::ops::Range<u64>| r.start + *at..r.end + *at;
                let event = LongEvent {
                    span: shift(long.value_span()),
                    envelope: long.envelope_cut().map(shift),
                };
                found = Some((*at > 0 || decorated, event, *at));
            }
        }
        self.long = longs;
        let head = std::mem::take(&mut self.long_head);
        let r = match found {
            Some((decorated, event, at)) => {
                self.long_event = Some(event);
                self.long_len = Some(self.long_seen - at);
                let at = Spot::unknown(Some(Found::At(0)));
                let r = self.found_line(&obj, terminated, at, decorated, visit);
                self.long_event = None;
                self.long_len = None;
                r
            }
            None => {
                self.long_len = Some(self.long_seen);
                let r = self.found_line(&head, terminated, Spot::unknown(None), false, visit);
                self.long_len = None;
                r
            }
        };
        self.long_head = head;
        self.long_obj = obj;
        r
    }

    /// Looks for `aoi:error` in a piece of a long line, across the
    /// boundary with the previous one.
    fn suspect_scan(&mut self, body: &[u8]) {
        const NEEDLE: &[u8] = b"aoi:error";
        if self.long_suspect {
            return;
        }
        let keep = NEEDLE.len() - 1;
        self.long_edge
            .extend_from_slice(body.get(..keep.min(body.len())).unwrap_or_default());
        self.long_suspect = memchr::memmem::find(&self.long_edge, NEEDLE).is_some()
            || memchr::memmem::find(body, NEEDLE).is_some();
        let edge = body
            .get(body.len().saturating_sub(keep)..)
            .unwrap_or_default();
        if body.len() >= keep {
            self.long_edge.clear();
        } else {
            let extra = self.long_edge.len().saturating_sub(keep);
            self.long_edge.drain(..extra);
            return;
        }
        self.long_edge.extend_from_slice(edge);
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

    /// A line (trimmed of its decoration) after [`locate_spot`] looked in
    /// it: `spot` is what it found, described by `self.peeker` (and
    /// `self.scratch` for an unwrapped one); `decorated`: a decoration
    /// was trimmed off its end.
    fn found_line<E>(
        &mut self,
        line: &[u8],
        terminated: bool,
        spot: Spot,
        decorated: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let line_no = self.line_no;
        // A Docker record without its `\n` is a piece of a split line,
        // even when the piece happens to hold an object (a cut right after
        // a nested one, or a line of exactly 16 KiB): it is joined first.
        let found = match spot {
            Spot::Found(f @ (Found::At(_) | Found::Unwrapped(true))) => Some(f),
            // A piece of a split line: held, neither event nor prose (the
            // event is counted once, at its last piece).
            _ => match self.joined(line, spot) {
                Some(found) => found,
                None => return Ok(()),
            },
        };
        let Some(found) = found else {
            // § 2: a cut final line is the truncation of the stream that
            // was writing last (if it has not ended); its judge reports it
            // (`line.unterminated`).
            let open = self
                .last
                .and_then(|i| self.streams.get_mut(i))
                .and_then(Option::as_mut)
                .filter(|s| !s.judge.summary_seen());
            match open {
                // A long line's start stands for it: its length is counted.
                Some(stream) if !terminated => match self.long_len {
                    Some(len) => stream.judge.cut_line(len, line_no),
                    None => stream
                        .judge
                        .line_at(line, false, line_no, &mut self.peeker, Ok(())),
                },
                _ => {
                    self.counts.skipped += 1;
                    // One searcher for every skipped line (building one per
                    // call cost more than the search on short prose lines).
                    static SUSPECT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
                        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"aoi:error"));
                    let suspect = match self.long_len {
                        Some(_) => self.long_suspect,
                        None => SUSPECT.find(line).is_some(),
                    };
                    if suspect {
                        self.counts.suspect += 1;
                    }
                }
            }
            return Ok(());
        };
        if decorated || !matches!(found, Found::At(0)) {
            self.counts.trimmed += 1;
        }
        let scratch = std::mem::take(&mut self.scratch);
        let (obj, terminated): (&[u8], bool) = match found {
            Found::At(start) => (line.get(start..).unwrap_or_default(), terminated),
            Found::Unwrapped(complete) => (&scratch, terminated && complete),
        };
        let r = self.route(obj, terminated, line_no, visit);
        self.scratch = scratch;
        r
    }

    /// What [`Input::found_line`] reads in `line`, a line without an
    /// event or a piece of one (`spot.found` is `None` or
    /// `Unwrapped(false)`), once Docker's split lines are joined; `None`
    /// for a piece held until its line's last.
    fn joined(&mut self, line: &[u8], spot: Spot) -> Option<Option<Found>> {
        let found = spot.found();
        if self.long_len.is_some() {
            return Some(found);
        }
        // Most lines without an event are prose that `locate` saw is no
        // record: not read again.
        if matches!(spot, Spot::None(record) if self.docker.passes_by(record)) {
            return Some(None);
        }
        match self.docker.join(line, &mut self.peeker) {
            docker::Join::Held => None,
            docker::Join::Whole(text) => {
                self.scratch = text;
                Some(self.unwrap_joined())
            }
            docker::Join::No => Some(found.and_then(|_| self.relocate(line))),
        }
    }

    /// `line` located again (the join above read it with `self.peeker`).
    fn relocate(&mut self, line: &[u8]) -> Option<Found> {
        locate(line, &mut self.peeker, &mut self.scratch, false)
    }

    /// At the input's end, the pieces of a split Docker line still held
    /// are that line, cut (§ 2): judged as a cut final line is.
    fn docker_end<E>(
        &mut self,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        for mut text in self.docker.take_open() {
            while matches!(text.last(), Some(b'\n' | b'\r')) {
                text.pop();
            }
            let spot = locate_spot(&text, &mut self.peeker, &mut self.scratch, false);
            self.found_line(&text, false, spot, false, visit)?;
        }
        Ok(())
    }

    /// A joined Docker line in `self.scratch`, located as an unwrapped
    /// record's event is (see `locate`), `self.peeker` describing it.
    fn unwrap_joined(&mut self) -> Option<Found> {
        locate_unwrapped(&mut self.scratch, &mut self.peeker)
    }

    /// Keeps `key`'s stream among the [`Input::recent`] ones, in place of
    /// the oldest (keys past a few hundred bytes are not kept: the hash
    /// finds them, and no buffer keeps their size).
    fn remember(&mut self, key: &[u8], stream: usize) {
        const RECENT: usize = 8;
        const LONGEST: usize = 256;
        if key.len() > LONGEST {
            return;
        }
        let tag = key_tag(key);
        if self.recent.len() < RECENT {
            self.recent.push(Recent {
                tag,
                key: key.to_vec(),
                stream,
            });
        } else if let Some(r) = self.recent.get_mut(self.next_recent) {
            r.tag = tag;
            r.key.clear();
            r.key.extend_from_slice(key);
            r.stream = stream;
            self.next_recent = (self.next_recent + 1) % RECENT;
        }
    }

    /// The stream of `key` if it is among the [`Input::recent`] ones.
    #[inline]
    fn cached(&self, key: &[u8]) -> Option<usize> {
        // The tags differ for all but the one key that matches, so its
        // bytes are compared once, not once per run in the log.
        let tag = key_tag(key);
        self.recent
            .iter()
            .find(|r| r.tag == tag && r.key == key)
            .map(|r| r.stream)
    }

    /// Judges a located event in its run's stream, then visits it.
    fn route<E>(
        &mut self,
        obj: &[u8],
        terminated: bool,
        line_no: u64,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        // The run as written (quotes included) and as decoded.
        let (raw_run, plain) = self.raw_run(obj);
        let body = raw_run
            .get(1..raw_run.len().saturating_sub(1))
            .unwrap_or_default();
        let key: std::borrow::Cow<'_, [u8]> = if !plain && body.contains(&b'\\') {
            std::borrow::Cow::Owned(unescape(body).into_owned().into_bytes())
        } else {
            std::borrow::Cow::Borrowed(body)
        };
        let key: &[u8] = &key;
        let cached = self.cached(key);
        let idx = match cached {
            Some(i) => Some(i),
            None => match self.stream_of(key, raw_run) {
                Some(idx) => idx,
                // Another run than the one asked for.
                None => return Ok(()),
            },
        };
        if let Some(i) = idx {
            self.last = Some(i);
            if cached.is_none() {
                self.remember(key, i);
            }
        }
        match idx
            .and_then(|i| self.streams.get_mut(i))
            .and_then(Option::as_mut)
        {
            Some(stream) => {
                // A long line's event stands for it: a cut one is counted
                // at its length, not its reduced copy's.
                match self.long_len.filter(|_| !terminated) {
                    Some(len) => stream.judge.cut_line(len, line_no),
                    None => {
                        stream
                            .judge
                            .line_at(obj, terminated, line_no, &mut self.peeker, Ok(()))
                    }
                }
                if stream.judge.last_class() == LineClass::Framework {
                    stream.framework = true;
                }
            }
            None => {
                self.counts.untracked += 1;
                if terminated {
                    let ty = self
                        .peeker
                        .type_member
                        .and_then(|i| self.peeker.members.get(i))
                        .and_then(|m| str_ref(obj, m));
                    let c = &mut self.counts.untracked_events;
                    match ty.as_deref() {
                        Some("aoi:error") => c.2 += 1,
                        Some("aoi:warning") => c.1 += 1,
                        Some(t) if !t.starts_with("aoi:") => c.0 += 1,
                        _ => {}
                    }
                }
            }
        }
        visit(Visit::Event(Located {
            obj,
            terminated,
            line_no,
            raw_run,
            stream: idx
                .and_then(|i| self.streams.get(i))
                .and_then(Option::as_ref),
            peek: &self.peeker,
            long: self.long_event.take(),
        }))?;
        match idx {
            Some(i)
                if self
                    .stream(i)
                    .is_some_and(|s| s.closes && s.judge.summary_seen()) =>
            {
                self.end_run(i, key, visit)
            }
            _ => Ok(()),
        }
    }

    /// The stream of a run not among the recent ones (`key`: its decoded
    /// `aoi.run`; `raw_run`: as written): its open stream, its tail when
    /// it had ended, a new stream when it is new, `Some(None)` when it is
    /// not judged (past `max_runs` open runs), `None` when it is not the
    /// run asked for.
    fn stream_of(&mut self, key: &[u8], raw_run: &[u8]) -> Option<Option<usize>> {
        let slot = self.index.get(key).copied();
        if let Some(Slot::Open(i)) = slot {
            return Some(Some(i));
        }
        if matches!(slot, Some(Slot::Untracked)) {
            return Some(None);
        }
        let run = (!raw_run.is_empty()).then(|| String::from_utf8_lossy(key).into_owned());
        if slot.is_none() {
            if let Some(want) = &self.opts.run {
                if !run.as_deref().is_some_and(|r| run_matches(r, want)) {
                    self.counts.other_runs += 1;
                    // Events without a run are named too: an input of them
                    // holds no run to ask for, which is said as such.
                    self.counts
                        .name_other_run(run.as_deref().unwrap_or(WITHOUT_RUN));
                    return None;
                }
            }
        }
        let named = run.is_some();
        if named && self.open_runs >= self.opts.max_runs {
            self.index.insert(key.to_vec(), Slot::Untracked);
            return Some(None);
        }
        let opts = self.opts.judge.clone();
        let i = match slot {
            // § 13.1: a line after the run's summary; the run's tail.
            Some(Slot::Ended(at)) => {
                self.open(run, Judge::resumed(opts, at, raw_run.to_vec()), false)
            }
            _ => self.open(run, Judge::new(opts), named),
        };
        self.index.insert(key.to_vec(), Slot::Open(i));
        Some(Some(i))
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

/// Finds the AOI event in a log line, leaving `peeker` describing it
/// (`utf8_checked`: the line is known to be UTF-8, [`Peeker::peek_checked`]).
fn locate(
    line: &[u8],
    peeker: &mut Peeker,
    scratch: &mut Vec<u8>,
    utf8_checked: bool,
) -> Option<Found> {
    locate_spot(line, peeker, scratch, utf8_checked).found()
}

/// [`locate`], with what it learnt of the line as a Docker record.
fn locate_spot(
    line: &[u8],
    peeker: &mut Peeker,
    scratch: &mut Vec<u8>,
    utf8_checked: bool,
) -> Spot {
    let (start, first) = match locate_in(line, peeker, utf8_checked) {
        Ok(at) => at,
        Err(record) => return Spot::None(record),
    };
    if peeker.type_member.is_some() {
        return Spot::unknown(Some(Found::At(start)));
    }
    // A Docker json-file line: the event is the `log` string, with its \n.
    let Some((obj, log)) = line
        .get(start..)
        .and_then(|obj| Some((obj, log_member(obj, peeker)?)))
    else {
        // The object at the line's first `{` has no `log`: no record.
        return Spot::None(if first { Record::No } else { Record::Unknown });
    };
    let raw = span(obj, &log);
    let Some(body) = raw.get(1..raw.len().saturating_sub(1)) else {
        return Spot::unknown(None);
    };
    scratch.clear();
    unescape_into(body, scratch);
    let record = if first && scratch.last() == Some(&b'\n') {
        Record::Whole
    } else {
        Record::Unknown
    };
    match locate_unwrapped(scratch, peeker) {
        Some(found) => Spot::Found(found),
        None => Spot::None(record),
    }
}

/// The span of the `log` string of the object `peeker` describes, if any.
fn log_member(obj: &[u8], peeker: &Peeker) -> Option<std::ops::Range<usize>> {
    let log = peeker.members.iter().find(|m| {
        key_is(span(obj, &m.key), m.key_escaped, "log") && matches!(m.kind, Kind::String { .. })
    })?;
    Some(log.value.clone())
}

/// The event in an unwrapped Docker line (`scratch`, its decoded `log`):
/// left alone in `scratch` and described by `peeker`; a cut line when
/// its `\n` is missing.
fn locate_unwrapped(scratch: &mut Vec<u8>, peeker: &mut Peeker) -> Option<Found> {
    let complete = scratch.last() == Some(&b'\n');
    while matches!(scratch.last(), Some(b'\n' | b'\r')) {
        scratch.pop();
    }
    let (inner, _) = locate_in(scratch, peeker, false).ok()?;
    peeker.type_member?;
    // Usually the event starts the string: the peek's spans already
    // index the buffer.
    if inner > 0 {
        scratch.drain(..inner);
        // `drain` moved the bytes: peek again so the spans index the buffer.
        peeker.peek(scratch).ok()?;
    }
    Some(Found::Unwrapped(complete))
}

/// The offset of the first `{` (of [`MAX_TRIES`]) that starts a JSON
/// object running to the end of `line` whose `type`, if any, is a string,
/// and whether it is the line's first `{`. Without one, what the first
/// `{` showed of a Docker record: [`Record::No`] when the line has no `{`,
/// or the object there is invalid or has a `type`.
fn locate_in(
    line: &[u8],
    peeker: &mut Peeker,
    utf8_checked: bool,
) -> Result<(usize, bool), Record> {
    let mut from = 0;
    let mut record = Record::No;
    for n in 0..MAX_TRIES {
        // A clean stream's line starts with its object: no search.
        let start = if line.get(from) == Some(&b'{') {
            from
        } else {
            let rest = line.get(from..).ok_or(record)?;
            from + memchr::memchr(b'{', rest).ok_or(record)?
        };
        let obj = line.get(start..).ok_or(record)?;
        // From a `{`, so still UTF-8 when the line is.
        let ok = peeker.peek_checked(obj, utf8_checked).is_ok();
        if ok && event_like(peeker) {
            return Ok((start, n == 0));
        }
        if n == 0 && ok && peeker.type_member.is_none() {
            record = Record::Unknown;
        }
        from = start + 1;
    }
    Err(record)
}

/// Whether what `peeker` last read can be an event of a log: an object
/// whose `type`, if any, is a string, with each reserved name once.
fn event_like(peeker: &Peeker) -> bool {
    let typed = peeker
        .type_member
        .and_then(|i| peeker.members.get(i))
        .is_none_or(|m| matches!(m.kind, Kind::String { .. }));
    peeker.top == Some(Kind::Object) && typed && peeker.reserved_dups.is_empty()
}

/// A log line without what loggers wrap around an event: a trailing CR
/// and trailing ANSI SGR sequences (`…}\x1b[0m`).
pub(crate) fn trim_decoration(mut line: &[u8]) -> &[u8] {
    loop {
        let before = line.len();
        line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.last() == Some(&b'm') {
            // `ESC [ digits/semicolons m`
            let body = line.len() - 1;
            let params = line
                .get(..body)
                .unwrap_or_default()
                .iter()
                .rev()
                .take_while(|c| c.is_ascii_digit() || **c == b';')
                .count();
            let open = body - params;
            if open >= 2 && line.get(open - 2..open) == Some(b"\x1b[") {
                line = line.get(..open - 2).unwrap_or_default();
            }
        }
        if line.len() == before {
            return line;
        }
    }
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
