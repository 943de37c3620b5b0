//! The streams lint feeds a tool's stdin: a known upstream that failed
//! (check 16), one with a line that is not JSON (check 12), and the
//! example search `--self` gives aoi's own commands.

use crate::spec::types;

const UPSTREAM_RUN: &str = "01LINTUPSTREAM0000000000AA";
const UPSTREAM_ID: &str = r#""tool":"aoi-lint-upstream","tool_version":"1.0.0","aoi_version":"1.0-alpha","schema_name":"org.aoi-toolkit.lint.upstream","schema_version":"1.0.0""#;

/// One upstream line with the envelope at `seq`; `body` is `,"k":v…`.
fn upstream_line(ty: &str, seq: u64, body: &str) -> String {
    format!("{{\"type\":\"{ty}\",\"aoi\":{{\"seq\":{seq},\"run\":\"{UPSTREAM_RUN}\"}}{body}}}\n")
}

/// The known upstream stream of check 16: a failed run whose error says
/// retry may help, with the retry fields `caused_by` must carry.
pub(super) fn upstream_stream() -> Vec<u8> {
    let mut s = upstream_line(
        types::META,
        0,
        &format!(",{UPSTREAM_ID},\"command\":\"probe\""),
    );
    s += &upstream_line("hit", 1, r#","rank":1,"id":"doc_1""#);
    s += &upstream_line(
        types::ERROR,
        2,
        r#","scope":"process","category":"rate_limited","code":"LINT_RATE_LIMITED","message":"slow down","retryable":true,"retry_after_ms":1500"#,
    );
    s += &upstream_line(
        types::SUMMARY,
        3,
        &format!(
            r#","ok":false,"reason":"failed","count":1,"warning_count":0,"error_count":1,"event_count":4,"caused_by":{{"category":"rate_limited","code":"LINT_RATE_LIMITED","retryable":true,"retry_after_ms":1500}},{UPSTREAM_ID}"#
        ),
    );
    s.into_bytes()
}

/// The stream of check 12: a successful run with one line that is not
/// JSON between two events (so only that line can make the tool fail).
pub(super) fn malformed_stream() -> Vec<u8> {
    let mut s = upstream_line(
        types::META,
        0,
        &format!(",{UPSTREAM_ID},\"command\":\"probe\""),
    );
    s += &upstream_line("hit", 1, r#","rank":1,"id":"doc_1""#);
    s += "this line is not JSON {\n";
    s += &upstream_line("hit", 2, r#","rank":2,"id":"doc_2""#);
    s += &upstream_line(
        types::SUMMARY,
        3,
        &format!(
            r#","ok":true,"count":2,"warning_count":0,"error_count":0,"event_count":4,{UPSTREAM_ID}"#
        ),
    );
    s.into_bytes()
}

/// The example stream `--self` feeds (a complete, conforming search).
pub(super) const SELF_INPUT: &[u8] = include_bytes!("../../../examples/search.jsonl");

/// [`malformed_stream`] without its bad line: what the tool does with the
/// same events when nothing is wrong (check 12 compares the two).
pub(super) fn clean_stream() -> Vec<u8> {
    let bad = b"this line is not JSON {\n";
    let s = malformed_stream();
    match memchr::memmem::find(&s, bad) {
        Some(at) => [&s[..at], &s[at + bad.len()..]].concat(),
        None => s,
    }
}
