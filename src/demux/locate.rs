//! Finding the AOI event in a log line: after a text prefix, inside a
//! Docker json-file record, without trailing CR or ANSI decoration; and
//! the lines whose event was so found, routed to their run.

use super::*;
use crate::spec::types;

/// What [`locate_spot`] found in a line: its event, or without one, what
/// it saw of the line as a Docker json-file record (so a line it has read
/// is not read again as one, [`docker::Pieces::join`]).
#[derive(Clone, Copy)]
pub(super) enum Spot {
    Found(Found),
    None(Record),
}

// Two words, as `Option<Found>`: passed along for every line, in registers.
const _: () = assert!(std::mem::size_of::<Spot>() == 16);

impl Spot {
    /// `found`, with nothing known of a record.
    pub(super) fn unknown(found: Option<Found>) -> Spot {
        found.map_or(Spot::None(Record::Unknown), Spot::Found)
    }

    /// The event found, if any.
    pub(super) fn found(self) -> Option<Found> {
        match self {
            Spot::Found(f) => Some(f),
            Spot::None(_) => None,
        }
    }
}

/// A line as a Docker json-file record, as far as [`locate`] read it:
/// the object at its first `{`, without `type`, with a `log` string.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Record {
    /// Not one (no `{`, an invalid object, a `type`, no `log`).
    No,
    /// One whose `log` ends in its line feed: a whole line, no piece.
    Whole,
    /// A piece, or not known.
    Unknown,
}

/// Where a line's event was found.
#[derive(Clone, Copy)]
pub(super) enum Found {
    /// In the line, from this offset.
    At(usize),
    /// In the scratch buffer (a Docker json-file `log` string, unwrapped);
    /// false when the string did not end with its line feed (Docker cut the
    /// line: the event is not complete, § 2).
    Unwrapped(bool),
}

/// Finds the AOI event in a log line, leaving `peeker` describing it
/// (`utf8_checked`: the line is known to be UTF-8, [`Peeker::peek_checked`]).
pub(super) fn locate(
    line: &[u8],
    peeker: &mut Peeker,
    scratch: &mut Vec<u8>,
    utf8_checked: bool,
) -> Option<Found> {
    locate_spot(line, peeker, scratch, utf8_checked).found()
}

/// [`locate`], with what it learnt of the line as a Docker record.
pub(super) fn locate_spot(
    line: &[u8],
    peeker: &mut Peeker,
    scratch: &mut Vec<u8>,
    utf8_checked: bool,
) -> Spot {
    let (start, first) = match locate_in(line, peeker, utf8_checked) {
        Ok(at) => at,
        Err(record) => return Spot::None(record),
    };
    if peeker.type_member.is_some() {
        return Spot::unknown(Some(Found::At(start)));
    }
    // A Docker json-file line: the event is the `log` string, with its \n.
    let Some((obj, log)) = line
        .get(start..)
        .and_then(|obj| Some((obj, log_member(obj, peeker)?)))
    else {
        // The object at the line's first `{` has no `log`: no record.
        return Spot::None(if first { Record::No } else { Record::Unknown });
    };
    let raw = span(obj, &log);
    let Some(body) = raw.get(1..raw.len().saturating_sub(1)) else {
        return Spot::unknown(None);
    };
    scratch.clear();
    unescape_into(body, scratch);
    let record = if first && scratch.last() == Some(&b'\n') {
        Record::Whole
    } else {
        Record::Unknown
    };
    match locate_unwrapped(scratch, peeker) {
        Some(found) => Spot::Found(found),
        None => Spot::None(record),
    }
}

/// The span of the `log` string of the object `peeker` describes, if any.
pub(super) fn log_member(obj: &[u8], peeker: &Peeker) -> Option<std::ops::Range<usize>> {
    let log = peeker.members.iter().find(|m| {
        key_is(span(obj, &m.key), m.key_escaped, "log") && matches!(m.kind, Kind::String { .. })
    })?;
    Some(log.value.clone())
}

/// The event in an unwrapped Docker line (`scratch`, its decoded `log`):
/// left alone in `scratch` and described by `peeker`; a cut line when
/// its `\n` is missing.
pub(super) fn locate_unwrapped(scratch: &mut Vec<u8>, peeker: &mut Peeker) -> Option<Found> {
    let complete = scratch.last() == Some(&b'\n');
    while matches!(scratch.last(), Some(b'\n' | b'\r')) {
        scratch.pop();
    }
    let (inner, _) = locate_in(scratch, peeker, false).ok()?;
    peeker.type_member?;
    // Usually the event starts the string: the peek's spans already
    // index the buffer.
    if inner > 0 {
        scratch.drain(..inner);
        // `drain` moved the bytes: peek again so the spans index the buffer.
        peeker.peek(scratch).ok()?;
    }
    Some(Found::Unwrapped(complete))
}

/// The offset of the first `{` (of [`MAX_TRIES`]) that starts a JSON
/// object running to the end of `line` whose `type`, if any, is a string,
/// and whether it is the line's first `{`. Without one, what the first
/// `{` showed of a Docker record: [`Record::No`] when the line has no `{`,
/// or the object there is invalid or has a `type`.
pub(super) fn locate_in(
    line: &[u8],
    peeker: &mut Peeker,
    utf8_checked: bool,
) -> Result<(usize, bool), Record> {
    let mut from = 0;
    let mut record = Record::No;
    for n in 0..MAX_TRIES {
        // A clean stream's line starts with its object: no search.
        let start = if line.get(from) == Some(&b'{') {
            from
        } else {
            let rest = line.get(from..).ok_or(record)?;
            from + memchr::memchr(b'{', rest).ok_or(record)?
        };
        let obj = line.get(start..).ok_or(record)?;
        // From a `{`, so still UTF-8 when the line is.
        let ok = peeker.peek_checked(obj, utf8_checked).is_ok();
        if ok && event_like(peeker) {
            return Ok((start, n == 0));
        }
        if n == 0 && ok && peeker.type_member.is_none() {
            record = Record::Unknown;
        }
        from = start + 1;
    }
    Err(record)
}

/// Whether what `peeker` last read can be an event of a log: an object
/// whose `type`, if any, is a string, with each reserved name once.
pub(super) fn event_like(peeker: &Peeker) -> bool {
    let typed = peeker
        .type_member
        .and_then(|i| peeker.members.get(i))
        .is_none_or(|m| matches!(m.kind, Kind::String { .. }));
    peeker.top == Some(Kind::Object) && typed && peeker.reserved_dups.is_empty()
}

/// A log line without what loggers wrap around an event: a trailing CR
/// and trailing ANSI SGR sequences (`…}\x1b[0m`).
pub(crate) fn trim_decoration(mut line: &[u8]) -> &[u8] {
    loop {
        let before = line.len();
        line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.last() == Some(&b'm') {
            // `ESC [ digits/semicolons m`
            let body = line.len() - 1;
            let params = line
                .get(..body)
                .unwrap_or_default()
                .iter()
                .rev()
                .take_while(|c| c.is_ascii_digit() || **c == b';')
                .count();
            let open = body - params;
            if open >= 2 && line.get(open - 2..open) == Some(b"\x1b[") {
                line = line.get(..open - 2).unwrap_or_default();
            }
        }
        if line.len() == before {
            return line;
        }
    }
}

impl Input {
    /// A line (trimmed of its decoration) after [`locate_spot`] looked in
    /// it: `spot` is what it found, described by `self.peeker` (and
    /// `self.scratch` for an unwrapped one); `decorated`: a decoration
    /// was trimmed off its end.
    pub(super) fn found_line<E>(
        &mut self,
        line: &[u8],
        terminated: bool,
        spot: Spot,
        decorated: bool,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let line_no = self.line_no;
        // What the command prepared holds for the event found as it is
        // only: not for a joined or relocated one, not for a long line.
        let prepared = std::mem::take(&mut self.prepared_valid) && self.long_len.is_none();
        // A Docker record without its `\n` is a piece of a split line,
        // even when the piece happens to hold an object (a cut right after
        // a nested one, or a line of exactly 16 KiB): it is joined first.
        let found = match spot {
            Spot::Found(f @ (Found::At(_) | Found::Unwrapped(true))) => {
                self.prepared_valid = prepared;
                Some(f)
            }
            // A piece of a split line: held, neither event nor prose (the
            // event is counted once, at its last piece).
            _ => match self.joined(line, spot) {
                Some(found) => found,
                None => return Ok(()),
            },
        };
        let Some(found) = found else {
            // § 2: a cut final line is the truncation of the stream that
            // was writing last (if it has not ended); its judge reports it
            // (`line.unterminated`).
            let open = self
                .last
                .and_then(|i| self.streams.get_mut(i))
                .and_then(Option::as_mut)
                .filter(|s| !s.judge.summary_seen());
            match open {
                // A long line's start stands for it: its length is counted.
                Some(stream) if !terminated => match self.long_len {
                    Some(len) => stream.judge.cut_line(len, line_no),
                    None => stream
                        .judge
                        .line_at(line, false, line_no, &mut self.peeker, Ok(())),
                },
                _ => {
                    self.counts.skipped += 1;
                    // One searcher for every skipped line (building one per
                    // call cost more than the search on short prose lines).
                    static SUSPECT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
                        std::sync::LazyLock::new(|| {
                            memchr::memmem::Finder::new(types::bytes::ERROR)
                        });
                    let suspect = match self.long_len {
                        Some(_) => self.long_suspect,
                        None => SUSPECT.find(line).is_some(),
                    };
                    if suspect {
                        self.counts.suspect += 1;
                    }
                }
            }
            return Ok(());
        };
        if decorated || !matches!(found, Found::At(0)) {
            self.counts.trimmed += 1;
        }
        let scratch = std::mem::take(&mut self.scratch);
        let (obj, terminated): (&[u8], bool) = match found {
            Found::At(start) => (line.get(start..).unwrap_or_default(), terminated),
            Found::Unwrapped(complete) => (&scratch, terminated && complete),
        };
        let r = self.route(obj, terminated, line_no, visit);
        self.scratch = scratch;
        r
    }

    /// What [`Input::found_line`] reads in `line`, a line without an
    /// event or a piece of one (`spot.found` is `None` or
    /// `Unwrapped(false)`), once Docker's split lines are joined; `None`
    /// for a piece held until its line's last.
    pub(super) fn joined(&mut self, line: &[u8], spot: Spot) -> Option<Option<Found>> {
        let found = spot.found();
        if self.long_len.is_some() {
            return Some(found);
        }
        // Most lines without an event are prose that `locate` saw is no
        // record: not read again.
        if matches!(spot, Spot::None(record) if self.docker.passes_by(record)) {
            return Some(None);
        }
        match self.docker.join(line, &mut self.peeker) {
            docker::Join::Held => None,
            docker::Join::Whole(text) => {
                self.scratch = text;
                Some(self.unwrap_joined())
            }
            docker::Join::No => Some(found.and_then(|_| self.relocate(line))),
        }
    }

    /// `line` located again (the join above read it with `self.peeker`).
    pub(super) fn relocate(&mut self, line: &[u8]) -> Option<Found> {
        locate(line, &mut self.peeker, &mut self.scratch, false)
    }

    /// At the input's end, the pieces of a split Docker line still held
    /// are that line, cut (§ 2): judged as a cut final line is.
    pub(super) fn docker_end<E>(
        &mut self,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        for mut text in self.docker.take_open() {
            while matches!(text.last(), Some(b'\n' | b'\r')) {
                text.pop();
            }
            let spot = locate_spot(&text, &mut self.peeker, &mut self.scratch, false);
            self.found_line(&text, false, spot, false, visit)?;
        }
        Ok(())
    }

    /// A joined Docker line in `self.scratch`, located as an unwrapped
    /// record's event is (see `locate`), `self.peeker` describing it.
    pub(super) fn unwrap_joined(&mut self) -> Option<Found> {
        locate_unwrapped(&mut self.scratch, &mut self.peeker)
    }
}
