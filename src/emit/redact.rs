//! Arguments made safe for `aoi:meta.args` (§ 11).

use crate::spec;

/// The placeholder written in place of a secret.
pub const REDACTED: &str = "[REDACTED]";

/// Arguments made safe for `aoi:meta.args` (§ 11): the value of a flag
/// whose name carries a secret (`--token X`, `--token=X`; a value that
/// starts with `-` is taken as the value unless it has a flag's form, so
/// `--token -----BEGIN PRIVATE KEY-----` is redacted and `--token --limit`
/// is two flags),
/// custom headers with a secret name (`-H 'Authorization: …'`,
/// `-HAuthorization: …`, `--header=…`), environment-style `NAME=value`
/// with a secret name (`GITHUB_TOKEN=…`), URL credentials, and URL query
/// or fragment parameters with a secret name (`sig`, `code`, and any name
/// with token, key, secret, password, signature, credential, auth…)
/// become [`REDACTED`]. A value that already reads as redacted (`***`,
/// `<token>`, `[REDACTED]`) is kept. Returns the arguments and whether any
/// was changed. [`crate::judge::secret_in_args`] flags what this would
/// change, where the flag's name has a § 11 word as a whole word.
///
/// ```
/// let (args, changed) = aoi::emit::redact_args(["--token", "s3cr3t", "--limit=5",
///     "https://u:p@example.com/x?sig=abc&page=2"]);
/// assert!(changed);
/// assert_eq!(args, ["--token", "[REDACTED]", "--limit=5",
///     "https://[REDACTED]@example.com/x?sig=[REDACTED]&page=2"]);
/// ```
pub fn redact_args<I, S>(args: I) -> (Vec<String>, bool)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    redact_args_with(args, &[])
}

/// [`redact_args`], and the values of the tool's own secret flags besides:
/// `secret_flags` names them as written (`--access`, `-t`), and each is
/// redacted as `--access V`, `--access=V`, `-t V`, `-t=V` and `-tV`. A
/// short flag's name says nothing of a secret, so only the tool can tell.
///
/// ```
/// let (args, _) = aoi::emit::redact_args_with(["-t", "abc", "-kxyz", "-v"], &["-t", "-k"]);
/// assert_eq!(args, ["-t", "[REDACTED]", "-k[REDACTED]", "-v"]);
/// ```
pub fn redact_args_with<I, S>(args: I, secret_flags: &[&str]) -> (Vec<String>, bool)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut out = Vec::new();
    let mut changed = false;
    let mut secret_next = false;
    for a in args {
        let a = a.as_ref().to_string_lossy().into_owned();
        // After a secret flag, only a long flag ends its value: `-abc123`
        // and `-----BEGIN PRIVATE KEY-----` are values.
        let r = if secret_next && !(a.starts_with("--") && flag_like(&a)) {
            secret_next = false;
            hide(&a).to_string()
        } else {
            secret_next = false;
            own_secret(&a, secret_flags, &mut secret_next)
                .unwrap_or_else(|| redact_one(&a, &mut secret_next))
        };
        changed |= r != a;
        out.push(r);
    }
    (out, changed)
}

/// `a` when it is one of the tool's `secret_flags`: the flag (its value
/// next), or the flag with its value hidden.
fn own_secret(a: &str, secret_flags: &[&str], secret_next: &mut bool) -> Option<String> {
    for flag in secret_flags
        .iter()
        .filter(|f| f.starts_with('-') && f.len() > 1)
    {
        let Some(rest) = a.strip_prefix(flag) else {
            continue;
        };
        if rest.is_empty() {
            *secret_next = true;
            return Some(a.to_string());
        }
        if let Some(val) = rest.strip_prefix('=') {
            return Some(format!("{flag}={}", hide(val)));
        }
        // `-tVALUE`: a short flag's value joined to it.
        if !flag.starts_with("--") && flag.len() == 2 {
            return Some(format!("{flag}{}", hide(rest)));
        }
    }
    None
}

/// A secret value replaced, unless it already reads as redacted.
fn hide(val: &str) -> &str {
    if spec::looks_redacted(val) {
        val
    } else {
        REDACTED
    }
}

/// Whether `f` has a flag's form: dashes, then letters,
/// digits, `-`, `_`, `.` (`-----BEGIN PRIVATE KEY-----` does not).
fn flag_like(f: &str) -> bool {
    let name = f.trim_start_matches('-');
    f.starts_with('-')
        && !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// One argument; sets `secret_next` when it is a secret flag whose value
/// is the next argument.
fn redact_one(a: &str, secret_next: &mut bool) -> String {
    if a.starts_with('-') {
        match a.split_once('=') {
            Some((flag, val)) if flag_like(flag) && spec::is_secret_name(flag) => {
                return format!("{flag}={}", hide(val));
            }
            None if flag_like(a) && spec::is_secret_name(a) => {
                *secret_next = true;
                return a.to_string();
            }
            _ => {}
        }
    }
    // Headers: `-H 'Name: v'` (the value is its own argument),
    // `-HName: v`, `--header=Name: v`.
    let (prefix, header) = if let Some(h) = a.strip_prefix("--header=") {
        ("--header=", h)
    } else if let Some(h) = a
        .strip_prefix("-H")
        .filter(|h| !h.is_empty() && !a.starts_with("--"))
    {
        ("-H", h)
    } else {
        ("", a)
    };
    if let Some((name, val)) = header.split_once(':') {
        let name_ok = !name.is_empty()
            && name
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_');
        if name_ok && spec::is_secret_name(name) && !val.starts_with("//") {
            return format!("{prefix}{name}: {}", hide(val.trim_start()));
        }
    }
    if a.contains("://") {
        return redact_url(a);
    }
    // Environment-style NAME=value.
    if let Some((name, val)) = a.split_once('=') {
        let name_ok = !name.is_empty()
            && !name.starts_with('-')
            && name
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'));
        if name_ok && spec::is_secret_name(name) {
            return format!("{name}={}", hide(val));
        }
    }
    a.to_string()
}

/// A `k=v&k=v` list with the values of secret keys replaced.
fn redact_params(list: &str) -> String {
    list.split('&')
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) if spec::is_secret_param(k) => format!("{k}={}", hide(v)),
            _ => kv.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A URL with its credentials and secret query and fragment values
/// replaced. The userinfo is everything before the last `@` ahead of the
/// query (a `/` in an unencoded password does not hide it).
fn redact_url(u: &str) -> String {
    let Some((scheme, rest)) = u.split_once("://") else {
        return u.to_string();
    };
    let (before_frag, frag) = match rest.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (rest, None),
    };
    let (before_query, query) = match before_frag.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (before_frag, None),
    };
    let mut s = format!("{scheme}://");
    match before_query.rsplit_once('@') {
        Some((user, host_path)) => {
            s.push_str(hide(user));
            s.push('@');
            s.push_str(host_path);
        }
        None => s.push_str(before_query),
    }
    if let Some(q) = query {
        s.push('?');
        s.push_str(&redact_params(q));
    }
    if let Some(f) = frag {
        s.push('#');
        s.push_str(&redact_params(f));
    }
    s
}
