//! The block reader: large reads, memchr line splitting, borrowed slices.
//!
//! [`LineReader`] hands out [`Chunk`]s straight from its buffer. A
//! [`Chunk::Lines`] holds one or more whole lines (each ending in `\n`, except
//! a final line at EOF that lacks its terminator, § 2); the caller splits it
//! with [`split_lines`] and can relay the whole chunk with one `write`. A line
//! longer than the buffer grows the buffer, up to `max_line_bytes`; past that
//! the line is handed out in [`Chunk::LongPart`] pieces so it can still be
//! relayed while memory stays bounded.

use std::io::{self, Read};
use std::os::fd::RawFd;

/// How [`LineReader::wait`] ended.
enum Wait {
    /// The input has bytes (or its end) to read.
    Ready,
    /// Nothing came within the idle timeout.
    Silent,
    /// A stop was requested ([`crate::cancel`]).
    Cancelled,
    /// The stop descriptor fired ([`LineReader::stop_when`]).
    Stopped,
}

/// Default upper bound on the bytes of one line that `aoi filter` holds in
/// memory (it needs whole values).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Lines up to this many bytes are handed out whole; longer ones in pieces,
/// which the judge validates as they pass ([`crate::long`]), so memory does
/// not grow with a line's length.
pub const HOLD: usize = 1024 * 1024;

/// The hold in use: [`HOLD`] unless [`set_hold`] changed it.
static HOLD_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(HOLD);

/// The bytes of a line handed out whole ([`HOLD`] by default).
pub fn hold() -> usize {
    HOLD_BYTES.load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets [`hold`] for the whole process (at least 64 bytes). The binary
/// reads it from `AOI_HOLD_LINE_BYTES`, which the tests set small to send
/// short lines down the long-line path and hold every verdict to the
/// short-line one; the library never reads the environment.
pub fn set_hold(bytes: usize) {
    HOLD_BYTES.store(bytes.max(64), std::sync::atomic::Ordering::Relaxed);
}

/// Size of the first buffer and of each read.
pub(crate) const BLOCK: usize = 256 * 1024;

/// A piece of input handed out by [`LineReader::next_chunk`].
#[derive(Debug)]
pub enum Chunk<'a> {
    /// Whole lines. Every line ends in `\n` except possibly the last one,
    /// which then is the unterminated tail of the input.
    Lines(&'a [u8]),
    /// A piece of a line longer than the line limit. `end` is true on the
    /// piece that finishes the line (it then ends in `\n` unless the input
    /// ended first).
    LongPart {
        /// The piece's bytes.
        bytes: &'a [u8],
        /// Whether it finishes the line.
        end: bool,
    },
}

/// Largest single read: a grown buffer is filled as the line needs it, so
/// its untouched pages cost no memory.
const MAX_READ: usize = 1024 * 1024;

/// Buffer size up to which a long line doubles the buffer; past it the
/// buffer goes to the line limit at once (see [`LineReader::grow`]).
const GROW_STEPS_TO: usize = 1024 * 1024;

/// `n` zero bytes, or `None` when the allocator cannot give them. The
/// pages of a fresh zeroed allocation are only backed as they are written.
fn zeroed(n: usize) -> Option<Vec<u8>> {
    let layout = std::alloc::Layout::array::<u8>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; a non-null result points to
    // `n` zeroed, hence initialised, bytes allocated by the global allocator
    // with this layout, which is what `Vec::from_raw_parts` needs for a
    // vector of length and capacity `n`.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout);
        if p.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(p, n, n))
    }
}

/// The pipe buffer asked for on a pipe aoi reads ([`widen_pipe`]).
#[cfg(target_os = "linux")]
const PIPE_BYTES: libc::c_int = 1 << 20;

/// Bytes a pipe carries before [`widen_pipe`]: most streams are small, and
/// a wide buffer for each would use up the user's pipe quota
/// (`/proc/sys/fs/pipe-user-pages-soft`, 64 MiB by default) when many run
/// at once; past it, new pipes of that user get a minimal buffer (a page or two).
const WIDEN_AFTER: usize = 8 * 1024 * 1024;

/// Grows the buffer of `fd`, a pipe, to [`PIPE_BYTES`] (Linux's
/// `F_SETPIPE_SZ`; 1 MiB is the default `/proc/sys/fs/pipe-max-size`). With
/// the default 64 KiB, writer and reader take turns every 64 KiB, and a
/// stream crossing a pipe at 1 GB/s costs each side some 16,000 sleeps and
/// wake-ups a second. Nothing waits longer for it: a reader still gets
/// bytes as soon as they are written. A pipe already that large is left
/// alone, and a refusal (a user over `pipe-user-pages-soft`, a pipe holding
/// more than that, another system) changes nothing: the call is best effort.
pub(crate) fn widen_pipe(fd: RawFd) {
    #[cfg(target_os = "linux")]
    // SAFETY: fcntl on a descriptor the process holds; these two commands
    // only read and set the pipe's capacity, and fail harmlessly (EBADF,
    // EINVAL, EPERM, EBUSY) on anything else.
    unsafe {
        let size = libc::fcntl(fd, libc::F_GETPIPE_SZ);
        if (0..PIPE_BYTES).contains(&size) {
            libc::fcntl(fd, libc::F_SETPIPE_SZ, PIPE_BYTES);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = fd;
}

/// Reads blocks from any reader and splits them into line chunks.
pub struct LineReader<R> {
    src: R,
    /// Made at the first read, of `first_size` bytes.
    buf: Vec<u8>,
    /// A block, or less for a small regular file ([`LineReader::reading`]):
    /// 100,000 run files of a few hundred bytes each zeroed 256 KiB.
    first_size: usize,
    /// Start of unconsumed bytes.
    start: usize,
    /// End of valid bytes.
    end: usize,
    eof: bool,
    max_line: usize,
    /// True while in the middle of an over-long line.
    in_long: bool,
    /// Give up when the descriptor stays silent this long (`--idle-timeout`).
    idle: Option<(RawFd, std::time::Duration)>,
    /// The descriptor `src` reads, when known ([`LineReader::reading`]).
    fd: Option<RawFd>,
    /// That descriptor may stay silent (not a regular file).
    pollable: bool,
    /// Readable (or hung up) when whoever reads this reader's lines is gone
    /// ([`LineReader::stop_when`]).
    stop: Option<RawFd>,
    /// On a pipe, the bytes left to read before its buffer is widened
    /// ([`widen_pipe`]).
    widen_in: Option<usize>,
    /// Where the [`Chunk::Lines`] just handed out starts in `buf` (for
    /// [`LineReader::trade`]).
    handed: Option<usize>,
    /// A read failed (an idle timeout, an I/O error) with bytes of a line
    /// buffered: they are handed out first, as the input's unterminated
    /// end, and this error after them.
    failed: Option<io::Error>,
    /// After a stop request in a relay ([`crate::cancel::draining`]): the
    /// input is read until then, for the producer's last lines.
    drain_until: Option<std::time::Instant>,
}

impl<R: Read> LineReader<R> {
    /// A reader whose lines may grow to `max_line` bytes before they are
    /// handed out in pieces.
    pub fn new(src: R, max_line: usize) -> Self {
        let max_line = max_line.max(1);
        LineReader {
            src,
            buf: Vec::new(),
            first_size: BLOCK.min(max_line.saturating_add(1)).max(4096),
            start: 0,
            end: 0,
            eof: false,
            max_line,
            in_long: false,
            idle: None,
            drain_until: None,
            fd: None,
            pollable: false,
            stop: None,
            widen_in: None,
            handed: None,
            failed: None,
        }
    }

    /// Ends the input with a `TimedOut` error when `fd` (the descriptor
    /// `src` reads) has nothing to read for `after` (§ 4.2: a silent
    /// upstream; any byte, an `aoi:heartbeat` line included, resets it).
    pub fn idle_timeout(mut self, fd: RawFd, after: std::time::Duration) -> Self {
        self.idle = Some((fd, after));
        self.reading(fd)
    }

    /// Records that `src` reads `fd`, so that the reader can wait on it in
    /// `poll` where a plain `read` could block past a stop: a stop request
    /// on a pipe ([`crate::cancel::wake_fd`]), a stop descriptor, an idle
    /// timeout, a descriptor set non-blocking by someone else.
    pub fn reading(mut self, fd: RawFd) -> Self {
        self.fd = Some(fd);
        // SAFETY: a zeroed `stat` is a valid value for fstat to fill; the
        // descriptor is only inspected.
        let (mode, size) = unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut st) == 0 {
                (st.st_mode & libc::S_IFMT, st.st_size)
            } else {
                (0, -1)
            }
        };
        // A small file fits in a buffer of its size (and one byte to see
        // its end); it still grows for a line that does not fit (a file
        // written while it is read).
        if let Ok(size) = usize::try_from(size) {
            if mode == libc::S_IFREG && self.buf.is_empty() {
                self.first_size = self.first_size.min(size.saturating_add(1).max(4096));
            }
        }
        if mode == libc::S_IFIFO {
            self.widen_in = Some(WIDEN_AFTER);
        }
        self.pollable = mode != libc::S_IFREG;
        self
    }

    /// Whether the descriptor `src` reads is known.
    pub(crate) fn knows_fd(&self) -> bool {
        self.fd.is_some()
    }

    /// From now on, waits in `poll` before each read, and ends the input
    /// with an error as soon as `stop` is readable or hung up (the thread
    /// that takes the lines is gone), or a stop is requested
    /// ([`crate::cancel`]), even while the input is silent; `None` reads
    /// plainly again. Needs the descriptor ([`LineReader::reading`]).
    pub(crate) fn stop_when(&mut self, stop: Option<RawFd>) {
        self.stop = stop;
    }

    /// Waits until the descriptor is readable ([`Wait::Ready`]), at most
    /// the idle timeout if there is one; a stop request
    /// ([`crate::cancel::wake_fd`]) or the stop descriptor
    /// ([`LineReader::stop_when`]) ends the wait early.
    fn wait(&self, fd: RawFd) -> io::Result<Wait> {
        let idle = self
            .idle
            .map(|(_, after)| std::time::Instant::now() + after);
        // While draining, the stop request is known (the self-pipe stays
        // readable): the wait ends at the drain's end instead.
        let deadline = match (idle, self.drain_until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let wake = crate::cancel::wake_fd().filter(|_| self.drain_until.is_none());
        let ear = |fd: Option<RawFd>| libc::pollfd {
            // A negative descriptor is skipped by poll.
            fd: fd.unwrap_or(-1),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            let ms = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(std::time::Instant::now());
                    left.as_millis().min(i32::MAX as u128) as i32
                }
                None => -1,
            };
            let mut fds = [ear(Some(fd)), ear(self.stop), ear(wake)];
            // SAFETY: three pollfds, valid for the duration of the call.
            let rc = unsafe { libc::poll(fds.as_mut_ptr(), 3, ms) };
            let [input, stop, wake] = fds;
            match rc {
                0 if self
                    .drain_until
                    .is_some_and(|d| std::time::Instant::now() >= d) =>
                {
                    return Ok(Wait::Cancelled);
                }
                0 => return Ok(Wait::Silent),
                n if n > 0 => {
                    return Ok(if stop.revents != 0 {
                        Wait::Stopped
                    } else if wake.revents != 0 || input.revents == 0 {
                        Wait::Cancelled
                    } else {
                        Wait::Ready
                    });
                }
                _ => {
                    let e = io::Error::last_os_error();
                    if e.kind() != io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                    if crate::cancel::requested().is_some() {
                        return Ok(Wait::Cancelled);
                    }
                }
            }
        }
    }

    /// Makes room for a line longer than the buffer. Up to [`GROW_STEPS_TO`]
    /// the buffer doubles; past it, it goes straight to the line limit, in a
    /// zeroed allocation whose pages the kernel only backs as reads reach
    /// them (reads are at most [`MAX_READ`]). Peak memory for a line over
    /// the limit is then about `max_line`, not the ~3x that a chain of
    /// doublings costs when the allocator keeps the freed buffers.
    fn grow(&mut self) -> io::Result<()> {
        let len = self.buf.len();
        let cap = self.max_line.saturating_add(BLOCK);
        let step = (len.saturating_mul(2)).min(cap).max(len + 1);
        let want = if len < GROW_STEPS_TO {
            step
        } else {
            cap.max(len + 1)
        };
        // The limit may be more than the machine will give (a memory limit,
        // strict overcommit, a huge --max-line-bytes): then grow by
        // doubling, and if even that fails, end the input with an error
        // rather than abort.
        let Some(mut bigger) = zeroed(want).or_else(|| zeroed(step)) else {
            return Err(io::Error::new(
                io::ErrorKind::OutOfMemory,
                format!("cannot hold a line of more than {len} bytes in memory"),
            ));
        };
        if let (Some(dst), Some(src)) = (bigger.get_mut(..self.end), self.buf.get(..self.end)) {
            dst.copy_from_slice(src);
        }
        self.buf = bigger;
        Ok(())
    }

    /// Reads more bytes after `end`; retries on `EINTR` unless the process
    /// was asked to stop ([`crate::cancel`]), which ends the read with an
    /// `Interrupted` error. Returns bytes read.
    /// [`LineReader::fill`], except that a failed read with bytes of a line
    /// buffered ends the input there: those bytes are what was read, and a
    /// relay must not lose them (`--idle-timeout` with a line half
    /// written); an over-long line being handed out is closed. The error
    /// comes after them. A stop request (SIGINT/SIGTERM) ends the read at
    /// once, as before.
    fn fill_holding(&mut self) -> io::Result<()> {
        match self.fill() {
            Ok(_) => Ok(()),
            Err(e)
                if e.kind() != io::ErrorKind::Interrupted
                    && (self.start < self.end || self.in_long) =>
            {
                self.failed = Some(e);
                self.eof = true;
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    fn fill(&mut self) -> io::Result<usize> {
        let cancelled = |sig: i32| {
            io::Error::new(
                io::ErrorKind::Interrupted,
                format!("cancelled by {}", crate::cancel::name(sig)),
            )
        };
        // A read that would block (a descriptor someone set O_NONBLOCK on,
        // often a shared stdin) waits in poll like a silent input.
        let mut blocked = false;
        loop {
            if let Some(sig) = crate::cancel::requested() {
                if !crate::cancel::draining() {
                    return Err(cancelled(sig));
                }
                let now = std::time::Instant::now();
                let until = *self
                    .drain_until
                    .get_or_insert_with(|| now + crate::cancel::drain());
                if now >= until {
                    return Err(cancelled(sig));
                }
            }
            // Wait in poll rather than in read when something other than
            // input may end the wait: an idle timeout, a stop descriptor,
            // a stop request on a pipe (the self-pipe closes the gap
            // between the test above and a read that would then block).
            let polls = blocked
                || self.idle.is_some()
                || self.stop.is_some()
                || self.drain_until.is_some()
                || (self.pollable && crate::cancel::wake_fd().is_some());
            if let Some(fd) = self.fd.filter(|_| polls) {
                match self.wait(fd)? {
                    Wait::Ready => {}
                    // Draining: the top of the loop decides.
                    Wait::Cancelled if crate::cancel::draining() => continue,
                    Wait::Cancelled => {
                        let sig = crate::cancel::requested().unwrap_or(crate::cancel::SIGINT);
                        return Err(cancelled(sig));
                    }
                    Wait::Silent => {
                        let after = self.idle.map(|(_, a)| a).unwrap_or_default();
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            format!("no input for {:.1} s (--idle-timeout)", after.as_secs_f64()),
                        ));
                    }
                    Wait::Stopped => {
                        return Err(io::Error::other("the reader was stopped"));
                    }
                }
            }
            let upto = self.buf.len().min(self.end.saturating_add(MAX_READ));
            let Some(dst) = self.buf.get_mut(self.end..upto) else {
                return Ok(0);
            };
            match self.src.read(dst) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(0);
                }
                Ok(n) => {
                    self.end += n;
                    if let Some(left) = self.widen_in {
                        self.widen_in = left.checked_sub(n);
                        if let (None, Some(fd)) = (self.widen_in, self.fd) {
                            widen_pipe(fd);
                        }
                    }
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock && self.fd.is_some() => {
                    blocked = true;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Gives away the buffer holding the [`Chunk::Lines`] of `len` bytes
    /// that [`LineReader::next_chunk`] has just returned, without copying
    /// it: `spare` becomes the reader's buffer (resized to the current
    /// one's length; the bytes read past the chunk, a partial line, are
    /// copied to its front), the old buffer goes to `spare`, and the
    /// chunk's place in it is returned. `None`, with nothing changed, when
    /// the buffer has grown for a long line (it is not handed around) or
    /// `len` is not the length of a [`Chunk::Lines`] just returned.
    pub fn trade(&mut self, spare: &mut Vec<u8>, len: usize) -> Option<std::ops::Range<usize>> {
        if self.in_long || self.buf.len() > BLOCK {
            return None;
        }
        let chunk = self.start.checked_sub(len)?..self.start;
        if self.handed != Some(chunk.start) {
            return None;
        }
        self.handed = None;
        let pending = self.buf.get(self.start..self.end)?;
        spare.resize(self.buf.len(), 0);
        spare.get_mut(..pending.len())?.copy_from_slice(pending);
        self.end = pending.len();
        self.start = 0;
        std::mem::swap(spare, &mut self.buf);
        Some(chunk)
    }

    /// The last `len` bytes [`LineReader::next_chunk`] handed out: the
    /// whole of a [`Chunk::Lines`] it has just returned, read again.
    pub fn handed_out(&self, len: usize) -> &[u8] {
        self.buf
            .get(self.start.saturating_sub(len)..self.start)
            .unwrap_or_default()
    }

    /// The next chunk, or `None` at end of input.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'_>>> {
        self.handed = None;
        if self.buf.is_empty() {
            self.buf = vec![0; self.first_size];
        }
        loop {
            let pending = self.buf.get(self.start..self.end).unwrap_or_default();
            if self.in_long {
                if let Some(nl) = memchr::memchr(b'\n', pending) {
                    let s = self.start;
                    self.start += nl + 1;
                    self.in_long = false;
                    return Ok(self
                        .buf
                        .get(s..s + nl + 1)
                        .map(|bytes| Chunk::LongPart { bytes, end: true }));
                }
                if !pending.is_empty() || self.eof {
                    let (s, e) = (self.start, self.end);
                    self.start = 0;
                    self.end = 0;
                    if self.eof {
                        self.in_long = false;
                    }
                    if s == e {
                        // EOF right after a piece: close the line.
                        return Ok(Some(Chunk::LongPart {
                            bytes: &[],
                            end: true,
                        }));
                    }
                    let eof = self.eof;
                    return Ok(self
                        .buf
                        .get(s..e)
                        .map(|bytes| Chunk::LongPart { bytes, end: eof }));
                }
                self.fill_holding()?;
                continue;
            }
            if let Some(last_nl) = memchr::memrchr(b'\n', pending) {
                let mut upto = last_nl + 1;
                if self.max_line < BLOCK {
                    // A limit under a block (a test's hold, a small filter
                    // limit): lines past it go out in pieces even when the
                    // buffer holds them.
                    match long_line_in(pending.get(..upto).unwrap_or_default(), self.max_line) {
                        Some(0) => {
                            self.in_long = true;
                            let s = self.start;
                            self.start += self.max_line;
                            return Ok(self
                                .buf
                                .get(s..s + self.max_line)
                                .map(|bytes| Chunk::LongPart { bytes, end: false }));
                        }
                        Some(at) => upto = at,
                        None => {}
                    }
                }
                let s = self.start;
                self.start += upto;
                self.handed = Some(s);
                return Ok(self.buf.get(s..s + upto).map(Chunk::Lines));
            }
            // No complete line buffered.
            if self.eof {
                if pending.is_empty() {
                    // A failed read ends the input after what it held.
                    return match self.failed.take() {
                        Some(e) => Err(e),
                        None => Ok(None),
                    };
                }
                let (s, e) = (self.start, self.end);
                self.start = self.end;
                self.handed = Some(s);
                return Ok(self.buf.get(s..e).map(Chunk::Lines));
            }
            let len = self.end - self.start;
            if len > self.max_line {
                // Over the limit: hand out what we hold and stream the rest.
                self.in_long = true;
                let (s, e) = (self.start, self.end);
                self.start = 0;
                self.end = 0;
                return Ok(self
                    .buf
                    .get(s..e)
                    .map(|bytes| Chunk::LongPart { bytes, end: false }));
            }
            // Make room: move the partial line to the front, grow if full.
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            if self.end == self.buf.len() {
                self.grow()?;
            }
            self.fill_holding()?;
        }
    }
}

/// Where the first line of `lines` (whole lines) longer than `max` bytes
/// starts, if one is.
fn long_line_in(lines: &[u8], max: usize) -> Option<usize> {
    let mut at = 0;
    for nl in memchr::memchr_iter(b'\n', lines) {
        if nl - at > max {
            return Some(at);
        }
        at = nl + 1;
    }
    None
}

/// How many leading bytes of `block` (a [`Chunk::Lines`] slice) are known to
/// be UTF-8, checked all at once with SIMD (simdutf8: lookup tables over
/// 32- or 64-byte windows, chosen at run time), so that the lines within
/// them skip the validator's own check, character by character, of the
/// non-ASCII text in their strings ([`crate::peek::Peeker::peek_checked`]).
/// 0, with nothing checked, when the block starts with 4 KiB of ASCII: such
/// text costs the validator nothing to check, and checking the whole block
/// would. On invalid UTF-8, the bytes before it: the lines before that one
/// keep the fast path, the rest are checked line by line as before, and
/// the line at fault gets its usual finding.
pub fn utf8_prefix(block: &[u8]) -> usize {
    const SAMPLE: usize = 4096;
    if block.get(..SAMPLE).unwrap_or(block).is_ascii() {
        return 0;
    }
    match simdutf8::compat::from_utf8(block) {
        Ok(_) => block.len(),
        Err(e) => e.valid_up_to(),
    }
}

/// [`split_lines`], with each line's place in the UTF-8 checked once for
/// the whole block ([`utf8_prefix`]): `(line, terminated, utf8_checked)`.
pub fn split_lines_checked(chunk: &[u8]) -> impl Iterator<Item = (&[u8], bool, bool)> {
    let checked = utf8_prefix(chunk);
    let mut at = 0;
    split_lines(chunk).map(move |(line, terminated)| {
        at += line.len();
        let utf8_checked = at <= checked;
        at += 1;
        (line, terminated, utf8_checked)
    })
}

/// Splits a [`Chunk::Lines`] slice into `(line_without_newline, terminated)`.
pub fn split_lines(chunk: &[u8]) -> impl Iterator<Item = (&[u8], bool)> {
    let mut rest = chunk;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let (line, tail) = rest.split_at(i);
                rest = tail.get(1..).unwrap_or_default();
                Some((line, true))
            }
            None => {
                let line = rest;
                rest = &[];
                Some((line, false))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A read that fails with bytes of a line buffered hands those bytes
    /// out first, as an unterminated end, then the error; in the middle of
    /// an over-long line, a last piece closes it.
    #[test]
    fn a_failed_read_hands_out_the_buffered_line_first() {
        struct Then(Vec<u8>, io::ErrorKind);
        impl Read for Then {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::new(self.1, "failed"));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0.drain(..n);
                Ok(n)
            }
        }
        let mut r = LineReader::new(Then(b"a\nbc".to_vec(), io::ErrorKind::TimedOut), 64);
        assert!(matches!(r.next_chunk(), Ok(Some(Chunk::Lines(b"a\n")))));
        assert!(matches!(r.next_chunk(), Ok(Some(Chunk::Lines(b"bc")))));
        assert!(matches!(r.next_chunk(), Err(e) if e.kind() == io::ErrorKind::TimedOut));
        // nothing buffered: the error at once
        let mut r = LineReader::new(Then(b"a\n".to_vec(), io::ErrorKind::Other), 64);
        assert!(matches!(r.next_chunk(), Ok(Some(Chunk::Lines(b"a\n")))));
        assert!(matches!(r.next_chunk(), Err(e) if e.kind() == io::ErrorKind::Other));
        // an over-long line: its pieces, the last one closing it
        let mut r = LineReader::new(Then(vec![b'x'; 100], io::ErrorKind::Other), 10);
        r.buf = vec![0; 16];
        let mut total = 0;
        loop {
            match r.next_chunk() {
                Ok(Some(Chunk::LongPart { bytes, end })) => {
                    total += bytes.len();
                    if end {
                        break;
                    }
                }
                other => panic!("{:?}", other.map(|c| c.is_some())),
            }
        }
        assert_eq!(total, 100);
        assert!(r.next_chunk().is_err());
    }

    /// Relayed bytes, split lines with their terminated flag, long lines.
    type Collected = (Vec<u8>, Vec<(Vec<u8>, bool)>, usize);

    fn collect(input: &[u8], max: usize, cap: usize) -> Collected {
        collect_from(input, max, cap).0
    }

    /// [`collect`] from any reader, which is handed back.
    fn collect_from<R: Read>(src: R, max: usize, cap: usize) -> (Collected, R) {
        let mut r = LineReader::new(src, max);
        r.buf = vec![0; cap];
        let mut relay = Vec::new();
        let mut lines = Vec::new();
        let mut long = 0;
        while let Some(c) = r.next_chunk().unwrap() {
            match c {
                Chunk::Lines(b) => {
                    relay.extend_from_slice(b);
                    for (l, t) in split_lines(b) {
                        lines.push((l.to_vec(), t));
                    }
                }
                Chunk::LongPart { bytes, end } => {
                    relay.extend_from_slice(bytes);
                    if end {
                        long += 1;
                    }
                }
            }
        }
        ((relay, lines, long), r.src)
    }

    /// A reader giving at most `step` bytes a read, so lines straddle reads.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.data.len().min(self.step).min(buf.len());
            let (head, rest) = self.data.split_at(n);
            buf[..n].copy_from_slice(head);
            self.data = rest;
            Ok(n)
        }
    }

    #[test]
    fn traded_buffers_hold_the_chunks_and_the_reader_goes_on_alike() {
        // Lines of many lengths, one over the limit (handed out in pieces,
        // never traded), and an unterminated tail.
        let mut input = Vec::new();
        for i in 0..3000usize {
            input.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, i * 7 % 500));
            input.push(b'\n');
            if i == 1500 {
                input.extend(std::iter::repeat_n(b'L', 9000));
                input.push(b'\n');
            }
        }
        input.extend_from_slice(b"tail");
        for step in [1000, 4096, 5000, 1 << 20] {
            let (relay, ..) = collect(&input, 8192, 4096);
            let mut r = LineReader::new(Trickle { data: &input, step }, 8192);
            let mut spare = Vec::new();
            let mut out = Vec::new();
            let (mut traded, mut copied) = (0, 0);
            while let Some(c) = r.next_chunk().unwrap() {
                match c {
                    Chunk::Lines(b) => {
                        let expect = b.to_vec();
                        let len = b.len();
                        // Only the chunk just handed out can be traded.
                        assert_eq!(r.trade(&mut spare, len + 1), None);
                        assert_eq!(r.handed_out(len), &expect[..]);
                        match r.trade(&mut spare, len) {
                            Some(range) => {
                                assert_eq!(&spare[range], &expect[..]);
                                traded += 1;
                                // Once: the chunk is gone from the reader.
                                assert_eq!(r.trade(&mut spare, len), None);
                            }
                            None => copied += 1,
                        }
                        out.extend_from_slice(&expect);
                    }
                    Chunk::LongPart { bytes, .. } => {
                        out.extend_from_slice(bytes);
                        assert_eq!(r.trade(&mut spare, 0), None, "after a long piece");
                    }
                }
            }
            assert_eq!(out, relay, "step {step}");
            assert_eq!(out, input, "step {step}");
            assert!(traded > 10, "step {step}: {traded} traded, {copied} copied");
        }
    }

    /// A small file's buffer is sized to it; a file that grows after
    /// its size was read (a log being written) still reads whole.
    #[test]
    fn a_small_file_that_grows_is_still_read_whole() {
        use std::io::Write as _;
        use std::os::fd::AsRawFd;
        // Opened twice by its path, so the reader's offset is its own
        // (no `/proc/self/fd` outside Linux), removed when the test ends.
        let named = tempfile::NamedTempFile::new().expect("a temporary file");
        let mut f = named.reopen().expect("reopen for writing");
        f.write_all(b"{\"a\":1}\n").expect("write");
        let reader = std::fs::File::open(named.path()).expect("reopen");
        let fd = reader.as_raw_fd();
        let mut r = LineReader::new(reader, 1 << 20).reading(fd);
        assert_eq!(r.first_size, 4096);
        let long = [vec![b'x'; 100_000], b"\n{}".to_vec()].concat();
        f.write_all(&long).expect("write");
        let mut got = Vec::new();
        while let Some(chunk) = r.next_chunk().expect("read") {
            match chunk {
                Chunk::Lines(b) | Chunk::LongPart { bytes: b, .. } => got.extend_from_slice(b),
            }
        }
        assert_eq!(got, [&b"{\"a\":1}\n"[..], &long].concat());
        assert!(r.buf.len() > 100_000, "grown for the long line");
    }

    #[test]
    fn utf8_prefix_checks_non_ascii_blocks_up_to_the_first_bad_sequence() {
        let ascii = b"{\"a\":1}\n".repeat(1000);
        // A block starting with 4 KiB of ASCII is left to the line checks,
        // even when non-ASCII text follows.
        assert_eq!(utf8_prefix(&ascii), 0);
        assert_eq!(utf8_prefix(&[&ascii[..], "é\n".as_bytes()].concat()), 0);
        assert_eq!(utf8_prefix(b""), 0);
        assert_eq!(utf8_prefix(b"{}\n"), 0);
        let text = "{\"t\":\"日本語 é 🎉\"}\n".repeat(500);
        assert_eq!(utf8_prefix(text.as_bytes()), text.len());
        assert_eq!(utf8_prefix("é".as_bytes()), 2);
        // Everything before the first bad sequence, whatever follows (a bad
        // sequence is non-ASCII, so the block is checked).
        let bads: [&[u8]; 5] = [
            b"\xff",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"\xe6\x97",
            b"\xf4\x90\x80\x80",
        ];
        for bad in bads {
            for at in [0, 1, 7, 4096, text.len() - 1] {
                let at = (at..).find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                let head = &text.as_bytes()[..at];
                let block = [head, bad, text.as_bytes()].concat();
                assert_eq!(utf8_prefix(&block), at, "bad {bad:02x?} at {at}");
            }
        }
    }

    #[test]
    fn splits_and_flags_unterminated_tail() {
        let (relay, lines, long) = collect(b"a\nbb\n\nccc", 100, 4);
        assert_eq!(relay, b"a\nbb\n\nccc");
        assert_eq!(
            lines,
            vec![
                (b"a".to_vec(), true),
                (b"bb".to_vec(), true),
                (b"".to_vec(), true),
                (b"ccc".to_vec(), false)
            ]
        );
        assert_eq!(long, 0);
    }

    #[test]
    fn long_lines_are_streamed() {
        let mut input = vec![b'x'; 50];
        input.push(b'\n');
        input.extend_from_slice(b"ok\n");
        input.extend(vec![b'y'; 30]);
        let (relay, lines, long) = collect(&input, 10, 4);
        assert_eq!(relay, input);
        assert_eq!(lines, vec![(b"ok".to_vec(), true)]);
        assert_eq!(long, 2);
    }

    /// Under a block's size, the limit is exact: a longer line that one
    /// read brought whole still goes out in pieces (the tests' small hold).
    #[test]
    fn a_small_limit_streams_lines_a_read_holds_whole() {
        let mut input = b"short\n".to_vec();
        input.extend(vec![b'z'; 100]);
        input.extend_from_slice(b"\nok\n");
        input.extend(vec![b'w'; 11]);
        input.push(b'\n');
        input.extend(vec![b'v'; 10]);
        input.push(b'\n');
        let (relay, lines, long) = collect(&input, 10, 1 << 16);
        assert_eq!(relay, input);
        assert_eq!(
            lines,
            vec![
                (b"short".to_vec(), true),
                (b"ok".to_vec(), true),
                (vec![b'v'; 10], true)
            ]
        );
        assert_eq!(long, 2);
    }

    /// A reader that fails with `Interrupted` (`EINTR`) on demand, `before`
    /// times before each piece a [`Trickle`] gives, so interruptions land
    /// with no line buffered, with part of a line buffered and in the
    /// middle of an over-long line.
    struct Interrupting<'a> {
        inner: Trickle<'a>,
        before: usize,
        owed: usize,
        interrupted: usize,
    }

    impl Read for Interrupting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.owed > 0 {
                self.owed -= 1;
                self.interrupted += 1;
                return Err(io::Error::from(io::ErrorKind::Interrupted));
            }
            self.owed = self.before;
            self.inner.read(buf)
        }
    }

    /// `EINTR`, made deterministic: every read is interrupted
    /// once or twice first; the reader retries, and what it hands out is
    /// what an uninterrupted reader hands out, every byte in order, nothing
    /// doubled, long lines included.
    #[test]
    fn interrupted_reads_are_retried_and_lose_nothing() {
        let mut input = Vec::new();
        for i in 0..400usize {
            input.extend_from_slice(format!("{{\"type\":\"hit\",\"i\":{i}}}\n").as_bytes());
            if i % 97 == 0 {
                input.extend(std::iter::repeat_n(b'L', 700));
                input.push(b'\n');
            }
        }
        input.extend_from_slice(b"tail");
        for step in [1, 7, 64, 4096] {
            let plain = collect_from(Trickle { data: &input, step }, 500, 4096).0;
            assert_eq!(plain.0, input);
            for before in [1, 2] {
                let src = Interrupting {
                    inner: Trickle { data: &input, step },
                    before,
                    owed: before,
                    interrupted: 0,
                };
                let (got, src) = collect_from(src, 500, 4096);
                let what = format!("step {step}, {before} EINTR a read");
                assert!(
                    got == plain,
                    "{what}: not what the same reads give uninterrupted"
                );
                // The condition was produced: every read was interrupted.
                let reads = input.len().div_ceil(step) + 1;
                assert!(src.interrupted >= reads * before, "{what}");
            }
        }
    }

    /// A reader that counts the `EINTR`s its inner reader returned.
    struct CountingInterrupts<R> {
        inner: R,
        interrupted: usize,
    }

    impl<R: Read> Read for CountingInterrupts<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let r = self.inner.read(buf);
            if matches!(&r, Err(e) if e.kind() == io::ErrorKind::Interrupted) {
                self.interrupted += 1;
            }
            r
        }
    }

    /// `EINTR` from the kernel: a signal handler installed without
    /// `SA_RESTART` is run on the reading thread while it waits in read(2)
    /// on a pipe, again and again; every byte arrives, in order, with
    /// nothing doubled. Whether a read is interrupted is the kernel's and
    /// the scheduler's choice (some kernels restart it, a signal may land
    /// between reads), so that is reported, not asserted;
    /// [`interrupted_reads_are_retried_and_lose_nothing`] produces it.
    #[test]
    fn reads_survive_signals_from_the_kernel() {
        use std::io::Write;
        use std::os::fd::FromRawFd;
        use std::sync::atomic::{AtomicUsize, Ordering};
        static HANDLED: AtomicUsize = AtomicUsize::new(0);
        extern "C" fn on_usr1(_: libc::c_int) {
            HANDLED.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: a zeroed sigaction is valid; the handler only touches an
        // atomic; SIGUSR1 is sent to the reading thread alone.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_usr1 as extern "C" fn(libc::c_int) as usize;
            sa.sa_flags = 0; // no SA_RESTART: a blocked read returns EINTR
            libc::sigemptyset(&mut sa.sa_mask);
            assert_eq!(libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut()), 0);
        }
        let mut fds = [0; 2];
        // SAFETY: two valid descriptors are written into `fds`.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: each descriptor is owned by exactly one File.
        let (rd, mut wr) = unsafe {
            (
                std::fs::File::from_raw_fd(fds[0]),
                std::fs::File::from_raw_fd(fds[1]),
            )
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            // SAFETY: pthread_self has no preconditions.
            let _ = tx.send(unsafe { libc::pthread_self() });
            let mut r = LineReader::new(
                CountingInterrupts {
                    inner: rd,
                    interrupted: 0,
                },
                1 << 20,
            );
            let mut got = Vec::new();
            let mut lines = 0;
            while let Some(c) = r.next_chunk().expect("no error reaches the caller") {
                if let Chunk::Lines(b) = c {
                    lines += split_lines(b).count();
                    got.extend_from_slice(b);
                }
            }
            (got, lines, r.src.interrupted)
        });
        let tid = rx.recv().expect("reader thread id");
        let mut sent = Vec::new();
        for i in 0..60 {
            // The pipe is empty: the reader is blocked in read(2).
            std::thread::sleep(std::time::Duration::from_millis(3));
            // SAFETY: the thread is alive until the pipe is closed below.
            unsafe { libc::pthread_kill(tid, libc::SIGUSR1) };
            let line = format!("{{\"type\":\"hit\",\"i\":{i}}}\n");
            wr.write_all(line.as_bytes()).expect("write");
            sent.extend_from_slice(line.as_bytes());
        }
        drop(wr);
        let (got, lines, interrupted) = reader.join().expect("reader");
        assert_eq!(got, sent);
        assert_eq!(lines, 60);
        if interrupted == 0 {
            // Straight to stderr: cargo test hides eprintln! of a passing test.
            let _ = writeln!(
                io::stderr().lock(),
                "note: {} signals handled, no read interrupted: this kernel restarts them",
                HANDLED.load(Ordering::Relaxed)
            );
        }
    }
}
