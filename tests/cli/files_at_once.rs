//! `--threads` over many files for `check`, `errors`,
//! `summary` and `strip`, `--log` included (merge-report's is in `merge.rs`). Small files are judged N
//! at once, a larger one in its turn; stdout, stderr and the exit status
//! are one thread's, byte for byte (a jsonl report but for aoi's run id
//! and times), whatever the sizes and the scheduling.

use proptest::prelude::*;

use crate::util::{
    RUN, aoi, assert_conforming_report, fed_back_code, normalized, s, scratch, write_file,
};

/// Every command that takes several files, in the formats that differ.
const COMMANDS: &[&[&str]] = &[
    &["check"],
    &["check", "--no-relay"],
    &["check", "--output", "jsonl", "--show", "3"],
    &["summary"],
    &["summary", "--output", "jsonl"],
    &["summary", "--log", "--output", "json"],
    &["errors", "-w", "--output", "raw"],
    &["errors", "-w", "--output", "table", "--color", "never"],
    &["errors", "--output", "jsonl"],
    &["errors", "--log", "--count"],
    &["strip", "--no-fail"],
    &["strip", "--control"],
    &["strip", "--log", "--control"],
    &["filter", "--continue-on-error", ITEM_ERRORS],
    &["filter", "--framework", "-q", DEBUG],
    &["filter", "--raw", ITEM_ERRORS],
    &["filter", "-r", DEBUG_TYPE],
];

/// A `--raw` filter that writes to stderr and prints strings raw.
const DEBUG_TYPE: &str = r#"if .rank? % 5 == 1 then debug | .type else .aoi.seq? // "none" end"#;

/// A filter with results and item errors (every seventh event).
const ITEM_ERRORS: &str =
    r#"if .rank % 7 == 3 then error("seven") else {type: "r", rank, n: (.rank * 2)} end"#;
/// A filter that writes to stderr (`debug`) and passes events unchanged.
const DEBUG: &str = "if .rank? % 5 == 1 then debug else . end";
/// A filter that halts on the first event of rank 5 (after saying so on
/// stderr), and debugs each event before it.
const HALT: &str = r#"if .rank == 5 then "stop\n" | halt_error(3) else debug end"#;

/// Whether `cmd` writes aoi's report (a run id and times of its own).
fn reports(cmd: &[&str]) -> bool {
    let raw = cmd.contains(&"--raw") || cmd.contains(&"-r");
    cmd.contains(&"jsonl") || (cmd.first() == Some(&"filter") && !raw)
}

/// Summary patches: ok, failed, a wrong count (a violation), partial.
const PATCHES: [&str; 4] = [
    "{}",
    r#"{"ok":false,"reason":"failed"}"#,
    r#"{"event_count":99}"#,
    r#"{"ok":true,"partial":true}"#,
];

const ERROR: &str =
    r#"{"type":"aoi:error","category":"unavailable","code":"DOWN","message":"m","retryable":true}"#;
const WARNING: &str = r#"{"type":"aoi:warning","code":"W","message":"careful"}"#;

/// Run `i`'s stream: `hits` domain events, an error and a warning when
/// `noisy`, the summary patched.
fn stream(i: usize, hits: usize, noisy: bool, patch: &str) -> String {
    let mut st = s().hits(hits);
    if noisy {
        st = st.ev(ERROR).ev(WARNING);
    }
    let bytes = st.summary(patch).bytes();
    String::from_utf8(bytes)
        .expect("test input")
        .replace(RUN, &format!("01JZQ7X4TQ9KZ8V6R2M3N4P{i:03}"))
}

/// Two runs' lines, alternating: a log of interleaved runs.
fn interleaved(a: &str, b: &str) -> String {
    let (mut a, mut b) = (a.lines(), b.lines());
    let mut out = String::new();
    loop {
        match (a.next(), b.next()) {
            (None, None) => return out,
            (x, y) => {
                for line in [x, y].into_iter().flatten() {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
}

/// File `i` of kind `kind`: a stream, cut, led by prose, or a log.
fn file(i: usize, hits: usize, kind: usize) -> Vec<u8> {
    let patch = PATCHES[i % PATCHES.len()];
    let one = stream(i, hits, i % 3 == 0, patch);
    let mut bytes = match kind {
        0 | 1 => one,
        2 => format!("prose before the stream\n{one}"),
        _ => interleaved(&one, &stream(i + 500, hits / 2, true, "{}")),
    }
    .into_bytes();
    if kind == 1 {
        bytes.truncate(bytes.len() / 2);
    }
    bytes
}

fn run(cmd: &[&str], threads: &str, names: &[String]) -> crate::util::Out {
    let mut a = cmd.to_vec();
    a.extend(["--threads", threads]);
    a.extend(names.iter().map(String::as_str));
    aoi(&a, b"")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5, ..ProptestConfig::default() })]

    #[test]
    fn threads_over_files_change_nothing(
        files in proptest::collection::vec((0usize..300, 0usize..4), 20..60),
        big in proptest::option::of(0usize..20),
        missing in proptest::option::of(0usize..20),
    ) {
        let dir = scratch("files-at-once");
        let mut names: Vec<String> = files
            .iter()
            .enumerate()
            .map(|(i, (hits, kind))| write_file(&dir, &format!("f{i:03}.jsonl"), &file(i, *hits, *kind)))
            .collect();
        // One file past what a worker takes (1 MiB): judged in its turn.
        if let Some(at) = big {
            let bytes = stream(900, 16_000, true, "{}").into_bytes();
            prop_assert!(bytes.len() > 1024 * 1024);
            let name = write_file(&dir, "big.jsonl", &bytes);
            names.insert(at.min(names.len()), name);
        }
        // A name that is no file: 66, said where its turn comes.
        if let Some(at) = missing {
            names.insert(at.min(names.len()), format!("{}/missing.jsonl", dir.display()));
        }
        for cmd in COMMANDS {
            let one = run(cmd, "1", &names);
            let jsonl = reports(cmd);
            if jsonl {
                assert_conforming_report(&one.stdout, fed_back_code(one.code));
            }
            for threads in ["2", "0", "5"] {
                let many = run(cmd, threads, &names);
                let what = format!("{cmd:?} --threads {threads}");
                prop_assert_eq!(many.code, one.code, "{}", what);
                prop_assert_eq!(&many.stderr, &one.stderr, "{}", what);
                if jsonl {
                    prop_assert_eq!(normalized(&many.stdout), normalized(&one.stdout), "{}", what);
                } else {
                    prop_assert!(many.stdout == one.stdout, "{}: stdout differs", what);
                }
            }
        }
    }
}

/// The relay of many files is their bytes in input order, whatever
/// thread judged them (what `check` promises, § 13.1).
#[test]
fn check_relays_many_files_in_order() {
    let dir = scratch("files-at-once-relay");
    let names: Vec<String> = (0..40)
        .map(|i| write_file(&dir, &format!("r{i:02}.jsonl"), &file(i, i * 7, i % 4)))
        .collect();
    let out = run(&["check", "-q"], "4", &names);
    let expected: Vec<u8> = names
        .iter()
        .flat_map(|n| std::fs::read(n).expect("read back"))
        .collect();
    assert!(out.stdout == expected, "the relay is not the files' bytes");
    assert_eq!(out.code, run(&["check", "-q"], "1", &names).code);
}

/// `--files-from` on every command that takes several files: the names a
/// list (a file or stdin) gives are the inputs, after the FILEs, exactly
/// as if they were arguments; an empty or unreadable list is 66, stdin as
/// both the list and an input 64.
#[test]
fn files_from_lists_the_inputs_of_every_command() {
    let dir = scratch("files-at-once-list");
    let names: Vec<String> = (0..12)
        .map(|i| write_file(&dir, &format!("l{i:02}.jsonl"), &file(i, i * 3, i % 4)))
        .collect();
    let list = write_file(&dir, "list.txt", names[1..].join("\n").as_bytes());
    let stdin_list = format!("{}\r\n\n", names[1..].join("\r\n"));
    for cmd in [
        &["check"][..],
        &["errors", "-w", "--output", "raw"],
        &["summary"],
        &["strip"],
        &["filter", "."],
    ] {
        let with = |extra: &[&str], stdin: &[u8]| {
            let mut a = cmd.to_vec();
            a.extend_from_slice(extra);
            aoi(&a, stdin)
        };
        let all: Vec<&str> = names.iter().map(String::as_str).collect();
        let args = with(&all, b"");
        for listed in [
            with(&[&names[0], "--files-from", &list], b""),
            with(&[&names[0], "--files-from", "-"], stdin_list.as_bytes()),
        ] {
            assert_eq!(listed.code, args.code, "{cmd:?}: {}", listed.stderr);
            assert_eq!(listed.stderr, args.stderr, "{cmd:?}");
            match reports(cmd) {
                true => assert_eq!(normalized(&listed.stdout), normalized(&args.stdout)),
                false => assert!(listed.stdout == args.stdout, "{cmd:?}: stdout differs"),
            }
        }
        let empty = with(&["--files-from", "-"], b"\n");
        assert_eq!(empty.code, 66, "{cmd:?}");
        assert!(empty.stderr.contains("names no file"), "{}", empty.stderr);
        let gone = with(&["--files-from", "/nonexistent/list"], b"");
        assert_eq!(gone.code, 66, "{cmd:?}");
        let twice = with(
            &["--files-from", "-", "-"],
            format!("{}\n", names[0]).as_bytes(),
        );
        assert_eq!(twice.code, 64, "{cmd:?}: {}", twice.stderr);
    }
}

/// `aoi ARGS FILES` with stdout and stderr into one pipe, as `2>&1`
/// gives them, and with stdout a full device (every write fails).
fn together(args: &[&str], threads: &str, names: &[String]) -> (Vec<u8>, crate::util::Out) {
    let mut a: Vec<&str> = args.to_vec();
    a.extend(["--threads", threads]);
    a.extend(names.iter().map(String::as_str));
    let both = crate::util::command("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" 2>&1")
        .arg(crate::util::AOI)
        .args(&a)
        .output()
        .expect("run aoi through sh");
    let full = crate::util::command(crate::util::AOI)
        .args(&a)
        .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
        .output()
        .expect("run aoi");
    let full = crate::util::Out {
        code: crate::util::code_of(full.status),
        stdout: full.stdout,
        stderr: String::from_utf8_lossy(&full.stderr).into_owned(),
    };
    (both.stdout, full)
}

/// `cmd` on `names` with stdout and stderr in one pipe, and with stdout
/// on `/dev/full`, on two and five threads as on one.
fn flushed_as_one_thread(cmd: &[&str], names: &[String]) {
    // A report's run id and times differ from run to run.
    let stable = |b: Vec<u8>| match reports(cmd) {
        true => normalized(&b),
        false => String::from_utf8_lossy(&b).into_owned(),
    };
    let (one_both, one_full) = together(cmd, "1", names);
    let one_both = stable(one_both);
    for threads in ["2", "5"] {
        let (both, full) = together(cmd, threads, names);
        let what = format!("{cmd:?} --threads {threads}");
        let both = stable(both);
        assert!(
            both == one_both,
            "{what}: 2>&1 differs:\n{both}\n---\n{one_both}"
        );
        assert_eq!(full.code, one_full.code, "{what} to /dev/full");
        assert_eq!(full.stderr, one_full.stderr, "{what} to /dev/full");
    }
}

/// What a worker wrote goes out where one thread flushed it: stdout and
/// stderr in one pipe keep their order (an event before its run's
/// verdict), and a stdout that fails fails at the same point, with the
/// same exit and the same lines on stderr before it.
#[test]
fn output_is_flushed_where_one_thread_flushes_it() {
    let dir = scratch("files-at-once-flush");
    let names: Vec<String> = (0..30)
        .map(|i| {
            write_file(
                &dir,
                &format!("o{i:02}.jsonl"),
                &file(i, 50 + i * 11, i % 4),
            )
        })
        .collect();
    for cmd in [
        &["strip"][..],
        &["strip", "--control"],
        &["strip", "--log"],
        &["errors", "-w", "--output", "raw"],
        &["errors", "--output", "jsonl"],
        &["errors", "--log", "-w", "--output", "raw"],
        &["check", "--output", "jsonl"],
        &["check"],
        &["summary", "--log", "--output", "jsonl"],
        &["summary", "--log"],
        &["filter", "-q", HALT],
        &["filter", "--continue-on-error", ITEM_ERRORS],
        &["filter", "--raw", HALT],
        &["filter", "--raw", ITEM_ERRORS],
        &["merge-report", "--log", "--format", "jsonl"],
        &["merge-report", "--format", "jsonl"],
    ] {
        flushed_as_one_thread(cmd, &names);
    }
}

/// A filter's workers get the filter thread's stack: a jq program that
/// recurses deep runs on them as it runs on one thread (it overflowed a
/// worker's default stack and aborted).
#[test]
fn filter_workers_recurse_as_deep_as_one_thread() {
    let dir = scratch("files-at-once-deep");
    let names: Vec<String> = (0..3)
        .map(|i| write_file(&dir, &format!("d{i}.jsonl"), &file(i * 4, 1, 0)))
        .collect();
    let deep = "def f(n): if n == 0 then 0 else f(n - 1) + 1 end; {type: \"depth\", n: f(1000)}";
    let one = run(&["filter", deep], "1", &names);
    let text = String::from_utf8_lossy(&one.stdout);
    assert_eq!(text.matches(r#"},"n":1000}"#).count(), 3, "{text}");
    let two = run(&["filter", deep], "2", &names);
    assert_eq!(two.code, one.code, "{}", two.stderr);
    assert_eq!(normalized(&two.stdout), normalized(&one.stdout));
}

/// A worker's file that writes nothing still flushes where one thread
/// flushes: what came before it (aoi's `aoi:meta`, an unreadable file's
/// `aoi:error`, an earlier file's last lines) goes out before its
/// findings on stderr, and a stdout that fails fails before them.
#[test]
fn a_file_that_writes_nothing_flushes_what_came_before() {
    let dir = scratch("files-at-once-silent");
    let quiet = s().hits(2).bytes();
    let mut bad = quiet.clone();
    bad.extend_from_slice(b"not json\n");
    let good = write_file(&dir, "good.jsonl", &quiet);
    let bad = write_file(&dir, "bad.jsonl", &bad);
    let missing = format!("{}/missing.jsonl", dir.display());
    for (cmd, names) in [
        (&["filter", "empty"][..], vec![bad.clone(), good.clone()]),
        (
            &["filter", "empty"],
            vec![good.clone(), missing.clone(), bad.clone()],
        ),
        (
            &["errors", "--output", "table", "--color", "never"],
            vec![bad.clone(), good.clone()],
        ),
        (
            &["errors", "--output", "jsonl"],
            vec![good.clone(), missing.clone(), bad.clone()],
        ),
        (&["strip"], vec![good.clone(), bad.clone(), good.clone()]),
        (
            &["check", "--output", "jsonl"],
            vec![missing.clone(), bad.clone(), good.clone()],
        ),
        (
            &["summary", "--output", "jsonl"],
            vec![missing.clone(), bad.clone(), good.clone()],
        ),
        (
            &["merge-report", "--log", "--format", "jsonl"],
            vec![missing, bad.clone(), good.clone()],
        ),
    ] {
        flushed_as_one_thread(cmd, &names);
    }
}

/// `--raw` filters files on workers only when no input reads on into the
/// next: `input` pairs values across files, `-s` gathers them all, `-n`
/// reads them from the program, on any number of threads.
#[test]
fn raw_input_reads_on_across_files() {
    let dir = scratch("files-at-once-input");
    let names: Vec<String> = (0..6)
        .map(|i| write_file(&dir, &format!("i{i}.jsonl"), format!("{i}\n").as_bytes()))
        .collect();
    for (cmd, want) in [
        (
            &["filter", "--raw", "[., input]"][..],
            "[0,1]\n[2,3]\n[4,5]\n",
        ),
        (&["filter", "--raw", "-s", "add"], "15\n"),
        (&["filter", "--raw", "-n", "[inputs] | length"], "6\n"),
    ] {
        for threads in ["1", "2"] {
            let out = run(cmd, threads, &names);
            assert_eq!(out.code, 0, "{cmd:?} --threads {threads}: {}", out.stderr);
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                want,
                "{cmd:?} --threads {threads}"
            );
        }
    }
}

/// `aoi ARGS` under a guard that kills it after two minutes (exit 137),
/// so a regression fails the test instead of hanging it; it takes
/// milliseconds when it holds.
fn guarded(args: &[&str]) -> crate::util::Out {
    guarded_to(args, std::process::Stdio::piped())
}

/// [`guarded`], with stdout going to `stdout`.
fn guarded_to(args: &[&str], stdout: std::process::Stdio) -> crate::util::Out {
    let out = crate::util::command("timeout")
        .args(["-s", "KILL", "120", crate::util::AOI])
        .args(args)
        .stdout(stdout)
        .output()
        .expect("run timeout");
    crate::util::Out {
        code: crate::util::code_of(out.status),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// After a halt, one thread never runs the filter on the files after it;
/// nor do the workers, so a filter that would never end on a later file
/// of the same batch does not keep aoi from ending (a review found
/// `--threads 2` waiting for it forever).
#[test]
fn a_halt_ends_the_filter_before_the_files_after_it() {
    let dir = scratch("files-at-once-halt");
    let spin = "first(repeat(1) | select(. == 2))";
    let program =
        format!(r#"if .halt then "stop\n" | halt_error(3) elif .spin then {spin} else . end"#);
    let spin_raw = write_file(&dir, "spin.jsonl", b"{\"spin\":true}\n");
    // The halt in a small file (the spin in the same batch) and at the
    // head of one past 1 MiB (filtered in its turn, the spin in the next
    // batch, on a worker from the start).
    let big_raw = format!("{{\"halt\":true}}\n{}", "{\"a\":1}\n".repeat(200_000));
    let raw = [
        [
            write_file(&dir, "h.jsonl", b"{\"a\":1}\n{\"halt\":true}\n"),
            spin_raw.clone(),
        ],
        [write_file(&dir, "hbig.jsonl", big_raw.as_bytes()), spin_raw],
    ];
    let halt = r#"{"type":"hit","halt":true}"#;
    let spin_ev = r#"{"type":"hit","spin":true}"#;
    let spin_framed = write_file(&dir, "fs.jsonl", &s().ev(spin_ev).summary("{}").bytes());
    let big_framed = s().ev(halt).hits(30_000).summary("{}").bytes();
    assert!(big_framed.len() > 1024 * 1024);
    let framed = [
        [
            write_file(&dir, "fh.jsonl", &s().ev(halt).summary("{}").bytes()),
            spin_framed.clone(),
        ],
        [write_file(&dir, "fhbig.jsonl", &big_framed), spin_framed],
    ];
    let cases = raw.iter().map(|n| (&["--raw"][..], n));
    for (mode, names) in cases.chain(framed.iter().map(|n| (&[][..], n))) {
        for threads in ["1", "2"] {
            let mut args = vec!["filter", "--threads", threads];
            args.extend(mode);
            args.push(&program);
            args.extend(names.iter().map(String::as_str));
            let out = guarded(&args);
            assert_eq!(out.code, 3, "{args:?}: {}", out.stderr);
            assert!(out.stderr.starts_with("stop\n"), "{args:?}: {}", out.stderr);
            if mode.is_empty() {
                assert_conforming_report(&out.stdout, fed_back_code(out.code));
            }
        }
    }
}

/// A file whose filter never ends does not hold back the files before it
/// in its batch: their output goes out, and a full stdout ends aoi as it
/// ends one thread, before the loop starts (a review found `--threads 2`
/// waiting for the whole batch, forever).
#[test]
fn a_later_file_that_never_ends_does_not_hold_back_the_ones_before_it() {
    let dir = scratch("files-at-once-spin");
    let program = "if .spin then first(repeat(1) | select(. == 2)) else . end";
    let spin_ev = r#"{"type":"hit","spin":true}"#;
    let framed = [
        write_file(
            &dir,
            "a.jsonl",
            &s().ev(r#"{"type":"hit"}"#).summary("{}").bytes(),
        ),
        write_file(&dir, "spin.jsonl", &s().ev(spin_ev).summary("{}").bytes()),
    ];
    // Raw output is buffered across files, as jq's is: enough of it to
    // fill the buffer meets the full stdout before the loop.
    let many = "{\"a\":1}\n".repeat(40_000);
    let raw = [
        write_file(&dir, "ra.jsonl", many.as_bytes()),
        write_file(&dir, "rspin.jsonl", b"{\"spin\":true}\n"),
    ];
    for (mode, names) in [(&[][..], &framed), (&["--raw"][..], &raw)] {
        for threads in ["1", "2", "5"] {
            let mut args = vec!["filter", "--threads", threads];
            args.extend(mode);
            args.push(program);
            args.extend(names.iter().map(String::as_str));
            let full = std::fs::File::create("/dev/full").expect("/dev/full");
            let out = guarded_to(&args, full.into());
            assert_eq!(out.code, 74, "{args:?}: {}", out.stderr);
            assert!(
                out.stderr.contains("No space left"),
                "{args:?}: {}",
                out.stderr
            );
        }
    }
}

/// `--raw` files whose results pass what a worker keeps (1 MiB a batch)
/// are filtered again in their turn: stdout and stderr, in one pipe too,
/// are still one thread's.
#[test]
fn raw_results_past_the_room_are_filtered_in_turn() {
    let dir = scratch("files-at-once-room");
    let names: Vec<String> = (0..12)
        .map(|i| {
            let lines: String = (0..1500 + i * 300)
                .map(|n| format!("{{\"a\":{n}}}\n"))
                .collect();
            write_file(&dir, &format!("r{i:02}.jsonl"), lines.as_bytes())
        })
        .collect();
    let program = "range(.a % 60) | if . == 7 then debug else {b: .} end";
    flushed_as_one_thread(&["filter", "--raw", program], &names);
}
