//! Help written per command where an option is shared. The option structs
//! (`FilesFrom`, `JudgeArgs`) are flattened into several commands with one
//! doc comment; what that comment says of one command (an example, a
//! log's interleaved runs) is rewritten here for each of the others, and
//! each judging command's exit table lists only the codes it can return.

use clap::{Arg, Command};

/// The `--files-from` example each command gives (the shared text's is
/// merge-report's).
const FILES_FROM: &[(&str, &str)] = &[
    (
        "check",
        "find runs -name '*.jsonl' | aoi check --output jsonl --files-from -",
    ),
    (
        "strip",
        "find runs -name '*.jsonl' | aoi strip --files-from - > events.jsonl",
    ),
    (
        "summary",
        "find runs -name '*.jsonl' | aoi summary --files-from -",
    ),
    (
        "errors",
        "find runs -name '*.jsonl' | aoi errors --count --files-from -",
    ),
    (
        "filter",
        "find runs -name '*.jsonl' | aoi filter 'select(.rank <= 3)' --files-from -",
    ),
];

/// The shared `--files-from` example, replaced in the commands above.
const SHARED_EXAMPLE: &str = "find runs -name '*.jsonl' | aoi merge-report --files-from -";

/// What `--idle-timeout` says of a log's runs: not for the commands that
/// read one stream per input (no `--log`).
const INTERLEAVED: &str = " In a log of interleaved runs, the runs still open time out.";
const ONE_STREAM: &[&str] = &["check", "filter"];

/// Subcommand `name` with its own words for the shared options. Every
/// argument is passed through `mut_arg` in its order (which moves it to the
/// end), so the order of the help, man page and completions is kept.
pub fn per_command(name: &str, mut sub: Command) -> Command {
    let ids: Vec<String> = sub
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        sub = sub.mut_arg(id, |a| own_words(name, a));
    }
    sub
}

/// Argument `a` of command `name`, its help rewritten where the shared
/// text is another command's.
fn own_words(name: &str, a: Arg) -> Arg {
    let text = a.get_help().map(ToString::to_string).unwrap_or_default();
    match a.get_id().as_str() {
        "files_from" => match FILES_FROM.iter().find(|(n, _)| *n == name) {
            Some((_, example)) => a.help(text.replace(SHARED_EXAMPLE, example)),
            None => a,
        },
        "idle_timeout" if ONE_STREAM.contains(&name) => a.help(text.replace(INTERLEAVED, "")),
        "threads" => a.help(threads_text(name, &text)),
        _ => a,
    }
}

/// What the shared `--threads` text says of every command, and what each
/// says of itself instead.
const FINDS_EVENTS: &str = " (for errors and merge-report: finds each line's event)";
const ALL_JUDGE: &str = "check, errors, summary, strip, filter and merge-report judge";
const IN_TURN: &str = " (a file over 1 MiB whose output grows with it, as check's relay, is read in its turn; filter --raw reads in turn when the program uses input/inputs, or with -n or -s)";
const ONE_JUDGES: &str =
    "one reads and validates lines, one judges them, with the same results as one thread.";
const MOST_USED: &str = "(or more: two is the most used)";

/// `--threads` for command `name`: its own reader, its own files.
fn threads_text(name: &str, text: &str) -> String {
    let finds = match name {
        "errors" | "merge-report" => " and finds each line's event",
        _ => "",
    };
    let in_turn = match name {
        "check" => " (a file over 1 MiB is read in its turn when the relay copies it to stdout)",
        "filter" => {
            " (a file over 1 MiB whose output grows with it is read in its turn; --raw reads in turn when the program uses input/inputs, or with -n or -s)"
        }
        _ => " (a file over 1 MiB whose output grows with it is read in its turn)",
    };
    let text = text
        .replace(FINDS_EVENTS, finds)
        .replace(ALL_JUDGE, &format!("aoi {name} judges"))
        .replace(IN_TURN, in_turn);
    match name {
        // The program runs on the threads the judge leaves.
        "filter" => text
            .replace(
                ONE_JUDGES,
                "one reads and judges lines and the others run the program on chunks of events \
                 in turn, with the same results as one thread (`.` and a plain path such as \
                 `.title`, written from the line's own bytes, keep two threads: one reads \
                 and validates lines, one judges them and runs the program).",
            )
            .replace(MOST_USED, "(or more: three at most run the program)"),
        _ => text,
    }
}

/// The exit table of command `name` (`aoi` for the whole): the shared
/// table with only the codes that command returns. 73 (an output file
/// cannot be created) is check's `--report` and merge-report's
/// `--format FORMAT=PATH`; filter adds jq's 4 and 5.
pub fn exit_table(name: &str) -> String {
    let mut out = String::new();
    for line in super::EXIT_TABLE.lines() {
        match (line.trim_start().starts_with("73 "), name) {
            (true, "check") => out.push_str("   73    the --report FILE cannot be created\n"),
            (true, "merge-report") => {
                out.push_str("   73    an output file cannot be created (--format FORMAT=PATH)\n")
            }
            (true, "aoi") => out.push_str(&format!("{line}\n")),
            (true, _) => {}
            (false, _) if line.starts_with("With ") && !writes_files(name) => {
                out.push_str(&line.replace("66, 73,", "66,"));
                out.push('\n');
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
        if name == "filter" && line.trim_start().starts_with("1 ") {
            out.push_str(FILTER_CODES);
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// Whether command `name` writes files of its own (and so can exit 73).
fn writes_files(name: &str) -> bool {
    matches!(name, "aoi" | "check" | "merge-report")
}

/// jq's own exits, which `filter` keeps.
const FILTER_CODES: &str = concat!(
    "    4    -e: the filter gave no result (and 1: its last result was false or null)\n",
    "    5    --raw: the filter failed on a value, as jq. --raw does not judge the input: a\n",
    "         stream that failed or was cut exits 0; a line that is not JSON (or is longer\n",
    "         than --max-line-bytes) 65\n",
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rewrite finds the shared text it replaces: a change to the
    /// shared doc comment cannot leave a command with the other's words.
    #[test]
    fn each_rewrite_applies() {
        let cmd = crate::cli::command();
        for sub in cmd.get_subcommands() {
            let help = |id: &str| {
                sub.get_arguments()
                    .find(|a| a.get_id() == id)
                    .and_then(|a| a.get_help())
                    .map(ToString::to_string)
            };
            let name = sub.get_name();
            if let Some(t) = help("files_from") {
                assert_eq!(
                    t.contains(SHARED_EXAMPLE),
                    name == "merge-report",
                    "{name}: {t}"
                );
                assert!(t.contains(&format!("aoi {name} ")), "{name}: {t}");
            }
            if let Some(t) = help("threads") {
                assert!(
                    t.contains(&format!("aoi {name} judges N files")),
                    "{name}: {t}"
                );
                for shared in [FINDS_EVENTS, ALL_JUDGE, IN_TURN] {
                    assert!(!t.contains(shared), "{name}: {t}");
                }
            }
            if let Some(t) = help("idle_timeout") {
                assert_eq!(
                    t.contains(INTERLEAVED.trim()),
                    !ONE_STREAM.contains(&name),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn exit_tables_list_what_each_command_returns() {
        for name in crate::cli::JUDGING {
            let t = exit_table(name);
            assert_eq!(t.contains("\n   73 "), writes_files(name), "{name}: {t}");
            assert_eq!(t.contains("\n    5    --raw"), *name == "filter", "{name}");
            assert!(
                t.starts_with("Exit status:") && t.contains("With several"),
                "{name}"
            );
        }
        assert_eq!(exit_table("aoi"), crate::cli::EXIT_TABLE);
    }
}
