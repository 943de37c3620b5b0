//! The report as a terminal table (`--format table`).

use std::fmt::Write as _;

use super::entry::{Entry, Own, worst_first};
use super::standing::Standing;
use super::words::{short_run, summary_line, verdict_word};
use crate::out::{cell, cell_tail, paint, sanitize};

pub(super) fn table(
    entries: &[Entry],
    standing: &Standing,
    own: &[Own],
    code: i32,
    color: bool,
    note: Option<&str>,
) -> String {
    // Terminal columns, not characters: a name in CJK takes two a character.
    let w_src = entries
        .iter()
        .map(|e| crate::out::width(&sanitize(&e.source)))
        .max()
        .unwrap_or(6)
        .clamp(6, 40);
    let mut s = String::new();
    let header = format!(
        "{}  {}  {}  {}  {:>4}  {:>8}  {:>8}  {:>5}  {:>5}  {:>5}  CAUSE",
        cell("SOURCE", w_src),
        cell("RUN", 8),
        cell("TOOL", 12),
        cell("OUTCOME", 10),
        "EXIT",
        "LINES",
        "DOMAIN",
        "WARN",
        "ERR",
        "VIOL"
    );
    s.push_str(&paint(color, "1", &header));
    s.push('\n');
    // Worst first, as every report lists them.
    for e in worst_first(entries) {
        let outcome = cell(e.outcome.name(), 10);
        let sgr = match e.exit_code {
            0 => "32",
            75 => "33",
            65 | 74 => "31;1",
            _ => "31",
        };
        let _ = writeln!(
            s,
            "{}  {}  {}  {}  {:>4}  {:>8}  {:>8}  {:>5}  {:>5}  {:>5}  {}",
            cell_tail(&e.source, w_src),
            cell(&short_run(&e.run), 8),
            cell(e.tool().unwrap_or("-"), 12),
            paint(color, sgr, &outcome),
            e.exit_code,
            e.lines,
            e.domain,
            e.warnings,
            e.errors,
            e.violations,
            sanitize(&e.cause_cell())
        );
    }
    for o in own {
        let _ = writeln!(s, "{}", paint(color, "31;1", &own_line(o)));
    }
    let _ = writeln!(s, "{}: {}", verdict_word(code), summary_line(standing));
    if let Some(n) = note {
        let _ = writeln!(s, "{n}");
    }
    s
}

/// One of aoi's own failures (an input it could not read, one without a
/// stream, runs past the limit) as a line of text: the table and Markdown
/// reports name them as JUnit and TAP do.
pub(super) fn own_line(o: &Own) -> String {
    format!(
        "aoi: {}: {} (exit {}): {}",
        sanitize(&o.target),
        sanitize(&o.code),
        o.exit,
        sanitize(&o.message)
    )
}
