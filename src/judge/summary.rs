//! `aoi:summary` (§ 8.3, § 13.1): once and last, its fields in their types,
//! its counters reconciled with what the stream held, its provenance, and
//! its identity, the same as the meta's.

use super::fields::{
    Ev, bool_value, duplicate_key, keep, number_value, preview, str_value, whole_value,
};
use super::{Judge, SummaryInfo};
use crate::emit::Reason;
use crate::peek::{Kind, Member, object_members};
use crate::rules::RuleId;
use crate::spec;
use crate::spec::types;

/// The summary's counters as written (`None`: absent or not a count).
struct Counters {
    event_count: Option<u64>,
    count: Option<u64>,
    warning_count: Option<u64>,
    error_count: Option<u64>,
}

impl Judge {
    /// Judges the stream's `aoi:summary`, the steps in the spec's order:
    /// its fields, its counters against the stream, its provenance, its
    /// identity. It is then kept for the verdict.
    pub(super) fn summary(&mut self, ev: &Ev<'_>) {
        if self.summary.is_some() {
            self.here(
                RuleId::SummaryDuplicate,
                "second aoi:summary in the stream".into(),
            );
            return;
        }
        // A held seq jump is not settled here: a line it awaits may still
        // come after the summary, out of order (then one "out of order"
        // finding and `summary.not-last`); the end of input settles it.
        let mut info = SummaryInfo {
            line: self.pos,
            raw: ev.line.to_vec(),
            ..SummaryInfo::default()
        };
        self.summary_ok(ev, &mut info);
        self.ok_after_process_error(&info);
        self.summary_reason(ev, &mut info);
        let counters = self.summary_counters(ev, &mut info);
        self.summary_flags(ev, &mut info);
        self.reconcile(ev, &counters);
        self.summary_consistency(ev, &info, &counters);
        self.summary_upstream(ev);
        self.caused_by_on_success(ev, &info);
        info.caused_by = self.caused_by(ev);
        self.caused_by_missing(ev, &info);
        self.summary_identity(ev, &mut info);
        self.summary = Some(info);
    }

    /// `ok`: present and a boolean (§ 8.3).
    fn summary_ok(&mut self, ev: &Ev<'_>, info: &mut SummaryInfo) {
        match ev.get("ok") {
            Some(m) => match bool_value(m) {
                Some(b) => info.ok = Some(b),
                None => self.here(
                    RuleId::SummaryOk,
                    format!("\"ok\" is a {}, not a boolean", m.kind.name()),
                ),
            },
            None => self.here(RuleId::SummaryOk, "aoi:summary has no \"ok\"".into()),
        }
    }

    /// `ok:true` after a process-scope error of the run's own: § 9.1 says
    /// the run is over, § 4 that `ok` is what it accomplished. One finding
    /// for the contradiction, at the summary.
    fn ok_after_process_error(&mut self, info: &SummaryInfo) {
        let Some((at, code)) = &self.process_error else {
            return;
        };
        if info.ok == Some(true) {
            let code = code.as_deref().map_or(String::new(), |c| format!(" ({c})"));
            let at = *at;
            self.here(
                RuleId::SummaryOkAfterProcessError,
                format!("ok:true after the process-scope aoi:error{code} of line {at}, which ended the run"),
            );
        }
    }

    /// `reason`: required with `ok:false` and one of the closed set; with
    /// `ok:true` only `skipped` (§ 8.3).
    fn summary_reason(&mut self, ev: &Ev<'_>, info: &mut SummaryInfo) {
        match (info.ok, ev.get("reason")) {
            (_, Some(m)) if !matches!(m.kind, Kind::String { .. }) => self.here(
                RuleId::SummaryReason,
                format!("\"reason\" is a {}, not a string", m.kind.name()),
            ),
            (Some(false), None) => {
                self.here(RuleId::SummaryReason, "ok:false without \"reason\"".into())
            }
            (Some(false), Some(m)) => {
                let r = str_value(ev.line, m).unwrap_or_default();
                if !spec::FAILURE_REASONS.contains(&r.as_str()) {
                    self.here(
                        RuleId::SummaryReason,
                        format!("reason \"{r}\" is not one of failed, cancelled, timeout, denied"),
                    );
                }
                info.reason = Some(reason_of(r));
            }
            (Some(true), Some(m)) => {
                let r = str_value(ev.line, m).unwrap_or_default();
                if r != spec::SUCCESS_REASON {
                    self.here(
                        RuleId::SummaryReason,
                        format!("ok:true allows only reason \"skipped\", not \"{r}\""),
                    );
                }
                info.reason = Some(reason_of(r));
            }
            _ => {}
        }
    }

    /// The counters and `elapsed_ms` in their types (§ 8.3, § 15): the
    /// counters count events; `elapsed_ms` has no type in the spec, so any
    /// non-negative number.
    fn summary_counters(&mut self, ev: &Ev<'_>, info: &mut SummaryInfo) -> Counters {
        let counter = |j: &mut Judge, name: &str| j.summary_counter(ev, name);
        let counters = Counters {
            event_count: counter(self, "event_count"),
            count: counter(self, "count"),
            warning_count: {
                let _ = counter(self, "input_count");
                counter(self, "warning_count")
            },
            error_count: counter(self, "error_count"),
        };
        info.elapsed_ms = self
            .summary_number(ev, "elapsed_ms", "number")
            .map(|(_, n)| n);
        counters
    }

    /// The counter `name` (§ 8.3): a whole number >= 0, read up to 2^64-1
    /// (aoi's limit); `3.0` is 3 with an advisory. Else a
    /// finding, if present.
    fn summary_counter(&mut self, ev: &Ev<'_>, name: &str) -> Option<u64> {
        let m = ev.get(name)?;
        let raw = preview(ev.raw(m));
        let Some(w) = whole_value(ev.line, m) else {
            self.here(
                RuleId::SummaryFieldType,
                format!("{name} is {raw}, not a non-negative integer"),
            );
            return None;
        };
        if !w.plain {
            self.integer_form(name, ev.raw(m));
        }
        if w.value.is_none() {
            self.here(
                RuleId::SummaryFieldType,
                format!("{name} is {raw}, past 2^64-1, the largest count aoi reads (no stream has that many lines)"),
            );
        }
        w.value
    }

    /// The member `name` when it is a non-negative number, with its
    /// value; else a finding, if present.
    fn summary_number<'a>(
        &mut self,
        ev: &Ev<'a>,
        name: &str,
        what: &str,
    ) -> Option<(&'a Member, f64)> {
        let m = ev.get(name)?;
        let n = number_value(ev.line, m).filter(|n| *n >= 0.0);
        if n.is_none() {
            self.here(
                RuleId::SummaryFieldType,
                format!(
                    "{name} is {}, not a non-negative {what}",
                    preview(ev.raw(m))
                ),
            );
            return None;
        }
        Some((m, n?))
    }

    /// `partial` and `truncated` booleans, `next_cursor` a string, and a
    /// cursor with `truncated:true` (§ 8.3).
    fn summary_flags(&mut self, ev: &Ev<'_>, info: &mut SummaryInfo) {
        for (name, slot) in [
            ("partial", &mut info.partial),
            ("truncated", &mut info.truncated),
        ] {
            if let Some(m) = ev.get(name) {
                match bool_value(m) {
                    Some(b) => *slot = b,
                    None => self.here(
                        RuleId::SummaryFieldType,
                        format!("{name} is a {}, not a boolean", m.kind.name()),
                    ),
                }
            }
        }
        let cursor = ev.get("next_cursor");
        info.next_cursor =
            cursor.and_then(|m| super::fields::str_ref(ev.line, m).map(|c| c.into_owned()));
        if let Some(m) = cursor {
            if !matches!(m.kind, Kind::String { .. } | Kind::Null) {
                self.here(
                    RuleId::SummaryFieldType,
                    format!("next_cursor is a {}, not a string", m.kind.name()),
                );
            }
        }
        if info.truncated && !cursor.is_some_and(|m| matches!(m.kind, Kind::String { .. })) {
            self.here(
                RuleId::SummaryTruncatedCursor,
                "truncated:true without next_cursor".into(),
            );
        }
        // § 15: a cursor says there is more, so the output was truncated.
        let has_cursor =
            cursor.is_some_and(|m| matches!(m.kind, Kind::String { .. }) && ev.raw(m).len() > 2);
        if has_cursor && !info.truncated {
            let said = match ev.get("truncated").map(|m| m.kind) {
                Some(Kind::False) => "truncated:false",
                Some(_) => "truncated not true",
                None => "no truncated",
            };
            self.here(
                RuleId::SummaryCursorNotTruncated,
                format!("next_cursor with {said}: a cursor means more data can be fetched, so the output was truncated (truncated:true)"),
            );
        }
    }

    /// What the summary says of the run against itself and the stream
    /// (§ 8.3): `partial` with the errors, `skipped` with the output.
    fn summary_consistency(&mut self, ev: &Ev<'_>, info: &SummaryInfo, c: &Counters) {
        let partial = ev.get("partial").and_then(bool_value);
        if partial == Some(true) && c.error_count == Some(0) {
            self.here(
                RuleId::SummaryPartial,
                "partial:true with error_count:0: a partial run had an item fail, and its aoi:error is counted".into(),
            );
        }
        if partial == Some(false) && self.domain > 0 && self.own_item_errors > 0 {
            let (d, e) = (self.domain, self.own_item_errors);
            self.here(
                RuleId::SummaryPartial,
                format!("partial:false after {d} domain event(s) and {e} item-scope aoi:error(s) of the run's own: usable output and a failed item is partial"),
            );
        }
        if info.reason == Some(Ok(Reason::Skipped)) {
            let output = c.count.filter(|&n| n > 0).unwrap_or(self.domain);
            if output > 0 {
                self.here(
                    RuleId::SummarySkipped,
                    format!("reason \"skipped\" with {output} domain event(s): a skipped run did not run"),
                );
            }
        }
    }

    /// `caused_by` says why a run failed (§ 8.3): not on `ok:true`.
    fn caused_by_on_success(&mut self, ev: &Ev<'_>, info: &SummaryInfo) {
        if info.ok == Some(true) && ev.get("caused_by").is_some() {
            self.here(
                RuleId::SummaryCausedBy,
                "caused_by with ok:true: it says why a run failed (present when ok is false)"
                    .into(),
            );
        }
    }

    /// Reconciliation (§ 8.3): the counters against what the stream held.
    /// Lines that could not be read are reported already: a difference of
    /// exactly those is their effect, not another cause.
    fn reconcile(&mut self, ev: &Ev<'_>, c: &Counters) {
        let lost = self.lost_before_summary();
        match c.event_count {
            // Extra lines that could not be read (prose among the events)
            // are reported already: they are not another cause.
            Some(n) if n < self.line_no && self.line_no - n <= self.unreadable => {}
            // Nor are lines that were written and lost (one
            // cause, one finding).
            Some(n) if n > self.line_no && n - self.line_no <= lost => {}
            Some(n) if n != self.line_no => {
                let got = self.line_no;
                self.here(
                    RuleId::SummaryEventCount,
                    format!("event_count is {n} but {got} line(s) were received up to the summary"),
                );
            }
            Some(_) => {}
            None => {
                if ev.get("event_count").is_none() {
                    self.here(
                        RuleId::SummaryEventCountAbsent,
                        "aoi:summary has no event_count".into(),
                    );
                }
            }
        }
        if let Some(n) = c.count {
            // Not when the difference is lines that could not be read:
            // they may have been domain events, and are reported already.
            let unread = n > self.domain && n - self.domain <= self.unreadable.saturating_add(lost);
            if n != self.domain && !unread {
                let d = self.domain;
                self.here(
                    RuleId::SummaryCount,
                    format!("count is {n} but the stream has {d} domain event(s)"),
                );
            }
        }
        self.reconcile_at_least(c);
    }

    /// Lines the summary's own `aoi.seq` says were written before it but
    /// never arrived: fewer lines than seq 0 to it number means a seq in
    /// that range is missing, which `seq.gap` (or `seq.start`) reports, so
    /// the counters' difference by those lines is that cause's effect.
    fn lost_before_summary(&self) -> u64 {
        self.cur_seq
            .map_or(0, |s| s.saturating_add(1).saturating_sub(self.line_no))
    }

    /// `warning_count` and `error_count`: at least the lines present (a
    /// producer may count warnings and errors it did not write).
    fn reconcile_at_least(&mut self, c: &Counters) {
        if let Some(n) = c.warning_count {
            if n < self.warnings {
                let w = self.warnings;
                self.here(
                    RuleId::SummaryWarningCount,
                    format!("warning_count is {n} but the stream has {w} aoi:warning line(s)"),
                );
            }
        }
        if let Some(n) = c.error_count {
            if n < self.errors {
                let e = self.errors;
                self.here(
                    RuleId::SummaryErrorCount,
                    format!("error_count is {n} but the stream has {e} aoi:error line(s)"),
                );
            }
        }
    }

    /// Provenance (§ 13.1): `upstream` an object of identity fields, never
    /// null.
    fn summary_upstream(&mut self, ev: &Ev<'_>) {
        let Some(m) = ev.get("upstream") else {
            return;
        };
        if m.kind != Kind::Object {
            self.here(
                RuleId::SummaryUpstream,
                format!("upstream is {}; omit it when unknown", m.kind.name()),
            );
            return;
        }
        let obj = ev.raw(m);
        let inner: Vec<Member> = object_members(obj).collect();
        let sub = Ev {
            line: obj,
            members: &inner,
        };
        // Read for its field types; the judge reports its own upstream.
        let _ = self.identity_of(&sub, "aoi:summary.upstream");
        // § 13.1: unknown identity is an omitted key, not an empty one.
        let names_any = [
            "tool",
            "tool_version",
            "aoi_version",
            "schema_name",
            "schema_version",
        ]
        .iter()
        .any(|k| sub.get(k).is_some());
        if !names_any {
            self.here(
                RuleId::SummaryUpstream,
                "upstream names no tool, version or schema; omit it when unknown".into(),
            );
        }

        // Parsers disagree which of two values wins (§ 8.1).
        if let Some(dup) = duplicate_key(obj, &inner) {
            self.here(
                RuleId::SummaryUpstream,
                format!("upstream has \"{}\" more than once", keep(&dup)),
            );
        }
    }

    /// `ok:false` after forwarded upstream errors should say which one
    /// caused it (§ 13.1). A cancellation says itself why the run failed:
    /// no upstream error to reproduce (aoi's choice, § 7, § 13.1).
    fn caused_by_missing(&mut self, ev: &Ev<'_>, info: &SummaryInfo) {
        if info.ok == Some(false)
            && info.reason != Some(Ok(Reason::Cancelled))
            && ev.get("caused_by").is_none()
            && self.forwarded_errors > 0
        {
            let n = self.forwarded_errors;
            self.here(
                RuleId::SummaryCausedByMissing,
                format!("ok:false after {n} forwarded upstream aoi:error(s) (with origin) but no caused_by"),
            );
        }
    }

    /// The identity on the closing end (§ 5): the same as the meta's, AOI
    /// 1.x, and at least the triple that versions the stream.
    fn summary_identity(&mut self, ev: &Ev<'_>, info: &mut SummaryInfo) {
        info.identity = self.identity_of(ev, types::SUMMARY);
        let (meta, end) = (&self.identity, &info.identity);
        let mismatched: Vec<&str> = [
            ("tool", &meta.tool, &end.tool),
            ("tool_version", &meta.tool_version, &end.tool_version),
            ("aoi_version", &meta.aoi_version, &end.aoi_version),
            ("schema_name", &meta.schema_name, &end.schema_name),
            ("schema_version", &meta.schema_version, &end.schema_version),
        ]
        .iter()
        .filter(|(_, a, b)| a.is_some() && b.is_some() && a != b)
        .map(|(k, _, _)| *k)
        .collect();
        if !mismatched.is_empty() {
            self.here(
                RuleId::SummaryIdentityMismatch,
                format!(
                    "aoi:summary and aoi:meta disagree on {}",
                    mismatched.join(", ")
                ),
            );
        }
        // The summary's version is the stream's when the meta did not
        // say one (a meta without aoi_version let "2.0" pass).
        if self.identity.aoi_version.is_none() {
            if let Some(v) = info.identity.aoi_version.clone() {
                self.check_aoi_version(&v);
            }
        }
        if info.identity.tool_version.is_none()
            || info.identity.aoi_version.is_none()
            || info.identity.schema_version.is_none()
        {
            self.here(
                RuleId::SummaryIdentity,
                "aoi:summary lacks the identity triple (tool_version, aoi_version, schema_version)"
                    .into(),
            );
        }
    }
}

/// A summary's `reason` as § 8.3's closed set names it, or its text as
/// written when it is none of them (reports carry it as the upstream's).
fn reason_of(text: String) -> Result<Reason, String> {
    [
        Reason::Failed,
        Reason::Cancelled,
        Reason::Timeout,
        Reason::Denied,
        Reason::Skipped,
    ]
    .into_iter()
    .find(|r| r.as_str() == text)
    .ok_or(text)
}
