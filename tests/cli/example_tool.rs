//! `examples/ls.rs`, a source tool built on aoi's producer API: its output
//! passes `aoi check`, its arguments are redacted (§ 11), `--match`
//! searches, `--limit` sets `truncated`/`next_cursor` (§ 15), an
//! unreadable directory is an `aoi:error` and a failed run, a rate-limited
//! backend a retryable failure (75, § 9.3), a closed pipe a quiet end
//! (§ 7), and every event it writes fits the schema it declares (§ 10).

use std::path::PathBuf;
use std::process::Stdio;

use serde_json::Value;

use crate::util::*;

/// The example's binary: `cargo test` builds examples beside the test
/// binaries (`target/<profile>/examples/ls`).
fn ls_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    profile.join("examples").join("ls")
}

fn ls(args: &[&str]) -> Out {
    let o = crate::util::command(ls_bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run examples/ls (built by cargo test)");
    Out {
        code: code_of(o.status),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A directory with `n` files.
fn dir_with(name: &str, n: usize) -> (crate::util::Scratch, String) {
    let d = scratch(name);
    for i in 0..n {
        write_file(&d, &format!("f{i:05}.txt"), b"x");
    }
    let path = d.to_str().expect("utf-8 path").to_string();
    (d, path)
}

/// `aoi check --output jsonl` on the tool's output: its exit status and
/// findings.
fn judged(bytes: &[u8]) -> (i32, Vec<Value>) {
    let r = check(&["--output", "jsonl"], bytes);
    let findings = parse_jsonl(&r.stdout)
        .into_iter()
        .filter(|e| matches!(e["type"].as_str(), Some("violation" | "advisory")))
        .collect();
    (r.code, findings)
}

#[test]
fn its_output_passes_aoi_check() {
    let (_dir, d) = dir_with("ls-ok", 5);
    let out = ls(&[&d]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (code, findings) = judged(&out.stdout);
    assert_eq!((code, findings.len()), (0, 0), "{findings:#?}");
    let events = parse_jsonl(&out.stdout);
    assert_eq!(events.len(), 7);
    assert_eq!(events[1]["type"], "entry");
    assert_eq!(events[1]["name"], "f00000.txt");
    assert_eq!(events[6]["count"], 5);
    // The identity triple is on both ends (§ 5).
    assert_eq!(events[0]["tool"], "ls");
    assert_eq!(events[6]["schema_name"], events[0]["schema_name"]);
}

#[test]
fn secrets_in_its_arguments_are_redacted() {
    let (_dir, d) = dir_with("ls-secret", 1);
    let canary = "aoi-lint-canary-3f9a";
    let out = ls(&["--token", canary, &d]);
    assert_eq!(out.code, 0);
    assert!(!out.stdout_str().contains(canary));
    assert!(!out.stderr.contains(canary));
    let meta = &parse_jsonl(&out.stdout)[0];
    assert_eq!(meta["args"][1], "[REDACTED]");
    assert_eq!(meta["args_redacted"], true);
    // aoi check's own § 11 rule finds nothing to flag.
    let (code, findings) = judged(&out.stdout);
    assert_eq!((code, findings.len()), (0, 0), "{findings:#?}");
}

#[test]
fn limit_and_cursor_page_through() {
    let (_dir, d) = dir_with("ls-page", 5);
    let first = ls(&["--limit", "2", &d]);
    let events = parse_jsonl(&first.stdout);
    let summary = events.last().expect("summary");
    assert_eq!(summary["truncated"], true);
    assert_eq!(summary["next_cursor"], "2");
    assert_eq!(judged(&first.stdout).0, 0);
    let rest = ls(&["--cursor", "2", &d]);
    let names: Vec<String> = parse_jsonl(&rest.stdout)
        .iter()
        .filter(|e| e["type"] == "entry")
        .map(|e| e["name"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(names, ["f00002.txt", "f00003.txt", "f00004.txt"]);
}

#[test]
fn an_unreadable_directory_fails_the_run_with_its_error() {
    let out = ls(&["/nonexistent-aoi-dir"]);
    assert_eq!(out.code, 1);
    let events = parse_jsonl(&out.stdout);
    assert_eq!(events[1]["type"], "aoi:error");
    assert_eq!(events[1]["category"], "not_found");
    assert_eq!(events[1]["retryable"], false);
    let summary = events.last().expect("summary");
    assert_eq!(summary["ok"], false);
    assert_eq!(summary["reason"], "failed");
    assert_eq!(summary["error_count"], 1);
    let (code, findings) = judged(&out.stdout);
    assert_eq!((code, findings.len()), (1, 0), "{findings:#?}");
    // One readable, one not: partial, still ok.
    let (_dir, d) = dir_with("ls-partial", 1);
    let out = ls(&[&d, "/nonexistent-aoi-dir"]);
    assert_eq!(out.code, 0);
    assert_eq!(
        parse_jsonl(&out.stdout).last().expect("summary")["partial"],
        true
    );
    assert_eq!(judged(&out.stdout).0, 0);
}

/// A backend that refuses more calls: the entries before it, a retryable
/// process-level `rate_limited` error with `retry_after_ms`, a failed
/// summary, and the exit the judge gives that stream: 75, retry may help
/// (§ 6, § 9.3), not the summary's bare 1.
#[test]
fn a_rate_limited_backend_is_a_retryable_failure() {
    let (_dir, d) = dir_with("ls-rate", 5);
    let out = ls(&["--rate-limit-after", "2", &d]);
    assert_eq!(out.code, 75, "{}", out.stderr);
    let events = parse_jsonl(&out.stdout);
    let types: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(
        types,
        ["aoi:meta", "entry", "entry", "aoi:error", "aoi:summary"]
    );
    let error = &events[3];
    assert_eq!(
        (&error["category"], &error["scope"], &error["retryable"]),
        (
            &Value::from("rate_limited"),
            &Value::from("process"),
            &Value::Bool(true)
        )
    );
    assert_eq!(error["retry_after_ms"], 1000);
    assert_eq!(
        (&events[4]["ok"], &events[4]["reason"]),
        (&Value::Bool(false), &Value::from("failed"))
    );
    let (code, findings) = judged(&out.stdout);
    assert_eq!((code, findings.len()), (75, 0), "{findings:#?}");
}

/// `--match` is a search: only the names that contain the text, paged by
/// `--limit`/`--cursor` over the matches.
#[test]
fn match_searches_names_and_pages_over_the_matches() {
    let (dir, d) = dir_with("ls-match", 4);
    write_file(&dir, "notes.md", b"x");
    write_file(&dir, "todo.md", b"x");
    let names = |o: &Out| -> Vec<String> {
        parse_jsonl(&o.stdout)
            .iter()
            .filter(|e| e["type"] == "entry")
            .map(|e| e["name"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let first = ls(&["--match", ".txt", "--limit", "3", &d]);
    assert_eq!(names(&first), ["f00000.txt", "f00001.txt", "f00002.txt"]);
    assert_eq!(
        parse_jsonl(&first.stdout).last().expect("summary")["next_cursor"],
        "3"
    );
    assert_eq!(judged(&first.stdout), (0, vec![]));
    let rest = ls(&["--match", ".txt", "--cursor", "3", &d]);
    assert_eq!(names(&rest), ["f00003.txt"]);
    let md = ls(&["--match", ".md", &d]);
    assert_eq!(names(&md), ["notes.md", "todo.md"]);
    assert_eq!(judged(&md.stdout), (0, vec![]));
}

/// The tool's declared schema (`ls schema`, built with
/// `aoi::emit::discovery`) holds for every event its runs write, checked
/// in-process as a tool author checks their own: `aoi::judge::check_with`
/// with the schema in `JudgeOptions` (the validator of `--schema`, § 10).
/// Each run's exit status is the one the judge gives its stream (§ 6).
#[test]
fn its_declared_schema_holds_for_what_it_emits() {
    let doc: Value = serde_json::from_slice(&ls(&["schema"]).stdout).expect("ls schema is JSON");
    let schema = aoi::validator::EventSchema::from_value(&doc).expect("ls's schema compiles");
    let schema = std::sync::Arc::new(schema);
    let judge = |stream: &[u8]| {
        let opts = aoi::judge::JudgeOptions {
            schema: Some(schema.clone()),
            ..Default::default()
        };
        let (verdict, findings) = aoi::judge::check_with(stream, opts);
        let findings: Vec<String> = findings.iter().map(ToString::to_string).collect();
        (verdict.exit_code, findings)
    };
    let (dir, d) = dir_with("ls-schema", 3);
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    std::os::unix::fs::symlink("f00000.txt", dir.join("link")).expect("symlink");
    let runs: [&[&str]; 5] = [
        &[&d],
        &["--limit", "2", &d],
        &[&d, "/nonexistent-aoi-dir"],
        &["/nonexistent-aoi-dir"],
        &["--match", "f0", "--rate-limit-after", "1", &d],
    ];
    for args in runs {
        let out = ls(args);
        assert_eq!(judge(&out.stdout), (out.code, vec![]), "{args:?}");
    }
    // The same check fails on an event the schema does not declare: a
    // kind outside its enum.
    let ok = ls(&[&d]).stdout;
    let bad =
        String::from_utf8(ok)
            .expect("utf-8")
            .replacen(r#""kind":"dir""#, r#""kind":"pipe""#, 1);
    let (code, findings) = judge(bad.as_bytes());
    assert_eq!(code, 65, "{findings:#?}");
    assert!(
        findings.iter().any(|f| f.contains("schema.invalid")),
        "{findings:#?}"
    );
}

#[test]
fn a_closed_pipe_is_a_quiet_end() {
    let (_dir, d) = dir_with("ls-pipe", 3000);
    let mut child = crate::util::command(ls_bin())
        .arg(&d)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ls");
    let mut out = child.stdout.take().expect("stdout");
    assert_eq!(read_some(&mut out, 16).len(), 16);
    drop(out);
    let o = child.wait_with_output().expect("wait ls");
    assert_eq!(code_of(o.status), 141);
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}

#[test]
fn usage_errors_exit_64_without_output() {
    let out = ls(&["--bogus"]);
    assert_eq!(out.code, 64);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("unknown option --bogus"),
        "{}",
        out.stderr
    );
}

/// Each event reaches the reader as it is written (the producer flushes
/// per event on a pipe), and SIGINT/SIGTERM set the tool's token: the run
/// ends at its next poll with `reason:"cancelled"`, 130 or 143, and a
/// stream `aoi check` judges cancelled (§ 7). The delay is long, so the
/// signal lands while the tool waits; nothing is timed.
#[test]
fn a_signal_ends_the_run_cancelled_after_streamed_events() {
    use std::io::{BufRead, BufReader, Read};
    let (_dir, d) = dir_with("ls-cancel", 3);
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let mut child = crate::util::command(ls_bin())
            .args(["--delay-ms", "60000", &d])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn ls");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut head = String::new();
        for _ in 0..2 {
            out.read_line(&mut head).expect("read a line");
        }
        // The meta and the first entry came before the run ended.
        assert!(
            head.lines()
                .nth(1)
                .is_some_and(|l| l.contains(r#""type":"entry""#)),
            "{head}"
        );
        crate::waits::signal_taken(child.id(), sig);
        let st = crate::waits::wait_exit(&mut child, "ls after a signal");
        let mut rest = Vec::new();
        out.read_to_end(&mut rest).expect("read the rest");
        assert_eq!(code_of(st), code);
        let all = [head.as_bytes(), &rest].concat();
        let last = parse_jsonl(&all).pop().expect("a summary");
        assert_eq!(
            (&last["ok"], &last["reason"]),
            (&Value::Bool(false), &Value::from("cancelled"))
        );
        let (judged_code, findings) = judged(&all);
        assert_eq!((judged_code, findings.len()), (130, 0), "{findings:#?}");
    }
}

/// The reference tool passes `aoi lint` whole (§ 18): every check that a
/// tool can pass passes; the rest are not applicable to a read-only
/// source (6, 7, 8, 12, 16); none fails or is left not tested. lint's
/// report is itself judged.
#[test]
fn aoi_lint_passes_the_reference_tool() {
    let (_dir, d) = dir_with("ls-lint", 5);
    let bin = ls_bin();
    let bin = bin.to_str().expect("utf-8 path");
    let r = aoi(
        &[
            "lint",
            "--output",
            "jsonl",
            "--",
            bin,
            "list",
            "--delay-ms",
            "300",
            &d,
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stderr, r.stdout_str());
    let checks: Vec<Value> = parse_jsonl(&r.stdout)
        .into_iter()
        .filter(|e| e["type"] == "aoi:check")
        .collect();
    assert_eq!(checks.len(), 16, "{checks:#?}");
    let mut na = Vec::new();
    for c in &checks {
        let status = c["properties"]["status"].as_str().unwrap_or_default();
        let n = c["properties"]["check"].as_u64().unwrap_or_default();
        match status {
            "pass" => {}
            "not_applicable" => na.push(n),
            _ => panic!("check {n}: {status}: {}", c["detail"]),
        }
    }
    assert_eq!(na, [6, 7, 8, 12, 16], "{checks:#?}");
    assert_eq!(check(&[], &r.stdout).code, 0);
}
