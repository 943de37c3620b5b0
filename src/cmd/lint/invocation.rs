//! How an invocation given to `aoi lint` is read: the words that run the
//! tool (an interpreter and its script, found when `--tool` is not given),
//! and whether the machine-mode flag lint appends breaks it (a wrapper
//! that passes its arguments on, a tool that is AOI-only).

/// Programs that run a script or module named after them: `node cli.js`,
/// `python3 -m tool`. With `run` they take a subcommand first (`deno run
/// x.ts`, `go run .`, `uv run x.py`, `bun run x.ts`).
const INTERPRETERS: &[&str] = &[
    "node", "nodejs", "python", "python3", "python2", "pypy3", "ruby", "perl", "php", "bash", "sh",
    "dash", "zsh", "bun", "deno", "tsx", "ts-node", "npx", "pnpx", "bunx", "uv", "go", "java",
    "Rscript", "lua", "elixir", "dotnet",
];

/// Options of an interpreter that take the next word as their value and
/// name what runs (`python3 -m tool`, `java -jar tool.jar`): the prefix
/// ends with that word.
const NAMING_OPTIONS: &[&str] = &["-m", "-jar", "--package", "-p"];

/// How many leading words of `argv` run the tool, when the first is an
/// interpreter: the interpreter, its options, a `run` subcommand, and the
/// script (or module) after them. `None` for any other program.
pub(super) fn interpreter_prefix(argv: &[String]) -> Option<usize> {
    let program = argv.first()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    if !INTERPRETERS.contains(&name) {
        return None;
    }
    let mut i = 1;
    if matches!(name, "deno" | "go" | "uv" | "bun" | "dotnet")
        && argv.get(i).is_some_and(|w| w == "run")
    {
        i += 1;
    }
    while let Some(w) = argv.get(i) {
        if NAMING_OPTIONS.contains(&w.as_str()) {
            // The option's value names what runs.
            return argv.get(i + 1).map(|_| i + 2);
        }
        if !w.starts_with('-') {
            return Some(i + 1);
        }
        i += 1;
    }
    None
}

/// Whether a probe's stdout is an AOI stream: its first line a JSON
/// object of type `aoi:meta`.
pub(super) fn writes_aoi(stdout: &[u8]) -> bool {
    let first = stdout.split(|&b| b == b'\n').next().unwrap_or_default();
    serde_json::from_slice::<serde_json::Value>(first).is_ok_and(|v| v["type"] == "aoi:meta")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn interpreters_and_their_scripts() {
        for (argv, n) in [
            ("node cli.js ls -l", Some(2)),
            ("/usr/bin/python3 -u tool.py search x", Some(3)),
            ("python3 -m tool search", Some(3)),
            ("deno run -A main.ts list", Some(4)),
            ("java -jar tool.jar search", Some(3)),
            ("npx mytool search", Some(2)),
            ("mytool search", None),
            ("node", None),
        ] {
            assert_eq!(interpreter_prefix(&words(argv)), n, "{argv}");
        }
    }

    #[test]
    fn aoi_is_a_meta_line_first() {
        assert!(writes_aoi(b"{\"type\":\"aoi:meta\"}\n{}\n"));
        assert!(!writes_aoi(b"total 0\n"));
        assert!(!writes_aoi(b""));
    }
}
