//! The producer side: conforming AOI streams, aoi's own and any Rust
//! tool's.
//!
//! Two layers, one implementation:
//!
//! - [`Emitter`] encodes events with the envelope (`type`, then
//!   `aoi:{seq,run,t}`, then the fields in the order given), keeps `seq`
//!   contiguous from 0 under one ULID `run` (§ 8.1), counts what it emitted
//!   (domain events, own warnings and errors, forwarded events) and writes
//!   the identity triple on both `aoi:meta` and `aoi:summary` (§ 5, § 8.3).
//!   It encodes into a byte buffer; the caller decides where the bytes go.
//! - [`Producer`] puts an emitter in front of a writer and makes the
//!   contract the easy path: `aoi:meta` first, a closed pipe as a normal
//!   end ([`Ended::Closed`], exit 141, nothing printed, § 7), a
//!   cancellation by SIGINT/SIGTERM ([`crate::cancel`]) ending in
//!   `reason:"cancelled"`, and a terminal `aoi:summary` on every exit it
//!   controls: the one you [`close`](Producer::close) with, or `ok:false`
//!   when the producer is dropped unfinished (an early `return`, a `?`, a
//!   panic that unwinds).
//!
//! aoi's own commands use both: there is one producer implementation.
//!
//! [`redact_args`] prepares arguments for `aoi:meta.args` (§ 11).

mod emitter;
mod identity;
mod redact;
mod stdout;
mod summary;

pub mod discovery;
pub(crate) mod framework;
mod guard;
mod producer;
mod status;
mod typed;

pub(crate) use emitter::Mark;
pub use emitter::{Counts, Emitter};
pub use guard::Refusal;
pub use identity::{SCHEMA_NAME, SCHEMA_VERSION, TOOL, TOOL_VERSION, ToolIdentity, ulid};
pub use producer::{Ended, Flush, Producer};
pub use redact::{REDACTED, redact_args, redact_args_with};
pub use status::Exit;
// The binary's commands use it; the library alone does not.
/// The spec's closed vocabularies, as the producer takes them.
pub use crate::spec::{Category, Reason, Scope};
#[cfg(feature = "cli")]
pub(crate) use stdout::push_json_str;
pub use stdout::{stdout_file, stdout_writer};
pub use summary::{ErrorEvent, Summary};
pub use typed::Warning;

#[cfg(test)]
mod judged_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{self, Write};

    #[test]
    fn ulid_shape() {
        let a = ulid();
        let b = ulid();
        assert_eq!(a.len(), 26);
        assert_ne!(a, b);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
        );
    }

    #[test]
    fn the_first_event_is_t_0_however_late_it_is_written() {
        // § 8.1: t counts from aoi:meta. A command may build its emitter
        // and write the meta only after reading began (a slow pipe).
        let mut e = Emitter::new();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let meta = String::from_utf8(e.meta("check").to_vec()).unwrap();
        assert!(meta.contains(",\"t\":0}"), "{meta}");
    }

    #[test]
    fn envelope_order_and_seq() {
        let mut e = Emitter::new();
        let l0 = String::from_utf8(e.meta("check").to_vec()).unwrap();
        assert!(l0.starts_with("{\"type\":\"aoi:meta\",\"aoi\":{\"seq\":0,\"run\":\""));
        e.event("violation", &[]);
        e.error(&ErrorEvent::new("io", "X", "m"));
        e.forward("aoi:warning", b"");
        let l1 = String::from_utf8(
            e.summary(&Summary::ok().input_count(4).consumed(2, 1))
                .to_vec(),
        )
        .unwrap();
        assert!(l1.contains("\"seq\":4,"));
        assert!(l1.contains(r#""count":1,"input_count":4,"warning_count":2,"error_count":2"#));
        assert!(l1.contains("\"event_count\":5"));
        assert!(l1.ends_with("}\n"));
    }

    #[test]
    fn error_event_defaults_retryable_from_category() {
        let mut e = Emitter::new();
        let l = String::from_utf8(
            e.error(&ErrorEvent::new("rate_limited", "SLOW", "m").field("scope", "item"))
                .to_vec(),
        )
        .unwrap();
        assert!(l.contains(r#""scope":"item","category":"rate_limited","code":"SLOW","message":"m","retryable":true}"#));
    }

    #[test]
    fn redaction() {
        let (a, changed) = redact_args(["--api-key=abc", "--password", "p", "--verbose", "x"]);
        assert!(changed);
        assert_eq!(
            a,
            [
                "--api-key=[REDACTED]",
                "--password",
                "[REDACTED]",
                "--verbose",
                "x"
            ]
        );
        let (a, _) = redact_args(["-H", "Authorization: Bearer t", "https://h/p?q=1#f"]);
        assert_eq!(a, ["-H", "Authorization: [REDACTED]", "https://h/p?q=1#f"]);
        let (a, changed) = redact_args(["--token", "--next"]);
        assert!(!changed);
        assert_eq!(a, ["--token", "--next"]);
        let (a, _) = redact_args(["https://h/p?access_token=z&a=b#frag"]);
        assert_eq!(a, ["https://h/p?access_token=[REDACTED]&a=b#frag"]);
        // What the judge looks for (§ 11) is gone from the redacted args.
        let (a, _) = redact_args(["--token", "t", "https://u:p@h/?sig=s", "--secret=x"]);
        let json = serde_json::to_vec(&a).unwrap();
        assert_eq!(crate::judge::secret_in_args(&json), None);
    }

    /// The holes an independent review found (§ 11), each redacted, and
    /// each flagged by the judge's rule when left raw.
    #[test]
    fn redaction_review_cases() {
        let cases: &[(&str, &str)] = &[
            (
                "-HAuthorization: Bearer abc123",
                "-HAuthorization: [REDACTED]",
            ),
            (
                "--header=Authorization: Bearer abc",
                "--header=Authorization: [REDACTED]",
            ),
            ("GITHUB_TOKEN=ghp_abc", "GITHUB_TOKEN=[REDACTED]"),
            ("API_KEY=k1", "API_KEY=[REDACTED]"),
            (
                "https://s3/x?X-Amz-Signature=ab&X-Amz-Credential=c&X-Amz-Security-Token=t&n=1",
                "https://s3/x?X-Amz-Signature=[REDACTED]&X-Amz-Credential=[REDACTED]&X-Amz-Security-Token=[REDACTED]&n=1",
            ),
            (
                "https://h/x?api_key=a&client_secret=b&password=c",
                "https://h/x?api_key=[REDACTED]&client_secret=[REDACTED]&password=[REDACTED]",
            ),
            (
                "https://app/cb#access_token=abc&state=1",
                "https://app/cb#access_token=[REDACTED]&state=1",
            ),
            ("https://user:pa/ss@h/x", "https://[REDACTED]@h/x"),
            (
                "https://ghp_x@github.com/o/r",
                "https://[REDACTED]@github.com/o/r",
            ),
        ];
        for (raw, want) in cases {
            let (got, changed) = redact_args([raw]);
            assert!(changed, "{raw}");
            assert_eq!(&got[0], want, "{raw}");
            let json = serde_json::to_vec(&[raw]).unwrap();
            assert!(
                crate::judge::secret_in_args(&json).is_some(),
                "judge misses {raw}"
            );
            let json = serde_json::to_vec(&got).unwrap();
            assert_eq!(
                crate::judge::secret_in_args(&json),
                None,
                "judge flags {want}"
            );
        }
        // A value after a secret flag that starts with a single dash.
        let (got, _) = redact_args(["--password", "-s3cr3t"]);
        assert_eq!(got, ["--password", "[REDACTED]"]);
        // Values already redacted stay as they are; plain ones are untouched.
        let (got, changed) = redact_args([
            "--token",
            "***",
            "--token=<t>",
            "https://h/p?page=2",
            "a:b",
            "k=v",
        ]);
        assert!(!changed, "{got:?}");
    }

    /// A writer that fails with `kind` after `ok` writes.
    struct Failing {
        ok: usize,
        kind: io::ErrorKind,
        written: Vec<u8>,
    }
    impl Write for Failing {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.ok == 0 {
                return Err(io::Error::new(self.kind, "no"));
            }
            self.ok -= 1;
            self.written.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn producer_closed_pipe_is_a_quiet_end() {
        let mut w = Failing {
            ok: 1,
            kind: io::ErrorKind::BrokenPipe,
            written: Vec::new(),
        };
        let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut w).unwrap();
        let e = p.event("hit", &[]).unwrap_err();
        assert!(matches!(e, Ended::Closed));
        assert_eq!(p.end(e), 141);
        assert_eq!(w.written.iter().filter(|&&b| b == b'\n').count(), 1);
    }

    #[test]
    fn producer_dropped_unfinished_writes_a_failed_summary() {
        let mut out = Vec::new();
        {
            let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut out).unwrap();
            p.event("hit", &[]).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.contains(r#""type":"aoi:summary""#), "{last}");
        assert!(
            last.contains(r#""ok":false,"reason":"failed","count":1"#),
            "{last}"
        );
        assert!(last.contains(r#""event_count":3"#), "{last}");
        // Meta and summary both say who is speaking.
        for l in text.lines().step_by(2) {
            assert!(l.contains(r#""tool":"aoi""#), "{l}");
        }
    }

    #[test]
    fn producer_refuses_to_write_meta_or_summary_as_events() {
        let mut out = Vec::new();
        let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut out).unwrap();
        assert!(matches!(
            p.event("aoi:summary", &[]),
            Err(Ended::Refused(_))
        ));
        assert!(p.raw_event("aoi:summary", b"").is_err());
        assert!(p.forward("aoi:meta", b"").is_err());
        assert!(p.meta("again", Vec::new()).is_err());
        // Members the emitter writes itself are not taken twice.
        let s = Summary::ok().field("count", 99).field("ok", false);
        assert_eq!(p.close(s), 0);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        let last = text.lines().last().unwrap();
        assert_eq!(last.matches("\"count\"").count(), 1, "{last}");
        assert_eq!(last.matches("\"ok\"").count(), 1, "{last}");
    }

    #[test]
    fn nothing_is_written_after_a_failed_write() {
        let mut w = Failing {
            ok: 1,
            kind: io::ErrorKind::WouldBlock,
            written: Vec::new(),
        };
        let mut p = Producer::start(ToolIdentity::aoi(), "t", &mut w).unwrap();
        let e = p.event("hit", &[]).unwrap_err();
        assert_eq!(p.end(e), 74);
        // The meta only: no error or summary glued to a cut line.
        assert_eq!(w.written.iter().filter(|&&b| b == b'\n').count(), 1);
    }
}
