//! The framework events' JSON Schemas as aoi declares them (§ 8): the
//! envelope, `aoi:meta`, `aoi:summary`, `aoi:error`, `aoi:warning` and
//! lint's `aoi:check`; `aoi schema` adds aoi's own events, a tool its own
//! ([`super::discovery::schema_document`]).

use serde_json::{Map, Value, json};

use crate::spec;

pub(crate) fn string() -> Value {
    json!({"type": "string"})
}

pub(crate) fn count() -> Value {
    json!({"type": "integer", "minimum": 0})
}

pub(crate) fn strings() -> Value {
    json!({"type": "string"})
}

/// The object an event type's `$defs` entry describes.
pub(crate) fn event(required: &[&str], props: Value) -> Value {
    json!({"type": "object", "required": required, "properties": props})
}

/// The framework events aoi writes (§ 8): the envelope, `aoi:meta`,
/// `aoi:summary`, `aoi:error`, `aoi:warning` and lint's `aoi:check`.
pub fn framework_defs() -> Map<String, Value> {
    let mut defs = Map::new();
    defs.insert(
        "envelope".into(),
        json!({
            "type": "object", "required": ["seq", "run"],
            "properties": {"seq": count(), "run": {"type": "string", "minLength": 1},
                           "t": {"type": "number", "minimum": 0}, "trace_id": string()},
        }),
    );
    defs.insert("aoi_meta".into(), meta());
    defs.insert("aoi_summary".into(), summary());
    defs.insert("aoi_error".into(), error());
    // § 8.3 leaves aoi:warning's fields open; forwarded ones keep theirs.
    defs.insert(
        "aoi_warning".into(),
        event(&[], json!({"origin": string()})),
    );
    defs.insert("aoi_check".into(), check());
    defs
}

/// The identity fields of `aoi:meta` and `aoi:summary` (§ 5).
pub(crate) fn identity() -> Value {
    let mut p = json!({});
    for k in spec::IDENTITY_FIELDS {
        p[k] = string();
    }
    p
}

/// `aoi:meta` (§ 8.1).
pub(crate) fn meta() -> Value {
    let mut p = identity();
    p["command"] = string();
    let mut required = spec::IDENTITY_FIELDS.to_vec();
    required.push("command");
    event(&required, p)
}

/// `aoi:summary` (§ 8.2), with aoi's own `caused_by` (§ 9.1).
pub(crate) fn summary() -> Value {
    let mut reasons: Vec<&str> = spec::FAILURE_REASONS.to_vec();
    reasons.push(spec::SUCCESS_REASON);
    let cause = json!({
        "type": "object",
        "required": ["retryable"],
        "properties": {
            "origin": string(), "category": string(),
            "code": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
            "retryable": {"type": "boolean"}, "retry_after_ms": count(),
        },
    });
    let mut p = identity();
    for (k, v) in [
        ("ok", json!({"type": "boolean"})),
        ("reason", json!({"enum": reasons})),
        ("count", count()),
        ("input_count", count()),
        ("warning_count", count()),
        ("error_count", count()),
        ("event_count", count()),
        ("elapsed_ms", count()),
        ("caused_by", cause),
        (
            "upstream",
            json!({"type": "object", "properties": identity()}),
        ),
        ("properties", json!({"type": "object"})),
    ] {
        p[k] = v;
    }
    let required = [
        "ok",
        "event_count",
        "count",
        "tool",
        "tool_version",
        "aoi_version",
        "schema_version",
    ];
    event(&required, p)
}

/// `aoi:error` (§ 9.1).
pub(crate) fn error() -> Value {
    let categories: Vec<&str> = spec::CATEGORIES.iter().map(|(c, _)| *c).collect();
    let props = json!({
        "category": {"type": "string", "not": {"const": "partial"}, "examples": categories},
        "code": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
        "message": {"type": "string", "pattern": "^[^\\n\\r\\u001b]*$"},
        "retryable": {"type": "boolean"}, "retry_after_ms": count(),
        "origin": string(), "scope": {"enum": spec::SCOPES}, "target": string(),
        "item_index": count(), "line_number": count(), "domain": string(),
        "properties": {"type": "object"},
    });
    let mut e = event(&["category", "code", "message", "retryable"], props);
    // § 9.1: retry_after_ms only with retryable:true.
    e["if"] = json!({"properties": {"retryable": {"const": false}}});
    e["then"] = json!({"not": {"required": ["retry_after_ms"]}});
    e
}

/// aoi lint's results (§ 8.3 aoi:check; § 18 in properties).
pub(crate) fn check() -> Value {
    event(
        &["name", "ok"],
        json!({
            "name": string(), "ok": {"type": "boolean"},
            "severity": {"enum": ["info", "warning", "error"]}, "detail": string(),
            "properties": {
                "type": "object",
                "properties": {
                    "check": {"type": "integer", "minimum": 1, "maximum": 16},
                    "factors": {"type": "array", "items": string()},
                    "command": string(),
                    "status": {"enum": ["pass", "fail", "not_applicable", "not_tested"]},
                    "evidence": {"type": "array", "items": string()},
                },
            },
        }),
    )
}
