//! The inputs judged, in turn or several files at once: `--threads`
//! workers read and judge whole files, each on one thread
//! ([`crate::pool`]), while the caller takes them into the report
//! strictly in input order. What is
//! written and said on stderr is therefore one thread's, byte for byte.

use std::io::Read;
use std::os::fd::AsRawFd;
use std::path::Path;

use super::{Gathered, SHOWN, Taken, gather};
use crate::demux;
use crate::out::{Halt, Judging, Output, Reading, Taking, taker};
use crate::pool::{Engine, Keeps, Opened, Turned, each_turn};

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
pub(super) fn each_judged(judging: &Judging, mut take: impl FnMut(&Path, FileRead) -> bool) {
    let inputs = judging.inputs();
    let gathering = Gathering {
        reading: judging.reading,
        opts: judging.log_reading(SHOWN as u64, SHOWN),
    };
    each_turn(&inputs, judging.reading.threads, &gathering, |i, turn| {
        let path = inputs[i];
        // A log's runs go into the report as they end.
        let mut part = |t: Option<Taken>| match t {
            Some(t) => take(path, FileRead::Part(Box::new(t))),
            None => take(path, FileRead::BlockEnd),
        };
        let read = match turn.read_into(&mut Taking(&mut part)) {
            Ok(Turned::Read(read)) => read,
            Ok(Turned::Unreadable(msg)) => FileRead::Unreadable(msg),
            Err(Halt) => return false,
        };
        take(path, read)
    });
}

/// How `merge-report` reads each input; nothing is said (that is the
/// taker's).
struct Gathering {
    reading: Reading,
    opts: demux::Options,
}

impl Engine for Gathering {
    type Item = Taken;
    type Done = FileRead;
    type Error = Halt;

    /// A file's entries are the report's, kept whatever the format: they
    /// take no room of the batch.
    fn keeps(&self) -> Keeps {
        Keeps::Free
    }

    fn read<O, E>(&self, src: Opened, path: &Path, out: &mut O) -> Result<FileRead, Halt>
    where
        O: Output<Taken, Error = E>,
        E: Into<Halt>,
    {
        let mut release = taker(out);
        let (reading, opts) = (self.reading, &self.opts);
        Ok(judge_file(src, path, reading, opts, &mut release))
    }
}

/// `release`: where the runs that end go as they are released (the
/// rest are in the `Judged`).
fn judge_file<R: Read + Send + AsRawFd + 'static>(
    src: R,
    path: &Path,
    reading: Reading,
    opts: &demux::Options,
    release: &mut dyn FnMut(Option<Taken>) -> bool,
) -> FileRead {
    if crate::cancel::requested().is_some() {
        return FileRead::Stopped;
    }
    let mut g = Gathered::default();
    let source = path.display().to_string();
    let read = gather(src, &source, reading, opts, &mut g, release);
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
