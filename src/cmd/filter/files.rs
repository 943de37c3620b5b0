//! The framed mode's inputs, each filtered in its turn, or, several
//! files up to 1 MiB at once on workers ([`crate::pool`]), each recording
//! what it would write to aoi's report and to stderr; the caller replays
//! each in input order into the one report, which numbers the events, so
//! stdout, stderr and the exit are one thread's (but for aoi's run id and
//! times). A larger file, whose results grow with it, is filtered in its
//! turn. A halt in one file stops the filter for the files after it:
//! their workers' results are dropped at replay, as one thread never made
//! them.

use crate::spec::exit::Code;
use std::path::Path;

use jaq_core::Vars;
use jaq_json::Val;

use super::STACK;
use super::framed::{Framed, Taken, close_framed, framed_stream, take_verdict, unreadable};
use super::jq_args::thread_globals;
use super::replay::Replay;
use super::sink::Recording;
use super::split::{Split, split_stream};
use crate::cli::FilterArgs;
use crate::jq::{self, Filter};
use crate::judge::{Finding, Verdict};
use crate::out::{Judging, Sinks, Stop, install_cancel, source_holding};
use crate::pool::{Input, Keeps, Workers, each_input};

pub(super) fn run_framed(
    args: &FilterArgs,
    judging: &Judging,
    filter: &Filter,
    vars: Vars<Val>,
) -> Code {
    let mut f = Framed::new(args, judging, filter, vars, Sinks::report_to_stdout());
    install_cancel("filter");
    std::thread::scope(|scope| {
        let split = Split::new(scope, args, judging, filter);
        let code = match framed_inputs(&mut f, &split) {
            Ok(code) => code,
            Err(stop) => f.sinks.end("filter", stop),
        };
        split.end(code, f.halted.is_some())
    })
}

/// Filters every input into the report, in input order. A stop (closed
/// stdout, Ctrl-C) or a halt with files left ends the report and the
/// process from there, without waiting for workers.
pub(super) fn framed_inputs(
    f: &mut Framed<'_, Sinks>,
    split: &Split<'_, '_>,
) -> Result<Code, Stop> {
    let (args, judging) = (f.args, f.judging);
    f.sinks.out.meta("filter", Vec::new())?;
    let mut t = Taken {
        code: Code::OK,
        verdicts: crate::out::Verdicts::default(),
        own_cause: None,
    };
    let inputs = judging.inputs();
    let filter = f.filter;
    let workers = Workers {
        stack: Some(STACK),
        ..Workers::new(judging.reading.threads, Keeps::Small)
    };
    let whole = |i: usize, file, room| filter_whole(file, inputs[i], args, judging, filter, room);
    each_input(&inputs, workers, whole, |i, input| {
        let mut taken = take_input(f, split, &mut t, inputs[i], input);
        let rest = inputs.get(i + 1..).unwrap_or_default();
        if taken.is_ok() && f.halted.is_some() && !rest.is_empty() {
            // The files left are only judged now: read here, in turn, not
            // waited for from workers that may be deep in their filter.
            taken = rest
                .iter()
                .try_for_each(|path| take_input(f, split, &mut t, path, Input::open(path)));
            let closed = taken.and_then(|()| close_framed(f, std::mem::take(&mut t)));
            super::end_now(f, closed);
        }
        if let Err(stop) = taken {
            super::end_now(f, Err(stop));
        }
        true
    });
    close_framed(f, t)
}

/// Filters the input (or replays what a worker filtered of it) into the
/// report, says its verdict and takes it into `t`.
fn take_input(
    f: &mut Framed<'_, Sinks>,
    split: &Split<'_, '_>,
    t: &mut Taken,
    path: &Path,
    input: Input<Box<Whole>>,
) -> Result<(), Stop> {
    let source = path.display().to_string();
    let (v, shown) = match input {
        Input::Read(src) => {
            let src = source_holding(src, f.judging.reading, f.args.max_line_bytes);
            match split.wanted(&src) {
                true => split_stream(split, f, src, &source)?,
                false => framed_stream(f, src, &source)?,
            }
        }
        Input::Unreadable(msg) => return unreadable(f, t, &msg, &source),
        Input::Whole(w) => {
            let Whole {
                recs,
                verdict,
                shown,
            } = *w;
            recs.replay(&mut Replay(f))?;
            (verdict, shown)
        }
    };
    take_verdict(f, t, &source, v, &shown);
    Ok(())
}

/// A small file filtered whole: what it wrote, its verdict and first
/// findings.
struct Whole {
    recs: Recording,
    verdict: Verdict,
    shown: Vec<Finding>,
}

/// Filters `file` into memory, in at most `room` bytes; nothing is
/// written or said. Returns what it made and the bytes it keeps.
fn filter_whole(
    file: std::fs::File,
    path: &Path,
    args: &FilterArgs,
    judging: &Judging,
    filter: &Filter,
    room: usize,
) -> (Option<Box<Whole>>, usize) {
    let Some(values) = thread_globals(args) else {
        return (None, 0);
    };
    let sinks = Recording::new(room, 0);
    let mut w = Framed::new(args, judging, filter, Vars::new(values), sinks);
    jq::capture_stderr(room);
    let source = path.display().to_string();
    let src = source_holding(file, judging.reading, args.max_line_bytes);
    // Past its room (or stopped), the file is filtered again in its turn,
    // and so are the rest of its batch: the room counts as used.
    let Ok((verdict, shown)) = framed_stream(&mut w, src, &source) else {
        return (None, room);
    };
    // A file that halted is filtered again in its turn, and so are the
    // rest of its batch: the halt, its message however long, and the
    // files after it (where the filter no longer runs, one that never
    // ends included) are then one thread's, never a record's to lose.
    if w.halted.is_some() || w.sinks.said().is_err() {
        return (None, room);
    }
    let held = w.sinks.held();
    let whole = Whole {
        recs: w.sinks,
        verdict,
        shown,
    };
    (Some(Box::new(whole)), held)
}
