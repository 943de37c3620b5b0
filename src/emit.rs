//! The producer side: aoi's own AOI streams.
//!
//! [`Emitter`] encodes events with the envelope (`type`, then
//! `aoi:{seq,run,t}`, then the fields in the order given), keeps `seq`
//! contiguous from 0 and knows the `event_count` its summary must carry. It
//! encodes into a byte buffer; the command decides where the bytes go, so
//! one stream can be written to stdout and a `--report` file alike.

use std::hash::{BuildHasher, Hasher};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::spec::AOI_VERSION;

/// aoi's schema identity (§ 5).
pub const SCHEMA_NAME: &str = "aoi.toolkit.events";
pub const SCHEMA_VERSION: &str = "1.0.0";
pub const TOOL: &str = "aoi";
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A new ULID (§ 8.1 recommends one for `aoi.run`): 48 bits of Unix
/// milliseconds and 80 random bits, Crockford base32. The randomness comes
/// from the standard library's per-process random hash keys, so no extra
/// dependency is needed for an identifier that only has to be unique.
pub fn ulid() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let rs = std::collections::hash_map::RandomState::new();
    let mut h1 = rs.build_hasher();
    h1.write_u64(ms);
    h1.write_u32(std::process::id());
    let r1 = h1.finish();
    let mut h2 = rs.build_hasher();
    h2.write_u64(r1);
    let r2 = h2.finish();
    let value: u128 =
        ((ms as u128 & 0xFFFF_FFFF_FFFF) << 80) | ((r1 as u128) << 16) | (r2 as u128 & 0xFFFF);
    (0..26)
        .rev()
        .map(|i| ALPHABET[((value >> (i * 5)) & 31) as usize] as char)
        .collect()
}

/// Encodes one AOI stream.
pub struct Emitter {
    run: String,
    seq: u64,
    start: Instant,
    buf: Vec<u8>,
}

impl Default for Emitter {
    fn default() -> Self {
        Self::new()
    }
}

impl Emitter {
    pub fn new() -> Self {
        Emitter {
            run: ulid(),
            seq: 0,
            start: Instant::now(),
            buf: Vec::with_capacity(512),
        }
    }

    /// Milliseconds since the emitter started (its `aoi:meta`).
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Encodes one event, `\n` included, and returns its bytes.
    pub fn event(&mut self, ty: &str, fields: &[(&str, Value)]) -> &[u8] {
        self.header(ty);
        for (k, v) in fields {
            self.buf.push(b',');
            push_json(&mut self.buf, &Value::from(*k));
            self.buf.push(b':');
            push_json(&mut self.buf, v);
        }
        self.close()
    }

    /// Encodes one event whose members after the envelope are already
    /// encoded: `body` is empty or `,"key":value…` (the path of forwarded
    /// events, whose members are copied byte for byte).
    pub fn raw_event(&mut self, ty: &str, body: &[u8]) -> &[u8] {
        self.header(ty);
        self.buf.extend_from_slice(body);
        self.close()
    }

    /// `{"type":…,"aoi":{…}` into the buffer.
    fn header(&mut self, ty: &str) {
        let t = self.elapsed_ms();
        self.buf.clear();
        self.buf.extend_from_slice(b"{\"type\":");
        push_json(&mut self.buf, &Value::from(ty));
        self.buf.extend_from_slice(b",\"aoi\":{\"seq\":");
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(self.seq).as_bytes());
        self.buf.extend_from_slice(b",\"run\":\"");
        self.buf.extend_from_slice(self.run.as_bytes());
        self.buf.extend_from_slice(b"\",\"t\":");
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(t).as_bytes());
        self.buf.push(b'}');
    }

    /// Closes the event in the buffer and returns it.
    fn close(&mut self) -> &[u8] {
        self.buf.extend_from_slice(b"}\n");
        self.seq += 1;
        &self.buf
    }

    /// The identity fields aoi puts on both `aoi:meta` and `aoi:summary`.
    pub fn identity() -> Vec<(&'static str, Value)> {
        vec![
            ("tool", TOOL.into()),
            ("tool_version", TOOL_VERSION.into()),
            ("aoi_version", AOI_VERSION.into()),
            ("schema_name", SCHEMA_NAME.into()),
            ("schema_version", SCHEMA_VERSION.into()),
        ]
    }

    /// Encodes `aoi:meta` for `command`.
    pub fn meta(&mut self, command: &str) -> &[u8] {
        let mut f = Self::identity();
        f.push(("command", command.into()));
        self.event("aoi:meta", &f)
    }

    /// Encodes the terminal `aoi:summary`; `fields` are placed after the
    /// counters, `event_count` and the identity are added here.
    pub fn summary(
        &mut self,
        ok: bool,
        reason: Option<&str>,
        fields: Vec<(&'static str, Value)>,
    ) -> &[u8] {
        let mut f: Vec<(&str, Value)> = vec![("ok", ok.into())];
        if let Some(r) = reason {
            f.push(("reason", r.into()));
        }
        f.extend(fields);
        f.push(("elapsed_ms", self.elapsed_ms().into()));
        f.push(("event_count", (self.seq + 1).into()));
        f.extend(Self::identity());
        self.event("aoi:summary", &f)
    }
}

pub(crate) fn push_json(buf: &mut Vec<u8>, v: &Value) {
    // Serialising a Value into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *buf, v);
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn envelope_order_and_seq() {
        let mut e = Emitter::new();
        let l0 = String::from_utf8(e.meta("check").to_vec()).unwrap();
        assert!(l0.starts_with("{\"type\":\"aoi:meta\",\"aoi\":{\"seq\":0,\"run\":\""));
        let l1 =
            String::from_utf8(e.summary(true, None, vec![("count", 0.into())]).to_vec()).unwrap();
        assert!(l1.contains("\"seq\":1,"));
        assert!(l1.contains("\"event_count\":2"));
        assert!(l1.ends_with("}\n"));
    }
}
