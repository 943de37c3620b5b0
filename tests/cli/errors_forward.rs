//! `aoi errors` on a log (`--log`) decides each event and, with `--output
//! jsonl`, writes most of its forwarded body where the line is prepared
//! (on two threads, the reading thread: `src/demux.rs`, `PrepareEvent`),
//! the judging thread adding only the run's tool and the line number.
//! Held here to the general path, on streams of odd errors (repeated
//! keys, non-string codes, escapes, huge messages, nested, absent or
//! non-object properties): read as one stream (no `--log`, where nothing
//! is prepared) the forwarded events are the same bytes; and one thread,
//! two threads and every split of the lines between them give the same
//! stdout, stderr and exit for every output, each report passing `aoi
//! check`.

use proptest::prelude::*;

use crate::util::{
    AOI, Out, assert_conforming_report, code_of, command, env, fed_back_code, s, scratch,
    write_file,
};

/// One member an upstream error may carry, as written (key and value).
fn member() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(r#""category":"io""#.to_string()),
        Just(r#""category":"rate_limited""#.to_string()),
        Just(r#""category":"partial""#.to_string()),
        Just(r#""category":5"#.to_string()),
        Just(r#""code":"DOC_1""#.to_string()),
        Just(r#""code":"lower""#.to_string()),
        Just(r#""code":7"#.to_string()),
        Just(r#""c\u006fde":"ESC_KEY""#.to_string()),
        Just(r#""code":"A\u0042C""#.to_string()),
        Just(r#""message":"plain words""#.to_string()),
        Just(r#""message":"two\nlines""#.to_string()),
        Just(r#""message":"\u001b[1mbold\u001b[0m""#.to_string()),
        Just("\"message\":\"caf\u{e9} \u{2028} \u{85}x\"".to_string()),
        Just(r#""message":"""#.to_string()),
        (1usize..40_000).prop_map(|n| format!(r#""message":"{}""#, "m".repeat(n))),
        Just(r#""retryable":true"#.to_string()),
        Just(r#""retryable":false"#.to_string()),
        Just(r#""retryable":"no""#.to_string()),
        Just(r#""retry_after_ms":250"#.to_string()),
        Just(r#""retry_after_ms":-1"#.to_string()),
        Just(r#""origin":"upstream-tool""#.to_string()),
        Just(r#""origin":7"#.to_string()),
        Just(r#""domain":"outline""#.to_string()),
        Just(r#""scope":"item""#.to_string()),
        Just(r#""scope":"all""#.to_string()),
        Just(r#""target":"/documents/a\"b""#.to_string()),
        Just(r#""item_index":42"#.to_string()),
        Just(r#""item_index":"42""#.to_string()),
        Just(r#""wrapped":{"protocol":"http","status":404}"#.to_string()),
        Just(r#""wrapped":{"protocol":"ftp"}"#.to_string()),
        Just(r#""details":{"attempt":4,"deep":[1,{"k":"v"}]}"#.to_string()),
        Just(r#""details":"text""#.to_string()),
        Just(r#""properties":{"a":1,"forwarded":{"earlier":true},"n":{"x":[{}]}}"#.to_string()),
        Just(r#""properties":{}"#.to_string()),
        Just(r#""properties":3"#.to_string()),
        Just(r#""extra":{"unknown":null}"#.to_string()),
        Just(r#" "hint" : "spaced" "#.to_string()),
    ]
}

/// A line of the stream at `seq`: an odd error, a warning, or a domain
/// event.
fn line() -> impl Strategy<Value = (u8, Vec<String>)> {
    (0u8..6, prop::collection::vec(member(), 0..9))
}

fn stream_of(lines: &[(u8, Vec<String>)]) -> Vec<u8> {
    let mut st = s();
    for (seq, (kind, members)) in (1u64..).zip(lines) {
        let ty = match kind {
            0 => "aoi:warning",
            1 => "hit",
            _ => "aoi:error",
        };
        let mut line = format!(r#"{{"type":"{ty}",{}"#, env(seq));
        for m in members {
            line.push(',');
            line.push_str(m);
        }
        line.push('}');
        st = st.raw(line);
    }
    st.bytes()
}

/// `aoi errors ARGS --threads THREADS FILE`, the worker preparing `share`
/// bytes of each block when given.
fn run(args: &[&str], threads: &str, share: Option<&str>, file: &str) -> Out {
    let mut c = command(AOI);
    c.arg("errors")
        .args(args)
        .args(["--threads", threads, file]);
    if let Some(bytes) = share {
        c.env("AOI_PARALLEL_SHARE", bytes);
    }
    let o = c.output().expect("run aoi");
    Out {
        code: code_of(o.status),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A report's lines with what differs from run to run taken out: aoi's
/// own run id and times (`t`, `elapsed_ms`); read as a log or not.
/// Byte for byte otherwise (a parse would merge repeated keys).
fn steady(stdout: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(stdout);
    text.lines()
        .map(|l| {
            // aoi's own envelope: `"aoi":{"seq":N,"run":"…","t":T}`.
            let (head, rest) = l.split_once(r#","run":""#).unwrap_or((l, ""));
            let rest = rest.split_once('}').map_or("", |(_, r)| r);
            let mut l = format!("{head}}}{rest}");
            if let Some(at) = l.find(r#""elapsed_ms":"#) {
                let end = l[at + 13..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(l.len(), |e| at + 13 + e);
                l.replace_range(at..end, r#""elapsed_ms":0"#);
            }
            l.replace(r#""read_as_log":true"#, r#""read_as_log":false"#)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn prepared_errors_are_the_general_paths(
        lines in prop::collection::vec(line(), 1..40),
    ) {
        let dir = scratch("errors-forward");
        let file = write_file(&dir, "odd.jsonl", &stream_of(&lines));
        for warnings in [false, true] {
            let w: &[&str] = if warnings { &["-w"] } else { &[] };
            // Read as one stream, nothing is prepared.
            let general = run(&[w, &["--output", "jsonl"]].concat(), "1", None, &file);
            let log_args = [w, &["--log", "--output", "jsonl"]].concat();
            let prepared = run(&log_args, "1", None, &file);
            prop_assert_eq!(prepared.code, general.code);
            prop_assert_eq!(steady(&prepared.stdout), steady(&general.stdout));
            assert_conforming_report(&prepared.stdout, fed_back_code(prepared.code));
            for out in [&["--output", "jsonl"][..], &["--output", "table"], &["--output", "raw"], &["--count"]] {
                let args = [w, &["--log", "--no-fail"], out].concat();
                let one = run(&args, "1", None, &file);
                // The worker preparing every line, none, part of each block.
                for share in ["1000000000", "0", "300"] {
                    let two = run(&args, "2", Some(share), &file);
                    prop_assert_eq!(two.code, one.code, "{:?} share {}", out, share);
                    prop_assert_eq!(steady(&two.stdout), steady(&one.stdout), "{:?} share {}", out, share);
                    prop_assert_eq!(&two.stderr, &one.stderr, "{:?} share {}", out, share);
                }
            }
        }
    }
}
