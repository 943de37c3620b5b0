//! Typed events: any `Serialize` value with a `type` member (§ 20), and
//! the builder of a warning with fields ([`Warning`]).

use serde_json::Value;

use super::guard::Refusal;
use crate::peek::{Kind, Peeker, span, unescape};
use crate::rules::RuleId;

/// An event serialized: its `type`, and its other members encoded as a
/// body (`,"k":v…`) in the order serde wrote them.
pub(crate) fn split<T: serde::Serialize + ?Sized>(event: &T) -> Result<(String, Vec<u8>), Refusal> {
    let json = serde_json::to_vec(event).map_err(|e| {
        Refusal::new(
            RuleId::LineNotObject,
            format!("the value does not serialize: {e}"),
        )
    })?;
    let mut p = Peeker::new();
    if p.peek(&json).is_err() || p.top != Some(Kind::Object) {
        return Err(Refusal::new(
            RuleId::LineNotObject,
            "the value does not serialize to a JSON object",
        ));
    }
    let Some(ti) = p.type_member else {
        return Err(Refusal::new(
            RuleId::TypeMissing,
            "the value has no \"type\" member (serde: #[serde(tag = \"type\")])",
        ));
    };
    let ty = &p.members[ti];
    let Kind::String { .. } = ty.kind else {
        return Err(Refusal::new(
            RuleId::TypeNotString,
            "\"type\" is not a string",
        ));
    };
    let raw = span(&json, &ty.value);
    let name = unescape(raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default()).into_owned();
    let mut body = Vec::with_capacity(json.len());
    for (i, m) in p.members.iter().enumerate().filter(|(i, _)| *i != ti) {
        let _ = i;
        body.extend_from_slice(b",\"");
        body.extend_from_slice(span(&json, &m.key));
        body.extend_from_slice(b"\":");
        body.extend_from_slice(span(&json, &m.value));
    }
    Ok((name, body))
}

/// An `aoi:warning` (§ 9): a code, a message, and any other member
/// (`target`, `properties`…) in the order added.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    code: String,
    message: String,
    fields: Vec<(String, Value)>,
}

impl Warning {
    /// A warning with a `code` in `[A-Z][A-Z0-9_]*` and a one-line message.
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Warning {
            code: code.to_string(),
            message: message.into(),
            fields: Vec::new(),
        }
    }

    /// `target`: what the warning is about.
    pub fn target(self, target: impl Into<Value>) -> Self {
        self.field("target", target)
    }

    /// Any other member, after `code` and `message`; a key is taken once.
    pub fn field(mut self, name: &str, value: impl Into<Value>) -> Self {
        let own = ["type", "aoi", "code", "message"];
        if !own.contains(&name) && !self.fields.iter().any(|(k, _)| k == name) {
            self.fields.push((name.to_string(), value.into()));
        }
        self
    }

    pub(crate) fn fields(&self) -> Vec<(&str, Value)> {
        let mut f = vec![
            ("code", Value::from(self.code.as_str())),
            ("message", Value::from(self.message.as_str())),
        ];
        f.extend(self.fields.iter().map(|(k, v)| (k.as_str(), v.clone())));
        f
    }
}
