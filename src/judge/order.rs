//! The order of `aoi.seq` (§ 8.1), one cause, one finding: a
//! forward jump is held until it is settled, since the seqs it skipped may
//! still come. If they all come late, the lines were reordered (one "out of
//! order" finding); if some never come, lines were lost (one gap finding).
//! Either is reported at the jump's line. Memory is bounded: at most
//! [`MAX_JUMPS`] jumps of at most [`HOLE`] seqs each are held, and a jump is
//! settled once the stream has moved [`HOLE`] seqs past it, or at the end
//! of input (not at the summary: a line may come after it, out of order).
//! A longer jump (elided output) is a gap at once, and its skipped seqs
//! that still come are its finding's. A jump settled while the stream
//! goes on says its lines were not seen while they were awaited, and those
//! that still come are its finding's too.

use std::collections::VecDeque;

use super::Judge;
use crate::rules::RuleId;

/// The most seqs one held jump skips (one bit each), and how far past a
/// jump a late line is still looked for.
const HOLE: u64 = 64;
/// The most jumps held at once; a new one settles the oldest.
const MAX_JUMPS: usize = 8;
/// The most jumps settled early whose late lines are still recognised.
const SETTLED: usize = 64;

/// A forward jump of `aoi.seq` not yet settled.
#[derive(Debug, Clone)]
pub(super) struct Jump {
    /// Where it was: the finding's line and seq.
    line: u64,
    seq: u64,
    /// The first seq it skipped; it skipped `expected..seq`.
    expected: u64,
    /// The skipped seqs that came since, one bit each from `expected`.
    late: u64,
    /// The stream's first seq was 1: settled without 0, the stream counts
    /// from 1 (`seq.start`); with 0 after it, two lines were swapped.
    start: bool,
}

impl Jump {
    fn skipped(&self) -> u64 {
        self.seq - self.expected
    }

    fn came(&self) -> u64 {
        u64::from(self.late.count_ones())
    }

    /// Whether seq `v` is one it skipped that has not come yet.
    fn awaits(&self, v: u64) -> bool {
        (self.expected..self.seq).contains(&v) && self.late & (1 << (v - self.expected)) == 0
    }
}

/// The held jumps and the replay of seqs already seen.
#[derive(Debug, Default, Clone)]
pub(super) struct Order {
    jumps: VecDeque<Jump>,
    /// Jumps settled before the stream ended (held too long, or too many
    /// at once), as the seqs they still awaited: a line of them that
    /// comes later is that finding's, not one more (found by review).
    settled: VecDeque<Jump>,
    /// Jumps longer than [`HOLE`], reported at once as the seqs they
    /// skipped (`expected..seq`): a line of them that comes later is that
    /// finding's, not a "repeated" one more (one cause, one finding).
    long: VecDeque<(u64, u64)>,
    /// The line just placed is seq 0, come after a first seq of 1 (the
    /// first two lines swapped): an `aoi:meta` there is not also
    /// `meta.not-first`, the one cause being the order.
    pub(super) zero_came_late: bool,
    /// After a repeated seq, the seq that continues it: a stream
    /// written twice (or a block of it) is one finding, not one per line.
    replay: Option<u64>,
}

impl Judge {
    /// Seq `v` against the one expected, after the checks of the stream's
    /// start: in order, a jump held, a late line, or a repeat.
    pub(super) fn seq_place(&mut self, v: u64) {
        self.order.zero_came_late = false;
        let expected = self.next_seq;
        if v >= expected {
            self.order.replay = None;
            if v > expected {
                self.seq_jump(expected, v);
            }
            self.next_seq = v.saturating_add(1);
            self.settle_passed();
        } else if let Some(i) = self.order.jumps.iter().position(|j| j.awaits(v)) {
            self.seq_late(i, v);
        } else if let Some(j) = self.order.settled.iter_mut().find(|j| j.awaits(v)) {
            j.late |= 1 << (v - j.expected);
        } else if self.order.long.iter().any(|r| (r.0..r.1).contains(&v)) {
            // A line of a long jump already reported: that finding's.
        } else if self.order.replay == Some(v) {
            self.order.replay = Some(v.saturating_add(1));
        } else {
            self.order.replay = Some(v.saturating_add(1));
            self.here(
                RuleId::SeqGap,
                format!("expected aoi.seq {expected}, found {v}: repeated or out of order"),
            );
        }
    }

    /// The stream's first seq is 1: held as a jump over 0, so that a 0
    /// that comes next (the first two lines swapped) is one "out of order"
    /// finding, not a `seq.start` and a repeat (found by review).
    pub(super) fn seq_first_is_one(&mut self) {
        self.seq_jump(0, 1);
        if let Some(j) = self.order.jumps.back_mut() {
            j.start = true;
        }
        self.next_seq = 2;
    }

    /// A forward jump: held when it is short enough to be a reordering.
    fn seq_jump(&mut self, expected: u64, v: u64) {
        if v - expected > HOLE {
            self.here(RuleId::SeqGap, gap_message(expected, v, v - expected, 0));
            if self.order.long.len() == SETTLED {
                self.order.long.pop_front();
            }
            self.order.long.push_back((expected, v));
            return;
        }
        if self.order.jumps.len() == MAX_JUMPS {
            self.settle_early();
        }
        self.order.jumps.push_back(Jump {
            line: self.pos,
            seq: v,
            expected,
            late: 0,
            start: false,
        });
    }

    /// A skipped seq came late: when it was the jump's last, the jump was
    /// a reordering, and that is its one finding.
    fn seq_late(&mut self, i: usize, v: u64) {
        let Some(j) = self.order.jumps.get_mut(i) else {
            return;
        };
        j.late |= 1 << (v - j.expected);
        self.order.zero_came_late = j.start;
        if j.came() == j.skipped() {
            if let Some(j) = self.order.jumps.remove(i) {
                let skipped = seqs(j.expected, j.seq);
                let message = format!(
                    "expected aoi.seq {}, found {}: out of order ({skipped} came later; nothing is missing)",
                    j.expected, j.seq
                );
                self.report_seq(RuleId::SeqGap, j.line, Some(j.seq), message);
            }
        }
    }

    /// Settles the jumps the stream has moved far past.
    fn settle_passed(&mut self) {
        while self
            .order
            .jumps
            .front()
            .is_some_and(|j| self.next_seq > j.seq.saturating_add(HOLE))
        {
            self.settle_early();
        }
    }

    /// Settles the oldest held jump while the stream goes on: what it
    /// skipped was not seen within [`HOLE`] seqs, which may yet come; those
    /// that do are its finding's (kept in [`Order::settled`]).
    fn settle_early(&mut self) {
        self.settle_waiting(
            "not seen before aoi stopped waiting for them (lost, or far out of order)",
        );
    }

    /// Settles the oldest held jump while lines may still come: its
    /// finding says what was not seen, `what`, and it is remembered.
    fn settle_waiting(&mut self, what: &str) {
        if let Some(j) = self.order.jumps.pop_front() {
            if j.start {
                self.seq_starts_at_one(&j);
                self.remember_settled(j);
                return;
            }
            let message = format!(
                "expected aoi.seq {}, found {}: {} line(s) {what}",
                j.expected,
                j.seq,
                j.skipped() - j.came()
            );
            self.report_seq(RuleId::SeqGap, j.line, Some(j.seq), message);
            self.remember_settled(j);
        }
    }

    /// Keeps a jump settled early, so its late lines are its finding's.
    fn remember_settled(&mut self, j: Jump) {
        if self.order.settled.len() == SETTLED {
            self.order.settled.pop_front();
        }
        self.order.settled.push_back(j);
    }

    /// The stream counts from 1: one finding, its seqs taken as numbered
    /// from there.
    fn seq_starts_at_one(&mut self, j: &Jump) {
        self.report_seq(
            RuleId::SeqStart,
            j.line,
            Some(j.seq),
            "aoi.seq starts at 1, not 0; the seqs that follow are in order".into(),
        );
    }

    /// Settles every held jump at the end of input: what never came is
    /// missing.
    pub(super) fn settle_jumps(&mut self) {
        while !self.order.jumps.is_empty() {
            self.settle_first();
        }
    }

    /// The oldest held jump is settled as a gap: what it skipped and never
    /// came is missing.
    fn settle_first(&mut self) {
        if let Some(j) = self.order.jumps.pop_front() {
            if j.start {
                self.seq_starts_at_one(&j);
                return;
            }
            let message = gap_message(j.expected, j.seq, j.skipped() - j.came(), j.came());
            self.report_seq(RuleId::SeqGap, j.line, Some(j.seq), message);
        }
    }
}

/// The gap finding: `missing` line(s) never came, `late` came out of order.
fn gap_message(expected: u64, found: u64, missing: u64, late: u64) -> String {
    let late = if late > 0 {
        format!(" ({late} other(s) came later, out of order)")
    } else {
        String::new()
    };
    format!("expected aoi.seq {expected}, found {found}: {missing} line(s) missing{late}")
}

/// `a..b` for a message: `seq 2`, or `seqs 2 to 4`.
fn seqs(a: u64, b: u64) -> String {
    if b - a == 1 {
        format!("seq {a}")
    } else {
        format!("seqs {a} to {}", b - 1)
    }
}
