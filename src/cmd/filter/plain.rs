//! jq's modes on an AOI stream (`-r`, `-c`, `-n`, `-s`): the
//! results printed as jq prints them (one per line, compact, `-r` strings
//! unquoted, no framing of aoi's), the input judged as `aoi check` judges
//! it ([`super::judged`]), and the exit status and stderr lines those of
//! the framed mode on the same input ([`close_plain`]). Output
//! flags change how results are printed, never whether the stream is
//! judged; only `--raw` stops judging ([`super::raw`]).
//!
//! The inputs are read in turn on this thread (`--threads` changes
//! nothing here): the program may read from one input into the next.

use crate::spec::exit::Code;
use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use jaq_core::{Ctx, Vars};
use jaq_json::Val;
use jaq_std::input::RcIter;

use super::judged::{self, JudgedEvents, Shared};
use super::print::JqPrint;
use super::report::{Report, Taken, close_framed, take_verdict, unreadable};
use super::{BoxedInputs, error_text};
use crate::cli::FilterArgs;
use crate::jq::{Data, Filter, Kind};
use crate::out::{Judging, Sinks, Stop, cancelled, install_cancel, stdout_writer, stop_code};

/// Runs `aoi filter` with `-r`, `-c`, `-n` or `-s`; returns the exit status.
pub(super) fn run_plain(
    args: &FilterArgs,
    judging: &Judging,
    filter: &Filter,
    vars: Vars<Val>,
) -> Code {
    install_cancel("filter");
    let shared = Rc::new(RefCell::new(Shared::new(args.quiet)));
    let events: BoxedInputs<'_> = Box::new(JudgedEvents::new(
        args,
        judging,
        judging.inputs(),
        shared.clone(),
    ));
    let inputs = RcIter::new(events);
    let data = Data {
        lut: &filter.lut,
        inputs: &inputs,
    };
    let mut p = Printer {
        out: stdout_writer(),
        print: JqPrint::of(args),
        buf: Vec::with_capacity(4096),
        data: &data,
        filter,
        vars,
        shared: &shared,
        last: None,
    };
    let halted = match p.program(args, &inputs).and_then(|h| p.flush().map(|()| h)) {
        Ok(halted) => halted,
        Err(stop) => return stop_code("filter", &stop),
    };
    // What the program left unread is read to its end and judged.
    shared.borrow_mut().draining = true;
    for _ in &inputs {}
    let shared = shared.take();
    let last = p.last;
    match shared.stop {
        Some(stop) => stop_code("filter", &stop),
        // jq's -e and the stream's verdict: the more severe exit wins,
        // never the more lenient (a wrong 0 is the worst answer).
        None if args.exit_status && halted.is_none() => {
            let verdict = close_plain(args, judging.named(), shared, halted);
            exit_status(verdict, last, args.quiet)
        }
        None => close_plain(args, judging.named(), shared, halted),
    }
}

/// The program run on the judged events, its results printed as jq
/// prints them.
struct Printer<'a> {
    out: Box<dyn Write>,
    print: JqPrint,
    buf: Vec<u8>,
    data: &'a Data<'a>,
    filter: &'a Filter,
    vars: Vars<Val>,
    shared: &'a RefCell<Shared>,
    /// Whether the last result was true (for `-e`).
    last: Option<bool>,
}

impl Printer<'_> {
    /// Runs the program as the flags say: once on `null` (`-n`), once on
    /// the array of every event (`-s`, held in memory), or on each event.
    /// Returns the exit code of a halt.
    fn program(
        &mut self,
        args: &FilterArgs,
        inputs: &RcIter<BoxedInputs<'_>>,
    ) -> Result<Option<i32>, Stop> {
        if args.null_input {
            return self.value(Val::Null);
        }
        if args.slurp {
            let all: Vec<Val> = inputs.into_iter().filter_map(Result::ok).collect();
            return self.value(Val::Arr(all.into()));
        }
        // The events are all `Ok`: what cannot be given is said and skipped.
        for v in inputs.into_iter().flatten() {
            if let Some(h) = self.value(v)? {
                return Ok(Some(h));
            }
        }
        Ok(None)
    }

    /// Runs the filter on `input` and prints its results; an error ends
    /// them, as in jq. Returns the exit code of a halt.
    fn value(&mut self, input: Val) -> Result<Option<i32>, Stop> {
        let ctx = Ctx::<Kind>::new(self.data, self.vars.clone());
        for r in self.filter.id.run((ctx, input)) {
            cancelled()?;
            let v = match r {
                Ok(v) => v,
                Err(exn) => match exn.get_err() {
                    Ok(err) => {
                        let msg = error_text(err);
                        self.shared.borrow_mut().item_error("FILTER_ERROR", &msg);
                        return Ok(None);
                    }
                    Err(exn) => return Ok(Some(exn.get_halt().unwrap_or(Code::SOFTWARE.code()))),
                },
            };
            self.buf.clear();
            self.last = Some(!matches!(v, Val::Null | Val::Bool(false)));
            if let Err(e) = self.print.result(&mut self.buf, &v) {
                let msg = format!("result is not JSON: {}", e.0);
                let mut shared = self.shared.borrow_mut();
                shared.item_error("FILTER_RESULT_NOT_JSON", &msg);
                continue;
            }
            self.out.write_all(&self.buf).map_err(write_stop)?;
        }
        Ok(None)
    }

    fn flush(&mut self) -> Result<(), Stop> {
        self.out.flush().map_err(write_stop)
    }
}

/// The exit of `-e` on a judged stream: the verdict's, or the last
/// result's where that is more severe (said on stderr: a non-zero exit
/// says why).
fn exit_status(verdict: Code, last: Option<bool>, quiet: bool) -> Code {
    let mine = super::raw::last_result_code(last);
    let code = verdict.worst(mine);
    if code != verdict {
        let why = match last {
            None => "there was no result",
            _ => "the last result was false or null",
        };
        crate::out::eprint_line(quiet, &format!("aoi filter: -e: {why} (exit {code})"));
    }
    code
}

/// A failed write on stdout: a closed pipe ends quietly (§ 7), anything
/// else says so.
fn write_stop(e: io::Error) -> Stop {
    crate::out::write_err(e, "stdout")
}

/// Ends jq's modes ([`plain`]) as this mode ends on the same input: the
/// same verdicts taken the same way, the same exit status and stderr
/// lines, aoi's report written nowhere.
fn close_plain(
    args: &FilterArgs,
    named: bool,
    shared: judged::Shared,
    halted: Option<i32>,
) -> Code {
    let mut r = Report::new(Sinks::new(None, None, None), named);
    r.item_errors = shared.item_errors;
    r.first_item_code = shared.first_code;
    r.first_item = shared.first_said;
    r.halted = halted;
    let mut t = Taken::default();
    for ended in shared.ended {
        match ended {
            judged::Ended::Judged(source, v, shown) => {
                take_verdict(&mut r, args, &mut t, &source, *v, &shown)
            }
            judged::Ended::Unreadable(source, msg) => {
                if let Err(stop) = unreadable(&mut r, args, &mut t, &msg, &source) {
                    return stop_code("filter", &stop);
                }
            }
        }
    }
    match close_framed(&mut r, args, t) {
        Ok(code) => code,
        Err(stop) => stop_code("filter", &stop),
    }
}
