//! `aoi:error` (§ 9) and the cause a failed run is reported with: the
//! taxonomy's fields in their forms, and which error is the cause when
//! there are several (§ 9.3, § 13.1).

use super::fields::{
    Ev, Keys, Named, bool_value, duplicate_key, keep, named, names, plain, preview,
    printable_ascii, str_is, str_ref, str_value, whole_value, wrapped_protocol,
};
use super::{Cause, Judge};
use crate::peek::{Kind, Member, object_members, span};
use crate::rules::RuleId;
use crate::spec;

/// The optional members of an `aoi:error` (§ 9.1), found in the one pass
/// over its members.
struct Optional<'a> {
    strings: [(&'static str, Option<&'a Member>); 6],
    item_index: Option<&'a Member>,
    line_number: Option<&'a Member>,
    details: Option<&'a Member>,
    wrapped: Option<&'a Member>,
    upstream: Option<&'a Member>,
}

/// Reads the retry-critical fields of an error object (top-level members of
/// an `aoi:error` line, or of a `caused_by` object).
fn read_cause(line: &[u8], members: &[Member], line_no: u64) -> Cause {
    let ev = Ev { line, members };
    let s = |k: &str| ev.get(k).and_then(|m| str_value(line, m));
    Cause {
        origin: s("origin"),
        category: s("category"),
        code: s("code"),
        retryable: ev.get("retryable").and_then(bool_value),
        // § 9.1 sets no upper bound: past 2^64-1 ms is read as that.
        retry_after_ms: ev
            .get("retry_after_ms")
            .and_then(|m| whole_value(line, m))
            .map(|w| w.value.unwrap_or(u64::MAX)),
        message: s("message"),
        line: line_no,
        process_scope: ev
            .get("scope")
            .and_then(|m| str_value(line, m))
            .is_none_or(|s| s != "item"),
    }
}
/// Whether a `wrapped` object (valid JSON) has the usual shape: a
/// protocol of § 9.1 first, without escapes (`{"protocol":"http"…`), so
/// it is the first `protocol` and its value, read without the walk.
pub(super) fn usual_protocol(obj: &[u8]) -> bool {
    spec::WRAPPED_PROTOCOLS.iter().any(|p| {
        obj.strip_prefix(b"{\"protocol\":\"")
            .and_then(|rest| rest.strip_prefix(p.as_bytes()))
            .is_some_and(|rest| rest.first() == Some(&b'"'))
    })
}

impl Cause {
    /// Severity order for picking the error a `caused_by` reproduces: a
    /// process-scoped error outranks an item-scoped one, and a non-retryable
    /// one outranks a retryable one (retry cannot help while it stands); the
    /// first such error wins ties.
    fn rank(&self) -> u8 {
        Self::rank_of(self.process_scope, self.retryable)
    }

    fn rank_of(process_scope: bool, retryable: Option<bool>) -> u8 {
        (process_scope as u8) * 2 + (retryable != Some(true)) as u8
    }
}

/// The members of an `aoi:error` that § 9.1 names and its rules read.
const ERROR_MEMBERS: [Named; 17] = named([
    "category",
    "code",
    "message",
    "retryable",
    "retry_after_ms",
    "scope",
    "origin",
    "domain",
    "target",
    "field",
    "hint",
    "docs",
    "item_index",
    "line_number",
    "details",
    "wrapped",
    "upstream",
]);

impl Judge {
    /// Judges an `aoi:error` (§ 9.1): each field of the taxonomy in its
    /// form, then whether it is the run's cause so far.
    pub(super) fn error(&mut self, ev: &Ev<'_>, keys: Option<&Keys>) {
        let line = ev.line;
        // Every member § 9.1 names, in one pass over the line (or by
        // their hashes, when the keys were proved distinct).
        let [
            category,
            code,
            message,
            retryable,
            retry_after,
            scope,
            origin,
            domain,
            target,
            field,
            hint,
            docs,
            item_index,
            line_number,
            details,
            wrapped,
            upstream,
        ] = match keys {
            Some(k) => k.fields(ev, ERROR_MEMBERS),
            None => ev.fields(names(ERROR_MEMBERS)),
        };
        let optional = Optional {
            strings: [
                ("domain", domain),
                ("origin", origin),
                ("target", target),
                ("field", field),
                ("hint", hint),
                ("docs", docs),
            ],
            item_index,
            line_number,
            details,
            wrapped,
            upstream,
        };
        self.error_category(line, category);
        self.error_code(line, code);
        self.error_message(ev, message);
        let retryable = self.error_retry(ev, retryable, retry_after);
        self.error_scope(ev, scope);
        self.error_fields(ev, &optional);
        // Forwarded: an `origin` that names a tool (§ 13.1). `null`, an
        // empty string or a non-string names none, so the error is the
        // run's own (found by review: `"origin":null` let `ok:true` pass
        // after a process-scope error).
        let forwarded = origin.is_some_and(|m| {
            matches!(m.kind, Kind::String { .. }) && span(line, &m.value).len() > 2
        });
        if forwarded {
            self.forwarded_errors += 1;
        } else {
            // A forwarded error is reproduced as its upstream wrote it
            // (§ 13.1): what it lacks was advised on the upstream's stream.
            self.error_advice(ev, category, retryable, retry_after, scope, &optional);
        }
        // Only an error that outranks the current worst is copied out.
        let process_scope = scope.is_none_or(|m| !str_is(line, m, "item"));
        // § 9.1: a process-scope error of the run's own ends it; a
        // forwarded one (with origin) ended its upstream's run (§ 13.1).
        // A scope of another value is its own finding (`error.scope`),
        // not also this one's cause.
        let declared = scope.is_none_or(|m| str_is(line, m, "process"));
        if !process_scope && !forwarded {
            self.own_item_errors += 1;
        }
        if declared && !forwarded && self.process_error.is_none() {
            let code = code.and_then(|m| str_value(line, m)).map(|c| keep(&c));
            self.process_error = Some((self.pos, code));
        }
        let rank = Cause::rank_of(process_scope, retryable);
        if self.worst_error.as_ref().is_none_or(|w| rank > w.rank()) {
            self.worst_error = Some(read_cause(line, ev.members, self.pos));
        }
    }

    /// `category`: present, one of § 9.2's, not the removed `partial`.
    fn error_category(&mut self, line: &[u8], category: Option<&Member>) {
        // The usual values, plain strings, are accepted on their bytes;
        // anything else takes the general path.
        let known_category = |m: &Member| {
            plain(line, m)
                .is_some_and(|c| c != b"partial" && spec::category_default_retryable(c).is_some())
        };
        match category {
            None => self.here(RuleId::ErrorCategory, "aoi:error has no category".into()),
            Some(m) if known_category(m) => {}
            Some(m) => match str_ref(line, m) {
                None => self.here(
                    RuleId::ErrorCategory,
                    format!("category is a {}, not a string", m.kind.name()),
                ),
                Some(c) if c == "partial" => self.here(
                    RuleId::ErrorCategoryPartial,
                    "category \"partial\" was removed in v1.0-alpha".into(),
                ),
                Some(c) if spec::category_default_retryable(c.as_bytes()).is_none() => {
                    let hint = if c == "temporary" {
                        " (v0.2's temporary is now unavailable)"
                    } else {
                        ""
                    };
                    self.here(
                        RuleId::ErrorCategoryUnknown,
                        format!("unrecognised category \"{c}\", routed as internal{hint}"),
                    )
                }
                Some(_) => {}
            },
        }
    }

    /// `code`: present, of the form `[A-Z][A-Z0-9_]*` (§ 9.1).
    fn error_code(&mut self, line: &[u8], code: Option<&Member>) {
        match code {
            None => self.here(RuleId::ErrorCode, "aoi:error has no code".into()),
            Some(m) if plain(line, m).is_some_and(spec::valid_code) => {}
            Some(m) => match str_ref(line, m) {
                Some(c) if spec::valid_code(c.as_bytes()) => {}
                Some(c) => self.here(
                    RuleId::ErrorCode,
                    format!("code \"{c}\" does not match [A-Z][A-Z0-9_]*"),
                ),
                None => self.here(
                    RuleId::ErrorCode,
                    format!("code is a {}, not a string", m.kind.name()),
                ),
            },
        }
    }

    /// `message`: present, one line, no terminal control (§ 9.1).
    fn error_message(&mut self, ev: &Ev<'_>, message: Option<&Member>) {
        let line = ev.line;
        match message {
            None => self.here(RuleId::ErrorMessage, "aoi:error has no message".into()),
            // Printable ASCII without escapes has neither line breaks nor
            // ANSI escapes: skip the per-character checks below.
            Some(m)
                if m.kind == (Kind::String { escaped: false }) && printable_ascii(ev.raw(m)) => {}
            Some(m) => match str_ref(line, m) {
                Some(s) if s.contains(['\n', '\r', '\u{2028}', '\u{2029}', '\u{85}']) => {
                    self.here(RuleId::ErrorMessage, "message spans several lines".into())
                }
                Some(s) if s.contains('\u{1b}') => self.here(
                    RuleId::ErrorMessage,
                    "message contains an ANSI escape (\\u001b)".into(),
                ),
                // C1 controls (CSI is \u009b) drive terminals as ESC does.
                Some(s) if s.contains(|c: char| ('\u{80}'..='\u{9f}').contains(&c)) => self.here(
                    RuleId::ErrorMessage,
                    "message contains a C1 control character (\\u0080-\\u009f)".into(),
                ),
                Some(_) => {}
                None => self.here(
                    RuleId::ErrorMessage,
                    format!("message is a {}, not a string", m.kind.name()),
                ),
            },
        }
    }

    /// `retryable`: present and a boolean, authoritative (§ 9.3);
    /// `retry_after_ms` an integer, and only with `retryable:true`.
    fn error_retry(
        &mut self,
        ev: &Ev<'_>,
        retryable: Option<&Member>,
        retry_after: Option<&Member>,
    ) -> Option<bool> {
        let line = ev.line;
        let retryable = match retryable {
            None => {
                self.here(RuleId::ErrorRetryable, "aoi:error has no retryable".into());
                None
            }
            Some(m) => {
                let b = bool_value(m);
                if b.is_none() {
                    self.here(
                        RuleId::ErrorRetryable,
                        format!("retryable is a {}, not a boolean", m.kind.name()),
                    );
                }
                b
            }
        };
        if let Some(m) = retry_after {
            let whole = whole_value(line, m);
            if whole.is_none() {
                self.here(
                    RuleId::ErrorRetryAfter,
                    format!(
                        "retry_after_ms is {}, not an integer >= 0",
                        preview(ev.raw(m))
                    ),
                );
            } else if retryable == Some(false) {
                self.here(
                    RuleId::ErrorRetryAfter,
                    "retry_after_ms with retryable:false".into(),
                );
            } else if whole.is_some_and(|w| !w.plain) {
                self.integer_form("retry_after_ms", ev.raw(m));
            }
        }
        retryable
    }

    /// `number.integer-form`: an integer written `1000.0` or `1e3`.
    pub(super) fn integer_form(&mut self, name: &str, raw: &[u8]) {
        self.here(
            RuleId::NumberIntegerForm,
            format!(
                "{name} is {}: an integer by JSON Schema 2020-12, but written with a fraction or exponent",
                preview(raw)
            ),
        );
    }

    /// The optional fields of § 9.1 in the types of its table, one
    /// finding per field; `upstream` is v0.2's `wrapped`.
    fn error_fields(&mut self, ev: &Ev<'_>, o: &Optional<'_>) {
        let line = ev.line;
        for (name, m) in o.strings {
            if let Some(m) = m.filter(|m| !matches!(m.kind, Kind::String { .. })) {
                self.field_type(ev, name, m, "a string");
            }
        }
        for (name, m) in [("item_index", o.item_index), ("line_number", o.line_number)] {
            let Some(m) = m else { continue };
            match whole_value(line, m) {
                None => self.field_type(ev, name, m, "an integer >= 0"),
                Some(w) if !w.plain => self.integer_form(name, ev.raw(m)),
                Some(_) => {}
            }
        }
        if let Some(m) = o.details.filter(|m| m.kind != Kind::Object) {
            self.field_type(ev, "details", m, "an object");
        }
        if let Some(m) = o.wrapped {
            self.error_wrapped(ev, m);
        }
        if o.upstream.is_some() {
            self.here(
                RuleId::ErrorUpstreamRenamed,
                "aoi:error has \"upstream\", v0.2's name: v1.0-alpha renamed it \"wrapped\" (upstream is the summary's provenance now)".into(),
            );
        }
    }

    /// An `error.field-type` finding: `name` is not `want`.
    fn field_type(&mut self, ev: &Ev<'_>, name: &str, m: &Member, want: &str) {
        self.here(
            RuleId::ErrorFieldType,
            format!("{name} is {}, not {want}", preview(ev.raw(m))),
        );
    }

    /// `wrapped` (§ 9.1): `{protocol, status?, code?}`, `protocol` one of
    /// http, grpc, exit.
    fn error_wrapped(&mut self, ev: &Ev<'_>, m: &Member) {
        if m.kind != Kind::Object {
            return self.field_type(ev, "wrapped", m, "an object {protocol, status?, code?}");
        }
        let obj = ev.raw(m);
        if usual_protocol(obj) {
            return;
        }
        let protocol = wrapped_protocol(obj);
        let msg = match protocol.as_ref() {
            None => "wrapped has no protocol (http, grpc or exit)".to_string(),
            Some(p) => match str_ref(obj, p) {
                Some(v) if spec::WRAPPED_PROTOCOLS.contains(&&*v) => return,
                Some(v) => format!(
                    "wrapped.protocol is \"{}\", not http, grpc or exit",
                    keep(&v)
                ),
                None => format!("wrapped.protocol is a {}, not a string", p.kind.name()),
            },
        };
        self.here(RuleId::ErrorFieldType, msg);
    }

    /// The SHOULDs a stream can show (§ 9.1, § 9.2): a retryable
    /// `rate_limited` error says when, an item error which item.
    fn error_advice(
        &mut self,
        ev: &Ev<'_>,
        category: Option<&Member>,
        retryable: Option<bool>,
        retry_after: Option<&Member>,
        scope: Option<&Member>,
        o: &Optional<'_>,
    ) {
        let line = ev.line;
        let rate_limited = category.is_some_and(|m| str_is(line, m, "rate_limited"));
        if rate_limited && retryable == Some(true) && retry_after.is_none() {
            self.here(
                RuleId::ErrorRetryAfterAbsent,
                "rate_limited, retryable:true, without retry_after_ms".into(),
            );
        }
        let item = scope.is_some_and(|m| str_is(line, m, "item"));
        let target = o.strings.iter().any(|(n, m)| *n == "target" && m.is_some());
        if item && o.item_index.is_none() && o.line_number.is_none() && !target {
            self.here(
                RuleId::ErrorItemUnindexed,
                "scope:\"item\" without item_index, line_number or target: the failed item cannot be told".into(),
            );
        }
    }

    /// `scope`: `process` or `item` when present (§ 9.1).
    fn error_scope(&mut self, ev: &Ev<'_>, scope: Option<&Member>) {
        let line = ev.line;
        let in_scopes = |s: &[u8]| spec::SCOPES.iter().any(|n| n.as_bytes() == s);
        if let Some(m) = scope.filter(|m| !plain(line, m).is_some_and(in_scopes)) {
            let s = str_ref(line, m);
            if !s.as_deref().is_some_and(|s| in_scopes(s.as_bytes())) {
                self.here(
                    RuleId::ErrorScope,
                    format!(
                        "scope is {}, not \"process\" or \"item\"",
                        preview(ev.raw(m))
                    ),
                );
            }
        }
    }

    /// `caused_by` (§ 13.1): an object reproducing the causing error's
    /// retry-critical fields, read as the run's cause.
    pub(super) fn caused_by(&mut self, ev: &Ev<'_>) -> Option<Cause> {
        let m = ev.get("caused_by")?;
        if m.kind != Kind::Object {
            self.here(
                RuleId::SummaryCausedBy,
                format!("caused_by is a {}, not an object", m.kind.name()),
            );
            return None;
        }
        let obj = ev.raw(m);
        let inner: Vec<Member> = object_members(obj).collect();
        let sub = Ev {
            line: obj,
            members: &inner,
        };
        self.caused_by_retry(&sub);
        // It reproduces an aoi:error's fields (§ 13.1), in their
        // forms (§ 9.1, § 9.2), each once: a consumer reading the
        // last of two `retryable`s would retry what this judge
        // reads as final, or the reverse.
        if let Some(dup) = duplicate_key(obj, &inner) {
            self.here(
                RuleId::SummaryCausedBy,
                format!("caused_by has \"{}\" more than once", keep(&dup)),
            );
        }
        self.caused_by_forms(&sub);
        Some(read_cause(obj, &inner, 0))
    }

    /// `caused_by.retryable` present and a boolean, `retry_after_ms` an
    /// integer and only with a retryable cause (§ 9.3).
    fn caused_by_retry(&mut self, sub: &Ev<'_>) {
        if let Some(r) = sub.get("retryable") {
            if bool_value(r).is_none() {
                self.here(
                    RuleId::SummaryCausedBy,
                    "caused_by.retryable is not a boolean".into(),
                );
            }
        }
        if let Some(r) = sub.get("retry_after_ms") {
            if whole_value(sub.line, r).is_none() {
                self.here(
                    RuleId::SummaryCausedBy,
                    "caused_by.retry_after_ms is not an integer >= 0".into(),
                );
            } else if sub.get("retryable").and_then(bool_value) == Some(false) {
                self.here(
                    RuleId::SummaryCausedBy,
                    "caused_by has retry_after_ms with retryable:false".into(),
                );
            }
        }
        if sub.get("retryable").is_none() {
            self.here(
                RuleId::SummaryCausedBy,
                "caused_by lacks retryable, the retry-critical field it must reproduce".into(),
            );
        }
    }

    /// `caused_by.code` of the § 9.1 form and `category` not the removed
    /// `partial` (§ 9.2).
    fn caused_by_forms(&mut self, sub: &Ev<'_>) {
        if let Some(m) = sub.get("code") {
            match str_ref(sub.line, m) {
                Some(c) if spec::valid_code(c.as_bytes()) => {}
                Some(c) => self.here(
                    RuleId::SummaryCausedBy,
                    format!(
                        "caused_by.code \"{}\" does not match [A-Z][A-Z0-9_]*",
                        keep(&c)
                    ),
                ),
                None => self.here(
                    RuleId::SummaryCausedBy,
                    format!("caused_by.code is a {}, not a string", m.kind.name()),
                ),
            }
        }
        if let Some(m) = sub.get("category") {
            match str_ref(sub.line, m) {
                Some(c) if c == "partial" => self.here(
                    RuleId::SummaryCausedBy,
                    "caused_by.category \"partial\" was removed in v1.0-alpha".into(),
                ),
                Some(_) => {}
                None => self.here(
                    RuleId::SummaryCausedBy,
                    format!("caused_by.category is a {}, not a string", m.kind.name()),
                ),
            }
        }
    }
}
