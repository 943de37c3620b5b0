//! Generated artefacts stay in step with the code: man pages (`man/`), shell completions
//! (`completions/`) and the rule catalog (`docs/rules.md`) are produced from the clap
//! definitions and `src/rules.rs`. This test fails when a checked-in file is stale;
//! `AOI_REGENERATE=1 cargo test --test generated` rewrites them.

use std::path::{Path, PathBuf};

use clap_complete::Shell;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated file: path relative to the crate root, and its content.
fn artefacts() -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let cmd = aoi::cli::command();
    out.push((PathBuf::from("man/aoi.1"), root_page(&cmd)));
    for sub in cmd.get_subcommands() {
        let name = format!("aoi-{}", sub.get_name());
        out.push((PathBuf::from(format!("man/{name}.1")), sub_page(sub)));
    }
    for (shell, file) in [
        (Shell::Bash, "aoi.bash"),
        (Shell::Zsh, "_aoi"),
        (Shell::Fish, "aoi.fish"),
        (Shell::Elvish, "aoi.elv"),
        (Shell::PowerShell, "_aoi.ps1"),
    ] {
        let mut buf = Vec::new();
        let mut c = aoi::cli::command();
        clap_complete::generate(shell, &mut c, "aoi", &mut buf);
        out.push((PathBuf::from(format!("completions/{file}")), buf));
    }
    // Each rule with the lint check and the § 18 factors it breaks.
    let map: String = aoi::rules::RULES
        .iter()
        .zip(aoi::rules::RuleId::ALL)
        .map(|(r, id)| {
            let factors: Vec<&str> = id.factors().iter().map(|f| f.name()).collect();
            let factors = if factors.is_empty() {
                "-".to_string()
            } else {
                factors.join(",")
            };
            format!("{} {} {}\n", r.id, id.check(), factors)
        })
        .collect();
    out.push((PathBuf::from("tests/golden/rules.txt"), map.into_bytes()));
    out.push((
        PathBuf::from("docs/rules.md"),
        aoi::rules::catalog_markdown().into_bytes(),
    ));
    out
}

/// Environment variables aoi reads, for every page's ENVIRONMENT section.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "NO_COLOR",
        "Set and not empty: no colour with --color auto (https://no-color.org).",
    ),
    ("TERM", "dumb: no colour with --color auto."),
    (
        "AOI_STOP_GRACE",
        "Seconds (1 to 3600, default 2) a command stopped by SIGINT or SIGTERM may take to finish its report with a cancelled summary (§ 7).",
    ),
    (
        "AOI_STOP_DRAIN",
        "Seconds (default 2; 0 stops at once) aoi check goes on relaying after SIGINT or SIGTERM, so that a producer's own cancelled summary is not lost.",
    ),
];

/// Text for roff: backslashes and minus signs escaped, and a line that
/// would start with a control character made plain.
fn roff(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    t.lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A section of tagged paragraphs: a bold tag, then its text.
fn tagged(page: &mut Vec<u8>, title: &str, items: &[(String, String)]) {
    page.extend_from_slice(format!(".SH \"{title}\"\n").as_bytes());
    for (tag, text) in items {
        page.extend_from_slice(format!(".TP\n\\fB{}\\fR\n{}\n", roff(tag), roff(text)).as_bytes());
    }
}

/// The exit table as (code, meaning) rows, and its closing sentence.
fn exit_rows(name: &str) -> (Vec<(String, String)>, String) {
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut last = String::new();
    for line in aoi::cli::help::exit_table(name).lines().skip(1) {
        let t = line.trim();
        let code: String = t.chars().take_while(char::is_ascii_digit).collect();
        if !code.is_empty() {
            rows.push((code.clone(), t[code.len()..].trim().to_string()));
        } else if t.starts_with("With ") {
            last = t.to_string();
        } else if !last.is_empty() {
            last.push(' ');
            last.push_str(t);
        } else if let Some((_, text)) = rows.last_mut() {
            text.push(' ');
            text.push_str(t);
        }
    }
    (rows, last)
}

/// EXAMPLES, EXIT STATUS (for a command that judges a stream), ENVIRONMENT
/// and SEE ALSO.
/// `exit_of`: the command whose exit table the page lists, if it judges.
fn closing_sections(
    page: &mut Vec<u8>,
    examples: &[(&str, &str)],
    exit_of: Option<&str>,
    see: &[String],
) {
    let ex: Vec<(String, String)> = examples
        .iter()
        .map(|(c, w)| {
            (
                c.to_string(),
                format!("{}{}", w[..1].to_uppercase(), &w[1..]),
            )
        })
        .collect();
    tagged(page, "EXAMPLES", &ex);
    if let Some(name) = exit_of {
        let (rows, last) = exit_rows(name);
        tagged(page, "EXIT STATUS", &rows);
        page.extend_from_slice(format!(".PP\n{}\n", roff(&last)).as_bytes());
    }
    let env: Vec<(String, String)> = ENVIRONMENT
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    tagged(page, "ENVIRONMENT", &env);
    let refs: Vec<String> = see
        .iter()
        .map(|n| format!("\\fB{}\\fR(1)", roff(n)))
        .collect();
    page.extend_from_slice(format!(".SH \"SEE ALSO\"\n{}\n", refs.join(", ")).as_bytes());
}

/// A page's title, NAME, SYNOPSIS, DESCRIPTION and OPTIONS, as clap
/// renders them.
fn opening(man: &clap_mangen::Man) -> Vec<u8> {
    let mut page = Vec::new();
    man.render_title(&mut page).expect("title");
    man.render_name_section(&mut page).expect("name");
    man.render_synopsis_section(&mut page).expect("synopsis");
    man.render_description_section(&mut page)
        .expect("description");
    man.render_options_section(&mut page).expect("options");
    page
}

/// The page of one subcommand: `aoi-check(1)`, whose synopsis reads
/// `aoi check [OPTIONS] [FILE]...`.
fn sub_page(sub: &clap::Command) -> Vec<u8> {
    let name = format!("aoi-{}", sub.get_name());
    let bin = format!("aoi {}", sub.get_name());
    let usage = sub.clone().bin_name(&bin).render_usage().to_string();
    let usage = usage.trim_start_matches("Usage:").trim().to_string();
    // clap wants a 'static name; leaking a few bytes in a test is fine.
    let name: &'static str = Box::leak(name.into_boxed_str());
    let cmd = sub.clone().name(name).bin_name(&bin).override_usage(usage);
    let mut page = opening(&clap_mangen::Man::new(cmd));
    let judging = aoi::cli::JUDGING.contains(&sub.get_name());
    let see = vec!["aoi".to_string()];
    closing_sections(
        &mut page,
        aoi::cli::examples::of(sub.get_name()),
        judging.then_some(sub.get_name()),
        &see,
    );
    page
}

/// The page of `aoi` itself, its examples a few of the subcommands'.
fn root_page(cmd: &clap::Command) -> Vec<u8> {
    let usage = cmd.clone().render_usage().to_string();
    let usage = usage.trim_start_matches("Usage:").trim().to_string();
    let man = clap_mangen::Man::new(cmd.clone().override_usage(usage));
    let mut page = opening(&man);
    man.render_subcommands_section(&mut page)
        .expect("subcommands");
    let examples: Vec<(&str, &str)> = aoi::cli::examples::EXAMPLES
        .iter()
        .filter_map(|(_, e)| e.first().copied())
        .collect();
    let see: Vec<String> = cmd
        .get_subcommands()
        .map(|s| format!("aoi-{}", s.get_name()))
        .collect();
    closing_sections(&mut page, &examples, Some("aoi"), &see);
    page
}

#[test]
fn generated_files_are_fresh() {
    let regenerate = std::env::var_os("AOI_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (rel, content) in artefacts() {
        let path = root().join(&rel);
        if regenerate {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).expect("create dir");
            }
            std::fs::write(&path, &content).expect("write generated file");
            continue;
        }
        match std::fs::read(&path) {
            Ok(on_disk) if on_disk == content => {}
            _ => stale.push(rel),
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}: run `AOI_REGENERATE=1 cargo test --test generated`"
    );
}

#[test]
fn every_subcommand_has_a_man_page() {
    let cmd = aoi::cli::command();
    for sub in cmd.get_subcommands() {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("man/aoi-{}.1", sub.get_name()));
        assert!(p.exists(), "{} is missing", p.display());
    }
}

/// The man pages render with `man -l` with the sections a reader looks
/// for, and a synopsis that names the command as it is typed.
#[test]
fn man_pages_render_with_their_sections() {
    let have_man = std::process::Command::new("man")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_man {
        // As tests/cli/optional.rs: required where .ci/run installed it.
        assert!(
            std::env::var_os("AOI_REQUIRE_OPTIONAL").is_none(),
            "man is not installed here, and AOI_REQUIRE_OPTIONAL is set (.ci/run installs it)"
        );
        // Past the test harness's capture of eprintln!, as tests/cli's notices.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "note: man is not installed here; skipped: rendering the man pages"
        );
        return;
    }
    let cmd = aoi::cli::command();
    let mut pages = vec![(
        "aoi".to_string(),
        "aoi [OPTIONS] <COMMAND>".to_string(),
        true,
    )];
    for sub in cmd.get_subcommands() {
        let n = sub.get_name();
        let judging = aoi::cli::JUDGING.contains(&n);
        pages.push((format!("aoi-{n}"), format!("aoi {n} [OPTIONS]"), judging));
    }
    for (name, synopsis, judging) in pages {
        let path = root().join(format!("man/{name}.1"));
        let out = std::process::Command::new("man")
            .arg("-l")
            .arg(&path)
            .env("MANWIDTH", "200")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .output()
            .expect("man runs");
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).replace(['\u{2010}', '\u{2212}'], "-");
        let plain = strip_overstrike(&text);
        let mut want = vec![
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "OPTIONS",
            "EXAMPLES",
            "ENVIRONMENT",
            "SEE ALSO",
        ];
        if judging {
            want.push("EXIT STATUS");
        }
        for section in want {
            assert!(
                plain.lines().any(|l| l == section),
                "{name}: no {section} section:\n{plain}"
            );
        }
        assert!(
            !plain.lines().any(|l| l == "EXTRA"),
            "{name}: an EXTRA section"
        );
        assert!(
            plain.contains(&synopsis),
            "{name}: synopsis is not {synopsis:?}:\n{plain}"
        );
    }
}

/// Text without the backspace overstriking `man` uses for bold.
fn strip_overstrike(s: &str) -> String {
    let mut out: Vec<char> = Vec::new();
    for c in s.chars() {
        if c == '\u{8}' {
            out.pop();
            continue;
        }
        out.push(c);
    }
    out.into_iter().collect()
}

/// Every subcommand's `--help` and `-h` end with 3 to 6 examples, each
/// with its one-line explanation, and
/// a command that judges a stream with the exit table after them.
#[test]
fn every_help_has_examples() {
    let mut cmd = aoi::cli::command();
    cmd.build();
    for sub in cmd.get_subcommands_mut() {
        let name = sub.get_name().to_string();
        if name == "help" {
            continue;
        }
        let examples = aoi::cli::examples::of(&name);
        assert!(
            (3..=6).contains(&examples.len()),
            "{name}: {} examples",
            examples.len()
        );
        let long = sub.render_long_help().to_string();
        let short = sub.render_help().to_string();
        for help in [&long, &short] {
            for (invocation, why) in examples {
                assert!(
                    help.contains(invocation),
                    "{name}: {invocation} not in its help"
                );
                assert!(help.contains(why), "{name}: {why} not in its help");
            }
        }
        let judging = aoi::cli::JUDGING.contains(&name.as_str());
        assert_eq!(long.contains("Exit status:"), judging, "{name}");
    }
}
