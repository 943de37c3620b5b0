//! A program that only builds an object of plain paths of its input
//! (`{id, title}`, `{a: .b, "c": .d.e}`), written from the line's own
//! bytes ([`super::verbatim`]) instead of building the event as jaq's
//! value, running the program and printing its result.
//!
//! Recognised on jaq's syntax tree: an object whose keys are literal
//! (an identifier or a string without interpolation or format) and whose
//! values are paths of literal keys from `.` (`.KEY`, `."KEY"`,
//! `.["KEY"]`, `.a.b`; not `?`), or absent (`{id}` is `{id: .id}`). A
//! key given twice (`{a: .x, a: .y}`) keeps its first place and takes
//! the last value, as jaq's object does; the value it replaces is still
//! read, as the program reads it, so its error is not lost.

use jaq_core::load::parse::Term;
use jaq_core::path::{Opt, Part};

use super::projection::literal;
use super::verbatim::{member_at, write_found};

/// An object construction of plain paths (see the module).
#[derive(Debug, Clone, PartialEq)]
pub struct Construction {
    /// The members made, in the object's order, each key once: the key
    /// as JSON text with its colon, and the path of its value.
    members: Vec<(Vec<u8>, Vec<String>)>,
    /// The keys, as the program names them.
    names: Vec<String>,
    /// Paths whose value a later member of the same key replaces.
    replaced: Vec<Vec<String>>,
}

/// The construction `code` is, when it is one (see the module).
pub fn construction(code: &str) -> Option<Construction> {
    let term = jaq_core::load::parse(code, |p| p.term())?;
    let Term::Obj(entries) = term else {
        return None;
    };
    let mut c = Construction {
        members: Vec::with_capacity(entries.len()),
        names: Vec::with_capacity(entries.len()),
        replaced: Vec::new(),
    };
    for (k, v) in &entries {
        let name = literal(k)?;
        let path = match v {
            Some(v) => plain_path(v)?,
            None => vec![name.clone()],
        };
        match c.names.iter().position(|n| *n == name) {
            Some(i) => {
                let old = std::mem::replace(&mut c.members[i].1, path);
                c.replaced.push(old);
            }
            None => {
                let mut key = Vec::with_capacity(name.len() + 3);
                super::write_str(&mut key, name.as_bytes());
                key.push(b':');
                c.members.push((key, path));
                c.names.push(name);
            }
        }
    }
    Some(c)
}

/// The keys of `.KEY.KEY…` (at least one, every one literal, none `?`).
fn plain_path(t: &Term<&str>) -> Option<Vec<String>> {
    let Term::Path(head, path) = t else {
        return None;
    };
    if !matches!(**head, Term::Id) || path.0.is_empty() {
        return None;
    }
    path.0
        .iter()
        .map(|(part, opt)| match (part, opt) {
            (Part::Index(k), Opt::Essential) => literal(k),
            _ => None,
        })
        .collect()
}

impl Construction {
    /// Whether the object made has the key `name`.
    pub fn has_key(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }

    /// Appends the object made of the object `line` (validated; its
    /// top-level members in `peek`) as compact JSON, as
    /// [`super::write_json`] writes the program's result. `None` when the
    /// general path must run instead (a step into a value that is
    /// neither an object nor `null`, a value jaq cannot read); `out` then
    /// holds a part of the object, for the caller to drop.
    pub fn write(&self, out: &mut Vec<u8>, line: &[u8], peek: &crate::peek::Peeker) -> Option<()> {
        for path in &self.replaced {
            member_at(line, peek, path)?;
        }
        out.push(b'{');
        for (i, (key, path)) in self.members.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(key);
            write_found(out, member_at(line, peek, path)?, peek.lone_surrogate)?;
        }
        out.push(b'}');
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(code: &str, line: &str) -> Option<String> {
        let c = construction(code)?;
        let mut p = crate::peek::Peeker::new();
        p.peek(line.as_bytes()).unwrap();
        let mut out = Vec::new();
        c.write(&mut out, line.as_bytes(), &p)?;
        Some(String::from_utf8(out).unwrap())
    }

    #[test]
    fn constructions_of_plain_paths_are_recognised() {
        for code in [
            "{id, title}",
            "{a: .b, \"c\": .d.e}",
            " { \"t\\u0069tle\" , x: .[\"y\"], z: .\"w\" } ",
            "{}",
            "{if: .a}",
        ] {
            assert!(construction(code).is_some(), "{code}");
        }
        for code in [
            "{$__loc__}",
            "{$x}",
            "{a: .b?}",
            "{a: .b[0]}",
            "{a: .[]}",
            "{a: .}",
            "{a: 1}",
            "{a: .b | .c}",
            "{a: (.b, .c)}",
            "{(.k): .v}",
            "{\"\\(.k)\": .v}",
            "{@base64: .v}",
            "{a: .b} | .a",
            "{a: .b}, {c: .d}",
            "def f: .; {a: .b}",
            ".title",
            "{a: $x.b}",
            "{a: .b.[0]}",
        ] {
            assert_eq!(construction(code), None, "{code}");
        }
    }

    #[test]
    fn the_object_is_what_jaq_makes() {
        let line = r#"{"id":"a","title":"t\u00e9","id":-0,"o":{"p":[1, 2]},"n":5}"#;
        assert_eq!(
            made("{id, title}", line).as_deref(),
            Some(r#"{"id":0,"title":"té"}"#)
        );
        assert_eq!(
            made("{x: .o.p, y: .o.q, z: .none.q}", line).as_deref(),
            Some(r#"{"x":[1,2],"y":null,"z":null}"#)
        );
        assert_eq!(
            made("{a: .n, b: .id, a: .title}", line).as_deref(),
            Some(r#"{"a":"té","b":0}"#)
        );
        assert_eq!(made("{a: .n.x}", line), None, "a number has no members");
        assert_eq!(
            made("{a: .n.x, a: .id}", line),
            None,
            "a replaced value is read"
        );
        assert_eq!(
            made("{\"a\\\"\"}", r#"{"a\"":1}"#).as_deref(),
            Some(r#"{"a\"":1}"#)
        );
    }
}
