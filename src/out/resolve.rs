//! The command line resolved once into what the engines take: the
//! `--schema` file compiled, the inputs (the FILEs and the names a
//! `--files-from` list holds, stdin when there are none), the judge's
//! options and how logs are read. `cli` parses; this turns its low-level
//! arguments into high-level ones.

use crate::spec::exit::Code;
use std::borrow::Cow;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::cli::{
    CheckArgs, ErrorsArgs, FilesFrom, FilterArgs, JudgeArgs, LogArgs, MergeArgs, StripArgs,
    SummaryArgs,
};

use super::text::eprint_line;

impl JudgeArgs {
    /// The judge's options these arguments ask for, with `per_rule_limit`
    /// findings kept per rule.
    pub(crate) fn options(&self, per_rule_limit: u64) -> crate::judge::JudgeOptions {
        crate::judge::JudgeOptions {
            unbounded: self.unbounded,
            fail_on_partial: self.fail_on_partial,
            per_rule_limit,
            schema: self.validator.clone(),
        }
    }
}

/// How each input is read, as the judge's arguments resolve it: with an
/// idle timeout or none, on the threads `--threads` allows.
#[derive(Clone, Copy, Default)]
pub(crate) struct Reading {
    pub(crate) idle_timeout: Option<std::time::Duration>,
    /// `--threads`: 0 is one per CPU.
    pub(crate) threads: usize,
}

impl From<&JudgeArgs> for Reading {
    fn from(judge: &JudgeArgs) -> Self {
        Reading {
            idle_timeout: judge.idle_timeout,
            threads: judge.threads,
        }
    }
}

impl LogArgs {
    /// How the log reader reads each input: as these arguments ask, each
    /// run judged as `judge` asks (all runs; `errors --run` narrows it).
    /// `shown`: findings kept per run.
    pub(crate) fn reading(
        &self,
        judge: &JudgeArgs,
        per_rule_limit: u64,
        shown: usize,
    ) -> crate::demux::Options {
        crate::demux::Options {
            judge: judge.options(per_rule_limit),
            max_runs: self.max_runs,
            // Up to what stderr may show of one run (capped: kept per run).
            shown: shown.max(self.show.min(100)),
            run: None,
            log: self.log,
        }
    }
}

/// A command's arguments that judge streams, and name inputs: its
/// judge's options, its FILEs and its `--files-from` list.
pub(crate) trait Listed: Clone {
    fn judge(&self) -> &JudgeArgs;
    fn judge_mut(&mut self) -> &mut JudgeArgs;
    fn inputs_mut(&mut self) -> (&mut Vec<PathBuf>, &mut FilesFrom);
    fn list(&self) -> &FilesFrom;
    /// Readies the notice for stdin on a terminal, unless a file or a
    /// `--files-from` list is named or `-q` is given
    /// ([`super::text::notice_reading_terminal`]).
    fn notice_terminal(&self, cmd: &str);
}

macro_rules! listed {
    ($($args:ty),*) => {$(
        impl Listed for $args {
            fn judge(&self) -> &JudgeArgs {
                &self.judge
            }
            fn judge_mut(&mut self) -> &mut JudgeArgs {
                &mut self.judge
            }
            fn inputs_mut(&mut self) -> (&mut Vec<PathBuf>, &mut FilesFrom) {
                (&mut self.files, &mut self.list)
            }
            fn list(&self) -> &FilesFrom {
                &self.list
            }
            fn notice_terminal(&self, cmd: &str) {
                let named = !self.files.is_empty() || self.list.files_from.is_some();
                super::text::notice_reading_terminal(cmd, named, self.quiet);
            }
        }
    )*};
}
listed!(
    CheckArgs,
    StripArgs,
    ErrorsArgs,
    SummaryArgs,
    FilterArgs,
    MergeArgs
);

/// Runs `f` on `args` [`resolved`], or returns the exit status of why
/// they cannot be.
pub(crate) fn resolving<A: Listed>(cmd: &str, args: &A, f: impl FnOnce(&A) -> Code) -> Code {
    match resolved(cmd, args) {
        Ok(args) => f(args.as_ref()),
        Err(code) => code,
    }
}

/// `args` with the `--schema` file compiled ([`judging`]), the names its
/// `--files-from` list names added to its FILEs and the list taken
/// (unchanged when there is no list), or, after saying why on stderr,
/// the exit status ([`listed_inputs`]).
pub(crate) fn resolved<'a, A: Listed>(cmd: &str, args: &'a A) -> Result<Cow<'a, A>, Code> {
    args.notice_terminal(cmd);
    let mut listed = judging(cmd, args)?;
    if args.list().files_from.is_none() {
        return Ok(listed);
    }
    let (files, list) = listed.to_mut().inputs_mut();
    match listed_inputs(files, list) {
        Ok(inputs) => {
            *files = inputs;
            *list = FilesFrom::default();
            Ok(listed)
        }
        Err((code, msg)) => {
            eprint_line(false, &format!("aoi {cmd}: {msg}"));
            Err(code)
        }
    }
}

/// `args` with the `--schema` file, if any, read and compiled, before
/// any input is read (§ 10), or, after saying why on stderr, the exit
/// status: a usage error (not JSON, not a valid schema) is 64, a file
/// that cannot be read 66.
pub(crate) fn judging<'a, A: Listed>(cmd: &str, args: &'a A) -> Result<Cow<'a, A>, Code> {
    let mut judging = Cow::Borrowed(args);
    let Some(path) = &args.judge().schema else {
        return Ok(judging);
    };
    use crate::validator::{EventSchema, LoadError};
    match EventSchema::from_file(path) {
        Ok(schema) => {
            judging.to_mut().judge_mut().validator = Some(std::sync::Arc::new(schema));
            Ok(judging)
        }
        Err(e) => {
            let (code, msg) = match e {
                LoadError::Usage(m) => (Code::USAGE, m),
                LoadError::NoInput(m) => (Code::NOINPUT, m),
            };
            eprint_line(false, &format!("aoi {cmd}: {msg}"));
            Err(code)
        }
    }
}

/// The inputs of resolved FILEs: stdin (`-`) when there are none.
pub(crate) fn inputs_of(files: &[PathBuf]) -> Vec<&Path> {
    match files.is_empty() {
        true => vec![Path::new("-")],
        false => files.iter().map(PathBuf::as_path).collect(),
    }
}

/// The inputs: the FILEs, then the names `--files-from` lists (one per
/// line, empty lines skipped); stdin when there are none. An unreadable
/// or empty list is an error (66), stdin as both list and input a usage
/// error (64).
pub(crate) fn listed_inputs(
    files: &[PathBuf],
    list: &FilesFrom,
) -> Result<Vec<PathBuf>, (Code, String)> {
    let mut inputs = files.to_vec();
    if let Some(list) = &list.files_from {
        let text = if list == Path::new("-") {
            let mut buf = Vec::new();
            io::stdin().read_to_end(&mut buf).map(|_| buf)
        } else {
            std::fs::read(list)
        };
        let text = text.map_err(|e| {
            let msg = format!("cannot read --files-from {}: {e}", list.display());
            (Code::NOINPUT, msg)
        })?;
        let names = text
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
        inputs.extend(
            names
                .filter(|l| !l.is_empty())
                .map(|l| PathBuf::from(std::ffi::OsStr::from_bytes(l))),
        );
        // stdin is read once: as the list, it cannot also be an input.
        if list == Path::new("-") && inputs.iter().any(|p| p == Path::new("-")) {
            let msg = "stdin (-) is the --files-from list; it cannot also be an input";
            return Err((Code::USAGE, msg.into()));
        }
        // An empty list is no input, never an empty report that passes.
        if inputs.is_empty() {
            return Err((
                Code::NOINPUT,
                format!("--files-from {} names no file", list.display()),
            ));
        }
    } else if inputs.is_empty() {
        inputs.push(PathBuf::from("-"));
    }
    Ok(inputs)
}
