//! `aoi summary`: the outcome of a run, for people and for scripts.
//!
//! The whole stream goes through the judge (so seq and `event_count`
//! reconciliation catch a middle elision that a look at the last line would
//! miss), then one outcome per stream is printed: a readable line, a JSON
//! object (`--output json`), a conforming AOI stream (`--output jsonl`), or
//! one field raw (`--field`). The exit status is the outcome's, from the
//! shared table, so `if producer | aoi summary -q; then …` works.

use std::io::{self, Read, Write};
use std::path::Path;

use serde_json::{Map, Value};

use crate::cli::{SummaryArgs, SummaryFormat};
use crate::drive::drive_source;
use crate::judge::{Judge, Outcome, Verdict};
use crate::out::{
    Sinks, Stop, cancelled, cause_json, eprint_line, finish_report, install_cancel, open_input,
    sanitize, source_for, unreadable_error, upstream_identity, verdict_line,
};
use crate::rules::RuleId;
use crate::spec::exit;

/// Judges one stream to its verdict (nothing is relayed).
fn judge<R: Read + Send>(reader: crate::drive::Source<R>, args: &SummaryArgs) -> Verdict {
    let mut judge = Judge::new(args.judge.options(0));
    // Nothing is routed: the callbacks cannot fail.
    let _: Result<(), ()> = drive_source(reader, &mut judge, |_, _| Ok(()), |_, _| Ok(()));
    judge.finish().0
}

/// Judges one input read as a log (`--log`): one verdict per run, in order
/// of first appearance; what the reading passed over is said on stderr
/// (unless `-q`), and a log without any AOI stream is said too (the caller
/// makes it 74).
fn judge_log<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    args: &SummaryArgs,
    label: &str,
) -> Vec<Verdict> {
    let opts = args.logs.reading(&args.judge, 0, 0);
    let mut ended = Vec::new();
    let r: Result<crate::demux::Input, std::convert::Infallible> =
        crate::demux::read(source_for(src, &args.judge), &opts, |visit| {
            if let crate::demux::Visit::Ended { run, .. } = visit {
                ended.push(*run);
            }
            Ok(())
        });
    let input = match r {
        Ok(input) => input,
        Err(never) => match never {},
    };
    let (streams, counts) = input.finish(ended);
    if let Some(note) = counts.passed_over() {
        eprint_line(args.quiet, &format!("aoi summary: {label}{note}"));
    }
    if let Some(msg) = counts.past_cap(args.logs.max_runs, "read") {
        eprint_line(args.quiet, &format!("aoi summary: {label}{msg}"));
    }
    streams.into_iter().map(|s| s.verdict).collect()
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
            RuleId::SeqGap | RuleId::SeqMissing | RuleId::SummaryEventCount
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

/// One readable line for a terminal.
fn human(v: &Verdict, name: Option<&str>) -> String {
    let id = upstream_identity(v);
    let mut s = String::new();
    if let Some(n) = name {
        s.push_str(&format!("{}: ", sanitize(n)));
    }
    match (&id.tool, &id.tool_version) {
        (Some(t), Some(tv)) => s.push_str(&format!("{} {}", sanitize(t), sanitize(tv))),
        (Some(t), None) => s.push_str(&sanitize(t)),
        _ => s.push_str("(unnamed tool)"),
    }
    if let Some(r) = &v.run {
        // The random end of a ULID tells runs apart (runs of one log
        // often share the time prefix), as merge-report's table does.
        let n = r.chars().count();
        let short: String = r.chars().skip(n.saturating_sub(8)).collect();
        s.push_str(&format!(" run {}", sanitize(&short)));
    }
    let verdict = match v.outcome {
        Outcome::Ok => "ok".to_string(),
        o => format!("{} (exit {})", o.name(), v.exit_code),
    };
    s.push_str(&format!(
        ": {verdict}: {} domain event(s), {} warning(s), {} error(s), {} line(s)",
        v.domain_events, v.warnings, v.errors, v.lines
    ));
    if let Some(ms) = v.summary.as_ref().and_then(|s| s.elapsed_ms) {
        s.push_str(&format!(", {:.1} s", ms / 1000.0));
    }
    if v.exit_code != 0 {
        s.push_str(&format!("; {}", sanitize(&v.reason)));
        if let Some(c) = &v.cause {
            s.push_str(&format!(
                "; cause {} {}",
                sanitize(c.category.as_deref().unwrap_or("?")),
                sanitize(c.code.as_deref().unwrap_or("?"))
            ));
            match (c.retryable, c.retry_after_ms) {
                (Some(true), Some(ms)) => {
                    s.push_str(&format!(", retry after {:.1} s", ms as f64 / 1000.0))
                }
                (Some(true), None) => s.push_str(", retry may help"),
                _ => s.push_str(", retry will not help"),
            }
        }
    }
    s
}

/// Runs `aoi summary`; returns the exit status.
pub fn run(args: &SummaryArgs) -> i32 {
    let inputs: Vec<&Path> = if args.files.is_empty() {
        vec![Path::new("-")]
    } else {
        args.files.iter().map(|p| p.as_path()).collect()
    };
    crate::out::say_reading_terminal("summary", !args.files.is_empty(), args.quiet);
    let named = inputs.len() > 1;
    let jsonl = args.output == Some(SummaryFormat::Jsonl) && args.field.is_none() && !args.quiet;
    if jsonl {
        install_cancel("summary");
    }
    // Every non-zero exit says why on stderr (issue 24), unless the
    // readable line on a terminal already does.
    let said =
        args.output.is_none() && args.field.is_none() && io::IsTerminal::is_terminal(&io::stdout());
    let mut r = Judged::default();
    let mut text = String::new();
    'inputs: for path in inputs {
        let source = path.display().to_string();
        let Some(vs) = r.judge_input(path, args) else {
            continue;
        };
        for v in vs {
            // Stopped by SIGINT/SIGTERM: the stream was not judged to its end.
            if crate::cancel::requested().is_some() {
                r.partial.push(v);
                break 'inputs;
            }
            r.code = exit::worst(r.code, v.exit_code);
            if !args.quiet && v.exit_code != exit::OK && !said {
                let name = (!args.files.is_empty()).then_some(source.as_str());
                eprint_line(false, &verdict_line("summary", &v, name));
            }
            if !args.quiet {
                text.push_str(&shown(&v, &source, args, named));
            }
            r.verdicts.push((v, source.clone()));
        }
    }
    if jsonl {
        return r.write_report();
    }
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => r.code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::PIPE,
        Err(e) => {
            eprint_line(false, &format!("aoi summary: cannot write stdout: {e}"));
            exit::IOERR
        }
    }
}

/// The inputs judged so far.
#[derive(Default)]
struct Judged {
    code: i32,
    /// Each stream's verdict, with its source.
    verdicts: Vec<(Verdict, String)>,
    /// Inputs that could not be opened: (message, source).
    unreadable: Vec<(String, String)>,
    /// The stream being read when a stop came: consumed, not judged.
    partial: Vec<Verdict>,
}

impl Judged {
    /// The verdicts of the input at `path`: one stream, or one per run of
    /// a log with `--log`; `None` when it could not be read or (as a log)
    /// held no stream.
    fn judge_input(&mut self, path: &Path, args: &SummaryArgs) -> Option<Vec<Verdict>> {
        let source = path.display().to_string();
        let label = if args.files.is_empty() {
            String::new()
        } else {
            format!("{}: ", sanitize(&source))
        };
        let vs = if path == Path::new("-") {
            if args.logs.log {
                judge_log(io::stdin(), args, &label)
            } else {
                vec![judge(source_for(io::stdin(), &args.judge), args)]
            }
        } else {
            match open_input(path) {
                Ok(f) if args.logs.log => judge_log(f, args, &label),
                Ok(f) => vec![judge(source_for(f, &args.judge), args)],
                Err(msg) => {
                    eprint_line(false, &format!("aoi summary: {msg}"));
                    self.code = exit::worst(self.code, exit::NOINPUT);
                    self.unreadable.push((msg, source));
                    return None;
                }
            }
        };
        if vs.is_empty() {
            // --log on an input without any AOI stream: nothing unverified
            // passes (74, as errors and merge-report).
            eprint_line(
                args.quiet,
                &format!("aoi summary: {label}no AOI stream in the log"),
            );
            self.code = exit::worst(self.code, exit::IOERR);
            return None;
        }
        Some(vs)
    }

    /// Writes the outcomes as aoi's own stream; returns the exit status.
    fn write_report(&self) -> i32 {
        let mut sinks = Sinks::report_to_stdout();
        // After a stop, what was read is still reported, then the summary
        // says cancelled (§ 7) and counts what was consumed (§ 8.3).
        sinks.out.write_after_stop();
        for (v, _) in &self.verdicts {
            sinks.add_consumed(v);
        }
        for v in &self.partial {
            sinks.add_consumed(v);
        }
        match self.report_events(&mut sinks) {
            Ok(()) => self.code,
            Err(stop) => sinks.end("summary", stop),
        }
    }

    fn report_events(&self, sinks: &mut Sinks) -> Result<(), Stop> {
        sinks.out.meta("summary", Vec::new())?;
        for (msg, source) in &self.unreadable {
            sinks.out.error(&unreadable_error(msg, source))?;
        }
        for (v, source) in &self.verdicts {
            let obj = outcome_json(v, source);
            let fields: Vec<(&str, Value)> = obj
                .as_object()
                .map(|o| o.iter().map(|(k, val)| (k.as_str(), val.clone())).collect())
                .unwrap_or_default();
            sinks.out.event("outcome", &fields)?;
        }
        cancelled()?;
        let vs = crate::out::Verdicts::of(self.verdicts.iter().map(|(v, _)| v.clone()));
        let props = serde_json::json!({
            "streams": vs.streams, "violations": 0, "advisories": 0, "exit_code": self.code,
        });
        finish_report(sinks, &vs, self.code, props)
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
