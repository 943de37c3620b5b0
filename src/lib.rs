//! aoi: a toolkit for AOI-CLI streams (AOI-CLI v1.0-alpha).
//!
//! Data flows one way:
//!
//! ```text
//! bytes ──► lines ──► peeked events ──► stream judge ──► command ──► sink
//! ```
//!
//! - [`lines`]: the block reader (large reads, memchr, borrowed slices).
//! - [`peek`]: strict RFC 8259 validation and the envelope peek in one pass.
//! - [`judge`]: the stream-level state machine and its [`judge::Verdict`].
//! - [`demux`]: the log reader: AOI streams out of real logs, a judge per run.
//! - [`jq`]: the jq language (jaq) embedded, and strict JSON writing.
//! - [`rules`]: the rule catalog, stable ids with spec sections.
//! - [`emit`]: aoi's own conforming output (ULID run, contiguous seq).
//! - [`cancel`]: SIGINT/SIGTERM as a request to stop (§ 7).
//! - [`spec`]: the vocabulary of the standard, written down once.
//! - [`cmd`]: one module per subcommand.

pub mod cancel;
pub mod cli;
pub mod cmd;
pub mod demux;
pub mod emit;
pub mod jq;
pub mod judge;
pub mod lines;
pub mod peek;
pub mod rules;
pub mod spec;
