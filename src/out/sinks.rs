//! Where a command's output goes: stdout and aoi's own report stream
//! (the [`Sinks`]), how a write that fails stops it, and plain printing.
//! Commands import this; they do not import each other.

use crate::spec::exit::Code;
use std::fs::File;
use std::io::{self, Write};

use crate::emit::{Emitter, Ended, Producer};
use crate::judge::Verdict;

use super::text::*;
use crate::emit::stdout_writer;

/// Where the relay and the report go. The report is aoi's own stream,
/// written by the one [`Producer`] (to stdout, a `--report` file, both or
/// neither).
pub(crate) struct Sinks {
    relay: Option<File>,
    pub(crate) out: Producer<Tee>,
    /// Upstream domain events, warnings and errors consumed so far.
    consumed: (u64, u64, u64),
}

/// Why the run stops early: a closed pipe (quiet, 141), a cancellation
/// (`reason:"cancelled"`, 130/143) or a write failure (a message, 74).
pub(crate) type Stop = Ended;

/// A write error on `what` as a [`Stop`], with the message to print.
pub(crate) fn write_err(e: io::Error, what: &str) -> Stop {
    Ended::from_io(io::Error::new(
        e.kind(),
        format!("cannot write {what}: {e}"),
    ))
}

/// The exit status for a command stopped by `stop`, printing the message
/// of a write failure or a cancellation (a closed pipe is quiet, § 7).
pub(crate) fn stop_code(cmd: &str, stop: &Stop) -> Code {
    match stop {
        Ended::Closed => {}
        Ended::Cancelled(_) => eprint_line(false, &format!("aoi {cmd}: {stop}")),
        Ended::Failed(e) => eprint_line(false, &format!("aoi {cmd}: {e}")),
        Ended::Refused(r) => eprint_line(false, &format!("aoi {cmd}: {r}")),
    }
    Code::of(stop.exit_code())
}

/// The stop, if SIGINT or SIGTERM asked for one ([`crate::cancel`]).
pub(crate) fn cancelled() -> Result<(), Stop> {
    match crate::cancel::requested() {
        Some(sig) => Err(Ended::Cancelled(sig)),
        None => Ok(()),
    }
}

/// The report's destinations, as one writer.
pub(crate) struct Tee {
    pub(crate) stdout: Option<Box<dyn Write>>,
    pub(crate) file: Option<(io::BufWriter<File>, String)>,
}

impl Tee {
    /// The file first: when stdout fails, the file holds the whole event
    /// and can still be closed properly.
    fn each(&mut self, mut f: impl FnMut(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        if let Some((out, path)) = self.file.as_mut() {
            // Never a quiet "closed pipe": a report that cannot be written
            // is an error to report (74).
            f(out).map_err(|e| io::Error::other(format!("cannot write report {path}: {e}")))?;
        }
        if let Some(out) = self.stdout.as_mut() {
            f(out).map_err(|e| io::Error::new(e.kind(), format!("cannot write stdout: {e}")))?;
        }
        Ok(())
    }
}

impl Write for Tee {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.write_all(b)?;
        Ok(b.len())
    }
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        self.each(|w| w.write_all(b))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.each(|w| w.flush())
    }
}

impl Sinks {
    /// Sinks that write a report to stdout only.
    pub(crate) fn report_to_stdout() -> Self {
        Self::new(None, Some(stdout_writer()), None)
    }

    pub(crate) fn new(
        relay: Option<File>,
        stdout: Option<Box<dyn Write>>,
        file: Option<(io::BufWriter<File>, String)>,
    ) -> Self {
        Sinks {
            relay,
            out: Producer::unjudged(Emitter::new(), Tee { stdout, file }),
            consumed: (0, 0, 0),
        }
    }

    /// Counts a stream's events as consumed (§ 8.3), for a summary the
    /// producer writes on an early end.
    pub(crate) fn add_consumed(&mut self, v: &Verdict) {
        self.add_counts((v.domain_events, v.warnings, v.errors));
    }

    /// Counts domain events, warnings and errors as consumed.
    pub(crate) fn add_counts(&mut self, (d, w, e): (u64, u64, u64)) {
        self.consumed.0 += d;
        self.consumed.1 += w;
        self.consumed.2 += e;
        let (i, w, e) = self.consumed;
        self.out.consumed(i, w, e);
    }

    pub(crate) fn relay(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        if let Some(out) = self.relay.as_mut() {
            out.write_all(bytes).map_err(|e| write_err(e, "stdout"))?;
        }
        Ok(())
    }

    /// Whether the input is relayed to stdout.
    pub(crate) fn relays(&self) -> bool {
        self.relay.is_some()
    }

    pub(crate) fn has_report(&mut self) -> bool {
        let t = self.out.get_mut();
        t.stdout.is_some() || t.file.is_some()
    }

    /// Ends the report for `stop` (see [`Producer::end`]) and returns the
    /// exit status, printing what went wrong.
    pub(crate) fn end(self, cmd: &str, stop: Stop) -> Code {
        let code = stop_code(cmd, &stop);
        self.out.end(stop);
        code
    }
}

/// Writes a command's whole output to stdout: exit 0, or 141 quietly when
/// the reader went away, or 74 with a message.
pub(crate) fn print_stdout(cmd: &str, text: &str) -> Code {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => Code::OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Code::PIPE,
        Err(e) => {
            eprint_line(false, &format!("aoi {cmd}: cannot write stdout: {e}"));
            Code::IOERR
        }
    }
}

pub(crate) trait AsFdFile {
    fn as_fd_file(&self) -> io::Result<File>;
}

impl AsFdFile for io::Stdout {
    /// See [`crate::emit::stdout_file`].
    fn as_fd_file(&self) -> io::Result<File> {
        crate::emit::stdout_file()
    }
}
