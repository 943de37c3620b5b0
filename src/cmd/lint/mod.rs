//! `aoi lint`: the conformance checks of § 18, run against a tool.
//!
//! A tool is checked the way an agent meets it: as a black box. One
//! machine-mode invocation (`TOOL ARGS --output jsonl`) is run and its
//! stdout judged by the same [`Judge`] as `aoi check`; around it, probes:
//! discovery in an environment reduced to `PATH` (check 1), a malformed
//! usage (5), a secret-looking argument (9), an early pipe close and
//! SIGINT/SIGTERM mid-run (10), `--limit` (11), malformed input (12) and a
//! known upstream stream (16) for commands whose capabilities say they read
//! JSON Lines, and with `--allow-side-effects` the confirmation and dry-run
//! of destructive commands (6). Every probe runs in its own process group
//! under a timeout; a probe that outlives it is killed and is a finding.
//!
//! Results are per (check × command) (§ 18.1): pass, fail, not applicable
//! (the capabilities say the check does not concern the command) or not
//! tested (a black box does not allow it, or the probe could not decide),
//! always with why.

use std::io::{self, IsTerminal, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::cli::{Format, LintArgs};
use crate::emit::{Reason, Summary};
use crate::judge::{Finding, Judge, JudgeOptions, Verdict, drive, preview};
use crate::out::{Sinks, Stop, eprint_line, sanitize};

mod invocation;
use crate::rules::{RuleId, Severity};
use crate::spec::exit;

/// The checks of § 18.2: number, name, factors.
pub const CHECKS: &[(u8, &str, &[&str])] = &[
    (1, "discovery", &["Discoverable"]),
    (2, "typed-output", &["Typed"]),
    (3, "terminal-summary", &["Verifiable"]),
    (4, "schema-valid-events", &["Typed", "Verifiable"]),
    (5, "errors-and-usage", &["Verifiable"]),
    (6, "confirm-and-dry-run", &["Safe"]),
    (7, "idempotent-replay", &["Idempotent"]),
    (8, "stable-ids", &["Auditable"]),
    (9, "no-secret-echo", &["Safe"]),
    (10, "pipe-and-signals", &["Composable"]),
    (11, "bounded-output", &["Bounded", "Streamable"]),
    (12, "malformed-input", &["Composable"]),
    (13, "schema-version", &["Versioned"]),
    (14, "one-meta-one-summary", &["Composable", "Verifiable"]),
    (15, "seq-and-run", &["Verifiable"]),
    (16, "upstream-forwarding", &["Composable"]),
];

/// The factors of § 18, in the order the table shows them.
const FACTORS: &[&str] = &[
    "Discoverable",
    "Typed",
    "Verifiable",
    "Versioned",
    "Composable",
    "Bounded",
    "Streamable",
    "Safe",
    "Idempotent",
    "Auditable",
];

/// What a check concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Pass,
    Fail,
    NotApplicable,
    NotTested,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "FAIL",
            Status::NotApplicable => "n/a",
            Status::NotTested => "not tested",
        }
    }
    fn rank(self) -> u8 {
        match self {
            Status::Fail => 3,
            Status::Pass => 2,
            Status::NotTested => 1,
            Status::NotApplicable => 0,
        }
    }
}

/// One check's result for one command.
#[derive(Debug, Clone)]
struct Outcome {
    number: u8,
    command: String,
    status: Status,
    detail: String,
    /// What was seen: lines, exit codes, stderr excerpts.
    evidence: Vec<String>,
}

impl Outcome {
    fn new(number: u8, command: &str, status: Status, detail: impl Into<String>) -> Self {
        Outcome {
            number,
            command: command.to_string(),
            status,
            detail: detail.into(),
            evidence: Vec::new(),
        }
    }
    fn with(mut self, evidence: Vec<String>) -> Self {
        self.evidence = evidence;
        self
    }
}

fn check_name(n: u8) -> &'static str {
    CHECKS.iter().find(|c| c.0 == n).map_or("check", |c| c.1)
}

fn check_factors(n: u8) -> &'static [&'static str] {
    CHECKS.iter().find(|c| c.0 == n).map_or(&[], |c| c.2)
}

// --- probes -----------------------------------------------------------------

/// What a probe does besides running the command.
#[derive(Default, Clone)]
struct ProbeOpts {
    stdin: Option<Vec<u8>>,
    /// Keep stdin open after writing (a silent upstream).
    keep_stdin_open: bool,
    /// Only `PATH` in the environment, run in an empty directory (§ 3).
    reduced_env: bool,
    /// In a new network namespace (`unshare -rn`).
    no_network: bool,
    /// Close stdout after reading this many bytes.
    close_after: Option<usize>,
    /// Send this signal once the first line arrived (or a moment passed).
    signal: Option<i32>,
}

/// What a probe saw.
#[derive(Debug, Default)]
struct Probe {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    timed_out: bool,
    /// Its stdout or stderr stayed open after it ended (a process it
    /// started and that left its group holds them): counted as timed out.
    held: bool,
    /// The signal was sent while the process was still running.
    signalled_running: bool,
    /// Bytes of stdout the tool had written when the signal was sent (read,
    /// or still in the pipe).
    stdout_at_signal: usize,
    spawn_error: Option<String>,
    /// Bytes of the stdin given that the tool left unread (when lint could
    /// tell: a small input, written whole before the tool ended).
    stdin_unread: Option<usize>,
}

impl Probe {
    /// The status as a shell would give it (128 + signal).
    fn exit(&self) -> i32 {
        self.code
            .or(self.signal.map(|s| 128 + s))
            .unwrap_or(exit::SOFTWARE)
    }
    fn status(&self) -> String {
        if let Some(e) = &self.spawn_error {
            return format!("could not run: {e}");
        }
        if self.held {
            return "its output stayed open after it ended: a process it started holds it (a reader would hang)".into();
        }
        if self.timed_out {
            return "timed out (killed)".into();
        }
        match (self.code, self.signal) {
            (Some(c), _) => format!("exit {c}"),
            (None, Some(s)) => format!("killed by signal {s}"),
            _ => "unknown status".into(),
        }
    }
    fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// Most bytes kept of a probe's stdout and stderr (the rest is read and
/// dropped so the tool never blocks on a full pipe).
const STDOUT_CAP: usize = 64 << 20;
const STDERR_CAP: usize = 1 << 20;

/// Reads `r` to its end keeping at most `cap` bytes; with `close_after`,
/// stops (and drops `r`, closing the pipe) after that many bytes.
fn read_capped(mut r: impl Read, cap: usize, close_after: Option<usize>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let room = cap.saturating_sub(out.len());
                out.extend_from_slice(buf.get(..n.min(room)).unwrap_or_default());
                if close_after.is_some_and(|c| out.len() >= c) {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    out
}

/// Runs one probe under `timeout`.
fn run_probe(argv: &[String], opts: &ProbeOpts, timeout: Duration) -> Probe {
    let mut words: Vec<String> = Vec::new();
    if opts.no_network {
        words.extend(["unshare", "-rn", "--"].map(String::from));
    }
    words.extend(argv.iter().cloned());
    let Some((prog, rest)) = words.split_first() else {
        return Probe {
            spawn_error: Some("empty command".into()),
            ..Probe::default()
        };
    };
    let mut cmd = Command::new(prog);
    cmd.args(rest);
    if opts.reduced_env {
        cmd.env_clear();
        if let Some(p) = std::env::var_os("PATH") {
            cmd.env("PATH", p);
        }
    }
    // stdin: a pipe of which lint keeps a reading end too, to tell after
    // the run whether the tool read it at all (check 12).
    let stdin_pipe = opts.stdin.as_ref().and_then(|_| stdin_pipe());
    match (&opts.stdin, stdin_pipe.as_ref()) {
        (Some(_), Some((child_end, _, _))) => match child_end.try_clone() {
            Ok(fd) => cmd.stdin(Stdio::from(fd)),
            Err(_) => cmd.stdin(Stdio::piped()),
        },
        (Some(_), None) => cmd.stdin(Stdio::piped()),
        (None, _) => cmd.stdin(Stdio::null()),
    };
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: a timeout kills everything it started.
        .process_group(0);
    // SIGINT and SIGTERM at their default action, whatever lint inherited:
    // run from a background job (`&`, nohup, some CI shells) they arrive
    // ignored, the tool could not handle them, and check 10 would blame
    // it for lint's surroundings.
    // SAFETY: only signal(2), async-signal-safe, between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Probe {
                spawn_error: Some(format!("{prog}: {e}")),
                ..Probe::default()
            };
        }
    };
    // The child's end of the stdin pipe is the child's alone now.
    drop(cmd);
    let (writer, peek_end): (Option<Box<dyn Write + Send>>, Option<std::os::fd::OwnedFd>) =
        match stdin_pipe {
            Some((child_end, peek, write)) => {
                drop(child_end);
                (Some(Box::new(std::fs::File::from(write))), Some(peek))
            }
            None => (
                child
                    .stdin
                    .take()
                    .map(|s| Box::new(s) as Box<dyn Write + Send>),
                None,
            ),
        };
    let pid = child.id() as i32;
    let start = Instant::now();
    let deadline = start + timeout;
    // stdin: written by a thread; closed when written unless kept open
    // (then it is closed once the process ended).
    let (stdin_done_tx, stdin_done_rx) = mpsc::channel::<()>();
    let (written_tx, written_rx) = mpsc::channel::<()>();
    let stdin_thread = match (writer, opts.stdin.clone()) {
        (Some(mut sin), Some(bytes)) => {
            let keep = opts.keep_stdin_open;
            Some(std::thread::spawn(move || {
                let _ = sin.write_all(&bytes);
                let _ = sin.flush();
                let _ = written_tx.send(());
                if keep {
                    let _ = stdin_done_rx.recv();
                }
            }))
        }
        _ => None,
    };
    let (first_tx, first_rx) = mpsc::channel::<()>();
    let close_after = opts.close_after;
    // The readers keep what they read where this thread can take it even
    // if they never end (a process the tool left behind holds the pipe),
    // and say when they are done.
    let stdout_got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut readers = 0;
    let stdout_fd = child.stdout.as_ref().map(std::os::fd::AsRawFd::as_raw_fd);
    if let Some(out) = child.stdout.take() {
        readers += 1;
        let got = std::sync::Arc::clone(&stdout_got);
        let done = done_tx.clone();
        std::thread::spawn(move || {
            let mut r = out;
            let mut buf = [0u8; 64 * 1024];
            let mut told = false;
            loop {
                match r.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        let chunk = buf.get(..n).unwrap_or_default();
                        let Ok(mut got) = got.lock() else { break };
                        let room = STDOUT_CAP.saturating_sub(got.len());
                        got.extend_from_slice(chunk.get(..n.min(room)).unwrap_or_default());
                        let full = close_after.is_some_and(|c| got.len() >= c);
                        drop(got);
                        // Told once what was read is kept: the bytes the
                        // tool had written at the signal are counted.
                        if !told && chunk.contains(&b'\n') {
                            told = true;
                            let _ = first_tx.send(());
                        }
                        if full {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
            let _ = done.send(());
        });
    }
    let stderr_got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    if let Some(e) = child.stderr.take() {
        readers += 1;
        let got = std::sync::Arc::clone(&stderr_got);
        let done = done_tx.clone();
        std::thread::spawn(move || {
            let text = read_capped(e, STDERR_CAP, None);
            if let Ok(mut got) = got.lock() {
                *got = text;
            }
            let _ = done.send(());
        });
    }
    drop(done_tx);
    let mut probe = Probe::default();
    if let Some(sig) = opts.signal {
        // Once the tool wrote its first line, so a slow start on a busy
        // machine is not blamed on the tool; at most half the timeout.
        // (Its signal dispositions tell nothing: sh and Python catch
        // SIGINT from their first instruction.)
        let until = start + timeout / 2;
        while first_rx.try_recv().is_err()
            && matches!(child.try_wait(), Ok(None))
            && Instant::now() < until
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        if matches!(child.try_wait(), Ok(None)) {
            probe.signalled_running = true;
            // What the tool had written: read by the reader, or waiting in
            // the pipe (the reader holds it open while the tool runs).
            let read = stdout_got.lock().map(|g| g.len()).unwrap_or(0);
            probe.stdout_at_signal = read + stdout_fd.map_or(0, unread_in_pipe);
            // SAFETY: kill on our own child's pid.
            unsafe {
                libc::kill(pid, sig);
            }
        }
    }
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) => {}
            Err(_) => break None,
        }
        if Instant::now() >= deadline {
            probe.timed_out = true;
            // SAFETY: the child leads its own process group.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // What the tool left of its stdin. An input of at most a page fits
    // any pipe, so it was written whole whether or not the tool read it.
    if let (Some(end), Some(bytes)) = (&peek_end, &opts.stdin) {
        if bytes.len() <= 4096 && written_rx.recv().is_ok() {
            probe.stdin_unread = Some(unread_in_pipe(std::os::fd::AsRawFd::as_raw_fd(end)));
        }
    }
    drop(peek_end);
    // Whatever it started may still hold the pipes: end the group.
    // SAFETY: as above; the group may already be gone.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    let _ = stdin_done_tx.send(());
    // The pipes close when the last process holding them ends: with the
    // group gone, only one that left it (setsid) can hold them. The wait
    // for that is bounded by the probe's timeout (and a moment past a
    // process that ended by itself); a pipe still held then is a hang to
    // whoever reads the tool's output, reported as one (`--timeout` was
    // not honoured otherwise: the readers were joined without a limit).
    let grace = Instant::now() + Duration::from_millis(500);
    let until = deadline.max(grace);
    for _ in 0..readers {
        let left = until.saturating_duration_since(Instant::now());
        if done_rx.recv_timeout(left).is_err() {
            probe.held = true;
            probe.timed_out = true;
            break;
        }
    }
    // The stdin writer may block on a pipe such a process holds: it is
    // left to end with it, as are the readers.
    if let Some(t) = stdin_thread.filter(|t| t.is_finished() || !probe.held) {
        let _ = t.join();
    }
    probe.stdout = stdout_got.lock().map(|g| g.clone()).unwrap_or_default();
    probe.stderr = stderr_got.lock().map(|g| g.clone()).unwrap_or_default();
    if let Some(s) = status {
        probe.code = s.code();
        probe.signal = s.signal();
    }
    probe
}

/// A check that depends on what the capabilities declare, when they could
/// not be read: not tested, never "n/a per the capabilities" (issue 25).
fn unread_caps(n: u8, command: &str) -> Outcome {
    Outcome::new(
        n,
        command,
        Status::NotTested,
        "the capabilities could not be read (check 1), so what this check needs is unknown",
    )
}

/// Whether `program` names an executable file: a path as given, or a name
/// found in `PATH` (as `execvp` looks for it).
fn runnable(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return executable(std::path::Path::new(program));
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| executable(&dir.join(program))))
}

/// Bytes waiting in the pipe `fd` is the read end of (0 if unknown).
/// A pipe for a probe's stdin: the child's reading end, a second reading
/// end lint keeps (for [`unread_in_pipe`]), and the writing end; all
/// close-on-exec (the child gets its end as a duplicate on fd 0).
fn stdin_pipe() -> Option<(
    std::os::fd::OwnedFd,
    std::os::fd::OwnedFd,
    std::os::fd::OwnedFd,
)> {
    use std::os::fd::FromRawFd;
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into the array on success.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return None;
    }
    // SAFETY: both descriptors are fresh and owned here alone.
    let (read, write) = unsafe {
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    let peek = read.try_clone().ok()?;
    Some((read, peek, write))
}

fn unread_in_pipe(fd: std::os::fd::RawFd) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int; a closed descriptor fails cleanly.
    let rc = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) };
    if rc == 0 {
        usize::try_from(n).unwrap_or(0)
    } else {
        0
    }
}

/// A language runtime's stack trace or panic in `stderr`, if any (§ 7,
/// § 18 checks 5 and 10).
fn stack_trace(stderr: &str) -> Option<String> {
    const MARKS: &[&str] = &[
        "Traceback (most recent call last)",
        "panicked at",
        "stack backtrace:",
        "goroutine 1 [",
        "Exception in thread",
        "    at Object.",
        "    at process.",
        "Unhandled exception",
        "node:internal",
        "RUST_BACKTRACE",
    ];
    stderr
        .lines()
        .find(|l| MARKS.iter().any(|m| l.contains(m)))
        .map(|l| sanitize(l.trim()))
}

// --- the stream ---------------------------------------------------------------

/// A stream judged: the verdict, the findings (all of them) and the events.
struct Judged {
    verdict: Verdict,
    findings: Vec<Finding>,
    events: Vec<Value>,
}

fn judge_bytes(bytes: &[u8]) -> Judged {
    let mut judge = Judge::new(JudgeOptions {
        per_rule_limit: 5,
        ..JudgeOptions::default()
    });
    let mut findings = Vec::new();
    let _ = drive(
        bytes,
        &mut judge,
        |_, _| Ok::<(), ()>(()),
        |j, _| {
            findings.extend(j.drain());
            Ok(())
        },
    );
    findings.extend(judge.drain());
    let (verdict, last) = judge.finish();
    findings.extend(last);
    let events = bytes
        .split(|&b| b == b'\n')
        .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
        .filter(Value::is_object)
        .collect();
    Judged {
        verdict,
        findings,
        events,
    }
}

/// The § 18 check a finding of `j` belongs to: [`RuleId::check`], except that
/// the summary's counters are check 15's only when the stream carries
/// `aoi.seq` (§ 18 #15: without it Verifiable is simply not claimed);
/// otherwise they are the terminal summary's (check 3) (issue 25).
fn check_in(rule: RuleId, j: &Judged) -> u8 {
    use RuleId::*;
    let counters = matches!(
        rule,
        SummaryEventCount | SummaryCount | SummaryWarningCount | SummaryErrorCount
    );
    let seq = j.events.iter().any(|e| e["aoi"]["seq"].is_u64());
    if counters && !seq { 3 } else { rule.check() }
}

/// A finding as evidence: `line N: message`.
fn evidence_of(f: &Finding) -> String {
    format!(
        "line {}: {} [{}]",
        f.line,
        sanitize(&f.message),
        f.rule.id()
    )
}

/// Pass, or fail with the violations (advisories are noted, never fail)
/// of check `n` among the findings.
fn from_findings(n: u8, command: &str, j: &Judged, pass_detail: &str) -> Outcome {
    let mine: Vec<&Finding> = j
        .findings
        .iter()
        .filter(|f| check_in(f.rule, j) == n)
        .collect();
    let failing: Vec<String> = mine
        .iter()
        .filter(|f| f.rule.severity() != Severity::Advisory)
        .map(|f| evidence_of(f))
        .collect();
    let advisories: Vec<String> = mine
        .iter()
        .filter(|f| f.rule.severity() == Severity::Advisory)
        .map(|f| evidence_of(f))
        .collect();
    if failing.is_empty() {
        let detail = if advisories.is_empty() {
            pass_detail.to_string()
        } else {
            format!("{pass_detail}; {} advisory finding(s)", advisories.len())
        };
        Outcome::new(n, command, Status::Pass, detail).with(advisories)
    } else {
        let first = failing.first().cloned().unwrap_or_default();
        Outcome::new(
            n,
            command,
            Status::Fail,
            format!("{} finding(s), first: {first}", failing.len()),
        )
        .with(failing)
    }
}

// --- JSON Schema, the part a linter needs -------------------------------------

/// Structural problems of a JSON Schema: keywords of the wrong type,
/// local `$ref`s that do not resolve. An empty list is a usable schema.
fn schema_problems(root: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk_schema(root, root, "#", &mut out);
    out
}

fn walk_schema(root: &Value, s: &Value, at: &str, out: &mut Vec<String>) {
    if out.len() > 20 {
        return;
    }
    let obj = match s {
        Value::Bool(_) => return,
        Value::Object(o) => o,
        _ => {
            out.push(format!("{at}: a schema is an object or a boolean"));
            return;
        }
    };
    const TYPES: &[&str] = &[
        "null", "boolean", "object", "array", "number", "string", "integer",
    ];
    if let Some(t) = obj.get("type") {
        let ok = match t {
            Value::String(s) => TYPES.contains(&s.as_str()),
            Value::Array(a) => a
                .iter()
                .all(|x| x.as_str().is_some_and(|s| TYPES.contains(&s))),
            _ => false,
        };
        if !ok {
            out.push(format!("{at}/type: not a type name or a list of them"));
        }
    }
    if let Some(r) = obj.get("required") {
        if !r.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            out.push(format!("{at}/required: not an array of strings"));
        }
    }
    if let Some(e) = obj.get("enum") {
        if !e.is_array() {
            out.push(format!("{at}/enum: not an array"));
        }
    }
    if let Some(r) = obj.get("$ref") {
        match r.as_str() {
            Some(p) if p.starts_with('#') => {
                if resolve(root, p).is_none() {
                    out.push(format!("{at}/$ref: {p} does not resolve"));
                }
            }
            Some(_) => {}
            None => out.push(format!("{at}/$ref: not a string")),
        }
    }
    for key in ["properties", "$defs", "definitions", "patternProperties"] {
        match obj.get(key) {
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    walk_schema(root, v, &format!("{at}/{key}/{k}"), out);
                }
            }
            Some(_) => out.push(format!("{at}/{key}: not an object")),
            None => {}
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        match obj.get(key) {
            Some(Value::Array(a)) if !a.is_empty() => {
                for (i, v) in a.iter().enumerate() {
                    walk_schema(root, v, &format!("{at}/{key}/{i}"), out);
                }
            }
            Some(_) => out.push(format!("{at}/{key}: not a non-empty array")),
            None => {}
        }
    }
    for key in [
        "items",
        "not",
        "if",
        "then",
        "else",
        "additionalProperties",
        "contains",
    ] {
        if let Some(v) = obj.get(key) {
            if !v.is_array() {
                walk_schema(root, v, &format!("{at}/{key}"), out);
            }
        }
    }
}

/// A local JSON pointer (`#/$defs/x`) in `root`.
fn resolve<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let p = pointer.strip_prefix('#')?;
    if p.is_empty() {
        return Some(root);
    }
    root.pointer(&p.replace("~1", "\u{0}").replace('\u{0}', "~1"))
}

/// Validates `v` against `s` with the keywords a discriminated event
/// schema uses: `$ref` (local), `type`, `const`, `enum`, `required`,
/// `properties`, `additionalProperties`, `items`, `allOf`, `anyOf`,
/// `oneOf`, `not`, `if`/`then`/`else`, `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`,
/// `maxLength`, `minItems`, `maxItems`, `uniqueItems`, `minProperties`,
/// `maxProperties`, `propertyNames`. The others ([`UNCHECKED`]: `pattern`,
/// `format`, …) are not checked, and check 4 says which the schema uses.
/// Returns the first few problems.
fn validate(root: &Value, s: &Value, v: &Value, at: &str, out: &mut Vec<String>, depth: u32) {
    if out.len() >= 5 || depth > 64 {
        return;
    }
    let obj = match s {
        Value::Bool(true) => return,
        Value::Bool(false) => {
            out.push(format!("{at}: not allowed"));
            return;
        }
        Value::Object(o) => o,
        _ => return,
    };
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        if let Some(target) = resolve(root, r) {
            validate(root, target, v, at, out, depth + 1);
        }
    }
    if let Some(t) = obj.get("type") {
        let is = |name: &str| match name {
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "number" => v.is_number(),
            // 2020-12: a number with no fractional part is an integer (2.0).
            "integer" => {
                v.as_i64().is_some()
                    || v.as_u64().is_some()
                    || v.as_f64()
                        .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
            }
            _ => true,
        };
        let ok = match t {
            Value::String(n) => is(n),
            Value::Array(a) => a.iter().filter_map(Value::as_str).any(is),
            _ => true,
        };
        if !ok {
            out.push(format!("{at}: {} is not of type {t}", short(v)));
            return;
        }
    }
    if let Some(c) = obj.get("const") {
        if c != v {
            out.push(format!("{at}: {} is not {c}", short(v)));
        }
    }
    if let Some(Value::Array(e)) = obj.get("enum") {
        if !e.contains(v) {
            out.push(format!(
                "{at}: {} is not one of {}",
                short(v),
                short(&Value::Array(e.clone()))
            ));
        }
    }
    if let Some(n) = v.as_f64() {
        if obj
            .get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m)
        {
            out.push(format!("{at}: {n} is below the minimum"));
        }
        if obj
            .get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m)
        {
            out.push(format!("{at}: {n} is above the maximum"));
        }
    }
    if let Some(n) = v.as_f64() {
        if obj
            .get("exclusiveMinimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n <= m)
        {
            out.push(format!("{at}: {n} is not above the exclusiveMinimum"));
        }
        if obj
            .get("exclusiveMaximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n >= m)
        {
            out.push(format!("{at}: {n} is not below the exclusiveMaximum"));
        }
        if let Some(m) = obj
            .get("multipleOf")
            .and_then(Value::as_f64)
            .filter(|m| *m > 0.0)
        {
            let q = n / m;
            if q.is_finite() && (q - q.round()).abs() > 1e-9 {
                out.push(format!("{at}: {n} is not a multiple of {m}"));
            }
        }
    }
    if let Value::Array(items) = v {
        let len = items.len() as u64;
        if obj
            .get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| len < m)
        {
            out.push(format!("{at}: fewer items than minItems"));
        }
        if obj
            .get("maxItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| len > m)
        {
            out.push(format!("{at}: more items than maxItems"));
        }
        if obj.get("uniqueItems") == Some(&Value::Bool(true))
            && items
                .iter()
                .enumerate()
                .any(|(i, x)| items.iter().skip(i + 1).any(|y| x == y))
        {
            out.push(format!("{at}: items are not unique"));
        }
    }
    if let Value::Object(m) = v {
        let len = m.len() as u64;
        if obj
            .get("minProperties")
            .and_then(Value::as_u64)
            .is_some_and(|n| len < n)
        {
            out.push(format!("{at}: fewer members than minProperties"));
        }
        if obj
            .get("maxProperties")
            .and_then(Value::as_u64)
            .is_some_and(|n| len > n)
        {
            out.push(format!("{at}: more members than maxProperties"));
        }
        if let Some(names) = obj.get("propertyNames") {
            for k in m.keys() {
                validate(
                    root,
                    names,
                    &Value::from(k.as_str()),
                    &format!("{at}/{k} (name)"),
                    out,
                    depth + 1,
                );
            }
        }
    }
    if let Some(text) = v.as_str() {
        let len = text.chars().count() as u64;
        if obj
            .get("minLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| len < m)
        {
            out.push(format!("{at}: shorter than minLength"));
        }
        if obj
            .get("maxLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| len > m)
        {
            out.push(format!("{at}: longer than maxLength"));
        }
    }
    if let Value::Object(m) = v {
        if let Some(Value::Array(req)) = obj.get("required") {
            for r in req.iter().filter_map(Value::as_str) {
                if !m.contains_key(r) {
                    out.push(format!("{at}: \"{r}\" is required"));
                }
            }
        }
        let props = obj.get("properties").and_then(Value::as_object);
        for (k, val) in m {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(root, ps, val, &format!("{at}/{k}"), out, depth + 1),
                None => {
                    if let Some(ap) = obj.get("additionalProperties") {
                        validate(root, ap, val, &format!("{at}/{k}"), out, depth + 1);
                    }
                }
            }
        }
    }
    if let (Value::Array(items), Some(is)) = (v, obj.get("items")) {
        if is.is_object() || is.is_boolean() {
            for (i, x) in items.iter().enumerate() {
                validate(root, is, x, &format!("{at}/{i}"), out, depth + 1);
            }
        }
    }
    if let Some(Value::Array(all)) = obj.get("allOf") {
        for sub in all {
            validate(root, sub, v, at, out, depth + 1);
        }
    }
    let passes = |sub: &Value| {
        let mut o = Vec::new();
        validate(root, sub, v, at, &mut o, depth + 1);
        o.is_empty()
    };
    if let Some(Value::Array(any)) = obj.get("anyOf") {
        if !any.iter().any(passes) {
            out.push(format!("{at}: matches none of anyOf"));
        }
    }
    if let Some(Value::Array(one)) = obj.get("oneOf") {
        let n = one.iter().filter(|s| passes(s)).count();
        if n != 1 {
            out.push(format!("{at}: matches {n} of oneOf, not exactly one"));
        }
    }
    if let Some(not) = obj.get("not") {
        if passes(not) {
            out.push(format!("{at}: matches what `not` excludes"));
        }
    }
    if let Some(cond) = obj.get("if") {
        let branch = if passes(cond) {
            obj.get("then")
        } else {
            obj.get("else")
        };
        if let Some(b) = branch {
            validate(root, b, v, at, out, depth + 1);
        }
    }
}

/// Keywords [`validate`] does not check (a regular expression engine,
/// formats, and the rarer applicators).
const UNCHECKED: &[&str] = &[
    "pattern",
    "patternProperties",
    "format",
    "prefixItems",
    "contains",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
];

/// The keywords of [`UNCHECKED`] that `schema` uses anywhere, sorted.
fn unchecked_keywords(schema: &Value) -> Vec<&'static str> {
    fn walk(v: &Value, found: &mut Vec<&'static str>, depth: u32) {
        if depth > 64 {
            return;
        }
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    if let Some(u) = UNCHECKED.iter().find(|u| **u == k.as_str()) {
                        if !found.contains(u) {
                            found.push(u);
                        }
                    }
                    walk(x, found, depth + 1);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, found, depth + 1)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(schema, &mut found, 0);
    found.sort_unstable();
    found
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        s.chars().take(40).collect::<String>() + "…"
    } else {
        s
    }
}

/// True for a `$id` a consumer can use as an identifier: an absolute URI
/// that is not a local path (§ 10.2).
fn id_is_public(id: &str) -> bool {
    let lower = id.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with("urn:"))
        && !lower.contains("://localhost")
        && !lower.contains("://127.")
}

// --- the lint -----------------------------------------------------------------

/// What discovery found.
struct Discovery {
    outcome: Outcome,
    schema: Option<Value>,
    caps: Option<Value>,
}

/// Check 1: `schema --output json` and `capabilities --output json`
/// without credentials, configuration or (optionally) network (§ 3).
fn discover(prefix: &[String], args: &LintArgs) -> Discovery {
    // --no-network needs a network namespace; where there is none, say so
    // and run with the network rather than not at all.
    let sandbox = args.no_network && {
        let probe = run_probe(
            &["true".to_string()],
            &ProbeOpts {
                no_network: true,
                ..ProbeOpts::default()
            },
            args.timeout,
        );
        probe.exit() == 0
    };
    let opts = ProbeOpts {
        reduced_env: true,
        no_network: sandbox,
        ..ProbeOpts::default()
    };
    let argv = |sub: &str| -> Vec<String> {
        let mut a = prefix.to_vec();
        a.extend([sub, "--output", "json"].map(String::from));
        a
    };
    let sp = run_probe(&argv("schema"), &opts, args.timeout);
    let mut evidence = vec![format!("schema --output json: {}", sp.status())];
    let fail = |detail: String, mut evidence: Vec<String>, p: &Probe| {
        let err = p.stderr_text();
        if !err.trim().is_empty() {
            evidence.push(format!("stderr: {}", excerpt(&err)));
        }
        Discovery {
            outcome: Outcome::new(1, "*", Status::Fail, detail).with(evidence),
            schema: None,
            caps: None,
        }
    };
    if sp.exit() != 0 || sp.timed_out {
        let hint = if args.no_network {
            " (no HOME, no credentials, no config variables, no network)"
        } else {
            " (no HOME, no credentials, no config variables)"
        };
        return fail(
            format!(
                "`schema --output json` failed in an environment reduced to PATH{hint}: {}",
                sp.status()
            ),
            evidence,
            &sp,
        );
    }
    let schema: Value = match serde_json::from_slice(&sp.stdout) {
        Ok(v) => v,
        Err(e) => {
            evidence.push(format!("stdout: {}", preview(&sp.stdout)));
            return fail(
                format!("the schema is not one JSON document: {e}"),
                evidence,
                &sp,
            );
        }
    };
    let problems = schema_problems(&schema);
    if !problems.is_empty() {
        return fail(
            format!(
                "the schema is not a usable JSON Schema: {}",
                problems.join("; ")
            ),
            evidence,
            &sp,
        );
    }
    match schema.get("$id").and_then(Value::as_str) {
        Some(id) if id_is_public(id) => {}
        Some(id) => {
            return fail(
                format!(
                    "the schema's $id {} is a local path or not a URI (§ 10.2)",
                    sanitize(id)
                ),
                evidence,
                &sp,
            );
        }
        // § 10.2 only forbids a machine-local $id; aoi asks for one (a
        // schema a consumer can cite and cache), as documented.
        None => {
            return fail(
                "the schema has no $id (aoi's requirement: § 10.2 forbids only a machine-local one; a consumer needs a name to cite and cache it by)"
                    .into(),
                evidence,
                &sp,
            );
        }
    }
    // Past here the schema is usable: a failure of the capabilities
    // leaves it to check 4 (issue 25: not "no usable schema").
    let fail = |detail: String, evidence: Vec<String>, p: &Probe| Discovery {
        schema: Some(schema.clone()),
        ..fail(detail, evidence, p)
    };
    let cp = run_probe(&argv("capabilities"), &opts, args.timeout);
    evidence.push(format!("capabilities --output json: {}", cp.status()));
    let caps = if cp.exit() == 0 && !cp.timed_out {
        match serde_json::from_slice::<Value>(&cp.stdout) {
            Ok(v) if v.is_object() => Some(v),
            Ok(_) => {
                return fail(
                    "capabilities is not one JSON object (§ 17)".into(),
                    evidence,
                    &cp,
                );
            }
            Err(e) => {
                return fail(format!("capabilities is not JSON: {e}"), evidence, &cp);
            }
        }
    } else {
        if let Some(t) = stack_trace(&cp.stderr_text()) {
            return fail(format!("capabilities crashed: {t}"), evidence, &cp);
        }
        None
    };
    // `--schema` / `--capabilities` flags, where the tool has them (they
    // succeed), must say the same as the subcommands (§ 3).
    for (flag, sub) in [
        ("--schema", Some(&schema)),
        ("--capabilities", caps.as_ref()),
    ] {
        let mut a = prefix.to_vec();
        a.extend([flag, "--output", "json"].map(String::from));
        let p = run_probe(&a, &opts, args.timeout);
        if p.exit() != 0 || p.timed_out {
            continue;
        }
        let same = serde_json::from_slice::<Value>(&p.stdout)
            .ok()
            .is_some_and(|v| Some(&v) == sub);
        if !same {
            return fail(
                format!(
                    "`{flag} --output json` succeeds but does not give what the subcommand gives"
                ),
                evidence,
                &p,
            );
        }
        evidence.push(format!("{flag} --output json: the same document"));
    }
    let mut detail = match &caps {
        Some(_) => {
            "schema and capabilities succeed with only PATH set; the schema is usable with a public $id"
        }
        None => {
            "schema succeeds with only PATH set and has a public $id; capabilities is not offered"
        }
    }
    .to_string();
    if sandbox {
        detail.push_str("; without network (a new network namespace)");
    } else if args.no_network {
        detail.push_str("; --no-network: no network namespace available here (unshare -rn failed), run with the network");
    }
    Discovery {
        outcome: Outcome::new(1, "*", Status::Pass, detail).with(evidence),
        schema: Some(schema),
        caps,
    }
}

/// The entry for `command` in the capabilities, if any.
fn caps_command<'a>(caps: Option<&'a Value>, command: &str) -> Option<&'a Map<String, Value>> {
    caps?
        .get("commands")?
        .as_array()?
        .iter()
        .filter_map(Value::as_object)
        .find(|c| c.get("name").and_then(Value::as_str) == Some(command))
}

fn flag(c: Option<&Map<String, Value>>, key: &str) -> Option<bool> {
    c?.get(key)?.as_bool()
}

/// Whether the command reads JSON Lines on stdin, as its capabilities say.
fn reads_jsonl(c: Option<&Map<String, Value>>) -> bool {
    flag(c, "input_jsonl") == Some(true)
        || c.and_then(|c| c.get("input_modes"))
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|m| m == "jsonl" || m == "stdin"))
}

fn excerpt(s: &str) -> String {
    let one: String = s.lines().take(3).collect::<Vec<_>>().join(" | ");
    let one = sanitize(&one);
    if one.chars().count() > 200 {
        one.chars().take(200).collect::<String>() + "…"
    } else {
        one
    }
}

const UPSTREAM_RUN: &str = "01LINTUPSTREAM0000000000AA";
const UPSTREAM_ID: &str = r#""tool":"aoi-lint-upstream","tool_version":"1.0.0","aoi_version":"1.0-alpha","schema_name":"org.aoi-toolkit.lint.upstream","schema_version":"1.0.0""#;

/// One upstream line with the envelope at `seq`; `body` is `,"k":v…`.
fn upstream_line(ty: &str, seq: u64, body: &str) -> String {
    format!("{{\"type\":\"{ty}\",\"aoi\":{{\"seq\":{seq},\"run\":\"{UPSTREAM_RUN}\"}}{body}}}\n")
}

/// The known upstream stream of check 16: a failed run whose error says
/// retry may help, with the retry fields `caused_by` must carry.
fn upstream_stream() -> Vec<u8> {
    let mut s = upstream_line(
        "aoi:meta",
        0,
        &format!(",{UPSTREAM_ID},\"command\":\"probe\""),
    );
    s += &upstream_line("hit", 1, r#","rank":1,"id":"doc_1""#);
    s += &upstream_line(
        "aoi:error",
        2,
        r#","scope":"process","category":"rate_limited","code":"LINT_RATE_LIMITED","message":"slow down","retryable":true,"retry_after_ms":1500"#,
    );
    s += &upstream_line(
        "aoi:summary",
        3,
        &format!(
            r#","ok":false,"reason":"failed","count":1,"warning_count":0,"error_count":1,"event_count":4,"caused_by":{{"category":"rate_limited","code":"LINT_RATE_LIMITED","retryable":true,"retry_after_ms":1500}},{UPSTREAM_ID}"#
        ),
    );
    s.into_bytes()
}

/// The stream of check 12: a successful run with one line that is not
/// JSON between two events (so only that line can make the tool fail).
fn malformed_stream() -> Vec<u8> {
    let mut s = upstream_line(
        "aoi:meta",
        0,
        &format!(",{UPSTREAM_ID},\"command\":\"probe\""),
    );
    s += &upstream_line("hit", 1, r#","rank":1,"id":"doc_1""#);
    s += "this line is not JSON {\n";
    s += &upstream_line("hit", 2, r#","rank":2,"id":"doc_2""#);
    s += &upstream_line(
        "aoi:summary",
        3,
        &format!(
            r#","ok":true,"count":2,"warning_count":0,"error_count":0,"event_count":4,{UPSTREAM_ID}"#
        ),
    );
    s.into_bytes()
}

/// Whether a tool's output on [`malformed_stream`] tells of the bad line:
/// a failing exit, an `aoi:error`/`aoi:warning`, or a summary that counts
/// skipped lines (a log reader's way, `properties.skipped_lines`).
fn reported(p: &Probe, j: &Judged) -> bool {
    p.exit() != 0
        || j.events.iter().any(|e| {
            matches!(e["type"].as_str(), Some("aoi:error" | "aoi:warning"))
                || (e["type"] == "aoi:summary"
                    && e["properties"]["skipped_lines"]
                        .as_u64()
                        .is_some_and(|n| n > 0))
        })
}

/// Lints one invocation; `discovery` is shared by all of a tool's commands.
fn lint_invocation(
    args: &LintArgs,
    argv: &[String],
    command: &str,
    stdin: Option<Vec<u8>>,
    d: &Discovery,
) -> Vec<Outcome> {
    let (mut out, version) = judge_invocation(args, argv, command, stdin, d);
    if let Some(v) = version {
        another_version(&mut out, &v);
    }
    out
}

/// Whether the machine-mode flag lint appended breaks the invocation: it
/// fails with the flag and writes AOI, successfully, without it (a tool
/// that passes its arguments on to another program, or one that is
/// AOI-only). Then what to pass instead.
fn flag_breaks(args: &LintArgs, argv: &[String], stdin: Option<&Vec<u8>>) -> Option<String> {
    let opts = ProbeOpts {
        stdin: stdin.cloned(),
        ..ProbeOpts::default()
    };
    let with = run_probe(argv, &opts, args.timeout);
    if with.exit() == 0 || with.timed_out || with.spawn_error.is_some() {
        return None;
    }
    let without = run_probe(&args.invocation, &opts, args.timeout);
    if without.exit() != 0 || !invocation::writes_aoi(&without.stdout) {
        return None;
    }
    Some(format!(
        "the invocation fails with `{}` appended ({}) and writes AOI without it (a tool that passes \
its arguments on, or one that writes AOI only): linted without the flag; pass --machine-flag '' \
to say so, or give the flag where the tool reads it",
        sanitize(&args.machine_flag),
        with.status()
    ))
}

/// A tool that writes another AOI version (`version.unsupported`, check
/// 2's one finding) is not judged by AOI 1's rules: the checks that read
/// its streams say "not tested" rather than fail on another version's
/// meanings (issue 25). Discovery (1) and `schema_version` (13) stand.
fn another_version(out: &mut [Outcome], version: &str) {
    for o in out.iter_mut() {
        if matches!(o.number, 1 | 2 | 13) || o.status == Status::NotApplicable {
            continue;
        }
        o.status = Status::NotTested;
        o.detail = format!(
            "the tool writes aoi_version \"{}\", not AOI 1.x (check 2): its streams are not judged by AOI 1's rules",
            sanitize(version)
        );
    }
}

/// The checks of one invocation, and the `aoi_version` of another AOI
/// version when its stream declares one.
fn judge_invocation(
    args: &LintArgs,
    argv: &[String],
    command: &str,
    stdin: Option<Vec<u8>>,
    d: &Discovery,
) -> (Vec<Outcome>, Option<String>) {
    let t = args.timeout;
    let caps_cmd = caps_command(d.caps.as_ref(), command);
    let base = ProbeOpts {
        stdin: stdin.clone(),
        ..ProbeOpts::default()
    };
    let main = run_probe(argv, &base, t);
    let mut out = Vec::new();
    if let Some(e) = &main.spawn_error {
        for &(n, _, _) in CHECKS.iter().filter(|c| c.0 != 1) {
            out.push(Outcome::new(
                n,
                command,
                Status::NotTested,
                format!("the invocation could not run: {e}"),
            ));
        }
        return (out, None);
    }
    let j = judge_bytes(&main.stdout);
    let version = j
        .findings
        .iter()
        .any(|f| f.rule.id() == "version.unsupported")
        .then(|| {
            let meta = j.events.first().filter(|e| e["type"] == "aoi:meta");
            meta.and_then(|m| m["aoi_version"].as_str())
                .unwrap_or("?")
                .to_string()
        });
    let run_evidence = format!(
        "invocation: {} ({} line(s) on stdout)",
        main.status(),
        j.verdict.lines
    );
    // 2: typed output.
    out.push(from_findings(
        2,
        command,
        &j,
        "every line is a JSON object with a string type",
    ));
    // 3: the terminal summary agrees with the exit status.
    out.push({
        let mut o = from_findings(3, command, &j, "");
        let sum_ok = j.verdict.summary.as_ref().and_then(|s| s.ok);
        if main.held {
            o = Outcome::new(3, command, Status::Fail, main.status());
        } else if main.timed_out {
            o = Outcome::new(
                3,
                command,
                Status::Fail,
                format!("the invocation did not finish within {:?}: a hung tool", t),
            );
        } else if o.status == Status::Pass {
            o = match (main.exit(), sum_ok) {
                (0, Some(true)) => Outcome::new(
                    3,
                    command,
                    Status::Pass,
                    "exit 0 with a terminal aoi:summary ok:true",
                ),
                (0, Some(false)) => Outcome::new(
                    3,
                    command,
                    Status::Fail,
                    "exit 0 but the summary says ok:false",
                ),
                (c, Some(false)) => Outcome::new(
                    3,
                    command,
                    Status::Pass,
                    format!("exit {c} with a terminal aoi:summary ok:false"),
                ),
                (c, Some(true)) => Outcome::new(
                    3,
                    command,
                    Status::Fail,
                    format!("exit {c} but the summary says ok:true"),
                ),
                (c, None) => Outcome::new(
                    3,
                    command,
                    Status::Fail,
                    format!("exit {c} without a terminal aoi:summary"),
                ),
            };
        }
        let mut ev = o.evidence.clone();
        ev.insert(0, run_evidence.clone());
        o.with(ev)
    });
    // 4: framework events against the declared schema.
    out.push(match &d.schema {
        None => Outcome::new(4, command, Status::NotTested, "no usable schema (check 1)"),
        Some(schema) => {
            let mut problems = Vec::new();
            let mut checked = 0;
            for (i, e) in j.events.iter().enumerate() {
                let ty = e.get("type").and_then(Value::as_str).unwrap_or_default();
                if matches!(
                    ty,
                    "aoi:meta" | "aoi:summary" | "aoi:warning" | "aoi:error" | "aoi:check"
                ) {
                    checked += 1;
                    let mut p = Vec::new();
                    validate(schema, schema, e, "", &mut p, 0);
                    problems.extend(
                        p.into_iter()
                            .map(|m| format!("event {} ({ty}): {}", i + 1, sanitize(&m))),
                    );
                }
            }
            let mut o = from_findings(4, command, &j, &{
                let mut t =
                    format!("{checked} framework event(s) valid against the declared schema");
                let skipped = unchecked_keywords(schema);
                if !skipped.is_empty() {
                    t.push_str(&format!(" (not checked: {})", skipped.join(", ")));
                }
                t
            });
            if !problems.is_empty() {
                o = Outcome::new(
                    4,
                    command,
                    Status::Fail,
                    format!(
                        "{} problem(s), first: {}",
                        problems.len(),
                        problems.first().cloned().unwrap_or_default()
                    ),
                )
                .with(problems);
            }
            o
        }
    });
    // 5: usage errors and the error fields.
    out.push({
        let mut bad = argv.to_vec();
        bad.push("--aoi-lint-no-such-flag".into());
        let p = run_probe(&bad, &base, t);
        let errors = from_findings(5, command, &j, "");
        if p.held {
            Outcome::new(5, command, Status::Fail, format!("an unknown flag: {}", p.status()))
        } else if p.timed_out {
            Outcome::new(5, command, Status::Fail, "an unknown flag made the tool hang")
        } else if p.exit() == 0 {
            Outcome::new(5, command, Status::Fail, "an unknown flag (--aoi-lint-no-such-flag) exits 0")
                .with(vec![format!("stdout: {}", preview(&p.stdout))])
        } else if let Some(trace) = stack_trace(&p.stderr_text()) {
            Outcome::new(5, command, Status::Fail, format!("an unknown flag prints a stack trace: {trace}"))
        } else if errors.status == Status::Fail {
            errors
        } else {
            Outcome::new(5, command, Status::Pass, format!("an unknown flag exits {} without a stack trace; every aoi:error has its fields", p.exit()))
        }
    });
    // 6–8: side effects.
    let destructive = flag(caps_cmd, "destructive") == Some(true)
        || flag(caps_cmd, "requires_confirm") == Some(true);
    let read_only = flag(caps_cmd, "read_only") == Some(true);
    out.push(if caps_cmd.is_none() {
        Outcome::new(
            6,
            command,
            Status::NotTested,
            "the capabilities do not describe this command",
        )
    } else if !destructive {
        Outcome::new(
            6,
            command,
            Status::NotApplicable,
            "not destructive, per the capabilities",
        )
    } else if !args.allow_side_effects {
        Outcome::new(
            6,
            command,
            Status::NotTested,
            "destructive: its probes run only with --allow-side-effects",
        )
    } else {
        let refused = run_probe(argv, &base, t);
        let mut dry = argv.to_vec();
        dry.push("--dry-run".into());
        let dp = run_probe(&dry, &base, t);
        let plans = judge_bytes(&dp.stdout)
            .events
            .iter()
            .filter(|e| e["type"] == "aoi:plan")
            .count();
        if refused.exit() == 0 {
            Outcome::new(6, command, Status::Fail, "ran without --confirm (exit 0)")
        } else if flag(caps_cmd, "supports_dry_run") == Some(true) && (dp.exit() != 0 || plans == 0)
        {
            Outcome::new(
                6,
                command,
                Status::Fail,
                format!("--dry-run: {} with {plans} aoi:plan event(s)", dp.status()),
            )
        } else {
            Outcome::new(
                6,
                command,
                Status::Pass,
                format!(
                    "refused without --confirm ({}); --dry-run gave {plans} aoi:plan event(s)",
                    refused.status()
                ),
            )
        }
    });
    for n in [7u8, 8] {
        out.push(if read_only {
            Outcome::new(n, command, Status::NotApplicable, "read-only, per the capabilities")
        } else {
            Outcome::new(n, command, Status::NotTested, "needs a replay against real resources; a black-box lint cannot tell a doubled effect")
        });
    }
    // 9: a secret-looking argument never comes back.
    out.push({
        let canary = format!("aoi-lint-canary-{}", &crate::emit::ulid()[16..]);
        let mut with = argv.to_vec();
        with.push(args.secret_flag.clone());
        with.push(canary.clone());
        let p = run_probe(&with, &base, t);
        let found_out = memchr::memmem::find(&p.stdout, canary.as_bytes()).is_some();
        let found_err = memchr::memmem::find(&p.stderr, canary.as_bytes()).is_some();
        let secret_rule = from_findings(9, command, &j, "");
        if found_out || found_err {
            let wher = match (found_out, found_err) {
                (true, true) => "stdout and stderr",
                (true, false) => "stdout",
                _ => "stderr",
            };
            Outcome::new(
                9,
                command,
                Status::Fail,
                format!(
                    "the value of {} came back raw on {wher} (§ 11)",
                    sanitize(&args.secret_flag)
                ),
            )
            .with(
                [("stdout", &p.stdout), ("stderr", &p.stderr)]
                    .iter()
                    .filter_map(|(name, bytes)| {
                        let text = String::from_utf8_lossy(bytes);
                        let line = text.lines().find(|l| l.contains(&canary))?;
                        let shown = line.replace(&canary, "<canary>");
                        // The part around the canary.
                        let at = shown.find("<canary>").unwrap_or(0);
                        let from = shown
                            .char_indices()
                            .map(|(i, _)| i)
                            .find(|&i| i + 80 >= at)
                            .unwrap_or(0);
                        let window = shown.get(from..).unwrap_or_default();
                        Some(format!("{name}: …{}", excerpt(window)))
                    })
                    .collect(),
            )
        } else if secret_rule.evidence.is_empty() {
            Outcome::new(
                9,
                command,
                Status::Pass,
                format!(
                    "{} <canary>: not echoed ({})",
                    sanitize(&args.secret_flag),
                    p.status()
                ),
            )
        } else {
            Outcome::new(
                9,
                command,
                Status::Fail,
                "aoi:meta.args carries a secret-looking value",
            )
            .with(secret_rule.evidence)
        }
    });
    // 10: early pipe close, SIGINT, SIGTERM.
    out.push({
        let stdin_opts = ProbeOpts {
            keep_stdin_open: true,
            ..base.clone()
        };
        let pipe = run_probe(argv, &ProbeOpts { close_after: Some(1), ..base.clone() }, t);
        let mut problems = Vec::new();
        let mut notes = Vec::new();
        if let Some(trace) = stack_trace(&pipe.stderr_text()) {
            problems.push(format!("early pipe close: stack trace on stderr: {trace}"));
        } else {
            notes.push(format!("early pipe close: {}, no stack trace", pipe.status()));
        }
        let mut untested = Vec::new();
        for (sig, name) in [(libc::SIGINT, "SIGINT"), (libc::SIGTERM, "SIGTERM")] {
            // A command reading stdin is signalled while it waits for more.
            let mut o = if reads_jsonl(caps_cmd) { stdin_opts.clone() } else { base.clone() };
            if o.stdin.is_none() && reads_jsonl(caps_cmd) {
                o.stdin = Some(Vec::new());
            }
            o.signal = Some(sig);
            let p = run_probe(argv, &o, t);
            let jj = judge_bytes(&p.stdout);
            let last = jj.events.last();
            let cancelled = last.is_some_and(|e| e["type"] == "aoi:summary" && e["ok"] == false && e["reason"] == "cancelled");
            // Its summary already written when the signal came: the run had
            // finished, which § 7 does not judge (issue 25).
            let before = p.stdout.get(..p.stdout_at_signal).unwrap_or(&p.stdout);
            let finished = judge_bytes(before).verdict.summary.is_some();
            if !p.signalled_running {
                untested.push(format!("{name}: the run ended before the signal"));
            } else if finished && !cancelled {
                untested.push(format!("{name}: the run had finished before the signal (its aoi:summary was written)"));
            } else if p.held {
                problems.push(format!("{name}: {}", p.status()));
            } else if p.timed_out {
                problems.push(format!("{name}: still running {:?} after the signal (killed)", t));
            } else if cancelled {
                notes.push(format!("{name}: reason:\"cancelled\", {}", p.status()));
            } else if let Some(trace) = stack_trace(&p.stderr_text()) {
                problems.push(format!("{name}: stack trace: {trace}"));
            } else {
                let ending = match last {
                    Some(e) if e["type"] == "aoi:summary" => {
                        let reason = e.get("reason").map_or("absent".to_string(), Value::to_string);
                        format!("a summary ok:{} reason {reason}", e["ok"])
                    }
                    _ => "no aoi:summary".into(),
                };
                problems.push(format!("{name}: {}, {ending} (expected reason:\"cancelled\", § 7)", p.status()));
            }
        }
        if !problems.is_empty() {
            let mut ev = problems.clone();
            ev.extend(notes);
            Outcome::new(10, command, Status::Fail, problems.join("; ")).with(ev)
        } else if untested.len() == 2 {
            Outcome::new(10, command, Status::NotTested, format!("no stack trace on an early pipe close; the run ends too soon to be signalled ({})", untested.join("; "))).with(notes)
        } else {
            let mut ev = notes.clone();
            ev.extend(untested);
            Outcome::new(10, command, Status::Pass, "no stack trace on an early pipe close; SIGINT/SIGTERM end with reason:\"cancelled\"").with(ev)
        }
    });
    // 11: --limit, truncated, next_cursor.
    out.push({
        let bounded = flag(caps_cmd, "bounded") == Some(true)
            && flag(caps_cmd, "supports_cursor") == Some(true)
            || caps_cmd
                .and_then(|c| c.get("supports_limit"))
                .and_then(Value::as_bool)
                == Some(true);
        if d.caps.is_none() {
            unread_caps(11, command)
        } else if !bounded {
            Outcome::new(
                11,
                command,
                Status::NotApplicable,
                "the capabilities advertise no --limit/cursor for this command",
            )
        } else if main.timed_out || j.verdict.summary.is_none() {
            Outcome::new(
                11,
                command,
                Status::NotTested,
                "the invocation itself ends without a summary (check 3)",
            )
        } else {
            let mut lim = argv.to_vec();
            lim.extend(["--limit", "1"].map(String::from));
            let p = run_probe(&lim, &base, t);
            let jj = judge_bytes(&p.stdout);
            let summary = jj.events.last().filter(|e| e["type"] == "aoi:summary");
            let domain = jj.verdict.domain_events;
            match summary {
                _ if p.exit() == exit::USAGE => Outcome::new(
                    11,
                    command,
                    Status::Fail,
                    "advertised as bounded, but --limit is a usage error",
                ),
                None => Outcome::new(
                    11,
                    command,
                    Status::Fail,
                    format!("--limit 1: no terminal summary ({})", p.status()),
                ),
                Some(_) if domain > 1 => Outcome::new(
                    11,
                    command,
                    Status::Fail,
                    format!("--limit 1 gave {domain} domain events"),
                ),
                Some(s) => match s.get("truncated") {
                    Some(Value::Bool(true)) if s.get("next_cursor").is_none_or(Value::is_null) => {
                        Outcome::new(
                            11,
                            command,
                            Status::Fail,
                            "truncated:true without a next_cursor (§ 15)",
                        )
                    }
                    Some(Value::Bool(tr)) => Outcome::new(
                        11,
                        command,
                        Status::Pass,
                        format!("--limit 1: {domain} event(s), truncated:{tr}"),
                    ),
                    _ => Outcome::new(
                        11,
                        command,
                        Status::Fail,
                        "--limit 1: the summary does not say truncated true or false (§ 15)",
                    ),
                },
            }
        }
    });
    // 12: malformed input, as declared.
    out.push({
        let mode = caps_cmd.and_then(|c| c.get("malformed_mode")).and_then(Value::as_str);
        if d.caps.is_none() {
            unread_caps(12, command)
        } else if !reads_jsonl(caps_cmd) {
            Outcome::new(12, command, Status::NotApplicable, "reads no JSON Lines, per the capabilities")
        } else if let Some(mode) = mode {
            let p = run_probe(argv, &ProbeOpts { stdin: Some(malformed_stream()), ..ProbeOpts::default() }, t);
            let jj = judge_bytes(&p.stdout);
            let conforming = jj.findings.iter().all(|f| f.rule.severity() == Severity::Advisory);
            let said = reported(&p, &jj);
            let sent = malformed_stream().len();
            if p.timed_out || stack_trace(&p.stderr_text()).is_some() {
                Outcome::new(12, command, Status::Fail, format!("a malformed input line: {}", p.status()))
            } else if p.stdin_unread == Some(sent) {
                Outcome::new(12, command, Status::NotTested, "the invocation did not read its stdin (it names its input, e.g. a file): lint it reading stdin to test this")
            } else if !conforming {
                Outcome::new(12, command, Status::Fail, "a malformed input line broke the tool's own stream").with(jj.findings.iter().map(evidence_of).collect())
            } else if mode.contains("fail-fast") && p.exit() == 0 {
                Outcome::new(12, command, Status::Fail, "declared whole-input fail-fast, but a malformed line exits 0")
            } else if !said {
                Outcome::new(12, command, Status::Fail, format!("declared {mode}, but a malformed line went unreported (exit 0, no aoi:error)"))
            } else {
                Outcome::new(12, command, Status::Pass, format!("declared {mode}: the malformed line is reported ({}), the output conforms", p.status()))
            }
        } else {
            Outcome::new(12, command, Status::NotTested, "reads JSON Lines but declares no malformed-input mode (§ 12.2)")
        }
    });
    // 13: schema_version on aoi:meta.
    out.push({
        let o = from_findings(13, command, &j, "");
        let meta = j.events.first().filter(|e| e["type"] == "aoi:meta");
        match meta
            .and_then(|m| m.get("schema_version"))
            .and_then(Value::as_str)
        {
            _ if o.status == Status::Fail => o,
            None => Outcome::new(13, command, Status::Fail, "aoi:meta has no schema_version"),
            Some(v) => Outcome::new(
                13,
                command,
                Status::Pass,
                format!(
                    "aoi:meta says schema_version {} (negotiation not probed)",
                    sanitize(v)
                ),
            )
            .with(o.evidence),
        }
    });
    let framed =
        j.verdict.summary.is_some() && j.events.first().is_some_and(|e| e["type"] == "aoi:meta");
    out.push(from_findings(
        14,
        command,
        &j,
        if framed {
            "one aoi:meta first, one aoi:summary last"
        } else {
            // Not "one summary last" of a stream without one: that it is
            // missing is check 3's (or the stream's) finding.
            "no aoi:meta or aoi:summary repeated or out of place"
        },
    ));
    out.push({
        // Lines that are no event (check 2) also make the line count differ
        // from event_count: that is check 2's finding, not a second one.
        let untyped = j.findings.iter().any(|f| f.rule.check() == 2);
        let jf = Judged {
            verdict: j.verdict.clone(),
            findings: j
                .findings
                .iter()
                .filter(|f| !(untyped && f.rule.id() == "summary.event-count"))
                .cloned()
                .collect(),
            events: j.events.clone(),
        };
        let o = from_findings(
            15,
            command,
            &jf,
            "seq contiguous from 0 under one run, reconciled with event_count",
        );
        if o.status == Status::Pass && j.verdict.factors.verifiable {
            o
        } else if o.status == Status::Pass {
            let has_seq = j.events.iter().any(|e| e["aoi"]["seq"].is_u64());
            Outcome::new(
                15,
                command,
                Status::NotApplicable,
                if has_seq {
                    "seq present, but the run could not be reconciled (checks 2 and 3): the Verifiable factor is not shown"
                } else {
                    "no seq: the Verifiable factor is not claimed"
                },
            )
            .with(o.evidence)
        } else {
            o
        }
    });
    // 16: a known upstream stream.
    out.push(if d.caps.is_none() {
        unread_caps(16, command)
    } else if !reads_jsonl(caps_cmd) {
        Outcome::new(
            16,
            command,
            Status::NotApplicable,
            "reads no JSON Lines, per the capabilities",
        )
    } else {
        let p = run_probe(
            argv,
            &ProbeOpts {
                stdin: Some(upstream_stream()),
                ..ProbeOpts::default()
            },
            t,
        );
        let jj = judge_bytes(&p.stdout);
        upstream_check(command, &p, &jj)
    });
    (out, version)
}

/// Check 16 on the output for [`upstream_stream`].
fn upstream_check(command: &str, p: &Probe, j: &Judged) -> Outcome {
    let mut problems = Vec::new();
    for e in &j.events {
        let ty = e["type"].as_str().unwrap_or_default();
        if matches!(ty, "aoi:meta" | "aoi:summary") && e["tool"] == "aoi-lint-upstream" {
            problems.push(format!("the upstream's {ty} was forwarded (§ 13.1)"));
        }
        if ty == "aoi:error" && e["code"] == "LINT_RATE_LIMITED" && e.get("origin").is_none() {
            problems.push("a forwarded aoi:error has no origin (§ 13.1)".into());
        }
    }
    let summary = j.events.last().filter(|e| e["type"] == "aoi:summary");
    match summary {
        None => problems.push(format!("no terminal aoi:summary ({})", p.status())),
        Some(s) if s["ok"] == false => {
            let c = &s["caused_by"];
            if !c.is_object() {
                problems.push("ok:false without caused_by (§ 13.1)".into());
            } else {
                for (k, want) in [
                    ("category", json!("rate_limited")),
                    ("code", json!("LINT_RATE_LIMITED")),
                    ("retryable", json!(true)),
                    ("retry_after_ms", json!(1500)),
                ] {
                    if c.get(k) != Some(&want) {
                        problems.push(format!(
                            "caused_by.{k} is {}, not the upstream's {want}",
                            c.get(k).map_or("absent".into(), short)
                        ));
                    }
                }
            }
        }
        Some(_) => {}
    }
    if problems.is_empty() {
        Outcome::new(
            16,
            command,
            Status::Pass,
            "no upstream meta or summary forwarded, origin on forwarded errors, the retry fields in caused_by",
        )
    } else {
        Outcome::new(16, command, Status::Fail, problems.join("; ")).with(problems)
    }
}

/// The invocations `aoi lint --self` checks: every command that writes a
/// stream of its own, fed a known stream on stdin.
fn self_invocations() -> Vec<(String, Vec<String>)> {
    [
        ("check", &["check", "--output", "jsonl"][..]),
        ("summary", &["summary", "--output", "jsonl"][..]),
        ("errors", &["errors", "--output", "jsonl"][..]),
        ("filter", &["filter", "."][..]),
        ("merge-report", &["merge-report", "--output", "jsonl"][..]),
    ]
    .iter()
    .map(|(c, a)| (c.to_string(), a.iter().map(|s| s.to_string()).collect()))
    .collect()
}

/// The example stream `--self` feeds (a complete, conforming search).
const SELF_INPUT: &[u8] = include_bytes!("../../../examples/search.jsonl");

/// Splits `--tool` words (whitespace; single and double quotes group).
fn split_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() || any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || any {
        out.push(cur);
    }
    out
}

/// Runs `aoi lint`; returns the exit status.
pub fn run(args: &LintArgs) -> i32 {
    let mut results: Vec<Outcome> = Vec::new();
    let mut commands: Vec<String> = Vec::new();
    let title;
    if args.lint_self {
        let exe = match std::env::current_exe() {
            Ok(p) => p.display().to_string(),
            Err(e) => {
                eprint_line(
                    false,
                    &format!("aoi lint: cannot find aoi's own binary: {e}"),
                );
                return exit::SOFTWARE;
            }
        };
        title = "aoi (--self)".to_string();
        let d = discover(std::slice::from_ref(&exe), args);
        results.push(d.outcome.clone());
        for (c, a) in self_invocations() {
            let mut argv = vec![exe.clone()];
            argv.extend(a);
            results.extend(lint_invocation(
                args,
                &argv,
                &c,
                Some(SELF_INPUT.to_vec()),
                &d,
            ));
            commands.push(c);
        }
    } else {
        if args.invocation.is_empty() {
            eprint_line(
                false,
                "aoi lint: give the invocation to check after `--` (e.g. `aoi lint -- mytool search x`), or --self",
            );
            return exit::USAGE;
        }
        // An interpreter runs the tool's script: the tool is both words
        // (`node cli.js`), not `node` (issue 25).
        let found = match &args.tool {
            Some(_) => None,
            None => invocation::interpreter_prefix(&args.invocation),
        };
        let prefix: Vec<String> = match (&args.tool, found) {
            (Some(t), _) => split_words(t),
            (None, Some(n)) => args.invocation.iter().take(n).cloned().collect(),
            (None, None) => args.invocation.iter().take(1).cloned().collect(),
        };
        if found.is_some() {
            eprint_line(
                args.quiet,
                &format!(
                    "aoi lint: the tool is `{}` (an interpreter and what it runs); --tool gives other words",
                    sanitize(&prefix.join(" "))
                ),
            );
        }
        if prefix.is_empty() || !args.invocation.starts_with(&prefix) {
            eprint_line(
                false,
                "aoi lint: --tool must be the first words of the invocation",
            );
            return exit::USAGE;
        }
        let stdin = match &args.stdin {
            Some(p) => match std::fs::read(p) {
                Ok(b) => Some(b),
                Err(e) => {
                    eprint_line(
                        false,
                        &format!("aoi lint: cannot read {}: {e}", p.display()),
                    );
                    return exit::NOINPUT;
                }
            },
            None => None,
        };
        let rest = args.invocation.get(prefix.len()..).unwrap_or_default();
        let command = rest
            .iter()
            .find(|a| !a.starts_with('-'))
            .cloned()
            .unwrap_or_else(|| "(default)".into());
        let mut argv = args.invocation.clone();
        let machine = split_words(&args.machine_flag);
        let appended =
            !machine.is_empty() && !argv.windows(machine.len()).any(|w| w == machine.as_slice());
        if appended {
            argv.extend(machine);
        }
        // A tool that is not there is one message, not 16 rows of "could
        // not run" (issue 25).
        if let Some(program) = argv.first().filter(|p| !runnable(p)) {
            eprint_line(
                false,
                &format!(
                    "aoi lint: {}: command not found (not an executable path, nor in PATH)",
                    sanitize(program)
                ),
            );
            return exit::NOINPUT;
        }
        let broke = if appended {
            flag_breaks(args, &argv, stdin.as_ref())
        } else {
            None
        };
        if let Some(why) = &broke {
            // Lint what the tool writes, not the symptom of the flag.
            argv = args.invocation.clone();
            eprint_line(args.quiet, &format!("aoi lint: {why}"));
        }
        title = sanitize(&argv.join(" "));
        let d = discover(&prefix, args);
        results.push(d.outcome.clone());
        let mut checks = lint_invocation(args, &argv, &command, stdin, &d);
        if let (Some(why), Some(typed)) = (broke, checks.iter_mut().find(|o| o.number == 2)) {
            typed.evidence.insert(0, why);
        }
        results.extend(checks);
        commands.push(command);
    }
    let failed = results.iter().filter(|o| o.status == Status::Fail).count();
    let code = if failed > 0 { exit::FAILED } else { exit::OK };
    let tty = io::stdout().is_terminal();
    // Every non-zero exit says why on stderr, where the report may be in a
    // file; the table on a terminal already ends with it (issue 24).
    let table_here = tty && args.output != Some(Format::Jsonl);
    if failed > 0 && !args.quiet && !table_here {
        let first = results.iter().find(|o| o.status == Status::Fail);
        let what = first.map_or_else(String::new, |o| {
            format!(
                "; the first: check {} ({}): {}",
                o.number,
                sanitize(&o.command),
                sanitize(&o.detail)
            )
        });
        eprint_line(
            false,
            &format!("aoi lint: exit 1: {failed} check(s) failed{what}"),
        );
    }
    if args.output == Some(Format::Jsonl) {
        return write_jsonl(&results, code);
    }
    let color = args.color.enabled(tty);
    let text = table(&title, &results, &commands, color);
    match crate::out::print_stdout("lint", &text) {
        exit::OK => code,
        other => other,
    }
}

fn paint(s: &str, status: Status, color: bool) -> String {
    if !color {
        return s.to_string();
    }
    let c = match status {
        Status::Pass => "32",
        Status::Fail => "31;1",
        Status::NotTested => "33",
        Status::NotApplicable => "2",
    };
    format!("\u{1b}[{c}m{s}\u{1b}[0m")
}

/// The human report: every check, the factors × commands matrix, the
/// failures with their evidence, and the verdict.
fn table(title: &str, results: &[Outcome], commands: &[String], color: bool) -> String {
    let mut s = format!("aoi lint: {title}\n\n");
    s.push_str(&format!(
        "  {:>2}  {:<22} {:<14} {:<11} {}\n",
        "#", "check", "command", "result", "detail"
    ));
    for o in results {
        let status = format!("{:<11}", o.status.name());
        s.push_str(&format!(
            "  {:>2}  {:<22} {:<14} {} {}\n",
            o.number,
            check_name(o.number),
            o.command,
            paint(&status, o.status, color),
            o.detail
        ));
    }
    s.push_str("\nfactors × commands (a factor holds for a command when every check of it that ran passed)\n");
    let width = commands.iter().map(|c| c.len()).max().unwrap_or(0).max(10);
    s.push_str(&format!("  {:<13}", "factor"));
    for c in commands {
        s.push_str(&format!(" {c:<width$}"));
    }
    s.push('\n');
    for f in FACTORS {
        s.push_str(&format!("  {f:<13}"));
        for c in commands {
            let st = results
                .iter()
                .filter(|o| {
                    (o.command == *c || o.command == "*") && check_factors(o.number).contains(f)
                })
                .map(|o| o.status)
                .max_by_key(|s| s.rank())
                .unwrap_or(Status::NotApplicable);
            let cell = format!("{:<width$}", st.name());
            s.push_str(&format!(" {}", paint(&cell, st, color)));
        }
        s.push('\n');
    }
    let failures: Vec<&Outcome> = results
        .iter()
        .filter(|o| o.status == Status::Fail)
        .collect();
    if !failures.is_empty() {
        s.push_str("\nfailed checks\n");
        for o in &failures {
            s.push_str(&format!(
                "  {} {} ({}): {}\n",
                o.number,
                check_name(o.number),
                o.command,
                o.detail
            ));
            for e in o.evidence.iter().take(5) {
                s.push_str(&format!("      {e}\n"));
            }
        }
    }
    let count = |st: Status| results.iter().filter(|o| o.status == st).count();
    s.push_str(&format!(
        "\naoi lint: {} check(s) failed, {} passed, {} not tested, {} not applicable\n",
        count(Status::Fail),
        count(Status::Pass),
        count(Status::NotTested),
        count(Status::NotApplicable)
    ));
    s
}

/// `--output jsonl`: a conforming stream of `aoi:check` events (§ 8.3),
/// one per (check × command), and a summary.
fn write_jsonl(results: &[Outcome], code: i32) -> i32 {
    let mut sinks = Sinks::report_to_stdout();
    let r = (|| -> Result<(), Stop> {
        sinks.out.meta("lint", Vec::new())?;
        for o in results {
            let severity = match o.status {
                Status::Fail => "error",
                Status::NotTested => "warning",
                _ => "info",
            };
            let status = match o.status {
                Status::Pass => "pass",
                Status::Fail => "fail",
                Status::NotApplicable => "not_applicable",
                Status::NotTested => "not_tested",
            };
            sinks.out.event(
                "aoi:check",
                &[
                    (
                        "name",
                        format!("{}.{}", o.number, check_name(o.number)).into(),
                    ),
                    ("ok", (o.status != Status::Fail).into()),
                    ("severity", severity.into()),
                    ("detail", o.detail.clone().into()),
                    (
                        "properties",
                        json!({
                            "check": o.number,
                            "factors": check_factors(o.number),
                            "command": o.command,
                            "status": status,
                            "evidence": o.evidence,
                        }),
                    ),
                ],
            )?;
        }
        let count = |st: Status| results.iter().filter(|o| o.status == st).count();
        let summary = if code == exit::OK {
            Summary::ok()
        } else {
            Summary::failed(Reason::Failed)
        };
        sinks.out.finish(&summary.field(
            "properties",
            json!({
                "checks": results.len(),
                "passed": count(Status::Pass),
                "failed": count(Status::Fail),
                "not_tested": count(Status::NotTested),
                "not_applicable": count(Status::NotApplicable),
                "exit_code": code,
            }),
        ))
    })();
    match r {
        Ok(()) => code,
        Err(stop) => sinks.end("lint", stop),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_with_quotes() {
        assert_eq!(
            split_words("python3 'my tool.py'"),
            ["python3", "my tool.py"]
        );
        assert_eq!(split_words("--format jsonl"), ["--format", "jsonl"]);
        assert!(split_words("").is_empty());
    }

    #[test]
    fn rules_map_to_checks() {
        use RuleId::*;
        // A wrong count is check 15's only in a stream with seq (§ 18 #15).
        let with_seq = judge_bytes(b"{\"type\":\"aoi:meta\",\"aoi\":{\"seq\":0,\"run\":\"r\"}}\n");
        let without = judge_bytes(b"{\"type\":\"aoi:meta\"}\n");
        assert_eq!(check_in(SummaryCount, &with_seq), 15);
        assert_eq!(check_in(SummaryCount, &without), 3);
        assert_eq!(check_in(SeqGap, &without), 15);
        // Every rule maps to a check that exists (the catalog's map is
        // pinned in tests/golden/rules.txt).
        for r in RuleId::ALL {
            assert!(CHECKS.iter().any(|c| c.0 == r.check()), "{}", r.id());
        }
    }

    #[test]
    fn the_validator_reads_aoi_schema() {
        let s = crate::cmd::schema::schema();
        assert!(schema_problems(&s).is_empty(), "{:?}", schema_problems(&s));
        let good = json!({"type":"aoi:error","aoi":{"seq":1,"run":"R"},"category":"io","code":"X","message":"m","retryable":false});
        let mut p = Vec::new();
        validate(&s, &s, &good, "", &mut p, 0);
        assert!(p.is_empty(), "{p:?}");
        let bad = json!({"type":"aoi:error","aoi":{"seq":1,"run":"R"},"category":"io","code":"X","message":"m","retryable":false,"retry_after_ms":5});
        let mut p = Vec::new();
        validate(&s, &s, &bad, "", &mut p, 0);
        assert!(!p.is_empty());
    }

    /// The numeric, array and object keywords, an integer written 2.0,
    /// and the keywords left unchecked named rather than passed in silence
    /// (found by review).
    #[test]
    fn the_validator_checks_more_keywords_and_names_the_rest() {
        let problems = |schema: Value, v: Value| {
            let mut p = Vec::new();
            validate(&schema, &schema, &v, "", &mut p, 0);
            p
        };
        for (schema, good, bad) in [
            (json!({"type":"integer"}), json!(2.0), json!(2.5)),
            (json!({"exclusiveMinimum":0}), json!(1), json!(0)),
            (json!({"exclusiveMaximum":10}), json!(9.5), json!(10)),
            (json!({"multipleOf":0.5}), json!(1.5), json!(1.2)),
            (json!({"minItems":1,"maxItems":2}), json!([1]), json!([])),
            (json!({"maxItems":1}), json!([1]), json!([1, 2])),
            (json!({"uniqueItems":true}), json!([1, 2]), json!([1, 1])),
            (json!({"minProperties":1}), json!({"a":1}), json!({})),
            (
                json!({"maxProperties":1}),
                json!({"a":1}),
                json!({"a":1,"b":2}),
            ),
            (
                json!({"propertyNames":{"maxLength":2}}),
                json!({"ab":1}),
                json!({"abc":1}),
            ),
        ] {
            assert!(
                problems(schema.clone(), good.clone()).is_empty(),
                "{schema} {good}"
            );
            assert!(
                !problems(schema.clone(), bad.clone()).is_empty(),
                "{schema} {bad}"
            );
        }
        let s = json!({"properties":{"tool":{"pattern":"^[a-z]+$"},"t":{"format":"date-time"}}});
        assert_eq!(unchecked_keywords(&s), vec!["format", "pattern"]);
    }

    #[test]
    fn ids() {
        assert!(id_is_public("https://example.org/s.json"));
        assert!(!id_is_public("file:///opt/data/bin/schema.json"));
        assert!(!id_is_public("/opt/schema.json"));
    }
}
