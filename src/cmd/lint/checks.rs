//! The checks of one invocation, checks 2 to 16 of § 18.2, in their
//! order: the machine-mode run (`TOOL ARGS --output jsonl`) judged, then
//! one named step per check. The steps live by what they read: the run's
//! own stdout ([`output`]), the invocation run again with something
//! changed ([`probes`]), or what the capabilities declare ([`declared`]).

use std::cell::RefCell;

use serde_json::{Map, Value};

use super::caps::caps_command;
use super::catalog::CHECKS;
use super::consent::{Effect, Guards, effect, guards};
use super::discover::Discovery;
use super::probe::{Probe, ProbeOpts, excerpt, ran, run_probe};
use super::report::say;
use super::result::{CheckResult, Status};
use super::stream::{Judged, judge_bytes};
use crate::cli::LintArgs;
use crate::spec::types;

mod declared;
mod dry_run;
mod output;
mod probes;

/// One invocation under lint: what every check of it reads.
struct Invocation<'a> {
    args: &'a LintArgs,
    /// The words whose stream is judged and that the probes run again:
    /// the user's, with the machine-mode flag (or, for a destructive
    /// command refused before its stream, the run lint made instead).
    argv: Vec<String>,
    /// The command's name, as results and the capabilities name it.
    command: &'a str,
    /// How many words of `argv` run the tool.
    prefix: usize,
    /// What every probe of it gets by default: the stdin given.
    base: ProbeOpts,
    d: &'a Discovery,
    /// The capabilities' entry for the command.
    caps: Option<&'a Map<String, Value>>,
    /// What running it does to state, and whether lint may run it again.
    effect: Effect,
    rerun: bool,
    /// The user's words split by their confirmation and dry-run flags.
    guards: Guards,
    /// The user's run, as given (with the machine-mode flag).
    user: Probe,
    /// The run whose stream is judged (the user's, or lint's instead),
    /// and that stream.
    main: Probe,
    j: Judged,
    /// Why the stream checks have no stream to judge, when they have none.
    no_stream: Option<String>,
    /// The exit of `argv` run as it is, when lint saw it (the probes add
    /// to `argv`: what they change shows against it).
    argv_exit: Option<i32>,
    /// The runs made since the last check took them, as evidence lines.
    ran: RefCell<Vec<String>>,
}

impl Invocation<'_> {
    /// The invocation run again with `extra` words after it.
    fn run_with(&self, extra: &[&str]) -> Probe {
        let a = super::invocation::with_words(&self.argv, self.prefix, extra);
        self.run_words(&a, &self.base)
    }
    /// The invocation run again with `opts`.
    fn run_opts(&self, opts: &ProbeOpts) -> Probe {
        self.run_words(&self.argv, opts)
    }
    /// `words` run, its run noted for the evidence.
    fn run_words(&self, words: &[String], opts: &ProbeOpts) -> Probe {
        let p = run_probe(words, opts, self.args.timeout);
        self.ran.borrow_mut().push(ran(words, &p));
        p
    }
    /// An outcome of check `n` for this command.
    fn outcome(&self, n: u8, status: Status, detail: impl Into<String>) -> CheckResult {
        CheckResult::new(n, self.command, status, detail)
    }
    /// Check `n`'s probe may run the command again: an `Err` with the
    /// check not tested when it changes state and consent was not given
    ///, saying what the probe would have done.
    fn may_probe(&self, n: u8, probe: &str) -> Result<(), CheckResult> {
        if self.rerun {
            return Ok(());
        }
        Err(self.outcome(
            n,
            Status::NotTested,
            format!(
                "not run: {probe} would run `{}` again, which changes state ({}); lint runs it once, as given, unless --allow-side-effects",
                self.command,
                self.effect.why()
            ),
        ))
    }
    /// A check that reads the stream, when there is none to read.
    fn streamless(&self, n: u8) -> Option<CheckResult> {
        let why = self.no_stream.as_ref()?;
        Some(self.outcome(n, Status::NotTested, why.clone()))
    }
}

/// Lints one invocation; `discovery` is shared by all of a tool's commands.
/// `prefix` is the number of words that run the tool. A stream of another
/// AOI version adds its note to the rows.
pub(super) fn lint_invocation(
    args: &LintArgs,
    argv: &[String],
    prefix: usize,
    command: &str,
    stdin: Option<Vec<u8>>,
    d: &Discovery,
) -> Vec<CheckResult> {
    let caps = caps_command(d.caps.as_ref(), command);
    let effect = effect(caps, argv, prefix);
    let rerun = !effect.mutates() || args.allow_side_effects;
    let base = ProbeOpts {
        stdin,
        ..ProbeOpts::default()
    };
    let mut inv = Invocation {
        args,
        argv: argv.to_vec(),
        command,
        prefix,
        base,
        d,
        caps,
        rerun,
        guards: guards(argv, prefix),
        effect,
        user: Probe::default(),
        main: Probe::default(),
        j: judge_bytes(b""),
        no_stream: None,
        argv_exit: None,
        ran: RefCell::new(Vec::new()),
    };
    inv.user = inv.run_words(argv, &inv.base);
    if let Some(e) = &inv.user.spawn_error {
        return could_not_run(command, e);
    }
    machine_flag_breaks(&mut inv);
    stream_to_judge(&mut inv);
    let version = other_aoi_version(&inv.j);
    // Each step may probe the tool again: the order is the order of the
    // probes, and of the rows; each row's evidence starts with its runs.
    let steps: [fn(&Invocation) -> CheckResult; 15] = [
        output::typed_output,
        output::terminal_summary,
        output::schema_valid_events,
        probes::errors_and_usage,
        dry_run::confirm_and_dry_run,
        declared::idempotent_replay,
        declared::stable_ids,
        probes::no_secret_echo,
        probes::pipe_and_signals,
        declared::bounded_output,
        declared::malformed_input,
        output::schema_version,
        output::one_meta_one_summary,
        output::seq_and_run,
        declared::upstream_forwarding,
    ];
    let mut out: Vec<CheckResult> = steps
        .iter()
        .map(|step| {
            let mut r = step(&inv);
            let mut ev = inv.ran.take();
            ev.append(&mut r.evidence);
            r.evidence = ev;
            r
        })
        .collect();
    if let Some(v) = version {
        another_version(&mut out, &v);
    }
    out
}

/// The machine-mode flag lint appended breaks the invocation: it fails
/// with the flag and writes AOI, successfully, without it (a tool that
/// passes its arguments on, or one that is AOI-only). Then the run
/// without it is the user's, and stderr says so. Never tried on a
/// command that changes state without consent: that would run it twice.
fn machine_flag_breaks(inv: &mut Invocation) {
    let args = inv.args;
    let appended = !args.invocation.is_empty()
        && inv.argv.len() > args.invocation.len()
        && inv.argv.starts_with(&args.invocation);
    let with = &inv.user;
    // A destructive command refused for want of confirmation is check
    // 6's refusal, not a flag that broke it.
    let refused = matches!(inv.effect, Effect::Destructive(_)) && usage_error(with);
    if !appended || !inv.rerun || refused || with.exit() == 0 || with.timed_out {
        return;
    }
    let without = inv.run_words(&args.invocation, &inv.base);
    if without.exit() != 0 || !super::invocation::writes_aoi(&without.stdout) {
        return;
    }
    let why = format!(
        "the invocation fails with `{}` appended ({}) and writes AOI without it (a tool that passes \
its arguments on, or one that writes AOI only): linted without the flag; pass --machine-flag '' \
to say so, or give the flag where the tool reads it",
        args.machine_flag,
        with.status()
    );
    say(args.quiet, &format!("aoi lint: {why}"));
    inv.ran.borrow_mut().push(why);
    inv.argv = args.invocation.clone();
    inv.guards = guards(&inv.argv, inv.prefix);
    inv.user = without;
}

/// Which run's stream the stream checks judge. The user's, unless it
/// ended before its stream: a usage error on stderr before any event is
/// allowed (§ 2), so there is nothing to judge; for a destructive command
/// refused for want of confirmation, lint with consent judges a run of
/// its own instead (the dry run where advertised, else confirmed), so
/// that one lint tests check 6 and the stream checks both.
fn stream_to_judge(inv: &mut Invocation) {
    inv.main = inv.user.clone();
    inv.argv_exit = Some(inv.user.exit());
    let p = inv.user.clone();
    let destructive = matches!(inv.effect, Effect::Destructive(_));
    let unconfirmed = inv.guards.confirm.is_empty() && !inv.guards.dry_run;
    let refusal = destructive && unconfirmed && usage_refused(&p);
    if refusal && inv.rerun {
        // The probes run what does run: the dry run where advertised,
        // else the confirmed command (consent was given).
        let flag = match declared::advertises_dry_run(inv.caps) {
            true => "--dry-run",
            false => "--confirm",
        };
        let words = super::invocation::with_words(&inv.guards.bare, inv.prefix, &[flag]);
        if p.stdout.is_empty() {
            let alt = inv.run_words(&words, &inv.base);
            if !alt.stdout.is_empty() {
                inv.j = judge_bytes(&alt.stdout);
                inv.argv_exit = Some(alt.exit());
                inv.main = alt;
                inv.argv = words;
                return;
            }
        }
        inv.argv = words;
        inv.argv_exit = None;
    }
    if !p.stdout.is_empty() || p.timed_out {
        inv.j = judge_bytes(&p.stdout);
        return;
    }
    let usage = usage_error(&p);
    inv.j = judge_bytes(b"");
    inv.no_stream = Some(match (usage, refusal) {
        (true, true) if inv.rerun => format!(
            "the invocation was refused before its stream ({}: a usage error, which § 2 allows on stderr), and so was lint's run of it with --dry-run or --confirm",
            status_said(&p)
        ),
        (true, true) => format!(
            "the invocation was refused before its stream ({}: a usage error, which § 2 allows on stderr); lint it with --dry-run or --confirm, or give --allow-side-effects to let lint run it so",
            status_said(&p)
        ),
        (true, false) => format!(
            "the invocation was a usage error before its stream ({}; § 2 allows it on stderr): lint an invocation that runs",
            status_said(&p)
        ),
        _ => format!(
            "the invocation wrote nothing on stdout ({}): check 3",
            status_said(&p)
        ),
    });
}

/// Whether a run that wrote nothing was a usage error (§ 2: "usage errors
/// may use stderr before stream startup"): exit 64 (or 2, as argument
/// parsers give it), or a refusal that names the confirmation it wants,
/// with something said on stderr.
pub(super) fn usage_error(p: &Probe) -> bool {
    let said = p.stderr_text();
    !said.trim().is_empty()
        && (matches!(p.exit(), crate::spec::exit::USAGE | 2)
            || said.to_ascii_lowercase().contains("confirm"))
}

/// Whether a failed run refused its usage: a usage error before its
/// stream, exit 64, or an `aoi:error` of category `usage` (§ 9.2) in a
/// stream of its own.
pub(super) fn usage_refused(p: &Probe) -> bool {
    p.exit() != 0
        && (usage_error(p)
            || p.exit() == crate::spec::exit::USAGE
            || judge_bytes(&p.stdout)
                .events
                .iter()
                .any(|e| e["type"] == types::ERROR && e["category"] == "usage"))
}

/// A run's status and the start of what it said on stderr.
pub(super) fn status_said(p: &Probe) -> String {
    let said = p.stderr_text();
    match said.trim().is_empty() {
        true => p.status(),
        false => format!("{}, stderr \"{}\"", p.status(), excerpt(&said)),
    }
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
            let meta = j.events.first().filter(|e| e["type"] == types::META);
            meta.and_then(|m| m["aoi_version"].as_str())
                .unwrap_or("?")
                .to_string()
        })
}

/// A tool that writes another AOI version (`version.unsupported`, check
/// 2's one finding) is not judged by AOI 1's rules: the checks that read
/// its streams say "not tested" rather than fail on another version's
/// meanings. Discovery (1) and `schema_version` (13) stand.
fn another_version(out: &mut [CheckResult], version: &str) {
    for o in out.iter_mut() {
        if matches!(o.number, 1 | 2 | 13) || o.status == Status::NotApplicable {
            continue;
        }
        o.status = Status::NotTested;
        o.detail = format!(
            "the tool writes aoi_version \"{}\", not AOI 1.x (check 2): its streams are not judged by AOI 1's rules",
            version
        );
    }
}
