//! The jq-compatible layer over jaq: `compat.jq`, read after
//! jaq's standard library, and the native filters it stands on (jq's
//! path primitives in `paths.rs`, `@base32`/`@base32d`,
//! `input_filename`). A program that calls none of them pays nothing at
//! run time: a definition costs only when it is called.

use std::cell::RefCell;

use jaq_core::native::{Filter as Native, bome, run, v};
use jaq_core::{Error, RunPtr};
use jaq_json::Val;

use super::Kind;
use super::paths;

/// The definitions, in jq's language.
pub fn defs() -> impl Iterator<Item = jaq_core::load::parse::Def<&'static str>> {
    // A unit test makes sure it parses; were it not to, the layer would
    // be missing, not aoi broken.
    jaq_core::load::parse(include_str!("compat.jq"), |p| p.defs())
        .unwrap_or_default()
        .into_iter()
}

thread_local! {
    static INPUT_FILENAME: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The name `input_filename` gives from now on, on this thread (`None`:
/// stdin, for which jq gives `null`).
pub fn set_input_filename(name: Option<&str>) {
    INPUT_FILENAME.with(|f| *f.borrow_mut() = name.map(str::to_string));
}

fn input_filename() -> Val {
    INPUT_FILENAME.with(|f| match &*f.borrow() {
        Some(name) => Val::utf8_str(name.clone().into_bytes()),
        None => Val::Null,
    })
}

static BUILTINS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Makes jq's `builtins` list the filters `defined` (name and arity),
/// once per process: the names users may call (not `_` helpers, not
/// formats), each once.
pub fn set_builtins<'a>(defined: impl Iterator<Item = (&'a str, usize)>) {
    if BUILTINS.get().is_some() {
        return;
    }
    let mut names: Vec<String> = defined
        .filter(|(name, _)| name.starts_with(|c: char| c.is_ascii_alphabetic()))
        .map(|(name, arity)| format!("{name}/{arity}"))
        .collect();
    names.sort();
    names.dedup();
    let _ = BUILTINS.set(names);
}

/// The natives `compat.jq` calls.
pub fn funs() -> impl Iterator<Item = jaq_core::native::Fun<Kind>> {
    let funs: [Native<RunPtr<Kind>>; 7] = [
        ("builtins", v(0), |_| {
            let names = BUILTINS.get().map(Vec::as_slice).unwrap_or_default();
            let list = names.iter().map(|n| Val::utf8_str(n.clone().into_bytes()));
            bome(Ok(Val::Arr(jaq_json::Rc::new(list.collect()))))
        }),
        ("_aoi_setpath", v(2), |mut cv| {
            let x = cv.0.pop_var();
            let p = cv.0.pop_var();
            bome(paths::steps(&p).and_then(|steps| paths::set_path(cv.1, steps, x)))
        }),
        ("_aoi_delpaths", v(1), |mut cv| {
            let ps = cv.0.pop_var();
            bome(paths::del_paths(cv.1, &ps))
        }),
        ("_aoi_vivify", v(1), |mut cv| {
            let ps = cv.0.pop_var();
            bome(paths::vivify(cv.1, &ps))
        }),
        ("_aoi_input_filename", v(0), |_| bome(Ok(input_filename()))),
        ("@base32", v(0), |cv| {
            bome(text(&cv.1).map(|t| Val::utf8_str(base32(&t))))
        }),
        ("@base32d", v(0), |cv| {
            bome(text(&cv.1).and_then(|t| {
                base32_decode(&t)
                    .map(Val::utf8_str)
                    .ok_or_else(|| Error::str(format!("{} is not valid base32 data", cv.1)))
            }))
        }),
    ];
    funs.into_iter().map(run::<Kind>)
}

/// A string's bytes; anything else as its JSON text (jq's formats take
/// any value so).
fn text(v: &Val) -> Result<Vec<u8>, Error<Val>> {
    match v {
        Val::TStr(s) | Val::BStr(s) => Ok(s.to_vec()),
        other => {
            let mut out = Vec::new();
            super::write_json(&mut out, other).map_err(|e| Error::str(e.0))?;
            Ok(out)
        }
    }
}

const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// RFC 4648 base32, padded with `=`.
fn base32(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len().div_ceil(5) * 8);
    for chunk in data.chunks(5) {
        let mut block = [0u8; 5];
        block[..chunk.len()].copy_from_slice(chunk);
        let bits = block.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let used = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < used {
                let idx = (bits >> (35 - 5 * i)) & 31;
                out.push(ALPHABET[idx as usize]);
            } else {
                out.push(b'=');
            }
        }
    }
    out
}

/// RFC 4648 base32 decoded (padding optional); `None` on a character
/// outside the alphabet.
fn base32_decode(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut acc, mut bits) = (0u64, 0u32);
    for &c in text.iter().filter(|&&c| c != b'=') {
        let value = ALPHABET.iter().position(|&a| a == c.to_ascii_uppercase())?;
        acc = (acc << 5) | value as u64;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definitions_parse() {
        let parsed = jaq_core::load::parse(include_str!("compat.jq"), |p| p.defs());
        assert!(parsed.is_some_and(|d| d.len() > 30));
    }

    #[test]
    fn base32_round_trips() {
        for s in ["", "f", "fo", "foo", "foob", "fooba", "foobar", "<>&'\"\t"] {
            let enc = base32(s.as_bytes());
            assert_eq!(base32_decode(&enc).as_deref(), Some(s.as_bytes()), "{s}");
        }
        assert_eq!(base32(b"foobar"), b"MZXW6YTBOI======");
        assert_eq!(base32_decode(b"!!"), None);
    }
}
