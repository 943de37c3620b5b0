//! A probe's stdout judged by the same [`Judge`] as `aoi check`, and its
//! findings sorted into the § 18.2 checks they belong to: most checks of
//! an invocation read their result off this.

use serde_json::Value;

use super::result::{CheckResult, Status};
use crate::drive::drive;
use crate::judge::{Finding, Judge, JudgeOptions, Verdict};
use crate::rules::{RuleId, Severity};

/// A stream judged: the verdict, the findings (all of them) and the events.
pub(super) struct Judged {
    pub(super) verdict: Verdict,
    pub(super) findings: Vec<Finding>,
    pub(super) events: Vec<Value>,
}

/// Judges `bytes` as one stream, keeping every finding and every line
/// that is a JSON object.
pub(super) fn judge_bytes(bytes: &[u8]) -> Judged {
    let mut judge = Judge::new(JudgeOptions {
        per_rule_limit: 5,
        ..JudgeOptions::default()
    });
    let mut findings = Vec::new();
    let _ = drive(
        bytes,
        &mut judge,
        |_, _| Ok::<(), ()>(()),
        |j, _| {
            findings.extend(j.drain());
            Ok(())
        },
    );
    findings.extend(judge.drain());
    let (verdict, last) = judge.finish();
    findings.extend(last);
    // Only whole lines are events: a final line without its line feed is
    // discarded (§ 2; found by review: a cut "cancelled" summary counted).
    let whole = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..end],
        None => &[][..],
    };
    let events = whole
        .split(|&b| b == b'\n')
        .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
        .filter(Value::is_object)
        .collect();
    Judged {
        verdict,
        findings,
        events,
    }
}

/// The § 18 check a finding of `j` belongs to: [`RuleId::check`], except that
/// the summary's counters are check 15's only when the stream carries
/// `aoi.seq` (§ 18 #15: without it Verifiable is simply not claimed);
/// otherwise they are the terminal summary's (check 3).
fn check_in(rule: RuleId, j: &Judged) -> u8 {
    use RuleId::*;
    let counters = matches!(
        rule,
        SummaryEventCount | SummaryCount | SummaryWarningCount | SummaryErrorCount
    );
    let seq = j.events.iter().any(|e| e["aoi"]["seq"].is_u64());
    if counters && !seq { 3 } else { rule.check() }
}

/// A finding as evidence: `line N: message`.
pub(super) fn evidence_of(f: &Finding) -> String {
    let at = match f.line {
        0 => "the stream".to_string(),
        n => format!("line {n}"),
    };
    let message = f.message.replace('\n', " ⏎ ");
    format!("{at}: {message} [{}]", f.rule.id())
}

/// Pass, or fail with the violations (advisories are noted, never fail)
/// of check `n` among the findings.
pub(super) fn from_findings(n: u8, command: &str, j: &Judged, pass_detail: &str) -> CheckResult {
    let mine: Vec<&Finding> = j
        .findings
        .iter()
        .filter(|f| check_in(f.rule, j) == n)
        .collect();
    let failing: Vec<String> = mine
        .iter()
        .filter(|f| f.rule.severity() != Severity::Advisory)
        .map(|f| evidence_of(f))
        .collect();
    let advisories: Vec<String> = mine
        .iter()
        .filter(|f| f.rule.severity() == Severity::Advisory)
        .map(|f| evidence_of(f))
        .collect();
    if failing.is_empty() {
        let detail = if advisories.is_empty() {
            pass_detail.to_string()
        } else {
            format!("{pass_detail}; {} advisory finding(s)", advisories.len())
        };
        CheckResult::new(n, command, Status::Pass, detail).with(advisories)
    } else {
        let first = failing.first().cloned().unwrap_or_default();
        CheckResult::new(
            n,
            command,
            Status::Fail,
            format!("{} finding(s), first: {first}", failing.len()),
        )
        .with(failing)
    }
}

#[cfg(test)]
mod tests {
    use super::super::catalog::CHECKS;
    use super::*;

    #[test]
    fn rules_map_to_checks() {
        use RuleId::*;
        // A wrong count is check 15's only in a stream with seq (§ 18 #15).
        let with_seq = judge_bytes(b"{\"type\":\"aoi:meta\",\"aoi\":{\"seq\":0,\"run\":\"r\"}}\n");
        let without = judge_bytes(b"{\"type\":\"aoi:meta\"}\n");
        assert_eq!(check_in(SummaryCount, &with_seq), 15);
        assert_eq!(check_in(SummaryCount, &without), 3);
        assert_eq!(check_in(SeqGap, &without), 15);
        // Every rule maps to a check that exists (the catalog's map is
        // pinned in tests/golden/rules.txt).
        for r in RuleId::ALL {
            assert!(CHECKS.iter().any(|c| c.number == r.check()), "{}", r.id());
        }
    }
}
