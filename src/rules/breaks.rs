//! What each rule breaks, written once beside the catalog: the § 18
//! factors a finding of it denies, and the `aoi lint` check (§ 18 row) it
//! counts against. The judge and lint read these; both matches are
//! exhaustive, so a new rule does not compile until it is placed here.

use super::RuleId;

/// The § 18 factors the stream alone can show (the others need probes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Factor {
    /// Every line is an object with a string `type`, framework events typed.
    Typed,
    /// `seq` contiguous from 0 under one `run`, reconciled with `event_count`.
    Verifiable,
    /// The identity triple on `aoi:meta` (and on the summary).
    Versioned,
    /// One meta first, one summary last: a stream that composes.
    Composable,
    /// A truncated result says how to go on (`next_cursor`).
    Bounded,
}

impl Factor {
    /// The factor's name in § 18.
    pub fn name(self) -> &'static str {
        match self {
            Factor::Typed => "Typed",
            Factor::Verifiable => "Verifiable",
            Factor::Versioned => "Versioned",
            Factor::Composable => "Composable",
            Factor::Bounded => "Bounded",
        }
    }
}

impl RuleId {
    /// The § 18 factors a finding of this rule denies.
    pub fn factors(self) -> &'static [Factor] {
        use Factor::*;
        use RuleId::*;
        match self {
            LineBlank
            | LineNotJson
            | LineBom
            | LinePretty
            | LineInvalidUtf8
            | LineAnsi
            | LineNotObject
            | TypeMissing
            | TypeNotString
            | DuplicateReserved
            | FrameworkDuplicateKey
            | UnknownFramework
            | EnvelopeNotObject
            | EnvelopeDuplicateKey
            | EnvelopeFieldType
            | SummaryReason
            | SummaryFieldType
            | SummaryUpstream
            | SummaryCausedBy
            | ErrorCategory
            | ErrorCategoryPartial
            | ErrorCode
            | ErrorMessage
            | ErrorRetryable
            | ErrorRetryAfter
            | ErrorScope
            | TypeEmpty
            | Properties
            | EnvelopeFlat
            | EnvelopeType
            | ErrorFieldType
            | ErrorUpstreamRenamed
            | SchemaInvalid => &[Typed],
            LineLoneSurrogate
            | UnknownField
            | SeqAbsent
            | MetaMissing
            | MetaArgsSecret
            | SummaryCausedByMissing
            | SummaryIdentityMismatch
            | ErrorCategoryUnknown
            | InputIdleTimeout
            | EnvelopeUnknownKey
            | EnvelopeT
            | MetaArgsSecretFlag
            | MetaEnv
            | ErrorRetryAfterAbsent
            | ErrorItemUnindexed
            | NumberIntegerForm
            | SchemaUnchecked => &[],
            SeqStart
            | LineUnterminated
            | SeqMissing
            | SeqGap
            | RunMissing
            | RunChanged
            | SummaryMissing
            | SummaryEventCount
            | SummaryEventCountAbsent
            | SummaryCount
            | SummaryWarningCount
            | SummaryErrorCount
            | InputIo
            | SummaryPartial
            | SummarySkipped => &[Verifiable],
            MetaNotFirst | MetaDuplicate | SummaryNotLast | SummaryDuplicate => &[Composable],
            MetaIdentity | VersionUnsupported | SummaryIdentity => &[Versioned],
            MetaFieldType => &[Typed, Versioned],
            SummaryOk => &[Typed, Verifiable],
            SummaryOkAfterProcessError => &[Verifiable],
            SummaryTruncatedCursor | SummaryCursorNotTruncated => &[Bounded],
        }
    }

    /// Whether a finding of this rule only follows from reading two runs
    /// as one stream (their seqs, metas, summaries and counts mixed):
    /// after `run.changed`, it is not another cause.
    pub fn follows_from_mixed_runs(self) -> bool {
        use RuleId::*;
        matches!(
            self,
            SeqStart
                | SeqGap
                | MetaNotFirst
                | MetaDuplicate
                | SummaryNotLast
                | SummaryDuplicate
                | SummaryEventCount
                | SummaryCount
                | SummaryWarningCount
                | SummaryErrorCount
                | SummaryIdentityMismatch
                | SummaryCausedByMissing
                | SummaryOkAfterProcessError
                | SummaryPartial
                | SummarySkipped
                | EnvelopeT
        )
    }

    /// The `aoi lint` check (§ 18 row) a finding of this rule fails.
    pub fn check(self) -> u8 {
        use RuleId::*;
        match self {
            LineBlank | LineNotJson | LineLoneSurrogate | LineBom | LinePretty
            | LineInvalidUtf8 | LineAnsi | LineNotObject | TypeMissing | TypeNotString
            | DuplicateReserved | UnknownFramework | VersionUnsupported | TypeEmpty => 2,
            LineUnterminated
            | SummaryMissing
            | SummaryOk
            | SummaryOkAfterProcessError
            | SummaryReason
            | SummaryFieldType
            | InputIo
            | InputIdleTimeout
            | SummaryPartial
            | SummarySkipped => 3,
            FrameworkDuplicateKey
            | UnknownField
            | Properties
            | NumberIntegerForm
            | SchemaInvalid
            | SchemaUnchecked => 4,
            ErrorCategory
            | ErrorCategoryPartial
            | ErrorCategoryUnknown
            | ErrorCode
            | ErrorMessage
            | ErrorRetryable
            | ErrorRetryAfter
            | ErrorScope
            | ErrorFieldType
            | ErrorUpstreamRenamed
            | ErrorRetryAfterAbsent
            | ErrorItemUnindexed => 5,
            MetaArgsSecret | MetaArgsSecretFlag | MetaEnv => 9,
            SummaryTruncatedCursor | SummaryCursorNotTruncated => 11,
            MetaMissing
            | MetaIdentity
            | MetaFieldType
            | SummaryIdentity
            | SummaryIdentityMismatch => 13,
            MetaNotFirst | MetaDuplicate | SummaryNotLast | SummaryDuplicate => 14,
            SeqStart
            | EnvelopeNotObject
            | EnvelopeDuplicateKey
            | EnvelopeFieldType
            | EnvelopeFlat
            | EnvelopeType
            | EnvelopeUnknownKey
            | EnvelopeT
            | SeqAbsent
            | SeqMissing
            | SeqGap
            | RunMissing
            | RunChanged
            | SummaryEventCount
            | SummaryEventCountAbsent
            | SummaryCount
            | SummaryWarningCount
            | SummaryErrorCount => 15,
            SummaryUpstream | SummaryCausedBy | SummaryCausedByMissing => 16,
        }
    }
}
