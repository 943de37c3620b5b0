//! Whether a value validates, answered quickly for the keywords event
//! schemas use; boon ([`crate::validator`]) answers everything else, and
//! says why whenever the answer is "no".
//!
//! boon builds an error tree and tracks unevaluated members for every
//! subschema it enters, which costs more than parsing the event; an event
//! stream is almost all valid events. So a schema made only of the
//! keywords below (JSON Schema 2020-12, § 10.4's discriminated shape and
//! its usual constraints) is compiled a second time into a plain tree that
//! answers yes or no; "no" is then asked of boon again, so every finding is
//! boon's own. The answer is boon's by construction: each keyword below
//! does what boon's `validator.rs` does (numbers compared as `f64`,
//! lengths in code points, `integer` as boon's `is_integer`, equality as
//! boon's `equals`, a pattern compiled from the very string boon
//! compiles), and the official test suite and random events hold the two
//! to the same answer (tests/cli/schema_suite.rs, tests in this file).
//! A keyword outside the list, an `$id` below the root, a `$ref` that is
//! not a pointer into the document, a pattern boon would rewrite, or a
//! loop of references that consumes no value: no quick tree, boon alone.

use std::collections::HashMap;

use regex::Regex;
use serde_json::{Map, Value};

use crate::validator_doc::{At, Shape};

/// A schema compiled for validity only: nodes in an arena, the root first.
pub(crate) struct Quick {
    nodes: Vec<Node>,
}

/// Keywords that change nothing about validity (annotations, containers).
const INERT: &[&str] = &[
    "$comment",
    "$defs",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    // An annotation in 2020-12 unless the metaschema asserts it, which
    // the standard one does not (boon asserts it only then).
    "format",
];

/// JSON Schema 2020-12's metaschema, the only `$schema` taken (boon's
/// default draft when there is none).
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

#[derive(Default)]
struct Node {
    /// `false` schema (or an impossible one).
    never: bool,
    /// Bit per [`type_bit`]; 0: any.
    types: u8,
    constant: Option<Value>,
    enumeration: Option<Vec<Value>>,
    /// Each name, and its place in `properties` if it has one.
    required: Vec<(String, Option<usize>)>,
    properties: Vec<(String, usize)>,
    additional: Option<usize>,
    min_props: Option<usize>,
    max_props: Option<usize>,
    items: Option<usize>,
    min_items: Option<usize>,
    max_items: Option<usize>,
    min_len: Option<usize>,
    max_len: Option<usize>,
    pattern: Option<Pattern>,
    minimum: Option<f64>,
    maximum: Option<f64>,
    exclusive_min: Option<f64>,
    exclusive_max: Option<f64>,
    all_of: Vec<usize>,
    any_of: Vec<usize>,
    one_of: Vec<usize>,
    not: Option<usize>,
    /// `if`, `then`, `else`.
    cond: Option<(usize, Option<usize>, Option<usize>)>,
    /// `allOf`'s members of § 10.4's discriminated shape, by their value.
    switch: Option<Switch>,
    reference: Option<usize>,
}

/// `allOf` members `{"if": {"properties": {NAME: {"const": "X"}}}, "then":
/// T}` (the `if` may also require NAME), one per event type: which `then`s
/// apply is read off the member NAME once, not tried `if` by `if`. Exactly
/// the `if`s' meaning: on a value not an object every `if` holds; on an
/// object without NAME, those that do not require it; else those whose
/// `X` is NAME's value (a string: `const` equals no other type).
struct Switch {
    name: String,
    arms: Vec<Arm>,
}

struct Arm {
    value: String,
    required: bool,
    then: usize,
}

const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const OBJECT: u8 = 4;
const ARRAY: u8 = 8;
const NUMBER: u8 = 16;
const STRING: u8 = 32;
const INTEGER: u8 = 64;

fn type_bit(name: &str) -> Option<u8> {
    Some(match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "object" => OBJECT,
        "array" => ARRAY,
        "number" => NUMBER,
        "string" => STRING,
        "integer" => INTEGER,
        _ => return None,
    })
}

/// Compiles `root` (a schema boon already compiled) into a [`Quick`], or
/// `None` when it uses anything the quick tree does not answer exactly.
pub(crate) fn compile(root: &Value) -> Option<Quick> {
    if let Some(s) = root.get("$schema") {
        let s = s.as_str()?;
        if s.trim_end_matches('#') != DRAFT_2020_12 {
            return None;
        }
    }
    if embeds_resource(root, true) {
        return None;
    }
    let mut c = Compiler {
        root,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
    };
    c.node(root, true)?;
    let q = Quick { nodes: c.nodes };
    (!q.loops()).then_some(q)
}

struct Compiler<'a> {
    root: &'a Value,
    nodes: Vec<Node>,
    /// `$ref` targets compiled so far, by JSON pointer.
    by_pointer: HashMap<String, usize>,
}

impl<'a> Compiler<'a> {
    /// Compiles the schema `v` into a new node, returning its index.
    fn node(&mut self, v: &'a Value, is_root: bool) -> Option<usize> {
        let at = self.nodes.len();
        self.nodes.push(Node::default());
        let n = match v {
            Value::Bool(b) => Node {
                never: !b,
                ..Node::default()
            },
            Value::Object(m) => self.keywords(m, is_root)?,
            _ => return None,
        };
        self.nodes[at] = n;
        Some(at)
    }

    fn keywords(&mut self, m: &'a Map<String, Value>, is_root: bool) -> Option<Node> {
        let mut n = Node::default();
        for (k, v) in m {
            match k.as_str() {
                "$schema" | "$id" if is_root => {}
                k if INERT.contains(&k) => {}
                "type" => n.types = types(v)?,
                "const" => n.constant = Some(v.clone()),
                "enum" => n.enumeration = Some(v.as_array()?.clone()),
                "required" => n.required = strings(v)?.into_iter().map(|r| (r, None)).collect(),
                "properties" => {
                    for (name, s) in v.as_object()? {
                        let i = self.node(s, false)?;
                        n.properties.push((name.clone(), i));
                    }
                }
                "additionalProperties" => n.additional = Some(self.node(v, false)?),
                "minProperties" => n.min_props = Some(count(v)?),
                "maxProperties" => n.max_props = Some(count(v)?),
                "items" => n.items = Some(self.node(v, false)?),
                "minItems" => n.min_items = Some(count(v)?),
                "maxItems" => n.max_items = Some(count(v)?),
                "minLength" => n.min_len = Some(count(v)?),
                "maxLength" => n.max_len = Some(count(v)?),
                "pattern" => n.pattern = Some(pattern(v.as_str()?)?),
                "minimum" => n.minimum = Some(v.as_f64()?),
                "maximum" => n.maximum = Some(v.as_f64()?),
                "exclusiveMinimum" => n.exclusive_min = Some(v.as_f64()?),
                "exclusiveMaximum" => n.exclusive_max = Some(v.as_f64()?),
                "allOf" => {
                    let (switch, rest) = self.all_of(v)?;
                    n.switch = switch;
                    n.all_of = rest;
                }
                "anyOf" => n.any_of = self.list(v)?,
                "oneOf" => n.one_of = self.list(v)?,
                "not" => n.not = Some(self.node(v, false)?),
                "if" => {
                    let then = self.branch(m.get("then"))?;
                    let other = self.branch(m.get("else"))?;
                    n.cond = Some((self.node(v, false)?, then, other));
                }
                "then" | "else" if m.contains_key("if") => {}
                "$ref" => n.reference = Some(self.reference(v.as_str()?)?),
                _ => return None,
            }
        }
        for (r, at) in &mut n.required {
            *at = n.properties.iter().position(|(name, _)| name == r);
        }
        Some(n)
    }

    /// `allOf`'s members: those of the discriminated shape on one name
    /// (the first such member's) as a [`Switch`], the others as they are.
    fn all_of(&mut self, v: &'a Value) -> Option<(Option<Switch>, Vec<usize>)> {
        let all = v.as_array()?;
        if all.is_empty() {
            return None;
        }
        let mut switch: Option<Switch> = None;
        let mut rest = Vec::new();
        for member in all {
            match arm_of(member) {
                Some((name, value, required, then))
                    if switch.as_ref().is_none_or(|s| s.name == name) =>
                {
                    let then = self.node(then, false)?;
                    let arm = Arm {
                        value: value.to_string(),
                        required,
                        then,
                    };
                    match &mut switch {
                        Some(s) => s.arms.push(arm),
                        None => {
                            switch = Some(Switch {
                                name: name.to_string(),
                                arms: vec![arm],
                            })
                        }
                    }
                }
                _ => rest.push(self.node(member, false)?),
            }
        }
        Some((switch, rest))
    }

    /// `then` or `else`: `Some(None)` when absent, `None` when it cannot
    /// be compiled.
    fn branch(&mut self, v: Option<&'a Value>) -> Option<Option<usize>> {
        match v {
            None => Some(None),
            Some(s) => self.node(s, false).map(Some),
        }
    }

    fn list(&mut self, v: &'a Value) -> Option<Vec<usize>> {
        let all = v.as_array()?;
        if all.is_empty() {
            return None;
        }
        all.iter().map(|s| self.node(s, false)).collect()
    }

    /// A `$ref` to `#` or `#/json/pointer` in this document (no
    /// percent-encoding); anything else is boon's alone.
    fn reference(&mut self, r: &str) -> Option<usize> {
        let pointer = r.strip_prefix('#')?;
        if pointer.contains('%') || !(pointer.is_empty() || pointer.starts_with('/')) {
            return None;
        }
        if let Some(&i) = self.by_pointer.get(pointer) {
            return Some(i);
        }
        let target = self.root.pointer(pointer)?;
        // Registered before it is compiled, so a recursive schema ends.
        let at = self.nodes.len();
        self.by_pointer.insert(pointer.to_string(), at);
        let compiled = self.node(target, pointer.is_empty())?;
        debug_assert_eq!(compiled, at);
        Some(at)
    }
}

/// Whether an `$id` appears below the root: a resource of its own, whose
/// `$ref`s resolve against it, not against the document (anything named
/// `$id`, even a property's name, sends the schema to boon: it costs only
/// speed).
fn embeds_resource(v: &Value, is_root: bool) -> bool {
    match v {
        Value::Object(m) => m
            .iter()
            .any(|(k, v)| (k == "$id" && !is_root) || embeds_resource(v, false)),
        Value::Array(all) => all.iter().any(|v| embeds_resource(v, false)),
        _ => false,
    }
}

/// A member `{"if": {"properties": {NAME: {"const": "X"}}, "required":
/// [NAME]?}, "then": T}`: NAME, X, whether the `if` requires NAME, and T.
fn arm_of(member: &Value) -> Option<(&str, &str, bool, &Value)> {
    let m = member.as_object()?;
    let (cond, then) = (m.get("if")?.as_object()?, m.get("then")?);
    let props = cond.get("properties")?.as_object()?;
    if m.len() != 2 || props.len() != 1 {
        return None;
    }
    let (name, want) = props.iter().next()?;
    let want = want.as_object()?;
    let value = want.get("const")?.as_str()?;
    let required = match cond.get("required") {
        None => false,
        Some(r) => r.as_array()?.len() == 1 && r[0].as_str() == Some(name),
    };
    let keys = 1 + usize::from(cond.contains_key("required"));
    if want.len() != 1 || cond.len() != keys || (cond.contains_key("required") && !required) {
        return None;
    }
    Some((name, value, required, then))
}

fn types(v: &Value) -> Option<u8> {
    match v {
        Value::String(s) => type_bit(s),
        Value::Array(all) if !all.is_empty() => all
            .iter()
            .try_fold(0, |bits, t| Some(bits | type_bit(t.as_str()?)?)),
        _ => None,
    }
}

fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

fn count(v: &Value) -> Option<usize> {
    usize::try_from(v.as_u64()?).ok()
}

/// The regex boon compiles for `p`, when boon compiles `p` as written:
/// its ECMA-262 translation (`\d`, `\w`, `\s`, `\c`) rewrites only
/// escapes, so a pattern whose escapes are all escaped punctuation is
/// the same string for both.
fn pattern(p: &str) -> Option<Pattern> {
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && !chars.next()?.is_ascii_punctuation() {
            return None;
        }
    }
    let regex = Regex::new(p).ok()?;
    Some(match (prefix_of(p), run_of(p)) {
        (Some(lit), _) => Pattern::Prefix(lit.to_owned()),
        (None, Some(run)) => Pattern::Run(run),
        (None, None) => Pattern::Regex(regex),
    })
}

/// A `pattern` keyword's test: the regex, or, for a pattern that only
/// says how a string begins, that beginning.
enum Pattern {
    Regex(Regex),
    /// `^` and literal characters: a string matches exactly when it starts
    /// with them (the regex crate's `^` is the start of the text without
    /// the `m` flag, and a flag needs `(`, which is not literal here).
    Prefix(String),
    /// `^[class]{n,m}$` of ASCII letters and digits (an identifier's
    /// shape: a ULID, a hex digest).
    Run(Run),
}

/// A whole string made of characters of one class: `^` and `$` are the
/// ends of the text (no `m` flag), so it matches exactly when its length
/// is in `min..=max` and each of its characters is in the class; a class
/// of ASCII characters holds no other, so bytes are counted as characters.
struct Run {
    /// Bit per ASCII code.
    class: u128,
    min: usize,
    max: usize,
}

impl Pattern {
    fn is_match(&self, s: &str) -> bool {
        match self {
            Pattern::Regex(r) => r.is_match(s),
            Pattern::Prefix(p) => s.starts_with(p.as_str()),
            Pattern::Run(r) => {
                (r.min..=r.max).contains(&s.len())
                    && s.bytes().all(|b| b < 128 && r.class >> b & 1 == 1)
            }
        }
    }
}

/// The [`Run`] `p` is, if it is `^[`, ASCII letters, digits and ranges
/// of them, `]`, then nothing, `+`, `*`, `{n}`, `{n,}` or `{n,m}`, then `$`
/// (no negation, no escape, no set operation: none of them is a letter or
/// a digit).
fn run_of(p: &str) -> Option<Run> {
    let (class, rest) = p.strip_prefix("^[")?.split_once(']')?;
    let quantifier = rest.strip_suffix('$')?;
    let (min, max) = match quantifier {
        "" => (1, 1),
        "+" => (1, usize::MAX),
        "*" => (0, usize::MAX),
        q => {
            let q = q.strip_prefix('{')?.strip_suffix('}')?;
            let number = |t: &str| {
                let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
                digits.then(|| t.parse::<usize>().ok()).flatten()
            };
            match q.split_once(',') {
                None => (number(q)?, number(q)?),
                Some((n, "")) => (number(n)?, usize::MAX),
                Some((n, m)) => (number(n)?, number(m)?),
            }
        }
    };
    let mut bits = 0u128;
    let mut bytes = class.bytes().peekable();
    while let Some(a) = bytes.next() {
        let z = match bytes.next_if_eq(&b'-') {
            Some(_) => bytes.next()?,
            None => a,
        };
        if !a.is_ascii_alphanumeric() || !z.is_ascii_alphanumeric() || a > z {
            return None;
        }
        for b in a..=z {
            bits |= 1 << b;
        }
    }
    (bits != 0 && min <= max).then_some(Run {
        class: bits,
        min,
        max,
    })
}

/// The literal after `^` when `p` is `^` and characters that match only
/// themselves in the regex crate's syntax (letters, digits and a few
/// punctuation marks, none of its metacharacters `\.+*?()|[]{}^$#&-~`).
fn prefix_of(p: &str) -> Option<&str> {
    let lit = p.strip_prefix('^')?;
    lit.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/:_,;=@%!<>'\"".contains(&b))
        .then_some(lit)
}

impl Quick {
    /// Whether `v` validates against the schema.
    pub(crate) fn valid<'a, I: Instance<'a>>(&self, v: I) -> bool {
        self.at(0, v)
    }

    fn at<'a, I: Instance<'a>>(&self, i: usize, v: I) -> bool {
        let n = &self.nodes[i];
        if n.never {
            return false;
        }
        let shape = v.shape();
        if n.types != 0 && !has_type(n.types, &shape) {
            return false;
        }
        if n.constant.as_ref().is_some_and(|c| !equals(c, v)) {
            return false;
        }
        if let Some(all) = &n.enumeration {
            if !all.iter().any(|e| equals(e, v)) {
                return false;
            }
        }
        let own = match shape {
            Shape::Object(len) => self.object(n, v, len),
            Shape::Array(len) => self.array(n, v, len),
            Shape::String(s) => string(n, s),
            Shape::Number(x) => x.as_f64().is_none_or(|x| number(n, x)),
            Shape::Null | Shape::Bool(_) => true,
        };
        own && self.applicators(n, v)
    }

    /// Members are read once, each matched to its `properties` entry;
    /// `required` names among those are checked off as they pass.
    fn object<'a, I: Instance<'a>>(&self, n: &Node, v: I, len: usize) -> bool {
        if n.min_props.is_some_and(|min| len < min) || n.max_props.is_some_and(|max| len > max) {
            return false;
        }
        let mut seen = 0u64;
        // A node with no member schemas (a `$ref`, a `then`) reads none.
        let members = !(n.properties.is_empty() && n.additional.is_none());
        for (k, c) in v.children().take_while(|_| members) {
            let schema = match n.properties.iter().position(|(name, _)| same(name, k)) {
                Some(j) => {
                    seen |= 1u64.checked_shl(j as u32).unwrap_or(0);
                    Some(n.properties[j].1)
                }
                None => n.additional,
            };
            if schema.is_some_and(|s| !self.at(s, c)) {
                return false;
            }
        }
        n.required.iter().all(|(r, at)| match at {
            Some(j) if *j < 64 => seen & (1 << j) != 0,
            _ => v.get(r).is_some(),
        })
    }

    fn array<'a, I: Instance<'a>>(&self, n: &Node, v: I, len: usize) -> bool {
        !(n.min_items.is_some_and(|min| len < min) || n.max_items.is_some_and(|max| len > max))
            && n.items
                .is_none_or(|s| v.children().all(|(_, c)| self.at(s, c)))
    }

    fn applicators<'a, I: Instance<'a>>(&self, n: &Node, v: I) -> bool {
        n.reference.is_none_or(|r| self.at(r, v))
            && n.all_of.iter().all(|&s| self.at(s, v))
            && (n.any_of.is_empty() || n.any_of.iter().any(|&s| self.at(s, v)))
            && (n.one_of.is_empty() || n.one_of.iter().filter(|&&s| self.at(s, v)).count() == 1)
            && n.not.is_none_or(|s| !self.at(s, v))
            && n.switch.as_ref().is_none_or(|s| self.switch(s, v))
            && n.cond.is_none_or(|(i, t, e)| {
                let branch = if self.at(i, v) { t } else { e };
                branch.is_none_or(|b| self.at(b, v))
            })
    }

    /// Whether every `then` of `s` that applies to `v` holds.
    fn switch<'a, I: Instance<'a>>(&self, s: &Switch, v: I) -> bool {
        let all = |keep: &dyn Fn(&Arm) -> bool| {
            s.arms
                .iter()
                .filter(|a| keep(a))
                .all(|a| self.at(a.then, v))
        };
        let Shape::Object(_) = v.shape() else {
            return all(&|_| true);
        };
        match v.get(&s.name).map(Instance::shape) {
            None => all(&|a| !a.required),
            Some(Shape::String(x)) => all(&|a| same(&a.value, x)),
            Some(_) => true,
        }
    }

    /// Whether some node reaches itself without descending into the value
    /// (`$ref`, `allOf`, … on the same value): validation would not end,
    /// and boon reports such a loop, so those schemas are boon's.
    fn loops(&self) -> bool {
        // 0: unseen, 1: on the path, 2: done.
        let mut state = vec![0u8; self.nodes.len()];
        (0..self.nodes.len()).any(|i| self.loop_from(i, &mut state))
    }

    fn loop_from(&self, i: usize, state: &mut [u8]) -> bool {
        match state[i] {
            1 => return true,
            2 => return false,
            _ => {}
        }
        state[i] = 1;
        let n = &self.nodes[i];
        let cond = n.cond.iter().flat_map(|&(i, t, e)| [Some(i), t, e]);
        let same_value = n
            .reference
            .iter()
            .copied()
            .chain(n.all_of.iter().copied())
            .chain(n.any_of.iter().copied())
            .chain(n.one_of.iter().copied())
            .chain(n.not)
            .chain(cond.flatten())
            .chain(n.switch.iter().flat_map(|s| s.arms.iter().map(|a| a.then)))
            .collect::<Vec<_>>();
        let found = same_value.into_iter().any(|s| self.loop_from(s, state));
        state[i] = 2;
        found
    }
}

/// `a == b`, without a call to `memcmp` for names of one length that
/// differ in their first byte (most of an event's).
#[inline]
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

fn has_type(bits: u8, v: &Shape) -> bool {
    let bit = match v {
        Shape::Null => NULL,
        Shape::Bool(_) => BOOLEAN,
        Shape::Object(_) => OBJECT,
        Shape::Array(_) => ARRAY,
        Shape::Number(_) => NUMBER,
        Shape::String(_) => STRING,
    };
    bits & bit != 0 || (bits & INTEGER != 0 && is_integer(v))
}

/// boon's `is_integer`: an integer, or a float with no fraction (1.0).
fn is_integer(v: &Shape) -> bool {
    match v {
        Shape::Number(n) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

fn string(n: &Node, s: &str) -> bool {
    if n.min_len.is_some() || n.max_len.is_some() {
        let len = s.chars().count();
        if n.min_len.is_some_and(|min| len < min) || n.max_len.is_some_and(|max| len > max) {
            return false;
        }
    }
    n.pattern.as_ref().is_none_or(|p| p.is_match(s))
}

/// boon compares numbers as `f64`.
fn number(n: &Node, x: f64) -> bool {
    !(n.minimum.is_some_and(|m| x < m)
        || n.maximum.is_some_and(|m| x > m)
        || n.exclusive_min.is_some_and(|m| x <= m)
        || n.exclusive_max.is_some_and(|m| x >= m))
}

/// boon's `equals` (its first argument the schema's value): numbers by
/// value (1 is 1.0), the rest structurally. Both objects have each name
/// once, so looking up `v`'s names in `e` is looking up `e`'s in `v`.
fn equals<'a, I: Instance<'a>>(e: &Value, v: I) -> bool {
    match (e, v.shape()) {
        (Value::Null, Shape::Null) => true,
        (Value::Bool(a), Shape::Bool(b)) => *a == b,
        (Value::Number(x), Shape::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                return x == y;
            }
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                return x == y;
            }
            if let (Some(x), Some(y)) = (x.as_f64(), y.as_f64()) {
                return x == y;
            }
            false
        }
        (Value::String(a), Shape::String(b)) => a == b,
        (Value::Array(all), Shape::Array(len)) => {
            all.len() == len && all.iter().zip(v.children()).all(|(e, (_, c))| equals(e, c))
        }
        (Value::Object(m), Shape::Object(len)) => {
            m.len() == len
                && v.children()
                    .all(|(k, c)| m.get(k).is_some_and(|e| equals(e, c)))
        }
        _ => false,
    }
}

/// What the quick validator reads of a value: serde_json's `Value` (lint,
/// tests, lines the in-place reader leaves to serde_json) or an event read
/// in place (`--schema`, [`crate::validator_doc`]).
pub(crate) trait Instance<'a>: Copy {
    fn shape(self) -> Shape<'a>;
    /// Members (with their names) or items (names empty), in order.
    fn children(self) -> impl Iterator<Item = (&'a str, Self)>;
    /// An object's member `name`.
    fn get(self, name: &str) -> Option<Self> {
        self.children().find(|(k, _)| *k == name).map(|(_, v)| v)
    }
}

impl<'a> Instance<'a> for &'a Value {
    fn shape(self) -> Shape<'a> {
        match self {
            Value::Null => Shape::Null,
            Value::Bool(b) => Shape::Bool(*b),
            Value::Number(n) => Shape::Number(n),
            Value::String(s) => Shape::String(s),
            Value::Array(a) => Shape::Array(a.len()),
            Value::Object(m) => Shape::Object(m.len()),
        }
    }

    fn children(self) -> impl Iterator<Item = (&'a str, Self)> {
        let members = self.as_object().into_iter().flatten();
        let items = self.as_array().into_iter().flatten();
        members
            .map(|(k, v)| (k.as_str(), v))
            .chain(items.map(|v| ("", v)))
    }

    fn get(self, name: &str) -> Option<Self> {
        self.as_object()?.get(name)
    }
}

impl<'a> Instance<'a> for At<'a> {
    fn shape(self) -> Shape<'a> {
        At::shape(self)
    }

    fn children(self) -> impl Iterator<Item = (&'a str, Self)> {
        At::children(self)
    }
}

#[cfg(test)]
mod tests {
    /// Only `^` and characters literal in the regex crate's syntax make a
    /// prefix (whose answer `validator_quick_tests` holds to boon's).
    #[test]
    fn prefixes_are_plain_literals_after_a_caret() {
        assert_eq!(super::prefix_of("^/"), Some("/"));
        assert_eq!(super::prefix_of("^"), Some(""));
        assert_eq!(super::prefix_of("^src/a_b:c"), Some("src/a_b:c"));
        for p in [
            "/", "a^", "^a.b", "^a*", "^(?m)a", "^a$", "^a-b", "^a b", "^\\/", "^\u{e9}",
        ] {
            assert_eq!(super::prefix_of(p), None, "{p}");
        }
    }

    /// Only `^[letters, digits, ranges]` and a plain count then `$` make
    /// a run (whose answer `validator_quick_tests` holds to boon's).
    #[test]
    fn runs_are_plain_classes_between_anchors() {
        let run = |p: &str| super::run_of(p).map(|r| (r.class, r.min, r.max));
        let digits = 0x3ff_u128 << b'0';
        assert_eq!(run("^[0-9]{26}$"), Some((digits, 26, 26)));
        assert_eq!(run("^[0-9]$"), Some((digits, 1, 1)));
        assert_eq!(run("^[0-9]+$"), Some((digits, 1, usize::MAX)));
        assert_eq!(run("^[0-9]{2,}$"), Some((digits, 2, usize::MAX)));
        assert_eq!(run("^[0-9]{2,5}$"), Some((digits, 2, 5)));
        assert_eq!(run("^[a]*$"), Some((1 << b'a', 0, usize::MAX)));
        for p in [
            "^[0-9]{26}",
            "[0-9]{26}$",
            "^[^0-9]$",
            "^[0-9-]$",
            "^[-0-9]$",
            "^[9-0]$",
            "^[]$",
            "^[0-9]{5,2}$",
            "^[0-9]{,2}$",
            "^[0-9]{ 2}$",
            "^[0-9]?$",
            "^[\\d]$",
            "^[a&&b]$",
            "^[0-9][a]$",
            "^[0-9]{2}{3}$",
            "^[[:alpha:]]$",
            "^[0-9]{+1}$",
        ] {
            assert_eq!(run(p), None, "{p}");
        }
    }
}
