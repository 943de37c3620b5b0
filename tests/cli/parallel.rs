//! `--threads`: a regular file read on two threads (one reading and
//! validating, one judging, `src/parallel.rs`) gives exactly what one
//! thread gives: the same relay, the same report, the same stderr, the same
//! exit code, for every command that reads that way, on streams that break
//! every kind of rule, lines over the limit and cut tails included, and
//! for the log readers (`errors`, `merge-report`) on messy logs of many
//! interleaved runs.

use proptest::prelude::*;

use crate::util::{RUN, s, scratch, stable, write_file};

/// The commands that read a file on two threads, each as it is run.
const COMMANDS: &[&[&str]] = &[
    &["check"],
    &["check", "--output", "jsonl", "--max-per-rule", "100000"],
    &["strip", "--no-fail"],
    &["strip", "--control", "--no-fail"],
    &["summary", "--output", "json"],
    &["summary", "--output", "jsonl"],
    &["filter", "--continue-on-error", "."],
    &["errors", "--no-fail"],
    &["errors", "--no-fail", "--count"],
    &["errors", "--no-fail", "-w", "--output", "raw"],
    &["errors", "--no-fail", "--output", "jsonl"],
    &["merge-report", "--no-fail", "--format", "jsonl"],
    &["merge-report", "--no-fail", "--format", "tap"],
];

/// The log readers: on a log, the others would judge one stream.
const LOG_COMMANDS: &[&[&str]] = &[
    &["errors", "--log", "--no-fail"],
    &["errors", "--log", "--no-fail", "-w", "--output", "raw"],
    &["errors", "--log", "--no-fail", "--output", "jsonl"],
    &["errors", "--log", "--no-fail", "--count"],
    &["merge-report", "--log", "--no-fail", "--format", "jsonl"],
    &["merge-report", "--log", "--no-fail", "--format", "tap"],
    &["merge-report", "--log", "--no-fail", "--format", "junit"],
    &["strip", "--log", "--no-fail"],
    &["summary", "--log"],
    &["summary", "--log", "--output", "jsonl"],
    // Read as one stream, a log is judged as aoi check judges it.
    &["merge-report", "--no-fail", "--format", "jsonl"],
    &["errors", "--no-fail", "--count"],
];

fn normalised(stdout: &[u8], report: bool) -> Vec<String> {
    if report {
        stdout.split(|&b| b == b'\n').map(stable).collect()
    } else {
        vec![String::from_utf8_lossy(stdout).into_owned()]
    }
}

/// Whether `cmd` writes a report (compared without run ids and times).
fn is_report(cmd: &[&str]) -> bool {
    cmd.contains(&"jsonl") || cmd.contains(&"json") || cmd[0] == "filter"
}

/// One thread's and two threads' runs gave the same results.
fn assert_alike(one: &crate::util::Out, two: &crate::util::Out, report: bool, what: &str) {
    assert_eq!(one.code, two.code, "{what}: exit codes differ");
    assert_eq!(
        normalised(&one.stdout, report),
        normalised(&two.stdout, report),
        "{what}: stdout differs"
    );
    assert_eq!(one.stderr, two.stderr, "{what}: stderr differs");
}

/// Whether `cmd` writes an AOI stream of its own (a report that `aoi
/// check` must pass), rather than a relay, a table or a JSON document.
fn writes_aoi_stream(cmd: &[&str]) -> bool {
    cmd.contains(&"jsonl") && !matches!(cmd[0], "strip" | "filter")
}

/// Feeds the report of `cmd` on `file` (two threads) back through `aoi
/// check`: run without `--no-fail`, so that its exit is the verdict its
/// summary states.
fn fed_back(cmd: &[&str], extra: &[&str], file: &str) {
    let mut c = crate::util::command(crate::util::AOI);
    c.args(cmd.iter().filter(|a| **a != "--no-fail"));
    for a in extra {
        match a.strip_prefix("AOI_HOLD_LINE_BYTES=") {
            Some(n) => c.env("AOI_HOLD_LINE_BYTES", n),
            None => c.arg(a),
        };
    }
    let o = c.args(["--threads", "2", file]).output().expect("run aoi");
    let code = crate::util::code_of(o.status);
    crate::util::assert_conforming_report(&o.stdout, crate::util::fed_back_code(code));
}

/// Runs every command on `input` (written to a file) with one and with two
/// threads and requires the same results; the reports are fed back
/// through `aoi check`.
fn same_either_way(name: &str, input: &[u8], extra: &[&str]) {
    same_either_way_for(COMMANDS, name, input, extra);
}

/// [`same_either_way`] for the commands of `commands`.
fn same_either_way_for(commands: &[&[&str]], name: &str, input: &[u8], extra: &[&str]) {
    let dir = scratch("parallel");
    let file = write_file(&dir, name, input);
    for cmd in commands {
        let report = is_report(cmd);
        let run = |threads: &str, share: Option<&str>| {
            let mut c = crate::util::command(crate::util::AOI);
            c.args(*cmd);
            // `AOI_HOLD_LINE_BYTES=N` among the extras is the hold, an
            // environment setting (lines past it are read in pieces).
            for a in extra {
                match a.strip_prefix("AOI_HOLD_LINE_BYTES=") {
                    Some(n) => c.env("AOI_HOLD_LINE_BYTES", n),
                    None => c.arg(a),
                };
            }
            c.args(["--threads", threads, &file]);
            if let Some(bytes) = share {
                c.env("AOI_PARALLEL_SHARE", bytes);
            }
            let o = c.output().expect("run aoi");
            crate::util::Out {
                code: crate::util::code_of(o.status),
                stdout: o.stdout,
                stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            }
        };
        let one = run("1", None);
        // The worker peeking every line, none, part of each block, and
        // the adaptive split.
        for share in [Some("1000000000"), Some("0"), Some("40000"), None] {
            let two = run("2", share);
            assert_alike(
                &one,
                &two,
                report,
                &format!("{cmd:?} on {name}, share {share:?}"),
            );
        }
        if writes_aoi_stream(cmd) {
            fed_back(cmd, extra, &file);
        }
    }
}

/// A long stream breaking many rules at once, in many blocks.
#[test]
fn two_threads_judge_exactly_like_one() {
    let mut st = s().hits(40_000);
    for i in 0..400 {
        st = match i % 8 {
            0 => st.raw("not json at all"),
            1 => st.raw(r#"{"type":"hit","type":"x","aoi":{"seq":1,"run":"R"}}"#),
            2 => st.ev(r#"{"type":"aoi:warning","code":"W","message":"careful"}"#),
            3 => st.raw(
                "{\"type\":\"hit\",\"aoi\":{\"seq\":7,\"run\":\"01JZQ7X4TQ9KZ8V6R2M3N4P5Q6\"}}\r",
            ),
            4 => st.raw(format!(
                "{{\"type\":\"hit\",\"blob\":\"{}\"}}",
                "x".repeat(9_000)
            )),
            5 => st.raw(b"{\"type\":\"hit\",\"s\":\"\xff\xfe\"}"),
            6 => st.ev(
                r#"{"type":"aoi:error","category":"io","code":"E","message":"m","retryable":true}"#,
            ),
            _ => st.hits(50),
        };
    }
    let input = st.unterminated().bytes();
    assert!(input.len() > 2 << 20, "spans many blocks");
    same_either_way("many-rules.jsonl", &input, &[]);
    // Lines past the hold are relayed and judged in pieces.
    same_either_way("long-lines.jsonl", &input, &["AOI_HOLD_LINE_BYTES=4096"]);
    // A line of 1.5 MB past a 200K hold: it goes to the judge in pieces
    // of a block; one more such line is the cut tail.
    let big = format!(
        "{{\"type\":\"hit\",\"blob\":\"{}\"}}",
        "y".repeat(1_500_000)
    );
    let input = s()
        .hits(2_000)
        .raw(big.as_str())
        .hits(2_000)
        .raw(big.as_str())
        .unterminated()
        .bytes();
    same_either_way("huge-line.jsonl", &input, &["AOI_HOLD_LINE_BYTES=200000"]);
    // A clean stream, and an empty one.
    same_either_way("clean.jsonl", &s().hits(20_000).bytes(), &[]);
    same_either_way("empty.jsonl", b"", &[]);
}

/// Text rich in non-ASCII characters, whose UTF-8 is checked a block at a
/// time (`lines::utf8_prefix`), with bad sequences here and there: the
/// worker's lines, the consumer's, and one thread's are judged alike.
#[test]
fn non_ascii_text_with_bad_sequences_is_judged_alike() {
    let text = r#"{"type":"hit","title":"日本語 ✅ ภาษาไทย Иван Петров „Zitat“ été 🎉"}"#;
    let mut st = s();
    for i in 0..20_000 {
        st = match i % 1999 {
            7 => st.raw(b"{\"type\":\"hit\",\"t\":\"\xe6\x97\xa5 \xff\"}"),
            1000 => st.raw(b"{\"type\":\"hit\",\"t\":\"\xed\xa0\x80\"}"),
            1200 => st.raw(b"{\"type\":\"hit\",\"t\":\"\xe6\x97\xa5\"}\xff"),
            1500 => st.ev(r#"{"type":"aoi:error","category":"io","code":"E","message":"日本語 🎉","retryable":false}"#),
            _ => st.ev(text),
        };
    }
    let input = st.bytes();
    assert!(input.len() > 2 << 20, "spans many blocks");
    same_either_way("unicode.jsonl", &input, &[]);
}

/// A log as CI keeps them: several runs interleaved line by line, each
/// line perhaps behind a container runtime's prefix, a worker tag, inside a
/// Docker json-file record, with colour or a CR after it; prose and other
/// programs' JSON between; damaged events, lines over the limit, runs
/// that never end, and a cut last line.
fn messy_log(runs: usize, rounds: usize) -> Vec<u8> {
    let run_id = |r: usize| format!("01JZQ7X4TQ9KZ8V6R2M3N4P{r:03}");
    let streams: Vec<Vec<String>> = (0..runs)
        .map(|r| {
            let mut st = s();
            for i in 0..rounds {
                st = match (i + r) % 6 {
                    0 => st.ev(r#"{"type":"aoi:warning","code":"W","message":"careful"}"#),
                    1 => st.ev(
                        r#"{"type":"aoi:error","category":"io","code":"E","message":"m","retryable":true}"#,
                    ),
                    _ => st.hits(3),
                };
            }
            // Every third run never ends.
            if r % 3 == 2 {
                st = st.no_summary();
            }
            String::from_utf8_lossy(&st.bytes())
                .replace(RUN, &run_id(r))
                .lines()
                .map(str::to_string)
                .collect()
        })
        .collect();
    let mut log = Vec::new();
    let longest = streams.iter().map(Vec::len).max().unwrap_or(0);
    let mut n = 0usize;
    for i in 0..longest {
        for (r, lines) in streams.iter().enumerate() {
            let Some(line) = lines.get(i) else { continue };
            n += 1;
            let decorated = match n % 9 {
                0 => format!("2026-07-30T12:00:00.000000001Z stdout F {line}"),
                1 => format!("[worker-{r}] {line}\x1b[0m"),
                2 => format!(
                    r#"{{"log":"{}\n","stream":"stdout","time":"2026-07-30T12:00:00Z"}}"#,
                    line.replace('\\', "\\\\").replace('"', "\\\"")
                ),
                3 => format!("{line}\r"),
                _ => line.clone(),
            };
            log.extend_from_slice(decorated.as_bytes());
            log.push(b'\n');
            match n % 50 {
                7 => log.extend_from_slice(b"INFO starting the next phase\n"),
                17 => log.extend_from_slice(br#"{"level":"info","msg":"{not an event}"}"#),
                27 => log.extend_from_slice(b"{\"type\":\"aoi:error\",\"cut\n"),
                37 => log.extend_from_slice(
                    format!("{{\"type\":\"hit\",\"blob\":\"{}\"}}", "z".repeat(9_000)).as_bytes(),
                ),
                _ => {}
            }
            if matches!(n % 50, 17 | 37) {
                log.push(b'\n');
            }
        }
    }
    log.extend_from_slice(b"[worker-0] {\"type\":\"aoi:error\"");
    log
}

/// `errors` and `merge-report` read a log on two threads (the worker finds
/// and peeks each line's event) exactly as on one.
#[test]
fn log_readers_on_two_threads_read_like_one() {
    let log = messy_log(12, 1_500);
    assert!(log.len() > 2 << 20, "spans many blocks");
    same_either_way_for(LOG_COMMANDS, "messy.log", &log, &[]);
    // Lines past the hold are located in pieces; past --max-runs runs are
    // counted, not judged.
    same_either_way_for(
        LOG_COMMANDS,
        "messy-limits.log",
        &log,
        &["AOI_HOLD_LINE_BYTES=4096", "--max-runs", "5"],
    );
}

/// The log readers and `errors` on one stream give from a pipe what they
/// give from a file on one thread, whichever way the two threads share the
/// work ([`crate::util::across_splits`]).
#[test]
fn log_readers_from_a_pipe_read_like_one_thread() {
    let log = messy_log(6, 1_500);
    let stream = {
        let mut st = s();
        for i in 0..30_000 {
            st = match i % 50 {
                0 => st.ev(
                    r#"{"type":"aoi:error","category":"io","code":"E","message":"m","retryable":true}"#,
                ),
                1 => st.ev(r#"{"type":"aoi:warning","code":"W","message":"careful"}"#),
                2 if i % 1000 == 2 => st.raw("not json at all"),
                _ => st.hits(1),
            };
        }
        st.unterminated().bytes()
    };
    assert!(
        log.len() > 2 << 20 && stream.len() > 2 << 20,
        "spans many blocks"
    );
    let dir = scratch("parallel-pipe");
    let cases: [(&[&str], &[u8], &str); 8] = [
        (&["errors", "--no-fail"], &stream, "stream.jsonl"),
        (&["errors", "--no-fail", "--count"], &stream, "stream.jsonl"),
        (
            &["errors", "--no-fail", "--output", "jsonl"],
            &stream,
            "stream.jsonl",
        ),
        (
            &["errors", "--log", "--no-fail", "--count"],
            &log,
            "messy.log",
        ),
        (
            &["merge-report", "--log", "--no-fail", "--format", "jsonl"],
            &log,
            "messy.log",
        ),
        (&["strip", "--log", "--no-fail"], &log, "messy.log"),
        (&["summary", "--log"], &log, "messy.log"),
        (
            &["errors", "--log", "--no-fail", "--output", "jsonl"],
            &log,
            "messy.log",
        ),
    ];
    for (cmd, input, name) in cases {
        let file = write_file(&dir, name, input);
        let report = is_report(cmd);
        // One thread's run from a pipe and from the file come first: the
        // others are held to the one of their kind (a pipe has no name).
        let mut one: std::collections::HashMap<bool, crate::util::Out> = Default::default();
        crate::util::across_splits(cmd, input, &file, |run, out| {
            let pipe = run.ends_with("pipe");
            match one.get(&pipe) {
                Some(first) => assert_alike(first, &out, report, &format!("{cmd:?} {run}")),
                None => {
                    assert!(run.starts_with("--threads 1 "), "{run}");
                    one.insert(pipe, out);
                }
            }
        });
        assert_eq!(one.len(), 2, "a pipe and a file");
        if writes_aoi_stream(cmd) {
            fed_back(cmd, &[], &file);
        }
    }
}

/// One kind of line of a generated stream.
fn line_kind() -> impl Strategy<Value = u8> {
    0u8..10
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Random line soup over many blocks: two threads, one verdict.
    #[test]
    fn random_streams_judge_alike(kinds in prop::collection::vec(line_kind(), 1..3000), tail in any::<bool>()) {
        let mut st = s();
        for k in kinds {
            st = match k {
                0 => st.raw("{\"type\":\"hit\""),
                1 => st.raw(""),
                2 => st.raw(format!("{{\"type\":\"hit\",\"big\":\"{}\"}}", "é".repeat(3_000))),
                3 => st.ev(r#"{"type":"aoi:progress","done":1}"#),
                4 => st.raw("[1,2,3]"),
                5 => st.ev(r#"{"type":"aoi:heartbeat"}"#),
                _ => st.hits(20),
            };
        }
        if tail {
            st = st.unterminated();
        }
        same_either_way("random.jsonl", &st.bytes(), &["AOI_HOLD_LINE_BYTES=5000"]);
    }
}

/// A reader that goes away mid-file: the judge stops on the closed pipe and
/// the worker, blocked on a full queue, must stop too (quiet, 141), not
/// hold the process forever.
#[test]
fn a_closed_stdout_stops_both_threads() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = scratch("parallel-close");
    let mut st = s();
    for _ in 0..25_000 {
        st = st.hits(3).ev(
            r#"{"type":"aoi:error","category":"io","code":"E","message":"m","retryable":true}"#,
        );
    }
    let file = write_file(&dir, "big.jsonl", &st.bytes());
    for cmd in [&["check"][..], &["strip"], &["filter", "."], &["errors"]] {
        let mut child = crate::util::command(crate::util::AOI)
            .args(cmd)
            .args(["--threads", "2", &file])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn aoi");
        let mut out = child.stdout.take().expect("stdout");
        let mut head = [0u8; 16];
        out.read_exact(&mut head).expect("first bytes");
        drop(out);
        exits_quietly(
            &mut child,
            &format!("{cmd:?} --threads 2 after its reader went away"),
        );
    }
}

/// Waits for the quiet exit on a closed stdout: 141, nothing
/// on stderr.
fn exits_quietly(child: &mut std::process::Child, what: &str) {
    use std::io::Read;
    let status = crate::waits::wait_exit(child, what);
    let mut err = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err);
    assert_eq!(crate::util::code_of(status), 141, "{what}: {err}");
    assert!(err.is_empty(), "{what}: {err}");
}

/// `--threads 2` on a pipe: the same results as one thread, and each line
/// relayed as it comes, not when a block is full (a live producer's
/// pipeline must not stall).
#[test]
fn two_threads_on_a_pipe() {
    use std::io::{BufRead, BufReader, Write};
    let input = s()
        .hits(20_000)
        .raw("not json")
        .hits(100)
        .unterminated()
        .bytes();
    for cmd in COMMANDS {
        let report = is_report(cmd);
        let run = |threads: &str| {
            let mut a: Vec<&str> = cmd.to_vec();
            a.extend_from_slice(&["--threads", threads]);
            crate::util::aoi(&a, &input)
        };
        let (one, two) = (run("1"), run("2"));
        assert_alike(&one, &two, report, &format!("{cmd:?} on a pipe"));
    }
    // One line in, one line out, with the pipe still open.
    let mut child = crate::util::spawn_piped(&["check", "-q", "--threads", "2"]);
    let mut sin = child.stdin.take().expect("stdin");
    let first = s().hits(1).no_summary().bytes();
    sin.write_all(&first).expect("feed");
    let out = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(out).lines();
        let _ = tx.send(lines.next().map(|l| l.unwrap_or_default()));
    });
    let got = rx.recv_timeout(crate::waits::HANG);
    drop(sin);
    let _ = child.wait();
    let line = got.expect("the first line was not relayed while the pipe stayed open");
    assert!(line.is_some_and(|l| l.contains("aoi:meta")));
}

/// The threads of a running process, from `/proc` (Linux).
pub fn threads_of(pid: u32) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}

/// A stream that breaks rules throughout, `mib` MiB or more of it.
fn rule_breaking(mib: usize) -> Vec<u8> {
    let mut st = s();
    // A hit is about 80 bytes: 2 of 6 rounds add 500 of them.
    for i in 0..(mib << 20) / 12_000 {
        st = match i % 6 {
            0 => st.raw("not json at all"),
            1 => st.raw(r#"{"type":"hit","type":"x","aoi":{"seq":1,"run":"R"}}"#),
            2 => st.ev(r#"{"type":"aoi:warning","code":"W","message":"careful"}"#),
            3 => st.ev(
                r#"{"type":"aoi:error","category":"io","code":"E","message":"m","retryable":true}"#,
            ),
            _ => st.hits(500),
        };
    }
    let bytes = st.unterminated().bytes();
    assert!(bytes.len() >= mib << 20, "{} bytes", bytes.len());
    bytes
}

/// By default a pipe is read on one thread, and on two once it has carried
/// 8 MiB of short lines (`Threads::Later`): the switch, mid-stream, changes
/// nothing in what comes out, for every command.
#[test]
fn a_large_pipe_goes_on_two_threads_with_the_same_results() {
    let input = rule_breaking(12);
    let log = messy_log(12, 1_500);
    assert!(log.len() > 9 << 20, "the log is past the switch");
    for (commands, input) in [(COMMANDS, &input), (LOG_COMMANDS, &log)] {
        for cmd in commands {
            let report = is_report(cmd);
            let run = |threads: Option<&str>| {
                let mut a: Vec<&str> = cmd.to_vec();
                if let Some(t) = threads {
                    a.extend_from_slice(&["--threads", t]);
                }
                crate::util::aoi(&a, input)
            };
            let (one, auto) = (run(Some("1")), run(None));
            assert_alike(&one, &auto, report, &format!("{cmd:?} on a 12 MiB pipe"));
        }
    }
}

/// The switch happens: after 8 MiB through a pipe (and not before), the
/// process has a second thread, for `check` and for `errors`; with
/// `--threads 1` it never does.
#[test]
fn a_pipe_gets_its_second_thread_after_8_mib() {
    use std::io::Write;
    if threads_of(std::process::id()).is_none() || !crate::waits::proc_here() {
        crate::util::notice("no /proc/PID/status here; the thread count is not observed");
        return;
    }
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        crate::util::notice("one CPU here; aoi stays on one thread by design");
        return;
    }
    let big = s().hits(150_000).no_summary().bytes();
    assert!(big.len() > 9 << 20);
    let (head, rest) = big.split_at(4 << 20);
    // No summary: incomplete (74), whatever the threads (errors: --no-fail).
    for (args, want, code) in [
        (&["check", "-q", "--no-relay"][..], 2, 74),
        (&["errors", "-q", "--no-fail"][..], 2, 0),
        (&["check", "-q", "--no-relay", "--threads", "1"][..], 1, 74),
    ] {
        let mut child = crate::util::spawn_piped(args);
        let pid = child.id();
        let mut sin = child.stdin.take().expect("stdin");
        // 4 MiB: still one thread once aoi has done all it can with them.
        sin.write_all(head).expect("feed");
        crate::waits::wait_idle(pid, &sin, &format!("{args:?}"));
        assert_eq!(threads_of(pid), Some(1), "{args:?} after 4 MiB");
        sin.write_all(rest).expect("feed");
        // Past 8 MiB: the reading thread starts, and lives as long as the
        // input is open.
        crate::waits::wait_until(&format!("{args:?}: {want} thread(s)"), || {
            threads_of(pid) == Some(want)
        });
        crate::waits::wait_idle(pid, &sin, &format!("{args:?}"));
        let seen = threads_of(pid);
        assert_eq!(seen, Some(want), "{args:?} after {} bytes", big.len());
        drop(sin);
        let status = crate::waits::wait_exit(&mut child, &format!("{args:?}"));
        assert_eq!(crate::util::code_of(status), code, "{args:?}");
    }
}

/// Wide objects (50,000 members a line) on two threads: the worker's
/// peekers give their memory back when a block is reused (they once held
/// 0.5 GB here).
#[test]
fn wide_objects_on_two_threads_stay_in_bounded_memory() {
    let dir = scratch("parallel-wide");
    let path = dir.join("wide.jsonl");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        let wide = format!("{{{}\"\":0}}\n", "\"\":0,".repeat(50_000));
        for _ in 0..160 {
            f.write_all(b"{}\n{}\n").expect("write");
            f.write_all(wide.as_bytes()).expect("write");
        }
    }
    let Some(kib) = crate::optional::peak_rss_kib(
        &[
            "check",
            "-q",
            "--no-relay",
            "--threads",
            "2",
            path.to_str().expect("a UTF-8 path"),
        ],
        None,
        &[("AOI_PARALLEL_SHARE", "1000000000")],
    ) else {
        return;
    };
    assert!(
        kib < 96 * 1024,
        "peak RSS {kib} KiB on 40 MB of wide objects"
    );
    let _ = std::fs::remove_file(&path);
}

/// A line read in pieces (past a 100-byte hold) is judged as a whole
/// line is, on one thread or two: the same finding at the same byte.
#[test]
fn a_long_line_is_judged_alike_on_one_thread_or_two() {
    let line = format!("{{\"p\":\"{}\"}} x\n", "x".repeat(293));
    let input = line.repeat(2_000);
    for threads in ["1", "2"] {
        for env in [&[][..], &[("AOI_HOLD_LINE_BYTES", "100")][..]] {
            let out = crate::util::aoi_env(
                &["check", "--no-relay", "--threads", threads],
                input.as_bytes(),
                env,
            );
            assert!(
                out.stderr
                    .contains("content after the JSON value at byte 303"),
                "--threads {threads} {env:?}: {}",
                out.stderr
            );
        }
    }
}

/// A reader that goes away while the pipe is silent: the judge learns it at
/// its next write, and the reading thread, back waiting on the silent pipe,
/// must stop at once (quiet, 141), not at the producer's next write. On
/// two threads from the start, and after the switch at 8 MiB.
#[test]
fn a_closed_stdout_ends_a_run_waiting_on_a_silent_pipe() {
    use std::io::{Read, Write};
    if !crate::waits::proc_here() {
        return;
    }
    let small = s().hits(100).no_summary().bytes();
    let big = s().hits(150_000).no_summary().bytes();
    assert!(big.len() > 9 << 20, "past the switch to two threads");
    let one_more = s().no_meta().hits(1).no_summary().bytes();
    // Relays: everything they write comes before the input's end.
    for (args, input) in [
        (&["check", "--threads", "2"][..], &small),
        (&["strip", "--threads", "2"][..], &small),
        (&["check"][..], &big),
        (&["strip"][..], &big),
    ] {
        let what = format!("{args:?} on {} bytes", input.len());
        let mut child = crate::util::spawn_piped(args);
        let mut sin = child.stdin.take().expect("stdin");
        let mut out = child.stdout.take().expect("stdout");
        let pipe = crate::waits::inode(&out);
        // Drain what comes out for the input, then go away.
        let want = crate::util::aoi(args, input).stdout.len();
        let reader = std::thread::spawn(move || {
            let mut buf = vec![0u8; 64 * 1024];
            let mut got = 0;
            while got < want {
                match out.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => got += n,
                }
            }
            got
        });
        sin.write_all(input).expect("feed");
        let got = reader.join().expect("reader");
        assert!(got >= want, "{what}: only {got} bytes relayed");
        // The pipe stays open; one more line makes the judge write into
        // the closed pipe while the reader waits on a silent input again.
        // Closed for good: no process forked by another test meanwhile
        // still holds a copy of its read end.
        crate::waits::wait_unheld(pipe, child.id(), &what);
        crate::waits::wait_idle(child.id(), &sin, &what);
        sin.write_all(&one_more).expect("feed one more");
        exits_quietly(&mut child, &what);
        drop(sin);
    }
}

/// A pipe that has carried 8 MiB is given a 1 MiB buffer (`F_SETPIPE_SZ`),
/// so that its writer and aoi take turns every MiB rather than every 64
/// KiB; a pipe that has carried less is left as it was (most streams are
/// small, and wide buffers count against the user's pipe quota).
#[cfg(target_os = "linux")]
#[test]
fn a_pipe_gets_a_wider_buffer_after_8_mib() {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let mut child = crate::util::spawn_piped(&["check", "-q", "--no-relay"]);
    let mut sin = child.stdin.take().expect("stdin");
    // SAFETY: F_GETPIPE_SZ only reads the capacity of the pipe this test
    // holds the write end of (the same pipe aoi reads).
    let size =
        |f: &std::process::ChildStdin| unsafe { libc::fcntl(f.as_raw_fd(), libc::F_GETPIPE_SZ) };
    let before = size(&sin);
    // Whether this system lets a pipe grow to 1 MiB at all (not over the
    // user's pipe quota, pipe-max-size at least that): tried on a pipe of
    // the test's own.
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills the two descriptors, which are closed below;
    // F_SETPIPE_SZ only sets that pipe's capacity.
    let allowed = unsafe {
        libc::pipe(fds.as_mut_ptr()) == 0 && {
            let r = libc::fcntl(fds[0], libc::F_SETPIPE_SZ, 1 << 20);
            libc::close(fds[0]);
            libc::close(fds[1]);
            r == 1 << 20
        }
    };
    if before >= 1 << 20 || !allowed {
        crate::util::notice(format!(
            "pipes here start at {before} bytes or cannot grow to 1 MiB; skipped"
        ));
        let _ = child.kill();
        let _ = child.wait();
        return;
    }
    sin.write_all(&s().no_summary().bytes()).expect("feed");
    let line = format!(
        "{{\"type\":\"hit\",\"aoi\":{{\"seq\":1,\"run\":\"{RUN}\"}},\"pad\":\"{}\"}}\n",
        "x".repeat(1000)
    );
    let feed = |sin: &mut std::process::ChildStdin, bytes: usize| {
        for _ in 0..bytes / line.len() {
            sin.write_all(line.as_bytes()).expect("feed");
        }
    };
    // Once 7.5 MiB are written, aoi has read all but a pipe's worth of
    // them, and not yet 8 MiB.
    feed(&mut sin, 15 << 19);
    assert_eq!(size(&sin), before, "widened before 8 MiB");
    feed(&mut sin, 3 << 19);
    // aoi widens the pipe in the read that takes it past 8 MiB.
    crate::waits::wait_idle(child.id(), &sin, "aoi check");
    assert_eq!(size(&sin), 1 << 20, "not widened after 9 MiB");
    drop(sin);
    let status = crate::waits::wait_exit(&mut child, "aoi check");
    // Duplicate seqs and no summary: the stream is judged as usual.
    assert_ne!(crate::util::code_of(status), 0);
}
