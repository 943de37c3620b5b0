//! Secrets echoed in `aoi:meta.args` (§ 11), found by the rules aoi's own
//! redaction applies (`crate::emit::redact_args`): what one would redact,
//! the other flags.

use crate::spec;

/// Looks for a secret-looking value in `aoi:meta.args` (§ 11): exactly
/// what [`crate::emit::redact_args`] would redact in an array of strings
/// (secret flags and their values, headers, `NAME=value`, URL credentials
/// and secret parameters), and in an object a string under a secret key or
/// one holding such a URL. Returns what was found, redacted.
pub fn secret_in_args(raw: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(raw).ok()?;
    match &v {
        serde_json::Value::Array(items) => {
            let strs: Vec<&str> = items.iter().filter_map(|i| i.as_str()).collect();
            let (redacted, changed) = crate::emit::redact_args(&strs);
            if !changed {
                return None;
            }
            let i = strs.iter().zip(&redacted).position(|(a, b)| a != b)?;
            let shown = redacted.get(i)?;
            // The value after a secret flag: name the flag.
            match i.checked_sub(1).and_then(|p| strs.get(p)) {
                Some(flag) if shown == crate::emit::REDACTED && spec::is_secret_name(flag) => {
                    Some(format!("{flag} …"))
                }
                _ => Some(shown.clone()),
            }
        }
        serde_json::Value::Object(map) => {
            for (k, val) in map {
                if let Some(s) = val.as_str() {
                    if spec::url_has_secret(s) {
                        return Some("a URL with credentials or a secret query parameter".into());
                    }
                    if spec::is_secret_name(k) && !spec::looks_redacted(s) {
                        return Some(format!("{k}: …"));
                    }
                }
            }
            None
        }
        _ => None,
    }
}
