//! `aoi check`: rules, exit codes, the report, the relay, the spec examples.

mod examples;
mod exits;
mod relay;
mod report;
mod rules;
mod spec_examples;

use crate::util::{RUN, identity, obj};

/// Replaces `$RUN` with the builder's run id, for hand-written lines.
pub fn j(s: &str) -> String {
    s.replace("$RUN", RUN)
}

/// An aoi:meta event with the identity triple (no envelope: the builder adds it).
pub fn meta_json() -> String {
    let mut m = obj(r#"{"type":"aoi:meta","command":"search"}"#);
    m.extend(identity());
    serde_json::Value::Object(m).to_string()
}

/// An `ok:true` aoi:summary with the identity and `patch` merged in.
pub fn summary_json(patch: &str) -> String {
    let mut m = obj(r#"{"type":"aoi:summary","ok":true}"#);
    m.extend(identity());
    m.extend(obj(patch));
    serde_json::Value::Object(m).to_string()
}

/// A conforming item-scoped aoi:error with `patch` merged in.
pub fn err(patch: &str) -> String {
    let mut m = obj(
        r#"{"type":"aoi:error","scope":"item","category":"not_found","code":"NOT_FOUND",
            "message":"no such document","retryable":false,"target":"/documents/x"}"#,
    );
    m.extend(obj(patch));
    serde_json::Value::Object(m).to_string()
}

/// [`err`] without `key`.
pub fn err_minus(key: &str) -> String {
    let mut m = obj(&err("{}"));
    m.remove(key);
    serde_json::Value::Object(m).to_string()
}

/// A conforming aoi:warning.
pub const WARNING: &str = r#"{"type":"aoi:warning","category":"validation","code":"INDEX_STALE","message":"Search index is 3 hours old.","retryable":false}"#;

/// A process-scoped, retryable rate-limit error (§ 9).
pub const RATE_LIMITED: &str = r#"{"type":"aoi:error","scope":"process","category":"rate_limited","code":"UPSTREAM_RATE_LIMIT","message":"Upstream API rate limit exceeded.","retryable":true,"retry_after_ms":4500}"#;

/// A process-scoped, non-retryable error.
pub const INTERNAL: &str = r#"{"type":"aoi:error","scope":"process","category":"internal","code":"PANIC","message":"unexpected state","retryable":false}"#;
