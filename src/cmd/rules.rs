//! `aoi rules`: the rule catalog, for people and for docs/rules.md.

use std::io::{self, Write};

use crate::cli::RulesArgs;
use crate::rules::{RULES, catalog_markdown};
use crate::spec::exit;

/// Prints the catalog; returns the exit status.
pub fn run(args: &RulesArgs) -> i32 {
    let text = if args.markdown {
        catalog_markdown()
    } else {
        let w = RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
        let mut s = String::new();
        for r in RULES {
            s.push_str(&format!(
                "{:<w$}  {:<10}  {:<12}  {}\n",
                r.id,
                r.severity.name(),
                r.spec,
                r.hint
            ));
        }
        s
    };
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => exit::OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::PIPE,
        Err(e) => {
            eprintln!("aoi rules: cannot write stdout: {e}");
            exit::IOERR
        }
    }
}
