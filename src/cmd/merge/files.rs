//! The inputs judged, in turn or several files at once: `--threads`
//! workers read and judge whole files, each on one thread
//! ([`crate::pool`]), while the caller takes them into the report
//! strictly in input order. What is
//! written and said on stderr is therefore one thread's, byte for byte.

use std::fs::File;
use std::io::Read;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use super::{Gathered, SHOWN, Taken, gather};
use crate::cli::{JudgeArgs, MergeArgs};
use crate::demux;
use crate::out::Record;
use crate::pool::{Input, Keeps, Workers, each_input};

/// One input, read and judged, not yet in the report.
pub(super) enum FileRead {
    /// A stop came (SIGINT/SIGTERM) before it was read whole.
    Stopped,
    /// It could not be opened: why.
    Unreadable(String),
    /// A run of the input being read that ended, reduced to its report
    /// (given before the input's `Judged`, in order of first appearance).
    Part(Box<Taken>),
    /// A block of the input being read ended: what was written goes out
    /// (a live log's reader is not kept waiting).
    BlockEnd,
    /// Read whole by a worker: the parts and block ends one thread would
    /// have taken as it read, then the rest.
    Whole {
        parts: Record<Taken>,
        rest: Box<FileRead>,
    },
    /// Its streams reduced to their report, in order of first
    /// appearance (after its parts), what it carried, and what reading it
    /// passed over.
    Judged {
        g: Box<Gathered>,
        taken: Vec<Taken>,
        counts: demux::Counts,
    },
}

/// Judges every input and hands each to `take` in input order, until
/// `take` says stop (false).
pub(super) fn each_judged(
    inputs: &[PathBuf],
    args: &MergeArgs,
    mut take: impl FnMut(&Path, FileRead) -> bool,
) {
    let opts = args.logs.reading(&args.judge, SHOWN as u64, SHOWN);
    // A file's entries are the report's, kept whatever the format: they
    // take no room of the batch.
    let workers = Workers::new(args.judge.threads, Keeps::Free);
    let whole = |i: usize, file, _| (Some(judge_whole(file, &inputs[i], &args.judge, &opts)), 0);
    each_input(inputs, workers, whole, |i, input| {
        let path = inputs[i].as_path();
        let read = match input {
            Input::Whole(read) => read,
            Input::Unreadable(msg) => FileRead::Unreadable(msg),
            Input::Read(src) => {
                // In its turn: a log's runs go into the report as they end.
                let mut part = |t: Option<Taken>| match t {
                    Some(t) => take(path, FileRead::Part(Box::new(t))),
                    None => take(path, FileRead::BlockEnd),
                };
                judge_file(src, path, &args.judge, &opts, &mut part)
            }
        };
        take(path, read)
    });
}

/// Reads and judges `file`; nothing is said (that is the taker's).
/// [`judge_file`] with the runs that ended and the block ends kept in
/// order (a worker's file waits for the files before it), so the taker
/// says and flushes them where one thread would have.
fn judge_whole(file: File, path: &Path, judge: &JudgeArgs, opts: &demux::Options) -> FileRead {
    // A file's entries take no room of the batch ([`Keeps::Free`]).
    let mut parts = Record::new(usize::MAX);
    let rest = judge_file(file, path, judge, opts, &mut |t| parts.took(t));
    FileRead::Whole {
        parts,
        rest: Box::new(rest),
    }
}

/// `release`: where the runs that end go as they are released (the
/// rest are in the `Judged`).
fn judge_file<R: Read + Send + AsRawFd + 'static>(
    src: R,
    path: &Path,
    judge: &JudgeArgs,
    opts: &demux::Options,
    release: &mut dyn FnMut(Option<Taken>) -> bool,
) -> FileRead {
    if crate::cancel::requested().is_some() {
        return FileRead::Stopped;
    }
    let mut g = Gathered::default();
    let source = path.display().to_string();
    let read = gather(src, &source, judge, opts, &mut g, release);
    let Some(read) = read.filter(|_| crate::cancel::requested().is_none()) else {
        return FileRead::Stopped;
    };
    let (streams, counts) = read.finish(Vec::new());
    for st in streams {
        let t = g.reduce(&source, st);
        g.pending.push(t.order, t);
    }
    let taken = g.pending.rest().collect();
    FileRead::Judged {
        g: Box::new(g),
        taken,
        counts,
    }
}
