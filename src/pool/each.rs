//! The one driver of a command's inputs: each is read here in its turn,
//! or, when several regular files are given and threads allow, by a
//! worker into a record ([`crate::out::Record`]) that is replayed in
//! input order. A command supplies its [`Engine`], which writes to an
//! [`Output`] without knowing which: the bytes it writes are one
//! thread's either way.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;

use crate::out::{Full, Output, Record, Weighed, open_input};

/// What a command makes of one input, written to an [`Output`]: the live
/// one in the input's turn, or a worker's [`Record`], alike.
pub(crate) trait Engine: Sync {
    /// What it writes besides text: a finding, a run that ended.
    type Item: Weighed + Send;
    /// What reading an input gave besides what it wrote: a verdict.
    type Done: Send;
    /// Why reading stopped short: a failed write, a record past its room.
    type Error: From<Full>;
    /// Which files a worker may take.
    fn keeps(&self) -> Keeps;
    /// The workers' stack size, when not the default (jq recurses).
    fn stack(&self) -> Option<usize> {
        None
    }
    /// Reads the input at `path`, opened as `src`, to its end into `out`.
    fn read<O, E>(&self, src: Opened, path: &Path, out: &mut O) -> Result<Self::Done, Self::Error>
    where
        O: Output<Self::Item, Error = E>,
        E: Into<Self::Error>;
    /// Bytes a worker's record keeps of `done`, besides what was written
    /// (the runs still open at a log's end).
    fn weight(&self, _done: &Self::Done) -> usize {
        0
    }
}

/// What one input gave in its turn.
pub(crate) enum Turned<D> {
    /// Read to its end (or by a worker): what reading it gave.
    Read(D),
    /// It could not be opened: why.
    Unreadable(String),
}

/// One input in its turn: to be read now, or what a worker read of it.
pub(crate) struct Turn<'e, E: Engine> {
    engine: &'e E,
    path: &'e Path,
    input: Input<(Record<E::Item>, E::Done)>,
}

impl<E: Engine> Turn<'_, E> {
    /// Reads the input into `out`, or replays into it what a worker wrote
    /// of it, as one thread writes it.
    pub(crate) fn read_into<O: Output<E::Item>>(
        self,
        out: &mut O,
    ) -> Result<Turned<E::Done>, E::Error>
    where
        O::Error: Into<E::Error>,
    {
        match self.input {
            Input::Read(src) => self.engine.read(src, self.path, out).map(Turned::Read),
            Input::Unreadable(msg) => Ok(Turned::Unreadable(msg)),
            Input::Whole((rec, done)) => {
                rec.replay(out).map_err(Into::into)?;
                Ok(Turned::Read(done))
            }
        }
    }
}

/// Hands every input, in input order, to `take` as a [`Turn`] of
/// `engine`'s, until it says stop (false). With several regular files
/// and `threads` (`--threads`) to spare, workers read them first, each
/// into a record within its room (past it, the file is read in its turn).
pub(crate) fn each_turn<E: Engine, P: AsRef<Path> + Sync>(
    inputs: &[P],
    threads: usize,
    engine: &E,
    mut take: impl FnMut(usize, Turn<'_, E>) -> bool,
) {
    let workers = Workers {
        threads,
        keeps: engine.keeps(),
        stack: engine.stack(),
    };
    let whole = |i: usize, file, room| {
        let mut rec = Record::new(room);
        match engine.read(Opened::File(file), inputs[i].as_ref(), &mut rec) {
            Ok(done) if rec.hold(engine.weight(&done)).is_ok() => {
                let held = rec.held();
                (Some((rec, done)), held)
            }
            _ => (None, 0),
        }
    };
    each_input(inputs, workers, whole, |i, input| {
        let path = inputs[i].as_ref();
        take(
            i,
            Turn {
                engine,
                path,
                input,
            },
        )
    });
}

/// One input, as the command takes it.
pub(crate) enum Input<W> {
    /// To be read now, here: stdin or the file, opened.
    Read(Opened),
    /// It could not be opened: why.
    Unreadable(String),
    /// Read whole by a worker: what it recorded.
    Whole(W),
}

impl<W> Input<W> {
    /// The input at `path`, opened to be read in its turn (`-`: stdin).
    pub(crate) fn open(path: &Path) -> Self {
        if path == Path::new("-") {
            return Input::Read(Opened::Stdin(io::stdin()));
        }
        match open_input(path) {
            Ok(f) => Input::Read(Opened::File(f)),
            Err(msg) => Input::Unreadable(msg),
        }
    }
}

/// An input opened: stdin or a file.
pub(crate) enum Opened {
    Stdin(io::Stdin),
    File(File),
}

impl Read for Opened {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Opened::Stdin(s) => s.read(buf),
            Opened::File(f) => f.read(buf),
        }
    }
}

impl AsRawFd for Opened {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Opened::Stdin(s) => s.as_raw_fd(),
            Opened::File(f) => f.as_raw_fd(),
        }
    }
}

/// Which files a worker takes, by what its record keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keeps {
    /// What it keeps grows with the file: files up to 1 MiB, within the
    /// batch's room; a larger one is read in its turn.
    Small,
    /// What it keeps is bounded by the room, whatever the file's size.
    Bounded,
    /// Nothing of the room: what it keeps is the command's anyway (a
    /// report's entries).
    Free,
}

/// How a command's inputs may be read at once.
#[derive(Clone, Copy)]
pub(crate) struct Workers {
    /// `--threads`: 0 is one per CPU, 1 is every input in its turn.
    pub(crate) threads: usize,
    pub(crate) keeps: Keeps,
    /// The workers' stack size, when not the default (jq recurses).
    pub(crate) stack: Option<usize>,
}

impl Workers {
    pub(crate) fn new(threads: usize, keeps: Keeps) -> Self {
        Workers {
            threads,
            keeps,
            stack: None,
        }
    }
}

/// Hands every input to `take` in input order, until it says stop
/// (false). When they are several regular files and `workers` allow,
/// workers run `whole(i, file, room)` on them first, on one thread each:
/// it reads the file into a record of at most `room` bytes and returns
/// it (none: the file is to be read in its turn) and the room it used.
pub(crate) fn each_input<W: Send, P: AsRef<Path> + Sync>(
    inputs: &[P],
    workers: Workers,
    whole: impl Fn(usize, File, usize) -> (Option<W>, usize) + Sync,
    mut take: impl FnMut(usize, Input<W>) -> bool,
) {
    let Some(plan) = super::plan(workers.threads, inputs) else {
        for (i, path) in inputs.iter().enumerate() {
            if !take(i, Input::open(path.as_ref())) {
                return;
            }
        }
        return;
    };
    let plan = match workers.stack {
        Some(bytes) => plan.with_stack(bytes),
        None => plan,
    };
    let work = |i: usize, room: usize| {
        let goes = match workers.keeps {
            Keeps::Small => plan.small(i) && room > 0,
            Keeps::Bounded => room > 0,
            Keeps::Free => true,
        };
        if !goes {
            return (None, 0);
        }
        match open_input(inputs[i].as_ref()) {
            // Said in its turn, as one thread says it.
            Err(msg) => (Some(Input::Unreadable(msg)), 0),
            Ok(file) => match whole(i, file, room) {
                (Some(w), held) => (Some(Input::Whole(w)), held),
                (None, held) => (None, held),
            },
        }
    };
    plan.in_order(work, |i, worked| {
        take(i, worked.unwrap_or_else(|| Input::open(inputs[i].as_ref())))
    });
}
