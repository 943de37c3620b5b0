//! Which members of its input object a filter can see: for a filter that
//! reads its input only through literal keys at the top (`.rank`,
//! `.owner.name`, `{id, title}`) and outputs the input itself only whole
//! (`select(…)`, `.`, `if … then . else … end`), the object built from
//! those members alone gives every result the whole object gives, errors
//! and their messages included. Building only them is what makes such a
//! filter cheap on wide events.
//!
//! The proof is by the syntax tree (jaq's parser): the input is reached
//! through `.` alone, and each `.` is classified by where it stands. In
//! output position (`.`, a `select`, an `if` branch, either side of `,`
//! and `//`) the input is returned as it is, and the caller recognises it
//! by its allocation and uses the whole object instead; as a condition
//! (`select(.)`, `if . then`, `and`, `or`, `not`) only its truthiness
//! counts, the same for any object; `.KEY` reads a member, the same in
//! both; anywhere else (an operand, an argument to any other function, a
//! path with a computed key, `..`, a binding `. as $x`, a definition, an
//! assignment) the filter is refused and runs on the whole object. Past a
//! `|` whose left side cannot output the input, the right side never sees
//! it. A program that names `input` or `input_filename` is refused too (it
//! reads other values or state the projection does not cover).

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Pattern, Term};
use jaq_core::path::Part;

/// The top-level keys `code` reads from its input object, when the
/// filter reads it only through them (see the module); `None` otherwise.
pub fn input_keys(code: &str) -> Option<Vec<String>> {
    // Destructuring alternatives are rewritten before compiling (so this
    // tree would not be the one run); `input` reads other values.
    if code.contains("?//") || code.contains("input") {
        return None;
    }
    let term = jaq_core::load::parse(code, |p| p.term())?;
    let mut keys = Vec::new();
    scan(&term, &mut keys)?;
    keys.sort();
    keys.dedup();
    Some(keys)
}

/// Scans `t`, run on the input object: `Some(true)` when it may output the
/// input itself, `Some(false)` when it cannot, `None` when it uses the
/// input otherwise than through its keys. The keys read go into `keys`.
fn scan(t: &Term<&str>, keys: &mut Vec<String>) -> Option<bool> {
    match t {
        Term::Id => Some(true),
        Term::Num(_) | Term::Var(_) | Term::Break(_) => Some(false),
        Term::Recurse | Term::Def(..) | Term::Fold(..) => None,
        Term::Str(fmt, parts) => {
            // A format without a string (`@csv`) applies to the input;
            // `@csv "\(…)"` applies to what is interpolated.
            if fmt.is_some() && parts.is_empty() {
                return None;
            }
            for p in parts {
                if let StrPart::Term(t) = p {
                    operand(t, keys)?;
                }
            }
            Some(false)
        }
        Term::Arr(a) => {
            if let Some(t) = a {
                operand(t, keys)?;
            }
            Some(false)
        }
        Term::Obj(entries) => {
            for (k, v) in entries {
                match v {
                    Some(v) => {
                        operand(k, keys)?;
                        operand(v, keys)?;
                    }
                    // `{id}` is `{id: .id}`, `{$x}` is `{x: $x}`.
                    None => match k {
                        Term::Var(_) => {}
                        k => keys.push(literal(k)?),
                    },
                }
            }
            Some(false)
        }
        Term::Neg(t) => operand(t, keys),
        Term::Label(_, t) => scan(t, keys),
        Term::BinOp(l, op, r) => bin_op(l, op, r, keys),
        Term::TryCatch(t, catch) => {
            // What is caught is an error's value: made from members or
            // literals, never from the input (it is no operand here).
            let out = scan(t, keys)?;
            if let Some(c) = catch {
                scan_elsewhere(c)?;
            }
            Some(out)
        }
        Term::IfThenElse(branches, otherwise) => {
            let mut out = false;
            for (cond, then) in branches {
                scan(cond, keys)?;
                out |= scan(then, keys)?;
            }
            // jq 1.7's `if c then x end` outputs the input otherwise.
            out |= match otherwise {
                Some(e) => scan(e, keys)?,
                None => true,
            };
            Some(out)
        }
        Term::Call(name, args) => call(name, args, keys),
        Term::Path(head, path) => {
            let mut parts = path.0.iter();
            if matches!(**head, Term::Id) {
                // `.KEY…`: the first step must be a literal key.
                match parts.next() {
                    Some((Part::Index(k), _)) => keys.push(literal(k)?),
                    _ => return None,
                }
            } else {
                operand(head, keys)?;
            }
            // Index terms run on the input too (`.a[.i]`).
            for (part, _) in parts {
                match part {
                    Part::Index(i) => operand(i, keys).map(drop)?,
                    Part::Range(a, b) => {
                        for t in a.iter().chain(b.iter()) {
                            operand(t, keys)?;
                        }
                    }
                }
            }
            Some(false)
        }
    }
}

/// `t` used as a value (an operand, an element, an index): it must not be
/// the input itself.
fn operand(t: &Term<&str>, keys: &mut Vec<String>) -> Option<bool> {
    match scan(t, keys)? {
        true => None,
        false => Some(false),
    }
}

fn bin_op(
    l: &Term<&str>,
    op: &BinaryOp<&str>,
    r: &Term<&str>,
    keys: &mut Vec<String>,
) -> Option<bool> {
    match op {
        BinaryOp::Pipe(None) => match scan(l, keys)? {
            true => scan(r, keys),
            // The right side runs on what the left side made.
            false => scan_elsewhere(r).map(|()| false),
        },
        // `l as $x | r`: r runs on the input, $x must not hold it.
        BinaryOp::Pipe(Some(p)) => {
            operand(l, keys)?;
            plain_pattern(p)?;
            scan(r, keys)
        }
        BinaryOp::Comma | BinaryOp::Alt => Some(scan(l, keys)? | scan(r, keys)?),
        // Truthiness only: the same for any object.
        BinaryOp::Or | BinaryOp::And => {
            scan(l, keys)?;
            scan(r, keys)?;
            Some(false)
        }
        BinaryOp::Math(_) | BinaryOp::Cmp(_) => {
            operand(l, keys)?;
            operand(r, keys)
        }
        BinaryOp::Assign | BinaryOp::Update | BinaryOp::UpdateMath(_) | BinaryOp::UpdateAlt => None,
    }
}

/// The calls whose use of the input is known; any other may read all of
/// it (`keys`, `length`, `tostring`, a user's definition, …).
fn call(name: &str, args: &[Term<&str>], keys: &mut Vec<String>) -> Option<bool> {
    match (name, args) {
        ("empty" | "true" | "false" | "null" | "not", []) => Some(false),
        ("select", [cond]) => {
            scan(cond, keys)?;
            Some(true)
        }
        ("error", [msg]) => operand(msg, keys),
        _ => None,
    }
}

/// A term that never sees the input: anything goes, but it may not bind
/// or read what the projection leaves out (checked by [`input_keys`]).
fn scan_elsewhere(_t: &Term<&str>) -> Option<()> {
    Some(())
}

/// A destructuring pattern of variables only (`$x`, `[$a, $b]`): an
/// object pattern's keys are terms of their own.
fn plain_pattern(p: &Pattern<&str>) -> Option<()> {
    match p {
        Pattern::Var(_) => Some(()),
        Pattern::Arr(ps) => ps.iter().try_for_each(plain_pattern),
        Pattern::Obj(_) => None,
    }
}

/// The text of a literal string term (`title`, `"a b"`, `"\u00e9"`).
pub(super) fn literal(t: &Term<&str>) -> Option<String> {
    let Term::Str(None, parts) = t else {
        return None;
    };
    let mut s = String::new();
    for p in parts {
        match p {
            StrPart::Str(text) => s.push_str(text),
            StrPart::Char(c) => s.push(*c),
            StrPart::Term(_) => return None,
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::input_keys;

    fn keys(code: &str) -> Option<Vec<String>> {
        input_keys(code)
    }

    fn vec(keys: &[&str]) -> Option<Vec<String>> {
        Some(keys.iter().map(|k| k.to_string()).collect())
    }

    #[test]
    fn filters_that_read_members_only_are_projected() {
        assert_eq!(keys("select((.rank // 0) % 2 == 0)"), vec(&["rank"]));
        assert_eq!(keys(".title"), vec(&["title"]));
        assert_eq!(keys("{id, title}"), vec(&["id", "title"]));
        assert_eq!(
            keys("{id, n: (.tags // [] | map(length))}"),
            vec(&["id", "tags"])
        );
        assert_eq!(keys(".owner.name"), vec(&["owner"]));
        assert_eq!(
            keys("select(.type == \"hit\") | {id}"),
            vec(&["id", "type"])
        );
        assert_eq!(keys("if .a then . else .b end"), vec(&["a", "b"]));
        assert_eq!(keys(".\"a b\", .[\"c\"]"), vec(&["a b", "c"]));
        assert_eq!(keys(".a as $x | {$x, y: .b}"), vec(&["a", "b"]));
        assert_eq!(keys("\"\\(.a)-\\(.b)\""), vec(&["a", "b"]));
        assert_eq!(keys("select(.a) | .b"), vec(&["a", "b"]));
        assert_eq!(keys("1, \"x\", null"), vec(&[]));
    }

    #[test]
    fn filters_that_see_the_whole_input_are_not() {
        for code in [
            "keys",
            "length",
            "tostring",
            "[.]",
            "{a: .}",
            ". + {}",
            ". == {}",
            ".[]",
            ".[0]",
            ".[.k]",
            "..",
            ". as $e | $e",
            "map(.)",
            "map_values(. + 1)",
            "to_entries",
            "del(.a)",
            ".a = 1",
            ".a |= 1",
            "def f: .; f",
            "reduce .a[] as $x (0; . + $x)",
            "@json",
            "\"\\(.)\"",
            "input",
            "[inputs]",
            "has(\"a\")",
            "select(.a) | keys",
            "error(.)",
            "-.",
            ". as {a: $x} | $x",
            "[.[] | .a]",
            "path(.a)",
            "getpath([\"a\"])",
            "input_filename",
            "if . then keys else 1 end",
            ".a[(. | keys)[0]]",
            "{(.): 1}",
            "[.a] + [.]",
        ] {
            assert_eq!(input_keys(code), None, "{code}");
        }
    }
}
