//! The relay: stdout is stdin byte for byte; the verdict goes to stderr.

use std::io::Write;
use std::process::Stdio;

use crate::util::{
    AOI, Stream, assert_conforming_report, assert_quiet_on_early_close, check, code_of,
    parse_jsonl, read_some, s, scratch, write_file,
};

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("conforming", s().hits(3).bytes()),
        ("empty", Vec::new()),
        ("just a newline", b"\n".to_vec()),
        ("prose", s().raw("hello\tworld").bytes()),
        ("invalid utf-8", s().raw(b"\xff\xfe\x00\x01").bytes()),
        ("NUL bytes", b"\0\0\0\n\0".to_vec()),
        ("ANSI", b"\x1b[31mred\x1b[0m\n".to_vec()),
        ("CRLF", b"{\"type\":\"hit\"}\r\n\r\n".to_vec()),
        ("lone CR", b"\r\r\r".to_vec()),
        ("unterminated", s().hits(1).unterminated().bytes()),
        ("no summary", s().hits(2).no_summary().bytes()),
        ("bare JSON values", b"1\n\"x\"\n[]\nnull\n".to_vec()),
    ]
}

#[test]
fn stdout_is_stdin_for_valid_and_invalid_input() {
    for (what, bytes) in inputs() {
        let out = check(&[], &bytes);
        assert_eq!(out.stdout, bytes, "{what}: relay differs");
        assert!(
            crate::util::VERDICT_CODES.contains(&out.code),
            "{what}: exit {}",
            out.code
        );
        // Same with `-` for stdin.
        assert_eq!(check(&["-q", "-"], &bytes).stdout, bytes, "{what} via -");
    }
}

#[test]
fn unterminated_final_line_is_relayed_and_74() {
    let bytes = s().hits(1).unterminated().bytes();
    assert_ne!(bytes.last(), Some(&b'\n'));
    let out = check(&[], &bytes);
    assert_eq!(out.stdout, bytes);
    assert_eq!(out.code, 74);
    assert!(out.stderr.contains("line.unterminated"), "{}", out.stderr);
    assert!(out.stderr.contains("line 3"), "{}", out.stderr);
}

#[test]
fn long_lines_are_relayed_whole() {
    // 1 MiB and 300 KiB lines past a 1 KiB hold: relayed in full, and
    // valid (the spec sets no line length limit).
    let hold = [("AOI_HOLD_LINE_BYTES", "1024")];
    let big = format!(r#"{{"type":"hit","t":"{}"}}"#, "x".repeat(1 << 20));
    let mid = format!(r#"{{"type":"hit","t":"{}"}}"#, "y".repeat(300_000));
    let bytes = s().raw(&big).raw(&mid).hits(1).bytes();
    let out = crate::util::aoi_env(&["check"], &bytes, &hold);
    assert_eq!(out.stdout.len(), bytes.len());
    assert!(
        out.stdout == bytes,
        "long lines not relayed byte-identically"
    );
    // The verdict of the whole lines (the raw lines lack an envelope).
    assert_eq!(out.code, check(&["-q"], &bytes).code, "{}", out.stderr);
    assert!(!out.stderr.contains("line."), "{}", out.stderr);
    // A long unterminated final line is still relayed whole.
    let mut tail = s().no_summary().bytes();
    tail.extend_from_slice(big.as_bytes());
    let out = crate::util::aoi_env(&["check", "-q"], &tail, &hold);
    assert!(out.stdout == tail);
    assert_eq!(out.code, 74);
}

#[test]
fn several_files_are_relayed_concatenated() {
    let dir = scratch("concat");
    let a = s().hits(1).bytes();
    let b = b"prose\n".to_vec();
    let c = s().hits(2).unterminated().bytes();
    let d = s().hits(1).bytes();
    let pa = write_file(&dir, "a", &a);
    let pb = write_file(&dir, "b", &b);
    let pc = write_file(&dir, "c", &c);
    let pd = write_file(&dir, "d", &d);
    let out = check(&[&pa, &pb, &pc, &pd], b"");
    assert_eq!(out.stdout, [a.clone(), b, c, d].concat());
    assert_eq!(out.code, 65);
    // The verdict line of each file names it.
    for p in [&pa, &pb, &pc, &pd] {
        assert!(
            out.stderr.contains(&format!("aoi check: {p}: ")),
            "{}",
            out.stderr
        );
    }
    // `-` among the files reads stdin there.
    let out = check(&["-q", &pa, "-", &pa], b"prose\n");
    assert_eq!(out.stdout, [a.clone(), b"prose\n".to_vec(), a].concat());
}

#[test]
fn quiet_prints_nothing() {
    for (what, bytes) in inputs() {
        let out = check(&["-q"], &bytes);
        assert_eq!(out.stderr, "", "{what}: -q printed on stderr");
        assert_eq!(out.stdout, bytes);
    }
    let out = check(&["--quiet", "--unbounded"], &s().raw("x").bytes());
    assert_eq!(out.stderr, "");
    assert_eq!(out.code, 65);
}

#[test]
fn no_relay_prints_nothing_on_stdout() {
    let out = check(&["--no-relay"], &s().hits(2).bytes());
    assert!(out.stdout.is_empty());
    assert_eq!(out.code, 0);
    assert!(out.stderr.contains("ok"), "{}", out.stderr);
}

#[test]
fn stderr_on_failure_names_line_rule_and_hint() {
    let out = check(&[], &s().hits(1).raw("Loading...").bytes());
    assert_eq!(out.code, 65);
    let e = &out.stderr;
    assert!(e.contains("line 3"), "{e}");
    assert!(e.contains("line.not-json"), "{e}");
    assert!(e.contains("(§ 2)"), "{e}");
    assert!(
        e.contains("hint: machine-mode stdout must carry only JSON events"),
        "{e}"
    );
    assert!(e.contains("FAIL violation (exit 65)"), "{e}");
    // The seq is named when the line has one.
    let st = s()
        .hits(1)
        .ev(&super::j(r#"{"type":"hit","aoi":{"seq":5,"run":"$RUN"}}"#));
    let out = check(&[], &st.bytes());
    assert!(
        out.stderr.contains("line 3 (seq 5): seq.gap"),
        "{}",
        out.stderr
    );
    // An upstream failure names its cause.
    let st = s()
        .ev(super::RATE_LIMITED)
        .summary(r#"{"ok":false,"reason":"failed"}"#);
    let out = check(&[], &st.bytes());
    assert_eq!(out.code, 75);
    assert!(out.stderr.contains("rate_limited"), "{}", out.stderr);
    assert!(out.stderr.contains("4500"), "{}", out.stderr);
}

#[test]
fn stderr_sanitises_upstream_control_characters() {
    // A message with an escaped control character (BEL; an ESC is itself an
    // error.message violation) must not reach the terminal raw.
    let st = s().ev(
        r#"{"type":"aoi:error","category":"internal","code":"X","message":"\u0007gone","retryable":false}"#,
    )
    .summary(r#"{"ok":false,"reason":"failed"}"#);
    let out = check(&[], &st.bytes());
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("gone"), "{:?}", out.stderr);
    assert!(!out.stderr.contains('\x07'), "{:?}", out.stderr);
}

#[test]
fn ok_verdict_on_stderr() {
    let out = check(&[], &s().hits(2).bytes());
    assert_eq!(out.code, 0);
    assert!(out.stderr.starts_with("aoi check: ok"), "{}", out.stderr);
    assert!(out.stderr.contains("from outline 1.8.2"), "{}", out.stderr);
}

#[test]
fn stdout_closed_early_is_quiet() {
    assert_quiet_on_early_close(&["check"], Stream::new().hits(100_000).bytes());
}

#[test]
fn stdout_closed_early_in_report_mode_is_quiet() {
    // A report long enough to fill the pipe: many findings.
    let mut input = Vec::new();
    for _ in 0..50_000 {
        input.extend_from_slice(b"prose\n");
    }
    let mut child = crate::util::command(AOI)
        .args(["check", "--output", "jsonl", "--max-per-rule", "1000000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn aoi");
    let mut sin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(&input);
    });
    let mut out = child.stdout.take().unwrap();
    assert_eq!(read_some(&mut out, 16).len(), 16);
    drop(out);
    let mut err = child.stderr.take().unwrap();
    let stderr = String::from_utf8_lossy(&read_some(&mut err, 1 << 20)).into_owned();
    let code = code_of(child.wait().unwrap());
    let _ = writer.join();
    assert!(code == 141 || code == 0, "exit {code}; stderr: {stderr}");
    assert!(!stderr.contains("panic"), "{stderr}");
}

/// `--report -` is no way to put the report on stdout (the relay's): a
/// usage error that says what is, never a file named `-`.
#[test]
fn report_to_dash_is_refused() {
    let dir = scratch("report-dash");
    let out = crate::util::command(crate::util::AOI)
        .current_dir(&dir)
        .args(["check", "--report", "-"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run aoi");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(64), "{stderr}");
    assert!(stderr.contains("--output jsonl"), "{stderr}");
    assert!(!dir.join("-").exists(), "no file named -");
}

/// `--report` naming one of the inputs would truncate it before it is read.
#[test]
fn report_that_is_an_input_is_refused() {
    let dir = scratch("report-is-input");
    let input = write_file(&dir, "in.jsonl", &s().hits(2).bytes());
    let out = check(&["--report", &input, &input], b"");
    assert_eq!(out.code, 64, "{}", out.stderr);
    assert!(out.stderr.contains("is also an input"), "{}", out.stderr);
    assert_eq!(
        std::fs::read(&input).unwrap(),
        s().hits(2).bytes(),
        "input untouched"
    );
}

/// When the relay's reader goes away, the `--report` file still ends with
/// its `aoi:summary` (§ 4): an `io` error, then `ok:false`.
#[test]
fn report_file_is_closed_when_the_relay_pipe_closes() {
    let dir = scratch("report-broken-pipe");
    let report = dir.join("r.jsonl");
    assert_quiet_on_early_close(
        &["check", "--report", report.to_str().unwrap()],
        Stream::new().hits(100_000).bytes(),
    );
    let rep = std::fs::read(&report).unwrap();
    let events = parse_jsonl(&rep);
    let last = events.last().unwrap();
    assert_eq!(last["type"], "aoi:summary");
    assert_eq!(last["ok"], false);
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "aoi:error" && e["code"] == "BROKEN_PIPE")
    );
    assert_conforming_report(&rep, 1);
}
