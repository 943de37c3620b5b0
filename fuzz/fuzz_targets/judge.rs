//! The judge over arbitrary byte streams: it never panics, its exit code is
//! one of the table's, the relay (the bytes handed back as they are
//! judged, what `aoi check` writes) is exactly the input, and a line's
//! length does not change the verdict: read with a 64-byte hold (nearly
//! every line validated in pieces, `aoi::long`) and with the default one,
//! the same findings and the same exit code.
#![no_main]

use aoi::drive::drive;
use aoi::judge::{Judge, JudgeOptions};
use aoi::lines::{HOLD, set_hold};
use libfuzzer_sys::fuzz_target;

const VERDICT_CODES: &[i32] = &[0, 1, 65, 74, 75, 77, 124, 130];

fuzz_target!(|data: &[u8]| {
    let mut seen = Vec::new();
    for hold in [64usize, HOLD] {
        let mut judge = Judge::new(JudgeOptions {
            per_rule_limit: 3,
            ..JudgeOptions::default()
        });
        let mut relay = Vec::new();
        let mut findings = Vec::new();
        set_hold(hold);
        let r: Result<(), ()> = drive(
            data,
            &mut judge,
            |_, _| Ok(()),
            |j, bytes| {
                relay.extend_from_slice(bytes);
                findings.extend(j.drain().map(|f| (f.line, f.rule.id(), f.message)));
                Ok(())
            },
        );
        assert!(r.is_ok());
        let (v, last) = judge.finish();
        findings.extend(last.into_iter().map(|f| (f.line, f.rule.id(), f.message)));
        assert_eq!(relay, data, "the relay differs from the input");
        assert!(VERDICT_CODES.contains(&v.exit_code), "exit {}", v.exit_code);
        assert_eq!(v.exit_code, v.outcome.exit_code());
        seen.push((v.exit_code, findings));
    }
    assert_eq!(seen[0], seen[1], "a 64-byte hold judges differently");
});
