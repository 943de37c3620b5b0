//! A line before it is an event (§ 2): a byte order mark, pretty-printed
//! JSON, an ANSI escape, a blank line, text that is not JSON or not an
//! object. Each is one finding; a line that is an object goes on to the
//! event rules (`event.rs`).

use super::Judge;
use super::fields::preview;
use crate::peek::{self, Kind};
use crate::rules::RuleId;

pub(super) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether a line that is no event looks like the start of a value
/// spread over lines (pretty-printed JSON, an array of events): `[` or `{`
/// alone, or `[` opening an object (`[{"type":…`).
pub(crate) fn looks_pretty(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    matches!(t, b"[" | b"{") || (t.starts_with(b"[") && t[1..].trim_ascii_start().starts_with(b"{"))
}

/// Whether a line continues a pretty-printed value: indented, or closing
/// one (`}`, `]`, `},`).
pub(crate) fn continues_pretty(line: &[u8]) -> bool {
    matches!(line.first(), Some(b' ' | b'\t'))
        || matches!(line.trim_ascii_start().first(), Some(b'}' | b']'))
}

impl Judge {
    /// Judges a line from what the peek found.
    pub(super) fn peeked(&mut self, line: &[u8], result: Result<(), peek::JsonError>) {
        self.peeked_esc(line, result, None);
    }

    /// [`Judge::peeked`]; `long`: what is known of the whole line when
    /// `line` is only its start (a long line's): whether it holds an ESC
    /// byte, and its [`crate::long::Shape`].
    pub(super) fn peeked_esc(
        &mut self,
        line: &[u8],
        result: Result<(), peek::JsonError>,
        long: Option<(bool, crate::long::Shape)>,
    ) {
        if let Some((rest, again)) = self.bom_event(line, &result, long) {
            return self.peeked(rest, again);
        }
        if result.is_err() || self.peeker.top != Some(Kind::Object) {
            if self.pretty_lines(line, long) {
                return;
            }
        } else {
            self.in_pretty = false;
        }
        match result {
            Err(e) => self.not_json(line, e, long),
            Ok(()) => self.json_value(line),
        }
    }

    /// A UTF-8 byte order mark before an event (Windows tools, some
    /// encoders): one finding that names it, and the event judged as
    /// what it is, so nothing derived (seq, meta) is blamed.
    /// A long line was read past its mark already: its start is no
    /// event when the whole is none.
    ///
    /// Returns the event after the mark and its peek, the finding made.
    fn bom_event<'a>(
        &mut self,
        line: &'a [u8],
        result: &Result<(), peek::JsonError>,
        long: Option<(bool, crate::long::Shape)>,
    ) -> Option<(&'a [u8], Result<(), peek::JsonError>)> {
        let rest = line
            .strip_prefix(BOM)
            .filter(|_| result.is_err() && long.is_none())?;
        let again = self.peeker.peek(rest);
        if again.is_ok() && self.peeker.top == Some(Kind::Object) {
            self.here(
                RuleId::LineBom,
                "line starts with a UTF-8 byte order mark (U+FEFF), which is not JSON".into(),
            );
            return Some((rest, again));
        }
        None
    }

    /// A line that is no event, counted as unreadable: the first line of
    /// pretty-printed JSON is one finding, the lines that continue it
    /// none. True when the line is judged so.
    fn pretty_lines(&mut self, line: &[u8], long: Option<(bool, crate::long::Shape)>) -> bool {
        self.unreadable += 1;
        self.unreadable_since_seq += 1;
        let (pretty, continues) = match long {
            Some((_, shape)) => (shape.pretty, shape.continues),
            None => (looks_pretty(line), continues_pretty(line)),
        };
        if self.in_pretty && continues {
            // The rest of a pretty-printed value: its first line said so.
            self.summary_order_check(false);
            return true;
        }
        self.in_pretty = false;
        if pretty {
            self.in_pretty = true;
            self.summary_order_check(false);
            self.here(
                RuleId::LinePretty,
                format!(
                    "this looks like a JSON array or pretty-printed JSON (a value spread over lines): {}; the lines that follow it are not reported again",
                    preview(line)
                ),
            );
            return true;
        }
        false
    }

    /// A line that is not JSON (§ 2): an ANSI escape, blank, invalid
    /// UTF-8, or other text, each its own rule.
    fn not_json(
        &mut self,
        line: &[u8],
        e: peek::JsonError,
        long: Option<(bool, crate::long::Shape)>,
    ) {
        let esc = long.map_or_else(|| memchr::memchr(0x1b, line).is_some(), |l| l.0);
        let (rule, msg) = if esc {
            (
                RuleId::LineAnsi,
                "line contains an ANSI escape (ESC byte)".to_string(),
            )
        } else {
            match e.kind {
                peek::JsonErrorKind::Empty => (RuleId::LineBlank, "blank line".to_string()),
                peek::JsonErrorKind::InvalidUtf8 => (
                    RuleId::LineInvalidUtf8,
                    format!("invalid UTF-8 at byte {}", e.offset + 1),
                ),
                k => {
                    let what = if line.starts_with(BOM) {
                        "line starts with a UTF-8 byte order mark".to_string()
                    } else if matches!(line.first(), Some(b'{' | b'[' | b' ' | b'\t')) {
                        format!("{} at byte {}", k.describe(), e.offset + 1)
                    } else {
                        format!(
                            "not JSON ({} at byte {}): {}",
                            k.describe(),
                            e.offset + 1,
                            preview(line)
                        )
                    };
                    (RuleId::LineNotJson, what)
                }
            }
        };
        self.summary_order_check(false);
        self.here(rule, msg);
    }

    /// A line that is JSON: an event when it is an object (§ 2).
    fn json_value(&mut self, line: &[u8]) {
        if self.peeker.lone_surrogate {
            self.here(
                RuleId::LineLoneSurrogate,
                "a \\u escape of a lone UTF-16 surrogate (valid JSON; jq and serde_json reject it)"
                    .to_string(),
            );
        }
        if self.peeker.top != Some(Kind::Object) {
            let name = self.peeker.top.map_or("value", Kind::name);
            self.summary_order_check(false);
            self.here(
                RuleId::LineNotObject,
                format!("line is a JSON {name}, not an object"),
            );
            return;
        }
        let members = std::mem::take(&mut self.peeker.members);
        self.event(line, &members);
        self.peeker.members = members;
    }
}
