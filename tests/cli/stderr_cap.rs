//! stderr at fleet scale: the `--log` readers and merge-report share one
//! cap with `check --show` (N findings in all), then one line with how
//! many runs failed and where every run is listed. The exit and stdout
//! are unchanged by it.

use crate::util::{aoi, assert_conforming_report, fed_back_code, parse_jsonl, scratch, write_file};

/// A time-stamped CI log of `n` runs that each break the same rules: a
/// gap in `seq` (§ 8.1) and an `aoi:summary` without the identity triple
/// (§ 5), between lines of prose.
fn broken_runs(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 420);
    for i in 0..n {
        let r = format!("R{i:09}");
        s.push_str(&format!(
            "2026-12-06T10:00:00Z {{\"type\":\"aoi:meta\",\"aoi\":{{\"seq\":0,\"run\":\"{r}\"}},\"tool\":\"t\",\"tool_version\":\"1\",\"aoi_version\":\"1.0-alpha\",\"schema_name\":\"x.y\",\"schema_version\":\"1\"}}\n\
             building step {i}\n\
             2026-12-06T10:00:01Z {{\"type\":\"hit\",\"aoi\":{{\"seq\":2,\"run\":\"{r}\"}}}}\n\
             2026-12-06T10:00:02Z {{\"type\":\"aoi:summary\",\"aoi\":{{\"seq\":3,\"run\":\"{r}\"}},\"ok\":true,\"count\":1,\"warning_count\":0,\"error_count\":0,\"event_count\":3,\"tool\":\"t\",\"schema_name\":\"x.y\"}}\n"
        ));
    }
    s.into_bytes()
}

const RUNS: usize = 20_000;

#[test]
fn a_log_of_20000_broken_runs_says_at_most_200_lines_and_the_total() {
    let log = broken_runs(RUNS);
    let total = format!("{RUNS} run(s) failed");
    for cmd in [
        &["merge-report", "--log", "--format", "table"][..],
        &["merge-report", "--log", "--format", "jsonl"][..],
        &["errors", "--log", "--count"][..],
        &["strip", "--log"][..],
        &["summary", "--log"][..],
    ] {
        let out = aoi(cmd, &log);
        assert_eq!(out.code, 65, "{cmd:?}: {}", tail(&out.stderr));
        let lines = out.stderr.lines().count();
        assert!(lines <= 200, "{cmd:?}: {lines} stderr lines");
        assert!(
            out.stderr.contains(&total),
            "{cmd:?}: no total: {}",
            tail(&out.stderr)
        );
        // The first runs are said, by file or run, before the total.
        assert!(out.stderr.contains("run R000000000"), "{cmd:?}");
        assert!(!out.stderr.contains("run R000019999"), "{cmd:?}");
        if cmd.contains(&"jsonl") {
            // Where the closing line says every run is: all 20,000.
            let reports = parse_jsonl(&out.stdout)
                .into_iter()
                .filter(|e| e["type"] == "report")
                .count();
            assert_eq!(reports, RUNS);
            assert_conforming_report(&out.stdout, fed_back_code(65));
        }
    }
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(5)..].join("\n")
}

#[test]
fn show_sets_the_cap_and_every_run_said_needs_no_total() {
    let log = broken_runs(3);
    for cmd in ["merge-report", "errors", "strip", "summary"] {
        // The table: merge-report's jsonl names its own run (a new ULID).
        let run = |show: &str| {
            let mut a = vec![cmd, "--log", "--show", show];
            if cmd == "merge-report" {
                a.extend(["--format", "table"]);
            }
            aoi(&a, &log)
        };
        // Room for all three: each run said, no closing count.
        let all = run("100");
        assert_eq!(all.code, 65, "{cmd}: {}", all.stderr);
        for r in ["R000000000", "R000000001", "R000000002"] {
            assert!(
                all.stderr.contains(&format!("run {r}: FAIL")),
                "{cmd}: {}",
                all.stderr
            );
        }
        assert!(
            !all.stderr.contains("not shown above"),
            "{cmd}: {}",
            all.stderr
        );
        // --show 0: no run is said, only how many failed; same exit.
        let none = run("0");
        assert_eq!(none.code, 65, "{cmd}");
        assert!(
            !none.stderr.contains("FAIL violation"),
            "{cmd}: {}",
            none.stderr
        );
        assert!(
            none.stderr
                .contains("3 run(s) failed, 3 of them not shown above (--show 0"),
            "{cmd}: {}",
            none.stderr
        );
        // stdout does not depend on the cap.
        assert_eq!(all.stdout_str(), none.stdout_str(), "{cmd}");
    }
}

#[test]
fn the_cap_holds_across_files_whatever_the_threads() {
    let dir = scratch("stderr-cap");
    let files: Vec<String> = (0..12)
        .map(|i| write_file(&dir, &format!("f{i:02}.log"), &broken_runs(2)))
        .collect();
    for cmd in ["merge-report", "errors", "strip", "summary"] {
        let run = |threads: &str| {
            let mut a = vec![cmd, "--log", "--threads", threads];
            a.extend(files.iter().map(String::as_str));
            aoi(&a, b"")
        };
        let one = run("1");
        let two = run("2");
        assert_eq!(one.code, 65, "{cmd}: {}", one.stderr);
        assert_eq!(two.code, one.code, "{cmd}");
        assert_eq!(two.stderr, one.stderr, "{cmd}");
        assert!(
            one.stderr.contains("24 run(s) failed"),
            "{cmd}: {}",
            one.stderr
        );
    }
}

#[test]
fn errors_log_ends_with_a_tally() {
    let out = aoi(&["errors", "--log", "--count"], &broken_runs(4));
    assert_eq!(out.code, 65);
    assert_eq!(out.stdout_str(), "0\n");
    let last = out.stderr.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "aoi errors: 0 event(s) found in 4 run(s), 4 of them failed"
    );
}

/// `aoi check` on a time-stamped CI log (§ 2: every line of a stream is
/// an event) gives its findings and, once, the commands that read a log;
/// a stream with one stray line, or none, gets no such hint. The exit is
/// the same.
#[test]
fn check_on_a_ci_log_suggests_log_once() {
    let out = aoi(&["check", "--no-relay"], &broken_runs(50));
    assert_eq!(out.code, 65, "{}", out.stderr);
    let hints: Vec<&str> = out.stderr.lines().filter(|l| l.contains("--log")).collect();
    assert_eq!(hints.len(), 1, "{}", out.stderr);
    assert!(
        hints[0].starts_with("aoi check: hint: ") && hints[0].contains("aoi summary --log"),
        "{}",
        hints[0]
    );
    let clean = std::fs::read(format!(
        "{}/examples/search.jsonl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    let mut stray = b"building...\n".to_vec();
    stray.extend_from_slice(&clean);
    for (input, code) in [(clean, 0), (stray, 65)] {
        let out = aoi(&["check", "--no-relay"], &input);
        assert_eq!(out.code, code, "{}", out.stderr);
        assert!(!out.stderr.contains("--log"), "{}", out.stderr);
    }
}

/// Off a terminal, `summary` says the outcome once where one reader sees
/// both streams (`> log 2>&1`, a CI step's log): the readable line on
/// stdout, no second line on stderr. Apart, both say the retry advice in
/// the same unit.
#[test]
fn summary_off_a_terminal_says_the_outcome_once() {
    let file = format!("{}/examples/rate-limited.jsonl", env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("summary-once");
    let log = dir.join("ci.log");
    let out = std::fs::File::create(&log).expect("create the log");
    let err = out.try_clone().expect("share the log");
    let status = crate::util::command(crate::util::AOI)
        .args(["summary", &file])
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(err)
        .status()
        .expect("run aoi summary");
    assert_eq!(crate::util::code_of(status), 75);
    let text = std::fs::read_to_string(&log).expect("read the log");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("retry after 7200 ms"), "{text}");
    let apart = aoi(&["summary", &file], b"");
    assert_eq!(apart.code, 75);
    for said in [apart.stdout_str(), apart.stderr.clone()] {
        assert!(
            said.contains("7200 ms") && !said.contains("7.2 s"),
            "{said}"
        );
    }
    // With --log each line names its run.
    let messy = format!("{}/examples/messy.log", env!("CARGO_MANIFEST_DIR"));
    let out = aoi(&["summary", "--log", &messy], b"");
    assert_eq!(out.code, 75);
    assert!(
        out.stdout_str().lines().all(|l| l.contains(" run ")),
        "{}",
        out.stdout_str()
    );
    assert!(
        out.stderr.contains(" run 01JZQ7X4TQ9KZ8V6R2M3N4P5B2: "),
        "{}",
        out.stderr
    );
}
