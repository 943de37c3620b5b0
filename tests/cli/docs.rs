//! The documentation's shell examples run as written.
//!
//! Every fenced ```` ```sh ```` block of README.md, docs/guide.md and
//! AGENTS.md is run against a copy of `examples/`; a command that exits
//! with another status than the doc says, or prints something else than
//! the doc shows, fails the test with the file, line and command. The
//! convention, for whoever writes those blocks:
//!
//! - **Not run.** A block whose first line is `# not run: WHY` is skipped,
//!   and only such a block: one that needs the network, runs `cargo`, or
//!   stands for a program the reader has (`mytool`).
//!   Every other ```` ```sh ```` block runs. (Write shell blocks as
//!   ```` ```sh ````: a ```` ```bash ```` or ```` ```shell ```` block fails
//!   the test rather than go unrun.)
//! - **Needs.** A block whose first line is `# needs: PROGRAM` runs where
//!   PROGRAM is installed and is skipped with a notice elsewhere.
//! - **Where.** A block runs as one script under `bash -o pipefail`, so its
//!   commands share variables, functions and a directory: a fresh scratch
//!   directory holding a copy of `examples/`, `man/` and `completions/`
//!   (also `HOME`), so `examples/…` reads as it does from the repository's
//!   root, and whatever a command writes stays
//!   out of the checkout. `PATH` starts with the directory of the `aoi`
//!   under test, `GITHUB_STEP_SUMMARY` names a file in the scratch
//!   directory (as on a GitHub runner), `LC_ALL=C`, stdin is empty.
//! - **Commands.** A command is one line, or as many lines as bash needs to
//!   complete it (a line ending in `\`, `|` or `&&`; `if … fi`, `for …
//!   done`, a function body). Blank lines and comment lines between
//!   commands are not commands.
//! - **Exit status.** A command must exit 0, unless a comment on one of its
//!   lines says otherwise: `# exit 75` (or `# exit 75: why`). A command
//!   that ends the script (`exit`, a failure under `set -e`) gets the
//!   script's status, and a command after it fails the test as never run.
//! - **Output.** Lines right after a command that start with `# →` show
//!   what it prints: stdout and stderr together, in the order written
//!   (both go to one file; not a terminal, so aoi writes its machine
//!   formats), one line per `# → TEXT` (`# →` alone is an empty line),
//!   compared exactly but for trailing spaces. A command without `# →`
//!   lines may print anything.
//! - ```` ```jsonl ```` blocks are whole AOI streams and must pass
//!   `aoi check` (exit 0); show a broken stream as ```` ```text ````.
//!
//! Also: README.md has at most 200 lines, AGENTS.md fewer than 100.

use std::fs;
use std::path::Path;
use std::process::Stdio;

use crate::util::*;

/// How the doc marks a block that must not run.
const NOT_RUN: &str = "# not run:";
/// How the doc marks a block that needs a program beside aoi and bash
/// (`# needs: jq`): run where it is installed (`.ci/run` installs it),
/// skipped with a notice elsewhere.
const NEEDS: &str = "# needs:";

/// How the doc marks a line of a command's output.
const OUTPUT: &str = "# →";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read_doc(file: &str) -> String {
    fs::read_to_string(repo().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// A fenced block: its language, the line of its first content line (1-based)
/// and its lines.
struct Block {
    lang: String,
    first_line: usize,
    lines: Vec<String>,
}

/// The fenced blocks of a Markdown file (fences at the start of a line).
fn blocks(file: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        match open.as_mut() {
            Some(b) => {
                if line.trim_end() == "```" {
                    out.push(open.take().expect("open block"));
                } else {
                    b.lines.push(line.to_string());
                }
            }
            None => {
                if let Some(lang) = line.strip_prefix("```") {
                    open = Some(Block {
                        lang: lang.trim().to_string(),
                        first_line: n + 1,
                        lines: Vec::new(),
                    });
                } else {
                    assert!(
                        !line.trim_start().starts_with("```sh"),
                        "{file}:{n}: an indented ```sh fence is not run; start it at the line's beginning"
                    );
                }
            }
        }
    }
    assert!(open.is_none(), "{file}: a fenced block is never closed");
    out
}

/// One command of a block, as the doc writes it.
#[derive(Debug)]
struct Cmd {
    /// Its first line in the file (1-based).
    line: usize,
    text: String,
    exit: i32,
    /// The `# →` lines after it, if any.
    output: Option<Vec<String>>,
}

/// The status a `# exit N` comment on the command's lines asks for, or 0.
fn expected_exit(file: &str, line: usize, text: &str) -> i32 {
    let mut found = None;
    for l in text.lines() {
        let mut from = 0;
        while let Some(at) = l[from..].find("# exit ") {
            let at = from + at;
            from = at + 1;
            if at > 0 && !l[..at].ends_with(char::is_whitespace) {
                continue;
            }
            let digits: String = l[at + 7..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if digits.is_empty() {
                continue;
            }
            let code = digits.parse().expect("exit status");
            assert!(
                found.is_none_or(|c| c == code),
                "{file}:{line}: two different `# exit` comments on one command"
            );
            found = Some(code);
        }
    }
    found.unwrap_or(0)
}

/// Whether bash can parse `text` as it stands: `Ok(true)` complete,
/// `Ok(false)` incomplete (more lines needed), `Err` a syntax error.
fn complete(text: &str) -> Result<bool, String> {
    if text.trim_end().ends_with('\\') {
        return Ok(false);
    }
    let out = command("bash")
        .args(["-n", "-c", text])
        .stdin(Stdio::null())
        .output()
        .expect("run bash -n");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    if err.contains("unexpected end of file") || err.contains("here-document") {
        Ok(false)
    } else if out.status.success() {
        Ok(true)
    } else {
        Err(err)
    }
}

/// The commands of a block that runs.
fn commands(file: &str, b: &Block) -> Vec<Cmd> {
    let mut cmds: Vec<Cmd> = Vec::new();
    let mut acc: Vec<String> = Vec::new();
    let mut acc_line = 0;
    // Whether a `# →` line may follow here (right after a command or
    // another output line).
    let mut after_cmd = false;
    for (i, line) in b.lines.iter().enumerate() {
        let n = b.first_line + i;
        let t = line.trim();
        if acc.is_empty() {
            if let Some(rest) = t.strip_prefix(OUTPUT) {
                assert!(
                    after_cmd,
                    "{file}:{n}: a `{OUTPUT}` line must follow its command or another `{OUTPUT}` line"
                );
                let last = cmds.last_mut().expect("a command before");
                let shown = rest.strip_prefix(' ').unwrap_or(rest);
                last.output
                    .get_or_insert_with(Vec::new)
                    .push(shown.to_string());
                continue;
            }
            after_cmd = false;
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            acc_line = n;
        }
        acc.push(line.clone());
        let text = acc.join("\n");
        match complete(&text) {
            Ok(false) => continue,
            Ok(true) => {
                cmds.push(Cmd {
                    line: acc_line,
                    exit: expected_exit(file, acc_line, &text),
                    text,
                    output: None,
                });
                acc.clear();
                after_cmd = true;
            }
            Err(e) => panic!("{file}:{acc_line}: bash cannot parse this command:\n{text}\n{e}"),
        }
    }
    assert!(
        acc.is_empty(),
        "{file}:{acc_line}: the command never ends before the block does:\n{}",
        acc.join("\n")
    );
    cmds
}

/// Single-quotes `s` for bash.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for e in fs::read_dir(from).expect("read_dir") {
        let e = e.expect("dir entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("file type").is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            fs::copy(e.path(), &dest).expect("copy");
        }
    }
}

/// Runs one block's commands as one script and returns what went wrong.
fn run_block(file: &str, b: &Block, cmds: &[Cmd]) -> Vec<String> {
    let dir = scratch("docs");
    let work = dir.join("work");
    let out = dir.join("out");
    for d in ["examples", "man", "completions"] {
        copy_dir(&repo().join(d), &work.join(d));
    }
    fs::create_dir_all(&out).expect("mkdir out");
    let mut script = String::new();
    for (i, c) in cmds.iter().enumerate() {
        let o = quote(&format!("{}/{i}.out", out.display()));
        let rc = quote(&format!("{}/{i}.rc", out.display()));
        script.push_str(&format!("{{ {}\n}} >{o} 2>&1\necho $? >{rc}\n", c.text));
    }
    let aoi_dir = Path::new(AOI).parent().expect("aoi's directory");
    let path = format!(
        "{}:{}",
        aoi_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let log = fs::File::create(out.join("script.log")).expect("script log");
    let mut child = command("bash")
        .args(["-o", "pipefail", "-c", &script])
        .current_dir(&work)
        .env("PATH", path)
        .env("GITHUB_STEP_SUMMARY", dir.join("step-summary.md"))
        .env("LC_ALL", "C")
        // An install step writes into the scratch directory, not the home.
        .env("HOME", &work)
        .env_remove("NO_COLOR")
        .env_remove("AOI_STOP_GRACE")
        .env_remove("AOI_STOP_DRAIN")
        .env_remove("AOI_PARALLEL_SHARE")
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("log"))
        .stderr(log)
        .spawn()
        .expect("spawn bash");
    let status = crate::waits::wait_exit(&mut child, &format!("{file}:{}", b.first_line));
    let script_code = code_of(status);
    let mut problems = Vec::new();
    let mut ended = false;
    for (i, c) in cmds.iter().enumerate() {
        let at = format!("{file}:{}: `{}`", c.line, c.text);
        let printed = fs::read(out.join(format!("{i}.out")));
        let code = match fs::read_to_string(out.join(format!("{i}.rc"))) {
            Ok(s) => s.trim().parse::<i32>().expect("status"),
            // The command ended the script (`exit`, or `set -e` and a
            // failure): the script's status is the command's.
            Err(_) if !ended && printed.is_ok() => {
                ended = true;
                script_code
            }
            Err(_) => {
                problems.push(format!(
                    "{at}: never ran (an earlier command of the block ended the script)"
                ));
                continue;
            }
        };
        let printed = String::from_utf8_lossy(&printed.unwrap_or_default()).into_owned();
        if code != c.exit {
            problems.push(format!(
                "{at}: exit {code}, the doc says {}; it printed:\n{printed}",
                c.exit
            ));
            continue;
        }
        if let Some(want) = &c.output {
            let got: Vec<&str> = printed.lines().map(str::trim_end).collect();
            let want: Vec<&str> = want.iter().map(|l| l.trim_end()).collect();
            if got != want {
                problems.push(format!(
                    "{at}: printed something else than the doc shows\n--- the doc\n{}\n--- printed\n{}",
                    want.join("\n"),
                    got.join("\n")
                ));
            }
        }
    }
    if problems.is_empty() {
        let _ = fs::remove_dir_all(&dir);
    }
    problems
}

/// Runs every `sh` block of `file` and fails with every problem found.
fn run_doc(file: &str) {
    let text = read_doc(file);
    let mut problems = Vec::new();
    let (mut ran, mut cmds_run, mut skipped) = (0, 0, Vec::new());
    for b in blocks(file, &text) {
        match b.lang.as_str() {
            "sh" => {}
            "bash" | "shell" | "console" | "zsh" => {
                problems.push(format!(
                    "{file}:{}: a ```{} block is not run; write ```sh (or mark it `{NOT_RUN} …`)",
                    b.first_line - 1,
                    b.lang
                ));
                continue;
            }
            "jsonl" => {
                let stream = format!("{}\n", b.lines.join("\n"));
                let out = aoi(&["check", "-q", "--no-relay"], stream.as_bytes());
                if out.code != 0 {
                    problems.push(format!(
                        "{file}:{}: the ```jsonl stream fails aoi check (exit {}):\n{}",
                        b.first_line, out.code, out.stderr
                    ));
                }
                continue;
            }
            _ => continue,
        }
        if let Some(why) = b.lines.first().and_then(|l| l.trim().strip_prefix(NOT_RUN)) {
            skipped.push(format!("{file}:{}: {}", b.first_line, why.trim()));
            continue;
        }
        let needs = b.lines.first().and_then(|l| l.trim().strip_prefix(NEEDS));
        if let Some(program) = needs.map(str::trim) {
            let block = format!("{file}:{}", b.first_line);
            if !crate::optional::present(program, crate::optional::on_path(program), &block) {
                skipped.push(format!(
                    "{file}:{}: {program} is not installed here",
                    b.first_line
                ));
                continue;
            }
        }
        let cmds = commands(file, &b);
        assert!(
            !cmds.is_empty(),
            "{file}:{}: a ```sh block without a command",
            b.first_line
        );
        ran += 1;
        cmds_run += cmds.len();
        problems.extend(run_block(file, &b, &cmds));
    }
    notice(format!(
        "{file}: {ran} sh block(s) run, {cmds_run} command(s); {} block(s) not run{}",
        skipped.len(),
        skipped
            .iter()
            .map(|s| format!("\n  {s}"))
            .collect::<String>()
    ));
    assert!(
        problems.is_empty(),
        "{} documented command(s) went wrong:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn readme_commands_run() {
    run_doc("README.md");
}

#[test]
fn guide_commands_run() {
    run_doc("docs/guide.md");
}

#[test]
fn agents_commands_run() {
    run_doc("AGENTS.md");
}

#[test]
fn front_doors_stay_short() {
    let lines = |f: &str| read_doc(f).lines().count();
    let readme = lines("README.md");
    assert!(
        readme <= 200,
        "README.md has {readme} lines; at most 200 (the rest belongs in docs/)"
    );
    let agents = lines("AGENTS.md");
    assert!(agents < 100, "AGENTS.md has {agents} lines; fewer than 100");
}

/// The harness itself: a block's commands, their statuses and outputs.
#[test]
fn block_convention() {
    let text = "```sh\n\
                # a comment\n\
                aoi check -q \\\n  examples/search.jsonl\n\
                for f in a b; do\n  echo \"$f\"   # exit 3\ndone\n\
                # → a\n\
                # →\n\
                \n\
                echo x | \n  cat\n\
                ```\n";
    let b = blocks("t.md", text);
    assert_eq!(b.len(), 1);
    let c = commands("t.md", &b[0]);
    let lines: Vec<_> = c.iter().map(|c| (c.line, c.exit)).collect();
    assert_eq!(lines, [(3, 0), (5, 3), (11, 0)]);
    assert_eq!(
        c[1].output.as_deref(),
        Some(&["a".to_string(), String::new()][..])
    );
    assert_eq!(c[0].output, None);
    assert_eq!(expected_exit("t", 1, "x # exit 75: retry"), 75);
    assert_eq!(expected_exit("t", 1, "x || exit 1 # exit = worst"), 0);
}

/// The guide's Layout lists every file under `src/`, one line each, and
/// nothing that is gone.
#[test]
fn layout_names_every_source_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = fs::read_to_string(root.join("docs/guide.md")).expect("docs/guide.md");
    let section = guide
        .split("\n## Layout\n")
        .nth(1)
        .and_then(|t| t.split("\n## ").next())
        .expect("a Layout section");
    let listed: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("src/"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut files = Vec::new();
    let mut dirs = vec![root.join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("src/ reads") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).expect("under the root");
                files.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    for f in &files {
        assert!(
            listed.contains(&f.as_str()),
            "docs/guide.md Layout does not name {f}"
        );
    }
    for l in &listed {
        assert!(
            files.iter().any(|f| f == l),
            "docs/guide.md Layout names {l}, which is gone"
        );
    }
}
