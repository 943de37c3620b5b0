//! Where a worker's record of a file or a chunk is replayed: aoi's
//! report, live, as this thread would have written it.

use std::io::{self, Write};

use super::framed::Framed;
use super::sink::{ItemError, Rec, Replayed};
use crate::out::{Sinks, Stop};

/// Where a worker's record is replayed: the report, as this thread would
/// have written it (its events numbered in the report, its item errors
/// counted, nothing of the filter's after a halt).
pub(super) struct Replay<'f, 'a>(pub(super) &'f mut Framed<'a, Sinks>);

impl Replayed for Replay<'_, '_> {
    fn flush(&mut self) -> Result<(), Stop> {
        self.0.sinks.out.flush()
    }
    fn put(&mut self, rec: Rec, bytes: &[u8]) -> Result<(), Stop> {
        let f = &mut *self.0;
        let live = f.halted.is_none();
        match rec {
            Rec::Forward(ty, _) => f.sinks.out.forward(ty, bytes)?,
            Rec::Event(ty, _) if live => {
                let (ty, body) = bytes.split_at(ty.min(bytes.len()));
                let ty = std::str::from_utf8(ty).unwrap_or_default();
                f.sinks.out.raw_event(ty, body)?;
            }
            Rec::ItemError(e) if live => {
                let ItemError { code, fields, said } = *e;
                f.item_errors += 1;
                f.first_item_code.get_or_insert(code);
                f.first_item.get_or_insert(said);
                f.sinks.out.event(crate::spec::types::ERROR, &fields)?;
            }
            Rec::Stderr(_) if live => {
                let _ = io::stderr().lock().write_all(bytes);
            }
            _ => {}
        }
        Ok(())
    }
}
