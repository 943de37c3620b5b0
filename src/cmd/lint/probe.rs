//! One probe: the tool run once, the way every check runs it. It gets its
//! own process group under a timeout, so a hung tool is a finding and not
//! a hung lint (§ 18), and what it did is kept in a [`Probe`]: exit,
//! signal, output, and whether it outlived the timeout or held its pipes.

use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::pipes::{self, Readers, StdinPipe};
use crate::spec::exit;

/// What a probe does besides running the command.
#[derive(Default, Clone)]
pub(super) struct ProbeOpts {
    pub(super) stdin: Option<Vec<u8>>,
    /// Keep stdin open after writing (a silent upstream).
    pub(super) keep_stdin_open: bool,
    /// Only `PATH` in the environment (§ 3).
    pub(super) reduced_env: bool,
    /// The directory it runs in (discovery: an empty one, § 3.2).
    pub(super) cwd: Option<std::path::PathBuf>,
    /// In a new network namespace (`unshare -rn`).
    pub(super) no_network: bool,
    /// Close stdout after reading this many bytes.
    pub(super) close_after: Option<usize>,
    /// Send this signal once the first line arrived (or a moment passed).
    pub(super) signal: Option<i32>,
}

/// What a probe saw.
#[derive(Debug, Default, Clone)]
pub(super) struct Probe {
    pub(super) code: Option<i32>,
    pub(super) signal: Option<i32>,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
    pub(super) timed_out: bool,
    /// Its stdout or stderr stayed open after it ended (a process it
    /// started and that left its group holds them): counted as timed out.
    pub(super) held: bool,
    /// The signal was sent while the process was still running.
    pub(super) signalled_running: bool,
    /// Bytes of stdout the tool had written when the signal was sent (read,
    /// or still in the pipe).
    pub(super) stdout_at_signal: usize,
    pub(super) spawn_error: Option<String>,
    /// Bytes of the stdin given that the tool left unread (when lint could
    /// tell: a small input, written whole before the tool ended).
    pub(super) stdin_unread: Option<usize>,
}

impl Probe {
    /// The status as a shell would give it (128 + signal).
    pub(super) fn exit(&self) -> i32 {
        self.code
            .or(self.signal.map(|s| 128 + s))
            .unwrap_or(exit::SOFTWARE)
    }
    pub(super) fn status(&self) -> String {
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
    pub(super) fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    fn failed_to_spawn(why: String) -> Probe {
        Probe {
            spawn_error: Some(why),
            ..Probe::default()
        }
    }
}

/// How many times lint ran the tool (discovery included): every run is
/// reported (no unreported runs).
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// The number of runs of the tool so far.
pub(super) fn runs() -> usize {
    RUNS.load(Ordering::Relaxed)
}

/// Runs the tool once, as one probe under `timeout`; counted in [`runs`].
pub(super) fn run_probe(argv: &[String], opts: &ProbeOpts, timeout: Duration) -> Probe {
    RUNS.fetch_add(1, Ordering::Relaxed);
    run_program(argv, opts, timeout)
}

/// `argv` as a line of evidence: `ran `ARGV`: STATUS`.
pub(super) fn ran(argv: &[String], p: &Probe) -> String {
    format!("ran `{}`: {}", shown(argv), p.status())
}

/// Words as lint shows them: secret-looking values redacted (§ 11: lint
/// must not echo the user's `--api-key` either), lint's own canary as
/// `<canary>`, quoted as a shell would read them.
pub(super) fn shown(argv: &[String]) -> String {
    let words = argv
        .iter()
        .map(|w| match w.starts_with("aoi-lint-canary-") {
            true => "<canary>".to_string(),
            false => w.clone(),
        });
    let (words, _) = crate::emit::redact_args(words);
    let joined =
        shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "));
    joined.replace("'<canary>'", "<canary>")
}

/// Runs a program that is not the tool (lint's own helpers) under
/// `timeout`, as a probe, uncounted.
pub(super) fn run_program(argv: &[String], opts: &ProbeOpts, timeout: Duration) -> Probe {
    let mut words: Vec<String> = Vec::new();
    if opts.no_network {
        words.extend(["unshare", "-rn", "--"].map(String::from));
    }
    words.extend(argv.iter().cloned());
    let Some((prog, rest)) = words.split_first() else {
        return Probe::failed_to_spawn("empty command".into());
    };
    let (mut cmd, stdin_pipe) = command(prog, rest, opts);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Probe::failed_to_spawn(format!("{prog}: {e}")),
    };
    // The child's end of the stdin pipe is the child's alone now.
    drop(cmd);
    let (writer, peek_end) = pipes::stdin_ends(stdin_pipe, &mut child);
    let start = Instant::now();
    let deadline = start + timeout;
    let stdin = pipes::write_stdin(writer, opts.stdin.clone(), opts.keep_stdin_open);
    let readers = pipes::read_outputs(&mut child, opts.close_after);
    let mut probe = Probe::default();
    if let Some(sig) = opts.signal {
        signal_once_started(&mut child, sig, start + timeout / 2, &readers, &mut probe);
    }
    let status = wait_until(&mut child, deadline, &mut probe);
    // What the tool left of its stdin. An input of at most a page fits
    // any pipe, so it was written whole whether or not the tool read it.
    if let (Some(end), Some(bytes)) = (&peek_end, &opts.stdin) {
        if bytes.len() <= 4096 && stdin.written.recv().is_ok() {
            probe.stdin_unread = Some(pipes::unread_in_pipe(end.as_raw_fd()));
        }
    }
    drop(peek_end);
    // Whatever it started may still hold the pipes: end the group.
    kill_group(&child);
    let _ = stdin.done.send(());
    await_readers(&readers, deadline, &mut probe);
    // The stdin writer may block on a pipe such a process holds: it is
    // left to end with it, as are the readers.
    if let Some(t) = stdin.thread.filter(|t| t.is_finished() || !probe.held) {
        let _ = t.join();
    }
    probe.stdout = readers.stdout.lock().map(|g| g.clone()).unwrap_or_default();
    probe.stderr = readers.stderr.lock().map(|g| g.clone()).unwrap_or_default();
    if let Some(s) = status {
        probe.code = s.code();
        probe.signal = s.signal();
    }
    probe
}

/// The command of a probe, with its environment and pipes, in its own
/// process group; and the stdin pipe lint keeps a second reading end of.
fn command(prog: &str, rest: &[String], opts: &ProbeOpts) -> (Command, Option<StdinPipe>) {
    let mut cmd = Command::new(prog);
    cmd.args(rest);
    if let Some(dir) = &opts.cwd {
        cmd.current_dir(dir);
    }
    if opts.reduced_env {
        cmd.env_clear();
        if let Some(p) = std::env::var_os("PATH") {
            cmd.env("PATH", p);
        }
    }
    // stdin: a pipe of which lint keeps a reading end too, to tell after
    // the run whether the tool read it at all (check 12).
    let stdin_pipe = opts.stdin.as_ref().and_then(|_| pipes::stdin_pipe());
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
    (cmd, stdin_pipe)
}

/// Sends `sig` once the tool wrote its first line, so a slow start on a
/// busy machine is not blamed on the tool; at the latest at `until`.
/// (Its signal dispositions tell nothing: sh and Python catch SIGINT from
/// their first instruction.)
fn signal_once_started(
    child: &mut Child,
    sig: i32,
    until: Instant,
    readers: &Readers,
    probe: &mut Probe,
) {
    while readers.first_line.try_recv().is_err()
        && matches!(child.try_wait(), Ok(None))
        && Instant::now() < until
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    if matches!(child.try_wait(), Ok(None)) {
        probe.signalled_running = true;
        // What the tool had written: read by the reader, or waiting in
        // the pipe (the reader holds it open while the tool runs).
        let read = readers.stdout.lock().map(|g| g.len()).unwrap_or(0);
        probe.stdout_at_signal = read + readers.stdout_fd.map_or(0, pipes::unread_in_pipe);
        // SAFETY: kill on our own child's pid.
        unsafe {
            libc::kill(child.id() as i32, sig);
        }
    }
}

/// Waits for the tool to end; past `deadline` its group is killed and the
/// probe timed out.
fn wait_until(child: &mut Child, deadline: Instant, probe: &mut Probe) -> Option<ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) => {}
            Err(_) => return None,
        }
        if Instant::now() >= deadline {
            probe.timed_out = true;
            kill_group(child);
            return child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// SIGKILL to the probe's process group (it may already be gone).
fn kill_group(child: &Child) {
    // SAFETY: the child leads its own process group; kill on a group
    // that is gone fails cleanly.
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
}

/// Waits for the readers to see the end of stdout and stderr.
///
/// The pipes close when the last process holding them ends: with the
/// group gone, only one that left it (setsid) can hold them. The wait
/// for that is bounded by the probe's timeout (and a moment past a
/// process that ended by itself); a pipe still held then is a hang to
/// whoever reads the tool's output, reported as one (`--timeout` was
/// not honoured otherwise: the readers were joined without a limit).
fn await_readers(readers: &Readers, deadline: Instant, probe: &mut Probe) {
    let grace = Instant::now() + Duration::from_millis(500);
    let until = deadline.max(grace);
    for _ in 0..readers.count {
        let left = until.saturating_duration_since(Instant::now());
        if readers.done.recv_timeout(left).is_err() {
            probe.held = true;
            probe.timed_out = true;
            break;
        }
    }
}

/// A language runtime's stack trace or panic in `stderr`, if any (§ 7,
/// § 18 checks 5 and 10).
pub(super) fn stack_trace(stderr: &str) -> Option<String> {
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
        // Ruby (`tool.rb:12:in `write': Broken pipe (Errno::EPIPE)`),
        // PHP, Java/Scala, .NET, Deno (found by review).
        ":in `",
        "(Errno::",
        "Stack trace:",
        "PHP Fatal error",
        "\tat ",
        "   at System.",
        "error: Uncaught",
    ];
    let mark = stderr
        .lines()
        .find(|l| MARKS.iter().any(|m| l.contains(m)))?;
    // The trace's own last line names the error (the marker
    // alone said a trace was there, not what it was).
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(mark);
    Some(match last.trim() == mark.trim() {
        true => mark.trim().to_string(),
        false => format!("{} … {}", mark.trim(), last.trim()),
    })
}

/// [`excerpt`] of bytes a probe wrote (lossy UTF-8): its lines joined,
/// never a newline shown as U+FFFD.
pub(super) fn bytes_excerpt(b: &[u8]) -> String {
    match b.is_empty() {
        true => "(nothing)".into(),
        false => excerpt(&String::from_utf8_lossy(b)),
    }
}

/// Up to three lines of a probe's output on one line, cut at 200
/// characters: evidence a table row can carry (made safe where the
/// report is written).
pub(super) fn excerpt(s: &str) -> String {
    let one: String = s.lines().take(3).collect::<Vec<_>>().join(" | ");
    if one.chars().count() > 200 {
        one.chars().take(200).collect::<String>() + "…"
    } else {
        one
    }
}
