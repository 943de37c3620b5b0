//! SIGINT and SIGTERM mid-stream (§ 7): a command that writes a stream of
//! its own ends it with `aoi:summary` `ok:false`, `reason:"cancelled"` and
//! exits 130 (SIGINT) or 143 (SIGTERM); a relay stops promptly with what it
//! relayed intact. The signals are sent to the real process while it waits
//! for input on a pipe that stays open (a silent upstream).

use std::io::Write;
use std::process::{Child, Stdio};

use serde_json::Value;

use crate::util::*;
use crate::waits::{signal, signal_taken, wait_exit, wait_idle};

/// The grace period these tests give a stopping aoi (`AOI_STOP_GRACE`):
/// long enough that a busy machine never makes aoi exit by it before it
/// wrote its summary; the tests of the grace period itself set their own.
const GRACE: &str = "600";

/// aoi, spawned on a pipe we keep open.
struct Running {
    child: Child,
    stdin: std::process::ChildStdin,
}

/// Spawns aoi, writes `first` and waits until aoi has done all it can with
/// it and waits for more (its handlers are installed before it reads).
fn start(args: &[&str], first: &[u8]) -> Running {
    let r = start_reading(args, first);
    wait_idle(r.child.id(), &r.stdin, &format!("{args:?}"));
    r
}

/// Spawns aoi and writes `first`, which aoi may still be busy with.
fn start_reading(args: &[&str], first: &[u8]) -> Running {
    // A relay stops at once here (no drain): the upstream is this test,
    // which stays silent; draining has tests of its own.
    let mut child = spawn_piped_env(args, &[("AOI_STOP_GRACE", GRACE), ("AOI_STOP_DRAIN", "0")]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(first).expect("feed aoi");
    stdin.flush().expect("flush");
    Running { child, stdin }
}

/// Sends `sigs` in order, each after the one before was taken (pending
/// signals of one kind merge), and waits for the exit.
fn stop(mut r: Running, sigs: &[libc::c_int]) -> Out {
    let pid = r.child.id();
    let (out, err) = drain(&mut r.child);
    for (i, &s) in sigs.iter().enumerate() {
        if i + 1 < sigs.len() {
            signal_taken(pid, s);
        } else {
            signal(pid, s);
        }
    }
    let status = wait_exit(&mut r.child, &format!("aoi after {sigs:?}"));
    drop(r.stdin);
    Out {
        code: code_of(status),
        stdout: out.join().expect("stdout reader"),
        stderr: String::from_utf8_lossy(&err.join().expect("stderr reader")).into_owned(),
    }
}

fn last_event(bytes: &[u8]) -> Value {
    parse_jsonl(bytes).pop().expect("at least one event")
}

fn assert_cancelled_report(out: &Out, code: i32, sig_name: &str) {
    assert_eq!(out.code, code, "stderr: {}", out.stderr);
    let last = last_event(&out.stdout);
    assert_eq!(last["type"], "aoi:summary", "{}", out.stdout_str());
    assert_eq!(last["ok"], false);
    assert_eq!(last["reason"], "cancelled");
    assert!(
        out.stderr.contains(&format!("cancelled by {sig_name}")),
        "stderr: {}",
        out.stderr
    );
    // A cancelled report still reconciles: seq, event_count, counters.
    assert_conforming_report(&out.stdout, 130);
}

/// The head of a stream that never ends: meta and three hits.
fn head() -> Vec<u8> {
    s().hits(3).no_summary().bytes()
}

#[test]
fn check_report_on_stdout_ends_cancelled_on_sigint() {
    if !crate::waits::proc_here() {
        return;
    }
    let r = start(&["check", "--output", "jsonl"], &head());
    let out = stop(r, &[libc::SIGINT]);
    assert_cancelled_report(&out, 130, "SIGINT");
    // No stream verdict for a stream that was not read to its end.
    assert!(
        !parse_jsonl(&out.stdout)
            .iter()
            .any(|e| e["type"] == "stream" || e["rule"] == "summary.missing"),
        "{}",
        out.stdout_str()
    );
}

#[test]
fn check_relay_with_report_file_ends_cancelled_on_sigterm() {
    if !crate::waits::proc_here() {
        return;
    }
    let dir = scratch("sig-report");
    let report = dir.join("report.jsonl");
    let input = head();
    let r = start(
        &["check", "--report", report.to_str().expect("utf-8")],
        &input,
    );
    let out = stop(r, &[libc::SIGTERM]);
    assert_eq!(out.code, 143, "stderr: {}", out.stderr);
    // The relay is what was read, byte for byte.
    assert_eq!(out.stdout, input);
    let rep = std::fs::read(&report).expect("report written");
    let last = last_event(&rep);
    assert_eq!(last["reason"], "cancelled");
    assert_conforming_report(&rep, 130);
}

#[test]
fn filter_ends_cancelled_with_the_results_so_far() {
    if !crate::waits::proc_here() {
        return;
    }
    // One thread, and the filter on workers (`--threads 2`): what was
    // read before the signal is filtered and written.
    for args in [
        &["filter", "."][..],
        &["filter", "--threads", "2", "select(true)"],
    ] {
        let r = start(args, &head());
        let out = stop(r, &[libc::SIGINT]);
        assert_cancelled_report(&out, 130, "SIGINT");
        let hits = parse_jsonl(&out.stdout)
            .iter()
            .filter(|e| e["type"] == "hit")
            .count();
        assert_eq!(hits, 3, "{args:?}: {}", out.stdout_str());
        assert_eq!(last_event(&out.stdout)["count"], 3, "{args:?}");
    }
}

#[test]
fn errors_jsonl_ends_cancelled_on_sigterm() {
    if !crate::waits::proc_here() {
        return;
    }
    let input = s()
        .ev(r#"{"type":"aoi:error","category":"io","code":"X","message":"m","retryable":false}"#)
        .no_summary()
        .bytes();
    let r = start(&["errors", "--output", "jsonl"], &input);
    let out = stop(r, &[libc::SIGTERM]);
    assert_cancelled_report(&out, 143, "SIGTERM");
    let forwarded = parse_jsonl(&out.stdout)
        .iter()
        .filter(|e| e["type"] == "aoi:error")
        .count();
    assert_eq!(forwarded, 1, "{}", out.stdout_str());
}

#[test]
fn merge_report_and_summary_jsonl_end_cancelled() {
    if !crate::waits::proc_here() {
        return;
    }
    for args in [
        &["merge-report", "--output", "jsonl"][..],
        &["summary", "--output", "jsonl"][..],
    ] {
        let r = start(args, &head());
        let out = stop(r, &[libc::SIGINT]);
        assert_cancelled_report(&out, 130, "SIGINT");
    }
}

/// The filter spins on the first event without output: the first SIGINT
/// is noted, the second ends the process (§ 7: promptly). The grace period
/// is long here, so only the second signal can end it.
#[test]
fn a_second_signal_exits_at_once() {
    if !crate::waits::proc_here() {
        return;
    }
    let r = start_reading(&["filter", "last(range(1e15))"], &head());
    crate::waits::wait_until("aoi read its input", || crate::waits::unread(&r.stdin) == 0);
    let out = stop(r, &[libc::SIGINT, libc::SIGINT]);
    assert_eq!(out.code, 130, "stderr: {}", out.stderr);
    assert!(!out.stderr.contains("panic"), "{}", out.stderr);
}

#[test]
fn a_plain_relay_stops_promptly() {
    if !crate::waits::proc_here() {
        return;
    }
    let input = head();
    let r = start(&["check", "-q"], &input);
    let out = stop(r, &[libc::SIGINT]);
    assert_eq!(out.code, 130);
    assert_eq!(out.stdout, input);
}

/// A full pipe nobody reads: the first signal cannot end the write, the
/// grace period (1 s here) ends the process (§ 7: promptly, even without
/// a summary). The signal comes once aoi is blocked in its write: its
/// stdout pipe is full and every thread of it sleeps.
#[test]
fn a_stop_blocked_in_a_write_ends_after_the_grace_period() {
    if !crate::waits::proc_here() {
        return;
    }
    let big: Vec<u8> = s().hits(20_000).bytes();
    let mut child = crate::util::command(AOI)
        .args(["filter", "."])
        .env("AOI_STOP_GRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn aoi");
    let mut sin = child.stdin.take().expect("stdin");
    let (close, closed) = std::sync::mpsc::channel::<()>();
    let feeder = std::thread::spawn(move || {
        // Fails once aoi is gone; kept open until then, so aoi never sees
        // the end of its input.
        let _ = sin.write_all(&big);
        let _ = closed.recv();
    });
    // Nobody reads stdout: aoi fills the pipe and blocks in write().
    let out = child.stdout.take().expect("stdout");
    let pid = child.id();
    let full = crate::waits::capacity(&out).expect("a pipe's capacity, shown where /proc is");
    crate::waits::wait_until("aoi blocked on a full stdout", || {
        // Within one page of full: a write of a page or less waits for
        // room for all of it.
        crate::waits::unread(&out) + 4096 >= full
    });
    // In the write itself, not asleep on stdin with the pipe nearly full
    // (a summary would then still fit).
    if crate::waits::in_write(pid, 1).is_none() {
        crate::util::notice(
            "/proc/PID/task/*/syscall is not readable here; a stop in a write not tested",
        );
        let _ = child.kill();
        let _ = child.wait();
        drop(close);
        return;
    }
    crate::waits::wait_until("aoi asleep in its write to stdout", || {
        crate::waits::in_write(pid, 1) == Some(true) && crate::waits::asleep(pid)
    });
    signal(pid, libc::SIGTERM);
    let status = wait_exit(&mut child, "aoi blocked in a write after SIGTERM");
    assert_eq!(code_of(status), 143);
    // What the pipe holds is relayed output, never a summary: the write
    // was never finished.
    let mut held = Vec::new();
    std::io::Read::read_to_end(&mut { out }, &mut held).expect("read stdout");
    assert!(!String::from_utf8_lossy(&held).contains("aoi:summary"));
    drop(close);
    feeder.join().expect("feeder");
}

/// A signal the parent ignores (`trap '' INT`, background jobs) stays
/// ignored: the run ends normally when its input does. (Were it handled,
/// the stop request would stand, and the rest of the stream would end in
/// a cancelled summary and 130.)
#[test]
fn an_inherited_sig_ign_stays_ignored() {
    if !crate::waits::proc_here() {
        return;
    }
    use std::os::unix::process::CommandExt;
    let mut cmd = crate::util::command(AOI);
    cmd.args(["check", "--output", "jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("spawn aoi");
    let mut sin = child.stdin.take().expect("stdin");
    sin.write_all(&head()).expect("feed");
    wait_idle(child.id(), &sin, "aoi check");
    signal(child.id(), libc::SIGINT);
    // The rest of the stream arrives and ends it.
    let rest = format!(
        "{}\n",
        r#"{"type":"aoi:summary","aoi":{"seq":4,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6"},"ok":true,"count":3,"event_count":5,"tool":"outline","tool_version":"1.8.2","aoi_version":"1.0-alpha","schema_name":"com.example.outline.events","schema_version":"1.0.0"}"#
    );
    sin.write_all(rest.as_bytes()).expect("feed");
    drop(sin);
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        code_of(out.status),
        0,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The cancelled summary counts what was consumed before the stop (§ 8.3):
/// a whole file first, then a silent stdin.
#[test]
fn a_cancelled_summary_counts_what_was_consumed() {
    if !crate::waits::proc_here() {
        return;
    }
    let dir = scratch("sig-consumed");
    let file = write_file(
        &dir,
        "one.jsonl",
        &s().hits(2)
            .ev(r#"{"type":"aoi:warning","code":"W","message":"m"}"#)
            .bytes(),
    );
    let r = start(&["check", "--output", "jsonl", &file, "-"], &head());
    let out = stop(r, &[libc::SIGTERM]);
    assert_eq!(out.code, 143, "{}", out.stderr);
    let last = last_event(&out.stdout);
    assert_eq!(last["reason"], "cancelled");
    // 2 hits and a warning from the file, 3 hits read from stdin.
    assert_eq!(last["input_count"], 5, "{last}");
    assert_eq!(last["warning_count"], 1, "{last}");
    assert_conforming_report(&out.stdout, 130);
}

/// On two threads the reading thread waits on the pipe while the judging
/// thread waits for lines: a stop reaches the reader whichever thread the
/// signal lands on (the reader polls the stop request beside its input),
/// and the run still ends with its cancelled summary (§ 7), not by the
/// grace period's bare exit. Two threads from the start (`--threads 2`)
/// and, by default, once a pipe has carried 8 MiB.
#[test]
fn a_stop_reaches_a_second_thread_waiting_on_a_silent_pipe() {
    if !crate::waits::proc_here() {
        return;
    }
    let small = head();
    let big = s().hits(150_000).no_summary().bytes();
    assert!(big.len() > 9 << 20, "past the switch to two threads");
    let error =
        r#"{"type":"aoi:error","category":"io","code":"X","message":"m","retryable":false}"#;
    let small_errors = s().ev(error).no_summary().bytes();
    let big_errors = s().hits(150_000).ev(error).no_summary().bytes();
    let cases: [(&[&str], &[u8], i32); 9] = [
        (
            &["check", "--output", "jsonl", "--threads", "2"],
            &small,
            libc::SIGINT,
        ),
        (
            &["summary", "--output", "jsonl", "--threads", "2"],
            &small,
            libc::SIGTERM,
        ),
        (
            &["errors", "--output", "jsonl", "--threads", "2"],
            &small_errors,
            libc::SIGINT,
        ),
        (
            &["merge-report", "--output", "jsonl", "--threads", "2"],
            &small,
            libc::SIGTERM,
        ),
        (&["filter", "--threads", "2", "."], &small, libc::SIGINT),
        // The judge on its thread, the filter on a worker and this one.
        (
            &["filter", "--threads", "2", "{rank}"],
            &small,
            libc::SIGTERM,
        ),
        (&["check", "--output", "jsonl"], &big, libc::SIGTERM),
        (&["errors", "--output", "jsonl"], &big_errors, libc::SIGINT),
        (&["filter", "select(.rank < 0)"], &big, libc::SIGTERM),
    ];
    for (args, input, sig) in cases {
        let r = start(args, input);
        let out = stop(r, &[sig]);
        let (code, name) = match sig {
            libc::SIGINT => (130, "SIGINT"),
            _ => (143, "SIGTERM"),
        };
        let what = format!("{args:?} on {} bytes", input.len());
        assert_eq!(out.code, code, "{what}: {}", out.stderr);
        assert!(
            parse_jsonl(&out.stdout)
                .last()
                .is_some_and(|e| e["reason"] == "cancelled"),
            "{what}: no cancelled summary: {}",
            out.stderr
        );
        assert_cancelled_report(&out, code, name);
    }
}

/// `producer | aoi check | reader` in a terminal: Ctrl-C sends SIGINT to
/// the whole process group. The producer (§ 7) answers with its
/// `reason:"cancelled"` summary; aoi goes on reading to the end of its
/// input (AOI_STOP_DRAIN), relays it and gives that stream's verdict, so
/// the summary is not lost to a relay that stopped first. With
/// a producer that never ends, the drain's end stops aoi (130).
#[test]
fn ctrl_c_to_the_pipeline_keeps_the_producers_cancelled_summary() {
    use std::os::unix::process::CommandExt;
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/producers/cancellable.sh"
    );
    for (mode, drain) in [("answer", "600"), ("ignore", "1")] {
        let mut producer = crate::util::command(fixture)
            .arg(mode)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("spawn the producer");
        let pgid = producer.id() as libc::pid_t;
        let pipe = producer.stdout.take().expect("producer stdout");
        let mut aoi = crate::util::command(AOI)
            .arg("check")
            .env("AOI_STOP_GRACE", GRACE)
            .env("AOI_STOP_DRAIN", drain)
            .stdin(Stdio::from(pipe))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(pgid)
            .spawn()
            .expect("spawn aoi");
        // Both lines relayed: the producer set its trap before writing
        // them, and aoi has its handlers (installed before it reads).
        let mut out = std::io::BufReader::new(aoi.stdout.take().expect("stdout"));
        let mut head = String::new();
        for _ in 0..2 {
            std::io::BufRead::read_line(&mut out, &mut head).expect("a relayed line");
        }
        assert_eq!(head.lines().count(), 2, "{mode}: {head}");
        let rest = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = std::io::Read::read_to_end(&mut out, &mut v);
            v
        });
        let mut err_pipe = aoi.stderr.take().expect("stderr");
        let err = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = std::io::Read::read_to_end(&mut err_pipe, &mut v);
            v
        });
        // SAFETY: killpg on the process group this test made.
        assert_eq!(unsafe { libc::killpg(pgid, libc::SIGINT) }, 0);
        let status = wait_exit(&mut aoi, &format!("aoi after Ctrl-C ({mode})"));
        // SAFETY: as above; ends the "ignore" producer and its sleep.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        let _ = producer.wait();
        let stdout = rest.join().expect("stdout");
        let stderr = String::from_utf8_lossy(&err.join().expect("stderr")).into_owned();
        assert_eq!(code_of(status), 130, "{mode}: {stderr}");
        if mode == "answer" {
            let last = last_event(&stdout);
            assert_eq!(
                last["reason"], "cancelled",
                "{mode}: the producer's summary is relayed"
            );
            assert!(stderr.contains("upstream cancelled (exit 130)"), "{stderr}");
        } else {
            assert!(stderr.contains("cancelled by SIGINT"), "{stderr}");
        }
    }
}
