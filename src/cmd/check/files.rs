//! Many files checked at once (issue 29): workers judge the files, each
//! on one thread ([`crate::pool`]), keeping what the relay needs of them;
//! the caller relays, reports and says each in input order, so stdout, the
//! report and stderr are one thread's, byte for byte. When relayed, a file
//! over 1 MiB is judged in its turn instead, as with one thread.

use std::path::Path;

use super::{Findings, Tally};
use crate::cli::{CheckArgs, JudgeArgs};
use crate::drive::drive_source;
use crate::judge::{Finding, Judge, Verdict};
use crate::out::{Sinks, Stop, cancelled, open_input, source_for};

/// What a worker made of one input.
pub(super) enum Judged {
    /// Nothing yet: the input is read and judged in its turn.
    InTurn,
    /// It could not be opened: why.
    Unreadable(String),
    /// Read to its end and judged.
    Whole(Box<Whole>),
}

/// A small file judged whole: its bytes (when they are relayed), every
/// finding in the order found, and its verdict.
pub(super) struct Whole {
    bytes: Vec<u8>,
    findings: Vec<Finding>,
    verdict: Verdict,
}

impl Whole {
    /// Relays the file and reports its findings as the one thread would
    /// have; its verdict.
    pub(super) fn replay(
        self,
        sinks: &mut Sinks,
        found: &mut Findings<'_>,
    ) -> Result<Verdict, Stop> {
        sinks.relay(&self.bytes)?;
        for f in self.findings {
            found.take(f, sinks)?;
        }
        Ok(self.verdict)
    }
}

/// Judges the `inputs` (several regular files) as `plan` says and
/// takes each into `t` in input order.
pub(super) fn judge_at_once(
    args: &CheckArgs,
    sinks: &mut Sinks,
    inputs: &[&Path],
    plan: &crate::pool::Plan,
    t: &mut Tally,
) -> Result<(), Stop> {
    let judge = JudgeArgs {
        threads: 1,
        ..args.judge.clone()
    };
    let keep_bytes = sinks.relays();
    // Without a relay a worker keeps only findings (at most
    // --max-per-rule of each rule): files of any size go to workers.
    let work = |i: usize| match plan.small(i) || !keep_bytes {
        true => judge_whole(inputs[i], args, &judge, keep_bytes),
        false => Judged::InTurn,
    };
    let mut result = Ok(());
    plan.in_order(work, |i, judged| {
        // No new input after a stop request.
        result = cancelled().and_then(|()| t.take(args, sinks, inputs[i], judged));
        result.is_ok()
    });
    result
}

/// Reads and judges the file at `path` on this thread; nothing is said.
fn judge_whole(path: &Path, args: &CheckArgs, judge: &JudgeArgs, keep_bytes: bool) -> Judged {
    let file = match open_input(path) {
        Ok(f) => f,
        Err(msg) => return Judged::Unreadable(msg),
    };
    let mut j = Judge::new(judge.options(args.max_per_rule));
    let (mut bytes, mut findings) = (Vec::new(), Vec::new());
    // Nothing is written here: the callbacks cannot fail.
    let _: Result<(), ()> = drive_source(
        source_for(file, judge),
        &mut j,
        |_, _| Ok(()),
        |j, block| {
            if keep_bytes {
                bytes.extend_from_slice(block);
            }
            findings.extend(j.drain());
            Ok(())
        },
    );
    findings.extend(j.drain());
    let (verdict, last) = j.finish();
    findings.extend(last);
    Judged::Whole(Box::new(Whole {
        bytes,
        findings,
        verdict,
    }))
}
