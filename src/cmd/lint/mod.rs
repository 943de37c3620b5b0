//! `aoi lint`: the conformance checks of § 18, run against a tool.
//!
//! A tool is checked the way an agent meets it: as a black box. One
//! machine-mode invocation (`TOOL ARGS --output jsonl`) is run and its
//! stdout judged by the same [`Judge`] as `aoi check`; around it, probes:
//! discovery in an environment reduced to `PATH` (check 1), a malformed
//! usage (5), a secret-looking argument (9), an early pipe close and
//! SIGINT/SIGTERM mid-run (10), `--limit` (11), malformed input (12) and a
//! known upstream stream (16) for commands whose capabilities say they read
//! JSON Lines, and with `--allow-side-effects` the confirmation and dry-run
//! of destructive commands (6). Every probe runs in its own process group
//! under a timeout; a probe that outlives it is killed and is a finding.
//!
//! Results are per (check × command) (§ 18.1): pass, fail, not applicable
//! (the capabilities say the check does not concern the command) or not
//! tested (a black box does not allow it, or the probe could not decide),
//! always with why.
//!
//! This file holds the order: discovery once per tool, then the checks of
//! each invocation, then the report. What each step does is in its own
//! file.
//!
//! [`Judge`]: crate::judge::Judge

use crate::cli::LintArgs;
use crate::spec::exit::Code;

mod caps;
mod catalog;
mod checks;
mod consent;
mod discover;
mod feeds;
mod invocation;
mod pipes;
mod probe;
mod report;
mod result;
mod stream;

pub use catalog::{CHECKS, Check};

use checks::lint_invocation;
use discover::discover;
use report::Linted;

/// Runs `aoi lint`; returns the exit status.
pub fn run(args: &LintArgs) -> Code {
    let target = match args.lint_self {
        true => None,
        false => match invocation::target(args) {
            Ok(t) => Some(t),
            Err(code) => return code,
        },
    };
    // The report's aoi:meta is written before the probes, so its clock
    // (elapsed_ms, and `t`, which counts from the meta, § 8.1) covers them
    // (elapsed_ms said 0 for a 9.5 s lint).
    let mut sinks =
        (args.output == Some(crate::cli::Format::Jsonl)).then(crate::out::Sinks::report_to_stdout);
    if let Some(s) = &mut sinks {
        if let Err(stop) = s.out.meta("lint", Vec::new()) {
            return sinks.map_or(Code::IOERR, |s| s.end("lint", stop));
        }
    }
    let linted = match target {
        None => lint_self(args),
        Some(t) => Ok(lint_tool(args, t)),
    };
    match linted {
        Ok(l) => report::report(args, &l, sinks),
        Err(code) => code,
    }
}

/// `--self`: aoi's own binary, discovered once, then every command of it
/// that writes a stream, fed the example search.
fn lint_self(args: &LintArgs) -> Result<Linted, Code> {
    let exe = match std::env::current_exe() {
        Ok(p) => p.display().to_string(),
        Err(e) => {
            report::say(
                false,
                &format!("aoi lint: cannot find aoi's own binary: {e}"),
            );
            return Err(Code::SOFTWARE);
        }
    };
    let d = discover(std::slice::from_ref(&exe), args);
    let mut results = vec![d.outcome.clone()];
    let mut commands = Vec::new();
    for (c, a) in invocation::self_invocations() {
        let mut argv = vec![exe.clone()];
        argv.extend(a);
        let stdin = Some(feeds::SELF_INPUT.to_vec());
        results.extend(lint_invocation(args, &argv, 1, &c, stdin, &d));
        commands.push(c);
    }
    Ok(Linted {
        title: "aoi (--self)".to_string(),
        results,
        commands,
        runs: probe::runs(),
    })
}

/// The invocation after `--`: the tool discovered, then the invocation's
/// checks.
fn lint_tool(args: &LintArgs, mut t: invocation::Target) -> Linted {
    let title = probe::shown(&t.argv);
    let d = discover(&t.prefix, args);
    // The manifest's name for the command, where the first operand is
    // not it (`--profile prod delete`, `repo delete`).
    if let Some(c) = consent::manifest_command(d.caps.as_ref(), &t.argv, t.prefix.len()) {
        t.command = c;
    }
    let mut results = vec![d.outcome.clone()];
    let checks = lint_invocation(args, &t.argv, t.prefix.len(), &t.command, t.stdin, &d);
    results.extend(checks);
    Linted {
        title,
        results,
        commands: vec![t.command],
        runs: probe::runs(),
    }
}
