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
pub(crate) use crate::emit::stdout_writer;
use crate::emit::{Emitter, Ended, ErrorEvent, Producer, Reason, Summary};
use crate::judge::{Cause, Finding, Identity, Judge, Outcome, Verdict, drive_source};
use crate::rules::Severity;
use crate::spec::exit;

/// Where the relay and the report go. The report is aoi's own stream,
/// written by the one [`Producer`] (to stdout, a `--report` file, both or
/// neither).
pub(crate) struct Sinks {
    relay: Option<File>,
    pub(crate) out: Producer<Tee>,
    /// Upstream domain events, warnings and errors consumed so far.
    consumed: (u64, u64, u64),
}

/// Why the run stops early: a closed pipe (quiet, 141), a cancellation
/// (`reason:"cancelled"`, 130/143) or a write failure (a message, 74).
pub(crate) type Stop = Ended;

/// A write error on `what` as a [`Stop`], with the message to print.
pub(crate) fn write_err(e: io::Error, what: &str) -> Stop {
    Ended::from_io(io::Error::new(
        e.kind(),
        format!("cannot write {what}: {e}"),
    ))
}

/// The exit status for a command stopped by `stop`, printing the message
/// of a write failure or a cancellation (a closed pipe is quiet, § 7).
pub(crate) fn stop_code(cmd: &str, stop: &Stop) -> i32 {
    match stop {
        Ended::Closed => {}
        Ended::Cancelled(_) => eprint_line(false, &format!("aoi {cmd}: {stop}")),
        Ended::Failed(e) => eprint_line(false, &format!("aoi {cmd}: {e}")),
    }
    stop.exit_code()
}

/// The stop, if SIGINT or SIGTERM asked for one ([`crate::cancel`]).
pub(crate) fn cancelled() -> Result<(), Stop> {
    match crate::cancel::requested() {
        Some(sig) => Err(Ended::Cancelled(sig)),
        None => Ok(()),
    }
}

/// The report's destinations, as one writer.
pub(crate) struct Tee {
    stdout: Option<Box<dyn Write>>,
    file: Option<(io::BufWriter<File>, String)>,
}

impl Tee {
    /// The file first: when stdout fails, the file holds the whole event
    /// and can still be closed properly.
    fn each(&mut self, mut f: impl FnMut(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        if let Some((out, path)) = self.file.as_mut() {
            // Never a quiet "closed pipe": a report that cannot be written
            // is an error to report (74).
            f(out).map_err(|e| io::Error::other(format!("cannot write report {path}: {e}")))?;
        }
        if let Some(out) = self.stdout.as_mut() {
            f(out).map_err(|e| io::Error::new(e.kind(), format!("cannot write stdout: {e}")))?;
        }
        Ok(())
    }
}

impl Write for Tee {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.write_all(b)?;
        Ok(b.len())
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        self.each(|w| w.write_all(b))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.each(|w| w.flush())
    }
}

impl Sinks {
    /// Sinks that write a report to stdout only.
    pub(crate) fn report_to_stdout() -> Self {
        Self::new(None, Some(stdout_writer()), None)
    }

    fn new(
        relay: Option<File>,
        stdout: Option<Box<dyn Write>>,
        file: Option<(io::BufWriter<File>, String)>,
    ) -> Self {
        Sinks {
            relay,
            out: Producer::new(Emitter::new(), Tee { stdout, file }),
            consumed: (0, 0, 0),
        }
    }

    /// Counts a stream's events as consumed (§ 8.3), for a summary the
    /// producer writes on an early end.
    pub(crate) fn add_consumed(&mut self, v: &Verdict) {
        self.add_counts((v.domain_events, v.warnings, v.errors));
    }

    /// Counts domain events, warnings and errors as consumed.
    pub(crate) fn add_counts(&mut self, (d, w, e): (u64, u64, u64)) {
        self.consumed.0 += d;
        self.consumed.1 += w;
        self.consumed.2 += e;
        let (i, w, e) = self.consumed;
        self.out.consumed(i, w, e);
    }

    fn relay(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        if let Some(out) = self.relay.as_mut() {
            out.write_all(bytes).map_err(|e| write_err(e, "stdout"))?;
        }
        Ok(())
    }

    pub(crate) fn has_report(&mut self) -> bool {
        let t = self.out.get_mut();
        t.stdout.is_some() || t.file.is_some()
    }

    /// Ends the report for `stop` (see [`Producer::end`]) and returns the
    /// exit status, printing what went wrong.
    pub(crate) fn end(self, cmd: &str, stop: Stop) -> i32 {
        let code = stop_code(cmd, &stop);
        self.out.end(stop);
        code
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

/// Says, the same way for every command, that stdin is a terminal and is
/// being read (a user who forgot the file is not left waiting in silence).
pub(crate) fn say_reading_terminal(command: &str, named: bool, quiet: bool) {
    if !named && io::stdin().is_terminal() && !quiet {
        eprint_line(
            false,
            &format!(
                "aoi {command}: reading a stream from the terminal (end with Ctrl-D; `aoi {command} FILE` reads a file)"
            ),
        );
    }
}

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
            f.push(("upstream_reason", r.clone().into()));
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
    // A failed doctor run names what it failed on (issue 25).
    let checks = match &v.failed_checks {
        (0, _) => String::new(),
        (n, first) => format!(
            "; {n} failed aoi:check, the first \"{}\"",
            sanitize(first.as_deref().unwrap_or("?"))
        ),
    };
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
        Outcome::Ok => format!("{who}ok: {}{checks} ({counts}){adv}", v.reason),
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
            format!("{s}{checks} ({counts}){adv}")
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
pub(crate) fn unreadable_error(msg: &str, source: &str) -> ErrorEvent {
    ErrorEvent::new("not_found", "INPUT_UNREADABLE", msg)
        .field("scope", "item")
        .field("target", source)
}

/// Judges one stream, relaying it and reporting findings as they come.
fn judge_stream<R: Read + Send>(
    reader: crate::judge::Source<R>,
    args: &CheckArgs,
    sinks: &mut Sinks,
    source: &str,
    shown: &mut Vec<Finding>,
    report_counts: &mut (u64, u64),
) -> Result<Verdict, Stop> {
    let opts = args.judge.options(args.max_per_rule);
    let mut judge = Judge::new(opts);
    let want_report = sinks.has_report();
    let mut take = |f: Finding, sinks: &mut Sinks| -> Result<(), Stop> {
        if want_report {
            finding_event(&mut sinks.out, &f, source)?;
            if f.rule.severity() == Severity::Advisory {
                report_counts.1 += 1;
            } else {
                report_counts.0 += 1;
            }
        }
        if shown.len() < args.show {
            shown.push(f);
        }
        Ok(())
    };
    drive_source(
        reader,
        &mut judge,
        |_, _| Ok(()),
        |judge, bytes| {
            sinks.relay(bytes)?;
            for f in judge.drain() {
                take(f, sinks)?;
            }
            // After each block read: a live stream's findings reach the
            // report's reader as they are found, not when a buffer fills.
            sinks.out.flush()
        },
    )?;
    for f in judge.drain() {
        take(f, sinks)?;
    }
    // A stream stopped by SIGINT/SIGTERM before its summary is not judged
    // to its end; what was read of it still counts as consumed. One whose
    // summary came while the relay drained (the producer's own cancelled
    // summary, § 7) is judged as it is.
    if let Err(stop) = cancelled() {
        if !judge.summary_seen() {
            sinks.add_consumed(&judge.finish().0);
            return Err(stop);
        }
    }
    // finish() adds the stream-level findings (summary.missing, …).
    let (v, last) = judge.finish();
    for f in last {
        take(f, sinks)?;
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
    // lines (its cancelled summary, § 7) through first (issue 25).
    if let Err(e) = crate::cancel::install_draining() {
        eprint_line(false, &format!("aoi check: cannot handle signals: {e}"));
    }
    match run_streams(args, &mut sinks) {
        Ok(code) => code,
        Err(stop) => {
            close_report_after_relay_failure(&mut sinks, &stop);
            sinks.end("check", stop)
        }
    }
}

/// Installs the SIGINT/SIGTERM handlers of a command that writes a stream
/// of its own, so a cancellation ends it with `reason:"cancelled"` (§ 7).
pub(crate) fn install_cancel(cmd: &str) {
    if let Err(e) = crate::cancel::install() {
        eprint_line(false, &format!("aoi {cmd}: cannot handle signals: {e}"));
    }
}

fn run_streams(args: &CheckArgs, sinks: &mut Sinks) -> Result<i32, Stop> {
    if sinks.has_report() {
        sinks.out.meta("check", Vec::new())?;
    }
    let inputs: Vec<&Path> = if args.files.is_empty() {
        vec![Path::new("-")]
    } else {
        args.files.iter().map(|p| p.as_path()).collect()
    };
    let named = !args.files.is_empty();
    say_reading_terminal("check", named, args.quiet);
    let mut code = exit::OK;
    let mut verdicts: Vec<Verdict> = Vec::new();
    let mut streams: u64 = 0;
    // Violation and advisory events reported.
    let mut reported: (u64, u64) = (0, 0);
    for path in inputs {
        // No new input after a stop request.
        cancelled()?;
        let source = path.display().to_string();
        let name = named.then_some(source.as_str());
        let mut shown = Vec::new();
        let result = if path == Path::new("-") {
            judge_stream(
                source_for(io::stdin(), &args.judge),
                args,
                sinks,
                "-",
                &mut shown,
                &mut reported,
            )
        } else {
            match open_input(path) {
                Ok(f) => judge_stream(
                    source_for(f, &args.judge),
                    args,
                    sinks,
                    &source,
                    &mut shown,
                    &mut reported,
                ),
                Err(msg) => {
                    eprint_line(args.quiet, &format!("aoi check: {msg}"));
                    code = exit::worst(code, exit::NOINPUT);
                    if sinks.has_report() {
                        sinks.out.error(&unreadable_error(&msg, &source))?;
                    }
                    continue;
                }
            }
        };
        let v = result?;
        streams += 1;
        if sinks.has_report() {
            stream_event(&mut sinks.out, &v, &source)?;
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
        sinks.add_consumed(&v);
        verdicts.push(v);
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
    // Stopped, though the stream ended with its summary: the exit still
    // says that aoi was asked to stop, unless something worse is to say.
    if let Some(sig) = crate::cancel::requested() {
        if exit::rank(code) < exit::rank(exit::CANCELLED) {
            code = crate::cancel::exit_code(sig);
        }
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
        Ended::Cancelled(_) => return,
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

/// Where an input is read from, and on how many threads
/// ([`crate::parallel::threads_for`]; one with an idle timeout, whose
/// poll belongs to a reader on one thread). The descriptor is read itself,
/// duplicated, not through a buffer of `src`'s own (stdin's 8 KiB
/// BufReader): the idle-timeout poll must see every byte still to be read
/// (bytes held in that buffer looked like silence), and reads split lines
/// alike on one thread and on two.
pub(crate) fn source_for<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    judge: &crate::cli::JudgeArgs,
) -> crate::judge::Source<Box<dyn Read + Send>> {
    source_holding(src, judge, crate::lines::hold())
}

/// [`source_for`], holding lines of up to `hold` bytes whole (`aoi
/// filter` needs whole events; longer lines come in pieces).
pub(crate) fn source_holding<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    judge: &crate::cli::JudgeArgs,
    hold: usize,
) -> crate::judge::Source<Box<dyn Read + Send>> {
    use crate::parallel::{Threads, threads_for};
    use std::os::fd::AsRawFd;
    match dup_of(&src) {
        Some(file) => {
            let threads = match judge.idle_timeout {
                Some(_) => Threads::One,
                None => threads_for(&file, judge.threads),
            };
            let fd = file.as_raw_fd();
            crate::judge::Source {
                reader: with_idle_timeout(Box::new(file), fd, judge, hold),
                threads,
            }
        }
        // No duplicate (a descriptor limit): `src` itself, on one thread.
        None => {
            let fd = src.as_raw_fd();
            crate::judge::Source::one(with_idle_timeout(Box::new(src), fd, judge, hold))
        }
    }
}

/// The descriptor `src` reads, duplicated, as a `File`.
fn dup_of<R: std::os::fd::AsRawFd>(src: &R) -> Option<File> {
    // SAFETY: the descriptor is `src`'s, open for the duration of this
    // borrow; it is duplicated, not taken over.
    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(src.as_raw_fd()) };
    fd.try_clone_to_owned().ok().map(File::from)
}

/// A line reader of `inner`, which reads `fd`, with `--idle-timeout` when
/// given (§ 4.2).
fn with_idle_timeout(
    inner: Box<dyn Read + Send>,
    fd: std::os::fd::RawFd,
    judge: &crate::cli::JudgeArgs,
    hold: usize,
) -> crate::lines::LineReader<Box<dyn Read + Send>> {
    let r = crate::lines::LineReader::new(inner, hold);
    // Either way the reader knows its descriptor (an idle timeout records
    // it too).
    match judge.idle_timeout {
        Some(d) => r.idle_timeout(fd, d),
        None => r.reading(fd),
    }
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
/// with the command's `properties`, and flushes.
pub(crate) fn finish_report(
    sinks: &mut Sinks,
    verdicts: &[Verdict],
    code: i32,
    properties: Value,
) -> Result<(), Stop> {
    let closing = Closing {
        code,
        properties,
        cause: None,
        extra: (0, 0, 0),
    };
    close_report(sinks, verdicts, closing)
}

/// § 13.1: upstream `aoi:error` events fail the run of an AOI producer
/// (unless `--continue-on-error`). `None` when no stream had one; else the
/// exit status they call for (75 when the most severe is retryable, else 1)
/// and that error, for `caused_by` (the most severe: process scope first,
/// then not retryable). A stream that ended `denied`, `timeout` or
/// `cancelled` carries that outcome in its own exit status, as in `check`
/// (124 with a non-retryable error, not 1): its errors do not overrule it
/// (issue 24).
pub(crate) fn upstream_errors(verdicts: &[Verdict]) -> Option<(i32, Option<Cause>)> {
    let counted = |v: &&Verdict| {
        v.errors > 0
            && !matches!(
                v.outcome,
                Outcome::Denied | Outcome::Timeout | Outcome::Cancelled
            )
    };
    if !verdicts.iter().any(|v| counted(&v)) {
        return None;
    }
    let worst = verdicts
        .iter()
        .filter(counted)
        .filter_map(|v| v.cause.clone())
        .max_by_key(|c| (c.process_scope as u8) * 2 + (c.retryable != Some(true)) as u8);
    let code = match &worst {
        Some(c) if c.retryable == Some(true) => exit::TEMPFAIL,
        _ => exit::FAILED,
    };
    Some((code, worst))
}

/// The one stderr line that says why a producer's exit differs from the
/// verdict on its input (which may be ok): upstream `aoi:error` events it
/// must fail on (§ 13.1). Said only when they decided `code`.
pub(crate) fn say_upstream_errors(
    command: &str,
    quiet: bool,
    code: i32,
    upstream: Option<&(i32, Option<Cause>)>,
) {
    let Some((upstream_code, worst)) = upstream.filter(|(c, _)| *c == code) else {
        return;
    };
    let first = worst.as_ref().map_or(String::new(), |c| {
        let s = |v: &Option<String>| v.as_deref().map(sanitize).unwrap_or_default();
        let retry = match c.retryable {
            Some(true) => "retryable",
            _ => "not retryable",
        };
        format!(
            " (the most severe: {} {}, {retry})",
            s(&c.category),
            s(&c.code)
        )
    });
    eprint_line(
        quiet,
        &format!(
            "aoi {command}: exit {upstream_code}: the input carries upstream aoi:error events{first}, \
             which fail an AOI producer (§ 13.1); --continue-on-error to go on"
        ),
    );
}

/// How a producer closes its stream. What it emitted itself (`count`, its
/// own errors) the [`Emitter`] has counted.
pub(crate) struct Closing {
    /// The exit status; the summary is `ok:true` only for 0.
    pub code: i32,
    pub properties: Value,
    /// The error to reproduce as `caused_by` when no stream's verdict
    /// explains `code`: an upstream `aoi:error` the upstream itself survived
    /// (a transformer fails on it, § 13), or one of the producer's own.
    pub cause: Option<Cause>,
    /// Events consumed outside the judged streams (domain, warnings,
    /// errors), still counted in the summary (§ 8.3).
    pub extra: (u64, u64, u64),
}

/// The summary's reason for a failing exit status, from the outcome that
/// decided it (§ 8.3: `denied`, `timeout`, `cancelled`, else `failed`).
pub(crate) fn reason_for(code: i32, outcome: Option<Outcome>) -> Reason {
    match outcome {
        Some(Outcome::Denied) if code == exit::NOPERM => Reason::Denied,
        Some(Outcome::Timeout) if code == exit::TIMEOUT => Reason::Timeout,
        Some(Outcome::Cancelled) if code == exit::CANCELLED => Reason::Cancelled,
        _ => Reason::Failed,
    }
}

/// [`finish_report`] with every part of the closing stated.
pub(crate) fn close_report(
    sinks: &mut Sinks,
    verdicts: &[Verdict],
    closing: Closing,
) -> Result<(), Stop> {
    let Closing {
        code,
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
            caused_by = Some(Cause::own(category, ecode));
            sinks
                .out
                .error(&ErrorEvent::new(category, ecode, sanitize(&v.reason)).retryable(false))?;
        }
    }
    let mut summary = if ok {
        Summary::ok()
    } else {
        Summary::failed(reason_for(code, worst.map(|v| v.outcome)))
    };
    summary = summary
        .input_count(verdicts.iter().map(|v| v.domain_events).sum::<u64>() + extra.0)
        .consumed(
            verdicts.iter().map(|v| v.warnings).sum::<u64>() + extra.1,
            verdicts.iter().map(|v| v.errors).sum::<u64>() + extra.2,
        );
    if !ok {
        if let Some(c) = caused_by.or(cause) {
            summary = summary.field("caused_by", cause_json(&c));
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
            summary = summary.field("upstream", identity_json(first));
        }
    }
    summary = summary.field("properties", properties);
    sinks.out.finish(&summary)
}

pub(crate) trait AsFdFile {
    fn as_fd_file(&self) -> io::Result<File>;
}

impl AsFdFile for io::Stdout {
    /// See [`crate::emit::stdout_file`].
    fn as_fd_file(&self) -> io::Result<File> {
        crate::emit::stdout_file()
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
