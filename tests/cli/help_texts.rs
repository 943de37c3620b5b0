//! Help written per command: a shared option's text gives each command's
//! own example and says only what applies to it; each exit table lists
//! the codes that command returns; the catalog as a stream.

use crate::util::{aoi, assert_matches_schema, check, command, parse_jsonl, scratch, write_file};

/// The commands that read several inputs (`--files-from`, `--threads`).
const READERS: [&str; 6] = [
    "check",
    "strip",
    "errors",
    "summary",
    "filter",
    "merge-report",
];

/// `aoi CMD --help` with its lines joined (clap wraps long help).
fn help(cmd: &str) -> String {
    let out = aoi(&[cmd, "--help"], b"");
    assert_eq!(out.code, 0, "{cmd}: {}", out.stderr);
    out.stdout_str()
}

/// The text of option `opt` in `help`, wrapped lines joined by one space.
fn option_text(help: &str, opt: &str) -> String {
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(opt));
    let mut text: Vec<&str> = lines.next().into_iter().collect();
    // Continuation lines are indented past the options' own.
    text.extend(lines.take_while(|l| l.starts_with("          ") && !l.trim().is_empty()));
    let words: Vec<&str> = text.iter().flat_map(|l| l.split_whitespace()).collect();
    words.join(" ")
}

/// Each command's `--files-from` example names that command, and runs:
/// the shell pipeline in its help, in a directory of run files.
#[test]
fn files_from_gives_each_commands_own_example() {
    let dir = scratch("files-from-examples");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).expect("mkdir runs");
    let search = std::fs::read(format!(
        "{}/examples/search.jsonl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    write_file(&runs, "a.jsonl", &search);
    write_file(&runs, "b.jsonl", &search);
    for cmd in READERS {
        let text = option_text(&help(cmd), "--files-from");
        let example = text
            .split("(`find ")
            .nth(1)
            .and_then(|t| t.split("`)").next())
            .map(|t| format!("find {t}"))
            .unwrap_or_else(|| panic!("{cmd}: no example in {text}"));
        assert!(
            example.contains(&format!("| aoi {cmd} ")),
            "{cmd}: {example}"
        );
        let out = command("sh")
            .args(["-c", &example])
            .current_dir(&dir)
            .env("PATH", path_with_aoi())
            .output()
            .expect("run sh");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{cmd}: {example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// PATH with the aoi under test first.
fn path_with_aoi() -> String {
    let bin = std::path::Path::new(crate::util::AOI)
        .parent()
        .expect("aoi's directory")
        .display()
        .to_string();
    format!("{bin}:{}", std::env::var("PATH").unwrap_or_default())
}

/// `--idle-timeout` speaks of a log's interleaved runs only where a
/// command reads logs.
#[test]
fn idle_timeout_speaks_of_interleaved_runs_only_with_log() {
    for (cmd, log) in [
        ("check", false),
        ("filter", false),
        ("summary", true),
        ("errors", true),
        ("merge-report", true),
    ] {
        let text = option_text(&help(cmd), "--idle-timeout");
        assert!(text.contains("timeout outcome (exit 124)"), "{cmd}: {text}");
        assert_eq!(text.contains("interleaved"), log, "{cmd}: {text}");
    }
}

/// `--threads` speaks of the command it is read in: its own files at
/// once, no other command's reader (filter's --raw, check's relay).
#[test]
fn threads_speaks_of_its_own_command() {
    for cmd in READERS {
        let text = option_text(&help(cmd), "--threads");
        assert!(
            text.contains(&format!("aoi {cmd} judges N files at once")),
            "{cmd}: {text}"
        );
        for other in READERS.iter().filter(|o| **o != cmd) {
            assert!(
                !text.contains(&format!("{other} ")),
                "{cmd} names {other}: {text}"
            );
        }
        assert_eq!(text.contains("--raw"), cmd == "filter", "{cmd}: {text}");
        assert_eq!(text.contains("relay"), cmd == "check", "{cmd}: {text}");
        assert_eq!(
            text.contains("finds each line's event"),
            cmd == "errors" || cmd == "merge-report",
            "{cmd}: {text}"
        );
    }
}

/// 73 (an output file) only where the command writes one; filter's table
/// has jq's 5 for --raw, which is what `filter --raw` exits with when the
/// filter fails on a value, and 0 on a stream that failed (not judged).
#[test]
fn exit_tables_list_the_codes_each_command_returns() {
    for (cmd, writes) in [
        ("check", true),
        ("merge-report", true),
        ("strip", false),
        ("errors", false),
        ("summary", false),
        ("filter", false),
    ] {
        let text = help(cmd);
        let table = &text[text.find("Exit status:").expect("an exit table")..];
        assert_eq!(table.contains("\n   73 "), writes, "{cmd}: {table}");
        assert!(!table.contains("73 (aoi check)"), "{cmd}");
        assert_eq!(table.contains("\n    5    --raw"), cmd == "filter", "{cmd}");
    }
    let bad = aoi(&["filter", "--raw", ".a.b"], b"{\"a\":1}\n");
    assert_eq!(bad.code, 5, "{}", bad.stderr);
    let failed = format!("{}/examples/rate-limited.jsonl", env!("CARGO_MANIFEST_DIR"));
    assert_eq!(aoi(&["filter", "--raw", ".", &failed], b"").code, 0);
    assert_eq!(aoi(&["filter", "--raw", "."], b"not json\n").code, 65);
    assert_eq!(aoi(&["filter", ".", &failed], b"").code, 75);
}

/// `aoi rules --output jsonl`: aoi:meta, one `rule` event per rule of the
/// table, aoi:summary; a stream `aoi check` passes.
#[test]
fn rules_as_a_stream_and_an_aligned_table() {
    let table = aoi(&["rules"], b"");
    assert_eq!(table.code, 0);
    let rows: Vec<String> = table.stdout_str().lines().map(str::to_string).collect();
    let out = aoi(&["rules", "--output", "jsonl"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(check(&["-q"], &out.stdout).code, 0);
    // Typed too: `aoi schema` declares the `rule` event (§ 10).
    assert_matches_schema(&out.stdout);
    let events = parse_jsonl(&out.stdout);
    assert_eq!(events[0]["type"], "aoi:meta");
    assert_eq!(events[0]["command"], "rules");
    assert_eq!(
        events.last().map(|e| e["type"].clone()),
        Some("aoi:summary".into())
    );
    let rules: Vec<&serde_json::Value> = events.iter().filter(|e| e["type"] == "rule").collect();
    assert_eq!(rules.len(), rows.len());
    for (r, row) in rules.iter().zip(&rows) {
        let id = r["id"].as_str().expect("an id");
        assert!(row.starts_with(&format!("{id} ")), "{row}");
        // The hint starts in the same column on every row, the longest
        // section's included.
        let hint = r["hint"].as_str().expect("a hint");
        let at = row.chars().count() - hint.chars().count();
        let first =
            rows[0].chars().count() - rules[0]["hint"].as_str().map_or(0, |h| h.chars().count());
        assert_eq!(at, first, "{row}");
        assert!(!r["severity"].as_str().unwrap_or_default().is_empty());
    }
}
