//! The spec's own examples (§ 19), run through `aoi check`.
//!
//! The examples are copied verbatim below and checked against the spec
//! text (when the spec is present next to the crate), so an edit of the
//! spec shows up here.

use crate::util::{check, report_full};

/// § 19.1 Finite search. Claims: a complete, successful search (meta with
/// the full identity, one hit, `ok:true`, counters reconciled). Lacks: the
/// summary has no `event_count` (recommended, required for Verifiable) and
/// no identity triple (SHOULD, § 5). Both are advisories: exit 0.
const EX_19_1: &str = r#"{"type":"aoi:meta","aoi":{"seq":0,"run":"01JZQ7X4TQ9"},"tool":"outline","tool_version":"1.8.2","aoi_version":"1.0-alpha","schema_name":"com.example.outline.events","schema_version":"1.0.0","command":"search"}
{"type":"hit","aoi":{"seq":1,"run":"01JZQ7X4TQ9"},"rank":1,"id":"doc_123","title":"Agent-Operable Tools","snippet":"A conforming tool exposes a stable interface..."}
{"type":"aoi:summary","aoi":{"seq":2,"run":"01JZQ7X4TQ9"},"ok":true,"count":1,"warning_count":0,"error_count":0,"partial":false,"truncated":false}
"#;

/// § 19.3 Doctor. Claims: a doctor run in which one check failed, so the
/// run failed (`ok:false`, `reason:"failed"`), with `event_count` 4 matching
/// the four lines. Lacks: aoi:meta has no `tool_version` (meta.identity) and
/// the summary no identity (summary.identity), both advisories. The
/// summary's `error_count:0` is right: a failed aoi:check is not an
/// aoi:error. Verdict: conforming upstream failure, not retryable: exit 1.
const EX_19_3: &str = r#"{"type":"aoi:meta","aoi":{"seq":0,"run":"01JZQ7X4TQ9"},"tool":"outline","aoi_version":"1.0-alpha","schema_name":"com.example.outline.events","schema_version":"1.0.0","command":"doctor"}
{"type":"aoi:check","aoi":{"seq":1,"run":"01JZQ7X4TQ9"},"name":"config_file","ok":true,"severity":"info","detail":"found"}
{"type":"aoi:check","aoi":{"seq":2,"run":"01JZQ7X4TQ9"},"name":"api_token","ok":false,"severity":"error","detail":"missing"}
{"type":"aoi:summary","aoi":{"seq":3,"run":"01JZQ7X4TQ9"},"ok":false,"reason":"failed","event_count":4,"count":0,"error_count":0,"properties":{"checks_failed":1}}
"#;

/// § 19.4 Input JSONL error. Claims: an import that skipped one bad input
/// line and imported 29 records (`partial:true`, `count:29`,
/// `event_count:32`). The spec text itself says the 29 audit events (seq 2
/// to 30) "are omitted below": as printed it is exactly the middle-of-stream
/// elision § 8.1 says seq and event_count exist to detect. So aoi reports
/// seq.gap at line 3 (expected 2, found 31): exit 65. The counters that
/// differ by exactly the lost lines (event_count 32 vs 3 lines, count 29
/// vs 0 domain events) are that cause's effect, not findings of their own
/// (one cause, one finding). Also
/// advisories: aoi:meta carries only `tool` (meta.identity) and the summary
/// no identity (summary.identity).
const EX_19_4: &str = r#"{"type":"aoi:meta","aoi":{"seq":0,"run":"01JZQ7X4TQ9"},"tool":"outline","command":"import","properties":{"input_mode":"jsonl","continue_on_error":true}}
{"type":"aoi:error","aoi":{"seq":1,"run":"01JZQ7X4TQ9"},"scope":"item","category":"validation","code":"INPUT_JSONL_PARSE_ERROR","line_number":17,"message":"Invalid JSON on input line 17","retryable":false}
{"type":"aoi:summary","aoi":{"seq":31,"run":"01JZQ7X4TQ9"},"ok":false,"reason":"failed","event_count":32,"count":29,"error_count":1,"partial":true}
"#;

/// The examples appear verbatim in the spec's ```jsonl blocks.
#[test]
fn examples_are_verbatim_from_the_spec() {
    let Some(path) = crate::optional::shared("spec/AOI-CLI-v1.0-alpha.md", "the verbatim check")
    else {
        return;
    };
    let spec = std::fs::read_to_string(path).expect("read the spec");
    for (name, ex) in [("19.1", EX_19_1), ("19.3", EX_19_3), ("19.4", EX_19_4)] {
        let block = format!("```jsonl\n{ex}```");
        assert!(
            spec.contains(&block),
            "§ {name} example differs from the spec"
        );
    }
}

fn rules_of(r: &crate::util::Report) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = r
        .findings()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().expect("rule").to_string(),
                f["line_number"].as_u64().expect("line_number"),
            )
        })
        .collect();
    v.sort();
    v
}

fn owned(v: &[(&str, u64)]) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = v.iter().map(|(r, l)| (r.to_string(), *l)).collect();
    v.sort();
    v
}

#[test]
fn example_19_1_finite_search() {
    let r = report_full(EX_19_1.as_bytes(), &[]);
    assert_eq!(
        rules_of(&r),
        owned(&[("summary.event-count-absent", 3), ("summary.identity", 3)]),
        "{}",
        r.brief()
    );
    assert!(r.findings().iter().all(|f| f["type"] == "advisory"));
    assert_eq!(r.code, 0);
    let f = &r.stream()["factors"];
    assert_eq!(f["verifiable"], false, "no event_count: not Verifiable");
    assert_eq!(f["versioned"], false, "no identity on the summary");
    assert_eq!(f["typed"], true);
    // The relay is unchanged and the verdict ok.
    let out = check(&[], EX_19_1.as_bytes());
    assert_eq!(out.stdout, EX_19_1.as_bytes());
    assert_eq!(out.code, 0);
}

#[test]
fn example_19_3_doctor() {
    let r = report_full(EX_19_3.as_bytes(), &[]);
    assert_eq!(
        rules_of(&r),
        owned(&[("meta.identity", 1), ("summary.identity", 4)]),
        "{}",
        r.brief()
    );
    assert_eq!(r.code, 1);
    let st = r.stream();
    assert_eq!(st["outcome"], "failed");
    assert_eq!(st["upstream_ok"], false);
    assert_eq!(st["upstream_reason"], "failed");
    assert_eq!(st["factors"]["verifiable"], true);
    let sum = r.summary();
    assert_eq!(sum["ok"], false);
    assert_eq!(sum["reason"], "failed");
    assert_eq!(sum["upstream"]["tool"], "outline");
    assert!(sum["upstream"].get("tool_version").is_none());
}

/// The lost lines explain a counter's difference only up to their number:
/// a counter off by more is a cause of its own, and still reported.
#[test]
fn counters_off_by_more_than_the_lost_lines_are_reported() {
    for (field, bad, rule) in [
        (
            "\"event_count\":32",
            "\"event_count\":40",
            "summary.event-count",
        ),
        ("\"count\":29", "\"count\":35", "summary.count"),
    ] {
        let ex = EX_19_4.replace(field, bad);
        let r = report_full(ex.as_bytes(), &[]);
        assert_eq!(r.of(rule).len(), 1, "{bad}: {}", r.brief());
        assert_eq!(r.of("seq.gap").len(), 1, "{bad}: {}", r.brief());
    }
}

#[test]
fn example_19_4_input_jsonl_error() {
    let r = report_full(EX_19_4.as_bytes(), &[]);
    assert_eq!(
        rules_of(&r),
        owned(&[
            ("meta.identity", 1),
            ("seq.gap", 3),
            ("summary.identity", 3),
        ]),
        "{}",
        r.brief()
    );
    assert_eq!(r.code, 65);
    let gap = &r.of("seq.gap")[0];
    assert_eq!(gap["seq"], 31);
    assert!(
        gap["message"]
            .as_str()
            .unwrap()
            .contains("29 line(s) missing")
    );
    // With the 29 elided audit events put back, the example conforms and
    // reports the failed (non-retryable) import: exit 1.
    let lines: Vec<&str> = EX_19_4.lines().collect();
    let mut full = format!("{}\n{}\n", lines[0], lines[1]);
    for seq in 2..=30 {
        full.push_str(&format!(
            r#"{{"type":"created","aoi":{{"seq":{seq},"run":"01JZQ7X4TQ9"}},"id":"rec_{seq}"}}"#
        ));
        full.push('\n');
    }
    full.push_str(lines[2]);
    full.push('\n');
    let r = report_full(full.as_bytes(), &[]);
    assert!(
        r.findings().iter().all(|f| f["type"] == "advisory"),
        "{}",
        r.brief()
    );
    assert_eq!(r.code, 1, "{}", r.brief());
    assert_eq!(r.summary()["caused_by"]["code"], "INPUT_JSONL_PARSE_ERROR");
}
