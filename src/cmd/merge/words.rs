//! The words and figures every format shares: the verdict word, the
//! counts line, the tally of outcomes, a short run id.

use std::fmt::Write as _;

use super::entry::{Entry, cause_text};
use crate::judge::Outcome;
use crate::out::sanitize;
use crate::spec::exit;

/// The outcomes and how many streams had each, worst first.
pub(super) fn tally(entries: &[Entry]) -> Vec<(Outcome, u64, i32)> {
    let mut t: Vec<(Outcome, u64, i32)> = Vec::new();
    for e in entries {
        match t.iter_mut().find(|(o, _, _)| *o == e.outcome) {
            Some(x) => x.1 += 1,
            None => t.push((e.outcome, 1, e.exit_code)),
        }
    }
    t.sort_by_key(|(_, _, c)| std::cmp::Reverse(exit::rank(*c)));
    t
}

pub(super) fn totals(entries: &[Entry]) -> (u64, u64, u64, u64, u64) {
    // Saturating: carried counts are any integers a report held.
    entries.iter().fold((0, 0, 0, 0, 0), |t, e| {
        (
            t.0.saturating_add(e.lines),
            t.1.saturating_add(e.domain),
            t.2.saturating_add(e.warnings),
            t.3.saturating_add(e.errors),
            t.4.saturating_add(e.violations),
        )
    })
}

/// The last 8 characters of a run id (a ULID's random part).
pub(super) fn short_run(run: &Option<String>) -> String {
    match run {
        Some(r) => {
            let n = r.chars().count();
            r.chars().skip(n.saturating_sub(8)).collect()
        }
        None => "-".to_string(),
    }
}

pub(super) fn verdict_word(code: i32) -> String {
    if code == 0 {
        "ok".to_string()
    } else {
        format!("FAIL (exit {code})")
    }
}

/// The verdict and the stream that decided it, in one line for stderr.
pub(super) fn why_line(entries: &[Entry], code: i32) -> String {
    let mut s = format!("{}: {}", verdict_word(code), summary_line(entries));
    if let Some(e) = entries.iter().find(|e| e.exit_code == code) {
        let mut who = e.source.clone();
        if let Some(r) = &e.run {
            let _ = write!(who, " run {r}");
        }
        let _ = write!(
            s,
            "; first at exit {code}: {who}: {} {}",
            e.outcome,
            cause_text(e)
        );
    }
    sanitize(&s)
}

pub(super) fn summary_line(entries: &[Entry]) -> String {
    let (lines, domain, warnings, errors, violations) = totals(entries);
    let tally: Vec<String> = tally(entries)
        .into_iter()
        .map(|(o, n, _)| format!("{n} {o}"))
        .collect();
    format!(
        "{} stream(s): {}; {lines} line(s), {domain} domain event(s), {warnings} warning(s), {errors} error(s), {violations} violation(s)",
        entries.len(),
        if tally.is_empty() {
            "none".to_string()
        } else {
            tally.join(", ")
        }
    )
}
