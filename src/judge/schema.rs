//! `--schema FILE`: every event, domain and framework, validated against
//! the tool's own JSON Schema (§ 10, § 18's typed factor), one finding per
//! event that fails, naming the value, the keyword and what it wanted.
//! Without the option nothing here runs: the judge reads no line whole.

use super::Judge;
use crate::rules::RuleId;

impl Judge {
    /// The schema of `--schema`, if given: the reading thread validates
    /// with it too (`crate::drive`).
    pub(crate) fn schema(&self) -> Option<std::sync::Arc<crate::validator::EventSchema>> {
        self.opts.schema.clone()
    }

    /// Validates the event on `line` against the schema given, if any.
    #[inline]
    pub(super) fn schema_event(&mut self, line: &[u8]) {
        if let Some(schema) = self.opts.schema.clone() {
            self.schema_check(&schema, line);
        }
    }

    #[cold]
    fn schema_check(&mut self, schema: &crate::validator::EventSchema, line: &[u8]) {
        // A line longer than the reader holds is judged from a reduced
        // copy in constant memory (`crate::long`), which is not the event:
        // said, never validated as if it were.
        if self.last_long {
            self.here(
                RuleId::SchemaUnchecked,
                format!(
                    "event longer than {} MiB, not validated against the schema",
                    crate::lines::HOLD >> 20
                ),
            );
            return;
        }
        // The reading thread already found it valid (the same answer
        // `line_problem` begins with): nothing to do here.
        if self.schema_ahead {
            return;
        }
        // The peek proved the line one JSON object; a value serde_json
        // cannot hold (a lone surrogate, a number past f64) is said so.
        match schema.line_problem(line) {
            Ok(None) => {}
            Ok(Some(p)) => self.here(RuleId::SchemaInvalid, p.to_string()),
            Err(e) => self.here(
                RuleId::SchemaUnchecked,
                format!("event not validated against the schema: {e}"),
            ),
        }
    }
}
