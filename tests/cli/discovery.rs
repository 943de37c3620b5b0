//! `aoi capabilities`: the manifest of § 17, true to the CLI and to what
//! the commands really emit.

use serde_json::Value;

use crate::util::{aoi, example, parse_jsonl};

fn manifest() -> Value {
    let out = aoi(&["capabilities", "--output", "json"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn manifest_names_the_tool_and_every_command_of_the_help() {
    let m = manifest();
    assert_eq!(m["tool"], "aoi");
    assert_eq!(m["aoi_versions"][0], "1.0-alpha");
    assert_eq!(m["schemas"][0]["name"], "aoi.toolkit.events");
    // the commands `aoi --help` lists (its "Commands:" block, without help)
    let help = aoi(&["--help"], b"").stdout_str();
    let listed: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // a command's row; deeper indentation continues a wrapped summary
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|n| n != "help")
        .collect();
    let names: Vec<String> = m["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, listed);
    let codes: Vec<i64> = m["exit_codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_i64().unwrap())
        .collect();
    for c in [0, 1, 65, 74, 75, 77, 124, 130, 64, 66, 70, 73, 141] {
        assert!(codes.contains(&c), "exit {c} missing");
    }
    // no input is read: a closed stdin does not matter
    let out = aoi(&["capabilities"], b"");
    assert_eq!(out.code, 0);
}

/// The event types each producer really emits are the ones it declares.
#[test]
fn declared_event_types_cover_what_the_commands_emit() {
    let m = manifest();
    let declared = |name: &str| -> Vec<String> {
        m["commands"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()["event_types"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    };
    let runs: Vec<(&str, Vec<String>)> = vec![
        (
            "check",
            vec![
                "check".into(),
                "--output".into(),
                "jsonl".into(),
                example("truncated.jsonl"),
            ],
        ),
        (
            "summary",
            vec![
                "summary".into(),
                "--output".into(),
                "jsonl".into(),
                example("rate-limited.jsonl"),
            ],
        ),
        (
            "errors",
            vec![
                "errors".into(),
                "-w".into(),
                "--output".into(),
                "jsonl".into(),
                example("messy.log"),
                "/nonexistent".into(),
            ],
        ),
        (
            "filter",
            vec![
                "filter".into(),
                "if .rank == 1 then error(\"x\") else {type: \"pick\"} end, .id".into(),
                example("search.jsonl"),
                example("rate-limited.jsonl"),
            ],
        ),
        (
            "merge-report",
            vec![
                "merge-report".into(),
                "--format".into(),
                "jsonl".into(),
                example("search.jsonl"),
                "/nonexistent".into(),
            ],
        ),
    ];
    for (name, args) in runs {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = aoi(&a, b"");
        let types = declared(name);
        for ev in parse_jsonl(&out.stdout) {
            let t = ev["type"].as_str().unwrap().to_string();
            // filter's results may carry any domain type (`any_domain_types`)
            let open = m["commands"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["name"] == name && c["any_domain_types"] == true);
            let ok = types.contains(&t) || (open && !t.starts_with("aoi:"));
            assert!(ok, "{name} emitted {t}, declares {types:?}");
        }
    }
}

#[test]
fn schema_is_2020_12_with_an_https_id_and_a_def_per_event() {
    let out = aoi(&["schema", "--output", "json"], b"");
    assert_eq!(out.code, 0);
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    let id = s["$id"].as_str().unwrap();
    assert!(id.starts_with("https://") && !id.contains("file:"), "{id}"); // § 10.2
    assert!(jsonschema::meta::is_valid(&s), "not valid JSON Schema");
    // every event type a command declares has its definition (§ 10.4)
    let m = manifest();
    let defs = s["$defs"].as_object().unwrap();
    for c in m["commands"].as_array().unwrap() {
        for t in c["event_types"].as_array().unwrap() {
            let t = t.as_str().unwrap();
            assert!(defs.contains_key(&t.replace(':', "_")), "no $defs for {t}");
        }
    }
    // the same with --schema-version and --name (§ 10.1); others are refused
    for args in [
        &["--schema-version", "1"][..],
        &["--schema-version", "1.0.0"],
        &["--name", "aoi.toolkit.events"],
    ] {
        let mut a = vec!["schema", "--output", "json"];
        a.extend_from_slice(args);
        assert_eq!(aoi(&a, b"").stdout, out.stdout, "{args:?}");
    }
    assert_eq!(aoi(&["schema", "--schema-version", "2"], b"").code, 64);
    assert_eq!(aoi(&["schema", "--name", "com.example.x"], b"").code, 64);
    // the schema rejects what it should: an aoi:error without retryable
    let v = jsonschema::validator_for(&s).unwrap();
    let bad = serde_json::json!({"type":"aoi:error","aoi":{"seq":1,"run":"R"},"category":"io","code":"X","message":"m"});
    assert!(!v.is_valid(&bad));
    let bad = serde_json::json!({"type":"aoi:error","aoi":{"seq":1,"run":"R"},"category":"io","code":"X","message":"m","retryable":false,"retry_after_ms":5});
    assert!(!v.is_valid(&bad), "retry_after_ms with retryable:false");
}

#[test]
fn input_schemas_of_the_commands_that_read_jsonl() {
    let m = manifest();
    let readers: Vec<String> = m["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["input_jsonl"] == true)
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        readers,
        [
            "check",
            "strip",
            "summary",
            "errors",
            "filter",
            "merge-report"
        ]
    );
    let lines = std::fs::read(example("search.jsonl")).unwrap();
    for name in &readers {
        let out = aoi(
            &["input-schema", "--command", name, "--output", "json"],
            b"",
        );
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        let s: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(jsonschema::meta::is_valid(&s), "{name}");
        let mode = s["x-aoi-input"]["malformed_mode"].as_str().unwrap();
        // § 12.2's three modes
        assert!(
            ["per-line tolerant", "whole-input fail-fast", "configurable"].contains(&mode),
            "{name}: {mode}"
        );
        let v = jsonschema::validator_for(&s).unwrap();
        for ev in parse_jsonl(&lines) {
            assert!(v.is_valid(&ev), "{name}: {ev}");
        }
        assert!(!v.is_valid(&serde_json::json!({"no_type": 1})));
    }
    let out = aoi(&["input-schema", "--command", "rules"], b"");
    assert_eq!(out.code, 64);
    // The usage error names the commands that do (and the completions
    // offer only those).
    assert!(
        out.stderr
            .contains("[possible values: check, strip, summary, errors, filter, merge-report]"),
        "{}",
        out.stderr
    );
}
