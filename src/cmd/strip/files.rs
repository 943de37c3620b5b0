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
    plane: Vec<u8>,
    verdict: Verdict,
    shown: Vec<Finding>,
}

impl Whole {
    /// Writes the plane as the one thread would have; the verdict and
    /// findings, for stderr.
    pub(super) fn replay(self, out: &mut dyn Write) -> io::Result<(Verdict, Vec<Finding>)> {
        out.write_all(&self.plane)?;
        Ok((self.verdict, self.shown))
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
    let work = |i: usize| match plan.small(i) {
        true => strip_whole(inputs[i], &one),
        false => Stripped::InTurn,
    };
    let mut result = Ok(());
    plan.in_order(work, |i, stripped| {
        result = take_input(args, out, inputs[i], stripped, code);
        result.is_ok()
    });
    result
}

/// Strips the file at `path` into memory; nothing is said.
fn strip_whole(path: &Path, args: &StripArgs) -> Stripped {
    let file = match open_input(path) {
        Ok(f) => f,
        Err(msg) => return Stripped::Unreadable(msg),
    };
    let mut plane = Vec::new();
    match strip_stream(source_for(file, &args.judge), args, &mut plane) {
        Ok((verdict, shown)) => Stripped::Whole(Box::new(Whole {
            plane,
            verdict,
            shown,
        })),
        // Only a long line's temporary file can fail here: the file is
        // stripped again in its turn, where the failure is said.
        Err(_) => Stripped::InTurn,
    }
}
