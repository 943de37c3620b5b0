//! Output machinery shared by every command: sinks, the text boundary for
//! people, the common pieces of aoi's report, the options a judging
//! command resolves its arguments to, and opening inputs. Engines
//! for the commands in `cmd/`, which import this and never each other.

pub(crate) mod budget;
mod forward;
mod input;
mod judging;
mod record;
mod report;
mod sinks;
mod table;
mod text;
mod verdicts;

pub(crate) use crate::emit::stdout_writer;
pub(crate) use forward::*;
pub(crate) use input::*;
pub(crate) use judging::{Judging, Logs, Reading};
pub(crate) use record::*;
pub(crate) use report::*;
pub(crate) use sinks::*;
pub(crate) use table::*;
pub(crate) use text::*;
pub(crate) use verdicts::Verdicts;
