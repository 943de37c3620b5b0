//! `aoi summary`: a run's outcome for people and scripts, exiting with it.

use serde_json::Value;

use crate::util::{aoi, assert_conforming_report, example, s};

fn summary(args: &[&str], input: &[u8]) -> crate::util::Out {
    let mut a = vec!["summary"];
    a.extend_from_slice(args);
    aoi(&a, input)
}

#[test]
fn exits_with_the_outcome_and_says_it_in_one_line() {
    for (file, code, word) in [
        ("search.jsonl", 0, ": ok:"),
        ("rate-limited.jsonl", 75, "retry after 7200 ms"),
        ("truncated.jsonl", 74, "incomplete (exit 74)"),
    ] {
        let out = summary(&[&example(file)], b"");
        assert_eq!(out.code, code, "{file}: {}", out.stderr);
        let text = out.stdout_str();
        assert_eq!(text.lines().count(), 1, "{file}: {text}");
        assert!(text.contains(word), "{file}: {text}");
        assert!(
            // The run's last 8 characters: the random end of its ULID.
            text.starts_with("outline 1.8.2 run M3N4P5Q"),
            "{file}: {text}"
        );
    }
}

/// `-q` silences stderr only: the retry idiom
/// `ms=$(aoi summary -q --field retry_after_ms run.jsonl)` gets the field.
#[test]
fn quiet_prints_nothing_on_stderr() {
    let out = summary(&["-q"], &s().hits(2).no_summary().bytes());
    assert_eq!(out.code, 74);
    assert_eq!(out.stderr, "");
    assert!(
        out.stdout_str().contains("incomplete"),
        "{}",
        out.stdout_str()
    );
    let out = summary(
        &[
            "-q",
            "--field",
            "retry_after_ms",
            &example("rate-limited.jsonl"),
        ],
        b"",
    );
    assert_eq!((out.code, out.stdout_str().as_str()), (75, "7200\n"));
    assert_eq!(out.stderr, "");
}

#[test]
fn json_object_and_raw_fields() {
    let out = summary(&["--output", "json", &example("rate-limited.jsonl")], b"");
    assert_eq!(out.code, 75);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["outcome"], "retryable");
    assert_eq!(v["exit_code"], 75);
    assert_eq!(v["retry_after_ms"], 7200);
    assert_eq!(v["caused_by"]["category"], "rate_limited");
    assert_eq!(v["seq_reconciled"], true);
    assert_eq!(
        v["summary"]["reason"], "failed",
        "the upstream summary as it was"
    );
    let out = summary(
        &["--field", "retry_after_ms", &example("rate-limited.jsonl")],
        b"",
    );
    assert_eq!((out.code, out.stdout_str()), (75, "7200\n".to_string()));
    let out = summary(&["--field", "outcome", &example("search.jsonl")], b"");
    assert_eq!((out.code, out.stdout_str()), (0, "ok\n".to_string()));
    // An absent field prints nothing (the exit status still tells).
    let out = summary(
        &["--field", "retry_after_ms", &example("search.jsonl")],
        b"",
    );
    assert_eq!((out.code, out.stdout_str()), (0, String::new()));
    // A name that is no field of the outcome is a typo: a usage error
    // that says which names there are.
    let out = summary(&["--field", "retry_after", &example("search.jsonl")], b"");
    assert_eq!(out.code, 64, "{}", out.stderr);
    assert!(out.stderr.contains("retry_after_ms"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

/// `--field` accepts exactly the names the outcome object can hold: every
/// key `--output json` writes, on every example, is one of them.
#[test]
fn every_outcome_key_is_a_field_name() {
    // The usage error lists the names on one line.
    let help = aoi(&["summary", "--field", "?"], b"").stderr;
    let names: Vec<String> = help
        .split("[possible values: ")
        .nth(1)
        .and_then(|t| t.split(']').next())
        .map(|t| t.split(", ").map(str::to_string).collect())
        .unwrap_or_default();
    assert!(names.len() > 20, "{help}");
    for file in [
        "search.jsonl",
        "rate-limited.jsonl",
        "truncated.jsonl",
        "messy.log",
    ] {
        let out = summary(&["--output", "json", &example(file)], b"");
        for line in out.stdout_str().lines() {
            let v: Value = serde_json::from_str(line).expect("JSON");
            for key in v.as_object().expect("object").keys() {
                assert!(names.contains(key), "{file}: {key} is no --field name");
            }
        }
    }
}

/// Every command that reads stdin says so when it is a terminal, the same
/// way (a user who forgot the file is not left waiting in silence). The
/// terminal is a pseudo-terminal whose first input is end-of-file.
#[test]
fn every_command_says_it_reads_a_terminal() {
    for args in [
        &["check"][..],
        &["strip"],
        &["summary"],
        &["errors"],
        &["filter", "."],
        &["merge-report"],
    ] {
        let err = stderr_on_a_terminal(args);
        let want = format!(
            "aoi {}: reading a stream from the terminal (end with Ctrl-D; `aoi {} FILE` reads a file)",
            args[0], args[0]
        );
        assert!(err.contains(&want), "{args:?}: {err}");
    }
}

/// The notice comes when stdin is opened as an input: never before a
/// usage error found first (that comes alone), nor when stdin is the
/// `--files-from` list or never read (`--raw -n` without `input`).
#[test]
fn the_terminal_notice_comes_only_when_stdin_is_read() {
    let dir = crate::util::scratch("terminal-notice");
    let program = crate::util::write_file(&dir, "p.jq", b".\n");
    for args in [
        &["filter", "("][..],
        // `-` named (the program from -f makes it an input): no notice.
        &["filter", "-c", "-f", &program, "-"],
        &["filter", "--argjson", "x", "{", "."],
        &["check", "--schema", "/nonexistent/schema.json"],
        &["summary", "--files-from", "-"],
        &["errors", "--files-from", "-"],
        &["filter", "--raw", "-n", "1"],
    ] {
        let err = stderr_on_a_terminal(args);
        assert!(!err.contains("from the terminal"), "{args:?}: {err}");
    }
    // Read by the program, it is said (once).
    let err = stderr_on_a_terminal(&["filter", "--raw", "-n", "[inputs]"]);
    assert_eq!(err.matches("from the terminal").count(), 1, "{err}");
}

/// What `aoi ARGS` writes on stderr with stdin a new pseudo-terminal
/// whose first input is Ctrl-D (end-of-file in canonical mode).
fn stderr_on_a_terminal(args: &[&str]) -> String {
    use std::io::{Read, Write};
    use std::os::fd::{AsRawFd, FromRawFd};
    // SAFETY: posix_openpt takes flags only; its result is checked.
    let fd = unsafe { libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY) };
    assert!(fd >= 0, "posix_openpt: {}", std::io::Error::last_os_error());
    // SAFETY: `fd` is a new descriptor that nothing else owns.
    let mut master = unsafe { std::fs::File::from_raw_fd(fd) };
    // SAFETY: grantpt, unlockpt and ptsname act on the master just opened;
    // ptsname's static buffer is copied before anything else calls it.
    let name = unsafe {
        assert_eq!(libc::grantpt(master.as_raw_fd()), 0, "grantpt");
        assert_eq!(libc::unlockpt(master.as_raw_fd()), 0, "unlockpt");
        let p = libc::ptsname(master.as_raw_fd());
        assert!(!p.is_null(), "ptsname");
        std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
    };
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&name)
        .expect("open the terminal");
    let mut child = crate::util::command(crate::util::AOI)
        .args(args)
        .stdin(terminal)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run aoi");
    master.write_all(b"\x04").expect("write Ctrl-D");
    crate::waits::wait_exit(&mut child, &format!("{args:?} on a terminal"));
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    err
}

/// A tail-only look would call this run a success: its summary says
/// ok:true, but lines were lost in the middle (§ 8.1).
#[test]
fn middle_elision_is_caught() {
    let mut st = s().hits(5).bytes();
    let text = String::from_utf8(st.clone()).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, l)| l)
        .collect();
    st = format!("{}\n", kept.join("\n")).into_bytes();
    let out = summary(&["--output", "json"], &st);
    assert_eq!(out.code, 65, "{}", out.stderr);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["seq_reconciled"], false);
    assert_eq!(v["summary"]["ok"], true);
}

#[test]
fn jsonl_output_is_a_conforming_stream() {
    for (file, code) in [
        ("search.jsonl", 0),
        ("rate-limited.jsonl", 75),
        ("truncated.jsonl", 74),
    ] {
        let out = summary(&["--output", "jsonl", &example(file)], b"");
        assert_eq!(out.code, code, "{file}");
        let expected = crate::util::fed_back_code(code);
        assert_conforming_report(&out.stdout, expected);
        let events: Vec<Value> = crate::util::parse_jsonl(&out.stdout);
        assert_eq!(
            events.iter().filter(|e| e["type"] == "outcome").count(),
            1,
            "{file}"
        );
    }
}

/// violation_count counts the findings that fail the stream, contract
/// violations and incompleteness alike; the reason names both, so its
/// numbers add up to the field (it said "1 contract violation(s)" beside
/// violation_count 2; found by review).
#[test]
fn the_reason_adds_up_to_violation_count() {
    let out = summary(&["--output", "json"], b"hello\n{\"type\":\"x\"}\n");
    assert_eq!(out.code, 65, "{}", out.stderr);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["violation_count"], 2, "{v}");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with(
            "1 contract violation(s) and 1 incompleteness finding(s), first: line.not-json"
        ),
        "{reason}"
    );
}

/// A fractional `elapsed_ms` (§ 8.3 gives it no type; JavaScript's
/// `performance.now()` has fractions) passes and is reported as written,
/// by `summary` and `merge-report`; a whole one stays an integer.
#[test]
fn a_fractional_elapsed_ms_passes_and_is_kept() {
    for (ms, shown) in [("12.5", "12.5"), ("384", "384"), ("1.25e3", "1250")] {
        let input = crate::util::s()
            .hits(1)
            .summary(&format!(r#"{{"elapsed_ms":{ms}}}"#))
            .bytes();
        assert_eq!(crate::util::check(&["-q"], &input).code, 0, "{ms}");
        let out = crate::util::aoi(&["summary", "--field", "elapsed_ms"], &input);
        assert_eq!((out.code, out.stdout_str().trim()), (0, shown), "{ms}");
        let out = crate::util::aoi(&["merge-report", "--format", "jsonl"], &input);
        assert_eq!(out.code, 0);
        crate::util::assert_conforming_report(&out.stdout, 0);
        let report = crate::util::parse_jsonl(&out.stdout)
            .into_iter()
            .find(|e| e["type"] == "report")
            .expect("a report");
        assert_eq!(report["elapsed_ms"].to_string(), shown, "{ms}");
        let junit = crate::util::aoi(&["merge-report", "--format", "junit"], &input);
        let want = format!("time=\"{:.3}\"", shown.parse::<f64>().expect("ms") / 1000.0);
        assert!(
            junit.stdout_str().contains(&want),
            "{ms}: {}",
            junit.stdout_str()
        );
    }
}
