//! Text for people, written once for every command: the one sanitising
//! boundary for upstream text on a terminal, the stderr line, the verdict
//! and finding lines.

use std::io::{self, IsTerminal, Write};

use crate::judge::{Finding, Outcome, Verdict};
use crate::rules::Severity;

use super::report::*;

/// Replaces control characters, bidirectional overrides and line
/// separators so upstream text can neither drive the terminal nor reorder
/// or split what is shown.
pub fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            let unsafe_char = c.is_control()
                || matches!(
                    c,
                    '\u{061C}'
                        | '\u{200E}'
                        | '\u{200F}'
                        | '\u{2028}'
                        | '\u{2029}'
                        | '\u{FFFE}'
                        | '\u{FFFF}'
                )
                || ('\u{202A}'..='\u{202E}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c);
            if unsafe_char { '\u{FFFD}' } else { c }
        })
        .collect()
}

pub(crate) fn eprint_line(quiet: bool, s: &str) {
    if !quiet {
        let mut e = io::stderr().lock();
        let _ = writeln!(e, "{s}");
    }
}

/// Says, the same way for every command, that stdin is a terminal and is
/// being read (a user who forgot the file is not left waiting in silence).
pub(crate) fn say_reading_terminal(command: &str, named: bool, quiet: bool) {
    if !named && io::stdin().is_terminal() && !quiet {
        eprint_line(
            false,
            &format!(
                "aoi {command}: reading a stream from the terminal (end with Ctrl-D; `aoi {command} FILE` reads a file)"
            ),
        );
    }
}

/// The human verdict line for one stream.
pub(crate) fn verdict_line(cmd: &str, v: &Verdict, name: Option<&str>) -> String {
    let who = match name {
        Some(n) => format!("aoi {cmd}: {}: ", sanitize(n)),
        None => format!("aoi {cmd}: "),
    };
    let id = upstream_identity(v);
    let mut from = String::new();
    if let Some(t) = &id.tool {
        from.push_str(&format!(", from {}", sanitize(t)));
        if let Some(tv) = &id.tool_version {
            from.push_str(&format!(" {}", sanitize(tv)));
        }
    }
    let counts = format!(
        "{} line(s), {} domain event(s), {} warning(s), {} error(s){from}",
        v.lines, v.domain_events, v.warnings, v.errors
    );
    // A failed doctor run names what it failed on.
    let checks = match &v.failed_checks {
        (0, _) => String::new(),
        (n, first) => format!(
            "; {n} failed aoi:check, the first \"{}\"",
            sanitize(first.as_deref().unwrap_or("?"))
        ),
    };
    let adv = if v.advisories > 0 {
        let ids: Vec<&str> = v
            .rule_counts
            .iter()
            .filter(|(r, _)| r.severity() == Severity::Advisory)
            .map(|(r, _)| r.id())
            .collect();
        format!("; {} advisory finding(s): {}", v.advisories, ids.join(", "))
    } else {
        String::new()
    };
    match v.outcome {
        Outcome::Ok => format!("{who}ok: {}{checks} ({counts}){adv}", v.reason),
        Outcome::Violation | Outcome::Incomplete => {
            format!(
                "{who}FAIL {} (exit {}): {} ({counts}){adv}",
                v.outcome.name(),
                v.exit_code,
                v.reason
            )
        }
        _ => {
            let mut s = format!(
                "{who}upstream {} (exit {}): {}",
                v.outcome.name(),
                v.exit_code,
                v.reason
            );
            if let Some(c) = &v.cause {
                s.push_str(&format!(
                    "; caused by {} {}",
                    sanitize(c.category.as_deref().unwrap_or("?")),
                    sanitize(c.code.as_deref().unwrap_or("?"))
                ));
                if let Some(o) = &c.origin {
                    s.push_str(&format!(" from {}", sanitize(o)));
                }
                match (c.retryable, c.retry_after_ms) {
                    (Some(true), Some(ms)) => s.push_str(&format!(", retryable after {ms} ms")),
                    (Some(true), None) => s.push_str(", retryable"),
                    _ => s.push_str(", not retryable"),
                }
                if let Some(m) = &c.message {
                    s.push_str(&format!(": \"{}\"", sanitize(m)));
                }
            }
            format!("{s}{checks} ({counts}){adv}")
        }
    }
}

pub(crate) fn finding_line(f: &Finding, name: Option<&str>) -> String {
    let r = f.rule.rule();
    let mut s = String::from("  ");
    if let Some(n) = name {
        s.push_str(&sanitize(n));
        s.push_str(": ");
    }
    if f.line > 0 {
        s.push_str(&format!("line {}", f.line));
        if let Some(q) = f.seq {
            s.push_str(&format!(" (seq {q})"));
        }
        s.push_str(": ");
    }
    let sev = if r.severity == Severity::Advisory {
        " [advisory]"
    } else {
        ""
    };
    s.push_str(&format!(
        "{}{sev}: {} ({})\n      hint: {}",
        r.id,
        sanitize(&f.message),
        r.spec,
        r.hint
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_escapes() {
        assert_eq!(sanitize("a\u{1b}[31mb\n"), "a\u{FFFD}[31mb\u{FFFD}");
        assert_eq!(sanitize("x\u{202E}y\u{2028}z"), "x\u{FFFD}y\u{FFFD}z");
    }
}
