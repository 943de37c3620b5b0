//! The run registry: one stream (and judge) per `aoi.run` open at once,
//! found by its key (the last few looked up are kept), opened, ended at
//! its summary and forgotten, and each located line routed to its run.

use super::*;
use crate::spec::types;

/// A run key looked up lately and its stream ([`Input::recent`]).
pub(super) struct Recent {
    /// [`key_tag`] of `key`.
    tag: u64,
    key: Vec<u8>,
    stream: usize,
}

/// A key's length and last eight bytes (its only bytes when shorter),
/// mixed: equal keys have one tag, and the run ids of one log, which
/// share their first bytes (a ULID's time), rarely share one.
#[inline]
pub(super) fn key_tag(key: &[u8]) -> u64 {
    let tail = match key.last_chunk::<8>() {
        Some(t) => u64::from_le_bytes(*t),
        None => key.iter().fold(0, |w, &c| w << 8 | u64::from(c)),
    };
    tail ^ (key.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Input {
    /// Opens a stream for `run`, judged by `judge`; returns its place.
    pub(super) fn open(&mut self, run: Option<String>, judge: Judge, closes: bool) -> usize {
        let stream = Stream {
            run,
            judge,
            framework: false,
            order: self.next_order,
            closes,
        };
        self.next_order += 1;
        if closes {
            self.open_orders.insert(stream.order);
        }
        self.open_runs += usize::from(stream.run.is_some());
        match self.free.pop() {
            Some(i) => {
                if let Some(place) = self.streams.get_mut(i) {
                    *place = Some(stream);
                }
                i
            }
            None => {
                self.streams.push(Some(stream));
                self.streams.len() - 1
            }
        }
    }

    /// Opens the unnamed stream, an AOI stream whatever it holds.
    pub(super) fn open_unnamed(&mut self) -> usize {
        let i = self.open(None, Judge::new(self.opts.judge.clone()), false);
        if let Some(s) = self.stream_mut(i) {
            s.framework = true;
        }
        i
    }

    pub(super) fn stream(&self, i: usize) -> Option<&Stream> {
        self.streams.get(i).and_then(Option::as_ref)
    }

    pub(super) fn stream_mut(&mut self, i: usize) -> Option<&mut Stream> {
        self.streams.get_mut(i).and_then(Option::as_mut)
    }

    /// Keeps `key` among the latest ended runs, forgetting the oldest
    /// past [`ENDED_KEPT`] (unless its tail is open).
    pub(super) fn forget_ended(&mut self, key: &[u8]) {
        self.ended.push_back(key.to_vec());
        if self.ended.len() <= ENDED_KEPT {
            return;
        }
        if let Some(old) = self.ended.pop_front() {
            if matches!(self.index.get(&old), Some(Slot::Ended(_))) {
                self.index.remove(&old);
            }
        }
    }

    /// Ends the run of stream `i` (keyed `key`) at its summary: its judge
    /// is finished and freed, its verdict visited, and only what a later
    /// line of it needs is kept.
    pub(super) fn end_run<E>(
        &mut self,
        i: usize,
        key: &[u8],
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some(stream) = self.streams.get_mut(i).and_then(Option::take) else {
            return Ok(());
        };
        self.free.push(i);
        self.open_orders.remove(&stream.order);
        self.open_runs = self.open_runs.saturating_sub(1);
        self.recent.retain(|r| r.stream != i);
        self.next_recent = 0;
        if self.last == Some(i) {
            self.last = None;
        }
        if let (Some(at), Some(slot)) = (stream.judge.resume_point(), self.index.get_mut(key)) {
            *slot = Slot::Ended(at);
            self.forget_ended(key);
        }
        let settled = self.open_orders.first().copied();
        match judged(stream, self.opts.shown, &mut self.counts) {
            Some(run) => visit(Visit::Ended {
                run: Box::new(run),
                settled: settled.unwrap_or(self.next_order),
            }),
            None => Ok(()),
        }
    }

    /// Keeps `key`'s stream among the [`Input::recent`] ones, in place of
    /// the oldest (keys past a few hundred bytes are not kept: the hash
    /// finds them, and no buffer keeps their size).
    pub(super) fn remember(&mut self, key: &[u8], stream: usize) {
        const RECENT: usize = 8;
        const LONGEST: usize = 256;
        if key.len() > LONGEST {
            return;
        }
        let tag = key_tag(key);
        if self.recent.len() < RECENT {
            self.recent.push(Recent {
                tag,
                key: key.to_vec(),
                stream,
            });
        } else if let Some(r) = self.recent.get_mut(self.next_recent) {
            r.tag = tag;
            r.key.clear();
            r.key.extend_from_slice(key);
            r.stream = stream;
            self.next_recent = (self.next_recent + 1) % RECENT;
        }
    }

    /// The stream of `key` if it is among the [`Input::recent`] ones.
    #[inline]
    pub(super) fn cached(&self, key: &[u8]) -> Option<usize> {
        // The tags differ for all but the one key that matches, so its
        // bytes are compared once, not once per run in the log.
        let tag = key_tag(key);
        self.recent
            .iter()
            .find(|r| r.tag == tag && r.key == key)
            .map(|r| r.stream)
    }

    /// Judges a located event in its run's stream, then visits it.
    pub(super) fn route<E>(
        &mut self,
        obj: &[u8],
        terminated: bool,
        line_no: u64,
        visit: &mut impl FnMut(Visit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        // The run as written (quotes included) and as decoded.
        let (raw_run, plain) = self.raw_run(obj);
        let body = raw_run
            .get(1..raw_run.len().saturating_sub(1))
            .unwrap_or_default();
        let key: std::borrow::Cow<'_, [u8]> = if !plain && body.contains(&b'\\') {
            std::borrow::Cow::Owned(unescape(body).into_owned().into_bytes())
        } else {
            std::borrow::Cow::Borrowed(body)
        };
        let key: &[u8] = &key;
        let cached = self.cached(key);
        let idx = match cached {
            Some(i) => Some(i),
            None => match self.stream_of(key, raw_run) {
                Some(idx) => idx,
                // Another run than the one asked for.
                None => return Ok(()),
            },
        };
        if let Some(i) = idx {
            self.last = Some(i);
            if cached.is_none() {
                self.remember(key, i);
            }
        }
        match idx
            .and_then(|i| self.streams.get_mut(i))
            .and_then(Option::as_mut)
        {
            Some(stream) => {
                // A long line's event stands for it: a cut one is counted
                // at its length, not its reduced copy's.
                match self.long_len.filter(|_| !terminated) {
                    Some(len) => stream.judge.cut_line(len, line_no),
                    None => {
                        stream
                            .judge
                            .line_at(obj, terminated, line_no, &mut self.peeker, Ok(()))
                    }
                }
                if stream.judge.last_class() == LineClass::Framework {
                    stream.framework = true;
                }
            }
            None => {
                self.counts.untracked += 1;
                if terminated {
                    let ty = self
                        .peeker
                        .type_member
                        .and_then(|i| self.peeker.members.get(i))
                        .and_then(|m| str_ref(obj, m));
                    let c = &mut self.counts.untracked_events;
                    match ty.as_deref() {
                        Some(types::ERROR) => c.2 += 1,
                        Some(types::WARNING) => c.1 += 1,
                        Some(t) if !t.starts_with(crate::spec::types::PREFIX) => c.0 += 1,
                        _ => {}
                    }
                }
            }
        }
        visit(Visit::Event(Located {
            obj,
            terminated,
            line_no,
            raw_run,
            stream: idx
                .and_then(|i| self.streams.get(i))
                .and_then(Option::as_ref),
            peek: &self.peeker,
            long: self.long_event.take(),
            prepared: std::mem::take(&mut self.prepared_valid).then_some(&mut *self.prepared),
        }))?;
        match idx {
            Some(i)
                if self
                    .stream(i)
                    .is_some_and(|s| s.closes && s.judge.summary_seen()) =>
            {
                self.end_run(i, key, visit)
            }
            _ => Ok(()),
        }
    }

    /// The stream of a run not among the recent ones (`key`: its decoded
    /// `aoi.run`; `raw_run`: as written): its open stream, its tail when
    /// it had ended, a new stream when it is new, `Some(None)` when it is
    /// not judged (past `max_runs` open runs), `None` when it is not the
    /// run asked for.
    pub(super) fn stream_of(&mut self, key: &[u8], raw_run: &[u8]) -> Option<Option<usize>> {
        let slot = self.index.get(key).copied();
        if let Some(Slot::Open(i)) = slot {
            return Some(Some(i));
        }
        if matches!(slot, Some(Slot::Untracked)) {
            return Some(None);
        }
        let run = (!raw_run.is_empty()).then(|| String::from_utf8_lossy(key).into_owned());
        if slot.is_none() {
            if let Some(want) = &self.opts.run {
                if !run.as_deref().is_some_and(|r| run_matches(r, want)) {
                    self.counts.other_runs += 1;
                    // Events without a run are named too: an input of them
                    // holds no run to ask for, which is said as such.
                    self.counts
                        .name_other_run(run.as_deref().unwrap_or(WITHOUT_RUN));
                    return None;
                }
            }
        }
        let named = run.is_some();
        if named && self.open_runs >= self.opts.max_runs {
            self.index.insert(key.to_vec(), Slot::Untracked);
            return Some(None);
        }
        let opts = self.opts.judge.clone();
        let i = match slot {
            // § 13.1: a line after the run's summary; the run's tail.
            Some(Slot::Ended(at)) => {
                self.open(run, Judge::resumed(opts, at, raw_run.to_vec()), false)
            }
            _ => self.open(run, Judge::new(opts), named),
        };
        self.index.insert(key.to_vec(), Slot::Open(i));
        Some(Some(i))
    }

    /// The one stream of an input read without `--log`, made at its first
    /// line; it is an AOI stream whatever it holds, as in `aoi check`.
    pub(super) fn only_stream(&mut self) -> usize {
        if self.streams.is_empty() {
            self.open_unnamed();
        }
        self.last = Some(0);
        0
    }
}
