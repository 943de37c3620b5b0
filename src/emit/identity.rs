//! Who is speaking: the identity triple on `aoi:meta` and `aoi:summary`
//! (§ 5), aoi's own, and the ULID that names a run (§ 8.1).

use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::spec::AOI_VERSION;

/// aoi's schema name (`schema_name`, § 5).
pub const SCHEMA_NAME: &str = "aoi.toolkit.events";
/// The version of aoi's schema (`schema_version`).
pub const SCHEMA_VERSION: &str = "1.0.0";
/// aoi's tool name (`tool`).
pub const TOOL: &str = "aoi";
/// aoi's version (`tool_version`).
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A new ULID (§ 8.1 recommends one for `aoi.run`): 48 bits of Unix
/// milliseconds and 80 random bits from the operating system (getrandom,
/// which `tempfile` already brings), Crockford base32.
pub fn ulid() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let mut random = [0u8; 16];
    if getrandom::fill(&mut random[6..]).is_err() {
        // No system randomness (a sandbox without getrandom(2) and
        // /dev/urandom): the standard library's hash keys still differ
        // per process and per call, which is enough for an identifier.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        random[8..].copy_from_slice(&h.finish().to_be_bytes());
    }
    let value = ((ms as u128 & 0xFFFF_FFFF_FFFF) << 80) | u128::from_be_bytes(random);
    (0..26)
        .rev()
        .map(|i| ALPHABET[((value >> (i * 5)) & 31) as usize] as char)
        .collect()
}

/// Who is speaking: the identity a stream carries on `aoi:meta` and
/// `aoi:summary` (§ 5), `aoi_version` aside (always [`AOI_VERSION`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolIdentity {
    /// The tool's name (`tool`).
    pub tool: String,
    /// Its version (`tool_version`).
    pub tool_version: String,
    /// The schema its domain events follow (`schema_name`, § 8.2).
    pub schema_name: String,
    /// That schema's version (`schema_version`, § 5).
    pub schema_version: String,
}

impl ToolIdentity {
    /// An identity from its four parts.
    pub fn new(
        tool: impl Into<String>,
        tool_version: impl Into<String>,
        schema_name: impl Into<String>,
        schema_version: impl Into<String>,
    ) -> Self {
        ToolIdentity {
            tool: tool.into(),
            tool_version: tool_version.into(),
            schema_name: schema_name.into(),
            schema_version: schema_version.into(),
        }
    }

    /// aoi's own identity.
    pub fn aoi() -> Self {
        Self::new(TOOL, TOOL_VERSION, SCHEMA_NAME, SCHEMA_VERSION)
    }

    /// The identity members, in the order aoi writes them.
    pub(super) fn fields(&self) -> [(&'static str, &str); 5] {
        let values = [
            self.tool.as_str(),
            &self.tool_version,
            AOI_VERSION,
            &self.schema_name,
            &self.schema_version,
        ];
        std::array::from_fn(|i| (crate::spec::IDENTITY_FIELDS[i], values[i]))
    }
}
