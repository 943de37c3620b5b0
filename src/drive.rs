//! Reading a stream through a judge: the loop every stream command
//! shares, on the caller's thread or on two (the binary's `Source`). It sits above
//! the judge and the reader (and `crate::parallel`'s pipeline), so none of
//! them knows the others: the judge takes lines, the reader yields them,
//! and this is where the two meet.

use std::io::Read;

use crate::judge::Judge;
use crate::lines::LineReader;
use crate::parallel::{Driven, Piece, Prep, Step};
use crate::peek::{JsonError, Peeker};

/// Reads `src` to its end through `judge`, the loop every stream command
/// shares. `on_line` runs after each complete line has been judged (so it
/// can ask [`Judge::last_class`]); for a line
/// longer than the reader holds it is given the reduced copy the judge
/// read ([`Judge::last_long`]), after `on_bytes` had its last piece; `on_bytes`
/// then receives the input bytes in order and in large spans (whole blocks
/// of lines, pieces of an over-long line), which is what a relay writes and
/// the moment to drain findings. A read error ends the stream as incomplete
/// (`input.io-error`); only the callbacks' errors are returned.
pub fn drive<R: Read, E>(
    src: R,
    judge: &mut Judge,
    on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let reader = LineReader::new(src, crate::lines::hold());
    drive_reader(reader, judge, on_line, on_bytes)
}

/// [`drive`] on a configured reader (an idle timeout, for instance: its
/// `TimedOut` ends the stream with the `timeout` outcome).
pub(crate) fn drive_reader<R: Read, E>(
    mut reader: LineReader<R>,
    judge: &mut Judge,
    mut on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    mut on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    drive_until(&mut reader, judge, None, &mut on_line, &mut on_bytes).map(|_| ())
}

/// [`drive_reader`] until the input ends, or, with `later`, until it says
/// to go on two threads: then true, with the reader at a line boundary.
fn drive_until<R: Read, E>(
    reader: &mut LineReader<R>,
    judge: &mut Judge,
    later: Option<crate::parallel::Later>,
    on_line: &mut impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    on_bytes: &mut impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<bool, E> {
    crate::parallel::read_here(reader, later, |step| match step {
        Step::Line(line, terminated, utf8_checked) => {
            judge.line_checked(line, terminated, utf8_checked);
            on_line(judge, line)
        }
        Step::Block(block) => on_bytes(judge, block),
        Step::Long(bytes, end) => long_part(judge, bytes, end, on_line, on_bytes),
        Step::Failed(e) => {
            read_failed(judge, &e);
            Ok(())
        }
    })
}

/// A piece of a long line: judged, given to `on_bytes`, and on its last,
/// the reduced copy the judge read given to `on_line`.
fn long_part<E>(
    judge: &mut Judge,
    bytes: &[u8],
    end: bool,
    on_line: &mut impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    on_bytes: &mut impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    judge.long_part(bytes, end);
    on_bytes(judge, bytes)?;
    if end {
        on_line(judge, judge.long_object())?;
    }
    Ok(())
}

/// Ends a stream whose read failed: a timeout (`--idle-timeout`) or an I/O
/// error. A stop request (SIGINT/SIGTERM) is not an I/O error of the
/// stream: the caller ends the run as cancelled.
pub(crate) fn read_failed(judge: &mut Judge, e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::TimedOut {
        judge.idle_timeout(e.to_string());
    } else if crate::cancel::requested().is_none() {
        judge.io_error(e.to_string());
    }
}

/// Where a stream's bytes come from, and on how many threads they are read
/// (`crate::parallel`): the binary's commands build it from their options.
pub(crate) struct Source<R> {
    /// The stream's line reader.
    pub(crate) reader: LineReader<R>,
    /// One thread, two, or two once the stream proves large.
    pub(crate) threads: crate::parallel::Threads,
}

impl<R> Source<R> {
    /// A source read on the caller's thread.
    pub(crate) fn one(reader: LineReader<R>) -> Self {
        Source {
            reader,
            threads: crate::parallel::Threads::One,
        }
    }
}

/// [`drive_reader`] on a [`Source`], on as many threads as it says; the
/// judge, the findings and the bytes given to `on_bytes` are the same
/// either way.
pub(crate) fn drive_source<R: Read + Send, E>(
    src: Source<R>,
    judge: &mut Judge,
    mut on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    mut on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    use crate::parallel::{Later, Threads};
    let Source {
        mut reader,
        threads,
    } = src;
    let whole_blocks = match threads {
        Threads::One => return drive_reader(reader, judge, on_line, on_bytes),
        Threads::Two { whole_blocks } => whole_blocks,
        Threads::Later => {
            let later = Some(Later::default());
            if !drive_until(&mut reader, judge, later, &mut on_line, &mut on_bytes)? {
                return Ok(());
            }
            false
        }
    };
    drive_judged(reader, whole_blocks, judge, on_line, on_bytes)
}

/// The peek of every line the judge peeks: the work [`drive_judged`] moves
/// to the worker for the commands that judge one stream. With `--schema`,
/// also whether the event is valid against it, the validation's common
/// answer (an event stream is almost all valid events), so the two threads
/// share the validation as they share the peek; a "no" is left to the
/// judge, which asks again in order, so the findings are its own.
struct PeekLines {
    #[cfg(feature = "schema")]
    schema: Option<std::sync::Arc<crate::validator::EventSchema>>,
}

impl PeekLines {
    fn new(_judge: &Judge) -> Self {
        PeekLines {
            #[cfg(feature = "schema")]
            schema: _judge.schema(),
        }
    }

    /// Whether the event on `line`, peeked as one JSON object, is valid
    /// against `--schema` (false without one: the judge has nothing to ask).
    #[inline]
    fn schema_valid(&self, _line: &[u8]) -> bool {
        #[cfg(feature = "schema")]
        if let Some(s) = &self.schema {
            return s.line_valid(_line);
        }
        false
    }
}

/// A line's peek: the peeker that holds it, and what [`Peeker::peek`]
/// returned. Boxed, so the judge can take it by a swap. `schema_valid`:
/// the event is valid against `--schema` ([`PeekLines::schema_valid`]).
pub(crate) struct Peeked {
    peeker: Box<Peeker>,
    result: Result<(), JsonError>,
    schema_valid: bool,
}

impl Default for Peeked {
    fn default() -> Self {
        Peeked {
            peeker: Box::new(Peeker::new()),
            result: Ok(()),
            schema_valid: false,
        }
    }
}

impl Prep for PeekLines {
    type Slot = Peeked;

    /// Whether the judge peeks this line (see `Judge::begin_line`).
    #[inline(always)]
    fn wants(&self, _line: &[u8], terminated: bool) -> bool {
        terminated
    }

    fn prep(&self, slot: &mut Peeked, line: &[u8], utf8_checked: bool) {
        slot.result = slot.peeker.peek_checked(line, utf8_checked);
        // Only a line the peek proved JSON is judged as an event, whole:
        // the very bytes the judge would validate.
        slot.schema_valid = slot.result.is_ok() && self.schema_valid(line);
    }

    fn trim(slot: &mut Peeked) {
        slot.peeker.trim();
    }

    fn wants_trim(slot: &Peeked) -> bool {
        slot.peeker.wants_trim()
    }

    #[inline(always)]
    fn prefetch(slot: &Peeked, near: bool) {
        slot.peeker.prefetch(near);
    }
}

/// [`drive_reader`] on two threads: the same calls of
/// `on_line` and `on_bytes` after the same judge calls, with `on_bytes`
/// given whole blocks of lines (`whole_blocks`: lines wait for a whole
/// block, else go on as each read brings them).
fn drive_judged<R: Read + Send, E>(
    reader: LineReader<R>,
    whole_blocks: bool,
    judge: &mut Judge,
    mut on_line: impl FnMut(&Judge, &[u8]) -> Result<(), E>,
    mut on_bytes: impl FnMut(&mut Judge, &[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let prep = PeekLines::new(judge);
    let driven = crate::parallel::drive(reader, whole_blocks, &prep, |piece| match piece {
        Piece::Lines(mut lines) => {
            lines.each(&prep, |line, terminated, slot, utf8_checked| {
                match slot {
                    Some(p) => {
                        judge.line_prepeeked(line, &mut p.peeker, p.result, p.schema_valid);
                        on_line(judge, line)?;
                        // The peeker goes back to its slot: boxes stay
                        // with their batch, where they are trimmed.
                        judge.swap_peeker(&mut p.peeker);
                    }
                    None => {
                        judge.line_checked(line, terminated, utf8_checked);
                        on_line(judge, line)?;
                    }
                }
                Ok(())
            })?;
            on_bytes(judge, lines.bytes())
        }
        Piece::Long(bytes, end) => long_part(judge, bytes, end, &mut on_line, &mut on_bytes),
        Piece::Failed(e) => {
            read_failed(judge, &e);
            Ok(())
        }
    });
    match driven {
        Driven::Done(r) => r,
        Driven::NotStarted(reader) => drive_reader(reader, judge, on_line, on_bytes),
    }
}
