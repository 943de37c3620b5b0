//! Where machine output goes: stdout, buffered for a terminal or a pipe,
//! and JSON written so no invisible character reaches a reader.

use std::io::{self, Write};

use serde_json::Value;

/// stdout for machine output: line-buffered on a terminal (each event
/// shows as it is made), block-buffered otherwise.
pub fn stdout_writer() -> Box<dyn Write> {
    use std::io::IsTerminal;
    let out = io::stdout();
    if out.is_terminal() {
        return Box::new(io::LineWriter::new(out.lock()));
    }
    match stdout_file() {
        Ok(f) => Box::new(io::BufWriter::with_capacity(64 * 1024, f)),
        Err(_) => Box::new(out.lock()),
    }
}

/// An unbuffered handle on fd 1 (a duplicate): what a relay writes whole
/// blocks to, one `write` each, and what [`stdout_writer`] buffers.
pub fn stdout_file() -> io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    Ok(std::fs::File::from(
        io::stdout().as_fd().try_clone_to_owned()?,
    ))
}

pub(crate) fn push_json(buf: &mut Vec<u8>, v: &Value) {
    if let Value::String(s) = v {
        return push_json_str(buf, s);
    }
    // Serialising a Value into a Vec cannot fail.
    let start = buf.len();
    let _ = serde_json::to_writer(&mut *buf, v);
    escape_invisible(buf, start);
}

/// [`push_json`] of a string, without making a [`Value`] of it.
pub(crate) fn push_json_str(buf: &mut Vec<u8>, s: &str) {
    // A string of printable ASCII without a quote or a backslash (a tool,
    // a file name) is itself between quotes: what serde_json writes, with nothing for
    // `escape_invisible` to do.
    if s.bytes()
        .all(|c| matches!(c, b' '..=b'~') && c != b'"' && c != b'\\')
    {
        buf.push(b'"');
        buf.extend_from_slice(s.as_bytes());
        buf.push(b'"');
        return;
    }
    // Serialising a string into a Vec cannot fail; serde_json writes a
    // `str` as it writes `Value::String`.
    let start = buf.len();
    let _ = serde_json::to_writer(&mut *buf, s);
    escape_invisible(buf, start);
}

/// Writes, from `start` on, the characters serde_json leaves raw that a
/// terminal or a reader may act on as `\u` escapes: DEL, the C1 controls
/// (U+0080-U+009F; 0x9B is an 8-bit CSI), the line and paragraph
/// separators and the bidi overrides. They can only be inside strings,
/// so the JSON means the same, and no control character reaches a
/// reader of aoi's output.
fn escape_invisible(buf: &mut Vec<u8>, start: usize) {
    let tail = buf.get(start..).unwrap_or_default();
    let invisible = |c: char| matches!(c, '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    let Ok(text) = std::str::from_utf8(tail) else {
        return;
    };
    if !text.chars().any(invisible) {
        return;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if invisible(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    buf.truncate(start);
    buf.extend_from_slice(out.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain strings take the short way; every string comes out as
    /// serde_json writes it, invisible characters escaped.
    #[test]
    fn push_json_writes_strings_as_serde_json_does() {
        for s in [
            "",
            "outline",
            "a b~",
            "q\"uote",
            "back\\slash",
            "tab\t",
            "del\u{7f}",
            "é",
            "\u{2028}",
        ] {
            let mut got = b"x".to_vec();
            push_json(&mut got, &Value::from(s));
            let mut want = b"x".to_vec();
            want.extend(serde_json::to_vec(&Value::from(s)).unwrap());
            let start = 1;
            escape_invisible(&mut want, start);
            assert_eq!(got, want, "{s:?}");
        }
    }
}
