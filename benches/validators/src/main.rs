//! Validates every line of a JSON Lines file with one parser, several
//! times, and prints the median throughput:
//!
//! ```text
//! aoi-validators-bench PARSER FILE [RUNS]
//! ```
//!
//! PARSER is one of:
//! - `split`: only the line split (memchr), the floor of every row;
//! - `aoi-peek`: aoi's validator with its envelope peek ([`aoi::peek`]),
//!   as aoi runs it: blocks of whole lines of at most 256 KiB, as its reader
//!   hands them out, the UTF-8 of a non-ASCII block checked at once
//!   ([`aoi::lines::utf8_prefix`]) and its lines peeked with
//!   [`aoi::peek::Peeker::peek_checked`];
//! - `aoi-judge`: the same, and every rule of `aoi check` ([`aoi::judge`]);
//! - `serde_json`: `serde_json::from_slice::<IgnoredAny>` (validation only);
//! - `simd-json`: `simd_json::to_tape` on a copy of the line (it parses in
//!   place);
//! - `sonic-rs`: `sonic_rs::from_slice::<LazyValue>`.
//!
//! The file is read into memory first: no I/O is timed. Output: one line,
//! `PARSER MB/s valid-lines` (MB = 10^6 bytes; the median of RUNS, default 7).

use std::process::ExitCode;
use std::time::Instant;

/// One parser's verdict on one line (the same indirect call for each),
/// given whether aoi already checked the line's UTF-8 with its block (only
/// aoi's rows do; the others check their own).
type Validate = Box<dyn FnMut(&[u8], bool) -> bool>;

/// aoi's read size: its reader hands out blocks of whole lines up to this.
const BLOCK: usize = 256 * 1024;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(parser), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("usage: aoi-validators-bench PARSER FILE [RUNS]");
        return ExitCode::from(2);
    };
    let runs: usize = match args.get(2).map(|r| r.parse()) {
        None => 7,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("RUNS must be a positive integer");
            return ExitCode::from(2);
        }
    };
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(1);
        }
    };
    let mut validate: Validate = match parser.as_str() {
        "split" => Box::new(|line: &[u8], _| !line.is_empty()),
        "aoi-peek" => {
            let mut p = aoi::peek::Peeker::new();
            Box::new(move |line: &[u8], utf8: bool| p.peek_checked(line, utf8).is_ok())
        }
        "aoi-judge" => {
            let mut j = aoi::judge::Judge::new(Default::default());
            Box::new(move |line: &[u8], utf8: bool| {
                j.line_checked(line, true, utf8);
                j.drain().count() == 0
            })
        }
        "serde_json" => Box::new(|line: &[u8], _| {
            serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
        }),
        "simd-json" => {
            let mut copy = Vec::new();
            let mut buffers = simd_json::Buffers::default();
            Box::new(move |line: &[u8], _| {
                copy.clear();
                copy.extend_from_slice(line);
                simd_json::to_tape_with_buffers(&mut copy, &mut buffers).is_ok()
            })
        }
        "sonic-rs" => Box::new(|line: &[u8], _| {
            sonic_rs::from_slice::<sonic_rs::LazyValue>(line).is_ok()
        }),
        other => {
            eprintln!("unknown parser {other}");
            return ExitCode::from(2);
        }
    };
    let blocks = whole_line_blocks(&data);
    let aoi = parser.starts_with("aoi-");
    let mut times = Vec::with_capacity(runs);
    let mut valid = 0usize;
    for _ in 0..runs {
        let t = Instant::now();
        valid = 0;
        for &block in &blocks {
            let checked = if aoi {
                aoi::lines::utf8_prefix(block)
            } else {
                0
            };
            let mut start = 0;
            for nl in memchr::memchr_iter(b'\n', block) {
                if let Some(line) = block.get(start..nl) {
                    valid += usize::from(validate(line, nl <= checked));
                }
                start = nl + 1;
            }
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(runs / 2).copied().unwrap_or(f64::NAN);
    println!("{parser} {:.0} {valid}", data.len() as f64 / median / 1e6);
    ExitCode::SUCCESS
}

/// `data` cut into blocks of whole lines of at most [`BLOCK`] bytes (a
/// longer line is a block of its own), as aoi's reader hands them out.
fn whole_line_blocks(data: &[u8]) -> Vec<&[u8]> {
    let mut blocks = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let window = rest.get(..BLOCK).unwrap_or(rest);
        let cut = match memchr::memrchr(b'\n', window) {
            Some(nl) if window.len() == BLOCK => nl + 1,
            _ if window.len() < BLOCK => window.len(),
            _ => memchr::memchr(b'\n', rest).map_or(rest.len(), |nl| nl + 1),
        };
        let (block, tail) = rest.split_at(cut);
        blocks.push(block);
        rest = tail;
    }
    blocks
}
