//! `aoi rules`: the rule catalog, for people and for docs/rules.md.

use crate::cli::RulesArgs;
use crate::rules::{RULES, catalog_markdown};

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
    crate::out::print_stdout("rules", &text)
}
