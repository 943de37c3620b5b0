//! `aoi strip`: the data plane without the framework, or the control plane
//! alone (§ 8.2: `grep aoi:` is the crude version).
//!
//! A relay in the § 13.1 sense: it emits no framework events of its own. By
//! default it drops every `aoi:*` event and splices the `aoi` member out of
//! each domain event using the span the peek found, so every other byte of
//! the event (field order, number spellings, escapes, whitespace) comes out
//! as it came in. Lines that are not events (blank, prose, invalid JSON, an
//! unterminated final line, an over-long line) are neither plane: they are
//! dropped and reported through the verdict. `--control` keeps only the
//! `aoi:*` events, byte for byte. The upstream verdict reaches the caller as
//! the exit status of the shared table and one line on stderr.

use crate::out::source_for;
use crate::spec::exit::Code;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::Path;

use crate::cli::StripArgs;
use crate::demux::Judged;
use crate::drive::drive_source;
use crate::judge::{Finding, Judge, JudgeOptions, LineClass, Outcome, Verdict};
use crate::out::{
    AsFdFile, Io, Judging, Output, Weighed, budget, eprint_line, finding_line, verdict_line,
};
use crate::peek::without_member;
use crate::pool::{Engine, Keeps, Opened, Turn, Turned, each_turn};

/// Runs `aoi strip`; returns the exit status.
pub fn run(args: &StripArgs) -> Code {
    super::resolve::resolving("strip", args, strip)
}

/// `aoi strip` on its arguments and what they resolve to.
fn strip(args: &StripArgs, judging: &Judging) -> Code {
    budget::set_show(judging.logs.show);
    let stdout = io::stdout();
    let out: Box<dyn Write> = if stdout.is_terminal() {
        Box::new(io::LineWriter::new(stdout.lock()))
    } else {
        match stdout.as_fd_file() {
            Ok(f) => Box::new(BufWriter::with_capacity(256 * 1024, f)),
            Err(e) => {
                eprint_line(false, &format!("aoi strip: cannot use stdout: {e}"));
                return Code::IOERR;
            }
        }
    };
    let mut out = out;
    let inputs = judging.inputs();
    let mut code = Code::OK;
    let mut result = Ok(());
    let voice = Voice::of(args, judging);
    let engine = Stripping {
        plane: Plane::of(args),
        judging,
    };
    each_turn(&inputs, judging.reading.threads, &engine, |i, turn| {
        let named = judging.named();
        result = take_input(voice, named, &mut out, inputs[i], turn, &mut code);
        result.is_ok()
    });
    if let Err(e) = result {
        return write_failed(&e);
    }
    match out.flush() {
        Ok(()) => {
            let whole = "aoi merge-report --format jsonl";
            if let Some(line) = budget::closing("strip", whole) {
                eprint_line(args.quiet, &line);
            }
            code
        }
        Err(e) => write_failed(&e),
    }
}

/// The exit status after a failed write on stdout: quiet on a closed
/// pipe (§ 7), said otherwise.
fn write_failed(e: &io::Error) -> Code {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return Code::PIPE;
    }
    eprint_line(false, &format!("aoi strip: cannot write stdout: {e}"));
    Code::IOERR
}

/// What stripping one input gave besides its plane (and the runs of a
/// log as they ended): a stream's verdict and first findings, or the runs
/// held at a log's end and what its reading passed over.
enum Stripped {
    Stream(Box<Verdict>, Vec<Finding>),
    Log(Vec<Judged>, crate::demux::Counts),
}

/// How `strip` reads each input. On a worker, past its room or when a
/// long line's temporary file failed, the file is stripped again in its
/// turn (where such a failure is said).
struct Stripping<'a> {
    plane: Plane,
    judging: &'a Judging,
}

impl Engine for Stripping<'_> {
    type Item = Judged;
    type Done = Stripped;
    type Error = io::Error;

    /// Files up to 1 MiB are stripped at once, each by a worker into
    /// memory: a larger one's plane grows with it.
    fn keeps(&self) -> Keeps {
        Keeps::Small
    }

    fn read<O, E>(&self, src: Opened, _: &Path, out: &mut O) -> io::Result<Stripped>
    where
        O: Output<Judged, Error = E>,
        E: Into<io::Error>,
    {
        let (plane, judging) = (self.plane, self.judging);
        if judging.logs.log {
            let (rest, counts) = read_log(src, plane, judging, out)?;
            return Ok(Stripped::Log(rest, counts));
        }
        let src = source_for(src, judging.reading);
        let (v, shown) = strip_stream(src, plane, judging.options(100), out)?;
        Ok(Stripped::Stream(Box::new(v), shown))
    }

    fn weight(&self, done: &Stripped) -> usize {
        match done {
            Stripped::Log(rest, _) => rest.iter().map(Weighed::weight).sum(),
            Stripped::Stream(..) => 0,
        }
    }
}

/// Strips the input (or writes what a worker stripped of it) into `out`,
/// says its verdict and takes its exit into `code`. Only write errors
/// are errors.
fn take_input(
    voice: Voice,
    named: bool,
    out: &mut Box<dyn Write>,
    path: &Path,
    turn: Turn<'_, Stripping<'_>>,
    code: &mut Code,
) -> io::Result<()> {
    let source = path.display().to_string();
    let name = named.then_some(source.as_str());
    let mut live = Live {
        out,
        said: Said::new(voice, name),
    };
    let c = match turn.read_into(&mut live)? {
        Turned::Unreadable(msg) => {
            eprint_line(voice.quiet, &format!("aoi strip: {msg}"));
            Code::NOINPUT
        }
        Turned::Read(Stripped::Stream(v, shown)) => stream_code(voice, &v, &shown, name),
        Turned::Read(Stripped::Log(rest, counts)) => end_log(live.said, rest, &counts),
    };
    *code = code.worst(c);
    Ok(())
}

/// Says a stream's verdict; its exit status.
fn stream_code(voice: Voice, v: &Verdict, shown: &[Finding], name: Option<&str>) -> Code {
    say_verdict(voice, v, shown, name);
    if voice.no_fail {
        Code::OK
    } else {
        Code::of(v.exit_code)
    }
}

/// A stream's verdict on stderr: its first findings and the verdict line
/// when it failed (the line alone with `-v`), nothing with `-q`.
fn say_verdict(voice: Voice, v: &Verdict, shown: &[Finding], name: Option<&str>) {
    if voice.quiet || (v.outcome == Outcome::Ok && !voice.verbose) {
        return;
    }
    // A failed run is said while the --show cap lasts, then counted.
    let shown = match v.outcome {
        Outcome::Ok => &[][..],
        _ => match budget::take(shown.len()) {
            Some(n) => shown.get(..n).unwrap_or(shown),
            None => return,
        },
    };
    let mut err = io::stderr().lock();
    for f in shown {
        let _ = writeln!(err, "{}", finding_line(f, name));
    }
    let _ = writeln!(err, "{}", verdict_line("strip", v, name));
}

/// Which plane `strip` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plane {
    /// The domain events, their `aoi` member removed (the default).
    Data,
    /// The domain events as they came (`--keep-envelope`).
    DataWithEnvelope,
    /// Every `aoi:*` event, byte for byte (`--control`).
    Control,
}

impl Plane {
    /// The plane `--keep-envelope` or `--control` asks for.
    fn of(args: &StripArgs) -> Self {
        match (args.control, args.keep_envelope) {
            (true, _) => Plane::Control,
            (false, true) => Plane::DataWithEnvelope,
            (false, false) => Plane::Data,
        }
    }
}

/// What strip says on stderr and how it exits, from its arguments once.
#[derive(Clone, Copy)]
struct Voice {
    /// `-q`: nothing on stderr.
    quiet: bool,
    /// `-v`: a passing stream's verdict line too.
    verbose: bool,
    /// `--no-fail`: exit 0 whatever the verdict.
    no_fail: bool,
    /// `--max-runs`: runs of a log read past this are an error.
    max_runs: usize,
}

impl Voice {
    fn of(args: &StripArgs, judging: &Judging) -> Self {
        Voice {
            quiet: args.quiet,
            verbose: args.verbose,
            no_fail: args.no_fail,
            max_runs: judging.logs.max_runs,
        }
    }
}

/// Strips `input` in memory (the fuzz target's entry): the `plane` kept,
/// and the verdict.
pub fn strip_bytes(input: &[u8], plane: Plane) -> (Vec<u8>, Verdict) {
    strip_bytes_holding(input, plane, crate::lines::hold())
}

/// [`strip_bytes`] with lines past `hold` bytes read in pieces (the fuzz
/// target holds a small hold to the default one).
pub fn strip_bytes_holding(input: &[u8], plane: Plane, hold: usize) -> (Vec<u8>, Verdict) {
    // Silent, and never failing on the verdict: the caller has it.
    let voice = Voice {
        quiet: true,
        verbose: false,
        no_fail: true,
        max_runs: 1,
    };
    let mut out = Vec::new();
    let mut live = Live {
        out: &mut out,
        said: Said::new(voice, None),
    };
    // Writing to a Vec cannot fail.
    let reader = crate::lines::LineReader::new(input, hold);
    let source = crate::drive::Source::one(reader);
    let options = Judging::default().options(100);
    let v = match strip_stream(source, plane, options, &mut live) {
        Ok((v, _)) => v,
        Err(_) => Judge::new(JudgeOptions::default()).finish().0,
    };
    (out, v)
}

/// Strips one stream into `out`; returns its verdict and the first findings
/// (for stderr). Only write errors are errors here: read errors end the
/// stream as incomplete, like `aoi check`.
fn strip_stream<R: Read + Send, O: Output<Judged>>(
    reader: crate::drive::Source<R>,
    plane: Plane,
    options: JudgeOptions,
    out: &mut O,
) -> io::Result<(Verdict, Vec<Finding>)>
where
    O::Error: Into<io::Error>,
{
    let mut judge = Judge::new(options);
    let mut shown: Vec<Finding> = Vec::new();
    // Written line by line, flushed block by block.
    let out = std::cell::RefCell::new(Io::new(out));
    // A line longer than the reader holds, kept until the judge has read it.
    let spool = std::cell::RefCell::new(crate::spool::Spool::default());
    drive_source(
        reader,
        &mut judge,
        |judge, line| {
            if judge.last_long() {
                return long_line(
                    judge,
                    plane,
                    &mut spool.borrow_mut(),
                    &mut *out.borrow_mut(),
                );
            }
            let line = judge.last_event(line);
            // A duplicate `type` or `aoi` (a violation, § 8.1) makes the
            // line mean different events to different readers: it belongs
            // to neither plane.
            if judge.last_ambiguous() {
                return Ok(());
            }
            let mut out = out.borrow_mut();
            match (judge.last_class(), plane == Plane::Control) {
                (LineClass::Framework, true) => {
                    out.write_all(line)?;
                    out.write_all(b"\n")?;
                }
                (LineClass::Domain, false) => {
                    let (members, aoi) = judge.last_members();
                    match aoi {
                        Some(idx) if plane == Plane::Data => {
                            let (before, after) = without_member(line, members, idx);
                            out.write_all(before)?;
                            out.write_all(after)?;
                        }
                        _ => out.write_all(line)?,
                    }
                    out.write_all(b"\n")?;
                }
                // Invalid lines and the other plane are dropped.
                _ => {}
            }
            Ok(())
        },
        |judge, bytes| {
            if judge.in_long_piece() {
                spool.borrow_mut().push(bytes)?;
            }
            shown.extend(judge.drain().take(10usize.saturating_sub(shown.len())));
            // After each block read: a live producer's events go on at
            // once, not when the buffer fills (on a file: one write per
            // block of 128-256 KiB).
            out.borrow_mut().flush()
        },
    )?;
    shown.extend(judge.drain().take(10usize.saturating_sub(shown.len())));
    let (v, last) = judge.finish();
    for f in last {
        if shown.len() < 10 {
            shown.push(f);
        }
    }
    Ok((v, shown))
}

/// Writes a line longer than the reader holds, which `spool` has kept,
/// to the plane the judge put it in, as a short line would be written.
fn long_line(
    judge: &Judge,
    plane: Plane,
    spool: &mut crate::spool::Spool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let long = judge.long_line();
    let bom = long.bom().then_some(0..3);
    let kept = match (judge.last_class(), plane == Plane::Control) {
        _ if judge.last_ambiguous() => None,
        (LineClass::Framework, true) => Some(None),
        (LineClass::Domain, false) => Some(long.envelope_cut().filter(|_| plane == Plane::Data)),
        _ => None,
    };
    match kept {
        Some(cut) => {
            let skip: Vec<std::ops::Range<u64>> = bom.into_iter().chain(cut).collect();
            spool.write_to(out, &skip)
        }
        None => spool.reset(),
    }
}

/// The verdicts of a log's runs, said on stderr as they end.
pub(super) struct Said<'a> {
    voice: Voice,
    /// The input's name, when files were given.
    name: Option<&'a str>,
    code: Code,
    streams: u64,
}

impl<'a> Said<'a> {
    fn new(voice: Voice, name: Option<&'a str>) -> Self {
        Said {
            voice,
            name,
            code: Code::OK,
            streams: 0,
        }
    }

    /// Says one run's verdict (and findings) and takes its exit.
    fn say(&mut self, st: &crate::demux::Judged) {
        let who = match (&st.run, self.name) {
            (Some(r), Some(n)) => Some(format!("{n} run {r}")),
            (Some(r), None) => Some(format!("run {r}")),
            (None, n) => n.map(str::to_string),
        };
        say_verdict(self.voice, &st.verdict, &st.findings, who.as_deref());
        self.code = self.code.worst(Code::of(st.verdict.exit_code));
        self.streams += 1;
    }
}

/// The live output: the plane into stdout, a log's runs said as they
/// end (after what stdout holds of them). A worker's [`Record`] is the
/// other output, replayed here.
struct Live<'a, 'w> {
    out: &'w mut dyn Write,
    said: Said<'a>,
}

impl Output<Judged> for Live<'_, '_> {
    type Error = io::Error;
    fn text(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
    fn put(&mut self, run: Judged) -> io::Result<()> {
        if !self.said.voice.quiet && run.verdict.outcome != Outcome::Ok {
            self.out.flush()?;
        }
        self.said.say(&run);
        Ok(())
    }
}

/// Says the runs still held at a log's end and what its reading passed
/// over; returns the input's exit status.
fn end_log(
    mut said: Said<'_>,
    rest: Vec<crate::demux::Judged>,
    counts: &crate::demux::Counts,
) -> Code {
    for run in rest {
        said.say(&run);
    }
    let voice = said.voice;
    let mut code = said.code;
    let label = said.name.map(|n| format!("{n}: ")).unwrap_or_default();
    if let Some(msg) = counts.past_cap(voice.max_runs, "stripped") {
        eprint_line(voice.quiet, &format!("aoi strip: {label}{msg}"));
        code = code.worst(Code::IOERR);
    } else if said.streams == 0 {
        eprint_line(
            voice.quiet,
            &format!("aoi strip: {label}no AOI stream in the log"),
        );
        code = code.worst(Code::IOERR);
    }
    if let Some(note) = counts.passed_over() {
        eprint_line(voice.quiet, &format!("aoi strip: {label}{note}"));
    }
    if voice.no_fail { Code::OK } else { code }
}

/// Reads a log into `out`: the plane kept, and its runs as they end.
/// Returns the runs held at its end, in order, and what it passed over.
fn read_log<R: Read + Send + std::os::fd::AsRawFd + 'static, O: Output<Judged>>(
    src: R,
    plane: Plane,
    judging: &Judging,
    out: &mut O,
) -> io::Result<(Vec<crate::demux::Judged>, crate::demux::Counts)>
where
    O::Error: Into<io::Error>,
{
    let mut out = Io::new(out);
    let opts = judging.log_reading(100, 10);
    let mut spool = crate::spool::Spool::default();
    // Each run's verdict is said as it ends, in order of first appearance.
    let mut ended = crate::demux::InOrder::default();
    let input = crate::demux::read(source_for(src, judging.reading), &opts, |visit| {
        let ev = match visit {
            crate::demux::Visit::Event(ev) => ev,
            crate::demux::Visit::BlockEnd => return out.flush(),
            crate::demux::Visit::Ended { run, settled } => {
                ended.push(run.order, *run);
                while let Some(run) = ended.next_before(settled) {
                    out.put(run)?;
                }
                return Ok(());
            }
            crate::demux::Visit::LongPiece { bytes, first } => {
                if first {
                    spool.reset()?;
                }
                return spool.push(bytes);
            }
        };
        log_event(&ev, plane, &mut spool, &mut out)
    })?;
    let (open, counts) = input.finish(Vec::new());
    for run in open {
        ended.push(run.order, run);
    }
    Ok((ended.rest().collect(), counts))
}

/// Writes one event of a log to `out` when it belongs to the plane kept.
fn log_event(
    ev: &crate::demux::Located<'_>,
    plane: Plane,
    spool: &mut crate::spool::Spool,
    out: &mut dyn Write,
) -> io::Result<()> {
    // § 2: a cut final line is no event.
    let framework = ev
        .type_name()
        .is_some_and(|t| t.starts_with(crate::spec::types::PREFIX));
    if !ev.terminated || framework != (plane == Plane::Control) {
        return Ok(());
    }
    if let Some(long) = &ev.long {
        // The event and its line feed, from the kept line.
        let envelope = long.envelope.clone();
        let envelope = envelope.filter(|_| !framework && plane == Plane::Data);
        let skip: Vec<std::ops::Range<u64>> = std::iter::once(0..long.span.start)
            .chain(envelope)
            .chain(std::iter::once(long.span.end..u64::MAX))
            .collect();
        spool.write_to(out, &skip)?;
        return out.write_all(b"\n");
    }
    match ev
        .peek
        .aoi_member
        .filter(|_| plane == Plane::Data && !framework)
    {
        Some(idx) => {
            let (before, after) = without_member(ev.obj, &ev.peek.members, idx);
            out.write_all(before)?;
            out.write_all(after)?;
        }
        None => out.write_all(ev.obj)?,
    }
    out.write_all(b"\n")
}
