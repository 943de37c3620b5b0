//! The official JSON-Schema-Test-Suite through aoi's one validator (the
//! one `--schema` and lint's checks 1 and 4 use): draft 2020-12's required
//! tests must pass at 99 % or more, and draft 7's too; the optional tests
//! and the `format` ones are counted apart and printed (run with
//! `--nocapture` to see the counts; docs/performance.md has them). The
//! suite's remotes are handed over as documents at their
//! `http://localhost:1234/` URLs: aoi itself never fetches one.

use std::path::{Path, PathBuf};

use aoi::validator::EventSchema;
use serde_json::Value;

/// Passed and run, of one group of test files.
#[derive(Default, Debug)]
struct Count {
    passed: usize,
    total: usize,
    failed: Vec<String>,
    /// Tests the quick validator answered (its schema in its keywords).
    quick: usize,
    /// Tests where the quick answer, or the answer from the event read in
    /// place, differs from boon's: must be none, whatever the suite says.
    disagree: Vec<String>,
}

/// The remotes, each at the URL the suite serves it from. The suite
/// reads a remote without `$schema` as the draft under test (`draft`, as
/// each test's schema is read: see [`run_file`]); aoi reads any schema
/// without one as 2020-12, where draft 7's `"$id": "#foo"` is no valid
/// `$id`: so the draft is named in the remote, as a user would name it.
fn remotes(root: &Path, draft: Option<&str>) -> Vec<(String, Value)> {
    fn walk(dir: &Path, base: &Path, draft: Option<&str>, out: &mut Vec<(String, Value)>) {
        for e in std::fs::read_dir(dir).expect("read remotes").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, base, draft, out);
            } else if p.extension().is_some_and(|x| x == "json") {
                let rel = p.strip_prefix(base).expect("under remotes");
                let text = std::fs::read(&p).expect("read a remote");
                let mut v: Value = serde_json::from_slice(&text).expect("a remote is JSON");
                if let (Some(d), Some(o)) = (draft, v.as_object_mut()) {
                    o.entry("$schema").or_insert_with(|| d.into());
                }
                out.push((format!("http://localhost:1234/{}", rel.display()), v));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &root.join("remotes"),
        &root.join("remotes"),
        draft,
        &mut out,
    );
    out
}

/// The test files under `dir` (recursively), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("read tests").flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs every test of `file`, adding to `count`. A schema that does not
/// compile fails each of its tests.
fn run_file(file: &Path, docs: &[(String, Value)], draft: Option<&str>, count: &mut Count) {
    let text = std::fs::read(file).expect("read a test file");
    let groups: Vec<Value> = serde_json::from_slice(&text).expect("a test file is JSON");
    for g in &groups {
        let mut schema = g["schema"].clone();
        // The suite's older drafts leave `$schema` out; aoi reads a schema
        // without one as 2020-12, so the draft is named as a user would.
        if let (Some(d), Some(o)) = (draft, schema.as_object_mut()) {
            o.entry("$schema").or_insert_with(|| d.into());
        }
        let schema = EventSchema::with_documents(&schema, docs.to_vec());
        for t in g["tests"].as_array().expect("tests") {
            count.total += 1;
            let want = t["valid"].as_bool().expect("valid");
            let got = schema.as_ref().map(|s| s.is_valid(&t["data"]));
            if let Ok(s) = &schema {
                agree(s, &t["data"], count, || {
                    format!("{}: {}", file.display(), t["description"])
                });
            }
            if got == Ok(want) {
                count.passed += 1;
            } else {
                count.failed.push(format!(
                    "{}: {} / {}",
                    file.file_name().unwrap_or_default().to_string_lossy(),
                    g["description"],
                    t["description"]
                ));
            }
        }
    }
}

/// Holds the quick validator to boon's answer on `data`, as a value and
/// as a line read in place (the `--schema` path), and counts it.
fn agree(s: &EventSchema, data: &Value, count: &mut Count, name: impl Fn() -> String) {
    let (boon, quick) = s.both_answers(data);
    let Some(quick) = quick else {
        return;
    };
    count.quick += 1;
    let line = serde_json::to_vec(data).expect("a JSON value serializes");
    let in_place = s.line_problem(&line).map(|p| p.is_none());
    if quick != boon || in_place.as_ref().ok() != Some(&boon) {
        count.disagree.push(format!(
            "{}: boon {boon}, quick {quick}, in place {in_place:?}",
            name()
        ));
    }
}

/// Required, optional (not format) and format counts of one draft.
fn draft(root: &Path, name: &str, uri: Option<&str>) -> [Count; 3] {
    let docs = remotes(root, uri);
    let dir = root.join("tests").join(name);
    let mut counts: [Count; 3] = Default::default();
    for f in files(&dir) {
        let rel = f.strip_prefix(&dir).expect("under the draft");
        let slot = if rel.starts_with("optional/format") {
            2
        } else if rel.starts_with("optional") {
            1
        } else {
            0
        };
        run_file(&f, &docs, uri, &mut counts[slot]);
    }
    counts
}

fn percent(c: &Count) -> f64 {
    100.0 * c.passed as f64 / c.total.max(1) as f64
}

fn check_draft(name: &str, uri: Option<&str>) {
    let Some(root) =
        crate::optional::shared("testdata/JSON-Schema-Test-Suite", "the JSON Schema suite")
    else {
        return;
    };
    let [required, optional, format] = draft(&root, name, uri);
    for (what, c) in [
        ("required", &required),
        ("optional", &optional),
        ("optional/format", &format),
    ] {
        eprintln!(
            "JSON-Schema-Test-Suite {name} {what}: {} of {} pass ({:.1} %); the quick validator answered {}, as boon did",
            c.passed,
            c.total,
            percent(c),
            c.quick
        );
        assert!(
            c.disagree.is_empty(),
            "{name} {what}: the quick validator differs from boon: {:#?}",
            c.disagree
        );
    }
    for f in required.failed.iter().take(20) {
        eprintln!("  failed (required): {f}");
    }
    assert!(
        required.total > 500,
        "{name}: only {} tests",
        required.total
    );
    assert!(
        percent(&required) >= 99.0,
        "{name}: {} of {} required tests pass: {:#?}",
        required.passed,
        required.total,
        required.failed
    );
}

#[test]
fn draft_2020_12_required_tests_pass() {
    check_draft("draft2020-12", None);
}

#[test]
fn draft_7_required_tests_pass() {
    check_draft("draft7", Some("http://json-schema.org/draft-07/schema#"));
}
