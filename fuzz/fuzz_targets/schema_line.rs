//! `--schema`'s validation of a line read in place (the quick validator on
//! aoi's own reader of the event, with boon behind it) against serde_json
//! and boon alone: on every line the peek accepts as JSON (the only lines
//! the judge validates), the same answer: valid, the same problem, or
//! serde_json's refusal (a lone surrogate, a number past `f64`). Schemas:
//! the discriminated one of benches/schema and one of nested arrays and
//! objects, so the reader's every kind of value is read.
#![no_main]

use aoi::peek::Peeker;
use aoi::validator::EventSchema;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn schemas() -> &'static [EventSchema] {
    static SCHEMAS: std::sync::OnceLock<Vec<EventSchema>> = std::sync::OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let bench: Value = serde_json::from_str(include_str!("../../benches/schema/events.json"))
            .expect("the bench schema is JSON");
        let nested = serde_json::json!({
            "type": "object",
            "properties": {
                "a": {"type": "array", "items": {"type": ["integer", "null"], "maximum": 9}},
                "o": {"type": "object", "required": ["k"],
                      "additionalProperties": {"type": "string", "maxLength": 3}},
                "e": {"enum": [1, "x", [1, {"y": true}], {"z": null}]}
            },
            "additionalProperties": {"not": {"type": "number", "minimum": 100}}
        });
        [bench, nested]
            .iter()
            .map(|s| EventSchema::from_value(s).expect("the schema compiles"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    if Peeker::new().peek(data).is_err() {
        return;
    }
    for schema in schemas() {
        let ours = schema.line_problem(data);
        let theirs = serde_json::from_slice::<Value>(data).map(|v| {
            let (valid, _) = schema.both_answers(&v);
            (valid, schema.problem(&v))
        });
        match (ours, theirs) {
            (Ok(p), Ok((valid, want))) => {
                assert_eq!(p.is_none(), valid, "boon and aoi disagree on validity");
                assert_eq!(p, want, "a different problem");
            }
            (Err(_), Err(_)) => {}
            (ours, theirs) => panic!("aoi {ours:?}, serde_json and boon {theirs:?}"),
        }
    }
});
