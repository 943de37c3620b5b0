//! `ls`, as an AOI-CLI source tool: a tiny directory lister built on aoi's
//! producer API ([`aoi::emit::Producer`]).
//!
//! ```text
//! cargo run --example ls -- [--limit N] [--cursor N] [DIR ...] | aoi check
//! ```
//!
//! It writes one `entry` event per directory entry (name order), an
//! item-level `aoi:error` for a directory it cannot read, and a terminal
//! `aoi:summary`; `--limit` bounds the output and sets `truncated` and
//! `next_cursor` (§ 15). Its arguments appear in `aoi:meta.args` redacted
//! (§ 11), a closed pipe ends it quietly (exit 141, § 7), and SIGINT or
//! SIGTERM end it with `reason:"cancelled"` (exit 130/143).

use std::path::Path;

use aoi::emit::{Ended, ErrorEvent, Producer, Reason, Summary, ToolIdentity, redact_args};
use serde_json::json;

fn main() {
    std::process::exit(run());
}

struct Options {
    dirs: Vec<String>,
    limit: Option<u64>,
    cursor: u64,
}

fn usage(msg: &str) -> i32 {
    eprintln!("ls: {msg}\nusage: ls [--limit N] [--cursor N] [DIR ...]");
    64
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        dirs: Vec::new(),
        limit: None,
        cursor: 0,
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
            // Accepted and ignored: a stand-in for a credential a real tool
            // would take, to show that it never reaches the output.
            "--token" => {
                it.next();
            }
            "--output" => {
                if it.next().map(String::as_str) != Some("jsonl") {
                    return Err("--output takes jsonl".into());
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

fn run() -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match parse(&args) {
        Ok(o) => o,
        Err(msg) => return usage(&msg),
    };
    if let Err(e) = aoi::cancel::install() {
        eprintln!("ls: cannot handle signals: {e}");
    }
    let id = ToolIdentity::new(
        "ls",
        env!("CARGO_PKG_VERSION"),
        "org.aoi-toolkit.example.ls.events",
        "1.0.0",
    );
    let mut out = Producer::new(
        aoi::emit::Emitter::with_identity(id),
        aoi::emit::stdout_writer(),
    );
    let (redacted, _) = redact_args(&args);
    let meta = vec![("args", json!(redacted)), ("args_redacted", json!(true))];
    if let Err(e) = out.meta("list", meta) {
        return out.end(e);
    }
    match list(&mut out, &opts) {
        Ok(summary) => out.close(summary),
        // A closed pipe, a cancellation or a failed write: `end` writes
        // what can still be written and gives the exit status.
        Err(e) => out.end(e),
    }
}

/// Lists every directory; returns the summary to close with.
fn list<W: std::io::Write>(out: &mut Producer<W>, o: &Options) -> Result<Summary, Ended> {
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
                    std::io::ErrorKind::NotFound => "not_found",
                    std::io::ErrorKind::PermissionDenied => "authz",
                    _ => "io",
                };
                out.error(
                    &ErrorEvent::new(category, "DIR_UNREADABLE", format!("{dir}: {e}"))
                        .field("scope", "item")
                        .field("target", dir.as_str()),
                )?;
                continue;
            }
        };
        names.sort();
        for name in names {
            if index < o.cursor {
                index += 1;
                continue;
            }
            if o.limit.is_some_and(|l| emitted >= l) {
                return Ok(Summary::ok()
                    .field("partial", failed > 0)
                    .field("truncated", true)
                    .field("next_cursor", index.to_string()));
            }
            let path = Path::new(dir).join(&name);
            let (kind, size) = match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => ("dir", None),
                Ok(m) if m.file_type().is_symlink() => ("symlink", None),
                Ok(m) if m.is_file() => ("file", Some(m.len())),
                Ok(_) => ("other", None),
                Err(_) => ("unknown", None),
            };
            let mut fields = vec![
                ("path", json!(path.to_string_lossy())),
                ("name", json!(name.to_string_lossy())),
                ("kind", json!(kind)),
            ];
            if let Some(s) = size {
                fields.push(("size", json!(s)));
            }
            out.event("entry", &fields)?;
            index += 1;
            emitted += 1;
        }
    }
    // Every directory unreadable: the run failed; some: partial (§ 8.3).
    Ok(if failed > 0 && failed == o.dirs.len() as u64 {
        Summary::failed(Reason::Failed)
    } else {
        Summary::ok()
            .field("partial", failed > 0)
            .field("truncated", false)
    })
}
