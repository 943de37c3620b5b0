//! Where a filtered stream's events go ([`Emit`]): aoi's report, live,
//! or a worker's [`Recording`] of it, replayed in input order
//! ([`super::files`]).

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use crate::jq;
use crate::judge::Verdict;
use crate::out::{Output, Record, Sinks, Stop, Weighed};

/// Where a filtered stream's events go: aoi's report ([`Sinks`]), or a
/// worker's [`Recording`] of it.
pub(super) trait Emit {
    /// A domain event, its members encoded.
    fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Stop>;
    /// An upstream `aoi:error` or `aoi:warning`, passed on.
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop>;
    /// aoi's own item-level `aoi:error` (code `code`, said on stderr as
    /// `said` when it is the first).
    fn item_error(
        &mut self,
        code: &str,
        fields: &[(&'static str, Value)],
        said: &str,
    ) -> Result<(), Stop>;
    /// The end of a block read: what was written goes out.
    fn flush(&mut self) -> Result<(), Stop>;
    /// The filter halted with exit code `h`.
    fn halted(&mut self, h: i32);
    /// A stream stopped early: what was read of it was consumed (§ 8.3).
    fn consumed(&mut self, v: &Verdict);
}

impl Emit for Sinks {
    fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Stop> {
        self.out.raw_event(ty, body)
    }
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop> {
        self.out.forward(ty, body)
    }
    fn item_error(
        &mut self,
        _code: &str,
        fields: &[(&'static str, Value)],
        _said: &str,
    ) -> Result<(), Stop> {
        self.out.event(crate::spec::types::ERROR, fields)
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.out.flush()
    }
    fn halted(&mut self, _h: i32) {
        HALTED.store(true, Ordering::Relaxed);
    }
    fn consumed(&mut self, v: &Verdict) {
        self.add_consumed(v);
    }
}

/// Set when aoi's report halts (`halt`, `halt_error`): workers stop
/// running the filter on later files' events, whose results the report
/// drops, as one thread never runs it after a halt.
static HALTED: AtomicBool = AtomicBool::new(false);

/// Whether aoi's report halted.
pub(super) fn halted_in_report() -> bool {
    HALTED.load(Ordering::Relaxed)
}

/// One thing a worker's filter would have written besides a block end,
/// in order. The bytes of an event, a forward and stderr are kept one
/// after another in the recording's one buffer ([`Recording::bytes`]):
/// a record holds their lengths, and no allocation of its own.
pub(super) enum Rec {
    /// A domain event: its type's length, then its members'.
    Event(usize, usize),
    /// An upstream error or warning passed on: its body's length.
    Forward(&'static str, usize),
    ItemError(Box<ItemError>),
    /// What the filter wrote to stderr (`debug`, `stderr`, `halt_error`):
    /// its length.
    Stderr(usize),
}

/// aoi's own item-level error: its code, its members, and how stderr
/// says it when it is the first.
pub(super) struct ItemError {
    pub(super) code: String,
    pub(super) fields: Vec<(&'static str, Value)>,
    pub(super) said: String,
}

/// What an item error is counted as, in bytes, against a worker's room.
const ITEM_ERROR_BYTES: usize = 512;
/// What any record costs besides its bytes (the mark, the allocations):
/// a million tiny results are not free.
const RECORD_BYTES: usize = 64;

impl Weighed for Rec {
    fn weight(&self) -> usize {
        RECORD_BYTES
            + match self {
                Rec::Event(ty, body) => ty + body,
                Rec::Forward(_, n) | Rec::Stderr(n) => *n,
                Rec::ItemError(e) => ITEM_ERROR_BYTES + e.said.len(),
            }
    }
}

/// A worker's record of one file or chunk, within the room it may keep
/// (past it, recording fails and the input is filtered in its turn), with
/// what the filter wrote to stderr where it wrote it.
pub(super) struct Recording {
    rec: Record<Rec>,
    /// The bytes of the records, in their order.
    bytes: Vec<u8>,
}

impl Recording {
    /// An empty recording of at most `room` bytes, its buffer made for
    /// about `bytes` of them.
    pub(super) fn new(room: usize, bytes: usize) -> Self {
        Recording {
            rec: Record::new(room),
            bytes: Vec::with_capacity(bytes),
        }
    }

    /// The bytes it keeps (as counted against its room).
    pub(super) fn held(&self) -> usize {
        self.rec.held()
    }

    /// Keeps what the filter wrote to stderr so far; fails past the room
    /// (the capture itself stops there).
    pub(super) fn said(&mut self) -> Result<(), Stop> {
        let said = jq::take_captured();
        if !said.is_empty() {
            self.bytes.extend_from_slice(&said);
            self.rec.put(Rec::Stderr(said.len()))?;
        }
        match jq::capture_full() {
            true => Err(crate::out::Full.into()),
            false => Ok(()),
        }
    }

    /// Keeps `rec`, after what the filter wrote to stderr before it.
    fn keep(&mut self, rec: Rec) -> Result<(), Stop> {
        self.said()?;
        Ok(self.rec.put(rec)?)
    }

    /// Writes what was recorded to `out`, in the order it came.
    pub(super) fn replay<O: Replayed>(self, out: &mut O) -> Result<(), Stop> {
        let Recording { rec, bytes } = self;
        rec.replay(&mut Bytes { out, bytes: &bytes })
    }
}

/// Where a [`Recording`] is replayed: each record with its bytes.
pub(super) trait Replayed {
    /// A record; `bytes` are its own (for an event, its type's and then
    /// its members').
    fn put(&mut self, rec: Rec, bytes: &[u8]) -> Result<(), Stop>;
    /// A block end.
    fn flush(&mut self) -> Result<(), Stop>;
}

/// A replay's place in the recording's bytes.
struct Bytes<'o, 'b, O> {
    out: &'o mut O,
    bytes: &'b [u8],
}

impl<O: Replayed> Output<Rec> for Bytes<'_, '_, O> {
    type Error = Stop;
    fn text(&mut self, _: &[u8]) -> Result<(), Stop> {
        Ok(())
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.out.flush()
    }
    fn put(&mut self, rec: Rec) -> Result<(), Stop> {
        let n = match &rec {
            Rec::Event(ty, body) => ty + body,
            Rec::Forward(_, n) | Rec::Stderr(n) => *n,
            Rec::ItemError(_) => 0,
        };
        let (own, rest) = self.bytes.split_at(n.min(self.bytes.len()));
        self.bytes = rest;
        self.out.put(rec, own)
    }
}

impl Emit for Recording {
    fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Stop> {
        self.said()?;
        self.bytes.extend_from_slice(ty.as_bytes());
        self.bytes.extend_from_slice(body);
        Ok(self.rec.put(Rec::Event(ty.len(), body.len()))?)
    }
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop> {
        self.said()?;
        self.bytes.extend_from_slice(body);
        Ok(self.rec.put(Rec::Forward(ty, body.len()))?)
    }
    fn item_error(
        &mut self,
        code: &str,
        fields: &[(&'static str, Value)],
        said: &str,
    ) -> Result<(), Stop> {
        self.keep(Rec::ItemError(Box::new(ItemError {
            code: code.to_string(),
            fields: fields.to_vec(),
            said: said.to_string(),
        })))
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.said()?;
        Ok(self.rec.flush()?)
    }
    fn halted(&mut self, _h: i32) {
        // Nothing to record: a worker that halted hands its chunk or
        // file back (`split::filter_chunk`, `files::filter_whole`), and
        // the writing thread filters it again and halts as one thread.
    }
    fn consumed(&mut self, _v: &Verdict) {}
}
