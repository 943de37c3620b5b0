//! Terminal tables: cells cut and padded by display width, and colour.

use crate::out::sanitize;

/// `s` made safe and the terminal columns it then takes: the one
/// boundary of a table's cells (a control character takes no column,
/// its replacement one).
fn shown(s: &str) -> (String, usize) {
    let clean = sanitize(s);
    let n = width(&clean);
    (clean, n)
}

/// The columns a cell of `s` takes before it is cut or padded.
pub(crate) fn cell_width(s: &str) -> usize {
    shown(s).1
}

/// `s` sanitised, cut to `w` characters (with `…`) and padded to `w`.
pub(crate) fn cell(s: &str, w: usize) -> String {
    let (clean, n) = shown(s);
    if n <= w {
        return format!("{clean}{}", " ".repeat(w - n));
    }
    let (kept, used) = fit(clean.chars(), w.saturating_sub(1));
    let kept: String = kept.into_iter().collect();
    format!("{kept}…{}", " ".repeat(w.saturating_sub(1) - used))
}

/// [`cell`] for a path: cut at the front (`…/examples/run.jsonl`), since
/// the end names the file and the front is the same on every row.
pub(crate) fn cell_tail(s: &str, w: usize) -> String {
    let (clean, n) = shown(s);
    if n <= w {
        return format!("{clean}{}", " ".repeat(w - n));
    }
    let (kept, used) = fit(clean.chars().rev(), w.saturating_sub(1));
    let kept: String = kept.into_iter().rev().collect();
    format!("…{kept}{}", " ".repeat(w.saturating_sub(1) - used))
}

/// The characters of `chars` that fit in `room` columns, in the order
/// taken, and the columns they use (a wide character that does not fit
/// leaves a column for a space).
fn fit(chars: impl Iterator<Item = char>, room: usize) -> (Vec<char>, usize) {
    let mut kept = Vec::new();
    let mut used = 0;
    for c in chars {
        let cw = columns(c);
        if used + cw > room {
            break;
        }
        used += cw;
        kept.push(c);
    }
    (kept, used)
}

/// Terminal columns a character takes (Unicode's East Asian Width and
/// emoji data, as `wcwidth` reads them): 2 for wide characters, 0 for
/// combining and zero-width ones.
pub(crate) fn columns(c: char) -> usize {
    unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Terminal columns of a string ([`columns`] of each character).
pub(crate) fn width(s: &str) -> usize {
    s.chars().map(columns).sum()
}

pub(crate) fn paint(on: bool, sgr: &str, s: &str) -> String {
    if on {
        format!("\x1b[{sgr}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_is_padded_or_cut_at_the_end() {
        assert_eq!(cell("ab", 4), "ab  ");
        assert_eq!(cell("abcdef", 4), "abc…");
        // A wide character that does not fit leaves a space.
        assert_eq!(cell("ab界", 3), "ab…");
        assert_eq!(cell("a界界", 3), "a… ");
    }

    #[test]
    fn a_path_cell_keeps_the_file_name() {
        assert_eq!(cell_tail("/a/b/run.jsonl", 14), "/a/b/run.jsonl");
        assert_eq!(cell_tail("/long/prefix/run.jsonl", 12), "…x/run.jsonl");
        assert_eq!(cell_tail("/x/界界", 3), "…界");
        assert_eq!(cell_tail("/x/a界", 3), "…界");
        assert_eq!(cell_tail("/x/界a", 3), "…a ");
    }
}
