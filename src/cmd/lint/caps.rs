//! What a tool's capabilities (§ 17) say of one command: which checks
//! concern it (destructive, read-only, bounded, reading JSON Lines). A
//! check that needs them when they could not be read is not tested,
//! never "n/a per the capabilities" (issue 25).

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

/// Whether the command reads JSON Lines on stdin, as its capabilities say.
pub(super) fn reads_jsonl(c: Option<&Map<String, Value>>) -> bool {
    flag(c, "input_jsonl") == Some(true)
        || c.and_then(|c| c.get("input_modes"))
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|m| m == "jsonl" || m == "stdin"))
}

/// A check that depends on what the capabilities declare, when they could
/// not be read: not tested, never "n/a per the capabilities" (issue 25).
pub(super) fn unread_caps(n: u8, command: &str) -> CheckResult {
    CheckResult::new(
        n,
        command,
        Status::NotTested,
        "the capabilities could not be read (check 1), so what this check needs is unknown",
    )
}
