//! A run that ended, resumed: the log reader frees the judge of a run once
//! its `aoi:summary` is read (memory bounded by the runs open at
//! once) and keeps only what judging a later line of it needs.

use super::{Judge, JudgeOptions, SummaryInfo};

/// What a judge keeps of a run whose summary was read: enough to judge a
/// line of it that comes later as the stream would have (§ 13.1: the
/// summary is the last line; a line after it is `summary.not_last`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resume {
    /// The line of the summary, named by the finding.
    pub summary_line: u64,
    /// The seq the next event must carry, when events carried one.
    next_seq: Option<u64>,
}

impl Judge {
    /// What judging a later line of this run needs, once its summary was
    /// read (`None` before).
    pub fn resume_point(&self) -> Option<Resume> {
        let s = self.summary.as_ref()?;
        Some(Resume {
            summary_line: s.line,
            next_seq: self.seq_seen.then_some(self.next_seq),
        })
    }

    /// A judge for the lines of run `raw_run` (a JSON string, quotes
    /// included) after its summary: the first is `summary.not_last`, each
    /// is judged as the run's own judge would (its seq continues), and
    /// nothing the whole run showed is reported again (no meta, no seq,
    /// no summary missing).
    pub fn resumed(opts: JudgeOptions, at: Resume, raw_run: Vec<u8>) -> Judge {
        let mut j = Judge::new(opts);
        j.summary = Some(SummaryInfo {
            line: at.summary_line,
            ..SummaryInfo::default()
        });
        j.meta_count = 1;
        if let Some(n) = at.next_seq {
            j.seq_seen = true;
            j.next_seq = n;
        }
        j.run = Some(raw_run);
        j
    }
}
