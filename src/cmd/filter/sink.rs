//! What filter's engines write besides text: items of an [`Output`]
//! ([`Rec`]), written live (aoi's report, `--raw`'s stderr) or into a
//! worker's [`crate::out::Record`], which keeps their bytes one after
//! another in its one buffer, not in an allocation each. On a worker,
//! what the filter wrote to stderr goes in among them where it wrote it
//! ([`Said`]).

use std::marker::PhantomData;

use serde_json::Value;

use crate::jq;
use crate::judge::Verdict;
use crate::out::{Full, Output, Stop, Weighed};

/// One thing a filter writes besides text and block ends. An item whose
/// bytes are its own ([`Output::put_with`]) says what they are.
pub(super) enum Rec {
    /// A domain event: its bytes are its type, this long, then its members.
    Event(usize),
    /// An upstream error or warning passed on: its bytes are its members.
    Forward(&'static str),
    ItemError(Box<ItemError>),
    /// What the filter wrote to stderr (`debug`, `stderr`, `halt_error`):
    /// its bytes.
    Stderr,
    /// A line of aoi's own on stderr (`--raw`'s input and filter errors).
    Say(String),
    /// The filter halted with this exit code. Never a record's: it weighs
    /// more than any room, so a worker that halts hands its file or chunk
    /// back, and the writing thread filters it again and halts as one
    /// thread does (the halt's message, however long, and what it ends
    /// are then never a record's to lose).
    Halt(i32),
    /// A stream stopped early (SIGINT/SIGTERM): what was read of it was
    /// consumed (§ 8.3).
    Consumed(Box<Verdict>),
}

/// aoi's own item-level error: its code, its members, and how stderr
/// says it when it is the first.
pub(super) struct ItemError {
    pub(super) code: &'static str,
    pub(super) fields: Vec<(&'static str, Value)>,
    pub(super) said: String,
}

/// What an item error is counted as, in bytes, against a worker's room.
const ITEM_ERROR_BYTES: usize = 512;
/// What any item costs besides its bytes (the mark, the allocations):
/// a million tiny results are not free.
const RECORD_BYTES: usize = 64;

impl Weighed for Rec {
    fn weight(&self) -> usize {
        match self {
            Rec::Halt(_) => usize::MAX,
            Rec::ItemError(e) => RECORD_BYTES + ITEM_ERROR_BYTES + e.said.len(),
            Rec::Say(msg) => RECORD_BYTES + msg.len(),
            Rec::Event(_) | Rec::Forward(_) | Rec::Stderr | Rec::Consumed(_) => RECORD_BYTES,
        }
    }
}

/// The framed engine's writes, on any [`Output`] of [`Rec`]s, its
/// errors as stops.
pub(super) trait Emit {
    /// A domain event: `bytes` are its type, `ty` long, then its members.
    fn event(&mut self, ty: usize, bytes: &[u8]) -> Result<(), Stop>;
    /// An upstream `aoi:error` or `aoi:warning`, passed on.
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop>;
    /// aoi's own item-level `aoi:error`.
    fn item_error(&mut self, e: ItemError) -> Result<(), Stop>;
    /// The end of a block read: what was written goes out.
    fn block_end(&mut self) -> Result<(), Stop>;
    /// The filter halted with exit code `h`.
    fn halted(&mut self, h: i32) -> Result<(), Stop>;
    /// A stream stopped early: what was read of it was consumed.
    fn consumed(&mut self, v: Verdict) -> Result<(), Stop>;
}

impl<O: Output<Rec> + ?Sized> Emit for O
where
    O::Error: Into<Stop>,
{
    fn event(&mut self, ty: usize, bytes: &[u8]) -> Result<(), Stop> {
        self.put_with(Rec::Event(ty), bytes).map_err(Into::into)
    }
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop> {
        self.put_with(Rec::Forward(ty), body).map_err(Into::into)
    }
    fn item_error(&mut self, e: ItemError) -> Result<(), Stop> {
        self.put(Rec::ItemError(Box::new(e))).map_err(Into::into)
    }
    fn block_end(&mut self) -> Result<(), Stop> {
        self.flush().map_err(Into::into)
    }
    fn halted(&mut self, h: i32) -> Result<(), Stop> {
        self.put(Rec::Halt(h)).map_err(Into::into)
    }
    fn consumed(&mut self, v: Verdict) -> Result<(), Stop> {
        self.put(Rec::Consumed(Box::new(v))).map_err(Into::into)
    }
}

/// A worker's output, with what the filter wrote to stderr (kept by this
/// thread's capture, [`jq::capture_stderr`]) put in before each write,
/// where one thread wrote it; its errors are `E`s.
pub(super) struct Said<O, E> {
    pub(super) out: O,
    error: PhantomData<fn() -> E>,
}

impl<O: Output<Rec>, E: From<Full>> Said<O, E>
where
    O::Error: Into<E>,
{
    /// `out`, what this thread's filters write to stderr from now on
    /// captured (up to what a worker keeps) and put in it.
    pub(super) fn capture(out: O) -> Self {
        jq::capture_stderr(crate::pool::HELD);
        Said::new(out)
    }

    /// `out`, with a capture made ready already.
    pub(super) fn new(out: O) -> Self {
        Said {
            out,
            error: PhantomData,
        }
    }

    /// Puts what the filter wrote to stderr so far; fails once the capture
    /// passed its room (and dropped what it kept).
    pub(super) fn said(&mut self) -> Result<(), E> {
        let said = jq::take_captured();
        if !said.is_empty() {
            self.out.put_with(Rec::Stderr, &said).map_err(Into::into)?;
        }
        match jq::capture_full() {
            true => Err(Full.into()),
            false => Ok(()),
        }
    }
}

impl<O: Output<Rec>, E: From<Full>> Output<Rec> for Said<O, E>
where
    O::Error: Into<E>,
{
    type Error = E;
    fn text(&mut self, bytes: &[u8]) -> Result<(), E> {
        self.said()?;
        self.out.text(bytes).map_err(Into::into)
    }
    fn flush(&mut self) -> Result<(), E> {
        self.said()?;
        self.out.flush().map_err(Into::into)
    }
    fn put(&mut self, rec: Rec) -> Result<(), E> {
        self.said()?;
        self.out.put(rec).map_err(Into::into)
    }
    fn put_with(&mut self, rec: Rec, bytes: &[u8]) -> Result<(), E> {
        self.said()?;
        self.out.put_with(rec, bytes).map_err(Into::into)
    }
}
