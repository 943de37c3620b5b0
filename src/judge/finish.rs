//! The end of input: the read failures that end a stream, what only the
//! whole stream shows (no summary, no seq, no meta), the one cause, the
//! outcome and its reason, the § 18 factors: the [`Verdict`].

use super::fields::keep;
use super::{Cause, Factors, Finding, Judge, Outcome, Verdict};
use crate::emit::Reason;
use crate::peek::unescape;
use crate::rules::{Factor, RuleId, Severity};

impl Judge {
    /// Records an error reading the input; the stream is then incomplete.
    pub fn io_error(&mut self, message: String) {
        self.report(RuleId::InputIo, 0, format!("read error: {message}"));
        self.io_error = Some(message);
    }

    /// Records that the input went silent past `--idle-timeout` (§ 4.2):
    /// the stream ends with the `timeout` outcome (exit 124).
    pub fn idle_timeout(&mut self, message: String) {
        // A stream whose summary was read is complete: silence after it
        // only ends the read (the producer did not close its output).
        if self.summary.is_some() {
            return;
        }
        // The stream's, not its last line's (as `summary.missing`).
        self.report(RuleId::InputIdleTimeout, 0, message.clone());
        self.idle = Some(message);
    }

    /// Closes the stream: the verdict, and the findings not yet drained
    /// (including the stream-level ones such as `summary.missing`).
    pub fn finish(mut self) -> (Verdict, Vec<Finding>) {
        self.cur_seq = None;
        self.settle_jumps();
        self.stream_findings();
        let violations = self.count_of(Severity::Violation);
        let incompletes = self.count_of(Severity::Incomplete);
        let advisories = self.count_of(Severity::Advisory);
        let cause = self.cause();
        let retryable = cause.as_ref().is_some_and(|c| c.retryable == Some(true));
        let (outcome, reason) = self.outcome(violations, incompletes, retryable);
        let factors = self.factors();
        let mut events_by_type: Vec<(String, u64)> = self
            .types
            .iter()
            .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), v))
            .collect();
        events_by_type.sort();
        let rule_counts = RuleId::ALL
            .iter()
            .filter(|r| self.rule_counts[**r as usize] > 0)
            .map(|r| (*r, self.rule_counts[*r as usize]))
            .collect();
        let pending = std::mem::take(&mut self.pending);
        let verdict = Verdict {
            outcome,
            exit_code: outcome.exit_code(),
            reason,
            lines: self.line_no,
            bytes: self.bytes,
            domain_events: self.domain,
            framework_events: self.framework,
            warnings: self.warnings,
            errors: self.errors,
            violations,
            incompletes,
            advisories,
            rule_counts,
            events_by_type,
            other_types: self.other_types,
            terminated: self.terminated,
            identity: self.identity,
            run: self.run.as_deref().map(|r| {
                let body = r.get(1..r.len().saturating_sub(1)).unwrap_or_default();
                keep(&unescape(body))
            }),
            summary: self.summary,
            cause,
            failed_checks: self.failed_checks,
            factors,
        };
        (verdict, pending)
    }

    /// What only the whole stream shows: no summary (§ 4), no seq on any
    /// event (§ 8.1), no meta (§ 5).
    fn stream_findings(&mut self) {
        // A pretty-printed stream holds its summary in lines that were
        // reported as that one cause (`line.pretty-json`).
        let pretty = self.rule_counts[RuleId::LinePretty as usize] > 0;
        // --unbounded waives the summary of a stream that began, not of
        // one that never did: an empty input shows no run at all (§ 4.2,
        // § 2).
        if self.summary.is_none()
            && (!self.opts.unbounded || self.line_no == 0)
            && self.io_error.is_none()
            && self.idle.is_none()
            && !pretty
        {
            let what = if self.line_no == 0 && self.opts.unbounded {
                "empty stream: no line at all, not even aoi:meta; --unbounded waives the summary of a stream that began, not of one that never did".to_string()
            } else if self.line_no == 0 {
                "empty stream: no aoi:summary".to_string()
            } else {
                format!(
                    "EOF after {} line(s) without a terminal aoi:summary",
                    self.line_no
                )
            };
            self.report(RuleId::SummaryMissing, 0, what);
        }
        // A flat v0.2 envelope is the cause of no aoi.seq (`envelope.flat`).
        if self.object_lines > 0 && !self.seq_seen && !self.flat_envelope {
            self.report(
                RuleId::SeqAbsent,
                0,
                "no event carries aoi.seq; the stream cannot claim Verifiable".into(),
            );
        }
        if self.object_lines > 0 && self.meta_count == 0 {
            self.report(RuleId::MetaMissing, 0, "the stream has no aoi:meta".into());
        }
    }

    /// Findings of rules of severity `sev`, handed out or only counted.
    fn count_of(&self, sev: Severity) -> u64 {
        RuleId::ALL
            .iter()
            .filter(|r| r.severity() == sev)
            .map(|r| self.rule_counts[*r as usize])
            .sum()
    }

    /// One cause decides the exit code and is what the report reproduces:
    /// the summary's caused_by, its gaps filled from the most severe
    /// aoi:error, or that error alone (§ 13.1).
    fn cause(&self) -> Option<Cause> {
        match (
            self.summary.as_ref().and_then(|s| s.caused_by.clone()),
            self.worst_error.clone(),
        ) {
            // Gaps are filled only from the same error: a summary that
            // names UP_THROTTLED is never described with a local error's
            // message or origin.
            (Some(mut cb), Some(w))
                if (cb.code.is_none() || cb.code == w.code)
                    && (cb.category.is_none() || cb.category == w.category) =>
            {
                cb.origin = cb.origin.or(w.origin);
                cb.category = cb.category.or(w.category);
                cb.code = cb.code.or(w.code);
                cb.message = cb.message.or(w.message);
                if cb.retryable.is_none() {
                    cb.retryable = w.retryable;
                    cb.retry_after_ms = cb.retry_after_ms.or(w.retry_after_ms);
                }
                Some(cb)
            }
            (cb, w) => cb.or(w),
        }
        .map(|mut c| {
            if c.origin.is_none() {
                c.origin = self.identity.tool.clone();
            }
            c
        })
    }

    /// The outcome and its reason, in order of precedence: a broken
    /// contract, silence past `--idle-timeout`, an incomplete stream, then
    /// what the upstream said.
    fn outcome(&self, violations: u64, incompletes: u64, retryable: bool) -> (Outcome, String) {
        if violations > 0 {
            (
                Outcome::Violation,
                self.violation_reason(violations, incompletes),
            )
        } else if let Some(why) = &self.idle {
            (Outcome::Timeout, format!("the input went silent: {why}"))
        } else if incompletes > 0 {
            (Outcome::Incomplete, self.incomplete_reason())
        } else {
            self.upstream_outcome(retryable)
        }
    }

    /// The reason of a violation: how many, and the first.
    fn violation_reason(&self, violations: u64, incompletes: u64) -> String {
        let first = |rule_sev: Severity| -> String {
            RuleId::ALL
                .iter()
                .find(|r| r.severity() == rule_sev && self.rule_counts[**r as usize] > 0)
                .map_or_else(String::new, |r| r.id().to_string())
        };
        format!(
            "{violations} contract violation(s){}, first: {}",
            // Reports count both in violation_count: the reason
            // says so, so its numbers add up to that field.
            if incompletes > 0 {
                format!(" and {incompletes} incompleteness finding(s)")
            } else {
                String::new()
            },
            // The first one the stream broke, in its order.
            self.first_violation
                .map_or_else(|| first(Severity::Violation), |(r, _)| r.id().to_string())
        ) + match (self.foreign, &self.summary) {
            (false, _) => "",
            (true, Some(_)) => "; the run finished (it wrote its aoi:summary)",
            (true, None) => "; the run did not finish (no aoi:summary)",
        }
    }

    /// Why a stream is incomplete: cut, unreadable, empty, or unfinished.
    fn incomplete_reason(&self) -> String {
        if !self.terminated {
            "final line not terminated: the stream was truncated".to_string()
        } else if let Some(e) = &self.io_error {
            format!("read error: {e}")
        } else if self.line_no == 0 {
            // Nothing at all: a usage error or a tool run without its
            // machine-mode flag, far likelier than a crash.
            "the stream was empty: no line at all (did the producer fail before writing, e.g. a usage error, or run without its machine-mode flag?)".to_string()
        } else {
            "EOF without a terminal aoi:summary: the producer crashed, was killed, or the stream was cut".to_string()
        }
    }

    /// The outcome of a complete, conforming stream: what its summary says
    /// (§ 8.3), `retryable` when its cause says retry may help (§ 9.3).
    fn upstream_outcome(&self, retryable: bool) -> (Outcome, String) {
        let Some(s) = &self.summary else {
            return self.unbounded_outcome(retryable);
        };
        match (
            s.ok,
            s.reason.as_ref().and_then(|r| r.as_ref().ok().copied()),
        ) {
            // A partial run failed by request keeps its cause's
            // disposition (§ 9.3): an item error that says retry may help
            // makes it 75, as any failure with that cause.
            (Some(true), _) if s.partial && self.opts.fail_on_partial => {
                let why = "ok:true but partial:true (--fail-on-partial)";
                match retryable {
                    true => (Outcome::Retryable, format!("{why}; retry may help")),
                    false => (Outcome::Failed, why.to_string()),
                }
            }
            (Some(true), Some(Reason::Skipped)) => (Outcome::Ok, "ok:true, skipped".to_string()),
            (Some(true), _) if s.partial => (Outcome::Ok, "ok:true, partial results".to_string()),
            (Some(true), _) => (Outcome::Ok, "complete and conforming, ok:true".to_string()),
            (_, Some(Reason::Denied)) => (Outcome::Denied, "upstream reason denied".to_string()),
            (_, Some(Reason::Timeout)) => (Outcome::Timeout, "upstream reason timeout".to_string()),
            (_, Some(Reason::Cancelled)) => {
                (Outcome::Cancelled, "upstream reason cancelled".to_string())
            }
            _ if retryable => (
                Outcome::Retryable,
                "upstream failed; retry may help".to_string(),
            ),
            _ => (Outcome::Failed, "upstream ok:false".to_string()),
        }
    }

    /// An unbounded stream that ended without a summary (§ 4.2): clean,
    /// unless a process-scope error of its own ended the run (§ 9.1); then
    /// that error's disposition, as a summary `ok:false, reason:"failed"`
    /// with it as the cause would have: 75 when retry may help, else 1
    /// (§ 9.3: `retryable` decides disposition, `category` routes).
    fn unbounded_outcome(&self, retryable: bool) -> (Outcome, String) {
        let Some((line, _)) = &self.process_error else {
            return (
                Outcome::Ok,
                "unbounded stream ended without a summary".to_string(),
            );
        };
        let why = format!(
            "unbounded stream ended after the process-scope aoi:error of line {line}, which ended the run"
        );
        if retryable {
            (Outcome::Retryable, why + "; retry may help")
        } else {
            (Outcome::Failed, why)
        }
    }

    /// A factor holds unless a rule that breaks it fired (the catalog
    /// says which, `rules::breaks`), given what it needs at all.
    fn factors(&self) -> Factors {
        let broken = |f: Factor| {
            RuleId::ALL
                .iter()
                .any(|r| self.rule_counts[*r as usize] > 0 && r.factors().contains(&f))
        };
        Factors {
            typed: !broken(Factor::Typed) && self.object_lines > 0,
            verifiable: self.summary.is_some() && self.seq_seen && !broken(Factor::Verifiable),
            versioned: self.meta_count > 0 && !broken(Factor::Versioned),
            composable: self.object_lines > 0 && !broken(Factor::Composable),
            bounded: self.summary.is_some() && !broken(Factor::Bounded),
        }
    }
}
