//! `--raw`'s inputs: filtered in turn by one jq reader, or, when the
//! program cannot read on from one value into the next ([`apart`]), each
//! in its turn through the one driver ([`each_turn`]): one big input split
//! over threads ([`super::raw_split`]), several regular files on
//! workers: they filter files up to 1 MiB each into a record of the lines
//! it would write to stdout and what it would say on stderr, replayed in input order through the writes one thread makes,
//! so stdout, stderr (however interleaved) and the exit are one thread's.
//! A larger file, one whose record passes its room, or one that halted,
//! is filtered in its turn. After a halt nothing more is written, as on
//! one thread.

use crate::spec::exit::Code;
use std::io;
use std::path::Path;

use jaq_core::Vars;
use jaq_json::Val;

use super::STACK;
use super::jq_args::thread_globals;
use super::raw::{Live, Ran, filter_paths, finish};
use super::raw_split::filter_input;
use super::sink::{Rec, Said};
use crate::cli::FilterArgs;
use crate::jq::Filter;
use crate::out::{Full, Judging, Output, stdout_writer};
use crate::pool::{Engine, Keeps, Opened, Turned, each_turn};

/// Runs `filter --raw` (or `-r`, `-n`, `-s`); returns the exit status.
pub(super) fn run_raw(
    args: &FilterArgs,
    judging: &Judging,
    filter: &Filter,
    vars: Vars<Val>,
) -> Code {
    let paths = judging.inputs();
    let threads = judging.reading.threads;
    let mut live = Live {
        out: stdout_writer(),
        quiet: args.quiet,
    };
    if !apart(args) {
        let ran = filter_paths(args, filter, vars, paths, &mut live);
        return finish(ran, &mut live, args.exit_status);
    }
    let mut total = Ran::default();
    let engine = RawFiltering { args, filter };
    each_turn(&paths, threads, &engine, |i, turn| {
        let ran = match turn.into_opened() {
            // In its turn: one big input is split over threads.
            Ok(src) => filter_input(
                args,
                filter,
                vars.clone(),
                src,
                paths[i],
                threads,
                &mut live,
            ),
            Err(turn) => match turn.read_into(&mut live) {
                Ok(Turned::Read(ran)) => Ok(ran),
                // jq's reader opens each file itself, and says why it cannot.
                Ok(Turned::Unreadable(_)) => {
                    filter_paths(args, filter, vars.clone(), vec![paths[i]], &mut live)
                }
                Err(e) => Err(e),
            },
        };
        // A halt or a failed write ends the process here, as it ends one
        // thread, without waiting for workers on later files.
        match ran.map(|ran| total.then(ran)) {
            Ok(ran) if ran.halted.is_none() => total = ran,
            ended => super::exit_now(finish(ended, &mut live, false)),
        }
        true
    });
    finish(Ok(total), &mut live, args.exit_status)
}

/// Whether each input, and each line of it, is filtered alone, so inputs
/// (and the chunks of one) may be filtered at once: not when the program
/// may read on into other values (`input`/`inputs`, or a module it
/// includes or imports, whose text is not looked at; the check is on the
/// text, erring towards reading in turn: a string or a name containing
/// "input" counts), not with `-n` or `-s`, and not with `-e`, which
/// needs the last result of all.
fn apart(args: &FilterArgs) -> bool {
    let reads_on = ["input", "include", "import"]
        .iter()
        .any(|word| args.filter.contains(word));
    !args.null_input && !args.slurp && !args.exit_status && !reads_on
}

/// How `--raw` filters each input alone, here or on a worker.
struct RawFiltering<'a> {
    args: &'a FilterArgs,
    filter: &'a Filter,
}

impl Engine for RawFiltering<'_> {
    type Item = Rec;
    type Done = Ran;
    type Error = io::Error;

    /// Files up to 1 MiB are filtered at once: a larger one's results
    /// grow with it.
    fn keeps(&self) -> Keeps {
        Keeps::Small
    }

    /// jq recurses.
    fn stack(&self) -> Option<usize> {
        Some(STACK)
    }

    /// stdout is never flushed by block: its buffer goes out where it
    /// fills, as on one thread.
    fn in_pieces(&self) -> bool {
        true
    }

    /// jq's reader opens the file itself (stdin included), as one reader
    /// of every input does.
    fn read<O, E>(&self, _: Opened, path: &Path, out: &mut O) -> io::Result<Ran>
    where
        O: Output<Rec, Error = E>,
        E: Into<io::Error>,
    {
        let (args, filter) = (self.args, self.filter);
        // The filter thread's were made before any input: only a
        // worker's can fail, and its file is then filtered in its turn.
        let Some(values) = thread_globals(args) else {
            return Err(Full.into());
        };
        let vars = Vars::new(values);
        if !crate::pool::on_worker() {
            return filter_paths(args, filter, vars, vec![path], out);
        }
        // On a worker, what the filter writes to stderr goes into the
        // record, where it wrote it.
        let mut said = Said::<_, io::Error>::capture(out);
        let ran = filter_paths(args, filter, vars, vec![path], &mut said)?;
        said.said()?;
        Ok(ran)
    }

    /// A halt is never a record's: the file is filtered again in its
    /// turn, where it halts as one thread does, and nothing after it is
    /// written.
    fn weight(&self, ran: &Ran) -> usize {
        match ran.halted {
            Some(_) => usize::MAX,
            None => 0,
        }
    }
}
