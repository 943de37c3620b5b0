//! Where the report goes: one format on stdout, or several in one pass
//! (`--format junit=aoi-junit.xml --format markdown=summary.md --format
//! table`), so a CI step reads its files once for the test tab, the job
//! summary and the exit status. Each file holds what that format alone
//! writes, byte for byte (its run id and times aside): the formats are
//! views of one set of entries, written at the end, one after another.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::cli::{FormatTarget, MergeArgs, MergeFormat};
use crate::out::{Stop, eprint_line, stdout_writer, write_err};
use crate::spec::exit::Code;

/// One output: a format and its writer, a file or stdout.
pub(super) struct Target {
    pub(super) format: MergeFormat,
    /// The file and its name; `None`: stdout.
    pub(super) file: Option<(BufWriter<File>, String)>,
}

impl Target {
    pub(super) fn on_stdout(&self) -> bool {
        self.file.is_none()
    }

    /// Writes `text` out and flushes it.
    pub(super) fn write(&mut self, text: &str) -> Result<(), Stop> {
        match &mut self.file {
            Some((f, path)) => f
                .write_all(text.as_bytes())
                .and_then(|()| f.flush())
                .map_err(|e| write_err(e, &format!("report {path}"))),
            None => {
                let mut out = stdout_writer();
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| write_err(e, "stdout"))
            }
        }
    }
}

/// The outputs `--format` asks for, their files created; the default is
/// a table on a terminal, jsonl otherwise. Two on stdout, or a format
/// twice, is a usage error (64); a file that cannot be created is 73.
pub(super) fn resolve(args: &MergeArgs, tty: bool) -> Result<Vec<Target>, Code> {
    let default = FormatTarget {
        format: if tty {
            MergeFormat::Table
        } else {
            MergeFormat::Jsonl
        },
        path: None,
    };
    let asked = match args.format.is_empty() {
        true => std::slice::from_ref(&default),
        false => &args.format[..],
    };
    let usage = |msg: &str| {
        eprint_line(false, &format!("aoi merge-report: {msg}"));
        Code::USAGE
    };
    if asked.iter().filter(|t| t.path.is_none()).count() > 1 {
        return Err(usage(
            "at most one --format on stdout; give the others a file (--format FORMAT=PATH)",
        ));
    }
    let mut targets: Vec<Target> = Vec::with_capacity(asked.len());
    for t in asked {
        if targets.iter().any(|o| o.format == t.format) {
            return Err(usage(&format!(
                "--format {} given twice",
                format_name(t.format)
            )));
        }
        let file = match &t.path {
            Some(p) => Some((create(p)?, p.display().to_string())),
            None => None,
        };
        targets.push(Target {
            format: t.format,
            file,
        });
    }
    Ok(targets)
}

fn create(p: &Path) -> Result<BufWriter<File>, Code> {
    File::create(p).map(BufWriter::new).map_err(|e| {
        let msg = format!(
            "aoi merge-report: cannot create report {}: {e}",
            p.display()
        );
        eprint_line(false, &msg);
        Code::CANTCREAT
    })
}

/// The format's name as `--format` takes it.
pub(super) fn format_name(f: MergeFormat) -> String {
    use clap::ValueEnum;
    f.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

/// Where the jsonl report, written as runs end, goes: stdout or its
/// file (taken from the target), as [`crate::out::Sinks::new`] takes them.
pub(super) type JsonlOut = (Option<Box<dyn Write>>, Option<(BufWriter<File>, String)>);

pub(super) fn jsonl_out(t: &mut Target) -> JsonlOut {
    match t.file.take() {
        Some(f) => (None, Some(f)),
        None => (Some(stdout_writer()), None),
    }
}
