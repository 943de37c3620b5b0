//! JSONTestSuite (Seriot) documents inside events: aoi's line validator is
//! strict RFC 8259.
//!
//! Each document is embedded as `{"type":"t","v":DOC}`. `y_` documents must
//! pass (no `line.*` finding), `n_` documents must fail with a `line.*`
//! finding at their line (embedded, and as the whole line), and `i_`
//! documents (implementation-defined) must never crash aoi; which of them
//! aoi accepts is printed (run with `--nocapture` to see the table).

use std::path::PathBuf;

use crate::util::{Report, VERDICT_CODES, report_full, s};

fn suite_dir() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        crate::optional::shared(
            "testdata/JSONTestSuite/test_parsing",
            "the JSON suite tests",
        )
    })
    .clone()
}

/// The suite's documents whose name starts with `prefix`, sorted by name.
fn docs(prefix: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = suite_dir()?;
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("read suite dir")
        .filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name().into_string().ok()?;
            (name.starts_with(prefix) && name.ends_with(".json"))
                .then(|| (name, std::fs::read(e.path()).expect("read doc")))
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no {prefix} documents in {}", dir.display());
    Some(v)
}

fn embed(doc: &[u8]) -> Vec<u8> {
    [b"{\"type\":\"t\",\"v\":".as_slice(), doc, b"}"].concat()
}

/// Lines `docs` occupy when written one per line: 1-based, inclusive.
fn build(docs: &[Vec<u8>]) -> (Vec<u8>, Vec<(u64, u64)>) {
    let mut out = Vec::new();
    let mut ranges = Vec::new();
    let mut line = 1u64;
    for d in docs {
        let n = d.iter().filter(|&&b| b == b'\n').count() as u64;
        ranges.push((line, line + n));
        out.extend_from_slice(d);
        out.push(b'\n');
        line += n + 1;
    }
    (out, ranges)
}

const ARGS: &[&str] = &["--unbounded", "--max-per-rule", "1000000"];

fn line_findings(r: &Report) -> Vec<(String, u64)> {
    r.findings()
        .iter()
        .filter_map(|f| {
            let rule = f["rule"].as_str()?;
            rule.starts_with("line.")
                .then(|| (rule.to_string(), f["line_number"].as_u64().unwrap_or(0)))
        })
        .collect()
}

#[test]
fn y_documents_pass() {
    let Some(all) = docs("y_") else { return };
    // A raw newline would split the event; a trailing one is whitespace and
    // can go, any other makes the document unusable here.
    let mut names = Vec::new();
    let mut embedded = Vec::new();
    let mut whole = Vec::new();
    for (name, d) in &all {
        let d = d.strip_suffix(b"\n").unwrap_or(d);
        if d.contains(&b'\n') {
            continue;
        }
        names.push(name.clone());
        embedded.push(embed(d));
        whole.push(d.to_vec());
    }
    assert!(names.len() > 85, "only {} y_ documents", names.len());
    let (bytes, _) = build(&embedded);
    let r = report_full(&bytes, ARGS);
    let bad: Vec<String> = line_findings(&r)
        .iter()
        .map(|(rule, l)| format!("{} ({rule})", names[*l as usize - 1]))
        .collect();
    assert!(bad.is_empty(), "y_ documents rejected: {bad:#?}");
    assert_eq!(r.code, 0, "{}", r.brief());
    assert_eq!(r.stream()["domain_count"], names.len() as u64);

    // As the whole line: an object is an event (without a type), any other
    // value is line.not-object; nothing else of line.*.
    let (bytes, _) = build(&whole);
    let r = report_full(&bytes, ARGS);
    let mut bad = Vec::new();
    for (rule, l) in line_findings(&r) {
        let i = l as usize - 1;
        let is_object = whole[i].iter().find(|b| !b" \t\r".contains(b)) == Some(&b'{');
        if rule != "line.not-object" || is_object {
            bad.push(format!("{} ({rule})", names[i]));
        }
    }
    assert!(bad.is_empty(), "y_ documents rejected as lines: {bad:#?}");
}

#[test]
fn n_documents_fail_with_a_line_rule() {
    let Some(all) = docs("n_") else { return };
    for (mode, wrap) in [("embedded", true), ("whole line", false)] {
        let lines: Vec<Vec<u8>> = all
            .iter()
            .map(|(_, d)| if wrap { embed(d) } else { d.clone() })
            .collect();
        let (bytes, ranges) = build(&lines);
        let r = report_full(&bytes, ARGS);
        let found = line_findings(&r);
        let missed: Vec<&str> = all
            .iter()
            .zip(&ranges)
            .filter(|(_, (a, b))| !found.iter().any(|(_, l)| l >= a && l <= b))
            .map(|((name, _), _)| name.as_str())
            .collect();
        assert!(
            missed.is_empty(),
            "{mode}: n_ documents accepted: {missed:#?}"
        );
        assert_eq!(r.code, 65);
    }
}

/// Which `i_` documents aoi accepts, embedded in an event and as the whole
/// line, next to serde_json's answer. Each runs alone: a crash is
/// attributable, and must not happen.
#[test]
fn i_documents_never_crash() {
    let Some(all) = docs("i_") else { return };
    let mut table = Vec::new();
    for (name, d) in &all {
        let mut verdicts = Vec::new();
        for line in [embed(d), d.clone()] {
            let mut bytes = line.clone();
            bytes.push(b'\n');
            let r = report_full(&bytes, ARGS);
            assert!(
                VERDICT_CODES.contains(&r.code),
                "{name}: exit {} ({})",
                r.code,
                r.stderr
            );
            assert!(!r.stderr.contains("panic"), "{name}: {}", r.stderr);
            let rules: Vec<String> = line_findings(&r)
                .into_iter()
                .map(|(rule, _)| rule)
                // An advisory, not a rejection.
                .filter(|rule| rule != "line.not-object" && rule != "line.lone-surrogate")
                .collect();
            verdicts.push(if rules.is_empty() {
                "accepted".to_string()
            } else {
                format!("rejected ({})", rules.join(", "))
            });
        }
        let serde = if serde_json::from_slice::<serde_json::Value>(d).is_ok() {
            "accepted"
        } else {
            "rejected"
        };
        // Embedded and whole line agree on acceptance (a BOM before a
        // whole line is its own rule, line.bom).
        assert_eq!(
            verdicts[0].starts_with("accepted"),
            verdicts[1].starts_with("accepted"),
            "{name}: {verdicts:?}"
        );
        // The documented choice (docs/rules.md): a `\u` escape of a lone
        // or mis-ordered surrogate is JSON, flagged by an advisory; a
        // surrogate encoded in UTF-8 bytes is invalid UTF-8.
        if name.contains("surrogate") && !name.contains("UTF8_surrogate") {
            assert_eq!(verdicts[0], "accepted", "{name}");
            assert!(
                line_findings(&report_full(&[d.as_slice(), b"\n"].concat(), ARGS))
                    .iter()
                    .any(|(rule, _)| rule == "line.lone-surrogate"),
                "{name}: the advisory"
            );
        }
        table.push(format!(
            "{name:<45} aoi {:<40} serde_json {serde}",
            verdicts[0]
        ));
    }
    eprintln!("i_ documents (aoi check verdict, serde_json verdict):");
    for row in &table {
        eprintln!("  {row}");
    }
}

#[test]
fn deep_nesting_is_accepted_without_a_crash() {
    let n = 100_000;
    let arrays = format!(r#"{{"type":"hit","v":{}{}}}"#, "[".repeat(n), "]".repeat(n));
    let objects = format!(
        r#"{{"type":"hit","v":{}1{}}}"#,
        r#"{"a":"#.repeat(n),
        "}".repeat(n)
    );
    // The builder's serde_json cannot nest this deep: raw lines with their
    // envelope written out.
    let with_env = |line: &str, seq: u64| {
        line.replacen(
            r#"{"type":"hit","#,
            &format!(r#"{{"type":"hit",{},"#, crate::util::env(seq)),
            1,
        )
    };
    let st = s()
        .raw(with_env(&arrays, 1))
        .raw(with_env(&objects, 2))
        .summary(&format!(r#"{{"count":2,{}}}"#, crate::util::env(3)));
    let r = report_full(&st.bytes(), &[]);
    assert!(r.findings().is_empty(), "{}", r.brief());
    assert_eq!(r.code, 0);
    assert_eq!(r.stream()["domain_count"], 2);
}

#[test]
fn unbalanced_deep_nesting_is_a_clean_violation() {
    let n = 100_000;
    let open = format!(r#"{{"type":"hit","v":{}}}"#, "[".repeat(n));
    let short = format!(
        r#"{{"type":"hit","v":{}{}}}"#,
        "[".repeat(n),
        "]".repeat(n - 1)
    );
    let extra = format!(
        r#"{{"type":"hit","v":{}{}}}"#,
        "[".repeat(n),
        "]".repeat(n + 1)
    );
    let mismatched = format!(r#"{{"type":"hit","v":{}{}}}"#, "[".repeat(n), "}".repeat(n));
    let st = s().raw(&open).raw(&short).raw(&extra).raw(&mismatched);
    let r = report_full(&st.bytes(), &[]);
    for line in 2..=5 {
        assert!(r.has("line.not-json", line), "line {line}: {}", r.brief());
    }
    assert_eq!(r.code, 65);
    assert!(!r.stderr.contains("panic"));
}

/// Every document, embedded and as the whole line, judged the same when
/// each line is past the reader's hold and read in pieces: the
/// same findings, messages and byte offsets included.
#[test]
fn documents_read_in_pieces_are_judged_alike() {
    let mut all = Vec::new();
    for prefix in ["y_", "n_", "i_"] {
        let Some(docs) = docs(prefix) else { return };
        all.extend(docs);
    }
    let mut lines = Vec::new();
    for (_, d) in &all {
        let d = d.strip_suffix(b"\n").unwrap_or(d);
        if d.contains(&b'\n') {
            continue;
        }
        // Past the 64-byte hold below, whatever the document's length.
        let pad = "p".repeat(80);
        lines.push(
            [
                format!(r#"{{"type":"t","pad":"{pad}","v":"#).as_bytes(),
                d,
                b"}",
            ]
            .concat(),
        );
        lines.push([" ".repeat(80).as_bytes(), d].concat());
    }
    let (bytes, _) = build(&lines);
    let findings = |env: &[(&str, &str)]| {
        let args = [&["check", "--output", "jsonl"][..], ARGS].concat();
        let r = crate::util::into_report(crate::util::aoi_env(&args, &bytes, env));
        let rows: Vec<String> = r
            .findings()
            .iter()
            .map(|f| format!("{} {} {}", f["line_number"], f["rule"], f["message"]))
            .collect();
        (r.code, rows)
    };
    let whole = findings(&[]);
    let pieces = findings(&[("AOI_HOLD_LINE_BYTES", "64")]);
    assert_eq!(whole.0, pieces.0);
    let differ: Vec<(&String, &String)> = whole
        .1
        .iter()
        .zip(&pieces.1)
        .filter(|(a, b)| a != b)
        .collect();
    assert!(differ.is_empty(), "{differ:#?}");
    assert_eq!(whole.1.len(), pieces.1.len());
}
