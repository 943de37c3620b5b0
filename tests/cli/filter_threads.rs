//! `aoi filter` on one big input and several threads (`src/cmd/filter/
//! split.rs`): the judge on its thread, the filter on workers, each
//! chunk's results replayed in order. stdout (but for aoi's run id and
//! times), stderr and the exit are one thread's, for the filter's fast
//! paths (a plain path, the members a filter reads, the event unchanged)
//! and its slow one, item errors, `debug`, forwarded upstream errors,
//! `--framework`, lines past the hold, results past a worker's room, and
//! a halt after which a worker is still busy.

use crate::util::{s, scratch, stable, write_file};
use proptest::prelude::*;

/// Programs that take each of the filter's ways through an event.
const PROGRAMS: &[&[&str]] = &[
    // Cheap, and filtered on one thread: the same, trivially.
    &["."],
    &[".rank"],
    // The event unchanged, written from its line.
    &["select(.rank != 7)"],
    &["{rank, type}"],
    &["select((.rank // 1) % 3 == 0)"],
    &["if (.rank // 0) % 997 == 5 then error(\"no \\(.rank)\") else {r: .rank} end"],
    &[
        "--continue-on-error",
        "if (.rank // 0) % 501 == 7 then error(\"x\") else . end",
    ],
    &["(.rank // 0) as $r | if $r % 1999 == 3 then debug else empty end"],
    &["--framework", "{t: .type, seq: .aoi.seq}"],
    &["--arg", "x", "y", "{x: $x, rank}"],
    // The whole event read: its envelope, every key, an escaped one.
    &["[.aoi.seq, .aoi.run, (keys | length), .ab, .rank]"],
    &["del(.rank)"],
];

fn run(program: &[&str], file: &str, threads: &str, env: &[(&str, &str)]) -> crate::util::Out {
    let mut c = crate::util::command(crate::util::AOI);
    c.arg("filter")
        .args(program)
        .args(["--threads", threads, file]);
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().expect("run aoi");
    crate::util::Out {
        code: crate::util::code_of(o.status),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Every program gives on two and three threads what it gives on one, and
/// its report passes `aoi check` with the exit it states.
fn alike(name: &str, input: &[u8], programs: &[&[&str]], env: &[(&str, &str)]) {
    let dir = scratch("filter-threads");
    let file = write_file(&dir, name, input);
    for program in programs {
        let one = run(program, &file, "1", env);
        for threads in ["2", "3"] {
            let more = run(program, &file, threads, env);
            let what = format!("filter {program:?} on {name}, --threads {threads}");
            assert_eq!(one.code, more.code, "{what}: exit codes differ");
            let lines = |o: &[u8]| o.split(|&b| b == b'\n').map(stable).collect::<Vec<_>>();
            assert!(
                lines(&one.stdout) == lines(&more.stdout),
                "{what}: stdout differs"
            );
            assert_eq!(one.stderr, more.stderr, "{what}: stderr differs");
        }
        let code = crate::util::fed_back_code(one.code);
        crate::util::assert_conforming_report(&run(program, &file, "2", env).stdout, code);
    }
}

/// A stream of many blocks with every kind of line among the events:
/// broken lines, upstream errors and warnings (forwarded), progress,
/// lines past a small hold, and a cut tail.
fn busy_stream(hits: usize) -> Vec<u8> {
    let mut st = s();
    for i in 0..hits / 100 {
        st = match i % 9 {
            0 => st.raw("not json at all"),
            1 => st.raw(r#"{"type":"hit","type":"x","aoi":{"seq":1,"run":"R"}}"#),
            2 => st.ev(r#"{"type":"aoi:warning","code":"W","message":"careful"}"#),
            3 => st.ev(
                r#"{"type":"aoi:error","category":"io","code":"E","message":"m","retryable":true}"#,
            ),
            4 => st.raw(format!(
                "{{\"type\":\"hit\",\"blob\":\"{}\"}}",
                "x".repeat(9_000)
            )),
            5 => st.ev(r#"{"type":"aoi:progress","done":1}"#),
            6 => st.raw(r#"{"type":"hit","s":"\ud800 lone","rank":6}"#),
            // An escaped key, a repeated one, an envelope out of its usual
            // order: what the judge's peek says of them is what the
            // workers read.
            7 => st.raw(r#"{"type":"hit","a\u0062":"x","rank":8,"rank":9}"#),
            8 => st.raw(r#"{"type":"hit","aoi":{"run":"R","seq":5},"rank":10}"#),
            _ => st,
        }
        .hits(100);
    }
    st.unterminated().bytes()
}

#[test]
fn filter_on_several_threads_writes_like_one() {
    let input = busy_stream(60_000);
    assert!(input.len() > 2 << 20, "spans many chunks");
    alike("busy.jsonl", &input, PROGRAMS, &[]);
    // Lines past --max-line-bytes (filter's hold) reach the filter as the
    // judge's reduced copy: an item error of their own.
    alike(
        "held.jsonl",
        &input,
        &[
            &["--max-line-bytes", "4096", "select(true)"],
            &[
                "--max-line-bytes",
                "4096",
                "--continue-on-error",
                "{rank, one: 1}",
            ],
        ],
        &[],
    );
    alike(
        "clean.jsonl",
        &s().hits(30_000).bytes(),
        &[&["{rank, one: 1}"]],
        &[],
    );
    alike("empty.jsonl", b"", &[&["{rank, one: 1}"]], &[]);
}

/// Results far past what a worker keeps of a chunk are filtered again on
/// the writer's thread, live, as one thread writes them.
#[test]
fn results_past_a_workers_room_come_out_alike() {
    let input = s().hits(1_500).bytes();
    alike(
        "wide.jsonl",
        &input,
        &[&["range(200) as $i | {i: $i, rank}"]],
        &[],
    );
}

/// A halt: one thread never runs the filter on the events after it, so
/// neither do two, whose results are dropped; here the filter would never
/// end on an event past the halt, which a worker may already be in: the
/// run still ends, with one thread's output and exit.
#[test]
fn a_halt_ends_the_run_as_on_one_thread() {
    let input = s().hits(40_000).bytes();
    let programs: &[&[&str]] = &[
        &["if .rank == 100 then halt elif .rank == 20000 then any(range(1e300); . < 0) else . end"],
        &["if .rank == 30000 then \"stop\\n\" | halt_error(3) else {rank} end"],
    ];
    alike("halts.jsonl", &input, programs, &[]);
}

/// A halt whose message, after a chunk's worth of big results, passes
/// what a worker keeps of its chunk: the halt must not be lost (it was:
/// the worker's record went back whole without it, exit 0, `ok:true`,
/// and that worker's later chunks empty). A chunk a worker halted in is
/// filtered again by the writing thread, which halts as one thread does.
#[test]
fn a_halt_past_a_workers_room_is_not_lost() {
    let input = s().hits(3_000).bytes();
    let halt = |rank: usize, how: &str| {
        format!(
            r#"if .rank == {rank} then ("E" * 600000 | {how}) else {{type: "o", p: ("y" * 3000)}} end"#
        )
    };
    let programs = [
        halt(450, "halt_error"),
        halt(520, "halt_error"),
        halt(1500, "halt_error"),
        halt(1500, "stderr | halt"),
    ];
    let programs: Vec<[&str; 1]> = programs.iter().map(|p| [p.as_str()]).collect();
    let programs: Vec<&[&str]> = programs.iter().map(|p| &p[..]).collect();
    alike("halt-room.jsonl", &input, &programs, &[]);
}

/// The same for many files, each filtered whole by a worker: a file
/// whose halt message passes the worker's room was replayed without the
/// halt (exit 0, `ok:true`, the later files filtered, where one thread
/// exits 5). A file that halted is filtered again in its turn.
#[test]
fn a_halt_past_a_workers_room_is_not_lost_among_files() {
    let program = r#"if .halt then ("E" * 600000 | halt_error) else {p: ("y" * 50)} end"#;
    for at in [1_000, 2_990] {
        let dir = scratch("filter-threads-files");
        let files: Vec<String> = (0..4)
            .map(|k| {
                let st = match k {
                    1 => s()
                        .hits(at)
                        .ev(r#"{"type":"hit","halt":true}"#)
                        .hits(3_000 - at),
                    _ => s().hits(3_000),
                };
                write_file(&dir, &format!("f{k}.jsonl"), &st.bytes())
            })
            .collect();
        let run = |threads: &str| {
            let mut c = crate::util::command(crate::util::AOI);
            c.args(["filter", program, "--threads", threads])
                .args(&files);
            let o = c.output().expect("run aoi");
            (crate::util::code_of(o.status), o.stdout, o.stderr)
        };
        let one = run("1");
        assert_eq!(one.0, 5, "one thread halts");
        for threads in ["2", "3"] {
            let more = run(threads);
            let what = format!("halt after {at}, --threads {threads}");
            assert_eq!(one.0, more.0, "{what}: exit codes differ");
            let lines = |o: &[u8]| o.split(|&b| b == b'\n').map(stable).collect::<Vec<_>>();
            assert!(lines(&one.1) == lines(&more.1), "{what}: stdout differs");
            assert!(one.2 == more.2, "{what}: stderr differs");
        }
    }
}

/// Many small files, each filtered whole by a worker (framed and
/// `--raw`): what the filter writes to stderr (`debug`) goes out where
/// one thread writes it, and a halt in a file among them ends the run as
/// one thread's does, the files after it unfiltered.
#[test]
fn many_files_say_and_halt_as_one_thread() {
    let dir = scratch("filter-threads-many");
    let files: Vec<String> = (0..12)
        .map(|k| {
            write_file(
                &dir,
                &format!("m{k:02}.jsonl"),
                &s().hits(200 + k * 37).bytes(),
            )
        })
        .collect();
    std::fs::write(dir.join("m.jq"), "def nxt: input;\n").expect("write a module");
    let lib = dir.to_str().expect("a UTF-8 scratch path");
    let programs: &[&[&str]] = &[
        &["(.rank // 0) as $r | if $r % 50 == 7 then debug else {r: $r} end"],
        &["--raw", "if .rank? % 50 == 7 then debug else .rank? end"],
        &[
            r#"if .rank == 300 then "stop\n" | halt_error(3) elif .rank % 40 == 1 then debug else {rank} end"#,
        ],
        &[
            "--raw",
            r#"if .rank? == 300 then "stop\n" | halt_error(3) elif .rank? % 40 == 1 then debug else .rank? end"#,
        ],
        &["--raw", "if .rank? == 300 then halt else .rank? end"],
        &["if .rank == 300 then halt else {rank} end"],
        // A module's `input` reads on into the next file, as the program's
        // own does: such files are read in turn.
        &[
            "--raw",
            "-c",
            "-L",
            lib,
            r#"include "m"; [.rank?, (nxt | .rank?)]"#,
        ],
        &[
            "--raw",
            "-c",
            "-L",
            lib,
            r#"import "m" as m; [.rank?, (m::nxt | .rank?)]"#,
        ],
    ];
    let run = |program: &[&str], threads: &str| {
        let mut c = crate::util::command(crate::util::AOI);
        c.arg("filter")
            .args(program)
            .args(["--threads", threads])
            .args(&files);
        let o = c.output().expect("run aoi");
        (crate::util::code_of(o.status), o.stdout, o.stderr)
    };
    for program in programs {
        let one = run(program, "1");
        for threads in ["2", "3"] {
            let more = run(program, threads);
            let what = format!("filter {program:?} on many files, --threads {threads}");
            assert_eq!(one.0, more.0, "{what}: exit codes differ");
            let lines = |o: &[u8]| o.split(|&b| b == b'\n').map(stable).collect::<Vec<_>>();
            assert!(lines(&one.1) == lines(&more.1), "{what}: stdout differs");
            assert!(one.2 == more.2, "{what}: stderr differs");
        }
    }
}

/// Two threads for one input: the judge's thread and a filter worker
/// start beside the filter's (and the process's first, which waits for
/// it): four; with `--threads 1` the filter's thread reads alone: two;
/// `.` (written from the line's own bytes, cheaper than handing the line
/// over) is read on two threads as `check` reads: three.
#[test]
fn the_filter_runs_on_workers_with_threads() {
    use std::io::Write;
    if !crate::waits::proc_here() {
        crate::util::notice("no /proc here; the thread count is not observed");
        return;
    }
    // `.`, `.rank` and `{rank}` are written from the line: the judge's
    // two threads only.
    let runs = [
        ("{rank, one: 1}", "2", 4),
        ("{rank, one: 1}", "1", 2),
        (".", "2", 3),
        ("{rank}", "2", 3),
    ];
    for (program, threads, want) in runs {
        let args = ["filter", program, "--threads", threads];
        let mut child = crate::util::spawn_piped(&args);
        let pid = child.id();
        let mut sin = child.stdin.take().expect("stdin");
        sin.write_all(&s().hits(50).no_summary().bytes())
            .expect("feed");
        crate::waits::wait_idle(pid, &sin, &format!("{args:?}"));
        let n = crate::parallel::threads_of(pid);
        assert_eq!(n, Some(want), "{args:?}: threads");
        drop(sin);
        crate::waits::wait_exit(&mut child, &format!("{args:?}"));
    }
}

fn line_kind() -> impl Strategy<Value = u8> {
    0u8..10
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Random line soup over many chunks and a random program of the
    /// list: two threads, one thread's output.
    #[test]
    fn random_streams_filter_alike(
        kinds in prop::collection::vec(line_kind(), 1..1500),
        program in 0..PROGRAMS.len(),
        tail in any::<bool>(),
    ) {
        let mut st = s();
        for k in kinds {
            st = match k {
                0 => st.raw("{\"type\":\"hit\""),
                1 => st.ev(r#"{"type":"aoi:warning","code":"W","message":"w"}"#),
                2 => st.raw(format!("{{\"type\":\"hit\",\"big\":\"{}\"}}", "é".repeat(3_000))),
                3 => st.ev(r#"{"type":"aoi:progress","done":1}"#),
                4 => st.raw("[1,2,3]"),
                _ => st.hits(40),
            };
        }
        if tail {
            st = st.unterminated();
        }
        let mut args = vec!["--max-line-bytes", "5000"];
        args.extend_from_slice(PROGRAMS[program]);
        alike("random.jsonl", &st.bytes(), &[&args], &[]);
    }
}

/// `--rawfile` and `--slurpfile` are read once, before the filter runs:
/// every thread's variables hold the same text, from a file, a pipe (read
/// only once) and a FIFO alike. Workers that read the files again saw an
/// empty pipe and waited forever on the FIFO.
#[test]
fn variables_from_files_are_read_once_for_every_thread() {
    let dir = scratch("filter-threads-files");
    let input = write_file(&dir, "in.jsonl", &s().hits(20_000).bytes());
    let text = write_file(&dir, "t.txt", b"hi\n");
    let program = "select(.rank % 2500 == 0) | [.rank, $s, $t]";
    let mut outs = Vec::new();
    for threads in ["1", "2", "3"] {
        let args = [
            "filter",
            "--threads",
            threads,
            "--slurpfile",
            "s",
            "/dev/stdin",
            "--rawfile",
            "t",
            &text,
            program,
            &input,
        ];
        let out = crate::util::aoi(&args, br#"{"k":1}"#);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let results: Vec<String> = out
            .stdout
            .split(|&b| b == b'\n')
            .map(stable)
            .filter(|l| l.contains("\"value\""))
            .collect();
        assert_eq!(results.len(), 8, "{args:?}");
        for r in &results {
            assert!(r.contains(r#"[{"k":1}],"hi\n""#), "{args:?}: {r}");
        }
        outs.push(results);
    }
    assert!(outs.windows(2).all(|w| w[0] == w[1]));
}

/// A filter that, on an event in a worker's chunk, writes to stderr and
/// never ends: one thread writes that stderr live, and so must two (the
/// worker's capture hands the chunk back the moment it passes its room,
/// not at a result the filter never reaches). The test reads stderr until
/// 2 MB have come, then stops the run.
#[test]
fn a_never_ending_stderr_writer_on_a_worker_is_written_live() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = scratch("filter-threads-stderr");
    let input = write_file(&dir, "in.jsonl", &s().hits(20_000).bytes());
    let program = r#"if .rank == 15000 then (repeat(.) | ("x\n" | stderr) | empty) else .rank end"#;
    let mut child = crate::util::command(crate::util::AOI)
        .args(["filter", "--threads", "2", program, &input])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn aoi");
    let mut err = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 << 10];
        let mut got = 0usize;
        while got < 2 << 20 {
            match err.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got += n,
            }
        }
        let _ = tx.send(got);
    });
    let got = rx.recv_timeout(crate::waits::HANG);
    let _ = child.kill();
    let _ = child.wait();
    let got = got.expect("no stderr while the filter ran on a worker");
    assert!(got >= 2 << 20, "only {got} bytes on stderr");
}

/// jq's `input_filename` is the file being read on every path of the
/// framed mode: in turn, one big input split over threads, small files on
/// workers; null on stdin (docs/filter.md).
#[test]
fn input_filename_is_the_file_being_read_on_every_thread() {
    let dir = scratch("filter-threads-name");
    let big = write_file(&dir, "big.jsonl", &busy_stream(60_000));
    let small = write_file(&dir, "small.jsonl", &s().hits(50).bytes());
    for threads in ["1", "2"] {
        let mut c = crate::util::command(crate::util::AOI);
        c.args(["filter", "-q", "--continue-on-error", "{f: input_filename}"])
            .args(["--threads", threads, &big, &small, &small]);
        let o = c.output().expect("run aoi");
        let out = String::from_utf8_lossy(&o.stdout);
        let named = |f: &str| {
            out.matches(&format!("\"f\":{}", serde_json::json!(f)))
                .count()
        };
        assert!(
            named(&big) > 1000,
            "--threads {threads}: {} from big",
            named(&big)
        );
        assert_eq!(
            named(&small),
            100,
            "--threads {threads}: from the small files"
        );
        assert!(
            !out.contains("\"f\":null"),
            "--threads {threads}: a null name"
        );
    }
    let out = crate::util::aoi(&["filter", "{f: input_filename}"], &s().hits(3).bytes());
    assert_eq!(
        out.stdout_str().matches("\"f\":null").count(),
        3,
        "{}",
        out.stderr
    );
}
