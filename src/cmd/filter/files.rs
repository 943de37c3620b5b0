//! The framed mode's inputs, through the one driver ([`each_turn`]):
//! each filtered in its turn, or, several files up to 1 MiB at once on
//! workers, each recording what it would write to aoi's report and to
//! stderr; the report takes each in input order, and numbers the events,
//! so stdout, stderr and the exit are one thread's (but for aoi's run id
//! and times). A larger file, whose results grow with it, is filtered in
//! its turn (one big input on several threads, [`super::split`]). A halt
//! in one file stops the filter for the files after it: their workers'
//! results are never taken, as one thread never made them.

use std::io::Read;
use std::path::Path;

use jaq_core::Vars;

use super::STACK;
use super::framed::{Framed, Program, framed_stream};
use super::jq_args::thread_globals;
use super::report::{Report, Taken, close_framed, take_verdict, unreadable};
use super::sink::{Emit, Rec, Said};
use super::split::{Split, split_stream};
use crate::drive::Source;
use crate::jq::Filter;
use crate::judge::{Finding, Verdict};
use crate::out::{Full, Judging, Output, Sinks, Stop, install_cancel, source_holding};
use crate::pool::{Engine, Keeps, Opened, Turn, Turned, each_turn};
use crate::spec::exit::Code;

pub(super) fn run_framed(
    args: &crate::cli::FilterArgs,
    judging: &Judging,
    filter: &Filter,
) -> Code {
    let program = Program::new(args, judging, filter);
    let mut report = Report::new(Sinks::report_to_stdout(), judging.named());
    install_cancel("filter");
    std::thread::scope(|scope| {
        let split = Split::new(scope, &program);
        let code = match framed_inputs(&mut report, &program, &split) {
            Ok(code) => code,
            Err(stop) => report.end(stop),
        };
        split.end(code, report.halted.is_some())
    })
}

/// Filters every input into the report, in input order. A stop (closed
/// stdout, Ctrl-C) or a halt with files left ends the report and the
/// process from there, without waiting for workers.
fn framed_inputs(
    report: &mut Report,
    program: &Program<'_>,
    split: &Split<'_, '_>,
) -> Result<Code, Stop> {
    let args = program.args;
    report.sinks.out.meta("filter", Vec::new())?;
    let mut t = Taken::default();
    let inputs = program.judging.inputs();
    let engine = Filtering(program);
    each_turn(
        &inputs,
        program.judging.reading.threads,
        &engine,
        |i, turn| {
            let mut taken = take_input(report, split, &mut t, inputs[i], turn);
            let rest = inputs.get(i + 1..).unwrap_or_default();
            if taken.is_ok() && report.halted.is_some() && !rest.is_empty() {
                // The files left are only judged now: read here, in turn, not
                // waited for from workers that may be deep in their filter.
                taken = rest.iter().try_for_each(|path| {
                    take_input(report, split, &mut t, path, Turn::in_turn(&engine, path))
                });
                let closed =
                    taken.and_then(|()| close_framed(report, args, std::mem::take(&mut t)));
                super::end_now(report, closed);
            }
            if let Err(stop) = taken {
                super::end_now(report, Err(stop));
            }
            true
        },
    );
    close_framed(report, args, t)
}

/// Filters the input here (one big input on several threads when that
/// pays), or replays what a worker filtered of it, into the report; says
/// its verdict and takes it into `t`.
fn take_input(
    report: &mut Report,
    split: &Split<'_, '_>,
    t: &mut Taken,
    path: &Path,
    turn: Turn<'_, Filtering<'_>>,
) -> Result<(), Stop> {
    let (args, judging) = (split.program().args, split.program().judging);
    let source = path.display().to_string();
    let (v, shown) = match turn.into_opened() {
        Ok(src) => {
            let src = source_holding(src, judging.reading, args.max_line_bytes);
            match split.wanted(&src) {
                true => split_stream(split, report, src, &source)?,
                false => *filter_stream(split.program(), src, &source, &mut *report)?,
            }
        }
        Err(turn) => match turn.read_into(report)? {
            Turned::Read(done) => *done,
            Turned::Unreadable(msg) => return unreadable(report, args, t, &msg, &source),
        },
    };
    take_verdict(report, args, t, &source, v, &shown);
    Ok(())
}

/// What filtering an input gave besides what it wrote: its verdict and
/// first findings.
type Filtered = Box<(Verdict, Vec<Finding>)>;

/// How the framed mode reads each input, here or on a worker.
pub(super) struct Filtering<'p>(&'p Program<'p>);

impl Engine for Filtering<'_> {
    type Item = Rec;
    type Done = Filtered;
    type Error = Stop;

    /// Files up to 1 MiB are filtered at once: a larger one's results
    /// grow with it.
    fn keeps(&self) -> Keeps {
        Keeps::Small
    }

    /// jq recurses.
    fn stack(&self) -> Option<usize> {
        Some(STACK)
    }

    fn read<O, E>(&self, src: Opened, path: &Path, out: &mut O) -> Result<Filtered, Stop>
    where
        O: Output<Rec, Error = E>,
        E: Into<Stop>,
    {
        let args = self.0.args;
        let src = source_holding(src, self.0.judging.reading, args.max_line_bytes);
        let source = path.display().to_string();
        if !crate::pool::on_worker() {
            return filter_stream(self.0, src, &source, out);
        }
        // On a worker, what the filter writes to stderr goes into the
        // record, where it wrote it. Past its room (or halted, or
        // stopped), the file is filtered again in its turn.
        let mut said = Said::<_, Stop>::capture(out);
        let filtered = filter_stream(self.0, src, &source, &mut said)?;
        said.said()?;
        Ok(filtered)
    }
}

/// Filters one input stream into `out`, with this thread's variables.
fn filter_stream<R: Read + Send, O: Emit>(
    program: &Program<'_>,
    src: Source<R>,
    source: &str,
    out: O,
) -> Result<Filtered, Stop> {
    // The filter thread's were made before any input: only a worker's
    // can fail, and its file is then filtered in its turn.
    let Some(values) = thread_globals(program.args) else {
        return Err(Full.into());
    };
    let mut f = Framed::new(program, Vars::new(values), out);
    framed_stream(&mut f, src, source).map(Box::new)
}
