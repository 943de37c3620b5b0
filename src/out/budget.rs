//! One cap on what stderr says of failed runs, for the commands that read
//! many runs (`--log`, many files): `--show N` findings in all, as
//! `aoi check --show N` says of its one stream. A log of 20,000 broken
//! runs would otherwise write each run's findings, hundreds of thousands
//! of lines no one reads, and bury the verdict line that ends them. Past
//! the cap a failed run is counted, not said, and the command's last
//! stderr line gives the count and where every run is listed.
//!
//! Saying happens on one thread, in input order, whether the inputs were
//! read in turn or on workers (their stderr is replayed), so what is said
//! does not depend on the thread count.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Findings still to be shown.
static LEFT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// The cap, as the closing line names it.
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);
/// Failed runs said on stderr, and counted only.
static SAID: AtomicU64 = AtomicU64::new(0);
static UNSAID: AtomicU64 = AtomicU64::new(0);

/// Sets the cap: `n` findings in all (once, before any run is said).
pub(crate) fn set_show(n: usize) {
    LEFT.store(n, Ordering::Relaxed);
    CAP.store(n, Ordering::Relaxed);
}

/// Whether a failed run with `findings` findings is said on stderr, and
/// how many of them: `None` past the cap (it is counted). A said run
/// takes at least one from the cap (its verdict line), so at most about
/// 2 N lines are said of runs whatever their number.
pub(crate) fn take(findings: usize) -> Option<usize> {
    let left = LEFT.load(Ordering::Relaxed);
    if left == 0 {
        UNSAID.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    let shown = findings.min(left);
    LEFT.store(left - shown.max(1), Ordering::Relaxed);
    SAID.fetch_add(1, Ordering::Relaxed);
    Some(shown)
}

/// The closing line when failed runs went unsaid: how many failed in all
/// and where each is listed (`whole`, e.g. `--format jsonl`); `None` when
/// every failed run was said.
pub(crate) fn closing(command: &str, whole: &str) -> Option<String> {
    let unsaid = UNSAID.load(Ordering::Relaxed);
    if unsaid == 0 {
        return None;
    }
    let failed = unsaid + SAID.load(Ordering::Relaxed);
    let cap = CAP.load(Ordering::Relaxed);
    Some(format!(
        "aoi {command}: {failed} run(s) failed, {unsaid} of them not shown above (--show {cap}: \
         findings in all); every run is listed by {whole}"
    ))
}
