//! The checks of one invocation, checks 2 to 16 of § 18.2, in their
//! order: the machine-mode run (`TOOL ARGS --output jsonl`) judged, then
//! one named step per check. The steps live by what they read: the run's
//! own stdout ([`output`]), the invocation run again with something
//! changed ([`probes`]), or what the capabilities declare ([`declared`]).

use serde_json::{Map, Value};

use super::caps::caps_command;
use super::catalog::CHECKS;
use super::discover::Discovery;
use super::probe::{Probe, ProbeOpts, run_probe};
use super::result::{CheckResult, Status};
use super::stream::{Judged, judge_bytes};
use crate::cli::LintArgs;
use crate::out::sanitize;

mod declared;
mod output;
mod probes;

/// One invocation under lint: what every check of it reads.
struct Invocation<'a> {
    args: &'a LintArgs,
    /// The words run, the machine-mode flag included.
    argv: &'a [String],
    /// The command's name, as results and the capabilities name it.
    command: &'a str,
    /// What every probe of it gets by default: the stdin given.
    base: ProbeOpts,
    d: &'a Discovery,
    /// The capabilities' entry for the command.
    caps: Option<&'a Map<String, Value>>,
    /// The machine-mode run, and its stdout judged.
    main: Probe,
    j: Judged,
}

impl Invocation<'_> {
    /// The invocation run again with `extra` words after it.
    fn run_with(&self, extra: &[&str]) -> Probe {
        let mut a = self.argv.to_vec();
        a.extend(extra.iter().map(|w| w.to_string()));
        run_probe(&a, &self.base, self.args.timeout)
    }
    /// The invocation run again with `opts`.
    fn run_opts(&self, opts: &ProbeOpts) -> Probe {
        run_probe(self.argv, opts, self.args.timeout)
    }
    /// An outcome of check `n` for this command.
    fn outcome(&self, n: u8, status: Status, detail: impl Into<String>) -> CheckResult {
        CheckResult::new(n, self.command, status, detail)
    }
}

/// Lints one invocation; `discovery` is shared by all of a tool's commands.
pub(super) fn lint_invocation(
    args: &LintArgs,
    argv: &[String],
    command: &str,
    stdin: Option<Vec<u8>>,
    d: &Discovery,
) -> Vec<CheckResult> {
    let (mut out, version) = judge_invocation(args, argv, command, stdin, d);
    if let Some(v) = version {
        another_version(&mut out, &v);
    }
    out
}

/// The checks of one invocation, and the `aoi_version` of another AOI
/// version when its stream declares one.
fn judge_invocation(
    args: &LintArgs,
    argv: &[String],
    command: &str,
    stdin: Option<Vec<u8>>,
    d: &Discovery,
) -> (Vec<CheckResult>, Option<String>) {
    let base = ProbeOpts {
        stdin,
        ..ProbeOpts::default()
    };
    let main = run_probe(argv, &base, args.timeout);
    if let Some(e) = &main.spawn_error {
        return (could_not_run(command, e), None);
    }
    let j = judge_bytes(&main.stdout);
    let version = other_aoi_version(&j);
    let inv = Invocation {
        args,
        argv,
        command,
        base,
        d,
        caps: caps_command(d.caps.as_ref(), command),
        main,
        j,
    };
    // Each step may probe the tool again: the order is the order of the
    // probes, and of the rows.
    let out = vec![
        output::typed_output(&inv),
        output::terminal_summary(&inv),
        output::schema_valid_events(&inv),
        probes::errors_and_usage(&inv),
        declared::confirm_and_dry_run(&inv),
        declared::idempotent_replay(&inv),
        declared::stable_ids(&inv),
        probes::no_secret_echo(&inv),
        probes::pipe_and_signals(&inv),
        declared::bounded_output(&inv),
        declared::malformed_input(&inv),
        output::schema_version(&inv),
        output::one_meta_one_summary(&inv),
        output::seq_and_run(&inv),
        declared::upstream_forwarding(&inv),
    ];
    (out, version)
}

/// Every check but discovery, not tested: the invocation did not start.
fn could_not_run(command: &str, e: &str) -> Vec<CheckResult> {
    CHECKS
        .iter()
        .filter(|c| c.number != 1)
        .map(|c| {
            CheckResult::new(
                c.number,
                command,
                Status::NotTested,
                format!("the invocation could not run: {e}"),
            )
        })
        .collect()
}

/// The `aoi_version` its `aoi:meta` declares, when the judge found it is
/// not AOI 1.x (`version.unsupported`).
fn other_aoi_version(j: &Judged) -> Option<String> {
    j.findings
        .iter()
        .any(|f| f.rule.id() == "version.unsupported")
        .then(|| {
            let meta = j.events.first().filter(|e| e["type"] == "aoi:meta");
            meta.and_then(|m| m["aoi_version"].as_str())
                .unwrap_or("?")
                .to_string()
        })
}

/// A tool that writes another AOI version (`version.unsupported`, check
/// 2's one finding) is not judged by AOI 1's rules: the checks that read
/// its streams say "not tested" rather than fail on another version's
/// meanings (issue 25). Discovery (1) and `schema_version` (13) stand.
fn another_version(out: &mut [CheckResult], version: &str) {
    for o in out.iter_mut() {
        if matches!(o.number, 1 | 2 | 13) || o.status == Status::NotApplicable {
            continue;
        }
        o.status = Status::NotTested;
        o.detail = format!(
            "the tool writes aoi_version \"{}\", not AOI 1.x (check 2): its streams are not judged by AOI 1's rules",
            sanitize(version)
        );
    }
}
