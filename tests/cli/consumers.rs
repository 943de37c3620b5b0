//! merge-report's TAP, JUnit, Markdown and CTRF, read by the programs that read
//! them in CI: Perl's TAP::Parser and `prove`, tap-parser (npm,
//! strict), `xmllint` with the Jenkins xUnit `junit-10.xsd`, xunit-viewer, and GitHub's
//! Markdown renderer (cmark-gfm, from PyPI's cmarkgfm), the `ctrf` reference
//! implementation (npm) for CTRF. `.ci/run` installs
//! them in `target/consumers`; a test whose reader is missing says so and
//! skips. The inputs: passing runs, failing runs of every outcome, many
//! runs, and hostile text (every control character, ANSI and OSC
//! sequences, HTML, Markdown and link syntax, bare URLs, long and wide
//! text) in every field and in file names.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{Value, json};

use crate::optional::{installed, present};
use crate::util::*;

fn consumers() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/consumers")
}

fn script(name: &str) -> String {
    format!("{}/tests/consumers/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Whether `what` is here; if not, a notice and false.
fn have(what: &str, ok: bool) -> bool {
    present(
        what,
        ok,
        "its part of the consumer tests (.ci/run installs it in target/consumers)",
    )
}

/// Whether Node.js is here, for the npm readers.
fn node() -> bool {
    installed("node", &["--version"])
}

/// Runs `program args` with `input` on stdin; its exit code and stdout.
fn run(program: &str, args: &[&str], env: &[(&str, PathBuf)], input: &[u8]) -> (i32, String) {
    let mut c = command(program);
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap_or_else(|e| panic!("{program}: {e}"));
    let mut sin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = sin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join();
    (
        code_of(out.status),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// Text built to break readers: every C0 and C1 control but those that
/// break a line (a message is one line, § 9.1; file names carry those),
/// DEL, ANSI and OSC sequences, bidi overrides, HTML, Markdown emphasis
/// and links, bare URLs, pipes, backticks, wide characters, and length.
fn hostile() -> String {
    let breaks = |c: &char| matches!(c, '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}');
    let controls: String = (0u32..0x20)
        .chain([0x7f])
        .chain(0x80..0xa0)
        .filter_map(char::from_u32)
        .filter(|c| !breaks(c))
        .collect();
    format!(
        "<script>alert(1)</script> <img src=x onerror=alert(1)> __init__ _x_ *b* **B** ~~s~~ [click](https://evil.example) \
         {controls} \u{1b}[2J\u{1b}[31mred\u{1b}[0m \u{1b}]0;pwned\u{7} \u{202e}bidi\u{202c} \
         \\[c\\]\\(https://evil.example\\) https://evil.example/x www.evil.example \
         a@evil.example | `tick` ``two`` # not a comment & &amp; 日本語のファイル名テスト {}",
        "w".repeat(3000)
    )
}

/// [`hostile`] without control characters or escapes: what a `message`
/// may hold (§ 9.1 makes an ANSI escape in one a violation).
fn markup() -> String {
    hostile().chars().filter(|c| !c.is_control()).collect()
}

fn meta(run: &str, tool: &str) -> Value {
    json!({"type":"aoi:meta","aoi":{"seq":0,"run":run},"tool":tool,"tool_version":"1.0","aoi_version":"1.0-alpha","schema_name":"s.events","schema_version":"1","command":"search"})
}

/// A run of `tool` ending as `end` says (a summary patch, or `None` for a
/// cut stream), with an upstream error of hostile fields when it fails.
fn stream(run: &str, tool: &str, end: Option<Value>) -> Vec<u8> {
    let h = markup();
    let mut lines = vec![meta(run, tool)];
    let mut seq = 1;
    let mut errors = 0;
    if end.as_ref().is_some_and(|e| e["ok"] == false) {
        lines.push(json!({"type":"aoi:error","aoi":{"seq":seq,"run":run},"category":"rate_limited","code":"UP_THROTTLED","message":h,"retryable":true,"origin":h}));
        seq += 1;
        errors = 1;
    }
    let mut out: Vec<u8> = Vec::new();
    for l in &lines {
        out.extend(serde_json::to_vec(l).expect("JSON"));
        out.push(b'\n');
    }
    if let Some(patch) = end {
        let mut summary = json!({"type":"aoi:summary","aoi":{"seq":seq,"run":run},"ok":true,"count":0,"error_count":errors,"event_count":seq + 1});
        for (k, v) in patch.as_object().expect("a patch") {
            summary[k] = v.clone();
        }
        out.extend(serde_json::to_vec(&summary).expect("JSON"));
        out.push(b'\n');
    }
    out
}

/// Files of every outcome, with hostile tool names, messages and file
/// names, and `many` passing runs besides; how many of them fail.
fn inputs(dir: &Path, many: usize) -> (Vec<String>, usize) {
    let h = markup();
    let cause = json!({"category":"rate_limited","code":"UP_THROTTLED","message":h,"retryable":true,"origin":hostile(),"retry_after_ms":1500});
    let ends = [
        Some(json!({})),
        Some(json!({"ok":false,"reason":"failed","caused_by":cause})),
        Some(
            json!({"ok":false,"reason":"failed","caused_by":{"category":"internal","code":"BROKEN","message":h,"retryable":false}}),
        ),
        Some(
            json!({"ok":false,"reason":"denied","caused_by":{"category":"permission_denied","code":"NO","message":h,"retryable":false}}),
        ),
        Some(json!({"ok":false,"reason":"timeout"})),
        Some(json!({"ok":false,"reason":"cancelled"})),
        None,
    ];
    let mut files = Vec::new();
    let mut failing = 0;
    for (i, end) in ends.into_iter().enumerate() {
        failing += usize::from(
            end.as_ref()
                .is_none_or(|e| !e.as_object().is_some_and(|m| m.is_empty())),
        );
        let run = format!("01JZQ7X4TQ9KZ8V6R2M3N4P5{i:02}");
        // Every control but NUL, line breaks included, in the file name.
        let controls: String = (1u32..0x20).filter_map(char::from_u32).collect();
        let name = format!("__init__{i} [x](https:evil) `t` <b> *s* {controls}|.jsonl");
        files.push(write_file(dir, &name, &stream(&run, &hostile(), end)));
    }
    // A stream broken by prose with a colour code: a violation.
    let mut broken = stream("01JZQ7X4TQ9KZ8V6R2M3N4P5ZZ", "prose", Some(json!({})));
    broken.splice(0..0, format!("{}\n", hostile()).into_bytes());
    files.push(write_file(dir, "broken _x_.jsonl", &broken));
    failing += 1;
    for i in 0..many {
        let run = format!("01JZQ7X4TQ9KZ8V6R2M3N{i:05}");
        files.push(write_file(
            dir,
            &format!("ok-{i}.jsonl"),
            &stream(&run, "fine", Some(json!({}))),
        ));
    }
    (files, failing)
}

fn report(format: &str, files: &[String]) -> (i32, Vec<u8>) {
    let mut args = vec!["merge-report", "-q", "--format", format];
    args.extend(files.iter().map(String::as_str));
    let out = aoi(&args, b"");
    assert!(
        VERDICT_CODES.contains(&out.code),
        "{format}: exit {}: {}",
        out.code,
        out.stderr
    );
    (out.code, out.stdout)
}

/// No control character but the line feed reaches a reader.
fn assert_no_controls(format: &str, bytes: &[u8]) {
    let text = String::from_utf8(bytes.to_vec()).expect("UTF-8");
    let bad: Vec<(usize, char)> = text
        .char_indices()
        .filter(|(_, c)| c.is_control() && *c != '\n')
        .take(5)
        .collect();
    assert!(bad.is_empty(), "{format}: control characters {bad:?}");
}

/// Every string in a parsed YAML diagnostic is free of controls.
fn assert_clean(v: &Value, what: &str) {
    match v {
        Value::String(s) => assert!(!s.chars().any(char::is_control), "{what}: {s:?}"),
        Value::Array(a) => a.iter().for_each(|x| assert_clean(x, what)),
        Value::Object(m) => m.values().for_each(|x| assert_clean(x, what)),
        _ => {}
    }
}

#[test]
fn tap_is_read_by_prove_and_tap_parser() {
    let dir = scratch("consumers-tap");
    let (files, failing) = inputs(&dir, 30);
    let (code, tap) = report("tap", &files);
    assert_ne!(code, 0);
    assert_no_controls("tap", &tap);
    let (ok_code, ok_tap) = report("tap", &files[files.len() - 3..]);
    assert_eq!(ok_code, 0);
    let points = files.len();
    if have(
        "perl's TAP::Parser",
        installed("perl", &["-MTAP::Parser", "-e1"]) && installed("prove", &["--version"]),
    ) {
        let (c, out) = run("perl", &[&script("tap.pl")], &[], &tap);
        assert_eq!(c, 0, "{out}");
        let v: Value = serde_json::from_str(&out).expect("tap.pl JSON");
        assert_eq!(v["errors"], json!([]), "TAP::Parser parse errors");
        assert_eq!(v["version"], 13);
        assert_eq!(
            (v["planned"].as_u64(), v["run"].as_u64()),
            (Some(points as u64), Some(points as u64))
        );
        assert_eq!(v["failed"].as_array().map(Vec::len), Some(failing));
        for t in v["tests"].as_array().expect("tests") {
            assert_clean(&t["yaml"], "TAP::Parser YAML");
            if let Some(c) = t["yaml"].get("caused_by") {
                assert!(c.is_object(), "caused_by is a map: {c}");
            }
        }
        // prove itself: PASS on a passing run, FAIL without parse errors.
        for (bytes, pass) in [(&ok_tap, true), (&tap, false)] {
            let file = write_file(&dir, if pass { "ok.tap" } else { "fail.tap" }, bytes);
            let (c, out) = run("prove", &["--exec", "cat", &file], &[], b"");
            assert_eq!(c == 0, pass, "{out}");
            assert!(!out.contains("Parse errors"), "{out}");
            assert!(
                out.contains(if pass { "Result: PASS" } else { "Result: FAIL" }),
                "{out}"
            );
        }
    }
    let modules = consumers().join("node_modules");
    if have(
        "tap-parser (npm) and Node.js",
        modules.join("tap-parser").is_dir() && node(),
    ) {
        for (bytes, pass) in [(&ok_tap, true), (&tap, false)] {
            let (c, out) = run(
                "node",
                &[&script("tap.js")],
                &[("NODE_PATH", modules.clone())],
                bytes,
            );
            assert_eq!(c, 0, "{out}");
            let v: Value = serde_json::from_str(&out).expect("tap.js JSON");
            assert_eq!(v["errors"], json!([]), "tap-parser errors");
            assert_eq!(
                v["extra"],
                json!([]),
                "lines tap-parser did not read as TAP"
            );
            assert_eq!(v["ok"], pass);
            if !pass {
                assert_eq!(v["count"].as_u64(), Some(points as u64));
                assert_eq!(v["fail"].as_u64(), Some(failing as u64));
            }
            for a in v["asserts"].as_array().expect("asserts") {
                assert_clean(&a["diag"], "tap-parser diagnostics");
                assert_clean(&a["name"], "tap-parser names");
            }
        }
    }
}

#[test]
fn junit_validates_against_the_xunit_schema_and_is_ascii() {
    let dir = scratch("consumers-junit");
    let (files, _) = inputs(&dir, 30);
    let (_, xml) = report("junit", &files);
    assert_no_controls("junit", &xml);
    assert!(
        xml.is_ascii(),
        "non-ASCII is written as character references"
    );
    let file = assert_valid_junit(&dir, &xml);
    // xunit-viewer, which crashed on a raw U+FFFD (it guessed CP1252).
    let viewer = consumers().join("node_modules/.bin/xunit-viewer");
    if have("xunit-viewer (npm) and Node.js", viewer.is_file() && node()) {
        let html = dir.join("report.html");
        let (c, out) = run(
            &viewer.to_string_lossy(),
            &["-r", &file, "-o", &html.to_string_lossy()],
            &[],
            b"",
        );
        assert_eq!(c, 0, "{out}");
        assert!(html.is_file(), "{out}");
    }
}

/// Writes `xml` to `dir`/report.xml and, where xmllint and the xUnit
/// `junit-10.xsd` are here, validates it; the file's path.
pub fn assert_valid_junit(dir: &Path, xml: &[u8]) -> String {
    let file = write_file(dir, "report.xml", xml);
    let xsd = consumers().join("junit-10.xsd");
    if have("xmllint", installed("xmllint", &["--version"])) && have("junit-10.xsd", xsd.is_file())
    {
        let (c, out) = run(
            "xmllint",
            &["--noout", "--schema", &xsd.to_string_lossy(), &file],
            &[],
            b"",
        );
        assert_eq!(c, 0, "{out}");
    }
    file
}

/// The report rendered by GitHub's renderer (cmark-gfm) and by marked and
/// markdown-it (bare-URL linkify on): every upstream text shows as written,
/// with no link, emphasis or HTML of its own.
#[test]
fn markdown_renders_inert_on_github() {
    let (_dir, _, _, failing, md) = markdown_of("consumers-md", 5);
    assert_no_controls("markdown", &md);
    let mut rendered = Vec::new();
    if let Some(html) = cmark_gfm(&md) {
        rendered.push(("cmark-gfm".to_string(), html));
    }
    let modules = consumers().join("node_modules");
    if have(
        "marked and markdown-it (npm) and Node.js",
        modules.join("markdown-it").is_dir() && node(),
    ) {
        let (c, out) = run(
            "node",
            &[&script("markdown.js")],
            &[("NODE_PATH", modules)],
            &md,
        );
        assert_eq!(c, 0, "{out}");
        let v: Value = serde_json::from_str(&out).expect("markdown.js JSON");
        for (name, html) in v.as_object().expect("renderings") {
            rendered.push((name.clone(), html.as_str().expect("HTML").to_string()));
        }
    }
    for (renderer, html) in &rendered {
        for tag in ["<a ", "<em>", "<del>", "<script", "<img", "<b>"] {
            assert!(
                !html.contains(tag),
                "{renderer}: {tag} in the rendered report:\n{html}"
            );
        }
        // Bold: aoi's count of failed runs and each failed run's outcome.
        assert_eq!(
            html.matches("<strong>").count(),
            1 + failing,
            "{renderer}: {html}"
        );
        // The text shows as written, in code spans.
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{renderer}: {html}"
        );
        assert!(
            html.contains("__init__0 [x](https:evil)"),
            "{renderer}: {html}"
        );
        assert!(html.contains("<code>…dd"), "{renderer}: {html}");
    }
}

/// The Markdown report of [`inputs`] with `many` passing runs, in a
/// directory long enough that every path is cut wherever the checkout is
/// (a path keeps its end, the file name): the directory, the files, how
/// many fail, the report.
fn markdown_of(
    name: &str,
    many: usize,
) -> (crate::util::Scratch, PathBuf, Vec<String>, usize, Vec<u8>) {
    let keep = scratch(name);
    let dir = keep.join("d".repeat(90));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let (files, failing) = inputs(&dir, many);
    let (_, md) = report("markdown", &files);
    (keep, dir, files, failing, md)
}

/// GitHub's renderer (cmark-gfm, from PyPI's cmarkgfm) on `md`, if here,
/// passing raw HTML as GitHub does before its sanitiser: safe mode would
/// drop aoi's `<details>`, and hide HTML that upstream text smuggled in.
fn cmark_gfm(md: &[u8]) -> Option<String> {
    let py = consumers().join("py");
    if !have(
        "cmarkgfm (PyPI) and Python 3",
        py.join("cmarkgfm").is_dir() && installed("python3", &["--version"]),
    ) {
        return None;
    }
    let (c, html) = run(
        "python3",
        &[
            "-c",
            "import sys, cmarkgfm; from cmarkgfm.cmark import Options; \
             print(cmarkgfm.github_flavored_markdown_to_html(sys.stdin.read(), options=Options.CMARK_OPT_UNSAFE))",
        ],
        &[("PYTHONPATH", py)],
        md,
    );
    assert_eq!(c, 0, "{html}");
    Some(html)
}

/// What a reader sees of `md` rendered by cmark-gfm with GitHub's
/// Markdown CSS in a column `width` px wide, measured in headless Chromium
/// (tests/consumers/page.html); `None` where either is missing.
fn in_browser(dir: &Path, md: &[u8], width: u32) -> Option<Value> {
    let css = consumers().join("node_modules/github-markdown-css/github-markdown-light.css");
    let ok = installed("chromium-headless-shell", &["--version"]);
    if !have("chromium-headless-shell (Debian)", ok)
        || !have("github-markdown-css (npm)", css.is_file())
    {
        return None;
    }
    let html = cmark_gfm(md)?;
    let page = std::fs::read_to_string(script("page.html"))
        .expect("page.html")
        .replace("CSS", &format!("file://{}", css.display()))
        .replace("WIDTH", &width.to_string())
        .replace("BODY", &html);
    let file = write_file(dir, "page.html", page.as_bytes());
    let (c, dom) = run(
        "chromium-headless-shell",
        &[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1200,900",
            "--allow-file-access-from-files",
            "--dump-dom",
            &format!("file://{file}"),
        ],
        &[],
        b"",
    );
    assert_eq!(c, 0, "{dom}");
    let start = dom.find("<pre id=\"facts\">").expect("facts") + "<pre id=\"facts\">".len();
    let end = start + dom[start..].find("</pre>").expect("</pre>");
    let facts = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    Some(serde_json::from_str(&facts).unwrap_or_else(|e| panic!("{e}: {facts}")))
}

/// The job summary, rendered as GitHub shows it, reads
/// at a glance: the verdict first, failed runs next in a list that fits
/// the column (no horizontal scroll, whatever the tool names and paths),
/// passing runs folded away, nothing upstream turned into markup.
#[test]
fn markdown_reads_at_a_glance_in_a_browser() {
    let (_dir, dir, files, failing, md) = markdown_of("consumers-browser", 20);
    let Some(f) = in_browser(&dir, &md, 820) else {
        return;
    };
    let first = f["first"].as_str().expect("first");
    assert!(first.starts_with("H3 ❌ AOI merge report: FAIL"), "{f}");
    let order: Vec<&str> = f["order"]
        .as_array()
        .expect("order")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(order, ["H3", "P", "H4", "UL", "DETAILS"], "{f}");
    assert_eq!(f["scrolls"], false, "the report scrolls sideways: {f}");
    assert_eq!(f["past_column"], 0, "elements past the column: {f}");
    assert_eq!(f["details_open"], json!([false]), "{f}");
    assert_eq!(f["items"], json!([failing, files.len() - failing]), "{f}");
    assert_eq!(
        f["visible_items"],
        json!([failing, 0]),
        "passing runs are folded: {f}"
    );
    // Bold: aoi's count of failed runs and each failed run's outcome.
    let tags = json!({"a":0,"em":0,"strong":1 + failing,"del":0,"img":0,"script":0,"b":0,"iframe":0,"table":0});
    assert_eq!(f["tags"], tags, "{f}");
    let text = f["text"].as_str().expect("text");
    assert!(
        text.contains("<script>alert(1)</script>"),
        "shown as written"
    );
    // A passing report says so first, its runs shown, nothing to unfold.
    let (_, ok) = report("markdown", &files[files.len() - 3..]);
    let f = in_browser(&dir, &ok, 820).expect("as above");
    assert_eq!(f["first"], "H3 ✅ AOI merge report: ok", "{f}");
    assert_eq!(f["order"], json!(["H3", "P", "H4", "UL"]), "{f}");
    assert_eq!(f["visible_items"], json!([3]), "{f}");
}

/// No control character of the hostile inputs reaches any format, the
/// terminal table and JSON Lines included (one sanitising
/// boundary per format, no field forgotten).
#[test]
fn no_format_carries_a_control_character() {
    let dir = scratch("consumers-controls");
    let (files, _) = inputs(&dir, 2);
    for format in ["table", "jsonl", "tap", "junit", "markdown", "ctrf"] {
        let mut args = vec!["merge-report", "-q", "--color", "never", "--format", format];
        args.extend(files.iter().map(String::as_str));
        let out = aoi(&args, b"");
        assert!(
            VERDICT_CODES.contains(&out.code),
            "{format}: {}",
            out.stderr
        );
        assert_no_controls(format, &out.stdout);
    }
}

#[test]
fn ctrf_is_valid_for_the_ctrf_reference_implementation() {
    let dir = scratch("consumers-ctrf");
    let (files, failing) = inputs(&dir, 30);
    let (code, doc) = report("ctrf", &files);
    assert_ne!(code, 0);
    let (ok_code, ok_doc) = report("ctrf", &files[files.len() - 3..]);
    assert_eq!(ok_code, 0);
    // And the shipped examples, a CI log of two runs among them (--log).
    let examples: Vec<String> = [
        "messy.log",
        "rate-limited.jsonl",
        "search.jsonl",
        "truncated.jsonl",
    ]
    .iter()
    .map(|n| format!("{}/examples/{n}", env!("CARGO_MANIFEST_DIR")))
    .collect();
    let mut a = vec!["merge-report", "-q", "--log", "--format", "ctrf"];
    a.extend(examples.iter().map(String::as_str));
    let ex = aoi(&a, b"");
    assert_eq!(ex.code, 74, "{}", ex.stderr);
    // What every reader sees without the package: one test per run, a
    // failed test for each run that did not exit 0, and with --log one
    // skipped test saying what the reading passed over.
    for (bytes, failed, runs, skipped) in [
        (&doc, failing, files.len(), 0),
        (&ok_doc, 0, 3, 0),
        (&ex.stdout, 3, 5, 1),
    ] {
        let v: Value = serde_json::from_slice(bytes).expect("CTRF is JSON");
        assert_eq!(v["reportFormat"], "CTRF");
        let s = &v["results"]["summary"];
        assert_eq!(s["tests"].as_u64(), Some((runs + skipped) as u64), "{s}");
        assert_eq!(s["failed"].as_u64(), Some(failed as u64), "{s}");
        assert_eq!(s["skipped"].as_u64(), Some(skipped as u64), "{s}");
        assert_eq!(s["passed"].as_u64(), Some((runs - failed) as u64), "{s}");
        let names: std::collections::HashSet<&str> = v["results"]["tests"]
            .as_array()
            .expect("tests")
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert_eq!(names.len(), runs + skipped, "test names are unique");
        for t in v["results"]["tests"].as_array().expect("tests") {
            // A trace is one finding a line; nothing else breaks a line.
            let mut t = t.clone();
            let trace = t.as_object_mut().and_then(|m| m.remove("trace"));
            assert_clean(&t, "CTRF tests");
            if let Some(trace) = trace {
                let lines: Vec<Value> = trace
                    .as_str()
                    .expect("trace")
                    .lines()
                    .map(Value::from)
                    .collect();
                assert_clean(&Value::from(lines), "CTRF traces");
            }
        }
    }
    let modules = consumers().join("node_modules");
    if !have(
        "ctrf (npm) and Node.js",
        modules.join("ctrf").is_dir() && node(),
    ) {
        return;
    }
    for (bytes, pass) in [(&ok_doc, true), (&doc, false), (&ex.stdout, false)] {
        let (c, out) = run(
            "node",
            &[&script("ctrf.js")],
            &[("NODE_PATH", modules.clone())],
            bytes,
        );
        assert_eq!(c, 0, "{out}");
        let v: Value = serde_json::from_str(&out).expect("ctrf.js JSON");
        assert_eq!(v["valid"], true, "ctrf validate: {}", v["errors"]);
        assert_eq!(v["summary"]["failed"] == 0, pass, "{}", v["summary"]);
        for t in v["tests"].as_array().expect("tests") {
            if t["status"] == "failed" {
                assert!(t["message"].is_string(), "a failed test says why: {t}");
            }
        }
    }
}

/// The TAP example in `merge-report --help` (and its man page) works with
/// the installed prove: run as written, in a directory of run files, it
/// passes on passing runs (prove read as stdin test names once: "No plan
/// found") and fails on a cut one.
#[test]
fn the_help_s_tap_example_runs_with_prove() {
    let help = aoi(&["merge-report", "--help"], b"").stdout_str();
    let example = help
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("aoi merge-report") && l.contains("prove"))
        .expect("a prove example in merge-report --help");
    if !have("prove", installed("prove", &["--version"])) {
        return;
    }
    let dir = scratch("consumers-tap-example");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).expect("mkdir runs");
    for i in 0..3 {
        let run = format!("01JZQ7X4TQ9KZ8V6R2M3N4P5{i:02}");
        write_file(
            &runs,
            &format!("r{i}.jsonl"),
            &stream(&run, "fine", Some(json!({}))),
        );
    }
    let bin = Path::new(crate::util::AOI)
        .parent()
        .expect("aoi's directory");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let prove = || {
        let out = crate::util::command("sh")
            .args(["-c", example])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .expect("run sh");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = prove();
    assert_eq!(code, Some(0), "{example}: {text}");
    assert!(
        text.contains("Result: PASS") && !text.contains("No plan"),
        "{text}"
    );
    // A run cut short (no aoi:summary): prove fails the job on it.
    write_file(
        &runs,
        "r9.jsonl",
        &stream("01JZQ7X4TQ9KZ8V6R2M3N4P599", "cut", None),
    );
    let (code, text) = prove();
    assert_ne!(code, Some(0), "{example}: {text}");
    assert!(
        text.contains("Result: FAIL") && text.contains("Failed: 1"),
        "{text}"
    );
}
