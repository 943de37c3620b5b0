//! The harness: run the real `aoi` binary, build streams, read reports.
//!
//! Every machine-mode output aoi produces in these tests goes through
//! [`report`] / [`report_full`], which feed it back through `aoi check`
//! ([`assert_conforming_report`]): aoi's report is itself an AOI stream and
//! must pass its own judge.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};

/// The binary under test.
pub const AOI: &str = env!("CARGO_BIN_EXE_aoi");

/// The run id of every stream the builder makes (a 26-character ULID).
pub const RUN: &str = "01JZQ7X4TQ9KZ8V6R2M3N4P5Q6";

/// Exit codes a judged stream can produce (the outcome table).
pub const VERDICT_CODES: &[i32] = &[0, 1, 65, 74, 75, 77, 124, 130];

/// What one run of the binary did.
#[derive(Debug)]
pub struct Out {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// The exit code, or 128 + the signal for a process killed by a signal.
pub fn code_of(status: ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1)
}

/// Tells whoever runs the tests what a passing test did not test (a
/// missing tool or folder, a condition this machine did not produce),
/// past the capture of `eprintln!` that hides it when the test passes.
pub fn notice(msg: impl std::fmt::Display) {
    let _ = writeln!(std::io::stderr().lock(), "note: {msg}");
}

/// Spawns `aoi ARGS` with all three streams piped and a thread feeding
/// `stdin` (aoi may exit before reading everything, e.g. on usage errors
/// or a closed stdout, so write errors are ignored).
pub fn spawn_fed(
    args: &[&str],
    stdin: Vec<u8>,
) -> (std::process::Child, std::thread::JoinHandle<()>) {
    let mut child = spawn_piped(args);
    let mut sin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(&stdin);
    });
    (child, writer)
}

/// A command whose process starts with SIGINT and SIGTERM at their default
/// action. A test run from a background job (`cargo test &`, `nohup`, a CI
/// runner's shell) inherits them ignored, aoi keeps a signal it inherited
/// as ignored (§ 7), and a test of cancellation would wait for a stop that
/// never comes. Every process a test starts is made here.
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new(program);
    // SAFETY: only signal(2), async-signal-safe, between fork and exec.
    unsafe {
        c.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            Ok(())
        });
    }
    c
}

/// Spawns `aoi ARGS` with stdin, stdout and stderr piped.
pub fn spawn_piped(args: &[&str]) -> std::process::Child {
    spawn_piped_env(args, &[])
}

/// [`spawn_piped`] with extra environment variables.
pub fn spawn_piped_env(args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
    crate::util::command(AOI)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn aoi")
}

/// Runs `aoi ARGS` with `stdin` fed from a thread (so a large input cannot
/// deadlock against a full stdout pipe) and captures everything.
pub fn aoi(args: &[&str], stdin: &[u8]) -> Out {
    aoi_env(args, stdin, &[])
}

/// Runs `args` with `--threads N` on `input` from a pipe and on `file`
/// (holding the same bytes), once for each way the engine may split the
/// work: one thread; two with the adaptive split; two with the consumer
/// preparing every line (its own block checks); two with a fixed share of
/// each block. `check` gets a label naming the run, and its output.
pub fn across_splits(args: &[&str], input: &[u8], file: &str, mut check: impl FnMut(&str, Out)) {
    let runs: [(&str, &[(&str, &str)]); 4] = [
        ("1", &[]),
        ("2", &[]),
        ("2", &[("AOI_PARALLEL_SHARE", "0")]),
        ("2", &[("AOI_PARALLEL_SHARE", "40000")]),
    ];
    for (threads, env) in runs {
        let args = [args, &["--threads", threads]].concat();
        let from_pipe = aoi_env(&args, input, env);
        let with_file = [&args[..], &[file]].concat();
        let from_file = aoi_env(&with_file, b"", env);
        for (how, out) in [("pipe", from_pipe), ("file", from_file)] {
            check(&format!("--threads {threads} {env:?}, {how}"), out);
        }
    }
}

/// [`aoi`] with extra environment variables (e.g. `AOI_PARALLEL_SHARE`).
/// A run that does not end fails the test after `waits::HANG`.
pub fn aoi_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Out {
    let mut child = spawn_piped_env(args, env);
    let mut sin = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(&input);
    });
    let (out, err) = drain(&mut child);
    let status = crate::waits::wait_exit(&mut child, &format!("aoi {args:?}"));
    let _ = writer.join();
    Out {
        code: code_of(status),
        stdout: out.join().expect("stdout reader"),
        stderr: String::from_utf8_lossy(&err.join().expect("stderr reader")).into_owned(),
    }
}

/// Runs `aoi ARGS` with stdin taken from `stdin` (a file or directory).
pub fn aoi_stdin_from(args: &[&str], stdin: &Path) -> Out {
    let f = std::fs::File::open(stdin).expect("open stdin source");
    let out = crate::util::command(AOI)
        .args(args)
        .stdin(Stdio::from(f))
        .output()
        .expect("run aoi");
    Out {
        code: code_of(out.status),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `aoi check ARGS` on `stdin`.
pub fn check(args: &[&str], stdin: &[u8]) -> Out {
    let mut a = vec!["check"];
    a.extend_from_slice(args);
    aoi(&a, stdin)
}

/// A test's scratch directory, removed when it is dropped (the end of
/// the test, passed or failed): runs of the suite do not pile up.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh, empty scratch directory for one test.
pub fn scratch(name: &str) -> Scratch {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("aoi-cli-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    Scratch(d)
}

/// The path of `examples/NAME` in the source tree.
pub fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Writes `bytes` to `dir/name` and returns the path as a string.
pub fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write input file");
    p.to_str().expect("utf-8 path").to_string()
}

// ---------------------------------------------------------------------------
// Stream builder
// ---------------------------------------------------------------------------

/// The `"aoi":{…}` member for `seq` in run [`RUN`], for hand-written lines.
pub fn env(seq: u64) -> String {
    format!(r#""aoi":{{"seq":{seq},"run":"{RUN}"}}"#)
}

/// The identity fields (§ 5) the builder puts on aoi:meta and aoi:summary.
pub fn identity() -> Map<String, Value> {
    obj(
        r#"{"tool":"outline","tool_version":"1.8.2","aoi_version":"1.0-alpha",
            "schema_name":"com.example.outline.events","schema_version":"1.0.0"}"#,
    )
}

/// Parses a JSON object literal (test input, so a bad literal is a test bug).
pub fn obj(json: &str) -> Map<String, Value> {
    match serde_json::from_str::<Value>(json) {
        Ok(Value::Object(m)) => m,
        other => panic!("test bug: not a JSON object literal: {json}: {other:?}"),
    }
}

#[derive(Debug, Clone)]
enum Line {
    /// An event object; the builder adds the envelope unless it has one.
    Ev(Map<String, Value>),
    /// Bytes written as they are (the builder appends the `\n`).
    Raw(Vec<u8>),
}

/// A stream described by what differs from a conforming one.
///
/// By default: `aoi:meta` with the identity triple (line 1), the body
/// events, and a terminal `aoi:summary` with `ok:true`, the identity and
/// counters computed from the body (`event_count` = all lines, `count` =
/// domain events, `warning_count`, `error_count`). Every event gets
/// `"aoi":{"seq":N,"run":RUN}` with `seq` contiguous over the enveloped
/// lines, unless it already carries an `aoi` member (then its seq, if a
/// number, is where counting resumes). Raw lines take no seq.
#[derive(Debug, Clone)]
pub struct Stream {
    meta: Option<Map<String, Value>>,
    body: Vec<Line>,
    summary: Option<Map<String, Value>>,
    summary_drop: Vec<String>,
    envelope: bool,
    terminated: bool,
}

impl Default for Stream {
    fn default() -> Self {
        Self::new()
    }
}

impl Stream {
    pub fn new() -> Self {
        let mut meta = Map::new();
        meta.insert("type".into(), "aoi:meta".into());
        meta.extend(identity());
        meta.insert("command".into(), "search".into());
        let mut summary = Map::new();
        summary.insert("type".into(), "aoi:summary".into());
        summary.insert("ok".into(), true.into());
        Stream {
            meta: Some(meta),
            body: Vec::new(),
            summary: Some(summary),
            summary_drop: Vec::new(),
            envelope: true,
            terminated: true,
        }
    }

    /// Appends an event (a JSON object literal).
    pub fn ev(mut self, json: &str) -> Self {
        self.body.push(Line::Ev(obj(json)));
        self
    }

    /// Appends `n` domain events `{"type":"hit","rank":i}`.
    pub fn hits(mut self, n: usize) -> Self {
        for i in 0..n {
            self = self.ev(&format!(r#"{{"type":"hit","rank":{i}}}"#));
        }
        self
    }

    /// Appends a line verbatim (without its `\n`, which the builder adds).
    pub fn raw(mut self, bytes: impl AsRef<[u8]>) -> Self {
        self.body.push(Line::Raw(bytes.as_ref().to_vec()));
        self
    }

    /// Merges `patch` (a JSON object literal) into aoi:meta.
    pub fn meta(mut self, patch: &str) -> Self {
        self.meta.get_or_insert_with(Map::new).extend(obj(patch));
        self
    }

    /// Removes keys from aoi:meta.
    pub fn meta_without(mut self, keys: &[&str]) -> Self {
        if let Some(m) = self.meta.as_mut() {
            for k in keys {
                m.remove(*k);
            }
        }
        self
    }

    /// No aoi:meta line.
    pub fn no_meta(mut self) -> Self {
        self.meta = None;
        self
    }

    /// Merges `patch` into aoi:summary; its keys win over the computed ones.
    pub fn summary(mut self, patch: &str) -> Self {
        self.summary.get_or_insert_with(Map::new).extend(obj(patch));
        self
    }

    /// Removes keys from aoi:summary (computed ones included).
    pub fn summary_without(mut self, keys: &[&str]) -> Self {
        self.summary_drop.extend(keys.iter().map(|k| k.to_string()));
        self
    }

    /// Summary without the identity fields.
    pub fn summary_anonymous(self) -> Self {
        self.summary_without(&[
            "tool",
            "tool_version",
            "aoi_version",
            "schema_name",
            "schema_version",
        ])
    }

    /// No aoi:summary line.
    pub fn no_summary(mut self) -> Self {
        self.summary = None;
        self
    }

    /// No `aoi` envelope on the builder's events.
    pub fn no_envelope(mut self) -> Self {
        self.envelope = false;
        self
    }

    /// The final line lacks its `\n`.
    pub fn unterminated(mut self) -> Self {
        self.terminated = false;
        self
    }

    /// Number of lines.
    pub fn line_count(&self) -> u64 {
        (self.meta.is_some() as usize + self.body.len() + self.summary.is_some() as usize) as u64
    }

    /// The stream's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let total = self.line_count();
        let (mut domain, mut warnings, mut errors) = (0u64, 0u64, 0u64);
        for l in &self.body {
            let ty = match l {
                Line::Ev(m) => m.get("type").and_then(Value::as_str).map(str::to_string),
                Line::Raw(b) => serde_json::from_slice::<Value>(b)
                    .ok()
                    .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_string)),
            };
            match ty.as_deref() {
                Some("aoi:warning") => warnings += 1,
                Some("aoi:error") => errors += 1,
                Some(t) if !t.starts_with("aoi:") => domain += 1,
                _ => {}
            }
        }
        let summary = self.summary.as_ref().map(|patch| {
            let mut m = Map::new();
            m.insert("type".into(), "aoi:summary".into());
            m.insert("event_count".into(), total.into());
            m.insert("count".into(), domain.into());
            m.insert("warning_count".into(), warnings.into());
            m.insert("error_count".into(), errors.into());
            m.extend(identity());
            m.extend(patch.clone());
            for k in &self.summary_drop {
                m.remove(k);
            }
            m
        });
        let mut lines: Vec<Line> = Vec::new();
        if let Some(m) = &self.meta {
            lines.push(Line::Ev(m.clone()));
        }
        lines.extend(self.body.iter().cloned());
        if let Some(s) = summary {
            lines.push(Line::Ev(s));
        }
        let mut out = Vec::new();
        let mut seq = 0u64;
        for l in &lines {
            match l {
                Line::Raw(b) => {
                    out.extend_from_slice(b);
                    if let Ok(v) = serde_json::from_slice::<Value>(b) {
                        if let Some(s) = v.pointer("/aoi/seq").and_then(Value::as_u64) {
                            seq = s + 1;
                        }
                    }
                }
                Line::Ev(m) => {
                    let envelope = match m.get("aoi") {
                        Some(e) => {
                            seq = match e.get("seq").and_then(Value::as_u64) {
                                Some(s) => s + 1,
                                None => seq + 1,
                            };
                            Some(e.clone())
                        }
                        None if self.envelope => {
                            let e = serde_json::json!({"seq": seq, "run": RUN});
                            seq += 1;
                            Some(e)
                        }
                        None => None,
                    };
                    out.push(b'{');
                    let mut first = true;
                    let mut member = |out: &mut Vec<u8>, k: &str, v: &Value| {
                        if !first {
                            out.push(b',');
                        }
                        first = false;
                        out.extend(serde_json::to_vec(k).expect("key"));
                        out.push(b':');
                        out.extend(serde_json::to_vec(v).expect("value"));
                    };
                    if let Some(t) = m.get("type") {
                        member(&mut out, "type", t);
                    }
                    if let Some(e) = &envelope {
                        member(&mut out, "aoi", e);
                    }
                    for (k, v) in m {
                        if k != "type" && k != "aoi" {
                            member(&mut out, k, v);
                        }
                    }
                    out.push(b'}');
                }
            }
            out.push(b'\n');
        }
        if !self.terminated {
            out.pop();
        }
        out
    }
}

/// Shorthand for [`Stream::new`].
pub fn s() -> Stream {
    Stream::new()
}

// ---------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------

/// What `aoi check --output jsonl` produced.
#[derive(Debug)]
pub struct Report {
    pub code: i32,
    pub events: Vec<Value>,
    pub stderr: String,
}

impl Report {
    /// `violation` and `advisory` events.
    pub fn findings(&self) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| matches!(e["type"].as_str(), Some("violation" | "advisory")))
            .collect()
    }

    /// Findings of one rule.
    pub fn of(&self, rule: &str) -> Vec<&Value> {
        self.findings()
            .into_iter()
            .filter(|e| e["rule"] == rule)
            .collect()
    }

    /// True when `rule` was reported at `line`.
    pub fn has(&self, rule: &str, line: u64) -> bool {
        self.of(rule).iter().any(|e| e["line_number"] == line)
    }

    /// Rule ids and line numbers, for failure messages.
    pub fn brief(&self) -> String {
        let f: Vec<String> = self
            .findings()
            .iter()
            .map(|e| format!("{}@{}", e["rule"].as_str().unwrap_or("?"), e["line_number"]))
            .collect();
        format!("exit {} findings [{}]", self.code, f.join(", "))
    }

    /// The `stream` events, one per judged input.
    pub fn streams(&self) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| e["type"] == "stream")
            .collect()
    }

    /// The single `stream` event.
    pub fn stream(&self) -> &Value {
        let s = self.streams();
        assert_eq!(s.len(), 1, "expected one stream event: {}", self.brief());
        s[0]
    }

    /// The report's own terminal aoi:summary.
    pub fn summary(&self) -> &Value {
        let last = self.events.last().expect("empty report");
        assert_eq!(
            last["type"], "aoi:summary",
            "report does not end in aoi:summary"
        );
        last
    }
}

/// The exit code `aoi check` gives when fed a report whose run exited
/// `original`: a report is a conforming stream, so 0 stays 0; the upstream
/// outcomes 1, 75, 77, 124 and 130 are reproduced (reason and `caused_by`,
/// § 13.1); aoi's own failures (65, 74, 66: an `aoi:error` with
/// retryable:false and reason "failed") read as 1.
pub fn fed_back_code(original: i32) -> i32 {
    match original {
        0 | 1 | 75 | 77 | 124 | 130 => original,
        _ => 1,
    }
}

/// Parses JSON Lines strictly: every line an object, the last one
/// terminated.
pub fn parse_jsonl(bytes: &[u8]) -> Vec<Value> {
    assert!(
        bytes.is_empty() || bytes.ends_with(b"\n"),
        "report does not end with a line feed"
    );
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: Value = serde_json::from_slice(l).unwrap_or_else(|e| {
                panic!(
                    "report line is not JSON ({e}): {}",
                    String::from_utf8_lossy(l)
                )
            });
            assert!(v.is_object(), "report line is not an object: {v}");
            v
        })
        .collect()
}

/// Feeds aoi's own machine output back through `aoi check`: it must be a
/// stream without a single finding, judged `expected` (see
/// [`fed_back_code`]); and the second-level report is checked too, by
/// relaying it (byte for byte) through `aoi check -q`.
pub fn assert_conforming_report(bytes: &[u8], expected: i32) {
    assert_matches_schema(bytes);
    // aoi eats its own: every event validated by aoi's own validator too,
    // against `aoi schema` (a schema.invalid finding fails below).
    let schema = aoi_schema_file();
    let again = check(&["--output", "jsonl", "--schema", schema], bytes);
    let events = parse_jsonl(&again.stdout);
    let findings: Vec<String> = events
        .iter()
        .filter(|e| matches!(e["type"].as_str(), Some("violation" | "advisory")))
        .map(|e| format!("{} line {}: {}", e["rule"], e["line_number"], e["message"]))
        .collect();
    assert!(
        findings.is_empty(),
        "aoi's report is not conforming: {findings:#?}\nreport:\n{}",
        String::from_utf8_lossy(bytes)
    );
    assert_eq!(
        again.code,
        expected,
        "aoi check on aoi's report: exit {} (expected {expected}); stderr: {}\nreport:\n{}",
        again.code,
        again.stderr,
        String::from_utf8_lossy(bytes)
    );
    let relay = check(&["-q", "--schema", schema], &again.stdout);
    assert_eq!(
        relay.stdout, again.stdout,
        "relay of a report is not byte-identical"
    );
    assert_eq!(relay.stderr, "", "-q printed on stderr");
    assert_eq!(
        relay.code,
        fed_back_code(expected),
        "aoi check on the report of aoi's report:\n{}",
        again.stdout_str()
    );
}

/// `aoi schema --output json`, written once per test binary: the file
/// `--schema` reads to validate aoi's own output.
pub fn aoi_schema_file() -> &'static str {
    static FILE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let out = aoi(&["schema", "--output", "json"], b"");
        assert_eq!(out.code, 0, "aoi schema: {}", out.stderr);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let p = dir.join(format!("aoi-schema-{}.json", std::process::id()));
        std::fs::write(&p, &out.stdout).expect("write aoi's schema");
        p.to_str().expect("UTF-8 path").to_string()
    })
}

/// Validates every event of aoi's machine output against `aoi schema`
/// (JSON Schema 2020-12, compiled once per test binary).
pub fn assert_matches_schema(bytes: &[u8]) {
    static VALIDATOR: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        let out = aoi(&["schema", "--output", "json"], b"");
        assert_eq!(out.code, 0, "aoi schema: {}", out.stderr);
        let schema: Value = serde_json::from_slice(&out.stdout).expect("the schema is JSON");
        jsonschema::validator_for(&schema).expect("the schema is valid JSON Schema")
    });
    for ev in parse_jsonl(bytes) {
        let errors: Vec<String> = validator
            .iter_errors(&ev)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "event does not match aoi schema: {errors:#?}\n{ev}"
        );
    }
}

/// Checks the framing every report has: aoi:meta first with aoi's identity,
/// contiguous seq from 0, one 26-character run, aoi:summary last with
/// event_count = lines and the identity.
pub fn assert_report_framing(events: &[Value]) {
    assert!(!events.is_empty(), "empty report");
    let meta = &events[0];
    assert_eq!(meta["type"], "aoi:meta");
    assert_eq!(meta["tool"], "aoi");
    for k in [
        "tool_version",
        "aoi_version",
        "schema_name",
        "schema_version",
    ] {
        assert!(meta[k].is_string(), "report aoi:meta lacks {k}: {meta}");
    }
    assert_eq!(meta["aoi_version"], "1.0-alpha");
    let run = meta["aoi"]["run"].as_str().expect("report run");
    assert_eq!(run.len(), 26, "run is not a 26-character ULID: {run}");
    assert!(
        run.bytes()
            .all(|c| b"0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains(&c)),
        "run is not Crockford base32: {run}"
    );
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["aoi"]["seq"], i as u64, "seq not contiguous at {i}: {e}");
        assert_eq!(e["aoi"]["run"], run, "run changed at {i}");
        assert!(e["type"].is_string());
    }
    let sum = events.last().expect("summary");
    assert_eq!(sum["type"], "aoi:summary");
    assert_eq!(sum["event_count"], events.len() as u64);
    for k in [
        "tool",
        "tool_version",
        "aoi_version",
        "schema_name",
        "schema_version",
    ] {
        assert_eq!(sum[k], meta[k], "summary {k} differs from meta");
    }
    assert_eq!(events.iter().filter(|e| e["type"] == "aoi:meta").count(), 1);
    assert_eq!(
        events.iter().filter(|e| e["type"] == "aoi:summary").count(),
        1
    );
}

/// `aoi check --output jsonl EXTRA` on `stream`: the parsed report, its exit
/// code and stderr. The report is framing-checked and fed back through
/// `aoi check`.
pub fn report_full(stream: &[u8], extra: &[&str]) -> Report {
    let mut args = vec!["--output", "jsonl"];
    args.extend_from_slice(extra);
    into_report(check(&args, stream))
}

/// Parses a report run's stdout, checks its framing and feeds it back
/// through `aoi check`.
pub fn into_report(out: Out) -> Report {
    let events = parse_jsonl(&out.stdout);
    assert_report_framing(&events);
    assert_conforming_report(&out.stdout, fed_back_code(out.code));
    Report {
        code: out.code,
        events,
        stderr: out.stderr,
    }
}

/// The report's events (see [`report_full`]).
pub fn report(stream: &[u8], extra: &[&str]) -> Vec<Value> {
    report_full(stream, extra).events
}

/// Like [`report_full`] with stdin read from `path` (a file or directory).
pub fn report_stdin_from(path: &Path, extra: &[&str]) -> Report {
    let mut args = vec!["check", "--output", "jsonl"];
    args.extend_from_slice(extra);
    into_report(aoi_stdin_from(&args, path))
}

/// The rule catalog as the binary lists it: `(id, severity)`.
pub fn catalog() -> Vec<(String, String)> {
    let out = aoi(&["rules"], b"");
    assert_eq!(out.code, 0, "aoi rules: {}", out.stderr);
    out.stdout_str()
        .lines()
        .map(|l| {
            let mut w = l.split_whitespace();
            (
                w.next().expect("id").to_string(),
                w.next().expect("severity").to_string(),
            )
        })
        .collect()
}

/// Spawns `aoi ARGS` on `input` (large enough to fill a pipe), reads a few
/// bytes of stdout and closes it: aoi must stop quietly (exit 141 or 0, no
/// panic, no backtrace, no message about the pipe).
pub fn assert_quiet_on_early_close(args: &[&str], input: Vec<u8>) {
    assert!(input.len() > 4 << 20);
    let (mut child, writer) = spawn_fed(args, input);
    let mut out = child.stdout.take().expect("stdout");
    let head = read_some(&mut out, 16);
    assert_eq!(head.len(), 16);
    drop(out);
    assert_ends_quietly(args, child, writer);
}

/// The end of a run whose reader went away: exit 141 or 0, and nothing
/// on stderr about it (no panic, no "Broken pipe").
fn assert_ends_quietly(
    args: &[&str],
    mut child: std::process::Child,
    writer: std::thread::JoinHandle<()>,
) {
    let mut err = child.stderr.take().expect("stderr");
    let stderr = String::from_utf8_lossy(&read_some(&mut err, 1 << 20)).into_owned();
    let status = child.wait().expect("wait aoi");
    let _ = writer.join();
    let code = code_of(status);
    assert!(
        code == 141 || code == 0,
        "{args:?}: exit {code}; stderr: {stderr}"
    );
    for bad in ["panic", "Broken pipe", "backtrace", "internal error"] {
        assert!(
            !stderr.contains(bad),
            "{args:?}: stderr mentions {bad}: {stderr}"
        );
    }
}

/// Reads from a child's stdout until `n` bytes arrived (or EOF).
pub fn read_some(r: &mut impl Read, n: usize) -> Vec<u8> {
    let mut buf = vec![0; n];
    let mut got = 0;
    while got < n {
        match r.read(&mut buf[got..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => got += k,
        }
    }
    buf.truncate(got);
    buf
}

/// Runs `aoi ARGS` with `head` in its stdin, which then stays open and
/// silent: a hung upstream (§ 4.2; `--idle-timeout` is what ends it).
/// `head` is in the pipe before aoi starts (`waits::prefilled_pipe`), so
/// aoi never finds the pipe empty before it has read all of it; `None`
/// where no pipe here holds that much.
pub fn fed_then_silent(args: &[&str], head: &[u8]) -> Option<Out> {
    let (r, w) = crate::waits::prefilled_pipe(head)?;
    let mut child = crate::util::command(AOI)
        .args(args)
        .stdin(Stdio::from(r))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn aoi");
    let (out, err) = drain(&mut child);
    let status = crate::waits::wait_exit(&mut child, &format!("aoi {args:?} on a silent input"));
    drop(w);
    Some(Out {
        code: code_of(status),
        stdout: out.join().expect("stdout reader"),
        stderr: String::from_utf8_lossy(&err.join().expect("stderr reader")).into_owned(),
    })
}

/// Reads a child's stdout and stderr to their ends on threads of their
/// own, so that neither pipe fills while the test waits for something
/// else.
pub fn drain(
    child: &mut std::process::Child,
) -> (
    std::thread::JoinHandle<Vec<u8>>,
    std::thread::JoinHandle<Vec<u8>>,
) {
    let read_all = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = child.stdout.take().expect("stdout piped");
    let err = child.stderr.take().expect("stderr piped");
    (read_all(Box::new(out)), read_all(Box::new(err)))
}

/// Runs `aoi ARGS` with its stdout's read end closed before it writes
/// anything (`aoi … | true`): it must end quietly, 141 or 0, whatever it
/// was about to write (summaries, tables, reports).
pub fn assert_quiet_when_stdout_is_gone(args: &[&str], input: Vec<u8>) {
    let (mut child, writer) = spawn_fed(args, input);
    drop(child.stdout.take());
    assert_ends_quietly(args, child, writer);
}

/// A jsonl report with what differs from one merge to the next taken out:
/// aoi's own run id, its envelope's `t` and its summary's `elapsed_ms`
/// (associative byte for byte apart from run ids and times).
pub fn normalized(report: &[u8]) -> String {
    let text = String::from_utf8(report.to_vec()).expect("UTF-8");
    // The meta is the report's first line; under 2>&1 stderr lines may
    // come before it.
    let meta = text
        .lines()
        .find(|l| l.starts_with("{\"type\":\"aoi:meta\""));
    let first: Value = serde_json::from_str(meta.unwrap_or("{}")).expect("meta");
    let own = first["aoi"]["run"].as_str().unwrap_or("-").to_string();
    text.replace(&own, "RUN")
        .lines()
        .map(|l| {
            let l = cut_number(l, ",\"t\":");
            if l.starts_with("{\"type\":\"aoi:summary\"") {
                cut_number(&l, ",\"elapsed_ms\":")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` without the first `key` and the number after it.
fn cut_number(line: &str, key: &str) -> String {
    let Some(at) = line.find(key) else {
        return line.to_string();
    };
    let rest = &line[at + key.len()..];
    let n = rest
        .find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
        .unwrap_or(rest.len());
    format!("{}{}", &line[..at], &rest[n..])
}

/// The lines of `b`, as text.
pub fn lines(b: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(b)
        .lines()
        .map(str::to_string)
        .collect()
}

/// A report line without what differs between two runs: aoi's own run id,
/// the time stamps.
pub fn stable(line: &[u8]) -> String {
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(mut m)) => {
            if let Some(Value::Object(env)) = m.get_mut("aoi") {
                if env.get("run").and_then(Value::as_str) != Some(RUN) {
                    env.remove("run");
                }
                env.remove("t");
            }
            m.remove("elapsed_ms");
            Value::Object(m).to_string()
        }
        _ => String::from_utf8_lossy(line).into_owned(),
    }
}

/// `events` (one-line objects) as a stream, each with its envelope
/// (`seq`, [`RUN`]) appended after its own members, byte for byte, a meta
/// before and a summary after.
pub fn enveloped(events: &[String]) -> Vec<u8> {
    let mut out = format!(
        "{{\"type\":\"aoi:meta\",\"aoi\":{{\"seq\":0,\"run\":\"{RUN}\"}},\"tool\":\"t\",\
         \"tool_version\":\"1\",\"aoi_version\":\"1.0-alpha\"}}\n"
    );
    for (i, e) in events.iter().enumerate() {
        let env = format!(",\"aoi\":{{\"seq\":{},\"run\":\"{RUN}\"}}}}", i + 1);
        out.push_str(&e[..e.len() - 1]);
        out.push_str(&env);
        out.push('\n');
    }
    out.push_str(&format!(
        "{{\"type\":\"aoi:summary\",\"aoi\":{{\"seq\":{},\"run\":\"{RUN}\"}},\"ok\":true}}\n",
        events.len() + 1
    ));
    out.into_bytes()
}
