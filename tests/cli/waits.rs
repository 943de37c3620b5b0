//! Waiting for a condition of a running aoi, never for a length of time
//! (CI runs on a loaded 2-core machine).
//!
//! A test that needs aoi in some state (blocked on a silent input, blocked
//! in a write, a signal taken) waits until `/proc` shows that state, not
//! for a sleep it hopes is long enough. Every wait is bounded by [`HANG`],
//! a guard against a hang that is never reached when the code is right:
//! it is not a timing assertion, and its size costs nothing in a passing
//! run.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// How long any wait may last before the test fails as hung.
pub const HANG: Duration = Duration::from_secs(180);

/// Polls `cond` until it holds; fails with `what` after [`HANG`].
pub fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + HANG;
    while !cond() {
        assert!(Instant::now() < deadline, "{what}: not after {HANG:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits for `child` to exit, killing it and failing with `what` after
/// [`HANG`].
pub fn wait_exit(child: &mut Child, what: &str) -> ExitStatus {
    let deadline = Instant::now() + HANG;
    loop {
        if let Some(st) = child.try_wait().expect("wait") {
            return st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether `/proc` shows processes' threads, their system calls and their
/// pipes here (Linux), which the waits on a running aoi read; elsewhere
/// (macOS, the BSDs) says that the running test is skipped, for a test
/// to return at once:
///
/// ```ignore
/// if !crate::waits::proc_here() {
///     return;
/// }
/// ```
pub fn proc_here() -> bool {
    if std::path::Path::new("/proc/self/task").is_dir() {
        return true;
    }
    crate::util::notice(format!(
        "{}: needs /proc (Linux) to see a running aoi's threads and pipes; skipped",
        std::thread::current().name().unwrap_or("this test")
    ));
    false
}

/// A pipe with both ends close-on-exec from the start, so that no process
/// spawned by a test running alongside inherits an end: `pipe2` on Linux.
#[cfg(target_os = "linux")]
pub fn cloexec_pipe() -> (OwnedFd, OwnedFd) {
    let mut fds: [RawFd; 2] = [-1; 2];
    // SAFETY: `fds` is two writable ints; the new descriptors are owned
    // right away.
    unsafe {
        assert_eq!(libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC), 0);
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    }
}

/// A pipe with both ends close-on-exec: `pipe` then `FD_CLOEXEC` where
/// there is no `pipe2` (macOS). A process another test spawns between the
/// two calls may inherit the ends, which can delay the end of input a test
/// waits for; these systems' tests that depend on it skip anyway.
#[cfg(not(target_os = "linux"))]
pub fn cloexec_pipe() -> (OwnedFd, OwnedFd) {
    let mut fds: [RawFd; 2] = [-1; 2];
    // SAFETY: `fds` is two writable ints; the new descriptors are owned
    // right away; F_SETFD sets only their flags.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        for fd in fds {
            assert_eq!(libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC), 0);
        }
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    }
}

/// Bytes waiting to be read in the pipe `fd` is an end of.
pub fn unread(fd: &impl AsRawFd) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int; the descriptor is open.
    let rc = unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONREAD, &mut n) };
    assert_eq!(rc, 0, "FIONREAD: {}", std::io::Error::last_os_error());
    usize::try_from(n).unwrap_or(0)
}

/// The inode of the pipe `fd` is an end of (`pipe:[INODE]` in `/proc`).
pub fn inode(fd: &impl AsRawFd) -> u64 {
    // SAFETY: a zeroed `stat` is a valid value for fstat to fill.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: the descriptor is open; `st` is writable.
    assert_eq!(unsafe { libc::fstat(fd.as_raw_fd(), &mut st) }, 0);
    st.st_ino
}

/// Waits until the pipe `ino`, which aoi (`pid`) writes to, has no reader
/// left anywhere. A child that a test running alongside forks while this
/// test held the read end keeps a copy until its exec (close-on-exec); a
/// write meant to find the pipe closed then succeeds into it (seen under
/// load). Scanning `/proc` for holders missed a fork still being made (its
/// descriptors copied, its pid not shown yet), so the kernel is asked
/// instead: a write through aoi's own end (opened again by its `/proc`
/// link, non-blocking) fails with `EPIPE` exactly when no reader is left,
/// and none can come back. While one is, the byte written goes into a pipe
/// nobody reads, or finds it full (`EAGAIN`).
pub fn wait_unheld(ino: u64, pid: u32, what: &str) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let link = format!("pipe:[{ino}]");
    let end = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("aoi's descriptors in /proc")
        .flatten()
        .map(|f| f.path())
        .find(|f| std::fs::read_link(f).is_ok_and(|l| l.as_os_str() == link.as_str()))
        .unwrap_or_else(|| panic!("{what}: aoi holds no end of pipe {ino}"));
    let mut writer = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&end)
        .expect("aoi's end of its stdout pipe, opened again");
    wait_until(
        &format!("{what}: pipe {ino} read by no one"),
        || matches!(writer.write(b"\n"), Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe),
    );
}

/// The capacity of the pipe `fd` is an end of (`F_GETPIPE_SZ`, Linux's).
#[cfg(target_os = "linux")]
pub fn capacity(fd: &impl AsRawFd) -> Option<usize> {
    // SAFETY: F_GETPIPE_SZ only reads the pipe's capacity.
    let n = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETPIPE_SZ) };
    Some(usize::try_from(n).expect("F_GETPIPE_SZ"))
}

/// The capacity of the pipe `fd` is an end of: not told where there is
/// no `F_GETPIPE_SZ` (macOS, the BSDs).
#[cfg(not(target_os = "linux"))]
pub fn capacity(_fd: &impl AsRawFd) -> Option<usize> {
    None
}

/// What any pipe holds where its capacity is not told: 16 KiB, the least
/// a new pipe holds on macOS and the BSDs (`PIPE_SIZE`).
#[cfg(not(target_os = "linux"))]
const PIPE_HOLDS: usize = 16 * 1024;

/// One look at every thread of `pid`: its state letter (`R` running or
/// runnable, `S` asleep in a wait, ...) and how often it was switched out
/// so far, from `/proc/PID/task/*/stat` and `status`; `None` when the
/// process is gone.
fn threads(pid: u32) -> Option<Vec<(u8, u64)>> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let state = |stat: String| {
        // "TID (comm) STATE ...": comm may hold spaces and parentheses.
        let after = stat
            .rfind(')')
            .map(|i| stat[i + 1..].trim_start().to_string())?;
        after.bytes().next()
    };
    let switches = |status: String| {
        status
            .lines()
            .filter(|l| l.contains("ctxt_switches:"))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum::<u64>()
    };
    // A thread that ended since the listing has nothing left: skipped.
    let seen = tasks
        .flatten()
        .filter_map(|t| {
            let st = state(std::fs::read_to_string(t.path().join("stat")).ok()?)?;
            Some((
                st,
                switches(std::fs::read_to_string(t.path().join("status")).ok()?),
            ))
        })
        .collect();
    Some(seen)
}

/// Whether every thread of `pid` sleeps in a wait (none runs, none is
/// runnable). Fails the test at once when `pid` is gone, a zombie or
/// stopped: no wait for it to fall asleep can end then.
pub fn asleep(pid: u32) -> bool {
    asleep_with(pid).is_some()
}

/// [`asleep`], with the threads' total context switches when it holds.
fn asleep_with(pid: u32) -> Option<u64> {
    let seen = threads(pid).unwrap_or_default();
    let dead = seen.is_empty()
        || seen
            .iter()
            .any(|&(s, _)| matches!(s, b'Z' | b'X' | b'T' | b't'));
    assert!(
        !dead,
        "aoi (pid {pid}) ended or stopped while a test waited for it to sleep"
    );
    seen.iter()
        .all(|&(s, _)| s == b'S')
        .then(|| seen.iter().map(|&(_, n)| n).sum())
}

/// Waits until aoi (`pid`) has read everything written to the pipe whose
/// write end is `input` and every one of its threads sleeps: it has done
/// all it can with that input and waits for more. Two looks, with no
/// thread switched in between, so that neither a thread handing work to
/// another nor a look torn across threads is taken for idle.
pub fn wait_idle(pid: u32, input: &impl AsRawFd, what: &str) {
    assert!(
        std::path::Path::new("/proc/self/task").is_dir(),
        "{what}: this test needs /proc (Linux): skip it where proc_here() says no"
    );
    let mut last = None;
    wait_until(&format!("{what}: aoi idle on its input"), || {
        let now = asleep_with(pid).filter(|_| unread(input) == 0);
        let idle = now.is_some() && now == last;
        last = now;
        idle
    });
}

/// Whether a thread of `pid` is inside a `write` or `writev` to its file
/// descriptor `fd` or a copy of it (aoi writes through a `dup` of its
/// stdout), from `/proc/PID/task/*/syscall` ("NR ARG0 ...", NR in
/// decimal, ARG0 in hex); `None` where the system does not show it.
pub fn in_write(pid: u32, fd: RawFd) -> Option<bool> {
    let target = |n: u64| std::fs::read_link(format!("/proc/{pid}/fd/{n}")).ok();
    let wanted = target(fd as u64)?;
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut shown = false;
    let mut writing = false;
    for t in tasks.flatten() {
        let Ok(call) = std::fs::read_to_string(t.path().join("syscall")) else {
            continue;
        };
        // "running" while on a CPU: shown, not in a call.
        shown = true;
        let mut words = call.split_whitespace();
        let Some(nr) = words.next().and_then(|w| w.parse::<libc::c_long>().ok()) else {
            continue;
        };
        let on = words
            .next()
            .and_then(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
            .is_some_and(|n| target(n).as_ref() == Some(&wanted));
        writing |= on && is_write(nr);
    }
    shown.then_some(writing)
}

/// Whether the system call number `nr` is `write` or `writev` (Linux's
/// numbers: only Linux shows a thread's call in `/proc`).
#[cfg(target_os = "linux")]
fn is_write(nr: libc::c_long) -> bool {
    nr == libc::SYS_write || nr == libc::SYS_writev
}

#[cfg(not(target_os = "linux"))]
fn is_write(_nr: libc::c_long) -> bool {
    false
}

/// Whether `sig` is pending for `pid` or any of its threads (sent, not yet
/// taken by a handler), from the `ShdPnd` and `SigPnd` masks in `/proc`.
fn pending(pid: u32, sig: libc::c_int) -> bool {
    let bit = 1u64 << (sig - 1);
    let mask = |path: String, key: &str| {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix(key))
                    .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
            })
            .unwrap_or(0)
    };
    if mask(format!("/proc/{pid}/status"), "ShdPnd:") & bit != 0 {
        return true;
    }
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks
        .flatten()
        .any(|t| mask(format!("{}/status", t.path().display()), "SigPnd:") & bit != 0)
}

/// Sends `sig` to `pid` and waits until a thread has taken it, so that a
/// second signal sent after it is not merged into it.
pub fn signal_taken(pid: u32, sig: libc::c_int) {
    signal(pid, sig);
    wait_until(&format!("signal {sig} taken by {pid}"), || {
        !pending(pid, sig)
    });
}

/// Sends `sig` to `pid`.
pub fn signal(pid: u32, sig: libc::c_int) {
    // SAFETY: kill with a live child's pid and a standard signal.
    let rc = unsafe { libc::kill(pid as libc::pid_t, sig) };
    assert_eq!(rc, 0, "kill failed");
}

/// A pipe holding `head` before anyone reads it: (read end for aoi's
/// stdin, write end the test keeps open and silent). aoi then never sees
/// it empty before `head` is read, however late the test or aoi are
/// scheduled. Grown to hold `head` when it is more than a pipe's default;
/// `None` (with a note) where the system does not let it grow that far.
/// Both ends are close-on-exec, so no process spawned by a test running
/// alongside inherits the write end.
pub fn prefilled_pipe(head: &[u8]) -> Option<(OwnedFd, std::fs::File)> {
    let (r, w) = cloexec_pipe();
    if !holds(&w, head.len()) {
        return None;
    }
    let mut w = std::fs::File::from(w);
    std::io::Write::write_all(&mut w, head).expect("fill the pipe");
    Some((r, w))
}

/// Whether the pipe `w` is the write end of holds `len` bytes, grown to
/// hold them (`F_SETPIPE_SZ`) when they are more than it holds now.
#[cfg(target_os = "linux")]
fn holds(w: &OwnedFd, len: usize) -> bool {
    if len <= capacity(w).unwrap_or(0) {
        return true;
    }
    let want = len.next_power_of_two() as libc::c_int;
    // SAFETY: F_SETPIPE_SZ only sets that pipe's capacity.
    let got = unsafe { libc::fcntl(w.as_raw_fd(), libc::F_SETPIPE_SZ, want) };
    if got < 0 || (got as usize) < len {
        crate::util::notice(format!(
            "a pipe cannot hold {len} bytes here: {}",
            std::io::Error::last_os_error()
        ));
        return false;
    }
    true
}

/// Whether a pipe holds `len` bytes where pipes cannot be grown (macOS,
/// the BSDs): up to [`PIPE_HOLDS`].
#[cfg(not(target_os = "linux"))]
fn holds(_w: &OwnedFd, len: usize) -> bool {
    if len <= PIPE_HOLDS {
        return true;
    }
    crate::util::notice(format!(
        "a pipe cannot be grown to hold {len} bytes here (no F_SETPIPE_SZ)"
    ));
    false
}
