//! aoi's one JSON Schema validator: `--schema FILE` on every judging
//! command, lint's check 1 (is the tool's schema usable) and check 4 (do its
//! framework events validate) all use it (§ 10, § 18).
//!
//! It is the `boon` crate (draft 2020-12, 2019-09, 7, 6 and 4, by the
//! schema's `$schema`; 2020-12 without one), chosen by measurement against
//! `jsonschema` and the hand-written validator lint had (figures in
//! docs/performance.md). What this file adds: no other document is ever
//! read (a `$ref` resolves inside the schema, by pointer, `$anchor` or
//! `$id`, or the schema is refused), and one problem per value, the most
//! specific one, in words (§ 10.4: no opaque "oneOf matched zero schemas").

use boon::{CompileError, Compiler, ErrorKind, Schemas, UrlLoader, ValidationError};
use serde_json::Value;
use std::fmt;
use std::path::Path;

/// A compiled schema, ready to validate values against.
pub struct EventSchema {
    schemas: Schemas,
    index: boon::SchemaIndex,
    /// The same schema for "is it valid" alone, when its keywords allow
    /// (`crate::validator_quick`); boon answers the rest and every "why".
    quick: Option<crate::validator_quick::Quick>,
}

impl fmt::Debug for EventSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EventSchema")
    }
}

/// Why a schema file cannot be used: a usage error (64: not JSON, not a
/// valid schema, a reference to another document) or an input aoi cannot
/// open (66).
#[derive(Debug)]
pub enum LoadError {
    /// Not JSON, not a valid schema, or a reference to another document:
    /// the one line to say (exit 64).
    Usage(String),
    /// The file cannot be read: the one line to say (exit 66).
    NoInput(String),
}

/// One reason a value does not validate.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The JSON pointer of the failing value in the instance (`""`: all of it).
    pub pointer: String,
    /// The keyword that failed (`minimum`, `required`, …).
    pub keyword: String,
    /// What it wanted, in words (`0 is less than the minimum 1`).
    pub message: String,
    /// Where the keyword is in the schema (`#/$defs/hit/properties/rank`).
    pub schema_at: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "the event"
        } else {
            &self.pointer
        };
        write!(
            f,
            "{at}: {} ({} at {})",
            self.message, self.keyword, self.schema_at
        )
    }
}

/// The loader of every document but the schema itself: none is read, from
/// the network or from disk (a schema's meaning does not depend on what
/// else is reachable; the metaschemas are built in).
struct NoOtherDocument;

impl UrlLoader for NoOtherDocument {
    fn load(&self, _url: &str) -> Result<Value, Box<dyn std::error::Error>> {
        Err("aoi reads no other document (no network, no other file)".into())
    }
}

thread_local! {
    /// The in-place reader's array, reused from event to event.
    static ITEMS: std::cell::RefCell<Vec<crate::validator_doc::Item>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Items of the in-place reader kept between events: a larger array (a
/// very large event's) is freed, so memory stays constant.
const KEEP_ITEMS: usize = 1 << 14;

/// Where the schema is said to be when it has no `$id` of its own.
const BASE: &str = "aoi:///schema.json";

impl EventSchema {
    /// Reads and compiles the schema file `path` (`--schema`): missing or
    /// unreadable is 66, not JSON or not a usable schema 64, each one line.
    pub fn from_file(path: &Path) -> Result<EventSchema, LoadError> {
        let name = path.display();
        let text = std::fs::read(path)
            .map_err(|e| LoadError::NoInput(format!("--schema: cannot open {name}: {e}")))?;
        let value: Value = serde_json::from_slice(&text)
            .map_err(|e| LoadError::Usage(format!("--schema {name}: not JSON ({e})")))?;
        EventSchema::from_value(&value)
            .map_err(|e| LoadError::Usage(format!("--schema {name}: {e}")))
    }

    /// Compiles `schema`; the error says what is wrong and where.
    pub fn from_value(schema: &Value) -> Result<EventSchema, String> {
        EventSchema::with_documents(schema, Vec::new())
    }

    /// [`EventSchema::from_value`] with other documents at hand, by URL:
    /// for the official test suite's remotes, never for a user's schema.
    #[doc(hidden)]
    pub fn with_documents(
        schema: &Value,
        documents: Vec<(String, Value)>,
    ) -> Result<EventSchema, String> {
        let mut c = Compiler::new();
        c.use_loader(Box::new(NoOtherDocument));
        for (url, doc) in documents {
            c.add_resource(&url, doc).map_err(|e| compile_words(&e))?;
        }
        let mut schemas = Schemas::new();
        c.add_resource(BASE, schema.clone())
            .map_err(|e| compile_words(&e))?;
        let index = c
            .compile(BASE, &mut schemas)
            .map_err(|e| compile_words(&e))?;
        let quick = crate::validator_quick::compile(schema);
        Ok(EventSchema {
            schemas,
            index,
            quick,
        })
    }

    /// Whether `v` validates.
    pub fn is_valid(&self, v: &Value) -> bool {
        match &self.quick {
            Some(q) => q.valid(v),
            None => self.schemas.validate(v, self.index).is_ok(),
        }
    }

    /// The one most specific problem of `v`, or `None` when it validates.
    pub fn problem(&self, v: &Value) -> Option<Problem> {
        if self.quick.as_ref().is_some_and(|q| q.valid(v)) {
            return None;
        }
        let e = self.schemas.validate(v, self.index).err()?;
        Some(most_specific(&e))
    }

    /// The one most specific problem of the event on `line` (one JSON
    /// value), or `None` when it validates; an error when serde_json
    /// cannot hold its value (a lone surrogate, a number past `f64`).
    /// A schema the quick validator answers reads the line in place.
    pub fn line_problem(&self, line: &[u8]) -> Result<Option<Problem>, serde_json::Error> {
        if self.line_valid(line) {
            return Ok(None);
        }
        self.line_problem_slow(line)
    }

    /// Whether the quick validator finds the event on `line` valid, read
    /// in place: true means [`EventSchema::line_problem`] is `Ok(None)`;
    /// false says nothing (invalid, or a schema or line only boon reads).
    /// Any thread may ask: the reading thread answers it for the lines it
    /// peeks (`crate::drive`), so the judge asks boon only on a "no".
    pub(crate) fn line_valid(&self, line: &[u8]) -> bool {
        let Some(q) = &self.quick else {
            return false;
        };
        ITEMS.with_borrow_mut(|items| {
            let valid = crate::validator_doc::parse(line, items).is_some_and(|d| q.valid(d.root()));
            if items.capacity() > KEEP_ITEMS {
                *items = Vec::new();
            }
            valid
        })
    }

    /// [`EventSchema::line_problem`] for a line the quick validator did
    /// not find valid: boon's answer alone.
    pub(crate) fn line_problem_slow(
        &self,
        line: &[u8],
    ) -> Result<Option<Problem>, serde_json::Error> {
        let value: Value = serde_json::from_slice(line)?;
        let e = self.schemas.validate(&value, self.index).err();
        Ok(e.map(|e| most_specific(&e)))
    }

    /// boon's answer and the quick one (`None`: the schema is boon's
    /// alone), for tests that hold the two to the same answer.
    #[doc(hidden)]
    pub fn both_answers(&self, v: &Value) -> (bool, Option<bool>) {
        let boon = self.schemas.validate(v, self.index).is_ok();
        (boon, self.quick.as_ref().map(|q| q.valid(v)))
    }
}

/// A compile error in words: the place in the schema, and why.
fn compile_words(e: &CompileError) -> String {
    match e {
        CompileError::ValidationError { src, .. } => {
            let p = most_specific(src);
            let at = if p.pointer.is_empty() {
                "#"
            } else {
                &p.pointer
            };
            format!(
                "not a valid JSON Schema: at {at}: {} ({} in the metaschema)",
                p.message, p.keyword
            )
        }
        CompileError::LoadUrlError { url, .. } | CompileError::UnsupportedUrlScheme { url } => {
            format!(
                "refers to {}, another document, which aoi does not fetch (no network, no other file): put it in the schema under $defs with that $id",
                local(url)
            )
        }
        CompileError::UnsupportedDraft { url } => {
            format!("$schema {url}: not a JSON Schema draft aoi knows (2020-12, 2019-09, 7, 6, 4)")
        }
        other => format!("not a usable JSON Schema: {}", local(&other.to_string())),
    }
}

/// `aoi:///schema.json#/x` as `#/x`, `aoi:///other.json` as `other.json`:
/// the schema's stand-in name is no news.
fn local(s: &str) -> String {
    s.replace(BASE, "").replace("aoi:///", "")
}

/// The leaf to report of an error tree: for `anyOf`/`oneOf`, the branch
/// that took the event's `type` (§ 10.4: a discriminated schema's right
/// branch), else the one failing on fewest values; elsewhere the first
/// leaf. An applicator with no branch to blame is itself the problem.
fn most_specific(e: &ValidationError) -> Problem {
    let mut e = e;
    loop {
        if e.causes.is_empty() {
            return problem_of(e);
        }
        let branches = matches!(e.kind, ErrorKind::AnyOf | ErrorKind::OneOf(None));
        if !branches {
            e = &e.causes[0];
            continue;
        }
        let fits = e
            .causes
            .iter()
            .filter(|c| !rejects_type(c))
            .collect::<Vec<_>>();
        match fits.as_slice() {
            [] => return problem_of(e),
            [one] => e = one,
            many => {
                e = many
                    .iter()
                    .min_by_key(|c| leaves(c))
                    .copied()
                    .unwrap_or(&e.causes[0]);
            }
        }
    }
}

/// Whether a branch's failure includes the top-level `type` member being
/// other than it wants: the branch is another event type's.
fn rejects_type(e: &ValidationError) -> bool {
    let at_type = e.instance_location.tokens.len() == 1
        && matches!(&e.instance_location.tokens[0], boon::InstanceToken::Prop(p) if p == "type");
    (at_type
        && matches!(
            e.kind,
            ErrorKind::Const { .. } | ErrorKind::Enum { .. } | ErrorKind::Pattern { .. }
        ))
        || e.causes.iter().any(rejects_type)
}

fn leaves(e: &ValidationError) -> usize {
    if e.causes.is_empty() {
        1
    } else {
        e.causes.iter().map(leaves).sum()
    }
}

fn problem_of(e: &ValidationError) -> Problem {
    let keyword = e
        .kind
        .keyword_path()
        .map_or_else(|| "false".to_string(), |k| k.to_string());
    let keyword = match keyword.as_str() {
        "additionalProperty" => "additionalProperties".to_string(),
        _ => keyword,
    };
    let url = e.schema_url;
    let fragment = url.find('#').map_or("#", |i| &url[i..]);
    let base = &url[..url.find('#').unwrap_or(url.len())];
    let schema_at = if base == BASE {
        fragment.to_string()
    } else {
        url.to_string()
    };
    Problem {
        pointer: e.instance_location.to_string(),
        keyword,
        message: crate::validator_words::words(&e.kind),
        schema_at,
    }
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use serde_json::json;

    /// A `$ref` by the schema's own `$id` or to an `$anchor` resolves; one
    /// to another document refuses the schema, never fetched.
    #[test]
    fn references_resolve_inside_the_schema_only() {
        let s = json!({"$id":"https://example.org/s.json","$defs":{
            "n":{"type":"integer","minimum":0},
            "a":{"$anchor":"pos","type":"integer","minimum":1}},
            "properties":{
                "x":{"$ref":"https://example.org/s.json#/$defs/n"},
                "y":{"$ref":"#pos"}}});
        let v = EventSchema::from_value(&s).expect("compiles");
        assert!(v.problem(&json!({"x":-1})).is_some());
        assert_eq!(
            v.problem(&json!({"y":0})).map(|p| p.keyword),
            Some("minimum".into())
        );
        assert!(v.is_valid(&json!({"x":0,"y":1})));
        let remote = json!({"properties":{"x":{"$ref":"https://other.example/t.json"}}});
        let e = EventSchema::from_value(&remote).err().unwrap_or_default();
        assert!(e.contains("does not fetch"), "{e}");
    }

    /// A keyword whose value has the wrong shape makes the schema unusable,
    /// and the place is named (`"minimum":"0"` bounds nothing).
    #[test]
    fn keyword_values_of_the_wrong_shape_are_named() {
        for (bad, at) in [
            (json!({"minimum":"0"}), "/minimum"),
            (json!({"maxLength":-1}), "/maxLength"),
            (
                json!({"properties":{"a":{"exclusiveMaximum":"1"}}}),
                "/properties/a",
            ),
            (json!({"pattern":"("}), "pattern"),
        ] {
            let e = EventSchema::from_value(&bad).err().unwrap_or_default();
            assert!(e.contains(at), "{bad}: {e}");
        }
    }

    /// § 10.4: in a `oneOf` keyed by `type`, the branch of the event's own
    /// type is blamed, not "matches none".
    #[test]
    fn the_discriminated_branch_is_blamed() {
        let s = json!({"oneOf":[
            {"properties":{"type":{"const":"a"},"n":{"type":"integer"}}},
            {"properties":{"type":{"const":"b"},"rank":{"minimum":1}}}]});
        let v = EventSchema::from_value(&s).expect("compiles");
        let p = v.problem(&json!({"type":"b","rank":0})).expect("invalid");
        assert_eq!(
            (p.pointer.as_str(), p.keyword.as_str()),
            ("/rank", "minimum")
        );
        assert_eq!(p.message, "0 is less than the minimum 1");
        let none = v.problem(&json!({"type":"c"})).expect("invalid");
        assert_eq!(none.keyword, "oneOf");
    }
}

#[cfg(all(test, feature = "cli"))]
#[path = "validator_quick_tests.rs"]
mod quick_tests;
