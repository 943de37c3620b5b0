//! The command line resolved once into what the engines take
//! ([`Judging`]): the `--schema` file compiled, the inputs (the FILEs and
//! the names a `--files-from` list holds), the judge's options and how
//! inputs and logs are read. `cli` parses; this turns its low-level
//! arguments into high-level ones, and is the one place that reads both.

use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::cli::{
    CheckArgs, ErrorsArgs, FilesFrom, FilterArgs, JudgeArgs, LogArgs, MergeArgs, StripArgs,
    SummaryArgs,
};
use crate::out::{Judging, Logs, Reading, eprint_line};
use crate::spec::exit::Code;

/// A command's arguments that judge streams and name inputs: its judge's
/// options, how it reads logs (if it does), its FILEs and its
/// `--files-from` list.
pub(crate) trait Listed {
    fn judge(&self) -> &JudgeArgs;
    fn files(&self) -> &[PathBuf];
    fn list(&self) -> &FilesFrom;
    /// `-q`: aoi's own lines are not said.
    fn quiet(&self) -> bool;
    /// How it reads logs: none for a command without `--log`.
    fn logs(&self) -> Option<&LogArgs> {
        None
    }
}

macro_rules! listed {
    ($($args:ty $(, $logs:ident)?);*) => {$(
        impl Listed for $args {
            fn judge(&self) -> &JudgeArgs {
                &self.judge
            }
            fn files(&self) -> &[PathBuf] {
                &self.files
            }
            fn list(&self) -> &FilesFrom {
                &self.list
            }
            fn quiet(&self) -> bool {
                self.quiet
            }
            $(fn logs(&self) -> Option<&LogArgs> {
                Some(&self.$logs)
            })?
        }
    )*};
}
listed!(
    CheckArgs;
    FilterArgs;
    StripArgs, logs;
    ErrorsArgs, logs;
    SummaryArgs, logs;
    MergeArgs, logs
);

/// Runs `f` on `args` and what they [`resolve`] to, or returns the exit
/// status of why they cannot be resolved.
pub(crate) fn resolving<A: Listed>(
    cmd: &str,
    args: &A,
    f: impl FnOnce(&A, &Judging) -> Code,
) -> Code {
    match resolve(cmd, args) {
        Ok(judging) => f(args, &judging),
        Err(code) => code,
    }
}

/// `args` resolved: the `--schema` file compiled ([`judging`]), then the
/// inputs listed ([`inputs`]); or, after saying why on stderr, the exit
/// status.
pub(crate) fn resolve(cmd: &str, args: &impl Listed) -> Result<Judging, Code> {
    let judging = judging(cmd, args)?;
    let files = inputs(cmd, args)?;
    Ok(Judging { files, ..judging })
}

/// `args` resolved but for their inputs (none yet: stdin): the
/// `--schema` file, if any, read and compiled before any input is read
/// (§ 10), or, after saying why on stderr, the exit status: a usage
/// error (not JSON, not a valid schema) is 64, a file that cannot be read
/// 66.
pub(crate) fn judging(cmd: &str, args: &impl Listed) -> Result<Judging, Code> {
    let judge = args.judge();
    let mut judging = Judging {
        judge: crate::judge::JudgeOptions {
            unbounded: judge.unbounded,
            fail_on_partial: judge.fail_on_partial,
            ..Default::default()
        },
        reading: Reading {
            idle_timeout: judge.idle_timeout,
            threads: judge.threads,
        },
        logs: args.logs().map_or_else(Logs::default, |l| Logs {
            log: l.log,
            max_runs: l.max_runs,
            show: l.show,
        }),
        files: Vec::new(),
    };
    if let Some(path) = &judge.schema {
        use crate::validator::{EventSchema, LoadError};
        match EventSchema::from_file(path) {
            Ok(schema) => judging.judge.schema = Some(std::sync::Arc::new(schema)),
            Err(e) => {
                let (code, msg) = match e {
                    LoadError::Usage(m) => (Code::USAGE, m),
                    LoadError::NoInput(m) => (Code::NOINPUT, m),
                };
                eprint_line(false, &format!("aoi {cmd}: {msg}"));
                return Err(code);
            }
        }
    }
    Ok(judging)
}

/// The inputs `args` name ([`listed_inputs`]; none is stdin), or, after
/// saying why on stderr, the exit status.
pub(crate) fn inputs(cmd: &str, args: &impl Listed) -> Result<Vec<PathBuf>, Code> {
    let files = listed_inputs(args.files(), args.list()).map_err(|(code, msg)| {
        eprint_line(false, &format!("aoi {cmd}: {msg}"));
        code
    })?;
    // Said when stdin is opened as an input, if it is a terminal: not
    // when a file or a `--files-from` list (never empty) is named.
    crate::out::notice_reading_terminal(cmd, !files.is_empty(), args.quiet());
    Ok(files)
}

/// The FILEs, then the names `--files-from` lists (one per line, empty
/// lines skipped). An unreadable or empty list is an error (66), stdin as
/// both list and input a usage error (64).
fn listed_inputs(files: &[PathBuf], list: &FilesFrom) -> Result<Vec<PathBuf>, (Code, String)> {
    let mut inputs = files.to_vec();
    let Some(list) = &list.files_from else {
        return Ok(inputs);
    };
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
    Ok(inputs)
}
