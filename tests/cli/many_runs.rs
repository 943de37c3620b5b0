//! A log of many runs, every run judged. A run ends at its
//! `aoi:summary` and its judge is freed there; `--max-runs` guards only
//! the runs open at once. Memory stays bounded by the open runs.

use serde_json::Value;

use crate::util::{aoi, assert_conforming_report, fed_back_code, parse_jsonl, scratch};

fn meta(run: &str) -> String {
    format!(
        r#"{{"type":"aoi:meta","aoi":{{"seq":0,"run":"{run}"}},"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"x.y","schema_version":"1"}}"#
    )
}

fn summary(run: &str) -> String {
    format!(
        r#"{{"type":"aoi:summary","aoi":{{"seq":1,"run":"{run}"}},"ok":true,"count":0,"warning_count":0,"error_count":0,"event_count":2,"tool":"t","tool_version":"1","schema_name":"x.y","schema_version":"1"}}"#
    )
}

fn run_id(i: usize) -> String {
    format!("R{i:09}")
}

/// `n` two-line runs, `open` at once: run i's meta, then run i-open's
/// summary (as `benches/many-runs.sh` writes them).
fn interleaved(n: usize, open: usize) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..n + open {
        if i < n {
            s.push_str(&meta(&run_id(i)));
            s.push('\n');
        }
        if i >= open {
            s.push_str(&summary(&run_id(i - open)));
            s.push('\n');
        }
    }
    s.into_bytes()
}

fn reports(out: &[u8]) -> Vec<Value> {
    parse_jsonl(out)
        .into_iter()
        .filter(|e| e["type"] == "report")
        .collect()
}

fn merge_jsonl(extra: &[&str], input: &[u8]) -> crate::util::Out {
    let mut a = vec!["merge-report", "--log", "--format", "jsonl"];
    a.extend_from_slice(extra);
    aoi(&a, input)
}

#[test]
fn every_run_is_judged_however_many_end() {
    // 300 runs, 7 open at once, under a cap of 10 open runs.
    let out = merge_jsonl(&["--max-runs", "10"], &interleaved(300, 7));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_conforming_report(&out.stdout, 0);
    let r = reports(&out.stdout);
    assert_eq!(r.len(), 300);
    // In order of first appearance, each judged ok.
    for (i, e) in r.iter().enumerate() {
        assert_eq!(e["run"], run_id(i), "{e}");
        assert_eq!(e["outcome"], "ok", "{e}");
    }
    for cmd in [
        &["errors", "--log", "--max-runs", "10"][..],
        &["strip", "--log", "--control", "--max-runs", "10"][..],
    ] {
        let out = aoi(cmd, &interleaved(300, 7));
        assert_eq!(out.code, 0, "{cmd:?}: {}", out.stderr);
    }
    // summary writes each run's outcome as it ends, in order.
    let out = aoi(
        &["summary", "--log", "--max-runs", "10", "--output", "jsonl"],
        &interleaved(300, 7),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_conforming_report(&out.stdout, 0);
    let runs: Vec<Value> = parse_jsonl(&out.stdout)
        .into_iter()
        .filter(|e| e["type"] == "outcome")
        .map(|e| e["run"].clone())
        .collect();
    assert_eq!(runs, (0..300).map(run_id).collect::<Vec<_>>());
    let out = aoi(
        &["errors", "--log", "--max-runs", "10", "--output", "jsonl"],
        &interleaved(300, 7),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_conforming_report(&out.stdout, 0);
    let summary = parse_jsonl(&out.stdout).pop().expect("a summary");
    assert_eq!(summary["properties"]["streams"], 300, "{summary}");
}

#[test]
fn a_run_that_ends_later_is_still_reported_in_order_of_appearance() {
    // B appears after A but ends first.
    let log = [meta("A"), meta("B"), summary("B"), summary("A")].join("\n") + "\n";
    let out = merge_jsonl(&[], log.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let runs: Vec<Value> = reports(&out.stdout)
        .iter()
        .map(|e| e["run"].clone())
        .collect();
    assert_eq!(runs, ["A", "B"]);
}

#[test]
fn open_runs_past_the_cap_are_reported_in_every_format() {
    // 5 runs that never end, 3 allowed open: the last 2 are not judged.
    let log: String = (0..5).map(|i| meta(&run_id(i)) + "\n").collect();
    let say = "more than --max-runs 3 runs open at once";
    for format in ["jsonl", "table", "markdown", "junit", "tap"] {
        let out = aoi(
            &[
                "merge-report",
                "--log",
                "--max-runs",
                "3",
                "--format",
                format,
            ],
            log.as_bytes(),
        );
        assert_eq!(out.code, 74, "{format}: {}", out.stderr);
        assert!(
            out.stdout_str().contains(say),
            "{format}: {}",
            out.stdout_str()
        );
        assert!(out.stderr.contains(say), "{format}: {}", out.stderr);
    }
    for cmd in ["errors", "summary", "strip"] {
        let out = aoi(&[cmd, "--log", "--max-runs", "3"], log.as_bytes());
        assert_eq!(out.code, 74, "{cmd}: {}", out.stderr);
        assert!(out.stderr.contains(say), "{cmd}: {}", out.stderr);
    }
    // Two runs that end, open at once, one allowed: the judged one passes,
    // the other is not judged, and that is 74 in every command.
    let two = [meta("A"), meta("B"), summary("A"), summary("B")].join("\n") + "\n";
    let say = "more than --max-runs 1 runs open at once";
    for cmd in [
        &["errors", "--log", "--max-runs", "1"][..],
        &["summary", "--log", "--max-runs", "1"][..],
        &["strip", "--log", "--max-runs", "1"][..],
        &[
            "merge-report",
            "--log",
            "--max-runs",
            "1",
            "--format",
            "jsonl",
        ][..],
        &["summary", "--log", "--max-runs", "1", "--output", "jsonl"][..],
        &["errors", "--log", "--max-runs", "1", "--output", "jsonl"][..],
    ] {
        let out = aoi(cmd, two.as_bytes());
        assert_eq!(out.code, 74, "{cmd:?}: {}", out.stderr);
        assert!(out.stderr.contains(say), "{cmd:?}: {}", out.stderr);
        if cmd.contains(&"jsonl") {
            assert_conforming_report(&out.stdout, fed_back_code(74));
            assert!(out.stdout_str().contains("TOO_MANY_RUNS"), "{cmd:?}");
        }
    }
}

/// § 13.1: a line of a run after its summary. The run was reported when
/// its summary was read; the later lines are its tail, whose one cause is
/// `summary.not_last`, and the exit is `aoi check`'s on the run alone.
#[test]
fn a_line_after_a_runs_summary_is_its_tails_one_cause() {
    let late = r#"{"type":"hit","aoi":{"seq":2,"run":"A"}}"#;
    let run_a = [meta("A"), summary("A"), late.to_string()].join("\n") + "\n";
    let alone = aoi(&["check"], run_a.as_bytes());
    let log = [
        meta("A"),
        meta("B"),
        summary("A"),
        summary("B"),
        late.to_string(),
    ]
    .join("\n")
        + "\n";
    let out = merge_jsonl(&[], log.as_bytes());
    assert_eq!(out.code, alone.code, "{}", out.stderr);
    assert_conforming_report(&out.stdout, fed_back_code(out.code));
    let r = reports(&out.stdout);
    let outcomes: Vec<(Value, Value)> = r
        .iter()
        .map(|e| (e["run"].clone(), e["outcome"].clone()))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("A".into(), "ok".into()),
            ("B".into(), "ok".into()),
            ("A".into(), "violation".into())
        ],
        "{r:#?}"
    );
    assert!(
        out.stderr
            .contains("line 5 (seq 2): summary.not-last: line after the aoi:summary of line 3"),
        "{}",
        out.stderr
    );
    // One cause: nothing else is said of the tail (no meta, no summary).
    assert!(!out.stderr.contains("meta.missing"), "{}", out.stderr);
    assert!(!out.stderr.contains("summary.missing"), "{}", out.stderr);
    assert_eq!(aoi(&["errors", "--log"], log.as_bytes()).code, alone.code);
    assert_eq!(aoi(&["summary", "--log"], log.as_bytes()).code, alone.code);
}

#[test]
fn many_runs_stay_within_bounded_memory() {
    let dir = scratch("many-two-line-runs");
    let path = dir.join("runs.log");
    // Neither another program's JSON line (the unnamed stream, never
    // ended) nor a run that stays open around all the others holds the
    // ended runs back in memory.
    let around = meta("OUTER");
    let stray = r#"{"type":"info","msg":"starting"}"#;
    let log = [
        format!("{stray}\n{around}\n").into_bytes(),
        interleaved(200_000, 100),
        format!("{}\n", summary("OUTER")).into_bytes(),
    ]
    .concat();
    std::fs::write(&path, log).expect("write");
    let out = crate::util::aoi_stdin_from(&["merge-report", "--log", "--format", "jsonl"], &path);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let summary = parse_jsonl(&out.stdout).pop().expect("a summary");
    assert_eq!(summary["properties"]["streams"], 200_001, "{summary}");
    if let Some(kib) = crate::optional::peak_rss_kib(
        &["merge-report", "--log", "--format", "jsonl"],
        Some(&path),
        &[],
    ) {
        assert!(kib < 64 * 1024, "peak RSS {kib} KiB for 200,000 runs");
    }
    // Late lines: of the last run (kept: its tail) and of the first (one
    // of the 65,536 ended runs back no more: a new stream). Both fail.
    let mut log = std::fs::read(&path).expect("read");
    for run in [run_id(199_999), run_id(0)] {
        log.extend_from_slice(
            format!(r#"{{"type":"hit","aoi":{{"seq":2,"run":"{run}"}}}}"#).as_bytes(),
        );
        log.push(b'\n');
    }
    std::fs::write(&path, log).expect("write");
    let out = crate::util::aoi_stdin_from(&["merge-report", "--log", "--format", "jsonl"], &path);
    assert_eq!(out.code, 65, "{}", out.stderr);
    let said = |s: &str| out.stderr.lines().any(|l| l.contains(s));
    assert!(
        said("run R000199999: line 400004 (seq 2): summary.not-last"),
        "{}",
        out.stderr
    );
    assert!(
        said("run R000000000: line 400005 (seq 2): seq.gap"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_file(&path);
}

/// A live log: each run's entry (merge-report) and outcome (summary) goes
/// out when the run ends, while the log is still being written. Waiting
/// for it is bounded only so that a failure ends the test; a pass does not
/// depend on timing.
#[test]
fn a_live_logs_runs_are_reported_as_they_end() {
    use std::io::{BufRead, Write};
    for (args, ty) in [
        (
            &["merge-report", "--log", "--format", "jsonl"][..],
            "report",
        ),
        (&["summary", "--log", "--output", "jsonl"][..], "outcome"),
    ] {
        let mut child = crate::util::spawn_piped(args);
        let mut stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                let _ = tx.send(line);
            }
        });
        writeln!(stdin, "{}\n{}", meta("A"), summary("A")).expect("write");
        stdin.flush().expect("flush");
        let mut seen = Vec::new();
        while !seen
            .iter()
            .any(|l: &String| l.contains(&format!(r#""type":"{ty}""#)))
        {
            match rx.recv_timeout(std::time::Duration::from_secs(60)) {
                Ok(line) => seen.push(line),
                Err(_) => panic!("{args:?}: no {ty} line while the log is open: {seen:?}"),
            }
        }
        drop(stdin);
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(0), "{args:?}");
    }
}
