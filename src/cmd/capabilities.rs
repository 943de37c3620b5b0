//! `aoi capabilities`: the capability manifest of § 17, one JSON object.
//!
//! The list of commands comes from the clap definitions (the same ones the
//! man pages and completions come from); what each command does is stated
//! here, once, and a test checks that the two lists are the same.

use crate::spec::exit::Code;
use clap::CommandFactory;
use serde_json::{Value, json};

use crate::cli::commands::COMMANDS;
use crate::cli::{CapabilitiesArgs, Cli};
use crate::emit::{SCHEMA_NAME, SCHEMA_VERSION, TOOL, TOOL_VERSION};
use crate::spec::{AOI_VERSION, exit};

/// The manifest (§ 17).
pub fn manifest() -> Value {
    let cli = Cli::command();
    let commands: Vec<Value> = cli
        .get_subcommands()
        .map(|sub| {
            let name = sub.get_name();
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            let mut c = json!({"name": name, "summary": about});
            if let Some(spec) = COMMANDS.iter().find(|s| s.name == name) {
                let input: Vec<&str> = if spec.reads_jsonl {
                    vec!["stdin", "files"]
                } else {
                    vec![]
                };
                c["role"] = spec.role.into();
                c["read_only"] = true.into();
                c["destructive"] = false.into();
                c["bounded"] = true.into();
                c["supports_cursor"] = false.into();
                c["supports_dry_run"] = false.into();
                c["input_modes"] = json!(input);
                c["input_jsonl"] = spec.reads_jsonl.into();
                c["malformed_input"] = spec.malformed_input.into();
                if spec.reads_jsonl {
                    c["malformed_mode"] = spec.malformed_mode.into();
                    c["input_schema"] = format!("aoi input-schema --command {name}").into();
                }
                c["outputs"] = json!(spec.outputs);
                c["event_types"] = json!(spec.event_types);
                // A filter result that is an object with a domain `type`
                // is emitted with that type (§ 8.2: the schema is the
                // user's filter, so the set is open).
                c["any_domain_types"] = (name == "filter").into();
                // § 7: what SIGINT/SIGTERM do. Commands writing a stream of
                // their own end it with a cancelled summary; the others stop
                // at once (the signal's default action).
                if (spec.role == "producer" && spec.reads_jsonl) || name == "check" {
                    c["cancellation"] = json!({
                        "signals": ["SIGINT", "SIGTERM"],
                        "summary_reason": "cancelled",
                        "exit_codes": [Code::CANCELLED, Code::SIGTERM],
                        "applies_to": "machine output (--output jsonl, and check's --report)",
                    });
                    if name == "check" {
                        // Ctrl-C to a pipeline keeps the
                        // producer's own cancelled summary.
                        c["cancellation"]["drain"] = "the relay reads on to the end of its input for AOI_STOP_DRAIN seconds (default 2) after the first signal; a stream that ends in that time is relayed and judged as it is".into();
                    }
                }
            }
            c
        })
        .collect();
    let exits: Vec<Value> = exit::TABLE
        .iter()
        .map(|(code, meaning)| json!({"code": code, "meaning": meaning}))
        .collect();
    json!({
        "tool": TOOL,
        "tool_version": TOOL_VERSION,
        "aoi_versions": [AOI_VERSION],
        "outputs": ["jsonl"],
        "schemas": [{"name": SCHEMA_NAME, "versions": [SCHEMA_VERSION], "default": SCHEMA_VERSION}],
        "commands": commands,
        "exit_codes": exits,
        "exit_severity_order": [65, 74, 77, 1, 124, 130, 75, 0],
    })
}

/// Prints the manifest; returns the exit status.
pub fn run(_args: &CapabilitiesArgs) -> Code {
    let text = format!("{}\n", manifest());
    crate::out::print_stdout("capabilities", &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command of the CLI is described here, and nothing else.
    #[test]
    fn commands_match_the_cli() {
        let cli: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        let ours: Vec<String> = COMMANDS.iter().map(|s| s.name.to_string()).collect();
        assert_eq!(cli, ours);
    }

    /// The commands whose help carries the exit table, and that
    /// `input-schema --command` accepts, are those that read JSON Lines.
    #[test]
    fn judging_commands_are_the_readers() {
        let readers: Vec<&str> = COMMANDS
            .iter()
            .filter(|c| c.reads_jsonl)
            .map(|c| c.name)
            .collect();
        assert_eq!(readers, crate::cli::JUDGING);
    }
}
