//! `-q` silences stderr, never stdout: in every command that
//! has it, given after the command or before it (`aoi -q CMD`), stdout
//! and the exit status are what they are without it, and stderr is empty.
//! A script that reads a field (`ms=$(aoi summary -q --field
//! retry_after_ms run.jsonl)`) gets the field. Without `-q`, every
//! non-zero exit says why on stderr.

use std::path::Path;

use crate::golden::normalise;

/// What one run gave: exit, stdout (aoi's own run id and times made
/// constant), stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = crate::util::command(crate::util::AOI)
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("aoi runs");
    (
        crate::util::code_of(out.status),
        normalise(&String::from_utf8_lossy(&out.stdout)),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every command and output that has `-q`, as typed before the input.
const COMMANDS: &[&[&str]] = &[
    &["check"],
    &["check", "--no-relay", "--output", "jsonl"],
    &["strip"],
    &["strip", "--control"],
    &["summary"],
    &["summary", "--field", "outcome"],
    &["summary", "--field", "retry_after_ms"],
    &["summary", "--output", "json"],
    &["summary", "--output", "jsonl"],
    &["errors"],
    &["errors", "--count"],
    &["errors", "--output", "jsonl"],
    &["merge-report", "--format", "table"],
    &["merge-report", "--format", "markdown"],
    &["merge-report", "--format", "junit"],
    &["merge-report", "--format", "tap"],
    &["merge-report", "--format", "jsonl"],
    &["filter", "."],
    &["filter", "-r", ".type"],
    &["filter", "-j", ".type"],
    &["filter", "-a", "-S", "--tab", "."],
    &["filter", "--seq", "--indent", "1", "."],
    &["filter", "--raw-output0", ".type"],
    &["filter", "-e", ".type"],
    &["filter", "--raw", ".type"],
];

/// The inputs: a passing run, a retryable failure, a cut stream, and a
/// log of two runs (read with `--log` by the commands that take it).
const INPUTS: &[&str] = &[
    "examples/search.jsonl",
    "examples/rate-limited.jsonl",
    "examples/truncated.jsonl",
    "examples/messy.log",
];

fn takes_log(cmd: &[&str]) -> bool {
    matches!(cmd[0], "strip" | "summary" | "errors" | "merge-report")
}

#[test]
fn quiet_silences_stderr_never_stdout() {
    for cmd in COMMANDS {
        for input in INPUTS {
            let log = input.ends_with(".log");
            if log && !takes_log(cmd) {
                continue;
            }
            let mut plain: Vec<&str> = cmd.to_vec();
            if log {
                plain.push("--log");
            }
            plain.push(input);
            let mut after = plain.clone();
            after.insert(1, "-q");
            let mut before = plain.clone();
            before.insert(0, "-q");
            let (code, stdout, stderr) = run(&plain);
            // Every non-zero exit says why, unless -q.
            assert!(
                code == 0 || !stderr.is_empty(),
                "{plain:?}: exit {code}, nothing on stderr"
            );
            for quiet in [&after, &before] {
                let (q_code, q_stdout, q_stderr) = run(quiet);
                assert_eq!(q_code, code, "{quiet:?}: the exit changed with -q");
                assert_eq!(q_stdout, stdout, "{quiet:?}: stdout changed with -q");
                assert_eq!(q_stderr, "", "{quiet:?}: something on stderr with -q");
            }
        }
    }
}
