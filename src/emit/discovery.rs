//! Discovery for a tool (§ 10, § 17): the framework events' schemas as
//! aoi declares them, a tool's schema document around its own event
//! types, and a capability manifest builder.

use serde_json::{Map, Value, json};

use super::ToolIdentity;
use crate::spec::types;
use crate::spec::{AOI_VERSION, exit};

/// The JSON Schemas of the framework events (§ 8): `envelope`,
/// `aoi_meta`, `aoi_summary`, `aoi_error`, `aoi_warning`, `aoi_check`:
/// the `$defs` `aoi schema` declares, for a tool's own schema document.
pub fn framework_defs() -> Map<String, Value> {
    super::framework::framework_defs()
}

/// A tool's schema document (JSON Schema 2020-12, § 10): every event has
/// `type` and the envelope, and is checked by its type's definition, the
/// framework's ([`framework_defs`]) or one of `events` (type name to
/// schema of the event object). `id` is the schema's `$id`, an identifier
/// (§ 10.2); fields not named are allowed (§ 10.3).
pub fn schema_document(identity: &ToolIdentity, id: &str, events: &[(&str, Value)]) -> Value {
    let mut defs = framework_defs();
    let framework = [
        (types::META, "aoi_meta"),
        (types::SUMMARY, "aoi_summary"),
        (types::ERROR, "aoi_error"),
        (types::WARNING, "aoi_warning"),
    ];
    let mut dispatch: Vec<(String, String)> = framework
        .iter()
        .map(|(t, d)| (t.to_string(), d.to_string()))
        .collect();
    for (ty, schema) in events {
        let def = format!(
            "event_{}",
            ty.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        defs.insert(def.clone(), schema.clone());
        dispatch.push((ty.to_string(), def));
    }
    let all_of = type_dispatch(dispatch.iter().map(|(t, d)| (t.as_str(), d.as_str())));
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": id,
        "title": format!("{} {}", identity.schema_name, identity.schema_version),
        "x-schema-name": identity.schema_name,
        "x-schema-version": identity.schema_version,
        "type": "object",
        "required": ["type", "aoi"],
        "properties": {"type": {"type": "string"}, "aoi": {"$ref": "#/$defs/envelope"}},
        "allOf": all_of,
        "$defs": defs,
    })
}

/// `allOf` entries that check an event by its `type` (§ 10.4): for each
/// (type, `$defs` name), `if` the type is that, `then` its definition.
pub(crate) fn type_dispatch<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<Value> {
    pairs
        .map(|(ty, def)| {
            json!({
                "if": {"properties": {"type": {"const": ty}}, "required": ["type"]},
                "then": {"$ref": format!("#/$defs/{def}")},
            })
        })
        .collect()
}

/// A capability manifest (§ 17): the identity, the schema, the exit codes
/// of § 6, and each command's facts.
#[derive(Debug, Clone)]
pub struct Capabilities {
    manifest: Map<String, Value>,
    commands: Vec<Value>,
}

impl Capabilities {
    /// A manifest for `identity`: JSON Lines output, its schema in one
    /// version, § 6's exit codes.
    pub fn new(identity: &ToolIdentity) -> Self {
        let exits: Vec<Value> = exit::TABLE
            .iter()
            .map(|(code, meaning)| json!({"code": code, "meaning": meaning}))
            .collect();
        let mut manifest = Map::new();
        manifest.insert("tool".into(), identity.tool.as_str().into());
        manifest.insert("tool_version".into(), identity.tool_version.as_str().into());
        manifest.insert("aoi_versions".into(), json!([AOI_VERSION]));
        manifest.insert("outputs".into(), json!(["jsonl"]));
        manifest.insert(
            "schemas".into(),
            json!([{"name": identity.schema_name, "versions": [identity.schema_version],
                    "default": identity.schema_version}]),
        );
        manifest.insert("exit_codes".into(), json!(exits));
        Capabilities {
            manifest,
            commands: Vec::new(),
        }
    }

    /// Adds a command.
    pub fn command(mut self, c: Command) -> Self {
        self.commands.push(Value::Object(c.0));
        self
    }

    /// Any other top-level member.
    pub fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.manifest.insert(key.into(), value.into());
        self
    }

    /// The manifest as JSON.
    pub fn to_value(&self) -> Value {
        let mut m = self.manifest.clone();
        m.insert("commands".into(), Value::Array(self.commands.clone()));
        Value::Object(m)
    }
}

/// One command of a [`Capabilities`] manifest: the § 17 keys `aoi lint`
/// reads, each set by a method, and any other by [`set`](Self::set).
#[derive(Debug, Clone)]
pub struct Command(Map<String, Value>);

impl Command {
    /// A command that only reads (`read_only:true`, `destructive:false`),
    /// bounded, taking no input on stdin, until said otherwise.
    pub fn new(name: &str, summary: &str) -> Self {
        let c = json!({
            "name": name, "summary": summary, "read_only": true, "destructive": false,
            "requires_confirm": false, "supports_dry_run": false, "bounded": true,
            "supports_cursor": false, "supports_limit": false, "input_jsonl": false,
            "input_modes": [], "outputs": ["jsonl"],
        });
        match c {
            Value::Object(m) => Command(m),
            _ => Command(Map::new()),
        }
    }

    /// `--limit` bounds it and `--cursor` pages (§ 15).
    pub fn paged(self) -> Self {
        self.set("supports_limit", true)
            .set("supports_cursor", true)
    }

    /// It changes state (`read_only:false`; `destructive` and
    /// `requires_confirm` as given, § 16.3).
    pub fn writes(self, destructive: bool, requires_confirm: bool) -> Self {
        self.set("read_only", false)
            .set("destructive", destructive)
            .set("requires_confirm", requires_confirm)
    }

    /// The domain event types it emits.
    pub fn event_types(self, types: &[&str]) -> Self {
        self.set("event_types", json!(types))
    }

    /// SIGINT and SIGTERM end its stream with `reason:"cancelled"`, 130
    /// or 143 (§ 7).
    pub fn cancellable(self) -> Self {
        self.set(
            "cancellation",
            json!({"signals": ["SIGINT", "SIGTERM"], "summary_reason": "cancelled",
                   "exit_codes": [exit::CANCELLED, exit::SIGTERM]}),
        )
    }

    /// Any other member.
    pub fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.insert(key.into(), value.into());
        self
    }
}
