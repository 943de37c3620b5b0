//! Golden outputs: every report format and machine-mode output of the
//! commands on `examples/`, byte for byte (a reshaping of the
//! code must not change a byte of what it writes). aoi's own run id, its
//! envelope times and its elapsed time vary per run and are normalised;
//! nothing else is. `AOI_REGENERATE=1 cargo test --test cli golden::`
//! rewrites `tests/golden/out/` after a deliberate change.

use std::path::Path;

const EXAMPLES: &[&str] = &[
    "examples/rate-limited.jsonl",
    "examples/search.jsonl",
    "examples/truncated.jsonl",
];

/// Each golden file: its name and the arguments that make it (run from the
/// repository's root, so paths in the output are the examples' own).
fn cases() -> Vec<(String, Vec<String>)> {
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for format in ["table", "markdown", "junit", "tap", "jsonl"] {
        let mut args = own(&["merge-report", "-q", "--color", "never", "--format", format]);
        args.extend(EXAMPLES.iter().map(|e| e.to_string()));
        cases.push((format!("merge-report.{format}"), args));
        cases.push((
            format!("merge-report-log.{format}"),
            own(&[
                "merge-report",
                "-q",
                "--color",
                "never",
                "--log",
                "--format",
                format,
                "examples/messy.log",
            ]),
        ));
    }
    for e in EXAMPLES {
        let stem = Path::new(e)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        cases.push((
            format!("check-{stem}.jsonl"),
            own(&["check", "-q", "--output", "jsonl", e]),
        ));
        cases.push((
            format!("summary-{stem}.json"),
            own(&["summary", "-q", "--output", "json", e]),
        ));
        cases.push((
            format!("errors-{stem}.jsonl"),
            own(&["errors", "-q", "--warnings", "--output", "jsonl", e]),
        ));
        cases.push((format!("strip-{stem}.jsonl"), own(&["strip", "-q", e])));
        cases.push((
            format!("strip-control-{stem}.jsonl"),
            own(&["strip", "-q", "--control", e]),
        ));
    }
    cases.push((
        "errors-log.jsonl".into(),
        own(&[
            "errors",
            "-q",
            "--log",
            "--output",
            "jsonl",
            "examples/messy.log",
        ]),
    ));
    cases.push(("rules.txt".into(), own(&["rules"])));
    cases
}

/// aoi's own run id (from the first line's envelope, when it writes one),
/// its envelope times and its summary's elapsed time, made constant.
pub(crate) fn normalise(out: &str) -> String {
    let own_run = out
        .lines()
        .next()
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["tool"] == "aoi")
        .and_then(|v| v["aoi"]["run"].as_str().map(str::to_string));
    let mut text = out.to_string();
    if let Some(run) = own_run {
        text = text.replace(&run, "RUN");
    }
    let mut lines = Vec::new();
    for line in text.split_inclusive('\n') {
        let mut l = line.to_string();
        if l.contains("\"run\":\"RUN\"") {
            l = replace_number(&l, "\"t\":");
            if l.contains("\"type\":\"aoi:summary\"") {
                l = replace_number(&l, "\"elapsed_ms\":");
            }
        }
        lines.push(l);
    }
    lines.concat()
}

/// `line` with the number after each `key` made 0.
fn replace_number(line: &str, key: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find(key) {
        out.push_str(&rest[..i + key.len()]);
        rest = &rest[i + key.len()..];
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        out.push('0');
        rest = &rest[n..];
    }
    out.push_str(rest);
    out
}

#[test]
fn outputs_on_the_examples_are_byte_for_byte_the_golden_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/golden/out");
    let regenerate = std::env::var_os("AOI_REGENERATE").is_some();
    let mut differ = Vec::new();
    for (name, args) in cases() {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_aoi"))
            .args(&args)
            .current_dir(root)
            .env_remove("NO_COLOR")
            .output()
            .expect("aoi runs");
        let code = out.status.code().unwrap_or(-1);
        let text = format!(
            "# aoi {} -> exit {code}\n{}",
            args.join(" "),
            normalise(&String::from_utf8_lossy(&out.stdout))
        );
        let path = dir.join(&name);
        if regenerate {
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(&path, &text).expect("write golden");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != text {
            differ.push(name);
        }
    }
    assert!(
        differ.is_empty(),
        "outputs differ from tests/golden/out/: {differ:?} (after a deliberate change: AOI_REGENERATE=1 cargo test --test cli golden::)"
    );
}

#[test]
fn normalising_keeps_everything_but_the_own_run() {
    let meta = r#"{"type":"aoi:meta","aoi":{"seq":0,"run":"01M93RAGQ1ME8Z69D5N0QK1Q6Z","t":12},"tool":"aoi"}"#;
    let ev = r#"{"type":"report","aoi":{"seq":1,"run":"01M93RAGQ1ME8Z69D5N0QK1Q6Z","t":3},"run":"01JZQ7X4TQ9KZ8V6R2M3N4P5Q7","elapsed_ms":4.5}"#;
    let end = r#"{"type":"aoi:summary","aoi":{"seq":2,"run":"01M93RAGQ1ME8Z69D5N0QK1Q6Z","t":40},"elapsed_ms":40.25}"#;
    let got = normalise(&format!("{meta}\n{ev}\n{end}\n"));
    assert!(got.contains(r#""run":"RUN","t":0}"#), "{got}");
    assert!(
        got.contains(r#""run":"01JZQ7X4TQ9KZ8V6R2M3N4P5Q7","elapsed_ms":4.5"#),
        "{got}"
    );
    assert!(got.contains(r#""elapsed_ms":0}"#), "{got}");
    assert!(!got.contains("01M93RAGQ"), "{got}");
}
