//! Generated artefacts stay in step with the code: man pages (`man/`), shell completions
//! (`completions/`) and the rule catalog (`docs/rules.md`) are produced from the clap
//! definitions and `src/rules.rs`. This test fails when a checked-in file is stale;
//! `AOI_REGENERATE=1 cargo test --test generated` rewrites them.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated file: path relative to the crate root, and its content.
fn artefacts() -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let cmd = aoi::cli::Cli::command();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut page)
        .expect("render aoi.1");
    out.push((PathBuf::from("man/aoi.1"), page));
    for sub in cmd.get_subcommands() {
        // clap wants a 'static name; leaking a few bytes in a test is fine.
        let name: &'static str = Box::leak(format!("aoi-{}", sub.get_name()).into_boxed_str());
        let sub = sub.clone().name(name);
        let mut page = Vec::new();
        clap_mangen::Man::new(sub)
            .render(&mut page)
            .expect("render subcommand page");
        out.push((PathBuf::from(format!("man/{name}.1")), page));
    }
    for (shell, file) in [
        (Shell::Bash, "aoi.bash"),
        (Shell::Zsh, "_aoi"),
        (Shell::Fish, "aoi.fish"),
        (Shell::Elvish, "aoi.elv"),
        (Shell::PowerShell, "_aoi.ps1"),
    ] {
        let mut buf = Vec::new();
        let mut c = aoi::cli::Cli::command();
        clap_complete::generate(shell, &mut c, "aoi", &mut buf);
        out.push((PathBuf::from(format!("completions/{file}")), buf));
    }
    out.push((
        PathBuf::from("docs/rules.md"),
        aoi::rules::catalog_markdown().into_bytes(),
    ));
    out
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
    let cmd = aoi::cli::Cli::command();
    for sub in cmd.get_subcommands() {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("man/aoi-{}.1", sub.get_name()));
        assert!(p.exists(), "{} is missing", p.display());
    }
}
