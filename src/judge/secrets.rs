//! Secrets echoed in `aoi:meta` (§ 11, § 8.3): arguments (`args`, `argv`,
//! `command`, as an array, one string or an object) and the environment
//! echoed wholesale.
//!
//! Two kinds of finding (with the false alarms measured): a
//! value that shows itself to be a secret (a URL with credentials or a
//! secret parameter, a private key block, a secret header, `Bearer …`)
//! fails the stream; a value known only by the flag before it is advised
//! on, since flag names mislead (`--password-stdin` takes no value,
//! `--sort-key name` is no secret). Flag names are matched by whole words,
//! so `--author` and `--keyboard-layout` are not taken for `auth` and `key`.

use crate::spec;

/// A secret found in echoed arguments: what, redacted, and whether the
/// value itself shows it (else only its flag's name does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Secret {
    pub(crate) what: String,
    pub(crate) certain: bool,
}

/// Looks for a secret-looking value in echoed arguments (§ 11): what
/// [`crate::emit::redact_args`] would redact under a flag named by a § 11
/// word, and values that are secrets by their form wherever they stand.
/// Returns what was found, redacted.
pub fn secret_in_args(raw: &[u8]) -> Option<String> {
    find_secret(raw).map(|s| s.what)
}

/// [`secret_in_args`] with its kind: the first certain one, else the
/// first named one.
pub(crate) fn find_secret(raw: &[u8]) -> Option<Secret> {
    let v: serde_json::Value = serde_json::from_slice(raw).ok()?;
    match &v {
        serde_json::Value::Array(items) => {
            let strs: Vec<&str> = items.iter().filter_map(|i| i.as_str()).collect();
            in_list(&strs)
        }
        // One string is a command line: a key block first, as it would
        // be split at its spaces.
        serde_json::Value::String(line) => {
            if private_key(line) {
                return Some(certain("a private key block".into()));
            }
            let strs: Vec<&str> = line.split_whitespace().collect();
            in_list(&strs)
        }
        serde_json::Value::Object(map) => in_object(map),
        _ => None,
    }
}

fn certain(what: String) -> Secret {
    Secret {
        what,
        certain: true,
    }
}

/// An argument list: a value that is a secret by its form, else the first
/// value redaction would hide whose flag names a secret as a whole word.
fn in_list(strs: &[&str]) -> Option<Secret> {
    let nexts = strs.iter().skip(1).map(Some).chain([None]);
    if let Some(s) = strs
        .iter()
        .zip(nexts)
        .find_map(|(a, next)| by_form(a, next.copied()))
    {
        return Some(s);
    }
    let (redacted, changed) = crate::emit::redact_args(strs);
    if !changed {
        return None;
    }
    strs.iter()
        .zip(&redacted)
        .enumerate()
        .filter(|(_, (a, b))| *a != *b)
        .find_map(|(i, (a, shown))| {
            let flag = flag_of(strs, i, a)?;
            names_secret(flag).then(|| Secret {
                what: if shown == crate::emit::REDACTED {
                    format!("{flag} …")
                } else {
                    shown.clone()
                },
                certain: false,
            })
        })
}

/// The name that made argument `i` secret: its own `--flag=` or `NAME=`,
/// else the flag before it.
fn flag_of<'a>(strs: &[&'a str], i: usize, a: &'a str) -> Option<&'a str> {
    match a.split_once('=') {
        Some((name, _)) if !name.contains(' ') => Some(name),
        _ => i.checked_sub(1).and_then(|p| strs.get(p)).copied(),
    }
}

/// A value that is a secret whatever precedes it: a URL with credentials
/// or a secret parameter, a private key block, a header with a secret
/// name, `Bearer` and a token.
fn by_form(a: &str, next: Option<&str>) -> Option<Secret> {
    if spec::url_has_secret(a) {
        return Some(certain(
            "a URL with credentials or a secret query parameter".into(),
        ));
    }
    if private_key(a) {
        return Some(certain("a private key block".into()));
    }
    if let Some(name) = secret_header(a) {
        return Some(certain(format!("the header {name}: …")));
    }
    let bearer = a.eq_ignore_ascii_case("bearer")
        && next.is_some_and(|t| {
            !t.starts_with('-') && !spec::looks_redacted(t.trim_end_matches(['"', '\'']))
        });
    bearer.then(|| certain("Bearer …".into()))
}

/// `-----BEGIN … PRIVATE KEY-----`, or its first line cut at spaces.
fn private_key(a: &str) -> bool {
    a.contains("-----BEGIN") && a.contains("PRIVATE KEY")
}

/// A header `Name: value` (alone, after `-H`, or in `--header=`) whose
/// name has a § 11 word and whose value is not redacted: its name.
fn secret_header(a: &str) -> Option<&str> {
    let h = a
        .strip_prefix("--header=")
        .or_else(|| a.strip_prefix("-H").filter(|_| !a.starts_with("--")))
        .unwrap_or(a);
    let (name, val) = h.split_once(':')?;
    let name_ok = !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_');
    let val = val.trim();
    let val = val
        .strip_prefix("Bearer ")
        .or_else(|| val.strip_prefix("bearer "))
        .unwrap_or(val);
    (name_ok && names_secret(name) && !val.starts_with("//") && !spec::looks_redacted(val))
        .then_some(name)
}

/// An object of arguments: a URL secret anywhere, else a string under a
/// key that names a secret.
fn in_object(map: &serde_json::Map<String, serde_json::Value>) -> Option<Secret> {
    let strings = || map.iter().filter_map(|(k, v)| Some((k, v.as_str()?)));
    if let Some(s) = strings().find_map(|(_, s)| by_form(s, None)) {
        return Some(s);
    }
    strings()
        .find(|(k, s)| names_secret(k) && !spec::looks_redacted(s))
        .map(|(k, _)| Secret {
            what: format!("{k}: …"),
            certain: false,
        })
}

/// Whether a flag, key, header or variable name carries a secret by § 11's
/// words, matched as whole words of the name (split at `-`, `_`, `.` and
/// other punctuation; `--api-token`, `client_secret`, `GITHUB_TOKEN`), or
/// as the end of one word for the words no other word ends with
/// (`--authtoken`, `PGPASSWORD`, `apikey`). Not a substring: `--author`
/// and `--keyboard-layout` are not secrets.
pub(crate) fn names_secret(name: &str) -> bool {
    const ENDINGS: &[&str] = &[
        "token",
        "secret",
        "password",
        "passwd",
        "credential",
        "credentials",
        "cookie",
    ];
    const COMPOUNDS: &[&str] = &[
        "apikey",
        "privatekey",
        "accesskey",
        "secretkey",
        "signingkey",
        "authkey",
        "sessionid",
    ];
    let n = name.trim_start_matches('-').to_ascii_lowercase();
    n.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        spec::SECRET_FLAG_WORDS.contains(&w)
            || w.strip_suffix('s')
                .is_some_and(|s| spec::SECRET_FLAG_WORDS.contains(&s))
            || ENDINGS.iter().any(|e| w.ends_with(e))
            || COMPOUNDS.contains(&w)
    })
}

/// Variables every environment has: an object (or `NAME=value` list)
/// holding two of them is the environment echoed wholesale (§ 8.3).
const COMMON_ENV: &[&str] = &[
    "PATH", "HOME", "USER", "SHELL", "PWD", "LANG", "TERM", "LOGNAME", "HOSTNAME", "TMPDIR",
];

/// Whether a value is the process environment echoed wholesale.
pub(crate) fn is_env_dump(v: &serde_json::Value) -> bool {
    let common = |name: &str| COMMON_ENV.contains(&name);
    let n = match v {
        serde_json::Value::Object(map) => map.keys().filter(|k| common(k)).count(),
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|i| i.as_str()?.split_once('='))
            .filter(|(k, _)| common(k))
            .count(),
        _ => 0,
    };
    n >= 2
}
