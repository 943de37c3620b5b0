//! What the report holds per stream: an [`Entry`] judged or carried from
//! an earlier report, its `aoi:check` events, and aoi's own failures
//! ([`Own`]). Every format writes from these.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::judge::{Cause, Finding, Outcome, Verdict};
use crate::out::{cause_json, upstream_identity};
use crate::spec::exit::Code;

/// Findings kept per stream (shown on stderr, carried into JUnit/TAP).
pub(super) const SHOWN: usize = 5;
/// `aoi:check` events kept per stream (the rest are counted).
pub(super) const MAX_CHECKS: usize = 1000;
/// Characters kept of a check's name, severity or detail (with `…`).
pub(super) const MAX_TEXT: usize = 500;

/// One `aoi:check` of a stream (§ 8.3), for JUnit.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Check {
    pub(super) name: String,
    pub(super) ok: bool,
    pub(super) severity: Option<String>,
    pub(super) detail: Option<String>,
    /// `properties.status` as `aoi lint` writes it (`not_tested`,
    /// `not_applicable`): a check that was not run, neither passed nor
    /// failed.
    pub(super) status: Option<String>,
    /// `properties.command`: what the check was run on (`aoi lint` runs
    /// each check once per command of the tool, under one name).
    pub(super) command: Option<String>,
}

impl Check {
    /// An `aoi:check` event as the report keeps it; `None` without a name.
    /// Texts capped, so a report line stays far below any line limit.
    pub(super) fn from_event(v: &Value) -> Option<Check> {
        let s = |p: &str| {
            v.pointer(p)
                .and_then(Value::as_str)
                .map(|t| cap(t, MAX_TEXT))
        };
        Some(Check {
            name: s("/name")?,
            ok: v.get("ok").and_then(Value::as_bool).unwrap_or(false),
            severity: s("/severity"),
            detail: s("/detail"),
            status: s("/properties/status"),
            command: s("/properties/command"),
        })
    }

    /// The check was not run (`aoi lint`'s `not_tested` and
    /// `not_applicable`): JUnit's `skipped`.
    pub(super) fn not_run(&self) -> bool {
        matches!(
            self.status.as_deref(),
            Some("not_tested" | "not_applicable")
        )
    }

    /// A failed check of error severity (or none said): in a failed run,
    /// one of the failures it reports. A warning or info that failed is
    /// told, never counted.
    pub(super) fn fails(&self) -> bool {
        !self.ok && !self.not_run() && self.severity.as_deref().is_none_or(|s| s == "error")
    }
}

/// One stream's line in the merged report.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    pub(super) source: String,
    pub(super) run: Option<String>,
    pub(super) identity: [(&'static str, Option<String>); 4],
    pub(super) outcome: Outcome,
    pub(super) exit_code: Code,
    pub(super) reason: String,
    pub(super) lines: u64,
    pub(super) domain: u64,
    pub(super) warnings: u64,
    pub(super) errors: u64,
    pub(super) violations: u64,
    pub(super) caused_by: Option<Value>,
    pub(super) elapsed_ms: Option<f64>,
    pub(super) checks: Vec<Check>,
    pub(super) checks_dropped: u64,
    /// Failed checks, those past the cap included.
    pub(super) checks_failed: u64,
    pub(super) findings: Vec<String>,
}

pub(super) const IDENTITY: [&str; 4] = ["tool", "tool_version", "schema_name", "schema_version"];

impl Entry {
    pub(super) fn from_verdict(
        source: &str,
        run: Option<String>,
        v: &Verdict,
        checks: Checks,
        findings: &[Finding],
    ) -> Self {
        let id = upstream_identity(v);
        Entry {
            source: source.to_string(),
            run,
            identity: [
                ("tool", id.tool),
                ("tool_version", id.tool_version),
                ("schema_name", id.schema_name),
                ("schema_version", id.schema_version),
            ],
            outcome: v.outcome,
            exit_code: Code::of(v.exit_code),
            reason: v.reason.clone(),
            lines: v.lines,
            domain: v.domain_events,
            warnings: v.warnings,
            errors: v.errors,
            violations: v.violations + v.incompletes,
            // A stream that broke the contract or was cut failed for that,
            // whatever error it carried: a retry does not mend it (as
            // `check`, `summary`, `errors` and `filter` report it).
            caused_by: if v.exit_code != 0 {
                own_cause(v.outcome).or_else(|| v.cause.as_ref().map(cause_json))
            } else {
                None
            },
            elapsed_ms: v.summary.as_ref().and_then(|s| s.elapsed_ms),
            checks: checks.kept,
            checks_dropped: checks.dropped,
            checks_failed: checks.failed,
            findings: findings_kept(findings),
        }
    }

    pub(super) fn tool(&self) -> Option<&str> {
        self.identity[0].1.as_deref()
    }

    /// Which stream this is: its file and run, "a.jsonl run 01J…".
    pub(super) fn who(&self) -> String {
        match &self.run {
            Some(r) => format!("{} run {r}", self.source),
            None => self.source.clone(),
        }
    }

    /// Its warning, error and violation counts, in words.
    pub(super) fn counts(&self) -> String {
        format!(
            "{} warning(s), {} error(s), {} violation(s)",
            self.warnings, self.errors, self.violations
        )
    }

    /// Its `aoi:check` events in one phrase, for the formats that do not
    /// list them: how many failed (a detail of the run, not its verdict)
    /// and how many are past the cap; `None` when all passed and all are
    /// listed.
    pub(super) fn checks_note(&self) -> Option<String> {
        if self.checks_failed == 0 && self.checks_dropped == 0 {
            return None;
        }
        let total = self.checks.len() as u64 + self.checks_dropped;
        let mut s = format!("{} of {total} aoi:check failed", self.checks_failed);
        if self.checks_dropped > 0 {
            let _ = write!(
                s,
                ", {} past the {} listed",
                self.checks_dropped,
                self.checks.len()
            );
        }
        Some(s)
    }

    /// The first finding of a broken or cut stream, with how many others
    /// it had: the rule, line and message that explain its outcome.
    pub(super) fn first_finding(&self) -> Option<String> {
        let first = self.findings.first()?;
        let all = (self.findings.len() as u64).max(self.violations);
        Some(match all.saturating_sub(1) {
            0 => first.clone(),
            n => format!("{first} (and {n} other finding(s))"),
        })
    }

    /// The cause column of the table and Markdown: why it failed (for a
    /// broken or cut stream, its first finding too), and its checks' note.
    pub(super) fn cause_cell(&self) -> String {
        let mut cause = cause_text(self);
        let broken = matches!(self.outcome, Outcome::Violation | Outcome::Incomplete);
        if let Some(first) = self.first_finding().filter(|_| broken) {
            if !cause.is_empty() {
                cause.push_str(": ");
            }
            cause.push_str(&first);
        }
        match (cause.is_empty(), self.checks_note()) {
            (_, None) => cause,
            (true, Some(n)) => n,
            (false, Some(n)) => format!("{cause}; {n}"),
        }
    }

    /// The members of this entry's `report` event.
    pub(super) fn fields(&self) -> Vec<(&'static str, Value)> {
        let mut f: Vec<(&str, Value)> = vec![("source", self.source.clone().into())];
        if let Some(r) = &self.run {
            f.push(("run", r.clone().into()));
        }
        for (k, v) in &self.identity {
            if let Some(v) = v {
                f.push((k, v.clone().into()));
            }
        }
        f.push(("outcome", self.outcome.name().into()));
        f.push(("exit_code", self.exit_code.into()));
        f.push(("ok", self.exit_code.is_ok().into()));
        f.push(("reason", self.reason.clone().into()));
        f.push(("lines", self.lines.into()));
        f.push(("domain_count", self.domain.into()));
        f.push(("warning_count", self.warnings.into()));
        f.push(("error_count", self.errors.into()));
        f.push(("violation_count", self.violations.into()));
        if let Some(c) = &self.caused_by {
            f.push(("caused_by", c.clone()));
        }
        if let Some(ms) = self.elapsed_ms {
            f.push(("elapsed_ms", crate::judge::ms_json(ms)));
        }
        if !self.checks.is_empty() {
            let checks: Vec<Value> = self
                .checks
                .iter()
                .map(|c| {
                    let mut m = Map::new();
                    m.insert("name".into(), c.name.clone().into());
                    m.insert("ok".into(), c.ok.into());
                    if let Some(s) = &c.severity {
                        m.insert("severity".into(), s.clone().into());
                    }
                    if let Some(d) = &c.detail {
                        m.insert("detail".into(), d.clone().into());
                    }
                    if let Some(st) = &c.status {
                        m.insert("status".into(), st.clone().into());
                    }
                    if let Some(cmd) = &c.command {
                        m.insert("command".into(), cmd.clone().into());
                    }
                    Value::Object(m)
                })
                .collect();
            f.push(("checks", Value::Array(checks)));
        }
        if self.checks_dropped > 0 {
            f.push(("checks_dropped", self.checks_dropped.into()));
        }
        if self.checks_failed > 0 {
            f.push(("checks_failed", self.checks_failed.into()));
        }
        if !self.findings.is_empty() {
            f.push(("findings", self.findings.clone().into()));
        }
        f
    }

    /// An entry carried from an earlier merge's `report` event. One that
    /// does not hold together (a field missing or of the wrong type, an
    /// unknown outcome, an exit code that is not its outcome's, `ok`
    /// against the exit code) is not believed, nor dropped: it is carried
    /// as a `violation` saying why, so a forged or damaged report fails the
    /// merge instead of passing (an `exit_code` of -1 made the process exit
    /// 0 beside `ok:false`).
    pub(super) fn from_report(v: &Value) -> Entry {
        Entry::carried(v).unwrap_or_else(|why| {
            let s = |k: &str| v.get(k).and_then(Value::as_str).map(|t| cap(t, MAX_TEXT));
            let outcome = Outcome::Violation;
            Entry {
                source: s("source").unwrap_or_else(|| "(unnamed)".to_string()),
                run: s("run"),
                identity: IDENTITY.map(|k| (k, s(k))),
                outcome,
                exit_code: Code::of(outcome.exit_code()),
                reason: format!("a carried report event does not hold together: {why}"),
                lines: 0,
                domain: 0,
                warnings: 0,
                errors: 0,
                violations: 1,
                caused_by: own_cause(outcome),
                elapsed_ms: None,
                checks: Vec::new(),
                checks_dropped: 0,
                checks_failed: 0,
                findings: Vec::new(),
            }
        })
    }

    /// [`Entry::from_report`] for a report that holds together; else why not.
    pub(super) fn carried(v: &Value) -> Result<Entry, String> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let n = |k: &str| {
            v.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("no {k} (an integer >= 0)"))
        };
        let outcome = s("outcome")
            .and_then(|o| Outcome::from_name(&o))
            .ok_or("no known outcome")?;
        let exit_code = v.get("exit_code").and_then(Value::as_i64);
        if exit_code != Some(i64::from(outcome.exit_code())) {
            return Err(format!(
                "exit_code {} is not outcome {}'s {}",
                v.get("exit_code")
                    .map_or("absent".to_string(), Value::to_string),
                outcome.name(),
                outcome.exit_code()
            ));
        }
        let exit_code = outcome.exit_code();
        if let Some(ok) = v.get("ok") {
            if ok.as_bool() != Some(exit_code == 0) {
                return Err(format!("ok is {ok} with exit_code {exit_code}"));
            }
        }
        let checks: Vec<Check> = v
            .get("checks")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|c| {
                        Some(Check {
                            name: c.get("name")?.as_str()?.to_string(),
                            ok: c.get("ok")?.as_bool()?,
                            severity: c
                                .get("severity")
                                .and_then(Value::as_str)
                                .map(str::to_string),
                            detail: c.get("detail").and_then(Value::as_str).map(str::to_string),
                            status: c.get("status").and_then(Value::as_str).map(str::to_string),
                            command: c.get("command").and_then(Value::as_str).map(str::to_string),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let listed_failed = checks.iter().filter(|c| !c.ok).count() as u64;
        Ok(Entry {
            source: s("source").ok_or("no source")?,
            run: s("run"),
            identity: IDENTITY.map(|k| (k, s(k))),
            outcome,
            exit_code: Code::of(exit_code),
            reason: s("reason").unwrap_or_default(),
            lines: n("lines")?,
            domain: n("domain_count")?,
            warnings: n("warning_count")?,
            errors: n("error_count")?,
            violations: n("violation_count")?,
            caused_by: v.get("caused_by").filter(|c| c.is_object()).cloned(),
            elapsed_ms: v
                .get("elapsed_ms")
                .and_then(Value::as_f64)
                .filter(|ms| *ms >= 0.0),
            checks,
            checks_dropped: n("checks_dropped").unwrap_or(0),
            checks_failed: n("checks_failed").unwrap_or(listed_failed),
            findings: v
                .get("findings")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}

/// `caused_by` for a stream that failed by itself (cut or broken): the
/// judge's finding, as aoi reports its own failures.
pub(super) fn own_cause(outcome: Outcome) -> Option<Value> {
    let (category, code) = outcome.own_failure()?;
    Some(cause_json(&Cause::own(category, code)))
}

/// A failure of aoi's own (an input it could not read, one without a
/// stream, runs past the limit), or one carried from an earlier merge.
#[derive(Debug, Clone)]
pub(super) struct Own {
    pub(super) category: String,
    pub(super) code: String,
    pub(super) message: String,
    pub(super) target: String,
    pub(super) exit: Code,
}

impl Own {
    pub(super) fn new(
        category: &str,
        code: &str,
        message: String,
        target: String,
        exit: Code,
    ) -> Self {
        Own {
            category: category.to_string(),
            code: code.to_string(),
            message,
            target,
            exit,
        }
    }

    /// An earlier merge-report's own `aoi:error`, carried (the exit code
    /// follows from its code: an unreadable input is 66, the rest 74).
    pub(super) fn from_event(v: &Value) -> Option<Own> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let code = s("code")?;
        let exit = match code.as_str() {
            "INPUT_UNREADABLE" => Code::NOINPUT,
            "NO_AOI_STREAM" | "TOO_MANY_RUNS" => Code::IOERR,
            _ => return None,
        };
        Some(Own {
            category: s("category").unwrap_or_else(|| "io".into()),
            code,
            message: s("message").unwrap_or_default(),
            target: s("target").unwrap_or_default(),
            exit,
        })
    }
}

/// The `aoi:check` events of one stream.
#[derive(Default)]
pub(super) struct Checks {
    pub(super) kept: Vec<Check>,
    pub(super) dropped: u64,
    pub(super) failed: u64,
}

/// `s` cut to `n` characters, with `…` when cut.
pub(super) fn cap(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut t: String = s.chars().take(n).collect();
    t.push('…');
    t
}

/// The entries worst first (the exit table's order: the most severe exit
/// first), in order of input among equals; passing runs last.
pub(super) fn worst_first(entries: &[Entry]) -> Vec<&Entry> {
    let mut sorted: Vec<&Entry> = entries.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.exit_code.rank()));
    sorted
}

/// A one-line description of why a stream failed.
pub(super) fn cause_text(e: &Entry) -> String {
    if e.exit_code.is_ok() {
        return String::new();
    }
    let Some(c) = &e.caused_by else {
        return e.reason.clone();
    };
    let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("?");
    let mut t = format!("{} {}", s("category"), s("code"));
    match (
        c.get("retryable").and_then(Value::as_bool),
        c.get("retry_after_ms").and_then(Value::as_u64),
    ) {
        (Some(true), Some(ms)) => {
            let _ = write!(t, ", retry after {:.1} s", ms as f64 / 1000.0);
        }
        (Some(true), None) => t.push_str(", retry may help"),
        _ => {}
    }
    t
}

/// The findings a report keeps of a stream, violations before advisories
/// (the first is the cause a reader is shown), each with its line:
/// `line 3: seq.gap: expected aoi.seq 1, found 2`.
fn findings_kept(findings: &[Finding]) -> Vec<String> {
    let mut sorted: Vec<&Finding> = findings.iter().collect();
    sorted.sort_by_key(|f| f.rule.rule().severity == crate::rules::Severity::Advisory);
    sorted
        .into_iter()
        .take(SHOWN)
        .map(|f| match f.line {
            0 => format!("{}: {}", f.rule.id(), f.message),
            n => format!("line {n}: {}: {}", f.rule.id(), f.message),
        })
        .collect()
}
