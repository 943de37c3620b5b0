//! `aoi:summary` (§ 8.3, § 13.1): once and last, its fields in their types,
//! its counters reconciled with what the stream held, its provenance, and
//! its identity, the same as the meta's.

use super::error::read_cause;
use super::fields::{
    Ev, bool_value, duplicate_key, keep, number_value, preview, str_ref, str_value, uint_value,
};
use super::{Judge, SummaryInfo};
use crate::peek::{Kind, Member, object_members};
use crate::rules::RuleId;
use crate::spec;

impl Judge {
    pub(super) fn summary(&mut self, ev: &Ev<'_>) {
        if self.summary.is_some() {
            self.here(
                RuleId::SummaryDuplicate,
                "second aoi:summary in the stream".into(),
            );
            return;
        }
        let line = ev.line;
        let mut info = SummaryInfo {
            line: self.pos,
            raw: line.to_vec(),
            ..SummaryInfo::default()
        };
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
        let reason = ev.get("reason");
        match (info.ok, reason) {
            (_, Some(m)) if !matches!(m.kind, Kind::String { .. }) => self.here(
                RuleId::SummaryReason,
                format!("\"reason\" is a {}, not a string", m.kind.name()),
            ),
            (Some(false), None) => {
                self.here(RuleId::SummaryReason, "ok:false without \"reason\"".into())
            }
            (Some(false), Some(m)) => {
                let r = str_value(line, m).unwrap_or_default();
                if !spec::FAILURE_REASONS.contains(&r.as_str()) {
                    self.here(
                        RuleId::SummaryReason,
                        format!("reason \"{r}\" is not one of failed, cancelled, timeout, denied"),
                    );
                }
                info.reason = Some(r);
            }
            (Some(true), Some(m)) => {
                let r = str_value(line, m).unwrap_or_default();
                if r != spec::SUCCESS_REASON {
                    self.here(
                        RuleId::SummaryReason,
                        format!("ok:true allows only reason \"skipped\", not \"{r}\""),
                    );
                }
                info.reason = Some(r);
            }
            _ => {}
        }
        // Counters and flags (§ 8.3, § 15): the counters count events;
        // elapsed_ms has no type in the spec, so any non-negative number.
        let typed = |j: &mut Judge, name: &str, what: &str| -> Option<(&Member, f64)> {
            let m = ev.get(name)?;
            let n = number_value(line, m).filter(|n| *n >= 0.0);
            let whole = what != "integer" || uint_value(line, m).is_some();
            if n.is_none() || !whole {
                j.here(
                    RuleId::SummaryFieldType,
                    format!(
                        "{name} is {}, not a non-negative {what}",
                        preview(ev.raw(m))
                    ),
                );
                return None;
            }
            Some((m, n?))
        };
        let counter = |j: &mut Judge, name: &str| {
            typed(j, name, "integer").and_then(|(m, _)| uint_value(line, m))
        };
        let event_count = counter(self, "event_count");
        let count = counter(self, "count");
        let _ = counter(self, "input_count");
        let warning_count = counter(self, "warning_count");
        let error_count = counter(self, "error_count");
        info.elapsed_ms = typed(self, "elapsed_ms", "number").map(|(_, n)| n);
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
        // Reconciliation (§ 8.3).
        match event_count {
            // Extra lines that could not be read (prose among the events)
            // are reported already: they are not another cause.
            Some(n) if n < self.line_no && self.line_no - n <= self.unreadable => {}
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
        if let Some(n) = count {
            // Not when the difference is lines that could not be read:
            // they may have been domain events, and are reported already.
            let unread = n > self.domain && n - self.domain <= self.unreadable;
            if n != self.domain && !unread {
                let d = self.domain;
                self.here(
                    RuleId::SummaryCount,
                    format!("count is {n} but the stream has {d} domain event(s)"),
                );
            }
        }
        if let Some(n) = warning_count {
            if n < self.warnings {
                let w = self.warnings;
                self.here(
                    RuleId::SummaryWarningCount,
                    format!("warning_count is {n} but the stream has {w} aoi:warning line(s)"),
                );
            }
        }
        if let Some(n) = error_count {
            if n < self.errors {
                let e = self.errors;
                self.here(
                    RuleId::SummaryErrorCount,
                    format!("error_count is {n} but the stream has {e} aoi:error line(s)"),
                );
            }
        }
        // Provenance (§ 13.1).
        if let Some(m) = ev.get("upstream") {
            if m.kind == Kind::Object {
                let obj = ev.raw(m);
                let inner: Vec<Member> = object_members(obj).collect();
                let sub = Ev {
                    line: obj,
                    members: &inner,
                };
                // Read for its field types; the judge reports its own upstream.
                let _ = self.identity_of(&sub, "aoi:summary.upstream");
                // Parsers disagree which of two values wins (§ 8.1).
                if let Some(dup) = duplicate_key(obj, &inner) {
                    self.here(
                        RuleId::SummaryUpstream,
                        format!("upstream has \"{}\" more than once", keep(&dup)),
                    );
                }
            } else {
                self.here(
                    RuleId::SummaryUpstream,
                    format!("upstream is {}; omit it when unknown", m.kind.name()),
                );
            }
        }
        if let Some(m) = ev.get("caused_by") {
            if m.kind == Kind::Object {
                let obj = ev.raw(m);
                let inner: Vec<Member> = object_members(obj).collect();
                let sub = Ev {
                    line: obj,
                    members: &inner,
                };
                if let Some(r) = sub.get("retryable") {
                    if bool_value(r).is_none() {
                        self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by.retryable is not a boolean".into(),
                        );
                    }
                }
                if let Some(r) = sub.get("retry_after_ms") {
                    if uint_value(obj, r).is_none() {
                        self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by.retry_after_ms is not an integer >= 0".into(),
                        );
                    } else if sub.get("retryable").and_then(bool_value) == Some(false) {
                        self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by has retry_after_ms with retryable:false".into(),
                        );
                    }
                }
                if sub.get("retryable").is_none() {
                    self.here(
                        RuleId::SummaryCausedBy,
                        "caused_by lacks retryable, the retry-critical field it must reproduce"
                            .into(),
                    );
                }
                // It reproduces an aoi:error's fields (§ 13.1), in their
                // forms (§ 9.1, § 9.2), each once: a consumer reading the
                // last of two `retryable`s would retry what this judge
                // reads as final, or the reverse.
                if let Some(dup) = duplicate_key(obj, &inner) {
                    self.here(
                        RuleId::SummaryCausedBy,
                        format!("caused_by has \"{}\" more than once", keep(&dup)),
                    );
                }
                if let Some(m) = sub.get("code") {
                    match str_ref(obj, m) {
                        Some(c) if spec::valid_code(c.as_bytes()) => {}
                        Some(c) => self.here(
                            RuleId::SummaryCausedBy,
                            format!(
                                "caused_by.code \"{}\" does not match [A-Z][A-Z0-9_]*",
                                keep(&c)
                            ),
                        ),
                        None => self.here(
                            RuleId::SummaryCausedBy,
                            format!("caused_by.code is a {}, not a string", m.kind.name()),
                        ),
                    }
                }
                if let Some(m) = sub.get("category") {
                    match str_ref(obj, m) {
                        Some(c) if c == "partial" => self.here(
                            RuleId::SummaryCausedBy,
                            "caused_by.category \"partial\" was removed in v1.0-alpha".into(),
                        ),
                        Some(_) => {}
                        None => self.here(
                            RuleId::SummaryCausedBy,
                            format!("caused_by.category is a {}, not a string", m.kind.name()),
                        ),
                    }
                }
                info.caused_by = Some(read_cause(obj, &inner, 0));
            } else {
                self.here(
                    RuleId::SummaryCausedBy,
                    format!("caused_by is a {}, not an object", m.kind.name()),
                );
            }
        }
        // A cancellation says itself why the run failed: no upstream error
        // to reproduce (aoi's choice, § 7, § 13.1).
        if info.ok == Some(false)
            && info.reason.as_deref() != Some("cancelled")
            && ev.get("caused_by").is_none()
            && self.forwarded_errors > 0
        {
            let n = self.forwarded_errors;
            self.here(
                RuleId::SummaryCausedByMissing,
                format!("ok:false after {n} forwarded upstream aoi:error(s) (with origin) but no caused_by"),
            );
        }
        info.identity = self.identity_of(ev, "aoi:summary");
        // The two ends describe one stream (§ 5): the same identity, AOI 1.x.
        let mismatched: Vec<&str> = [
            ("tool", &self.identity.tool, &info.identity.tool),
            (
                "tool_version",
                &self.identity.tool_version,
                &info.identity.tool_version,
            ),
            (
                "aoi_version",
                &self.identity.aoi_version,
                &info.identity.aoi_version,
            ),
            (
                "schema_name",
                &self.identity.schema_name,
                &info.identity.schema_name,
            ),
            (
                "schema_version",
                &self.identity.schema_version,
                &info.identity.schema_version,
            ),
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
        if self.meta_count == 0 {
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
        self.summary = Some(info);
    }
}
