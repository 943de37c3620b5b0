//! Many files filtered at once: workers run the filter over the
//! files up to 1 MiB, each on one thread ([`crate::pool`]), recording what
//! they would write to aoi's report and to stderr; the caller replays each
//! in input order into the one report, which numbers the events, so
//! stdout, stderr and the exit are one thread's (but for aoi's run id and
//! times). A larger file, whose results grow with it, is filtered in its
//! turn. A halt in one file stops the filter for the files after it: their
//! workers' results are dropped at replay, as one thread never made them.
//!
//! `--raw` is not here: jq's `input` may read on across files.

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use jaq_core::Vars;
use serde_json::Value;

use super::framed::{Framed, Taken, close_framed, framed_stream, take_input};
use super::jq_args::globals;
use crate::cli::{FilterArgs, JudgeArgs};
use crate::jq::{self, Filter};
use crate::judge::{Finding, Verdict};
use crate::out::{Sinks, Stop, open_input, source_holding};

/// Where a filtered stream's events go: aoi's report ([`Sinks`]), or a
/// worker's [`Recording`] of it.
pub(super) trait Emit {
    /// A domain event, its members encoded.
    fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Stop>;
    /// An upstream `aoi:error` or `aoi:warning`, passed on.
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop>;
    /// aoi's own item-level `aoi:error` (code `code`, said on stderr as
    /// `said` when it is the first).
    fn item_error(
        &mut self,
        code: &str,
        fields: &[(&'static str, Value)],
        said: &str,
    ) -> Result<(), Stop>;
    /// The end of a block read: what was written goes out.
    fn flush(&mut self) -> Result<(), Stop>;
    /// The filter halted with exit code `h`.
    fn halted(&mut self, h: i32);
    /// A stream stopped early: what was read of it was consumed (§ 8.3).
    fn consumed(&mut self, v: &Verdict);
}

impl Emit for Sinks {
    fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Stop> {
        self.out.raw_event(ty, body)
    }
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop> {
        self.out.forward(ty, body)
    }
    fn item_error(
        &mut self,
        _code: &str,
        fields: &[(&'static str, Value)],
        _said: &str,
    ) -> Result<(), Stop> {
        self.out.event("aoi:error", fields)
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.out.flush()
    }
    fn halted(&mut self, _h: i32) {
        HALTED.store(true, Ordering::Relaxed);
    }
    fn consumed(&mut self, v: &Verdict) {
        self.add_consumed(v);
    }
}

/// Set when aoi's report halts (`halt`, `halt_error`): workers stop
/// running the filter on later files' events, whose results the report
/// drops, as one thread never runs it after a halt.
static HALTED: AtomicBool = AtomicBool::new(false);

/// Whether aoi's report halted.
pub(super) fn halted_in_report() -> bool {
    HALTED.load(Ordering::Relaxed)
}

/// What a worker made of one input.
pub(super) enum Filtered {
    /// Nothing yet: the input is filtered in its turn.
    InTurn,
    /// It could not be opened: why.
    Unreadable(String),
    /// Filtered whole.
    Whole(Box<Whole>),
}

/// A small file filtered whole: what it wrote, its verdict and first
/// findings.
pub(super) struct Whole {
    recs: Vec<Rec>,
    verdict: Verdict,
    shown: Vec<Finding>,
}

/// One thing a worker's filter would have written, in order.
enum Rec {
    Event(String, Vec<u8>),
    Forward(&'static str, Vec<u8>),
    ItemError(String, Vec<(&'static str, Value)>, String),
    Halt(i32),
    /// What the filter wrote to stderr (`debug`, `stderr`, `halt_error`).
    Stderr(Vec<u8>),
    Flush,
}

/// What an item error is counted as, in bytes, against a worker's room.
const ITEM_ERROR_BYTES: usize = 512;

/// A worker's record of one file, within the room it may keep (past it,
/// recording fails and the file is filtered in its turn).
struct Recording {
    recs: Vec<Rec>,
    held: usize,
    room: usize,
}

impl Recording {
    /// Keeps what the filter wrote to stderr so far, where it wrote it;
    /// fails past the room (the capture itself stops there).
    fn said(&mut self) -> Result<(), Stop> {
        let said = jq::take_captured();
        if !said.is_empty() {
            self.held += said.len();
            self.recs.push(Rec::Stderr(said));
        }
        self.within_room()
    }

    fn within_room(&self) -> Result<(), Stop> {
        match self.held > self.room || jq::capture_full() {
            true => Err(Stop::Failed(io::Error::other("more than a worker keeps"))),
            false => Ok(()),
        }
    }

    /// Keeps `rec`, after what the filter wrote to stderr before it.
    fn keep(&mut self, rec: Rec, bytes: usize) -> Result<(), Stop> {
        self.said()?;
        self.held += bytes;
        self.within_room()?;
        self.recs.push(rec);
        Ok(())
    }
}

impl Emit for Recording {
    fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Stop> {
        let n = ty.len() + body.len();
        self.keep(Rec::Event(ty.to_string(), body.to_vec()), n)
    }
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop> {
        self.keep(Rec::Forward(ty, body.to_vec()), body.len())
    }
    fn item_error(
        &mut self,
        code: &str,
        fields: &[(&'static str, Value)],
        said: &str,
    ) -> Result<(), Stop> {
        let rec = Rec::ItemError(code.to_string(), fields.to_vec(), said.to_string());
        self.keep(rec, ITEM_ERROR_BYTES + said.len())
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.said()?;
        // Kept even when the file wrote nothing yet: what came before it
        // (aoi:meta, an earlier file's last events) goes out there.
        if !matches!(self.recs.last(), Some(Rec::Flush)) {
            self.recs.push(Rec::Flush);
        }
        Ok(())
    }
    fn halted(&mut self, h: i32) {
        // What halt_error said goes before it (the room is checked at
        // the end).
        let _ = self.said();
        self.recs.push(Rec::Halt(h));
    }
    fn consumed(&mut self, _v: &Verdict) {}
}

impl Framed<'_, Sinks> {
    /// Writes what a worker's filter wrote of one file as this one would
    /// have (its events numbered in the report, its item errors counted,
    /// nothing of the filter's after a halt); its verdict and findings.
    pub(super) fn replay(&mut self, w: Whole) -> Result<(Verdict, Vec<Finding>), Stop> {
        for rec in w.recs {
            let live = self.halted.is_none();
            match rec {
                Rec::Forward(ty, body) => self.sinks.out.forward(ty, &body)?,
                Rec::Flush => self.sinks.out.flush()?,
                Rec::Event(ty, body) if live => self.sinks.out.raw_event(&ty, &body)?,
                Rec::ItemError(code, fields, said) if live => {
                    self.item_errors += 1;
                    self.first_item_code.get_or_insert(code);
                    self.first_item.get_or_insert(said);
                    self.sinks.out.event("aoi:error", &fields)?;
                }
                Rec::Stderr(bytes) if live => {
                    let _ = io::stderr().lock().write_all(&bytes);
                }
                Rec::Halt(h) if live => {
                    self.halted = Some(h);
                    HALTED.store(true, Ordering::Relaxed);
                }
                _ => {}
            }
        }
        Ok((w.verdict, w.shown))
    }
}

/// Filters the `inputs` (several regular files) as `plan` says and takes
/// each into the report in input order. A stop (closed stdout, Ctrl-C) or
/// a halt ends the report and the process from here, without waiting for
/// workers.
pub(super) fn filter_at_once(
    f: &mut Framed<'_, Sinks>,
    t: &mut Taken,
    inputs: &[&Path],
    plan: &crate::pool::Plan,
) -> Result<(), Stop> {
    // The threads are the files': each is read on one.
    let one = FilterArgs {
        judge: JudgeArgs {
            threads: 1,
            ..f.args.judge.clone()
        },
        ..f.args.clone()
    };
    let filter = f.filter;
    let work = |i: usize, room: usize| match plan.small(i) && room > 0 {
        true => filter_whole(inputs[i], &one, filter, room),
        false => (Filtered::InTurn, 0),
    };
    plan.in_order(work, |i, filtered| {
        if let Err(stop) = take_input(f, t, inputs[i], filtered) {
            super::end_now(f, Err(stop));
        }
        if f.halted.is_some() {
            // The files left are only judged now: read here, in turn, not
            // waited for from workers that may be deep in their filter.
            let rest = inputs.get(i + 1..).unwrap_or_default();
            let taken = rest
                .iter()
                .try_for_each(|path| take_input(f, t, path, Filtered::InTurn));
            let taken = taken.and_then(|()| close_framed(f, std::mem::take(t)));
            super::end_now(f, taken);
        }
        true
    });
    Ok(())
}

/// Filters the file at `path` into memory, in at most `room` bytes;
/// nothing is written or said. Returns what it made and the bytes it keeps.
fn filter_whole(path: &Path, args: &FilterArgs, filter: &Filter, room: usize) -> (Filtered, usize) {
    let file = match open_input(path) {
        Ok(f) => f,
        Err(msg) => return (Filtered::Unreadable(msg), 0),
    };
    let Some(values) = thread_globals(args) else {
        return (Filtered::InTurn, 0);
    };
    let sinks = Recording {
        recs: Vec::new(),
        held: 0,
        room,
    };
    let mut w = Framed::new(args, filter, Vars::new(values), sinks);
    jq::capture_stderr(room);
    let source = path.display().to_string();
    let src = source_holding(file, &args.judge, args.max_line_bytes);
    // Past its room (or stopped), the file is filtered again in its turn,
    // and so are the rest of its batch: the room counts as used.
    let Ok((verdict, shown)) = framed_stream(&mut w, src, &source) else {
        return (Filtered::InTurn, room);
    };
    if w.sinks.said().is_err() {
        return (Filtered::InTurn, room);
    }
    // After a halt the batch's later files are filtered in their turn,
    // where the filter no longer runs (one that never ends included).
    let held = match w.halted {
        Some(_) => room,
        None => w.sinks.held,
    };
    let whole = Whole {
        recs: w.sinks.recs,
        verdict,
        shown,
    };
    (Filtered::Whole(Box::new(whole)), held)
}

thread_local! {
    /// The filter's global variables on this worker: jaq's values stay on
    /// their thread, and `$ENV` is made once, not per file.
    static GLOBALS: std::cell::RefCell<Option<Vec<jaq_json::Val>>> = const { std::cell::RefCell::new(None) };
}

/// The global variables' values for a filter run on this thread.
pub(super) fn thread_globals(args: &FilterArgs) -> Option<Vec<jaq_json::Val>> {
    GLOBALS.with(|g| {
        let mut g = g.borrow_mut();
        if g.is_none() {
            *g = Some(globals(args).ok()?.1);
        }
        g.clone()
    })
}
