//! The stream judge: the state machine every stream-reading command shares.
//!
//! Feed it lines with [`Judge::line`] ([`crate::drive`] also feeds lines
//! longer than the reader holds, piece by piece), drain the findings it
//! produced with [`Judge::drain`], and call [`Judge::finish`] at end of input for the
//! [`Verdict`]: outcome, exit code, counts, identity and the § 18 factors.
//! Memory is bounded: the judge keeps counters and a few small strings, never
//! lines.
//!
//! This file holds the state machine: its state, the ways a line comes in,
//! and what every line passes before it is read. The rules live by family
//! in files of their own, as `impl Judge` blocks over the same private
//! state: `line` (§ 2), `long` (long lines), `event` and `envelope`
//! (§ 8.1), `meta` (§ 5), `error` (§ 9), `summary` (§ 8.3, § 13.1),
//! `finish` (end of input, the verdict) and `resume` (a run's lines after
//! its summary, once its judge is freed); `verdict` holds the types they
//! produce, `fields` and `types` the reading they share.

mod check;
mod envelope;
mod error;
mod event;
#[cfg(test)]
mod fast_tests;
pub(crate) mod fields;
mod finish;
pub(crate) mod line;
mod long;
mod meta;
mod order;
mod resume;
#[cfg(feature = "schema")]
mod schema;
mod secrets;
mod summary;
#[cfg(test)]
mod tests;
mod types;
mod verdict;

use crate::peek::{self, Member, Peeker};
use crate::rules::{RuleId, Severity};

pub use check::{check, check_with};
// The binary's commands use it; the library alone does not.
#[cfg(feature = "cli")]
pub(crate) use envelope::envelope_run;
pub use fields::{ms_json, preview};
pub use resume::Resume;
pub use secrets::secret_in_args;
pub use verdict::{Cause, Factors, Finding, Identity, Outcome, SummaryInfo, Verdict};

use line::BOM;
use types::TypeCounts;

/// Options with the same meaning in every command that judges a stream.
#[derive(Debug, Clone)]
pub struct JudgeOptions {
    /// The operation is documented unbounded (§ 4.2): EOF without a summary
    /// is a clean end.
    pub unbounded: bool,
    /// Treat `aoi:summary.partial:true` as a failure (exit 1, or 75 when
    /// its cause is retryable).
    pub fail_on_partial: bool,
    /// Findings of one rule handed out per stream; the rest are only counted.
    pub per_rule_limit: u64,
    /// `--schema`: every event is validated against this JSON Schema.
    #[cfg(feature = "schema")]
    pub schema: Option<std::sync::Arc<crate::validator::EventSchema>>,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            unbounded: false,
            fail_on_partial: false,
            per_rule_limit: 100,
            #[cfg(feature = "schema")]
            schema: None,
        }
    }
}

/// What the last line judged was, for commands that route lines
/// (`strip` keeps domain events and drops the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineClass {
    /// Not a complete JSON object with a string `type`: blank, prose,
    /// invalid, unterminated, over-long, or without a usable `type`.
    Invalid,
    /// An event whose `type` has no `aoi:` prefix.
    Domain,
    /// An `aoi:*` event.
    Framework,
}

/// The stream-level state machine. Cloned, it is a checkpoint: the
/// producer judges an event on a copy before it writes it.
#[derive(Clone)]
pub struct Judge {
    last_class: LineClass,
    opts: JudgeOptions,
    /// Boxed, so [`Judge::line_at`] trades it for the caller's in one move.
    peeker: Box<Peeker>,
    /// A line longer than the reader holds, read in pieces, and whether
    /// the last line was one.
    long: crate::long::LongLine,
    last_long: bool,
    /// The reading thread found the line being judged valid against
    /// `--schema` ([`Judge::line_prepeeked`]); true only while it is judged.
    #[cfg(feature = "schema")]
    schema_ahead: bool,
    long_piece: bool,
    pending: Vec<Finding>,
    rule_counts: Vec<u64>,
    line_no: u64,
    /// Position of the current line for findings: `line_no`, or the line
    /// number in the source a demultiplexed line came from
    /// ([`Judge::line_at`]).
    pos: u64,
    bytes: u64,
    object_lines: u64,
    domain: u64,
    framework: u64,
    warnings: u64,
    errors: u64,
    /// Distinct types with their counts.
    types: TypeCounts,
    other_types: u64,
    /// Seq of the current line, for findings.
    cur_seq: Option<u64>,
    seq_seen: bool,
    next_seq: u64,
    /// Forward jumps of seq held until settled (gap or reordering).
    order: order::Order,
    lines_without_seq: u64,
    /// Lines that could not be read as events (not JSON, not an object,
    /// too long): in all, and since the last event with a seq. A seq or
    /// count that misses exactly those lines is their effect, not another
    /// cause (one cause, one finding).
    unreadable: u64,
    unreadable_since_seq: u64,
    /// Inside a run of lines that look like pretty-printed JSON: its first
    /// line was reported, the rest are only counted.
    in_pretty: bool,
    /// The stream declared another major AOI version (§ 5): after that one
    /// finding, only whether the run finished is judged.
    foreign: bool,
    first_without_seq: u64,
    /// The last `aoi.t` seen, and whether `envelope.t` was reported.
    last_t: Option<f64>,
    t_reported: bool,
    /// The stream's framework events carry v0.2's flat `seq`/`run`
    /// (`envelope.flat`, reported once).
    flat_envelope: bool,
    run: Option<Vec<u8>>,
    run_changed: bool,
    meta_count: u64,
    identity: Identity,
    summary: Option<SummaryInfo>,
    after_summary: u64,
    terminated: bool,
    worst_error: Option<Cause>,
    /// The first `aoi:error` of this run's own (no `origin`) with process
    /// scope: its line and code. § 9.1: the run is over, so it failed.
    process_error: Option<(u64, Option<String>)>,
    /// See [`Verdict::failed_checks`].
    failed_checks: (u64, Option<String>),
    /// `aoi:error` lines carrying `origin`: errors forwarded from upstream.
    forwarded_errors: u64,
    /// The run's own (no `origin`) item-scope `aoi:error` lines.
    own_item_errors: u64,
    io_error: Option<String>,
    /// Set when the input went silent past `--idle-timeout`.
    idle: Option<String>,
    /// The first violation in the stream's order (its line; 0 for the
    /// stream's own, after every line), for the verdict's "first:". A held
    /// seq jump is reported late, at its own line.
    first_violation: Option<(RuleId, u64)>,
    /// Framework events take the general path for their keys, never the
    /// proof by hashes ([`fields::Keys`]): the tests hold one to the other.
    #[cfg(test)]
    general_keys: bool,
}

impl Judge {
    /// A judge for one stream.
    pub fn new(opts: JudgeOptions) -> Self {
        Judge {
            last_class: LineClass::Invalid,
            opts,
            peeker: Box::new(Peeker::new()),
            long: crate::long::LongLine::new(),
            last_long: false,
            #[cfg(feature = "schema")]
            schema_ahead: false,
            long_piece: false,
            pending: Vec::new(),
            rule_counts: vec![0; RuleId::ALL.len()],
            line_no: 0,
            pos: 0,
            bytes: 0,
            object_lines: 0,
            domain: 0,
            framework: 0,
            warnings: 0,
            errors: 0,
            types: TypeCounts::default(),
            other_types: 0,
            cur_seq: None,
            seq_seen: false,
            next_seq: 0,
            order: order::Order::default(),
            lines_without_seq: 0,
            unreadable: 0,
            unreadable_since_seq: 0,
            in_pretty: false,
            foreign: false,
            first_without_seq: 0,
            last_t: None,
            t_reported: false,
            flat_envelope: false,
            run: None,
            run_changed: false,
            meta_count: 0,
            identity: Identity::default(),
            summary: None,
            after_summary: 0,
            terminated: true,
            worst_error: None,
            process_error: None,
            failed_checks: (0, None),
            forwarded_errors: 0,
            own_item_errors: 0,
            io_error: None,
            idle: None,
            first_violation: None,
            #[cfg(test)]
            general_keys: false,
        }
    }

    /// What the last line given to [`Judge::line`] was.
    pub fn last_class(&self) -> LineClass {
        self.last_class
    }

    /// The bytes of the last line's event, which its members index: the
    /// line, or what follows its byte order mark (`line.bom`; JSON never
    /// starts with one, so a line that does and was read is that case).
    pub(crate) fn last_event<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        match line.strip_prefix(BOM) {
            Some(rest) if self.last_class != LineClass::Invalid => rest,
            _ => line,
        }
    }

    /// The top-level members of the last line, when it was a JSON object,
    /// and the index of its `aoi` member: the spans `strip` splices with.
    pub(crate) fn last_members(&self) -> (&[Member], Option<usize>) {
        (&self.peeker.members, self.peeker.aoi_member)
    }

    /// Whether the last line had a reserved name (`type`, `aoi`) more than
    /// once (§ 8.1): readers that take the first and the last occurrence
    /// see different events, so routing commands drop such a line.
    pub(crate) fn last_ambiguous(&self) -> bool {
        self.last_class != LineClass::Invalid && !self.peeker.reserved_dups.is_empty()
    }

    /// Lines judged so far (the number of the last one).
    pub fn line_no(&self) -> u64 {
        self.line_no
    }

    /// The peek of the last line (its members, `type` and `aoi` indices).
    pub(crate) fn last_peek(&self) -> &Peeker {
        &self.peeker
    }

    /// Whether the stream's `aoi:summary` has been seen.
    pub fn summary_seen(&self) -> bool {
        self.summary.is_some()
    }

    /// The identity the stream's `aoi:meta` declared, so far.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Findings produced since the last call.
    pub fn drain(&mut self) -> std::vec::Drain<'_, Finding> {
        self.pending.drain(..)
    }

    fn report(&mut self, rule: RuleId, line: u64, message: String) {
        let seq = if line == self.pos { self.cur_seq } else { None };
        self.report_seq(rule, line, seq, message);
    }

    /// [`Judge::report`] with the seq of the line it is at.
    fn report_seq(&mut self, rule: RuleId, line: u64, seq: Option<u64>, message: String) {
        // A stream of another AOI version is not read by AOI 1's rules: the
        // version is its one finding, besides whether the run finished
        // (no cascade of v1.0 findings on v0.2 meanings).
        if self.foreign
            && !matches!(
                rule,
                RuleId::SummaryMissing | RuleId::LineUnterminated | RuleId::InputIo
            )
        {
            return;
        }
        // Two runs read as one: what only follows from mixing them is not
        // another cause (`run.changed` is the one finding).
        if self.run_changed && rule.follows_from_mixed_runs() {
            return;
        }
        let earlier = |(_, at): (RuleId, u64)| line != 0 && (at == 0 || line < at);
        if rule.severity() == Severity::Violation && self.first_violation.is_none_or(earlier) {
            self.first_violation = Some((rule, line));
        }
        let n = &mut self.rule_counts[rule as usize];
        *n += 1;
        if *n <= self.opts.per_rule_limit {
            self.pending.push(Finding {
                rule,
                line,
                seq,
                message,
            });
        }
    }

    fn here(&mut self, rule: RuleId, message: String) {
        self.report(rule, self.pos, message);
    }

    /// Judges one line (without its `\n`); `terminated` is false for a final
    /// line that lacked its line feed.
    pub fn line(&mut self, line: &[u8], terminated: bool) {
        self.line_checked(line, terminated, false);
    }

    /// [`Judge::line`] for a line whose UTF-8 may have been checked with
    /// its block ([`crate::lines::utf8_prefix`], [`Peeker::peek_checked`]).
    #[inline]
    #[doc(hidden)]
    pub fn line_checked(&mut self, line: &[u8], terminated: bool, utf8_checked: bool) {
        if self.begin_line(line, terminated, None) {
            let r = self.peeker.peek_checked(line, utf8_checked);
            self.peeked(line, r);
        }
    }

    /// Judges one complete line that the caller has already peeked with
    /// `peeker` (`result` is what [`Peeker::peek`] returned), without
    /// peeking it again: the path of commands that demultiplex one input
    /// into several streams (one judge per `aoi.run`) and must peek a line
    /// to know its stream. `source_line` is the line's number in the input,
    /// used in findings instead of the stream's own line count.
    pub(crate) fn line_at(
        &mut self,
        line: &[u8],
        terminated: bool,
        source_line: u64,
        peeker: &mut Box<Peeker>,
        result: Result<(), peek::JsonError>,
    ) {
        if self.begin_line(line, terminated, Some(source_line)) {
            std::mem::swap(&mut self.peeker, peeker);
            self.peeked(line, result);
            std::mem::swap(&mut self.peeker, peeker);
        }
    }

    /// Judges one line that was peeked elsewhere (by the reading thread,
    /// when a stream is read on two): `peeker` holds what [`Peeker::peek`] found and
    /// `result` what it returned; `schema_valid`: the reading thread found
    /// the event valid against `--schema` (`EventSchema::line_valid`), so
    /// it is not validated again. Exactly [`Judge::line`] otherwise. The
    /// judge takes the peeker and leaves its previous one in its place.
    pub(crate) fn line_prepeeked(
        &mut self,
        line: &[u8],
        peeker: &mut Box<Peeker>,
        result: Result<(), peek::JsonError>,
        schema_valid: bool,
    ) {
        if self.begin_line(line, true, None) {
            // The judge keeps the line's peek, as after [`Judge::line`]
            // (strip splices with it); the caller gets the judge's old box.
            std::mem::swap(&mut self.peeker, peeker);
            #[cfg(feature = "schema")]
            {
                self.schema_ahead = schema_valid;
            }
            self.peeked(line, result);
            // The answer was this line's: no other line may take it.
            #[cfg(feature = "schema")]
            {
                self.schema_ahead = false;
            }
        }
        #[cfg(not(feature = "schema"))]
        let _ = schema_valid;
    }

    /// Exchanges the judge's peeker with `peeker` (after
    /// [`Judge::line_prepeeked`] and what reads the line's peek, the caller
    /// takes its peeker back).
    pub(crate) fn swap_peeker(&mut self, peeker: &mut Box<Peeker>) {
        std::mem::swap(&mut self.peeker, peeker);
    }

    /// The checks before a line is peeked; false when it is not to be
    /// peeked (unterminated).
    fn begin_line(&mut self, line: &[u8], terminated: bool, source_line: Option<u64>) -> bool {
        self.last_long = false;
        self.long_piece = false;
        self.begin_len(line.len() as u64, terminated, source_line)
    }

    /// [`Judge::begin_line`] for a line of `len` bytes.
    fn begin_len(&mut self, len: u64, terminated: bool, source_line: Option<u64>) -> bool {
        self.last_class = LineClass::Invalid;
        self.line_no += 1;
        self.pos = source_line.unwrap_or(self.line_no);
        self.bytes += len + terminated as u64;
        self.cur_seq = None;
        if self.summary.is_some() {
            self.after_summary += 1;
        }
        if !terminated {
            // § 2: discard it and treat the stream as truncated. Bytes after
            // the summary still break § 13.1, complete line or not.
            self.summary_order_check(false);
            self.terminated = false;
            self.here(
                RuleId::LineUnterminated,
                format!("final line has no line feed ({len} bytes discarded)"),
            );
            return false;
        }
        true
    }

    /// Reports the first line after the summary (once per stream).
    fn summary_order_check(&mut self, is_summary: bool) {
        if self.after_summary == 1 && !is_summary {
            let at = self.summary.as_ref().map_or(0, |s| s.line);
            self.here(
                RuleId::SummaryNotLast,
                format!("line after the aoi:summary of line {at}"),
            );
        }
    }
}
