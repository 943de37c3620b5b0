//! jq's destructuring alternatives, `E as P1 ?// P2 ?// … | BODY`, which
//! jaq does not parse: written, before parsing, as what they
//! mean in jq. Every variable of every pattern is bound (to `null` where
//! its pattern does not bind it), the first pattern is tried, and where
//! binding it or running BODY fails, the next; the last one's error is
//! the error:
//!
//! `E as $v | null as $a | … | try ($v as P1 | BODY) catch (try ($v as
//! P2 | BODY) catch ($v as P3 | BODY))`
//!
//! BODY reaches, as in jq, to the end of the enclosing group or to the
//! `;`, `then`, `elif`, `else`, `end` or `catch` that closes it.

use jaq_core::load::lex::{StrPart, Tok, Token};
use jaq_core::load::{Lexer, span};

/// The name the value being destructured is bound to (a user's names do
/// not start with `__aoi`).
const VALUE: &str = "$__aoi_alt";

/// `code` with its `?//` written out, or `None` where it has none.
pub fn rewrite(code: &str) -> Option<String> {
    if !code.contains("?//") {
        return None;
    }
    let tokens = Lexer::new(code).lex().ok()?;
    let mut edits = Vec::new();
    find(code, &tokens, &mut edits);
    if edits.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(code.len() * 2);
    let mut at = 0;
    for (range, text) in edits {
        out.push_str(code.get(at..range.start)?);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(code.get(at..)?);
    Some(out)
}

/// The edits of the alternatives in `seq` and in the groups inside it,
/// in order.
fn find(code: &str, seq: &[Token<&str>], edits: &mut Vec<(std::ops::Range<usize>, String)>) {
    let mut i = 0;
    while let Some(t) = seq.get(i) {
        if t.0 == "as" {
            if let Some((edit, end)) = alternatives(code, seq, i) {
                edits.push(edit);
                i = end;
                continue;
            }
        }
        match &t.1 {
            Tok::Block(inner) => find(code, inner, edits),
            Tok::Str(parts) => parts.iter().for_each(|p| {
                if let StrPart::Term(Token(_, Tok::Block(inner))) = p {
                    find(code, inner, edits)
                }
            }),
            _ => {}
        }
        i += 1;
    }
}

fn is_sym(t: Option<&Token<&str>>, s: &str) -> bool {
    t.is_some_and(|t| t.0 == s && matches!(t.1, Tok::Sym))
}

fn ends_body(t: &Token<&str>) -> bool {
    matches!(t.0, ";" | ")" | "]" | "}")
        || matches!(t.1, Tok::Word) && matches!(t.0, "then" | "elif" | "else" | "end" | "catch")
}

/// The edit for `as P1 ?// P2 … | BODY` starting at `seq[at]` (the `as`),
/// and the index past BODY; `None` where there is no `?//` there.
fn alternatives(
    code: &str,
    seq: &[Token<&str>],
    at: usize,
) -> Option<((std::ops::Range<usize>, String), usize)> {
    let mut patterns = vec![seq.get(at + 1)?];
    let mut i = at + 2;
    while is_sym(seq.get(i), "?") && seq.get(i + 1).is_some_and(|t| t.0 == "//") {
        patterns.push(seq.get(i + 2)?);
        i += 3;
    }
    if patterns.len() < 2 || seq.get(i)?.0 != "|" {
        return None;
    }
    let body_start = i + 1;
    let body_end = (body_start..seq.len())
        .find(|&j| seq.get(j).is_some_and(ends_body))
        .unwrap_or(seq.len());
    let first = span(code, seq.get(body_start)?.0);
    let last = span(code, seq.get(body_end.checked_sub(1)?)?.0);
    let body = code.get(first.start..last.end)?;
    let texts: Vec<&str> = patterns.iter().map(|p| p.0).collect();

    let mut vars: Vec<&str> = Vec::new();
    patterns.iter().for_each(|p| collect_vars(p, &mut vars));
    let mut text = format!("as {VALUE} | ");
    for v in &vars {
        text.push_str(&format!("null as {v} | "));
    }
    let (last_pattern, others) = texts.split_last()?;
    for p in others {
        text.push_str(&format!("try ({VALUE} as {p} | {body}) catch ("));
    }
    text.push_str(&format!("{VALUE} as {last_pattern} | {body}"));
    text.push_str(&")".repeat(others.len()));
    let start = span(code, seq.get(at)?.0).start;
    Some(((start..last.end, text), body_end))
}

/// The variables a pattern binds, each once.
fn collect_vars<'a>(t: &Token<&'a str>, vars: &mut Vec<&'a str>) {
    match &t.1 {
        Tok::Var if !vars.contains(&t.0) => vars.push(t.0),
        Tok::Block(inner) => inner.iter().for_each(|t| collect_vars(t, vars)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn alternatives_are_written_out() {
        assert_eq!(rewrite(".a // .b"), None);
        let p = rewrite(". as [$a] ?// $a | $a").expect("rewritten");
        assert_eq!(
            p,
            ". as $__aoi_alt | null as $a | try ($__aoi_alt as [$a] | $a) catch ($__aoi_alt as $a | $a)"
        );
    }
}
