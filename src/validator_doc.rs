//! An event read in place for the quick validator
//! ([`crate::validator_quick`]): its values in one reused array, strings
//! borrowed from the line, nothing allocated per event. Parsing into
//! `serde_json::Value` (a map and a string per member) cost more than the
//! validation itself.
//!
//! It stands for the `Value` serde_json would make of the line, or it is
//! not made: a string with an escape, a repeated member name, a very
//! wide object, or nesting past serde_json's limit sends the line to
//! serde_json, and every number is read by serde_json itself (the same
//! `u64`/`i64`/`f64`, the same refusals, such as a number past `f64`).
//! So where this document exists, serde_json reads the same values.

use serde_json::Number;

/// serde_json's nesting limit: deeper lines are serde_json's to refuse.
const MAX_DEPTH: usize = 128;

/// Members an object may have here: the check for repeated names is
/// quadratic, so wider objects go to serde_json.
const MAX_MEMBERS: usize = 32;

/// One value, in document order; a container's values follow it.
#[derive(Debug)]
pub(crate) struct Item {
    /// The member name's span in the line (`0..0` in an array or at the top).
    key: (u32, u32),
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Null,
    Bool(bool),
    Number(Number),
    /// The span of the string's contents (no escapes in it).
    String(u32, u32),
    /// `count` values, the subtree ending before item `end`.
    Array {
        count: u32,
        end: u32,
    },
    Object {
        count: u32,
        end: u32,
    },
}

/// A parsed line: the line and its items (the reused array).
pub(crate) struct Doc<'a> {
    line: &'a str,
    items: &'a [Item],
}

/// The shape of a value, children aside.
pub(crate) enum Shape<'a> {
    Null,
    Bool(bool),
    Number(&'a Number),
    String(&'a str),
    /// The count of members or items.
    Array(usize),
    Object(usize),
}

/// Parses `line` into `items` (cleared first); `None` when the line is
/// one serde_json must read (see the module's notes) or is not one JSON
/// value.
pub(crate) fn parse<'a>(line: &'a [u8], items: &'a mut Vec<Item>) -> Option<Doc<'a>> {
    let line = std::str::from_utf8(line).ok()?;
    if line.len() > u32::MAX as usize {
        return None;
    }
    items.clear();
    let mut p = Parser {
        b: line.as_bytes(),
        at: 0,
        items,
    };
    p.value((0, 0), 0)?;
    p.space();
    (p.at == p.b.len()).then_some(())?;
    Some(Doc { line, items })
}

struct Parser<'a, 'i> {
    b: &'a [u8],
    at: usize,
    items: &'i mut Vec<Item>,
}

impl Parser<'_, '_> {
    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.at) {
            self.at += 1;
        }
    }

    fn value(&mut self, key: (u32, u32), depth: usize) -> Option<()> {
        self.space();
        let kind = match *self.b.get(self.at)? {
            b'{' => return self.object(key, depth + 1),
            b'[' => return self.array(key, depth + 1),
            b'"' => {
                let (s, e) = self.string()?;
                Kind::String(s, e)
            }
            b'n' => self.word(b"null", Kind::Null)?,
            b't' => self.word(b"true", Kind::Bool(true))?,
            b'f' => self.word(b"false", Kind::Bool(false))?,
            _ => self.number()?,
        };
        self.items.push(Item { key, kind });
        Some(())
    }

    fn word(&mut self, w: &[u8], kind: Kind) -> Option<Kind> {
        self.b[self.at..].starts_with(w).then_some(())?;
        self.at += w.len();
        Some(kind)
    }

    /// A number: a short integer read here (serde_json's own reading: a
    /// `u64`, or an `i64` below zero), any other by serde_json itself.
    fn number(&mut self) -> Option<Kind> {
        let start = self.at;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.b.get(self.at) {
            self.at += 1;
        }
        let text = &self.b[start..self.at];
        let (negative, digits) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        let plain = !digits.is_empty()
            && digits.len() <= 18
            && digits.iter().all(u8::is_ascii_digit)
            && (digits[0] != b'0' || digits.len() == 1);
        if plain && !(negative && digits == b"0") {
            let n = digits
                .iter()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
            let n = if negative {
                Number::from(-n)
            } else {
                Number::from(n as u64)
            };
            return Some(Kind::Number(n));
        }
        let n = serde_json::from_slice::<Number>(text).ok()?;
        Some(Kind::Number(n))
    }

    /// A string without escapes or control characters: the span of its
    /// contents.
    fn string(&mut self) -> Option<(u32, u32)> {
        let start = self.at + 1;
        let len = self.b[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        let end = start + len;
        if self.b[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        Some((start as u32, end as u32))
    }

    fn array(&mut self, key: (u32, u32), depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let me = self.open(key);
        self.at += 1;
        self.space();
        let mut count = 0;
        if self.b.get(self.at) == Some(&b']') {
            self.at += 1;
        } else {
            loop {
                self.value((0, 0), depth)?;
                count += 1;
                self.space();
                match self.b.get(self.at)? {
                    b',' => self.at += 1,
                    b']' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let end = self.items.len() as u32;
        self.items[me].kind = Kind::Array { count, end };
        Some(())
    }

    fn object(&mut self, key: (u32, u32), depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let me = self.open(key);
        self.at += 1;
        self.space();
        let mut keys = [(0u32, 0u32); MAX_MEMBERS];
        let mut count = 0;
        if self.b.get(self.at) == Some(&b'}') {
            self.at += 1;
        } else {
            loop {
                self.space();
                (self.b.get(self.at)? == &b'"').then_some(())?;
                let k = self.string()?;
                let name = &self.b[k.0 as usize..k.1 as usize];
                if count == MAX_MEMBERS
                    || keys[..count]
                        .iter()
                        .any(|&(s, e)| &self.b[s as usize..e as usize] == name)
                {
                    return None;
                }
                keys[count] = k;
                count += 1;
                self.space();
                (self.b.get(self.at)? == &b':').then_some(())?;
                self.at += 1;
                self.value(k, depth)?;
                self.space();
                match self.b.get(self.at)? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let end = self.items.len() as u32;
        self.items[me].kind = Kind::Object {
            count: count as u32,
            end,
        };
        Some(())
    }

    /// Places a container's item before its values; its kind is set once
    /// they are read.
    fn open(&mut self, key: (u32, u32)) -> usize {
        self.items.push(Item {
            key,
            kind: Kind::Null,
        });
        self.items.len() - 1
    }
}

/// A value of a [`Doc`].
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    doc: &'a Doc<'a>,
    i: usize,
}

impl<'a> Doc<'a> {
    /// The top-level value.
    pub(crate) fn root(&'a self) -> At<'a> {
        At { doc: self, i: 0 }
    }
}

impl<'a> At<'a> {
    fn item(self) -> &'a Item {
        &self.doc.items[self.i]
    }

    fn text(self, (s, e): (u32, u32)) -> &'a str {
        self.doc
            .line
            .get(s as usize..e as usize)
            .unwrap_or_default()
    }

    pub(crate) fn shape(self) -> Shape<'a> {
        match &self.item().kind {
            Kind::Null => Shape::Null,
            Kind::Bool(b) => Shape::Bool(*b),
            Kind::Number(n) => Shape::Number(n),
            Kind::String(s, e) => Shape::String(self.text((*s, *e))),
            Kind::Array { count, .. } => Shape::Array(*count as usize),
            Kind::Object { count, .. } => Shape::Object(*count as usize),
        }
    }

    /// The values inside (an object's or an array's), in order, with
    /// their member names (empty in an array).
    pub(crate) fn children(self) -> impl Iterator<Item = (&'a str, At<'a>)> {
        let end = match self.item().kind {
            Kind::Array { end, .. } | Kind::Object { end, .. } => end as usize,
            _ => self.i + 1,
        };
        let mut next = self.i + 1;
        std::iter::from_fn(move || {
            if next >= end {
                return None;
            }
            let child = At {
                doc: self.doc,
                i: next,
            };
            next = match child.item().kind {
                Kind::Array { end, .. } | Kind::Object { end, .. } => end as usize,
                _ => next + 1,
            };
            Some((child.text(child.item().key), child))
        })
    }
}
