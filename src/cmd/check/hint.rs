//! One hint after the verdict when the input looks like a CI log (time
//! stamps, prefixes before each event) rather than a stream: `check`
//! judges a stream as it is (§ 2: every line an event), and the commands
//! that read a log's events are named once, not with every finding.

use crate::judge::Verdict;
use crate::rules::RuleId;

/// The hint for `v`, when most of its lines are not JSON (at least two):
/// what a log read as a stream gives.
pub(super) fn log_hint(v: &Verdict) -> Option<String> {
    let not_json = v
        .rule_counts
        .iter()
        .filter(|(r, _)| matches!(r, RuleId::LineNotJson | RuleId::LineAnsi))
        .map(|(_, n)| *n)
        .sum::<u64>();
    (not_json >= 2 && not_json.saturating_mul(2) >= v.lines).then(|| {
        format!(
            "aoi check: hint: {not_json} of {} line(s) are not JSON: a CI log (time stamps, prefixes)? \
             `--log` reads the events in one: aoi summary --log, aoi merge-report --log, aoi errors --log",
            v.lines
        )
    })
}
