//! The judged input of jq's modes (`-r`, `-c`, `-n`, `-s`): the
//! events of the inputs, each input judged line by line as `aoi check`
//! judges it (the same [`Judge`]), pulled by the program (`input`,
//! `inputs`, or one event after another) rather than pushed to it as
//! [`crate::drive`] does, so that `-n` and `-s` read at the program's
//! pace. Whatever the program leaves unread is still read to the end and
//! judged ([`Shared::draining`]): a `-n 'input'` does not make a cut
//! stream look complete.
//!
//! The events given are those the framed mode gives its filter: domain
//! events, and framework events too with `--framework`.

use std::cell::RefCell;
use std::io::{self, Read};
use std::path::Path;
use std::rc::Rc;

use jaq_json::Val;

use crate::cli::FilterArgs;
use crate::jq;
use crate::judge::{Finding, Judge, LineClass, Verdict};
use crate::lines::{Chunk, LineReader, split_lines_checked};
use crate::out::{Judging, Stop, cancelled, eprint_line, open_input, source_holding};

/// Lines of aoi's own said for the filter's failures before they are only
/// counted (the closing line gives the count).
const SAID_ERRORS: u64 = 10;
/// Findings kept per input for stderr, as in the framed mode.
const SHOWN: usize = 10;

/// How one input ended.
pub(super) enum Ended {
    /// Read to its end and judged: its verdict and first findings.
    Judged(String, Box<Verdict>, Vec<Finding>),
    /// It could not be opened: its name and why.
    Unreadable(String, String),
}

/// What the events and the program share: where the last event came from,
/// the filter's own failures, how each input ended.
#[derive(Default)]
pub(super) struct Shared {
    pub(super) quiet: bool,
    source: String,
    line: u64,
    /// The filter's own failures (item errors) and the first, described.
    pub(super) item_errors: u64,
    pub(super) first_code: Option<&'static str>,
    pub(super) first_said: Option<String>,
    pub(super) ended: Vec<Ended>,
    /// SIGINT/SIGTERM stopped the reading.
    pub(super) stop: Option<Stop>,
    /// The program is done: the rest is read and judged, not parsed.
    pub(super) draining: bool,
}

impl Shared {
    /// Nothing read yet; `quiet`: `-q`, aoi says nothing on stderr.
    pub(super) fn new(quiet: bool) -> Self {
        Shared {
            quiet,
            ..Shared::default()
        }
    }

    /// Where the last event given came from: `-:3`, `a.jsonl:3`.
    fn place(&self) -> String {
        format!("{}:{}", self.source, self.line)
    }

    /// One of the filter's own failures (an item error of the framed
    /// mode: `code` is its code there), said on stderr as jq says its
    /// errors, with where the event came from.
    pub(super) fn item_error(&mut self, code: &'static str, msg: &str) {
        self.item_errors += 1;
        let said = match self.line {
            0 => format!("{code}: {msg}"),
            _ => format!("{code} at {}: {msg}", self.place()),
        };
        if self.item_errors <= SAID_ERRORS {
            eprint_line(self.quiet, &format!("aoi filter: {said}"));
        }
        self.first_code.get_or_insert(code);
        self.first_said.get_or_insert(said);
    }
}

/// One input being read: its reader and its judge.
struct Current {
    reader: LineReader<Box<dyn Read + Send>>,
    judge: Judge,
    source: String,
    shown: Vec<Finding>,
}

/// The events of the inputs, judged, one by one ([`Iterator`] for jaq's
/// `inputs`).
pub(super) struct JudgedEvents<'a> {
    args: &'a FilterArgs,
    judging: &'a Judging,
    paths: std::vec::IntoIter<&'a Path>,
    cur: Option<Current>,
    /// A copy of the block of lines being given, and each line's start,
    /// length, whether it ended in `\n` and whether its UTF-8 was checked.
    block: Vec<u8>,
    lines: Vec<(usize, usize, bool, bool)>,
    next: usize,
    shared: Rc<RefCell<Shared>>,
}

impl<'a> JudgedEvents<'a> {
    pub(super) fn new(
        args: &'a FilterArgs,
        judging: &'a Judging,
        paths: Vec<&'a Path>,
        shared: Rc<RefCell<Shared>>,
    ) -> Self {
        JudgedEvents {
            args,
            judging,
            paths: paths.into_iter(),
            cur: None,
            block: Vec::new(),
            lines: Vec::new(),
            next: 0,
            shared,
        }
    }

    /// Opens the next input; false when there is none left.
    fn open_next(&mut self) -> bool {
        let Some(path) = self.paths.next() else {
            return false;
        };
        let source = path.display().to_string();
        let (reading, hold) = (self.judging.reading, self.args.max_line_bytes);
        // jq's input_filename: the file being read, null for stdin.
        let stdin = path == Path::new("-");
        crate::jq::set_input_filename((!stdin).then(|| path.to_string_lossy()).as_deref());
        let reader = if stdin {
            crate::out::opening_stdin();
            source_holding(io::stdin(), reading, hold).reader
        } else {
            match open_input(path) {
                Ok(file) => source_holding(file, reading, hold).reader,
                Err(msg) => {
                    let ended = Ended::Unreadable(source, msg);
                    self.shared.borrow_mut().ended.push(ended);
                    return true;
                }
            }
        };
        self.cur = Some(Current {
            reader,
            judge: Judge::new(self.judging.options(SHOWN as u64)),
            source,
            shown: Vec::new(),
        });
        true
    }

    /// Reads the current input's next chunk: true when there is more to
    /// give, false at its end (it is then judged and closed).
    fn read_more(&mut self) -> bool {
        let Some(cur) = self.cur.as_mut() else {
            return false;
        };
        let more = match cur.reader.next_chunk() {
            Ok(None) => false,
            Ok(Some(Chunk::Lines(block))) => {
                self.block.clear();
                self.block.extend_from_slice(block);
                self.lines.clear();
                self.next = 0;
                let base = self.block.as_ptr() as usize;
                for (line, terminated, checked) in split_lines_checked(&self.block) {
                    let start = line.as_ptr() as usize - base;
                    self.lines.push((start, line.len(), terminated, checked));
                }
                true
            }
            Ok(Some(Chunk::LongPart { bytes, end })) => {
                cur.judge.long_part(bytes, end);
                if end {
                    // The reduced copy: never given to the filter, which
                    // holds whole events only (its item error).
                    let line = cur.judge.long_object();
                    take(&cur.judge, line, self.args, &cur.source, &self.shared);
                }
                true
            }
            Err(e) => {
                crate::drive::read_failed(&mut cur.judge, &e);
                false
            }
        };
        let room = SHOWN.saturating_sub(cur.shown.len());
        cur.shown.extend(cur.judge.drain().take(room));
        if !more {
            self.close();
        }
        more || self.cur.is_some()
    }

    /// Ends the current input: judged to its end, or stopped by a signal.
    fn close(&mut self) {
        let Some(mut cur) = self.cur.take() else {
            return;
        };
        let mut shared = self.shared.borrow_mut();
        if let Err(stop) = cancelled() {
            shared.stop = Some(stop);
            return;
        }
        let room = SHOWN.saturating_sub(cur.shown.len());
        cur.shown.extend(cur.judge.drain().take(room));
        let (v, last) = cur.judge.finish();
        let room = SHOWN.saturating_sub(cur.shown.len());
        cur.shown.extend(last.into_iter().take(room));
        shared
            .ended
            .push(Ended::Judged(cur.source, Box::new(v), cur.shown));
    }
}

impl Iterator for JudgedEvents<'_> {
    type Item = Result<Val, String>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.shared.borrow().stop.is_some() {
                return None;
            }
            if let (Some(cur), Some(&(start, len, term, checked))) =
                (self.cur.as_mut(), self.lines.get(self.next))
            {
                self.next += 1;
                let line = self.block.get(start..start + len).unwrap_or_default();
                cur.judge.line_checked(line, term, checked);
                if let Some(v) = take(&cur.judge, line, self.args, &cur.source, &self.shared) {
                    return Some(Ok(v));
                }
                continue;
            }
            self.lines.clear();
            if self.cur.is_none() && !self.open_next() {
                return None;
            }
            self.read_more();
        }
    }
}

/// The value the program is given for the line just judged, if any: a
/// domain event (a framework event too with `--framework`), parsed from
/// its bytes as it came. An event the filter cannot hold (longer than
/// `--max-line-bytes`, nested past jq's depth) is the filter's own
/// failure, as in the framed mode, and is not given.
fn take(
    judge: &Judge,
    line: &[u8],
    args: &FilterArgs,
    source: &str,
    shared: &RefCell<Shared>,
) -> Option<Val> {
    let wanted = match judge.last_class() {
        LineClass::Domain => true,
        LineClass::Framework => args.framework,
        LineClass::Invalid => false,
    };
    let mut shared = shared.borrow_mut();
    if !wanted || shared.draining {
        return None;
    }
    if shared.source != source {
        shared.source = source.to_string();
    }
    shared.line = judge.line_no();
    let line = judge.last_event(line);
    if judge.last_long() {
        let msg = format!(
            "event longer than --max-line-bytes {}: the filter does not hold it",
            args.max_line_bytes
        );
        shared.item_error("INPUT_TOO_LONG", &msg);
        return None;
    }
    if jq::too_deep(line) {
        let msg = format!("event nests deeper than {} levels", jq::MAX_DEPTH);
        shared.item_error("INPUT_TOO_DEEP", &msg);
        return None;
    }
    match jq::object_from_peek(line, judge.last_peek()) {
        Ok(v) => Some(v),
        Err(e) => {
            let msg = format!("the filter cannot read the event: {e}");
            shared.item_error("INPUT_UNREADABLE", &msg);
            None
        }
    }
}
