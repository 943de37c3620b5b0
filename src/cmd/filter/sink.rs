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
/// in order.
pub(super) enum Rec {
    Event(String, Vec<u8>),
    Forward(&'static str, Vec<u8>),
    ItemError(String, Vec<(&'static str, Value)>, String),
    Halt(i32),
    /// What the filter wrote to stderr (`debug`, `stderr`, `halt_error`).
    Stderr(Vec<u8>),
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
                Rec::Event(ty, body) => ty.len() + body.len(),
                Rec::Forward(_, body) | Rec::Stderr(body) => body.len(),
                Rec::ItemError(_, _, said) => ITEM_ERROR_BYTES + said.len(),
                Rec::Halt(_) => 0,
            }
    }
}

/// A worker's record of one file, within the room it may keep (past it,
/// recording fails and the file is filtered in its turn), with what the
/// filter wrote to stderr where it wrote it.
pub(super) struct Recording(pub(super) Record<Rec>);

impl Recording {
    /// Keeps what the filter wrote to stderr so far; fails past the room
    /// (the capture itself stops there).
    pub(super) fn said(&mut self) -> Result<(), Stop> {
        let said = jq::take_captured();
        if !said.is_empty() {
            self.0.put(Rec::Stderr(said))?;
        }
        match jq::capture_full() {
            true => Err(crate::out::Full.into()),
            false => Ok(()),
        }
    }

    /// Keeps `rec`, after what the filter wrote to stderr before it.
    fn keep(&mut self, rec: Rec) -> Result<(), Stop> {
        self.said()?;
        Ok(self.0.put(rec)?)
    }
}

impl Emit for Recording {
    fn raw_event(&mut self, ty: &str, body: &[u8]) -> Result<(), Stop> {
        self.keep(Rec::Event(ty.to_string(), body.to_vec()))
    }
    fn forward(&mut self, ty: &'static str, body: &[u8]) -> Result<(), Stop> {
        self.keep(Rec::Forward(ty, body.to_vec()))
    }
    fn item_error(
        &mut self,
        code: &str,
        fields: &[(&'static str, Value)],
        said: &str,
    ) -> Result<(), Stop> {
        self.keep(Rec::ItemError(
            code.to_string(),
            fields.to_vec(),
            said.to_string(),
        ))
    }
    fn flush(&mut self) -> Result<(), Stop> {
        self.said()?;
        Ok(self.0.flush()?)
    }
    fn halted(&mut self, h: i32) {
        // What halt_error said goes before it (the room is checked at
        // the end).
        let _ = self.said();
        let _ = self.0.keep(Rec::Halt(h), 0);
    }
    fn consumed(&mut self, _v: &Verdict) {}
}

/// Marks aoi's report halted.
pub(super) fn halt_report() {
    HALTED.store(true, Ordering::Relaxed);
}
