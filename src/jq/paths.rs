//! jq's path primitives over jaq's values: `setpath`, `delpaths` and the
//! creation of a path before an update.
//!
//! jaq updates a path only where it already exists: `null | .a.b = 1`
//! and `[] | .[2] = 1` fail with "cannot use null as iterable". jq
//! creates what is missing: `null` becomes an object or an array as the
//! step asks, an array grows with `null`s. [`set_path`] does that, and
//! [`vivify`] applies it to every path an update is about to visit, so
//! that jaq's own (fast) update then finds them all. [`del_paths`]
//! deletes several paths at once, each index meant in the original
//! array: `del(.[1, 2])` on `[1,2,3,4]` is `[1,4]` (jaq deleted one after
//! the other: `[1,3]`).

use jaq_json::{Map, Rc, Val};

type Error = jaq_core::Error<Val>;

/// The largest array index jq grows an array to.
const MAX_INDEX: usize = 536_870_912;

/// jq's name of a value's type, for messages.
fn type_name(v: &Val) -> &'static str {
    match v {
        Val::Null => "null",
        Val::Bool(_) => "boolean",
        Val::Num(_) => "number",
        Val::TStr(_) | Val::BStr(_) => "string",
        Val::Arr(_) => "array",
        Val::Obj(_) => "object",
    }
}

fn cannot_index(v: &Val, k: &Val) -> Error {
    let what = match k {
        Val::TStr(_) | Val::BStr(_) => format!("{k}"),
        _ => format!("{} ({k})", type_name(k)),
    };
    Error::str(format!("Cannot index {} with {what}", type_name(v)))
}

/// An array index as jq reads it: a number, truncated towards zero.
fn index_of(k: &Val) -> Option<isize> {
    match k {
        Val::Num(n) if n.as_isize().is_some() => n.as_isize(),
        Val::Num(n) => {
            let f = n.to_string().parse::<f64>().ok()?;
            (!f.is_nan()).then(|| f.trunc().clamp(isize::MIN as f64, isize::MAX as f64) as isize)
        }
        _ => None,
    }
}

/// `i` counted from the end when negative; `None` when still negative.
fn absolute(i: isize, len: usize) -> Option<usize> {
    if i >= 0 {
        Some(i as usize)
    } else {
        len.checked_sub(i.unsigned_abs())
    }
}

/// A slice step `{"start": S, "end": E}` as a range of `len` elements.
fn slice_of(k: &Val, len: usize) -> Option<std::ops::Range<usize>> {
    let Val::Obj(o) = k else { return None };
    let bound = |name: &str, default: usize| -> Option<usize> {
        match o.get(&Val::utf8_str(name.as_bytes().to_vec())) {
            None | Some(Val::Null) => Some(default),
            Some(v) => {
                let i = index_of(v)?;
                Some(absolute(i, len).unwrap_or(0).min(len))
            }
        }
    };
    let start = bound("start", 0)?;
    let end = bound("end", len)?.max(start);
    Some(start..end)
}

/// The value at one step of a path, `null` where there is none.
fn child(v: &Val, k: &Val) -> Result<Val, Error> {
    match (v, k) {
        (Val::Null, _) => Ok(Val::Null),
        (Val::Obj(o), Val::TStr(_) | Val::BStr(_)) => Ok(o.get(k).cloned().unwrap_or(Val::Null)),
        (Val::Arr(a), Val::Num(_)) => {
            let i = index_of(k).and_then(|i| absolute(i, a.len()));
            Ok(i.and_then(|i| a.get(i)).cloned().unwrap_or(Val::Null))
        }
        (Val::Arr(a), Val::Obj(_)) => match slice_of(k, a.len()) {
            Some(r) => Ok(Val::Arr(Rc::new(a.get(r).unwrap_or_default().to_vec()))),
            None => Err(cannot_index(v, k)),
        },
        _ => Err(cannot_index(v, k)),
    }
}

/// `v` with `x` at `path`, creating what is missing on the way (jq's
/// `setpath`).
pub fn set_path(v: Val, path: &[Val], x: Val) -> Result<Val, Error> {
    let Some((k, rest)) = path.split_first() else {
        return Ok(x);
    };
    match (v, k) {
        (Val::Null, Val::TStr(_) | Val::BStr(_)) => set_path(Val::obj(Map::default()), path, x),
        (Val::Null, Val::Num(_) | Val::Obj(_)) => set_path(Val::Arr(Rc::new(Vec::new())), path, x),
        (Val::Obj(mut o), Val::TStr(_) | Val::BStr(_)) => {
            let old = o.get(k).cloned().unwrap_or(Val::Null);
            let new = set_path(old, rest, x)?;
            Rc::make_mut(&mut o).insert(k.clone(), new);
            Ok(Val::Obj(o))
        }
        (Val::Arr(mut a), Val::Num(_)) => {
            let i = index_of(k).ok_or_else(|| cannot_index(&Val::Arr(a.clone()), k))?;
            let i = absolute(i, a.len())
                .ok_or_else(|| Error::str("Out of bounds negative array index"))?;
            if i > MAX_INDEX {
                return Err(Error::str("Array index too large"));
            }
            let old = a.get(i).cloned().unwrap_or(Val::Null);
            let new = set_path(old, rest, x)?;
            let items = Rc::make_mut(&mut a);
            if items.len() <= i {
                items.resize(i + 1, Val::Null);
            }
            if let Some(slot) = items.get_mut(i) {
                *slot = new;
            }
            Ok(Val::Arr(a))
        }
        (Val::Arr(mut a), Val::Obj(_)) => {
            let Some(r) = slice_of(k, a.len()) else {
                return Err(cannot_index(&Val::Arr(a), k));
            };
            let old = Val::Arr(Rc::new(a.get(r.clone()).unwrap_or_default().to_vec()));
            match set_path(old, rest, x)? {
                Val::Arr(new) => {
                    Rc::make_mut(&mut a).splice(r, new.iter().cloned());
                    Ok(Val::Arr(a))
                }
                _ => Err(Error::str(
                    "A slice of an array can only be assigned another array",
                )),
            }
        }
        (Val::Arr(_), Val::Arr(_)) => {
            Err(Error::str("Cannot update field at array index of array"))
        }
        (v, k) => Err(cannot_index(&v, k)),
    }
}

/// The longest path jq follows.
const MAX_PATH: usize = 10_000;

/// The steps of a path value (an array).
pub fn steps(p: &Val) -> Result<&[Val], Error> {
    match p {
        Val::Arr(a) if a.len() > MAX_PATH => Err(Error::str("Path too deep")),
        Val::Arr(a) => Ok(a.as_slice()),
        _ => Err(Error::str("Path must be specified as an array")),
    }
}

/// `v` with every path of `paths` present (a missing one set to `null`),
/// so that jaq's update visits them as jq's does. A slice step is left
/// to jaq.
pub fn vivify(mut v: Val, paths: &Val) -> Result<Val, Error> {
    let Val::Arr(paths) = paths else {
        return Ok(v);
    };
    for p in paths.iter() {
        let path = steps(p)?;
        if path.iter().any(|k| matches!(k, Val::Obj(_))) || has_path(&v, path) {
            continue;
        }
        v = set_path(v, path, Val::Null)?;
    }
    Ok(v)
}

/// Whether every step of `path` exists in `v` (walked by reference: this
/// runs before every update, on every path it visits).
fn has_path(v: &Val, path: &[Val]) -> bool {
    let mut at = v;
    for k in path {
        let next = match (at, k) {
            (Val::Obj(o), _) => o.get(k),
            (Val::Arr(a), Val::Num(_)) => index_of(k)
                .and_then(|i| absolute(i, a.len()))
                .and_then(|i| a.get(i)),
            _ => None,
        };
        match next {
            Some(c) => at = c,
            None => return false,
        }
    }
    true
}

/// `v` without the paths of `paths` (jq's `delpaths`): all at once, each
/// index meant in the value as it was.
pub fn del_paths(v: Val, paths: &Val) -> Result<Val, Error> {
    let Val::Arr(list) = paths else {
        return Err(Error::str("Paths must be specified as an array"));
    };
    let mut all = Vec::with_capacity(list.len());
    for p in list.iter() {
        all.push(steps(p)?);
    }
    del_all(v, &all)
}

fn del_all(v: Val, paths: &[&[Val]]) -> Result<Val, Error> {
    if paths.iter().any(|p| p.is_empty()) {
        return Ok(Val::Null);
    }
    if matches!(v, Val::Null) || paths.is_empty() {
        return Ok(v);
    }
    // Deeper paths first, grouped by their first step, while the indices
    // of this level still mean what they meant.
    let mut v = v;
    let mut done: Vec<&Val> = Vec::new();
    for p in paths.iter().filter(|p| p.len() > 1) {
        let k = &p[0];
        if done.contains(&k) {
            continue;
        }
        done.push(k);
        let rests: Vec<&[Val]> = paths
            .iter()
            .filter(|q| q.len() > 1 && &q[0] == k)
            .map(|q| &q[1..])
            .collect();
        let old = child(&v, k)?;
        if matches!(old, Val::Null) {
            continue;
        }
        let new = del_all(old, &rests)?;
        v = set_path(v, std::slice::from_ref(k), new)?;
    }
    let here: Vec<&Val> = paths
        .iter()
        .filter(|p| p.len() == 1)
        .map(|p| &p[0])
        .collect();
    del_here(v, &here)
}

/// `v` without the members or elements `keys` name, all at once.
fn del_here(v: Val, keys: &[&Val]) -> Result<Val, Error> {
    if keys.is_empty() {
        return Ok(v);
    }
    match v {
        Val::Null => Ok(Val::Null),
        Val::Obj(mut o) => {
            for k in keys {
                match k {
                    Val::TStr(_) | Val::BStr(_) => {
                        Rc::make_mut(&mut o).shift_remove(*k);
                    }
                    _ => return Err(cannot_delete(&Val::Obj(o), k)),
                }
            }
            Ok(Val::Obj(o))
        }
        Val::Arr(mut a) => {
            let len = a.len();
            let mut gone = vec![false; len];
            for k in keys {
                match k {
                    Val::Num(_) => {
                        let i =
                            index_of(k).ok_or_else(|| cannot_delete(&Val::Arr(a.clone()), k))?;
                        if let Some(slot) = absolute(i, len).and_then(|i| gone.get_mut(i)) {
                            *slot = true;
                        }
                    }
                    Val::Obj(_) => match slice_of(k, len) {
                        Some(r) => gone[r].iter_mut().for_each(|g| *g = true),
                        None => return Err(cannot_delete(&Val::Arr(a), k)),
                    },
                    _ => return Err(cannot_delete(&Val::Arr(a), k)),
                }
            }
            let mut i = 0;
            Rc::make_mut(&mut a).retain(|_| {
                i += 1;
                !gone[i - 1]
            });
            Ok(Val::Arr(a))
        }
        other => Err(cannot_delete(&other, keys[0])),
    }
}

fn cannot_delete(v: &Val, k: &Val) -> Error {
    Error::str(format!(
        "Cannot delete field at {} index of {}",
        type_name(k),
        type_name(v)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(s: &str) -> Val {
        jaq_json::read::parse_single(s.as_bytes()).unwrap()
    }

    fn json(v: &Val) -> String {
        let mut out = Vec::new();
        crate::jq::write_json(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn setpath_creates_what_is_missing() {
        let set = |v: &str, p: &str, x: &str| {
            let p = val(p);
            set_path(val(v), steps(&p).unwrap(), val(x)).map(|v| json(&v))
        };
        assert_eq!(
            set("null", r#"["a","b"]"#, "1").unwrap(),
            r#"{"a":{"b":1}}"#
        );
        assert_eq!(set("null", "[2]", "1").unwrap(), "[null,null,1]");
        assert_eq!(set("[0,1,2]", "[-2]", "5").unwrap(), "[0,5,2]");
        assert_eq!(
            set("null", "[-1]", "0").unwrap_err().to_string(),
            "\"Out of bounds negative array index\""
        );
        assert_eq!(
            set("[1,2,3]", r#"[{"start":1,"end":2}]"#, r#"["x","y"]"#).unwrap(),
            r#"[1,"x","y",3]"#
        );
    }

    #[test]
    fn delpaths_deletes_at_once() {
        let del = |v: &str, ps: &str| json(&del_paths(val(v), &val(ps)).unwrap());
        assert_eq!(del("[1,2,3,4]", "[[1],[2]]"), "[1,4]");
        assert_eq!(
            del(
                r#"[0,1,2,3,4,5,6,7,8,9]"#,
                r#"[[1],[-6],[2],[{"start":-3,"end":9}]]"#
            ),
            "[0,3,5,6,9]"
        );
        assert_eq!(
            del(r#"{"a":[1,2],"b":1}"#, r#"[["a",0],["b"],["c","d"]]"#),
            r#"{"a":[2]}"#
        );
        assert_eq!(del("[1,2,3]", "[[-200]]"), "[1,2,3]");
        assert_eq!(del("5", "[[]]"), "null");
    }
}
