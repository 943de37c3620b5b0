//! The judge over arbitrary byte streams: it never panics, its exit code is
//! one of the table's, and the relay (the bytes handed back as they are
//! judged, what `aoi check` writes) is exactly the input.
#![no_main]

use aoi::judge::{Judge, JudgeOptions, drive};
use libfuzzer_sys::fuzz_target;

const VERDICT_CODES: &[i32] = &[0, 1, 65, 74, 75, 77, 124, 130];

fuzz_target!(|data: &[u8]| {
    for max_line in [64usize, 1 << 20] {
        let mut judge = Judge::new(JudgeOptions {
            max_line_bytes: max_line,
            per_rule_limit: 3,
            ..JudgeOptions::default()
        });
        let mut relay = Vec::new();
        let r: Result<(), ()> = drive(
            data,
            &mut judge,
            |_, _| Ok(()),
            |j, bytes| {
                relay.extend_from_slice(bytes);
                let _ = j.drain().count();
                Ok(())
            },
        );
        assert!(r.is_ok());
        let (v, _) = judge.finish();
        assert_eq!(relay, data, "the relay differs from the input");
        assert!(VERDICT_CODES.contains(&v.exit_code), "exit {}", v.exit_code);
        assert_eq!(v.exit_code, v.outcome.exit_code());
    }
});
