//! The checks whose probe the capabilities call for (§ 17): confirmation
//! and dry-run of a destructive command (6), replay and ids (7, 8),
//! `--limit` of a bounded one (11), malformed input (12) and a known
//! upstream (16) for one that reads JSON Lines. Where the capabilities
//! say a check does not concern the command, it is not applicable.

use serde_json::{Map, Value, json};

use super::Invocation;
use crate::cmd::lint::caps::{flag, reads_jsonl, undeclared, unsaid};
use crate::cmd::lint::feeds::{clean_stream, malformed_stream, upstream_stream};
use crate::cmd::lint::probe::{Probe, ProbeOpts, stack_trace};
use crate::cmd::lint::result::{CheckResult, Status};
use crate::cmd::lint::stream::{Judged, evidence_of, from_findings, judge_bytes};
use crate::rules::Severity;
use crate::spec::exit;
use crate::spec::types;
use crate::validator_words::short;

/// Whether the command's capabilities advertise `--dry-run` (§ 14.2).
pub(in crate::cmd::lint) fn advertises_dry_run(caps: Option<&Map<String, Value>>) -> bool {
    flag(caps, "supports_dry_run") == Some(true)
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

/// The capabilities' entry for the command, or why a check that reads it
/// is not tested (none given, or no entry for it).
fn entry<'a>(
    inv: &Invocation<'a>,
    n: u8,
) -> Result<&'a serde_json::Map<String, Value>, CheckResult> {
    match (inv.d.caps.as_ref(), inv.caps) {
        (None, _) => Err(undeclared(n, inv.command, Some(inv.d.caps_absent))),
        (Some(_), None) => Err(undeclared(n, inv.command, None)),
        (Some(_), Some(c)) => Ok(c),
    }
}

/// 11: `--limit 1` of a bounded command gives at most one domain event
/// and a summary that says `truncated`, with `next_cursor` when true, and
/// `truncated:true` when the run without the limit showed more (§ 15).
pub(super) fn bounded_output(inv: &Invocation) -> CheckResult {
    let c = match entry(inv, 11) {
        Ok(c) => Some(c),
        Err(r) => return r,
    };
    let bounded = flag(c, "bounded") == Some(true) && flag(c, "supports_cursor") == Some(true)
        || flag(c, "supports_limit") == Some(true);
    if !bounded {
        return inv.outcome(
            11,
            Status::NotApplicable,
            "advertises no --limit (bounded with supports_cursor, or supports_limit, in its capabilities)",
        );
    }
    if let Some(r) = inv.streamless(11) {
        return r;
    }
    if inv.main.timed_out || inv.j.verdict.summary.is_none() {
        return inv.outcome(
            11,
            Status::NotTested,
            "the invocation itself ends without a summary (check 3)",
        );
    }
    if let Err(r) = inv.may_probe(11, "`--limit 1`") {
        return r;
    }
    let p = inv.run_with(&["--limit", "1"]);
    let jj = judge_bytes(&p.stdout);
    let summary = jj.events.last().filter(|e| e["type"] == types::SUMMARY);
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
        Some(s) => match truncation(inv, s, domain, &jj) {
            r if r.status == Status::Pass => follow_cursor(inv, s, r),
            r => r,
        },
    }
}

/// Check 11's cursor part (§ 15, § 18.2 #11 "cursor behavior"): with
/// `supports_cursor`, the `next_cursor` of a truncated run is taken by
/// `--cursor` and gives a run that ends with its summary (found by
/// review: a cursor that was a usage error passed).
fn follow_cursor(inv: &Invocation, s: &Value, passed: CheckResult) -> CheckResult {
    let cursor = s.get("next_cursor").and_then(Value::as_str);
    let Some(cursor) = cursor.filter(|_| flag(inv.caps, "supports_cursor") == Some(true)) else {
        return passed;
    };
    let p = inv.run_with(&["--limit", "1", "--cursor", cursor]);
    let jj = judge_bytes(&p.stdout);
    let ended = jj
        .events
        .last()
        .is_some_and(|e| e["type"] == types::SUMMARY);
    if super::usage_refused(&p) || !ended {
        return inv.outcome(
            11,
            Status::Fail,
            format!(
                "next_cursor {} is not taken: --cursor gives {}{}",
                short(&Value::from(cursor)),
                super::status_said(&p),
                if ended {
                    ""
                } else {
                    ", no terminal aoi:summary"
                }
            ),
        );
    }
    let mut r = passed;
    r.detail = format!("{}; --cursor next_cursor: {}", r.detail, p.status());
    r
}

/// Check 11 on the summary of a `--limit 1` run of `domain` events (its
/// stream `jj`); the run without the limit gave `all`. What the judge
/// says of § 15 is the judge's rules, at their severity, as in `aoi check`
/// (`truncated:true` without `next_cursor` is a SHOULD, noted);
/// what only this probe shows is lint's: no `truncated` at all, and
/// `truncated:false` where the run without the limit showed more.
fn truncation(inv: &Invocation, s: &Value, domain: u64, jj: &Judged) -> CheckResult {
    let all = inv.j.verdict.domain_events;
    let judged = from_findings(11, inv.command, jj, "");
    if judged.status == Status::Fail {
        return judged;
    }
    match s.get("truncated") {
        Some(Value::Bool(false)) if all > domain => inv.outcome(
            11,
            Status::Fail,
            format!(
                "--limit 1 gave {domain} of the {all} results the run without it gave, but says truncated:false (§ 15: truncated MUST be true)"
            ),
        ),
        Some(Value::Bool(tr)) => {
            let mut detail = format!("--limit 1: {domain} event(s) of {all}, truncated:{tr}");
            if !judged.evidence.is_empty() {
                detail.push_str(&format!("; {} advisory finding(s)", judged.evidence.len()));
            }
            inv.outcome(11, Status::Pass, detail).with(judged.evidence)
        }
        _ => inv.outcome(
            11,
            Status::Fail,
            "--limit 1: the summary does not say truncated true or false (§ 15)",
        ),
    }
}

/// Whether the command reads JSON Lines, or why checks 12 and 16 are not
/// tested or not applicable.
fn reads_input(inv: &Invocation, n: u8) -> Result<(), CheckResult> {
    let c = Some(entry(inv, n)?);
    match reads_jsonl(c) {
        Some(true) => Ok(()),
        Some(false) => Err(inv.outcome(
            n,
            Status::NotApplicable,
            "reads no JSON Lines, per the capabilities (input_jsonl, input_modes)",
        )),
        None => Err(unsaid(
            n,
            inv.command,
            "whether it reads JSON Lines on stdin",
            "input_jsonl or input_modes, aoi's keys: § 17 has none",
        )),
    }
}

/// 12: a malformed input line is handled as the capabilities declare
/// (`malformed_mode`, § 12.2), and the tool's own stream still conforms.
pub(super) fn malformed_input(inv: &Invocation) -> CheckResult {
    if let Err(r) = reads_input(inv, 12) {
        return r;
    }
    let mode = inv
        .caps
        .and_then(|c| c.get("malformed_mode"))
        .and_then(Value::as_str);
    let Some(mode) = mode else {
        return inv.outcome(
            12,
            Status::NotTested,
            "reads JSON Lines but declares no malformed-input mode (malformed_mode, § 12.2)",
        );
    };
    let Some(mode) = Mode::of(mode) else {
        return inv.outcome(
            12,
            Status::NotTested,
            format!(
                "malformed_mode {} is none of fail-fast, per-line tolerant, configurable (§ 12.2)",
                short(&Value::from(mode))
            ),
        );
    };
    if let Err(r) = inv.may_probe(12, "feeding it a malformed line") {
        return r;
    }
    on_malformed_line(inv, mode)
}

/// The malformed-input modes of § 12.2.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    FailFast,
    Tolerant,
    Configurable,
}

impl Mode {
    fn of(s: &str) -> Option<Mode> {
        let s = s.to_ascii_lowercase().replace('_', "-");
        if s.contains("fail-fast") || s.contains("whole") {
            Some(Mode::FailFast)
        } else if s.contains("tolerant") || s.contains("per-line") || s.contains("continue") {
            Some(Mode::Tolerant)
        } else if s.contains("configurable") {
            Some(Mode::Configurable)
        } else {
            None
        }
    }
    fn name(self) -> &'static str {
        match self {
            Mode::FailFast => "whole-input fail-fast",
            Mode::Tolerant => "per-line tolerant",
            Mode::Configurable => "configurable",
        }
    }
}

/// Check 12 once the capabilities declared `mode`: the tool fed
/// [`malformed_stream`], and the same without its bad line, so what it
/// did past the bad line shows against what it does without it.
fn on_malformed_line(inv: &Invocation, mode: Mode) -> CheckResult {
    let fed = |stdin: Vec<u8>| {
        inv.run_opts(&ProbeOpts {
            stdin: Some(stdin),
            ..ProbeOpts::default()
        })
    };
    let p = fed(malformed_stream());
    let jj = judge_bytes(&p.stdout);
    let sent = malformed_stream().len();
    let name = mode.name();
    if p.timed_out || stack_trace(&p.stderr_text()).is_some() {
        return inv.outcome(
            12,
            Status::Fail,
            format!("a malformed input line: {}", p.status()),
        );
    }
    if p.stdin_unread == Some(sent) {
        return inv.outcome(12, Status::NotTested, "the invocation did not read its stdin (it names its input, e.g. a file): lint it reading stdin to test this");
    }
    // What the tool gets wrong without the bad line too (a second meta,
    // a summary without reason) is another check's one finding, not this
    // one's too (found by review); so is forwarding the upstream's meta or
    // summary (check 16's).
    let clean = fed(clean_stream());
    let jc = judge_bytes(&clean.stdout);
    let forwards = forwards_upstream_frame(&jj);
    let broken: Vec<String> = jj
        .findings
        .iter()
        .filter(|f| f.rule.severity() != Severity::Advisory)
        .filter(|f| !jc.findings.iter().any(|c| c.rule == f.rule))
        .map(evidence_of)
        .collect();
    if !forwards && !broken.is_empty() {
        return inv
            .outcome(
                12,
                Status::Fail,
                "a malformed input line broke the tool's own stream",
            )
            .with(broken);
    }
    if mode == Mode::FailFast && p.exit() == 0 {
        return inv.outcome(
            12,
            Status::Fail,
            "declared whole-input fail-fast, but a malformed line exits 0",
        );
    }
    if !reported(&p, &jj) {
        return inv.outcome(
            12,
            Status::Fail,
            format!("declared {name}, but a malformed line went unreported (exit 0, no aoi:error)"),
        );
    }
    let clean = fed(clean_stream());
    went_on(
        inv,
        mode,
        &p,
        jj.verdict.domain_events,
        judge_bytes(&clean.stdout).verdict.domain_events,
    )
}

/// Check 12's behaviour part: a tolerant tool goes on past the bad line
/// (as many domain events as without it), a fail-fast one does not.
fn went_on(inv: &Invocation, mode: Mode, p: &Probe, bad: u64, clean: u64) -> CheckResult {
    let name = mode.name();
    let said = format!("{name}: the malformed line is reported ({})", p.status());
    if clean == 0 || mode == Mode::Configurable {
        let why = match mode {
            Mode::Configurable => "which default it takes is not declared",
            _ => {
                "it writes no domain events for this input, so what it did past the bad line does not show"
            }
        };
        return inv.outcome(
            12,
            Status::NotTested,
            format!("{said}; whether it went on is not observed ({why})"),
        );
    }
    match mode {
        Mode::Tolerant if bad < clean => inv.outcome(
            12,
            Status::Fail,
            format!("declared {name}, but it stopped at the bad line: {bad} domain event(s), {clean} without the bad line"),
        ),
        Mode::FailFast if bad >= clean => inv.outcome(
            12,
            Status::Fail,
            format!("declared {name}, but it went on past the bad line: {bad} domain event(s), as many as without it ({clean})"),
        ),
        _ => inv.outcome(
            12,
            Status::Pass,
            format!("{said}; {bad} domain event(s) against {clean} without the bad line, as the mode says"),
        ),
    }
}

/// Whether a tool's output holds the known upstream's own `aoi:meta` or
/// `aoi:summary` (§ 13.1 forbids forwarding them).
fn forwards_upstream_frame(j: &Judged) -> bool {
    j.events.iter().any(|e| {
        matches!(e["type"].as_str(), Some(types::META | types::SUMMARY))
            && e["tool"] == "aoi-lint-upstream"
    })
}

/// Whether a tool's output on [`malformed_stream`] tells of the bad line:
/// a failing exit, an `aoi:error`/`aoi:warning`, or a summary that counts
/// skipped lines (a log reader's way, `properties.skipped_lines`).
fn reported(p: &Probe, j: &Judged) -> bool {
    p.exit() != 0
        || j.events.iter().any(|e| {
            matches!(e["type"].as_str(), Some(types::ERROR | types::WARNING))
                || (e["type"] == types::SUMMARY
                    && e["properties"]["skipped_lines"]
                        .as_u64()
                        .is_some_and(|n| n > 0))
        })
}

/// 16: a known upstream stream is forwarded as § 13.1 says.
pub(super) fn upstream_forwarding(inv: &Invocation) -> CheckResult {
    if let Err(r) = reads_input(inv, 16) {
        return r;
    }
    if let Err(r) = inv.may_probe(16, "feeding it a known upstream") {
        return r;
    }
    let p = inv.run_opts(&ProbeOpts {
        stdin: Some(upstream_stream()),
        ..ProbeOpts::default()
    });
    if p.stdin_unread == Some(upstream_stream().len()) {
        return inv.outcome(16, Status::NotTested, "the invocation did not read its stdin (it names its input, e.g. a file): lint it reading stdin to test this");
    }
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
        if matches!(ty, types::META | types::SUMMARY) && e["tool"] == "aoi-lint-upstream" {
            problems.push(format!("the upstream's {ty} was forwarded (§ 13.1)"));
        }
        if ty == types::ERROR && e["code"] == "LINT_RATE_LIMITED" {
            forwarded_error(e, &mut problems);
        }
    }
    let summary = j.events.last().filter(|e| e["type"] == types::SUMMARY);
    // § 13.1: an upstream aoi:error fails the run unless the tool was
    // told to go on (ok:true after it passed).
    let goes_on = inv.argv.iter().any(|w| w == "--continue-on-error");
    match summary {
        None => problems.push(format!("no terminal aoi:summary ({})", p.status())),
        Some(s) if s["ok"] == false => caused_by(&s["caused_by"], &mut problems),
        Some(_) if goes_on => {}
        Some(s) => problems.push(format!(
            "ok:{} ({}) after the upstream's aoi:error (rate_limited): § 13.1 makes the run fail unless --continue-on-error",
            s.get("ok").map_or("absent".into(), short),
            p.status()
        )),
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

/// A forwarded upstream `aoi:error` carries `origin` and keeps its retry
/// detail (§ 13.1: "retry detail MUST survive the pipe"; found by review).
fn forwarded_error(e: &Value, problems: &mut Vec<String>) {
    if e.get("origin").is_none() {
        problems.push("a forwarded aoi:error has no origin (§ 13.1)".into());
    }
    for (k, want) in [("retryable", json!(true)), ("retry_after_ms", json!(1500))] {
        if e.get(k) != Some(&want) {
            problems.push(format!(
                "the forwarded aoi:error's {k} is {}, not the upstream's {want} (§ 13.1: retry detail must survive the pipe)",
                e.get(k).map_or("absent".into(), short)
            ));
        }
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
