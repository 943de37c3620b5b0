//! The report as a terminal table (`--format table`).

use std::fmt::Write as _;

use super::entry::{Entry, Own, worst_first};
use super::standing::Standing;
use super::words::{short_run, summary_line, verdict_word};
use crate::out::{Text, cell, cell_tail, cell_width};
use crate::spec::exit::Code;

pub(super) fn table(
    entries: &[Entry],
    standing: &Standing,
    own: &[Own],
    code: Code,
    color: bool,
    note: Option<&str>,
) -> String {
    // Terminal columns, not characters: a name in CJK takes two a character.
    let w_src = entries
        .iter()
        .map(|e| cell_width(&e.source))
        .max()
        .unwrap_or(6)
        .clamp(6, 40);
    // Rows through Text: upstream text made safe as it is written.
    let mut s = Text::default();
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
    s.painted(color, "1", &header);
    s.line_break();
    // Worst first, as every report lists them.
    for e in worst_first(entries) {
        let outcome = cell(e.outcome.name(), 10);
        let sgr = match e.exit_code {
            Code::OK => "32",
            Code::TEMPFAIL => "33",
            Code::DATAERR | Code::IOERR => "31;1",
            _ => "31",
        };
        let _ = write!(
            s,
            "{}  {}  {}  ",
            cell_tail(&e.source, w_src),
            cell(&short_run(&e.run), 8),
            cell(e.tool().unwrap_or("-"), 12),
        );
        s.painted(color, sgr, &outcome);
        let _ = write!(
            s,
            "  {:>4}  {:>8}  {:>8}  {:>5}  {:>5}  {:>5}  {}",
            e.exit_code,
            e.lines,
            e.domain,
            e.warnings,
            e.errors,
            e.violations,
            e.cause_cell()
        );
        s.line_break();
    }
    for o in own {
        s.painted(color, "31;1", &own_line(o));
        s.line_break();
    }
    let _ = write!(s, "{}: {}", verdict_word(code), summary_line(standing));
    s.line_break();
    if let Some(n) = note {
        s.push(n);
        s.line_break();
    }
    s.into_string()
}

/// One of aoi's own failures (an input it could not read, one without a
/// stream, runs past the limit) as a line of text: the table and Markdown
/// reports name them as JUnit and TAP do; made safe where it is written.
pub(super) fn own_line(o: &Own) -> String {
    format!(
        "aoi: {}: {} (exit {}): {}",
        o.target, o.code, o.exit, o.message
    )
}
