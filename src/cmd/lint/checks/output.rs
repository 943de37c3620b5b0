//! The checks read off the machine-mode run's own stdout and exit status,
//! with no probe of their own: typed output (2), the terminal summary
//! (3), framework events against the declared schema (4), `schema_version`
//! (13), one meta and one summary (14), `seq` and `run` (15).

use serde_json::Value;

use super::Invocation;
use crate::cmd::lint::result::{CheckResult, Status};
use crate::cmd::lint::stream::{Judged, from_findings, judge_bytes};
use crate::spec::types;
use crate::validator::EventSchema;

/// 2: every line is a JSON object with a string type.
pub(super) fn typed_output(inv: &Invocation) -> CheckResult {
    if let Some(r) = inv.streamless(2) {
        return r;
    }
    from_findings(
        2,
        inv.command,
        &inv.j,
        "every line is a JSON object with a string type",
    )
}

/// 3: the terminal summary agrees with the exit status; a hung run fails.
pub(super) fn terminal_summary(inv: &Invocation) -> CheckResult {
    let (main, j) = (&inv.main, &inv.j);
    // A usage error before the stream is allowed (§ 2): no summary to
    // judge, not a missing one.
    if inv.no_stream.is_some() && main.exit() != 0 && super::usage_error(main) {
        return inv
            .streamless(3)
            .unwrap_or_else(|| inv.outcome(3, Status::NotTested, ""));
    }
    let mut o = from_findings(3, inv.command, j, "");
    if main.held {
        o = inv.outcome(3, Status::Fail, main.status());
    } else if main.timed_out {
        o = inv.outcome(
            3,
            Status::Fail,
            format!(
                "the invocation did not finish within {:?}: a hung tool",
                inv.args.timeout
            ),
        );
    } else if o.status == Status::Pass {
        let sum_ok = j.verdict.summary.as_ref().and_then(|s| s.ok);
        o = exit_against_summary(inv, main.exit(), sum_ok);
    }
    let run_evidence = format!(
        "invocation: {} ({} line(s) on stdout)",
        main.status(),
        j.verdict.lines
    );
    let mut ev = o.evidence.clone();
    ev.insert(0, run_evidence);
    o.with(ev)
}

/// Exit 0 with `ok:true`, non-zero with `ok:false` (§ 8.1).
fn exit_against_summary(inv: &Invocation, code: i32, ok: Option<bool>) -> CheckResult {
    match (code, ok) {
        (0, Some(true)) => inv.outcome(
            3,
            Status::Pass,
            "exit 0 with a terminal aoi:summary ok:true",
        ),
        (0, Some(false)) => inv.outcome(3, Status::Fail, "exit 0 but the summary says ok:false"),
        (c, Some(false)) => inv.outcome(
            3,
            Status::Pass,
            format!("exit {c} with a terminal aoi:summary ok:false"),
        ),
        (c, Some(true)) => inv.outcome(
            3,
            Status::Fail,
            format!("exit {c} but the summary says ok:true"),
        ),
        (c, None) => inv.outcome(
            3,
            Status::Fail,
            format!("exit {c} without a terminal aoi:summary"),
        ),
    }
}

/// 4: framework events against the declared schema.
pub(super) fn schema_valid_events(inv: &Invocation) -> CheckResult {
    if let Some(r) = inv.streamless(4) {
        return r;
    }
    let Some(schema) = &inv.d.schema else {
        return inv.outcome(4, Status::NotTested, "no usable schema (check 1)");
    };
    // Check 1 compiled it already; with the same validator this cannot fail.
    let schema = match EventSchema::from_value(schema) {
        Ok(s) => s,
        Err(why) => return inv.outcome(4, Status::NotTested, why),
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    for (i, e) in inv.j.events.iter().enumerate() {
        let ty = e.get("type").and_then(Value::as_str).unwrap_or_default();
        if matches!(
            ty,
            types::META | types::SUMMARY | types::WARNING | types::ERROR | types::CHECK
        ) {
            checked += 1;
            if let Some(p) = schema.problem(e) {
                problems.push(format!("event {} ({ty}): {}", i + 1, p));
            }
        }
    }
    let pass = format!("{checked} framework event(s) valid against the declared schema");
    let o = from_findings(4, inv.command, &inv.j, &pass);
    if problems.is_empty() {
        return o;
    }
    inv.outcome(
        4,
        Status::Fail,
        format!(
            "{} problem(s), first: {}",
            problems.len(),
            problems.first().cloned().unwrap_or_default()
        ),
    )
    .with(problems)
}

/// 13: `schema_version` on `aoi:meta`, and honoured when negotiated
/// (`--schema-version`, § 16.1): asked for a version the capabilities
/// list (another than the one reported, when they list more), the run
/// must report it.
pub(super) fn schema_version(inv: &Invocation) -> CheckResult {
    if let Some(r) = inv.streamless(13) {
        return r;
    }
    let j = &inv.j;
    let o = from_findings(13, inv.command, j, "");
    // The meta wherever it is: one out of place is check 14's finding.
    let meta = j.events.iter().find(|e| e["type"] == types::META);
    let reported = meta
        .and_then(|m| m.get("schema_version"))
        .and_then(Value::as_str);
    let v = match reported {
        _ if o.status == Status::Fail => return o,
        None if meta.is_none() => {
            return inv.outcome(
                13,
                Status::Fail,
                "the stream has no aoi:meta to report schema_version (check 14)",
            );
        }
        None => return inv.outcome(13, Status::Fail, "aoi:meta has no schema_version"),
        Some(v) => v,
    };
    if let Some(missing) = identity_missing(j) {
        return inv.outcome(
            13,
            Status::Fail,
            format!("{missing} (§ 5: meta and summary MUST each carry the identity triple to claim Versioned; found by review)"),
        );
    }
    let said = format!("aoi:meta says schema_version {v}");
    if let Err(mut r) = inv.may_probe(13, "negotiating --schema-version") {
        r.detail = format!("{said}; negotiation {}", r.detail);
        return r.with(o.evidence);
    }
    negotiated(inv, v, &said).with(o.evidence)
}

/// What of the identity triple (§ 5: tool_version, aoi_version,
/// schema_version) the meta or the terminal summary lacks, if anything.
fn identity_missing(j: &Judged) -> Option<String> {
    const TRIPLE: [&str; 3] = ["tool_version", "aoi_version", "schema_version"];
    let meta = j.events.iter().find(|e| e["type"] == types::META);
    let summary = j.events.iter().rev().find(|e| e["type"] == types::SUMMARY);
    [(types::META, meta), (types::SUMMARY, summary)]
        .into_iter()
        .filter_map(|(name, e)| {
            let e = e?;
            let lacks: Vec<&str> = TRIPLE
                .iter()
                .copied()
                .filter(|k| e.get(*k).is_none())
                .collect();
            (!lacks.is_empty()).then(|| format!("{name} lacks {}", lacks.join(", ")))
        })
        .reduce(|a, b| format!("{a}; {b}"))
}

/// Check 13's negotiation: `--schema-version V` for a version the
/// capabilities list (another than `reported` when they list more).
fn negotiated(inv: &Invocation, reported: &str, said: &str) -> CheckResult {
    let listed = listed_versions(inv);
    let ask = listed
        .iter()
        .find(|v| v.as_str() != reported)
        .map_or(reported, String::as_str)
        .to_string();
    let p = inv.run_with(&["--schema-version", &ask]);
    let got = judge_bytes(&p.stdout)
        .events
        .first()
        .filter(|e| e["type"] == types::META)
        .and_then(|m| m["schema_version"].as_str().map(String::from));
    let asked = &ask;
    match (super::usage_refused(&p), got) {
        (true, _) if listed.len() > 1 => inv.outcome(
            13,
            Status::Fail,
            format!(
                "the capabilities list schema versions {}, but --schema-version {asked} is refused ({})",
                listed.join(", "),
                super::status_said(&p)
            ),
        ),
        (true, _) => inv.outcome(
            13,
            Status::NotTested,
            format!(
                "{said}; negotiation is not offered (--schema-version {asked}: {}), so whether it is honoured is not tested",
                super::status_said(&p)
            ),
        ),
        (false, Some(g)) if g == ask && ask != reported => inv.outcome(
            13,
            Status::Pass,
            format!("{said}; --schema-version {asked} honoured"),
        ),
        // Asked for the version it reports anyway: only refusing one it
        // does not have shows the flag is read (found by review).
        (false, Some(g)) if g == ask => unknown_version(inv, said, asked),
        (false, Some(g)) => inv.outcome(
            13,
            Status::Fail,
            format!(
                "asked --schema-version {asked}, it reported schema_version {} (§ 18.2 #13: honoured when negotiated)",
                g
            ),
        ),
        (false, None) => inv.outcome(
            13,
            Status::NotTested,
            format!(
                "{said}; --schema-version {asked} gave no aoi:meta to show the version it took ({})",
                super::status_said(&p)
            ),
        ),
    }
}

/// Check 13 when the version asked for is the one reported: a version no
/// tool has must then be refused, or the flag shows nothing.
fn unknown_version(inv: &Invocation, said: &str, asked: &str) -> CheckResult {
    const NONE: &str = "0.0.0-aoi-lint-unknown";
    let p = inv.run_with(&["--schema-version", NONE]);
    if super::usage_refused(&p) || p.exit() != 0 && p.exit() != inv.main.exit() {
        inv.outcome(
            13,
            Status::Pass,
            format!(
                "{said}; --schema-version {asked} honoured, and {NONE} refused ({})",
                super::status_said(&p)
            ),
        )
    } else {
        inv.outcome(
            13,
            Status::NotTested,
            format!(
                "{said}; --schema-version {asked} and {NONE} are both taken ({}): the flag is ignored or not offered, so negotiation does not show",
                p.status()
            ),
        )
    }
}

/// The schema versions the capabilities list (`schemas[].versions`).
fn listed_versions(inv: &Invocation) -> Vec<String> {
    let schemas = inv.d.caps.as_ref().and_then(|c| c.get("schemas"));
    schemas
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| s.get("versions")?.as_array())
        .flatten()
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

/// 14: one `aoi:meta` first, one `aoi:summary` last.
pub(super) fn one_meta_one_summary(inv: &Invocation) -> CheckResult {
    if let Some(r) = inv.streamless(14) {
        return r;
    }
    let j = &inv.j;
    let framed =
        j.verdict.summary.is_some() && j.events.first().is_some_and(|e| e["type"] == types::META);
    from_findings(
        14,
        inv.command,
        j,
        if framed {
            "one aoi:meta first, one aoi:summary last"
        } else {
            // Not "one summary last" of a stream without one: that it is
            // missing is check 3's (or the stream's) finding.
            "no aoi:meta or aoi:summary repeated or out of place"
        },
    )
}

/// 15: `seq` contiguous from 0 under one `run`, reconciled with
/// `event_count`; not applicable where Verifiable is not claimed.
pub(super) fn seq_and_run(inv: &Invocation) -> CheckResult {
    if let Some(r) = inv.streamless(15) {
        return r;
    }
    let j = &inv.j;
    // Lines that are no event (check 2), or a second meta or summary
    // (check 14, a forwarded upstream's), also make the line count differ
    // from event_count and the domain count from count: that is their
    // finding, not a second one.
    let frames = |ty: &str| j.events.iter().filter(|e| e["type"] == ty).count();
    let untyped = j.findings.iter().any(|f| f.rule.check() == 2)
        || frames(types::META) > 1
        || frames(types::SUMMARY) > 1;
    let jf = Judged {
        verdict: j.verdict.clone(),
        findings: j
            .findings
            .iter()
            .filter(|f| {
                !(untyped && matches!(f.rule.id(), "summary.event-count" | "summary.count"))
            })
            .cloned()
            .collect(),
        events: j.events.clone(),
    };
    let o = from_findings(
        15,
        inv.command,
        &jf,
        "seq contiguous from 0 under one run, reconciled with event_count",
    );
    let has_seq = j.events.iter().any(|e| e["aoi"]["seq"].is_u64());
    if o.status != Status::Pass || !has_seq {
        return match has_seq {
            true => o,
            false => inv
                .outcome(
                    15,
                    Status::NotApplicable,
                    "no seq: the Verifiable factor is not claimed",
                )
                .with(o.evidence),
        };
    }
    let summary = j.events.iter().rev().find(|e| e["type"] == types::SUMMARY);
    let why = match summary {
        None => "no aoi:summary to reconcile it with (check 3)",
        Some(s) if s.get("event_count").is_none() => {
            "the aoi:summary has no event_count to reconcile it with (§ 8.3; found by review)"
        }
        Some(_) => return o,
    };
    inv.outcome(
        15,
        Status::NotTested,
        format!("seq contiguous from 0 under one run; {why}"),
    )
    .with(o.evidence)
}
