//! `aoi summary`: the outcome of a run, for people and for scripts.
//!
//! The whole stream goes through the judge (so seq and `event_count`
//! reconciliation catch a middle elision that a look at the last line would
//! miss), then one outcome per stream is printed: a readable line, a JSON
//! object (`--output json`), a conforming AOI stream (`--output jsonl`), or
//! one field raw (`--field`). The exit status is the outcome's, from the
//! shared table, so `if producer | aoi summary -q; then …` works.

use crate::spec::exit::Code;
use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::Path;

use serde_json::{Map, Value};

use crate::cli::{SummaryArgs, SummaryFormat};
use crate::drive::drive_source;
use crate::judge::{Judge, Outcome, Verdict};
use crate::out::{
    Halt, Judging, Output, Sinks, Stop, Taking, Text, Weighed, budget, cancelled, cause_json,
    eprint_line, finish_report, install_cancel, sanitize, source_for, taker, unreadable_error,
    upstream_identity, verdict_line,
};
use crate::pool::{Engine, Keeps, Opened, Turned, each_turn};
use crate::rules::RuleId;

/// Judges one stream to its verdict (nothing is relayed).
fn judge<R: Read + Send>(reader: crate::drive::Source<R>, judging: &Judging) -> Verdict {
    let mut judge = Judge::new(judging.options(0));
    // Nothing is routed: the callbacks cannot fail.
    let _: Result<(), ()> = drive_source(reader, &mut judge, |_, _| Ok(()), |_, _| Ok(()));
    judge.finish().0
}

/// What a kept verdict is counted as, in bytes, against a worker's room.
const VERDICT_BYTES: usize = 2048;

/// What reading one input gave, besides its verdicts.
enum InputEnd {
    /// It could not be opened: why.
    Unreadable(String),
    /// A stop, or the taker said stop.
    Stopped,
    /// Read to its end: how many streams it judged (none: the caller
    /// makes it 74), what is said of runs past `--max-runs` (74 too), and
    /// the notes for stderr on what reading it as a log passed over.
    Read {
        judged: u64,
        past_cap: Option<String>,
        notes: Vec<String>,
    },
}

/// Judges the input `src`: one stream, or one per run of a log with
/// `--log`, each verdict given to `take` as it is judged (`None` at the
/// end of each block read, the moment to flush); nothing is said.
fn read_stream<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    judging: &Judging,
    take: &mut dyn FnMut(Option<Verdict>) -> bool,
) -> InputEnd {
    if judging.logs.log {
        return judge_log(src, judging, take);
    }
    let v = judge(source_for(src, judging.reading), judging);
    match take(Some(v)) {
        true => InputEnd::Read {
            judged: 1,
            past_cap: None,
            notes: Vec::new(),
        },
        false => InputEnd::Stopped,
    }
}

/// Judges one input read as a log (`--log`): one verdict per run, each
/// given to `take` in order of first appearance as soon as it and every
/// run before it have ended (memory bounded by the open runs).
fn judge_log<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    judging: &Judging,
    take: &mut dyn FnMut(Option<Verdict>) -> bool,
) -> InputEnd {
    let opts = judging.log_reading(0, 0);
    let mut ended = crate::demux::InOrder::default();
    let mut judged = 0u64;
    let r: Result<_, ()> = crate::demux::read(source_for(src, judging.reading), &opts, |visit| {
        match visit {
            crate::demux::Visit::Ended { run, settled } => {
                ended.push(run.order, run.verdict);
                while let Some(v) = ended.next_before(settled) {
                    judged += 1;
                    take(Some(v)).then_some(()).ok_or(())?;
                }
            }
            // A live log's reader is not kept waiting.
            crate::demux::Visit::BlockEnd => take(None).then_some(()).ok_or(())?,
            _ => {}
        }
        Ok(())
    });
    let Ok(read) = r else {
        return InputEnd::Stopped;
    };
    let (open, counts) = read.finish(Vec::new());
    for run in open {
        ended.push(run.order, run.verdict);
    }
    for v in ended.rest() {
        judged += 1;
        if !take(Some(v)) {
            return InputEnd::Stopped;
        }
    }
    let past_cap = counts.past_cap(judging.logs.max_runs, "read");
    let notes = counts.passed_over().into_iter().chain(past_cap.clone());
    InputEnd::Read {
        judged,
        past_cap,
        notes: notes.collect(),
    }
}

/// What aoi established about one stream, as one JSON object.
fn outcome_json(v: &Verdict, source: &str) -> Value {
    let id = upstream_identity(v);
    let mut m = Map::new();
    m.insert("source".into(), source.into());
    for (k, val) in id.fields() {
        m.insert(k.into(), val.into());
    }
    if let Some(r) = &v.run {
        m.insert("run".into(), r.clone().into());
    }
    m.insert("outcome".into(), v.outcome.name().into());
    m.insert("exit_code".into(), v.exit_code.into());
    m.insert("ok".into(), (v.exit_code == 0).into());
    m.insert("reason".into(), v.reason.clone().into());
    m.insert("lines".into(), v.lines.into());
    let seq_broken = v.rule_counts.iter().any(|(r, _)| {
        matches!(
            r,
            RuleId::SeqGap | RuleId::SeqMissing | RuleId::SummaryEventCount | RuleId::RunChanged
        )
    });
    let seq_present = !v.rule_counts.iter().any(|(r, _)| *r == RuleId::SeqAbsent);
    // Reconciled: seq present and contiguous, and event_count (if given)
    // equal to the lines received.
    m.insert(
        "seq_reconciled".into(),
        (seq_present && !seq_broken && v.summary.is_some()).into(),
    );
    m.insert("domain_count".into(), v.domain_events.into());
    m.insert("warning_count".into(), v.warnings.into());
    m.insert("error_count".into(), v.errors.into());
    m.insert(
        "violation_count".into(),
        (v.violations + v.incompletes).into(),
    );
    m.insert("advisory_count".into(), v.advisories.into());
    if let (n @ 1.., first) = &v.failed_checks {
        m.insert("checks_failed".into(), (*n).into());
        m.insert("first_failed_check".into(), first.clone().into());
    }
    if v.exit_code != 0 {
        if let Some(c) = &v.cause {
            m.insert("retryable".into(), (c.retryable == Some(true)).into());
            if let (Some(true), Some(ms)) = (c.retryable, c.retry_after_ms) {
                m.insert("retry_after_ms".into(), ms.into());
            }
            m.insert("caused_by".into(), cause_json(c));
        }
    }
    if let Some(s) = &v.summary {
        if let Some(ms) = s.elapsed_ms {
            m.insert("elapsed_ms".into(), crate::judge::ms_json(ms));
        }
        // The upstream summary as it was (null if it is too deep for serde_json).
        let raw: Value = serde_json::from_slice(&s.raw).unwrap_or(Value::Null);
        m.insert("summary".into(), raw);
    } else {
        m.insert("summary".into(), Value::Null);
    }
    Value::Object(m)
}

/// One readable line for a terminal, made safe as it is written.
fn human(v: &Verdict, name: Option<&str>) -> String {
    let id = upstream_identity(v);
    let mut s = Text::default();
    if let Some(n) = name {
        let _ = write!(s, "{n}: ");
    }
    match (&id.tool, &id.tool_version) {
        (Some(t), Some(tv)) => {
            let _ = write!(s, "{t} {tv}");
        }
        (Some(t), None) => s.push(t),
        _ => s.push("(unnamed tool)"),
    }
    if let Some(r) = &v.run {
        // The random end of a ULID tells runs apart (runs of one log
        // often share the time prefix), as merge-report's table does.
        let n = r.chars().count();
        let short: String = r.chars().skip(n.saturating_sub(8)).collect();
        let _ = write!(s, " run {short}");
    }
    let verdict = match v.outcome {
        Outcome::Ok => "ok".to_string(),
        o => format!("{} (exit {})", o.name(), v.exit_code),
    };
    let _ = write!(
        s,
        ": {verdict}: {} domain event(s), {} warning(s), {} error(s), {} line(s)",
        v.domain_events, v.warnings, v.errors, v.lines
    );
    if let Some(ms) = v.summary.as_ref().and_then(|s| s.elapsed_ms) {
        let _ = write!(s, ", {:.1} s", ms / 1000.0);
    }
    if v.exit_code != 0 {
        let _ = write!(s, "; {}", v.reason);
        if let Some(c) = &v.cause {
            let _ = write!(
                s,
                "; cause {} {}",
                c.category.as_deref().unwrap_or("?"),
                c.code.as_deref().unwrap_or("?")
            );
            match (c.retryable, c.retry_after_ms) {
                // In ms, as the verdict line on stderr says it.
                (Some(true), Some(ms)) => {
                    let _ = write!(s, ", retry after {ms} ms");
                }
                (Some(true), None) => s.push(", retry may help"),
                _ => s.push(", retry will not help"),
            }
        }
    }
    s.into_string()
}

/// Whether stdout and stderr are one file or pipe (`> log 2>&1`, a CI
/// step's log): what one says, the reader of the other sees.
fn stdout_is_stderr() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let id = |fd: std::os::fd::BorrowedFd<'_>| {
        let m = std::fs::File::from(fd.try_clone_to_owned().ok()?)
            .metadata()
            .ok()?;
        Some((m.dev(), m.ino()))
    };
    let out = id(io::stdout().as_fd());
    out.is_some() && out == id(io::stderr().as_fd())
}

/// Runs `aoi summary`; returns the exit status.
pub fn run(args: &SummaryArgs) -> Code {
    super::resolve::resolving("summary", args, summary)
}

/// `aoi summary` on its arguments and what they resolve to.
fn summary(args: &SummaryArgs, judging: &Judging) -> Code {
    budget::set_show(judging.logs.show);
    let inputs = judging.inputs();
    // `-q` silences stderr only: what a script reads from stdout (a
    // field, the object, the report) is the same with it.
    let jsonl = args.output == Some(SummaryFormat::Jsonl) && args.field.is_none();
    if jsonl {
        install_cancel("summary");
    }
    let mut o = Outcomes::new(args, jsonl, inputs.len() > 1, judging.named());
    // Files may be judged N at once, each on one thread, the outcomes
    // going out in input order.
    each_turn(
        &inputs,
        judging.reading.threads,
        &Summing(judging),
        |i, turn| {
            let source = inputs[i].display().to_string();
            let end = match turn.read_into(&mut Taking(|v| o.took(v, &source))) {
                Ok(Turned::Read(end)) => end,
                Ok(Turned::Unreadable(msg)) => InputEnd::Unreadable(msg),
                Err(Halt) => InputEnd::Stopped,
            };
            o.end_input(end, &source)
        },
    );
    o.finish()
}

/// How `summary` reads each input: its verdicts, and where blocks ended.
struct Summing<'a>(&'a Judging);

impl Engine for Summing<'_> {
    type Item = Verdict;
    type Done = InputEnd;
    type Error = Halt;

    /// A log's verdicts wait for their turn: a large log is read in its
    /// turn instead. What a worker keeps stays within its room, past which
    /// the file is read in its turn.
    fn keeps(&self) -> Keeps {
        match self.0.logs.log {
            true => Keeps::Small,
            false => Keeps::Bounded,
        }
    }

    fn read<O, E>(&self, src: Opened, _: &Path, out: &mut O) -> Result<InputEnd, Halt>
    where
        O: Output<Verdict, Error = E>,
        E: Into<Halt>,
    {
        match read_stream(src, self.0, &mut taker(out)) {
            InputEnd::Stopped => Err(Halt),
            end => Ok(end),
        }
    }
}

impl Weighed for Verdict {
    fn weight(&self) -> usize {
        VERDICT_BYTES
    }
}

/// The outcomes, written as each stream is judged: a log of millions of
/// runs is not kept run by run.
struct Outcomes<'a> {
    args: &'a SummaryArgs,
    /// Several inputs: each line names its source.
    named: bool,
    /// Inputs were named (not stdin alone): a failed run's stderr line
    /// names its file.
    files_named: bool,
    /// Every non-zero exit says why on stderr, unless the
    /// readable line on a terminal already does.
    said: bool,
    code: Code,
    /// `--output jsonl`: aoi's report, its `aoi:meta` written first.
    report: Option<Sinks>,
    /// The other outputs.
    text: io::BufWriter<io::Stdout>,
    /// Why writing stopped (a closed pipe, a failed write).
    stop: Option<Stop>,
    verdicts: crate::out::Verdicts,
}

impl<'a> Outcomes<'a> {
    fn new(args: &'a SummaryArgs, jsonl: bool, named: bool, files_named: bool) -> Self {
        // The readable line already says the outcome where the reader
        // sees stdout: on a terminal, or in the same file or pipe as
        // stderr (a CI log), where the stderr line would say it twice.
        let said = args.output.is_none()
            && args.field.is_none()
            && (io::IsTerminal::is_terminal(&io::stdout()) || stdout_is_stderr());
        let mut stop = None;
        let report = jsonl.then(|| {
            let mut sinks = Sinks::report_to_stdout();
            // After a stop, what was read is still reported, then the
            // summary says cancelled (§ 7) and counts what was consumed
            // (§ 8.3).
            sinks.out.write_after_stop();
            sinks.out.consumed(0, 0, 0);
            stop = sinks.out.meta("summary", Vec::new()).err();
            sinks
        });
        Outcomes {
            args,
            named,
            files_named,
            said,
            code: Code::OK,
            report,
            text: io::BufWriter::new(io::stdout()),
            stop,
            verdicts: crate::out::Verdicts::default(),
        }
    }

    /// A verdict of the input, or the end of a block read (`None`); false
    /// when nothing more is to be read.
    fn took(&mut self, v: Option<Verdict>, source: &str) -> bool {
        match v {
            Some(v) => self.take(v, source),
            None => self.flush(),
        }
    }

    /// What the end of an input says: it could not be read, runs past
    /// `--max-runs`, no stream; false when nothing more is to be read.
    fn end_input(&mut self, end: InputEnd, source: &str) -> bool {
        let args = self.args;
        let label = if !self.files_named {
            String::new()
        } else {
            format!("{}: ", sanitize(source))
        };
        let (judged, past_cap, notes) = match end {
            InputEnd::Stopped => return false,
            InputEnd::Unreadable(msg) => {
                eprint_line(false, &format!("aoi summary: {msg}"));
                self.code = self.code.worst(Code::NOINPUT);
                if let (Some(sinks), None) = (&mut self.report, &self.stop) {
                    self.stop = sinks.out.error(&unreadable_error(&msg, source)).err();
                }
                return self.stop.is_none();
            }
            InputEnd::Read {
                judged,
                past_cap,
                notes,
            } => (judged, past_cap, notes),
        };
        for note in notes {
            eprint_line(args.quiet, &format!("aoi summary: {label}{note}"));
        }
        if let Some(past_cap) = past_cap {
            // Runs not judged: nothing unverified passes (74, said in
            // the report as aoi's own error, as errors says it).
            self.code = self.code.worst(Code::IOERR);
            if let (Some(sinks), None) = (&mut self.report, &self.stop) {
                let e = crate::emit::ErrorEvent::new("io", "TOO_MANY_RUNS", past_cap)
                    .retryable(false)
                    .field("target", source.to_string());
                self.stop = sinks.out.error(&e).err();
            }
            return self.stop.is_none();
        }
        if judged == 0 {
            // --log on an input without any AOI stream: nothing
            // unverified passes (74, as errors and merge-report).
            eprint_line(
                args.quiet,
                &format!("aoi summary: {label}no AOI stream in the log"),
            );
            self.code = self.code.worst(Code::IOERR);
        }
        true
    }

    /// One stream's outcome: its exit, its line on stderr when it failed,
    /// and what stdout shows; false when nothing more is to be read.
    fn take(&mut self, v: Verdict, source: &str) -> bool {
        let args = self.args;
        // Stopped by SIGINT/SIGTERM: the stream was not judged to its end;
        // it counts as consumed, not as an outcome.
        if crate::cancel::requested().is_some() {
            if let Some(sinks) = &mut self.report {
                sinks.add_consumed(&v);
            }
            return false;
        }
        self.code = self.code.worst(Code::of(v.exit_code));
        // A failed run is said while the --show cap lasts, then counted;
        // in a log, by its run.
        if !args.quiet && v.exit_code != Code::OK && !self.said && budget::take(0).is_some() {
            let file = self.files_named.then_some(source);
            let name = match (&v.run, args.logs.log) {
                (Some(r), true) => Some(match file {
                    Some(f) => format!("{f} run {r}"),
                    None => format!("run {r}"),
                }),
                _ => file.map(str::to_string),
            };
            eprint_line(false, &verdict_line("summary", &v, name.as_deref()));
        }
        if self.stop.is_none() {
            self.stop = self.write(&v, source).err();
        }
        self.verdicts.add(v);
        self.stop.is_none()
    }

    /// Writes out what is buffered; false once writing stopped.
    fn flush(&mut self) -> bool {
        if self.stop.is_none() {
            self.stop = match &mut self.report {
                Some(sinks) => sinks.out.flush().err(),
                None => self
                    .text
                    .flush()
                    .map_err(|e| crate::out::write_err(e, "stdout"))
                    .err(),
            };
        }
        self.stop.is_none()
    }

    /// Writes one outcome: an `outcome` event, or what [`shown`] gives.
    fn write(&mut self, v: &Verdict, source: &str) -> Result<(), Stop> {
        match &mut self.report {
            Some(sinks) => {
                sinks.add_consumed(v);
                let obj = outcome_json(v, source);
                let fields: Vec<(&str, Value)> = obj
                    .as_object()
                    .map(|o| o.iter().map(|(k, val)| (k.as_str(), val.clone())).collect())
                    .unwrap_or_default();
                sinks.out.event("outcome", &fields)
            }
            None => {
                let text = shown(v, source, self.args, self.named);
                self.text
                    .write_all(text.as_bytes())
                    .map_err(|e| crate::out::write_err(e, "stdout"))
            }
        }
    }

    /// Ends the output; returns the exit status.
    fn finish(mut self) -> Code {
        if let Some(line) = budget::closing("summary", "--output jsonl") {
            eprint_line(self.args.quiet, &line);
        }
        let mut sinks = match self.report.take() {
            Some(sinks) => sinks,
            None => {
                let flushed = self
                    .text
                    .flush()
                    .map_err(|e| crate::out::write_err(e, "stdout"));
                return match self.stop.take().map_or(flushed, Err) {
                    Ok(()) => self.code,
                    Err(stop) => crate::out::stop_code("summary", &stop),
                };
            }
        };
        let r = match self.stop.take() {
            Some(stop) => Err(stop),
            None => cancelled().and_then(|()| {
                let props = serde_json::json!({
                    "streams": self.verdicts.streams, "violations": 0, "advisories": 0, "exit_code": self.code,
                });
                finish_report(&mut sinks, &self.verdicts, self.code, props)
            }),
        };
        match r {
            Ok(()) => self.code,
            Err(stop) => sinks.end("summary", stop),
        }
    }
}

/// What stdout shows of one verdict: the `--field` raw, one JSON object,
/// or the readable line (nothing for `--output jsonl`, written at the end).
fn shown(v: &Verdict, source: &str, args: &SummaryArgs, named: bool) -> String {
    let obj = outcome_json(v, source);
    if let Some(field) = &args.field {
        // Raw for scripts: strings unquoted; an absent (or null) field
        // prints nothing, not even a line feed.
        return match obj.get(field.as_str()) {
            Some(Value::String(s)) => format!("{}\n", sanitize(s)),
            Some(Value::Null) | None => String::new(),
            Some(other) => format!("{other}\n"),
        };
    }
    match args.output {
        Some(SummaryFormat::Json) => format!("{obj}\n"),
        Some(SummaryFormat::Jsonl) => String::new(),
        None => format!("{}\n", human(v, named.then_some(source))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outcome_object_names_the_essentials() {
        let v = Judge::new(crate::judge::JudgeOptions::default()).finish().0;
        let o = outcome_json(&v, "-");
        assert_eq!(o["outcome"], json!("incomplete"));
        assert_eq!(o["exit_code"], json!(74));
        assert_eq!(o["summary"], Value::Null);
    }
}
