//! `aoi rules`: the rule catalog, for people, for docs/rules.md, and as an
//! AOI stream (`--output jsonl`: aoi:meta, one `rule` event per rule, an
//! aoi:summary), which `aoi check` judges as it judges any stream.

use crate::spec::exit::Code;
use serde_json::json;

use crate::cli::{Format, RulesArgs};
use crate::emit::Summary;
use crate::out::{Sinks, Stop};
use crate::rules::{RULES, Rule, catalog_markdown};

/// Prints the catalog; returns the exit status.
pub fn run(args: &RulesArgs) -> Code {
    if args.output == Some(Format::Jsonl) {
        return jsonl();
    }
    let text = if args.markdown {
        catalog_markdown()
    } else {
        table()
    };
    crate::out::print_stdout("rules", &text)
}

/// One row per rule, every column as wide as its widest cell (characters:
/// a section such as `§ 2, RFC 8259 § 8.2` is wider than most).
fn table() -> String {
    let width = |f: fn(&Rule) -> &str| RULES.iter().map(|r| f(r).chars().count()).max();
    let w = width(|r| r.id).unwrap_or(0);
    let ws = width(|r| r.spec).unwrap_or(0);
    RULES
        .iter()
        .map(|r| {
            let (id, severity, spec) = (r.id, r.severity.name(), r.spec);
            format!("{id:<w$}  {severity:<10}  {spec:<ws$}  {}\n", r.hint)
        })
        .collect()
}

/// The catalog as a conforming stream; exit 0, or the stop's on a closed
/// or failing stdout.
fn jsonl() -> Code {
    let mut sinks = Sinks::report_to_stdout();
    let r = (|| -> Result<(), Stop> {
        sinks.out.meta("rules", Vec::new())?;
        for r in RULES {
            sinks.out.event(
                "rule",
                &[
                    ("id", r.id.into()),
                    ("severity", r.severity.name().into()),
                    ("spec", r.spec.into()),
                    ("hint", r.hint.into()),
                    ("doc", r.doc.into()),
                ],
            )?;
        }
        let summary = Summary::ok().field("properties", json!({ "rules": RULES.len() }));
        sinks.out.finish(&summary)
    })();
    match r {
        Ok(()) => Code::OK,
        Err(stop) => sinks.end("rules", stop),
    }
}
