//! Cancellation (§ 7): a request to stop that the tool polls, and
//! SIGINT/SIGTERM as such a request.
//!
//! # For a tool
//!
//! A [`Token`] is a flag the tool polls between units of work and hands to
//! its [`Producer`](crate::emit::Producer)
//! ([`cancel_on`](crate::emit::Producer::cancel_on)); [`Token::cancel`]
//! sets it from code (a deadline, a UI). [`Signals::install`] makes
//! SIGINT and SIGTERM set it too, and nothing else: the process is not
//! ended behind the tool's back, no `SIGALRM` is used, destructors run,
//! and a backend call in flight finishes before the tool, at its next
//! poll, closes its stream with `reason:"cancelled"` (exit 130 or 143).
//! A tool that wants a hard stop opts in with
//! [`Signals::hard_stop_after`]: that long after the first signal, or at
//! a second one, the process exits with `_exit(128 + signal)`.
//!
//! ```no_run
//! use std::time::Duration;
//! let token = aoi::cancel::Signals::new()
//!     .hard_stop_after(Duration::from_secs(10))
//!     .install()
//!     .expect("handlers installed");
//! while !token.is_cancelled() {
//!     // one unit of work
//! #   break;
//! }
//! ```

// aoi's own commands (the crate's, not the library's API: a tool uses
// `Signals`, which neither uses `SIGALRM` nor exits unless asked).
//
// [`install`] replaces the default action of both signals (killing the
// process on the spot) with a flag, so a producer can end its stream with
// `aoi:summary` `ok:false`, `reason:"cancelled"` and exit with the
// conventional code (130 for SIGINT, 143 for SIGTERM). The handlers are
// installed without `SA_RESTART`: a read blocked on a silent upstream
// returns `EINTR`, and [`crate::lines::LineReader`] then stops instead of
// waiting for input that may never come.
//
// The stop is bounded: the first signal also starts a grace period of
// [`GRACE_SECS`] seconds (`alarm`; `AOI_STOP_GRACE=SECS` sets it, from 1 to
// 3600, for a report that takes longer to finish, or a test that must not
// depend on how busy the machine is), after which the process exits with
// the signal's code whatever it was doing (a write blocked on a reader that
// stopped reading, an `open` of a FIFO nobody writes, a filter that spins);
// a second signal exits at once. Both use `_exit`, async-signal-safe. § 7
// puts exiting promptly above the final summary: a stop that would hang
// ends without it.
//
// A signal the process inherited as ignored (`SIG_IGN`, as a shell does
// for background jobs) stays ignored.
//
// A thread blocked in `read` is only interrupted if the signal lands on
// it; a reading thread that is not the one the signal interrupts polls
// [`wake_fd`] beside its input: the first signal writes a byte to it
// (the self-pipe trick; `write` is async-signal-safe).
//
// Only processes that install the handlers see a request; in every other
// process [`requested`] is `None` and costs one atomic load.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};

/// The signal that asked the process to stop, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The self-pipe: its read end becomes readable at the first signal
/// ([`wake_fd`]); -1 until [`install`] made it. Never closed.
static WAKE_READ: AtomicI32 = AtomicI32::new(-1);
static WAKE_WRITE: AtomicI32 = AtomicI32::new(-1);

/// SIGINT's number.
pub const SIGINT: i32 = libc::SIGINT;
/// SIGTERM's number.
pub const SIGTERM: i32 = libc::SIGTERM;

/// Seconds a stopping process has to end its stream before it exits anyway,
/// unless `AOI_STOP_GRACE` says otherwise ([`grace_from`]).
pub(crate) const GRACE_SECS: u32 = 2;

/// The grace period in force, read by the handler (an atomic load is
/// async-signal-safe); set by [`install`].
static GRACE: AtomicU32 = AtomicU32::new(GRACE_SECS);

/// A relay's stop ([`install_draining`]): reading goes on to the end of
/// the input for [`DRAIN`] seconds, and the hard stop comes the grace
/// period after that.
static DRAINING: AtomicBool = AtomicBool::new(false);

/// Seconds a relay goes on reading after a stop request (`AOI_STOP_DRAIN`,
/// 0 to 3600; 0 stops at once).
pub(crate) const DRAIN_SECS: u32 = 2;

static DRAIN: AtomicU32 = AtomicU32::new(DRAIN_SECS);

/// The grace period `AOI_STOP_GRACE` asks for: whole seconds from 1 to
/// 3600; anything else (unset, empty, 0, not a number) is the default.
pub(crate) fn grace_from(value: Option<&std::ffi::OsStr>) -> u32 {
    value
        .and_then(|v| v.to_str())
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|s| (1..=3600).contains(s))
        .unwrap_or(GRACE_SECS)
}

extern "C" fn on_signal(sig: libc::c_int) {
    if SIGNAL.swap(sig, Ordering::SeqCst) != 0 {
        // SAFETY: `_exit` is async-signal-safe and takes any status.
        unsafe { libc::_exit(128 + sig) }
    }
    // SAFETY: `alarm` and `write` are async-signal-safe; the descriptor is
    // the self-pipe's write end, open for the life of the process. One byte
    // into an empty non-blocking pipe succeeds, so `errno` is left alone.
    unsafe {
        let drain = if DRAINING.load(Ordering::SeqCst) {
            DRAIN.load(Ordering::SeqCst)
        } else {
            0
        };
        libc::alarm(GRACE.load(Ordering::SeqCst) + drain);
        let fd = WAKE_WRITE.load(Ordering::SeqCst);
        if fd >= 0 {
            libc::write(fd, b"!".as_ptr().cast(), 1);
        }
    }
}

extern "C" fn on_alarm(_: libc::c_int) {
    let sig = SIGNAL.load(Ordering::SeqCst);
    if sig != 0 {
        // The grace period is over.
        // SAFETY: as above.
        unsafe { libc::_exit(128 + sig) }
    }
}

/// Sets `handler` for `sig` without `SA_RESTART`, unless `sig` is ignored
/// (and `keep_ignored`).
fn set(sig: i32, handler: extern "C" fn(libc::c_int), keep_ignored: bool) -> io::Result<()> {
    // SAFETY: zeroed `sigaction`s are valid values (no flags, masks are
    // set by sigemptyset); the handlers only touch an atomic and call
    // async-signal-safe functions.
    let rc = unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
            return Err(io::Error::last_os_error());
        }
        if keep_ignored && old.sa_sigaction == libc::SIG_IGN {
            return Ok(());
        }
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = handler as libc::sighandler_t;
        libc::sigemptyset(&mut sa.sa_mask);
        sa.sa_flags = 0;
        libc::sigaction(sig, &sa, std::ptr::null_mut())
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Installs the SIGINT and SIGTERM handlers (and the grace period's
/// SIGALRM) for the whole process.
pub(crate) fn install() -> io::Result<()> {
    GRACE.store(
        grace_from(std::env::var_os("AOI_STOP_GRACE").as_deref()),
        Ordering::SeqCst,
    );
    self_pipe()?;
    set(libc::SIGALRM, on_alarm, false)?;
    set(SIGINT, on_signal, true)?;
    set(SIGTERM, on_signal, true)
}

/// Makes the self-pipe once (non-blocking, so the handler never waits).
fn self_pipe() -> io::Result<()> {
    use std::os::fd::IntoRawFd;
    if WAKE_READ.load(Ordering::SeqCst) >= 0 {
        return Ok(());
    }
    let (r, w) = pipe(true)?;
    // Kept open for the life of the process.
    WAKE_READ.store(r.into_raw_fd(), Ordering::SeqCst);
    WAKE_WRITE.store(w.into_raw_fd(), Ordering::SeqCst);
    Ok(())
}

/// A pipe (read end, write end), close-on-exec, both ends non-blocking if
/// asked.
pub(crate) fn pipe(nonblocking: bool) -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [-1; 2];
    // SAFETY: `fds` is two writable ints; on success both are new
    // descriptors that nothing else owns, so `OwnedFd` may take them.
    unsafe {
        if libc::pipe(fds.as_mut_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        let [r, w] = fds;
        let (r, w) = (OwnedFd::from_raw_fd(r), OwnedFd::from_raw_fd(w));
        for fd in [r.as_raw_fd(), w.as_raw_fd()] {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            if nonblocking {
                let fl = libc::fcntl(fd, libc::F_GETFL);
                libc::fcntl(fd, libc::F_SETFL, fl | libc::O_NONBLOCK);
            }
        }
        Ok((r, w))
    }
}

/// [`install`] for a relay (`aoi check`, § 7 in a pipeline): Ctrl-C in a
/// terminal signals the whole process group, and a conforming producer
/// answers with its `reason:"cancelled"` summary. Stopping at once would
/// lose it (the producer then dies of EPIPE), so after the first signal
/// the input is still read, to its end, for [`DRAIN_SECS`] seconds
/// (`AOI_STOP_DRAIN`; [`LineReader`](crate::lines::LineReader) ends the
/// read when they pass); a second signal, or the grace period after them,
/// ends the process at once.
pub(crate) fn install_draining() -> io::Result<()> {
    let secs = std::env::var_os("AOI_STOP_DRAIN")
        .and_then(|v| v.to_str().and_then(|v| v.trim().parse::<u32>().ok()))
        .filter(|s| *s <= 3600)
        .unwrap_or(DRAIN_SECS);
    DRAIN.store(secs, Ordering::SeqCst);
    DRAINING.store(true, Ordering::SeqCst);
    install()
}

/// Whether a stop lets the input be read to its end first
/// ([`install_draining`]).
pub(crate) fn draining() -> bool {
    DRAINING.load(Ordering::Relaxed)
}

/// How long a relay goes on reading after a stop request.
pub(crate) fn drain() -> std::time::Duration {
    std::time::Duration::from_secs(u64::from(DRAIN.load(Ordering::SeqCst)))
}

/// A descriptor that becomes readable (and stays so) once a stop was
/// requested, for a thread that waits in `poll` on something else; `None`
/// where the handlers are not installed.
pub(crate) fn wake_fd() -> Option<std::os::fd::RawFd> {
    let fd = WAKE_READ.load(Ordering::SeqCst);
    (fd >= 0).then_some(fd)
}

/// Keeps SIGINT and SIGTERM away from the calling thread, so they are
/// delivered to a thread that reads input and can be interrupted by them
/// (call it in a thread that only waits, after spawning the worker).
pub(crate) fn block_in_this_thread() -> io::Result<()> {
    // SAFETY: the set is initialised by sigemptyset before use.
    let rc = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, SIGINT);
        libc::sigaddset(&mut set, SIGTERM);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut())
    };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    Ok(())
}

/// The signal that asked the process to stop, if one did.
#[inline]
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}

/// The conventional exit status for a process stopped by `sig`: 128 + the
/// signal number (130 for SIGINT, 143 for SIGTERM; § 6, § 7).
pub fn exit_code(sig: i32) -> i32 {
    128 + sig
}

/// The signal's name for messages.
pub fn name(sig: i32) -> &'static str {
    match sig {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// A request to stop that the tool polls: cancelled from code
/// ([`cancel`](Self::cancel)) or, for a token from [`Signals::install`],
/// by SIGINT or SIGTERM. Clones share the flag.
#[derive(Debug, Clone, Default)]
pub struct Token {
    flag: Arc<AtomicI32>,
    signals: bool,
}

impl Token {
    /// A token that only [`cancel`](Self::cancel) sets.
    pub fn new() -> Self {
        Token::default()
    }

    /// Asks the run to stop. A cancellation from code reads as SIGINT's:
    /// exit 130, the status § 6 gives `cancelled`.
    pub fn cancel(&self) {
        let _ = self
            .flag
            .compare_exchange(0, SIGINT, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The signal of the stop request (SIGINT's number for one from
    /// code), if one came.
    pub fn signal(&self) -> Option<i32> {
        match self.flag.load(Ordering::Relaxed) {
            0 if self.signals => requested(),
            0 => None,
            s => Some(s),
        }
    }

    /// Whether a stop was requested.
    pub fn is_cancelled(&self) -> bool {
        self.signal().is_some()
    }

    /// Waits up to `d` (a backoff, a poll interval), returning early, with
    /// true, once a stop is requested.
    pub fn wait(&self, d: std::time::Duration) -> bool {
        let end = std::time::Instant::now() + d;
        loop {
            if self.is_cancelled() {
                return true;
            }
            let left = end.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return false;
            }
            std::thread::sleep(left.min(std::time::Duration::from_millis(10)));
        }
    }
}

/// SIGINT and SIGTERM handlers for a tool (see the [module docs](self)).
#[derive(Debug, Clone, Default)]
pub struct Signals {
    hard_stop: Option<std::time::Duration>,
}

impl Signals {
    /// Handlers that only set the flag: no `_exit`, no `SIGALRM`.
    pub fn new() -> Self {
        Signals::default()
    }

    /// Opts in to a hard stop: `grace` after the first signal (whole
    /// seconds, at least 1; `SIGALRM`), or at a second signal, the process
    /// exits at once with `128 + signal`, whatever it was doing (a write
    /// blocked on a reader that stopped reading): § 7 puts exiting
    /// promptly above the final summary.
    pub fn hard_stop_after(mut self, grace: std::time::Duration) -> Self {
        self.hard_stop = Some(grace);
        self
    }

    /// Installs the handlers for the whole process (a signal inherited as
    /// ignored stays ignored) and returns a token they set.
    pub fn install(self) -> io::Result<Token> {
        self_pipe()?;
        match self.hard_stop {
            Some(grace) => {
                let secs = grace.as_secs() + u64::from(grace.subsec_nanos() > 0);
                GRACE.store(secs.clamp(1, u64::from(u32::MAX)) as u32, Ordering::SeqCst);
                set(libc::SIGALRM, on_alarm, false)?;
                set(SIGINT, on_signal, true)?;
                set(SIGTERM, on_signal, true)?;
            }
            None => {
                set(SIGINT, on_request, true)?;
                set(SIGTERM, on_request, true)?;
            }
        }
        Ok(Token {
            flag: Arc::new(AtomicI32::new(0)),
            signals: true,
        })
    }
}

/// The handler of [`Signals::new`]: the first signal is the request, and
/// wakes a thread polling [`wake_fd`]; nothing ends the process.
extern "C" fn on_request(sig: libc::c_int) {
    if SIGNAL
        .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        // SAFETY: `write` is async-signal-safe; the descriptor is the
        // self-pipe's write end, open for the life of the process.
        unsafe {
            let fd = WAKE_WRITE.load(Ordering::SeqCst);
            if fd >= 0 {
                libc::write(fd, b"!".as_ptr().cast(), 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grace_period_is_whole_seconds_from_1_to_3600() {
        let g = |v: &str| grace_from(Some(std::ffi::OsStr::new(v)));
        assert_eq!(grace_from(None), GRACE_SECS);
        assert_eq!(g("30"), 30);
        assert_eq!(g(" 1 "), 1);
        assert_eq!(g("3600"), 3600);
        for bad in ["", "0", "3601", "-1", "1.5", "soon"] {
            assert_eq!(g(bad), GRACE_SECS, "{bad:?}");
        }
    }
}
