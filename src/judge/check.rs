//! A whole stream judged in one call: what `aoi check` does, for a
//! library user that holds a reader.

use std::io::Read;

use super::{Finding, Judge, JudgeOptions, Verdict};

/// Judges the stream `reader` yields, to its end, with the default
/// options (a bounded operation, § 4): the [`Verdict`] and every finding
/// in the stream's order (at most [`JudgeOptions::per_rule_limit`] of one
/// rule; the verdict counts them all). A read error ends the stream as
/// incomplete (`input.io-error`), as in `aoi check`.
///
/// ```
/// let stream = b"{\"type\":\"hit\"}\n";
/// let (verdict, findings) = aoi::judge::check(&stream[..]);
/// assert_eq!(verdict.exit_code, 74); // no aoi:summary: incomplete (§ 4)
/// let absent = findings.iter().find(|f| f.rule.id() == "seq.absent").expect("seq.absent");
/// assert!(absent.to_string().starts_with("stream: advisory seq.absent (§ 8.1, § 18): "), "{absent}");
/// ```
pub fn check<R: Read>(reader: R) -> (Verdict, Vec<Finding>) {
    check_with(reader, JudgeOptions::default())
}

/// [`check`] with options (`unbounded`, `fail_on_partial`, the per-rule
/// limit, and with the `schema` feature the tool's JSON Schema, which
/// every event must fit: `schema.invalid` otherwise, § 10).
///
/// A tool's own test that its events fit the schema it declares:
///
/// ```
/// # #[cfg(feature = "schema")] {
/// use std::sync::Arc;
/// use aoi::emit::discovery::schema_document;
/// use aoi::emit::{Producer, Summary, ToolIdentity};
/// use aoi::judge::{JudgeOptions, check_with};
/// use serde_json::json;
///
/// let id = ToolIdentity::new("count", "0.1.0", "org.example.count.events", "1.0.0");
/// let n = json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}});
/// let doc = schema_document(&id, "https://example.org/count.json", &[("n", n)]);
/// let schema = Arc::new(aoi::validator::EventSchema::from_value(&doc).expect("it compiles"));
/// let judged = |stream: &[u8]| {
///     let opts = JudgeOptions { schema: Some(schema.clone()), ..Default::default() };
///     check_with(stream, opts)
/// };
///
/// let mut stream = Vec::new();
/// let mut out = Producer::start(id.clone(), "count", &mut stream).expect("written");
/// out.event("n", &[("n", 1.into())]).expect("written");
/// out.event("n", &[("n", "two".into())]).expect("the judge's rules allow it");
/// assert_eq!(out.close(Summary::ok()).code(), 0);
///
/// let (verdict, findings) = judged(&stream);
/// assert_eq!(verdict.exit_code, 65); // the schema says n is an integer
/// assert_eq!(findings.len(), 1);
/// assert_eq!(findings[0].rule.id(), "schema.invalid");
/// # }
/// ```
pub fn check_with<R: Read>(reader: R, opts: JudgeOptions) -> (Verdict, Vec<Finding>) {
    let mut judge = Judge::new(opts);
    let mut findings = Vec::new();
    let never: Result<(), std::convert::Infallible> = crate::drive::drive(
        reader,
        &mut judge,
        |_, _| Ok(()),
        |j, _| {
            findings.extend(j.drain());
            Ok(())
        },
    );
    let Ok(()) = never;
    let (verdict, rest) = judge.finish();
    findings.extend(rest);
    (verdict, findings)
}
