//! The peek (aoi's one-pass JSON validator and envelope reader) against
//! serde_json as the oracle: the same accept/reject on every input, and
//! when both accept an object, the same `type` and envelope. On UTF-8
//! input, [`Peeker::peek_checked`] (the path of lines whose block was
//! checked at once) against [`Peeker::peek`].
//!
//! serde_json reads the input with each escaped lone UTF-16 surrogate
//! written as `\ufffd` (`oracle.rs`: RFC 8259's grammar allows them, aoi
//! reads them as U+FFFD, serde_json rejects them). Documented exceptions,
//! where serde_json is not an oracle for RFC 8259: numbers out of f64's
//! range (serde_json rejects `1e400`, RFC 8259 allows it) and nesting past
//! serde_json's recursion limit of 128 (aoi has no recursion).
#![no_main]

mod oracle;

use aoi::peek::{Kind, Peeker, span, unescape};
use libfuzzer_sys::fuzz_target;
use oracle::surrogates_as_fffd;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let mut p = Peeker::new();
    let ours = p.peek(data);
    if std::str::from_utf8(data).is_ok() {
        // A line whose block's UTF-8 was checked at once skips the string
        // scan's own check: the same verdict and the same members.
        let mut q = Peeker::new();
        assert_eq!(q.peek_checked(data, true), ours);
        assert_eq!(q.members, p.members);
        assert_eq!(q.envelope, p.envelope);
        assert_eq!((q.top, q.type_member, q.aoi_member), (p.top, p.type_member, p.aoi_member));
        assert_eq!(q.reserved_dups, p.reserved_dups);
    }
    let theirs = serde_json::from_slice::<Value>(&surrogates_as_fffd(data));
    match (&ours, &theirs) {
        (Ok(()), Ok(v)) => same_members(data, &p, v),
        (Err(_), Err(_)) => {}
        (Ok(()), Err(e)) => {
            let m = e.to_string();
            let excused = m.contains("recursion limit") || m.contains("number out of range");
            assert!(excused, "aoi accepts, serde_json rejects: {m}");
        }
        (Err(e), Ok(_)) => panic!("aoi rejects ({e:?}), serde_json accepts"),
    }
});

/// When both accept: the first `type` and the envelope read the same.
fn same_members(line: &[u8], p: &Peeker, v: &Value) {
    let Some(obj) = v.as_object() else {
        assert!(p.type_member.is_none());
        return;
    };
    // serde_json keeps the last of duplicate keys, aoi reads the first and
    // the judge flags the duplicate (§ 8.1): compare only unique ones.
    let count = |name: &str| {
        p.members
            .iter()
            .filter(|m| unescape(span(line, &m.key)) == name)
            .count()
    };
    if count("type") == 1 {
        let m = &p.members[p.type_member.expect("type found")];
        let raw = span(line, &m.value);
        let ours: Value =
            serde_json::from_slice(&surrogates_as_fffd(raw)).expect("a member value is JSON");
        assert_eq!(Some(&ours), obj.get("type"));
        if let (Kind::String { .. }, Some(Value::String(s))) = (m.kind, obj.get("type")) {
            assert_eq!(&*unescape(&raw[1..raw.len() - 1]), s.as_str());
        }
    }
    if count("aoi") == 1 {
        if let Some((seq, run)) = &p.envelope {
            let env = obj.get("aoi").expect("aoi member");
            assert_eq!(env.get("seq").and_then(Value::as_u64), Some(*seq));
            let run_raw = span(line, run);
            let run_val: Value = serde_json::from_slice(&surrogates_as_fffd(run_raw))
                .expect("run is a JSON string");
            assert_eq!(env.get("run"), Some(&run_val));
        }
    }
}
