//! The checks that run the invocation again with one thing changed: an
//! unknown flag (5), a secret-looking argument (9), and an early pipe
//! close, SIGINT and SIGTERM mid-run (10).

use serde_json::Value;

use super::Invocation;
use crate::cmd::lint::caps::reads_jsonl;
use crate::cmd::lint::probe::{Probe, ProbeOpts, bytes_excerpt, excerpt, stack_trace};
use crate::cmd::lint::result::{CheckResult, Status};
use crate::cmd::lint::stream::{Judged, from_findings, judge_bytes};
use crate::spec::types;

/// 5: a usage error exits non-zero without a stack trace, and every
/// `aoi:error` lint saw (the run's and the probe's own) has its fields.
pub(super) fn errors_and_usage(inv: &Invocation) -> CheckResult {
    if let Err(r) = inv.may_probe(5, "an unknown flag") {
        return r;
    }
    let p = inv.run_with(&["--aoi-lint-no-such-flag"]);
    let probe_stream = judge_bytes(&p.stdout);
    let errors = errors_seen(inv, &probe_stream);
    let fields = match errors.status {
        Status::Fail => return errors,
        _ => errors.detail,
    };
    if p.held {
        inv.outcome(5, Status::Fail, format!("an unknown flag: {}", p.status()))
    } else if p.timed_out {
        inv.outcome(5, Status::Fail, "an unknown flag made the tool hang")
    } else if p.exit() == 0 {
        inv.outcome(
            5,
            Status::Fail,
            "an unknown flag (--aoi-lint-no-such-flag) exits 0",
        )
        .with(vec![format!("stdout: {}", bytes_excerpt(&p.stdout))])
    } else if let Some(trace) = stack_trace(&p.stderr_text()) {
        inv.outcome(
            5,
            Status::Fail,
            format!("an unknown flag prints a stack trace: {trace}"),
        )
    } else if Some(p.exit()) == inv.argv_exit {
        // The invocation fails the same way without the flag: its
        // failure shows nothing of how a malformed usage is met.
        inv.outcome(
            5,
            Status::NotTested,
            format!(
                "an unknown flag exits {}, as the invocation itself does: that shows nothing of how a malformed usage is met",
                p.exit()
            ),
        )
    } else {
        inv.outcome(
            5,
            Status::Pass,
            format!(
                "an unknown flag exits {} without a stack trace; {fields}",
                p.exit()
            ),
        )
    }
}

/// Check 5's error part over the run's stream and the probe's: fail with
/// the findings, or a pass saying how many errors were checked.
fn errors_seen(inv: &Invocation, probe: &Judged) -> CheckResult {
    let main = from_findings(5, inv.command, &inv.j, "");
    if main.status == Status::Fail {
        return main;
    }
    let own = from_findings(5, inv.command, probe, "");
    if own.status == Status::Fail {
        let mut o = own;
        o.detail = format!("the unknown flag's own stream: {}", o.detail);
        return o;
    }
    let count = |j: &Judged| {
        j.events
            .iter()
            .filter(|e| e["type"] == types::ERROR)
            .count()
    };
    let n = count(&inv.j) + count(probe);
    let detail = match n {
        0 => "no aoi:error was seen, so their fields are not checked".to_string(),
        n => format!("the {n} aoi:error event(s) seen have their fields"),
    };
    inv.outcome(5, Status::Pass, detail)
}

/// 9: a secret-looking argument never comes back raw (§ 11), and
/// `aoi:meta.args` carries none.
pub(super) fn no_secret_echo(inv: &Invocation) -> CheckResult {
    if let Err(r) = inv.may_probe(9, "a secret-looking argument") {
        return r;
    }
    let secret_flag = &inv.args.secret_flag;
    let canary = format!("aoi-lint-canary-{}", &crate::emit::ulid()[16..]);
    let p = inv.run_with(&[secret_flag.as_str(), canary.as_str()]);
    // The evidence names the canary, not its value (its run line too).
    for line in inv.ran.borrow_mut().iter_mut() {
        *line = line.replace(&canary, "<canary>");
    }
    let found_out = memchr::memmem::find(&p.stdout, canary.as_bytes()).is_some();
    let found_err = memchr::memmem::find(&p.stderr, canary.as_bytes()).is_some();
    let secret_rule = from_findings(9, inv.command, &inv.j, "");
    if found_out || found_err {
        let wher = match (found_out, found_err) {
            (true, true) => "stdout and stderr",
            (true, false) => "stdout",
            _ => "stderr",
        };
        inv.outcome(
            9,
            Status::Fail,
            format!(
                "the value of {} came back raw on {wher} (§ 11)",
                secret_flag
            ),
        )
        .with(around_canary(&p, &canary))
    } else if super::usage_refused(&p) && Some(p.exit()) != inv.argv_exit {
        inv.outcome(
            9,
            Status::NotTested,
            format!(
                "{} <canary>: refused as a usage error ({}), so the tool never handled the value; --secret-flag names the flag it takes a secret by",
                secret_flag,
                super::status_said(&p)
            ),
        )
    } else if p.stdout.is_empty() && p.stderr.is_empty() {
        inv.outcome(
            9,
            Status::NotTested,
            format!(
                "{} <canary>: the run wrote nothing at all ({}), so nothing shows whether it would echo it",
                secret_flag,
                p.status()
            ),
        )
    } else if secret_rule.status != Status::Fail {
        // The judge's advisories (a value known secret only by its flag's
        // name) are noted; its violations fail.
        inv.outcome(
            9,
            Status::Pass,
            format!("{} <canary>: not echoed ({})", secret_flag, p.status()),
        )
        .with(secret_rule.evidence)
    } else {
        inv.outcome(9, Status::Fail, "aoi:meta carries a secret (§ 11)")
            .with(secret_rule.evidence)
    }
}

/// Where the canary came back: the part of the line around it, on each
/// of stdout and stderr, the canary itself replaced.
fn around_canary(p: &Probe, canary: &str) -> Vec<String> {
    [("stdout", &p.stdout), ("stderr", &p.stderr)]
        .iter()
        .filter_map(|(name, bytes)| {
            let text = String::from_utf8_lossy(bytes);
            let line = text.lines().find(|l| l.contains(canary))?;
            let shown = line.replace(canary, "<canary>");
            // The part around the canary.
            let at = shown.find("<canary>").unwrap_or(0);
            let from = shown
                .char_indices()
                .map(|(i, _)| i)
                .find(|&i| i + 80 >= at)
                .unwrap_or(0);
            let window = shown.get(from..).unwrap_or_default();
            Some(format!("{name}: …{}", excerpt(window)))
        })
        .collect()
}

/// How a signalled run's stream ended, for check 10's message.
fn ending_of(events: &[Value]) -> String {
    let shown = |e: &Value, k: &str| e.get(k).map_or("absent".to_string(), Value::to_string);
    match events.last() {
        Some(e) if e["type"] == types::SUMMARY => {
            format!(
                "its aoi:summary has ok {} and reason {}",
                shown(e, "ok"),
                shown(e, "reason")
            )
        }
        _ if events.iter().any(|e| e["type"] == types::SUMMARY) => {
            "its aoi:summary is not its last event".into()
        }
        _ => "no aoi:summary".into(),
    }
}

/// What check 10's probes found, each a line of evidence.
#[derive(Default)]
struct Seen {
    problems: Vec<String>,
    notes: Vec<String>,
    /// Signals that could not be judged (the run ended first).
    untested: Vec<String>,
}

/// 10: no stack trace on an early pipe close; SIGINT and SIGTERM end the
/// run with `reason:"cancelled"` (§ 7).
pub(super) fn pipe_and_signals(inv: &Invocation) -> CheckResult {
    if let Err(r) = inv.may_probe(10, "an early pipe close and SIGINT/SIGTERM") {
        return r;
    }
    let mut seen = Seen::default();
    early_pipe_close(inv, &mut seen);
    for (sig, name) in [(libc::SIGINT, "SIGINT"), (libc::SIGTERM, "SIGTERM")] {
        signalled(inv, sig, name, &mut seen);
    }
    let Seen {
        problems,
        notes,
        untested,
    } = seen;
    if !problems.is_empty() {
        let mut ev = problems.clone();
        ev.extend(notes);
        inv.outcome(10, Status::Fail, problems.join("; ")).with(ev)
    } else if untested.len() == 2 {
        inv.outcome(
            10,
            Status::NotTested,
            format!(
                "no stack trace on an early pipe close; the run ends too soon to be signalled ({})",
                untested.join("; ")
            ),
        )
        .with(notes)
    } else {
        let mut ev = notes.clone();
        ev.extend(untested);
        inv.outcome(
            10,
            Status::Pass,
            "no stack trace on an early pipe close; SIGINT/SIGTERM end with reason:\"cancelled\"",
        )
        .with(ev)
    }
}

/// The run's stdout closed after its first byte.
fn early_pipe_close(inv: &Invocation, seen: &mut Seen) {
    let pipe = inv.run_opts(&ProbeOpts {
        close_after: Some(1),
        ..inv.base.clone()
    });
    if let Some(trace) = stack_trace(&pipe.stderr_text()) {
        seen.problems
            .push(format!("early pipe close: stack trace on stderr: {trace}"));
    } else {
        seen.notes.push(format!(
            "early pipe close: {}, no stack trace",
            pipe.status()
        ));
    }
}

/// The run sent `sig` mid-run.
fn signalled(inv: &Invocation, sig: i32, name: &str, seen: &mut Seen) {
    // A command reading stdin is signalled while it waits for more.
    let reads = reads_jsonl(inv.caps) == Some(true);
    let mut o = ProbeOpts {
        keep_stdin_open: reads,
        ..inv.base.clone()
    };
    if o.stdin.is_none() && reads {
        o.stdin = Some(Vec::new());
    }
    o.signal = Some(sig);
    let p = inv.run_opts(&o);
    let jj = judge_bytes(&p.stdout);
    let last = jj.events.last();
    let cancelled = last.is_some_and(|e| {
        e["type"] == types::SUMMARY && e["ok"] == false && e["reason"] == "cancelled"
    });
    // Its summary already written when the signal came: the run had
    // finished, which § 7 does not judge.
    let before = p.stdout.get(..p.stdout_at_signal).unwrap_or(&p.stdout);
    let finished = judge_bytes(before).verdict.summary.is_some();
    if !p.signalled_running {
        seen.untested
            .push(format!("{name}: the run ended before the signal"));
    } else if finished && !cancelled {
        seen.untested.push(format!(
            "{name}: the run had finished before the signal (its aoi:summary was written)"
        ));
    } else if p.held {
        seen.problems.push(format!("{name}: {}", p.status()));
    } else if p.timed_out {
        seen.problems.push(format!(
            "{name}: still running {:?} after the signal (killed)",
            inv.args.timeout
        ));
    } else if cancelled && p.exit() == 0 {
        seen.problems.push(format!(
            "{name}: reason:\"cancelled\" but exit 0 (§ 7: then exit with the conventional signal code; § 6: non-zero when interrupted)"
        ));
    } else if cancelled {
        seen.notes
            .push(format!("{name}: reason:\"cancelled\", {}", p.status()));
    } else if let Some(trace) = stack_trace(&p.stderr_text()) {
        seen.problems.push(format!("{name}: stack trace: {trace}"));
    } else {
        let ending = ending_of(&jj.events);
        seen.problems.push(format!(
            "{name}: {}, {ending} (expected reason:\"cancelled\", § 7)",
            p.status()
        ));
    }
}
