//! The spec's statements that the bytes of one stream can show (§§ 2, 4,
//! 5, 8, 9, 11, 13, 15), each with the rules that check it, or with the
//! reason aoi does not. docs/rules.md carries it as a table;
//! a test holds every rule to at least one statement.

use super::RuleId::{self, *};

/// One statement of the spec and how aoi checks it.
pub struct Statement {
    /// Section, e.g. `§ 9.1`.
    pub section: &'static str,
    /// MUST, SHOULD, MAY, or `def` for a definition a stream can contradict.
    pub level: &'static str,
    /// What the spec says, shortly.
    pub says: &'static str,
    /// The rules that check it (empty: not checked, see `note`).
    pub rules: &'static [RuleId],
    /// aoi's choice: why not checked, or how far.
    pub note: &'static str,
}

const fn st(
    section: &'static str,
    level: &'static str,
    says: &'static str,
    rules: &'static [RuleId],
    note: &'static str,
) -> Statement {
    Statement {
        section,
        level,
        says,
        rules,
        note,
    }
}

/// Not in the bytes of a stream: what a choice says of every such row.
const NOT_IN_STREAM: &str = "not checked: the stream's bytes cannot show it";

/// The table, in the spec's order.
pub const STATEMENTS: &[Statement] = &[
    st(
        "§ 2",
        "MUST",
        "stdout is UTF-8 newline-delimited JSON",
        &[
            LineInvalidUtf8,
            LineNotJson,
            LineBom,
            LinePretty,
            LineLoneSurrogate,
        ],
        "a lone surrogate escape is valid JSON: advisory only",
    ),
    st(
        "§ 2",
        "MUST",
        "each line is one complete JSON object",
        &[LineNotObject, LineBlank, LineNotJson],
        "",
    ),
    st(
        "§ 2",
        "MUST",
        "every event, the summary included, ends with a line feed; a final line without one is discarded and the stream truncated",
        &[LineUnterminated],
        "",
    ),
    st(
        "§ 2, § 8.1",
        "MUST",
        "every event includes `type`",
        &[TypeMissing, TypeNotString, TypeEmpty],
        "",
    ),
    st(
        "§ 2",
        "MUST NOT",
        "no banners, headings, colour or ANSI, progress bars, prose, stack traces, plain-text warnings on stdout",
        &[LineAnsi, LineNotJson],
        "",
    ),
    st(
        "§ 2",
        "SHOULD",
        "recoverable diagnostics are aoi:warning, fatal ones aoi:error when possible",
        &[],
        "not checked: whether a diagnostic was recoverable is not in the stream; as prose it is `line.not-json`",
    ),
    st(
        "§ 4",
        "SHOULD",
        "a finite operation emits aoi:meta first",
        &[MetaMissing, MetaNotFirst],
        "",
    ),
    st(
        "§ 4",
        "MUST",
        "a terminal aoi:summary before exiting 0; EOF without it is incomplete unless documented unbounded",
        &[SummaryMissing, InputIo, InputIdleTimeout],
        "`--unbounded` says the operation is documented unbounded (§ 4.2)",
    ),
    st(
        "§ 4",
        "MUST",
        "`ok` is emitted explicitly; it has no default",
        &[SummaryOk],
        "",
    ),
    st(
        "§ 4, § 9.1",
        "def",
        "`ok` means the tool accomplished what was asked",
        &[SummaryOkAfterProcessError],
        "the one contradiction a stream shows: ok:true after its own process-scope error",
    ),
    st(
        "§ 4",
        "MUST",
        "after aoi:meta, a process that exits under its own control emits aoi:summary",
        &[SummaryMissing],
        "a stream cannot tell a crash from a controlled exit: both are `summary.missing`",
    ),
    st(
        "§ 4.1",
        "MUST",
        "exit 0 without a summary is a protocol failure; a non-zero exit with partial events is a failure",
        &[],
        "not checked by the judge: the exit status is not in the stream (`aoi lint` check 3 reads it)",
    ),
    st(
        "§ 4.2",
        "MUST",
        "an unbounded command documents that it is unbounded",
        &[],
        "not in the stream: `--unbounded` is the caller's statement of it",
    ),
    st(
        "§ 4.2",
        "SHOULD",
        "on graceful cancellation, ok:false with reason cancelled",
        &[],
        "not checked: whether the run was cancelled is not in the stream (the outcome is 130 when it says so)",
    ),
    st(
        "§ 5",
        "SHOULD",
        "aoi:meta and aoi:summary each carry tool_version, aoi_version and schema_version (MUST to claim Versioned)",
        &[MetaIdentity, SummaryIdentity, MetaFieldType],
        "",
    ),
    st(
        "§ 5",
        "MUST NOT",
        "tool, AOI and schema versions are not conflated",
        &[SummaryIdentityMismatch, MetaFieldType],
        "a stream shows only whether both ends agree and the fields are strings",
    ),
    st(
        "§ 5",
        "MUST NOT",
        "a consumer does not interpret a major it was not built for",
        &[VersionUnsupported],
        "aoi reads AOI 1.x; `aoi_version` from the meta, else from the summary. aoi interprets no domain event, so `schema_version`'s major binds nothing here",
    ),
    st(
        "§ 5",
        "MUST NOT",
        "a schema `$id` is not the version identity",
        &[],
        "consumer rule: aoi identifies a stream by schema_name and schema_version only",
    ),
    st(
        "§ 5.1",
        "MUST",
        "a breaking output change changes the schema_version major",
        &[],
        NOT_IN_STREAM,
    ),
    st(
        "§ 5.2",
        "—",
        "v0.2's flat envelope is nested under `aoi`",
        &[EnvelopeFlat],
        "",
    ),
    st(
        "§ 5.2",
        "—",
        "v0.2's category temporary is `unavailable`",
        &[ErrorCategoryUnknown],
        "advisory: § 9.4 says a consumer must not fail on an unknown category; the message names the rename",
    ),
    st(
        "§ 5.2",
        "—",
        "category partial is removed",
        &[ErrorCategoryPartial],
        "",
    ),
    st(
        "§ 5.2",
        "—",
        "`retryable` is required; `retry_after_ms` never with retryable:false",
        &[ErrorRetryable, ErrorRetryAfter],
        "",
    ),
    st(
        "§ 5.2",
        "—",
        "aoi:error.upstream is renamed `wrapped`",
        &[ErrorUpstreamRenamed],
        "",
    ),
    st(
        "§ 5.2",
        "—",
        "a trailing newline is required; `reason` is required with ok:false",
        &[LineUnterminated, SummaryReason],
        "",
    ),
    st(
        "§ 8.1",
        "—",
        "exactly two top-level names are reserved, `type` and `aoi`; the rest of a domain event is the tool's",
        &[DuplicateReserved, EnvelopeNotObject],
        "a domain event's other members are never judged",
    ),
    st(
        "§ 8.1",
        "MUST",
        "tool-specific additions to a framework event go in a `properties` object",
        &[UnknownField, Properties],
        "`event.unknown-field` is advisory: a later 1.x may define the field, and a 1.0 consumer cannot tell it from a vendor's",
    ),
    st(
        "§ 8.1",
        "MUST",
        "`type` is top level, never inside `aoi`",
        &[EnvelopeType],
        "",
    ),
    st(
        "§ 8.1",
        "SHOULD",
        "`aoi.seq`: from 0, no gaps, one per line (MUST to claim Verifiable)",
        &[
            SeqAbsent,
            SeqStart,
            SeqGap,
            SeqMissing,
            EnvelopeFieldType,
            EnvelopeDuplicateKey,
        ],
        "",
    ),
    st(
        "§ 8.1",
        "MUST",
        "`aoi.run` alongside `seq`, stable for the invocation",
        &[RunMissing, RunChanged, EnvelopeFieldType],
        "",
    ),
    st(
        "§ 8.1",
        "RECOMMENDED",
        "`aoi.run` is a ULID",
        &[],
        "not checked: the run is opaque, any non-empty string",
    ),
    st(
        "§ 8.1",
        "MAY",
        "`aoi.t`: milliseconds elapsed since aoi:meta; `aoi.trace_id`",
        &[EnvelopeT, EnvelopeFieldType, EnvelopeUnknownKey],
        "",
    ),
    st(
        "§ 8.1, § 9.1",
        "—",
        "each spec-defined field of a framework event once (parsers disagree which duplicate wins)",
        &[FrameworkDuplicateKey],
        "",
    ),
    st(
        "§ 8.2",
        "—",
        "the `aoi:` namespace is closed; no aliases",
        &[UnknownFramework],
        "",
    ),
    st(
        "§ 8.2",
        "—",
        "nothing in the bare namespace is reserved (`summary`, `meta` are domain types)",
        &[],
        "no finding by design: an unprefixed type is always a domain event",
    ),
    st(
        "§ 8.3",
        "def",
        "aoi:meta is the first event",
        &[MetaNotFirst],
        "",
    ),
    st(
        "§ 8.3, § 11",
        "MUST NOT",
        "aoi:meta does not echo raw argv or the environment wholesale",
        &[MetaEnv, MetaArgsSecret, MetaArgsSecretFlag],
        "argv is judged by the secrets in it; argv without one cannot be told from a chosen list",
    ),
    st(
        "§ 8.3",
        "MUST NOT",
        "aoi:progress is not required for correctness",
        &[],
        "consumer rule: aoi never reads progress",
    ),
    st(
        "§ 8.3",
        "def",
        "`count` is the domain events this tool emitted",
        &[SummaryCount, SummaryFieldType, NumberIntegerForm],
        "",
    ),
    st(
        "§ 8.3",
        "def",
        "`input_count` is the domain events consumed",
        &[SummaryFieldType],
        "only its type: the consumed stream is not in this one",
    ),
    st(
        "§ 8.3, § 13.1",
        "def/MUST",
        "`warning_count` and `error_count` count emitted plus consumed",
        &[SummaryWarningCount, SummaryErrorCount],
        "at least the lines present",
    ),
    st(
        "§ 8.3, § 9.2",
        "def",
        "`partial`: usable output and at least one failed item, expressed with `error_count`",
        &[SummaryPartial, SummaryFieldType],
        "",
    ),
    st(
        "§ 8.3",
        "RECOMMENDED",
        "`event_count`: every line including the summary (required for Verifiable)",
        &[SummaryEventCount, SummaryEventCountAbsent],
        "",
    ),
    st(
        "§ 8.3",
        "MUST",
        "`reason` with ok:false, from the closed set; `skipped` (with ok:true) means the operation did not run",
        &[SummaryReason, SummarySkipped],
        "",
    ),
    st(
        "§ 8.3, § 13.1",
        "def/MUST",
        "`caused_by` when ok is false due to an upstream error; `upstream` the direct upstream's identity",
        &[SummaryCausedBy, SummaryCausedByMissing, SummaryUpstream],
        "",
    ),
    st(
        "§ 8.3, § 15",
        "—",
        "`partial`, `truncated` booleans; `next_cursor` a string or null; `elapsed_ms` a number",
        &[SummaryFieldType],
        "",
    ),
    st(
        "§ 9",
        "MUST",
        "every domain code maps to a standard category",
        &[ErrorCategory],
        "",
    ),
    st(
        "§ 9.1",
        "MUST",
        "`category` from the closed enum; a consumer does not fail on an unknown one",
        &[ErrorCategory, ErrorCategoryUnknown],
        "",
    ),
    st(
        "§ 9.1",
        "MUST",
        "`code` matches `[A-Z][A-Z0-9_]*`",
        &[ErrorCode],
        "",
    ),
    st(
        "§ 9.1",
        "MUST",
        "`code` stays stable once published",
        &[],
        NOT_IN_STREAM,
    ),
    st(
        "§ 9.1",
        "MUST",
        "`message`: a string, one line, no ANSI",
        &[ErrorMessage],
        "",
    ),
    st(
        "§ 9.1",
        "MUST",
        "`message`: no stack trace, no secrets",
        &[],
        "not checked: a message may quote a path or a token-like id legitimately; a rule would guess",
    ),
    st(
        "§ 9.1, § 9.3",
        "MUST",
        "`retryable` on every aoi:error, a boolean",
        &[ErrorRetryable],
        "",
    ),
    st(
        "§ 9.1",
        "MUST/MUST NOT",
        "`retry_after_ms`: an integer >= 0, never with retryable:false",
        &[ErrorRetryAfter, NumberIntegerForm],
        "no upper bound (none in the spec)",
    ),
    st(
        "§ 9.1, § 9.2",
        "MUST when known / SHOULD",
        "`retry_after_ms` on a retryable `rate_limited` error",
        &[ErrorRetryAfterAbsent],
        "advisory: whether the delay was known is not in the stream",
    ),
    st(
        "§ 9.1",
        "SHOULD",
        "`domain`, `scope`, `target` present",
        &[ErrorFieldType, ErrorScope],
        "types and scope's values checked; absence not advised: domain defaults to the tool, scope to process, and not every error has a target (usage, internal)",
    ),
    st(
        "§ 9.1",
        "MUST",
        "`origin` when forwarded, a string",
        &[ErrorFieldType],
        "whether an error was forwarded is known only by its origin",
    ),
    st(
        "§ 9.1, § 9.2",
        "SHOULD",
        "`item_index` / `line_number` (integers) with scope item",
        &[ErrorItemUnindexed, ErrorFieldType],
        "advised when the item error names neither nor a target",
    ),
    st(
        "§ 9.1",
        "MAY",
        "`field`, `hint`, `docs` strings, `details` an object, `wrapped` `{protocol, status?, code?}` with protocol http, grpc or exit",
        &[ErrorFieldType],
        "`docs` only as a string; `wrapped.status` and `code` have no type in the spec",
    ),
    st(
        "§ 9.1, § 1.3",
        "MUST NOT",
        "consumers do not execute `hint`",
        &[],
        "consumer rule: aoi never executes anything it reads",
    ),
    st(
        "§ 9.2",
        "MUST",
        "no `partial` category; item failures use their category with scope item",
        &[ErrorCategoryPartial],
        "",
    ),
    st(
        "§ 9.3",
        "MUST",
        "`retryable` is authoritative over the category's default",
        &[],
        "consumer rule: aoi's verdict follows retryable (75 or 1)",
    ),
    st(
        "§ 9.3",
        "MUST",
        "retryable:false when a side effect's application is unknown; document retryable:true under an idempotency key",
        &[],
        NOT_IN_STREAM,
    ),
    st(
        "§ 9.5",
        "SHOULD/MUST",
        "the HTTP/gRPC mapping; downgrades of UNAVAILABLE and negative pushback",
        &[],
        "not checked: § 9.5 tells implementers with real knowledge to override the mapping, so a `wrapped.status` that disagrees with `category` is no finding",
    ),
    st(
        "§ 10, § 18",
        "def",
        "the tool's events follow the JSON Schema it publishes (§ 10.1; § 18 check 4); event schemas allow unknown fields unless they forbid them (§ 10.3)",
        &[SchemaInvalid, SchemaUnchecked],
        "checked with `--schema FILE` (the schema is not in the stream): every event, domain and framework; an event over 1 MiB is said unchecked, advisory",
    ),
    st(
        "§ 11",
        "SHOULD NOT",
        "no raw argv echoed by default",
        &[],
        "not checked: the default is not in the stream",
    ),
    st(
        "§ 11",
        "MUST",
        "echoed arguments have sensitive values redacted: secret flags, URL credentials and secret parameters, custom headers, environment values",
        &[MetaArgsSecret, MetaArgsSecretFlag, MetaEnv],
        "checked in `args`, `argv` and `command` of aoi:meta and its properties; by the value's form a violation, by the flag's name an advisory (see the rules)",
    ),
    st(
        "§ 11",
        "MUST",
        "config file contents are redacted",
        &[],
        "not checked: config contents cannot be recognised",
    ),
    st(
        "§ 13",
        "MUST",
        "unknown unprefixed types are safe to ignore",
        &[],
        "consumer rule: aoi counts them as domain events",
    ),
    st(
        "§ 13",
        "MUST NOT",
        "no success on a stream with an unrecognised `aoi:` event",
        &[UnknownFramework],
        "a violation, so never success",
    ),
    st(
        "§ 13.1",
        "MUST NOT",
        "no upstream aoi:meta or aoi:summary forwarded: at most one meta, first, at most one summary, last",
        &[
            MetaDuplicate,
            MetaNotFirst,
            SummaryDuplicate,
            SummaryNotLast,
        ],
        "",
    ),
    st(
        "§ 13.1",
        "MUST",
        "forwarded aoi:error and aoi:warning carry `origin`",
        &[ErrorFieldType],
        "which errors were forwarded is not in the stream; origin's type is checked",
    ),
    st(
        "§ 13.1",
        "MUST",
        "upstream aoi:error sets ok:false unless --continue-on-error; EOF without upstream summary sets ok:false",
        &[],
        "not checked: the flag and the upstream are not in this stream (`aoi check` reports the stream's own verdict)",
    ),
    st(
        "§ 13.1",
        "MUST",
        "upstream warnings are counted into warning_count",
        &[SummaryWarningCount],
        "at least the lines present",
    ),
    st(
        "§ 13.1",
        "MUST",
        "ok:false because of an upstream error carries `caused_by` with the retry-critical fields",
        &[SummaryCausedByMissing, SummaryCausedBy],
        "missing: advisory, since why ok is false is not in the stream",
    ),
    st(
        "§ 13.1",
        "MUST",
        "`upstream` is one object, omitted when unknown, never null",
        &[SummaryUpstream, MetaFieldType],
        "",
    ),
    st(
        "§ 15",
        "SHOULD",
        "list, search and read are bounded by default",
        &[],
        "not in one stream (`aoi lint` check 11 runs `--limit`)",
    ),
    st(
        "§ 15",
        "MUST",
        "truncated output says `truncated:true`",
        &[SummaryCursorNotTruncated],
        "the truncation a stream shows is its own cursor",
    ),
    st(
        "§ 15",
        "SHOULD",
        "`next_cursor` when more data can be fetched",
        &[SummaryTruncatedCursor],
        "",
    ),
];

/// The table as Markdown, for docs/rules.md.
pub fn statements_markdown() -> String {
    let mut s = String::from(
        "# The spec's statements\n\nEvery statement of §§ 2, 4, 5, 8, 9, 11, 13 and 15 that the bytes of one stream \
         can show (and § 10's, given the tool's schema with `--schema`), with the rules that check it, or aoi's reason not to. Level `def`: a \
         definition a stream can contradict.\n\n| § | level | the spec says | rules | aoi's choice |\n|---|---|---|---|---|\n",
    );
    for st in STATEMENTS {
        let rules: Vec<String> = st.rules.iter().map(|r| format!("`{}`", r.id())).collect();
        let rules = if rules.is_empty() {
            "—".to_string()
        } else {
            rules.join(", ")
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            st.section,
            st.level,
            st.says.replace('|', "\\|"),
            rules,
            st.note.replace('|', "\\|")
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule checks a statement, and every statement is checked or
    /// says why not.
    #[test]
    fn every_rule_has_a_statement_and_every_statement_a_check() {
        for r in RuleId::ALL {
            assert!(
                STATEMENTS.iter().any(|s| s.rules.contains(r)),
                "{} is in no statement",
                r.id()
            );
        }
        for s in STATEMENTS {
            assert!(
                !s.rules.is_empty() || !s.note.is_empty(),
                "{}: {} is neither checked nor explained",
                s.section,
                s.says
            );
        }
    }
}
