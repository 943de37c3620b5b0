//! The pipes around a probe: the stdin lint writes on a thread (and keeps
//! a second reading end of, to tell whether the tool read it: check 12),
//! and stdout and stderr read to a cap on threads of their own, so the
//! tool never blocks on a full pipe and lint never blocks on a held one.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::process::{Child, ChildStdout};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Most bytes kept of a probe's stdout and stderr (the rest is read and
/// dropped so the tool never blocks on a full pipe).
const STDOUT_CAP: usize = 64 << 20;
const STDERR_CAP: usize = 1 << 20;

/// A pipe for a probe's stdin: the child's reading end, a second reading
/// end lint keeps (for [`unread_in_pipe`]), and the writing end.
pub(super) type StdinPipe = (OwnedFd, OwnedFd, OwnedFd);

/// A new [`StdinPipe`], all ends close-on-exec (the child gets its end as
/// a duplicate on fd 0).
pub(super) fn stdin_pipe() -> Option<StdinPipe> {
    let (read, write) = cloexec_pipe()?;
    let peek = read.try_clone().ok()?;
    Some((read, peek, write))
}

/// A pipe with both ends close-on-exec: at once with `pipe2` on Linux.
#[cfg(target_os = "linux")]
fn cloexec_pipe() -> Option<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into the array on success.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return None;
    }
    // SAFETY: both descriptors are fresh and owned here alone.
    Some(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A pipe with both ends close-on-exec elsewhere (macOS has no `pipe2`).
#[cfg(not(target_os = "linux"))]
fn cloexec_pipe() -> Option<(OwnedFd, OwnedFd)> {
    pipe_then_cloexec()
}

/// A pipe with both ends close-on-exec: `pipe`, then `FD_CLOEXEC` on each
/// end, for the systems without `pipe2` (macOS: the `libc` crate lacks it
/// there). A process started by another thread between the two calls
/// would inherit the ends; lint starts its probes from one thread.
/// (`std::io::pipe`, which does the same there, needs Rust 1.87.) Built
/// on Linux too, where its test runs.
#[cfg_attr(target_os = "linux", allow(dead_code))]
fn pipe_then_cloexec() -> Option<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe writes two descriptors into the array on success.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: both descriptors are fresh and owned here alone.
    let ends = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    for fd in [&ends.0, &ends.1] {
        // SAFETY: F_SETFD on a descriptor held here sets its flags only.
        if unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) } != 0 {
            return None;
        }
    }
    Some(ends)
}

/// Bytes waiting in the pipe `fd` is the read end of (0 if unknown).
pub(super) fn unread_in_pipe(fd: RawFd) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int; a closed descriptor fails cleanly.
    let rc = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) };
    if rc == 0 {
        usize::try_from(n).unwrap_or(0)
    } else {
        0
    }
}

/// Where lint writes the probe's stdin, and the reading end it keeps: the
/// writing end of lint's own pipe (the child's end closed here, it is the
/// child's alone), or else the pipe `Command` made.
pub(super) fn stdin_ends(
    pipe: Option<StdinPipe>,
    child: &mut Child,
) -> (Option<Box<dyn Write + Send>>, Option<OwnedFd>) {
    match pipe {
        Some((child_end, peek, write)) => {
            drop(child_end);
            (Some(Box::new(std::fs::File::from(write))), Some(peek))
        }
        None => (
            child
                .stdin
                .take()
                .map(|s| Box::new(s) as Box<dyn Write + Send>),
            None,
        ),
    }
}

/// The thread writing a probe's stdin.
pub(super) struct StdinWriter {
    pub(super) thread: Option<JoinHandle<()>>,
    /// Tells a writer that keeps stdin open that the process ended.
    pub(super) done: Sender<()>,
    /// Says the input was written whole.
    pub(super) written: Receiver<()>,
}

/// Writes `input` to the probe's stdin on a thread; closed when written
/// unless `keep` open (then it is closed once the process ended).
pub(super) fn write_stdin(
    writer: Option<Box<dyn Write + Send>>,
    input: Option<Vec<u8>>,
    keep: bool,
) -> StdinWriter {
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let (written_tx, written_rx) = mpsc::channel::<()>();
    let thread = match (writer, input) {
        (Some(mut sin), Some(bytes)) => Some(std::thread::spawn(move || {
            let _ = sin.write_all(&bytes);
            let _ = sin.flush();
            let _ = written_tx.send(());
            if keep {
                let _ = done_rx.recv();
            }
        })),
        _ => None,
    };
    StdinWriter {
        thread,
        done: done_tx,
        written: written_rx,
    }
}

/// The threads reading a probe's stdout and stderr. They keep what they
/// read where the probe can take it even if they never end (a process the
/// tool left behind holds the pipe), and say when they are done.
pub(super) struct Readers {
    pub(super) stdout: Arc<Mutex<Vec<u8>>>,
    pub(super) stderr: Arc<Mutex<Vec<u8>>>,
    /// One message per reader that saw the end of its pipe.
    pub(super) done: Receiver<()>,
    /// How many readers there are.
    pub(super) count: usize,
    /// Told once the first line of stdout is kept.
    pub(super) first_line: Receiver<()>,
    pub(super) stdout_fd: Option<RawFd>,
}

/// Starts the readers of `child`'s stdout and stderr; with `close_after`,
/// stdout is closed after that many bytes (an early pipe close).
pub(super) fn read_outputs(child: &mut Child, close_after: Option<usize>) -> Readers {
    let (first_tx, first_rx) = mpsc::channel::<()>();
    let stdout_got = Arc::new(Mutex::new(Vec::new()));
    let stderr_got = Arc::new(Mutex::new(Vec::new()));
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut count = 0;
    let stdout_fd = child.stdout.as_ref().map(AsRawFd::as_raw_fd);
    if let Some(out) = child.stdout.take() {
        count += 1;
        let got = Arc::clone(&stdout_got);
        let done = done_tx.clone();
        std::thread::spawn(move || {
            read_stdout(out, &got, close_after, &first_tx);
            let _ = done.send(());
        });
    }
    if let Some(e) = child.stderr.take() {
        count += 1;
        let got = Arc::clone(&stderr_got);
        let done = done_tx.clone();
        std::thread::spawn(move || {
            let text = read_capped(e, STDERR_CAP);
            if let Ok(mut got) = got.lock() {
                *got = text;
            }
            let _ = done.send(());
        });
    }
    Readers {
        stdout: stdout_got,
        stderr: stderr_got,
        done: done_rx,
        count,
        first_line: first_rx,
        stdout_fd,
    }
}

/// Reads stdout into `got` as it comes (capped), telling `first` once a
/// line is kept; stops after `close_after` bytes, dropping the pipe.
fn read_stdout(
    mut r: ChildStdout,
    got: &Mutex<Vec<u8>>,
    close_after: Option<usize>,
    first: &Sender<()>,
) {
    let mut buf = [0u8; 64 * 1024];
    let mut told = false;
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let chunk = buf.get(..n).unwrap_or_default();
                let Ok(mut got) = got.lock() else { break };
                let room = STDOUT_CAP.saturating_sub(got.len());
                got.extend_from_slice(chunk.get(..n.min(room)).unwrap_or_default());
                let full = close_after.is_some_and(|c| got.len() >= c);
                drop(got);
                // Told once what was read is kept: the bytes the
                // tool had written at the signal are counted.
                if !told && chunk.contains(&b'\n') {
                    told = true;
                    let _ = first.send(());
                }
                if full {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
}

/// Reads `r` to its end keeping at most `cap` bytes.
fn read_capped(mut r: impl Read, cap: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let room = cap.saturating_sub(out.len());
                out.extend_from_slice(buf.get(..n.min(room)).unwrap_or_default());
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways to make the stdin pipe (the one this system uses, and
    /// the portable one macOS uses) give ends that are close-on-exec and
    /// carry bytes from the writing end to the reading end.
    #[test]
    fn both_pipes_are_close_on_exec_and_carry_bytes() {
        for (name, make) in [
            (
                "cloexec_pipe",
                cloexec_pipe as fn() -> Option<(OwnedFd, OwnedFd)>,
            ),
            ("pipe_then_cloexec", pipe_then_cloexec),
        ] {
            let (read, write) = make().unwrap_or_else(|| panic!("{name}: no pipe"));
            for fd in [&read, &write] {
                // SAFETY: F_GETFD on a descriptor held here reads its flags only.
                let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFD) };
                assert!(
                    flags >= 0 && flags & libc::FD_CLOEXEC != 0,
                    "{name}: flags {flags}"
                );
            }
            std::fs::File::from(write).write_all(b"ok").expect("write");
            let mut got = Vec::new();
            std::fs::File::from(read)
                .read_to_end(&mut got)
                .expect("read");
            assert_eq!(got, b"ok", "{name}");
        }
    }
}
