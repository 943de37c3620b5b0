//! `--raw` over many files at once: workers filter the files up
//! to 1 MiB, each on one thread ([`crate::pool`]), recording the lines they
//! would write to stdout and what they would say on stderr; the caller
//! replays each in input order through the writes one thread makes, so
//! stdout, stderr (however interleaved) and the exit are one thread's. A
//! larger file, or one whose record passes its room, is filtered in its
//! turn. After a halt nothing more is written, as on one thread.
//!
//! Only for programs that cannot read from one input into the next
//! ([`super::raw::run_raw`]).

use std::io::{self, Write};
use std::path::Path;

use jaq_core::Vars;
use jaq_json::Val;

use super::files::thread_globals;
use super::raw::{Live, Ran, RawOut, filter_paths, finish};
use crate::cli::FilterArgs;
use crate::jq::{self, Filter};
use crate::pool::Plan;

/// A worker's record of one file, within the room it may keep (past it,
/// recording fails and the file is filtered in its turn).
#[derive(Default)]
pub(super) struct RawRecording {
    /// The result lines, one after another, and their lengths.
    text: Vec<u8>,
    lens: Vec<u32>,
    recs: Vec<RawRec>,
    ran: Ran,
    held: usize,
    room: usize,
}

/// One thing the filter would have written, in order.
enum RawRec {
    /// Result lines in a row: how many (their lengths are kept apart,
    /// four bytes a line, so a file of short results still fits).
    Lines(usize),
    /// A line of aoi's own on stderr.
    Say(String),
    /// What the filter wrote to stderr (`debug`, `stderr`, `halt_error`).
    Stderr(Vec<u8>),
}

/// What a record is counted as besides its bytes.
const REC_BYTES: usize = std::mem::size_of::<RawRec>();

impl RawRecording {
    /// Keeps `rec` of `bytes`, after what the filter wrote to stderr
    /// before it; fails past the room.
    fn keep(&mut self, rec: RawRec, bytes: usize) -> io::Result<()> {
        self.said()?;
        self.held += bytes + REC_BYTES;
        self.within_room()?;
        self.recs.push(rec);
        Ok(())
    }

    /// Keeps what the filter wrote to stderr so far (the capture itself
    /// stops at the room).
    fn said(&mut self) -> io::Result<()> {
        let said = jq::take_captured();
        if !said.is_empty() {
            self.held += said.len() + REC_BYTES;
            self.recs.push(RawRec::Stderr(said));
        }
        self.within_room()
    }

    fn within_room(&self) -> io::Result<()> {
        match self.held > self.room || jq::capture_full() {
            true => Err(io::Error::other("more than a worker keeps")),
            false => Ok(()),
        }
    }
}

impl RawOut for RawRecording {
    fn line(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.said()?;
        let len = u32::try_from(bytes.len()).map_err(io::Error::other)?;
        self.held += bytes.len() + 4;
        self.within_room()?;
        match self.recs.last_mut() {
            Some(RawRec::Lines(n)) => *n += 1,
            _ => self.recs.push(RawRec::Lines(1)),
        }
        self.lens.push(len);
        self.text.extend_from_slice(bytes);
        Ok(())
    }
    fn say(&mut self, msg: &str) -> io::Result<()> {
        self.keep(RawRec::Say(msg.to_string()), msg.len())
    }
    fn next_value(&mut self) -> io::Result<()> {
        // What `debug` wrote is kept, or the room found full, value by
        // value even when the filter prints nothing.
        self.said()
    }
}

impl RawRecording {
    /// Writes what was recorded as one thread would have.
    fn replay(self, live: &mut Live) -> io::Result<Ran> {
        let (mut start, mut lens) = (0, self.lens.iter());
        for rec in self.recs {
            match rec {
                RawRec::Lines(n) => {
                    for &len in lens.by_ref().take(n) {
                        let end = start + len as usize;
                        live.line(self.text.get(start..end).unwrap_or_default())?;
                        start = end;
                    }
                }
                RawRec::Say(msg) => live.say(&msg)?,
                RawRec::Stderr(bytes) => {
                    let _ = io::stderr().lock().write_all(&bytes);
                }
            }
        }
        Ok(self.ran)
    }
}

/// Filters the files at `paths` as `plan` says, into `live` in input
/// order; a halt or a failed write ends the process.
pub(super) fn at_once(
    args: &FilterArgs,
    (filter, vars): (&Filter, &Vars<Val>),
    paths: &[&Path],
    plan: &Plan,
    live: &mut Live,
) -> io::Result<Ran> {
    let work = |i: usize, room: usize| match plan.small(i) && room > 0 {
        true => record(args, filter, paths[i], room),
        false => (None, 0),
    };
    let mut total = Ran::default();
    plan.in_order(work, |i, recorded| {
        let ran = match recorded {
            Some(r) => r.replay(live),
            None => filter_paths(args, filter, vars.clone(), vec![paths[i]], live),
        };
        // A halt or a failed write ends the process here, as it ends one
        // thread, without waiting for workers on later files.
        match ran.map(|ran| total.then(ran)) {
            Ok(ran) if ran.halted.is_none() => total = ran,
            ended => super::exit_now(finish(ended, live, false)),
        }
        true
    });
    Ok(total)
}

/// Filters the file at `path` into a record of at most `room` bytes;
/// nothing is written. Returns the record (none: past its room) and what
/// it keeps.
fn record(
    args: &FilterArgs,
    filter: &Filter,
    path: &Path,
    room: usize,
) -> (Option<Box<RawRecording>>, usize) {
    let Some(values) = thread_globals(args) else {
        return (None, 0);
    };
    let mut rec = RawRecording {
        room,
        ..RawRecording::default()
    };
    jq::capture_stderr(room);
    let ran = filter_paths(args, filter, Vars::new(values), vec![path], &mut rec);
    match ran.and_then(|ran| rec.said().map(|()| ran)) {
        Ok(ran) => {
            rec.ran = ran;
            // After a halt nothing of the batch's later files is written:
            // they are left to their turn, which never comes.
            let held = if ran.halted.is_some() { room } else { rec.held };
            (Some(Box::new(rec)), held)
        }
        // The rest of the batch is filtered in its turn too: the room
        // counts as used.
        Err(_) => (None, room),
    }
}
