//! Lines longer than the reader holds, in a log: read in pieces from each
//! of their first few `{` at once, the first that makes an event winning,
//! and the pieces scanned for an `aoi:error` that could not be read.

use super::*;
use crate::spec::types;

impl Input {
    /// A piece of a line longer than the reader holds (see
    /// [`Chunk::LongPart`]); on its last piece the line is judged and its
    /// event visited, as a short line's is.
    pub(super) fn long_piece<E>(
        &mut self,
        bytes: &[u8],
        end: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if end {
            self.line_no += 1;
        }
        visit(Visit::LongPiece {
            bytes,
            first: !self.long_piece_seen,
        })?;
        self.long_piece_seen = !end;
        if self.opts.log {
            return self.log_long_piece(bytes, end, visit);
        }
        let i = self.only_stream();
        let Some(stream) = self.streams.get_mut(i).and_then(Option::as_mut) else {
            return Ok(());
        };
        stream.judge.long_part_at(bytes, end, Some(self.line_no));
        if !end || stream.judge.last_class() == LineClass::Invalid {
            return Ok(());
        }
        let mut obj = std::mem::take(&mut self.long_obj);
        obj.clear();
        obj.extend_from_slice(stream.judge.long_object());
        let long = stream.judge.long_line();
        let event = LongEvent {
            span: long.value_span(),
            envelope: long.envelope_cut(),
        };
        let r = match self.peeker.peek(&obj) {
            Ok(()) => self.strict_visit(i, &obj, true, self.line_no, Some(event), visit),
            Err(_) => Ok(()),
        };
        self.long_obj = obj;
        r
    }

    /// [`Input::long_piece`] with `--log`: the line is read from each of
    /// its first [`MAX_TRIES`] `{` at once (a prefix before the event is
    /// not known until the line ends); the first that makes an event
    /// (ignoring a trailing CR or colour code) is routed as a short line's.
    pub(super) fn log_long_piece<E>(
        &mut self,
        bytes: &[u8],
        end: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let terminated = end && bytes.last() == Some(&b'\n');
        let body = if terminated {
            bytes.get(..bytes.len() - 1).unwrap_or_default()
        } else {
            bytes
        };
        if !self.long_open {
            self.long_open = true;
            self.long_head.clear();
            self.long_seen = 0;
            self.long.clear();
            self.long_suspect = false;
            self.long_edge.clear();
        } else {
            for (_, long) in self.long.iter_mut().filter(|(_, l)| !l.failed()) {
                long.feed(body);
            }
        }
        // The line's first `{` are tried, wherever they are (a prefix may
        // be longer than a piece), as a short line's are.
        let room = MAX_TRIES - self.long.len().min(MAX_TRIES);
        for start in memchr::memchr_iter(b'{', body).take(room) {
            let mut long = LongLine::new();
            long.feed(body.get(start..).unwrap_or_default());
            self.long.push((self.long_seen + start as u64, long));
        }
        self.suspect_scan(body);
        self.long_seen += body.len() as u64;
        let room = 4096usize
            .saturating_sub(self.long_head.len())
            .min(body.len());
        self.long_head
            .extend_from_slice(body.get(..room).unwrap_or_default());
        if !end {
            return Ok(());
        }
        self.long_open = false;
        let mut longs = std::mem::take(&mut self.long);
        let mut obj = std::mem::take(&mut self.long_obj);
        let mut found: Option<(bool, LongEvent, u64)> = None;
        for (at, long) in longs.iter_mut() {
            let r = long.end();
            let (decorated, lone) = (r.decorated, r.lone_surrogate);
            let decoration = r
                .result
                .is_err_and(|e| e.kind == crate::peek::JsonErrorKind::TrailingContent && decorated);
            if found.is_some() || r.top != Some(Kind::Object) || !(r.result.is_ok() || decoration) {
                continue;
            }
            obj.clear();
            obj.extend_from_slice(r.object);
            if self.peeker.peek(&obj).is_ok() && event_like(&self.peeker) {
                // The whole line's, not its copy's (a stand-in may hold
                // none of it).
                self.peeker.lone_surrogate = lone;
                let shift = |r: std::ops::Range<u64>| r.start + *at..r.end + *at;
                let event = LongEvent {
                    span: shift(long.value_span()),
                    envelope: long.envelope_cut().map(shift),
                };
                found = Some((*at > 0 || decorated, event, *at));
            }
        }
        self.long = longs;
        let head = std::mem::take(&mut self.long_head);
        let r = match found {
            Some((decorated, event, at)) => {
                self.long_event = Some(event);
                self.long_len = Some(self.long_seen - at);
                let at = Spot::unknown(Some(Found::At(0)));
                let r = self.found_line(&obj, terminated, at, decorated, visit);
                self.long_event = None;
                self.long_len = None;
                r
            }
            None => {
                self.long_len = Some(self.long_seen);
                let r = self.found_line(&head, terminated, Spot::unknown(None), false, visit);
                self.long_len = None;
                r
            }
        };
        self.long_head = head;
        self.long_obj = obj;
        r
    }

    /// Looks for `aoi:error` in a piece of a long line, across the
    /// boundary with the previous one.
    pub(super) fn suspect_scan(&mut self, body: &[u8]) {
        const NEEDLE: &[u8] = types::bytes::ERROR;
        if self.long_suspect {
            return;
        }
        let keep = NEEDLE.len() - 1;
        self.long_edge
            .extend_from_slice(body.get(..keep.min(body.len())).unwrap_or_default());
        self.long_suspect = memchr::memmem::find(&self.long_edge, NEEDLE).is_some()
            || memchr::memmem::find(body, NEEDLE).is_some();
        let edge = body
            .get(body.len().saturating_sub(keep)..)
            .unwrap_or_default();
        if body.len() >= keep {
            self.long_edge.clear();
        } else {
            let extra = self.long_edge.len().saturating_sub(keep);
            self.long_edge.drain(..extra);
            return;
        }
        self.long_edge.extend_from_slice(edge);
    }
}
