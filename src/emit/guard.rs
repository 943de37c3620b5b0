//! The producer's judge: every line a [`Producer`](super::Producer) is
//! about to write is judged first by the same [`Judge`] `aoi check` runs,
//! so the rules a stream is held to at write time are the judge's own
//! code, not a copy that could drift from it.
//!
//! The guard keeps two judges fed the same accepted lines: `live` judges
//! the candidate line; when the line breaks a rule it is refused, nothing
//! is written and `live` is restored from `spare` (a clone, paid only on
//! a refusal). An accepted line is given to `spare` too, so the two stay
//! in step at the cost of a second judging, with no allocation.

use crate::judge::{Finding, Judge, JudgeOptions, Verdict};
use crate::rules::{RuleId, Severity};

/// Why a producer refused to write an event: the rule of the judge's
/// catalog the event would break (`aoi explain <rule>` says more). Nothing
/// was written; the stream is as it was before the call.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The rule the event breaks.
    pub rule: RuleId,
    /// The judge's message about the event.
    pub message: String,
}

impl Refusal {
    /// A refusal for a rule the producer enforces by its structure (meta
    /// first, the summary its own).
    pub(crate) fn new(rule: RuleId, message: impl Into<String>) -> Self {
        Refusal {
            rule,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self.rule.rule();
        write!(
            f,
            "refused: the event breaks {} ({}): {}",
            r.id, r.spec, self.message
        )
    }
}

impl std::error::Error for Refusal {}

/// The two judges of a producer's stream.
pub(crate) struct Guard {
    live: Judge,
    spare: Judge,
}

impl Guard {
    pub(crate) fn new() -> Self {
        Guard {
            live: Judge::new(JudgeOptions::default()),
            spare: Judge::new(JudgeOptions::default()),
        }
    }

    /// Judges `bytes` (one encoded event, `\n` included) as the stream's
    /// next line: `Ok` and the judges move on, or the first finding that
    /// is not advisory (a violation, or what makes the stream incomplete)
    /// and the judges are as they were.
    pub(crate) fn admit(&mut self, bytes: &[u8]) -> Result<(), Refusal> {
        let refusal = Self::judge(&mut self.live, bytes);
        match refusal {
            None => {
                Self::judge(&mut self.spare, bytes);
                Ok(())
            }
            Some(r) => {
                self.live = self.spare.clone();
                Err(r)
            }
        }
    }

    /// Feeds `bytes` to `j` line by line (a body with a line feed inside
    /// is more than one line, as a reader would see it) and returns the
    /// first finding that is not advisory.
    fn judge(j: &mut Judge, bytes: &[u8]) -> Option<Refusal> {
        let body = bytes.strip_suffix(b"\n");
        let (body, terminated) = match body {
            Some(b) => (b, true),
            None => (bytes, false),
        };
        let mut first = None;
        let mut lines = body.split(|&b| b == b'\n').peekable();
        while let Some(line) = lines.next() {
            j.line(line, terminated || lines.peek().is_some());
            let bad = j.drain().find(|f| f.rule.severity() != Severity::Advisory);
            if first.is_none() {
                first = bad.map(|f: Finding| Refusal {
                    rule: f.rule,
                    message: f.message,
                });
            }
        }
        first
    }

    /// The verdict on what was written: what `aoi check` says of it.
    pub(crate) fn verdict(self) -> Verdict {
        self.live.finish().0
    }
}
