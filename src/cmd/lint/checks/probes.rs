//! The checks that run the invocation again with one thing changed: an
//! unknown flag (5), a secret-looking argument (9), and an early pipe
//! close, SIGINT and SIGTERM mid-run (10).

use serde_json::Value;

use super::Invocation;
use crate::cmd::lint::caps::reads_jsonl;
use crate::cmd::lint::probe::{Probe, ProbeOpts, excerpt, stack_trace};
use crate::cmd::lint::result::{CheckResult, Status};
use crate::cmd::lint::stream::{from_findings, judge_bytes};
use crate::judge::preview;
use crate::out::sanitize;

/// 5: a usage error exits non-zero without a stack trace, and every
/// `aoi:error` of the run has its fields.
pub(super) fn errors_and_usage(inv: &Invocation) -> CheckResult {
    let p = inv.run_with(&["--aoi-lint-no-such-flag"]);
    let errors = from_findings(5, inv.command, &inv.j, "");
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
        .with(vec![format!("stdout: {}", preview(&p.stdout))])
    } else if let Some(trace) = stack_trace(&p.stderr_text()) {
        inv.outcome(
            5,
            Status::Fail,
            format!("an unknown flag prints a stack trace: {trace}"),
        )
    } else if errors.status == Status::Fail {
        errors
    } else {
        inv.outcome(
            5,
            Status::Pass,
            format!(
                "an unknown flag exits {} without a stack trace; every aoi:error has its fields",
                p.exit()
            ),
        )
    }
}

/// 9: a secret-looking argument never comes back raw (§ 11), and
/// `aoi:meta.args` carries none.
pub(super) fn no_secret_echo(inv: &Invocation) -> CheckResult {
    let secret_flag = &inv.args.secret_flag;
    let canary = format!("aoi-lint-canary-{}", &crate::emit::ulid()[16..]);
    let p = inv.run_with(&[secret_flag.as_str(), canary.as_str()]);
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
                sanitize(secret_flag)
            ),
        )
        .with(around_canary(&p, &canary))
    } else if secret_rule.evidence.is_empty() {
        inv.outcome(
            9,
            Status::Pass,
            format!(
                "{} <canary>: not echoed ({})",
                sanitize(secret_flag),
                p.status()
            ),
        )
    } else {
        inv.outcome(
            9,
            Status::Fail,
            "aoi:meta.args carries a secret-looking value",
        )
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
    let reads = reads_jsonl(inv.caps);
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
        e["type"] == "aoi:summary" && e["ok"] == false && e["reason"] == "cancelled"
    });
    // Its summary already written when the signal came: the run had
    // finished, which § 7 does not judge (issue 25).
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
    } else if cancelled {
        seen.notes
            .push(format!("{name}: reason:\"cancelled\", {}", p.status()));
    } else if let Some(trace) = stack_trace(&p.stderr_text()) {
        seen.problems.push(format!("{name}: stack trace: {trace}"));
    } else {
        let ending = match last {
            Some(e) if e["type"] == "aoi:summary" => {
                let reason = e
                    .get("reason")
                    .map_or("absent".to_string(), Value::to_string);
                format!("a summary ok:{} reason {reason}", e["ok"])
            }
            _ => "no aoi:summary".into(),
        };
        seen.problems.push(format!(
            "{name}: {}, {ending} (expected reason:\"cancelled\", § 7)",
            p.status()
        ));
    }
}
