//! `aoi lint`: the conformance checks of § 18, run against a tool.
//!
//! A tool is checked the way an agent meets it: as a black box. One
//! machine-mode invocation (`TOOL ARGS --output jsonl`) is run and its
//! stdout judged by the same [`Judge`] as `aoi check`; around it, probes:
//! discovery in an environment reduced to `PATH` (check 1), a malformed
//! usage (5), a secret-looking argument (9), an early pipe close and
//! SIGINT/SIGTERM mid-run (10), `--limit` (11), malformed input (12) and a
//! known upstream stream (16) for commands whose capabilities say they read
//! JSON Lines, and with `--allow-side-effects` the confirmation and dry-run
//! of destructive commands (6). Every probe runs in its own process group
//! under a timeout; a probe that outlives it is killed and is a finding.
//!
//! Results are per (check × command) (§ 18.1): pass, fail, not applicable
//! (the capabilities say the check does not concern the command) or not
//! tested (a black box does not allow it, or the probe could not decide),
//! always with why.
//!
//! This file holds the order: discovery once per tool, then the checks of
//! each invocation, then the report. What each step does is in its own
//! file.
//!
//! [`Judge`]: crate::judge::Judge

use serde_json::{Value, json};

use crate::cli::LintArgs;
use crate::judge::preview;
use crate::out::{eprint_line, sanitize};
use crate::rules::Severity;
use crate::spec::exit;

mod caps;
mod catalog;
mod discover;
mod feeds;
mod invocation;
mod outcome;
mod pipes;
mod probe;
mod report;
mod stream;
mod validate;

pub use catalog::{CHECKS, Check};

use caps::{caps_command, flag, reads_jsonl, unread_caps};
use discover::{Discovery, discover};
use feeds::{malformed_stream, upstream_stream};
use outcome::{Outcome, Status};
use probe::{Probe, ProbeOpts, excerpt, run_probe, stack_trace};
use report::Linted;
use stream::{Judged, evidence_of, from_findings, judge_bytes};
use validate::{short, unchecked_keywords, validate};

/// Runs `aoi lint`; returns the exit status.
pub fn run(args: &LintArgs) -> i32 {
    let linted = if args.lint_self {
        lint_self(args)
    } else {
        lint_tool(args)
    };
    match linted {
        Ok(l) => report::report(args, &l),
        Err(code) => code,
    }
}

/// `--self`: aoi's own binary, discovered once, then every command of it
/// that writes a stream, fed the example search.
fn lint_self(args: &LintArgs) -> Result<Linted, i32> {
    let exe = match std::env::current_exe() {
        Ok(p) => p.display().to_string(),
        Err(e) => {
            eprint_line(
                false,
                &format!("aoi lint: cannot find aoi's own binary: {e}"),
            );
            return Err(exit::SOFTWARE);
        }
    };
    let d = discover(std::slice::from_ref(&exe), args);
    let mut results = vec![d.outcome.clone()];
    let mut commands = Vec::new();
    for (c, a) in invocation::self_invocations() {
        let mut argv = vec![exe.clone()];
        argv.extend(a);
        let stdin = Some(feeds::SELF_INPUT.to_vec());
        results.extend(lint_invocation(args, &argv, &c, stdin, &d));
        commands.push(c);
    }
    Ok(Linted {
        title: "aoi (--self)".to_string(),
        results,
        commands,
    })
}

/// The invocation after `--`: the tool discovered, then the invocation's
/// checks.
fn lint_tool(args: &LintArgs) -> Result<Linted, i32> {
    let t = invocation::target(args)?;
    let title = sanitize(&t.argv.join(" "));
    let d = discover(&t.prefix, args);
    let mut results = vec![d.outcome.clone()];
    let mut checks = lint_invocation(args, &t.argv, &t.command, t.stdin, &d);
    if let (Some(why), Some(typed)) = (t.broke, checks.iter_mut().find(|o| o.number == 2)) {
        typed.evidence.insert(0, why);
    }
    results.extend(checks);
    Ok(Linted {
        title,
        results,
        commands: vec![t.command],
    })
}

/// Lints one invocation; `discovery` is shared by all of a tool's commands.
fn lint_invocation(
    args: &LintArgs,
    argv: &[String],
    command: &str,
    stdin: Option<Vec<u8>>,
    d: &Discovery,
) -> Vec<Outcome> {
    let (mut out, version) = judge_invocation(args, argv, command, stdin, d);
    if let Some(v) = version {
        another_version(&mut out, &v);
    }
    out
}

/// A tool that writes another AOI version (`version.unsupported`, check
/// 2's one finding) is not judged by AOI 1's rules: the checks that read
/// its streams say "not tested" rather than fail on another version's
/// meanings (issue 25). Discovery (1) and `schema_version` (13) stand.
fn another_version(out: &mut [Outcome], version: &str) {
    for o in out.iter_mut() {
        if matches!(o.number, 1 | 2 | 13) || o.status == Status::NotApplicable {
            continue;
        }
        o.status = Status::NotTested;
        o.detail = format!(
            "the tool writes aoi_version \"{}\", not AOI 1.x (check 2): its streams are not judged by AOI 1's rules",
            sanitize(version)
        );
    }
}

/// The checks of one invocation, and the `aoi_version` of another AOI
/// version when its stream declares one.
fn judge_invocation(
    args: &LintArgs,
    argv: &[String],
    command: &str,
    stdin: Option<Vec<u8>>,
    d: &Discovery,
) -> (Vec<Outcome>, Option<String>) {
    let t = args.timeout;
    let caps_cmd = caps_command(d.caps.as_ref(), command);
    let base = ProbeOpts {
        stdin: stdin.clone(),
        ..ProbeOpts::default()
    };
    let main = run_probe(argv, &base, t);
    let mut out = Vec::new();
    if let Some(e) = &main.spawn_error {
        for n in CHECKS.iter().filter(|c| c.number != 1).map(|c| c.number) {
            out.push(Outcome::new(
                n,
                command,
                Status::NotTested,
                format!("the invocation could not run: {e}"),
            ));
        }
        return (out, None);
    }
    let j = judge_bytes(&main.stdout);
    let version = j
        .findings
        .iter()
        .any(|f| f.rule.id() == "version.unsupported")
        .then(|| {
            let meta = j.events.first().filter(|e| e["type"] == "aoi:meta");
            meta.and_then(|m| m["aoi_version"].as_str())
                .unwrap_or("?")
                .to_string()
        });
    let run_evidence = format!(
        "invocation: {} ({} line(s) on stdout)",
        main.status(),
        j.verdict.lines
    );
    // 2: typed output.
    out.push(from_findings(
        2,
        command,
        &j,
        "every line is a JSON object with a string type",
    ));
    // 3: the terminal summary agrees with the exit status.
    out.push({
        let mut o = from_findings(3, command, &j, "");
        let sum_ok = j.verdict.summary.as_ref().and_then(|s| s.ok);
        if main.held {
            o = Outcome::new(3, command, Status::Fail, main.status());
        } else if main.timed_out {
            o = Outcome::new(
                3,
                command,
                Status::Fail,
                format!("the invocation did not finish within {:?}: a hung tool", t),
            );
        } else if o.status == Status::Pass {
            o = match (main.exit(), sum_ok) {
                (0, Some(true)) => Outcome::new(
                    3,
                    command,
                    Status::Pass,
                    "exit 0 with a terminal aoi:summary ok:true",
                ),
                (0, Some(false)) => Outcome::new(
                    3,
                    command,
                    Status::Fail,
                    "exit 0 but the summary says ok:false",
                ),
                (c, Some(false)) => Outcome::new(
                    3,
                    command,
                    Status::Pass,
                    format!("exit {c} with a terminal aoi:summary ok:false"),
                ),
                (c, Some(true)) => Outcome::new(
                    3,
                    command,
                    Status::Fail,
                    format!("exit {c} but the summary says ok:true"),
                ),
                (c, None) => Outcome::new(
                    3,
                    command,
                    Status::Fail,
                    format!("exit {c} without a terminal aoi:summary"),
                ),
            };
        }
        let mut ev = o.evidence.clone();
        ev.insert(0, run_evidence.clone());
        o.with(ev)
    });
    // 4: framework events against the declared schema.
    out.push(match &d.schema {
        None => Outcome::new(4, command, Status::NotTested, "no usable schema (check 1)"),
        Some(schema) => {
            let mut problems = Vec::new();
            let mut checked = 0;
            for (i, e) in j.events.iter().enumerate() {
                let ty = e.get("type").and_then(Value::as_str).unwrap_or_default();
                if matches!(
                    ty,
                    "aoi:meta" | "aoi:summary" | "aoi:warning" | "aoi:error" | "aoi:check"
                ) {
                    checked += 1;
                    let mut p = Vec::new();
                    validate(schema, schema, e, "", &mut p, 0);
                    problems.extend(
                        p.into_iter()
                            .map(|m| format!("event {} ({ty}): {}", i + 1, sanitize(&m))),
                    );
                }
            }
            let mut o = from_findings(4, command, &j, &{
                let mut t =
                    format!("{checked} framework event(s) valid against the declared schema");
                let skipped = unchecked_keywords(schema);
                if !skipped.is_empty() {
                    t.push_str(&format!(" (not checked: {})", skipped.join(", ")));
                }
                t
            });
            if !problems.is_empty() {
                o = Outcome::new(
                    4,
                    command,
                    Status::Fail,
                    format!(
                        "{} problem(s), first: {}",
                        problems.len(),
                        problems.first().cloned().unwrap_or_default()
                    ),
                )
                .with(problems);
            }
            o
        }
    });
    // 5: usage errors and the error fields.
    out.push({
        let mut bad = argv.to_vec();
        bad.push("--aoi-lint-no-such-flag".into());
        let p = run_probe(&bad, &base, t);
        let errors = from_findings(5, command, &j, "");
        if p.held {
            Outcome::new(5, command, Status::Fail, format!("an unknown flag: {}", p.status()))
        } else if p.timed_out {
            Outcome::new(5, command, Status::Fail, "an unknown flag made the tool hang")
        } else if p.exit() == 0 {
            Outcome::new(5, command, Status::Fail, "an unknown flag (--aoi-lint-no-such-flag) exits 0")
                .with(vec![format!("stdout: {}", preview(&p.stdout))])
        } else if let Some(trace) = stack_trace(&p.stderr_text()) {
            Outcome::new(5, command, Status::Fail, format!("an unknown flag prints a stack trace: {trace}"))
        } else if errors.status == Status::Fail {
            errors
        } else {
            Outcome::new(5, command, Status::Pass, format!("an unknown flag exits {} without a stack trace; every aoi:error has its fields", p.exit()))
        }
    });
    // 6–8: side effects.
    let destructive = flag(caps_cmd, "destructive") == Some(true)
        || flag(caps_cmd, "requires_confirm") == Some(true);
    let read_only = flag(caps_cmd, "read_only") == Some(true);
    out.push(if caps_cmd.is_none() {
        Outcome::new(
            6,
            command,
            Status::NotTested,
            "the capabilities do not describe this command",
        )
    } else if !destructive {
        Outcome::new(
            6,
            command,
            Status::NotApplicable,
            "not destructive, per the capabilities",
        )
    } else if !args.allow_side_effects {
        Outcome::new(
            6,
            command,
            Status::NotTested,
            "destructive: its probes run only with --allow-side-effects",
        )
    } else {
        let refused = run_probe(argv, &base, t);
        let mut dry = argv.to_vec();
        dry.push("--dry-run".into());
        let dp = run_probe(&dry, &base, t);
        let plans = judge_bytes(&dp.stdout)
            .events
            .iter()
            .filter(|e| e["type"] == "aoi:plan")
            .count();
        if refused.exit() == 0 {
            Outcome::new(6, command, Status::Fail, "ran without --confirm (exit 0)")
        } else if flag(caps_cmd, "supports_dry_run") == Some(true) && (dp.exit() != 0 || plans == 0)
        {
            Outcome::new(
                6,
                command,
                Status::Fail,
                format!("--dry-run: {} with {plans} aoi:plan event(s)", dp.status()),
            )
        } else {
            Outcome::new(
                6,
                command,
                Status::Pass,
                format!(
                    "refused without --confirm ({}); --dry-run gave {plans} aoi:plan event(s)",
                    refused.status()
                ),
            )
        }
    });
    for n in [7u8, 8] {
        out.push(if read_only {
            Outcome::new(n, command, Status::NotApplicable, "read-only, per the capabilities")
        } else {
            Outcome::new(n, command, Status::NotTested, "needs a replay against real resources; a black-box lint cannot tell a doubled effect")
        });
    }
    // 9: a secret-looking argument never comes back.
    out.push({
        let canary = format!("aoi-lint-canary-{}", &crate::emit::ulid()[16..]);
        let mut with = argv.to_vec();
        with.push(args.secret_flag.clone());
        with.push(canary.clone());
        let p = run_probe(&with, &base, t);
        let found_out = memchr::memmem::find(&p.stdout, canary.as_bytes()).is_some();
        let found_err = memchr::memmem::find(&p.stderr, canary.as_bytes()).is_some();
        let secret_rule = from_findings(9, command, &j, "");
        if found_out || found_err {
            let wher = match (found_out, found_err) {
                (true, true) => "stdout and stderr",
                (true, false) => "stdout",
                _ => "stderr",
            };
            Outcome::new(
                9,
                command,
                Status::Fail,
                format!(
                    "the value of {} came back raw on {wher} (§ 11)",
                    sanitize(&args.secret_flag)
                ),
            )
            .with(
                [("stdout", &p.stdout), ("stderr", &p.stderr)]
                    .iter()
                    .filter_map(|(name, bytes)| {
                        let text = String::from_utf8_lossy(bytes);
                        let line = text.lines().find(|l| l.contains(&canary))?;
                        let shown = line.replace(&canary, "<canary>");
                        // The part around the canary.
                        let at = shown.find("<canary>").unwrap_or(0);
                        let from = shown
                            .char_indices()
                            .map(|(i, _)| i)
                            .find(|&i| i + 80 >= at)
                            .unwrap_or(0);
                        let window = shown.get(from..).unwrap_or_default();
                        Some(format!("{name}: …{}", excerpt(window)))
                    })
                    .collect(),
            )
        } else if secret_rule.evidence.is_empty() {
            Outcome::new(
                9,
                command,
                Status::Pass,
                format!(
                    "{} <canary>: not echoed ({})",
                    sanitize(&args.secret_flag),
                    p.status()
                ),
            )
        } else {
            Outcome::new(
                9,
                command,
                Status::Fail,
                "aoi:meta.args carries a secret-looking value",
            )
            .with(secret_rule.evidence)
        }
    });
    // 10: early pipe close, SIGINT, SIGTERM.
    out.push({
        let stdin_opts = ProbeOpts {
            keep_stdin_open: true,
            ..base.clone()
        };
        let pipe = run_probe(argv, &ProbeOpts { close_after: Some(1), ..base.clone() }, t);
        let mut problems = Vec::new();
        let mut notes = Vec::new();
        if let Some(trace) = stack_trace(&pipe.stderr_text()) {
            problems.push(format!("early pipe close: stack trace on stderr: {trace}"));
        } else {
            notes.push(format!("early pipe close: {}, no stack trace", pipe.status()));
        }
        let mut untested = Vec::new();
        for (sig, name) in [(libc::SIGINT, "SIGINT"), (libc::SIGTERM, "SIGTERM")] {
            // A command reading stdin is signalled while it waits for more.
            let mut o = if reads_jsonl(caps_cmd) { stdin_opts.clone() } else { base.clone() };
            if o.stdin.is_none() && reads_jsonl(caps_cmd) {
                o.stdin = Some(Vec::new());
            }
            o.signal = Some(sig);
            let p = run_probe(argv, &o, t);
            let jj = judge_bytes(&p.stdout);
            let last = jj.events.last();
            let cancelled = last.is_some_and(|e| e["type"] == "aoi:summary" && e["ok"] == false && e["reason"] == "cancelled");
            // Its summary already written when the signal came: the run had
            // finished, which § 7 does not judge (issue 25).
            let before = p.stdout.get(..p.stdout_at_signal).unwrap_or(&p.stdout);
            let finished = judge_bytes(before).verdict.summary.is_some();
            if !p.signalled_running {
                untested.push(format!("{name}: the run ended before the signal"));
            } else if finished && !cancelled {
                untested.push(format!("{name}: the run had finished before the signal (its aoi:summary was written)"));
            } else if p.held {
                problems.push(format!("{name}: {}", p.status()));
            } else if p.timed_out {
                problems.push(format!("{name}: still running {:?} after the signal (killed)", t));
            } else if cancelled {
                notes.push(format!("{name}: reason:\"cancelled\", {}", p.status()));
            } else if let Some(trace) = stack_trace(&p.stderr_text()) {
                problems.push(format!("{name}: stack trace: {trace}"));
            } else {
                let ending = match last {
                    Some(e) if e["type"] == "aoi:summary" => {
                        let reason = e.get("reason").map_or("absent".to_string(), Value::to_string);
                        format!("a summary ok:{} reason {reason}", e["ok"])
                    }
                    _ => "no aoi:summary".into(),
                };
                problems.push(format!("{name}: {}, {ending} (expected reason:\"cancelled\", § 7)", p.status()));
            }
        }
        if !problems.is_empty() {
            let mut ev = problems.clone();
            ev.extend(notes);
            Outcome::new(10, command, Status::Fail, problems.join("; ")).with(ev)
        } else if untested.len() == 2 {
            Outcome::new(10, command, Status::NotTested, format!("no stack trace on an early pipe close; the run ends too soon to be signalled ({})", untested.join("; "))).with(notes)
        } else {
            let mut ev = notes.clone();
            ev.extend(untested);
            Outcome::new(10, command, Status::Pass, "no stack trace on an early pipe close; SIGINT/SIGTERM end with reason:\"cancelled\"").with(ev)
        }
    });
    // 11: --limit, truncated, next_cursor.
    out.push({
        let bounded = flag(caps_cmd, "bounded") == Some(true)
            && flag(caps_cmd, "supports_cursor") == Some(true)
            || caps_cmd
                .and_then(|c| c.get("supports_limit"))
                .and_then(Value::as_bool)
                == Some(true);
        if d.caps.is_none() {
            unread_caps(11, command)
        } else if !bounded {
            Outcome::new(
                11,
                command,
                Status::NotApplicable,
                "the capabilities advertise no --limit/cursor for this command",
            )
        } else if main.timed_out || j.verdict.summary.is_none() {
            Outcome::new(
                11,
                command,
                Status::NotTested,
                "the invocation itself ends without a summary (check 3)",
            )
        } else {
            let mut lim = argv.to_vec();
            lim.extend(["--limit", "1"].map(String::from));
            let p = run_probe(&lim, &base, t);
            let jj = judge_bytes(&p.stdout);
            let summary = jj.events.last().filter(|e| e["type"] == "aoi:summary");
            let domain = jj.verdict.domain_events;
            match summary {
                _ if p.exit() == exit::USAGE => Outcome::new(
                    11,
                    command,
                    Status::Fail,
                    "advertised as bounded, but --limit is a usage error",
                ),
                None => Outcome::new(
                    11,
                    command,
                    Status::Fail,
                    format!("--limit 1: no terminal summary ({})", p.status()),
                ),
                Some(_) if domain > 1 => Outcome::new(
                    11,
                    command,
                    Status::Fail,
                    format!("--limit 1 gave {domain} domain events"),
                ),
                Some(s) => match s.get("truncated") {
                    Some(Value::Bool(true)) if s.get("next_cursor").is_none_or(Value::is_null) => {
                        Outcome::new(
                            11,
                            command,
                            Status::Fail,
                            "truncated:true without a next_cursor (§ 15)",
                        )
                    }
                    Some(Value::Bool(tr)) => Outcome::new(
                        11,
                        command,
                        Status::Pass,
                        format!("--limit 1: {domain} event(s), truncated:{tr}"),
                    ),
                    _ => Outcome::new(
                        11,
                        command,
                        Status::Fail,
                        "--limit 1: the summary does not say truncated true or false (§ 15)",
                    ),
                },
            }
        }
    });
    // 12: malformed input, as declared.
    out.push({
        let mode = caps_cmd.and_then(|c| c.get("malformed_mode")).and_then(Value::as_str);
        if d.caps.is_none() {
            unread_caps(12, command)
        } else if !reads_jsonl(caps_cmd) {
            Outcome::new(12, command, Status::NotApplicable, "reads no JSON Lines, per the capabilities")
        } else if let Some(mode) = mode {
            let p = run_probe(argv, &ProbeOpts { stdin: Some(malformed_stream()), ..ProbeOpts::default() }, t);
            let jj = judge_bytes(&p.stdout);
            let conforming = jj.findings.iter().all(|f| f.rule.severity() == Severity::Advisory);
            let said = reported(&p, &jj);
            let sent = malformed_stream().len();
            if p.timed_out || stack_trace(&p.stderr_text()).is_some() {
                Outcome::new(12, command, Status::Fail, format!("a malformed input line: {}", p.status()))
            } else if p.stdin_unread == Some(sent) {
                Outcome::new(12, command, Status::NotTested, "the invocation did not read its stdin (it names its input, e.g. a file): lint it reading stdin to test this")
            } else if !conforming {
                Outcome::new(12, command, Status::Fail, "a malformed input line broke the tool's own stream").with(jj.findings.iter().map(evidence_of).collect())
            } else if mode.contains("fail-fast") && p.exit() == 0 {
                Outcome::new(12, command, Status::Fail, "declared whole-input fail-fast, but a malformed line exits 0")
            } else if !said {
                Outcome::new(12, command, Status::Fail, format!("declared {mode}, but a malformed line went unreported (exit 0, no aoi:error)"))
            } else {
                Outcome::new(12, command, Status::Pass, format!("declared {mode}: the malformed line is reported ({}), the output conforms", p.status()))
            }
        } else {
            Outcome::new(12, command, Status::NotTested, "reads JSON Lines but declares no malformed-input mode (§ 12.2)")
        }
    });
    // 13: schema_version on aoi:meta.
    out.push({
        let o = from_findings(13, command, &j, "");
        let meta = j.events.first().filter(|e| e["type"] == "aoi:meta");
        match meta
            .and_then(|m| m.get("schema_version"))
            .and_then(Value::as_str)
        {
            _ if o.status == Status::Fail => o,
            None => Outcome::new(13, command, Status::Fail, "aoi:meta has no schema_version"),
            Some(v) => Outcome::new(
                13,
                command,
                Status::Pass,
                format!(
                    "aoi:meta says schema_version {} (negotiation not probed)",
                    sanitize(v)
                ),
            )
            .with(o.evidence),
        }
    });
    let framed =
        j.verdict.summary.is_some() && j.events.first().is_some_and(|e| e["type"] == "aoi:meta");
    out.push(from_findings(
        14,
        command,
        &j,
        if framed {
            "one aoi:meta first, one aoi:summary last"
        } else {
            // Not "one summary last" of a stream without one: that it is
            // missing is check 3's (or the stream's) finding.
            "no aoi:meta or aoi:summary repeated or out of place"
        },
    ));
    out.push({
        // Lines that are no event (check 2) also make the line count differ
        // from event_count: that is check 2's finding, not a second one.
        let untyped = j.findings.iter().any(|f| f.rule.check() == 2);
        let jf = Judged {
            verdict: j.verdict.clone(),
            findings: j
                .findings
                .iter()
                .filter(|f| !(untyped && f.rule.id() == "summary.event-count"))
                .cloned()
                .collect(),
            events: j.events.clone(),
        };
        let o = from_findings(
            15,
            command,
            &jf,
            "seq contiguous from 0 under one run, reconciled with event_count",
        );
        if o.status == Status::Pass && j.verdict.factors.verifiable {
            o
        } else if o.status == Status::Pass {
            let has_seq = j.events.iter().any(|e| e["aoi"]["seq"].is_u64());
            Outcome::new(
                15,
                command,
                Status::NotApplicable,
                if has_seq {
                    "seq present, but the run could not be reconciled (checks 2 and 3): the Verifiable factor is not shown"
                } else {
                    "no seq: the Verifiable factor is not claimed"
                },
            )
            .with(o.evidence)
        } else {
            o
        }
    });
    // 16: a known upstream stream.
    out.push(if d.caps.is_none() {
        unread_caps(16, command)
    } else if !reads_jsonl(caps_cmd) {
        Outcome::new(
            16,
            command,
            Status::NotApplicable,
            "reads no JSON Lines, per the capabilities",
        )
    } else {
        let p = run_probe(
            argv,
            &ProbeOpts {
                stdin: Some(upstream_stream()),
                ..ProbeOpts::default()
            },
            t,
        );
        let jj = judge_bytes(&p.stdout);
        upstream_check(command, &p, &jj)
    });
    (out, version)
}

/// Check 16 on the output for [`upstream_stream`].
fn upstream_check(command: &str, p: &Probe, j: &Judged) -> Outcome {
    let mut problems = Vec::new();
    for e in &j.events {
        let ty = e["type"].as_str().unwrap_or_default();
        if matches!(ty, "aoi:meta" | "aoi:summary") && e["tool"] == "aoi-lint-upstream" {
            problems.push(format!("the upstream's {ty} was forwarded (§ 13.1)"));
        }
        if ty == "aoi:error" && e["code"] == "LINT_RATE_LIMITED" && e.get("origin").is_none() {
            problems.push("a forwarded aoi:error has no origin (§ 13.1)".into());
        }
    }
    let summary = j.events.last().filter(|e| e["type"] == "aoi:summary");
    match summary {
        None => problems.push(format!("no terminal aoi:summary ({})", p.status())),
        Some(s) if s["ok"] == false => {
            let c = &s["caused_by"];
            if !c.is_object() {
                problems.push("ok:false without caused_by (§ 13.1)".into());
            } else {
                for (k, want) in [
                    ("category", json!("rate_limited")),
                    ("code", json!("LINT_RATE_LIMITED")),
                    ("retryable", json!(true)),
                    ("retry_after_ms", json!(1500)),
                ] {
                    if c.get(k) != Some(&want) {
                        problems.push(format!(
                            "caused_by.{k} is {}, not the upstream's {want}",
                            c.get(k).map_or("absent".into(), short)
                        ));
                    }
                }
            }
        }
        Some(_) => {}
    }
    if problems.is_empty() {
        Outcome::new(
            16,
            command,
            Status::Pass,
            "no upstream meta or summary forwarded, origin on forwarded errors, the retry fields in caused_by",
        )
    } else {
        Outcome::new(16, command, Status::Fail, problems.join("; ")).with(problems)
    }
}

/// Whether a tool's output on [`malformed_stream`] tells of the bad line:
/// a failing exit, an `aoi:error`/`aoi:warning`, or a summary that counts
/// skipped lines (a log reader's way, `properties.skipped_lines`).
fn reported(p: &Probe, j: &Judged) -> bool {
    p.exit() != 0
        || j.events.iter().any(|e| {
            matches!(e["type"].as_str(), Some("aoi:error" | "aoi:warning"))
                || (e["type"] == "aoi:summary"
                    && e["properties"]["skipped_lines"]
                        .as_u64()
                        .is_some_and(|n| n > 0))
        })
}
