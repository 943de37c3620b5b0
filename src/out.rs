//! Output machinery shared by every command: sinks, the text boundary for
//! people, the common pieces of aoi's report, and opening inputs. Engines
//! for the commands in `cmd/`, which import this and never each other.

mod input;
mod report;
mod sinks;
mod text;

pub(crate) use crate::emit::stdout_writer;
pub(crate) use input::*;
pub(crate) use report::*;
pub(crate) use sinks::*;
pub(crate) use text::*;
