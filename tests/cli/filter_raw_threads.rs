//! `aoi filter --raw` on one big input and several threads (`src/cmd/
//! filter/raw_split.rs`): chunks of whole lines filtered on workers, their
//! records written in input order. stdout, stderr and the exit are one
//! thread's, byte for byte, whatever the chunks (cut small here with
//! `AOI_RAW_CHUNK_BYTES`, so that every kind of line falls on a chunk's
//! edge): invalid JSON, blank lines, several values on a line, a byte
//! order mark, lines past `--max-line-bytes`, an unterminated last line,
//! filter errors, `debug`/`stderr`, halts, `input_filename`, and jq's
//! output flags.

use crate::util::{scratch, write_file};
use proptest::prelude::*;

/// Programs (and flags) that take each of `--raw`'s ways through a line.
const PROGRAMS: &[&[&str]] = &[
    &["."],
    &[".rank"],
    &["-c", "select((.rank? // 0) % 2 == 0)"],
    &["-r", ".name?"],
    &["-j", ".name?"],
    &["--seq", "{rank: .rank?}"],
    &["-c", "{r: .rank?, f: input_filename}"],
    &["if (.rank? // 0) % 7 == 3 then error(\"no \\(.rank)\") else .rank? end"],
    &[
        "-c",
        "(.rank? // 0) as $r | if $r % 5 == 1 then debug else [$r] end",
    ],
    &["if .rank? == 250 then \"bye\\n\" | halt_error(3) else .rank? end"],
    &["if .rank? == 250 then halt else .rank? end"],
    &["-R", "length"],
    &["-c", "$__loc__, .rank?"],
];

/// A line of a random input.
fn line(kind: u8, i: usize) -> String {
    match kind {
        0 => String::new(),
        1 => "{\"rank\":".to_string(),
        2 => format!("{{\"rank\":{i}}} {{\"rank\":{}}} 7", i + 1),
        3 => format!("{{\"name\":\"n{i}\",\"big\":\"{}\"}}", "é".repeat(200)),
        4 => "   ".to_string(),
        5 => format!("[{i}] x"),
        _ => format!("{{\"rank\":{i},\"name\":\"e{i}\"}}"),
    }
}

struct Ran {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

fn run(program: &[&str], file: &str, threads: &str, chunk: &str) -> Ran {
    let mut c = crate::util::command(crate::util::AOI);
    c.args(["filter", "--raw", "--max-line-bytes", "300"])
        .args(program)
        .args(["--threads", threads, file])
        .env("AOI_RAW_CHUNK_BYTES", chunk);
    let o = c.output().expect("run aoi");
    Ran {
        code: o.status.code(),
        stdout: o.stdout,
        stderr: o.stderr,
    }
}

/// Every program gives on two and three threads, chunks large and small,
/// exactly what it gives on one.
fn alike(input: &[u8], programs: &[&[&str]]) {
    let dir = scratch("filter-raw-threads");
    let file = write_file(&dir, "in.jsonl", input);
    for program in programs {
        let one = run(program, &file, "1", "1");
        for (threads, chunk) in [("2", "1"), ("2", "100"), ("3", "37"), ("3", "32768")] {
            let more = run(program, &file, threads, chunk);
            let what = format!("filter --raw {program:?}, --threads {threads}, chunks {chunk}");
            assert_eq!(one.code, more.code, "{what}: exit codes differ");
            assert!(one.stdout == more.stdout, "{what}: stdout differs");
            assert_eq!(
                String::from_utf8_lossy(&one.stderr),
                String::from_utf8_lossy(&more.stderr),
                "{what}: stderr differs"
            );
        }
    }
}

/// Every kind of line, many times, a byte order mark first: each program
/// on every thread count.
#[test]
fn raw_filter_on_several_threads_writes_like_one() {
    let mut input = b"\xef\xbb\xbf".to_vec();
    for i in 0..600 {
        input.extend_from_slice(line((i % 9) as u8, i).as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"{\"rank\":250}\n{\"rank\":1}");
    alike(&input, PROGRAMS);
}

/// The split is really taken: a 9 MB file is read on several threads by
/// default when two CPUs are there, and writes what one thread writes.
#[test]
fn a_big_file_is_split_and_written_alike() {
    let mut input = Vec::new();
    let mut i = 0;
    while input.len() < 9 << 20 {
        input.extend_from_slice(line((i % 9) as u8, i).as_bytes());
        input.push(b'\n');
        i += 1;
    }
    let dir = scratch("filter-raw-threads-big");
    let file = write_file(&dir, "big.jsonl", &input);
    for program in [
        &["-c", "select((.rank? // 0) % 3 == 0)"][..],
        &["-r", ".name?"],
    ] {
        let one = run(program, &file, "1", "32768");
        let auto = run(program, &file, "0", "32768");
        assert_eq!(one.code, auto.code, "{program:?}");
        assert!(one.stdout == auto.stdout, "{program:?}: stdout differs");
        assert!(one.stderr == auto.stderr, "{program:?}: stderr differs");
    }
}

fn line_kind() -> impl Strategy<Value = u8> {
    0u8..10
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Random line soup, a random program, random chunk edges.
    #[test]
    fn random_raw_inputs_filter_alike(
        kinds in prop::collection::vec(line_kind(), 1..800),
        program in 0..PROGRAMS.len(),
        long in any::<bool>(),
        tail in any::<bool>(),
    ) {
        let mut input = Vec::new();
        for (i, k) in kinds.into_iter().enumerate() {
            match (k, long) {
                (9, true) => input.extend_from_slice("x".repeat(400).as_bytes()),
                _ => input.extend_from_slice(line(k, i).as_bytes()),
            }
            input.push(b'\n');
        }
        if tail {
            input.pop();
        }
        alike(&input, &[PROGRAMS[program]]);
    }
}
