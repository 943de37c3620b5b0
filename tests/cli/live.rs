//! A live producer: every command that writes as it reads hands its output
//! on as each read brings lines, not when a buffer fills or the input ends
//! (`tool | aoi strip | next` on an unbounded stream, `--unbounded`). The
//! pipe stays open while the first output is awaited.

use std::io::{BufRead, BufReader, Write};

use crate::util::*;

/// Feeds `input` to `aoi ARGS` and keeps the pipe open; returns the first
/// line of stdout, or `None` if none came (within `waits::HANG`).
fn first_line_while_open(args: &[&str], input: &[u8]) -> Option<String> {
    let mut child = spawn_piped(args);
    let mut sin = child.stdin.take().expect("stdin");
    sin.write_all(input).expect("feed");
    sin.flush().expect("flush");
    let out = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(out).lines();
        let _ = tx.send(lines.next().and_then(|l| l.ok()));
    });
    let got = rx.recv_timeout(crate::waits::HANG).ok().flatten();
    drop(sin);
    let _ = child.kill();
    let _ = child.wait();
    got
}

#[test]
fn output_goes_on_while_the_input_is_still_open() {
    let error =
        r#"{"type":"aoi:error","category":"io","code":"E_LIVE","message":"m","retryable":true}"#;
    let input = s().hits(2).ev(error).no_summary().bytes();
    // What each command's first line holds.
    let cases: [(&[&str], &str); 7] = [
        (&["check"], "aoi:meta"),
        (&["strip"], r#""type":"hit""#),
        (&["strip", "--control"], "aoi:meta"),
        (&["filter", "select(.rank == 1) | .rank"], "aoi:meta"),
        (&["errors"], "E_LIVE"),
        (&["errors", "--output", "jsonl"], "aoi:meta"),
        (&["check", "--output", "jsonl"], "aoi:meta"),
    ];
    for (args, want) in cases {
        for threads in ["1", "2"] {
            let mut a = args.to_vec();
            a.extend_from_slice(&["--threads", threads]);
            let line = first_line_while_open(&a, &input);
            let line = line.unwrap_or_else(|| panic!("{a:?}: nothing while the input was open"));
            assert!(line.contains(want), "{a:?}: {line}");
        }
    }
}

/// Past the first line: a report's later events go on too (`errors
/// --output jsonl` forwards the upstream error, `filter` its result).
#[test]
fn later_events_go_on_while_the_input_is_still_open() {
    let error =
        r#"{"type":"aoi:error","category":"io","code":"E_LIVE","message":"m","retryable":true}"#;
    let input = s().hits(2).ev(error).no_summary().bytes();
    for (args, want) in [
        (&["errors", "--output", "jsonl"][..], "E_LIVE"),
        (
            &["filter", "select(.rank == 1) | {type: \"picked\"}"][..],
            "picked",
        ),
    ] {
        let mut child = spawn_piped(args);
        let mut sin = child.stdin.take().expect("stdin");
        sin.write_all(&input).expect("feed");
        let out = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        let w = want.to_string();
        std::thread::spawn(move || {
            let found = BufReader::new(out)
                .lines()
                .map_while(Result::ok)
                .any(|l| l.contains(&w));
            let _ = tx.send(found);
        });
        let got = rx.recv_timeout(crate::waits::HANG);
        drop(sin);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(
            got,
            Ok(true),
            "{args:?}: {want} did not come while the input was open"
        );
    }
}
