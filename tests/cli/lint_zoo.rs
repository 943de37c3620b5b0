//! The lint zoo: `aoi lint` against small tools in
//! `tests/fixtures/lint-zoo/`, each conforming but for the one defect its
//! name plants (three of them conforming: `search`, `delete`, `enrich`),
//! and for each the table a careful reviewer writes by hand. The zoo is the
//! yardstick lint is held to, written apart from lint's source:
//!
//! - every check of every tool says what its table says; a pass the table
//!   does not allow is a FALSE PASS, and every mismatch of every tool is
//!   reported in one message;
//! - without `--allow-side-effects`, lint runs a destructive command at
//!   most once, as given (the tools log every run to `$ZOO_DIR/runs.log`,
//!   and keep their resources as files there);
//! - every run of the tool is reported: the runs logged are the
//!   `properties.runs` of lint's summary, and each appears in the evidence
//!   as a line `ran `ARGV`: STATUS`;
//! - every report is a conforming stream (`aoi check`).
//!
//! The tables' cells, for checks 1 to 16: `pass`, `fail`, `nt` (not
//! tested), `na` (not applicable), `-` (nt or na: lint's choice, never pass
//! or fail), or alternatives a reviewer accepts alike, `a|b` (never a pass
//! where the table has none). The principles: a check passes only
//! on evidence it observed for that behaviour; what a black box cannot
//! observe is not tested, with why; one cause fails one check; a usage
//! refusal before the stream is allowed (§ 2); what the manifest does not
//! say (whether a command reads JSON Lines) is not tested, never "not
//! applicable" on a guess; checks 7 and 8 are not tested for a mutating
//! command (n/a for a read-only one). Without consent, lint may run a
//! destructive command once, as given: every probe that would run it again
//! is not tested.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::util::*;

/// One tool of the zoo, linted one way, and the reviewer's table.
struct Case {
    /// The fixture (`tests/fixtures/lint-zoo/<tool>`).
    tool: &'static str,
    /// The invocation after the tool.
    args: &'static [&'static str],
    /// `--allow-side-effects`.
    consent: bool,
    /// Checks 1 to 16, one cell each (see the module's doc).
    table: &'static str,
}

const fn case(
    tool: &'static str,
    args: &'static [&'static str],
    consent: bool,
    table: &'static str,
) -> Case {
    Case {
        tool,
        args,
        consent,
        table,
    }
}

const SEARCH: &[&str] = &["search", "agent"];
const DELETE: &[&str] = &["delete", "res-1"];
const DRY_RUN: &[&str] = &["delete", "res-1", "--dry-run"];
const CONFIRMED: &[&str] = &["delete", "res-1", "--confirm"];
/// Fed `upstream.jsonl` (a complete, successful search) on stdin.
const ENRICH: &[&str] = &["enrich"];

/// The zoo. Columns: checks 1 to 16.
#[rustfmt::skip]
const ZOO: &[Case] = &[
    //                                           1    2    3    4    5    6    7    8    9    10   11   12   13   14   15   16
    // Conforming, read-only, bounded with a cursor; its manifest says it reads no JSON Lines;
    // it offers schema versions 1 and 2 and honours --schema-version.
    case("search", SEARCH, false,               "pass pass pass pass pass na   na   na   pass pass pass na   pass pass pass na"),
    // The same with § 17's example keys only: whether it reads JSON Lines is not said.
    case("search-spec17", SEARCH, false,        "pass pass pass pass pass na   na   na   pass pass pass nt   pass pass pass nt"),
    // One schema version, no --schema-version: negotiation is not offered, so not tested.
    case("one-version", SEARCH, false,          "pass pass pass pass pass na   na   na   pass pass pass na   nt   pass pass na"),
    // capabilities needs ZOO_API_TOKEN (exit 78): check 1; what only the manifest says is unknown.
    case("caps-env", SEARCH, false,             "fail pass pass pass pass nt   nt   nt   pass pass nt   nt   pass|nt pass pass nt"),
    // The schema is prose, not JSON: check 1; the capabilities are still read.
    case("schema-not-json", SEARCH, false,      "fail pass pass nt   pass na   na   na   pass pass pass na   pass pass pass na"),
    // The schema says "minimum":"0": check 1; nothing to validate events against; capabilities still read.
    case("schema-minimum-string", SEARCH, false, "fail pass pass nt   pass na   na   na   pass pass pass na   pass pass pass na"),
    // The second hit has no type (seq, count and event_count all right): check 2 only, not 15.
    case("typeless", SEARCH, false,             "pass fail pass pass pass na   na   na   pass pass pass na   pass pass pass na"),
    // A success without its summary: check 3; --limit and seq cannot be judged without it.
    case("no-summary", SEARCH, false,           "pass pass fail pass pass na   na   na   pass pass nt   na   pass pass -    na"),
    // aoi:meta's properties.index is a number where the tool's own schema says string.
    case("invalid-meta", SEARCH, false,         "pass pass pass fail pass na   na   na   pass pass pass na   pass pass pass na"),
    // The unknown-flag probe's own aoi:error has no retryable (the main run has no error).
    case("usage-no-retryable", SEARCH, false,   "pass pass pass pass fail na   na   na   pass pass pass na   pass pass pass na"),
    // An unknown flag is ignored, exit 0.
    case("unknown-flag-ok", SEARCH, false,      "pass pass pass pass fail na   na   na   pass pass pass na   pass pass pass na"),
    // --token's value comes back on stderr.
    case("echo-token", SEARCH, false,           "pass pass pass pass pass na   na   na   fail pass pass na   pass pass pass na"),
    // SIGINT/SIGTERM: a cancelled summary, then exit 0.
    case("cancel-exit0", SEARCH, false,         "pass pass pass pass pass na   na   na   pass fail pass na   pass pass pass na"),
    // --limit 1 gives one hit of 3, and says truncated:false.
    case("limit-untruncated", SEARCH, false,    "pass pass pass pass pass na   na   na   pass pass fail na   pass pass pass na"),
    // --schema-version 1 is accepted, and the meta says 2.0.0.
    case("no-negotiation", SEARCH, false,       "pass pass pass pass pass na   na   na   pass pass pass na   fail pass pass na"),
    // No schema_version on aoi:meta (nor the summary).
    case("no-schema-version", SEARCH, false,    "pass pass pass pass pass na   na   na   pass pass pass na   fail pass pass na"),
    // An aoi:summary after the second hit, and the terminal one.
    case("two-summaries", SEARCH, false,        "pass pass pass pass pass na   na   na   pass pass pass na   pass fail pass na"),
    // seq jumps from 1 to 3.
    case("seq-gap", SEARCH, false,              "pass pass pass pass pass na   na   na   pass pass pass na   pass pass fail na"),
    // Like true: discovery works, search writes nothing and exits 0. Nothing typed, no
    // meta or summary to judge: the missing stream is check 3's; the ignored flag check 5's.
    case("silent-ok", SEARCH, false,            "pass -    fail -    fail na   na   na   pass|nt nt nt na   -    -    -    na"),
    // Like false: search writes nothing and exits 1.
    case("silent-fail", SEARCH, false,          "pass -    fail|nt - pass|nt na  na   na   pass|nt nt nt na   -    -    -    na"),

    // Conforming, destructive: refuses without --confirm (a usage error in a whole stream),
    // plans on --dry-run, deletes on --confirm. Without consent lint runs `delete res-1` once:
    // the refusal is seen (check 5 may take it as the usage error), nothing else is probed.
    case("delete", DELETE, false,               "pass pass pass pass pass|nt nt nt   nt   nt   nt   -    -    nt   pass pass -"),
    case("delete", DELETE, true,                "pass pass pass pass pass pass nt   nt   pass pass -    -    pass pass pass -"),
    // The dry run as given: it plans, and whether it changed anything is not observable.
    case("delete", DRY_RUN, false,              "pass pass pass pass nt   nt   nt   nt   nt   nt   -    -    nt   pass pass -"),
    // The dry run as given, with consent: lint probes it without the flag (the refusal) and
    // may signal it; both 6 and 10 tested in one lint.
    case("delete", DRY_RUN, true,               "pass pass pass pass pass pass nt   nt   pass pass -    -    pass pass pass -"),
    // A confirmed delete as given: the user's own run deletes res-1; nothing is run again.
    case("delete", CONFIRMED, false,            "pass pass pass pass nt   nt   nt   nt   nt   nt   -    -    nt   pass pass -"),
    // The same, refusing on stderr before any event (§ 2): no stream to judge. With consent the
    // dry run's stream may be judged in its place.
    case("delete-stderr", DELETE, false,        "pass -    -    -    pass|nt nt nt   nt   nt   nt   -    -    -    -    -    -"),
    case("delete-stderr", DELETE, true,         "pass pass|- pass|- pass|- pass pass nt nt pass pass -    -    pass|- pass|- pass|- -"),
    // The same with § 17's example keys only: whether it reads JSON Lines or takes --limit is
    // not said.
    case("delete-spec17", DELETE, false,        "pass pass pass pass pass|nt nt nt   nt   nt   nt   -    nt   nt   pass pass nt"),
    case("delete-spec17", DELETE, true,         "pass pass pass pass pass pass nt   nt   pass pass -    nt   pass pass pass nt"),
    // Deletes without --confirm: the user's own run shows it.
    case("delete-unconfirmed", DELETE, false,   "pass pass pass pass nt   fail nt   nt   nt   nt   -    -    nt   pass pass -"),
    case("delete-unconfirmed", DELETE, true,    "pass pass pass pass pass fail nt   nt   pass pass -    -    pass pass pass -"),
    // --dry-run plans and deletes: without consent not seen; with it, a failure or honestly
    // not tested (a dry run's side effects are out of a black box's sight), never a pass.
    case("delete-dry-run-deletes", DELETE, false, "pass pass pass pass pass|nt nt nt nt   nt   nt   -    -    nt   pass pass -"),
    case("delete-dry-run-deletes", DELETE, true, "pass pass pass pass pass fail|nt nt nt pass pass -    -    pass pass pass -"),

    // Conforming transformer: reads AOI JSON Lines, per-line tolerant (declared), forwards
    // upstream errors with origin, never the upstream's meta or summary, caused_by on failure.
    case("enrich", ENRICH, false,               "pass pass pass pass pass na   na   na   pass pass na   pass pass pass pass pass"),
    // The same with § 17's example keys only: that it reads JSON Lines is not said.
    case("enrich-spec17", ENRICH, false,        "pass pass pass pass pass na   na   na   pass pass -    nt   pass pass pass nt"),
    // Declares per-line tolerant, stops at the bad line.
    case("enrich-tolerant-aborts", ENRICH, false, "pass pass pass pass pass na na   na   pass pass na   fail pass pass pass pass"),
    // Declares whole-input fail-fast, goes on past the bad line.
    case("enrich-failfast-continues", ENRICH, false, "pass pass pass pass pass na na na   pass pass na   fail pass pass pass pass"),
    // Forwards the upstream's aoi:meta and aoi:summary: check 16 (the main run's stream shows
    // it too, which check 14 may say, or leave to 16).
    case("enrich-forwards-meta", ENRICH, false, "pass pass pass pass pass na   na   na   pass pass na   pass pass fail|nt pass fail"),
    // Forwards the upstream's aoi:error (with origin), then ok:true, exit 0.
    case("enrich-ok-after-error", ENRICH, false, "pass pass pass pass pass na  na   na   pass pass na   pass pass pass pass fail"),
    // Forwards the upstream's aoi:error without origin.
    case("enrich-no-origin", ENRICH, false,     "pass pass pass pass pass na   na   na   pass pass na   pass pass pass pass fail"),
    // caused_by without the upstream's retry_after_ms.
    case("enrich-caused-by-no-retry", ENRICH, false, "pass pass pass pass pass na na  na   pass pass na   pass pass pass pass fail"),
];

fn zoo_path(name: &str) -> String {
    format!(
        "{}/tests/fixtures/lint-zoo/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The statuses a cell allows.
fn allowed(cell: &str) -> BTreeSet<&'static str> {
    let mut set = BTreeSet::new();
    for alt in cell.split('|') {
        match alt {
            "pass" => set.insert("pass"),
            "fail" => set.insert("fail"),
            "nt" => set.insert("not_tested"),
            "na" => set.insert("not_applicable"),
            "-" => set.insert("not_tested") | set.insert("not_applicable"),
            other => panic!("test bug: table cell {other:?}"),
        };
    }
    set
}

/// The table's cells, checks 1 to 16.
fn cells(c: &Case) -> Vec<&'static str> {
    let cells: Vec<&str> = c.table.split_whitespace().collect();
    assert_eq!(cells.len(), 16, "test bug: {}'s table", label(c));
    cells
}

fn label(c: &Case) -> String {
    format!(
        "{} `{}`{}",
        c.tool,
        c.args.join(" "),
        if c.consent {
            " --allow-side-effects"
        } else {
            ""
        }
    )
}

fn is_destructive(c: &Case) -> bool {
    c.args.first() == Some(&"delete")
}

/// What one lint of one case left.
struct Linted {
    case: &'static Case,
    /// The tool as lint ran it (a wrapper in the scratch directory that
    /// sets `ZOO_DIR`, so that discovery, run with only `PATH`, logs too).
    tool: String,
    code: i32,
    stdout: Vec<u8>,
    events: Vec<Value>,
    /// `$ZOO_DIR/runs.log`: the arguments of every run of the tool.
    runs: Vec<String>,
    /// Whether `$ZOO_DIR/res-1` was still there after lint.
    res_left: bool,
    /// Check 10 stayed not tested in every attempt.
    unsignalled: bool,
}

/// The status of check `n`, and its detail.
fn check_of(events: &[Value], n: usize) -> Option<(String, String)> {
    let e = events
        .iter()
        .find(|e| e["type"] == "aoi:check" && e["properties"]["check"] == n as u64)?;
    Some((
        e["properties"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        e["detail"].as_str().unwrap_or_default().to_string(),
    ))
}

/// Lints one case in a fresh `ZOO_DIR` (with `res-1` for a destructive
/// tool). While lint could not signal the tool mid-run (check 10 not
/// tested where the table expects a pass), it is run again, 3 times at
/// most, as `lint_signalled` in lint.rs does.
fn lint_case(c: &'static Case) -> Linted {
    let dir = scratch(&format!("zoo-{}", c.tool));
    let zoo_dir = dir.to_str().expect("UTF-8 path").to_string();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    let tool = bin.join(c.tool);
    std::fs::write(
        &tool,
        format!(
            "#!/bin/sh\nZOO_DIR='{zoo_dir}'\nexport ZOO_DIR\nexec '{}' \"$@\"\n",
            zoo_path(c.tool)
        ),
    )
    .expect("write wrapper");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755))
            .expect("chmod wrapper");
    }
    let tool = tool.to_str().expect("UTF-8 path").to_string();
    let upstream = zoo_path("upstream.jsonl");
    let wants_signal = allowed(cells(c)[9]).contains("pass");
    let mut attempt = 0;
    loop {
        attempt += 1;
        let _ = std::fs::remove_file(dir.join("runs.log"));
        let res = dir.join("res-1");
        if is_destructive(c) {
            std::fs::write(&res, b"a resource\n").expect("create res-1");
        } else {
            let _ = std::fs::remove_file(&res);
        }
        let mut args = vec!["lint", "--output", "jsonl"];
        if c.consent {
            args.push("--allow-side-effects");
        }
        if c.args.first() == Some(&"enrich") {
            args.extend(["--stdin", upstream.as_str()]);
        }
        args.extend(["--", tool.as_str()]);
        args.extend_from_slice(c.args);
        let out = aoi_env(&args, b"", &[("ZOO_DIR", zoo_dir.as_str())]);
        // Leniently: a report that is no stream is (d)'s finding, and must
        // not hide the other cases.
        let events: Vec<Value> = out
            .stdout
            .split(|&b| b == b'\n')
            .filter_map(|l| serde_json::from_slice(l).ok())
            .collect();
        let unsignalled = check_of(&events, 10).is_some_and(|(s, _)| s == "not_tested");
        if unsignalled && wants_signal && attempt < 3 {
            continue;
        }
        let runs = std::fs::read_to_string(dir.join("runs.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        return Linted {
            case: c,
            tool,
            code: out.code,
            stdout: out.stdout,
            events,
            runs,
            res_left: res.exists(),
            unsignalled: unsignalled && wants_signal,
        };
    }
}

/// Every case linted, once per test binary (three at a time: lint mostly
/// waits on the tools' sleeps), in the order of [`ZOO`].
fn zoo() -> &'static [Linted] {
    static LINTED: std::sync::OnceLock<Vec<Linted>> = std::sync::OnceLock::new();
    LINTED.get_or_init(|| {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let done = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(c) = ZOO.get(i) else { break };
                        let l = lint_case(c);
                        done.lock().expect("lock").push((i, l));
                    }
                });
            }
        });
        let mut all = done.into_inner().expect("lock");
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, l)| l).collect()
    })
}

/// Runs of the tool that are discovery (`schema`, `capabilities`, and their
/// flag spellings), not the command.
fn is_discovery(run: &str) -> bool {
    let first = run.split(' ').next().unwrap_or_default();
    matches!(
        first,
        "schema" | "capabilities" | "--schema" | "--capabilities"
    )
}

/// (a) Every check of every tool says what its table says. Every mismatch
/// of every case is in the one message; a pass the table does not allow is
/// a FALSE PASS.
#[test]
fn lint_zoo_tables() {
    let mut mismatches = Vec::new();
    let mut false_passes = 0;
    for l in zoo() {
        let c = l.case;
        for (i, cell) in cells(c).into_iter().enumerate() {
            let n = i + 1;
            let want = allowed(cell);
            let Some((status, detail)) = check_of(&l.events, n) else {
                mismatches.push(format!(
                    "{}: check {n}: no aoi:check (exit {})",
                    label(c),
                    l.code
                ));
                continue;
            };
            if want.contains(status.as_str()) {
                continue;
            }
            if n == 10 && l.unsignalled && status == "not_tested" {
                notice(format!(
                    "{}: each run ended before lint could signal it; check 10 not judged",
                    label(c)
                ));
                continue;
            }
            let false_pass = status == "pass";
            false_passes += usize::from(false_pass);
            mismatches.push(format!(
                "{}{}: check {n}: lint says {status}, the table {cell}: {detail}",
                if false_pass { "FALSE PASS " } else { "" },
                label(c),
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatch(es) with the zoo's tables, {false_passes} of them false passes:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// (b) No side effect without consent: lint runs the destructive command at
/// most once, as given (discovery apart), and the conforming tools' res-1
/// is still there after it.
#[test]
fn lint_zoo_no_side_effect_without_consent() {
    let mut problems = Vec::new();
    for l in zoo()
        .iter()
        .filter(|l| !l.case.consent && is_destructive(l.case))
    {
        let c = l.case;
        let runs: Vec<&String> = l.runs.iter().filter(|r| !is_discovery(r)).collect();
        if runs.len() > 1 {
            problems.push(format!(
                "{}: the destructive command ran {} times without --allow-side-effects: {runs:?}",
                label(c),
                runs.len()
            ));
        }
        // Only the user's own command deletes: a confirmed delete, or
        // delete-unconfirmed's.
        let deletes = c.args.contains(&"--confirm")
            || (c.tool == "delete-unconfirmed" && !c.args.contains(&"--dry-run"));
        if !deletes && !l.res_left {
            problems.push(format!(
                "{}: res-1 was deleted without --allow-side-effects; runs: {runs:?}",
                label(c)
            ));
        }
        // A probe skipped says why: it would run the command again (the
        // unknown flag, the secret, the pipe close and the signals).
        for n in [5, 9, 10] {
            let Some((status, detail)) = check_of(&l.events, n) else {
                continue;
            };
            let evidence = l
                .events
                .iter()
                .find(|e| e["type"] == "aoi:check" && e["properties"]["check"] == n as u64)
                .map(|e| e["properties"]["evidence"].to_string())
                .unwrap_or_default();
            if status == "not_tested"
                && !detail.contains("--allow-side-effects")
                && !evidence.contains("--allow-side-effects")
            {
                problems.push(format!(
                    "{}: check {n} not tested without saying it needs --allow-side-effects: {detail}",
                    label(c)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// (c) Every run of the tool is reported: the runs it logged are
/// `properties.runs` of lint's summary (discovery included), and each run
/// appears in some check's evidence as a line `ran `ARGV`: STATUS`.
#[test]
fn lint_zoo_every_run_is_reported() {
    let mut problems = Vec::new();
    for l in zoo() {
        let c = l.case;
        let summary = l.events.last().filter(|e| e["type"] == "aoi:summary");
        let counted = summary.and_then(|s| s["properties"]["runs"].as_u64());
        if counted != Some(l.runs.len() as u64) {
            problems.push(format!(
                "{}: the tool ran {} times, lint's summary says properties.runs {}",
                label(c),
                l.runs.len(),
                counted.map_or("absent".to_string(), |n| n.to_string())
            ));
        }
        let ran: Vec<&str> = l
            .events
            .iter()
            .filter(|e| e["type"] == "aoi:check")
            .filter_map(|e| e["properties"]["evidence"].as_array())
            .flatten()
            .filter_map(Value::as_str)
            .filter(|line| line.starts_with("ran "))
            .collect();
        let ran: Vec<String> = ran.into_iter().map(canary_hidden).collect();
        let distinct: BTreeSet<String> = l.runs.iter().map(|r| canary_hidden(r)).collect();
        // The argv ends with the run's arguments, then the backtick.
        let unreported: Vec<String> = distinct
            .into_iter()
            .filter(|run| {
                let tail = format!(" {run}`");
                !ran.iter().any(|line| line.contains(&tail))
            })
            .collect();
        if !unreported.is_empty() {
            problems.push(format!(
                "{}: {} run(s) of {} in no evidence line `ran …`: {unreported:?}",
                label(c),
                unreported.len(),
                l.tool
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s) with the runs reported:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `s` with lint's secret canary (check 9's `--token` value) shown as
/// `<canary>`, as lint may show it.
fn canary_hidden(s: &str) -> String {
    s.split(' ')
        .map(|w| match w.strip_prefix("aoi-lint-canary-") {
            Some(rest) if rest.ends_with('`') => "<canary>`",
            Some(_) => "<canary>",
            None => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// (d) Every report is a conforming AOI stream, judged by `aoi check`.
#[test]
fn lint_zoo_reports_conform() {
    let mut problems = Vec::new();
    for l in zoo() {
        let expected = if l.code == 0 { 0 } else { 1 };
        if ![0, 1].contains(&l.code) {
            problems.push(format!("{}: lint exits {}", label(l.case), l.code));
        }
        let bytes = l.stdout.clone();
        let judged = std::panic::catch_unwind(move || assert_conforming_report(&bytes, expected));
        if let Err(e) = judged {
            let why = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            problems.push(format!(
                "{}: {}",
                label(l.case),
                why.lines().next().unwrap_or("")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The zoo itself: every tool's discovery works with only `PATH` set (no
/// `ZOO_DIR`: nothing is written) and gives one JSON object, but where that
/// is the tool's defect (caps-env's capabilities, schema-not-json's schema).
#[test]
fn lint_zoo_tools_discover_without_zoo_dir() {
    let names: BTreeSet<&str> = ZOO.iter().map(|c| c.tool).collect();
    for name in names {
        for sub in ["schema", "capabilities"] {
            let out = command(zoo_path(name))
                .args([sub, "--output", "json"])
                .env_clear()
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .current_dir(Path::new(env!("CARGO_TARGET_TMPDIR")))
                .output()
                .expect("run a zoo tool");
            if name == "caps-env" && sub == "capabilities" {
                assert_eq!(out.status.code(), Some(78), "{name} {sub}");
                continue;
            }
            assert_eq!(out.status.code(), Some(0), "{name} {sub}");
            if name == "schema-not-json" && sub == "schema" {
                continue;
            }
            let v: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{name} {sub}: not JSON: {e}"));
            assert!(v.is_object(), "{name} {sub}");
        }
    }
}
