//! The words and figures every format shares: the verdict word, the
//! counts line, the tally of outcomes, a short run id.

use std::fmt::Write as _;

use super::standing::Standing;
use crate::spec::exit::Code;

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

pub(super) fn verdict_word(code: Code) -> String {
    if code.is_ok() {
        "ok".to_string()
    } else {
        format!("FAIL (exit {code})")
    }
}

/// The verdict and the stream that decided it, in one line for stderr
/// (made safe there, whole).
pub(super) fn why_line(standing: &Standing, code: Code) -> String {
    let mut s = format!("{}: {}", verdict_word(code), summary_line(standing));
    if let Some(who) = standing.first_at(code) {
        let _ = write!(s, "; first at exit {code}: {who}");
    }
    s
}

pub(super) fn summary_line(standing: &Standing) -> String {
    let (lines, domain, warnings, errors, violations) = standing.totals;
    let tally: Vec<String> = standing
        .tally()
        .into_iter()
        .map(|(o, n, _)| format!("{n} {o}"))
        .collect();
    format!(
        "{} stream(s): {}; {lines} line(s), {domain} domain event(s), {warnings} warning(s), {errors} error(s), {violations} violation(s)",
        standing.streams,
        if tally.is_empty() {
            "none".to_string()
        } else {
            tally.join(", ")
        }
    )
}
