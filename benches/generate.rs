//! Benchmark data generator: writes a realistic, conforming AOI-CLI stream.
//!
//! A `harness = false` bench target with no dependencies beyond std:
//!
//! ```text
//! cargo bench --bench generate -- --out FILE --size 200M --mix domain --seed 1
//! ```
//!
//! The stream is `aoi:meta` first, then domain events (`hit`, `entry`,
//! `match`) interleaved with `aoi:warning`, `aoi:progress`, `aoi:heartbeat`
//! and item-level `aoi:error` events, and a terminal `aoi:summary` whose
//! counters reconcile with what was written (AOI-CLI v1.0-alpha § 2, § 8,
//! § 9). Every line carries `"aoi":{"seq":N,"run":"<ULID>"}` with `seq`
//! contiguous from 0. Output is a function of (mix, seed, size) only.
//!
//! Mixes:
//! - `domain`: mostly domain events, lines of about 150-300 bytes;
//! - `control`: about half the lines are framework events;
//! - `long`: long lines, snippets of 4-64 KiB;
//! - `unicode`: non-ASCII text plus `\uXXXX`, `\n`, `\"` and `\\` escapes;
//! - `messy`: a CI or container log, what `aoi errors` and `aoi merge-report`
//!   read: four runs interleaved line by line (each conforming on its own,
//!   told apart by `aoi.run`), a third of the lines prose (compiler output,
//!   stack traces, another program's JSON, blank lines), and most lines
//!   decorated: a Kubernetes CRI prefix, a `[worker-N]` tag, colour codes, a
//!   CR before the LF, or a Docker json-file wrapper. More warnings and
//!   errors than `domain` (about 2% each).
//! - `runs`: the realistic mix of a CI job that ran a tool several times
//!   into one log: eight runs one after another, each conforming (meta,
//!   domain events with `check` results among them, about 1.5% warnings
//!   and 1.5% errors, progress, summary), lines as the tool wrote them.
//!
//! Every string is assembled from fragments that are already valid JSON
//! string content, so nothing is escaped at generation time; lines are built
//! in one reused buffer and written with one call each.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: generate --out FILE|- [--size BYTES[K|M|G]] [--mix domain|control|long|unicode|messy|runs] [--seed N]";

/// Millisecond timestamp used as the base of the run id and of `modified_ms`
/// fields (2025-01-01T00:00:00Z).
const EPOCH_MS: u64 = 1_735_689_600_000;

/// Bytes of text from which snippets are cut.
const CORPUS_BYTES: usize = 1 << 20;

// ---------------------------------------------------------------------------
// Word lists. Every entry is valid JSON string content (no raw `"`, `\` or
// control characters, escapes complete) and contains no space, so a text cut
// at spaces never splits an escape or a UTF-8 sequence.

const WORDS: &[&str] = &[
    "agent",
    "operable",
    "interface",
    "stream",
    "retry",
    "budget",
    "backoff",
    "summary",
    "schema",
    "version",
    "index",
    "query",
    "cursor",
    "page",
    "token",
    "latency",
    "upstream",
    "consumer",
    "producer",
    "pipeline",
    "record",
    "event",
    "deterministic",
    "contract",
    "stable",
    "typed",
    "bounded",
    "discoverable",
    "terminal",
    "complete",
    "partial",
    "truncated",
    "manifest",
    "capability",
    "runbook",
    "incident",
    "deploy",
    "rollback",
    "cache",
    "shard",
    "replica",
    "quorum",
    "lease",
    "snapshot",
    "journal",
    "compaction",
    "throughput",
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "for",
    "with",
    "is",
    "on",
    "when",
    "every",
    "line",
    "one",
    "JSON",
    "object",
    "must",
    "should",
    "never",
    "2024",
    "v1.8.2",
    "HTTP/2",
    "p99",
    "42ms",
    "OAuth",
    "S3",
    "us-east-1",
    "README.md",
    "config.toml",
];

const UNICODE_WORDS: &[&str] = &[
    "Größe",
    "naïve",
    "café",
    "façade",
    "Ärger",
    "smörgåsbord",
    "Ελληνικά",
    "λόγος",
    "Привет",
    "поиск",
    "документ",
    "日本語",
    "検索結果",
    "東京",
    "中文",
    "数据流",
    "한국어",
    "검색",
    "العربية",
    "بحث",
    "עברית",
    "हिन्दी",
    "ภาษาไทย",
    "Tiếng_Việt",
    "🚀",
    "✅",
    "⚠️",
    "👩‍💻",
    "🇯🇵",
    "e\u{301}",
    "Å",
    "ﬁle",
    "½",
    "→",
    "—",
    "…",
    "«quoted»",
    "„Zitat“",
    // Escapes: the decoded text differs from the bytes on the wire.
    "\\u00e9t\\u00e9",
    "\\u2603",
    "\\u00fcber",
    "\\ud83d\\ude80",
    "\\ud83c\\udf89",
    "\\u4e2d\\u6587",
    "\\u0416",
    "\\u00a0",
    "\\u2028",
    "\\u0000",
    "\\\"quoted\\\"",
    "say\\\"hi\\\"",
    "C:\\\\Users\\\\ada",
    "a\\\\b",
    "first\\nsecond",
    "tab\\there",
    "\\r\\n",
    "\\/slash\\/",
    "\\b\\f",
];

/// `\n` and `\u2028` are fine in a snippet but not in an error message (§ 9.1
/// wants one line), so messages use these words only.
const MESSAGE_WORDS_UNICODE: &[&str] = &[
    "Größe",
    "café",
    "Привет",
    "検索結果",
    "数据流",
    "🚀",
    "→",
    "\\u00e9t\\u00e9",
    "\\\"quoted\\\"",
];

const DIRS: &[&str] = &[
    "src", "lib", "net", "retry", "docs", "runbooks", "api", "v2", "internal", "storage", "index",
    "cli", "tests", "fixtures", "eng", "ops", "billing", "search",
];

const UNICODE_DIRS: &[&str] = &[
    "日本語",
    "документы",
    "données",
    "Ελληνικά",
    "검색",
    "résumé",
];

const EXTS: &[&str] = &[".rs", ".md", ".go", ".py", ".ts", ".json", ".toml", ".yaml"];

const TAGS: &[&str] = &[
    "api",
    "retry",
    "infra",
    "security",
    "onboarding",
    "design",
    "postmortem",
    "billing",
    "search",
    "release",
    "draft",
];

const NAMES: &[&str] = &[
    "Ada Lovelace",
    "Grace Hopper",
    "Alan Turing",
    "Barbara Liskov",
    "Ken Thompson",
    "Margaret Hamilton",
    "Dennis Ritchie",
    "Frances Allen",
];

const UNICODE_NAMES: &[&str] = &[
    "José Martínez",
    "Zoë Müller",
    "Søren Kierkegaard",
    "山田太郎",
    "Иван Петров",
    "Αλέξανδρος",
    "محمد علي",
    "Nguyễn Văn An",
];

const KINDS: &[&str] = &["document", "collection", "attachment", "folder", "template"];

const SOURCES: &[&str] = &["outline", "confluence", "github", "gdrive", "notion"];

/// Item-level errors: category, code, retryable, message.
const ERRORS: &[(&str, &str, bool, &str)] = &[
    (
        "rate_limited",
        "UPSTREAM_RATE_LIMIT",
        true,
        "Upstream API rate limit exceeded.",
    ),
    (
        "unavailable",
        "UPSTREAM_UNAVAILABLE",
        true,
        "Upstream service returned 503 Service Unavailable.",
    ),
    (
        "timeout",
        "FETCH_TIMEOUT",
        true,
        "Fetching the document exceeded the 30 s deadline.",
    ),
    (
        "not_found",
        "DOCUMENT_NOT_FOUND",
        false,
        "Document was deleted after the index was built.",
    ),
    (
        "authz",
        "COLLECTION_FORBIDDEN",
        false,
        "Token may not read this collection.",
    ),
    (
        "validation",
        "INVALID_DOCUMENT",
        false,
        "Document body failed schema validation.",
    ),
    (
        "rate_limited",
        "QUOTA_EXHAUSTED",
        false,
        "Daily quota exhausted; retrying today will not help.",
    ),
    (
        "conflict",
        "ETAG_MISMATCH",
        false,
        "Document changed while it was being read.",
    ),
];

/// HTTP status matching each entry of [`ERRORS`] (§ 9.5).
const ERROR_HTTP: &[u16] = &[429, 503, 504, 404, 403, 422, 429, 409];

/// Warnings: code, message.
const WARNINGS: &[(&str, &str)] = &[
    ("INDEX_STALE", "Search index is 3 hours old."),
    ("SNIPPET_TRUNCATED", "Snippet was cut at 4096 bytes."),
    (
        "DEPRECATED_FIELD",
        "Field score_raw is deprecated; use score.",
    ),
    (
        "SLOW_UPSTREAM",
        "Upstream p99 latency above 2 s; results may lag.",
    ),
];

const PHASES: &[&str] = &["list", "fetch", "index", "rank"];

/// Lines of a log that are no AOI event (the `messy` mix).
const PROSE: &[&str] = &[
    "   Compiling outline v1.8.2 (/build/outline)",
    "    Finished `release` profile [optimized] target(s) in 41.27s",
    "npm WARN deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142",
    "Traceback (most recent call last):",
    "  File \"/app/worker.py\", line 42, in run",
    "    result = client.search(query, page=page)",
    "KeyError: 'aoi:error'",
    "INFO  [main] starting shard 3 of 8 (region us-east-1)",
    "WARN  [pool] connection reset by peer; retrying in 250ms",
    "=== RUN   TestSearch/unicode_queries",
    "--- PASS: TestSearch/unicode_queries (0.03s)",
    "{\"level\":\"info\",\"msg\":\"cache warm\",\"took_ms\":12}",
    "{\"ts\":1733200000,\"event\":\"gc\",\"pause_us\":412}",
    "+ outline search --output jsonl 'retry budget'",
    "",
];

// ---------------------------------------------------------------------------

/// xorshift64* seeded through splitmix64.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 1 } else { z })
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0, n < 2^32).
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mix {
    Domain,
    Control,
    Long,
    Unicode,
    Messy,
    Runs,
}

impl Mix {
    fn parse(s: &str) -> Option<Mix> {
        match s {
            "domain" => Some(Mix::Domain),
            "control" => Some(Mix::Control),
            "long" => Some(Mix::Long),
            "unicode" => Some(Mix::Unicode),
            "messy" => Some(Mix::Messy),
            "runs" => Some(Mix::Runs),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Mix::Domain => "domain",
            Mix::Control => "control",
            Mix::Long => "long",
            Mix::Unicode => "unicode",
            Mix::Messy => "messy",
            Mix::Runs => "runs",
        }
    }
}

/// Appends the decimal digits of `n`.
fn push_u64(buf: &mut Vec<u8>, mut n: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}

/// A 26-character ULID (Crockford base32) from a timestamp and randomness.
fn ulid(ms: u64, rng: &mut Rng) -> [u8; 26] {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let value: u128 = (u128::from(ms & 0xFFFF_FFFF_FFFF) << 80)
        | (u128::from(rng.next()) << 16)
        | u128::from(rng.next() as u16);
    let mut out = [0u8; 26];
    for (i, c) in out.iter_mut().enumerate() {
        let shift = 5 * (25 - i);
        *c = ALPHABET[((value >> shift) & 31) as usize];
    }
    out
}

#[derive(Clone, Copy, Default)]
struct Counts {
    lines: u64,
    domain: u64,
    warnings: u64,
    errors: u64,
    bytes: u64,
}

impl Counts {
    /// Adds one run's line counts (bytes are the whole file's, set once).
    fn add(&mut self, run: &Counts) {
        self.lines += run.lines;
        self.domain += run.domain;
        self.warnings += run.warnings;
        self.errors += run.errors;
    }
}

struct Gen<W: Write> {
    rng: Rng,
    out: W,
    line: Vec<u8>,
    run: [u8; 26],
    mix: Mix,
    corpus: Vec<u8>,
    words: &'static [&'static str],
    names: &'static [&'static str],
    /// Counts of the run being written (its `lines` are its next `seq`).
    n: Counts,
    /// Every run of the `messy` mix; the one being written is in `run` and
    /// `n`, and its slot here is stale until [`Gen::switch_to`] swaps back.
    runs: Vec<([u8; 26], Counts)>,
    cur: usize,
    /// Bytes written, decoration and prose included.
    written: u64,
    /// Clock of the decoration prefixes (ms).
    clock_ms: u64,
    /// The line as decorated (messy mix).
    deco: Vec<u8>,
}

impl<W: Write> Gen<W> {
    fn new(out: W, mix: Mix, seed: u64) -> Gen<W> {
        let mut rng = Rng::new(seed);
        let run = ulid(EPOCH_MS + seed % 86_400_000, &mut rng);
        let (words, names): (&'static [&'static str], &'static [&'static str]) = match mix {
            Mix::Unicode => (UNICODE_WORDS, UNICODE_NAMES),
            _ => (WORDS, NAMES),
        };
        let mut g = Gen {
            rng,
            out,
            line: Vec::with_capacity(128 * 1024),
            run,
            mix,
            corpus: Vec::with_capacity(CORPUS_BYTES + 64),
            words,
            names,
            n: Counts::default(),
            runs: Vec::new(),
            cur: 0,
            written: 0,
            clock_ms: EPOCH_MS,
            deco: Vec::with_capacity(128 * 1024),
        };
        g.build_corpus();
        g
    }

    /// Fills the corpus with space-separated words (with some punctuation);
    /// the unicode mix draws two words in five from the non-ASCII list.
    fn build_corpus(&mut self) {
        let mut c = std::mem::take(&mut self.corpus);
        while c.len() < CORPUS_BYTES {
            let w = if self.mix == Mix::Unicode && self.rng.chance(2, 5) {
                self.rng.pick(UNICODE_WORDS)
            } else {
                self.rng.pick(WORDS)
            };
            c.extend_from_slice(w.as_bytes());
            match self.rng.below(16) {
                0 => c.extend_from_slice(b". "),
                1 => c.extend_from_slice(b", "),
                2 if self.mix == Mix::Unicode => c.extend_from_slice(b"\\n "),
                _ => c.push(b' '),
            }
        }
        self.corpus = c;
    }

    /// Appends a cut of the corpus of about `min..=max` bytes, starting and
    /// ending next to a space so no escape or UTF-8 sequence is split.
    fn push_text(&mut self, min: usize, max: usize) {
        let want = self.rng.range(min, max);
        let len = self.corpus.len();
        let mut start = self.rng.below(len - want - 64);
        while self.corpus[start] != b' ' {
            start += 1;
        }
        start += 1;
        let mut end = (start + want).min(len - 1);
        while end > start && self.corpus[end] != b' ' {
            end -= 1;
        }
        // Drop trailing punctuation left before the space.
        while end > start && matches!(self.corpus[end - 1], b'.' | b',') {
            end -= 1;
        }
        self.line.extend_from_slice(&self.corpus[start..end]);
    }

    /// Appends `count` words from the mix's word list, space-separated.
    fn push_words(&mut self, count: usize, list: &[&str]) {
        for i in 0..count {
            if i > 0 {
                self.line.push(b' ');
            }
            let w = self.rng.pick(list);
            self.line.extend_from_slice(w.as_bytes());
        }
    }

    /// Appends a lowercase base-36 id of `len` characters.
    fn push_id(&mut self, len: usize) {
        const A: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        let mut x = self.rng.next();
        for _ in 0..len {
            self.line.push(A[(x % 36) as usize]);
            x /= 36;
        }
    }

    fn push_path(&mut self) {
        let depth = self.rng.range(1, 4);
        for i in 0..depth {
            if i > 0 {
                self.line.push(b'/');
            }
            let d = if self.mix == Mix::Unicode && self.rng.chance(1, 3) {
                self.rng.pick(UNICODE_DIRS)
            } else {
                self.rng.pick(DIRS)
            };
            self.line.extend_from_slice(d.as_bytes());
        }
        self.line.push(b'/');
        let w = self.rng.pick(WORDS);
        self.s(w);
        self.line.push(b'_');
        self.push_id(3);
        let e = self.rng.pick(EXTS);
        self.s(e);
    }

    // Line building helpers. `begin` opens the object with type and envelope,
    // `key` writes `,"name":`, `end` closes and writes the line.

    fn s(&mut self, raw: &str) {
        self.line.extend_from_slice(raw.as_bytes());
    }

    fn begin(&mut self, ty: &str) {
        self.line.clear();
        self.s("{\"type\":\"");
        self.s(ty);
        self.s("\",\"aoi\":{\"seq\":");
        push_u64(&mut self.line, self.n.lines);
        self.s(",\"run\":\"");
        self.line.extend_from_slice(&self.run);
        self.s("\"}");
    }

    fn key(&mut self, name: &str) {
        self.s(",\"");
        self.s(name);
        self.s("\":");
    }

    fn num(&mut self, name: &str, v: u64) {
        self.key(name);
        push_u64(&mut self.line, v);
    }

    fn string(&mut self, name: &str, raw: &str) {
        self.key(name);
        self.line.push(b'"');
        self.s(raw);
        self.line.push(b'"');
    }

    fn boolean(&mut self, name: &str, v: bool) {
        self.key(name);
        self.s(if v { "true" } else { "false" });
    }

    fn end(&mut self) -> io::Result<()> {
        self.s("}\n");
        self.n.lines += 1;
        self.n.bytes += self.line.len() as u64;
        if self.mix == Mix::Messy {
            return self.write_decorated();
        }
        self.out.write_all(&self.line)?;
        self.written += self.line.len() as u64;
        Ok(())
    }

    /// Writes `line` (ending in `\n`) the way a log collector might have:
    /// a CRI prefix, a worker tag, colour, a CR, a Docker json-file wrapper,
    /// or as it is.
    fn write_decorated(&mut self) -> io::Result<()> {
        let body = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
        self.deco.clear();
        self.clock_ms += self.rng.below(40) as u64;
        let (secs, ms) = (self.clock_ms / 1000 % 86_400, self.clock_ms % 1000);
        let hms = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
        match self.rng.below(100) {
            0..=39 => {
                let head = format!("2026-12-03T{hms}.{ms:03}412Z stdout F ");
                self.deco.extend_from_slice(head.as_bytes());
                self.deco.extend_from_slice(body);
            }
            40..=59 => {
                let head = format!("[worker-{}] ", self.rng.below(8));
                self.deco.extend_from_slice(head.as_bytes());
                self.deco.extend_from_slice(body);
            }
            60..=69 => {
                let head = format!("\x1b[2m{hms}\x1b[0m \x1b[36m");
                self.deco.extend_from_slice(head.as_bytes());
                self.deco.extend_from_slice(body);
                self.deco.extend_from_slice(b"\x1b[0m");
            }
            70..=74 => {
                self.deco.extend_from_slice(body);
                self.deco.push(b'\r');
            }
            75..=79 => {
                // Docker's json-file driver: the line as a JSON string.
                self.deco.extend_from_slice(b"{\"log\":\"");
                for &b in body {
                    if b == b'"' || b == b'\\' {
                        self.deco.push(b'\\');
                    }
                    self.deco.push(b);
                }
                let tail = format!(
                    "\\n\",\"stream\":\"stdout\",\"time\":\"2026-12-03T{hms}.{ms:03}412Z\"}}"
                );
                self.deco.extend_from_slice(tail.as_bytes());
            }
            _ => self.deco.extend_from_slice(body),
        }
        self.deco.push(b'\n');
        self.out.write_all(&self.deco)?;
        self.written += self.deco.len() as u64;
        Ok(())
    }

    /// A line that is no AOI event, decorated like the others.
    fn prose(&mut self) -> io::Result<()> {
        self.line.clear();
        let p = self.rng.pick(PROSE);
        self.s(p);
        self.line.push(b'\n');
        self.write_decorated()
    }

    /// Makes run `i` of the messy mix the one being written.
    fn switch_to(&mut self, i: usize) {
        if i == self.cur {
            return;
        }
        let (run, n) = (self.run, self.n);
        if let Some(slot) = self.runs.get_mut(self.cur) {
            *slot = (run, n);
        }
        if let Some(&(run, n)) = self.runs.get(i) {
            self.run = run;
            self.n = n;
            self.cur = i;
        }
    }

    fn identity(&mut self) {
        self.string("tool", "outline");
        self.string("tool_version", "1.8.2");
        self.string("aoi_version", "1.0-alpha");
        self.string("schema_name", "com.example.outline.events");
        self.string("schema_version", "1.0.0");
    }

    // Events.

    fn meta(&mut self, seed: u64) -> io::Result<()> {
        self.begin("aoi:meta");
        self.identity();
        self.string("command", "search");
        self.s(",\"properties\":{\"generator\":\"aoi benches/generate\",\"mix\":\"");
        self.s(self.mix.name());
        self.s("\",\"seed\":");
        push_u64(&mut self.line, seed);
        self.s("}");
        self.end()
    }

    fn hit(&mut self) -> io::Result<()> {
        self.n.domain += 1;
        self.begin("hit");
        self.num("rank", self.n.domain);
        self.key("id");
        self.s("\"doc_");
        self.push_id(8);
        self.s("\"");
        self.key("title");
        self.line.push(b'"');
        let n = self.rng.range(2, 5);
        self.push_words(n, self.words);
        self.line.push(b'"');
        self.key("score");
        let score = self.rng.below(10_000) as u64;
        self.s("0.");
        let mut digits = [b'0'; 4];
        let mut v = score;
        for d in digits.iter_mut().rev() {
            *d = b'0' + (v % 10) as u8;
            v /= 10;
        }
        self.line.extend_from_slice(&digits);
        let src = self.rng.pick(SOURCES);
        self.string("source", src);
        self.key("url");
        self.s("\"https://docs.example.com/d/");
        self.push_id(8);
        self.s("\"");
        self.key("snippet");
        self.line.push(b'"');
        match self.mix {
            Mix::Long => self.push_text(4 << 10, 64 << 10),
            _ => self.push_text(16, 80),
        }
        self.line.push(b'"');
        if self.rng.chance(1, 2) {
            self.key("tags");
            self.line.push(b'[');
            let n = self.rng.range(1, 3);
            for i in 0..n {
                if i > 0 {
                    self.line.push(b',');
                }
                self.line.push(b'"');
                let t = self.rng.pick(TAGS);
                self.s(t);
                self.line.push(b'"');
            }
            self.line.push(b']');
        }
        self.end()
    }

    fn entry(&mut self) -> io::Result<()> {
        self.n.domain += 1;
        self.begin("entry");
        self.key("id");
        self.s("\"col_");
        self.push_id(6);
        self.s("\"");
        self.key("path");
        self.line.push(b'"');
        self.line.push(b'/');
        self.push_path();
        self.line.push(b'"');
        let kind = self.rng.pick(KINDS);
        self.string("kind", kind);
        let size = self.rng.next() % 5_000_000;
        self.num("size_bytes", size);
        let modified = EPOCH_MS - (self.rng.next() % 31_536_000_000);
        self.num("modified_ms", modified);
        self.key("owner");
        self.s("{\"id\":\"u_");
        push_u64(&mut self.line, self.rng.next() % 10_000);
        self.s("\",\"name\":\"");
        let name = self.rng.pick(self.names);
        self.s(name);
        self.s("\"}");
        let archived = self.rng.chance(1, 10);
        self.boolean("archived", archived);
        if self.mix == Mix::Long {
            self.key("description");
            self.line.push(b'"');
            self.push_text(4 << 10, 64 << 10);
            self.line.push(b'"');
        }
        self.end()
    }

    fn matched(&mut self) -> io::Result<()> {
        self.n.domain += 1;
        self.begin("match");
        self.key("path");
        self.line.push(b'"');
        self.push_path();
        self.line.push(b'"');
        let line_number = self.rng.range(1, 20_000) as u64;
        self.num("line_number", line_number);
        self.key("text");
        self.line.push(b'"');
        let indent = self.rng.below(3) * 4;
        self.line.extend(std::iter::repeat_n(b' ', indent));
        let text_start = self.line.len();
        match self.mix {
            Mix::Long => self.push_text(4 << 10, 64 << 10),
            _ => self.push_text(10, 60),
        }
        self.line.push(b' ');
        // Byte offset in the text as written; with escapes (unicode mix) the
        // decoded offset is a little smaller, which no consumer here checks.
        let start = (self.line.len() - text_start + indent) as u64;
        let word = self.rng.pick(WORDS);
        self.s(word);
        let stop = start + word.len() as u64;
        self.s(";\"");
        self.num("column", start + 1);
        self.key("submatches");
        self.s("[{\"match\":{\"text\":\"");
        self.s(word);
        self.s("\"},\"start\":");
        push_u64(&mut self.line, start);
        self.s(",\"end\":");
        push_u64(&mut self.line, stop);
        self.s("}]");
        self.end()
    }

    fn domain(&mut self) -> io::Result<()> {
        match self.rng.below(10) {
            0..=4 => self.hit(),
            5..=7 => self.matched(),
            _ => self.entry(),
        }
    }

    /// A test runner's result, as a domain event.
    fn check(&mut self) -> io::Result<()> {
        self.n.domain += 1;
        self.begin("check");
        self.key("name");
        self.s("\"links/");
        self.push_id(6);
        self.s("\"");
        let passed = !self.rng.chance(1, 20);
        self.string("status", if passed { "pass" } else { "fail" });
        let ms = self.rng.below(2_000) as u64;
        self.num("duration_ms", ms);
        self.end()
    }

    fn warning(&mut self) -> io::Result<()> {
        self.n.warnings += 1;
        self.begin("aoi:warning");
        let (code, message) = WARNINGS[self.rng.below(WARNINGS.len())];
        self.string("code", code);
        self.string("message", message);
        self.key("target");
        self.s("\"/documents/");
        self.push_id(8);
        self.s("\"");
        self.end()
    }

    fn error(&mut self) -> io::Result<()> {
        self.n.errors += 1;
        self.begin("aoi:error");
        self.string("scope", "item");
        let i = self.rng.below(ERRORS.len());
        let (category, code, retryable, message) = ERRORS[i];
        self.string("category", category);
        self.string("code", code);
        self.string("domain", "outline");
        self.key("message");
        self.line.push(b'"');
        self.s(message);
        if self.mix == Mix::Unicode {
            self.s(" (");
            self.push_words(2, MESSAGE_WORDS_UNICODE);
            self.s(")");
        }
        self.line.push(b'"');
        self.boolean("retryable", retryable);
        if retryable {
            let after = (self.rng.range(1, 60) * 250) as u64;
            self.num("retry_after_ms", after);
        }
        self.key("target");
        self.s("\"/documents/");
        self.push_id(8);
        self.s("\"");
        self.num("item_index", self.n.domain);
        self.s(",\"wrapped\":{\"protocol\":\"http\",\"status\":");
        push_u64(&mut self.line, u64::from(ERROR_HTTP[i]));
        self.s("}");
        if self.rng.chance(1, 3) {
            self.s(",\"details\":{\"attempt\":");
            push_u64(&mut self.line, self.rng.range(1, 5) as u64);
            self.s(",\"request_id\":\"req_");
            self.push_id(10);
            self.s("\"}");
        }
        self.end()
    }

    fn progress(&mut self, total: u64) -> io::Result<()> {
        self.begin("aoi:progress");
        let phase = self.rng.pick(PHASES);
        self.string("phase", phase);
        self.num("done", self.n.domain);
        self.num("total", total.max(self.n.domain));
        self.string("unit", "documents");
        self.end()
    }

    fn heartbeat(&mut self) -> io::Result<()> {
        self.begin("aoi:heartbeat");
        self.s(",\"properties\":{\"queue_depth\":");
        push_u64(&mut self.line, self.rng.below(512) as u64);
        self.s("}");
        self.end()
    }

    fn summary(&mut self, elapsed_ms: u64) -> io::Result<()> {
        let event_count = self.n.lines + 1;
        self.begin("aoi:summary");
        self.boolean("ok", true);
        self.num("count", self.n.domain);
        self.num("warning_count", self.n.warnings);
        self.num("error_count", self.n.errors);
        self.boolean("partial", self.n.errors > 0);
        self.boolean("truncated", false);
        self.num("event_count", event_count);
        self.num("elapsed_ms", elapsed_ms);
        self.identity();
        self.end()
    }

    /// The messy mix: four runs' metas, then their events interleaved with
    /// prose, then their summaries.
    fn run_messy(&mut self, size: u64, seed: u64) -> io::Result<()> {
        const RUNS: usize = 4;
        self.runs.push((self.run, Counts::default()));
        for i in 1..RUNS {
            let id = ulid(EPOCH_MS + seed % 86_400_000 + i as u64, &mut self.rng);
            self.runs.push((id, Counts::default()));
        }
        for i in 0..RUNS {
            self.switch_to(i);
            self.meta(seed)?;
        }
        let total = size / 230;
        let body = size.saturating_sub(400 * RUNS as u64);
        while self.written < body {
            let r = self.rng.below(100);
            if r < 30 {
                self.prose()?;
                continue;
            }
            let i = self.rng.below(RUNS);
            self.switch_to(i);
            match r {
                30..=31 => self.warning()?,
                32..=33 => self.error()?,
                34..=38 => self.progress(total)?,
                _ => self.domain()?,
            }
        }
        let mut all = Counts::default();
        for i in 0..RUNS {
            self.switch_to(i);
            let elapsed_ms = self.n.lines / 20 + 37;
            self.summary(elapsed_ms)?;
            all.add(&self.n);
        }
        all.bytes = self.written;
        self.n = all;
        self.out.flush()
    }

    /// The runs mix: eight runs one after another, each a whole stream of
    /// about an eighth of `size`.
    fn run_several(&mut self, size: u64, seed: u64) -> io::Result<()> {
        const RUNS: u64 = 8;
        let mut all = Counts::default();
        for r in 0..RUNS {
            if r > 0 {
                self.run = ulid(EPOCH_MS + seed % 86_400_000 + r, &mut self.rng);
                self.n = Counts::default();
            }
            self.meta(seed)?;
            let total = size / RUNS / 230;
            let body = (size / RUNS * (r + 1)).saturating_sub(400);
            while self.written < body {
                match self.rng.below(1_000) {
                    0..=14 => self.warning()?,
                    15..=29 => self.error()?,
                    30..=59 => self.check()?,
                    60..=69 => self.progress(total)?,
                    _ => self.domain()?,
                }
            }
            let elapsed_ms = self.n.lines / 20 + 37;
            self.summary(elapsed_ms)?;
            all.add(&self.n);
        }
        all.bytes = self.written;
        self.n = all;
        self.out.flush()
    }

    /// Writes the whole stream: meta, body up to about `size` bytes, summary.
    fn run(&mut self, size: u64, seed: u64) -> io::Result<()> {
        if self.mix == Mix::Messy {
            return self.run_messy(size, seed);
        }
        if self.mix == Mix::Runs {
            return self.run_several(size, seed);
        }
        self.meta(seed)?;
        // A rough total for progress events.
        let avg = match self.mix {
            Mix::Long => 34_000,
            Mix::Control => 170,
            _ => 230,
        };
        let total = size / avg;
        // Leave room for the summary line.
        let body = size.saturating_sub(400);
        while self.written < body {
            match self.mix {
                Mix::Control => match self.rng.below(100) {
                    0..=49 => self.domain()?,
                    50..=69 => self.progress(total)?,
                    70..=81 => self.warning()?,
                    82..=91 => self.error()?,
                    _ => self.heartbeat()?,
                },
                Mix::Long => match self.rng.below(100) {
                    0..=1 => self.warning()?,
                    2 => self.error()?,
                    3..=5 => self.progress(total)?,
                    _ => self.domain()?,
                },
                Mix::Domain | Mix::Unicode | Mix::Messy | Mix::Runs => match self.rng.below(10_000)
                {
                    0..=2 => self.warning()?,
                    3..=4 => self.error()?,
                    5..=24 => self.progress(total)?,
                    _ => self.domain()?,
                },
            }
        }
        let elapsed_ms = self.n.lines / 20 + 37;
        self.summary(elapsed_ms)?;
        self.out.flush()
    }
}

fn parse_size(s: &str) -> Option<u64> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: u64 = num.parse().ok()?;
    let mult: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(mult)
}

struct Opts {
    out: String,
    size: u64,
    mix: Mix,
    seed: u64,
}

/// What [`parse_args`] found: options to run with, or a reason to stop.
enum Parsed {
    Run(Opts),
    /// Nothing to do (`--help`, or a bare `cargo bench`): print usage, exit 0.
    Usage,
}

fn parse_args() -> Result<Parsed, String> {
    let given: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if given.is_empty() {
        // A bare `cargo bench` runs this target with only `--bench`.
        return Ok(Parsed::Usage);
    }
    let mut out = None;
    let mut size = 10 << 20;
    let mut mix = Mix::Domain;
    let mut seed = 1;
    let mut args = given.into_iter();
    while let Some(a) = args.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = |what: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{what} needs a value"))
        };
        match name.as_str() {
            // cargo bench passes --bench to harness = false targets.
            "--bench" => {}
            "--out" | "-o" => out = Some(value("--out")?),
            "--size" => {
                let v = value("--size")?;
                size = parse_size(&v).ok_or_else(|| format!("bad size `{v}` (e.g. 200M)"))?;
            }
            "--mix" => {
                let v = value("--mix")?;
                mix = Mix::parse(&v).ok_or_else(|| format!("unknown mix `{v}`"))?;
            }
            "--seed" => {
                let v = value("--seed")?;
                seed = v.parse().map_err(|_| format!("bad seed `{v}`"))?;
            }
            "-h" | "--help" => return Ok(Parsed::Usage),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let out = out.ok_or("--out is required")?;
    Ok(Parsed::Run(Opts {
        out,
        size,
        mix,
        seed,
    }))
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(Parsed::Run(o)) => o,
        Ok(Parsed::Usage) => {
            eprintln!("{USAGE}");
            eprintln!("(benches/compare.sh generates data with this and runs the comparison)");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("generate: {e}");
            eprintln!("{USAGE}");
            return ExitCode::from(64);
        }
    };
    let t0 = Instant::now();
    let sink: Box<dyn Write> = if opts.out == "-" {
        Box::new(io::stdout().lock())
    } else {
        match File::create(&opts.out) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("generate: cannot create {}: {e}", opts.out);
                return ExitCode::from(73);
            }
        }
    };
    let mut g = Gen::new(BufWriter::with_capacity(1 << 20, sink), opts.mix, opts.seed);
    if let Err(e) = g.run(opts.size, opts.seed) {
        eprintln!("generate: cannot write {}: {e}", opts.out);
        return ExitCode::from(74);
    }
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "generate: {} {} bytes, {} lines ({} domain, {} warning, {} error), mix {}, seed {}, {:.0} MB/s",
        opts.out,
        g.n.bytes,
        g.n.lines,
        g.n.domain,
        g.n.warnings,
        g.n.errors,
        opts.mix.name(),
        opts.seed,
        g.n.bytes as f64 / 1e6 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}
