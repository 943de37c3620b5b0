//! jq's styles of a JSON text: indented (`--indent N`, `--tab`),
//! coloured (`-C`, or on a terminal without `-M` and `NO_COLOR`), ASCII
//! only (`-a`). Applied to the compact text `jq::write_json` wrote, in
//! one pass over its tokens: that text is strict JSON, so every byte
//! past ASCII is inside a string and every structural byte outside one.

use std::io::IsTerminal;

use crate::cli::FilterArgs;

/// jq 1.7's default colours: null, false, true, numbers, strings,
/// arrays, objects, object keys.
const NULL: &str = "1;30";
const SCALAR: &str = "0;39";
const STRING: &str = "0;32";
const CONTAINER: &str = "1;39";
const KEY: &str = "34;1";

#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Indentation per level: `None` compact, `Some(0)` a tab, else spaces.
    indent: Option<u8>,
    tab: bool,
    color: bool,
    ascii: bool,
}

impl Style {
    pub fn of(args: &FilterArgs) -> Self {
        let terminal = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            indent: args.indent.filter(|n| *n > 0),
            tab: args.tab,
            color: args.color_output || (terminal && !no_color && !args.monochrome_output),
            ascii: args.ascii_output,
        }
    }

    /// Whether the compact text is printed as it is.
    pub fn is_plain(self) -> bool {
        self.indent.is_none() && !self.tab && !self.color && !self.ascii
    }

    /// A raw string's text (`-r`): only `-a` changes it.
    pub fn text(self, out: &mut Vec<u8>, s: &[u8]) {
        if self.ascii {
            ascii(out, s);
        } else {
            out.extend_from_slice(s);
        }
    }

    /// The compact JSON `text`, styled.
    pub fn json(self, out: &mut Vec<u8>, text: &[u8]) {
        let mut depth = 0usize;
        let mut i = 0;
        while let Some(&c) = text.get(i) {
            match c {
                b'"' => {
                    let end = string_end(text, i);
                    let s = text.get(i..end).unwrap_or_default();
                    let key = text.get(end) == Some(&b':');
                    self.paint(out, if key { KEY } else { STRING }, |out| {
                        if self.ascii {
                            ascii(out, s)
                        } else {
                            out.extend_from_slice(s)
                        }
                    });
                    i = end;
                    continue;
                }
                b'[' | b'{' => {
                    let empty = matches!(text.get(i + 1), Some(b']' | b'}'));
                    self.paint(out, CONTAINER, |out| out.push(c));
                    if empty {
                        self.paint(out, CONTAINER, |out| out.push(text[i + 1]));
                        i += 2;
                        continue;
                    }
                    depth += 1;
                    self.newline(out, depth);
                }
                b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    self.newline(out, depth);
                    self.paint(out, CONTAINER, |out| out.push(c));
                }
                b',' => {
                    self.paint(out, CONTAINER, |out| out.push(c));
                    self.newline(out, depth);
                }
                b':' => {
                    self.paint(out, CONTAINER, |out| out.push(c));
                    if self.indent.is_some() || self.tab {
                        out.push(b' ');
                    }
                }
                _ => {
                    let end = text
                        .get(i..)
                        .and_then(|r| r.iter().position(|b| b",]}:".contains(b)))
                        .map_or(text.len(), |n| i + n);
                    let scalar = text.get(i..end).unwrap_or_default();
                    let colour = if scalar == b"null" { NULL } else { SCALAR };
                    self.paint(out, colour, |out| out.extend_from_slice(scalar));
                    i = end;
                    continue;
                }
            }
            i += 1;
        }
    }

    fn newline(self, out: &mut Vec<u8>, depth: usize) {
        if self.tab {
            out.push(b'\n');
            out.extend(std::iter::repeat_n(b'\t', depth));
        } else if let Some(n) = self.indent {
            out.push(b'\n');
            out.extend(std::iter::repeat_n(b' ', depth * usize::from(n)));
        }
    }

    fn paint(self, out: &mut Vec<u8>, colour: &str, write: impl FnOnce(&mut Vec<u8>)) {
        if self.color {
            out.extend_from_slice(b"\x1b[");
            out.extend_from_slice(colour.as_bytes());
            out.push(b'm');
            write(out);
            out.extend_from_slice(b"\x1b[0m");
        } else {
            write(out);
        }
    }
}

/// Where the string starting at `start` (its opening quote) ends: past
/// its closing quote.
fn string_end(text: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&c) = text.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    text.len()
}

/// `s` with every character past ASCII as `\uXXXX` (a pair of them past
/// the BMP), as jq -a writes it.
fn ascii(out: &mut Vec<u8>, s: &[u8]) {
    for chunk in s.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if ch.is_ascii() {
                out.push(ch as u8);
            } else {
                let mut units = [0u16; 2];
                for u in ch.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{u:04x}").as_bytes());
                }
            }
        }
        if !chunk.invalid().is_empty() {
            out.extend_from_slice(b"\\ufffd");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Style;

    fn styled(style: Style, text: &str) -> String {
        let mut out = Vec::new();
        style.json(&mut out, text.as_bytes());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn indents_as_jq() {
        let two = Style {
            indent: Some(2),
            ..Style::default()
        };
        assert_eq!(
            styled(two, r#"{"a":[1,{"b":"x,]"}],"c":{},"d":[]}"#),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x,]\"\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}"
        );
        let tab = Style {
            tab: true,
            ..Style::default()
        };
        assert_eq!(styled(tab, "[1]"), "[\n\t1\n]");
    }

    #[test]
    fn ascii_and_colour() {
        let a = Style {
            ascii: true,
            ..Style::default()
        };
        assert_eq!(styled(a, r#"["é😀"]"#), r#"["\u00e9\ud83d\ude00"]"#);
        let c = Style {
            color: true,
            ..Style::default()
        };
        assert_eq!(styled(c, "null"), "\x1b[1;30mnull\x1b[0m");
    }
}
