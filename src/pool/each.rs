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
    /// Whether a worker's record replays its text piece by piece, as it
    /// was written ([`Record::in_pieces`]: an output never flushed by
    /// block).
    fn in_pieces(&self) -> bool {
        false
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

impl<'e, E: Engine> Turn<'e, E> {
    /// The input at `path`, to be read in its turn whatever a worker did
    /// (after a halt, the inputs left are read here, not waited for).
    pub(crate) fn in_turn(engine: &'e E, path: &'e Path) -> Self {
        Turn {
            engine,
            path,
            input: Input::open(path),
        }
    }

    /// The input opened, when it is to be read here (not a worker's record,
    /// not unreadable), for a command that reads it a way of its own (one
    /// big input on several threads); else the turn as it was.
    pub(crate) fn into_opened(self) -> Result<Opened, Self> {
        match self.input {
            Input::Read(src) => Ok(src),
            input => Err(Turn { input, ..self }),
        }
    }

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
    let turn = |i: usize, input| Turn {
        engine,
        path: inputs[i].as_ref(),
        input,
    };
    let Some(plan) = super::plan(threads, inputs) else {
        for (i, path) in inputs.iter().enumerate() {
            if !take(i, turn(i, Input::open(path.as_ref()))) {
                return;
            }
        }
        return;
    };
    let plan = match engine.stack() {
        Some(bytes) => plan.with_stack(bytes),
        None => plan,
    };
    let work = |i: usize, room: usize| {
        let goes = match engine.keeps() {
            Keeps::Small => plan.small(i) && room > 0,
            Keeps::Bounded => room > 0,
            Keeps::Free => true,
        };
        if !goes {
            return (None, 0);
        }
        let path = inputs[i].as_ref();
        let file = match open_input(path) {
            Ok(file) => file,
            // Said in its turn, as one thread says it.
            Err(msg) => return (Some(Input::Unreadable(msg)), 0),
        };
        let mut rec = match engine.in_pieces() {
            true => Record::in_pieces(room),
            false => Record::new(room),
        };
        match engine.read(Opened::File(file), path, &mut rec) {
            Ok(done) if rec.hold(engine.weight(&done)).is_ok() => {
                let held = rec.held();
                (Some(Input::Whole((rec, done))), held)
            }
            _ => (None, 0),
        }
    };
    plan.in_order(work, |i, worked| {
        let input = worked.unwrap_or_else(|| Input::open(inputs[i].as_ref()));
        take(i, turn(i, input))
    });
}

/// One input, as the command takes it.
enum Input<W> {
    /// To be read now, here: stdin or the file, opened.
    Read(Opened),
    /// It could not be opened: why.
    Unreadable(String),
    /// Read whole by a worker: what it recorded.
    Whole(W),
}

impl<W> Input<W> {
    /// The input at `path`, opened to be read in its turn (`-`: stdin,
    /// said when it is a terminal, [`crate::out::opening_stdin`]).
    fn open(path: &Path) -> Self {
        if path == Path::new("-") {
            crate::out::opening_stdin();
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
