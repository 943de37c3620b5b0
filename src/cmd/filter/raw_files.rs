//! `--raw`'s inputs: filtered in turn by one jq reader, or, several
//! regular files when the program cannot read on from one input into the
//! next (no `input`/`inputs`, no `-n`, no `-s`), at once on workers
//! ([`crate::pool`]): each filters a file up to 1 MiB into a record of
//! the lines it would write to stdout and what it would say on stderr,
//! and the caller replays each in input order through the writes one
//! thread makes, so stdout, stderr (however interleaved) and the exit are
//! one thread's. A larger file, or one whose record passes its room, is
//! filtered in its turn. After a halt nothing more is written, as on one
//! thread.

use crate::spec::exit::Code;
use std::io::{self, Write};
use std::path::Path;

use jaq_core::Vars;
use jaq_json::Val;

use super::STACK;
use super::jq_args::thread_globals;
use super::raw::{Live, Ran, RawOut, filter_paths, finish};
use crate::cli::FilterArgs;
use crate::jq::{self, Filter};
use crate::out::{Judging, Output, Record, Weighed, eprint_line, stdout_writer};
use crate::pool::{Input, Keeps, Workers, each_input};

/// Runs `filter --raw` (or `-r`, `-n`, `-s`); returns the exit status.
pub(super) fn run_raw(
    args: &FilterArgs,
    judging: &Judging,
    filter: &Filter,
    vars: Vars<Val>,
) -> Code {
    let paths = judging.inputs();
    // Without input/inputs (and -n, -s) each input is filtered alone, so
    // files may be filtered at once; the check is on the text, erring
    // towards reading in turn (a string or a name containing "input").
    // -e needs the last result of all, so the inputs are read in turn.
    let apart =
        !args.null_input && !args.slurp && !args.exit_status && !args.filter.contains("input");
    let mut live = Live {
        out: stdout_writer(),
        quiet: args.quiet,
    };
    if !apart || crate::pool::plan(judging.reading.threads, &paths).is_none() {
        let ran = filter_paths(args, filter, vars, paths, &mut live);
        return finish(ran, &mut live, args.exit_status);
    }
    let workers = Workers {
        stack: Some(STACK),
        ..Workers::new(judging.reading.threads, Keeps::Small)
    };
    // jq's reader opens each file itself (and says why it cannot).
    let whole = |i: usize, _, room| record(args, filter, paths[i], room);
    let mut total = Ran::default();
    each_input(&paths, workers, whole, |i, input| {
        let ran = match input {
            Input::Whole(rec) => rec.replay(&mut live),
            Input::Read(_) | Input::Unreadable(_) => {
                filter_paths(args, filter, vars.clone(), vec![paths[i]], &mut live)
            }
        };
        // A halt or a failed write ends the process here, as it ends one
        // thread, without waiting for workers on later files.
        match ran.map(|ran| total.then(ran)) {
            Ok(ran) if ran.halted.is_none() => total = ran,
            ended => super::exit_now(finish(ended, &mut live, false)),
        }
        true
    });
    finish(Ok(total), &mut live, args.exit_status)
}

/// What `--raw` would have said besides its result lines, in order.
enum RawRec {
    /// A line of aoi's own on stderr.
    Say(String),
    /// What the filter wrote to stderr (`debug`, `stderr`, `halt_error`).
    Stderr(Vec<u8>),
}

impl Weighed for RawRec {
    fn weight(&self) -> usize {
        match self {
            RawRec::Say(msg) => msg.len(),
            RawRec::Stderr(bytes) => bytes.len(),
        }
    }
}

/// A worker's record of one file, within the room it may keep (past it,
/// recording fails and the file is filtered in its turn).
struct RawRecording {
    rec: Record<RawRec>,
    ran: Ran,
}

impl RawRecording {
    /// Keeps what the filter wrote to stderr so far (the capture itself
    /// stops at the room).
    fn said(&mut self) -> io::Result<()> {
        let said = jq::take_captured();
        if !said.is_empty() {
            self.rec.put(RawRec::Stderr(said))?;
        }
        match jq::capture_full() {
            true => Err(crate::out::Full.into()),
            false => Ok(()),
        }
    }

    /// Writes what was recorded as one thread would have.
    fn replay(self, live: &mut Live) -> io::Result<Ran> {
        self.rec.replay(live)?;
        Ok(self.ran)
    }
}

impl RawOut for RawRecording {
    fn line(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.said()?;
        Ok(self.rec.text(bytes)?)
    }
    fn say(&mut self, msg: &str) -> io::Result<()> {
        self.said()?;
        Ok(self.rec.put(RawRec::Say(msg.to_string()))?)
    }
    fn next_value(&mut self) -> io::Result<()> {
        // What `debug` wrote is kept, or the room found full, value by
        // value even when the filter prints nothing.
        self.said()
    }
}

/// Where a worker's record is replayed: stdout and stderr.
impl Output<RawRec> for Live {
    type Error = io::Error;
    fn text(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.line(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn put(&mut self, rec: RawRec) -> io::Result<()> {
        match rec {
            RawRec::Say(msg) => eprint_line(self.quiet, &msg),
            RawRec::Stderr(bytes) => {
                let _ = io::stderr().lock().write_all(&bytes);
            }
        }
        Ok(())
    }
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
        rec: Record::in_pieces(room),
        ran: Ran::default(),
    };
    jq::capture_stderr(room);
    let ran = filter_paths(args, filter, Vars::new(values), vec![path], &mut rec);
    match ran.and_then(|ran| rec.said().map(|()| ran)) {
        Ok(ran) => {
            rec.ran = ran;
            // After a halt nothing of the batch's later files is written:
            // they are left to their turn, which never comes.
            let held = if ran.halted.is_some() {
                room
            } else {
                rec.rec.held()
            };
            (Some(Box::new(rec)), held)
        }
        // The rest of the batch is filtered in its turn too: the room
        // counts as used.
        Err(_) => (None, room),
    }
}
