//! Docker's json-file log driver writes at most 16 KiB of a line per
//! record and splits a longer line into partial records, each a
//! `{"log":"…","stream":"stdout","time":"…"}` whose `log` does not end in
//! `\n`; the last piece does. An AOI event over 16 KiB logged through
//! Docker is such a run of records: joined here, per `stream`, in order,
//! it is located as one line's event is. A partial record alone is no
//! event and no prose: it is held, not skipped.

use super::Record;
use crate::peek::{Kind, Peeker, key_is, span, unescape_into};

/// The most a joined line may hold; past it the pieces are dropped (and
/// counted as skipped lines) rather than held without bound.
const JOIN_MAX: usize = 64 << 20;

/// What a line did to the pieces held.
pub(super) enum Join {
    /// A partial record: its text is held until the last piece.
    Held,
    /// The last piece of a split line: the whole line's text.
    Whole(Vec<u8>),
    /// No Docker record, a whole one, or pieces dropped.
    No,
}

/// The pieces held so far, by the record's `stream`.
#[derive(Default)]
pub(super) struct Pieces {
    open: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Pieces {
    /// Reads `line` as a Docker record (with `peeker`, which it leaves
    /// describing the record) and joins it with the pieces held.
    pub(super) fn join(&mut self, line: &[u8], peeker: &mut Peeker) -> Join {
        let Some((stream, text)) = record(line, peeker) else {
            return Join::No;
        };
        let held = self.open.iter().position(|(s, _)| *s == stream);
        let last = text.last() == Some(&b'\n');
        match (held, last) {
            (None, true) => Join::No,
            (None, false) => {
                self.open.push((stream, text));
                Join::Held
            }
            (Some(i), _) => {
                let Some((_, pieces)) = self.open.get_mut(i) else {
                    return Join::No;
                };
                if pieces.len() + text.len() > JOIN_MAX {
                    self.open.swap_remove(i);
                    return Join::No;
                }
                pieces.extend_from_slice(&text);
                if !last {
                    return Join::Held;
                }
                let (_, whole) = self.open.swap_remove(i);
                Join::Whole(whole)
            }
        }
    }
}

impl Pieces {
    /// Whether [`Pieces::join`] would pass by (`Join::No`) a line that
    /// `locate` read as `record`, without reading it again: no record,
    /// or a whole one while no piece is held.
    pub(super) fn passes_by(&self, record: Record) -> bool {
        match record {
            Record::No => true,
            Record::Whole => self.open.is_empty(),
            Record::Unknown => false,
        }
    }

    /// The texts still held (the input ended), oldest stream first.
    pub(super) fn take_open(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.open)
            .into_iter()
            .map(|(_, text)| text)
            .collect()
    }
}

/// A Docker json-file record's `stream` (as written) and its decoded
/// `log` text; `None` for anything else, an event included.
fn record(line: &[u8], peeker: &mut Peeker) -> Option<(Vec<u8>, Vec<u8>)> {
    let start = memchr::memchr(b'{', line)?;
    let obj = line.get(start..)?;
    if peeker.peek(obj).is_err() || peeker.top != Some(Kind::Object) {
        return None;
    }
    if peeker.type_member.is_some() {
        return None;
    }
    let member = |name: &str| {
        peeker.members.iter().find(|m| {
            key_is(span(obj, &m.key), m.key_escaped, name) && matches!(m.kind, Kind::String { .. })
        })
    };
    let log = member("log")?;
    let raw = span(obj, &log.value);
    let mut text = Vec::new();
    unescape_into(raw.get(1..raw.len().saturating_sub(1))?, &mut text);
    let stream = member("stream")
        .map(|m| span(obj, &m.value).to_vec())
        .unwrap_or_default();
    Some((stream, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(log: &str, stream: &str) -> Vec<u8> {
        serde_json::json!({"log": log, "stream": stream, "time": "2026-12-05T00:00:00Z"})
            .to_string()
            .into_bytes()
    }

    #[test]
    fn pieces_join_per_stream() {
        let mut p = Pieces::default();
        let mut peeker = Peeker::new();
        assert!(matches!(
            p.join(&rec("{\"type\":", "stdout"), &mut peeker),
            Join::Held
        ));
        assert!(matches!(
            p.join(&rec("noise\n", "stderr"), &mut peeker),
            Join::No
        ));
        assert!(matches!(
            p.join(&rec("\"x\",", "stdout"), &mut peeker),
            Join::Held
        ));
        match p.join(&rec("\"n\":1}\n", "stdout"), &mut peeker) {
            Join::Whole(t) => assert_eq!(t, b"{\"type\":\"x\",\"n\":1}\n"),
            _ => panic!("the last piece ends the line"),
        }
        assert!(matches!(p.join(b"prose", &mut peeker), Join::No));
    }
}
