//! `aoi check`: a validating relay.
//!
//! A transparent relay in the § 13.1 sense: stdout is the input, byte for
//! byte (valid or not, an unterminated last line included), and the verdict
//! goes to stderr and the exit status. With `--output jsonl` stdout is a
//! report instead, itself a conforming AOI stream (a producer, § 13.1);
//! `--report FILE` writes the same report while relaying.

use crate::spec::exit::Code;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::cli::{CheckArgs, Format};
use crate::drive::drive_source;
use crate::emit::{Ended, ErrorEvent, Producer, Reason, Summary};
use crate::judge::{Finding, Judge, JudgeOptions, Outcome, Verdict};
use crate::out::*;
use crate::rules::Severity;

mod hint;
use crate::pool::{Engine, Keeps, Opened, Turn, Turned, each_turn};

fn finding_event(e: &mut Producer<Tee>, f: &Finding, source: &str) -> Result<(), Stop> {
    let r = f.rule.rule();
    let ty = if r.severity == Severity::Advisory {
        "advisory"
    } else {
        "violation"
    };
    let mut fields: Vec<(&str, Value)> = vec![
        ("rule", r.id.into()),
        ("severity", r.severity.name().into()),
        ("source", source.into()),
        ("line_number", f.line.into()),
    ];
    if let Some(s) = f.seq {
        fields.push(("seq", s.into()));
    }
    fields.push(("message", f.message.clone().into()));
    fields.push(("spec", r.spec.into()));
    fields.push(("hint", r.hint.into()));
    e.event(ty, &fields)
}

fn stream_event(e: &mut Producer<Tee>, v: &Verdict, source: &str) -> Result<(), Stop> {
    let mut f: Vec<(&str, Value)> = vec![("source", source.into())];
    let id = upstream_identity(v);
    for (k, val) in id.fields() {
        f.push((k, val.into()));
    }
    if let Some(r) = &v.run {
        f.push(("run", r.clone().into()));
    }
    f.push(("outcome", v.outcome.name().into()));
    f.push(("exit_code", v.exit_code.into()));
    f.push(("ok", (v.exit_code == 0).into()));
    f.push(("reason", v.reason.clone().into()));
    f.push(("lines", v.lines.into()));
    f.push(("bytes", v.bytes.into()));
    f.push(("terminated", v.terminated.into()));
    f.push(("domain_count", v.domain_events.into()));
    f.push(("framework_count", v.framework_events.into()));
    f.push(("warning_count", v.warnings.into()));
    f.push(("error_count", v.errors.into()));
    f.push(("violation_count", (v.violations + v.incompletes).into()));
    f.push(("advisory_count", v.advisories.into()));
    let types: Map<String, Value> = v
        .events_by_type
        .iter()
        .map(|(k, n)| (k.clone(), (*n).into()))
        .collect();
    f.push(("events", Value::Object(types)));
    if v.other_types > 0 {
        // Types past the tracking cap (1024 names, 256 bytes each).
        f.push(("other_type_count", v.other_types.into()));
    }
    let rules: Map<String, Value> = v
        .rule_counts
        .iter()
        .map(|(r, n)| (r.id().to_string(), (*n).into()))
        .collect();
    f.push(("rules", Value::Object(rules)));
    f.push((
        "factors",
        json!({
            "typed": v.factors.typed,
            "verifiable": v.factors.verifiable,
            "versioned": v.factors.versioned,
            "composable": v.factors.composable,
            "bounded": v.factors.bounded,
        }),
    ));
    if let Some(s) = &v.summary {
        if let Some(ok) = s.ok {
            f.push(("upstream_ok", ok.into()));
        }
        if let Some(r) = &s.reason {
            let text = match r {
                Ok(r) => r.as_str(),
                Err(other) => other,
            };
            f.push(("upstream_reason", text.into()));
        }
        f.push(("partial", s.partial.into()));
        f.push(("truncated", s.truncated.into()));
        if let Some(ms) = s.elapsed_ms {
            f.push(("elapsed_ms", crate::judge::ms_json(ms)));
        }
    }
    if v.exit_code != 0 {
        if let Some(c) = &v.cause {
            f.push(("caused_by", cause_json(c)));
        }
    }
    e.event("stream", &f)
}

/// The findings of the stream being judged: each goes into the report
/// as it comes, the first `--show` are kept for stderr.
struct Findings<'a> {
    args: &'a CheckArgs,
    source: &'a str,
    shown: Vec<Finding>,
    /// Violation and advisory events reported, over every stream.
    reported: &'a mut (u64, u64),
}

impl Findings<'_> {
    fn take(&mut self, f: Finding, sinks: &mut Sinks) -> Result<(), Stop> {
        if sinks.has_report() {
            finding_event(&mut sinks.out, &f, self.source)?;
            if f.rule.severity() == Severity::Advisory {
                self.reported.1 += 1;
            } else {
                self.reported.0 += 1;
            }
        }
        if self.shown.len() < self.args.show {
            self.shown.push(f);
        }
        Ok(())
    }
}

/// The live output of a stream being judged: the relay, and its
/// findings into the report and stderr.
struct Live<'s, 'f, 'a> {
    sinks: &'s mut Sinks,
    found: &'f mut Findings<'a>,
}

impl Output<Finding> for Live<'_, '_, '_> {
    type Error = Stop;
    fn text(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        self.sinks.relay(bytes)
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.sinks.out.flush()
    }
    fn put(&mut self, f: Finding) -> Result<(), Stop> {
        self.found.take(f, self.sinks)
    }
}

/// Judges one stream into `out`: its bytes (the relay) and findings as
/// they come, flushed after each block read (a live stream's findings
/// reach the report's reader as they are found, not when a buffer
/// fills). Returns the judge, read to the stream's end or a stop.
fn judge_stream<R: Read + Send, O: Output<Finding>>(
    reader: crate::drive::Source<R>,
    options: JudgeOptions,
    out: &mut O,
) -> Result<Judge, O::Error> {
    let mut judge = Judge::new(options);
    drive_source(
        reader,
        &mut judge,
        |_, _| Ok(()),
        |judge, bytes| {
            out.text(bytes)?;
            judge.drain().try_for_each(|f| out.put(f))?;
            out.flush()
        },
    )?;
    judge.drain().try_for_each(|f| out.put(f))?;
    Ok(judge)
}

/// The stream's verdict, its stream-level findings (summary.missing, …)
/// into `out`.
fn finish_stream<O: Output<Finding>>(judge: Judge, out: &mut O) -> Result<Verdict, O::Error> {
    let (v, last) = judge.finish();
    last.into_iter().try_for_each(|f| out.put(f))?;
    Ok(v)
}

/// How `check` judges each input: its bytes written when they are
/// relayed, and its first findings (all when they are reported).
struct Checking<'a> {
    args: &'a CheckArgs,
    judging: &'a Judging,
    relay: bool,
    findings: usize,
}

/// A stream judged.
enum Checked {
    /// To its end: its verdict.
    Judged(Verdict),
    /// Stopped by SIGINT/SIGTERM before its summary: what was read of it
    /// still counts as consumed.
    Cut(Verdict, Stop),
}

impl Engine for Checking<'_> {
    type Item = Finding;
    type Done = Checked;
    type Error = Stop;

    /// Without a relay, a file of any size may go to a worker: what it
    /// keeps is bounded by its room, past which it is read in its turn.
    fn keeps(&self) -> Keeps {
        match self.relay {
            true => Keeps::Small,
            false => Keeps::Bounded,
        }
    }

    fn read<O, E>(&self, src: Opened, _: &Path, out: &mut O) -> Result<Checked, Stop>
    where
        O: Output<Finding, Error = E>,
        E: Into<Stop>,
    {
        let mut kept = Kept {
            out,
            relay: self.relay,
            findings: self.findings,
        };
        let src = source_for(src, self.judging.reading);
        let options = self.judging.options(self.args.max_per_rule);
        let judge = judge_stream(src, options, &mut kept);
        let judge = judge.map_err(Into::into)?;
        // A stream stopped before its summary is not judged to its end.
        // One whose summary came while the relay drained (the producer's
        // own cancelled summary, § 7) is judged as it is.
        if let Err(stop) = cancelled() {
            if !judge.summary_seen() {
                return Ok(Checked::Cut(judge.finish().0, stop));
            }
        }
        let v = finish_stream(judge, &mut kept).map_err(Into::into)?;
        Ok(Checked::Judged(v))
    }
}

/// What `check` writes of a stream: its bytes when they are relayed, its
/// first `findings`.
struct Kept<'o, O> {
    out: &'o mut O,
    relay: bool,
    findings: usize,
}

impl<O: Output<Finding>> Output<Finding> for Kept<'_, O> {
    type Error = O::Error;
    fn text(&mut self, bytes: &[u8]) -> Result<(), O::Error> {
        match self.relay {
            true => self.out.text(bytes),
            false => Ok(()),
        }
    }
    fn flush(&mut self) -> Result<(), O::Error> {
        self.out.flush()
    }
    fn put(&mut self, f: Finding) -> Result<(), O::Error> {
        if self.findings == 0 {
            return Ok(());
        }
        self.findings -= 1;
        self.out.put(f)
    }
}

/// What the inputs judged so far add up to.
#[derive(Default)]
struct Tally {
    /// Inputs were named: each verdict line names its input.
    named: bool,
    code: Code,
    verdicts: crate::out::Verdicts,
    streams: u64,
    /// Violation and advisory events reported.
    reported: (u64, u64),
}

impl Tally {
    /// Judges the input at `path` (or takes what a worker judged of it)
    /// into the relay, the report, stderr and the tally.
    fn take(
        &mut self,
        args: &CheckArgs,
        sinks: &mut Sinks,
        path: &Path,
        turn: Turn<'_, Checking<'_>>,
    ) -> Result<(), Stop> {
        let source = path.display().to_string();
        let mut found = Findings {
            args,
            source: &source,
            shown: Vec::new(),
            reported: &mut self.reported,
        };
        let v = match turn.read_into(&mut Live {
            sinks,
            found: &mut found,
        })? {
            Turned::Read(Checked::Judged(v)) => v,
            Turned::Read(Checked::Cut(v, stop)) => {
                sinks.add_consumed(&v);
                return Err(stop);
            }
            Turned::Unreadable(msg) => return self.unreadable(args, sinks, &msg, &source),
        };
        let shown = found.shown;
        self.streams += 1;
        if sinks.has_report() {
            stream_event(&mut sinks.out, &v, &source)?;
        }
        if !args.quiet {
            let name = self.named.then_some(source.as_str());
            say_verdict(&v, &shown, name);
        }
        self.code = self.code.worst(Code::of(v.exit_code));
        sinks.add_consumed(&v);
        self.verdicts.add(v);
        Ok(())
    }

    /// An input that could not be opened: 66, said and reported.
    fn unreadable(
        &mut self,
        args: &CheckArgs,
        sinks: &mut Sinks,
        msg: &str,
        source: &str,
    ) -> Result<(), Stop> {
        eprint_line(args.quiet, &format!("aoi check: {msg}"));
        self.code = self.code.worst(Code::NOINPUT);
        if sinks.has_report() {
            sinks.out.error(&unreadable_error(msg, source))?;
        }
        Ok(())
    }
}

/// A stream's findings (the first `--show`) and verdict on stderr.
fn say_verdict(v: &Verdict, shown: &[Finding], name: Option<&str>) {
    let hidden = (v.violations + v.incompletes + v.advisories).saturating_sub(shown.len() as u64);
    let mut err = io::stderr().lock();
    if v.outcome != Outcome::Ok {
        for f in shown {
            let _ = writeln!(err, "{}", finding_line(f, name));
        }
        if hidden > 0 {
            let _ = writeln!(
                err,
                "  … {hidden} more finding(s); --output jsonl lists up to --max-per-rule of each rule"
            );
        }
    }
    let _ = writeln!(err, "{}", verdict_line("check", v, name));
    if let Some(h) = hint::log_hint(v) {
        let _ = writeln!(err, "{h}");
    }
}

/// Runs `aoi check`; returns the exit status.
pub fn run(args: &CheckArgs) -> Code {
    super::resolve::resolving("check", args, check)
}

/// `aoi check` on its arguments and what they resolve to.
fn check(args: &CheckArgs, judging: &Judging) -> Code {
    let stdout = io::stdout();
    let to_tty = stdout.is_terminal();
    let report_stdout = args.output == Some(Format::Jsonl);
    let relay = !report_stdout && !args.no_relay && !to_tty;
    let relay_file = if relay {
        match stdout.as_fd_file() {
            Ok(f) => Some(f),
            Err(e) => {
                eprint_line(false, &format!("aoi check: cannot use stdout: {e}"));
                return Code::IOERR;
            }
        }
    } else {
        None
    };
    if let Some(p) = &args.report {
        // Not stdout: that is the relay's (a file named `-` was written).
        if p.as_os_str() == "-" {
            eprint_line(
                false,
                "aoi check: --report takes a file; for the report on stdout use --output jsonl (it replaces the relay)",
            );
            return Code::USAGE;
        }
        if let Some(input) = same_file_as_input(p, &judging.files) {
            eprint_line(
                false,
                &format!(
                    "aoi check: --report {} is also an input ({input}); it would be overwritten",
                    p.display()
                ),
            );
            return Code::USAGE;
        }
    }
    let report_file = match &args.report {
        Some(p) => match File::create(p) {
            Ok(f) => Some(io::BufWriter::new(f)),
            Err(e) => {
                eprint_line(
                    false,
                    &format!("aoi check: cannot create report {}: {e}", p.display()),
                );
                return Code::CANTCREAT;
            }
        },
        None => None,
    };
    let report_path = args
        .report
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let mut sinks = Sinks::new(
        relay_file,
        report_stdout.then(stdout_writer),
        report_file.map(|f| (f, report_path)),
    );
    // A relay, with or without a report: a stop lets the producer's last
    // lines (its cancelled summary, § 7) through first.
    if let Err(e) = crate::cancel::install_draining() {
        eprint_line(false, &format!("aoi check: cannot handle signals: {e}"));
    }
    match run_streams(args, judging, &mut sinks) {
        Ok(code) => code,
        Err(stop) => {
            close_report_after_relay_failure(&mut sinks, &stop);
            sinks.end("check", stop)
        }
    }
}

fn run_streams(args: &CheckArgs, judging: &Judging, sinks: &mut Sinks) -> Result<Code, Stop> {
    if sinks.has_report() {
        sinks.out.meta("check", Vec::new())?;
    }
    let inputs = judging.inputs();
    let named = judging.named();
    let mut t = Tally {
        named,
        ..Tally::default()
    };
    let relay = sinks.relays();
    // Without a report only the findings shown on stderr are used.
    let findings = match sinks.has_report() {
        true => usize::MAX,
        false => args.show,
    };
    let engine = Checking {
        args,
        judging,
        relay,
        findings,
    };
    let mut result = Ok(());
    each_turn(&inputs, judging.reading.threads, &engine, |i, turn| {
        // No new input after a stop request.
        result = cancelled().and_then(|()| t.take(args, sinks, inputs[i], turn));
        result.is_ok()
    });
    result?;
    let Tally {
        code,
        verdicts,
        streams,
        reported,
        ..
    } = t;
    // Stopped, though the stream ended with its summary: the exit says
    // that aoi was asked to stop, unless something worse is to say, and
    // so does the report's summary (`reason:"cancelled"`, § 7), never an
    // `ok:true` beside exit 130 (found by lint's review, under load). Asked
    // only before the summary is written: a signal after it meets a run
    // that has finished.
    if let Some(sig) = crate::cancel::requested() {
        if code.rank() < Code::CANCELLED.rank() {
            return Err(Stop::Cancelled(sig));
        }
    }
    if sinks.has_report() {
        let props = json!({
            "streams": streams,
            "violations": reported.0,
            "advisories": reported.1,
            "exit_code": code,
        });
        finish_report(sinks, &verdicts, code, props)?;
    }
    Ok(code)
}

/// The input that is the same file as `report`, if any (same device and
/// inode), since creating the report would truncate it before it is read.
fn same_file_as_input(report: &Path, files: &[std::path::PathBuf]) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let r = std::fs::metadata(report).ok()?;
    files
        .iter()
        .find(|f| std::fs::metadata(f).is_ok_and(|m| m.dev() == r.dev() && m.ino() == r.ino()))
        .map(|f| f.display().to_string())
}

/// When the relay stops (stdout closed or unwritable), a `--report` file is
/// still closed as a conforming stream: an `io` error and an `ok:false`
/// summary, so it never ends without its terminal event (§ 4). A
/// cancellation is left to [`Sinks::end`].
fn close_report_after_relay_failure(sinks: &mut Sinks, stop: &Stop) {
    let (code, message) = match stop {
        Ended::Closed => (
            "BROKEN_PIPE",
            "stdout was closed by the reader; the relay stopped".to_string(),
        ),
        Ended::Failed(e) => ("WRITE_FAILED", e.to_string()),
        // aoi's report is not judged as it is written: nothing refuses.
        Ended::Cancelled(_) | Ended::Refused(_) => return,
    };
    // Only the report file: stdout is what failed (or is the report
    // itself); the file, written first, holds every event whole.
    let tee = sinks.out.get_mut();
    tee.stdout = None;
    if tee.file.is_none() || message.starts_with("cannot write report") {
        return;
    }
    sinks.out.resume();
    // Best effort: the run is already failing with the relay's status.
    let _ = sinks
        .out
        .error(&ErrorEvent::new("io", code, message).retryable(false))
        .and_then(|()| sinks.out.finish(&Summary::failed(Reason::Failed)));
}
