//! Many files stripped at once: workers strip the files up to
//! 1 MiB, each on one thread ([`crate::pool`]), into memory, with the runs
//! of a `--log` as they ended; the caller writes and says each in input
//! order, so stdout and stderr are one thread's, byte for byte. A larger
//! file (its plane grows with it) is stripped in its turn, as with one
//! thread.

use std::io::{self, Write};
use std::path::Path;

use super::{LogOut, Said, read_log, say_ended, strip_stream, take_input};
use crate::cli::{JudgeArgs, StripArgs};
use crate::demux;
use crate::judge::{Finding, Verdict};
use crate::out::{open_input, source_for};

/// What a kept run is counted as, in bytes, against a worker's room.
const RUN_BYTES: usize = 2048;

/// What a worker made of one input.
pub(super) enum Stripped {
    /// Nothing yet: the input is stripped in its turn.
    InTurn,
    /// It could not be opened: why.
    Unreadable(String),
    /// Stripped whole.
    Whole(Box<Whole>),
    /// Stripped whole as a log.
    Log(Box<LogWhole>),
}

/// A small file stripped whole: its plane, its verdict and first findings.
pub(super) struct Whole {
    plane: Plane,
    verdict: Verdict,
    shown: Vec<Finding>,
}

impl Whole {
    /// Writes the plane, flushed where the one thread flushed it (after
    /// each block: what a reader of stdout and stderr together sees, and
    /// where a closed pipe is found); the verdict and findings, for stderr.
    pub(super) fn replay(self, out: &mut dyn Write) -> io::Result<(Verdict, Vec<Finding>)> {
        self.plane.replay(out, |_, _| Ok(()))?;
        Ok((self.verdict, self.shown))
    }
}

/// A small log stripped whole: its plane and the runs that ended in it,
/// the runs held at its end and what its reading passed over.
pub(super) struct LogWhole {
    plane: Plane,
    rest: Vec<demux::Judged>,
    counts: demux::Counts,
}

impl LogWhole {
    /// Writes the plane and says its runs where the one thread did; the
    /// runs held at the end and the counts, for [`super::end_log`].
    pub(super) fn replay(
        self,
        out: &mut dyn Write,
        said: &mut Said<'_>,
    ) -> io::Result<(Vec<demux::Judged>, demux::Counts)> {
        self.plane
            .replay(out, |out, run| say_ended(out, said, run))?;
        Ok((self.rest, self.counts))
    }
}

/// Where a plane was flushed, or a run of its log ended (at a byte offset).
enum Mark {
    Flush(usize),
    Ended(usize, Box<demux::Judged>),
}

/// A plane written into memory: its bytes, where it was flushed and its
/// runs ended, and the room it may take (past it, a write fails: the file
/// is read in its turn).
struct Plane {
    bytes: Vec<u8>,
    marks: Vec<Mark>,
    held: usize,
    room: usize,
}

impl Plane {
    fn new(room: usize) -> Self {
        Plane {
            bytes: Vec::new(),
            marks: Vec::new(),
            held: 0,
            room,
        }
    }

    fn hold(&mut self, n: usize) -> io::Result<()> {
        self.held += n;
        match self.held > self.room {
            true => Err(io::Error::other("more than a worker keeps")),
            false => Ok(()),
        }
    }

    /// Writes the bytes to `out`, flushing at each flush mark and calling
    /// `ended` at each ended run, in the order they came.
    fn replay(
        self,
        out: &mut dyn Write,
        mut ended: impl FnMut(&mut dyn Write, demux::Judged) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut at = 0;
        for mark in self.marks {
            let (end, run) = match mark {
                Mark::Flush(end) => (end, None),
                Mark::Ended(end, run) => (end, Some(run)),
            };
            out.write_all(self.bytes.get(at..end).unwrap_or_default())?;
            at = end;
            match run {
                Some(run) => ended(out, *run)?,
                None => out.flush()?,
            }
        }
        out.write_all(self.bytes.get(at..).unwrap_or_default())
    }
}

impl Write for Plane {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.hold(b.len())?;
        self.bytes.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.marks.push(Mark::Flush(self.bytes.len()));
        Ok(())
    }
}

impl LogOut for Plane {
    fn ended(&mut self, run: demux::Judged) -> io::Result<()> {
        self.hold(RUN_BYTES)?;
        self.marks
            .push(Mark::Ended(self.bytes.len(), Box::new(run)));
        Ok(())
    }
}

/// Strips the `inputs` (several regular files) as `plan` says and takes
/// each into `out` and `code` in input order.
pub(super) fn strip_at_once(
    args: &StripArgs,
    out: &mut Box<dyn Write>,
    inputs: &[&Path],
    plan: &crate::pool::Plan,
    code: &mut i32,
) -> io::Result<()> {
    // The threads are the files': each is read on one.
    let one = StripArgs {
        judge: JudgeArgs {
            threads: 1,
            ..args.judge.clone()
        },
        ..args.clone()
    };
    let work = |i: usize, room: usize| match plan.small(i) && room > 0 {
        true if args.logs.log => strip_log_whole(inputs[i], &one, room),
        true => strip_whole(inputs[i], &one, room),
        false => (Stripped::InTurn, 0),
    };
    let mut result = Ok(());
    plan.in_order(work, |i, stripped| {
        result = take_input(args, out, inputs[i], stripped, code);
        result.is_ok()
    });
    result
}

/// Strips the file at `path` into memory, in at most `room` bytes;
/// nothing is said. Returns what it made and the bytes it keeps.
fn strip_whole(path: &Path, args: &StripArgs, room: usize) -> (Stripped, usize) {
    let file = match open_input(path) {
        Ok(f) => f,
        Err(msg) => return (Stripped::Unreadable(msg), 0),
    };
    let mut plane = Plane::new(room);
    match strip_stream(source_for(file, &args.judge), args, &mut plane) {
        Ok((verdict, shown)) => {
            let kept = plane.bytes.len();
            (
                Stripped::Whole(Box::new(Whole {
                    plane,
                    verdict,
                    shown,
                })),
                kept,
            )
        }
        // Past its room, or a long line's temporary file failed: the file
        // is stripped again in its turn (where such a failure is said).
        Err(_) => (Stripped::InTurn, 0),
    }
}

/// Strips the log at `path` into memory, in at most `room` bytes; nothing
/// is said. Returns what it made and the bytes it keeps.
fn strip_log_whole(path: &Path, args: &StripArgs, room: usize) -> (Stripped, usize) {
    let file = match open_input(path) {
        Ok(f) => f,
        Err(msg) => return (Stripped::Unreadable(msg), 0),
    };
    let mut plane = Plane::new(room);
    let Ok((rest, counts)) = read_log(file, args, &mut plane) else {
        // Past its room, or a long line's temporary file failed: the file
        // is stripped again in its turn (where such a failure is said).
        return (Stripped::InTurn, 0);
    };
    if plane.hold(rest.len() * RUN_BYTES).is_err() {
        return (Stripped::InTurn, 0);
    }
    let kept = plane.held;
    let whole = LogWhole {
        plane,
        rest,
        counts,
    };
    (Stripped::Log(Box::new(whole)), kept)
}
