//! `aoi filter`'s value path: a line peeked, built as a jq value from the
//! peek's spans, and written back must be valid JSON that means the same
//! as the line (serde_json values compared, where serde_json can read it;
//! it reads escaped lone surrogates as U+FFFD, as aoi does: `oracle.rs`).
#![no_main]

mod oracle;

use aoi::jq::{object_from_peek, too_deep, write_json};
use aoi::peek::Peeker;
use libfuzzer_sys::fuzz_target;
use oracle::surrogates_as_fffd;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let mut p = Peeker::new();
    if p.peek(data).is_err() || too_deep(data) || p.top != Some(aoi::peek::Kind::Object) {
        return;
    }
    let Ok(v) = object_from_peek(data, &p) else {
        return;
    };
    let mut out = Vec::new();
    if write_json(&mut out, &v).is_err() {
        return;
    }
    // Valid JSON by aoi's validator (which the `peek` target holds to
    // serde_json); serde_json itself rejects numbers past f64's range.
    assert!(
        Peeker::new().peek(&out).is_ok(),
        "filter wrote invalid JSON"
    );
    let (Ok(orig), Ok(written)) = (
        serde_json::from_slice::<Value>(&surrogates_as_fffd(data)),
        serde_json::from_slice::<Value>(&surrogates_as_fffd(&out)),
    ) else {
        return;
    };
    {
        // Numbers may be re-spelled (1.0 / 1e0), so compare as f64 where
        // both are numbers; serde_json's maps keep the last duplicate, as
        // jq does.
        assert!(same(&orig, &written), "{orig} != {written}");
    }
});

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}
