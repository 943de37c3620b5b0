//! `aoi check`: a validating relay.
//!
//! A transparent relay in the § 13.1 sense: stdout is the input, byte for
//! byte (valid or not, an unterminated last line included), and the verdict
//! goes to stderr and the exit status. With `--output jsonl` stdout is a
//! report instead, itself a conforming AOI stream (a producer, § 13.1);
//! `--report FILE` writes the same report while relaying.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::cli::{CheckArgs, Format};
use crate::emit::Emitter;
use crate::judge::{Cause, Finding, Identity, Judge, JudgeOptions, Outcome, Verdict, drive};
use crate::rules::Severity;
use crate::spec::exit;

/// Where the relay and the report go, and what a failed write means.
pub(crate) struct Sinks {
    relay: Option<File>,
    report_stdout: Option<Box<dyn Write>>,
    report_file: Option<io::BufWriter<File>>,
    report_path: String,
}

/// Why the run stops early.
pub(crate) enum Stop {
    /// stdout was closed by the reader: quiet exit.
    Pipe,
    /// Writing failed: message and exit code.
    Write(String, i32),
}

pub(crate) fn write_err(e: io::Error, what: &str) -> Stop {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Stop::Pipe
    } else {
        Stop::Write(format!("cannot write {what}: {e}"), exit::IOERR)
    }
}

impl Sinks {
    /// Sinks that write a report to stdout only.
    pub(crate) fn report_to_stdout() -> Self {
        Sinks {
            relay: None,
            report_stdout: Some(stdout_writer()),
            report_file: None,
            report_path: String::new(),
        }
    }

    fn relay(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        if let Some(out) = self.relay.as_mut() {
            out.write_all(bytes).map_err(|e| write_err(e, "stdout"))?;
        }
        Ok(())
    }

    pub(crate) fn report(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        if let Some(out) = self.report_stdout.as_mut() {
            out.write_all(bytes).map_err(|e| write_err(e, "stdout"))?;
        }
        if let Some(out) = self.report_file.as_mut() {
            out.write_all(bytes).map_err(|e| {
                Stop::Write(
                    format!("cannot write report {}: {e}", self.report_path),
                    exit::IOERR,
                )
            })?;
        }
        Ok(())
    }

    fn has_report(&self) -> bool {
        self.report_stdout.is_some() || self.report_file.is_some()
    }

    pub(crate) fn flush(&mut self) -> Result<(), Stop> {
        if let Some(out) = self.report_stdout.as_mut() {
            out.flush().map_err(|e| write_err(e, "stdout"))?;
        }
        if let Some(out) = self.report_file.as_mut() {
            out.flush().map_err(|e| {
                Stop::Write(
                    format!("cannot write report {}: {e}", self.report_path),
                    exit::IOERR,
                )
            })?;
        }
        Ok(())
    }
}

/// stdout for machine output: line-buffered on a terminal (each event
/// shows as it is made), block-buffered otherwise.
pub(crate) fn stdout_writer() -> Box<dyn Write> {
    let out = io::stdout();
    if out.is_terminal() {
        return Box::new(io::LineWriter::new(out.lock()));
    }
    match out.as_fd_file() {
        Ok(f) => Box::new(io::BufWriter::with_capacity(64 * 1024, f)),
        Err(_) => Box::new(out.lock()),
    }
}

/// Replaces control characters, bidirectional overrides and line
/// separators so upstream text can neither drive the terminal nor reorder
/// or split what is shown.
pub fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            let unsafe_char = c.is_control()
                || matches!(
                    c,
                    '\u{061C}'
                        | '\u{200E}'
                        | '\u{200F}'
                        | '\u{2028}'
                        | '\u{2029}'
                        | '\u{FFFE}'
                        | '\u{FFFF}'
                )
                || ('\u{202A}'..='\u{202E}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c);
            if unsafe_char { '\u{FFFD}' } else { c }
        })
        .collect()
}

/// Writes a command's whole output to stdout: exit 0, or 141 quietly when
/// the reader went away, or 74 with a message.
pub(crate) fn print_stdout(cmd: &str, text: &str) -> i32 {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => exit::OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::PIPE,
        Err(e) => {
            eprint_line(false, &format!("aoi {cmd}: cannot write stdout: {e}"));
            exit::IOERR
        }
    }
}

pub(crate) fn eprint_line(quiet: bool, s: &str) {
    if !quiet {
        let mut e = io::stderr().lock();
        let _ = writeln!(e, "{s}");
    }
}

fn finding_event(e: &mut Emitter, f: &Finding, source: &str) -> Vec<u8> {
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
    e.event(ty, &fields).to_vec()
}

pub(crate) fn cause_json(c: &Cause) -> Value {
    let mut m = Map::new();
    for (k, v) in [
        ("origin", &c.origin),
        ("category", &c.category),
        ("code", &c.code),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), v.clone().into());
        }
    }
    m.insert("retryable".into(), c.retryable.unwrap_or(false).into());
    if c.retryable == Some(true) {
        if let Some(ms) = c.retry_after_ms {
            m.insert("retry_after_ms".into(), ms.into());
        }
    }
    Value::Object(m)
}

fn identity_json(id: &Identity) -> Value {
    Value::Object(
        id.fields()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into()))
            .collect(),
    )
}

/// The identity of the stream's producer: its aoi:meta, else its summary.
pub(crate) fn upstream_identity(v: &Verdict) -> Identity {
    if !v.identity.is_empty() {
        return v.identity.clone();
    }
    v.summary
        .as_ref()
        .map(|s| s.identity.clone())
        .unwrap_or_default()
}

fn stream_event(e: &mut Emitter, v: &Verdict, source: &str) -> Vec<u8> {
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
            f.push(("upstream_reason", r.clone().into()));
        }
        f.push(("partial", s.partial.into()));
        f.push(("truncated", s.truncated.into()));
        if let Some(ms) = s.elapsed_ms {
            f.push(("elapsed_ms", ms.into()));
        }
    }
    if v.exit_code != 0 {
        if let Some(c) = &v.cause {
            f.push(("caused_by", cause_json(c)));
        }
    }
    e.event("stream", &f).to_vec()
}

/// The human verdict line for one stream.
pub(crate) fn verdict_line(cmd: &str, v: &Verdict, name: Option<&str>) -> String {
    let who = match name {
        Some(n) => format!("aoi {cmd}: {}: ", sanitize(n)),
        None => format!("aoi {cmd}: "),
    };
    let id = upstream_identity(v);
    let mut from = String::new();
    if let Some(t) = &id.tool {
        from.push_str(&format!(", from {}", sanitize(t)));
        if let Some(tv) = &id.tool_version {
            from.push_str(&format!(" {}", sanitize(tv)));
        }
    }
    let counts = format!(
        "{} line(s), {} domain event(s), {} warning(s), {} error(s){from}",
        v.lines, v.domain_events, v.warnings, v.errors
    );
    let adv = if v.advisories > 0 {
        let ids: Vec<&str> = v
            .rule_counts
            .iter()
            .filter(|(r, _)| r.severity() == Severity::Advisory)
            .map(|(r, _)| r.id())
            .collect();
        format!("; {} advisory finding(s): {}", v.advisories, ids.join(", "))
    } else {
        String::new()
    };
    match v.outcome {
        Outcome::Ok => format!("{who}ok: {} ({counts}){adv}", v.reason),
        Outcome::Violation | Outcome::Incomplete => {
            format!(
                "{who}FAIL {} (exit {}): {} ({counts}){adv}",
                v.outcome.name(),
                v.exit_code,
                v.reason
            )
        }
        _ => {
            let mut s = format!(
                "{who}upstream {} (exit {}): {}",
                v.outcome.name(),
                v.exit_code,
                v.reason
            );
            if let Some(c) = &v.cause {
                s.push_str(&format!(
                    "; caused by {} {}",
                    sanitize(c.category.as_deref().unwrap_or("?")),
                    sanitize(c.code.as_deref().unwrap_or("?"))
                ));
                if let Some(o) = &c.origin {
                    s.push_str(&format!(" from {}", sanitize(o)));
                }
                match (c.retryable, c.retry_after_ms) {
                    (Some(true), Some(ms)) => s.push_str(&format!(", retryable after {ms} ms")),
                    (Some(true), None) => s.push_str(", retryable"),
                    _ => s.push_str(", not retryable"),
                }
                if let Some(m) = &c.message {
                    s.push_str(&format!(": \"{}\"", sanitize(m)));
                }
            }
            format!("{s} ({counts}){adv}")
        }
    }
}

pub(crate) fn finding_line(f: &Finding, name: Option<&str>) -> String {
    let r = f.rule.rule();
    let mut s = String::from("  ");
    if let Some(n) = name {
        s.push_str(&sanitize(n));
        s.push_str(": ");
    }
    if f.line > 0 {
        s.push_str(&format!("line {}", f.line));
        if let Some(q) = f.seq {
            s.push_str(&format!(" (seq {q})"));
        }
        s.push_str(": ");
    }
    let sev = if r.severity == Severity::Advisory {
        " [advisory]"
    } else {
        ""
    };
    s.push_str(&format!(
        "{}{sev}: {} ({})\n      hint: {}",
        r.id,
        sanitize(&f.message),
        r.spec,
        r.hint
    ));
    s
}

/// aoi's own item-level `aoi:error` for an input that cannot be read.
pub(crate) fn unreadable_event(em: &mut Emitter, msg: &str, source: &str) -> Vec<u8> {
    em.event(
        "aoi:error",
        &[
            ("scope", "item".into()),
            ("category", "not_found".into()),
            ("code", "INPUT_UNREADABLE".into()),
            ("message", msg.into()),
            ("retryable", false.into()),
            ("target", source.into()),
        ],
    )
    .to_vec()
}

/// Judges one stream, relaying it and reporting findings as they come.
fn judge_stream<R: Read>(
    src: R,
    args: &CheckArgs,
    sinks: &mut Sinks,
    em: &mut Emitter,
    source: &str,
    shown: &mut Vec<Finding>,
    report_counts: &mut (u64, u64),
) -> Result<Verdict, Stop> {
    let opts = JudgeOptions {
        unbounded: args.judge.unbounded,
        fail_on_partial: args.judge.fail_on_partial,
        per_rule_limit: args.max_per_rule,
        max_line_bytes: args.judge.max_line_bytes,
    };
    let mut judge = Judge::new(opts);
    let want_report = sinks.has_report();
    let mut take = |f: Finding, sinks: &mut Sinks, em: &mut Emitter| -> Result<(), Stop> {
        if want_report {
            let bytes = finding_event(em, &f, source);
            if f.rule.severity() == Severity::Advisory {
                report_counts.1 += 1;
            } else {
                report_counts.0 += 1;
            }
            sinks.report(&bytes)?;
        }
        if shown.len() < args.show {
            shown.push(f);
        }
        Ok(())
    };
    drive(
        src,
        &mut judge,
        |_, _| Ok(()),
        |judge, bytes| {
            sinks.relay(bytes)?;
            for f in judge.drain() {
                take(f, sinks, em)?;
            }
            Ok(())
        },
    )?;
    for f in judge.drain() {
        take(f, sinks, em)?;
    }
    // finish() adds the stream-level findings (summary.missing, …).
    let (v, last) = judge.finish();
    for f in last {
        take(f, sinks, em)?;
    }
    Ok(v)
}

/// Runs `aoi check`; returns the exit status.
pub fn run(args: &CheckArgs) -> i32 {
    let stdout = io::stdout();
    let to_tty = stdout.is_terminal();
    let report_stdout = args.output == Some(Format::Jsonl);
    let relay = !report_stdout && !args.no_relay && !to_tty;
    let relay_file = if relay {
        match stdout.as_fd_file() {
            Ok(f) => Some(f),
            Err(e) => {
                eprint_line(false, &format!("aoi check: cannot use stdout: {e}"));
                return exit::IOERR;
            }
        }
    } else {
        None
    };
    if let Some(p) = &args.report {
        if let Some(input) = same_file_as_input(p, &args.files) {
            eprint_line(
                false,
                &format!(
                    "aoi check: --report {} is also an input ({input}); it would be overwritten",
                    p.display()
                ),
            );
            return exit::USAGE;
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
                return exit::CANTCREAT;
            }
        },
        None => None,
    };
    let mut sinks = Sinks {
        relay: relay_file,
        report_stdout: report_stdout.then(stdout_writer),
        report_file,
        report_path: args
            .report
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
    };
    match run_streams(args, &mut sinks) {
        Ok(code) => code,
        Err(Stop::Pipe) => exit::PIPE,
        Err(Stop::Write(msg, code)) => {
            eprint_line(false, &format!("aoi check: {msg}"));
            code
        }
    }
}

fn run_streams(args: &CheckArgs, sinks: &mut Sinks) -> Result<i32, Stop> {
    let mut em = Emitter::new();
    if sinks.has_report() {
        let m = em.meta("check").to_vec();
        sinks.report(&m)?;
    }
    let inputs: Vec<&Path> = if args.files.is_empty() {
        vec![Path::new("-")]
    } else {
        args.files.iter().map(|p| p.as_path()).collect()
    };
    let named = !args.files.is_empty();
    if !named && io::stdin().is_terminal() && !args.quiet {
        eprint_line(
            false,
            "aoi check: reading a stream from the terminal (end with Ctrl-D; `aoi check FILE` reads a file)",
        );
    }
    let mut code = exit::OK;
    let mut verdicts: Vec<Verdict> = Vec::new();
    let mut own_errors: u64 = 0;
    let mut own_events: (u64, u64) = (0, 0);
    let mut streams: u64 = 0;
    for path in inputs {
        let source = path.display().to_string();
        let name = named.then_some(source.as_str());
        let mut shown = Vec::new();
        let result = if path == Path::new("-") {
            judge_stream(
                io::stdin().lock(),
                args,
                sinks,
                &mut em,
                "-",
                &mut shown,
                &mut own_events,
            )
        } else {
            match open_input(path) {
                Ok(f) => judge_stream(
                    f,
                    args,
                    sinks,
                    &mut em,
                    &source,
                    &mut shown,
                    &mut own_events,
                ),
                Err(msg) => {
                    eprint_line(args.quiet, &format!("aoi check: {msg}"));
                    code = exit::worst(code, exit::NOINPUT);
                    own_errors += 1;
                    if sinks.has_report() {
                        let e = unreadable_event(&mut em, &msg, &source);
                        sinks.report(&e)?;
                    }
                    continue;
                }
            }
        };
        let v = match result {
            Ok(v) => v,
            Err(stop) => {
                let count = own_events.0 + own_events.1 + streams;
                close_report_after_relay_failure(sinks, &mut em, &stop, count, own_errors + 1);
                return Err(stop);
            }
        };
        streams += 1;
        if sinks.has_report() {
            let s = stream_event(&mut em, &v, &source);
            sinks.report(&s)?;
        }
        if !args.quiet {
            let hidden =
                (v.violations + v.incompletes + v.advisories).saturating_sub(shown.len() as u64);
            let mut err = io::stderr().lock();
            if v.outcome != Outcome::Ok {
                for f in &shown {
                    let _ = writeln!(err, "{}", finding_line(f, name));
                }
                if hidden > 0 {
                    let _ = writeln!(
                        err,
                        "  … {hidden} more finding(s); --output jsonl lists up to --max-per-rule of each rule"
                    );
                }
            }
            let _ = writeln!(err, "{}", verdict_line("check", &v, name));
        }
        code = exit::worst(code, v.exit_code);
        verdicts.push(v);
    }
    if sinks.has_report() {
        let props = json!({
            "streams": streams,
            "violations": own_events.0,
            "advisories": own_events.1,
            "exit_code": code,
        });
        let count = own_events.0 + own_events.1 + streams;
        finish_report(sinks, &mut em, &verdicts, code, own_errors, count, props)?;
        sinks.flush()?;
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
/// summary, so it never ends without its terminal event (§ 4).
fn close_report_after_relay_failure(
    sinks: &mut Sinks,
    em: &mut Emitter,
    stop: &Stop,
    count: u64,
    errors: u64,
) {
    let (code, message) = match stop {
        Stop::Pipe => (
            "BROKEN_PIPE",
            "stdout was closed by the reader; the relay stopped".to_string(),
        ),
        Stop::Write(m, _) => ("WRITE_FAILED", m.clone()),
    };
    // Only the report file: stdout is what failed (or is the report itself).
    sinks.report_stdout = None;
    if sinks.report_file.is_none() {
        return;
    }
    let e = em
        .event(
            "aoi:error",
            &[
                ("category", "io".into()),
                ("code", code.into()),
                ("message", message.into()),
                ("retryable", false.into()),
            ],
        )
        .to_vec();
    let s = em
        .summary(
            false,
            Some("failed"),
            vec![("count", count.into()), ("error_count", errors.into())],
        )
        .to_vec();
    // Best effort: the run is already failing with the relay's status.
    let _ = sinks
        .report(&e)
        .and_then(|()| sinks.report(&s))
        .and_then(|()| sinks.flush());
}

/// Opens an input file; a directory or a missing file is exit 66.
pub(crate) fn open_input(path: &Path) -> Result<File, String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(format!("cannot read {}: is a directory", path.display()));
        }
        _ => {}
    }
    File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))
}

/// Emits aoi's own closing events: an `aoi:error` for its own failure
/// (violations or an incomplete stream), then the `aoi:summary` (§ 13.1)
/// with `count` domain events emitted and the command's `properties`.
pub(crate) fn finish_report(
    sinks: &mut Sinks,
    em: &mut Emitter,
    verdicts: &[Verdict],
    code: i32,
    own_errors: u64,
    count: u64,
    properties: Value,
) -> Result<(), Stop> {
    let closing = Closing {
        code,
        own_errors,
        count,
        properties,
        cause: None,
        extra: (0, 0, 0),
    };
    close_report(sinks, em, verdicts, closing)
}

/// How a producer closes its stream.
pub(crate) struct Closing {
    /// The exit status; the summary is `ok:true` only for 0.
    pub code: i32,
    /// `aoi:error` events the producer emitted itself.
    pub own_errors: u64,
    /// Domain events it emitted.
    pub count: u64,
    pub properties: Value,
    /// The error to reproduce as `caused_by` when no stream's verdict
    /// explains `code`: an upstream `aoi:error` the upstream itself survived
    /// (a transformer fails on it, § 13), or one of the producer's own.
    pub cause: Option<Cause>,
    /// Events consumed outside the judged streams (domain, warnings,
    /// errors), still counted in the summary (§ 8.3).
    pub extra: (u64, u64, u64),
}

/// [`finish_report`] with every part of the closing stated.
pub(crate) fn close_report(
    sinks: &mut Sinks,
    em: &mut Emitter,
    verdicts: &[Verdict],
    closing: Closing,
) -> Result<(), Stop> {
    let Closing {
        code,
        mut own_errors,
        count,
        properties,
        cause,
        extra,
    } = closing;
    let worst = verdicts.iter().max_by_key(|v| exit::rank(v.exit_code));
    let ok = code == exit::OK;
    let own = worst.and_then(|v| v.outcome.own_failure());
    // The error `caused_by` reproduces (§ 13.1): the failing stream's
    // cause, else aoi's own error for a stream that broke the contract or
    // was cut, else the one the command names.
    let mut caused_by = worst
        .filter(|v| v.exit_code == code && own.is_none())
        .and_then(|v| v.cause.clone());
    if let (Some((category, ecode)), Some(v)) = (own, worst) {
        if code == v.exit_code {
            own_errors += 1;
            caused_by = Some(Cause::own(category, ecode));
            let e = em
                .event(
                    "aoi:error",
                    &[
                        ("category", category.into()),
                        ("code", ecode.into()),
                        ("message", sanitize(&v.reason).into()),
                        ("retryable", false.into()),
                    ],
                )
                .to_vec();
            sinks.report(&e)?;
        }
    }
    let reason = if ok {
        None
    } else {
        Some(match worst.map(|v| v.outcome) {
            Some(Outcome::Denied) if code == exit::NOPERM => "denied",
            Some(Outcome::Timeout) if code == exit::TIMEOUT => "timeout",
            Some(Outcome::Cancelled) if code == exit::CANCELLED => "cancelled",
            _ => "failed",
        })
    };
    let mut fields: Vec<(&'static str, Value)> = vec![
        ("count", count.into()),
        (
            "input_count",
            (verdicts.iter().map(|v| v.domain_events).sum::<u64>() + extra.0).into(),
        ),
        (
            "warning_count",
            (verdicts.iter().map(|v| v.warnings).sum::<u64>() + extra.1).into(),
        ),
        (
            "error_count",
            (verdicts.iter().map(|v| v.errors).sum::<u64>() + extra.2 + own_errors).into(),
        ),
    ];
    if !ok {
        if let Some(c) = caused_by.or(cause) {
            fields.push(("caused_by", cause_json(&c)));
        }
    }
    // § 13.1: the direct upstream's identity, omitted when unknown or when
    // several streams disagree.
    let ids: Vec<Identity> = verdicts
        .iter()
        .map(upstream_identity)
        .filter(|i| !i.is_empty())
        .collect();
    if let Some(first) = ids.first() {
        if ids.iter().all(|i| i == first) {
            fields.push(("upstream", identity_json(first)));
        }
    }
    fields.push(("properties", properties));
    let s = em.summary(ok, reason, fields).to_vec();
    sinks.report(&s)
}

pub(crate) trait AsFdFile {
    fn as_fd_file(&self) -> io::Result<File>;
}

impl AsFdFile for io::Stdout {
    /// An unbuffered handle on fd 1 (a duplicate), so relayed blocks go out
    /// in one `write` each without an extra copy.
    fn as_fd_file(&self) -> io::Result<File> {
        use std::os::fd::AsFd;
        Ok(File::from(self.as_fd().try_clone_to_owned()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_escapes() {
        assert_eq!(sanitize("a\u{1b}[31mb\n"), "a\u{FFFD}[31mb\u{FFFD}");
        assert_eq!(sanitize("x\u{202E}y\u{2028}z"), "x\u{FFFD}y\u{FFFD}z");
    }
}
