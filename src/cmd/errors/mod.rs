//! `aoi errors`: errors and warnings out of AOI streams and real logs.
//!
//! The control plane is what `grep aoi:` pulls out crudely (§ 8.2); this
//! command does it on logs as they really are:
//!
//! - a line that is no AOI event (prose, a stack trace, another program's
//!   JSON, invalid JSON) is skipped and counted, never fatal;
//! - an event after a text prefix on the same line is found: the first `{`
//!   (of a few) that starts a JSON object with a string `type` running to the
//!   end of the line (`2026-07-30T12:00:00Z stdout F {…}`, `[worker-3] {…}`);
//!   a trailing CR is dropped; a Docker json-file line (`{"log":"{…}\n",…}`)
//!   is unwrapped once;
//! - runs interleaved in one log are told apart by `aoi.run` (§ 8.1): each
//!   run is its own stream with its own judge, exactly the judge of
//!   `aoi check`, so seq and `event_count` reconcile per run. Events without
//!   an envelope belong to the input's unnamed stream, which is judged only
//!   when it holds a framework event (otherwise it is some other program's
//!   JSON and its lines count as skipped).
//!
//! Output: an aligned table on a terminal (upstream text sanitised), the
//! events as they came otherwise (`raw`), or a conforming AOI stream
//! (`jsonl`, § 13.1: own `aoi:meta`, the events forwarded with `origin`
//! naming the tool that raised them, retry fields intact, and an
//! `aoi:summary` accounting for the input). The exit status is the worst
//! stream's, from the shared table.

use crate::spec::exit::Code;
use std::fmt::Write as _;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::Path;

use serde_json::json;

use crate::cli::{ErrorsArgs, ErrorsFormat, Scope};
use crate::demux;
use crate::emit::ErrorEvent;
use crate::judge::fields::{Ev, bool_value, str_ref, whole_value};
use crate::judge::{Cause, Outcome};
use crate::out::{
    AsFdFile, Closing, EventKind, Found, Judging, Output, Sinks, Stop, Text, Weighed, budget, cell,
    close_report, eprint_line, eprint_safe, event_kind, finding_line, forwarded_body,
    forwarded_from, forwarded_parts, install_cancel, origin, paint, sanitize, source_for,
    stop_code, unreadable_error, verdict_line, write_err,
};
use crate::peek::{Peeker, unescape};
use crate::pool::{Engine, Keeps, Opened, Turn, Turned, each_turn};
use crate::spec::{self, types};

/// Findings kept per stream for stderr.
const SHOWN: usize = 10;

/// Where matching events go.
enum Sink {
    /// Table, raw lines or the count, through one buffered writer.
    Text(Box<dyn Write>),
    /// A conforming AOI stream.
    Report(Box<Sinks>),
}

/// How matching events are shown: all that reading an input needs
/// besides the [`Output`] it writes to.
#[derive(Clone, Copy)]
struct Shape<'a> {
    args: &'a ErrorsArgs,
    judging: &'a Judging,
    format: Option<ErrorsFormat>,
    color: bool,
    /// Width of the LINE column, and whether it names the file.
    line_width: usize,
    files: bool,
}

/// The live output, and what the inputs taken so far matched.
struct Ctx<'a> {
    shape: Shape<'a>,
    args: &'a ErrorsArgs,
    sink: Sink,
    matched: u64,
    header_done: bool,
}

impl Ctx<'_> {
    /// Hands what was written so far to stdout (and the report file).
    fn flush(&mut self) -> Result<(), Stop> {
        match &mut self.sink {
            Sink::Text(w) => w.flush().map_err(|e| write_err(e, "stdout")),
            Sink::Report(sinks) => sinks.out.flush(),
        }
    }

    /// Writes text (raw lines, table rows) to stdout, the table's header
    /// before the first row.
    fn text(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        let header = (self.shape.format == Some(ErrorsFormat::Table) && !self.header_done)
            .then(|| table_header(&self.shape));
        match &mut self.sink {
            Sink::Text(w) => {
                if let Some(h) = header {
                    self.header_done = true;
                    w.write_all(h.as_bytes())
                        .map_err(|e| write_err(e, "stdout"))?;
                }
                w.write_all(bytes).map_err(|e| write_err(e, "stdout"))
            }
            Sink::Report(_) => Ok(()),
        }
    }
}

/// Runs `aoi errors`; returns the exit status.
pub fn run(args: &ErrorsArgs) -> Code {
    super::resolve::resolving("errors", args, errors)
}

/// `aoi errors` on its arguments and what they resolve to.
fn errors(args: &ErrorsArgs, judging: &Judging) -> Code {
    budget::set_show(judging.logs.show);
    let stdout = io::stdout();
    let tty = stdout.is_terminal();
    let format = if args.count {
        None
    } else {
        Some(args.output.unwrap_or(if tty {
            ErrorsFormat::Table
        } else {
            ErrorsFormat::Raw
        }))
    };
    let sink = if format == Some(ErrorsFormat::Jsonl) {
        let mut sinks = Sinks::report_to_stdout();
        install_cancel("errors");
        if let Err(stop) = sinks.out.meta("errors", Vec::new()) {
            return sinks.end("errors", stop);
        }
        Sink::Report(Box::new(sinks))
    } else if tty {
        Sink::Text(Box::new(io::LineWriter::new(stdout.lock())))
    } else {
        match stdout.as_fd_file() {
            Ok(f) => Sink::Text(Box::new(BufWriter::with_capacity(64 * 1024, f))),
            Err(e) => {
                eprint_line(false, &format!("aoi errors: cannot use stdout: {e}"));
                return Code::IOERR;
            }
        }
    };
    let inputs = judging.inputs();
    let files = inputs.len() > 1;
    let line_width = if files {
        inputs
            .iter()
            .map(|p| p.display().to_string().chars().count())
            .max()
            .unwrap_or(1)
            + 7
    } else {
        6
    };
    let shape = Shape {
        args,
        judging,
        format,
        color: format == Some(ErrorsFormat::Table) && args.color.enabled(tty),
        line_width,
        files,
    };
    let mut ctx = Ctx {
        shape,
        args,
        sink,
        matched: 0,
        header_done: false,
    };
    match run_inputs(&mut ctx, &inputs) {
        Ok(code) => code,
        Err(stop) => match ctx.sink {
            Sink::Report(sinks) => sinks.end("errors", stop),
            Sink::Text(_) => stop_code("errors", &stop),
        },
    }
}

/// What the inputs read so far add up to.
#[derive(Default)]
struct Tally {
    /// The report's code is the streams' verdict; --no-fail changes only
    /// the process exit status, never what the report says (§ 13.1).
    code: Code,
    verdicts: crate::out::Verdicts,
    log: demux::Counts,
    /// Events of runs past `--max-runs`: (domain, warnings, errors).
    extra: (u64, u64, u64),
    /// aoi's own first error: what caused_by names when aoi itself failed.
    own_cause: Option<Cause>,
    /// Streams judged in the input being read, and their lines.
    input_streams: usize,
    input_lines: u64,
    /// Streams judged in every input.
    streams: usize,
}

impl Tally {
    /// One of aoi's own failures: the exit it sets and the cause it names.
    fn own(&mut self, exit_code: Code, category: &str, code: &str) {
        self.code = self.code.worst(exit_code);
        self.own_cause
            .get_or_insert_with(|| Cause::own(category, code));
    }
}

fn run_inputs(ctx: &mut Ctx<'_>, inputs: &[&Path]) -> Result<Code, Stop> {
    let mut t = Tally::default();
    let shape = ctx.shape;
    let mut result = Ok(());
    each_turn(inputs, shape.judging.reading.threads, &shape, |i, turn| {
        result = take_input(ctx, inputs[i], turn, &mut t);
        result.is_ok()
    });
    result?;
    if let Some(want) = &ctx.args.run {
        if t.streams == 0 && !t.log.other_run_ids.is_empty() {
            no_matching_run(ctx, want, &mut t)?;
        }
    }
    let code = close(ctx, t)?;
    Ok(if ctx.args.no_fail && code != Code::NOINPUT {
        Code::OK
    } else {
        code
    })
}

/// Reads the input at `path` (or takes what a worker read of it) into
/// the output, stderr and the tally.
fn take_input(
    ctx: &mut Ctx<'_>,
    path: &Path,
    turn: Turn<'_, Shape<'_>>,
    t: &mut Tally,
) -> Result<(), Stop> {
    let source = path.display().to_string();
    let mut live = Live {
        ctx,
        source: &source,
        t,
    };
    let input = match turn.read_into(&mut live)? {
        Turned::Unreadable(msg) => return unreadable(ctx, &msg, &source, t),
        Turned::Read(input) => input,
    };
    ctx.matched += input.matched;
    // Stopped by SIGINT/SIGTERM: the input was not read to its end;
    // what was read of it, and before it, counts as consumed.
    if let Some(sig) = crate::cancel::requested() {
        consume_on_stop(ctx, t, input);
        return Err(Stop::Cancelled(sig));
    }
    judge_input(ctx, &source, input, t)
}

/// What a worker keeps besides text: a forwarded `aoi:error` or
/// `aoi:warning` body, or a run that ended while the file was read.
enum Kept {
    Event(&'static str, Vec<u8>),
    Run(Box<demux::Judged>),
}

impl Weighed for Kept {
    fn weight(&self) -> usize {
        match self {
            Kept::Event(_, body) => body.len(),
            Kept::Run(run) => run.weight(),
        }
    }
}

/// What reading one input to its end gave, besides what it wrote: the
/// runs still open at its end, what reading it passed over, the events
/// it matched.
struct Extracted {
    open: Vec<demux::Judged>,
    counts: demux::Counts,
    matched: u64,
}

impl Engine for Shape<'_> {
    type Item = Kept;
    type Done = Extracted;
    type Error = Stop;

    /// What a worker keeps grows with the events written and the runs of
    /// a log: then only small files go to workers. What it keeps stays
    /// within its room, past which the file is read in its turn.
    fn keeps(&self) -> Keeps {
        match self.format.is_some() || self.args.logs.log {
            true => Keeps::Small,
            false => Keeps::Bounded,
        }
    }

    fn read<O, E>(&self, src: Opened, path: &Path, out: &mut O) -> Result<Extracted, Stop>
    where
        O: Output<Kept, Error = E>,
        E: Into<Stop>,
    {
        let source = path.display().to_string();
        read_input(*self, src, &source, out).map_err(Into::into)
    }

    fn weight(&self, read: &Extracted) -> usize {
        read.open.iter().map(Weighed::weight).sum()
    }
}

/// The live output of one input: stdout or aoi's report, its ended runs
/// judged into the tally.
struct Live<'r, 'a> {
    ctx: &'r mut Ctx<'a>,
    source: &'r str,
    t: &'r mut Tally,
}

impl Output<Kept> for Live<'_, '_> {
    type Error = Stop;
    fn text(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        self.ctx.text(bytes)
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.ctx.flush()
    }
    fn put(&mut self, kept: Kept) -> Result<(), Stop> {
        match kept {
            Kept::Event(ty, body) => match &mut self.ctx.sink {
                Sink::Report(sinks) => sinks.out.forward(ty, &body),
                Sink::Text(_) => Ok(()),
            },
            Kept::Run(run) => {
                // What stdout holds of the run goes before its verdict.
                if !self.ctx.args.quiet && run.verdict.outcome != Outcome::Ok {
                    self.ctx.flush()?;
                }
                judge_stream(self.ctx.shape, self.source, *run, self.t);
                Ok(())
            }
        }
    }
}

/// `--run` named no run of any input, which held others: 66, as an
/// input that is not there (no verdict to give; the runs it could have
/// meant are named), said and reported.
fn no_matching_run(ctx: &mut Ctx<'_>, want: &str, t: &mut Tally) -> Result<(), Stop> {
    let mut runs = t.log.other_run_ids.join(", ");
    if t.log.other_run_ids_more {
        runs.push_str(", …");
    }
    let msg = format!(
        "no run matching --run {want} (a run id's start, or its last characters as tables show it); the runs read: {runs}"
    );
    eprint_safe(ctx.args.quiet, &format!("aoi errors: {msg}"));
    t.own(Code::NOINPUT, "not_found", "NO_MATCHING_RUN");
    if let Sink::Report(sinks) = &mut ctx.sink {
        let event = ErrorEvent::new("not_found", "NO_MATCHING_RUN", msg).retryable(false);
        sinks.out.error(&event)?;
    }
    Ok(())
}

/// An input that could not be opened: 66, said and reported.
fn unreadable(ctx: &mut Ctx<'_>, msg: &str, source: &str, t: &mut Tally) -> Result<(), Stop> {
    eprint_line(ctx.args.quiet, &format!("aoi errors: {msg}"));
    t.own(Code::NOINPUT, "not_found", "INPUT_UNREADABLE");
    if let Sink::Report(sinks) = &mut ctx.sink {
        sinks.out.error(&unreadable_error(msg, source))?;
    }
    Ok(())
}

/// After a stop, what was read counts as consumed in the report (§ 8.3).
fn consume_on_stop(ctx: &mut Ctx<'_>, t: &Tally, input: Extracted) {
    if let Sink::Report(sinks) = &mut ctx.sink {
        sinks.add_counts(t.verdicts.consumed);
        sinks.add_counts(t.extra);
        for st in &input.open {
            sinks.add_consumed(&st.verdict);
        }
        sinks.add_counts(input.counts.untracked_events);
    }
}

/// Judges the streams of one input read to its end: their findings and
/// verdicts on stderr, aoi's own failures (runs past `--max-runs`, no
/// stream) and what reading as a log passed over.
fn judge_input(
    ctx: &mut Ctx<'_>,
    source: &str,
    input: Extracted,
    t: &mut Tally,
) -> Result<(), Stop> {
    let args = ctx.args;
    let Extracted {
        open: streams,
        counts: input,
        ..
    } = input;
    for stream in streams {
        judge_stream(ctx.shape, source, stream, t);
    }
    let judged = std::mem::take(&mut t.input_streams);
    let lines_read =
        std::mem::take(&mut t.input_lines) + input.skipped + input.untracked + input.other_runs;
    t.log.add(&input);
    // Messages about the input name it when files were given.
    let label = if !ctx.shape.judging.named() {
        String::new()
    } else {
        format!("{}: ", sanitize(source))
    };
    let max_runs = ctx.shape.judging.logs.max_runs;
    for (msg, ecode) in own_problems(max_runs, &input, judged, lines_read) {
        eprint_line(args.quiet, &format!("aoi errors: {label}{msg}"));
        t.own(Code::IOERR, "io", ecode);
        if let Sink::Report(sinks) = &mut ctx.sink {
            let event = ErrorEvent::new("io", ecode, msg).retryable(false);
            sinks
                .out
                .error(&event.field("target", source.to_string()))?;
        }
    }
    t.extra.0 += input.untracked_events.0;
    t.extra.1 += input.untracked_events.1;
    t.extra.2 += input.untracked_events.2;
    if input.suspect > 0 {
        eprint_line(
            args.quiet,
            &format!(
                "aoi errors: {label}warning: {} skipped line(s) mention aoi:error but hold no valid event; an error may be lost",
                input.suspect
            ),
        );
    }
    // Reading as a log shows.
    if let Some(note) = input.passed_over() {
        eprint_line(args.quiet, &format!("aoi errors: {label}{note}"));
    }
    Ok(())
}

/// One judged stream of an input: its findings and verdict on stderr
/// when it failed, its verdict into the tally.
fn judge_stream(shape: Shape<'_>, source: &str, stream: demux::Judged, t: &mut Tally) {
    let args = shape.args;
    let v = stream.verdict;
    t.input_streams += 1;
    t.streams += 1;
    t.input_lines += v.lines;
    // A failed run is said while the --show cap lasts, then counted.
    let shown = match args.quiet || v.outcome == Outcome::Ok {
        true => None,
        false => budget::take(stream.findings.len()),
    };
    if let Some(shown) = shown {
        let n = stream_name(shape.judging.named().then_some(source), &stream.run);
        let mut err = io::stderr().lock();
        for f in stream.findings.iter().take(shown) {
            let _ = writeln!(err, "{}", finding_line(f, n.as_deref()));
        }
        let _ = writeln!(err, "{}", verdict_line("errors", &v, n.as_deref()));
    }
    t.code = t.code.worst(Code::of(v.exit_code));
    t.verdicts.add(v);
}

/// How stderr names a stream: the file when files were given, the run.
fn stream_name(file: Option<&str>, run: &Option<String>) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(file) = file {
        parts.push(file.to_string());
    }
    if let Some(r) = run {
        parts.push(format!("run {r}"));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// aoi's own failures of an input, with their codes: runs past
/// `--max-runs` not judged, or no stream at all.
fn own_problems(
    max_runs: usize,
    input: &demux::Counts,
    judged: usize,
    lines_read: u64,
) -> Vec<(String, &'static str)> {
    let mut problems = Vec::new();
    if let Some(msg) = input.past_cap(max_runs, "searched for errors") {
        problems.push((msg, "TOO_MANY_RUNS"));
    }
    // An input whose runs are all others than `--run` names is no
    // problem of its own: the run may be in another input (said once, at
    // the end, when it is in none).
    if judged == 0 && input.untracked == 0 && input.other_run_ids.is_empty() {
        problems.push((
            format!("no AOI stream in {lines_read} line(s)"),
            "NO_AOI_STREAM",
        ));
    }
    problems
}

/// Ends the output: the count and a flush for text, the closing summary
/// for the report; returns the verdict's code.
fn close(ctx: &mut Ctx<'_>, t: Tally) -> Result<Code, Stop> {
    let args = ctx.args;
    let mut code = t.code;
    match &mut ctx.sink {
        Sink::Text(w) => {
            if args.count {
                writeln!(w, "{}", ctx.matched).map_err(|e| write_err(e, "stdout"))?;
            }
            w.flush().map_err(|e| write_err(e, "stdout"))?;
        }
        Sink::Report(sinks) => {
            // An AOI producer accounts for upstream errors in its own
            // outcome (§ 13.1), as `filter` does.
            let mut cause = None;
            let upstream = t
                .verdicts
                .upstream_errors()
                .filter(|_| !args.continue_on_error);
            if let Some((upstream_code, worst)) = &upstream {
                code = code.worst(*upstream_code);
                // Only when they decide the status: an input aoi could not
                // read (66) or a cut stream (74) outranks them.
                if code == *upstream_code {
                    cause = worst.clone();
                }
            }
            crate::out::say_upstream_errors("errors", args.quiet, code, upstream.as_ref());
            // A failed doctor run fails on its aoi:check events, not on
            // errors: they are counted beside the errors.
            let checks_failed = t.verdicts.checks_failed;
            let properties = json!({
                "streams": t.verdicts.streams,
                "matched": ctx.matched,
                "checks_failed": checks_failed,
                "read_as_log": args.logs.log,
                "skipped_lines": t.log.skipped,
                "trimmed_lines": t.log.trimmed,
                "suspect_lines": t.log.suspect,
                "exit_code": code,
            });
            let closing = Closing {
                code,
                properties,
                cause: cause.or(t.own_cause.clone()),
                extra: t.extra,
            };
            close_report(sinks, &t.verdicts, closing)?;
        }
    }
    say_tally(args, &t, ctx.matched);
    Ok(code)
}

/// The closing lines on stderr of a log or many runs: how many runs
/// failed past the --show cap, and the tally of what was found.
fn say_tally(args: &ErrorsArgs, t: &Tally, matched: u64) {
    if let Some(line) = budget::closing("errors", "aoi merge-report --format jsonl") {
        eprint_line(args.quiet, &line);
    }
    if args.logs.log {
        let failed = t.verdicts.failed;
        eprint_line(
            args.quiet,
            &format!(
                "aoi errors: {matched} event(s) found in {} run(s), {failed} of them failed",
                t.verdicts.streams
            ),
        );
    }
}

/// Reads one input through the log reader into `out`: every line
/// located, demultiplexed by run and judged; errors (and warnings) that
/// pass the filters are extracted as they come, and runs given to `out`
/// as they end.
fn read_input<R: Read + Send + std::os::fd::AsRawFd + 'static, O: Output<Kept>>(
    shape: Shape<'_>,
    src: R,
    source: &str,
    out: &mut O,
) -> Result<Extracted, O::Error> {
    let args = shape.args;
    let opts = demux::Options {
        run: args.run.clone(),
        ..shape.judging.log_reading(SHOWN as u64, SHOWN)
    };
    // Runs go out as they end, in order of first appearance; the input's
    // end hands the rest back.
    let mut ended = demux::InOrder::default();
    let mut matched = 0;
    let wanted = Wanted { shape, source };
    // Only forwarding pays for the handoff: deciding alone is cheaper
    // than passing the decision on.
    let prepare =
        (shape.format == Some(ErrorsFormat::Jsonl)).then_some(&wanted as &dyn demux::PrepareEvent);
    let reading = source_for(src, shape.judging.reading);
    let input = demux::read_prepared(reading, &opts, prepare, |visit| {
        let ev = match visit {
            demux::Visit::Event(ev) => ev,
            // A live stream's errors go on as they come.
            demux::Visit::BlockEnd => return out.flush(),
            demux::Visit::LongPiece { .. } => return Ok(()),
            demux::Visit::Ended { run, settled } => {
                ended.push(run.order, *run);
                while let Some(run) = ended.next_before(settled) {
                    out.put(Kept::Run(Box::new(run)))?;
                }
                return Ok(());
            }
        };
        // § 2: an unterminated final line is discarded, never extracted.
        if !ev.terminated {
            return Ok(());
        }
        let e = Ev {
            line: ev.obj,
            members: &ev.peek.members,
        };
        let prepared = ev.prepared;
        let kind = match &prepared {
            Some(p) => kind_of_tag(p.tag),
            None => wanted_kind(args, &e, ev.peek),
        };
        let Some(kind) = kind else {
            return Ok(());
        };
        matched += 1;
        let tool = ev.stream.and_then(|st| st.judge.identity().tool.as_deref());
        let run = (!ev.raw_run.is_empty()).then_some(ev.raw_run);
        let found = Found {
            ev: &e,
            kind,
            tool,
            run,
            line_no: ev.line_no,
            source,
        };
        emit(&shape, &found, prepared, out)
    })?;
    let (open, counts) = input.finish(Vec::new());
    for run in open {
        ended.push(run.order, run);
    }
    Ok(Extracted {
        open: ended.rest().collect(),
        counts,
        matched,
    })
}

/// What the reading thread decides of each event of a log and, for
/// `--output jsonl`, the forwarded body up to its run's tool and its line
/// ([`crate::out::forwarded_parts`]): the work on a matching event that
/// depends on its line alone.
struct Wanted<'a> {
    shape: Shape<'a>,
    source: &'a str,
}

impl demux::PrepareEvent for Wanted<'_> {
    fn prepare(&self, obj: &[u8], peek: &Peeker, out: &mut demux::Prepared) {
        let e = Ev {
            line: obj,
            members: &peek.members,
        };
        let kind = wanted_kind(self.shape.args, &e, peek);
        out.tag = match kind {
            None => 0,
            Some(EventKind::Error) => 1,
            Some(EventKind::Warning) => 2,
        };
        if let (Some(kind), Some(ErrorsFormat::Jsonl)) = (kind, self.shape.format) {
            let raw_run = demux::raw_run_of(peek, obj).0;
            let run = (!raw_run.is_empty()).then_some(raw_run);
            forwarded_parts(&e, kind, run, self.source, out);
        }
    }
}

/// The kind a [`Wanted`] tag stands for.
fn kind_of_tag(tag: u8) -> Option<EventKind> {
    match tag {
        1 => Some(EventKind::Error),
        2 => Some(EventKind::Warning),
        _ => None,
    }
}

/// The kind of `ev` (which `peek` describes) when it is an error (or a
/// warning, when asked) that passes the filters.
#[inline(always)]
fn wanted_kind(args: &ErrorsArgs, ev: &Ev<'_>, peek: &Peeker) -> Option<EventKind> {
    let kind = event_kind(ev.line, peek, args.warnings)?;
    matches(args, ev, kind).then_some(kind)
}

/// The retry disposition: `retryable` when present (§ 9.3: authoritative),
/// else the category's default for an error (§ 9.2); a category aoi does
/// not know is routed as `internal` (§ 9.4), so it takes that default.
fn retryable(ev: &Ev<'_>, kind: EventKind) -> Option<bool> {
    ev.get("retryable").and_then(bool_value).or_else(|| {
        (kind == EventKind::Error)
            .then(|| ev.get("category").and_then(|m| str_ref(ev.line, m)))
            .flatten()
            .and_then(|c| {
                spec::category_default_retryable(c.as_bytes())
                    .or_else(|| spec::category_default_retryable(b"internal"))
            })
    })
}

fn matches(args: &ErrorsArgs, ev: &Ev<'_>, kind: EventKind) -> bool {
    let field = |name: &str| ev.get(name).and_then(|m| str_ref(ev.line, m));
    if !args.category.is_empty()
        && !field("category").is_some_and(|c| args.category.iter().any(|w| *w == c))
    {
        return false;
    }
    if !args.code.is_empty() && !field("code").is_some_and(|c| args.code.iter().any(|w| *w == c)) {
        return false;
    }
    if args.retryable && retryable(ev, kind) != Some(true) {
        return false;
    }
    if args.not_retryable && retryable(ev, kind) != Some(false) {
        return false;
    }
    if let Some(want) = args.scope {
        // § 9.1: an absent scope is process.
        let item = field("scope").is_some_and(|s| s == "item");
        if item != (want == Scope::Item) {
            return false;
        }
    }
    true
}

/// Writes one matching event to `out` as `shape` shows it.
fn emit<O: Output<Kept>>(
    shape: &Shape<'_>,
    found: &Found<'_, '_>,
    prepared: Option<&mut demux::Prepared>,
    out: &mut O,
) -> Result<(), O::Error> {
    let (ev, kind) = (found.ev, found.kind);
    match shape.format {
        None => Ok(()),
        Some(ErrorsFormat::Raw) => {
            out.text(ev.line)?;
            out.text(b"\n")
        }
        Some(ErrorsFormat::Table) => {
            let row = table_row(shape, found);
            out.text(row.as_bytes())
        }
        Some(ErrorsFormat::Jsonl) => {
            let body = match prepared {
                Some(parts) => forwarded_from(parts, found.tool, found.line_no),
                None => forwarded_body(found),
            };
            let ty = match kind {
                EventKind::Error => types::ERROR,
                EventKind::Warning => types::WARNING,
            };
            out.put(Kept::Event(ty, body))
        }
    }
}

const W_RUN: usize = 8;
const W_ORIGIN: usize = 12;
const W_CATEGORY: usize = 19;
const W_CODE: usize = 24;
const W_RETRY: usize = 10;
const W_KIND: usize = 7;

/// The SGR colour of a category: retryable classes yellow, credentials
/// magenta, caller mistakes blue, faults red, the rest cyan.
fn category_color(cat: &str, kind: EventKind) -> &'static str {
    if kind == EventKind::Warning {
        return "33";
    }
    match cat {
        "rate_limited" | "unavailable" | "timeout" => "33",
        "authn" | "authz" => "35",
        "usage" | "validation" | "config" | "unsupported" => "34",
        "not_found" | "conflict" | "precondition_failed" | "cancelled" => "36",
        _ => "31",
    }
}

fn table_header(ctx: &Shape<'_>) -> String {
    let mut s = format!("{:>w$}  ", "LINE", w = ctx.line_width);
    if ctx.args.warnings {
        s.push_str(&cell("KIND", W_KIND));
        s.push_str("  ");
    }
    for (h, w) in [
        ("RUN", W_RUN),
        ("ORIGIN", W_ORIGIN),
        ("CATEGORY", W_CATEGORY),
        ("CODE", W_CODE),
        ("RETRY", W_RETRY),
    ] {
        s.push_str(&cell(h, w));
        s.push_str("  ");
    }
    s.push_str("MESSAGE");
    format!("{}\n", paint(ctx.color, "1", &s))
}

fn table_row(ctx: &Shape<'_>, found: &Found<'_, '_>) -> String {
    let (ev, kind) = (found.ev, found.kind);
    let field = |name: &str| {
        ev.get(name)
            .and_then(|m| str_ref(ev.line, m))
            .map(|v| v.into_owned())
    };
    let at = if ctx.files {
        format!("{}:{}", found.source, found.line_no)
    } else {
        found.line_no.to_string()
    };
    // The row through Text: upstream text made safe as it is written.
    let mut s = Text::default();
    let _ = write!(s, "{:>w$}  ", at, w = ctx.line_width);
    if ctx.args.warnings {
        let k = match kind {
            EventKind::Error => "error",
            EventKind::Warning => "warning",
        };
        s.push(&cell(k, W_KIND));
        s.push("  ");
    }
    // The run's last characters: a ULID's random part, which tells
    // concurrent runs apart (its first ten are the start time).
    let run_text = found
        .run
        .map(|r| {
            let body = r.get(1..r.len().saturating_sub(1)).unwrap_or_default();
            let id = unescape(body);
            let n = id.chars().count();
            id.chars().skip(n.saturating_sub(W_RUN)).collect::<String>()
        })
        .unwrap_or_else(|| "-".to_string());
    s.push(&cell(&run_text, W_RUN));
    s.push("  ");
    s.push(&cell(&origin(ev, found.tool), W_ORIGIN));
    s.push("  ");
    let cat = field("category").unwrap_or_else(|| "-".to_string());
    let cat_cell = cell(&cat, W_CATEGORY);
    s.painted(ctx.color, category_color(&cat, kind), &cat_cell);
    s.push("  ");
    s.push(&cell(&field("code").unwrap_or_else(|| "-".into()), W_CODE));
    s.push("  ");
    let after = ev
        .get("retry_after_ms")
        .and_then(|m| whole_value(ev.line, m))
        .map(|w| w.value.unwrap_or(u64::MAX));
    let retry = match (retryable(ev, kind), after) {
        (Some(true), Some(ms)) => format!("yes {:.1}s", ms as f64 / 1000.0),
        (Some(true), None) => "yes".to_string(),
        (Some(false), _) => "no".to_string(),
        (None, _) => "-".to_string(),
    };
    s.push(&cell(&retry, W_RETRY));
    s.push("  ");
    s.push(&field("message").unwrap_or_default());
    if let Some(t) = field("target") {
        let _ = write!(s, " [{t}]");
    }
    s.line_break();
    s.into_string()
}
