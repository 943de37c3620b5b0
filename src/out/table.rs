//! Terminal tables: cells cut and padded by display width, and colour.

use crate::out::sanitize;

/// `s` sanitised, cut to `w` characters (with `…`) and padded to `w`.
pub(crate) fn cell(s: &str, w: usize) -> String {
    let clean = sanitize(s);
    let n = width(&clean);
    if n > w {
        // Cut to w - 1 columns, then the ellipsis (and a space if a wide
        // character did not fit).
        let mut t = String::new();
        let mut used = 0;
        for c in clean.chars() {
            let cw = columns(c);
            if used + cw > w.saturating_sub(1) {
                break;
            }
            used += cw;
            t.push(c);
        }
        t.push('…');
        t.push_str(&" ".repeat(w.saturating_sub(1) - used));
        t
    } else {
        format!("{clean}{}", " ".repeat(w - n))
    }
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
