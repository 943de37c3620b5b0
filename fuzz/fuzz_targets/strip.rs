//! `aoi strip` on arbitrary streams: every output line is one JSON object
//! without a top-level `aoi` member, and equals the input's domain event
//! with `aoi` deleted (serde_json values compared where serde_json can read
//! it; it cannot read numbers past f64's range). serde_json reads each
//! line as aoi does by design (`oracle.rs`): after a byte order mark (one
//! `line.bom` finding, the event still read) and with escaped lone
//! surrogates as U+FFFD. `--control` gives back
//! framework events byte for byte (after a byte order mark, as both planes
//! write the event that follows it). With a 64-byte hold (lines read in
//! pieces and written from a temporary file), the same output and verdict.
#![no_main]

mod oracle;

use aoi::cmd::strip::{Plane, strip_bytes, strip_bytes_holding};
use aoi::peek::{Kind, Peeker};
use libfuzzer_sys::fuzz_target;
use oracle::{surrogates_as_fffd, without_bom};
use serde_json::Value;

/// The line as serde_json reads it, where it can.
fn read(line: &[u8]) -> Option<Value> {
    serde_json::from_slice(&surrogates_as_fffd(line)).ok()
}

fuzz_target!(|data: &[u8]| {
    let (out, _) = strip_bytes(data, Plane::Data);
    // The domain events of the input, parsed, `aoi` removed.
    let mut want: Vec<Value> = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        let Some(Value::Object(mut m)) = read(without_bom(line)) else {
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
        if let Some(v) = read(line) {
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
            data.split(|&b| b == b'\n').any(|l| without_bom(l) == line),
            "--control changed a line"
        );
    }
    // A line's length changes nothing.
    for plane in [Plane::Data, Plane::Control] {
        let (whole, v) = strip_bytes(data, plane);
        let (pieces, w) = strip_bytes_holding(data, plane, 64);
        assert_eq!(whole, pieces, "a 64-byte hold strips differently");
        assert_eq!(v.exit_code, w.exit_code);
    }
});
