//! Text for people, written once for every command: the one sanitising
//! boundary for upstream text on a terminal, the stderr line, the verdict
//! and finding lines.

use std::fmt::{self, Write as _};
use std::io::{self, IsTerminal, Write};

use serde_json::Value;

use crate::judge::{Finding, Outcome, Verdict};
use crate::rules::Severity;

use super::report::*;

/// Whether `c` may not reach a reader: a control character, a
/// bidirectional override or a line separator could drive the terminal,
/// or reorder or split what is shown.
fn unsafe_char(c: char) -> bool {
    c.is_control()
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
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `s` with every unsafe character replaced by U+FFFD, for the escaping
/// of a format (a cell, a TAP description, XML) that transforms it further.
pub fn sanitize(s: &str) -> String {
    let mut t = Text::default();
    t.push(s);
    t.0
}

/// Text for people, made safe as it is written: whatever goes in through
/// `write!` or [`Text::push`] has its unsafe characters replaced, so a
/// line built here cannot forget a field. Only aoi's own structure, a
/// line break or a colour, goes in by name and unchanged.
#[derive(Default)]
pub(crate) struct Text(String);

impl Text {
    pub(crate) fn push(&mut self, s: &str) {
        self.0.extend(
            s.chars()
                .map(|c| if unsafe_char(c) { '\u{FFFD}' } else { c }),
        );
    }

    /// Ends a line of aoi's layout (an upstream line break is replaced).
    pub(crate) fn line_break(&mut self) {
        self.0.push('\n');
    }

    /// `s`, made safe, in the colour `sgr` when `on`.
    pub(crate) fn painted(&mut self, on: bool, sgr: &str, s: &str) {
        if on {
            self.0.push_str(&format!("\x1b[{sgr}m"));
        }
        self.push(s);
        if on {
            self.0.push_str("\x1b[0m");
        }
    }

    pub(crate) fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s);
        Ok(())
    }
}

/// JSON made safe for a reader where it is written: every string, keys
/// included, as [`Text`] makes it.
pub(crate) fn safe_json(v: &mut Value) {
    match v {
        Value::String(s) if s.chars().any(unsafe_char) => *s = sanitize(s),
        Value::Array(a) => a.iter_mut().for_each(safe_json),
        Value::Object(m) => {
            *m = std::mem::take(m)
                .into_iter()
                .map(|(k, mut v)| {
                    safe_json(&mut v);
                    (sanitize(&k), v)
                })
                .collect();
        }
        _ => {}
    }
}

/// aoi's own words on stderr, unless `quiet`: they may run over lines
/// (a filter's compile error shows its caret), so upstream text in them
/// is the caller's to make safe, or the line's, by [`eprint_safe`].
pub(crate) fn eprint_line(quiet: bool, s: &str) {
    if !quiet {
        let mut e = io::stderr().lock();
        let _ = writeln!(e, "{s}");
    }
}

/// One line on stderr that carries upstream words, made safe whole.
pub(crate) fn eprint_safe(quiet: bool, s: &str) {
    eprint_line(quiet, &sanitize(s));
}

/// What a command says when the stream it reads is stdin and a terminal,
/// made ready by [`notice_reading_terminal`] and said by the first
/// [`opening_stdin`].
static READING_TERMINAL: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Readies the same words for every command that reads stdin when it is
/// a terminal (a user who forgot the file is not left waiting in
/// silence): said once stdin is opened as an input, so never before a
/// usage error found first, nor by a run that never reads it. Not when a
/// file was named (stdin may be one of them, or the `--files-from` list),
/// nor with `-q`.
pub(crate) fn notice_reading_terminal(command: &str, named: bool, quiet: bool) {
    let notice = (!named && !quiet && io::stdin().is_terminal()).then(|| {
        format!(
            "aoi {command}: reading a stream from the terminal (end with Ctrl-D; `aoi {command} FILE` reads a file)"
        )
    });
    if let Ok(mut ready) = READING_TERMINAL.lock() {
        *ready = notice;
    }
}

/// stdin is being opened as an input: the notice readied for it, if any,
/// is said, once.
pub(crate) fn opening_stdin() {
    let notice = READING_TERMINAL.lock().ok().and_then(|mut n| n.take());
    if let Some(notice) = notice {
        eprint_line(false, &notice);
    }
}

/// The human verdict line for one stream, made safe whole.
pub(crate) fn verdict_line(cmd: &str, v: &Verdict, name: Option<&str>) -> String {
    let who = match name {
        Some(n) => format!("aoi {cmd}: {n}: "),
        None => format!("aoi {cmd}: "),
    };
    let id = upstream_identity(v);
    let mut from = String::new();
    if let Some(t) = &id.tool {
        from.push_str(&format!(", from {t}"));
        if let Some(tv) = &id.tool_version {
            from.push_str(&format!(" {tv}"));
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
            first.as_deref().unwrap_or("?")
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
    let mut line = Text::default();
    let _ = match v.outcome {
        Outcome::Ok => write!(line, "{who}ok: {}{checks} ({counts}){adv}", v.reason),
        Outcome::Violation | Outcome::Incomplete => {
            write!(
                line,
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
                    c.category.as_deref().unwrap_or("?"),
                    c.code.as_deref().unwrap_or("?")
                ));
                if let Some(o) = &c.origin {
                    s.push_str(&format!(" from {o}"));
                }
                match (c.retryable, c.retry_after_ms) {
                    (Some(true), Some(ms)) => s.push_str(&format!(", retryable after {ms} ms")),
                    (Some(true), None) => s.push_str(", retryable"),
                    _ => s.push_str(", not retryable"),
                }
                if let Some(m) = &c.message {
                    s.push_str(&format!(": \"{m}\""));
                }
            }
            write!(line, "{s}{checks} ({counts}){adv}")
        }
    };
    line.into_string()
}

/// A finding and its hint, two lines made safe as they are written.
pub(crate) fn finding_line(f: &Finding, name: Option<&str>) -> String {
    let r = f.rule.rule();
    let mut s = Text::default();
    s.push("  ");
    if let Some(n) = name {
        let _ = write!(s, "{n}: ");
    }
    if f.line > 0 {
        let _ = write!(s, "line {}", f.line);
        if let Some(q) = f.seq {
            let _ = write!(s, " (seq {q})");
        }
        s.push(": ");
    }
    let sev = if r.severity == Severity::Advisory {
        " [advisory]"
    } else {
        ""
    };
    let _ = write!(s, "{}{sev}: {} ({})", r.id, f.message, r.spec);
    s.line_break();
    let _ = write!(s, "      hint: {}", r.hint);
    s.into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_escapes() {
        assert_eq!(sanitize("a\u{1b}[31mb\n"), "a\u{FFFD}[31mb\u{FFFD}");
        assert_eq!(sanitize("x\u{202E}y\u{2028}z"), "x\u{FFFD}y\u{FFFD}z");
    }

    /// What is written is made safe; aoi's own line breaks and colour
    /// pass unchanged.
    #[test]
    fn text_keeps_only_its_own_structure() {
        let mut t = Text::default();
        let (upstream, n) = ("a\nb", 1);
        let _ = write!(t, "{upstream}: {n}");
        t.line_break();
        t.painted(true, "1", "c\u{1b}d");
        assert_eq!(t.into_string(), "a\u{FFFD}b: 1\n\x1b[1mc\u{FFFD}d\x1b[0m");
        let mut v = serde_json::json!({"k\u{7}": ["x\u{85}", 2]});
        safe_json(&mut v);
        assert_eq!(v, serde_json::json!({"k\u{FFFD}": ["x\u{FFFD}", 2]}));
    }
}
