//! One verdict: the same bytes get the same outcome and exit
//! code from every command and every output format, unless the user asked
//! for leniency (`--log`).

use crate::util::*;

/// Streams `aoi check` fails, each for lines a lenient log reader skips,
/// put between the lines of a clean stream (as a tool that also prints
/// prose on stdout would): invalid JSON beside a coloured line, prose, a
/// UTF-8 BOM.
fn broken_streams() -> Vec<(&'static str, Vec<u8>)> {
    let clean = s().hits(2).bytes();
    let first = clean.iter().position(|&b| b == b'\n').expect("a line") + 1;
    let between = |noise: &[u8]| [&clean[..first], noise, &clean[first..]].concat();
    vec![
        (
            "invalid JSON and colour",
            between(b"{\"type\":\"hit\",\n\x1b[32mOK\x1b[0m\n"),
        ),
        ("prose", between(b"Found 2 more results, fetching...\n")),
        ("a BOM", [&b"\xef\xbb\xbf"[..], &clean].concat()),
    ]
}

/// Every command and format that judges a stream, as arguments.
const JUDGES: &[&[&str]] = &[
    &["check", "-q"],
    &["strip", "-q"],
    &["summary", "-q"],
    &["filter", "-q", "."],
    &["errors", "-q"],
    &["errors", "-q", "--output", "jsonl"],
    &["merge-report", "-q", "--format", "jsonl"],
    &["merge-report", "-q", "--format", "tap"],
    &["merge-report", "-q", "--format", "junit"],
    &["merge-report", "-q", "--format", "markdown"],
    &["merge-report", "-q", "--format", "table"],
];

#[test]
fn every_command_gives_a_broken_stream_the_verdict_of_check() {
    for (what, input) in broken_streams() {
        let want = check(&["-q"], &input).code;
        assert_eq!(want, 65, "{what}: check");
        for args in JUDGES {
            let out = aoi(args, &input);
            assert_eq!(out.code, want, "{what}: {args:?}: {}", out.stderr);
        }
    }
}

/// Leniency is what `--log` asks for: the same streams read as logs pass,
/// and what the reading passed over (skipped lines, a BOM trimmed as a
/// prefix) is stated on stderr and in every output format.
#[test]
fn log_reading_is_asked_for_and_shows_in_every_format() {
    for (what, input) in broken_streams() {
        let (skipped, trimmed) = match what {
            "a BOM" => (0, 1),
            "prose" => (1, 0),
            _ => (2, 0),
        };
        let want = format!("read as a log (--log): {skipped} line(s) skipped (not AOI events)");
        for cmd in [
            &["errors", "--log"][..],
            &["strip", "--log"],
            &["strip", "--log", "--control"],
            &["summary", "--log"],
        ] {
            let out = aoi(cmd, &input);
            assert_eq!(out.code, 0, "{what}: {cmd:?}: {}", out.stderr);
            assert!(
                out.stderr.contains(&want),
                "{what}: {cmd:?}: {}",
                out.stderr
            );
        }
        let out = aoi(&["merge-report", "--log", "--format", "jsonl"], &input);
        assert_eq!(out.code, 0, "{what}: {}", out.stderr);
        assert_conforming_report(&out.stdout, 0);
        let props = parse_jsonl(&out.stdout).pop().expect("summary")["properties"].clone();
        assert_eq!(props["read_as_log"], true, "{what}");
        assert_eq!(props["skipped_lines"], skipped, "{what}: {props}");
        assert_eq!(props["trimmed_lines"], trimmed, "{what}: {props}");
        for format in ["table", "markdown", "junit", "tap", "ctrf"] {
            let out = aoi(&["merge-report", "-q", "--log", "--format", format], &input);
            assert_eq!(out.code, 0, "{what}: {format}");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains(&want), "{what}: {format}: {text}");
        }
        let tap = aoi(&["merge-report", "--log", "--format", "tap"], &input);
        assert!(
            String::from_utf8_lossy(&tap.stdout).contains("# SKIP"),
            "the log note is a skipped TAP point"
        );
    }
}

/// Without `--log`, nothing is said about log reading: no note in any
/// format, so a report never claims a leniency that was not used.
#[test]
fn a_clean_stream_read_strictly_has_no_log_note() {
    let clean = s().hits(2).bytes();
    for format in ["table", "markdown", "junit", "tap", "jsonl", "ctrf"] {
        let out = aoi(&["merge-report", "--format", format], &clean);
        assert_eq!(out.code, 0, "{format}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("read as a log"), "{format}: {text}");
    }
}

#[test]
fn a_producer_says_why_its_exit_differs_from_the_verdict() {
    let input = s()
        .hits(1)
        .ev(r#"{"type":"aoi:error","scope":"item","category":"not_found","code":"DOC_MISSING","message":"m","retryable":false}"#)
        .summary(r#"{"partial":true}"#)
        .bytes();
    assert_eq!(check(&["-q"], &input).code, 0);
    for (args, name) in [
        (&["filter", "select(.rank > 2)"][..], "filter"),
        (&["errors", "--output", "jsonl"], "errors"),
    ] {
        let out = aoi(args, &input);
        assert_eq!(out.code, 1, "{args:?}");
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {}", out.stderr);
        assert!(
            lines[0].starts_with(&format!("aoi {name}: exit 1: "))
                && lines[0].contains("not_found DOC_MISSING")
                && lines[0].contains("--continue-on-error"),
            "{}",
            lines[0]
        );
        let quiet = aoi(&[args, &["-q"]].concat(), &input);
        assert_eq!((quiet.code, quiet.stderr.as_str()), (1, ""), "{args:?} -q");
        let go_on = aoi(&[args, &["--continue-on-error"]].concat(), &input);
        assert_eq!(go_on.code, 0, "{args:?} --continue-on-error");
    }
}

/// Every non-zero exit says why on stderr, whatever the command and
/// format (stdout may be a file: `> junit.xml`); `-q` silences it.
#[test]
fn every_non_zero_exit_says_why_on_stderr() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let mut inputs: Vec<(String, Vec<u8>)> = broken_streams()
        .into_iter()
        .map(|(w, b)| (w.to_string(), b))
        .collect();
    for name in ["rate-limited.jsonl", "truncated.jsonl"] {
        let bytes = std::fs::read(format!("{examples}/{name}")).expect("example");
        inputs.push((name.to_string(), bytes));
    }
    for (what, input) in &inputs {
        for quiet in JUDGES.iter().copied() {
            let loud: Vec<&str> = quiet.iter().copied().filter(|a| *a != "-q").collect();
            let out = aoi(&loud, input);
            assert_ne!(out.code, 0, "{what}: {loud:?}");
            let said: Vec<&str> = out
                .stderr
                .lines()
                .filter(|l| l.starts_with("aoi "))
                .collect();
            assert!(
                said.iter()
                    .any(|l| l.contains(&format!("exit {}", out.code))),
                "{what}: {loud:?} exits {} without saying why: {}",
                out.code,
                out.stderr
            );
            let out = aoi(quiet, input);
            assert_eq!(out.stderr, "", "{what}: {quiet:?} is quiet");
        }
    }
}

/// aoi's own failures outrank every stream verdict, alike in every command
/// (the order is `cli::EXIT_TABLE`'s last line): an input that
/// cannot be opened (66) over a broken (65) and a cut (74) stream in
/// either order, a usage error (64) before anything is read, and check's
/// `--report` file that cannot be created (73) before any input.
#[test]
fn own_failures_outrank_stream_verdicts_in_every_command() {
    let dir = scratch("own-failures");
    let broken = write_file(&dir, "broken.jsonl", b"prose\n");
    let cut = write_file(&dir, "cut.jsonl", &s().hits(1).no_summary().bytes());
    let missing = dir.join("nope.jsonl").display().to_string();
    let commands: &[&[&str]] = &[
        &["check"],
        &["check", "--no-relay"],
        &["strip"],
        &["summary"],
        &["errors"],
        &["errors", "--count"],
        &["merge-report"],
        &["filter", "."],
    ];
    for cmd in commands {
        for inputs in [[&broken, &cut, &missing], [&missing, &cut, &broken]] {
            let mut args = cmd.to_vec();
            args.extend(inputs.iter().map(|s| s.as_str()));
            let out = aoi(&args, b"");
            assert_eq!(out.code, 66, "{args:?}: {}", out.stderr);
            assert!(
                out.stderr.contains("nope.jsonl"),
                "{args:?}: {}",
                out.stderr
            );
        }
        let mut args = cmd.to_vec();
        args.extend(["--no-such-flag", &missing]);
        assert_eq!(aoi(&args, b"").code, 64, "{args:?}");
    }
    let report = dir.join("no/such/dir/report.jsonl").display().to_string();
    let out = check(&["--report", &report, &broken, &missing], b"");
    assert_eq!(out.code, 73, "{}", out.stderr);
    let out = check(&["--report", &report, "--no-such-flag", &broken], b"");
    assert_eq!(out.code, 64, "{}", out.stderr);
}
