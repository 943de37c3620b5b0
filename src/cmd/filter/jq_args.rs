//! jq's program and variable options: `-f` (the program from
//! a file, every positional argument an input), `--args`/`--jsonargs`
//! (the positional arguments are `$ARGS.positional`, the input stdin),
//! and the global variables: `$ENV`, `--arg`, `--argjson`, `--rawfile`,
//! `--slurpfile`, `$ARGS` and `$__loc__`.

use std::path::PathBuf;

use jaq_json::Val;

use crate::cli::FilterArgs;
use crate::jq;

/// `args` with the positional arguments where jq's options put them,
/// before the inputs are resolved (a `--files-from` list's names are
/// inputs whatever these options say): with `-f`, the first one is an
/// input like the rest; with `--args`/`--jsonargs`, they are
/// `$ARGS.positional`, not inputs.
pub(super) fn place(args: &FilterArgs) -> FilterArgs {
    let mut a = args.clone();
    if args.from_file.is_some() && !a.filter.is_empty() {
        a.files
            .insert(0, PathBuf::from(std::mem::take(&mut a.filter)));
    }
    if args.positional_args || args.jsonargs {
        a.positional = a
            .files
            .drain(..)
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
    }
    a
}

/// Reads `-f`'s file into the program, once.
pub(super) fn read_program(args: &mut FilterArgs) -> Result<(), String> {
    if let Some(file) = &args.from_file {
        args.filter = std::fs::read_to_string(file)
            .map_err(|e| format!("-f {}: cannot read the filter: {e}", file.display()))?;
    }
    Ok(())
}

/// Reads every --rawfile and --slurpfile FILE into `args.file_texts`, once:
/// each thread that runs the filter makes its variables of these bytes
/// ([`globals`]), and a FIFO or a pipe can be read only once.
pub(super) fn read_files(args: &mut FilterArgs) -> Result<(), String> {
    let raw = args.rawfile.chunks(2).map(|p| ("--rawfile", p));
    let slurp = args.slurpfile.chunks(2).map(|p| ("--slurpfile", p));
    let mut texts = Vec::new();
    for (flag, pair) in raw.chain(slurp) {
        if let [name, file] = pair {
            let text = std::fs::read(file).map_err(|e| format!("{flag} {name} {file}: {e}"))?;
            texts.push(text);
        }
    }
    args.file_texts = texts;
    Ok(())
}

fn string(s: &str) -> Val {
    Val::utf8_str(s.as_bytes().to_vec())
}

fn json(text: &[u8], what: &str) -> Result<Vec<Val>, String> {
    if jq::too_deep(text) {
        return Err(format!(
            "{what}: nests deeper than {} levels",
            jq::MAX_DEPTH
        ));
    }
    jaq_json::read::parse_many(text)
        .map(|r| r.map_err(|e| format!("{what}: not JSON ({e})")))
        .collect()
}

/// The filter's global variables: their names (without `$ENV`, which
/// comes first) and values, or what is wrong with one.
pub(super) fn globals(args: &FilterArgs) -> Result<(Vec<String>, Vec<Val>), String> {
    let mut names = Vec::new();
    let mut values = vec![jq::env_object()];
    let mut named = jaq_json::Map::default();
    let mut bind = |name: &str, v: Val, names: &mut Vec<String>, values: &mut Vec<Val>| {
        named.insert(string(name), v.clone());
        names.push(name.to_string());
        values.push(v);
    };
    for pair in args.arg.chunks(2) {
        if let [name, value] = pair {
            bind(name, string(value), &mut names, &mut values);
        }
    }
    for pair in args.argjson.chunks(2) {
        if let [name, text] = pair {
            let mut vs = json(text.as_bytes(), &format!("--argjson {name}"))?;
            if vs.len() != 1 {
                return Err(format!("--argjson {name}: not one JSON value"));
            }
            bind(name, vs.remove(0), &mut names, &mut values);
        }
    }
    let mut texts = args.file_texts.iter();
    for pair in args.rawfile.chunks(2) {
        if let ([name, _], Some(text)) = (pair, texts.next()) {
            bind(name, Val::utf8_str(text.clone()), &mut names, &mut values);
        }
    }
    for pair in args.slurpfile.chunks(2) {
        if let ([name, file], Some(text)) = (pair, texts.next()) {
            let vs = json(text, &format!("--slurpfile {name} {file}"))?;
            bind(name, Val::Arr(vs.into()), &mut names, &mut values);
        }
    }
    let positional = args
        .positional
        .iter()
        .map(|p| match args.jsonargs {
            true => json(p.as_bytes(), "--jsonargs").and_then(|mut vs| match vs.len() {
                1 => Ok(vs.remove(0)),
                _ => Err(format!("--jsonargs: {p:?} is not one JSON value")),
            }),
            false => Ok(string(p)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut all = jaq_json::Map::default();
    all.insert(string("positional"), Val::Arr(positional.into()));
    all.insert(string("named"), Val::obj(named));
    names.push("ARGS".to_string());
    values.push(Val::obj(all));
    // jq's `$__loc__`: where it is first written (the program is one
    // file here, `<top-level>` as jq names it).
    names.push("__loc__".to_string());
    values.push(jq::loc_value(&args.filter));
    Ok((names, values))
}

thread_local! {
    /// The filter's global variables on this worker: jaq's values stay on
    /// their thread, and `$ENV` is made once, not per file.
    static GLOBALS: std::cell::RefCell<Option<Vec<Val>>> = const { std::cell::RefCell::new(None) };
}

/// The global variables' values for a filter run on this thread.
pub(super) fn thread_globals(args: &FilterArgs) -> Option<Vec<Val>> {
    GLOBALS.with(|g| {
        let mut g = g.borrow_mut();
        if g.is_none() {
            *g = Some(globals(args).ok()?.1);
        }
        g.clone()
    })
}
