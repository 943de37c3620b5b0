#![warn(missing_docs)]
//! aoi: a toolkit for AOI-CLI streams (AOI-CLI v1.0-alpha), and a library
//! for Rust tools that produce or consume them.
//!
//! # Produce a stream, then judge it
//!
//! A tool writes its events through a [`emit::Producer`], which numbers
//! `seq`, mints the `run`, counts, writes the identity on both ends and
//! always ends with `aoi:summary`. Any stream (this one, or a subprocess's
//! stdout) can be judged in-process with a [`judge::Judge`], the same one
//! `aoi check` runs:
//!
//! ```
//! use aoi::emit::{Producer, Summary, ToolIdentity};
//! use aoi::drive::drive;
//! use aoi::judge::{Judge, JudgeOptions, Outcome};
//!
//! // Produce: aoi:meta, two domain events, aoi:summary.
//! let id = ToolIdentity::new("search", "1.2.0", "org.example.search.events", "1.0.0");
//! let mut stream = Vec::new();
//! let mut out = Producer::start(id, "search", &mut stream).expect("a Vec takes any write");
//! out.event("hit", &[("rank", 1.into()), ("id", "doc_1".into())]).expect("written");
//! out.event("hit", &[("rank", 2.into()), ("id", "doc_2".into())]).expect("written");
//! assert_eq!(out.close(Summary::ok()), 0);
//!
//! // Judge: complete, conforming, ok:true.
//! let mut judge = Judge::new(JudgeOptions::default());
//! drive(&stream[..], &mut judge, |_, _| Ok::<(), ()>(()), |_, _| Ok(())).expect("no I/O error");
//! let (verdict, findings) = judge.finish();
//! assert!(findings.is_empty());
//! assert_eq!(verdict.outcome, Outcome::Ok);
//! assert_eq!((verdict.domain_events, verdict.exit_code), (2, 0));
//!
//! // A stream cut in the middle is caught by seq and event_count (§ 8.1).
//! let mut lines: Vec<&[u8]> = stream.split_inclusive(|&b| b == b'\n').collect();
//! lines.remove(1);
//! let cut = lines.concat();
//! let mut judge = Judge::new(JudgeOptions::default());
//! drive(&cut[..], &mut judge, |_, _| Ok::<(), ()>(()), |_, _| Ok(())).expect("no I/O error");
//! let (verdict, _) = judge.finish();
//! assert_eq!(verdict.outcome, Outcome::Violation);
//! assert_eq!(verdict.exit_code, 65);
//! ```
//!
//! `examples/ls.rs` is a whole source tool built this way.
//!
//! # Inside
//!
//! Data flows one way:
//!
//! ```text
//! bytes ──► lines ──► peeked events ──► stream judge ──► command ──► sink
//! ```
//!
//! - `lines` (internal): the block reader (large reads, memchr, borrowed
//!   slices), and `long` for lines past what it holds.
//! - `peek` (internal): strict RFC 8259 validation and the envelope peek in
//!   one pass.
//! - [`judge`]: the stream-level state machine and its [`judge::Verdict`].
//! - [`drive`]: a stream read through a judge, the loop every command
//!   shares.
//! - `parallel` (internal): a large file on two threads, one reading and
//!   validating, one judging, with the same results as one.
//! - `pool` (internal): many files worked on at once, taken in input
//!   order.
//! - `demux` (internal): the log reader: AOI streams out of real logs, a
//!   judge per run.
//! - `jq` (internal): the jq language (jaq) embedded, and strict JSON
//!   writing.
//! - [`rules`]: the rule catalog, stable ids with spec sections.
//! - [`emit`]: the producer side, aoi's own output and any tool's: ULID
//!   run, contiguous seq, counters, redaction, a guaranteed summary.
//! - [`cancel`]: SIGINT/SIGTERM as a request to stop (§ 7).
//! - [`spec`]: the vocabulary of the standard, written down once.
//!
//! The `cli` and `cmd` modules are the binary's; they and the internal
//! modules are public only for the binary, the fuzz targets, benches and
//! tests, hidden from the documentation and not part of the library's API.

// The library's API: produce, judge (read a stream through a judge), the
// verdict, the rules.
pub mod cancel;
pub mod drive;
pub mod emit;
pub mod judge;
pub mod rules;
pub mod spec;

/// The command line (clap definitions): the binary's, not a library API;
/// public for `main.rs` and the man-page and completion generators.
#[doc(hidden)]
pub mod cli;
/// One module per subcommand: the binary's, not a library API.
#[doc(hidden)]
pub mod cmd;

// Plumbing, public only for aoi's fuzz targets, benches and tests: hidden
// from the documentation, not a library API, and free to change.
#[doc(hidden)]
pub mod jq;
#[doc(hidden)]
pub mod lines;
#[doc(hidden)]
pub mod long;
#[doc(hidden)]
pub mod peek;
#[doc(hidden)]
pub mod validator;
pub(crate) mod validator_words;

pub(crate) mod demux;
pub(crate) mod out;
pub(crate) mod parallel;
pub(crate) mod pool;
pub(crate) mod spool;
