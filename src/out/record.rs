//! The one seam for what a command writes of an input: an [`Output`] is
//! written live (stdout, aoi's report, stderr), or recorded by a worker
//! ([`Record`]) within the room it may keep and replayed later into the
//! live output, in input order. A command's engine writes to either alike,
//! so what comes out of many files read at once is one thread's, byte for
//! byte.

use std::io;

use super::Stop;

/// Where a command's engine writes what it makes of one input.
pub(crate) trait Output<T> {
    /// Why a write failed (a closed pipe, a record past its room).
    type Error;
    /// Bytes of the command's text output (the relay, a plane, rows).
    fn text(&mut self, bytes: &[u8]) -> Result<(), Self::Error>;
    /// The end of a block read: what was written goes out now (a live
    /// stream's reader is not kept waiting, and a closed pipe is found).
    fn flush(&mut self) -> Result<(), Self::Error>;
    /// Something of the command's own: a finding, a run that ended, an
    /// event for aoi's report, a line for stderr.
    fn put(&mut self, item: T) -> Result<(), Self::Error>;
    /// Something of the command's own that comes with bytes of its own (an
    /// event's type and members, what a filter wrote to stderr): a record
    /// keeps the bytes one after another in its text, not in an allocation
    /// per item, and gives each item back with its own. Unless an output
    /// says otherwise, they are text written before the item.
    fn put_with(&mut self, item: T, bytes: &[u8]) -> Result<(), Self::Error> {
        self.text(bytes)?;
        self.put(item)
    }
}

/// A borrowed output is written as the output itself.
impl<T, O: Output<T> + ?Sized> Output<T> for &mut O {
    type Error = O::Error;
    fn text(&mut self, bytes: &[u8]) -> Result<(), O::Error> {
        (**self).text(bytes)
    }
    fn flush(&mut self) -> Result<(), O::Error> {
        (**self).flush()
    }
    fn put(&mut self, item: T) -> Result<(), O::Error> {
        (**self).put(item)
    }
    fn put_with(&mut self, item: T, bytes: &[u8]) -> Result<(), O::Error> {
        (**self).put_with(item, bytes)
    }
}

/// An [`Output`] whose errors are I/O errors, its text written as an
/// `io::Write` is (for what writes to a writer: a spooled long line).
pub(crate) struct Io<'o, O: ?Sized, T> {
    out: &'o mut O,
    item: std::marker::PhantomData<fn(T)>,
}

impl<'o, T, O: Output<T> + ?Sized> Io<'o, O, T>
where
    O::Error: Into<io::Error>,
{
    pub(crate) fn new(out: &'o mut O) -> Self {
        Io {
            out,
            item: std::marker::PhantomData,
        }
    }

    /// [`Output::put`], its error an I/O error.
    pub(crate) fn put(&mut self, item: T) -> io::Result<()> {
        self.out.put(item).map_err(Into::into)
    }
}

impl<T, O: Output<T> + ?Sized> io::Write for Io<'_, O, T>
where
    O::Error: Into<io::Error>,
{
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.out.text(bytes).map_err(Into::into)?;
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush().map_err(Into::into)
    }
}

/// An [`Output`] of items and block ends only, each given to a taker
/// (`None`: a block end, the moment to flush), as a command that writes
/// no text of its own takes them; it fails once the taker says stop
/// (false).
pub(crate) struct Taking<F>(pub(crate) F);

impl<T, F: FnMut(Option<T>) -> bool> Output<T> for Taking<F> {
    type Error = Halt;
    fn text(&mut self, _: &[u8]) -> Result<(), Halt> {
        Ok(())
    }
    fn flush(&mut self) -> Result<(), Halt> {
        (self.0)(None).then_some(()).ok_or(Halt)
    }
    fn put(&mut self, item: T) -> Result<(), Halt> {
        (self.0)(Some(item)).then_some(()).ok_or(Halt)
    }
}

/// `out` as a taker of items and block ends (`None`), the reverse of
/// [`Taking`], for an engine that gives them to a callback; false once a
/// write failed.
pub(crate) fn taker<T, O: Output<T> + ?Sized>(out: &mut O) -> impl FnMut(Option<T>) -> bool {
    move |item| match item {
        Some(item) => out.put(item).is_ok(),
        None => out.flush().is_ok(),
    }
}

/// The taker said stop: nothing more is to be read.
#[derive(Debug)]
pub(crate) struct Halt;

/// A record past its room is read again in its turn: to a worker, a halt.
impl From<Full> for Halt {
    fn from(_: Full) -> Self {
        Halt
    }
}

/// What an item of a [`Record`] counts, in bytes, against its room.
pub(crate) trait Weighed {
    fn weight(&self) -> usize;
}

/// A run that ended while a log was read, kept for its verdict.
impl Weighed for crate::demux::Judged {
    fn weight(&self) -> usize {
        2048
    }
}

/// A finding kept for aoi's report and stderr.
impl Weighed for crate::judge::Finding {
    fn weight(&self) -> usize {
        256
    }
}

/// A record past its room: the input is read again in its turn.
#[derive(Debug)]
pub(crate) struct Full;

impl From<Full> for io::Error {
    fn from(_: Full) -> Self {
        io::Error::other("more than a worker keeps")
    }
}

impl From<Full> for Stop {
    fn from(full: Full) -> Self {
        Stop::Failed(full.into())
    }
}

/// One thing written, in order.
enum Mark<T> {
    /// Text up to this offset of the record's text.
    Text(usize),
    Flush,
    Put(T),
    /// An item with its bytes, up to this offset of the record's text.
    With(T, usize),
}

/// What a worker's engine wrote of one input, kept in memory in at most
/// `room` bytes (past it, every write fails with [`Full`]).
pub(crate) struct Record<T> {
    text: Vec<u8>,
    marks: Vec<Mark<T>>,
    held: usize,
    room: usize,
    /// Text written in one piece is replayed in one piece (a buffered
    /// writer then fills, and goes out, where it did on one thread).
    pieces: bool,
}

impl<T> Record<T> {
    pub(crate) fn new(room: usize) -> Self {
        Record {
            text: Vec::new(),
            marks: Vec::new(),
            held: 0,
            room,
            pieces: false,
        }
    }

    /// An empty record whose text is made for about `bytes` at once (a
    /// chunk's results, which grow it byte by byte).
    pub(crate) fn sized(room: usize, bytes: usize) -> Self {
        Record {
            text: Vec::with_capacity(bytes),
            ..Record::new(room)
        }
    }

    /// A record that replays text as it was written, piece by piece, for
    /// an output that is never flushed by block (`--raw`).
    pub(crate) fn in_pieces(room: usize) -> Self {
        Record {
            pieces: true,
            ..Record::new(room)
        }
    }

    /// Counts `bytes` more against the room; fails past it.
    pub(crate) fn hold(&mut self, bytes: usize) -> Result<(), Full> {
        self.held = self.held.saturating_add(bytes);
        match self.held > self.room {
            true => Err(Full),
            false => Ok(()),
        }
    }

    /// The bytes it keeps (as counted).
    pub(crate) fn held(&self) -> usize {
        self.held
    }

    /// Keeps `item`, counted as `bytes`.
    pub(crate) fn keep(&mut self, item: T, bytes: usize) -> Result<(), Full> {
        self.hold(bytes)?;
        self.marks.push(Mark::Put(item));
        Ok(())
    }

    /// Writes what was recorded to `out`, in the order it came: what the
    /// one thread would have written.
    pub(crate) fn replay<O: Output<T> + ?Sized>(self, out: &mut O) -> Result<(), O::Error> {
        let mut at = 0;
        for mark in self.marks {
            match mark {
                Mark::Text(end) => {
                    out.text(self.text.get(at..end).unwrap_or_default())?;
                    at = end;
                }
                Mark::Flush => out.flush()?,
                Mark::Put(item) => out.put(item)?,
                Mark::With(item, end) => {
                    out.put_with(item, self.text.get(at..end).unwrap_or_default())?;
                    at = end;
                }
            }
        }
        Ok(())
    }
}

impl<T: Weighed> Output<T> for Record<T> {
    type Error = Full;

    fn text(&mut self, bytes: &[u8]) -> Result<(), Full> {
        self.hold(bytes.len())?;
        self.text.extend_from_slice(bytes);
        match self.marks.last_mut() {
            Some(Mark::Text(end)) if !self.pieces => *end = self.text.len(),
            _ => {
                if self.pieces {
                    self.hold(std::mem::size_of::<Mark<T>>())?;
                }
                self.marks.push(Mark::Text(self.text.len()));
            }
        }
        Ok(())
    }

    /// Kept even when nothing was written yet: what came before it (an
    /// earlier file's last lines, aoi:meta) goes out there. A block end
    /// right after another flushes nothing more.
    fn flush(&mut self) -> Result<(), Full> {
        if !matches!(self.marks.last(), Some(Mark::Flush)) {
            self.marks.push(Mark::Flush);
        }
        Ok(())
    }

    fn put(&mut self, item: T) -> Result<(), Full> {
        let n = item.weight();
        self.keep(item, n)
    }

    fn put_with(&mut self, item: T, bytes: &[u8]) -> Result<(), Full> {
        self.hold(item.weight().saturating_add(bytes.len()))?;
        self.text.extend_from_slice(bytes);
        self.marks.push(Mark::With(item, self.text.len()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Weighed for u32 {
        fn weight(&self) -> usize {
            100
        }
    }

    /// What a live output was asked to do, as text.
    #[derive(Default)]
    struct Seen(Vec<String>);

    impl Output<u32> for Seen {
        type Error = ();
        fn text(&mut self, b: &[u8]) -> Result<(), ()> {
            self.0.push(String::from_utf8_lossy(b).into_owned());
            Ok(())
        }
        fn flush(&mut self) -> Result<(), ()> {
            self.0.push("|".into());
            Ok(())
        }
        fn put(&mut self, n: u32) -> Result<(), ()> {
            self.0.push(n.to_string());
            Ok(())
        }
        fn put_with(&mut self, n: u32, b: &[u8]) -> Result<(), ()> {
            self.0.push(format!("{n}:{}", String::from_utf8_lossy(b)));
            Ok(())
        }
    }

    #[test]
    fn a_record_replays_in_order_and_fails_past_its_room() {
        let mut r = Record::new(250);
        Output::flush(&mut r).unwrap();
        Output::text(&mut r, b"ab").unwrap();
        Output::text(&mut r, b"c").unwrap();
        r.put(7).unwrap();
        r.put_with(8, b"xy").unwrap();
        Output::flush(&mut r).unwrap();
        Output::flush(&mut r).unwrap();
        Output::text(&mut r, b"d").unwrap();
        assert_eq!(r.held(), 206);
        let mut seen = Seen::default();
        r.replay(&mut seen).unwrap();
        assert_eq!(seen.0, ["|", "abc", "7", "8:xy", "|", "d"]);
        let mut r = Record::new(150);
        r.put(1).unwrap();
        assert!(r.put(2).is_err());
        assert!(Output::text(&mut Record::<u32>::new(1), b"xy").is_err());
        let mut r = Record::<u32>::in_pieces(1000);
        Output::text(&mut r, b"a").unwrap();
        Output::text(&mut r, b"b").unwrap();
        let mut seen = Seen::default();
        r.replay(&mut seen).unwrap();
        assert_eq!(seen.0, ["a", "b"]);
    }
}
