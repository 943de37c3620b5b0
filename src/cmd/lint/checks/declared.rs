//! The checks whose probe the capabilities call for (§ 17): confirmation
//! and dry-run of a destructive command (6), replay and ids (7, 8),
//! `--limit` of a bounded one (11), malformed input (12) and a known
//! upstream (16) for one that reads JSON Lines. Where the capabilities
//! say a check does not concern the command, it is not applicable.

use serde_json::{Value, json};

use super::Invocation;
use crate::cmd::lint::caps::{flag, reads_jsonl, unread_caps};
use crate::cmd::lint::feeds::{malformed_stream, upstream_stream};
use crate::cmd::lint::probe::{Probe, ProbeOpts, stack_trace};
use crate::cmd::lint::result::{CheckResult, Status};
use crate::cmd::lint::stream::{Judged, evidence_of, judge_bytes};
use crate::cmd::lint::validate::short;
use crate::rules::Severity;
use crate::spec::exit;

/// 6: a destructive command refuses without `--confirm` and plans with
/// `--dry-run`; probed only with `--allow-side-effects`.
pub(super) fn confirm_and_dry_run(inv: &Invocation) -> CheckResult {
    let destructive = flag(inv.caps, "destructive") == Some(true)
        || flag(inv.caps, "requires_confirm") == Some(true);
    if inv.caps.is_none() {
        return inv.outcome(
            6,
            Status::NotTested,
            "the capabilities do not describe this command",
        );
    }
    if !destructive {
        return inv.outcome(
            6,
            Status::NotApplicable,
            "not destructive, per the capabilities",
        );
    }
    if !inv.args.allow_side_effects {
        return inv.outcome(
            6,
            Status::NotTested,
            "destructive: its probes run only with --allow-side-effects",
        );
    }
    let refused = inv.run_with(&[]);
    let dp = inv.run_with(&["--dry-run"]);
    let plans = judge_bytes(&dp.stdout)
        .events
        .iter()
        .filter(|e| e["type"] == "aoi:plan")
        .count();
    if refused.exit() == 0 {
        inv.outcome(6, Status::Fail, "ran without --confirm (exit 0)")
    } else if flag(inv.caps, "supports_dry_run") == Some(true) && (dp.exit() != 0 || plans == 0) {
        inv.outcome(
            6,
            Status::Fail,
            format!("--dry-run: {} with {plans} aoi:plan event(s)", dp.status()),
        )
    } else {
        inv.outcome(
            6,
            Status::Pass,
            format!(
                "refused without --confirm ({}); --dry-run gave {plans} aoi:plan event(s)",
                refused.status()
            ),
        )
    }
}

/// 7: a replay has no second effect.
pub(super) fn idempotent_replay(inv: &Invocation) -> CheckResult {
    needs_real_resources(inv, 7)
}

/// 8: ids stay the same across runs.
pub(super) fn stable_ids(inv: &Invocation) -> CheckResult {
    needs_real_resources(inv, 8)
}

/// Checks 7 and 8 need the tool's real resources: not applicable to a
/// read-only command, not tested otherwise.
fn needs_real_resources(inv: &Invocation, n: u8) -> CheckResult {
    if flag(inv.caps, "read_only") == Some(true) {
        inv.outcome(n, Status::NotApplicable, "read-only, per the capabilities")
    } else {
        inv.outcome(
            n,
            Status::NotTested,
            "needs a replay against real resources; a black-box lint cannot tell a doubled effect",
        )
    }
}

/// 11: `--limit 1` of a bounded command gives at most one domain event
/// and a summary that says `truncated`, with `next_cursor` when true (§ 15).
pub(super) fn bounded_output(inv: &Invocation) -> CheckResult {
    let c = inv.caps;
    let bounded = flag(c, "bounded") == Some(true) && flag(c, "supports_cursor") == Some(true)
        || c.and_then(|c| c.get("supports_limit"))
            .and_then(Value::as_bool)
            == Some(true);
    if inv.d.caps.is_none() {
        return unread_caps(11, inv.command);
    }
    if !bounded {
        return inv.outcome(
            11,
            Status::NotApplicable,
            "the capabilities advertise no --limit/cursor for this command",
        );
    }
    if inv.main.timed_out || inv.j.verdict.summary.is_none() {
        return inv.outcome(
            11,
            Status::NotTested,
            "the invocation itself ends without a summary (check 3)",
        );
    }
    let p = inv.run_with(&["--limit", "1"]);
    let jj = judge_bytes(&p.stdout);
    let summary = jj.events.last().filter(|e| e["type"] == "aoi:summary");
    let domain = jj.verdict.domain_events;
    match summary {
        _ if p.exit() == exit::USAGE => inv.outcome(
            11,
            Status::Fail,
            "advertised as bounded, but --limit is a usage error",
        ),
        None => inv.outcome(
            11,
            Status::Fail,
            format!("--limit 1: no terminal summary ({})", p.status()),
        ),
        Some(_) if domain > 1 => inv.outcome(
            11,
            Status::Fail,
            format!("--limit 1 gave {domain} domain events"),
        ),
        Some(s) => truncation(inv, s, domain),
    }
}

/// Check 11 on the summary of a `--limit 1` run of `domain` events.
fn truncation(inv: &Invocation, s: &Value, domain: u64) -> CheckResult {
    match s.get("truncated") {
        Some(Value::Bool(true)) if s.get("next_cursor").is_none_or(Value::is_null) => inv.outcome(
            11,
            Status::Fail,
            "truncated:true without a next_cursor (§ 15)",
        ),
        Some(Value::Bool(tr)) => inv.outcome(
            11,
            Status::Pass,
            format!("--limit 1: {domain} event(s), truncated:{tr}"),
        ),
        _ => inv.outcome(
            11,
            Status::Fail,
            "--limit 1: the summary does not say truncated true or false (§ 15)",
        ),
    }
}

/// 12: a malformed input line is handled as the capabilities declare
/// (`malformed_mode`, § 12.2), and the tool's own stream still conforms.
pub(super) fn malformed_input(inv: &Invocation) -> CheckResult {
    let mode = inv
        .caps
        .and_then(|c| c.get("malformed_mode"))
        .and_then(Value::as_str);
    if inv.d.caps.is_none() {
        return unread_caps(12, inv.command);
    }
    if !reads_jsonl(inv.caps) {
        return inv.outcome(
            12,
            Status::NotApplicable,
            "reads no JSON Lines, per the capabilities",
        );
    }
    let Some(mode) = mode else {
        return inv.outcome(
            12,
            Status::NotTested,
            "reads JSON Lines but declares no malformed-input mode (§ 12.2)",
        );
    };
    on_malformed_line(inv, mode)
}

/// Check 12 once the capabilities declared `mode`: the tool fed
/// [`malformed_stream`].
fn on_malformed_line(inv: &Invocation, mode: &str) -> CheckResult {
    let p = inv.run_opts(&ProbeOpts {
        stdin: Some(malformed_stream()),
        ..ProbeOpts::default()
    });
    let jj = judge_bytes(&p.stdout);
    let conforming = jj
        .findings
        .iter()
        .all(|f| f.rule.severity() == Severity::Advisory);
    let sent = malformed_stream().len();
    if p.timed_out || stack_trace(&p.stderr_text()).is_some() {
        inv.outcome(
            12,
            Status::Fail,
            format!("a malformed input line: {}", p.status()),
        )
    } else if p.stdin_unread == Some(sent) {
        inv.outcome(12, Status::NotTested, "the invocation did not read its stdin (it names its input, e.g. a file): lint it reading stdin to test this")
    } else if !conforming {
        inv.outcome(
            12,
            Status::Fail,
            "a malformed input line broke the tool's own stream",
        )
        .with(jj.findings.iter().map(evidence_of).collect())
    } else if mode.contains("fail-fast") && p.exit() == 0 {
        inv.outcome(
            12,
            Status::Fail,
            "declared whole-input fail-fast, but a malformed line exits 0",
        )
    } else if !reported(&p, &jj) {
        inv.outcome(
            12,
            Status::Fail,
            format!("declared {mode}, but a malformed line went unreported (exit 0, no aoi:error)"),
        )
    } else {
        inv.outcome(
            12,
            Status::Pass,
            format!(
                "declared {mode}: the malformed line is reported ({}), the output conforms",
                p.status()
            ),
        )
    }
}

/// Whether a tool's output on [`malformed_stream`] tells of the bad line:
/// a failing exit, an `aoi:error`/`aoi:warning`, or a summary that counts
/// skipped lines (a log reader's way, `properties.skipped_lines`).
fn reported(p: &Probe, j: &Judged) -> bool {
    p.exit() != 0
        || j.events.iter().any(|e| {
            matches!(e["type"].as_str(), Some("aoi:error" | "aoi:warning"))
                || (e["type"] == "aoi:summary"
                    && e["properties"]["skipped_lines"]
                        .as_u64()
                        .is_some_and(|n| n > 0))
        })
}

/// 16: a known upstream stream is forwarded as § 13.1 says.
pub(super) fn upstream_forwarding(inv: &Invocation) -> CheckResult {
    if inv.d.caps.is_none() {
        return unread_caps(16, inv.command);
    }
    if !reads_jsonl(inv.caps) {
        return inv.outcome(
            16,
            Status::NotApplicable,
            "reads no JSON Lines, per the capabilities",
        );
    }
    let p = inv.run_opts(&ProbeOpts {
        stdin: Some(upstream_stream()),
        ..ProbeOpts::default()
    });
    let jj = judge_bytes(&p.stdout);
    upstream_check(inv, &p, &jj)
}

/// Check 16 on the output for [`upstream_stream`]: no upstream meta or
/// summary forwarded, `origin` on forwarded errors, and the upstream's
/// retry fields in `caused_by`.
fn upstream_check(inv: &Invocation, p: &Probe, j: &Judged) -> CheckResult {
    let mut problems = Vec::new();
    for e in &j.events {
        let ty = e["type"].as_str().unwrap_or_default();
        if matches!(ty, "aoi:meta" | "aoi:summary") && e["tool"] == "aoi-lint-upstream" {
            problems.push(format!("the upstream's {ty} was forwarded (§ 13.1)"));
        }
        if ty == "aoi:error" && e["code"] == "LINT_RATE_LIMITED" && e.get("origin").is_none() {
            problems.push("a forwarded aoi:error has no origin (§ 13.1)".into());
        }
    }
    let summary = j.events.last().filter(|e| e["type"] == "aoi:summary");
    match summary {
        None => problems.push(format!("no terminal aoi:summary ({})", p.status())),
        Some(s) if s["ok"] == false => caused_by(&s["caused_by"], &mut problems),
        Some(_) => {}
    }
    if problems.is_empty() {
        inv.outcome(
            16,
            Status::Pass,
            "no upstream meta or summary forwarded, origin on forwarded errors, the retry fields in caused_by",
        )
    } else {
        inv.outcome(16, Status::Fail, problems.join("; "))
            .with(problems)
    }
}

/// A failed run's `caused_by` carries the upstream's category, code and
/// retry fields (§ 13.1).
fn caused_by(c: &Value, problems: &mut Vec<String>) {
    if !c.is_object() {
        problems.push("ok:false without caused_by (§ 13.1)".into());
        return;
    }
    for (k, want) in [
        ("category", json!("rate_limited")),
        ("code", json!("LINT_RATE_LIMITED")),
        ("retryable", json!(true)),
        ("retry_after_ms", json!(1500)),
    ] {
        if c.get(k) != Some(&want) {
            problems.push(format!(
                "caused_by.{k} is {}, not the upstream's {want}",
                c.get(k).map_or("absent".into(), short)
            ));
        }
    }
}
