//! What a tool's capabilities (§ 17) say of one command: which checks
//! concern it (destructive, read-only, bounded, reading JSON Lines). What
//! the manifest does not say is not guessed: a check that needs it is not
//! tested, never "n/a per the capabilities".
//!
//! The keys read, § 17's first: `read_only`, `destructive`,
//! `requires_confirm`, `supports_dry_run`, `bounded`, `supports_cursor`;
//! then aoi's own, for what § 17 has no key for: `supports_limit` (a
//! `--limit` without a cursor), `input_jsonl` or `input_modes` (§ 12.1:
//! reads JSON Lines on stdin) and `malformed_mode` (§ 12.2). docs/guide.md
//! lists them.

use serde_json::{Map, Value};

use super::result::{CheckResult, Status};

/// The entry for `command` in the capabilities, if any.
pub(super) fn caps_command<'a>(
    caps: Option<&'a Value>,
    command: &str,
) -> Option<&'a Map<String, Value>> {
    caps?
        .get("commands")?
        .as_array()?
        .iter()
        .filter_map(Value::as_object)
        .find(|c| c.get("name").and_then(Value::as_str) == Some(command))
}

/// A boolean the command's entry declares.
pub(super) fn flag(c: Option<&Map<String, Value>>, key: &str) -> Option<bool> {
    c?.get(key)?.as_bool()
}

/// Whether the command reads JSON Lines on stdin, as its capabilities say
/// (`input_jsonl`, or `jsonl`/`stdin` among `input_modes`); `None` when
/// they say neither.
pub(super) fn reads_jsonl(c: Option<&Map<String, Value>>) -> Option<bool> {
    let modes = c
        .and_then(|c| c.get("input_modes"))
        .and_then(Value::as_array)
        .map(|a| a.iter().any(|m| m == "jsonl" || m == "stdin"));
    match (flag(c, "input_jsonl"), modes) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), _) | (_, Some(false)) => Some(false),
        (None, None) => None,
    }
}

/// Why a check that reads the command's capabilities cannot: the tool
/// gave none (`absent`), or its entry for the command is missing.
pub(super) fn undeclared(n: u8, command: &str, absent: Option<&str>) -> CheckResult {
    let why = match absent {
        Some(a) => format!("{a}, so what this check needs is unknown"),
        None => format!("the capabilities have no entry for `{command}`"),
    };
    CheckResult::new(n, command, Status::NotTested, why)
}

/// A check the command's entry does not decide: `key` absent.
pub(super) fn unsaid(n: u8, command: &str, what: &str, keys: &str) -> CheckResult {
    CheckResult::new(
        n,
        command,
        Status::NotTested,
        format!("the capabilities do not say {what} ({keys}; see docs/guide.md)"),
    )
}
