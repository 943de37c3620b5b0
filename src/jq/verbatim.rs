//! Values of a validated JSON object line written from the line's own
//! bytes: what a plain path (`.title`, `.owner.name`) or an object built
//! of plain paths (`{id, title}`) prints, without building the event as
//! jaq's value. Where the bytes are already what [`super::write_json`]
//! writes for the value jaq reads from them ([`verbatim`]) they are
//! copied; anything else is read as the general path reads it
//! ([`super::value_of`]) and written as it writes it, so the text is the
//! general path's, byte for byte.

use crate::peek::{Kind, Member, Peeker, key_is, object_members, span};

/// What a path of literal keys finds in an object line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Found<'a> {
    /// `null`: the member is missing, or a step went into `null` (jq's
    /// `.a` on `null` is `null`).
    Null,
    /// A member's value: its kind and its bytes in the line.
    Value(Kind, &'a [u8]),
}

/// The value at `keys` (literal keys, at least one) in the object `line`
/// whose top-level members `peek` holds. `None` when a step goes into a
/// value that is neither an object nor `null`: jq's error, which the
/// general path gives. A repeated key's last value is the one found, as
/// in jaq's value of the object.
pub fn member_at<'a>(line: &'a [u8], peek: &Peeker, keys: &[String]) -> Option<Found<'a>> {
    let mut nested: Vec<Member> = Vec::new();
    let mut obj: &[u8] = line;
    let mut found = Found::Null;
    for (depth, key) in keys.iter().enumerate() {
        let members: &[Member] = if depth == 0 {
            &peek.members
        } else {
            match found {
                Found::Value(Kind::Object, raw) => obj = raw,
                Found::Value(Kind::Null, _) | Found::Null => return Some(Found::Null),
                Found::Value(..) => return None,
            }
            nested.clear();
            nested.extend(object_members(obj));
            &nested
        };
        found = members
            .iter()
            .rfind(|m| key_is(span(obj, &m.key), m.key_escaped, key))
            .map_or(Found::Null, |m| Found::Value(m.kind, span(obj, &m.value)));
    }
    Some(found)
}

/// Whether the bytes `raw` of a value of kind `kind` in a validated line
/// are what [`super::write_json`] writes for the value jaq reads from
/// them: `null`, `true`, `false`; a number other than `-0` (jaq keeps a
/// number's spelling, and reads `-0` as the integer 0); a string without
/// escapes and without DEL (which jq escapes as `\u007f`). Not an object
/// or array (their spacing and repeated keys).
pub fn verbatim(kind: Kind, raw: &[u8]) -> bool {
    match kind {
        Kind::Null | Kind::True | Kind::False => true,
        Kind::Number { .. } => raw != b"-0",
        Kind::String { escaped } => !escaped && memchr::memchr(0x7f, raw).is_none(),
        Kind::Object | Kind::Array => false,
    }
}

/// Appends what the general path writes for `found` (see the module);
/// `None` when jaq cannot read it (the general path says why).
pub fn write_found(out: &mut Vec<u8>, found: Found<'_>, lone_surrogate: bool) -> Option<()> {
    match found {
        Found::Null => out.extend_from_slice(b"null"),
        Found::Value(kind, raw) if verbatim(kind, raw) => out.extend_from_slice(raw),
        Found::Value(kind, raw) => {
            let v = super::value_of(kind, raw, lone_surrogate).ok()?;
            super::write_json(out, &v).ok()?;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: &str, keys: &[&str]) -> Option<String> {
        let mut p = Peeker::new();
        p.peek(line.as_bytes()).unwrap();
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        let found = member_at(line.as_bytes(), &p, &keys)?;
        let mut out = Vec::new();
        write_found(&mut out, found, p.lone_surrogate)?;
        Some(String::from_utf8(out).unwrap())
    }

    #[test]
    fn paths_find_what_jq_finds() {
        let line =
            r#"{"a":1,"b":{"c":"x","c":[1, 2]},"a":-0,"s":"\u00e9\u007f","n":null,"t\u0069":2.50}"#;
        assert_eq!(at(line, &["a"]).as_deref(), Some("0"));
        assert_eq!(at(line, &["b", "c"]).as_deref(), Some("[1,2]"));
        assert_eq!(at(line, &["b"]).as_deref(), Some(r#"{"c":[1,2]}"#));
        assert_eq!(at(line, &["s"]).as_deref(), Some("\"é\\u007f\""));
        assert_eq!(at(line, &["ti"]).as_deref(), Some("2.50"));
        assert_eq!(at(line, &["n", "x"]).as_deref(), Some("null"));
        assert_eq!(at(line, &["missing", "x"]).as_deref(), Some("null"));
        assert_eq!(at(line, &["a", "x"]), None, "a number has no members");
        assert_eq!(at(line, &["b", "c", "d"]), None);
    }

    #[test]
    fn only_bytes_jq_would_write_are_copied() {
        let s = |escaped| Kind::String { escaped };
        let n = Kind::Number { integer: true };
        assert!(verbatim(s(false), b"\"plain \xc3\xa9\""));
        assert!(!verbatim(s(true), b"\"a\\nb\""));
        assert!(!verbatim(s(false), b"\"a\x7fb\""));
        assert!(verbatim(n, b"12345678901234567890"));
        assert!(!verbatim(n, b"-0"));
        assert!(!verbatim(Kind::Object, b"{}"));
    }
}
