//! The report as TAP version 13 (`--format tap`), read by Perl's `prove`
//! and TAP 14 readers alike: a plan and a YAML block per failure, its
//! values quoted scalars and maps.

use std::fmt::Write as _;

use serde_json::Value;

use super::entry::{Entry, Own, worst_first};
use super::standing::Standing;
use super::words::summary_line;
use crate::out::sanitize;

/// A TAP description: one line, `#` escaped (it would start a directive).
pub(super) fn tap_text(s: &str) -> String {
    sanitize(s).replace('\\', "\\\\").replace('#', "\\#")
}

/// A string as a YAML double-quoted scalar on one line, upstream text
/// sanitised first (no control character reaches a YAML reader, which
/// would decode a `\u001b` escape into a real ESC).
pub(super) fn yaml_str(v: &str) -> String {
    Value::from(sanitize(v)).to_string()
}

/// A JSON value as YAML under `indent` spaces, every string through
/// [`yaml_str`]: a map as `key: value` lines (keys quoted), anything nested
/// deeper as one quoted line of JSON. The shape both Perl's TAP::Parser
/// YAMLish reader and YAML 1.2 readers take.
pub(super) fn yaml_map(s: &mut String, map: &serde_json::Map<String, Value>, indent: usize) {
    for (k, v) in map {
        let value = match v {
            Value::String(t) => yaml_str(t),
            Value::Null => "~".to_string(),
            Value::Bool(_) | Value::Number(_) => v.to_string(),
            other => yaml_str(&other.to_string()),
        };
        let _ = writeln!(s, "{:indent$}{}: {value}", "", yaml_str(k));
    }
}

/// TAP version 13 (which Perl's `prove` reads; TAP 14 readers read it
/// too): one test point per stream; failures carry a YAML block whose
/// values are quoted scalars and maps, never `rule: message` text.
pub(super) fn tap(
    entries: &[Entry],
    standing: &Standing,
    own: &[Own],
    note: Option<&str>,
) -> String {
    let mut s = String::from("TAP version 13\n");
    // Never empty: no stream at all is aoi's own failing point. Reading as
    // a log is a skipped point, as in JUnit.
    let _ = writeln!(
        s,
        "1..{}",
        entries.len() + own.len() + usize::from(note.is_some())
    );
    for (i, e) in worst_first(entries).into_iter().enumerate() {
        // Which run, its outcome and its counts: every point, passing or
        // not, says how many warnings and errors it had.
        let desc = format!(
            "{}: {} {}, {}",
            e.who(),
            e.tool().unwrap_or("(unnamed tool)"),
            e.outcome,
            e.counts()
        );
        if e.exit_code == 0 {
            let _ = writeln!(s, "ok {} - {}", i + 1, tap_text(&desc));
            if let Some(n) = e.checks_note() {
                let _ = writeln!(s, "  ---\n  checks: {}\n  ...", yaml_str(&n));
            }
            continue;
        }
        let _ = writeln!(
            s,
            "not ok {} - {} (exit {})",
            i + 1,
            tap_text(&desc),
            e.exit_code
        );
        s.push_str("  ---\n");
        // The cause first: the first finding and how many others.
        let _ = writeln!(s, "  cause: {}", yaml_str(&e.cause_cell()));
        let _ = writeln!(s, "  outcome: {}", yaml_str(e.outcome.name()));
        let _ = writeln!(s, "  exit_code: {}", e.exit_code);
        let _ = writeln!(s, "  reason: {}", yaml_str(&e.reason));
        if let Some(c) = e.caused_by.as_ref().and_then(Value::as_object) {
            s.push_str("  caused_by:\n");
            yaml_map(&mut s, c, 4);
        }
        let _ = writeln!(s, "  lines: {}", e.lines);
        let _ = writeln!(s, "  warnings: {}", e.warnings);
        let _ = writeln!(s, "  errors: {}", e.errors);
        let _ = writeln!(s, "  violations: {}", e.violations);
        if !e.findings.is_empty() {
            s.push_str("  findings:\n");
            for f in &e.findings {
                // `line N: rule.id: message`, as aoi words it: a map.
                let (line, rest) = match f.strip_prefix("line ").and_then(|t| t.split_once(": ")) {
                    Some((n, rest)) if n.parse::<u64>().is_ok() => (Some(n), rest),
                    _ => (None, f.as_str()),
                };
                let (rule, message) = rest.split_once(": ").unwrap_or(("", rest));
                s.push_str("    -");
                if let Some(n) = line {
                    let _ = write!(s, " line: {n}\n     ");
                }
                let _ = writeln!(
                    s,
                    " rule: {}\n      message: {}",
                    yaml_str(rule),
                    yaml_str(message)
                );
            }
        }
        s.push_str("  ...\n");
    }
    for (i, o) in own.iter().enumerate() {
        let _ = writeln!(
            s,
            "not ok {} - {}: {} (exit {})",
            entries.len() + i + 1,
            tap_text(&o.target),
            tap_text(&o.code),
            o.exit
        );
        let _ = writeln!(s, "  ---\n  message: {}\n  ...", yaml_str(&o.message));
    }
    if let Some(n) = note {
        let _ = writeln!(
            s,
            "ok {} - {} # SKIP not AOI events are not judged",
            entries.len() + own.len() + 1,
            tap_text(n)
        );
    }
    let _ = writeln!(s, "# {}", tap_text(&summary_line(standing)));
    s
}
