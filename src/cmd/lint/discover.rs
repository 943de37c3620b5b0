//! Check 1, discovery (§ 3): `schema --output json` and `capabilities
//! --output json` in an environment reduced to `PATH` (and, with
//! `--no-network`, a new network namespace), the schema usable with a
//! public `$id` (§ 10.2), and the `--schema`/`--capabilities` flags, where
//! a tool has them, giving the same documents. What it finds is shared by
//! all of a tool's commands.

use std::time::Duration;

use serde_json::Value;

use super::probe::{
    Probe, ProbeOpts, bytes_excerpt, excerpt, ran, run_probe, run_program, stack_trace,
};
use super::result::{CheckResult, Status};
use crate::cli::LintArgs;
use crate::spec::exit;

/// What discovery found.
pub(super) struct Discovery {
    pub(super) outcome: CheckResult,
    pub(super) schema: Option<Value>,
    pub(super) caps: Option<Value>,
    /// Why `caps` is `None`: [`NOT_OFFERED`] or [`UNREADABLE`].
    pub(super) caps_absent: &'static str,
}

/// Check 1: `schema --output json` and `capabilities --output json`
/// without credentials, configuration or (optionally) network (§ 3).
/// Both are always asked: a bad schema does not hide the capabilities
/// from the checks that read them.
pub(super) fn discover(prefix: &[String], args: &LintArgs) -> Discovery {
    // --no-network needs a network namespace; where there is none, say so
    // and run with the network rather than not at all.
    let sandbox = args.no_network && network_namespace(args.timeout);
    let empty = EmptyDir::new(prefix);
    let prefix = &empty.prefix;
    let mut probes = Probes {
        prefix,
        opts: ProbeOpts {
            reduced_env: true,
            no_network: sandbox,
            cwd: empty.dir.clone(),
            ..ProbeOpts::default()
        },
        timeout: args.timeout,
        evidence: Vec::new(),
    };
    let schema = probes.usable_schema(args.no_network);
    let caps = probes.capabilities();
    let mut faults: Vec<Fault> = Vec::new();
    let schema = schema.map_err(|f| faults.push(f)).ok();
    let (caps, caps_absent) = match caps {
        Ok(Some(c)) => (Some(c), ""),
        Ok(None) => (None, NOT_OFFERED),
        Err(f) => {
            faults.push(f);
            (None, UNREADABLE)
        }
    };
    if let Some(schema) = &schema {
        if let Err(f) = probes.flags_agree(schema, caps.as_ref()) {
            faults.push(f);
        }
    }
    let outcome = match faults.is_empty() {
        true => CheckResult::new(
            1,
            "*",
            Status::Pass,
            pass_detail(caps.is_some(), args, sandbox),
        )
        .with(probes.evidence),
        false => probes.failed(faults),
    };
    Discovery {
        outcome,
        schema,
        caps,
        caps_absent,
    }
}

/// An empty directory for discovery to run in, so that a configuration
/// file in the user's directory is not read (§ 3.2; found by review),
/// and the tool's words with the files they name made absolute. Not for
/// `-m MODULE` (Python finds its module in the directory it runs in).
struct EmptyDir {
    dir: Option<std::path::PathBuf>,
    prefix: Vec<String>,
}

impl EmptyDir {
    fn new(prefix: &[String]) -> EmptyDir {
        let same = EmptyDir {
            dir: None,
            prefix: prefix.to_vec(),
        };
        if prefix.iter().any(|w| w == "-m") {
            return same;
        }
        let dir = std::env::temp_dir().join(format!(
            "aoi-lint-{}-{}",
            std::process::id(),
            &crate::emit::ulid()[16..]
        ));
        if std::fs::create_dir(&dir).is_err() {
            return same;
        }
        // A first word without `/` is looked up in PATH, never here.
        let local =
            |i: usize, w: &str| (i > 0 || w.contains('/')) && std::path::Path::new(w).is_file();
        let prefix = prefix
            .iter()
            .enumerate()
            .map(|(i, w)| match local(i, w) {
                true => std::fs::canonicalize(w).map_or(w.clone(), |p| p.display().to_string()),
                false => w.clone(),
            })
            .collect();
        EmptyDir {
            dir: Some(dir),
            prefix,
        }
    }
}

impl Drop for EmptyDir {
    fn drop(&mut self) {
        if let Some(d) = &self.dir {
            // A tool that wrote there leaves it; lint does not delete
            // what it did not make.
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Why the capabilities are absent: not offered by the tool.
pub(super) const NOT_OFFERED: &str = "the tool offers no capabilities (check 1)";
/// Why the capabilities are absent: offered, but failed or not JSON.
pub(super) const UNREADABLE: &str = "the capabilities could not be read (check 1)";

/// What check 1 says when it passes.
fn pass_detail(caps: bool, args: &LintArgs, sandbox: bool) -> String {
    let mut detail = match caps {
        true => {
            "schema and capabilities succeed with only PATH set; the schema is usable with a public $id"
        }
        false => {
            "schema succeeds with only PATH set and has a public $id; capabilities is not offered (a usage error)"
        }
    }
    .to_string();
    if sandbox {
        detail.push_str("; without network (a new network namespace)");
    } else if args.no_network {
        detail.push_str("; --no-network: no network namespace available here (unshare -rn failed), run with the network");
    }
    detail
}

/// Whether a new network namespace can be had here (`unshare -rn true`).
fn network_namespace(timeout: Duration) -> bool {
    let probe = run_program(
        &["true".to_string()],
        &ProbeOpts {
            no_network: true,
            ..ProbeOpts::default()
        },
        timeout,
    );
    probe.exit() == 0
}

/// The discovery probes of one tool, and the evidence they gathered.
struct Probes<'a> {
    /// The words that run the tool.
    prefix: &'a [String],
    opts: ProbeOpts,
    timeout: Duration,
    evidence: Vec<String>,
}

impl Probes<'_> {
    /// The tool run with `words` after its prefix.
    fn run(&mut self, words: &[&str]) -> Probe {
        let mut a = self.prefix.to_vec();
        a.extend(words.iter().map(|w| w.to_string()));
        let p = run_probe(&a, &self.opts, self.timeout);
        self.evidence.push(ran(&a, &p));
        p
    }

    /// Check 1 failed, with the evidence so far and what each probe that
    /// showed a fault wrote on stderr.
    fn failed(self, faults: Vec<Fault>) -> CheckResult {
        let mut evidence = self.evidence;
        let detail: Vec<&str> = faults.iter().map(|f| f.detail.as_str()).collect();
        let detail = detail.join("; ");
        for f in &faults {
            if !f.stderr.trim().is_empty() {
                evidence.push(format!("stderr: {}", excerpt(&f.stderr)));
            }
        }
        CheckResult::new(1, "*", Status::Fail, detail).with(evidence)
    }

    /// `schema --output json`: it succeeds, is one JSON document, a usable
    /// JSON Schema, with a public `$id`.
    fn usable_schema(&mut self, no_network: bool) -> Result<Value, Fault> {
        let sp = self.run(&["schema", "--output", "json"]);
        if sp.exit() != 0 || sp.timed_out {
            let hint = if no_network {
                " (no HOME, no credentials, no config variables, no network)"
            } else {
                " (no HOME, no credentials, no config variables)"
            };
            return Err(Fault::of(
                format!(
                    "`schema --output json` failed in an environment reduced to PATH{hint}: {}",
                    sp.status()
                ),
                &sp,
            ));
        }
        if sp.stdout.is_empty() {
            return Err(Fault::of(
                "`schema --output json` exits 0 but writes nothing on stdout".into(),
                &sp,
            ));
        }
        let schema: Value = match serde_json::from_slice(&sp.stdout) {
            Ok(v) => v,
            Err(e) => {
                self.evidence
                    .push(format!("stdout: {}", bytes_excerpt(&sp.stdout)));
                return Err(Fault::of(
                    format!("the schema is not one JSON document: {e}"),
                    &sp,
                ));
            }
        };
        match schema_fault(&schema) {
            Some(why) => Err(Fault::of(why, &sp)),
            None => Ok(schema),
        }
    }

    /// `capabilities --output json`: one JSON object when it succeeds;
    /// not offered (`None`) when it is a usage error (an unknown
    /// command: exit 64, or 2 as argument parsers give it). Any other
    /// failure is one (exit 78 "…_API_TOKEN is not set" is a
    /// capabilities that needs more than PATH, not one not offered).
    fn capabilities(&mut self) -> Result<Option<Value>, Fault> {
        let cp = self.run(&["capabilities", "--output", "json"]);
        let fail = |why: String| Err(Fault::of(why, &cp));
        if cp.exit() == 0 && !cp.timed_out {
            if cp.stdout.is_empty() {
                return fail(
                    "`capabilities --output json` exits 0 but writes nothing on stdout".into(),
                );
            }
            return match serde_json::from_slice::<Value>(&cp.stdout) {
                Ok(v) if v.is_object() => Ok(Some(v)),
                Ok(_) => fail("capabilities is not one JSON object (§ 17)".into()),
                Err(e) => fail(format!("capabilities is not JSON: {e}")),
            };
        }
        if let Some(t) = stack_trace(&cp.stderr_text()) {
            return fail(format!("capabilities crashed: {t}"));
        }
        if matches!(cp.exit(), exit::USAGE | 2) && !cp.timed_out {
            return Ok(None);
        }
        fail(format!(
            "`capabilities --output json` failed in an environment reduced to PATH: {} (not a usage error: it is offered, and needs more than § 3 allows)",
            cp.status()
        ))
    }

    /// `--schema` / `--capabilities` flags, where the tool has them (they
    /// succeed), must say the same as the subcommands (§ 3).
    fn flags_agree(&mut self, schema: &Value, caps: Option<&Value>) -> Result<(), Fault> {
        for (flag, sub) in [("--schema", Some(schema)), ("--capabilities", caps)] {
            let p = self.run(&[flag, "--output", "json"]);
            if p.exit() != 0 || p.timed_out {
                continue;
            }
            let same = serde_json::from_slice::<Value>(&p.stdout)
                .ok()
                .is_some_and(|v| Some(&v) == sub);
            if !same {
                return Err(Fault::of(
                    format!(
                        "`{flag} --output json` succeeds but does not give what the subcommand gives"
                    ),
                    &p,
                ));
            }
            self.evidence.push(format!(
                "{flag} --output json: the same document as the subcommand"
            ));
        }
        Ok(())
    }
}

/// Why check 1 failed: the detail, and the stderr of the probe that
/// showed it (kept as evidence).
struct Fault {
    detail: String,
    stderr: String,
}

impl Fault {
    fn of(detail: String, p: &Probe) -> Fault {
        Fault {
            detail,
            stderr: p.stderr_text(),
        }
    }
}

/// Why a schema that parsed is not usable: structural problems, or a
/// missing or local `$id` (§ 10.2).
fn schema_fault(schema: &Value) -> Option<String> {
    // aoi's one validator decides (the same as `--schema`): a schema it
    // cannot compile, or one that needs another document, is not usable
    // offline (§ 3).
    if let Err(why) = crate::validator::EventSchema::from_value(schema) {
        return Some(format!("the schema: {why}"));
    }
    match schema.get("$id").and_then(Value::as_str) {
        Some(id) if id_is_public(id) => None,
        Some(id) => Some(format!(
            "the schema's $id {} is a local path or not a URI (§ 10.2)",
            id
        )),
        // § 10.2 only forbids a machine-local $id; aoi asks for one (a
        // schema a consumer can cite and cache), as documented.
        None => Some(
            "the schema has no $id (aoi's requirement: § 10.2 forbids only a machine-local one; a consumer needs a name to cite and cache it by)"
                .into(),
        ),
    }
}

/// True for a `$id` a consumer can use as an identifier: an absolute URI
/// that is not a local path (§ 10.2).
fn id_is_public(id: &str) -> bool {
    let lower = id.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://") || lower.starts_with("urn:"))
        && !lower.contains("://localhost")
        && !lower.contains("://127.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert!(id_is_public("https://example.org/s.json"));
        assert!(!id_is_public("file:///opt/data/bin/schema.json"));
        assert!(!id_is_public("/opt/schema.json"));
    }
}
