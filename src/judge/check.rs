//! A whole stream judged in one call: what `aoi check` does, for a
//! library user that holds a reader.

use std::io::Read;

use super::{Finding, Judge, JudgeOptions, Verdict};

/// Judges the stream `reader` yields, to its end, with the default
/// options (a bounded operation, § 4): the [`Verdict`] and every finding
/// in the stream's order (at most [`JudgeOptions::per_rule_limit`] of one
/// rule; the verdict counts them all). A read error ends the stream as
/// incomplete (`input.io-error`), as in `aoi check`.
///
/// ```
/// let stream = b"{\"type\":\"hit\"}\n";
/// let (verdict, findings) = aoi::judge::check(&stream[..]);
/// assert_eq!(verdict.exit_code, 74); // no aoi:summary: incomplete (§ 4)
/// let absent = findings.iter().find(|f| f.rule.id() == "seq.absent").expect("seq.absent");
/// assert!(absent.to_string().starts_with("stream: advisory seq.absent (§ 8.1, § 18): "), "{absent}");
/// ```
pub fn check<R: Read>(reader: R) -> (Verdict, Vec<Finding>) {
    check_with(reader, JudgeOptions::default())
}

/// [`check`] with options (`unbounded`, `fail_on_partial`, the per-rule
/// limit).
pub fn check_with<R: Read>(reader: R, opts: JudgeOptions) -> (Verdict, Vec<Finding>) {
    let mut judge = Judge::new(opts);
    let mut findings = Vec::new();
    let never: Result<(), std::convert::Infallible> = crate::drive::drive(
        reader,
        &mut judge,
        |_, _| Ok(()),
        |j, _| {
            findings.extend(j.drain());
            Ok(())
        },
    );
    let Ok(()) = never;
    let (verdict, rest) = judge.finish();
    findings.extend(rest);
    (verdict, findings)
}
