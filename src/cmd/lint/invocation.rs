//! How an invocation given to `aoi lint` is read: the words that run the
//! tool (an interpreter and its script, found when `--tool` is not given),
//! the command named, the stdin given, and the machine-mode flag appended
//! (whether it breaks the invocation is seen on the run itself, in
//! `checks`: reading the command line runs nothing). Also the
//! invocations `--self` checks.

use super::report::say;
use crate::cli::LintArgs;
use crate::spec::exit::Code;
use crate::spec::types;

/// An invocation to lint, as read from the command line.
pub(super) struct Target {
    /// The words that run the tool (`mytool`, `node cli.js`).
    pub(super) prefix: Vec<String>,
    /// The words run, with the machine-mode flag unless it breaks them.
    pub(super) argv: Vec<String>,
    /// The command's name: the first word after the prefix that is no
    /// option.
    pub(super) command: String,
    /// What `--stdin` gives the tool.
    pub(super) stdin: Option<Vec<u8>>,
}

/// Reads the invocation of `args`; an error is the exit status, its
/// message already on stderr.
pub(super) fn target(args: &LintArgs) -> Result<Target, Code> {
    if args.invocation.is_empty() {
        say(
            false,
            "aoi lint: give the invocation to check after `--` (e.g. `aoi lint -- mytool search x`), or --self",
        );
        return Err(Code::USAGE);
    }
    let prefix = tool_words(args)?;
    let stdin = read_stdin(args)?;
    let rest = args.invocation.get(prefix.len()..).unwrap_or_default();
    let command = rest
        .iter()
        .find(|a| !a.starts_with('-'))
        .cloned()
        .unwrap_or_else(|| "(default)".into());
    let mut argv = args.invocation.clone();
    let machine = split_words("--machine-flag", &args.machine_flag)?;
    let appended =
        !machine.is_empty() && !argv.windows(machine.len()).any(|w| w == machine.as_slice());
    if appended {
        argv = with_words(&argv, prefix.len(), &machine);
    }
    // A tool that is not there is one message, not 16 rows of "could
    // not run".
    if let Some(program) = argv.first().filter(|p| !runnable(p)) {
        say(
            false,
            &format!(
                "aoi lint: {}: command not found (not an executable path, nor in PATH)",
                program
            ),
        );
        return Err(Code::NOINPUT);
    }
    Ok(Target {
        prefix,
        argv,
        command,
        stdin,
    })
}

/// The words that run the tool: `--tool`, or an interpreter and its
/// script, or the program alone; they must begin the invocation.
fn tool_words(args: &LintArgs) -> Result<Vec<String>, Code> {
    // An interpreter runs the tool's script: the tool is both words
    // (`node cli.js`), not `node`.
    let found = match &args.tool {
        Some(_) => None,
        None => interpreter_prefix(&args.invocation),
    };
    let prefix: Vec<String> = match (&args.tool, found) {
        (Some(t), _) => split_words("--tool", t)?,
        (None, Some(n)) => args.invocation.iter().take(n).cloned().collect(),
        (None, None) => args.invocation.iter().take(1).cloned().collect(),
    };
    if found.is_some() {
        say(
            args.quiet,
            &format!(
                "aoi lint: the tool is `{}` (an interpreter and what it runs); --tool gives other words",
                prefix.join(" ")
            ),
        );
    }
    if prefix.is_empty() || !args.invocation.starts_with(&prefix) {
        say(
            false,
            "aoi lint: --tool must be the first words of the invocation",
        );
        return Err(Code::USAGE);
    }
    Ok(prefix)
}

/// The file `--stdin` names, read whole.
fn read_stdin(args: &LintArgs) -> Result<Option<Vec<u8>>, Code> {
    let Some(p) = &args.stdin else {
        return Ok(None);
    };
    match std::fs::read(p) {
        Ok(b) => Ok(Some(b)),
        Err(e) => {
            say(
                false,
                &format!("aoi lint: cannot read {}: {e}", p.display()),
            );
            Err(Code::NOINPUT)
        }
    }
}

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
fn interpreter_prefix(argv: &[String]) -> Option<usize> {
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
    serde_json::from_slice::<serde_json::Value>(first).is_ok_and(|v| v["type"] == types::META)
}

/// Whether `program` names an executable file: a path as given, or a name
/// found in `PATH` (as `execvp` looks for it).
fn runnable(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return executable(std::path::Path::new(program));
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| executable(&dir.join(program))))
}

/// `argv` with `extra` words added where the tool reads them as options:
/// before a `--` after the tool's own words (after it they are operands:
/// `delete -- --output` would name more to delete), else at the end.
pub(super) fn with_words<S: AsRef<str>>(
    argv: &[String],
    prefix: usize,
    extra: &[S],
) -> Vec<String> {
    let at = argv
        .iter()
        .skip(prefix)
        .position(|w| w == "--")
        .map_or(argv.len(), |i| i + prefix);
    let mut out = argv[..at].to_vec();
    out.extend(extra.iter().map(|w| w.as_ref().to_string()));
    out.extend_from_slice(&argv[at..]);
    out
}

/// Splits `--tool` or `--machine-flag` words as a POSIX shell would
/// (quotes group, a backslash escapes); unbalanced quotes are a usage
/// error (64), said on stderr.
fn split_words(option: &str, s: &str) -> Result<Vec<String>, Code> {
    shlex::split(s).ok_or_else(|| {
        let msg = format!("aoi lint: {option} {s}: unbalanced quotes");
        say(false, &msg);
        Code::USAGE
    })
}

/// The invocations `aoi lint --self` checks: every command that writes a
/// stream of its own, fed a known stream on stdin.
pub(super) fn self_invocations() -> Vec<(String, Vec<String>)> {
    [
        ("check", &["check", "--output", "jsonl"][..]),
        ("summary", &["summary", "--output", "jsonl"][..]),
        ("errors", &["errors", "--output", "jsonl"][..]),
        ("filter", &["filter", "."][..]),
        ("merge-report", &["merge-report", "--output", "jsonl"][..]),
    ]
    .iter()
    .map(|(c, a)| (c.to_string(), a.iter().map(|s| s.to_string()).collect()))
    .collect()
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
    fn words_split_with_quotes() {
        let split = |s| split_words("--tool", s);
        assert_eq!(
            split("python3 'my tool.py'"),
            Ok(vec!["python3".into(), "my tool.py".into()])
        );
        assert_eq!(
            split("--format jsonl"),
            Ok(vec!["--format".into(), "jsonl".into()])
        );
        assert_eq!(split(""), Ok(vec![]));
        assert_eq!(split("python3 'my tool.py"), Err(Code::USAGE));
    }

    #[test]
    fn words_go_before_the_end_of_options() {
        let argv = words("tool delete --confirm -- -old-file");
        assert_eq!(
            with_words(&argv, 1, &["--output", "jsonl"]),
            words("tool delete --confirm --output jsonl -- -old-file")
        );
        assert_eq!(
            with_words(&words("tool ls"), 1, &["-x"]),
            words("tool ls -x")
        );
        // The tool's own `--` (before its words end) is not the end.
        assert_eq!(with_words(&words("x -- y"), 2, &["-x"]), words("x -- y -x"));
    }

    #[test]
    fn aoi_is_a_meta_line_first() {
        assert!(writes_aoi(b"{\"type\":\"aoi:meta\"}\n{}\n"));
        assert!(!writes_aoi(b"total 0\n"));
        assert!(!writes_aoi(b""));
    }
}
