//! `aoi schema`: JSON Schema 2020-12 for every event aoi emits (§ 10).
//!
//! One schema, `aoi.toolkit.events` 1.0.0, discriminated on `type` with
//! `if`/`then` on a `$defs` entry per event type (§ 10.4), permissive for
//! fields it does not name (§ 10.3: output schemas allow extension). The
//! `$id` is an identifier under https, never a local path (§ 10.2), and is
//! not meant to be fetched (§ 5: the identity is `schema_name` and
//! `schema_version`).

use crate::spec::exit::Code;
use serde_json::{Map, Value, json};

use crate::cli::SchemaArgs;
use crate::emit::framework::{count, event, framework_defs, identity, string, strings};
use crate::emit::{SCHEMA_NAME, SCHEMA_VERSION};
use crate::spec::types;

/// The schema's `$id`.
pub const ID: &str = "https://schemas.aoi-toolkit.org/aoi.toolkit.events/1.0.0/schema.json";

/// The schema (§ 10), built once from the vocabulary in [`crate::spec`].
pub fn schema() -> Value {
    let mut defs = framework_defs();
    defs.append(&mut toolkit_defs());
    let dispatch = crate::emit::discovery::type_dispatch(
        [
            (types::META, "aoi_meta"),
            (types::SUMMARY, "aoi_summary"),
            (types::ERROR, "aoi_error"),
            (types::WARNING, "aoi_warning"),
            (types::CHECK, "aoi_check"),
            ("violation", "violation"),
            ("advisory", "advisory"),
            ("stream", "stream"),
            ("outcome", "outcome"),
            ("report", "report"),
            ("value", "value"),
            ("rule", "rule"),
        ]
        .into_iter(),
    );
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID,
        "title": format!("{SCHEMA_NAME} {SCHEMA_VERSION}"),
        "description": "Every event aoi writes in machine mode (AOI-CLI v1.0-alpha). Domain events of `aoi filter` carry the type the filter gave them and are not constrained here, except that an event of one of the types aoi names for its own events (value, report, outcome, stream, violation, advisory, rule) is read as aoi's, which a filter's event of that name may not be: a schema cannot tell them apart. Fields not named are allowed (§ 10.3).",
        "x-schema-name": SCHEMA_NAME,
        "x-schema-version": SCHEMA_VERSION,
        "type": "object",
        "required": ["type", "aoi"],
        "properties": {"type": {"type": "string"}, "aoi": {"$ref": "#/$defs/envelope"}},
        "allOf": dispatch,
        "$defs": defs,
    })
}

/// aoi's own event types: findings, per-stream verdicts, merged reports,
/// `filter`'s raw values and `rules`' catalog entries.
fn toolkit_defs() -> Map<String, Value> {
    let mut defs = Map::new();
    defs.insert("violation".into(), finding());
    defs.insert("advisory".into(), finding());
    defs.insert(
        "stream".into(),
        event(
            &["source", "outcome", "exit_code", "ok", "lines"],
            counts(&[
                ("bytes", count()),
                ("framework_count", count()),
                ("advisory_count", count()),
                ("terminated", json!({"type": "boolean"})),
                ("events", json!({"type": "object"})),
                ("rules", json!({"type": "object"})),
                ("factors", json!({"type": "object"})),
            ]),
        ),
    );
    defs.insert(
        "outcome".into(),
        event(
            &["source", "outcome", "exit_code", "ok", "lines"],
            counts(&[
                ("seq_reconciled", json!({"type": "boolean"})),
                ("advisory_count", count()),
                ("retryable", json!({"type": "boolean"})),
                ("retry_after_ms", count()),
                ("summary", json!({"type": ["object", "null"]})),
            ]),
        ),
    );
    defs.insert(
        "report".into(),
        event(
            &["source", "outcome", "exit_code", "ok", "lines", "domain_count", "warning_count", "error_count", "violation_count"],
            counts(&[
                ("checks", json!({"type": "array", "items": {"type": "object", "required": ["name", "ok"]}})),
                ("checks_dropped", count()),
                ("findings", json!({"type": "array", "items": strings()})),
            ]),
        ),
    );
    defs.insert("value".into(), event(&["value"], json!({})));
    defs.insert(
        "rule".into(),
        event(
            &["id", "severity", "spec", "hint", "doc"],
            json!({
                "id": string(), "severity": {"enum": ["violation", "incomplete", "advisory"]},
                "spec": string(), "hint": string(), "doc": string(),
            }),
        ),
    );
    defs
}

/// A `violation` or `advisory` finding of the judge.
fn finding() -> Value {
    event(
        &[
            "rule",
            "severity",
            "source",
            "line_number",
            "message",
            "spec",
        ],
        json!({
            "rule": string(), "severity": {"enum": ["violation", "incomplete", "advisory"]},
            "source": string(), "line_number": count(), "seq": count(), "message": string(),
            "spec": string(), "hint": string(),
        }),
    )
}

/// The fields every per-stream verdict shares (`stream`, `outcome`,
/// `report`), with `extra` and the stream's identity.
fn counts(extra: &[(&str, Value)]) -> Value {
    // A stream's cause as the judge read it: data about the upstream, so
    // its code is the upstream's, well-formed or not.
    let reported_cause = json!({
        "type": "object",
        "properties": {
            "origin": string(), "category": string(), "code": string(),
            "retryable": {"type": "boolean"}, "retry_after_ms": count(),
        },
    });
    let mut m = json!({
        "lines": count(), "domain_count": count(), "warning_count": count(),
        "error_count": count(), "violation_count": count(),
        "outcome": {"enum": ["ok", "failed", "retryable", "denied", "timeout", "cancelled", "incomplete", "violation"]},
        "exit_code": {"type": "integer"}, "ok": {"type": "boolean"}, "reason": string(),
        "source": string(), "run": string(), "caused_by": reported_cause,
        "elapsed_ms": {"type": "number", "minimum": 0},
    });
    for (k, v) in extra {
        m[*k] = v.clone();
    }
    for (k, v) in identity().as_object().into_iter().flatten() {
        m[k] = v.clone();
    }
    m
}

/// Prints the schema; returns the exit status.
pub fn run(args: &SchemaArgs) -> Code {
    if let Some(name) = &args.name {
        if name != SCHEMA_NAME {
            eprintln!("aoi schema: no schema named {name}; aoi has {SCHEMA_NAME}");
            return Code::USAGE;
        }
    }
    if let Some(v) = &args.schema_version {
        let major = SCHEMA_VERSION.split('.').next().unwrap_or("1");
        if v != SCHEMA_VERSION && v != major {
            eprintln!("aoi schema: no version {v} of {SCHEMA_NAME}; aoi has {SCHEMA_VERSION}");
            return Code::USAGE;
        }
    }
    let text = format!("{}\n", schema());
    crate::out::print_stdout("schema", &text)
}

#[cfg(test)]
mod tests {
    use crate::validator::EventSchema;
    use serde_json::json;

    /// aoi's own schema compiles, and judges aoi's events by it.
    #[test]
    fn aoi_schema_compiles_and_judges_aoi_events() {
        let s = EventSchema::from_value(&super::schema()).expect("aoi schema");
        let good = json!({"type":"aoi:error","aoi":{"seq":1,"run":"R"},"category":"io","code":"X","message":"m","retryable":false});
        assert_eq!(s.problem(&good), None);
        let bad = json!({"type":"aoi:error","aoi":{"seq":1,"run":"R"},"category":"io","code":"X","message":"m","retryable":false,"retry_after_ms":5});
        assert!(s.problem(&bad).is_some());
    }
}
