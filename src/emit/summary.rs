//! What a run ends with and what fails in it: [`Summary`] and its
//! [`Reason`] (§ 8.3), [`ErrorEvent`] (§ 9.1).

use serde_json::Value;

use crate::spec::{self, exit};
use crate::spec::{Category, Reason, Scope};

/// What a run's terminal `aoi:summary` says beyond what the [`Emitter`](super::Emitter)
/// counted itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub(super) ok: bool,
    pub(super) reason: Option<Reason>,
    pub(super) input_count: Option<u64>,
    pub(super) consumed_warnings: u64,
    pub(super) consumed_errors: u64,
    pub(super) fields: Vec<(String, Value)>,
}

impl Summary {
    /// `ok:true`.
    pub fn ok() -> Self {
        Summary {
            ok: true,
            reason: None,
            input_count: None,
            consumed_warnings: 0,
            consumed_errors: 0,
            fields: Vec::new(),
        }
    }

    /// `ok:true`, `reason:"skipped"`: not applicable, did not run.
    pub fn skipped() -> Self {
        Summary {
            reason: Some(Reason::Skipped),
            ..Self::ok()
        }
    }

    /// `ok:false` with `reason`. [`Reason::Skipped`] goes with `ok:true`
    /// only ([`Summary::skipped`]): a producer refuses a summary that
    /// pairs it with `ok:false` (`summary.reason`, § 8.3).
    pub fn failed(reason: Reason) -> Self {
        Summary {
            ok: false,
            reason: Some(reason),
            ..Self::ok()
        }
    }

    /// `ok:false`, `reason:"cancelled"`.
    pub fn cancelled() -> Self {
        Self::failed(Reason::Cancelled)
    }

    /// `ok:true` with results cut at a limit (§ 15): `truncated:true`,
    /// and `next_cursor`, the cursor that fetches the rest (`None` when
    /// there is no way to fetch it: `null`).
    pub fn truncated(next_cursor: Option<&str>) -> Self {
        Self::ok()
            .field("truncated", true)
            .field("next_cursor", next_cursor)
    }

    /// `ok:true` with usable output and at least one failed item, which
    /// the run reported as an item-scope `aoi:error` (§ 8.3, § 9.2):
    /// `partial:true`.
    pub fn partial() -> Self {
        Self::ok().field("partial", true)
    }

    /// Whether the summary says `ok:true`.
    pub fn is_ok(&self) -> bool {
        self.ok
    }

    /// The summary's reason.
    pub fn reason(&self) -> Option<Reason> {
        self.reason
    }

    /// `input_count`: domain events consumed from stdin (transformers).
    pub fn input_count(mut self, n: u64) -> Self {
        self.input_count = Some(n);
        self
    }

    /// Upstream `aoi:warning` and `aoi:error` events consumed, added to the
    /// tool's own in `warning_count` and `error_count` (§ 8.3).
    pub fn consumed(mut self, warnings: u64, errors: u64) -> Self {
        self.consumed_warnings = warnings;
        self.consumed_errors = errors;
        self
    }

    /// Any other member (`partial`, `truncated`, `next_cursor`,
    /// `caused_by`, `upstream`, `properties`), after the counters, in the
    /// order added. Tool-specific data belongs in `properties` (§ 8.1).
    /// The members the emitter writes itself (`ok`, `reason`, the counters,
    /// `elapsed_ms`, `event_count`, the identity, `type`, `aoi`) are
    /// ignored here: a key appears once.
    pub fn field(mut self, name: &str, value: impl Into<Value>) -> Self {
        if !spec::summary_own_field(name) && !self.fields.iter().any(|(k, _)| k == name) {
            self.fields.push((name.to_string(), value.into()));
        }
        self
    }

    /// The exit status that goes with this summary alone (§ 6): 0 for
    /// `ok:true`, 130 cancelled, 124 timeout, 77 denied, 1 failed. What
    /// the whole stream says (75 after a retryable failure, 143 for
    /// SIGTERM) is [`Producer::close`](super::Producer::close)'s [`Exit`](super::Exit).
    pub fn exit_code(&self) -> i32 {
        if self.ok {
            return exit::OK;
        }
        match self.reason {
            Some(Reason::Cancelled) => exit::CANCELLED,
            Some(Reason::Timeout) => exit::TIMEOUT,
            Some(Reason::Denied) => exit::NOPERM,
            _ => exit::FAILED,
        }
    }
}

/// An `aoi:error` (§ 9.1): category, code and message, with `retryable`
/// taken from the category's default (§ 9.2) unless set.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorEvent {
    category: String,
    code: String,
    message: String,
    retryable: Option<bool>,
    fields: Vec<(String, Value)>,
}

impl ErrorEvent {
    /// An error of a [`Category`] with a `code` in `[A-Z][A-Z0-9_]*` and
    /// a one-line message for people; `retryable` is the category's
    /// default unless [set](Self::retryable).
    pub fn of(category: Category, code: &str, message: impl Into<String>) -> Self {
        Self::new(category.as_str(), code, message)
    }

    /// `scope` (§ 9.1): [`Scope::Process`] ends the run,
    /// [`Scope::Item`] one item of it.
    pub fn scope(self, scope: Scope) -> Self {
        self.field("scope", scope.as_str())
    }

    /// `target`: what failed (a path, an id, a URL without secrets).
    pub fn target(self, target: impl Into<Value>) -> Self {
        self.field("target", target)
    }

    /// `retry_after_ms` (§ 9.1): when to retry; only with `retryable:true`.
    pub fn retry_after_ms(self, ms: u64) -> Self {
        self.field("retry_after_ms", ms)
    }

    /// An error of `category` (§ 9.2, by its name on the wire) with a
    /// `code` in `[A-Z][A-Z0-9_]*` and a message for people.
    pub fn new(category: &str, code: &str, message: impl Into<String>) -> Self {
        ErrorEvent {
            category: category.to_string(),
            code: code.to_string(),
            message: message.into(),
            retryable: None,
            fields: Vec::new(),
        }
    }

    /// `retryable`, authoritative over the category's default (§ 9.3).
    pub fn retryable(mut self, r: bool) -> Self {
        self.retryable = Some(r);
        self
    }

    /// Any other member: `scope`, `target`, `retry_after_ms`, `origin`,
    /// `properties`…, in the order added, after `retryable`. `type`, `aoi`
    /// and the four members set by [`new`](Self::new) and
    /// [`retryable`](Self::retryable) are ignored here: a key appears once.
    pub fn field(mut self, name: &str, value: impl Into<Value>) -> Self {
        const OWN: &[&str] = &["type", "aoi", "category", "code", "message", "retryable"];
        if !OWN.contains(&name) && !self.fields.iter().any(|(k, _)| k == name) {
            self.fields.push((name.to_string(), value.into()));
        }
        self
    }

    pub(super) fn fields(&self) -> Vec<(&str, Value)> {
        let retryable = self
            .retryable
            .or_else(|| spec::category_default_retryable(self.category.as_bytes()))
            .unwrap_or(false);
        let mut f: Vec<(&str, Value)> = Vec::with_capacity(4 + self.fields.len());
        // `scope` first when given, as aoi has always written it.
        if let Some((_, v)) = self.fields.iter().find(|(k, _)| k == "scope") {
            f.push(("scope", v.clone()));
        }
        f.push(("category", self.category.as_str().into()));
        f.push(("code", self.code.as_str().into()));
        f.push(("message", self.message.as_str().into()));
        f.push(("retryable", retryable.into()));
        for (k, v) in self.fields.iter().filter(|(k, _)| k != "scope") {
            f.push((k.as_str(), v.clone()));
        }
        f
    }
}
