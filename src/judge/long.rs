//! Lines longer than the reader holds (`crate::long`) as the judge takes
//! them: fed piece by piece, validated as they pass, and judged whole at
//! their end from their reduced copy, as a short line is.

use super::Judge;
use super::line::BOM;
use crate::peek::{self, Kind};
use crate::rules::RuleId;

impl Judge {
    /// Judges a piece of a line longer than the reader holds
    /// ([`crate::lines::Chunk::LongPart`]); `end` is true on the piece that
    /// finishes it. The line is validated as its pieces pass and judged
    /// whole at its end, as a short line is ([`crate::long`]).
    pub(crate) fn long_part(&mut self, bytes: &[u8], end: bool) {
        self.long_part_at(bytes, end, None);
    }

    /// [`Judge::long_part`] for a line at `source_line` of a demultiplexed
    /// input (see [`Judge::line_at`]).
    pub(crate) fn long_part_at(&mut self, bytes: &[u8], end: bool, source_line: Option<u64>) {
        self.long_piece = true;
        let terminated = end && bytes.last() == Some(&b'\n');
        let body = if terminated {
            bytes.get(..bytes.len() - 1).unwrap_or_default()
        } else {
            bytes
        };
        self.long.feed(body);
        if end {
            let mut long = std::mem::take(&mut self.long);
            self.long_end(long.end(), terminated, source_line);
            self.long = long;
        }
    }

    /// Judges a long line from what [`crate::long::LongLine`] found: its
    /// reduced copy is peeked and judged as the line.
    fn long_end(
        &mut self,
        r: crate::long::Reduced<'_>,
        terminated: bool,
        source_line: Option<u64>,
    ) {
        self.last_long = true;
        if !self.begin_len(r.len, terminated, source_line) {
            return;
        }
        let object = r.top == Some(Kind::Object);
        let at_bom = peek::JsonError {
            kind: peek::JsonErrorKind::Unexpected,
            offset: 0,
        };
        let result = match r.result {
            // A byte order mark before anything but an object: as the peek
            // of the whole line says, not JSON at its first byte, unless
            // the line is not UTF-8 (offsets then count the mark).
            Ok(()) if r.bom && !object => Err(at_bom),
            Err(e) if r.bom && e.kind == peek::JsonErrorKind::InvalidUtf8 => Err(peek::JsonError {
                offset: e.offset + BOM.len(),
                ..e
            }),
            Err(_) if r.bom => Err(at_bom),
            other => other,
        };
        match result {
            Ok(()) if object => {
                let again = self.peeker.peek(r.object);
                debug_assert!(again.is_ok(), "a reduced copy is JSON");
                self.peeker.lone_surrogate = r.lone_surrogate;
                if r.bom {
                    self.here(
                        RuleId::LineBom,
                        "line starts with a UTF-8 byte order mark (U+FEFF), which is not JSON"
                            .into(),
                    );
                }
                self.peeked(r.object, again);
            }
            Ok(()) => {
                let _ = self.peeker.peek(b"0");
                self.peeker.top = r.top;
                self.peeker.lone_surrogate = r.lone_surrogate;
                self.peeked_esc(r.head, Ok(()), Some((r.esc_byte, r.shape)));
            }
            Err(e) => self.peeked_esc(r.head, Err(e), Some((r.esc_byte, r.shape))),
        }
    }

    /// A cut final line of `len` bytes, judged without its bytes (a long
    /// line of a log that made no event): `line.unterminated`, § 2.
    pub(crate) fn cut_line(&mut self, len: u64, source_line: u64) {
        self.last_long = true;
        self.begin_len(len, false, Some(source_line));
    }

    /// The reduced copy of the last line when it was a long object
    /// ([`crate::long`]), which the judge read as the line.
    pub fn long_object(&self) -> &[u8] {
        self.long.object()
    }

    /// The state of the last long line (where its envelope is, for a
    /// command that writes it out from its own copy of the bytes).
    pub(crate) fn long_line(&self) -> &crate::long::LongLine {
        &self.long
    }

    /// Whether the bytes read last were a piece of a long line
    /// ([`Judge::long_part`]) rather than whole lines.
    pub(crate) fn in_long_piece(&self) -> bool {
        self.long_piece
    }

    /// Whether the last line was longer than the reader holds: then the
    /// line the judge read is its reduced copy ([`Judge::long_object`]),
    /// not its bytes.
    pub fn last_long(&self) -> bool {
        self.last_long
    }
}
