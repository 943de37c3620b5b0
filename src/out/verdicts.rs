//! The verdicts of a command's streams, folded one at a time: what aoi's
//! closing summary says of them all (a log of millions of runs
//! is not kept run by run).

use crate::judge::{Cause, Identity, Verdict};
use crate::spec::exit::Code;

use super::report::{counted_upstream, upstream_identity};

/// Every verdict added, folded.
#[derive(Default)]
pub(crate) struct Verdicts {
    /// Streams added.
    pub(crate) streams: u64,
    /// Those whose exit is not 0.
    pub(crate) failed: u64,
    /// Domain events, warnings and errors they consumed.
    pub(crate) consumed: (u64, u64, u64),
    /// Failed `aoi:check` events (see [`Verdict::failed_checks`]).
    pub(crate) checks_failed: u64,
    /// The last verdict of the most severe exit.
    worst: Option<Verdict>,
    /// Set once a stream had upstream `aoi:error` events that count
    /// ([`counted_upstream`]): the most severe of their causes.
    upstream: Option<Option<Cause>>,
    /// The upstream identity the streams that name one name, unless they
    /// differ (`mixed`).
    identity: Option<Identity>,
    mixed: bool,
}

impl Verdicts {
    /// Folds one verdict in.
    pub(crate) fn add(&mut self, v: Verdict) {
        self.streams += 1;
        self.failed += u64::from(Code::of(v.exit_code) != Code::OK);
        let c = &mut self.consumed;
        *c = (
            c.0.saturating_add(v.domain_events),
            c.1.saturating_add(v.warnings),
            c.2.saturating_add(v.errors),
        );
        self.checks_failed = self.checks_failed.saturating_add(v.failed_checks.0);
        if counted_upstream(&v) {
            let worst = self.upstream.get_or_insert(None);
            // The most severe: process scope first, then not retryable;
            // the last of equals.
            let key = |c: &Cause| (c.process_scope as u8) * 2 + (c.retryable != Some(true)) as u8;
            if let Some(c) = &v.cause {
                if worst.as_ref().is_none_or(|w| key(c) >= key(w)) {
                    *worst = Some(c.clone());
                }
            }
        }
        let id = upstream_identity(&v);
        if !id.is_empty() {
            match &self.identity {
                None => self.identity = Some(id),
                Some(first) if *first != id => self.mixed = true,
                Some(_) => {}
            }
        }
        let rank = Code::of(v.exit_code).rank();
        if self
            .worst
            .as_ref()
            .is_none_or(|w| rank >= Code::of(w.exit_code).rank())
        {
            self.worst = Some(v);
        }
    }

    /// The last verdict of the most severe exit.
    pub(crate) fn worst(&self) -> Option<&Verdict> {
        self.worst.as_ref()
    }

    /// § 13.1: upstream `aoi:error` events fail the run of an AOI producer
    /// (unless `--continue-on-error`). `None` when no stream had one; else
    /// the exit status they call for (75 when the most severe is
    /// retryable, else 1) and that error, for `caused_by`.
    pub(crate) fn upstream_errors(&self) -> Option<(Code, Option<Cause>)> {
        let worst = self.upstream.clone()?;
        let code = match &worst {
            Some(c) if c.retryable == Some(true) => Code::TEMPFAIL,
            _ => Code::FAILED,
        };
        Some((code, worst))
    }

    /// § 13.1: the direct upstream's identity, when every stream that
    /// names one names the same.
    pub(crate) fn upstream(&self) -> Option<&Identity> {
        self.identity.as_ref().filter(|_| !self.mixed)
    }
}
