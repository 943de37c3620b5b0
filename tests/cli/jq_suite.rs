//! jq's own test file (jqlang/jq `tests/jq.test`, in the shared folder
//! with the modules it imports) through `aoi filter --raw -c`, as
//! JSONTestSuite is run: each case is PROGRAM, an input line
//! and the expected results, compared value by value (numbers as
//! numbers: `2.0` is `2`). A `%%FAIL` case passes when the program does
//! not compile. The count is printed (`--nocapture`); docs/filter.md lists
//! the cases that still differ, grouped by cause.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use crate::util::{AOI, command, notice};

/// Cases that must pass: the count when this was last measured, so that a
/// change that loses one fails here (raise it as cases are won).
const AT_LEAST: usize = 462;

/// One case of the file.
struct Case {
    line: usize,
    program: String,
    /// `None` for a `%%FAIL` case (the program must not compile).
    input: Option<String>,
    expected: Vec<String>,
}

/// The cases of jq.test: blocks of lines between blank lines, `#` lines
/// ignored.
fn cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    for (i, l) in text.lines().chain(std::iter::once("")).enumerate() {
        if l.trim().is_empty() {
            if let Some(case) = case_of(&block) {
                out.push(case);
            }
            block.clear();
        } else if !l.starts_with('#') {
            block.push((i + 1, l));
        }
    }
    out
}

fn case_of(block: &[(usize, &str)]) -> Option<Case> {
    let (line, first) = *block.first()?;
    if first.starts_with("%%FAIL") {
        let program = block.get(1)?.1.to_string();
        return Some(Case {
            line,
            program,
            input: None,
            expected: Vec::new(),
        });
    }
    Some(Case {
        line,
        program: first.to_string(),
        input: Some(block.get(1)?.1.to_string()),
        expected: block.iter().skip(2).map(|(_, l)| l.to_string()).collect(),
    })
}

/// A JSON value with every number as an f64, for comparing results.
fn normal(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value as V;
    match v {
        V::Number(n) => n.as_f64().map_or(V::Null, |f| serde_json::json!(f)),
        V::Array(a) => V::Array(a.into_iter().map(normal).collect()),
        V::Object(o) => V::Object(o.into_iter().map(|(k, v)| (k, normal(v))).collect()),
        other => other,
    }
}

fn values<'a>(lines: impl Iterator<Item = &'a str>) -> Option<Vec<serde_json::Value>> {
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            // A number past f64's range is one serde_json refuses: read
            // as Rust reads it (infinity, or 0), as jq 1.7 reads it.
            let number = || {
                l.trim()
                    .parse::<f64>()
                    .ok()
                    .map(|f| serde_json::json!(f.to_string()))
            };
            serde_json::from_str(l).ok().map(normal).or_else(number)
        })
        .collect()
}

/// Whether aoi gives what jq gives on `case`.
fn passes(case: &Case, modules: &Path) -> bool {
    let child = command(AOI)
        .args(["filter", "--raw", "-c", "-L"])
        .arg(modules)
        .args(["--", &case.program])
        .current_dir(modules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else { return false };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "{}", case.input.as_deref().unwrap_or(""));
    }
    let Ok(out) = child.wait_with_output() else {
        return false;
    };
    if case.input.is_none() {
        return out.status.code() == Some(64);
    }
    let got = String::from_utf8_lossy(&out.stdout);
    match (
        values(got.lines()),
        values(case.expected.iter().map(String::as_str)),
    ) {
        (Some(got), Some(want)) => got == want,
        _ => false,
    }
}

#[test]
fn jqs_own_test_file() {
    let Some(dir) = crate::optional::shared("testdata/jq", "jq's own test file") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("jq.test")).expect("read jq.test");
    let all = cases(&text);
    assert_eq!(all.len(), 550, "the cases of jq.test");
    let modules = dir.join("modules");
    let failed: Vec<&Case> = all.iter().filter(|c| !passes(c, &modules)).collect();
    let passed = all.len() - failed.len();
    notice(format!(
        "jq.test: {passed} of {} cases pass through aoi filter --raw -c",
        all.len()
    ));
    for c in &failed {
        println!("jq.test:{}: {}", c.line, c.program);
    }
    assert!(
        passed >= AT_LEAST,
        "{passed} cases pass, fewer than {AT_LEAST}"
    );
}
