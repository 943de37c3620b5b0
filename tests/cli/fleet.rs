//! The fan-out examples of `examples/fleet/`: a directory of
//! run files judged shard by shard on GNU `parallel` and on Apache Spark's
//! `RDD.pipe`, then merged once more, gives what one `aoi merge-report` of
//! every file gives: the same exit, and the same jsonl report byte for byte
//! but for aoi's run id and times. `.ci/run` installs `parallel` (Debian)
//! and pyspark (PyPI) with Java; a test whose engine is missing says so
//! and skips.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::optional::{installed, installed_with, present};
use crate::util::{
    AOI, RUN, aoi, assert_conforming_report, fed_back_code, normalized, s, scratch, write_file,
};

fn example(name: &str) -> String {
    format!("{}/examples/fleet/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fleet of `n` run files under `dir`, in nested directories, of every
/// outcome (passed, failed, retryable, cut, broken).
fn fleet(dir: &Path, n: usize) {
    let patches = [
        "{}",
        r#"{"ok":false,"reason":"failed"}"#,
        r#"{"ok":false,"reason":"timeout"}"#,
        r#"{"event_count":99}"#,
    ];
    for i in 0..n {
        let run = format!("01JZQ7X4TQ9KZ8V6R2M3N{i:05}");
        let mut bytes = String::from_utf8(s().hits(i % 3).summary(patches[i % 4]).bytes())
            .expect("test input")
            .replace(RUN, &run)
            .into_bytes();
        if i % 17 == 5 {
            bytes.truncate(bytes.len() - 10);
        }
        let sub = dir.join(format!("host-{}", i % 5));
        std::fs::create_dir_all(&sub).expect("mkdir");
        write_file(&sub, &format!("run-{i:05}.jsonl"), &bytes);
    }
}

/// Merging every file of `dir` at once, in name order: (exit, report).
fn at_once(dir: &Path) -> (i32, Vec<u8>) {
    let mut names: Vec<String> = Vec::new();
    for sub in std::fs::read_dir(dir).expect("dir") {
        for f in std::fs::read_dir(sub.expect("entry").path()).expect("sub") {
            names.push(f.expect("entry").path().display().to_string());
        }
    }
    names.sort();
    let list = names.join("\n");
    let out = aoi(
        &[
            "merge-report",
            "-q",
            "--format",
            "jsonl",
            "--files-from",
            "-",
        ],
        list.as_bytes(),
    );
    (out.code, out.stdout)
}

/// Runs an example on `dir` with jsonl output: (exit, report, stderr).
fn run(program: &str, args: &[&str], env: &[(&str, String)]) -> (i32, Vec<u8>, String) {
    let mut c = Command::new(program);
    c.args(args)
        .env("AOI", AOI)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap_or_else(|e| panic!("{program}: {e}"));
    let code = out.status.code().unwrap_or(-1);
    (
        code,
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn gnu_parallel_over_a_directory_of_shards() {
    if !present(
        "GNU parallel",
        installed("parallel", &["--version"]),
        "examples/fleet/parallel.sh (.ci/run installs it)",
    ) {
        return;
    }
    let scratch_dir = scratch("fleet-parallel");
    let dir = scratch_dir.join("runs");
    fleet(&dir, 60);
    let (code, want) = at_once(&dir);
    assert_ne!(code, 0, "failed, cut and broken runs");
    let dir = dir.display().to_string();
    let (got_code, got, err) = run(
        "sh",
        &[&example("parallel.sh"), &dir, "jsonl"],
        &[("SHARD", "7".into())],
    );
    assert_eq!(got_code, code, "{err}");
    assert_eq!(normalized(&got), normalized(&want), "{err}");
    assert_conforming_report(&got, fed_back_code(code));
    // A passing fleet exits 0.
    let ok_dir = scratch("fleet-parallel-ok");
    let ok = ok_dir.join("runs");
    std::fs::create_dir_all(ok.join("h")).expect("mkdir");
    write_file(&ok.join("h"), "a.jsonl", &s().hits(2).bytes());
    let (c, _, err) = run(
        "sh",
        &[&example("parallel.sh"), &ok.display().to_string()],
        &[],
    );
    assert_eq!(c, 0, "{err}");
}

/// pyspark where `.ci/run` installs it, or on the Python path.
fn pyspark() -> Option<Vec<(&'static str, String)>> {
    let local = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/consumers/pyspark");
    let env = vec![("PYTHONPATH", local.display().to_string())];
    let ok = installed("java", &["-version"])
        && installed_with("python3", &["-c", "import pyspark"], &env);
    present(
        "pyspark or Java",
        ok,
        "examples/fleet/spark.py (.ci/run installs them)",
    )
    .then_some(env)
}

#[test]
fn spark_rdd_pipe_over_partitions() {
    let Some(mut env) = pyspark() else {
        return;
    };
    // Two local cores whatever the machine: partitions still run at once.
    env.push(("SPARK_MASTER", "local[2]".into()));
    let scratch_dir = scratch("fleet-spark");
    let dir = scratch_dir.join("runs");
    fleet(&dir, 40);
    let (code, want) = at_once(&dir);
    let dir = dir.display().to_string();
    let (got_code, got, err) = run("python3", &[&example("spark.py"), &dir, "jsonl"], &env);
    assert_eq!(got_code, code, "{err}");
    assert_eq!(normalized(&got), normalized(&want), "{err}");
    assert_conforming_report(&got, fed_back_code(code));
}
