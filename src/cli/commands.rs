//! What each command is, stated once: its § 13.1 role, whether it reads
//! AOI JSON Lines and what it does with a malformed line (§ 12.2), its
//! outputs and event types. `aoi capabilities` (§ 17) and `aoi
//! input-schema` (§ 12.1) both read it; a test holds it to the clap
//! definitions.

use crate::spec::types;

/// What one command is, for the manifest.
pub struct Spec {
    pub name: &'static str,
    /// § 13.1: `relay` (passes the stream through, emits no framework
    /// events), `producer` (its own conforming stream), `info` (no stream).
    pub role: &'static str,
    /// Reads AOI JSON Lines (stdin or files).
    pub reads_jsonl: bool,
    /// § 12.2: what a malformed input line does.
    pub malformed_input: &'static str,
    /// § 12.2's three modes: `per-line tolerant`, `whole-input fail-fast`
    /// or `configurable`; empty for commands without JSONL input.
    pub malformed_mode: &'static str,
    /// Outputs besides the human default.
    pub outputs: &'static [&'static str],
    /// Event types of its machine output (besides, for `filter`, the
    /// domain types its results give themselves: `any_domain_types`).
    pub event_types: &'static [&'static str],
}

/// Every command aoi has, in the order of `aoi --help`.
pub const COMMANDS: &[Spec] = &[
    Spec {
        name: "check",
        malformed_mode: "per-line tolerant",
        role: "relay",
        reads_jsonl: true,
        malformed_input: "relayed byte for byte and reported as a violation (exit 65)",
        outputs: &["relay", "jsonl"],
        event_types: &[
            types::META,
            "violation",
            "advisory",
            "stream",
            types::ERROR,
            types::SUMMARY,
        ],
    },
    Spec {
        name: "strip",
        malformed_mode: "per-line tolerant",
        role: "relay",
        reads_jsonl: true,
        malformed_input: "dropped and reported as a violation (exit 65); with --log, lines that are no event are skipped, counted and stated",
        outputs: &["relay"],
        event_types: &[],
    },
    Spec {
        name: "summary",
        malformed_mode: "per-line tolerant",
        role: "producer",
        reads_jsonl: true,
        malformed_input: "judged: a violation (exit 65); with --log, lines that are no event are skipped, counted and stated",
        outputs: &["text", "json", "jsonl"],
        event_types: &[types::META, "outcome", types::ERROR, types::SUMMARY],
    },
    Spec {
        name: "errors",
        malformed_mode: "per-line tolerant",
        role: "producer",
        reads_jsonl: true,
        malformed_input: "judged: a violation (exit 65); with --log, lines that are no event are skipped, counted and stated",
        outputs: &["table", "raw", "jsonl"],
        event_types: &[types::META, types::ERROR, types::WARNING, types::SUMMARY],
    },
    Spec {
        name: "filter",
        malformed_mode: "per-line tolerant",
        role: "producer",
        reads_jsonl: true,
        malformed_input: "judged: a violation of the upstream (exit 65); the filter skips the line",
        outputs: &["jsonl", "raw"],
        event_types: &[
            types::META,
            "value",
            types::ERROR,
            types::WARNING,
            types::SUMMARY,
        ],
    },
    Spec {
        name: "merge-report",
        malformed_mode: "per-line tolerant",
        role: "producer",
        reads_jsonl: true,
        malformed_input: "judged: a violation (exit 65); with --log, lines that are no event are skipped, counted and stated",
        outputs: &["jsonl", "table", "markdown", "junit", "tap"],
        event_types: &[types::META, "report", types::ERROR, types::SUMMARY],
    },
    Spec {
        name: "capabilities",
        malformed_mode: "",
        role: "info",
        reads_jsonl: false,
        malformed_input: "no input",
        outputs: &["json"],
        event_types: &[],
    },
    Spec {
        name: "input-schema",
        malformed_mode: "",
        role: "info",
        reads_jsonl: false,
        malformed_input: "no input",
        outputs: &["json"],
        event_types: &[],
    },
    Spec {
        name: "schema",
        malformed_mode: "",
        role: "info",
        reads_jsonl: false,
        malformed_input: "no input",
        outputs: &["json"],
        event_types: &[],
    },
    Spec {
        name: "lint",
        malformed_mode: "",
        role: "producer",
        reads_jsonl: false,
        malformed_input: "no input (runs the tool it checks)",
        outputs: &["text", "jsonl"],
        event_types: &[types::META, types::CHECK, types::SUMMARY],
    },
    Spec {
        name: "rules",
        malformed_mode: "",
        role: "info",
        reads_jsonl: false,
        malformed_input: "no input",
        outputs: &["text", "markdown", "jsonl"],
        event_types: &[types::META, "rule", types::SUMMARY],
    },
];
