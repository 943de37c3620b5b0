//! `aoi errors`: errors and warnings out of AOI streams and real logs.
//!
//! The control plane is what `grep aoi:` pulls out crudely (§ 8.2); this
//! command does it on logs as they really are:
//!
//! - a line that is no AOI event (prose, a stack trace, another program's
//!   JSON, invalid JSON) is skipped and counted, never fatal;
//! - an event after a text prefix on the same line is found: the first `{`
//!   (of a few) that starts a JSON object with a string `type` running to the
//!   end of the line (`2026-07-30T12:00:00Z stdout F {…}`, `[worker-3] {…}`);
//!   a trailing CR is dropped; a Docker json-file line (`{"log":"{…}\n",…}`)
//!   is unwrapped once;
//! - runs interleaved in one log are told apart by `aoi.run` (§ 8.1): each
//!   run is its own stream with its own judge, exactly the judge of
//!   `aoi check`, so seq and `event_count` reconcile per run. Events without
//!   an envelope belong to the input's unnamed stream, which is judged only
//!   when it holds a framework event (otherwise it is some other program's
//!   JSON and its lines count as skipped).
//!
//! Output: an aligned table on a terminal (upstream text sanitised), the
//! events as they came otherwise (`raw`), or a conforming AOI stream
//! (`jsonl`, § 13.1: own `aoi:meta`, the events forwarded with `origin`
//! naming the tool that raised them, retry fields intact, and an
//! `aoi:summary` accounting for the input). The exit status is the worst
//! stream's, from the shared table.

use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::Path;

use serde_json::{Value, json};

use crate::cli::{ErrorsArgs, ErrorsFormat, Scope};
use crate::demux;
use crate::emit::{ErrorEvent, push_json};
use crate::judge::{Cause, Ev, Outcome, Verdict, bool_value, str_ref, uint_value};
use crate::out::{
    AsFdFile, Closing, Sinks, Stop, close_report, eprint_line, finding_line, install_cancel,
    open_input, sanitize, source_for, stop_code, unreadable_error, upstream_errors, verdict_line,
    write_err,
};
use crate::peek::{Kind, Peeker, key_is, object_members, span, unescape};
use crate::spec::{self, exit};

/// Findings kept per stream for stderr.
const SHOWN: usize = 10;

/// Which framework event a line is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventKind {
    Error,
    Warning,
}

/// Where matching events go.
enum Sink {
    /// Table, raw lines or the count, through one buffered writer.
    Text(Box<dyn Write>),
    /// A conforming AOI stream.
    Report(Box<Sinks>),
}

/// Everything `run` needs while reading.
struct Ctx<'a> {
    args: &'a ErrorsArgs,
    format: Option<ErrorsFormat>,
    color: bool,
    /// Width of the LINE column, and whether it names the file.
    line_width: usize,
    files: bool,
    sink: Sink,
    matched: u64,
    header_done: bool,
}

impl Ctx<'_> {
    /// Hands what was written so far to stdout (and the report file).
    fn flush(&mut self) -> Result<(), Stop> {
        match &mut self.sink {
            Sink::Text(w) => w.flush().map_err(|e| write_err(e, "stdout")),
            Sink::Report(sinks) => sinks.out.flush(),
        }
    }
}

/// Runs `aoi errors`; returns the exit status.
pub fn run(args: &ErrorsArgs) -> i32 {
    let stdout = io::stdout();
    let tty = stdout.is_terminal();
    let format = if args.count {
        None
    } else {
        Some(args.output.unwrap_or(if tty {
            ErrorsFormat::Table
        } else {
            ErrorsFormat::Raw
        }))
    };
    let sink = if format == Some(ErrorsFormat::Jsonl) {
        let mut sinks = Sinks::report_to_stdout();
        install_cancel("errors");
        if let Err(stop) = sinks.out.meta("errors", Vec::new()) {
            return sinks.end("errors", stop);
        }
        Sink::Report(Box::new(sinks))
    } else if tty {
        Sink::Text(Box::new(io::LineWriter::new(stdout.lock())))
    } else {
        match stdout.as_fd_file() {
            Ok(f) => Sink::Text(Box::new(BufWriter::with_capacity(64 * 1024, f))),
            Err(e) => {
                eprint_line(false, &format!("aoi errors: cannot use stdout: {e}"));
                return exit::IOERR;
            }
        }
    };
    let inputs: Vec<&Path> = if args.files.is_empty() {
        vec![Path::new("-")]
    } else {
        args.files.iter().map(|p| p.as_path()).collect()
    };
    let files = inputs.len() > 1;
    let line_width = if files {
        inputs
            .iter()
            .map(|p| p.display().to_string().chars().count())
            .max()
            .unwrap_or(1)
            + 7
    } else {
        6
    };
    crate::out::say_reading_terminal("errors", !args.files.is_empty(), args.quiet);
    let mut ctx = Ctx {
        args,
        format,
        color: format == Some(ErrorsFormat::Table) && args.color.enabled(tty),
        line_width,
        files,
        sink,
        matched: 0,
        header_done: false,
    };
    match run_inputs(&mut ctx, &inputs) {
        Ok(code) => code,
        Err(stop) => match ctx.sink {
            Sink::Report(sinks) => sinks.end("errors", stop),
            Sink::Text(_) => stop_code("errors", &stop),
        },
    }
}

fn run_inputs(ctx: &mut Ctx<'_>, inputs: &[&Path]) -> Result<i32, Stop> {
    let args = ctx.args;
    // The report's code is the streams' verdict; --no-fail changes only the
    // process exit status, never what the report says (§ 13.1).
    let mut code = exit::OK;
    let mut verdicts: Vec<Verdict> = Vec::new();
    let mut log_total = crate::demux::Counts::default();
    let mut extra = (0u64, 0u64, 0u64);
    // aoi's own first error: what caused_by names when aoi itself failed.
    let mut own_cause: Option<Cause> = None;
    for path in inputs {
        let source = path.display().to_string();
        let input = if *path == Path::new("-") {
            read_input(ctx, io::stdin(), &source)?
        } else {
            match open_input(path) {
                Ok(f) => read_input(ctx, f, &source)?,
                Err(msg) => {
                    eprint_line(args.quiet, &format!("aoi errors: {msg}"));
                    code = exit::worst(code, exit::NOINPUT);
                    own_cause.get_or_insert_with(|| Cause::own("not_found", "INPUT_UNREADABLE"));
                    if let Sink::Report(sinks) = &mut ctx.sink {
                        sinks.out.error(&unreadable_error(&msg, &source))?;
                    }
                    continue;
                }
            }
        };
        // Stopped by SIGINT/SIGTERM: the input was not read to its end;
        // what was read of it, and before it, counts as consumed.
        if let Some(sig) = crate::cancel::requested() {
            if let Sink::Report(sinks) = &mut ctx.sink {
                for v in &verdicts {
                    sinks.add_consumed(v);
                }
                sinks.add_counts(extra);
                let (streams, input) = input.finish(SHOWN);
                for st in &streams {
                    sinks.add_consumed(&st.verdict);
                }
                sinks.add_counts(input.untracked_events);
            }
            return Err(Stop::Cancelled(sig));
        }
        let name = |run: &Option<String>| -> Option<String> {
            let mut parts = Vec::new();
            if !args.files.is_empty() {
                parts.push(source.clone());
            }
            if let Some(r) = run {
                parts.push(format!("run {r}"));
            }
            (!parts.is_empty()).then(|| parts.join(" "))
        };
        // Messages about the input name it when files were given.
        let label = if args.files.is_empty() {
            String::new()
        } else {
            format!("{}: ", sanitize(&source))
        };
        let (streams, input) = input.finish(SHOWN);
        let judged = streams.len();
        let mut lines_read = input.skipped + input.untracked + input.other_runs;
        for stream in streams {
            let v = stream.verdict;
            lines_read += v.lines;
            if !args.quiet && v.outcome != Outcome::Ok {
                let n = name(&stream.run);
                let mut err = io::stderr().lock();
                for f in &stream.findings {
                    let _ = writeln!(err, "{}", finding_line(f, n.as_deref()));
                }
                let _ = writeln!(err, "{}", verdict_line("errors", &v, n.as_deref()));
            }
            code = exit::worst(code, v.exit_code);
            verdicts.push(v);
        }
        log_total.add(&input);
        let mut problems: Vec<(String, &str)> = Vec::new();
        if input.untracked > 0 {
            problems.push((
                format!(
                    "more than --max-runs {} runs: {} line(s) of further runs were searched for errors but not judged",
                    args.logs.max_runs, input.untracked
                ),
                "TOO_MANY_RUNS",
            ));
        }
        if judged == 0 && input.untracked == 0 {
            let what = match &args.run {
                Some(r) => format!("no run matching --run {r}"),
                None => "no AOI stream".to_string(),
            };
            problems.push((format!("{what} in {lines_read} line(s)"), "NO_AOI_STREAM"));
        }
        for (msg, ecode) in problems {
            eprint_line(args.quiet, &format!("aoi errors: {label}{msg}"));
            code = exit::worst(code, exit::IOERR);
            own_cause.get_or_insert_with(|| Cause::own("io", ecode));
            if let Sink::Report(sinks) = &mut ctx.sink {
                sinks.out.error(
                    &ErrorEvent::new("io", ecode, msg.clone())
                        .retryable(false)
                        .field("target", source.clone()),
                )?;
            }
        }
        extra.0 += input.untracked_events.0;
        extra.1 += input.untracked_events.1;
        extra.2 += input.untracked_events.2;
        if input.suspect > 0 {
            eprint_line(
                args.quiet,
                &format!(
                    "aoi errors: {label}warning: {} skipped line(s) mention aoi:error but hold no valid event; an error may be lost",
                    input.suspect
                ),
            );
        }
        // Reading as a log shows (issue 24).
        if let Some(note) = input.passed_over() {
            eprint_line(args.quiet, &format!("aoi errors: {label}{note}"));
        }
    }
    match &mut ctx.sink {
        Sink::Text(w) => {
            if args.count {
                writeln!(w, "{}", ctx.matched).map_err(|e| write_err(e, "stdout"))?;
            }
            w.flush().map_err(|e| write_err(e, "stdout"))?;
        }
        Sink::Report(sinks) => {
            // An AOI producer accounts for upstream errors in its own
            // outcome (§ 13.1), as `filter` does.
            let mut cause = None;
            let upstream = upstream_errors(&verdicts).filter(|_| !args.continue_on_error);
            if let Some((upstream_code, worst)) = &upstream {
                code = exit::worst(code, *upstream_code);
                // Only when they decide the status: an input aoi could not
                // read (66) or a cut stream (74) outranks them.
                if code == *upstream_code {
                    cause = worst.clone();
                }
            }
            crate::out::say_upstream_errors("errors", args.quiet, code, upstream.as_ref());
            // A failed doctor run fails on its aoi:check events, not on
            // errors: they are counted beside the errors (issue 25).
            let checks_failed: u64 = verdicts.iter().map(|v| v.failed_checks.0).sum();
            let properties = json!({
                "streams": verdicts.len(),
                "matched": ctx.matched,
                "checks_failed": checks_failed,
                "read_as_log": args.logs.log,
                "skipped_lines": log_total.skipped,
                "trimmed_lines": log_total.trimmed,
                "suspect_lines": log_total.suspect,
                "exit_code": code,
            });
            let closing = Closing {
                code,
                properties,
                cause: cause.or(own_cause),
                extra,
            };
            close_report(sinks, &verdicts, closing)?;
        }
    }
    Ok(if args.no_fail && code != exit::NOINPUT {
        exit::OK
    } else {
        code
    })
}

/// Reads one input through the log reader: every line located,
/// demultiplexed by run and judged; errors (and warnings) that pass the
/// filters are extracted as they come.
fn read_input<R: Read + Send + std::os::fd::AsRawFd + 'static>(
    ctx: &mut Ctx<'_>,
    src: R,
    source: &str,
) -> Result<demux::Input, Stop> {
    let opts = demux::Options {
        run_prefix: ctx.args.run.clone(),
        ..ctx.args.logs.reading(&ctx.args.judge, SHOWN as u64)
    };
    demux::read(source_for(src, &ctx.args.judge), &opts, |visit| {
        let ev = match visit {
            demux::Visit::Event(ev) => ev,
            // A live stream's errors go on as they come.
            demux::Visit::BlockEnd => return ctx.flush(),
            demux::Visit::LongPiece { .. } => return Ok(()),
        };
        // § 2: an unterminated final line is discarded, never extracted.
        if !ev.terminated {
            return Ok(());
        }
        let Some(kind) = event_kind(ev.obj, ev.peek, ctx.args.warnings) else {
            return Ok(());
        };
        let e = Ev {
            line: ev.obj,
            members: &ev.peek.members,
        };
        if !matches(ctx.args, &e, kind) {
            return Ok(());
        }
        ctx.matched += 1;
        let tool = ev.stream.and_then(|st| st.judge.identity().tool.as_deref());
        let run = (!ev.raw_run.is_empty()).then_some(ev.raw_run);
        emit(ctx, &e, kind, tool, run, ev.line_no, source)
    })
}

/// Whether the located event is an `aoi:error` (or, when asked, an
/// `aoi:warning`).
pub(crate) fn event_kind(obj: &[u8], peeker: &Peeker, warnings: bool) -> Option<EventKind> {
    let ty = peeker.type_member.and_then(|i| peeker.members.get(i))?;
    let raw = span(obj, &ty.value);
    match ty.kind {
        // The common case, decided on the bytes: no escapes to decode.
        Kind::String { escaped: false } => {
            return match raw {
                b"\"aoi:error\"" => Some(EventKind::Error),
                b"\"aoi:warning\"" if warnings => Some(EventKind::Warning),
                _ => None,
            };
        }
        Kind::String { escaped: true } => {}
        _ => return None,
    }
    let name = str_ref(obj, ty)?;
    match name.as_ref() {
        "aoi:error" => Some(EventKind::Error),
        "aoi:warning" if warnings => Some(EventKind::Warning),
        _ => None,
    }
}

/// The retry disposition: `retryable` when present (§ 9.3: authoritative),
/// else the category's default for an error (§ 9.2); a category aoi does
/// not know is routed as `internal` (§ 9.4), so it takes that default.
fn retryable(ev: &Ev<'_>, kind: EventKind) -> Option<bool> {
    ev.get("retryable").and_then(bool_value).or_else(|| {
        (kind == EventKind::Error)
            .then(|| ev.get("category").and_then(|m| str_ref(ev.line, m)))
            .flatten()
            .and_then(|c| {
                spec::category_default_retryable(c.as_bytes())
                    .or_else(|| spec::category_default_retryable(b"internal"))
            })
    })
}

fn matches(args: &ErrorsArgs, ev: &Ev<'_>, kind: EventKind) -> bool {
    let field = |name: &str| ev.get(name).and_then(|m| str_ref(ev.line, m));
    if !args.category.is_empty()
        && !field("category").is_some_and(|c| args.category.iter().any(|w| *w == c))
    {
        return false;
    }
    if !args.code.is_empty() && !field("code").is_some_and(|c| args.code.iter().any(|w| *w == c)) {
        return false;
    }
    if args.retryable && retryable(ev, kind) != Some(true) {
        return false;
    }
    if args.not_retryable && retryable(ev, kind) != Some(false) {
        return false;
    }
    if let Some(want) = args.scope {
        // § 9.1: an absent scope is process.
        let item = field("scope").is_some_and(|s| s == "item");
        if item != (want == Scope::Item) {
            return false;
        }
    }
    true
}

/// The tool that raised the event: its own `origin` when it was already
/// forwarded, else its run's `aoi:meta.tool`, else its `domain` (§ 9.1:
/// the namespace of `code`, which defaults to the tool), else "unknown".
fn origin(ev: &Ev<'_>, tool: Option<&str>) -> String {
    let field = |name: &str| ev.get(name).and_then(|m| str_ref(ev.line, m));
    field("origin")
        .map(|o| o.into_owned())
        .or_else(|| tool.map(str::to_string))
        .or_else(|| field("domain").map(|d| d.into_owned()))
        .unwrap_or_else(|| "unknown".to_string())
}

fn emit(
    ctx: &mut Ctx<'_>,
    ev: &Ev<'_>,
    kind: EventKind,
    tool: Option<&str>,
    run: Option<&[u8]>,
    line_no: u64,
    source: &str,
) -> Result<(), Stop> {
    match ctx.format {
        None => Ok(()),
        Some(ErrorsFormat::Raw) => {
            let Sink::Text(w) = &mut ctx.sink else {
                return Ok(());
            };
            w.write_all(ev.line).map_err(|e| write_err(e, "stdout"))?;
            w.write_all(b"\n").map_err(|e| write_err(e, "stdout"))
        }
        Some(ErrorsFormat::Table) => {
            let header = (!ctx.header_done).then(|| table_header(ctx));
            ctx.header_done = true;
            let row = table_row(ctx, ev, kind, tool, run, line_no, source);
            let Sink::Text(w) = &mut ctx.sink else {
                return Ok(());
            };
            if let Some(h) = header {
                w.write_all(h.as_bytes())
                    .map_err(|e| write_err(e, "stdout"))?;
            }
            w.write_all(row.as_bytes())
                .map_err(|e| write_err(e, "stdout"))
        }
        Some(ErrorsFormat::Jsonl) => {
            let body = forwarded_body(ev, kind, tool, run, line_no, source);
            let ty = match kind {
                EventKind::Error => "aoi:error",
                EventKind::Warning => "aoi:warning",
            };
            let Sink::Report(sinks) = &mut ctx.sink else {
                return Ok(());
            };
            sinks.out.forward(ty, &body)
        }
    }
}

/// The members of a forwarded event after aoi's own envelope: `origin`
/// (§ 13.1: MUST when forwarded) unless the event already names one, then
/// every upstream member the spec defines but `type` and `aoi`, byte for
/// byte, in order, with aoi's provenance in `properties.forwarded`
/// (`source`, `line`, the upstream `run`).
///
/// A forwarded event is aoi's own output and must conform, whatever the
/// upstream wrote: a member the spec does not define (§ 8.1: it belongs in
/// `properties`), a second occurrence of a key, or, on an `aoi:error`, a
/// spec field of the wrong shape (§ 9.1: `category` not a string or the
/// removed `partial`, `code` not `[A-Z][A-Z0-9_]*`, `message` not one
/// line, `retryable` not a boolean, `retry_after_ms` without
/// `retryable:true`, an unknown `scope`, a non-string `origin`) moves,
/// byte for byte, into `properties.forwarded.fields`, never dropped. A
/// required error field left missing is then supplied: `category`
/// `internal` (§ 9.4 routes the unknown as internal), `code`
/// `UNSPECIFIED`, the message sanitised to one line (or `(no message)`),
/// `retryable:false` (§ 9.3: what a producer must say when it cannot
/// tell).
pub(crate) fn forwarded_body(
    ev: &Ev<'_>,
    kind: EventKind,
    tool: Option<&str>,
    run: Option<&[u8]>,
    line_no: u64,
    source: &str,
) -> Vec<u8> {
    let line = ev.line;
    let known = spec::known_fields(b"aoi:error").unwrap_or_default();
    let text = |m: &crate::peek::Member| str_ref(line, m);
    let error = kind == EventKind::Error;
    let retryable_true = ev.get("retryable").and_then(bool_value).is_some_and(|b| b);
    // Decide, member by member: kept at the top level or moved.
    // Each key decoded once; the checks below compare these names.
    let names: Vec<std::borrow::Cow<'_, str>> = ev
        .members
        .iter()
        .map(|m| unescape(span(line, &m.key)))
        .collect();
    let mut keep = Vec::with_capacity(ev.members.len());
    for (i, (m, name)) in ev.members.iter().zip(&names).enumerate() {
        let first = !names.get(..i).unwrap_or_default().contains(name);
        let spec_field = known.contains(&name.as_ref());
        let well_formed = match name.as_ref() {
            "properties" => m.kind == Kind::Object,
            "origin" => text(m).is_some(),
            "category" if error => text(m).is_some_and(|c| c != "partial"),
            "code" if error => text(m).is_some_and(|c| spec::valid_code(c.as_bytes())),
            "message" if error => text(m).is_some_and(|t| single_line(&t)),
            "retryable" if error => bool_value(m).is_some(),
            "retry_after_ms" if error => uint_value(line, m).is_some() && retryable_true,
            "scope" if error => text(m).is_some_and(|t| spec::SCOPES.contains(&t.as_ref())),
            _ => true,
        };
        keep.push(first && spec_field && well_formed);
    }
    let kept = |name: &str| names.iter().zip(&keep).any(|(n, k)| *k && n == name);
    let mut b = Vec::with_capacity(line.len() + 160);
    if !kept("origin") {
        b.extend_from_slice(b",\"origin\":");
        push_json(&mut b, &Value::from(origin(ev, tool)));
    }
    let mut moved = Vec::new();
    let reserved = |n: &str| n == "type" || n == "aoi";
    for ((m, k), n) in ev.members.iter().zip(&keep).zip(&names) {
        if !k && !reserved(n) {
            push_member(&mut moved, span(line, &m.key), span(line, &m.value));
        }
    }
    let mut fwd = b"{\"source\":".to_vec();
    push_json(&mut fwd, &Value::from(source));
    fwd.extend_from_slice(b",\"line\":");
    fwd.extend_from_slice(itoa::Buffer::new().format(line_no).as_bytes());
    if let Some(r) = run {
        fwd.extend_from_slice(b",\"run\":");
        fwd.extend_from_slice(r);
    }
    if let Some(rest) = moved.strip_prefix(b",") {
        fwd.extend_from_slice(b",\"fields\":{");
        fwd.extend_from_slice(rest);
        fwd.push(b'}');
    }
    fwd.push(b'}');
    let mut props_done = false;
    for ((m, k), n) in ev.members.iter().zip(&keep).zip(&names) {
        if !k || reserved(n) {
            continue;
        }
        let value = span(line, &m.value);
        if n == "properties" {
            // Our provenance first, then the upstream's own properties but
            // an earlier hop's `forwarded`.
            b.extend_from_slice(b",\"properties\":{\"forwarded\":");
            b.extend_from_slice(&fwd);
            for pm in object_members(value) {
                let pk = span(value, &pm.key);
                if !key_is(pk, pm.key_escaped, "forwarded") {
                    push_member(&mut b, pk, span(value, &pm.value));
                }
            }
            b.push(b'}');
            props_done = true;
        } else {
            push_member(&mut b, span(line, &m.key), value);
        }
    }
    if error {
        if !kept("category") {
            b.extend_from_slice(b",\"category\":\"internal\"");
        }
        if !kept("code") {
            b.extend_from_slice(b",\"code\":\"UNSPECIFIED\"");
        }
        if !kept("message") {
            let msg = ev
                .get("message")
                .and_then(text)
                .map(|t| one_line_of(&t))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| "(no message)".to_string());
            b.extend_from_slice(b",\"message\":");
            push_json(&mut b, &Value::from(msg));
        }
        if !kept("retryable") {
            b.extend_from_slice(b",\"retryable\":false");
        }
    }
    if !props_done {
        b.extend_from_slice(b",\"properties\":{\"forwarded\":");
        b.extend_from_slice(&fwd);
        b.push(b'}');
    }
    b
}

/// A message the spec accepts: one line, no ANSI or C1 controls (§ 9.1).
fn single_line(s: &str) -> bool {
    !s.chars().any(|c| {
        matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{1b}')
            || ('\u{80}'..='\u{9f}').contains(&c)
    })
}

/// `s` made one line: every control or separator character a space.
pub(crate) fn one_line_of(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if single_line(c.encode_utf8(&mut [0; 4])) && !c.is_control() {
                c
            } else {
                ' '
            }
        })
        .collect();
    t.trim().to_string()
}

/// `,"key":value` with the key's bytes as they came (still escaped).
pub(crate) fn push_member(b: &mut Vec<u8>, key: &[u8], value: &[u8]) {
    b.extend_from_slice(b",\"");
    b.extend_from_slice(key);
    b.extend_from_slice(b"\":");
    b.extend_from_slice(value);
}

// --- the table ------------------------------------------------------------

const W_RUN: usize = 8;
const W_ORIGIN: usize = 12;
const W_CATEGORY: usize = 19;
const W_CODE: usize = 24;
const W_RETRY: usize = 10;
const W_KIND: usize = 7;

/// `s` sanitised, cut to `w` characters (with `…`) and padded to `w`.
pub(crate) fn cell(s: &str, w: usize) -> String {
    let clean = sanitize(s);
    let n = width(&clean);
    if n > w {
        // Cut to w - 1 columns, then the ellipsis (and a space if a wide
        // character did not fit).
        let mut t = String::new();
        let mut used = 0;
        for c in clean.chars() {
            let cw = columns(c);
            if used + cw > w.saturating_sub(1) {
                break;
            }
            used += cw;
            t.push(c);
        }
        t.push('…');
        t.push_str(&" ".repeat(w.saturating_sub(1) - used));
        t
    } else {
        format!("{clean}{}", " ".repeat(w - n))
    }
}

/// Terminal columns a character takes (Unicode's East Asian Width and
/// emoji data, as `wcwidth` reads them): 2 for wide characters, 0 for
/// combining and zero-width ones.
pub(crate) fn columns(c: char) -> usize {
    unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Terminal columns of a string ([`columns`] of each character).
pub(crate) fn width(s: &str) -> usize {
    s.chars().map(columns).sum()
}

/// The SGR colour of a category: retryable classes yellow, credentials
/// magenta, caller mistakes blue, faults red, the rest cyan.
fn category_color(cat: &str, kind: EventKind) -> &'static str {
    if kind == EventKind::Warning {
        return "33";
    }
    match cat {
        "rate_limited" | "unavailable" | "timeout" => "33",
        "authn" | "authz" => "35",
        "usage" | "validation" | "config" | "unsupported" => "34",
        "not_found" | "conflict" | "precondition_failed" | "cancelled" => "36",
        _ => "31",
    }
}

pub(crate) fn paint(on: bool, sgr: &str, s: &str) -> String {
    if on {
        format!("\x1b[{sgr}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

fn table_header(ctx: &Ctx<'_>) -> String {
    let mut s = format!("{:>w$}  ", "LINE", w = ctx.line_width);
    if ctx.args.warnings {
        s.push_str(&cell("KIND", W_KIND));
        s.push_str("  ");
    }
    for (h, w) in [
        ("RUN", W_RUN),
        ("ORIGIN", W_ORIGIN),
        ("CATEGORY", W_CATEGORY),
        ("CODE", W_CODE),
        ("RETRY", W_RETRY),
    ] {
        s.push_str(&cell(h, w));
        s.push_str("  ");
    }
    s.push_str("MESSAGE");
    format!("{}\n", paint(ctx.color, "1", &s))
}

fn table_row(
    ctx: &Ctx<'_>,
    ev: &Ev<'_>,
    kind: EventKind,
    tool: Option<&str>,
    run: Option<&[u8]>,
    line_no: u64,
    source: &str,
) -> String {
    let field = |name: &str| {
        ev.get(name)
            .and_then(|m| str_ref(ev.line, m))
            .map(|v| v.into_owned())
    };
    let at = if ctx.files {
        format!("{source}:{line_no}")
    } else {
        line_no.to_string()
    };
    let mut s = format!("{:>w$}  ", sanitize(&at), w = ctx.line_width);
    if ctx.args.warnings {
        let k = match kind {
            EventKind::Error => "error",
            EventKind::Warning => "warning",
        };
        s.push_str(&cell(k, W_KIND));
        s.push_str("  ");
    }
    // The run's last characters: a ULID's random part, which tells
    // concurrent runs apart (its first ten are the start time).
    let run_text = run
        .map(|r| {
            let body = r.get(1..r.len().saturating_sub(1)).unwrap_or_default();
            let id = unescape(body);
            let n = id.chars().count();
            id.chars().skip(n.saturating_sub(W_RUN)).collect::<String>()
        })
        .unwrap_or_else(|| "-".to_string());
    s.push_str(&cell(&run_text, W_RUN));
    s.push_str("  ");
    s.push_str(&cell(&origin(ev, tool), W_ORIGIN));
    s.push_str("  ");
    let cat = field("category").unwrap_or_else(|| "-".to_string());
    let cat_cell = cell(&cat, W_CATEGORY);
    s.push_str(&paint(ctx.color, category_color(&cat, kind), &cat_cell));
    s.push_str("  ");
    s.push_str(&cell(&field("code").unwrap_or_else(|| "-".into()), W_CODE));
    s.push_str("  ");
    let after = ev
        .get("retry_after_ms")
        .and_then(|m| uint_value(ev.line, m));
    let retry = match (retryable(ev, kind), after) {
        (Some(true), Some(ms)) => format!("yes {:.1}s", ms as f64 / 1000.0),
        (Some(true), None) => "yes".to_string(),
        (Some(false), _) => "no".to_string(),
        (None, _) => "-".to_string(),
    };
    s.push_str(&cell(&retry, W_RETRY));
    s.push_str("  ");
    s.push_str(&sanitize(&field("message").unwrap_or_default()));
    if let Some(t) = field("target") {
        s.push_str(&format!(" [{}]", sanitize(&t)));
    }
    s.push('\n');
    s
}
