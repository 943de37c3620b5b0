//! Whether lint may run a command more than once (issue 41): a command
//! that changes state, by its capabilities (§ 17: `destructive`,
//! `requires_confirm`, `read_only:false`) or by its name (§ 16.3's
//! verbs), is run once, as the user wrote it, unless
//! `--allow-side-effects`; every probe that would run it again is not
//! tested, and says so. Also the confirmation and dry-run flags of a
//! command line (§ 14.2, § 14.3, § 16.1), so check 6 can run a command
//! with and without them.

use serde_json::{Map, Value};

use super::caps::flag;

/// What running the command does to state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Effect {
    /// Read-only by its capabilities.
    ReadOnly,
    /// Nothing marks it either way: probed like a read-only command.
    Unmarked,
    /// It changes state; why (`read_only:false, per the capabilities`).
    Mutating(String),
    /// It destroys state; why.
    Destructive(String),
}

impl Effect {
    /// Whether it changes state.
    pub(super) fn mutates(&self) -> bool {
        matches!(self, Effect::Mutating(_) | Effect::Destructive(_))
    }
    /// Why it changes state, for messages.
    pub(super) fn why(&self) -> &str {
        match self {
            Effect::Mutating(w) | Effect::Destructive(w) => w,
            _ => "",
        }
    }
}

/// Names of § 16.3 (and their common spellings) that destroy state.
const DESTRUCTIVE: &[&str] = &[
    "delete",
    "del",
    "rm",
    "remove",
    "destroy",
    "drop",
    "purge",
    "prune",
    "erase",
    "wipe",
    "truncate",
    "reset",
    "revoke",
    "uninstall",
    "terminate",
    "kill",
];

/// Names of § 16.3 (and their common spellings) that change state.
const MUTATING: &[&str] = &[
    "create", "new", "add", "update", "set", "edit", "patch", "put", "post", "write", "move", "mv",
    "rename", "copy", "cp", "send", "sync", "apply", "deploy", "publish", "push", "upload",
    "import", "install", "restore", "migrate", "merge", "commit", "approve", "close", "archive",
];

/// What the command does, by its capabilities first, then its name.
pub(super) fn effect(caps: Option<&Map<String, Value>>, command: &str) -> Effect {
    let said = |k| flag(caps, k) == Some(true);
    if said("destructive") || said("requires_confirm") {
        let key = if said("destructive") {
            "destructive"
        } else {
            "requires_confirm"
        };
        return Effect::Destructive(format!("{key}:true, per the capabilities"));
    }
    if flag(caps, "read_only") == Some(false) {
        return Effect::Mutating("read_only:false, per the capabilities".into());
    }
    if flag(caps, "read_only") == Some(true) {
        return Effect::ReadOnly;
    }
    let name = command.to_ascii_lowercase();
    if DESTRUCTIVE.contains(&name.as_str()) {
        Effect::Destructive(format!("its name, `{command}`, says it destroys state"))
    } else if MUTATING.contains(&name.as_str()) {
        Effect::Mutating(format!("its name, `{command}`, says it changes state"))
    } else {
        Effect::Unmarked
    }
}

/// Flags that confirm a destructive operation (§ 14.3, § 16.1); the
/// second field says whether it takes a value.
const CONFIRM: &[(&str, bool)] = &[
    ("--confirm", false),
    ("--yes", false),
    ("-y", false),
    ("--force", false),
    ("--confirm-count", true),
];

/// Flags that ask for a plan without side effects (§ 14.2).
const DRY_RUN: &[&str] = &["--dry-run", "--dryrun"];

/// The words of a command line split by what they ask for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Guards {
    /// The line without its confirmation and dry-run flags.
    pub(super) bare: Vec<String>,
    /// The confirmation words it had (`--confirm`, `--confirm-count 3`).
    pub(super) confirm: Vec<String>,
    /// Whether it asked for a dry run.
    pub(super) dry_run: bool,
}

/// Splits `argv` (from `from` on: the words after the tool) into its
/// confirmation and dry-run flags and the rest (`--confirm=x` spellings
/// too).
pub(super) fn guards(argv: &[String], from: usize) -> Guards {
    let mut g = Guards::default();
    let mut words = argv.iter().enumerate().peekable();
    while let Some((i, w)) = words.next() {
        let name = w.split('=').next().unwrap_or(w);
        if i < from || w == "--" {
            g.bare.push(w.clone());
            continue;
        }
        if DRY_RUN.contains(&name) {
            g.dry_run = true;
        } else if let Some((_, takes)) = CONFIRM.iter().find(|(c, _)| *c == name) {
            g.confirm.push(w.clone());
            if *takes && !w.contains('=') {
                if let Some((_, v)) = words.next() {
                    g.confirm.push(v.clone());
                }
            }
        } else {
            g.bare.push(w.clone());
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn effects_by_capabilities_then_name() {
        let caps = json!({"destructive": true});
        assert!(matches!(
            effect(caps.as_object(), "x"),
            Effect::Destructive(_)
        ));
        let caps = json!({"read_only": false});
        assert!(matches!(
            effect(caps.as_object(), "list"),
            Effect::Mutating(_)
        ));
        let caps = json!({"read_only": true});
        assert_eq!(effect(caps.as_object(), "delete"), Effect::ReadOnly);
        assert!(matches!(effect(None, "delete"), Effect::Destructive(_)));
        assert!(matches!(effect(None, "create"), Effect::Mutating(_)));
        assert_eq!(effect(None, "search"), Effect::Unmarked);
    }

    #[test]
    fn guards_are_found_and_removed() {
        let g = guards(
            &words("tool delete res-1 --yes --dry-run --output jsonl"),
            1,
        );
        assert_eq!(g.bare, words("tool delete res-1 --output jsonl"));
        assert_eq!(g.confirm, words("--yes"));
        assert!(g.dry_run);
        let g = guards(&words("tool delete --confirm-count 3 x"), 1);
        assert_eq!(
            (g.bare, g.confirm),
            (words("tool delete x"), words("--confirm-count 3"))
        );
        let g = guards(&words("tool delete --confirm=yes x"), 1);
        assert_eq!(g.confirm, words("--confirm=yes"));
        // The tool's own words are never taken for flags.
        let g = guards(&words("--yes delete x"), 1);
        assert_eq!(g.bare, words("--yes delete x"));
    }
}
