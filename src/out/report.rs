//! Pieces of aoi's own report stream that every command writes alike:
//! the cause and identity objects, an unreadable input's error, and the
//! closing summary that accounts for the upstream (§ 13.1).

use crate::spec::exit::Code;
use serde_json::{Map, Value};

use crate::emit::{ErrorEvent, Reason, Summary};
use crate::judge::{Cause, Identity, Outcome, Verdict};

use super::sinks::*;
use super::text::*;
use super::verdicts::Verdicts;

/// A cause (`caused_by`, § 13.1) as the JSON object aoi writes.
pub(crate) fn cause_json(c: &Cause) -> Value {
    let mut m = Map::new();
    for (k, v) in [
        ("origin", &c.origin),
        ("category", &c.category),
        ("code", &c.code),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), v.clone().into());
        }
    }
    m.insert("retryable".into(), c.retryable.unwrap_or(false).into());
    if c.retryable == Some(true) {
        if let Some(ms) = c.retry_after_ms {
            m.insert("retry_after_ms".into(), ms.into());
        }
    }
    Value::Object(m)
}

pub(crate) fn identity_json(id: &Identity) -> Value {
    Value::Object(
        id.fields()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into()))
            .collect(),
    )
}

/// The identity of the stream's producer: its aoi:meta, else its summary.
pub(crate) fn upstream_identity(v: &Verdict) -> Identity {
    if !v.identity.is_empty() {
        return v.identity.clone();
    }
    v.summary
        .as_ref()
        .map(|s| s.identity.clone())
        .unwrap_or_default()
}

/// aoi's own item-level `aoi:error` for an input that cannot be read.
pub(crate) fn unreadable_error(msg: &str, source: &str) -> ErrorEvent {
    ErrorEvent::new("not_found", "INPUT_UNREADABLE", msg)
        .field("scope", "item")
        .field("target", source)
}

/// Emits aoi's own closing events: an `aoi:error` for its own failure
/// (violations or an incomplete stream), then the `aoi:summary` (§ 13.1)
/// with the command's `properties`, and flushes.
pub(crate) fn finish_report(
    sinks: &mut Sinks,
    verdicts: &Verdicts,
    code: Code,
    properties: Value,
) -> Result<(), Stop> {
    let closing = Closing {
        code,
        properties,
        cause: None,
        extra: (0, 0, 0),
    };
    close_report(sinks, verdicts, closing)
}

/// Whether a stream's upstream `aoi:error` events fail the run of an AOI
/// producer (§ 13.1; see [`Verdicts::upstream_errors`]): it had some, and
/// it did not end `denied`, `timeout` or `cancelled`, which carry their
/// own exit status, as in `check` (124 with a non-retryable error, not 1):
/// its errors do not overrule it.
pub(crate) fn counted_upstream(v: &Verdict) -> bool {
    v.errors > 0
        && !matches!(
            v.outcome,
            Outcome::Denied | Outcome::Timeout | Outcome::Cancelled
        )
}

/// The one stderr line that says why a producer's exit differs from the
/// verdict on its input (which may be ok): upstream `aoi:error` events it
/// must fail on (§ 13.1). Said only when they decided `code`.
pub(crate) fn say_upstream_errors(
    command: &str,
    quiet: bool,
    code: Code,
    upstream: Option<&(Code, Option<Cause>)>,
) {
    let Some((upstream_code, worst)) = upstream.filter(|(c, _)| *c == code) else {
        return;
    };
    let first = worst.as_ref().map_or(String::new(), |c| {
        let s = |v: &Option<String>| v.clone().unwrap_or_default();
        let retry = match c.retryable {
            Some(true) => "retryable",
            _ => "not retryable",
        };
        format!(
            " (the most severe: {} {}, {retry})",
            s(&c.category),
            s(&c.code)
        )
    });
    eprint_safe(
        quiet,
        &format!(
            "aoi {command}: exit {upstream_code}: the input carries upstream aoi:error events{first}, \
             which fail an AOI producer (§ 13.1); --continue-on-error to go on"
        ),
    );
}

/// How a producer closes its stream. What it emitted itself (`count`, its
/// own errors) the [`Emitter`] has counted.
pub(crate) struct Closing {
    /// The exit status; the summary is `ok:true` only for 0.
    pub code: Code,
    pub properties: Value,
    /// The error to reproduce as `caused_by` when no stream's verdict
    /// explains `code`: an upstream `aoi:error` the upstream itself survived
    /// (a transformer fails on it, § 13), or one of the producer's own.
    pub cause: Option<Cause>,
    /// Events consumed outside the judged streams (domain, warnings,
    /// errors), still counted in the summary (§ 8.3).
    pub extra: (u64, u64, u64),
}

/// The summary's reason for a failing exit status, from the outcome that
/// decided it (§ 8.3: `denied`, `timeout`, `cancelled`, else `failed`).
pub(crate) fn reason_for(code: Code, outcome: Option<Outcome>) -> Reason {
    match outcome {
        Some(Outcome::Denied) if code == Code::NOPERM => Reason::Denied,
        Some(Outcome::Timeout) if code == Code::TIMEOUT => Reason::Timeout,
        Some(Outcome::Cancelled) if code == Code::CANCELLED => Reason::Cancelled,
        _ => Reason::Failed,
    }
}

/// [`finish_report`] with every part of the closing stated.
pub(crate) fn close_report(
    sinks: &mut Sinks,
    verdicts: &Verdicts,
    closing: Closing,
) -> Result<(), Stop> {
    let Closing {
        code,
        properties,
        cause,
        extra,
    } = closing;
    let worst = verdicts.worst();
    let ok = code == Code::OK;
    let own = worst.and_then(|v| v.outcome.own_failure());
    // The error `caused_by` reproduces (§ 13.1): the failing stream's
    // cause, else aoi's own error for a stream that broke the contract or
    // was cut, else the one the command names.
    let mut caused_by = worst
        .filter(|v| v.exit_code == code && own.is_none())
        .and_then(|v| v.cause.clone());
    if let (Some((category, ecode)), Some(v)) = (own, worst) {
        if code == v.exit_code {
            caused_by = Some(Cause::own(category, ecode));
            sinks
                .out
                .error(&ErrorEvent::new(category, ecode, sanitize(&v.reason)).retryable(false))?;
        }
    }
    let mut summary = if ok {
        Summary::ok()
    } else {
        Summary::failed(reason_for(code, worst.map(|v| v.outcome)))
    };
    summary = summary
        .input_count(verdicts.consumed.0 + extra.0)
        .consumed(verdicts.consumed.1 + extra.1, verdicts.consumed.2 + extra.2);
    if !ok {
        if let Some(c) = caused_by.or(cause) {
            summary = summary.field("caused_by", cause_json(&c));
        }
    }
    // § 13.1: the direct upstream's identity, omitted when unknown or when
    // several streams disagree.
    if let Some(first) = verdicts.upstream() {
        summary = summary.field("upstream", identity_json(first));
    }
    summary = summary.field("properties", properties);
    sinks.out.finish(&summary)
}
