//! Output machinery shared by every command: sinks, the text boundary for
//! people, the common pieces of aoi's report, and opening inputs. Engines
//! for the commands in `cmd/`, which import this and never each other.

pub(crate) mod budget;
mod forward;
mod input;
mod record;
mod report;
mod resolve;
mod sinks;
mod table;
mod text;
mod verdicts;

pub(crate) use crate::emit::stdout_writer;
pub(crate) use forward::*;
pub(crate) use input::*;
pub(crate) use record::*;
pub(crate) use report::*;
pub(crate) use resolve::*;
pub(crate) use sinks::*;
pub(crate) use table::*;
pub(crate) use text::*;
pub(crate) use verdicts::Verdicts;
