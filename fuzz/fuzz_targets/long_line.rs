//! The long-line validator ([`aoi::long::LongLine`], a line read in pieces)
//! against the peek of the whole line: the same verdict, error kind and
//! offset, top-level kind and lone-surrogate flag, wherever the line is
//! cut; and for an object, a reduced copy the peek accepts, with the
//! line's members when no value was long enough to be replaced, the envelope
//! cut where `strip` cuts a short line's. The first byte picks the cuts.
#![no_main]

use aoi::long::LongLine;
use aoi::peek::{Kind, Peeker, without_member};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&step, line)) = data.split_first() else {
        return;
    };
    if line.starts_with(b"\xEF\xBB\xBF") {
        return;
    }
    let mut p = Peeker::new();
    let want = p.peek(line);
    let mut long = LongLine::new();
    for piece in line.chunks(usize::from(step).max(1)) {
        long.feed(piece);
    }
    let r = long.end();
    assert_eq!(r.result, want);
    if want.is_err() {
        return;
    }
    assert_eq!(r.top, p.top);
    assert_eq!(r.lone_surrogate, p.lone_surrogate);
    if r.top != Some(Kind::Object) {
        return;
    }
    let object = r.object.to_vec();
    let mut q = Peeker::new();
    assert!(q.peek(&object).is_ok(), "the reduced copy is JSON");
    if line.len() < aoi::long::VALUE_KEEP {
        // Every member as written (whitespace between top-level tokens is
        // not copied).
        let members = |p: &Peeker, s: &[u8]| -> Vec<(Vec<u8>, Vec<u8>)> {
            p.members
                .iter()
                .map(|m| (s[m.key.clone()].to_vec(), s[m.value.clone()].to_vec()))
                .collect()
        };
        assert_eq!(members(&q, &object), members(&p, line));
        let cut = p.aoi_member.map(|i| {
            let (before, after) = without_member(line, &p.members, i);
            before.len() as u64..(line.len() - after.len()) as u64
        });
        assert_eq!(long.envelope_cut(), cut);
    }
});
