//! The report's running verdict: what every format and the stderr line say
//! of all the entries (counts, tally, the stream that decided the exit),
//! folded entry by entry, so `--format jsonl` writes each entry as its run
//! ends and keeps only this (memory bounded by the open runs).

use serde_json::Value;

use super::entry::{Entry, cause_text};
use crate::judge::Outcome;
use crate::spec::exit::Code;

type Identity = [(&'static str, Option<String>); 4];

/// The entries so far, folded.
#[derive(Default)]
pub(super) struct Standing {
    /// Entries (streams) in the report.
    pub(super) streams: u64,
    /// Lines, domain events, warnings, errors, violations (saturating:
    /// carried counts are any integers a report held).
    pub(super) totals: (u64, u64, u64, u64, u64),
    /// Outcomes, how many streams had each, and the first one's exit, in
    /// order of first appearance.
    tally: Vec<(Outcome, u64, Code)>,
    /// The first entry at each exit, in words: "who: outcome cause".
    first_at: Vec<(Code, String)>,
    /// The last entry of the most severe exit: outcome, exit, caused_by.
    worst: Option<(Outcome, Code, Option<Value>)>,
    /// The upstream identity every entry named, while they all agree.
    upstream: Option<Identity>,
    /// An entry without one, or one that differed, was seen.
    mixed: bool,
}

impl Standing {
    /// Folds one entry in.
    pub(super) fn add(&mut self, e: &Entry) {
        self.streams += 1;
        let t = &mut self.totals;
        *t = (
            t.0.saturating_add(e.lines),
            t.1.saturating_add(e.domain),
            t.2.saturating_add(e.warnings),
            t.3.saturating_add(e.errors),
            t.4.saturating_add(e.violations),
        );
        match self.tally.iter_mut().find(|(o, _, _)| *o == e.outcome) {
            Some(x) => x.1 += 1,
            None => self.tally.push((e.outcome, 1, e.exit_code)),
        }
        if !self.first_at.iter().any(|(c, _)| *c == e.exit_code) {
            self.first_at.push((e.exit_code, who(e)));
        }
        let rank = e.exit_code.rank();
        if self.worst.as_ref().is_none_or(|w| rank >= w.1.rank()) {
            self.worst = Some((e.outcome, e.exit_code, e.caused_by.clone()));
        }
        self.identity(&e.identity);
    }

    fn identity(&mut self, id: &Identity) {
        if self.mixed {
            return;
        }
        let named = id.iter().any(|(_, v)| v.is_some());
        match &self.upstream {
            _ if !named => self.mixed = true,
            None if self.streams == 1 => self.upstream = Some(id.clone()),
            Some(first) if first == id => {}
            _ => self.mixed = true,
        }
    }

    /// The outcomes and how many streams had each, worst first.
    pub(super) fn tally(&self) -> Vec<(Outcome, u64, Code)> {
        let mut t = self.tally.clone();
        t.sort_by_key(|(_, _, c)| std::cmp::Reverse(c.rank()));
        t
    }

    /// The first entry at exit `code`, in words.
    pub(super) fn first_at(&self, code: Code) -> Option<&str> {
        self.first_at
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, w)| w.as_str())
    }

    /// The last entry of the most severe exit: outcome, exit, caused_by.
    pub(super) fn worst(&self) -> Option<&(Outcome, Code, Option<Value>)> {
        self.worst.as_ref()
    }

    /// § 13.1: the direct upstream's identity, when every stream names
    /// the same one.
    pub(super) fn upstream(&self) -> Option<&Identity> {
        self.upstream.as_ref().filter(|_| !self.mixed)
    }
}

/// An entry in words for stderr: "source run R: outcome cause".
fn who(e: &Entry) -> String {
    format!("{}: {} {}", e.who(), e.outcome, cause_text(e))
}
