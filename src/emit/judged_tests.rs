//! The producer against its judge: every broken event refused with the
//! rule it breaks, and random API calls that never write a stream the
//! judge rejects.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::judge::{Outcome, check};
use crate::rules::{RuleId, Severity};

fn id() -> ToolIdentity {
    ToolIdentity::new("search", "1.0.0", "org.example.search.events", "1.0.0")
}

/// The stream, judged: no finding that is not advisory.
fn assert_conforming(stream: &[u8]) -> crate::judge::Verdict {
    let (v, findings) = check(stream);
    let bad: Vec<String> = findings
        .iter()
        .filter(|f| f.rule.severity() != Severity::Advisory)
        .map(ToString::to_string)
        .collect();
    assert!(
        bad.is_empty(),
        "{bad:?}\n{}",
        String::from_utf8_lossy(stream)
    );
    v
}

fn refused(r: Result<(), Ended>) -> RuleId {
    match r {
        Err(Ended::Refused(r)) => r.rule,
        other => panic!("not refused: {other:?}"),
    }
}

/// The issue's list of bad output, each refused by the judge's rule, and
/// the stream still conforming after them.
#[test]
fn every_broken_event_is_refused_with_its_rule() {
    let mut out = Vec::new();
    let mut p = Producer::start(id(), "search", &mut out).expect("vec");
    let e = |c: &str, code: &str, m: &str| ErrorEvent::new(c, code, m);
    let cases: Vec<(RuleId, Result<(), Ended>)> = vec![
        (
            RuleId::DuplicateReserved,
            p.event("hit", &[("aoi", json!({"seq": 9}))]),
        ),
        (
            RuleId::DuplicateReserved,
            p.event("hit", &[("type", json!("x"))]),
        ),
        (RuleId::UnknownFramework, p.event("aoi:bogus", &[])),
        (RuleId::ErrorCode, p.error(&e("io", "slow-down", "m"))),
        (
            RuleId::ErrorRetryAfter,
            p.error(
                &e("io", "X", "m")
                    .retryable(false)
                    .field("retry_after_ms", 5),
            ),
        ),
        (
            RuleId::ErrorCategoryPartial,
            p.error(&e("partial", "X", "m")),
        ),
        (RuleId::ErrorMessage, p.error(&e("io", "X", "two\nlines"))),
        (
            RuleId::ErrorScope,
            p.error(&e("io", "X", "m").field("scope", "global")),
        ),
        (RuleId::LineNotJson, p.raw_event("hit", b",\"x\":")),
    ];
    for (want, got) in cases {
        assert_eq!(refused(got), want);
    }
    let s = Summary::ok().field("truncated", "yes");
    let exit = p.close(s);
    assert_eq!(
        exit.refused().map(|r| r.rule),
        Some(RuleId::SummaryFieldType)
    );
    assert_eq!(exit.code(), 1, "the fallback summary says failed");
    let v = assert_conforming(&out);
    assert_eq!(v.exit_code, 1);
}

#[test]
fn no_event_before_the_meta() {
    let mut out = Vec::new();
    let mut p = Producer::new(Emitter::with_identity(id()), &mut out);
    assert_eq!(refused(p.event("hit", &[])), RuleId::MetaMissing);
    p.meta("search", Vec::new()).expect("meta");
    p.event("hit", &[]).expect("after the meta");
    assert_eq!(p.close(Summary::ok()), 0);
    assert_conforming(&out);
}

/// A meta the judge refuses (a credential in `args`, § 11) starts no
/// stream: nothing at all is written, not even a summary.
#[test]
fn a_refused_meta_writes_nothing() {
    let mut out = Vec::new();
    let args = vec![("args", json!(["https://u:secret@example.com/x"]))];
    let r = Producer::start_with(id(), "search", args, &mut out).map(|_| ());
    assert_eq!(refused(r), RuleId::MetaArgsSecret);
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    // Redacted, the same arguments are taken.
    let (redacted, _) = redact_args_with(["https://u:secret@example.com/x", "-t", "k"], &["-t"]);
    let args = vec![("args", json!(redacted))];
    let p = Producer::start_with(id(), "search", args, &mut out).expect("redacted args");
    assert_eq!(p.close(Summary::ok()), 0);
    assert_conforming(&out);
    assert!(!String::from_utf8_lossy(&out).contains("secret"));
}

/// § 9.3: the exit is the judge's, 75 after a retryable process error.
#[test]
fn the_exit_is_the_judges() {
    let mut out = Vec::new();
    let mut p = Producer::start(id(), "search", &mut out).expect("vec");
    p.error(&ErrorEvent::of(Category::Unavailable, "BACKEND_DOWN", "m").scope(Scope::Process))
        .expect("written");
    let exit = p.close(Summary::failed(Reason::Failed));
    assert_eq!((exit.code(), exit.outcome()), (75, Outcome::Retryable));
    assert_eq!(assert_conforming(&out).exit_code, 75);
    // A refused event ends the run failed, with the rule named.
    let mut out = Vec::new();
    let mut p = Producer::start(id(), "search", &mut out).expect("vec");
    let why = p.event("aoi:summary", &[]).expect_err("refused");
    let exit = p.end(why);
    assert_eq!(exit.code(), 1);
    assert_eq!(exit.refused().map(|r| r.rule), Some(RuleId::SummaryNotLast));
    let text = String::from_utf8_lossy(&out).into_owned();
    assert!(text.contains("EVENT_REFUSED"), "{text}");
    assert_conforming(&out);
}

/// A token cancelled in code: writes stop, the summary says cancelled,
/// the exit is 130.
#[test]
fn a_token_cancels_the_run() {
    let token = crate::cancel::Token::new();
    let mut out = Vec::new();
    let mut p = Producer::start(id(), "search", &mut out)
        .expect("vec")
        .cancel_on(token.clone());
    p.event("hit", &[]).expect("before");
    token.cancel();
    let why = p.event("hit", &[]).expect_err("cancelled");
    assert!(matches!(why, Ended::Cancelled(crate::cancel::SIGINT)));
    let exit = p.end(why);
    assert_eq!((exit.code(), exit.outcome()), (130, Outcome::Cancelled));
    let v = assert_conforming(&out);
    assert_eq!((v.domain_events, v.exit_code), (1, 130));
}

#[test]
fn typed_events_keep_their_order() {
    #[derive(serde::Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Ev {
        Hit {
            rank: u32,
            id: String,
            zeta: bool,
            alpha: bool,
        },
    }
    let mut out = Vec::new();
    let mut p = Producer::start(id(), "search", &mut out).expect("vec");
    p.emit(&Ev::Hit {
        rank: 1,
        id: "d".into(),
        zeta: true,
        alpha: false,
    })
    .expect("typed");
    p.emit(&json!({"type": "hit", "b": 1, "a": 2}))
        .expect("a json! object");
    assert_eq!(refused(p.emit(&json!({"rank": 1}))), RuleId::TypeMissing);
    assert_eq!(refused(p.emit(&[1, 2])), RuleId::LineNotObject);
    p.warn(&Warning::new("SLOW", "slow backend").target("db"))
        .expect("warning");
    assert_eq!(p.close(Summary::truncated(Some("c2"))), 0);
    let text = String::from_utf8(out.clone()).expect("utf-8");
    let hit = text.lines().nth(1).expect("hit");
    assert!(
        hit.ends_with(r#""rank":1,"id":"d","zeta":true,"alpha":false}"#),
        "{hit}"
    );
    let v = assert_conforming(&out);
    let s = v.summary.expect("summary");
    assert_eq!((s.truncated, s.next_cursor.as_deref()), (true, Some("c2")));
}

/// One call of the producer's API, with arguments a careless tool
/// might pass.
#[derive(Debug, Clone)]
enum Call {
    Event(String, Vec<(String, Value)>),
    Raw(String, Vec<u8>),
    Error(String, String, String, Option<bool>, Vec<(String, Value)>),
    Warning(String, String),
    Emit(Value),
    /// `warn` with a target and fields.
    Warn(String, String, Option<Value>, Vec<(String, Value)>),
    /// `ErrorEvent::of` with the typed builders: category, scope, target,
    /// `retry_after_ms`.
    ErrorOf(
        Category,
        String,
        String,
        Option<Scope>,
        Option<Value>,
        Option<u64>,
    ),
    Forward(String, Vec<u8>),
    /// `meta`: the first call of a producer made by `Producer::new`, a
    /// duplicate otherwise.
    Meta(Vec<(String, Value)>),
    Consumed(u64, u64, u64),
    Flush,
    /// The tool's token is cancelled (a deadline, a signal).
    Cancel,
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("aoi:".to_string()),
        Just("aoi:summary".to_string()),
        Just("aoi:meta".to_string()),
        Just("aoi:error".to_string()),
        Just("aoi:warning".to_string()),
        Just("aoi:progress".to_string()),
        Just("aoi:bogus".to_string()),
        Just("type".to_string()),
        Just("aoi".to_string()),
        Just("scope".to_string()),
        Just("retry_after_ms".to_string()),
        Just("properties".to_string()),
        Just("partial".to_string()),
        Just("truncated".to_string()),
        Just("next_cursor".to_string()),
        Just("IO_ERROR".to_string()),
        Just("rate_limited".to_string()),
        Just("io".to_string()),
        Just("item".to_string()),
        "[a-zA-Z_:\\n -]{0,8}",
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        text().prop_map(Value::from),
        Just(json!({"seq": 1})),
        Just(json!([1, "x"])),
    ]
}

fn fields() -> impl Strategy<Value = Vec<(String, Value)>> {
    prop::collection::vec((text(), value()), 0..4)
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        (text(), fields()).prop_map(|(t, f)| Call::Event(t, f)),
        (
            text(),
            prop_oneof![
                Just(b"".to_vec()),
                Just(b",\"x\":".to_vec()),
                Just(b",\"x\":1".to_vec()),
                Just(b",\"type\":1".to_vec()),
                Just(b",\"a\":1\n{\"type\":\"x\"}".to_vec()),
            ]
        )
            .prop_map(|(t, b)| Call::Raw(t, b)),
        (text(), text(), text(), any::<Option<bool>>(), fields())
            .prop_map(|(c, k, m, r, f)| Call::Error(c, k, m, r, f)),
        (text(), text()).prop_map(|(c, m)| Call::Warning(c, m)),
        (text(), fields()).prop_map(|(t, f)| {
            let mut o: serde_json::Map<String, Value> = f.into_iter().collect();
            o.insert("type".into(), t.into());
            Call::Emit(Value::Object(o))
        }),
        (text(), text(), prop::option::of(value()), fields())
            .prop_map(|(c, m, t, f)| Call::Warn(c, m, t, f)),
        (
            prop::sample::select(Category::ALL.to_vec()),
            text(),
            text(),
            prop::option::of(prop_oneof![Just(Scope::Process), Just(Scope::Item)]),
            prop::option::of(value()),
            prop::option::of(0u64..10_000),
        )
            .prop_map(|(c, k, m, s, t, r)| Call::ErrorOf(c, k, m, s, t, r)),
        (
            text(),
            prop_oneof![
                Just(b"".to_vec()),
                Just(b",\"x\":".to_vec()),
                Just(b",\"category\":\"io\",\"code\":\"X\",\"message\":\"m\"".to_vec()),
            ]
        )
            .prop_map(|(t, b)| Call::Forward(t, b)),
        fields().prop_map(Call::Meta),
        (0u64..5, 0u64..3, 0u64..3).prop_map(|(i, w, e)| Call::Consumed(i, w, e)),
        Just(Call::Flush),
        Just(Call::Cancel),
    ]
}

fn summary() -> impl Strategy<Value = Summary> {
    (0u8..7, fields()).prop_map(|(k, f)| {
        let s = match k {
            0 => Summary::ok(),
            1 => Summary::skipped(),
            2 => Summary::partial(),
            3 => Summary::truncated(Some("next")),
            4 => Summary::failed(Reason::Skipped),
            5 => Summary::cancelled(),
            _ => Summary::failed(Reason::Failed),
        };
        f.into_iter().fold(s, |s, (k, v)| s.field(&k, v))
    })
}

fn apply(
    p: &mut Producer<&mut Vec<u8>>,
    c: &Call,
    token: &crate::cancel::Token,
) -> Result<(), Ended> {
    let pairs = |f: &[(String, Value)]| -> Vec<(String, Value)> { f.to_vec() };
    match c {
        Call::Event(t, f) => {
            let f = pairs(f);
            let f: Vec<(&str, Value)> = f.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            p.event(t, &f)
        }
        Call::Raw(t, b) => p.raw_event(t, b),
        Call::Error(c, k, m, r, f) => {
            let mut e = ErrorEvent::new(c, k, m.clone());
            if let Some(r) = r {
                e = e.retryable(*r);
            }
            let e = f.iter().fold(e, |e, (k, v)| e.field(k, v.clone()));
            p.error(&e)
        }
        Call::Warning(c, m) => p.warning(c, m),
        Call::Emit(v) => p.emit(v),
        Call::Warn(c, m, t, f) => {
            let w = Warning::new(c, m.clone());
            let w = t.iter().fold(w, |w, t| w.target(t.clone()));
            p.warn(&f.iter().fold(w, |w, (k, v)| w.field(k, v.clone())))
        }
        Call::ErrorOf(c, k, m, scope, t, r) => {
            let mut e = ErrorEvent::of(*c, k, m.clone());
            if let Some(s) = scope {
                e = e.scope(*s);
            }
            if let Some(t) = t {
                e = e.target(t.clone());
            }
            if let Some(r) = r {
                e = e.retry_after_ms(*r);
            }
            p.error(&e)
        }
        Call::Forward(t, b) => p.forward(t, b),
        Call::Meta(f) => p.meta(
            "search",
            f.iter().map(|(k, v)| (k.as_str(), v.clone())).collect(),
        ),
        Call::Consumed(i, w, e) => {
            p.consumed(*i, *w, *e);
            Ok(())
        }
        Call::Flush => p.flush(),
        Call::Cancel => {
            token.cancel();
            Ok(())
        }
    }
}

/// How a random run ends.
#[derive(Debug, Clone)]
enum End {
    Close(Summary),
    Drop,
    /// `end` with the last refusal, as a tool that gives up on one does.
    GiveUp,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever a tool calls, the stream written is one the judge
    /// accepts (no violation, nothing incomplete), and the exit is the
    /// judge's.
    #[test]
    fn random_calls_never_write_a_broken_stream(
        calls in prop::collection::vec(call(), 0..12),
        end in prop_oneof![
            3 => summary().prop_map(End::Close),
            1 => Just(End::Drop),
            1 => Just(End::GiveUp),
        ],
        fresh in any::<bool>(),
    ) {
        let mut out = Vec::new();
        let token = crate::cancel::Token::new();
        let exit = {
            // `Producer::new` writes nothing: the calls must begin with
            // the meta, and everything before it is refused.
            let p = if fresh {
                Producer::new(Emitter::with_identity(id()), &mut out)
            } else {
                Producer::start(id(), "search", &mut out).expect("vec")
            };
            let mut p = p.cancel_on(token.clone());
            let mut last_refusal = None;
            let mut stopped = None;
            for c in &calls {
                match apply(&mut p, c, &token) {
                    Ok(()) => {}
                    Err(Ended::Refused(r)) => last_refusal = Some(r),
                    Err(why @ Ended::Cancelled(_)) => {
                        stopped = Some(why);
                        break;
                    }
                    Err(other) => panic!("{other:?}"),
                }
            }
            match (stopped, end, last_refusal) {
                (Some(why), _, _) => Some(p.end(why)),
                (None, End::Close(s), _) => Some(p.close(s)),
                (None, End::GiveUp, Some(r)) => Some(p.end(Ended::Refused(r))),
                (None, _, _) => None,
            }
        };
        // Only a producer whose meta was never written may leave nothing
        // (dropped, it began no stream); closed or ended, it writes a
        // failed summary (meta.missing is advisory, § 4).
        let v = if out.is_empty() {
            prop_assert!(fresh);
            check(&out[..]).0
        } else {
            assert_conforming(&out)
        };
        if let Some(exit) = exit {
            prop_assert_eq!((exit.code(), exit.outcome()), (v.exit_code, v.outcome));
        }
    }
}
