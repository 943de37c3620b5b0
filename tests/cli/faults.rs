//! Faults and hostile inputs: closed and full outputs, odd
//! inputs, stops and resumes, huge and deep lines, many runs. aoi never
//! crashes, never hangs, never presents a cut line as whole, and keeps
//! memory bounded. Big inputs are generated on the fly, never committed.

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use crate::optional::peak_rss_kib;
use crate::util::*;

/// No panic, no backtrace, no internal error on stderr.
fn assert_no_crash(out: &Out, what: &str) {
    for bad in ["panicked", "backtrace", "internal error"] {
        assert!(!out.stderr.contains(bad), "{what}: {}", out.stderr);
    }
    assert_ne!(out.code, 70, "{what}: exit 70 ({})", out.stderr);
}

#[test]
fn early_close_is_quiet_for_strip_and_reports() {
    let input = s().hits(100_000).bytes();
    assert_quiet_on_early_close(&["strip"], input.clone());
    assert_quiet_on_early_close(
        &["check", "--output", "jsonl", "--max-per-rule", "1000000"],
        {
            // A report long enough to fill the pipe: one violation per line.
            "not json\n".repeat(600_000).into_bytes()
        },
    );
    assert_quiet_on_early_close(&["strip", "--control"], input);
}

#[test]
fn a_full_report_disk_is_a_clear_error_and_the_relay_stays_whole() {
    if !std::path::Path::new("/dev/full").exists() {
        crate::util::notice("no /dev/full here; skipped");
        return;
    }
    let input = s().hits(5_000).bytes();
    let out = aoi(&["check", "--report", "/dev/full"], &input);
    assert_eq!(out.code, 74, "{}", out.stderr);
    assert!(out.stderr.contains("cannot write report"), "{}", out.stderr);
    // What was relayed is a prefix of the input that ends on a line end.
    assert!(input.starts_with(&out.stdout));
    assert!(out.stdout.is_empty() || out.stdout.ends_with(b"\n"));
    // And the report on stdout to a full disk: exit 74 with a message.
    let o = crate::util::command(AOI)
        .args(["summary", "--output", "jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        )
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all(&input)?;
            c.wait_with_output()
        })
        .expect("run aoi");
    assert_eq!(code_of(o.status), 74);
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write"));
}

#[test]
fn an_unwritable_report_path_is_exit_73_before_anything_is_read() {
    let out = aoi(
        &["check", "--report", "/nonexistent-aoi/dir/r.jsonl"],
        &s().bytes(),
    );
    assert_eq!(out.code, 73, "{}", out.stderr);
    assert!(
        out.stderr.contains("cannot create report"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn odd_inputs_are_usage_or_input_errors_never_crashes() {
    let dir = scratch("odd-inputs");
    // A directory, a missing file.
    for cmd in [
        "check",
        "strip",
        "summary",
        "errors",
        "filter",
        "merge-report",
    ] {
        let mut args = vec![cmd];
        if cmd == "filter" {
            args.push(".");
        }
        let mut with = args.clone();
        let d = dir.to_str().expect("utf-8").to_string();
        with.push(&d);
        let out = aoi(&with, b"");
        assert_no_crash(&out, cmd);
        assert_eq!(out.code, 66, "{cmd} on a directory: {}", out.stderr);
        let mut with = args.clone();
        with.push("/nonexistent-aoi-input.jsonl");
        let out = aoi(&with, b"");
        assert_eq!(out.code, 66, "{cmd} on a missing file: {}", out.stderr);
    }
    // stdin closed altogether (`<&-`): an empty stream, not a crash.
    let o = crate::util::command(AOI)
        .args(["check", "-q"])
        .stdin(Stdio::null())
        .output()
        .expect("run aoi");
    assert_eq!(code_of(o.status), 74);
}

#[test]
fn a_fifo_input_is_read_like_a_pipe() {
    let dir = scratch("fifo");
    let fifo = dir.join("in.fifo");
    let c = std::ffi::CString::new(fifo.to_str().expect("utf-8")).expect("no NUL");
    // SAFETY: a valid C string path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let stream = s().hits(3).bytes();
    let writer = {
        let fifo = fifo.clone();
        let stream = stream.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&fifo)
                .expect("open fifo");
            f.write_all(&stream).expect("write fifo");
        })
    };
    let out = aoi(&["check", fifo.to_str().expect("utf-8")], b"");
    writer.join().expect("writer");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, stream);
}

#[test]
fn stopping_and_resuming_the_process_loses_nothing() {
    let input = s().hits(20_000).bytes();
    let mut child = crate::util::command(AOI)
        .args(["check", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut sin = child.stdin.take().expect("stdin");
    let feed = input.clone();
    let writer = std::thread::spawn(move || {
        for piece in feed.chunks(4096) {
            let _ = sin.write_all(piece);
            std::thread::sleep(Duration::from_micros(200));
        }
    });
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut v);
        v
    });
    // SIGSTOP/SIGCONT and SIGWINCH while it reads: interrupted reads and
    // writes are resumed, the relay is the input, byte for byte.
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(20));
        // SAFETY: signals to our own child.
        unsafe {
            libc::kill(pid, libc::SIGSTOP);
            libc::kill(pid, libc::SIGCONT);
            libc::kill(pid, libc::SIGWINCH);
        }
    }
    writer.join().expect("writer");
    let relayed = reader.join().expect("reader");
    let status = child.wait().expect("wait");
    assert_eq!(code_of(status), 0);
    assert_eq!(relayed, input);
}

#[test]
fn a_huge_line_is_relayed_whole_in_bounded_memory() {
    let dir = scratch("huge-line");
    let path = dir.join("huge.jsonl");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        f.write_all(&s().no_summary().bytes()).expect("write");
        // One 200 MB line (a domain event with a huge string).
        f.write_all(
            br#"{"type":"hit","aoi":{"seq":1,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6"},"blob":""#,
        )
        .expect("write");
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..200 {
            f.write_all(&chunk).expect("write");
        }
        f.write_all(b"\"}\n").expect("write");
    }
    // Valid at any length: the only finding is the missing
    // summary.
    let o = crate::util::command(AOI)
        .args(["check", "--output", "jsonl"])
        .stdin(std::fs::File::open(&path).expect("open"))
        .output()
        .expect("run aoi");
    let events = parse_jsonl(&o.stdout);
    let rules: Vec<&str> = events.iter().filter_map(|e| e["rule"].as_str()).collect();
    assert_eq!(rules, ["summary.missing"]);
    // Relayed whole: the relay of the same input is the input.
    let size = std::fs::metadata(&path).expect("stat").len();
    let relay = crate::util::command(AOI)
        .args(["check", "-q"])
        .stdin(std::fs::File::open(&path).expect("open"))
        .output()
        .expect("run aoi");
    assert_eq!(relay.stdout.len() as u64, size);
    // Memory does not grow with the line: every command that judges it
    // holds a MiB of it at a time. strip keeps the line on disk until the
    // judge has placed it.
    for args in [
        &["check", "-q", "--no-relay"][..],
        &["check", "-q"][..],
        &["strip", "-q"][..],
        &["summary", "-q"][..],
        &["errors", "-q", "--count"][..],
        &["merge-report", "-q", "--log"][..],
    ] {
        if let Some(kib) = peak_rss_kib(args, Some(&path), &[]) {
            assert!(
                kib < 32 * 1024,
                "{args:?}: peak RSS {kib} KiB for a 200 MB line"
            );
        }
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn deep_nesting_is_judged_without_recursion() {
    let depth = 100_000;
    let mut line =
        String::from(r#"{"type":"hit","aoi":{"seq":1,"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6"},"deep":"#);
    line.push_str(&"[".repeat(depth));
    line.push_str(&"]".repeat(depth));
    line.push_str("}\n");
    let mut input = s().no_summary().bytes();
    input.extend_from_slice(line.as_bytes());
    for args in [
        &["check", "-q"][..],
        &["strip", "-q"][..],
        &["summary", "-q"][..],
        &["errors", "-q"][..],
        &["filter", "-q", "."][..],
        &["merge-report", "-q"][..],
    ] {
        let out = aoi(args, &input);
        assert_no_crash(&out, args[0]);
    }
    // The filter refuses to build it (past 10,000 levels) with an item
    // error, and its own stream still conforms.
    let out = aoi(&["filter", "."], &input);
    assert_conforming_report(&out.stdout, fed_back_code(out.code));
}

#[test]
fn many_interleaved_runs_stay_within_max_runs() {
    let dir = scratch("many-runs");
    let path = dir.join("runs.log");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        for i in 0..200_000u64 {
            writeln!(
                f,
                r#"{{"type":"aoi:error","aoi":{{"seq":0,"run":"RUN{i:08}"}},"category":"io","code":"X","message":"m","retryable":false}}"#
            )
            .expect("write");
        }
    }
    let out = aoi_stdin_from(&["errors", "--log", "--count", "--max-runs", "1000"], &path);
    assert_no_crash(&out, "errors");
    assert_eq!(
        out.stdout_str().trim(),
        "200000",
        "every error is still found"
    );
    assert_eq!(
        out.code, 74,
        "runs past --max-runs are not judged: {}",
        out.stderr
    );
    if let Some(kib) = peak_rss_kib(
        &["errors", "--log", "--count", "--max-runs", "1000"],
        Some(&path),
        &[],
    ) {
        assert!(kib < 64 * 1024, "peak RSS {kib} KiB");
    }
    let out = aoi_stdin_from(
        &[
            "merge-report",
            "--log",
            "--format",
            "tap",
            "--max-runs",
            "1000",
        ],
        &path,
    );
    assert_no_crash(&out, "merge-report");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn fuzz_regressions_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let input = std::fs::read(e.path()).expect("read");
        let name = e.file_name().to_string_lossy().into_owned();
        for args in [
            &["check", "-q"][..],
            &["strip", "-q"][..],
            &["filter", "-q", "."][..],
        ] {
            let out = aoi(args, &input);
            assert_no_crash(&out, &name);
        }
        // filter's stream conforms. `aoi check` is the judge here, not
        // serde_json: these inputs hold numbers past f64's range, valid JSON
        // that serde_json cannot read.
        let out = aoi(&["filter", "."], &input);
        let fed = aoi(&["check", "-q", "--no-relay"], &out.stdout);
        assert_eq!(fed.code, fed_back_code(out.code), "{name}: {}", fed.stderr);
        // strip's data plane is JSON objects without an `aoi` member.
        let out = aoi(&["strip", "--no-fail"], &input);
        for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let mut p = aoi::peek::Peeker::new();
            assert!(p.peek(line).is_ok(), "{name}: strip wrote invalid JSON");
            assert_eq!(p.top, Some(aoi::peek::Kind::Object), "{name}");
            assert!(p.aoi_member.is_none(), "{name}: an aoi member survived");
        }
    }
}

/// Terminal-escape injection: upstream text with ESC, CR, BEL, bidi
/// overrides and invalid UTF-8 is neutralised in every human output.
#[test]
fn upstream_text_cannot_drive_the_terminal() {
    let hostile_tool = "to\u{1b}[31mol\u{202e}";
    let mut input = s()
        .meta(&format!(r#"{{"tool":{}}}"#, serde_json::to_string(hostile_tool).expect("json")))
        .ev(r#"{"type":"aoi:error","category":"io","code":"X\u001b]0;pwned\u0007","message":"bad\r\u001b[2Jthing\u0007 \u2066rtl\u2069","retryable":false}"#)
        .no_summary()
        .bytes();
    // A prose line with raw control bytes and invalid UTF-8.
    input.extend_from_slice(b"\x1b[31mred\x07 \xff\xfe text\r\n");
    let dir = scratch("hostile");
    let file = write_file(&dir, "hostile.jsonl", &input);
    let runs: Vec<Vec<&str>> = vec![
        vec!["check", "--color", "never", &file],
        vec!["check", &file],
        vec!["summary", &file],
        vec!["errors", "--output", "table", "--color", "never", &file],
        vec![
            "merge-report",
            "--format",
            "table",
            "--color",
            "never",
            &file,
        ],
        vec!["merge-report", "--format", "markdown", &file],
        vec!["strip", &file],
    ];
    for args in runs {
        let args: Vec<&str> = args
            .into_iter()
            .filter(|a| *a != "--color" && *a != "never")
            .collect();
        let mut cmd = crate::util::command(AOI);
        cmd.args(&args).env("NO_COLOR", "1").stdin(Stdio::null());
        let o = cmd.output().expect("run aoi");
        // check relays and strip writes data on stdout (the input's own
        // bytes, not aoi's text); stderr and everything else is for people.
        let human: Vec<&[u8]> = if args[0] == "strip" || args[0] == "check" {
            vec![&o.stderr]
        } else {
            vec![&o.stdout, &o.stderr]
        };
        for bytes in human {
            let text = String::from_utf8_lossy(bytes);
            for (c, name) in [
                ('\u{1b}', "ESC"),
                ('\r', "CR"),
                ('\u{7}', "BEL"),
                ('\u{202e}', "RLO"),
                ('\u{2066}', "LRI"),
            ] {
                assert!(!text.contains(c), "{args:?} printed {name}: {text}");
            }
        }
    }
}

/// Stdout gone before anything is written, for the commands whose
/// output comes at the end (a summary, a merged report, a lint table): a
/// quiet end, 141 or 0, never a message or a panic.
#[test]
fn a_closed_stdout_is_quiet_for_end_of_run_outputs() {
    use crate::util::assert_quiet_when_stdout_is_gone as gone;
    let input = s().hits(2_000).bytes();
    for args in [
        &["summary"][..],
        &["summary", "--output", "json"],
        &["summary", "--output", "jsonl"],
        &["summary", "--field", "ok"],
        &["errors", "--count"],
        &["merge-report", "--format", "table"],
        &["merge-report", "--format", "markdown"],
        &["merge-report", "--format", "junit"],
        &["merge-report", "--format", "tap"],
        &["merge-report", "--format", "jsonl"],
        &["check", "--output", "jsonl"],
        &["capabilities"],
        &["schema"],
        &["rules"],
    ] {
        gone(args, input.clone());
    }
    gone(&["lint", "--self"], Vec::new());
    gone(&["lint", "--self", "--output", "jsonl"], Vec::new());
}

/// A file that vanishes or shrinks while aoi reads it (a log rotated under
/// it). Deleted: aoi holds it open and relays every byte. Truncated: aoi
/// relays what was there, a prefix of the input, and never calls the cut
/// stream complete (exit 74, not 0).
#[test]
fn a_file_deleted_or_truncated_mid_read() {
    use std::io::Read;
    let dir = scratch("vanishing");
    let input = s().hits(200_000).bytes();
    assert!(input.len() > 8 << 20);
    for truncate in [false, true] {
        let path = dir.join(format!("rotated-{truncate}.jsonl"));
        std::fs::write(&path, &input).expect("write");
        let mut child = crate::util::command(AOI)
            .args(["check", "-q"])
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn aoi");
        let mut out = child.stdout.take().expect("stdout");
        // aoi has opened the file and is blocked on the full pipe.
        let mut head = vec![0u8; 16];
        out.read_exact(&mut head).expect("first bytes");
        if truncate {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_len(1 << 20))
                .expect("truncate");
        } else {
            std::fs::remove_file(&path).expect("remove");
        }
        let mut rest = Vec::new();
        out.read_to_end(&mut rest).expect("relay");
        head.extend_from_slice(&rest);
        let code = code_of(child.wait().expect("wait"));
        if truncate {
            assert!(
                input.starts_with(&head),
                "the relay is not a prefix of the input"
            );
            assert!(head.len() < input.len());
            assert_eq!(code, 74, "a truncated stream was not called incomplete");
        } else {
            assert_eq!(head, input, "the relay of a deleted file differs");
            assert_eq!(code, 0);
        }
        let _ = std::fs::remove_file(&path);
    }
}

/// A line limit larger than the memory the process may have (`aoi
/// filter`'s, which holds whole events): the buffer falls back to growing
/// by doubling, and the line is read rather than the process aborted (it
/// asked for the whole limit at once).
#[test]
fn a_line_limit_beyond_memory_is_not_an_abort() {
    let dir = scratch("limit-beyond-memory");
    let line = format!("{{\"type\":\"hit\",\"p\":\"{}\"}}\n", "x".repeat(2 << 20));
    let file = write_file(&dir, "two-mib.jsonl", line.as_bytes());
    let script = format!(
        "ulimit -v 1000000; exec {} filter --raw --max-line-bytes 64G .type {} >/dev/null",
        AOI, file
    );
    let o = crate::util::command("sh")
        .args(["-c", &script])
        .output()
        .expect("run sh");
    let code = code_of(o.status);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("memory allocation"), "{stderr}");
}

/// `--idle-timeout` on stdin sees every byte still to be read (stdin's own
/// buffer hid some), and silence after the summary ends the read without
/// a timeout: the stream was complete.
#[test]
fn silence_after_the_summary_is_no_timeout() {
    let big = format!(
        "{{\"type\":\"hit\",\"aoi\":{{\"seq\":1,\"run\":\"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6\"}},\"p\":\"{}\"}}",
        "x".repeat(262_000)
    );
    let input = s().raw(big.as_str()).summary("{}").bytes();
    for args in [
        &["check", "-q", "--no-relay", "--idle-timeout", "500ms"][..],
        &["errors", "-q", "--count", "--idle-timeout", "500ms"],
    ] {
        let Some(out) = fed_then_silent(args, &input) else {
            return;
        };
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
}

/// A non-blocking stdin (a descriptor shared with a process that set
/// O_NONBLOCK on it): a read that would block waits for input like any
/// silent pipe, on one thread and on two, and the stream is whole.
#[test]
fn a_non_blocking_stdin_is_waited_on_not_an_error() {
    use std::os::fd::AsRawFd;
    if !crate::waits::proc_here() {
        return;
    }
    let input = s().hits(40).bytes();
    let (head, rest) = input.split_at(input.len() / 2);
    for threads in ["1", "2"] {
        // Close-on-exec from the start: no aoi spawned by a test running
        // alongside may inherit the write end.
        let (r, w) = crate::waits::cloexec_pipe();
        // SAFETY: flags of a descriptor we own.
        unsafe {
            let fl = libc::fcntl(r.as_raw_fd(), libc::F_GETFL);
            assert_eq!(
                libc::fcntl(r.as_raw_fd(), libc::F_SETFL, fl | libc::O_NONBLOCK),
                0
            );
        }
        let child = crate::util::command(AOI)
            .args(["check", "--threads", threads])
            .stdin(Stdio::from(r))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn aoi");
        let mut w = std::fs::File::from(w);
        w.write_all(head).expect("feed");
        // aoi finds the pipe empty (EAGAIN) and waits before the rest comes.
        crate::waits::wait_idle(child.id(), &w, &format!("--threads {threads}"));
        w.write_all(rest).expect("feed");
        drop(w);
        let out = child.wait_with_output().expect("wait");
        let what = format!("--threads {threads}");
        assert_eq!(
            code_of(out.status),
            0,
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, input, "{what}");
    }
}
