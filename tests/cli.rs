//! Integration tests for aoi's commands, run against the real binary.
//!
//! One test binary; the modules live in `tests/cli/`:
//! - `util`: the harness (spawn, stream builder, report parsing and the
//!   feed-back check every report goes through),
//! - `optional`: what a fresh machine may lack (readers, GNU time, the
//!   shared folder), asked for without panicking and skipped with a notice,
//! - `waits`: waiting for a state of a running aoi (idle on its input, a
//!   signal taken, a pipe full), never for a length of time,
//! - `check`: every rule of the catalog, the exit table, the report, the
//!   relay, and the spec's own examples,
//! - `json_suite`: JSONTestSuite documents inside events,
//! - `consumers`: merge-report's TAP, JUnit, Markdown and CTRF read by the
//!   programs that read them in CI (each skipped with a notice when absent),
//! - `files_at_once`: `--threads` over many files: stdout, stderr and the exit
//!   are one thread's, byte for byte,
//! - `golden`: every report format and machine-mode output on `examples/`,
//!   byte for byte,
//! - `long_lines`: lines longer than aoi holds, judged as short ones by every
//!   command,
//! - `many_runs`: a log of many runs, every run judged, memory bounded by the
//!   open ones,
//! - `help_texts`: each command's help says what applies to it, its own
//!   example and its own exit codes; the rule catalog as a stream,
//! - `jq_suite`: jq's own test file through `filter --raw`,
//! - `lint`: § 18 against fixture tools and aoi itself,
//! - `lint_zoo`: § 18 against a zoo of tools, one planted defect each, held
//!   to the tables a reviewer wrote by hand,
//! - `live`: output goes on while a live producer's pipe stays open,
//! - `merge`: many runs, one verdict; JUnit, TAP, Markdown; associativity,
//! - `quiet`: `-q` silences stderr, never stdout, in every command,
//! - `relay_props`: the relay is byte-identical for arbitrary bytes,
//! - `discovery`: the capability manifest against the CLI and the outputs,
//! - `docs`: the shell blocks of README.md, docs/guide.md and AGENTS.md run
//!   as written, with the exit statuses and outputs they show,
//! - `errors`: errors and warnings out of streams and messy logs,
//! - `errors_forward`: errors decided and forwarded where lines are
//!   prepared, against the general path and across threads,
//! - `example_tool`: `examples/ls.rs`, a producer built on the library,
//! - `faults`: closed and full outputs, odd inputs, huge and deep lines,
//! - `filter`: jq over the domain events, and `--raw` against jq's output,
//! - `filter_jq`: jq's options and jq's semantics where jaq's differ,
//! - `filter_threads`: one big input filtered on several threads writes what
//!   one thread writes,
//! - `filter_projection`: filters run on the members they read give the whole object's results,
//! - `filter_construct`: objects of plain paths written from the line are the general path's,
//! - `filter_raw_written`: `--raw`'s `.`, paths and `select` written from the line are the general path's,
//! - `parallel`: two threads on a file judge exactly like one,
//! - `schema`: `--schema FILE` on every judging command, the file judged first,
//!   and every command's machine output valid against `aoi schema`,
//! - `schema_suite`: the official JSON-Schema-Test-Suite through aoi's validator,
//! - `several_formats`: merge-report's formats written in one pass,
//! - `signals`: SIGINT/SIGTERM mid-stream end in a cancelled summary,
//! - `stderr_cap`: one `--show` cap on what stderr says of many runs,
//! - `strip`: the data plane and the control plane apart,
//! - `fleet`: the fan-out examples on GNU parallel and Spark (examples/fleet),
//! - `summary`: a run's outcome for people and scripts,
//! - `verdict`: one verdict from every command and format (`--log` apart).
//! - `verdict_props`: one verdict as a property: built streams get check's
//!   exit code from every command.

#[path = "cli/optional.rs"]
mod optional;
#[path = "cli/util.rs"]
mod util;
#[path = "cli/waits.rs"]
mod waits;

#[path = "cli/check/mod.rs"]
mod check;
#[path = "cli/consumers.rs"]
mod consumers;
#[path = "cli/discovery.rs"]
mod discovery;
#[path = "cli/docs.rs"]
mod docs;
#[path = "cli/errors.rs"]
mod errors;
#[path = "cli/errors_forward.rs"]
mod errors_forward;
#[path = "cli/example_tool.rs"]
mod example_tool;
#[path = "cli/faults.rs"]
mod faults;
#[path = "cli/files_at_once.rs"]
mod files_at_once;
#[path = "cli/filter.rs"]
mod filter;
#[path = "cli/filter_construct.rs"]
mod filter_construct;
#[path = "cli/filter_jq.rs"]
mod filter_jq;
#[path = "cli/filter_projection.rs"]
mod filter_projection;
#[path = "cli/filter_raw_threads.rs"]
mod filter_raw_threads;
#[path = "cli/filter_raw_written.rs"]
mod filter_raw_written;
#[path = "cli/filter_threads.rs"]
mod filter_threads;
#[path = "cli/fleet.rs"]
mod fleet;
#[path = "cli/golden.rs"]
mod golden;
#[path = "cli/help_texts.rs"]
mod help_texts;
#[path = "cli/jq_suite.rs"]
mod jq_suite;
#[path = "cli/json_suite.rs"]
mod json_suite;
#[path = "cli/lint.rs"]
mod lint;
#[path = "cli/lint_zoo.rs"]
mod lint_zoo;
#[path = "cli/live.rs"]
mod live;
#[path = "cli/long_lines.rs"]
mod long_lines;
#[path = "cli/many_runs.rs"]
mod many_runs;
#[path = "cli/merge.rs"]
mod merge;
#[path = "cli/parallel.rs"]
mod parallel;
#[path = "cli/quiet.rs"]
mod quiet;
#[path = "cli/relay_props.rs"]
mod relay_props;
#[path = "cli/schema.rs"]
mod schema;
#[path = "cli/schema_suite.rs"]
mod schema_suite;
#[path = "cli/several_formats.rs"]
mod several_formats;
#[path = "cli/signals.rs"]
mod signals;
#[path = "cli/stderr_cap.rs"]
mod stderr_cap;
#[path = "cli/strip.rs"]
mod strip;
#[path = "cli/summary.rs"]
mod summary;
#[path = "cli/verdict.rs"]
mod verdict;
#[path = "cli/verdict_props.rs"]
mod verdict_props;
