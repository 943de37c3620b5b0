//! `aoi strip` on arbitrary streams: every output line is one JSON object
//! without a top-level `aoi` member, and equals the input's domain event
//! with `aoi` deleted (serde_json values compared where serde_json can read
//! it; it cannot read numbers past f64's range); `--control` gives back
//! framework events byte for byte. With a 64-byte hold (lines read in
//! pieces and written from a temporary file), the same output and verdict.
#![no_main]

use aoi::cmd::strip::{Plane, strip_bytes, strip_bytes_holding};
use aoi::peek::{Kind, Peeker};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let (out, _) = strip_bytes(data, Plane::Data);
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
        // Valid JSON, one object, no top-level `aoi`, by aoi's validator
        // (which the `peek` target holds to serde_json)…
        let mut p = Peeker::new();
        assert!(p.peek(line).is_ok(), "strip wrote invalid JSON");
        assert_eq!(p.top, Some(Kind::Object), "strip wrote a non-object");
        assert!(p.aoi_member.is_none(), "an aoi member survived");
        // …and by serde_json where it can read the line: it rejects numbers
        // past f64's range, which are valid JSON (a crash kept in
        // tests/fuzz_regressions/).
        if let Ok(v) = serde_json::from_slice::<Value>(line) {
            assert!(v.get("aoi").is_none(), "an aoi member survived");
            got.push(v);
        }
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
    let (ctl, _) = strip_bytes(data, Plane::Control);
    for line in ctl.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        assert!(
            data.split(|&b| b == b'\n').any(|l| l == line),
            "--control changed a line"
        );
    }
    // A line's length changes nothing (issue 25).
    for plane in [Plane::Data, Plane::Control] {
        let (whole, v) = strip_bytes(data, plane);
        let (pieces, w) = strip_bytes_holding(data, plane, 64);
        assert_eq!(whole, pieces, "a 64-byte hold strips differently");
        assert_eq!(v.exit_code, w.exit_code);
    }
});
