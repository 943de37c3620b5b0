//! Opening inputs: files and stdin as sources for the judge (with an idle
//! timeout, two threads where they pay), and SIGINT/SIGTERM as a stop.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::judging::Reading;
use super::text::*;

/// Installs the SIGINT/SIGTERM handlers of a command that writes a stream
/// of its own, so a cancellation ends it with `reason:"cancelled"` (§ 7).
pub(crate) fn install_cancel(cmd: &str) {
    if let Err(e) = crate::cancel::install() {
        eprint_line(false, &format!("aoi {cmd}: cannot handle signals: {e}"));
    }
}

/// Where an input is read from, and on how many threads
/// ([`crate::parallel::threads_for`]; one with an idle timeout, whose
/// poll belongs to a reader on one thread). The descriptor is read itself,
/// duplicated, not through a buffer of `src`'s own (stdin's 8 KiB
/// BufReader): the idle-timeout poll must see every byte still to be read
/// (bytes held in that buffer looked like silence), and reads split lines
/// alike on one thread and on two.
pub(crate) fn source_for<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    reading: Reading,
) -> crate::drive::Source<Box<dyn Read + Send>> {
    source_holding(src, reading, crate::lines::hold())
}

/// [`source_for`], holding lines of up to `hold` bytes whole (`aoi
/// filter` needs whole events; longer lines come in pieces).
pub(crate) fn source_holding<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    src: R,
    reading: Reading,
    hold: usize,
) -> crate::drive::Source<Box<dyn Read + Send>> {
    use crate::parallel::{Threads, threads_for};
    use std::os::fd::AsRawFd;
    match dup_of(&src) {
        Some(file) => {
            let threads = match reading.idle_timeout {
                Some(_) => Threads::One,
                None if crate::pool::on_worker() => Threads::One,
                None => threads_for(&file, reading.threads),
            };
            let fd = file.as_raw_fd();
            crate::drive::Source {
                reader: with_idle_timeout(Box::new(file), fd, reading, hold),
                threads,
            }
        }
        // No duplicate (a descriptor limit): `src` itself, on one thread.
        None => {
            let fd = src.as_raw_fd();
            crate::drive::Source::one(with_idle_timeout(Box::new(src), fd, reading, hold))
        }
    }
}

/// The descriptor `src` reads, duplicated, as a `File`.
fn dup_of<R: std::os::fd::AsRawFd>(src: &R) -> Option<File> {
    // SAFETY: the descriptor is `src`'s, open for the duration of this
    // borrow; it is duplicated, not taken over.
    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(src.as_raw_fd()) };
    fd.try_clone_to_owned().ok().map(File::from)
}

/// A line reader of `inner`, which reads `fd`, with `--idle-timeout` when
/// given (§ 4.2).
fn with_idle_timeout(
    inner: Box<dyn Read + Send>,
    fd: std::os::fd::RawFd,
    reading: Reading,
    hold: usize,
) -> crate::lines::LineReader<Box<dyn Read + Send>> {
    let r = crate::lines::LineReader::new(inner, hold);
    // Either way the reader knows its descriptor (an idle timeout records
    // it too).
    match reading.idle_timeout {
        Some(d) => r.idle_timeout(fd, d),
        None => r.reading(fd),
    }
}

/// Opens an input file; a directory or a missing file is exit 66.
pub(crate) fn open_input(path: &Path) -> Result<File, String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(format!("cannot read {}: is a directory", path.display()));
        }
        _ => {}
    }
    File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))
}
