//! `aoi input-schema`: what each command that reads JSON Lines accepts
//! (§ 12.1), and what it does with a malformed line (§ 12.2).
//!
//! aoi reads other tools' streams, so its input schema is the AOI-CLI
//! event itself: an object with a string `type`, an optional `aoi`
//! envelope, and whatever else the producer's own schema defines (the
//! strictness § 10.3 recommends for inputs cannot reach payloads aoi does
//! not own; the judge's rules are the strict part, `aoi rules`).

use crate::spec::exit::Code;
use serde_json::{Value, json};

use crate::cli::InputSchemaArgs;
use crate::cli::commands::COMMANDS;
use crate::spec::AOI_VERSION;

/// The input schema of `command`, or `None` if it reads no JSON Lines.
pub fn input_schema(command: &str) -> Option<Value> {
    let spec = COMMANDS
        .iter()
        .find(|c| c.name == command && c.reads_jsonl)?;
    Some(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("https://schemas.aoi-toolkit.org/input/{command}/1.0.0/schema.json"),
        "title": format!("aoi {command} input: one AOI-CLI {AOI_VERSION} event per line"),
        "type": "object",
        "required": ["type"],
        "properties": {
            "type": {"type": "string", "minLength": 1},
            "aoi": {
                "type": "object",
                "properties": {
                    "seq": {"type": "integer", "minimum": 0},
                    "run": {"type": "string", "minLength": 1},
                    "t": {"type": "number", "minimum": 0},
                    "trace_id": {"type": "string"},
                },
            },
        },
        "x-aoi-input": {
            "format": "jsonl",
            "modes": ["stdin", "files"],
            "malformed_mode": spec.malformed_mode,
            "malformed_input": spec.malformed_input,
            "rules": "aoi rules",
        },
    }))
}

/// Prints the input schema of the command asked for; returns the exit status.
pub fn run(args: &InputSchemaArgs) -> Code {
    let Some(schema) = input_schema(&args.command) else {
        let readers: Vec<&str> = COMMANDS
            .iter()
            .filter(|c| c.reads_jsonl)
            .map(|c| c.name)
            .collect();
        eprintln!(
            "aoi input-schema: {} reads no JSON Lines; these do: {}",
            args.command,
            readers.join(", ")
        );
        return Code::USAGE;
    };
    let text = format!("{schema}\n");
    crate::out::print_stdout("input-schema", &text)
}
