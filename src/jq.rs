//! The jq language, embedded: jaq (jaq-core, jaq-std, jaq-json) compiled
//! once per run, its values written back as strict JSON.
//!
//! - [`compile`] loads a filter with the full standard library (jaq-core's,
//!   jaq-std's with formats, regex, time, math and `env`, jaq-json's,
//!   `@csv`/`@tsv` (written here: jaq keeps them in jaq-fmts, whose only
//!   feature set that exports them pulls YAML, TOML, XML and CBOR), and
//!   `input`/`inputs`), the global variables given (`--arg`, `--argjson`)
//!   and `$ENV`, and turns errors into one readable message that points at
//!   the position.
//! - [`write_json`] writes a value as strict RFC 8259 JSON, iteratively:
//!   jaq may hold `NaN`, infinities, byte strings and non-string keys, none
//!   of which may leave aoi (see the function for what becomes of each).
//! - [`install_logger`] routes jaq's `debug`, `stderr` and `halt_error`
//!   (which jaq sends through the `log` crate) to stderr, as jq prints them.

use std::io::Write;
use std::path::PathBuf;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, DataT, Lut, data};
use jaq_json::Val;
use jaq_std::input::{HasInputs, Inputs};

mod alternatives;
mod compat;
mod construct;
mod paths;
mod projection;
mod rewrite;
mod transcribe;
mod verbatim;

pub use compat::set_input_filename;
pub use construct::{Construction, construction};
pub use projection::input_keys;
pub use transcribe::{Transcriber, distinct_keys};
pub use verbatim::{Found, member_at, verbatim, write_found};

/// The data kind filters run with: the look-up table and the inputs that
/// `input`/`inputs` read.
pub struct Kind;

/// What a running filter can reach besides its input value.
pub struct Data<'a> {
    /// The compiled filter's lookup table (jaq's `Lut`).
    pub lut: &'a Lut<Kind>,
    /// What `input`/`inputs` read.
    pub inputs: Inputs<'a, Val>,
}

impl DataT for Kind {
    type V<'a> = Val;
    type Data<'a> = &'a Data<'a>;
}

impl<'a> data::HasLut<'a, Kind> for &'a Data<'a> {
    fn lut(&self) -> &'a Lut<Kind> {
        self.lut
    }
}

impl<'a> HasInputs<'a, Val> for &'a Data<'a> {
    fn inputs(&self) -> Inputs<'a, Val> {
        self.inputs
    }
}

/// A compiled filter.
pub type Filter = jaq_core::Filter<Kind>;

/// Compiles `code` with the standard library and the global variables
/// `vars` (names without `$`; `$ENV` is always there, first). The error is
/// one message naming the position (line:column) and what was expected.
pub fn compile(code: &str, vars: &[String], lib: &[PathBuf]) -> Result<Filter, String> {
    // jq's updates: the program written again where it assigns. Should
    // the rewritten program not compile (a case the printer missed), the
    // program as written is compiled: jaq's update, jaq's messages.
    let alternatives = alternatives::rewrite(code);
    let code = alternatives.as_deref().unwrap_or(code);
    match rewrite::assignments(code) {
        Some(jq_updates) => {
            compile_code(&jq_updates, vars, lib).or_else(|_| compile_code(code, vars, lib))
        }
        None => compile_code(code, vars, lib),
    }
}

fn compile_code(code: &str, vars: &[String], lib: &[PathBuf]) -> Result<Filter, String> {
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .chain(compat::defs());
    let defs: Vec<_> = defs.collect();
    let funs: Vec<_> = jaq_core::funs::<Kind>()
        .chain(jaq_std::funs::<Kind>())
        // jaq's fromjson would recurse on any depth: ours checks first.
        .chain(jaq_json::funs::<Kind>().filter(|(name, _, _)| *name != "fromjson"))
        .chain(tabular_funs())
        .chain(compat::funs())
        .chain(
            jaq_std::input::funs::<Kind>()
                .into_vec()
                .into_iter()
                .map(jaq_core::native::run::<Kind>),
        )
        .collect();
    // jq's `builtins`: every filter defined before the program.
    compat::set_builtins(
        defs.iter()
            .map(|d| (d.name, d.args.len()))
            .chain(funs.iter().map(|(name, arity, _)| (*name, arity.len()))),
    );
    let names: Vec<String> = std::iter::once("$ENV".to_string())
        .chain(vars.iter().map(|v| format!("${v}")))
        .collect();
    let arena = Arena::default();
    // Modules (`import`, `include`) are searched for in the -L folders.
    let loader = Loader::new(defs)
        .with_read(|import: jaq_core::load::Import<'_, &str, PathBuf>| read_module(import, lib));
    let modules = loader
        .load(
            &arena,
            File {
                path: PathBuf::new(),
                code,
            },
        )
        .map_err(|errs| load_message(code, errs))?;
    Compiler::default()
        .with_funs(funs)
        .with_global_vars(names.iter().map(String::as_str))
        .compile(modules)
        .map_err(|errs| {
            let mut parts = Vec::new();
            for (_file, es) in errs {
                for (name, undefined) in es {
                    let what = match (name, undefined) {
                        ("reduce" | "foreach", jaq_core::compile::Undefined::Filter(n)) => {
                            format!("wrong number of arguments to {name} ({n})")
                        }
                        (_, u) => format!("undefined {} `{name}`", u.as_str()),
                    };
                    parts.push(at(code, name, &what));
                }
            }
            parts.join("; ")
        })
}

/// The module an `import`/`include` names, found as jq finds it: NAME.jq
/// in a search folder, else NAME/LAST.jq (`"c"` is `c/c.jq`).
fn read_module(
    import: jaq_core::load::Import<'_, &str, PathBuf>,
    lib: &[PathBuf],
) -> Result<File<String, PathBuf>, String> {
    use jaq_core::load::Import;
    let (parent, path, meta) = (import.parent, import.path, import.meta);
    let found = Import { parent, path, meta }.find(lib, "jq").or_else(|e| {
        let last = std::path::Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let nested = format!("{path}/{last}");
        let nested: &str = &nested;
        Import {
            parent,
            path: &nested,
            meta,
        }
        .find(lib, "jq")
        .map_err(|_| e)
    })?;
    let code = std::fs::read_to_string(&found).map_err(|e| e.to_string())?;
    Ok(File { code, path: found })
}

/// `@csv` and `@tsv` as jq defines them: an array of scalars to one line
/// (strings quoted with `""` doubled, or tab-separated with `\t`, `\n`,
/// `\r`, `\\` escaped; `null` empty; numbers and booleans as text).
fn tabular_funs() -> impl Iterator<Item = jaq_core::native::Fun<Kind>> {
    use jaq_core::native::{Filter as Native, bome, run, v};
    let funs: [Native<jaq_core::RunPtr<Kind>>; 3] = [
        ("@csv", v(0), |cv| bome(row(&cv.1, true))),
        ("@tsv", v(0), |cv| bome(row(&cv.1, false))),
        ("fromjson", v(0), |cv| {
            Box::new(from_json(&cv.1).into_iter())
        }),
    ];
    funs.into_iter().map(run::<Kind>)
}

/// `fromjson`: the values of a JSON text, refused past [`MAX_DEPTH`]
/// (jaq's parser recurses; a string from the input must not be able to
/// overflow the stack).
fn from_json<'a>(v: &Val) -> Vec<jaq_core::ValX<'a, Val>> {
    let err = |msg: String| vec![Err(jaq_core::Exn::from(jaq_core::Error::str(msg)))];
    let text: &[u8] = match v {
        Val::TStr(s) | Val::BStr(s) => s,
        other => {
            return err(format!(
                "{other} cannot be parsed as JSON, only a string can"
            ));
        }
    };
    if too_deep(text) {
        return err(format!("fromjson: nesting deeper than {MAX_DEPTH} levels"));
    }
    // jq reads a NaN written as text (what its own tojson never writes).
    if matches!(text.trim_ascii(), b"nan" | b"NaN" | b"-nan" | b"-NaN") {
        return vec![Ok(Val::from(f64::NAN))];
    }
    // The values up to the first error, and that error: the parser goes on
    // yielding errors from where it failed (it does not advance), so a
    // text with an error would never end.
    let mut failed = false;
    jaq_json::read::parse_many(text)
        .take_while(|r| !std::mem::replace(&mut failed, r.is_err()))
        .map(|r| {
            r.map_err(|e| {
                let shown =
                    String::from_utf8_lossy(text.get(..text.len().min(60)).unwrap_or_default())
                        .into_owned();
                jaq_core::Exn::from(jaq_core::Error::str(format!(
                    "cannot parse {shown:?} as JSON: {e}"
                )))
            })
        })
        .collect()
}

fn row(v: &Val, csv: bool) -> Result<Val, jaq_core::Error<Val>> {
    let what = if csv { "csv" } else { "tsv" };
    let Val::Arr(items) = v else {
        return Err(jaq_core::Error::str(format!(
            "{v} cannot be {what}-formatted, only an array can be"
        )));
    };
    let mut out: Vec<u8> = Vec::new();
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(if csv { b',' } else { b'\t' });
        }
        match x {
            Val::Null => {}
            Val::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Val::Num(n) => {
                let _ = write!(out, "{n}");
            }
            Val::TStr(s) | Val::BStr(s) if csv => {
                out.push(b'"');
                for &c in s.iter() {
                    if c == b'"' {
                        out.push(b'"');
                    }
                    out.push(c);
                }
                out.push(b'"');
            }
            Val::TStr(s) | Val::BStr(s) => {
                for &c in s.iter() {
                    match c {
                        b'\t' => out.extend_from_slice(b"\\t"),
                        b'\n' => out.extend_from_slice(b"\\n"),
                        b'\r' => out.extend_from_slice(b"\\r"),
                        b'\\' => out.extend_from_slice(b"\\\\"),
                        c => out.push(c),
                    }
                }
            }
            other => {
                return Err(jaq_core::Error::str(format!(
                    "{other} is not valid in a {what} row"
                )));
            }
        }
    }
    Ok(Val::utf8_str(out))
}

/// The value of jq's `$__loc__` in `code`: `{"file":"<top-level>","line":N}`,
/// N the line of its first use (1 where it is not used).
pub fn loc_value(code: &str) -> Val {
    let line = code.find("$__loc__").map_or(1, |at| {
        code.get(..at).unwrap_or_default().matches('\n').count() + 1
    });
    let mut map = jaq_json::Map::default();
    map.insert(
        Val::utf8_str(b"file".to_vec()),
        Val::utf8_str(b"<top-level>".to_vec()),
    );
    map.insert(Val::utf8_str(b"line".to_vec()), Val::from(line));
    Val::obj(map)
}

/// The value of `$ENV`: the environment as an object of strings.
pub fn env_object() -> Val {
    let map: jaq_json::Map = std::env::vars_os()
        .map(|(k, v)| {
            (
                Val::utf8_str(k.to_string_lossy().into_owned().into_bytes()),
                Val::utf8_str(v.to_string_lossy().into_owned().into_bytes()),
            )
        })
        .collect();
    Val::obj(map)
}

fn load_message(code: &str, errs: jaq_core::load::Errors<&str, PathBuf>) -> String {
    use jaq_core::load::{Error, lex};
    let mut parts = Vec::new();
    for (_file, e) in errs {
        match e {
            Error::Io(es) => {
                for (path, msg) in es {
                    parts.push(format!("cannot load module {path}: {msg}"));
                }
            }
            Error::Lex(es) => {
                for (expect, found) in es {
                    let what = match expect {
                        lex::Expect::Delim(open) => {
                            let close = match open {
                                "(" => ")",
                                "[" => "]",
                                "{" => "}",
                                _ => "\"",
                            };
                            format!("unclosed `{open}`: expected `{close}`")
                        }
                        lex::Expect::Digit => "expected a digit".to_string(),
                        lex::Expect::Ident => "expected an identifier".to_string(),
                        lex::Expect::Escape => "expected a string escape sequence".to_string(),
                        lex::Expect::Unicode => {
                            "expected 4 hexadecimal digits after \\u".to_string()
                        }
                        _ => match found.chars().next() {
                            Some(c) => format!("unexpected `{c}`"),
                            None => "unexpected end of the filter".to_string(),
                        },
                    };
                    parts.push(at(code, found, &what));
                }
            }
            Error::Parse(es) => {
                for (expect, found) in es {
                    let got = if found.is_empty() {
                        "the end of the filter".to_string()
                    } else {
                        let tok: String = found.chars().take(20).collect();
                        format!("`{tok}`")
                    };
                    let what = format!("expected {}, found {got}", expect.as_str());
                    parts.push(at(code, found, &what));
                }
            }
        }
    }
    parts.join("; ")
}

/// `what` at the position of `part` (a slice of `code`), with the line of
/// the filter and a caret under the position.
fn at(code: &str, part: &str, what: &str) -> String {
    let start = (part.as_ptr() as usize)
        .checked_sub(code.as_ptr() as usize)
        .filter(|s| *s <= code.len())
        .unwrap_or(code.len());
    let before = code.get(..start).unwrap_or(code);
    let line_no = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    let line = code
        .get(line_start..)
        .and_then(|s| s.lines().next())
        .unwrap_or("");
    let line: String = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!(
        "{line_no}:{col}: {what}\n    {line}\n    {}^",
        " ".repeat(col - 1)
    )
}

/// The deepest nesting handed to jaq, whose parser and values recurse (jq
/// 1.7 stops at the same depth). aoi's own validator has no limit.
pub const MAX_DEPTH: usize = 10_000;

/// Whether the JSON text `s` (already validated) nests deeper than
/// [`MAX_DEPTH`]. Only a line of more than twice that many bytes can.
pub fn too_deep(s: &[u8]) -> bool {
    if s.len() <= 2 * MAX_DEPTH {
        return false;
    }
    // Depth needs as many opening brackets: counting them (memchr's SIMD
    // search, fast where brackets are few among many bytes) rules out
    // nearly every line; the exact walk runs only past that count.
    let opening = memchr::memchr2_iter(b'[', b'{', s).count();
    if opening <= MAX_DEPTH {
        return false;
    }
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    for &c in s {
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// The value of a JSON object line that the peek has validated, built
/// from the spans it recorded: top-level strings, numbers and literals are
/// not lexed again, only nested objects and arrays go through jaq's
/// parser. The same value `jaq_json::read::parse_single` gives (strings
/// decoded, numbers read by jaq's own number reader, a repeated key's last
/// value kept at its first position).
pub fn object_from_peek(line: &[u8], peek: &crate::peek::Peeker) -> Result<Val, String> {
    object_of_members(line, peek, None)
}

/// The object of `line` with only the members named in `keys` (a
/// repeated key's last value, as in the whole object): what a filter
/// that reads only them ([`input_keys`]) needs of it.
pub fn object_with_keys(
    line: &[u8],
    peek: &crate::peek::Peeker,
    keys: &[String],
) -> Result<Val, String> {
    object_of_members(line, peek, Some(keys))
}

fn object_of_members(
    line: &[u8],
    peek: &crate::peek::Peeker,
    keys: Option<&[String]>,
) -> Result<Val, String> {
    use crate::peek::{Kind as K, key_is, span, unescape};
    let members = &peek.members;
    // One copy of the line; every string without escapes is a slice of it
    // (a reference count, no allocation or copy of its own).
    let shared = bytes::Bytes::copy_from_slice(line);
    let slice = |r: std::ops::Range<usize>| -> Val {
        if r.end <= shared.len() && r.start <= r.end {
            Val::utf8_str(shared.slice(r))
        } else {
            Val::utf8_str(bytes::Bytes::new())
        }
    };
    let wanted = |m: &crate::peek::Member| {
        keys.is_none_or(|ks| {
            ks.iter()
                .any(|k| key_is(span(line, &m.key), m.key_escaped, k))
        })
    };
    let room = keys.map_or(members.len(), <[String]>::len);
    let mut map = jaq_json::Map::with_capacity_and_hasher(room, Default::default());
    for (i, m) in members.iter().enumerate() {
        if !wanted(m) {
            continue;
        }
        let key = if m.key_escaped {
            Val::utf8_str(unescape(span(line, &m.key)).into_owned().into_bytes())
        } else {
            slice(m.key.clone())
        };
        let value = match m.kind {
            K::String { escaped: false } => slice(m.value.start + 1..m.value.end.saturating_sub(1)),
            K::Object if peek.aoi_member == Some(i) && peek.envelope.is_some() => {
                // The usual envelope, already read by the peek:
                // `{"seq":N,"run":"R"}` with R free of escapes.
                let (seq, run) = peek.envelope.clone().unwrap_or_default();
                let run = slice(run.start + 1..run.end.saturating_sub(1));
                let mut env = jaq_json::Map::with_capacity_and_hasher(2, Default::default());
                env.insert(
                    Val::utf8_str(&b"seq"[..]),
                    Val::Num(jaq_json::Num::from_integral(seq)),
                );
                env.insert(Val::utf8_str(&b"run"[..]), run);
                Val::obj(env)
            }
            kind => value_of(kind, span(line, &m.value), peek.lone_surrogate)?,
        };
        map.insert(key, value);
    }
    Ok(Val::obj(map))
}

/// The value jaq reads from `raw`, a value of kind `kind` in a validated
/// line (`lone_surrogate`: the line holds a lone surrogate escape, read as
/// U+FFFD, see [`nested`]).
fn value_of(kind: crate::peek::Kind, raw: &[u8], lone_surrogate: bool) -> Result<Val, String> {
    use crate::peek::{Kind as K, unescape};
    Ok(match kind {
        K::Null => Val::Null,
        K::True => Val::Bool(true),
        K::False => Val::Bool(false),
        K::String { .. } => {
            let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
            Val::utf8_str(unescape(body).into_owned().into_bytes())
        }
        K::Number { .. } => match jaq_json::read::parse_single_num(raw) {
            Some(n) => Val::Num(n),
            None => {
                return Err(format!(
                    "unreadable number {}",
                    String::from_utf8_lossy(raw)
                ));
            }
        },
        K::Object | K::Array => nested(raw, lone_surrogate)?,
    })
}

/// A nested object or array of a validated line, read by jaq's parser. A
/// lone surrogate escape is valid JSON, which jaq's parser refuses: it
/// reads as U+FFFD, as in a top-level string ([`crate::peek::unescape`]),
/// so every event `aoi check` accepts is one the filter can read, and a
/// filter that skips the member answers as one that reads it.
fn nested(raw: &[u8], lone_surrogate: bool) -> Result<Val, String> {
    match jaq_json::read::parse_single(raw) {
        Err(_) if lone_surrogate => {
            jaq_json::read::parse_single(&crate::peek::lone_surrogates_replaced(raw))
        }
        read => read,
    }
    .map_err(|e| e.to_string())
}

/// Why a value cannot be written as JSON.
#[derive(Debug, PartialEq)]
pub struct NotJson(pub String);

/// Appends `v` as compact, strict JSON (the spelling `jq -c` uses where
/// jaq and jq agree). What jaq can hold and JSON cannot:
///
/// - `NaN` becomes `null`, ±infinity ±1.7976931348623157e+308 (jq's choices);
/// - a byte string is written as a string of its bytes read as UTF-8
///   (invalid sequences replaced by U+FFFD), as is a text string holding
///   invalid UTF-8;
/// - an object key that is not a string is an error (jq's too: "object
///   keys must be strings").
///
/// Iterative, so a deeply nested value cannot overflow the stack.
pub fn write_json(out: &mut Vec<u8>, v: &Val) -> Result<(), NotJson> {
    enum Frame<'a> {
        Arr(std::slice::Iter<'a, Val>, bool),
        Obj(<&'a jaq_json::Map as IntoIterator>::IntoIter, bool),
    }
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut next: Option<&Val> = Some(v);
    loop {
        if let Some(v) = next.take() {
            match v {
                Val::Arr(a) => {
                    out.push(b'[');
                    stack.push(Frame::Arr(a.iter(), true));
                }
                Val::Obj(o) => {
                    out.push(b'{');
                    stack.push(Frame::Obj(o.iter(), true));
                }
                scalar => write_scalar(out, scalar),
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        match top {
            Frame::Arr(it, first) => match it.next() {
                Some(x) => {
                    if !*first {
                        out.push(b',');
                    }
                    *first = false;
                    next = Some(x);
                }
                None => {
                    out.push(b']');
                    stack.pop();
                }
            },
            Frame::Obj(it, first) => match it.next() {
                Some((k, x)) => {
                    if !*first {
                        out.push(b',');
                    }
                    *first = false;
                    match k {
                        Val::TStr(s) | Val::BStr(s) => write_str(out, s.as_ref()),
                        other => {
                            return Err(NotJson(format!(
                                "object keys must be strings, not {other}"
                            )));
                        }
                    }
                    out.push(b':');
                    next = Some(x);
                }
                None => {
                    out.push(b'}');
                    stack.pop();
                }
            },
        }
    }
}

fn write_scalar(out: &mut Vec<u8>, v: &Val) {
    match v {
        Val::Null => out.extend_from_slice(b"null"),
        Val::Bool(true) => out.extend_from_slice(b"true"),
        Val::Bool(false) => out.extend_from_slice(b"false"),
        Val::Num(n) => write_num(out, n),
        Val::TStr(s) | Val::BStr(s) => write_str(out, s.as_ref()),
        // Containers are handled by the caller.
        Val::Arr(_) | Val::Obj(_) => out.extend_from_slice(b"null"),
    }
}

fn write_num(out: &mut Vec<u8>, n: &jaq_json::Num) {
    use jaq_json::Num;
    match n {
        Num::Float(x) if x.is_nan() => out.extend_from_slice(b"null"),
        Num::Float(x) if x.is_infinite() => {
            if *x < 0.0 {
                out.push(b'-');
            }
            out.extend_from_slice(b"1.7976931348623157e+308");
        }
        // Integers, finite floats (ryu's shortest form) and decimals kept
        // as they were read (validated JSON) are JSON as displayed.
        _ => {
            let _ = write!(out, "{n}");
        }
    }
}

/// A JSON string: `"`, `\` and control characters escaped as jq escapes
/// them, other characters as UTF-8, invalid UTF-8 replaced.
pub fn write_str(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    if std::str::from_utf8(s).is_ok() {
        write_escaped(out, s);
    } else {
        for chunk in s.utf8_chunks() {
            write_escaped(out, chunk.valid().as_bytes());
            if !chunk.invalid().is_empty() {
                out.extend_from_slice("\u{FFFD}".as_bytes());
            }
        }
    }
    out.push(b'"');
}

/// Whether any byte of the 8 in `w` needs an escape: `"`, `\`, a control
/// byte (< 0x20) or DEL (SWAR: false positives are rechecked by the caller,
/// a true one is never missed).
#[inline(always)]
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    below_space
        | zero_in(w ^ (ONES * b'"' as u64))
        | zero_in(w ^ (ONES * b'\\' as u64))
        | zero_in(w ^ (ONES * 0x7f))
        != 0
}

/// Valid UTF-8 `s` with jq's escapes, copied in runs between them.
fn write_escaped(out: &mut Vec<u8>, s: &[u8]) {
    let mut from = 0;
    let mut i = 0;
    while i < s.len() {
        // Skip 8 clean bytes at a time.
        if let Some(w) = s.get(i..i + 8) {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            if !word_needs_escape(u64::from_le_bytes(b)) {
                i += 8;
                continue;
            }
        }
        let c = s.get(i).copied().unwrap_or_default();
        let esc: &[u8] = match c {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f | 0x7f => b"",
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(s.get(from..i).unwrap_or_default());
        if esc.is_empty() {
            let _ = write!(out, "\\u{c:04x}");
        } else {
            out.extend_from_slice(esc);
        }
        i += 1;
        from = i;
    }
    out.extend_from_slice(s.get(from..).unwrap_or_default());
}

/// What a filter wrote to stderr on one thread, kept ([`capture_stderr`]).
struct Capture {
    text: Vec<u8>,
    /// Bytes it may keep in all; past them it keeps nothing more.
    room: usize,
    kept: usize,
    full: bool,
    /// Called once, when the capture passes its room: a filter that goes on
    /// writing to stderr may never come back to say so.
    on_full: Option<Box<dyn FnOnce()>>,
}

thread_local! {
    static CAPTURED: std::cell::RefCell<Option<Capture>> = const { std::cell::RefCell::new(None) };
}

/// From now on, what a filter writes to stderr on this thread is kept, up
/// to `room` bytes (for [`take_captured`]), instead of written: a worker's
/// file is said in its turn.
pub fn capture_stderr(room: usize) {
    capture_stderr_then(room, None);
}

/// [`capture_stderr`], calling `on_full` the moment the capture passes its
/// room (from inside the filter, which may never end).
pub fn capture_stderr_then(room: usize, on_full: Option<Box<dyn FnOnce()>>) {
    let capture = Capture {
        text: Vec::new(),
        room,
        kept: 0,
        full: false,
        on_full,
    };
    CAPTURED.with(|c| *c.borrow_mut() = Some(capture));
}

/// What this thread's filters wrote to stderr since the last call.
pub fn take_captured() -> Vec<u8> {
    CAPTURED.with(|c| {
        c.borrow_mut()
            .as_mut()
            .map(|c| std::mem::take(&mut c.text))
            .unwrap_or_default()
    })
}

/// Whether this thread's capture passed its room (and dropped its text).
pub fn capture_full() -> bool {
    CAPTURED.with(|c| c.borrow().as_ref().is_some_and(|c| c.full))
}

/// Keeps `record` in this thread's capture; false when there is none.
fn captured(record: &log::Record<'_>) -> bool {
    CAPTURED.with(|c| match c.borrow_mut().as_mut() {
        Some(c) if c.full => true,
        Some(c) => {
            let before = c.text.len();
            let _ = write_record(&mut c.text, record);
            c.kept += c.text.len() - before;
            if c.kept > c.room {
                c.full = true;
                c.text = Vec::new();
                if let Some(on_full) = c.on_full.take() {
                    on_full();
                }
            }
            true
        }
        None => false,
    })
}

/// One of jaq's `log` records as jq prints it: `debug` as
/// `["DEBUG:",value]`, `stderr` and `halt_error` messages raw.
fn write_record(e: &mut dyn Write, record: &log::Record<'_>) -> std::io::Result<()> {
    match record.level() {
        log::Level::Debug => writeln!(e, "[\"DEBUG:\",{}]", record.args()),
        _ => write!(e, "{}", record.args()),
    }
}

/// Routes jaq's `log` records to stderr (or to this thread's capture),
/// as jq prints them.
pub fn install_logger() {
    struct Stderr;
    impl log::Log for Stderr {
        fn enabled(&self, _: &log::Metadata<'_>) -> bool {
            true
        }
        fn log(&self, record: &log::Record<'_>) {
            if !captured(record) {
                let _ = write_record(&mut std::io::stderr().lock(), record);
            }
        }
        fn flush(&self) {}
    }
    static LOGGER: Stderr = Stderr;
    if log::set_logger(&LOGGER).is_ok() {
        log::set_max_level(log::LevelFilter::Debug);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker's capture of stderr keeps what the filter writes, up to
    /// its room; past it, nothing more, and it says so.
    #[test]
    fn a_capture_keeps_up_to_its_room() {
        install_logger();
        capture_stderr(16);
        log::error!("{}", "x".repeat(10));
        assert_eq!(take_captured(), b"xxxxxxxxxx");
        assert!(!capture_full());
        log::error!("{}", "y".repeat(10));
        assert!(capture_full());
        assert_eq!(take_captured(), b"");
        log::error!("z");
        assert_eq!(take_captured(), b"");
        capture_stderr(16);
        assert!(!capture_full());
    }

    fn json(v: &Val) -> String {
        let mut out = Vec::new();
        write_json(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn eval(code: &str, input: &str) -> Vec<String> {
        let Ok(f) = compile(code, &[], &[]) else {
            panic!("{code} does not compile");
        };
        let inputs = jaq_std::input::RcIter::new(
            Box::new(std::iter::empty()) as Box<dyn Iterator<Item = Result<Val, String>>>
        );
        let data = Data {
            lut: &f.lut,
            inputs: &inputs,
        };
        let ctx = jaq_core::Ctx::<Kind>::new(&data, jaq_core::Vars::new([env_object()]));
        let v = jaq_json::read::parse_single(input.as_bytes()).unwrap();
        f.id.run((ctx, v))
            .map(|r| json(&jaq_core::unwrap_valr(r).unwrap()))
            .collect()
    }

    #[test]
    fn writes_strict_json() {
        assert_eq!(
            eval("[nan, infinite, -infinite]", "null"),
            ["[null,1.7976931348623157e+308,-1.7976931348623157e+308]"]
        );
        assert_eq!(
            eval(r#""a\u0000\u007f\"\\é""#, "null"),
            [r#""a\u0000\u007f\"\\é""#]
        );
        assert_eq!(
            eval("{a: [1, {b: null}]}", "null"),
            [r#"{"a":[1,{"b":null}]}"#]
        );
        assert_eq!(eval(".", "1.50e2"), ["1.50e2"], "decimals as read");
        let deep = (0..100_000).fold(Val::Null, |v, _| Val::Arr(jaq_json::Rc::new(vec![v])));
        assert_eq!(json(&deep).len(), 200_004);
        // jaq's values drop recursively: leak this one rather than overflow.
        std::mem::forget(deep);
    }

    #[test]
    fn peek_built_objects_equal_jaqs_parse() {
        for line in [
            r#"{"type":"hit","aoi":{"seq":18446744073709551615,"run":"01JZQ"},"x":1}"#,
            r#"{"type":"hit","aoi":{"seq":1,"run":"R"},"rank":1,"score":0.25,"big":123456789012345678901234567890,"e":1.5e3,"s":"a\"b\u00e9\n","t":true,"f":false,"n":null,"a":[1,{"x":[]}],"o":{}}"#,
            r#"{"k\u0065y":1,"key":2,"dup":1,"dup":2}"#,
            r#"{}"#,
            r#" { "sp" : [ 1 , 2 ] } "#,
        ] {
            let mut p = crate::peek::Peeker::new();
            p.peek(line.as_bytes()).unwrap();
            let ours = object_from_peek(line.as_bytes(), &p).unwrap();
            let theirs = jaq_json::read::parse_single(line.as_bytes()).unwrap();
            assert_eq!(json(&ours), json(&theirs), "{line}");
        }
    }

    #[test]
    fn fromjson_is_depth_checked() {
        assert_eq!(
            eval(r#""[1,{\"a\":2}] 3" | [fromjson]"#, "null"),
            [r#"[[1,{"a":2}],3]"#]
        );
        let deep = format!("\"{}\"", "[".repeat(3 * MAX_DEPTH));
        assert_eq!(
            eval("try fromjson catch \"refused\"", &deep),
            ["\"refused\""]
        );
    }

    #[test]
    fn strings_escape_like_serde_json_for_every_byte() {
        // every single byte and every byte inside a longer run: the SWAR
        // skip must never miss one that needs an escape
        for c in 0u8..=0x7f {
            for pad in [0usize, 3, 7, 8, 15] {
                let mut s = vec![b'a'; pad];
                s.push(c);
                s.extend_from_slice(b"bcdefghij");
                let mut ours = Vec::new();
                write_str(&mut ours, &s);
                let text = std::str::from_utf8(&s).unwrap();
                let back: String = serde_json::from_slice(&ours).unwrap();
                assert_eq!(back, text, "byte {c:#x} at {pad}");
            }
        }
        let mut ours = Vec::new();
        write_str(&mut ours, "é\u{2028}x\"".as_bytes());
        assert_eq!(ours, "\"é\u{2028}x\\\"\"".as_bytes());
        let mut ours = Vec::new();
        write_str(&mut ours, b"a\xffb");
        assert_eq!(ours, "\"a\u{FFFD}b\"".as_bytes());
    }

    #[test]
    fn depth_guard() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(!too_deep(ok.as_bytes()));
        let deep = format!("[{ok}]");
        assert!(too_deep(deep.as_bytes()));
        let in_string = format!("[\"{}\"]", "[".repeat(3 * MAX_DEPTH));
        assert!(!too_deep(in_string.as_bytes()));
        // More brackets than the limit, side by side: shallow.
        let siblings = format!("[{}[]]", "[],{}".repeat(2 * MAX_DEPTH));
        assert!(!too_deep(siblings.as_bytes()));
        // A long line with few brackets, and the same nested too deep.
        let text = format!("{{\"t\":\"{}\"}}", "x".repeat(30 * MAX_DEPTH));
        assert!(!too_deep(text.as_bytes()));
        let nested = format!("{}{text}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(too_deep(nested.as_bytes()));
    }

    #[test]
    fn compile_errors_point_at_the_position() {
        let e = compile(".a | )", &[], &[]).err().expect("an error");
        assert!(e.starts_with("1:6: unexpected `)`"), "{e}");
        assert!(e.ends_with("    .a | )\n         ^"), "{e}");
        let e = compile("foo(1)", &[], &[]).err().expect("an error");
        assert!(e.contains("undefined filter `foo`"), "{e}");
        let e = compile("$x", &[], &[]).err().expect("an error");
        assert!(e.contains("undefined variable"), "{e}");
        assert!(compile("$x", &["x".into()], &[]).is_ok());
        let e = compile("[1, 2", &[], &[]).err().expect("an error");
        assert!(e.contains("unclosed `[`"), "{e}");
    }
}
