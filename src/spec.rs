//! The AOI-CLI v1.0-alpha vocabulary, written down once.

/// The AOI version aoi speaks and emits (§ 5).
pub const AOI_VERSION: &str = "1.0-alpha";

/// The framework event types the spec defines (§ 8.2), each spelled
/// once (and as bytes, for the judge's matches on a line's own bytes).
pub mod types {
    /// The namespace every framework type starts with (§ 8.2); a domain
    /// type never does.
    pub const PREFIX: &str = "aoi:";
    /// The identity and the invocation, first (§ 8.3).
    pub const META: &str = "aoi:meta";
    /// The terminal event of a finite stream (§ 8.3).
    pub const SUMMARY: &str = "aoi:summary";
    /// Something went wrong but the run goes on (§ 8.3).
    pub const WARNING: &str = "aoi:warning";
    /// A failure, with the taxonomy of § 9.
    pub const ERROR: &str = "aoi:error";
    /// A sign of life on a quiet stream (§ 8.3).
    pub const HEARTBEAT: &str = "aoi:heartbeat";
    /// What a dry run would do (§ 14.2).
    pub const PLAN: &str = "aoi:plan";
    /// One check's result (§ 8.3).
    pub const CHECK: &str = "aoi:check";
    /// How far a long run is (§ 8.3).
    pub const PROGRESS: &str = "aoi:progress";

    /// The names as bytes: usable as patterns where a judge matches the
    /// line's own bytes.
    pub(crate) mod bytes {
        /// `aoi:`, the framework namespace.
        pub const PREFIX: &[u8] = super::PREFIX.as_bytes();
        /// `aoi:meta`.
        pub const META: &[u8] = super::META.as_bytes();
        /// `aoi:summary`.
        pub const SUMMARY: &[u8] = super::SUMMARY.as_bytes();
        /// `aoi:warning`.
        pub const WARNING: &[u8] = super::WARNING.as_bytes();
        /// `aoi:error`.
        pub const ERROR: &[u8] = super::ERROR.as_bytes();
        /// `aoi:heartbeat`.
        pub const HEARTBEAT: &[u8] = super::HEARTBEAT.as_bytes();
        /// `aoi:plan`.
        pub const PLAN: &[u8] = super::PLAN.as_bytes();
        /// `aoi:check`.
        pub const CHECK: &[u8] = super::CHECK.as_bytes();
        /// `aoi:progress`.
        pub const PROGRESS: &[u8] = super::PROGRESS.as_bytes();
    }
}

/// Framework event types defined by the spec (§ 8.2).
pub const FRAMEWORK_TYPES: &[&str] = &[
    types::META,
    types::SUMMARY,
    types::WARNING,
    types::ERROR,
    types::HEARTBEAT,
    types::PLAN,
    types::CHECK,
    types::PROGRESS,
];

/// Error categories and their default `retryable` (§ 9.2).
pub const CATEGORIES: &[(&str, bool)] = &[
    ("usage", false),
    ("validation", false),
    ("config", false),
    ("authn", false),
    ("authz", false),
    ("not_found", false),
    ("conflict", false),
    ("precondition_failed", false),
    ("unsupported", false),
    ("rate_limited", true),
    ("unavailable", true),
    ("timeout", true),
    ("cancelled", false),
    ("io", false),
    ("internal", false),
];

/// `aoi:summary.reason` values allowed with `ok:false` (§ 8.3): the
/// spellings of [`Reason::FAILURES`].
pub const FAILURE_REASONS: &[&str] = &[
    Reason::FAILURES[0].as_str(),
    Reason::FAILURES[1].as_str(),
    Reason::FAILURES[2].as_str(),
    Reason::FAILURES[3].as_str(),
];

/// The only `reason` allowed with `ok:true` (§ 8.3).
pub const SUCCESS_REASON: &str = Reason::Skipped.as_str();

/// `aoi:error.wrapped.protocol` values (§ 9.1).
pub const WRAPPED_PROTOCOLS: &[&str] = &["http", "grpc", "exit"];

/// `aoi:error.scope` values (§ 9.1): the spellings of [`Scope`].
pub const SCOPES: &[&str] = &[Scope::Process.as_str(), Scope::Item.as_str()];

/// `aoi:summary.reason` (§ 8.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The run failed.
    Failed,
    /// It was stopped (SIGINT, SIGTERM, or the caller).
    Cancelled,
    /// It ran out of time.
    Timeout,
    /// It was not allowed.
    Denied,
    /// `ok:true`: the operation did not apply and did not run.
    Skipped,
}

impl Reason {
    /// The reasons allowed with `ok:false`, in the spec's order.
    pub const FAILURES: [Reason; 4] = [
        Reason::Failed,
        Reason::Cancelled,
        Reason::Timeout,
        Reason::Denied,
    ];

    /// The spelling on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Failed => "failed",
            Reason::Cancelled => "cancelled",
            Reason::Timeout => "timeout",
            Reason::Denied => "denied",
            Reason::Skipped => "skipped",
        }
    }
}

/// `aoi:error.category` (§ 9.2): the closed set, with each one's default
/// `retryable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Category {
    Usage,
    Validation,
    Config,
    Authn,
    Authz,
    NotFound,
    Conflict,
    PreconditionFailed,
    Unsupported,
    RateLimited,
    Unavailable,
    Timeout,
    Cancelled,
    Io,
    Internal,
}

impl Category {
    /// Every category, in the spec's order.
    pub const ALL: [Category; 15] = [
        Category::Usage,
        Category::Validation,
        Category::Config,
        Category::Authn,
        Category::Authz,
        Category::NotFound,
        Category::Conflict,
        Category::PreconditionFailed,
        Category::Unsupported,
        Category::RateLimited,
        Category::Unavailable,
        Category::Timeout,
        Category::Cancelled,
        Category::Io,
        Category::Internal,
    ];

    /// The spelling on the wire.
    pub const fn as_str(self) -> &'static str {
        CATEGORIES[self as usize].0
    }

    /// The category's default `retryable` (§ 9.2; `retryable` on the
    /// event is authoritative, § 9.3).
    pub const fn default_retryable(self) -> bool {
        CATEGORIES[self as usize].1
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `aoi:error.scope` (§ 9.1): the whole run, or one item of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The run cannot go on: it ends `ok:false`.
    Process,
    /// One item failed; the run goes on (`partial:true` when it ends).
    Item,
}

impl Scope {
    /// The spelling on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Process => "process",
            Scope::Item => "item",
        }
    }
}

// `aoi errors --scope` takes a scope by its spelling on the wire; by
// hand rather than derived, so the variants' docs stay out of `--help`.
#[cfg(feature = "cli")]
impl clap::ValueEnum for Scope {
    fn value_variants<'a>() -> &'a [Self] {
        &[Scope::Process, Scope::Item]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

/// The identity members of `aoi:meta` and `aoi:summary` (§ 5), in the
/// order aoi writes them.
pub const IDENTITY_FIELDS: [&str; 5] = [
    "tool",
    "tool_version",
    "aoi_version",
    "schema_name",
    "schema_version",
];

/// The members of `aoi:summary` a caller may add; the others (the
/// counters, the identity, `ok`, `reason`, the envelope) are the
/// producer's to write.
pub(crate) const SUMMARY_CALLER_FIELDS: &[&str] = &[
    "partial",
    "truncated",
    "next_cursor",
    "caused_by",
    "upstream",
    "properties",
];

/// Whether `name` is a member of `aoi:summary` the producer writes itself.
pub(crate) fn summary_own_field(name: &str) -> bool {
    SUMMARY_FIELDS.contains(&name) && !SUMMARY_CALLER_FIELDS.contains(&name)
}

const META_FIELDS: &[&str] = &[
    "type",
    "aoi",
    "tool",
    "tool_version",
    "aoi_version",
    "schema_name",
    "schema_version",
    "command",
    "args",
    "args_redacted",
    "input_fingerprint",
    "properties",
];
const SUMMARY_FIELDS: &[&str] = &[
    "type",
    "aoi",
    "ok",
    "reason",
    "count",
    "input_count",
    "warning_count",
    "error_count",
    "partial",
    "truncated",
    "next_cursor",
    "elapsed_ms",
    "event_count",
    "caused_by",
    "upstream",
    "tool",
    "tool_version",
    "aoi_version",
    "schema_name",
    "schema_version",
    "properties",
];
const ERROR_FIELDS: &[&str] = &[
    "type",
    "aoi",
    "category",
    "code",
    "message",
    "retryable",
    "retry_after_ms",
    "domain",
    "origin",
    "scope",
    "target",
    "item_index",
    "line_number",
    "field",
    "wrapped",
    "hint",
    "docs",
    "details",
    "properties",
];
const CHECK_FIELDS: &[&str] = &[
    "type",
    "aoi",
    "name",
    "ok",
    "severity",
    "detail",
    "properties",
];

/// Top-level fields the spec defines per framework type (§ 8.1, § 8.3, § 9.1,
/// § 11, § 15). `None` for types whose fields the spec leaves open.
pub fn known_fields(ty: &[u8]) -> Option<&'static [&'static str]> {
    field_table(ty).map(|t| t.names)
}

/// The name as the spec spells it when some framework type defines a
/// top-level field of that name (§ 8.1, § 8.3, § 9.1).
pub fn framework_field(name: &str) -> Option<&'static str> {
    [META_FIELDS, SUMMARY_FIELDS, ERROR_FIELDS, CHECK_FIELDS]
        .into_iter()
        .flatten()
        .find(|f| **f == name)
        .copied()
}

/// [`known_fields`] with a lookup table: for the judge, which checks
/// every top-level key of every framework event against it.
pub fn field_table(ty: &[u8]) -> Option<&'static FieldTable> {
    static META: FieldTable = FieldTable::new(META_FIELDS);
    static SUMMARY: FieldTable = FieldTable::new(SUMMARY_FIELDS);
    static ERROR: FieldTable = FieldTable::new(ERROR_FIELDS);
    static CHECK: FieldTable = FieldTable::new(CHECK_FIELDS);
    match ty {
        types::bytes::META => Some(&META),
        types::bytes::SUMMARY => Some(&SUMMARY),
        // § 9.1 defines the error's fields; warnings are read with the same set.
        types::bytes::ERROR | types::bytes::WARNING => Some(&ERROR),
        types::bytes::CHECK => Some(&CHECK),
        _ => None,
    }
}

/// A hash of a key's bytes (its length, first two and last two bytes, mixed
/// by one multiplication): equal keys hash alike, and the names of each
/// [`FieldTable`] hash apart (checked when the tables are built, at
/// compile time), so keys whose hashes differ differ.
#[inline(always)]
pub const fn field_hash(k: &[u8]) -> u8 {
    let (b0, b1, c0, c1) = match *k {
        [] => return 0,
        [a] => (a, a, a, a),
        [a, b] => (a, b, a, b),
        [a, b, c] => (a, b, b, c),
        [a, b, .., c, d] => (a, b, c, d),
    };
    let x = k.len() as u64
        | (b0 as u64) << 8
        | (b1 as u64) << 16
        | (c0 as u64) << 24
        | (c1 as u64) << 32;
    // An odd constant picked so that no table's names collide.
    (x.wrapping_mul(0x6513_270e_269e_0d37) >> 56) as u8
}

/// A framework type's field names, indexed by [`field_hash`].
pub struct FieldTable {
    /// The names, in the spec's order.
    pub names: &'static [&'static str],
    /// For each hash, 1 + the index of the name with that hash, or 0.
    slot: [u8; 256],
}

impl FieldTable {
    /// Builds the table; two names with one hash fail the build (the
    /// tables are statics, evaluated by the compiler).
    const fn new(names: &'static [&'static str]) -> Self {
        let mut slot = [0u8; 256];
        let mut i = 0;
        while i < names.len() {
            let h = field_hash(names[i].as_bytes()) as usize;
            assert!(
                slot[h] == 0,
                "two field names share a hash: change field_hash's constant"
            );
            assert!(i < 255, "too many names for a table");
            slot[h] = (i + 1) as u8;
            i += 1;
        }
        FieldTable { names, slot }
    }

    /// Whether `key` (raw bytes, no escapes), whose [`field_hash`] is
    /// `hash`, is one of the names.
    #[inline(always)]
    pub fn has(&self, key: &[u8], hash: u8) -> bool {
        let i = self.slot[usize::from(hash)];
        i != 0
            && self
                .names
                .get(usize::from(i) - 1)
                .is_some_and(|n| crate::peek::bytes_eq(n.as_bytes(), key))
    }
}

/// The sensitive words of § 11 that mark a flag as carrying a secret.
pub const SECRET_FLAG_WORDS: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "key",
    "credential",
    "cookie",
    "authorization",
    "auth",
    "bearer",
    "private",
    "client-secret",
];

/// URL query keys that carry secrets (§ 11).
pub const SECRET_QUERY_KEYS: &[&str] = &["sig", "token", "access_token", "code", "key"];

/// True when a flag or key name carries a secret by § 11's list
/// (`--api-token`, `password`, `Authorization`), ignoring leading dashes
/// and case.
pub fn is_secret_name(name: &str) -> bool {
    let n = name.trim_start_matches('-').to_ascii_lowercase();
    SECRET_FLAG_WORDS.iter().any(|w| n.contains(w))
}

/// True when a value already reads as redacted: empty, all `*` or `x`, a
/// placeholder in `<…>` or `[…]`, or one that says "redact".
pub fn looks_redacted(val: &str) -> bool {
    val.is_empty()
        || val.chars().all(|c| c == '*' || c == 'x' || c == 'X')
        || val.to_ascii_lowercase().contains("redact")
        || (val.starts_with('<') && val.ends_with('>'))
        || (val.starts_with('[') && val.ends_with(']'))
}

/// True for a URL query or fragment parameter that carries a secret:
/// one of § 11's keys (`sig`, `token`, `access_token`, `code`, `key`) or
/// any name a secret flag could have, or one naming a signature
/// (`X-Amz-Signature`, `api_key`, `client_secret`).
pub fn is_secret_param(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    SECRET_QUERY_KEYS.contains(&n.as_str()) || is_secret_name(&n) || n.contains("signature")
}

/// True for a URL with credentials (`https://user:pass@host`) or a query
/// key of § 11 (`sig`, `token`, …) carrying a value not yet redacted.
pub fn url_has_secret(val: &str) -> bool {
    let Some((_, rest)) = val.split_once("://") else {
        return false;
    };
    let (before_frag, frag) = rest.split_once('#').unwrap_or((rest, ""));
    let (before_query, query) = before_frag.split_once('?').unwrap_or((before_frag, ""));
    if before_query
        .rsplit_once('@')
        .is_some_and(|(user, _)| !looks_redacted(user))
    {
        return true;
    }
    [query, frag].iter().any(|list| {
        list.split('&').any(|kv| {
            kv.split_once('=')
                .is_some_and(|(k, v)| is_secret_param(k) && !looks_redacted(v))
        })
    })
}

/// Default `retryable` of a category, `None` if the category is unknown.
/// Bytes, so a judge compares the line's own bytes without decoding them.
pub fn category_default_retryable(cat: &[u8]) -> Option<bool> {
    CATEGORIES
        .iter()
        .find(|(c, _)| c.as_bytes() == cat)
        .map(|&(_, r)| r)
}

/// True for a `code` matching `[A-Z][A-Z0-9_]*` (§ 9.1).
pub fn valid_code(code: &[u8]) -> bool {
    let mut b = code.iter().copied();
    matches!(b.next(), Some(b'A'..=b'Z'))
        && b.all(|c| matches!(c, b'A'..=b'Z' | b'0'..=b'9' | b'_'))
}

/// Exit statuses (§ 6, and aoi's table in the README): [`exit::Code`]s;
/// the bare `i32` constants are their numbers, for code that has not
/// taken the type yet.
pub mod exit {

    /// [`Code::OK`].
    pub const OK: i32 = Code::OK.0;
    /// [`Code::FAILED`].
    pub const FAILED: i32 = Code::FAILED.0;
    /// [`Code::USAGE`].
    pub const USAGE: i32 = Code::USAGE.0;
    /// [`Code::DATAERR`].
    pub const DATAERR: i32 = Code::DATAERR.0;
    /// [`Code::NOINPUT`].
    pub const NOINPUT: i32 = Code::NOINPUT.0;
    /// [`Code::SOFTWARE`].
    pub const SOFTWARE: i32 = Code::SOFTWARE.0;
    /// [`Code::CANTCREAT`].
    pub const CANTCREAT: i32 = Code::CANTCREAT.0;
    /// [`Code::IOERR`].
    pub const IOERR: i32 = Code::IOERR.0;
    /// [`Code::TEMPFAIL`].
    pub const TEMPFAIL: i32 = Code::TEMPFAIL.0;
    /// [`Code::NOPERM`].
    pub const NOPERM: i32 = Code::NOPERM.0;
    /// [`Code::TIMEOUT`].
    pub const TIMEOUT: i32 = Code::TIMEOUT.0;
    /// [`Code::CANCELLED`].
    pub const CANCELLED: i32 = Code::CANCELLED.0;
    /// [`Code::PIPE`].
    pub const PIPE: i32 = Code::PIPE.0;
    /// [`Code::SIGTERM`].
    pub const SIGTERM: i32 = Code::SIGTERM.0;

    /// The exit-status table every stream-judging command shares, as
    /// (code, meaning): what `aoi capabilities` publishes.
    pub const TABLE: &[(i32, &str)] = &[
        (
            OK,
            "complete, conforming, ok:true (also partial:true unless --fail-on-partial; with --unbounded a clean EOF without summary)",
        ),
        (FAILED, "conforming, upstream ok:false, not retryable"),
        (TEMPFAIL, "conforming, upstream failed and retry may help"),
        (NOPERM, "upstream reason denied"),
        (TIMEOUT, "upstream reason timeout"),
        (
            CANCELLED,
            "upstream reason cancelled; or aoi itself stopped by SIGINT (its report ends with reason cancelled)",
        ),
        (
            SIGTERM,
            "aoi stopped by SIGTERM (its report ends with reason cancelled)",
        ),
        (DATAERR, "the stream breaks the contract"),
        (
            IOERR,
            "incomplete: EOF without aoi:summary, unterminated final line, or an I/O error",
        ),
        (USAGE, "usage error"),
        (NOINPUT, "an input file cannot be opened"),
        (SOFTWARE, "internal error"),
        (
            CANTCREAT,
            "an output file cannot be created (check --report, merge-report --format F=PATH)",
        ),
        (PIPE, "stdout closed by the reader (quiet exit)"),
    ];

    /// An exit status with its precedence: `Ord` and [`Code::worst`]
    /// follow the documented order (aoi's own failures, 70, 64, 66, 73,
    /// then the stream verdicts 65, 74, 77, 1, 124, 130, 75, 0), and
    /// [`Code::code`] is what the process exits with.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
    pub struct Code(i32);

    impl Code {
        /// Complete, conforming, ok:true.
        pub const OK: Code = Code(0);
        /// The upstream failed; retry will not help.
        pub const FAILED: Code = Code(1);
        /// Usage error (`EX_USAGE`).
        pub const USAGE: Code = Code(64);
        /// The stream breaks the contract (`EX_DATAERR`).
        pub const DATAERR: Code = Code(65);
        /// An input file cannot be opened (`EX_NOINPUT`).
        pub const NOINPUT: Code = Code(66);
        /// Internal error (`EX_SOFTWARE`).
        pub const SOFTWARE: Code = Code(70);
        /// An output file cannot be created (`EX_CANTCREAT`).
        pub const CANTCREAT: Code = Code(73);
        /// Incomplete stream or I/O error (`EX_IOERR`).
        pub const IOERR: Code = Code(74);
        /// Temporary failure, retry may help (`EX_TEMPFAIL`).
        pub const TEMPFAIL: Code = Code(75);
        /// Denied (`EX_NOPERM`).
        pub const NOPERM: Code = Code(77);
        /// Timeout.
        pub const TIMEOUT: Code = Code(124);
        /// Cancelled (SIGINT: 128 + 2).
        pub const CANCELLED: Code = Code(130);
        /// The reader closed the pipe (SIGPIPE: 128 + 13).
        pub const PIPE: Code = Code(141);
        /// Stopped by SIGTERM (128 + 15, § 7).
        pub const SIGTERM: Code = Code(143);

        /// Any status (128 + a signal, a filter's own `halt_error`).
        pub const fn of(code: i32) -> Code {
            Code(code)
        }

        /// The status for the process.
        pub const fn code(self) -> i32 {
            self.0
        }

        /// Exit 0.
        pub const fn is_ok(self) -> bool {
            self.0 == 0
        }

        /// Severity rank for combining several results: higher wins. 141
        /// and 143 end aoi at once and are never combined.
        pub const fn rank(self) -> u8 {
            match self {
                Code::SOFTWARE => 12,
                Code::USAGE => 11,
                Code::NOINPUT => 10,
                Code::CANTCREAT => 9,
                Code::DATAERR => 8,
                Code::IOERR => 7,
                Code::NOPERM => 6,
                Code::FAILED => 5,
                Code::TIMEOUT => 4,
                Code::CANCELLED => 3,
                Code::TEMPFAIL => 2,
                Code::OK => 0,
                _ => 1,
            }
        }

        /// The more severe of the two (`self` when they rank alike).
        pub fn worst(self, other: Code) -> Code {
            if other.rank() > self.rank() {
                other
            } else {
                self
            }
        }
    }

    /// By precedence, then by number among statuses that rank alike.
    impl Ord for Code {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            (self.rank(), self.0).cmp(&(other.rank(), other.0))
        }
    }

    impl PartialOrd for Code {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }

    impl std::fmt::Display for Code {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.fmt(f)
        }
    }

    impl serde::Serialize for Code {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_i32(self.0)
        }
    }

    impl From<Code> for serde_json::Value {
        fn from(c: Code) -> Self {
            c.0.into()
        }
    }

    impl PartialEq<i32> for Code {
        fn eq(&self, code: &i32) -> bool {
            self.0 == *code
        }
    }

    impl PartialEq<Code> for i32 {
        fn eq(&self, code: &Code) -> bool {
            *self == code.0
        }
    }

    /// [`Code::rank`] of a bare status.
    pub fn rank(code: i32) -> u8 {
        Code(code).rank()
    }

    /// The more severe of two bare statuses ([`Code::worst`]).
    pub fn worst(a: i32, b: i32) -> i32 {
        Code(a).worst(Code(b)).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert!(valid_code(b"UPSTREAM_RATE_LIMIT"));
        assert!(valid_code(b"E2"));
        assert!(!valid_code(b"e2"));
        assert!(!valid_code(b"_E"));
        assert!(!valid_code(b""));
        assert!(!valid_code(b"A-B"));
    }

    /// The documented precedence (`cli::EXIT_TABLE`'s last line, the
    /// README): aoi's own failures, then the stream verdicts.
    #[test]
    fn exit_order() {
        let order = [70, 64, 66, 73, 65, 74, 77, 1, 124, 130, 75, 0];
        for w in order.windows(2) {
            assert_eq!(exit::worst(w[0], w[1]), w[0]);
            assert_eq!(exit::worst(w[1], w[0]), w[0]);
        }
        let codes: Vec<exit::Code> = order.iter().rev().map(|&c| exit::Code::of(c)).collect();
        assert!(
            codes.windows(2).all(|w| w[0] < w[1]),
            "Ord is the precedence"
        );
        assert_eq!(codes.iter().copied().max(), Some(exit::Code::of(70)));
    }
}
