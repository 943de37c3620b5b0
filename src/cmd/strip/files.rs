//! Many files stripped at once (issue 29): workers strip the files up to
//! 1 MiB, each on one thread ([`crate::pool`]), into memory; the caller
//! writes and says each in input order, so stdout and stderr are one
//! thread's, byte for byte. A larger file (its plane grows with it) is
//! stripped in its turn, as with one thread; so is every file of a
//! `--log`, whose runs are said as they end.

use std::io::{self, Write};
use std::path::Path;

use super::{strip_stream, take_input};
use crate::cli::{JudgeArgs, StripArgs};
use crate::judge::{Finding, Verdict};
use crate::out::{open_input, source_for};

/// What a worker made of one input.
pub(super) enum Stripped {
    /// Nothing yet: the input is stripped in its turn.
    InTurn,
    /// It could not be opened: why.
    Unreadable(String),
    /// Stripped whole.
    Whole(Box<Whole>),
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
        let mut at = 0;
        for end in self.plane.flushed {
            out.write_all(self.plane.bytes.get(at..end).unwrap_or_default())?;
            out.flush()?;
            at = end;
        }
        out.write_all(self.plane.bytes.get(at..).unwrap_or_default())?;
        Ok((self.verdict, self.shown))
    }
}

/// A plane written into memory: its bytes, where it was flushed, and the
/// room it may take (past it, a write fails: the file is read in its turn).
struct Plane {
    bytes: Vec<u8>,
    flushed: Vec<usize>,
    room: usize,
}

impl Write for Plane {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if self.bytes.len() + b.len() > self.room {
            return Err(io::Error::other("more than a worker keeps"));
        }
        self.bytes.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushed.push(self.bytes.len());
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
    let mut plane = Plane {
        bytes: Vec::new(),
        flushed: Vec::new(),
        room,
    };
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
