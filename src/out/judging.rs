//! What a command that judges streams takes from its command line,
//! resolved once (`cmd::resolve`): the judge's options with the
//! `--schema` file compiled, how each input and each log is read, and the
//! inputs. The engines take this, never the command line's arguments.

use std::path::{Path, PathBuf};

use crate::judge::JudgeOptions;

/// The shared options of a command that judges streams, resolved.
#[derive(Clone, Default)]
pub(crate) struct Judging {
    /// How each stream is judged (`--unbounded`, `--fail-on-partial`, the
    /// compiled `--schema`); each engine sets its findings kept per rule.
    pub(crate) judge: JudgeOptions,
    /// How each input is read.
    pub(crate) reading: Reading,
    /// How a log is read (the commands with `--log`; off for the others).
    pub(crate) logs: Logs,
    /// The inputs named: the FILEs, then the names a `--files-from` list
    /// holds. None is stdin.
    pub(crate) files: Vec<PathBuf>,
}

/// How each input is read: with an idle timeout or none, on the threads
/// `--threads` allows.
#[derive(Clone, Copy, Default)]
pub(crate) struct Reading {
    pub(crate) idle_timeout: Option<std::time::Duration>,
    /// `--threads`: 0 is one per CPU.
    pub(crate) threads: usize,
}

/// How the log reader reads each input: `--log`, `--max-runs`, `--show`.
#[derive(Clone, Copy, Default)]
pub(crate) struct Logs {
    pub(crate) log: bool,
    pub(crate) max_runs: usize,
    pub(crate) show: usize,
}

impl Judging {
    /// The judge's options, with `per_rule_limit` findings kept per rule.
    pub(crate) fn options(&self, per_rule_limit: u64) -> JudgeOptions {
        JudgeOptions {
            per_rule_limit,
            ..self.judge.clone()
        }
    }

    /// How the log reader reads each input, each run judged with
    /// [`Judging::options`] (all runs; `errors --run` narrows it).
    /// `shown`: findings kept per run.
    pub(crate) fn log_reading(&self, per_rule_limit: u64, shown: usize) -> crate::demux::Options {
        crate::demux::Options {
            judge: self.options(per_rule_limit),
            max_runs: self.logs.max_runs,
            // Up to what stderr may show of one run (capped: kept per run).
            shown: shown.max(self.logs.show.min(100)),
            run: None,
            log: self.logs.log,
        }
    }

    /// The inputs: the files named, stdin (`-`) when there are none.
    pub(crate) fn inputs(&self) -> Vec<&Path> {
        match self.files.is_empty() {
            true => vec![Path::new("-")],
            false => self.files.iter().map(PathBuf::as_path).collect(),
        }
    }

    /// Whether inputs were named (stdin is then read only as `-`).
    pub(crate) fn named(&self) -> bool {
        !self.files.is_empty()
    }
}
