//! The rule catalog: every finding the stream judge can report.
//!
//! Ids are stable: scripts and reports key on them. A rule's severity says
//! what it does to the verdict: a [`Severity::Violation`] breaks the
//! contract (exit 65), [`Severity::Incomplete`] means the stream was cut
//! short (exit 74), and an [`Severity::Advisory`] is a SHOULD-level finding
//! that is reported but never fails a stream.
//!
//! Where the spec leaves a choice open, the rule's `doc` says what aoi
//! decided; `docs/rules.md` is generated from this table. What a rule
//! breaks (§ 18 factors, the lint check) is in `rules/breaks.rs`.

/// What a finding does to the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Advisory: reported, never changes the outcome.
    Advisory,
    /// The stream is incomplete (cut, unterminated, unreadable): exit 74.
    Incomplete,
    /// The stream breaks the contract: exit 65.
    Violation,
}

impl Severity {
    /// The severity's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Advisory => "advisory",
            Severity::Incomplete => "incomplete",
            Severity::Violation => "violation",
        }
    }
}

/// One entry of the catalog.
#[derive(Debug)]
pub struct Rule {
    /// The stable id (`summary.missing`).
    pub id: &'static str,
    /// What breaking it means for the outcome.
    pub severity: Severity,
    /// Spec section(s), e.g. `§ 8.1`.
    pub spec: &'static str,
    /// What the rule requires and what aoi decided where the spec is open.
    pub doc: &'static str,
    /// What to do about a finding.
    pub hint: &'static str,
}

use Severity::*;

mod breaks;
mod statements;
pub use breaks::Factor;
pub use statements::{STATEMENTS, Statement};

macro_rules! catalog {
    ($($name:ident = $id:literal, $sev:ident, $spec:literal, $doc:literal, $hint:literal;)*) => {
        /// Rule identifiers, one per catalog entry.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types)]
        pub enum RuleId { $(#[doc = $doc] $name,)* }

        /// The whole catalog, in a stable order.
        pub const RULES: &[Rule] = &[
            $(Rule { id: $id, severity: $sev, spec: $spec, doc: $doc, hint: $hint },)*
        ];

        impl RuleId {
            /// Every rule id, in catalog order.
            pub const ALL: &[RuleId] = &[$(RuleId::$name,)*];
        }
    };
}

catalog! {
    LineBlank = "line.blank", Violation, "§ 2",
        "Every line is one complete JSON object; an empty or whitespace-only line is not.",
        "remove blank lines from machine-mode stdout";
    LineNotJson = "line.not-json", Violation, "§ 2",
        "Every line is strict RFC 8259 JSON: escape and number grammar, no raw control characters in strings, nothing after the value.",
        "machine-mode stdout must carry only JSON events; send prose and logs to stderr";
    LineLoneSurrogate = "line.lone-surrogate", Advisory, "§ 2, RFC 8259 § 8.2",
        "A `\\u` escape of a lone UTF-16 surrogate is valid JSON (RFC 8259's grammar allows it; `JSON.stringify` writes one for a string cut between the halves of a pair, and Python's json reads it), so the line is an event; but its string has no Unicode value and some consumers (jq, serde_json) reject the line.",
        "cut strings at code point boundaries, not UTF-16 units, or replace the lone half with U+FFFD";
    SeqStart = "seq.start", Violation, "§ 8.1",
        "`aoi.seq` counts a stream's lines from 0. A stream numbered from 1 is one finding, and its seqs are then checked from there (not a missing line).",
        "number lines from 0: aoi:meta has seq 0";
    LineBom = "line.bom", Violation, "§ 2, RFC 8259 § 8.1",
        "A line starts with a UTF-8 byte order mark (U+FEFF): JSON text must not (RFC 8259 § 8.1), and strict parsers reject the line. The event after it is judged as it is, so the mark is the one finding.",
        "write UTF-8 without a byte order mark (e.g. `encoding='utf-8'`, not `'utf-8-sig'`; no BOM option in the editor or encoder)";
    LinePretty = "line.pretty-json", Violation, "§ 2",
        "A value spread over several lines (pretty-printed JSON, or a JSON array of events) is not JSON Lines: one finding at its first line, the lines that follow it counted but not reported again.",
        "write one JSON object per line, without indentation: JSON.stringify(v), json.dumps(v), `jq -c '.[]'` for an array";
    LineInvalidUtf8 = "line.invalid-utf8", Violation, "§ 2",
        "Machine-mode stdout is UTF-8.",
        "emit UTF-8; escape binary data inside JSON strings";
    LineAnsi = "line.ansi", Violation, "§ 2",
        "Machine-mode stdout never carries ANSI escape sequences or colour (a raw ESC byte on a line).",
        "disable colour in machine mode";
    LineNotObject = "line.not-object", Violation, "§ 2",
        "Each line is a JSON object; other JSON values (arrays, strings, numbers) are not events.",
        "wrap the value in an event object with a `type`";
    LineUnterminated = "line.unterminated", Incomplete, "§ 2",
        "A final line without a line feed is a truncated event, not a complete one; it is discarded and the stream is truncated.",
        "end every event, including the summary, with \\n; a missing terminator usually means the producer was killed";
    TypeMissing = "event.type-missing", Violation, "§ 2, § 8.1",
        "Every event has a top-level `type`.",
        "add a `type` member to every event";
    TypeNotString = "event.type-not-string", Violation, "§ 8.1",
        "`type` is a string discriminator.",
        "emit `type` as a string";
    TypeEmpty = "event.type-empty", Violation, "§ 8.1, § 8.2",
        "`type` names the event: an empty string is in neither namespace (not `aoi:`, and no schema's type), so nothing can route the event.",
        "give every event a non-empty type";
    DuplicateReserved = "event.duplicate-reserved-key", Violation, "§ 8.1",
        "The two reserved top-level names, `type` and `aoi`, appear at most once per event (JSON parsers disagree about which duplicate wins).",
        "emit each of `type` and `aoi` once";
    FrameworkDuplicateKey = "event.duplicate-framework-key", Violation, "§ 8.1, § 8.3, § 9.1",
        "A framework event carries each of its spec-defined fields once: with `\"ok\":true,…,\"ok\":false` some parsers read success and others failure. (`type` and `aoi` have their own rule.)",
        "emit each field once";
    UnknownFramework = "event.unknown-framework-type", Violation, "§ 8.2, § 13",
        "The `aoi:` namespace is closed; a consumer must not report success on a stream with an `aoi:` type it did not interpret.",
        "use one of aoi:meta, aoi:summary, aoi:warning, aoi:error, aoi:heartbeat, aoi:plan, aoi:check, aoi:progress";
    UnknownField = "event.unknown-field", Advisory, "§ 8.1",
        "Tool-specific additions to a framework event go in `properties`, not at the top level. Checked for aoi:meta, aoi:summary, aoi:error, aoi:warning (read with the aoi:error field set) and aoi:check; the spec defines no field set for the others.",
        "move tool-specific fields into `properties`";
    Properties = "event.properties", Violation, "§ 8.1",
        "Tool-specific additions to a framework event go in a `properties` *object*: on any `aoi:` event, `properties`, when present, is an object (not a string, an array or null).",
        "emit \"properties\":{…}, or omit it";
    EnvelopeNotObject = "envelope.not-object", Violation, "§ 8.1",
        "The reserved `aoi` member, when present, is an object.",
        "emit the envelope as \"aoi\":{\"seq\":N,\"run\":\"…\"}";
    EnvelopeDuplicateKey = "envelope.duplicate-key", Violation, "§ 8.1",
        "Keys inside `aoi` are unique.",
        "emit each envelope field once";
    EnvelopeFieldType = "envelope.field-type", Violation, "§ 8.1",
        "`aoi.seq` is a non-negative integer up to 2^64-1 (aoi's documented limit; `3.0` is `number.integer-form`'s), `aoi.run` a non-empty string, `aoi.t` a non-negative number, `aoi.trace_id` a string.",
        "fix the envelope field's type";
    EnvelopeFlat = "envelope.flat", Violation, "§ 5.2, § 8.1",
        "The framework envelope is nested under `aoi`: a framework event with a top-level `seq` or `run` carries v0.2's flat envelope (§ 5.2's first breaking change). Reported once per stream, at the first such event; it is then the cause of the stream's missing `aoi.seq` (`seq.absent` is not reported) and those members are not also `event.unknown-field`. (A domain event's top-level fields are its schema's, § 8.1.)",
        "move seq and run into \"aoi\":{\"seq\":N,\"run\":\"…\"} on every line";
    EnvelopeType = "envelope.type", Violation, "§ 8.1",
        "`type` is top level, never inside `aoi` (§ 8.1's envelope table). When an event has no top-level `type` but one inside `aoi`, that is this one finding (not also `event.type-missing`).",
        "move type out of the aoi object to the top level";
    EnvelopeUnknownKey = "envelope.unknown-key", Advisory, "§ 8.1",
        "The envelope's fields are `seq`, `run`, `t` and `trace_id`. Another key inside `aoi` is advised against, not failed: the `aoi` object is the framework's room to grow (§ 8.1), so a later 1.x may define it, and a consumer built for 1.0 cannot tell.",
        "put tool data at the top level of a domain event or in properties; aoi is the framework's";
    EnvelopeT = "envelope.t", Advisory, "§ 8.1",
        "`aoi.t` is milliseconds elapsed since `aoi:meta`: the meta's own `t` is 0, and `t` does not go backwards from line to line. Advisory: `t` is a MAY, and a producer that stamps events on several threads may write them a millisecond out of stamp order; the finding says the offsets cannot be trusted as elapsed time.",
        "set aoi.t from one monotonic clock started at aoi:meta (t:0), stamped in write order";
    SeqAbsent = "seq.absent", Advisory, "§ 8.1, § 18",
        "`aoi.seq` is SHOULD; without it the stream cannot claim Verifiable and middle-of-stream loss is undetectable.",
        "emit \"aoi\":{\"seq\":N,\"run\":\"…\"} on every line";
    SeqMissing = "seq.missing", Violation, "§ 8.1",
        "Once a stream carries `aoi.seq`, every event carries it: one per emitted line.",
        "emit seq on every line, framework events included";
    SeqGap = "seq.gap", Violation, "§ 8.1",
        "`aoi.seq` counts from 0 with no gaps or repeats. One cause is one finding, at the line where the order broke: a forward jump is held until the seqs it skipped come late (lines reordered, such as two swapped: one \"out of order\" finding) or do not (lines lost: one \"missing\" finding, settled when the stream has gone 64 seqs past it or at the end, not at the summary, after which a late line may still come; a jump over more than 64 is a gap at once). A seq already seen is \"repeated\", once for a block written twice.",
        "lines were lost or reordered between producer and consumer (elided output, a dropped write, interleaved runs)";
    RunMissing = "run.missing", Violation, "§ 8.1",
        "`aoi.run` accompanies `aoi.seq` (MUST alongside seq).",
        "emit a run id (a ULID is recommended) next to every seq";
    RunChanged = "run.changed", Violation, "§ 8.1",
        "`aoi.run` is stable for one invocation; a stream (one file or one pipe) carries one run. Reported once per stream, at the first line that differs from the first run seen; it is then the one finding for what reading several runs as one stream breaks (their seqs, a second aoi:meta or aoi:summary, the counters), which is not reported again.",
        "several runs are interleaved in one stream: judge each run on its own with `aoi merge-report --log` or `aoi summary --log` (with --log they split the input by aoi.run; without it an input is one stream, as here)";
    MetaNotFirst = "meta.not-first", Violation, "§ 13.1",
        "`aoi:meta`, when present, is the first event: no JSON event line precedes it.",
        "emit aoi:meta before any other event";
    MetaDuplicate = "meta.duplicate", Violation, "§ 13.1",
        "A stream carries at most one `aoi:meta` (a producer must not forward its upstream's).",
        "do not forward upstream aoi:meta";
    MetaMissing = "meta.missing", Advisory, "§ 4",
        "A finite operation SHOULD emit `aoi:meta` first.",
        "emit aoi:meta with the identity triple first";
    MetaIdentity = "meta.identity", Advisory, "§ 5, § 18",
        "`aoi:meta` SHOULD carry tool, tool_version, aoi_version, schema_name and schema_version (MUST to claim Versioned).",
        "add the missing identity fields to aoi:meta";
    MetaFieldType = "meta.field-type", Violation, "§ 5",
        "The identity fields of `aoi:meta` and `aoi:summary` are strings.",
        "emit identity fields as strings";
    VersionUnsupported = "version.unsupported", Violation, "§ 5, § 5.2",
        "aoi judges AOI 1.x streams; an `aoi_version` of another major cannot be interpreted (§ 5: a consumer must not interpret what it was not built for).",
        "aoi reads AOI 1.x; a v0.2 stream needs migration (§ 5.2): nest seq/run under `aoi`, rename category temporary→unavailable, drop category partial, add retryable and reason";
    NumberIntegerForm = "number.integer-form", Advisory, "§ 8.1, § 8.3, § 9.1, JSON Schema 2020-12",
        "Where the spec asks for an integer (`aoi.seq`, the summary's counters, `retry_after_ms`, `item_index`, `line_number`), a number with a zero fraction or an exponent (`1000.0`, `1e3`) is accepted as that integer, as JSON Schema 2020-12, which the spec cites for its schemas, counts it. Advisory: Go's `encoding/json`, serde and others reject it for an integer field, so `1000` is what a consumer can read.",
        "write integers without a fraction or exponent (1000, not 1000.0 or 1e3)";
    MetaArgsSecret = "meta.args-secret", Violation, "§ 11",
        "Arguments echoed in `aoi:meta` MUST have sensitive values redacted. This rule fails the stream on a value that shows itself to be a secret wherever it stands in `args`, `argv` or `command` (at the meta's top level or in its `properties`; an array of strings, one string split at whitespace, or an object of strings): a URL with credentials or a secret query or fragment parameter (`sig`, `token`, `access_token`, `code`, `key`, … § 11), a private key block (`-----BEGIN … PRIVATE KEY-----`), a header whose name is a § 11 word (`Authorization: …`, `-H 'X-Api-Key: …'`), or `Bearer` and a token. Such a value is a secret whatever flag precedes it, so the finding is no guess. A value after a secret-named flag is `meta.args-secret-flag`'s (advisory). A value starting with `-` after a secret flag is that flag's value unless it has a flag's form (`--token -----BEGIN…` and `--token -abc123` are both caught; `--token --limit` is two flags).",
        "redact the value (e.g. \"***\") or omit args and set args_redacted:true";
    MetaArgsSecretFlag = "meta.args-secret-flag", Advisory, "§ 11",
        "A value echoed in `aoi:meta` (`args`, `argv`, `command`, at the top level or in `properties`; an array or one string) after a flag named by § 11's words (`--token abc123`, `--password=x`, `GITHUB_TOKEN=x`), not redacted. Advisory, as aoi's choice: the value does not show itself to be a secret, and flag names mislead both ways (`--password-stdin` and `--private` take no value; `--sort-key name` is no secret), so failing on the name alone would fail conforming tools. The words are matched as whole words of the flag name (`--api-token`, `--client_secret`, `--apikey`), not as substrings: § 11's `auth` and `key` as substrings flag `--author` and `--keyboard-layout`, which this rule does not.",
        "redact the value (e.g. \"***\") or omit args and set args_redacted:true";
    MetaEnv = "meta.env", Violation, "§ 8.3, § 11, § 21",
        "`aoi:meta` must not echo the environment wholesale (§ 8.3), and environment variable values are sensitive (§ 11). Found as an object (or an array of `NAME=value` strings) at the meta's top level or in its `properties`, under any name, holding at least two of the variables every environment has (`PATH`, `HOME`, `USER`, `SHELL`, `PWD`, `LANG`, `TERM`, `LOGNAME`, `HOSTNAME`, `TMPDIR`): one finding per meta. A chosen variable or two under other names is not a wholesale echo.",
        "drop the environment from aoi:meta; name the one setting that matters in properties, redacted";
    SummaryMissing = "summary.missing", Incomplete, "§ 4",
        "EOF without a terminal `aoi:summary` is an incomplete stream (crash, kill or truncation) unless the operation is documented unbounded (--unbounded). An empty input is incomplete with --unbounded too: § 4.2 waives the summary of a stream that began, and an empty one shows no run at all.",
        "the producer did not finish (crash, kill, cut), or wrote nothing at all (a usage error, no machine-mode flag); an unbounded command (watch, tail) that began with aoi:meta takes --unbounded";
    SummaryNotLast = "summary.not-last", Violation, "§ 13.1",
        "`aoi:summary` is the last event: nothing follows it. Reported once, with the number of lines after it.",
        "emit nothing after aoi:summary";
    SummaryDuplicate = "summary.duplicate", Violation, "§ 13.1",
        "A stream carries at most one `aoi:summary` (a producer must not forward its upstream's).",
        "do not forward upstream aoi:summary";
    SummaryOk = "summary.ok", Violation, "§ 4",
        "`ok` is present and boolean; it has no default.",
        "emit \"ok\":true or \"ok\":false explicitly";
    SummaryOkAfterProcessError = "summary.ok-after-process-error", Violation, "§ 9.1, § 4",
        "An `aoi:error` with `scope:\"process\"`, or with no `scope` (`process` is the default), means the run is over (§ 9.1): the run failed, so its `aoi:summary` cannot say `ok:true` (§ 4: `ok` means the tool accomplished what was asked), with or without events after the error. A stream that says both contradicts itself, and aoi does not pick one side: neither success nor the error's disposition is what the producer reliably meant, so the contradiction is the finding (exit 65), reported once, at the summary. Only the stream's own errors count: a forwarded one (with `origin`) ended its upstream's run, and a producer with `--continue-on-error` may still succeed (§ 13.1). Errors with `scope:\"item\"` before `ok:true` (with `partial:true`) are partial success, not this.",
        "an error the run continued past is scope:\"item\" (then ok:true, partial:true); after a process-scope error the summary is ok:false with its reason and caused_by";
    SummaryReason = "summary.reason", Violation, "§ 8.3",
        "`reason` is required with ok:false and is one of failed, cancelled, timeout, denied; with ok:true only `skipped` is allowed.",
        "set reason to failed, cancelled, timeout or denied";
    SummaryEventCount = "summary.event-count", Violation, "§ 8.3",
        "`event_count` equals the lines received up to and including the summary.",
        "lines were lost or added between producer and consumer, or event_count is miscounted";
    SummaryEventCountAbsent = "summary.event-count-absent", Advisory, "§ 8.3, § 18",
        "`event_count` is recommended, and required to claim Verifiable.",
        "add event_count (total lines including the summary)";
    SummaryCount = "summary.count", Violation, "§ 8.3",
        "`count` equals the domain (non-`aoi:`) events in the stream.",
        "count only domain events this tool emitted";
    SummaryWarningCount = "summary.warning-count", Violation, "§ 8.3",
        "`warning_count` is at least the `aoi:warning` lines in the stream (it also counts upstream warnings).",
        "count every emitted and consumed aoi:warning";
    SummaryErrorCount = "summary.error-count", Violation, "§ 8.3",
        "`error_count` is at least the `aoi:error` lines in the stream (it also counts upstream errors).",
        "count every emitted and consumed aoi:error";
    SummaryFieldType = "summary.field-type", Violation, "§ 8.3, § 15",
        "Counters (count, input_count, warning_count, error_count, event_count) count events, so they are non-negative integers, read up to 2^64-1 (aoi's documented limit: no stream has more lines; a larger one is named as past that limit, not as no integer; a zero fraction is `number.integer-form`'s); elapsed_ms, which the spec gives no type, is any non-negative number (fractions, as performance.now() gives, are fine); partial and truncated are booleans; next_cursor is a string or null.",
        "fix the field's type";
    SummaryUpstream = "summary.upstream", Violation, "§ 13.1",
        "`upstream` is an object naming the direct upstream, each of its keys once; when unknown the key is omitted, never null (§ 13.1), and never an object that names nothing (`{}`, or none of tool, tool_version, aoi_version, schema_name, schema_version).",
        "omit upstream when the upstream identity is unknown";
    SummaryCausedBy = "summary.caused-by", Violation, "§ 13.1, § 9.1",
        "`caused_by` is present only when `ok` is false (§ 8.3: it says why the run failed; on `ok:true` it names a failure that did not happen); when present, it is an object with a boolean retryable; retry_after_ms is an integer >= 0 (of any size, as on `aoi:error`), absent when retryable is false; code, when present, a string matching `[A-Z][A-Z0-9_]*`; category, when present, a string other than the removed \"partial\"; each key once (parsers disagree which of two retryables wins). Missing fields of `caused_by` are filled from the most severe `aoi:error` for the verdict.",
        "reproduce the upstream error's category, code, retryable and retry_after_ms";
    SummaryCausedByMissing = "summary.caused-by-missing", Advisory, "§ 13.1",
        "When `ok` is false because of an upstream error, the summary MUST carry `caused_by`. A stream cannot show why `ok` is false, so aoi advises (not fails) when `ok:false` follows forwarded `aoi:error`s (with `origin`) and `caused_by` is absent, unless `reason` is `cancelled` (a run stopped by a signal failed because of the signal, § 7).",
        "reproduce the most severe upstream error's origin, category, code, retryable and retry_after_ms in caused_by";
    SummaryIdentity = "summary.identity", Advisory, "§ 5, § 18",
        "`aoi:summary` SHOULD carry the identity triple too (MUST to claim Versioned), so a consumer holding only the last line knows what it read.",
        "repeat tool_version, aoi_version and schema_version (with tool and schema_name) on aoi:summary";
    SummaryIdentityMismatch = "summary.identity-mismatch", Advisory, "§ 5",
        "The identity on `aoi:summary` names the same tool, versions and schema as `aoi:meta`: both ends describe one stream.",
        "emit the same identity on aoi:meta and aoi:summary; a mismatch suggests two streams were spliced";
    SummaryTruncatedCursor = "summary.truncated-no-cursor", Advisory, "§ 15",
        "`truncated:true` SHOULD come with a `next_cursor` when more data can be fetched.",
        "set next_cursor so the caller can continue";
    SummaryCursorNotTruncated = "summary.cursor-not-truncated", Violation, "§ 15",
        "A `next_cursor` (a non-empty string) says more data can be fetched, so the output was truncated, and then `truncated` MUST be true: `truncated:false` or no `truncated` beside a cursor contradicts it. `next_cursor:null` (§ 8.3's example) or absent says nothing.",
        "set truncated:true with next_cursor, or drop the cursor when the output is complete";
    SummaryPartial = "summary.partial", Violation, "§ 8.3, § 9.2",
        "`partial` is true when the run produced usable output and at least one item failed, and aggregate partiality is expressed by `partial` and `error_count` (§ 9.2). So `partial:true` with `error_count:0` contradicts itself, and `partial:false` after the stream's own domain events and its own item-scope `aoi:error` (without `origin`) contradicts the stream. An absent `partial` states nothing.",
        "set partial to whether an item failed while others produced output; count the failed items' errors in error_count";
    SummarySkipped = "summary.skipped", Violation, "§ 8.3",
        "`reason:\"skipped\"` means the operation was not applicable and did not run, as distinct from `count:0` (it ran and found nothing): a skipped run has no domain output, so `count` above 0 or domain events in the stream contradict it.",
        "a run that produced output ran: drop reason skipped";
    ErrorCategory = "error.category", Violation, "§ 9.1",
        "`aoi:error.category` is present and a string.",
        "map every error to one of the standard categories";
    ErrorCategoryPartial = "error.category-partial", Violation, "§ 9.2, § 5.2",
        "There is no `partial` category: use the item's real category with scope:item and express partiality on aoi:summary.partial.",
        "use the failure's own category with scope:\"item\"";
    ErrorCategoryUnknown = "error.category-unknown", Advisory, "§ 9.4",
        "An unrecognised category must not fail a consumer; it is routed as internal and retryable decides disposition.",
        "use a standard category (v0.2's `temporary` is now `unavailable`)";
    ErrorCode = "error.code", Violation, "§ 9.1",
        "`code` is present and matches `[A-Z][A-Z0-9_]*`.",
        "use an upper-case stable code such as NOT_FOUND";
    ErrorMessage = "error.message", Violation, "§ 9.1",
        "`message` is present, a string, a single line, and free of ANSI escapes: neither ESC nor a C1 control such as CSI, \\u009b (§ 9.1: no ANSI).",
        "put a one-line message; details go in `details`";
    ErrorRetryable = "error.retryable", Violation, "§ 9.1, § 9.3",
        "`retryable` is present and boolean; it is authoritative.",
        "emit retryable on every aoi:error";
    ErrorRetryAfter = "error.retry-after", Violation, "§ 9.1",
        "`retry_after_ms` is an integer >= 0 and never appears with retryable:false. The spec sets no upper bound, so none is set: a value past 2^64-1 ms is valid and read as 2^64-1 (584 million years) in the verdict. A zero fraction (`4500.0`) is an integer (`number.integer-form`).",
        "drop retry_after_ms when retryable is false";
    ErrorScope = "error.scope", Violation, "§ 9.1",
        "`scope`, when present, is `process` or `item`.",
        "use scope \"process\" or \"item\"";
    ErrorFieldType = "error.field-type", Violation, "§ 9.1",
        "The optional fields of § 9.1 have the types its table gives, when present: `domain`, `origin`, `target`, `field`, `hint` and `docs` strings; `item_index` and `line_number` integers >= 0 (an index and a line number count up from 0 and 1; aoi reads 0 as a line number too); `details` an object; `wrapped` an object with `protocol` one of `http`, `grpc`, `exit` (§ 9.1: \"where protocol is http, grpc, or exit\"; `status` and `code` have no type in the spec and are not checked). One finding per field. `docs` is a URL by the table; aoi checks only that it is a string (a relative URL is a URL too). Checked on `aoi:error` only: the spec defines no fields for `aoi:warning`.",
        "emit the field with § 9.1's type, or move tool data into details or properties";
    ErrorUpstreamRenamed = "error.upstream-renamed", Violation, "§ 5.2, § 9.1",
        "v0.2's `aoi:error.upstream` (`{protocol,status}`) is `wrapped` in v1.0-alpha: `upstream` now means the summary's provenance, a different shape, and one key with two meanings is the collision the spec exists to prevent (§ 9.1). One finding, instead of `event.unknown-field`.",
        "rename aoi:error.upstream to wrapped";
    ErrorRetryAfterAbsent = "error.retry-after-absent", Advisory, "§ 9.2, § 9.1",
        "A `rate_limited` error with `retryable:true` SHOULD carry `retry_after_ms` (§ 9.2; § 9.1: MUST when known, which a stream cannot show).",
        "carry the upstream's Retry-After as retry_after_ms (§ 9.5)";
    ErrorItemUnindexed = "error.item-unindexed", Advisory, "§ 9.1, § 9.2",
        "An `aoi:error` with `scope:\"item\"` SHOULD carry `item_index` or `line_number` to correlate it with the input record (§ 9.1). aoi advises when an item error can be correlated with nothing: no `item_index`, no `line_number` and no `target`. An error that names its `target` (the file or resource the item was) is correlated by it, and a source's item has no input record to point at; advising on those too would advise on every conforming source. § 9.2 says item failures use scope item \"and an index\" under a MUST whose subject is the category; aoi follows § 9.1's field table (SHOULD).",
        "add item_index (0-based position), line_number (input line) or target to item-scope errors";
    InputIo = "input.io-error", Incomplete, "§ 4",
        "Reading the input failed; what was read is judged as a truncated stream.",
        "check the input file or pipe";
    InputIdleTimeout = "input.idle-timeout", Incomplete, "§ 4.2",
        "With `--idle-timeout`, an input silent for longer than the limit ends the stream: the outcome is `timeout` (exit 124), since a hung producer and a dead one look alike on a pipe. Any input, an `aoi:heartbeat` line included, resets the clock. In a log of interleaved runs (`aoi errors`, `aoi merge-report`) the runs still open end as `timeout`; a run whose summary was already read keeps its verdict, and so does a single stream: silence after its `aoi:summary` only ends the read.",
        "look at why the producer stopped writing; for quiet unbounded streams, emit aoi:heartbeat more often than the limit";
    SchemaInvalid = "schema.invalid", Violation, "§ 10, § 10.3, § 18",
        "With `--schema FILE`, every event, domain and framework, validates against the tool's own JSON Schema (draft 2020-12, or the draft its `$schema` names): one finding per event that does not, naming the line, its seq, the value's JSON pointer, the keyword and what it wanted. Members the schema does not mention pass unless it forbids them (§ 10.3). `format` is an annotation in 2020-12 and 2019-09 (asserted only when the schema's metaschema requires the format-assertion vocabulary) and an assertion in draft 7 and earlier, as those drafts' test suites read it.",
        "fix the event, or the schema if the event is right; `aoi schema`-style discovery (§ 10.1) should publish the schema the tool actually follows";
    SchemaUnchecked = "schema.unchecked", Advisory, "§ 10, § 2",
        "With `--schema FILE`, an event aoi could not validate: one longer than the reader holds (1 MiB; such a line is judged from a reduced copy in constant memory, not held whole), or one serde_json cannot represent: a number beyond f64's range, or a string with a lone surrogate escape (`\"\\ud800\"`: JSON's grammar allows it, a Unicode string cannot hold it). Reported, so a pass never claims more than was checked; advisory, because the event may well be valid.",
        "validate such events another way, or keep events under 1 MiB";
}

impl RuleId {
    /// The catalog entry.
    pub fn rule(self) -> &'static Rule {
        // The table and the enum come from one macro, in the same order.
        &RULES[self as usize]
    }
    /// The stable id.
    pub fn id(self) -> &'static str {
        self.rule().id
    }
    /// The severity.
    pub fn severity(self) -> Severity {
        self.rule().severity
    }
}

/// The judge's decisions where the spec leaves a choice open; part of
/// docs/rules.md.
pub const DECISIONS: &str = "\
## Decisions where the spec is open

- **One verdict, leniency asked for.** Every command that judges streams (`check`, `strip`,
  `summary`, `filter`, `errors`, `merge-report`, and `lint` on the tool's output) judges an input
  as one stream, line by line, with this catalog: a line that is no event (prose, a prefix,
  colour, a BOM) is the violation it is in `aoi check`, so the same bytes get the same outcome and
  exit code from every command, and every output format states it (JUnit failures/errors, TAP
  `not ok`, CTRF `failed` for any exit but 0, the Markdown and table verdicts, the JSON Lines
  `report` and summary). A failed `aoi:check` in a run that passed is shown (JUnit
  `system-out`), never counted as a failure.
  Reading CI logs as they are (events after prefixes, Docker and CRI records, colour and CR
  trimmed, other lines skipped, interleaved runs told apart by `aoi.run`) is `--log`, never the
  default: a verdict more lenient than `check`'s is given only to the user who asked for it. It
  exists where a log is what the command is for: `errors`, `merge-report`, `summary` (one outcome
  per run of the log) and `strip` (`strip --log --control ci.log`). `check` and `filter` have no
  `--log`: they relay one stream, and a relay cannot pass a log's prose downstream as if it were
  the stream; run `aoi strip --log` before them, or use `merge-report --log` or `summary --log`
  for a log's verdict per run. With `--log`, what the reading passed over is always
  stated: lines skipped and events found after a prefix or decoration, on stderr, in the table
  footer, as a Markdown note, as a skipped JUnit testcase, TAP point and CTRF test, and as
  `properties.read_as_log`, `skipped_lines` and `trimmed_lines` in JSON Lines. A producer's own
  exit may still differ by § 13.1 (upstream `aoi:error` events fail it unless
  `--continue-on-error`), and it then says so on stderr in one line; an upstream outcome of
  `denied`, `timeout` or `cancelled` stays that outcome in every output, as in `check`. Every
  non-zero exit says why on stderr in one line unless `-q` (`summary`'s readable line and
  `merge-report`'s table on a terminal already say it there).
- **Ctrl-C through a relay (§ 7).** In a terminal, Ctrl-C signals the whole pipeline, and a
  conforming producer answers with its `reason:\"cancelled\"` summary. `aoi check` therefore goes on
  reading after the first SIGINT/SIGTERM, to the end of its input, for `AOI_STOP_DRAIN` seconds
  (default 2; 0 stops at once): a stream that ends with its summary in that time is relayed and
  judged as it is (`upstream cancelled`, 130); otherwise the relay stops and aoi reports its own
  cancellation (130, or 143 for SIGTERM). A second signal ends it at once; `AOI_STOP_GRACE`
  seconds after the drain, a stop blocked on a write ends the process.
- **What is a line.** A line is the bytes up to `\\n`. `\\r` before it is JSON whitespace, so CRLF
  streams are accepted. A final line without `\\n` is never interpreted (§ 2): it is reported as
  `line.unterminated` and the stream is incomplete (exit 74), whatever it contains. The one
  exception is such a fragment after the `aoi:summary`: bytes written after the summary break
  § 13.1 whether or not their line was finished, so it is also `summary.not-last` (exit 65).
- **Counting lines.** `event_count` is reconciled against every physical line up to and including
  the first `aoi:summary`, blank and invalid lines included (they are lines received).
- **seq.** Invalid lines carry no seq and do not advance the expected value. One cause, one
  finding: a forward jump of at most 64 seqs is held, and settled as one `seq.gap`
  finding at its own line: \"out of order\" when every seq it skipped comes later (two swapped
  lines), \"N line(s) missing\" when some never come. It is settled when they have all come, once
  the stream is 64 seqs past it, or at the end of input (not at the summary: a line may come after
  it, out of order, which is then that finding and `summary.not-last`), so the finding may be
  printed after findings of later lines (the exit is 65 either way); at most 8 jumps are held at
  once (memory stays constant), and a longer jump (elided output) is a gap at once (the
  seqs it skipped, if they come later, are that finding's: the last 64 such jumps are
  remembered). A jump
  settled while the stream goes on (64 seqs past it, or the oldest of 8) says its lines were not
  seen before aoi stopped waiting (lost, or far out of order), and those that still come are that
  finding's, not one more (the last 64 such jumps are remembered). A first seq of 1 is held
  the same way: a 0 after it is the first two lines swapped (one \"out of order\" finding, and
  an `aoi:meta` among them is not also `meta.not-first`); without it the stream counts from 1
  (`seq.start`, reported when the jump settles). A seq already
  seen is one \"repeated\" finding, and a block written again continues it without more. A stream
  in which no event carries `seq` gets the `seq.absent` advisory; once any event carries it,
  every event must (`seq.missing`).
- **run.** One stream (one file or one pipe) is one run; `run.changed` is reported once, at the
  first line whose run differs from the first run seen, and is then the one finding for what
  follows from reading several runs as one (seq order, a second meta or summary, the counters,
  a summary's contradictions), which is not reported again. Telling interleaved runs apart is
  `--log`'s job (`merge-report --log`, `summary --log`, `errors --log`, `strip --log`): without
  `--log` every command reads an input as one stream, as `check` does.
- **meta first.** `aoi:meta` must come before every other JSON event line; a non-JSON line before
  it is its own violation and does not also make the meta late.
- **summary last.** The first line after the summary is reported once (`summary.not-last`); a
  second summary is `summary.duplicate`. Counters are reconciled at the first summary.
- **Warnings and errors.** `warning_count`/`error_count` must be at least the lines present,
  since they also count what the producer consumed from its upstream (§ 8.3).
- **Outcome.** Any violation: exit 65. Else anything incomplete (no summary, unterminated final
  line, read error): 74. Else the summary decides: `ok:true` is 0 (also with `partial:true`
  unless `--fail-on-partial`, then 1, or 75 when its cause says retry may help); `ok:false` with reason denied/timeout/cancelled is
  77/124/130; otherwise 75 when retry may help, else 1.
- **A process-scope error ends the run (§ 9.1).** An `aoi:error` of the stream's own (no
  `origin`) with `scope:\"process\"`, or with no scope (`process` is the default), means the run
  is over: it failed. A summary that then says `ok:true` contradicts the stream, with or without
  events after the error: that is `summary.ok-after-process-error`, a violation (65), one finding
  at the summary. aoi does not take the error's disposition (1 or 75) instead: the stream says two
  things, and choosing the error would be guessing what the producer meant as surely as choosing
  the summary; 65 is the verdict that says the producer is at fault, and no verdict outranks it,
  so it is never more lenient than either reading. A forwarded error (with `origin`) ended its
  upstream's run, not this one (a producer with `--continue-on-error` may succeed, § 13.1); a
  scope of another value is `error.scope`'s finding, not also this one. Item-scope errors before
  `ok:true` (`partial:true`) stay partial success (0). Domain events after a process-scope error
  are no finding of their own (§ 9.1 says what the scope means and puts no MUST on what
  follows; a producer may flush results it had before the failure), and they never turn the run
  into a success: with `ok:false` the summary and its cause decide as usual.
- **Unbounded streams (`--unbounded`, § 4.2).** EOF without a summary is a clean end (0), unless
  a process-scope error of the stream's own came first (§ 9.1: the run is over): then the
  outcome is that error's disposition, as a summary `ok:false, reason:\"failed\"` with it as the
  cause would get: 75 when retry may help, else 1 (§ 9.3: `retryable` decides disposition,
  `category` routes; exits 77/124/130 come from a summary's `reason`, which such a stream never
  wrote). An unbounded stream that ends with a summary is judged as any other. An empty input is
  incomplete (74) with `--unbounded` as without it: § 4.2 waives the summary of a stream that
  began, and an empty one shows no run at all, not even `aoi:meta` (§ 4; a usage error or a
  missing machine-mode flag writes nothing too), so reading it as a clean end would be a wrong
  \"ok\".
- **Retry may help** when `caused_by.retryable` is true; without a `caused_by.retryable`, when the
  most severe `aoi:error` is retryable. The most severe error is chosen by: process scope (or no
  scope, which defaults to process) over item scope, then non-retryable over retryable (retry
  cannot help while a non-retryable failure stands), then the first one.
- **Several streams.** The most severe exit wins: 65, 74, 77, 1, 124, 130, 75, 0; aoi's own
  operational errors rank above all of them, in the order 70 (internal), 64 (usage), 66 (an
  input that cannot be opened, or a `--run` that names none), 73 (the `--report` file): a
  command that could not do what it was asked says so before any verdict on what it read. 141
  (stdout closed) and 143 (SIGTERM) end aoi at once and are never combined.
- **Upstream identity.** The report's `upstream` (and the `stream` event's identity) comes from
  the upstream's `aoi:meta`, or from its `aoi:summary` when it emitted no meta but named itself
  there; with neither it is omitted (§ 13.1). With several streams it is set only when all agree.
- **aoi check judges, it does not transform.** An upstream that had item-level `aoi:error`s but
  ended `ok:true` passes (exit 0): the § 13.1 rule that upstream errors make `ok` false binds
  transformers (`aoi filter` has `--continue-on-error` for that), while `check` reports the
  upstream's own verdict. Use `aoi errors` or the report's `error_count` to act on item errors.
- **Unknown categories** are advisories (§ 9.4: a consumer must not fail on them).
- **Framework fields.** Unknown top-level fields are checked for `aoi:meta`, `aoi:summary`,
  `aoi:error`, `aoi:warning` (read with the `aoi:error` field set, which the spec implies but does
  not define) and `aoi:check`; `aoi:plan`, `aoi:progress` and `aoi:heartbeat` have no field set in
  the spec and are not checked.
- **JSON.** Strict RFC 8259, any nesting depth (the validator does not recurse; 100,000-deep
  arrays are accepted). Implementation-defined cases: numbers of any size or exponent are
  accepted (the grammar allows them; aoi never converts domain numbers); a `\\u` escape of a lone
  or mis-ordered UTF-16 surrogate is accepted, as the grammar allows (`JSON.stringify` writes one
  for a string cut mid-pair, Python's json reads it), with the `line.lone-surrogate` advisory
  because jq and serde_json reject it (`aoi filter` reads such a string as U+FFFD wherever it
  sits, so every event `check` accepts is one the filter can read, and never writes the escape
  into its own output; `--raw`, plain jq, refuses the line as jq 1.6 and jaq do); invalid UTF-8 (overlong forms, encoded surrogates,
  code points above U+10FFFF, truncated sequences, Latin-1 bytes) is rejected; a UTF-8 byte order
  mark at the start of a line is rejected (it is not JSON whitespace); UTF-16 input is rejected.
- **Lines of any length.** The spec sets no limit on a line, so none is set: a line longer than the
  reader holds (1 MiB) is relayed in pieces and validated as they pass, by the same grammar, with
  the same findings at the same byte offsets, in memory that does not grow with it. The judge reads
  a reduced copy of such a line: every top-level member as written, except that a key or value
  longer than 64 KiB is replaced by a stand-in of its kind (a string by its first KiB, an object by
  `{}`, an array by `[]`, a number by `1` or `1.5` with its sign), and that once the copy holds 1
  MiB only the members the spec defines for a framework event are kept (`type`, `aoi`, `ok`,
  `reason`, `caused_by`, …; at most twice each, so that a duplicate is still seen), each past 1 KiB
  by a stand-in. Whitespace between top-level tokens is not copied. A rule that reads such a value
  reads its stand-in: its kind, and a string's first KiB (a 100 KiB `message` is judged by its first
  KiB; `meta.args-secret` reads an `args` array over 64 KiB as `[]`). A reserved name repeated is
  one finding for that name, however often. Nesting in a long line is limited to 16,777,216 levels
  (RFC 8259 § 9 allows a limit; a line that deep is `line.not-json`). `aoi strip` keeps a long line
  in an unnamed temporary file until the judge has placed it, then writes it out. Only `aoi filter`,
  which gives the filter the whole event, has a limit (`--max-line-bytes`, default 64 MiB): an event
  past it is the filter's own item error (`INPUT_TOO_LONG`), not a fault of the stream.
- **Another AOI version.** A stream whose `aoi:meta.aoi_version` is not 1.x gets one finding,
  `version.unsupported`, with the § 5.2 migration hints for 0.2, and whether the run finished
  (`summary.missing`, `line.unterminated`); its other findings under AOI 1's rules are not
  reported. `aoi lint` counts that finding against check 2 (the output is not AOI 1's typed
  output); check 13 judges `schema_version` alone, and the checks that read the tool's streams
  say \"not tested\" rather than fail on another version's meanings.
- **Logs (`--log`).** A log is split into streams by `aoi.run` (§ 8.1: `run` makes every line
  attributable on its own); each run is judged as `aoi check` judges one stream, over its own lines
  only, with findings at the log's line numbers. A line is an event when it is, or ends with after a
  text prefix (a BOM, a time stamp, `[worker-3]`), a JSON object with a string `type` (a trailing CR
  and colour codes dropped; a Docker json-file `log` string unwrapped once); anything else is
  skipped and counted, never a violation. Docker's json-file driver writes at most 16 KiB of a line
  per record and splits longer lines into partial records (no `\\n` at the end of `log`): they are
  joined, per `stream`, in order, and the whole read as one line (up to 64 MiB; a longer one is
  given up, its last record counted as skipped). A record longer than the reader holds (1 MiB, which
  Docker does not write) is read as it is, not unwrapped. Events without an envelope form the
  input's unnamed stream, judged only when it holds a framework event (otherwise it is another
  program's JSON). A final line that is no event is the truncation of the run written last. A run
  ends at its `aoi:summary`: it is judged there and its judge freed, so every run of a log is
  judged however many it holds, in memory bounded by the runs open at once. A line of a run after
  its summary (§ 13.1) is the run's tail, reported as a second entry of that run whose one cause is
  `summary.not-last` (the same exit as `aoi check` on the run alone); the keys of the latest 65,536
  ended runs are kept for this; a line of a run that ended before them is judged as a new stream
  (a seq gap, no meta, no summary: it fails too), and a run id that comes back that late with a
  whole run from seq 0 is judged as a new run. Runs are reported in order of first appearance,
  except that a run that stays open while 4,096 others end lets them go in the order they ended,
  and the streams that never end at a summary (the unnamed one, a run's tail) come after the runs. A read error after every run ended fails the input on its unnamed
  stream, not on a run that ended. `--max-runs` (default 10,000) guards the runs open at once: no
  stream at all, or runs past it left unjudged, is exit 74, said in every format: nothing
  unverified passes.
- **Forwarding (`aoi errors --output jsonl`).** `origin` (§ 13.1) is the event's own `origin`
  when it has one (it was forwarded before), else its run's `aoi:meta.tool`, else its `domain`
  (§ 9.1: `domain` defaults to the tool), else `unknown`. Members the spec defines are copied
  byte for byte; top-level members it does not define move into `properties.forwarded.fields`
  (§ 8.1), never dropped; `properties.forwarded` also names the source, line and upstream run,
  replacing an earlier hop's (provenance names the direct upstream only, § 13.1). An unknown
  category is forwarded as it is (§ 9.4: consumers route it as `internal`; rewriting it would
  lose it), so `aoi check` reports the same advisory on the forwarded event. The summary's
  `warning_count`/`error_count` count every warning and error read, whatever the filters, plus
  aoi's own; `count` is 0 (forwarded events are framework events). An upstream `aoi:error`
  fails the run (§ 13.1: `ok:false`, exit 75 when the most severe is retryable, else 1,
  `caused_by` reproducing it), whatever the filters and even when the upstream ended `ok:true`,
  unless `--continue-on-error`; the other outputs are no producer and exit with the upstream's
  verdict, as `aoi check` does.
- **Fan-in (`aoi merge-report`).** The grouping rule is fixed: without `--log` each input file is
  one stream, as in `check`; with `--log`, one stream per input file and `aoi.run` (decoded), in
  order of input and of first appearance; events without an envelope are
  the file's unnamed stream; the same run id in two files is two streams. A stream's entry is
  what the judge established, never the producer's totals unreconciled. A merge-report output
  read again (its `aoi:meta` has schema `aoi.toolkit.events` and `command: \"merge-report\"`) is
  a container: its `report` events are carried as entries as they are, and the container adds
  an entry of its own only when it is cut or breaks the contract; its own failures (an input it
  could not read, one without a stream, runs past the limit) are carried too, so merging is
  associative. The
  whole is `ok` only when every entry is; its exit status is the worst entry's (or aoi's own
  failure: an unreadable input 66, no stream at all 74).
- **Secrets (§ 11).** § 11 says MUST, and names its sensitive flags by substrings
  (`token`, `key`, `auth`, …). Measured on this build machine's man pages (17,873 pages, 4,864
  distinct long flags): the substrings mark 163 flags, among them `--author`, `--keyword`,
  `--keyring`, `--keymap`, `--xauthority` and `--pubkey`; matched as whole words of the name, 116,
  and those still include commands and switches that take no secret (`--list-keys`, `--gen-key`,
  `--ask-password`, `--no-cookies`, `--private`). So a flag's name cannot fail a stream: a value
  after a secret-named flag is the advisory `meta.args-secret-flag` (whole words), and only a value
  that shows itself to be a secret (a URL with credentials or a secret parameter, a private key
  block, a secret header, `Bearer …`) is the violation `meta.args-secret`. The environment echoed
  wholesale is the violation `meta.env`.
- **Integers.** Where the spec asks for an integer (`aoi.seq`, the summary's counters,
  `retry_after_ms`, `item_index`, `line_number`), a JSON number whose value is whole is one,
  whatever its form: `1000.0` and `1e3` are 1000, as JSON Schema 2020-12 (which the spec cites for
  event schemas) counts them, and `aoi lint`'s schema validation does. Failing them would fail a
  producer its own schema passes. They get the `number.integer-form` advisory, since Go's and
  serde's integer decoding reject them. `1000.5` is no integer. `aoi.seq` and the counters are read
  up to 2^64-1, a limit of aoi's (no stream has 2^64 lines); past it the finding says so, rather
  than \"not an integer\". `retry_after_ms` has no upper bound in the spec, so none is set: a larger
  value is valid and read as 2^64-1 ms.
- **A run asked for by its id (`errors --run RUN`).** RUN names the runs whose `aoi.run` starts
  with it or ends with it: tables, reports and verdict lines show a run by its last 8
  characters, and what aoi shows, aoi accepts. A RUN that names no run of any input exits 66,
  as an input that is not there: there is no stream to give a verdict on, and 74 (incomplete)
  would tell a script the stream was cut. stderr, and the `aoi:error` `NO_MATCHING_RUN`
  (`not_found`) of `--output jsonl`, name the runs that were read (the first 8; events without
  an `aoi.run` as such); `--no-fail` keeps 66, as for an unreadable input. An input whose runs
  are all others is no problem of its own: the run may be in another input. `--run` takes
  `--log` (64 without it): without it an input is one stream, not runs to choose from.
- **Typed against the tool's own schema (`--schema FILE`, § 10).** Every command that judges
  takes it (`check`, `strip`, `summary`, `errors`, `filter`, `merge-report`, with or without
  `--log`), so the same bytes and the same schema get the same verdict everywhere. Every event,
  domain and framework, is validated: a framework event is the tool's output too, and § 18's
  check 4 validates those. One finding per invalid event, the most specific problem: inside
  `anyOf`/`oneOf`, the branch that accepts the event's `type` (§ 10.4's discriminator), else the
  one with fewest failures, so no \"matched none of oneOf\" where a branch can be blamed. The
  file is read before any input: missing or unreadable 66, not JSON 64, no valid JSON Schema 64
  (the place in the schema named), each one line. No other document is ever read, from the
  network or from disk (§ 3: discovery without network): a `$ref` resolves inside the file, by
  pointer, `$anchor` or an `$id` the file declares, or the schema is refused (64), as it is by
  `aoi lint`'s check 1. `format` follows the draft: an annotation in 2020-12 (unless the
  metaschema requires format-assertion), asserted in draft 7. An event over 1 MiB (judged from a
  reduced copy in constant memory) or with a number beyond f64 is not validated and says so
  (`schema.unchecked`, advisory): aoi cannot say it is invalid, and will not say it was checked.
  Without `--schema` nothing of this runs: the judge never parses a line whole.
- **The producer judges what it writes (`aoi::emit::Producer`, § 20).** Each line is judged by
  the judge `aoi check` runs before it is written; one that would be a violation or make the
  stream incomplete is refused (`Ended::Refused`, naming the rule) and not written, and the
  stream goes on. Advisories are written: they do not change the verdict. An event before
  `aoi:meta` is refused although the judge only advises on it (§ 8.2's order is the producer's
  to keep). `close` returns the judge's outcome of the stream written and its exit status; a
  summary the judge refuses is replaced by `ok:false, reason:\"failed\"`. A cancellation from
  code (`Token::cancel`) ends as SIGINT does (`cancelled`, 130). aoi's own commands write
  through the same encoder unjudged: their streams are held to `aoi check` by the test suite.
- **`aoi:check` events in a JUnit report (`merge-report --format junit`).** Each kept check is a
  testcase named by its stream's file and run and the check's name. A check not run (`aoi lint`'s
  `properties.status` `not_tested` or `not_applicable`) is `<skipped/>`. A check with `ok:false`
  and severity `error` (or none) is a `<failure>` when its run failed; in a run that passed, and
  for a failed `warning` or `info` check, it is a passing testcase that says so in
  `<system-out>`. So a JUnit reader fails the CI job exactly when the exit does: the run's
  outcome is its verdict, and a check never turns a passing run into a failed report (a false
  alarm). The exit code is the same in every format.
";

/// Renders the catalog as Markdown (docs/rules.md is this output).
pub fn catalog_markdown() -> String {
    let mut s = String::from(
        "# aoi rule catalog\n\nGenerated from `src/rules.rs` by `aoi rules --markdown`; do not edit by hand.\n\n\
         Severity: `violation` fails the stream (exit 65), `incomplete` marks it cut short (exit 74), \
         `advisory` is reported and never fails.\n\n",
    );
    s.push_str(DECISIONS);
    s.push('\n');
    s.push_str(&statements::statements_markdown());
    s.push_str("\n# Rules\n\n");
    for r in RULES {
        s.push_str(&format!(
            "## `{}`\n\n- severity: {}\n- spec: {}\n\n{}\n\nHint: {}\n\n",
            r.id,
            r.severity.name(),
            r.spec,
            r.doc,
            r.hint
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_indexed() {
        let mut seen = std::collections::HashSet::new();
        for (i, r) in RuleId::ALL.iter().enumerate() {
            assert_eq!(r.rule().id, RULES[i].id);
            assert!(seen.insert(r.id()), "duplicate {}", r.id());
        }
    }
}
