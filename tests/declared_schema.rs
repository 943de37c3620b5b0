//! A tool's declared schema holds for what it writes: the schema document
//! built by the library's discovery builder (as `ls schema` builds its
//! own, examples/ls.rs) and the events a `Producer` writes are held
//! together by aoi's validator, through the library alone (§ 10, § 18's
//! typed factor: lint's check 4 asks the same of a running tool).

use aoi::emit::discovery::schema_document;
use aoi::emit::{Category, ErrorEvent, Producer, Summary, ToolIdentity, Warning};
use aoi::validator::EventSchema;
use serde_json::{Value, json};

/// A tool's identity and its schema document: one event type, `file`.
fn declared() -> (ToolIdentity, Value) {
    let id = ToolIdentity::new("sizes", "0.1.0", "org.example.sizes.events", "1.0.0");
    let file = json!({
        "type": "object",
        "required": ["path", "bytes"],
        "properties": {
            "path": {"type": "string", "pattern": "^/"},
            "bytes": {"type": "integer", "minimum": 0},
            "lang": {"enum": ["rust", "c", "other"]},
        },
    });
    let doc = schema_document(
        &id,
        "https://schemas.example.org/sizes/1.0.0/schema.json",
        &[("file", file)],
    );
    (id, doc)
}

/// Runs a producer that writes `files` (and an error and a warning),
/// returning its stream.
fn produce(id: ToolIdentity, files: &[Value]) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut out = Producer::start(id, "sizes", &mut buf).expect("the producer starts");
    for e in files {
        let fields: Vec<(&str, Value)> = e
            .as_object()
            .expect("an event is an object")
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect();
        out.event("file", &fields).expect("an event is written");
    }
    out.error(&ErrorEvent::of(
        Category::NotFound,
        "DIR_UNREADABLE",
        "gone: no such directory",
    ))
    .expect("an error is written");
    out.warn(&Warning::new("SLOW_DISK", "the disk is slow"))
        .expect("a warning is written");
    let _ = out.close(Summary::partial());
    buf
}

/// The problems of every line of `stream`, by line number.
fn problems(schema: &EventSchema, stream: &[u8]) -> Vec<(usize, String)> {
    stream
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .filter_map(|(i, l)| {
            let p = schema
                .line_problem(l)
                .expect("serde_json holds every event");
            let value: Value = serde_json::from_slice(l).expect("each line is JSON");
            assert_eq!(
                p,
                schema.problem(&value),
                "line {}: in place and as a value",
                i + 1
            );
            p.map(|p| (i + 1, p.to_string()))
        })
        .collect()
}

#[test]
fn every_event_a_producer_writes_fits_the_declared_schema() {
    let (id, doc) = declared();
    let schema = EventSchema::from_value(&doc).expect("the declared schema compiles");
    let files = [
        json!({"path": "/src/a.rs", "bytes": 3, "lang": "rust"}),
        json!({"path": "/src/b.c", "bytes": 0}),
    ];
    let stream = produce(id, &files);
    let lines = stream.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines, 6, "meta, 2 files, error, warning, summary");
    assert_eq!(problems(&schema, &stream), []);
}

/// The same test fails when the tool writes what it did not declare: a
/// language outside the enum, a negative size.
#[test]
fn an_event_the_schema_does_not_declare_is_found() {
    let (id, doc) = declared();
    let schema = EventSchema::from_value(&doc).expect("the declared schema compiles");
    let files = [
        json!({"path": "/src/a.go", "bytes": 1, "lang": "go"}),
        json!({"path": "/src/b.c", "bytes": -1}),
    ];
    let found = problems(&schema, &produce(id, &files));
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, 2);
    assert!(found[0].1.starts_with("/lang: "), "{}", found[0].1);
    assert_eq!(found[1].0, 3);
    assert!(
        found[1]
            .1
            .starts_with("/bytes: -1 is less than the minimum 0"),
        "{}",
        found[1].1
    );
}
