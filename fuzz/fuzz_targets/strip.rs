//! `aoi strip` on arbitrary streams: every output line is one JSON object
//! without a top-level `aoi` member, and equals the input's domain event
//! with `aoi` deleted (serde_json values compared); `--control` gives back
//! framework events byte for byte.
#![no_main]

use aoi::cmd::strip::strip_bytes;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let (out, _) = strip_bytes(data, false, false);
    // The domain events of the input, parsed, `aoi` removed.
    let mut want: Vec<Value> = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        let Ok(Value::Object(mut m)) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        match m.get("type") {
            Some(Value::String(t)) if !t.starts_with("aoi:") => {}
            _ => continue,
        }
        m.remove("aoi");
        want.push(Value::Object(m));
    }
    let mut got = Vec::new();
    for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(line).expect("strip wrote invalid JSON");
        assert!(v.get("aoi").is_none(), "an aoi member survived");
        got.push(v);
    }
    // aoi drops lines it finds invalid that serde_json accepts (duplicate
    // reserved keys, lines after an unterminated tail…): every output line
    // must be one of the input's domain events, in order.
    let mut it = want.iter();
    for g in &got {
        assert!(
            it.any(|w| w == g),
            "strip wrote an event the input does not hold: {g}"
        );
    }
    let (ctl, _) = strip_bytes(data, false, true);
    for line in ctl.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        assert!(
            data.split(|&b| b == b'\n').any(|l| l == line),
            "--control changed a line"
        );
    }
});
