//! `ls`, as an AOI-CLI source tool: a tiny directory lister built on aoi's
//! producer API ([`aoi::emit::Producer`]).
//!
//! ```text
//! cargo run --example ls -- [--limit N] [--cursor N] [DIR ...] | aoi check
//! ```
//!
//! It writes one `entry` event per directory entry (name order; with
//! `--match TEXT`, only the names that contain TEXT: a search), an
//! item-level `aoi:error` for a directory it cannot read, and a terminal
//! `aoi:summary`; `--limit` bounds the output and sets `truncated` and
//! `next_cursor` (§ 15). `--rate-limit-after N` stands for a backend that
//! refuses more calls after N entries: a process-level, retryable
//! `rate_limited` error with `retry_after_ms`, then a failed run that
//! exits 75, "retry may help" (§ 6, § 9.3). Its arguments appear in `aoi:meta.args` redacted
//! (§ 11, `--token`/`-t` named as the tool's own secret flags), a closed
//! pipe ends it quietly (exit 141, § 7), and SIGINT or SIGTERM, polled
//! between entries through a [`aoi::cancel::Token`], end it with
//! `reason:"cancelled"` (exit 130/143). Every event is judged as it is
//! written: the producer cannot write a stream `aoi check` rejects, and
//! the exit status is the one `aoi check` gives the stream.

use std::path::Path;

use aoi::emit::{
    Category, Ended, ErrorEvent, Producer, Reason, Scope, Summary, ToolIdentity, redact_args_with,
};
use serde::Serialize;
use serde_json::json;

/// The tool's domain events: serialized with their `type` first, fields
/// in declaration order (§ 20).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event<'a> {
    Entry {
        path: &'a str,
        name: &'a str,
        kind: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        size: Option<u64>,
    },
}

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run().clamp(0, 255) as u8)
}

struct Options {
    dirs: Vec<String>,
    limit: Option<u64>,
    cursor: u64,
    /// Only the names that contain this (`--match`).
    pattern: Option<String>,
    /// A slow backend, simulated: this long after each entry.
    delay: std::time::Duration,
    /// A rate-limited backend, simulated: no more entries after this many.
    rate_limit_after: Option<u64>,
}

fn usage(msg: &str) -> i32 {
    eprintln!(
        "ls: {msg}\nusage: ls [--match TEXT] [--limit N] [--cursor N] [--delay-ms N] [--rate-limit-after N] [--token T] [--schema-version V] [DIR ...] (or ls list …) | ls schema | ls capabilities"
    );
    64
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        dirs: Vec::new(),
        limit: None,
        cursor: 0,
        pattern: None,
        delay: std::time::Duration::ZERO,
        rate_limit_after: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} takes a number"))
        };
        match a.as_str() {
            "--limit" => o.limit = Some(number("--limit")?),
            "--cursor" => o.cursor = number("--cursor")?,
            "--delay-ms" => o.delay = std::time::Duration::from_millis(number("--delay-ms")?),
            "--rate-limit-after" => o.rate_limit_after = Some(number("--rate-limit-after")?),
            "--match" => match it.next() {
                Some(p) => o.pattern = Some(p.clone()),
                None => return Err("--match takes a text".into()),
            },
            // Accepted and ignored: a stand-in for a credential a real tool
            // would take, to show that it never reaches the output.
            "--token" | "-t" => {
                it.next();
            }
            "--output" => {
                if it.next().map(String::as_str) != Some("jsonl") {
                    return Err("--output takes jsonl".into());
                }
            }
            // Negotiation (§ 16.1): the one version this ls writes.
            "--schema-version" => {
                let v = it.next().map(String::as_str).unwrap_or_default();
                if v != SCHEMA_VERSION {
                    return Err(format!(
                        "unsupported --schema-version {v} (this ls writes {SCHEMA_VERSION})"
                    ));
                }
            }
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option {s}")),
            s => o.dirs.push(s.to_string()),
        }
    }
    if o.dirs.is_empty() {
        o.dirs.push(".".into());
    }
    Ok(o)
}

const SCHEMA_VERSION: &str = "1.0.0";

fn identity() -> ToolIdentity {
    ToolIdentity::new(
        "ls",
        env!("CARGO_PKG_VERSION"),
        "org.aoi-toolkit.example.ls.events",
        SCHEMA_VERSION,
    )
}

/// `ls schema` and `ls capabilities` (§ 10, § 17): one JSON object each,
/// built from aoi's framework definitions and capability builder.
fn discovery(what: &str, rest: &[String]) -> i32 {
    use aoi::emit::discovery::{Capabilities, Command, schema_document};
    if !(rest.is_empty() || rest == ["--output", "json"]) {
        return usage(&format!("{what} takes only --output json"));
    }
    let id = identity();
    let doc = if what == "schema" {
        let entry = json!({
            "type": "object",
            "required": ["path", "name", "kind"],
            "properties": {
                "path": {"type": "string"}, "name": {"type": "string"},
                "kind": {"enum": ["file", "dir", "symlink", "other", "unknown"]},
                "size": {"type": "integer", "minimum": 0},
            },
        });
        let schema_id = "https://schemas.aoi-toolkit.org/example-ls/1.0.0/schema.json";
        schema_document(&id, schema_id, &[("entry", entry)])
    } else {
        let list = Command::new("list", "list or search directory entries, name order")
            .paged()
            .event_types(&["entry"])
            .cancellable()
            .set("supports_schema_version", true);
        Capabilities::new(&id).command(list).to_value()
    };
    println!("{doc}");
    0
}

fn run() -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(what) = args
        .first()
        .filter(|a| *a == "schema" || *a == "capabilities")
    {
        return discovery(what, &args[1..]);
    }
    // `ls list …` is `ls …`: the command's name, as the capabilities say.
    let args: Vec<String> = match args.first().map(String::as_str) {
        Some("list") => args[1..].to_vec(),
        _ => args,
    };
    let opts = match parse(&args) {
        Ok(o) => o,
        Err(msg) => return usage(&msg),
    };
    // SIGINT/SIGTERM set the token; nothing ends the process behind the
    // tool's back (no `_exit`, no SIGALRM): it polls at each entry.
    let token = aoi::cancel::Signals::new().install().unwrap_or_else(|e| {
        eprintln!("ls: cannot handle signals: {e}");
        aoi::cancel::Token::new()
    });
    let id = identity();
    let (redacted, _) = redact_args_with(&args, &["--token", "-t"]);
    let meta = vec![("args", json!(redacted)), ("args_redacted", json!(true))];
    let out = Producer::start_with(id, "list", meta, aoi::emit::stdout_writer());
    let mut out = match out {
        Ok(p) => p.cancel_on(token.clone()),
        Err(Ended::Closed) => return 141,
        Err(e) => {
            eprintln!("ls: {e}");
            return 74;
        }
    };
    let exit = match list(&mut out, &opts, &token) {
        Ok(summary) => out.close(summary),
        // A closed pipe, a cancellation or a failed write: `end` writes
        // what can still be written and gives the exit status.
        Err(e) => out.end(e),
    };
    exit.code()
}

/// Lists every directory; returns the summary to close with.
fn list<W: std::io::Write>(
    out: &mut Producer<W>,
    o: &Options,
    token: &aoi::cancel::Token,
) -> Result<Summary, Ended> {
    let mut index = 0u64;
    let mut emitted = 0u64;
    let mut failed = 0u64;
    for dir in &o.dirs {
        let mut names = match std::fs::read_dir(dir) {
            Ok(rd) => rd
                .filter_map(Result::ok)
                .map(|e| e.file_name())
                .collect::<Vec<_>>(),
            Err(e) => {
                failed += 1;
                let category = match e.kind() {
                    std::io::ErrorKind::NotFound => Category::NotFound,
                    std::io::ErrorKind::PermissionDenied => Category::Authz,
                    _ => Category::Io,
                };
                out.error(
                    &ErrorEvent::of(category, "DIR_UNREADABLE", format!("{dir}: {e}"))
                        .scope(Scope::Item)
                        .target(dir.as_str()),
                )?;
                continue;
            }
        };
        names.sort();
        let wanted = |n: &std::ffi::OsString| {
            let text = n.to_string_lossy();
            o.pattern.as_deref().is_none_or(|p| text.contains(p))
        };
        for name in names.into_iter().filter(wanted) {
            if index < o.cursor {
                index += 1;
                continue;
            }
            if o.limit.is_some_and(|l| emitted >= l) {
                let cursor = index.to_string();
                let s = Summary::truncated(Some(&cursor));
                return Ok(if failed > 0 {
                    s.field("partial", true)
                } else {
                    s
                });
            }
            if o.rate_limit_after.is_some_and(|n| emitted >= n) {
                return rate_limited(out);
            }
            let path = Path::new(dir).join(&name);
            let (kind, size) = match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => ("dir", None),
                Ok(m) if m.file_type().is_symlink() => ("symlink", None),
                Ok(m) if m.is_file() => ("file", Some(m.len())),
                Ok(_) => ("other", None),
                Err(_) => ("unknown", None),
            };
            out.emit(&Event::Entry {
                path: &path.to_string_lossy(),
                name: &name.to_string_lossy(),
                kind,
                size,
            })?;
            index += 1;
            emitted += 1;
            // The "backend call": cut short by a stop request, which the
            // next write then reports as Ended::Cancelled.
            token.wait(o.delay);
        }
    }
    // A stop that came during the last wait: the run did not finish.
    if let Some(sig) = token.signal() {
        return Err(Ended::Cancelled(sig));
    }
    // Every directory unreadable: the run failed; some: partial (§ 8.3).
    Ok(if failed > 0 && failed == o.dirs.len() as u64 {
        Summary::failed(Reason::Failed)
    } else if failed > 0 && emitted > 0 {
        Summary::partial().field("truncated", false)
    } else {
        Summary::ok().field("truncated", false)
    })
}

/// The backend refused the next call: a process-level `rate_limited`
/// error, retryable after a second (§ 9.2, § 9.3), and a failed run; the
/// judge, and so [`Producer::close`], then says 75: retry may help.
fn rate_limited<W: std::io::Write>(out: &mut Producer<W>) -> Result<Summary, Ended> {
    out.error(
        &ErrorEvent::of(
            Category::RateLimited,
            "BACKEND_RATE_LIMITED",
            "the backend refuses more calls for now",
        )
        .scope(Scope::Process)
        .retry_after_ms(1000),
    )?;
    Ok(Summary::failed(Reason::Failed))
}
