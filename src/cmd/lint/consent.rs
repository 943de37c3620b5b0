//! Whether lint may run a command more than once: a command
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

/// What the command does: by its capabilities, and by the words of its
/// command line (§ 14.1 makes a mutation "obvious in the
/// command or options"). A destructive mark on either side is enough: a
/// command that destroys state taken for a read-only one would be run
/// again without consent; a manifest's `read_only:true` outweighs only a
/// word that suggests a milder change.
pub(super) fn effect(caps: Option<&Map<String, Value>>, argv: &[String], prefix: usize) -> Effect {
    let said = |k| flag(caps, k) == Some(true);
    if said("destructive") || said("requires_confirm") {
        let key = if said("destructive") {
            "destructive"
        } else {
            "requires_confirm"
        };
        return Effect::Destructive(format!("{key}:true, per the capabilities"));
    }
    let g = guards(argv, prefix);
    if !g.confirm.is_empty() {
        return Effect::Destructive(format!(
            "its command line confirms ({}): it destroys state",
            g.confirm.join(" ")
        ));
    }
    if let Some(w) = marked(argv, prefix, DESTRUCTIVE) {
        return Effect::Destructive(format!("its command line says `{w}`: it destroys state"));
    }
    match flag(caps, "read_only") {
        Some(false) => return Effect::Mutating("read_only:false, per the capabilities".into()),
        // A manifest that says read-only is taken over a word that may
        // only look like a change (`merge-report`); never over a
        // destructive word or a confirmation, above.
        Some(true) => return Effect::ReadOnly,
        None => {}
    }
    if g.dry_run {
        return Effect::Mutating("its command line asks for a dry run: it changes state".into());
    }
    if let Some(w) = marked(argv, prefix, MUTATING) {
        return Effect::Mutating(format!("its command line says `{w}`: it changes state"));
    }
    Effect::Unmarked
}

/// The first word of the command line (past the program) with a part in
/// `verbs`: words split at spaces, `-`, `_`, `=`, `:` and `.`, a path
/// read by its last part (`delete-user`, `--delete`, `sh -c './t rm x'`).
fn marked<'a>(argv: &'a [String], prefix: usize, verbs: &[&str]) -> Option<&'a str> {
    // The program's own path says nothing (`/opt/deploy/bin/tool`); an
    // interpreter's script and everything after it may.
    let from = if prefix > 1 { 1 } else { prefix.max(1) };
    argv.iter().skip(from).map(String::as_str).find(|w| {
        w.split_whitespace().any(|piece| {
            let last = piece
                .rsplit('/')
                .next()
                .unwrap_or(piece)
                .to_ascii_lowercase();
            last.split(['-', '_', '=', ':', '.', '"', '\''])
                .any(|part| verbs.contains(&part))
        })
    })
}

/// The manifest's command named in the command line: an entry's name
/// (one word or several, `repo delete`) found among the words after the
/// program, the earliest (then the longest) first.
pub(super) fn manifest_command(
    caps: Option<&Value>,
    argv: &[String],
    prefix: usize,
) -> Option<String> {
    let names = caps?.get("commands")?.as_array()?;
    let words: Vec<&str> = argv.iter().skip(prefix).map(String::as_str).collect();
    names
        .iter()
        .filter_map(|c| c.get("name")?.as_str())
        .filter_map(|name| {
            let parts: Vec<&str> = name.split_whitespace().collect();
            let at = words
                .windows(parts.len().max(1))
                .position(|w| w == parts.as_slice())?;
            Some((at, std::cmp::Reverse(parts.len()), name.to_string()))
        })
        .min()
        .map(|(_, _, name)| name)
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
        if w == "--" && i >= from {
            // Operands from here on, never flags.
            g.bare.extend(argv[i..].iter().cloned());
            break;
        }
        if i < from {
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
    fn effects_by_capabilities_and_words() {
        let of = |caps: Option<serde_json::Value>, line: &str| {
            effect(caps.as_ref().and_then(|c| c.as_object()), &words(line), 1)
        };
        let destructive = |e: Effect| matches!(e, Effect::Destructive(_));
        let mutating = |e: Effect| matches!(e, Effect::Mutating(_));
        assert!(destructive(of(Some(json!({"destructive": true})), "t x")));
        assert!(mutating(of(Some(json!({"read_only": false})), "t list")));
        let read_only = Some(json!({"read_only": true}));
        assert_eq!(of(read_only.clone(), "t search"), Effect::ReadOnly);
        // A destructive word is enough (found by review: each ran 7
        // times); a milder one yields to a read-only manifest.
        assert!(destructive(of(read_only.clone(), "t delete x")));
        assert_eq!(of(read_only, "t merge-report"), Effect::ReadOnly);
        for line in [
            "t delete x",
            "t delete-user bob",
            "t terminate-instance i-1",
            "t files --delete bob",
            "t --profile prod delete bob",
            "t gc --yes",
            "t sh -c './t rm x'",
        ] {
            assert!(destructive(of(None, line)), "{line}");
        }
        assert!(mutating(of(None, "t create x")));
        assert!(mutating(of(None, "t apply --dry-run")));
        assert_eq!(of(None, "t search agent"), Effect::Unmarked);
        // The program's path says nothing.
        let e = effect(None, &words("/opt/deploy/bin/tool search"), 1);
        assert_eq!(e, Effect::Unmarked);
    }

    #[test]
    fn the_manifest_names_the_command() {
        let caps = json!({"commands":[{"name":"delete"},{"name":"repo delete"},{"name":"list"}]});
        let of = |line: &str| manifest_command(Some(&caps), &words(line), 1);
        assert_eq!(of("t --profile prod delete bob").as_deref(), Some("delete"));
        assert_eq!(of("t repo delete bob").as_deref(), Some("repo delete"));
        assert_eq!(of("t search"), None);
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
        // The tool's own words are never taken for flags, nor operands.
        let g = guards(&words("--yes delete x"), 1);
        assert_eq!(g.bare, words("--yes delete x"));
        let g = guards(&words("t rm -- --yes"), 1);
        assert_eq!((g.bare, g.confirm.len()), (words("t rm -- --yes"), 0));
    }
}
