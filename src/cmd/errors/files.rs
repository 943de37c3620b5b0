//! Many files searched at once: workers read the files, each
//! on one thread ([`crate::pool`]), keeping what they would write and the
//! runs they judged; the caller writes and says each in input order, so
//! stdout, the report and stderr are one thread's, byte for byte. A file
//! over 1 MiB is read in its turn instead, unless only `--count` is
//! written and it is one stream.

use std::path::Path;

use super::{Ctx, Sink, Tally, ended_run, read_input, take_input};
use crate::cli::{ErrorsArgs, JudgeArgs};
use crate::demux;
use crate::out::{Stop, open_input};

/// What a worker made of one input.
pub(super) enum Read {
    /// Nothing yet: the input is read in its turn.
    InTurn,
    /// It could not be opened: why.
    Unreadable(String),
    /// Read to its end.
    Whole(Box<Whole>),
}

/// What a worker would have written or said, in order.
enum Rec {
    /// Raw lines or table rows (without the header).
    Text(Vec<u8>),
    /// A forwarded `aoi:error` or `aoi:warning` body.
    Event(&'static str, Vec<u8>),
    /// A run that ended while the file was read.
    Run(Box<demux::Judged>),
    /// The end of a block read: what was written goes out.
    Flush,
}

/// What a kept run is counted as, in bytes, against a worker's room.
const RUN_BYTES: usize = 2048;

/// A worker's record of one file, within the room it may keep (past it,
/// recording fails and the file is read in its turn).
pub(super) struct Recording {
    recs: Vec<Rec>,
    held: usize,
    room: usize,
}

impl Recording {
    fn keep(&mut self, rec: Rec, bytes: usize) -> Result<(), Stop> {
        self.held += bytes;
        if self.held > self.room {
            return Err(Stop::Failed(std::io::Error::other(
                "more than a worker keeps",
            )));
        }
        self.recs.push(rec);
        Ok(())
    }

    /// Keeps text, with the text just before it when there is some.
    pub(super) fn text(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        if let Some(Rec::Text(t)) = self.recs.last_mut() {
            if self.held + bytes.len() <= self.room {
                self.held += bytes.len();
                t.extend_from_slice(bytes);
                return Ok(());
            }
        }
        self.keep(Rec::Text(bytes.to_vec()), bytes.len())
    }

    pub(super) fn event(&mut self, ty: &'static str, body: Vec<u8>) -> Result<(), Stop> {
        let n = body.len();
        self.keep(Rec::Event(ty, body), n)
    }

    pub(super) fn run(&mut self, run: demux::Judged) -> Result<(), Stop> {
        self.keep(Rec::Run(Box::new(run)), RUN_BYTES)
    }

    /// A block ended. Kept even when the file wrote nothing yet: what
    /// came before it (an earlier file's last lines) goes out there.
    pub(super) fn flushed(&mut self) {
        if !matches!(self.recs.last(), Some(Rec::Flush)) {
            self.recs.push(Rec::Flush);
        }
    }
}

/// A small file read whole: what it wrote, the runs still open at its
/// end, what reading it passed over, the events it matched.
pub(super) struct Whole {
    recs: Vec<Rec>,
    open: Vec<demux::Judged>,
    counts: demux::Counts,
    matched: u64,
}

impl Whole {
    /// Writes and judges what the file gave as the one thread would have;
    /// its open runs and counts, for [`super::judge_input`].
    pub(super) fn replay(
        self,
        ctx: &mut Ctx<'_>,
        source: &str,
        t: &mut Tally,
    ) -> Result<(Vec<demux::Judged>, demux::Counts), Stop> {
        for rec in self.recs {
            match rec {
                Rec::Text(bytes) => ctx.text(&bytes)?,
                Rec::Event(ty, body) => {
                    if let Sink::Report(sinks) = &mut ctx.sink {
                        sinks.out.forward(ty, &body)?;
                    }
                }
                Rec::Run(run) => ended_run(ctx, source, *run, t)?,
                Rec::Flush => ctx.flush()?,
            }
        }
        ctx.matched += self.matched;
        Ok((self.open, self.counts))
    }
}

/// Reads the `inputs` (several regular files) as `plan` says and
/// takes each into the output in input order.
pub(super) fn read_at_once(
    ctx: &mut Ctx<'_>,
    inputs: &[&Path],
    plan: &crate::pool::Plan,
    t: &mut Tally,
) -> Result<(), Stop> {
    // The threads are the files': each is read on one.
    let one = ErrorsArgs {
        judge: JudgeArgs {
            threads: 1,
            ..ctx.args.judge.clone()
        },
        ..ctx.args.clone()
    };
    let (format, color, line_width, files) = (ctx.format, ctx.color, ctx.line_width, ctx.files);
    let work = |i: usize, room: usize| {
        // What a worker keeps grows with the events written and the
        // runs of a log: then only small files go to workers. What it
        // keeps stays within its room, past which the file is read in
        // its turn.
        if room == 0 || (!plan.small(i) && (format.is_some() || one.logs.log)) {
            return (Read::InTurn, 0);
        }
        let mut w = Ctx {
            args: &one,
            format,
            color,
            line_width,
            files,
            sink: Sink::Record(Box::new(Recording {
                recs: Vec::new(),
                held: 0,
                room,
            })),
            matched: 0,
            header_done: true,
        };
        read_whole(&mut w, inputs[i])
    };
    let mut result = Ok(());
    plan.in_order(work, |i, read| {
        result = take_input(ctx, inputs[i], read, t);
        result.is_ok()
    });
    result
}

/// Reads the file at `path` through the worker's `ctx`; nothing is said.
/// Returns what it made and the bytes it keeps.
fn read_whole(ctx: &mut Ctx<'_>, path: &Path) -> (Read, usize) {
    let file = match open_input(path) {
        Ok(f) => f,
        Err(msg) => return (Read::Unreadable(msg), 0),
    };
    let source = path.display().to_string();
    // A worker's runs are kept, not judged into a tally: this one stays
    // empty, and what it writes fails only past its room.
    let mut unused = Tally::default();
    let Ok((open, counts)) = read_input(ctx, file, &source, &mut unused) else {
        return (Read::InTurn, 0);
    };
    let Sink::Record(rec) = &mut ctx.sink else {
        return (Read::InTurn, 0);
    };
    let held = rec.held + open.len() * RUN_BYTES;
    if held > rec.room {
        return (Read::InTurn, 0);
    }
    let whole = Whole {
        recs: std::mem::take(&mut rec.recs),
        open,
        counts,
        matched: ctx.matched,
    };
    (Read::Whole(Box::new(whole)), held)
}
