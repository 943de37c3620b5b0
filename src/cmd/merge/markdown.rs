//! The Markdown report: a CI job summary (GitHub's step summary) that a
//! person reads in five seconds. A one-line verdict and counts; the failed
//! runs first, each with its cause and retry advice; the passing runs one
//! line each, folded away when there are failures or many of them; texts
//! capped; the whole under GitHub's 1 MiB step-summary limit, saying what
//! was left out and where to find it. Upstream text is inert (code spans,
//! [`md`]). Lists, not tables: a table cell cannot break a long word, so
//! one long file or tool name scrolled the whole table sideways, while a
//! list item wraps it in the column.

use std::fmt::Write as _;

use super::standing::Standing;
use super::{Entry, Own, short_run, summary_line, verdict_word};
use crate::out::sanitize;
use crate::spec::exit::Code;

/// Characters kept of upstream text in a field (with `…`).
const CELL: usize = 80;
/// Characters kept of a cause.
const CAUSE: usize = 160;
/// Bytes the report may take: under GitHub's 1 MiB step-summary limit,
/// with room for the closing lines.
const BUDGET: usize = 1000 * 1000;
/// Passing runs shown unfolded when nothing failed.
const OPEN_PASSING: usize = 10;

/// The report for `entries` and aoi's own failures, with the exit `code`
/// and the `--log` note.
pub(super) fn markdown(
    entries: &[Entry],
    standing: &Standing,
    own: &[Own],
    code: Code,
    note: Option<&str>,
) -> String {
    let mut s = String::new();
    let icon = if code.is_ok() { "✅" } else { "❌" };
    let _ = writeln!(s, "### {icon} AOI merge report: {}\n", verdict_word(code));
    // Failed runs worst first (the exit table's order), in order of input
    // among equals.
    let (failed, passed): (Vec<&Entry>, Vec<&Entry>) = super::entry::worst_first(entries)
        .into_iter()
        .partition(|e| !e.exit_code.is_ok());
    let _ = writeln!(
        s,
        "**{} of {} run(s) failed.** {}\n",
        failed.len(),
        entries.len(),
        summary_line(standing)
    );
    if let Some(n) = note {
        // aoi's own words and numbers: nothing to escape.
        let _ = writeln!(s, "> ⚠️ {n}\n");
    }
    let mut left = 0;
    for o in own {
        let item = format!(
            "- ❌ aoi: {}: {} (exit {}): {}\n",
            md_path(&o.target),
            md(&o.code, CELL),
            o.exit,
            md(&o.message, CAUSE)
        );
        left += push_within(&mut s, &item);
    }
    if !own.is_empty() {
        s.push('\n');
    }
    if !failed.is_empty() {
        let _ = writeln!(s, "#### Failed runs ({})\n", failed.len());
        for e in &failed {
            // The cause on the item's second line: a backslash at a line's
            // end is a hard break (CommonMark § 6.7).
            let cause = e.cause_cell();
            let cause = if cause.is_empty() {
                String::new()
            } else {
                format!("\\\n  {}", md(&cause, CAUSE))
            };
            let row = format!(
                "- ❌ **{}, exit {}** · {} · {} warning(s), {} error(s), {} violation(s){cause}\n",
                e.outcome,
                e.exit_code,
                identity(e),
                e.warnings,
                e.errors,
                e.violations,
            );
            left += push_within(&mut s, &row);
        }
        s.push('\n');
    }
    if !passed.is_empty() {
        let fold = !failed.is_empty() || passed.len() > OPEN_PASSING;
        if fold {
            let _ = writeln!(
                s,
                "<details><summary>✅ Passed runs ({})</summary>\n",
                passed.len()
            );
        } else {
            let _ = writeln!(s, "#### Passed runs ({})\n", passed.len());
        }
        for e in &passed {
            let note = e.cause_cell();
            let note = if note.is_empty() {
                String::new()
            } else {
                format!(" · {}", md(&note, CAUSE))
            };
            let row = format!(
                "- ✅ {} · {} line(s), {} domain, {} warning(s), {} error(s){note}\n",
                identity(e),
                e.lines,
                e.domain,
                e.warnings,
                e.errors,
            );
            left += push_within(&mut s, &row);
        }
        if fold {
            s.push_str("\n</details>\n");
        }
    }
    if left > 0 {
        let _ = writeln!(
            s,
            "\n{left} run(s) not listed: a step summary holds 1 MiB. Every run is in `--format jsonl` and `--format table`."
        );
    }
    s
}

/// Adds `row` unless the report would pass [`BUDGET`]; 1 if it was left out.
fn push_within(s: &mut String, row: &str) -> usize {
    if s.len() + row.len() > BUDGET {
        return 1;
    }
    s.push_str(row);
    0
}

/// Which run a list item is about: its file, run id and tool.
fn identity(e: &Entry) -> String {
    format!(
        "{} · run {} · {}",
        md_path(&e.source),
        md(&short_run(&e.run), CELL),
        md(&tool(e), CELL)
    )
}

/// The tool and its version, as the stream named them.
fn tool(e: &Entry) -> String {
    match (&e.identity[0].1, &e.identity[1].1) {
        (Some(t), Some(v)) => format!("{t} {v}"),
        (Some(t), None) => t.clone(),
        _ => "-".to_string(),
    }
}

/// Upstream text as Markdown: sanitised, on one line, and inert, as a
/// code span. GitHub renders a step summary's HTML, links and emphasis,
/// and its renderer turns bare URLs into links even between escaped
/// brackets; in a code span nothing is read but the text (no HTML, no
/// link, no emphasis: `__init__.jsonl` and `https://x` show as written).
/// The fence is one backtick longer than any run inside, with a space
/// inside it when the text starts or ends with one (CommonMark § 6.1);
/// At most `max` characters are kept (with `…`).
fn md(s: &str, max: usize) -> String {
    code_span(&super::cap(s, max))
}

/// A file name in a code span, keeping its end: where many files share a
/// long directory, the last characters are what tells them apart.
fn md_path(s: &str) -> String {
    let n = s.chars().count();
    if n <= CELL {
        return code_span(s);
    }
    let tail: String = s.chars().skip(n - CELL).collect();
    code_span(&format!("…{tail}"))
}

/// `text` as an inline code span whose fence is longer than any run of
/// backticks in it. Outside a table `|` needs no escape (and a code span
/// would show the backslash).
fn code_span(text: &str) -> String {
    // Markdown's one boundary: every upstream text is a code span.
    let text = &sanitize(text);
    if text.is_empty() {
        return String::new();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // CommonMark strips one space from each end of a span that has both:
    // a text with spaces at both ends is padded so they show.
    let spaced = text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty();
    let pad = if text.starts_with('`') || text.ends_with('`') || longest > 0 || spaced {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}
