//! Check 6 (§ 14.2, § 14.3, § 18.2): a destructive command refuses to run
//! without confirmation, and a dry run, where advertised, emits
//! `aoi:plan` events and changes nothing. Each part passes only on what
//! lint saw: a refusal is a failure that names the
//! confirmation (its message or code says `confirm`, `--yes` or
//! `--force`), not any failure (`not_found` after the resource was already gone is not one);
//! a dry run's side effects are looked for with a second dry run, which
//! must plan the same. The user's own run counts as the unconfirmed run
//! or the dry run when it is one; other runs need `--allow-side-effects`.

use serde_json::Value;

use super::{Invocation, declared::advertises_dry_run};
use crate::cmd::lint::caps::flag;
use crate::cmd::lint::consent::Effect;
use crate::cmd::lint::probe::Probe;
use crate::cmd::lint::result::{CheckResult, Status};
use crate::cmd::lint::stream::judge_bytes;
use crate::spec::types;

/// What one part of the check saw: `Ok(note)` passed, `Err(Some(why))`
/// failed, `Err(None)` with a note not observed.
enum Part {
    Passed(String),
    Failed(String),
    Unseen(String),
}

/// 6: confirmation and dry run.
pub(super) fn confirm_and_dry_run(inv: &Invocation) -> CheckResult {
    let dry = advertises_dry_run(inv.caps) || inv.guards.dry_run;
    match &inv.effect {
        Effect::Destructive(_) => {}
        Effect::Mutating(_) if dry => {}
        Effect::ReadOnly => {
            return inv.outcome(6, Status::NotApplicable, "read-only, per the capabilities");
        }
        Effect::Mutating(why) => {
            return inv.outcome(
                6,
                Status::NotApplicable,
                format!("changes state ({why}) but is not destructive and advertises no dry run"),
            );
        }
        Effect::Unmarked if flag(inv.caps, "destructive") == Some(false) => {
            return inv.outcome(
                6,
                Status::NotApplicable,
                "not destructive, per the capabilities",
            );
        }
        Effect::Unmarked => {
            return inv.outcome(
                6,
                Status::NotTested,
                "neither the capabilities (destructive, read_only) nor its name say whether it is destructive",
            );
        }
    }
    let mut parts = Vec::new();
    if matches!(inv.effect, Effect::Destructive(_)) {
        parts.push(refusal(inv));
    }
    if dry {
        parts.push(dry_run(inv));
    }
    verdict(inv, parts)
}

/// The parts together: any failure fails; a pass needs every part seen.
fn verdict(inv: &Invocation, parts: Vec<Part>) -> CheckResult {
    let mut failed = Vec::new();
    let mut unseen = Vec::new();
    let mut passed = Vec::new();
    for p in parts {
        match p {
            Part::Passed(s) => passed.push(s),
            Part::Failed(s) => failed.push(s),
            Part::Unseen(s) => unseen.push(s),
        }
    }
    let all: Vec<String> = failed
        .iter()
        .chain(&unseen)
        .chain(&passed)
        .cloned()
        .collect();
    let status = match (failed.is_empty(), unseen.is_empty()) {
        (false, _) => Status::Fail,
        (true, false) => Status::NotTested,
        (true, true) => Status::Pass,
    };
    inv.outcome(6, status, all.join("; "))
}

/// The unconfirmed run: the user's when it had no confirmation, else one
/// of lint's (with consent).
fn refusal(inv: &Invocation) -> Part {
    let own = inv.guards.confirm.is_empty() && !inv.guards.dry_run;
    let p = if own {
        inv.user.clone()
    } else if inv.rerun {
        inv.run_words(&inv.guards.bare, &inv.base)
    } else {
        return Part::Unseen(format!(
            "the refusal without confirmation is not observed: the command line confirms or dry-runs, and running it without would change state ({}); --allow-side-effects to let lint",
            inv.effect.why()
        ));
    };
    let whose = if own {
        "as given"
    } else {
        "without its confirmation"
    };
    if p.exit() == 0 && !p.timed_out {
        return Part::Failed(format!(
            "ran {whose}, without confirmation: exit 0 (§ 14.3: destructive operations MUST require explicit confirmation)"
        ));
    }
    if p.timed_out {
        return Part::Failed(format!("run {whose}: {}", p.status()));
    }
    if refused_for_confirmation(&p) {
        Part::Passed(format!("refused {whose} ({})", super::status_said(&p)))
    } else {
        Part::Unseen(format!(
            "run {whose}, it failed ({}) but not recognisably for want of confirmation (its message or code names no confirmation: confirm, --yes, --force): the resource may be gone, an operand missing, or the run failed otherwise",
            super::status_said(&p)
        ))
    }
}

/// Whether a failed run refused for want of confirmation: what it says
/// (stderr, or an `aoi:error`'s code or message) names the confirmation
/// (`confirm`, `--yes`, `--force`). A usage error alone is not enough: a
/// missing operand is one too (found by review).
fn refused_for_confirmation(p: &Probe) -> bool {
    let names = |t: &str| {
        let t = t.to_ascii_lowercase();
        t.contains("confirm") || t.contains("--yes") || t.contains("--force")
    };
    names(&p.stderr_text())
        || judge_bytes(&p.stdout).events.iter().any(|e| {
            e["type"] == types::ERROR
                && [&e["message"], &e["code"], &e["hint"]]
                    .iter()
                    .any(|v| v.as_str().is_some_and(names))
        })
}

/// The dry run: it exits 0 with `aoi:plan` events, and a second one plans
/// the same (the first changed nothing a dry run sees).
fn dry_run(inv: &Invocation) -> Part {
    let own = inv.guards.dry_run && inv.guards.confirm.is_empty();
    let words =
        crate::cmd::lint::invocation::with_words(&inv.guards.bare, inv.prefix, &["--dry-run"]);
    let first = if own {
        inv.user.clone()
    } else if inv.rerun {
        inv.run_words(&words, &inv.base)
    } else {
        return Part::Unseen(format!(
            "the dry run is not observed: it would run the command again ({}); --allow-side-effects to let lint",
            inv.effect.why()
        ));
    };
    let plans = plans_of(&first);
    if first.exit() != 0 || plans.is_empty() {
        return Part::Failed(format!(
            "--dry-run: {} with {} aoi:plan event(s) (§ 14.2: a dry run emits aoi:plan events)",
            super::status_said(&first),
            plans.len()
        ));
    }
    if !inv.rerun {
        return Part::Unseen(format!(
            "--dry-run planned {} step(s); whether it changed state is not observed (a second dry run would run the command again; --allow-side-effects)",
            plans.len()
        ));
    }
    let second = inv.run_words(&words, &inv.base);
    let again = plans_of(&second);
    if again != plans {
        return Part::Failed(format!(
            "a second --dry-run planned differently ({} step(s), then {}; {}): the first dry run changed state (§ 18.2 #6: it performs no side effects)",
            plans.len(),
            again.len(),
            second.status()
        ));
    }
    Part::Passed(format!(
        "--dry-run planned {} step(s), and a second dry run the same (no side effect visible to it; what a dry run cannot see is not observed)",
        plans.len()
    ))
}

/// A run's `aoi:plan` events without their envelopes (a second run has
/// its own `run` id).
fn plans_of(p: &Probe) -> Vec<Value> {
    judge_bytes(&p.stdout)
        .events
        .into_iter()
        .filter(|e| e["type"] == types::PLAN)
        .map(|mut e| {
            if let Some(o) = e.as_object_mut() {
                o.remove("aoi");
            }
            e
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(code: i32, stdout: &str, stderr: &str) -> Probe {
        Probe {
            code: Some(code),
            stdout: stdout.as_bytes().to_vec(),
            stderr: stderr.as_bytes().to_vec(),
            ..Probe::default()
        }
    }

    /// A refusal names the confirmation; a usage error for a missing
    /// operand, or `not_found` after the resource went, is no refusal
    /// (found by review).
    #[test]
    fn a_refusal_names_the_confirmation() {
        assert!(refused_for_confirmation(&probe(
            64,
            "",
            "refusing to delete x without --confirm"
        )));
        assert!(refused_for_confirmation(&probe(
            1,
            "",
            "pass --yes to delete"
        )));
        let stream = r#"{"type":"aoi:error","category":"usage","code":"CONFIRM_REQUIRED","message":"m"}
"#;
        assert!(refused_for_confirmation(&probe(64, stream, "")));
        assert!(!refused_for_confirmation(&probe(
            64,
            "",
            "usage: nd delete ID"
        )));
        let gone = r#"{"type":"aoi:error","category":"not_found","code":"NOT_FOUND","message":"no res-1"}
"#;
        assert!(!refused_for_confirmation(&probe(1, gone, "")));
    }
}
