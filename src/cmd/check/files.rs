//! Many files checked at once: workers judge the files, each
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

/// A file judged whole: its bytes (when they are relayed), the findings
/// it keeps in the order found, where each block read ended in both, and
/// its verdict.
pub(super) struct Whole {
    bytes: Vec<u8>,
    findings: Vec<Finding>,
    blocks: Vec<(usize, usize)>,
    verdict: Verdict,
}

/// What a kept finding is counted as, in bytes, against a worker's room.
const FINDING_BYTES: usize = 256;

impl Whole {
    /// Relays the file and reports its findings as the one thread would
    /// have, block by block, the report flushed after each (what a reader
    /// of stdout and stderr together sees, and where a closed pipe is
    /// found); its verdict.
    pub(super) fn replay(
        self,
        sinks: &mut Sinks,
        found: &mut Findings<'_>,
    ) -> Result<Verdict, Stop> {
        let mut findings = self.findings.into_iter();
        let (mut at, mut taken) = (0, 0);
        for (end, found_end) in self.blocks {
            sinks.relay(self.bytes.get(at..end).unwrap_or_default())?;
            for f in findings.by_ref().take(found_end - taken) {
                found.take(f, sinks)?;
            }
            sinks.out.flush()?;
            (at, taken) = (end, found_end);
        }
        for f in findings {
            found.take(f, sinks)?;
        }
        Ok(self.verdict)
    }

    /// What it keeps, in bytes (estimated).
    fn held(&self) -> usize {
        self.bytes.len() + self.findings.len() * FINDING_BYTES
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
    let keep = Keep {
        bytes: sinks.relays(),
        // Without a report only the findings shown on stderr are used.
        findings: if sinks.has_report() {
            usize::MAX
        } else {
            args.show
        },
    };
    // Without a relay, a file of any size may go to a worker: what it
    // keeps is bounded by its room, past which it is read in its turn.
    let work = |i: usize, room: usize| match (plan.small(i) || !keep.bytes) && room > 0 {
        true => judge_whole(inputs[i], args, &judge, keep, room),
        false => (Judged::InTurn, 0),
    };
    let mut result = Ok(());
    plan.in_order(work, |i, judged| {
        // No new input after a stop request.
        result = cancelled().and_then(|()| t.take(args, sinks, inputs[i], judged));
        result.is_ok()
    });
    result
}

/// What a worker keeps of a file: its bytes or not, and how many
/// findings.
#[derive(Clone, Copy)]
struct Keep {
    bytes: bool,
    findings: usize,
}

/// Reads and judges the file at `path` on this thread, keeping at most
/// `room` bytes of it; nothing is said. Returns what it made and the
/// bytes it keeps.
fn judge_whole(
    path: &Path,
    args: &CheckArgs,
    judge: &JudgeArgs,
    keep: Keep,
    room: usize,
) -> (Judged, usize) {
    let file = match open_input(path) {
        Ok(f) => f,
        Err(msg) => return (Judged::Unreadable(msg), 0),
    };
    let mut j = Judge::new(judge.options(args.max_per_rule));
    let (mut bytes, mut findings, mut blocks) = (Vec::new(), Vec::new(), Vec::new());
    let kept = |findings: &mut Vec<Finding>, found: Vec<Finding>| {
        let left = keep.findings.saturating_sub(findings.len());
        findings.extend(found.into_iter().take(left));
    };
    let held =
        |bytes: &Vec<u8>, findings: &Vec<Finding>| bytes.len() + findings.len() * FINDING_BYTES;
    // Nothing is written here: a callback fails only past the room.
    let read = drive_source(
        source_for(file, judge),
        &mut j,
        |_, _| Ok(()),
        |j, block| {
            if keep.bytes {
                bytes.extend_from_slice(block);
            }
            kept(&mut findings, j.drain().collect());
            blocks.push((bytes.len(), findings.len()));
            (held(&bytes, &findings) <= room).then_some(()).ok_or(())
        },
    );
    if read.is_err() {
        return (Judged::InTurn, 0);
    }
    kept(&mut findings, j.drain().collect());
    let (verdict, last) = j.finish();
    kept(&mut findings, last);
    let w = Whole {
        bytes,
        findings,
        blocks,
        verdict,
    };
    match w.held() {
        n if n <= room => (Judged::Whole(Box::new(w)), n),
        _ => (Judged::InTurn, 0),
    }
}
