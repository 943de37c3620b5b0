//! `aoi filter`: the jq language over AOI streams, as a conforming
//! transformer (§ 13, § 13.1).
//!
//! Each input stream goes through the judge of `aoi check` while the filter
//! runs on its domain events (and, with `--framework`, its framework
//! events), each parsed from the line's bytes as it came, envelope
//! included. Results are domain events of aoi's own stream: an object with a
//! string `type` (not `aoi:`-prefixed) is emitted as it is, with aoi's
//! envelope in place of its `aoi` member; anything else is wrapped as
//! `{"type":"value","value":R}`. Upstream `aoi:error`/`aoi:warning` are
//! forwarded with `origin` (the same forwarding as `aoi errors`), upstream
//! `aoi:meta`/`aoi:summary` never are, and the closing `aoi:summary`
//! accounts for the upstream (`input_count`, `caused_by`, `upstream`).
//!
//! jq's output and input flags (`-r`, `-c`, `-n`, `-s`) print the results
//! as jq prints them and keep the judge and the exit status of this mode
//! (`plain.rs`). Only `--raw` is plain jq over any JSON Lines
//! input: no framing, no judge, output as `jq -c` prints it.

use crate::spec::exit::Code;
use std::io::{self, Write};

use jaq_core::Vars;
use jaq_json::Val;

use crate::cli::FilterArgs;
use crate::jq;
use crate::out::{Stop, eprint_line};
use files::run_framed;
use report::Report;

mod files;
mod framed;
mod jq_args;
mod judged;
mod plain;
mod print;
mod raw;
mod raw_files;
mod raw_split;
mod report;
mod sink;
mod split;

/// Longest message of an item-level error aoi writes.
const MAX_MESSAGE: usize = 1000;
/// Stack for the filter thread: jaq's parser and values recurse.
const STACK: usize = 256 << 20;

type BoxedInputs<'a> = Box<dyn Iterator<Item = Result<Val, String>> + 'a>;

/// Runs `aoi filter`; returns the exit status.
pub fn run(args: &FilterArgs) -> Code {
    let mut args = jq_args::place(args);
    if let Err(msg) = jq_args::read_program(&mut args) {
        eprint_line(false, &format!("aoi filter: {msg}"));
        return Code::NOINPUT;
    }
    if let Err(msg) = jq_args::read_files(&mut args) {
        eprint_line(false, &format!("aoi filter: {msg}"));
        return Code::USAGE;
    }
    let args = &args;
    jq::install_logger();
    // jaq recurses (parser, evaluation, dropping values): everything runs
    // on a thread with a large stack, of which only what is used is ever
    // touched.
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("filter".into())
            .stack_size(STACK)
            .spawn_scoped(scope, || compile_and_run(args));
        // SIGINT/SIGTERM go to the worker, whose reads they interrupt.
        let _ = crate::cancel::block_in_this_thread();
        match worker {
            Ok(handle) => handle.join().unwrap_or(Code::SOFTWARE),
            Err(e) => {
                eprint_line(
                    false,
                    &format!("aoi filter: cannot start the filter thread: {e}"),
                );
                Code::SOFTWARE
            }
        }
    })
}

/// Ends the process now with `code`, what it wrote flushed: workers may
/// be deep in a later file's filter (even one that never ends) that one
/// thread would never have run, and waiting for them would change when
/// aoi exits, or whether.
fn exit_now(code: Code) -> ! {
    let _ = io::stdout().flush();
    std::process::exit(code.code())
}

/// Ends the report with `result`, or as the stop that cut it ends it, and
/// then the process ([`exit_now`]).
fn end_now(report: &mut Report, result: Result<Code, Stop>) -> ! {
    let code = match result {
        Ok(code) => code,
        Err(stop) => report.end(stop),
    };
    exit_now(code)
}

/// Compiles the program, then resolves the inputs: a program that does
/// not compile is said before a `--files-from` list or a `--schema` that
/// cannot be read, as jq says a compile error before it opens any file.
fn compile_and_run(args: &FilterArgs) -> Code {
    let (names, values) = match jq_args::globals(args) {
        Ok(globals) => globals,
        Err(msg) => {
            eprint_line(false, &format!("aoi filter: {msg}"));
            return Code::USAGE;
        }
    };
    let filter = match jq::compile(&args.filter, &names, &args.library_path) {
        Ok(f) => f,
        Err(msg) => {
            eprint_line(
                false,
                &format!("aoi filter: the filter does not compile: {msg}"),
            );
            return Code::USAGE;
        }
    };
    let judging = match super::resolve::resolve("filter", args) {
        Ok(judging) => judging,
        Err(code) => return code,
    };
    let judging = &judging;
    let vars = Vars::new(values);
    // Only --raw stops judging; jq's flags only change what is printed.
    if args.raw {
        raw_files::run_raw(args, judging, &filter, vars)
    } else if print::JqPrint::asked(args) || args.null_input || args.slurp {
        plain::run_plain(args, judging, &filter, vars)
    } else {
        run_framed(args, judging, &filter)
    }
}

// --- framed mode ------------------------------------------------------------

/// The text of a filter error: a string raised with `error("…")` as it is
/// (jq prints it so), anything else as compact JSON.
fn error_text(err: jaq_core::Error<Val>) -> String {
    match err.into_val() {
        Val::TStr(s) => String::from_utf8_lossy(&s).into_owned(),
        other => {
            let mut b = Vec::new();
            match jq::write_json(&mut b, &other) {
                Ok(()) => String::from_utf8_lossy(&b).into_owned(),
                Err(_) => other.to_string(),
            }
        }
    }
}
