#![warn(missing_docs)]
// Without the binary's parts, the judge's hooks for the log reader and
// the two-thread planner of `parallel` have no caller in the library.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]
//! aoi: a toolkit for AOI-CLI streams (AOI-CLI v1.0-alpha), and a library
//! for Rust tools that produce or consume them.
//!
//! # Produce a stream, then judge it
//!
//! A tool writes its events through a [`emit::Producer`], which numbers
//! `seq`, mints the `run`, counts, writes the identity on both ends,
//! judges every event before it writes it (refusing, by rule, what `aoi
//! check` would reject) and always ends with `aoi:summary`; its exit
//! status is the judge's. Any stream (this one, or a subprocess's stdout)
//! can be judged in-process with [`judge::check`], or line by line with a
//! [`judge::Judge`], the same one `aoi check` runs:
//!
//! ```
//! use aoi::emit::{Ended, Producer, Summary, ToolIdentity};
//! use aoi::judge::{Outcome, check};
//!
//! // Produce: aoi:meta, two domain events, aoi:summary.
//! let id = ToolIdentity::new("search", "1.2.0", "org.example.search.events", "1.0.0");
//! let mut stream = Vec::new();
//! let mut out = Producer::start(id, "search", &mut stream).expect("a Vec takes any write");
//! out.event("hit", &[("rank", 1.into()), ("id", "doc_1".into())]).expect("written");
//! out.event("hit", &[("rank", 2.into()), ("id", "doc_2".into())]).expect("written");
//! // A broken event is refused, with the rule it breaks; nothing is written.
//! match out.event("hit", &[("aoi", 1.into())]) {
//!     Err(Ended::Refused(r)) => assert_eq!(r.rule.id(), "event.duplicate-reserved-key"),
//!     other => panic!("{other:?}"),
//! }
//! assert_eq!(out.close(Summary::ok()).code(), 0);
//!
//! // Judge: complete, conforming, ok:true.
//! let (verdict, findings) = check(&stream[..]);
//! assert!(findings.is_empty());
//! assert_eq!(verdict.outcome, Outcome::Ok);
//! assert_eq!((verdict.domain_events, verdict.exit_code), (2, 0));
//!
//! // A stream cut in the middle is caught by seq and event_count (§ 8.1).
//! let mut lines: Vec<&[u8]> = stream.split_inclusive(|&b| b == b'\n').collect();
//! lines.remove(1);
//! let cut = lines.concat();
//! let (verdict, findings) = check(&cut[..]);
//! assert!(findings.iter().any(|f| f.to_string().contains("seq.gap")));
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
//! - [`cancel`]: a cancellation token the tool polls, SIGINT/SIGTERM as a
//!   request to stop (§ 7).
//! - [`spec`]: the vocabulary of the standard, written down once.
//!
//! # Depending on the library alone
//!
//! The default feature `cli` builds the binary's parts too (the command
//! line, the jq language, the allocator). A tool that produces or judges
//! streams needs none of them:
//!
//! ```toml
//! [dependencies]
//! aoi = { version = "0.1", default-features = false }
//! ```
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
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
/// One module per subcommand: the binary's, not a library API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cmd;

// Plumbing, public only for aoi's fuzz targets, benches and tests: hidden
// from the documentation, not a library API, and free to change.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod jq;
#[doc(hidden)]
pub mod lines;
#[doc(hidden)]
pub mod long;
#[doc(hidden)]
pub mod peek;
#[cfg(feature = "schema")]
pub mod validator;
#[cfg(feature = "schema")]
pub(crate) mod validator_doc;
#[cfg(feature = "schema")]
pub(crate) mod validator_quick;
#[cfg(feature = "schema")]
pub(crate) mod validator_words;

#[cfg(feature = "cli")]
pub(crate) mod demux;
#[cfg(feature = "cli")]
pub(crate) mod out;
pub(crate) mod parallel;
#[cfg(feature = "cli")]
pub(crate) mod pool;
#[cfg(feature = "cli")]
pub(crate) mod spool;
