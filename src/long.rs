//! Lines longer than the reader holds ([`crate::lines::HOLD`]), validated as
//! their pieces pass, in memory that does not grow with the line.
//!
//! The spec sets no limit on a line's length, so a line's length must not
//! change the verdict. [`LongLine`] is [`crate::peek`]'s strict
//! RFC 8259 grammar as a state machine that resumes across pieces, with the
//! same error kinds at the same offsets. It keeps a reduced copy of the
//! line for the judge: each top-level member as written, except that a
//! value (or key) longer than [`VALUE_KEEP`] bytes is replaced by a stand-in
//! of its kind (a string by its first bytes, an object by `{}`, an array by
//! `[]`, a number by `1` or `1.5` with its sign), and that once the copy
//! holds [`KEPT_MAX`] bytes only the members the spec defines for a
//! framework event (`type`, `aoi`, `ok`, `reason`, …) are kept, at most
//! twice each, with a stand-in past [`STRING_KEEP`] bytes. Whitespace
//! between top-level tokens is not copied. The rules read top-level members and small framework
//! values; docs/rules.md states what a stand-in cannot tell them.

use crate::peek::{JsonError, JsonErrorKind, Kind};

/// A top-level value (or key) up to this many bytes is kept as written.
pub const VALUE_KEEP: usize = 64 * 1024;
/// How much of a longer string its stand-in keeps.
pub const STRING_KEEP: usize = 1024;
/// Past this many bytes of copy, only members the spec defines for a
/// framework event are kept, with values past [`STRING_KEEP`] stood in.
pub const KEPT_MAX: usize = 1024 * 1024;
/// Deepest nesting accepted in a long line (RFC 8259 § 9 lets a parser
/// set one); the open containers take a bit each, 2 MiB at this depth.
pub const DEPTH_MAX: u64 = 1 << 24;
/// Bytes of the line's start kept as written, for messages.
const HEAD: usize = 4096;
/// The UTF-8 byte order mark (`line.bom`).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where the grammar is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    /// Before the top-level value.
    Start,
    /// A value must start here (after `:`, or `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ArrFirst,
    /// After `{`: a key or `}`.
    ObjFirst,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value inside a container: `,` or the closing bracket.
    After,
    /// Inside a string.
    Str,
    /// After a backslash in a string.
    Esc,
    /// Inside `\uXXXX`: hex digits read so far and their value.
    Hex(u8, u16),
    /// A number: after `-`.
    Minus,
    /// A number: after a leading `0`.
    Zero,
    /// A number: in its integer digits.
    Int,
    /// A number: after `.`.
    Dot,
    /// A number: in its fraction digits.
    Frac,
    /// A number: after `e`.
    Exp,
    /// A number: after the exponent's sign.
    ExpSign,
    /// A number: in its exponent digits.
    ExpDigits,
    /// Inside `true`, `false` or `null`: the bytes matched so far.
    Lit(&'static [u8], u8),
    /// After the top-level value: whitespace only.
    Done,
    /// An error was found; the rest of the line is only counted.
    Failed,
}

/// A line validated in pieces ([`LongLine::feed`], then [`LongLine::end`]).
#[derive(Default, Clone)]
pub struct LongLine {
    st: Option<St>,
    /// The string being read is an object key.
    in_key: bool,
    /// Where the current escape, literal or string started.
    mark: u64,
    /// The last escape was a high surrogate and no low one followed yet.
    pending_high: bool,
    /// The current number has a fraction or exponent; it is negative.
    num_float: bool,
    num_neg: bool,
    /// Open containers, a bit each (1 for an object), and how many.
    stack: Vec<u64>,
    depth: u64,
    /// Offset of the next byte the grammar reads, after a byte order mark.
    pos: u64,
    /// Bytes fed after a byte order mark.
    fed: u64,
    err: Option<JsonError>,
    /// First byte that is not UTF-8, and an incomplete sequence carried
    /// to the next piece.
    utf8_bad: Option<u64>,
    carry: Vec<u8>,
    bom: bool,
    /// Where bytes other than whitespace start after the value (a log's
    /// decoration, or trailing content), and how far they read as
    /// decoration; the carriage returns just before them or the line's end.
    tail_at: Option<u64>,
    deco: Deco,
    cr_run: u64,
    cr_before_tail: u64,
    lone_surrogate: bool,
    esc_byte: bool,
    lead: Lead,
    shape: Shape,
    top: Option<Kind>,
    head: Vec<u8>,
    /// The reduced copy and where its current member, key and value start.
    out: Vec<u8>,
    member_at: usize,
    key_at: usize,
    value_at: usize,
    /// The current top-level member is left out of the copy.
    dropping: bool,
    /// Spec-defined names kept past [`KEPT_MAX`], and how often.
    late: Vec<(&'static str, u8)>,
    /// The current top-level key or value is being replaced by a stand-in.
    eliding: bool,
    /// Where the current top-level key starts and the previous value
    /// ended, in the line; and what [`LongLine::envelope_cut`] needs.
    key_raw: u64,
    prev_end: Option<u64>,
    aoi: Option<AoiSpan>,
    /// Where the top-level value ended.
    top_end: Option<u64>,
}

/// Where the first top-level `aoi` member sits in the line.
#[derive(Clone, Copy, Default)]
struct AoiSpan {
    key: u64,
    prev_end: Option<u64>,
    value_end: Option<u64>,
    next_key: Option<u64>,
}

/// How a line starts, read from its raw bytes as the judge reads a short
/// line for its pretty-printed-JSON hint (`line.pretty`): the same answers
/// for a line of any length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// The line, trimmed, is `[` or `{`, or starts `[` then `{`.
    pub pretty: bool,
    /// The line is indented, or its first other byte closes (`}`, `]`).
    pub continues: bool,
}

/// How far the bytes after a value read as a log's decoration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Deco {
    /// Between codes (or before the first).
    #[default]
    Between,
    /// After ESC.
    Esc,
    /// In an SGR code's parameters.
    Params,
    /// Not decoration.
    Other,
}

/// Where the [`Shape`] scan is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Lead {
    /// Only ASCII whitespace so far.
    #[default]
    Blank,
    /// After a first `[` or `{` and whitespace.
    Opened(u8),
    /// Decided.
    Done,
}

/// What a finished line came to ([`LongLine::end`]).
pub struct Reduced<'a> {
    /// The line's first bytes as written (a byte order mark included).
    pub head: &'a [u8],
    /// The reduced copy: a JSON object with the line's top-level members
    /// (see the module docs); meaningful only when the line is an object.
    pub object: &'a [u8],
    /// The grammar's verdict, with offsets into the line as
    /// [`crate::peek::Peeker::peek`] gives them (after a byte order mark).
    pub result: Result<(), JsonError>,
    /// The top-level value's kind, once known.
    pub top: Option<Kind>,
    /// The line starts with a UTF-8 byte order mark (skipped).
    pub bom: bool,
    /// A `\u` escape of a lone surrogate was accepted.
    pub lone_surrogate: bool,
    /// The line holds an ESC byte.
    pub esc_byte: bool,
    /// How the line starts, for the judge's pretty-printing hints.
    pub shape: Shape,
    /// The line ends in what a log reader trims as decoration (carriage
    /// returns and ANSI SGR codes, `ESC[0m`); with
    /// [`JsonErrorKind::TrailingContent`], nothing else follows the value.
    pub decorated: bool,
    /// The line's length, without its line feed.
    pub len: u64,
}

impl LongLine {
    /// A fresh line.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the line read so far can no longer be JSON.
    pub fn failed(&self) -> bool {
        self.st == Some(St::Failed) || self.utf8_bad.is_some()
    }

    /// The bytes of the line last ended to cut to leave its first `aoi`
    /// member out, with the comma that joined it, as
    /// [`crate::peek::without_member`] cuts a short line (offsets in the
    /// line, a byte order mark included).
    pub fn envelope_cut(&self) -> Option<std::ops::Range<u64>> {
        let a = self.aoi?;
        let end = a.value_end?;
        let (from, to) = match (a.prev_end, a.next_key) {
            (Some(p), _) => (p, end),
            (None, Some(n)) => (a.key, n),
            (None, None) => (a.key, end),
        };
        let bom = if self.bom { BOM.len() as u64 } else { 0 };
        Some(from + bom..to + bom)
    }

    /// Where the value of the line last ended lies in it, with the
    /// whitespace after it, as a log reader keeps a short line: without a
    /// byte order mark before it or a decoration after it.
    pub fn value_span(&self) -> std::ops::Range<u64> {
        let bom = if self.bom { BOM.len() as u64 } else { 0 };
        let end = match self.tail_at {
            Some(at) if self.decorated() => at - self.cr_before_tail,
            Some(_) => self.top_end.unwrap_or(self.fed),
            None if self.top_end.is_some() => self.fed - self.cr_run,
            None => self.fed,
        };
        bom..bom + end
    }

    /// Whether the line last ended started with a byte order mark.
    pub fn bom(&self) -> bool {
        self.bom
    }

    /// The reduced copy of the line last ended (see the module docs).
    pub fn object(&self) -> &[u8] {
        &self.out
    }

    /// Reads the next piece of the line (without its line feed).
    pub fn feed(&mut self, mut piece: &[u8]) {
        if self.st.is_none() {
            self.reset();
        }
        // The mark is looked for in the first bytes, however the line was
        // cut (a first piece may be empty).
        if self.fed == 0 && !self.bom && piece.starts_with(BOM) {
            self.bom = true;
            self.head.extend_from_slice(BOM);
            piece = piece.get(BOM.len()..).unwrap_or_default();
        }
        if self.lead != Lead::Done {
            self.scan_lead(piece);
        }
        let room = HEAD.saturating_sub(self.head.len()).min(piece.len());
        self.head
            .extend_from_slice(piece.get(..room).unwrap_or_default());
        let base = self.fed;
        self.fed += piece.len() as u64;
        self.esc_byte |= memchr::memchr(0x1b, piece).is_some();
        if self.utf8_bad.is_none() {
            self.check_utf8(piece, base);
        }
        if self.st == Some(St::Failed) || self.utf8_bad.is_some() {
            // The result is decided (invalid UTF-8 anywhere wins, as in
            // the peek); the rest is only counted.
            return;
        }
        self.run(piece);
    }

    /// Ends the line and gives what it came to.
    pub fn end(&mut self) -> Reduced<'_> {
        if self.st.is_none() {
            self.reset();
        }
        let at = self.fed as usize;
        if !self.carry.is_empty() && self.utf8_bad.is_none() {
            self.utf8_bad = Some(self.fed - self.carry.len() as u64);
        }
        let result = if let Some(bad) = self.utf8_bad {
            Err(JsonError {
                kind: JsonErrorKind::InvalidUtf8,
                offset: bad as usize,
            })
        } else if let Some(e) = self.err {
            Err(e)
        } else if let Some(at) = self.tail_at {
            Err(JsonError {
                kind: JsonErrorKind::TrailingContent,
                offset: at as usize,
            })
        } else {
            self.end_of_input(at)
        };
        self.st = None;
        let mut shape = self.shape;
        shape.pretty |= matches!(self.lead, Lead::Opened(_));
        Reduced {
            head: &self.head,
            object: &self.out,
            result,
            top: self.top,
            bom: self.bom,
            lone_surrogate: self.lone_surrogate,
            esc_byte: self.esc_byte,
            shape,
            decorated: self.decorated(),
            len: self.fed + if self.bom { BOM.len() as u64 } else { 0 },
        }
    }

    fn reset(&mut self) {
        let (mut stack, mut head, mut out, mut carry) = (
            std::mem::take(&mut self.stack),
            std::mem::take(&mut self.head),
            std::mem::take(&mut self.out),
            std::mem::take(&mut self.carry),
        );
        stack.clear();
        head.clear();
        out.clear();
        carry.clear();
        // A line of megabytes of kept members leaves no megabyte buffer.
        if out.capacity() > 2 * KEPT_MAX {
            out = Vec::new();
        }
        *self = LongLine {
            st: Some(St::Start),
            stack,
            head,
            out,
            carry,
            ..LongLine::default()
        };
    }

    /// Reads the line's first bytes for its [`Shape`] (a byte order mark
    /// is neither whitespace nor a bracket: such a line has neither).
    fn scan_lead(&mut self, piece: &[u8]) {
        if self.bom {
            self.lead = Lead::Done;
            return;
        }
        if self.fed == 0 && matches!(piece.first(), Some(b' ' | b'\t')) {
            self.shape.continues = true;
        }
        for &b in piece {
            if b.is_ascii_whitespace() {
                continue;
            }
            self.lead = match (self.lead, b) {
                (Lead::Blank, b'[' | b'{') => Lead::Opened(b),
                (Lead::Blank, b'}' | b']') => {
                    self.shape.continues = true;
                    Lead::Done
                }
                (Lead::Opened(b'['), b'{') => {
                    self.shape.pretty = true;
                    Lead::Done
                }
                _ => Lead::Done,
            };
            if self.lead == Lead::Done {
                return;
            }
        }
    }

    /// Finds the first byte that is not UTF-8, across pieces; `at` is
    /// the piece's offset in the line.
    fn check_utf8(&mut self, piece: &[u8], mut at: u64) {
        let mut rest = piece;
        if !self.carry.is_empty() {
            // Complete the sequence carried over, a byte at a time.
            let start = at - self.carry.len() as u64;
            while let Some((&b, tail)) = rest.split_first() {
                self.carry.push(b);
                rest = tail;
                at += 1;
                match std::str::from_utf8(&self.carry) {
                    Ok(_) => break,
                    Err(e) if e.error_len().is_some() => {
                        self.utf8_bad = Some(start);
                        return;
                    }
                    Err(_) => {}
                }
            }
            if rest.is_empty() && std::str::from_utf8(&self.carry).is_err() {
                return;
            }
            self.carry.clear();
        }
        if let Err(e) = simdutf8::compat::from_utf8(rest) {
            let good = e.valid_up_to();
            match e.error_len() {
                Some(_) => self.utf8_bad = Some(at + good as u64),
                None => self
                    .carry
                    .extend_from_slice(rest.get(good..).unwrap_or_default()),
            }
        }
    }

    fn fail(&mut self, kind: JsonErrorKind, offset: u64) {
        self.err = Some(JsonError {
            kind,
            offset: offset as usize,
        });
        self.st = Some(St::Failed);
    }

    /// The grammar over one piece.
    fn run(&mut self, s: &[u8]) {
        let mut i = 0;
        while i < s.len() {
            let st = self.st.unwrap_or(St::Failed);
            if st == St::Failed {
                break;
            }
            if st == St::Str {
                i += self.string_run(s.get(i..).unwrap_or_default());
                continue;
            }
            let b = s.get(i).copied().unwrap_or(0);
            if self.step(st, b) {
                i += 1;
                self.pos += 1;
            }
        }
    }

    /// Plain string bytes from the start of `s` (up to a quote, a
    /// backslash or a control byte), copied when kept; then that byte.
    fn string_run(&mut self, s: &[u8]) -> usize {
        let mut n = 0;
        while let Some(block) = s.get(n..n + 16) {
            let mut a = [0u8; 16];
            a.copy_from_slice(block);
            let m = crate::peek::special_mask::<true>(&a);
            if m != 0 {
                n += m.trailing_zeros() as usize;
                break;
            }
            n += 16;
        }
        while s
            .get(n)
            .is_some_and(|&c| c != b'"' && c != b'\\' && c >= 0x20)
            && s.len() - n < 16
        {
            n += 1;
        }
        if n > 0 {
            self.no_low();
        }
        self.copy(s.get(..n).unwrap_or_default());
        self.pos += n as u64;
        if let Some(&b) = s.get(n) {
            if self.step(St::Str, b) {
                self.pos += 1;
            }
            n += 1;
        }
        n
    }

    /// One byte in state `st`; false when it is to be read again in the
    /// state this left (the byte that ends a number).
    fn step(&mut self, st: St, b: u8) -> bool {
        let at = self.pos;
        match st {
            St::Start | St::Value | St::ArrFirst => self.value_byte(st, b, at),
            St::ObjFirst | St::Key => self.key_byte(st, b, at),
            St::Colon => match b {
                _ if is_ws(b) => self.space(b),
                b':' => {
                    self.copy(&[b]);
                    self.st = Some(St::Value);
                }
                _ => self.fail(JsonErrorKind::Unexpected, at),
            },
            St::After => self.after(b, at),
            St::Str => self.string_byte(b, at),
            St::Esc => self.escape_byte(b),
            St::Hex(n, v) => self.hex_byte(n, v, b),
            St::Minus
            | St::Zero
            | St::Int
            | St::Frac
            | St::Dot
            | St::Exp
            | St::ExpSign
            | St::ExpDigits => return self.number_byte(st, b, at),
            St::Lit(lit, n) => self.literal_byte(lit, n, b),
            St::Done => self.after_value(b, at),
            St::Failed => {}
        }
        true
    }

    /// Where a value may start (or an empty array end).
    #[inline]
    fn value_byte(&mut self, st: St, b: u8, at: u64) {
        if is_ws(b) {
            self.space(b);
        } else if st == St::ArrFirst && b == b']' {
            self.close(b);
        } else {
            self.value_start(b, at);
        }
    }

    /// Where an object's key may start (or an empty object end).
    #[inline]
    fn key_byte(&mut self, st: St, b: u8, at: u64) {
        match b {
            _ if is_ws(b) => self.space(b),
            b'}' if st == St::ObjFirst => self.close(b),
            b'"' => {
                if self.depth == 1 {
                    self.key_at = self.out.len();
                    self.key_raw = at;
                    if let Some(a) = self.aoi.as_mut().filter(|a| a.value_end.is_some()) {
                        a.next_key.get_or_insert(at);
                    }
                }
                self.in_key = true;
                self.string_open(at);
            }
            _ => self.fail(JsonErrorKind::Unexpected, at),
        }
    }

    /// A byte inside a string that the fast scan stopped at: its end, an
    /// escape, or a control character.
    #[inline]
    fn string_byte(&mut self, b: u8, at: u64) {
        match b {
            b'"' => {
                if self.pending_high {
                    self.lone_surrogate = true;
                }
                self.copy(&[b]);
                self.string_closed();
            }
            b'\\' => {
                self.mark = at;
                if self.depth == 0 {
                    self.top = Some(Kind::String { escaped: true });
                }
                self.copy(&[b]);
                self.st = Some(St::Esc);
            }
            _ => self.fail(JsonErrorKind::ControlInString, at),
        }
    }

    /// The byte after a backslash.
    #[inline]
    fn escape_byte(&mut self, b: u8) {
        match b {
            b'u' => {
                self.copy(&[b]);
                self.st = Some(St::Hex(0, 0));
            }
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.no_low();
                self.copy(&[b]);
                self.st = Some(St::Str);
            }
            _ => self.fail(JsonErrorKind::BadEscape, self.mark),
        }
    }

    /// The `n`th hex digit of a `\u` escape, `v` the digits so far.
    #[inline]
    fn hex_byte(&mut self, n: u8, v: u16, b: u8) {
        let Some(d) = (b as char).to_digit(16) else {
            self.fail(JsonErrorKind::BadEscape, self.mark);
            return;
        };
        self.copy(&[b]);
        let v = (v << 4) | d as u16;
        if n < 3 {
            self.st = Some(St::Hex(n + 1, v));
        } else {
            self.surrogate(v);
            self.st = Some(St::Str);
        }
    }

    /// A byte of a number (RFC 8259 § 6); false for the byte that ends it,
    /// to be read again.
    #[inline]
    fn number_byte(&mut self, st: St, b: u8, at: u64) -> bool {
        match (st, b) {
            (St::Minus, b'0') => self.num(b, St::Zero),
            (St::Minus, b'1'..=b'9') => self.num(b, St::Int),
            (St::Zero, b'0'..=b'9') => self.fail(JsonErrorKind::BadNumber, at),
            (St::Int | St::Frac | St::ExpDigits, b'0'..=b'9') => self.num(b, st),
            (St::Zero | St::Int, b'.') => {
                self.num_float = true;
                self.num(b, St::Dot);
            }
            (St::Zero | St::Int | St::Frac, b'e' | b'E') => {
                self.num_float = true;
                self.num(b, St::Exp);
            }
            (St::Zero | St::Int | St::Frac | St::ExpDigits, _) => {
                self.value_end();
                return false;
            }
            (St::Dot, b'0'..=b'9') => self.num(b, St::Frac),
            (St::Exp, b'+' | b'-') => self.num(b, St::ExpSign),
            (St::Exp | St::ExpSign, b'0'..=b'9') => self.num(b, St::ExpDigits),
            _ => self.fail(JsonErrorKind::BadNumber, at),
        }
        true
    }

    /// The `n`th byte of `true`, `false` or `null`.
    #[inline]
    fn literal_byte(&mut self, lit: &'static [u8], n: u8, b: u8) {
        if lit.get(n as usize) != Some(&b) {
            self.fail(JsonErrorKind::Unexpected, self.mark);
            return;
        }
        self.copy(&[b]);
        if n as usize + 1 == lit.len() {
            self.value_end();
        } else {
            self.st = Some(St::Lit(lit, n + 1));
        }
    }

    /// A byte after the top-level value: whitespace, then perhaps a log's
    /// decoration, read as `demux`'s `trim_decoration` reads it from the
    /// end: (`\r` | `ESC [` digits-and-semicolons `m`)*.
    fn after_value(&mut self, b: u8, at: u64) {
        let Some(tail_at) = self.tail_at else {
            if is_ws(b) {
                self.cr_run = if b == b'\r' { self.cr_run + 1 } else { 0 };
                return;
            }
            self.tail_at = Some(at);
            self.cr_before_tail = self.cr_run;
            return self.decoration(b, at);
        };
        self.decoration(b, tail_at);
    }

    fn decoration(&mut self, b: u8, tail_at: u64) {
        self.deco = match (self.deco, b) {
            (Deco::Between, b'\r') => Deco::Between,
            (Deco::Between, 0x1b) => Deco::Esc,
            (Deco::Esc, b'[') => Deco::Params,
            (Deco::Params, b'0'..=b'9' | b';') => Deco::Params,
            (Deco::Params, b'm') => Deco::Between,
            _ => {
                self.deco = Deco::Other;
                return self.fail(JsonErrorKind::TrailingContent, tail_at);
            }
        };
    }

    /// Whether the line read ends in decoration only (see
    /// [`Reduced::decorated`]).
    fn decorated(&self) -> bool {
        match self.tail_at {
            Some(_) => self.deco == Deco::Between && self.err.is_none(),
            None => self.cr_run > 0 && self.top_end.is_some(),
        }
    }

    /// The first byte of a value.
    fn value_start(&mut self, b: u8, at: u64) {
        let top_level = self.depth == 0;
        if self.depth == 1 {
            self.value_at = self.out.len();
        }
        let kind = match b {
            b'"' => {
                self.in_key = false;
                self.string_open(at);
                Kind::String { escaped: false }
            }
            b'-' | b'0'..=b'9' => {
                self.num_float = false;
                self.num_neg = b == b'-';
                let next = match b {
                    b'-' => St::Minus,
                    b'0' => St::Zero,
                    _ => St::Int,
                };
                self.num(b, next);
                Kind::Number { integer: true }
            }
            b'{' | b'[' => {
                self.open(b, at);
                if b == b'{' { Kind::Object } else { Kind::Array }
            }
            b't' | b'f' | b'n' => {
                let (lit, kind): (&'static [u8], Kind) = match b {
                    b't' => (b"true", Kind::True),
                    b'f' => (b"false", Kind::False),
                    _ => (b"null", Kind::Null),
                };
                self.mark = at;
                self.copy(&[b]);
                self.st = Some(St::Lit(lit, 1));
                kind
            }
            _ => {
                self.fail(JsonErrorKind::Unexpected, at);
                return;
            }
        };
        if top_level {
            self.top = Some(kind);
        }
    }

    fn string_open(&mut self, at: u64) {
        self.mark = at;
        self.pending_high = false;
        self.copy(b"\"");
        self.st = Some(St::Str);
    }

    fn num(&mut self, b: u8, next: St) {
        self.copy(&[b]);
        self.st = Some(next);
    }

    /// An escape other than `\u` ends a wait for a low surrogate.
    fn no_low(&mut self) {
        if self.pending_high {
            self.lone_surrogate = true;
            self.pending_high = false;
        }
    }

    /// A `\u` escape's value, paired as the peek pairs surrogates.
    fn surrogate(&mut self, v: u16) {
        let high = (0xD800..0xDC00).contains(&v);
        let low = (0xDC00..0xE000).contains(&v);
        if self.pending_high {
            self.pending_high = false;
            if low {
                return;
            }
            self.lone_surrogate = true;
        } else if low {
            self.lone_surrogate = true;
        }
        self.pending_high = high;
    }

    fn open(&mut self, b: u8, at: u64) {
        if self.depth >= DEPTH_MAX {
            self.fail(JsonErrorKind::TooDeep, at);
            return;
        }
        let (word, bit) = ((self.depth / 64) as usize, self.depth % 64);
        if self.stack.len() <= word {
            self.stack.push(0);
        }
        if let Some(w) = self.stack.get_mut(word) {
            if b == b'{' {
                *w |= 1 << bit;
            } else {
                *w &= !(1 << bit);
            }
        }
        self.depth += 1;
        self.copy(&[b]);
        if self.depth == 1 && b == b'{' {
            self.member_at = self.out.len();
        }
        self.st = Some(if b == b'{' {
            St::ObjFirst
        } else {
            St::ArrFirst
        });
    }

    /// Whether the innermost open container is an object.
    fn in_object(&self) -> bool {
        let Some(d) = self.depth.checked_sub(1) else {
            return false;
        };
        let word = self.stack.get((d / 64) as usize).copied().unwrap_or(0);
        word >> (d % 64) & 1 == 1
    }

    fn close(&mut self, b: u8) {
        self.depth -= 1;
        if self.depth == 0 {
            self.top_end = Some(self.pos + 1);
        }
        if self.depth == 1 && self.eliding {
            self.eliding = false;
            self.out.push(b);
        } else {
            self.copy(&[b]);
        }
        self.value_end();
    }

    fn string_closed(&mut self) {
        if self.depth == 1 && self.eliding {
            self.eliding = false;
            self.out.push(b'"');
        }
        if self.in_key {
            self.in_key = false;
            if self.depth == 1 {
                self.key_read();
            }
            self.st = Some(St::Colon);
        } else {
            self.value_end();
        }
    }

    /// A value is complete (a number's end is found on the byte after it).
    fn value_end(&mut self) {
        if self.depth == 1 {
            // A number ends on the byte after it, anything else on its last.
            let end = self.pos + u64::from(!self.number_state());
            self.prev_end = Some(end);
            if let Some(a) = self.aoi.as_mut().filter(|a| a.value_end.is_none()) {
                a.value_end = Some(end);
            }
        }
        if self.depth == 0 && matches!(self.top, Some(Kind::Number { .. })) {
            self.top = Some(Kind::Number {
                integer: !self.num_float,
            });
        }
        if self.depth == 1 {
            if self.eliding {
                // Only a number gets here eliding: its stand-in.
                self.eliding = false;
                let sign = if self.num_neg { "-" } else { "" };
                let n = if self.num_float { "1.5" } else { "1" };
                self.out.extend_from_slice(format!("{sign}{n}").as_bytes());
            }
            self.dropping = false;
        }
        self.st = Some(if self.depth == 0 { St::Done } else { St::After });
    }

    fn after(&mut self, b: u8, at: u64) {
        let obj = self.in_object();
        match b {
            _ if is_ws(b) => self.space(b),
            b',' => {
                if self.depth == 1 {
                    self.member_at = self.out.len();
                }
                // No comma before the first member kept.
                if self.depth != 1 || self.out.last() != Some(&b'{') {
                    self.copy(&[b]);
                }
                self.st = Some(if obj { St::Key } else { St::Value });
            }
            b'}' if obj => self.close(b),
            b']' if !obj => self.close(b),
            _ => self.fail(JsonErrorKind::Unexpected, at),
        }
    }

    /// Whitespace between tokens: kept inside a member's value, never
    /// between top-level tokens, where megabytes of it would grow the copy
    /// (and could push a line's first member past [`KEPT_MAX`]).
    fn space(&mut self, b: u8) {
        if self.depth > 1 {
            self.copy(&[b]);
        }
    }

    fn number_state(&self) -> bool {
        matches!(
            self.st,
            Some(
                St::Minus
                    | St::Zero
                    | St::Int
                    | St::Dot
                    | St::Frac
                    | St::Exp
                    | St::ExpSign
                    | St::ExpDigits
            )
        )
    }

    /// The verdict at the end of the line, where `at` is its length.
    fn end_of_input(&mut self, at: usize) -> Result<(), JsonError> {
        let e = |kind| Err(JsonError { kind, offset: at });
        match self.st.unwrap_or(St::Start) {
            St::Start => e(JsonErrorKind::Empty),
            St::Done => Ok(()),
            St::Zero | St::Int | St::Frac | St::ExpDigits => {
                self.value_end();
                if self.depth == 0 {
                    Ok(())
                } else {
                    e(JsonErrorKind::Truncated)
                }
            }
            St::Minus | St::Dot | St::Exp | St::ExpSign => e(JsonErrorKind::BadNumber),
            // The peek reads four hex digits at once: too few is a bad escape.
            St::Hex(..) => Err(JsonError {
                kind: JsonErrorKind::BadEscape,
                offset: self.mark as usize,
            }),
            St::Esc => Err(JsonError {
                kind: JsonErrorKind::Truncated,
                offset: self.mark as usize,
            }),
            _ => e(JsonErrorKind::Truncated),
        }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

mod copy;

#[cfg(test)]
mod tests;
