//! What a failed JSON Schema keyword wanted, in words: the message of a
//! `schema.invalid` finding and of lint's check 4 (`0 is less than the
//! minimum 1`), each value quoted short so a finding stays one line.

use boon::ErrorKind;
use serde_json::Value;

/// A value as JSON, cut at 40 characters.
pub(crate) fn short(v: &Value) -> String {
    cut(&v.to_string())
}

fn cut(s: &str) -> String {
    if s.chars().count() > 40 {
        s.chars().take(40).collect::<String>() + "…"
    } else {
        s.to_string()
    }
}

fn names(list: &[&str]) -> String {
    let quoted: Vec<String> = list
        .iter()
        .take(8)
        .map(|n| format!("\"{}\"", cut(n)))
        .collect();
    let more = list.len().saturating_sub(8);
    if more > 0 {
        format!("{} and {more} more", quoted.join(", "))
    } else {
        quoted.join(", ")
    }
}

/// The message for one failed keyword.
pub(crate) fn words(kind: &ErrorKind) -> String {
    use ErrorKind::*;
    match kind {
        Type { got, want } => {
            let want: Vec<String> = want.iter().map(|t| t.to_string()).collect();
            format!("a {got}, not of type {}", want.join(" or "))
        }
        Enum { want } => format!(
            "not one of {}",
            short(&Value::Array(want.iter().take(16).cloned().collect()))
        ),
        Const { want } => format!("not {}", short(want)),
        Required { want } => format!("{} required, missing", names(want)),
        AdditionalProperties { got } => {
            let got: Vec<&str> = got.iter().map(|c| c.as_ref()).collect();
            format!("{} not allowed (no schema admits it)", names(&got))
        }
        Minimum { got, want } => format!("{got} is less than the minimum {want}"),
        Maximum { got, want } => format!("{got} is more than the maximum {want}"),
        ExclusiveMinimum { got, want } => format!("{got} is not more than {want}"),
        ExclusiveMaximum { got, want } => format!("{got} is not less than {want}"),
        MultipleOf { got, want } => format!("{got} is not a multiple of {want}"),
        MinLength { got, want } => format!("{got} character(s), fewer than the minimum {want}"),
        MaxLength { got, want } => format!("{got} character(s), more than the maximum {want}"),
        Pattern { got, want } => format!(
            "\"{}\" does not match the pattern \"{}\"",
            cut(got),
            cut(want)
        ),
        Format { got, want, err } => format!("{} is not a valid {want}: {err}", short(got)),
        MinItems { got, want } => format!("{got} item(s), fewer than the minimum {want}"),
        MaxItems { got, want } => format!("{got} item(s), more than the maximum {want}"),
        MinProperties { got, want } => {
            format!("{got} member(s), fewer than the minimum {want}")
        }
        MaxProperties { got, want } => {
            format!("{got} member(s), more than the maximum {want}")
        }
        UniqueItems { got: [i, j] } => format!("items {i} and {j} are equal, not unique"),
        DependentRequired { prop, missing } | Dependency { prop, missing } => {
            format!(
                "{} required with \"{}\", missing",
                names(missing),
                cut(prop)
            )
        }
        FalseSchema => "not allowed here (the schema is false)".into(),
        AnyOf => "matches none of the anyOf schemas".into(),
        OneOf(None) => "matches none of the oneOf schemas".into(),
        OneOf(Some((i, j))) => format!("matches oneOf's schemas {i} and {j}, not exactly one"),
        Not => "matches the schema `not` excludes".into(),
        PropertyName { prop } => format!("the member name \"{}\" is not allowed", cut(prop)),
        other => cut(&other.to_string()),
    }
}
