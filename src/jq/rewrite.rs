//! jq's updates where jaq's would fail: a program with an
//! assignment (`=`, `|=`, `+=`, …, `//=`) is written again with each one
//! preceded by the creation of the paths it visits (`paths::vivify`),
//! so that `null | .a.b = 1` and `[] | .[2] = 1` give what jq gives.
//! jaq's own update then runs as before, at its speed.
//!
//! The program is parsed by jaq's parser and printed back from the
//! syntax tree, every compound part in parentheses; a program without an
//! assignment, or one the parser refuses (its error is then jaq's own,
//! at its position), is left as it was.

use std::fmt::Write;

use jaq_core::load::lex::StrPart;
use jaq_core::load::parse::{BinaryOp, Def, Pattern, Term};
use jaq_core::ops::{Cmp, Math};
use jaq_core::path::{Opt, Part};

/// `code` with jq's updates, or `None` where it has none to change.
pub fn assignments(code: &str) -> Option<String> {
    // Cheap refusal first: no `=` at all, no assignment.
    if !code.contains('=') {
        return None;
    }
    let term = jaq_core::load::parse(code, |p| p.term())?;
    if !has_update(&term) {
        return None;
    }
    let mut out = String::with_capacity(code.len() * 2);
    print(&mut out, &term);
    Some(out)
}

fn has_update(t: &Term<&str>) -> bool {
    let mut found = false;
    visit(t, &mut |t| {
        if let Term::BinOp(_, op, _) = t {
            found |= matches!(
                op,
                BinaryOp::Assign | BinaryOp::Update | BinaryOp::UpdateMath(_) | BinaryOp::UpdateAlt
            );
        }
    });
    found
}

/// Calls `f` on `t` and every term inside it.
fn visit<'a>(t: &Term<&'a str>, f: &mut impl FnMut(&Term<&'a str>)) {
    f(t);
    match t {
        Term::Id | Term::Recurse | Term::Num(_) | Term::Break(_) | Term::Var(_) => {}
        Term::Str(_, parts) => parts.iter().for_each(|p| {
            if let StrPart::Term(t) = p {
                visit(t, f)
            }
        }),
        Term::Arr(a) => a.iter().for_each(|t| visit(t, f)),
        Term::Obj(kvs) => kvs.iter().for_each(|(k, v)| {
            visit(k, f);
            v.iter().for_each(|v| visit(v, f));
        }),
        Term::Neg(t) | Term::Label(_, t) => visit(t, f),
        Term::BinOp(l, op, r) => {
            visit(l, f);
            if let BinaryOp::Pipe(Some(p)) = op {
                visit_pattern(p, f);
            }
            visit(r, f);
        }
        Term::Fold(_, xs, p, args) => {
            visit(xs, f);
            visit_pattern(p, f);
            args.iter().for_each(|t| visit(t, f));
        }
        Term::TryCatch(t, c) => {
            visit(t, f);
            c.iter().for_each(|c| visit(c, f));
        }
        Term::IfThenElse(branches, e) => {
            branches.iter().for_each(|(c, t)| {
                visit(c, f);
                visit(t, f);
            });
            e.iter().for_each(|e| visit(e, f));
        }
        Term::Def(defs, t) => {
            defs.iter().for_each(|d| visit(&d.body, f));
            visit(t, f);
        }
        Term::Call(_, args) => args.iter().for_each(|t| visit(t, f)),
        Term::Path(t, path) => {
            visit(t, f);
            for (part, _) in &path.0 {
                match part {
                    Part::Index(i) => visit(i, f),
                    Part::Range(a, b) => {
                        a.iter().for_each(|t| visit(t, f));
                        b.iter().for_each(|t| visit(t, f));
                    }
                }
            }
        }
    }
}

fn visit_pattern<'a>(p: &Pattern<&'a str>, f: &mut impl FnMut(&Term<&'a str>)) {
    match p {
        Pattern::Var(_) => {}
        Pattern::Arr(ps) => ps.iter().for_each(|p| visit_pattern(p, f)),
        Pattern::Obj(kps) => kps.iter().for_each(|(k, p)| {
            visit(k, f);
            visit_pattern(p, f);
        }),
    }
}

/// The variable the right side of an assignment is bound to: its name
/// is not one a user would write (`__aoi` is aoi's).
const RHS: &str = "$__aoi_rhs";
/// The variable the input of an assignment is bound to.
const INPUT: &str = "$__aoi_in";

fn print(o: &mut String, t: &Term<&str>) {
    match t {
        Term::Id => o.push('.'),
        Term::Recurse => o.push_str(".."),
        Term::Num(n) => o.push_str(n),
        Term::Var(v) => o.push_str(v),
        Term::Break(v) => {
            let _ = write!(o, "(break {v})");
        }
        Term::Str(fmt, parts) => print_str(o, *fmt, parts),
        Term::Arr(None) => o.push_str("[]"),
        Term::Arr(Some(t)) => wrap(o, "[", t, "]"),
        Term::Obj(kvs) => print_obj(o, kvs),
        Term::Neg(t) => wrap(o, "(-", t, ")"),
        Term::Label(v, t) => {
            let _ = write!(o, "(label {v} | ");
            print(o, t);
            o.push(')');
        }
        Term::BinOp(l, op, r) => print_binop(o, l, op, r),
        Term::Fold(name, xs, p, args) => {
            let _ = write!(o, "({name} ");
            wrap(o, "(", xs, ")");
            o.push_str(" as ");
            print_pattern(o, p);
            print_args(o, args);
            o.push(')');
        }
        Term::TryCatch(t, c) => {
            wrap(o, "(try (", t, ")");
            if let Some(c) = c {
                wrap(o, " catch (", c, ")");
            }
            o.push(')');
        }
        Term::IfThenElse(branches, e) => {
            for (i, (c, t)) in branches.iter().enumerate() {
                o.push_str(if i == 0 { "(if " } else { " elif " });
                print(o, c);
                o.push_str(" then ");
                print(o, t);
            }
            if let Some(e) = e {
                o.push_str(" else ");
                print(o, e);
            }
            o.push_str(" end)");
        }
        Term::Def(defs, t) => {
            o.push('(');
            defs.iter().for_each(|d| print_def(o, d));
            print(o, t);
            o.push(')');
        }
        Term::Call(name, args) => {
            o.push_str(name);
            print_args(o, args);
        }
        Term::Path(t, path) => {
            wrap(o, "(", t, ")");
            for (part, opt) in &path.0 {
                match part {
                    Part::Index(i) => wrap(o, "[", i, "]"),
                    Part::Range(None, None) => o.push_str("[]"),
                    Part::Range(a, b) => {
                        o.push('[');
                        a.iter().for_each(|a| wrap(o, "(", a, ")"));
                        o.push(':');
                        b.iter().for_each(|b| wrap(o, "(", b, ")"));
                        o.push(']');
                    }
                }
                if let Opt::Optional = opt {
                    o.push('?');
                }
            }
        }
    }
}

fn wrap(o: &mut String, open: &str, t: &Term<&str>, close: &str) {
    o.push_str(open);
    print(o, t);
    o.push_str(close);
}

fn print_args(o: &mut String, args: &[Term<&str>]) {
    if args.is_empty() {
        return;
    }
    o.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            o.push_str("; ");
        }
        print(o, a);
    }
    o.push(')');
}

fn print_def(o: &mut String, d: &Def<&str>) {
    let _ = write!(o, "def {}", d.name);
    if !d.args.is_empty() {
        let _ = write!(o, "({})", d.args.join("; "));
    }
    o.push_str(": ");
    print(o, &d.body);
    o.push_str("; ");
}

fn print_str(o: &mut String, fmt: Option<&str>, parts: &[StrPart<&str, Term<&str>>]) {
    if let Some(fmt) = fmt {
        let _ = write!(o, "{fmt} ");
    }
    o.push('"');
    for part in parts {
        match part {
            StrPart::Str(s) => o.push_str(s),
            StrPart::Char(c @ ('"' | '\\')) => {
                let _ = write!(o, "\\{c}");
            }
            StrPart::Char(c) if c.is_control() => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(o, "\\u{u:04x}");
                }
            }
            StrPart::Char(c) => o.push(*c),
            StrPart::Term(t) => wrap(o, "\\(", t, ")"),
        }
    }
    o.push('"');
}

fn print_obj(o: &mut String, kvs: &[(Term<&str>, Option<Term<&str>>)]) {
    o.push('{');
    for (i, (k, v)) in kvs.iter().enumerate() {
        if i > 0 {
            o.push_str(", ");
        }
        match (k, v) {
            (Term::Var(_) | Term::Str(..), None) => print(o, k),
            (k, None) => print(o, k),
            (k, Some(v)) => {
                wrap(o, "(", k, "): ");
                wrap(o, "(", v, ")");
            }
        }
    }
    o.push('}');
}

fn print_pattern(o: &mut String, p: &Pattern<&str>) {
    match p {
        Pattern::Var(v) => o.push_str(v),
        Pattern::Arr(ps) => {
            o.push('[');
            for (i, p) in ps.iter().enumerate() {
                if i > 0 {
                    o.push_str(", ");
                }
                print_pattern(o, p);
            }
            o.push(']');
        }
        Pattern::Obj(kps) => {
            o.push('{');
            for (i, (k, p)) in kps.iter().enumerate() {
                if i > 0 {
                    o.push_str(", ");
                }
                wrap(o, "(", k, "): ");
                print_pattern(o, p);
            }
            o.push('}');
        }
    }
}

fn print_binop(o: &mut String, l: &Term<&str>, op: &BinaryOp<&str>, r: &Term<&str>) {
    let sym = match op {
        BinaryOp::Pipe(None) => "|",
        BinaryOp::Pipe(Some(p)) => {
            wrap(o, "((", l, ") as ");
            print_pattern(o, p);
            wrap(o, " | ", r, ")");
            return;
        }
        BinaryOp::Comma => ",",
        BinaryOp::Alt => "//",
        BinaryOp::Or => "or",
        BinaryOp::And => "and",
        BinaryOp::Math(m) => math(m),
        BinaryOp::Cmp(c) => cmp(c),
        BinaryOp::Update => return print_update(o, l, "|=", r, false),
        BinaryOp::Assign => return print_update(o, l, "=", r, true),
        BinaryOp::UpdateMath(m) => {
            let op = format!("{}=", math(m));
            return print_update(o, l, &op, r, true);
        }
        BinaryOp::UpdateAlt => return print_update(o, l, "//=", r, true),
    };
    wrap(o, "((", l, ") ");
    o.push_str(sym);
    wrap(o, " (", r, "))");
}

/// `l OP r`, jq's way: jaq's update is tried first (it is all-or-nothing
/// and has one result), and only where it fails is it run again after the
/// paths of `l` are created, so an update that works in jaq costs almost
/// nothing more. Where `r` is a value (every operator but `|=`), it is
/// computed once on the input as it was, as jq and jaq compute it.
fn print_update(o: &mut String, l: &Term<&str>, op: &str, r: &Term<&str>, value: bool) {
    let mut update = String::new();
    wrap(&mut update, "(", l, ") ");
    update.push_str(op);
    if value {
        let _ = write!(update, " {RHS}");
    } else {
        wrap(&mut update, " (", r, ")");
    }
    o.push('(');
    if value {
        wrap(o, "(", r, ")");
        let _ = write!(o, " as {RHS} | ");
    }
    // The handler's input is the error: the input is bound to go back to.
    let _ = write!(o, ". as {INPUT} | try ({update}) catch ({INPUT} | ");
    wrap(o, "_aoi_vivify(try [path(", l, ")] catch []) | ");
    let _ = write!(o, "{update}))");
}

fn math(m: &Math) -> &'static str {
    match m {
        Math::Add => "+",
        Math::Sub => "-",
        Math::Mul => "*",
        Math::Div => "/",
        Math::Rem => "%",
    }
}

fn cmp(c: &Cmp) -> &'static str {
    match c {
        Cmp::Lt => "<",
        Cmp::Le => "<=",
        Cmp::Gt => ">",
        Cmp::Ge => ">=",
        Cmp::Eq => "==",
        Cmp::Ne => "!=",
    }
}

#[cfg(test)]
mod tests {
    use super::assignments;

    #[test]
    fn only_programs_with_an_assignment_are_written_again() {
        assert_eq!(assignments(".a | select(.b == 1)"), None);
        assert_eq!(assignments("map(.+1)"), None);
        assert_eq!(assignments(".a = "), None, "a parse error stays jaq's");
        let p = assignments(".a.b = 1").expect("an assignment");
        assert!(p.contains("_aoi_vivify"), "{p}");
        let p = assignments(".[][1:] |= 9").expect("an assignment");
        assert!(p.contains("(.)[][(1):]"), "{p}");
    }
}
