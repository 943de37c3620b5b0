//! `aoi:meta` (§ 5, § 11): once and first, the identity it declares, the
//! AOI major version it speaks, and no secret echoed in its `args`.

use super::fields::{Ev, str_value};
use super::secrets::{Secret, find_secret, is_env_dump};
use super::{Identity, Judge};
use crate::peek::{Kind, Member, key_is, object_members, span};
use crate::rules::RuleId;
use crate::spec::types;

/// Where an echoed command line may stand in `aoi:meta` (§ 11, § 21).
const ARGS_KEYS: [&str; 3] = ["args", "argv", "command"];

impl Judge {
    pub(super) fn identity_of(&mut self, ev: &Ev<'_>, what: &str) -> Identity {
        let mut id = Identity::default();
        for (name, slot) in [
            ("tool", &mut id.tool),
            ("tool_version", &mut id.tool_version),
            ("aoi_version", &mut id.aoi_version),
            ("schema_name", &mut id.schema_name),
            ("schema_version", &mut id.schema_version),
        ] {
            if let Some(m) = ev.get(name) {
                match str_value(ev.line, m) {
                    Some(s) => *slot = Some(s),
                    None => self.here(
                        RuleId::MetaFieldType,
                        format!("{what}.{name} is a {}, not a string", m.kind.name()),
                    ),
                }
            }
        }
        id
    }

    pub(super) fn meta(&mut self, ev: &Ev<'_>) {
        self.meta_count += 1;
        if self.meta_count > 1 {
            self.here(
                RuleId::MetaDuplicate,
                "second aoi:meta in the stream".into(),
            );
            return;
        }
        // Swapped with the line before it: the order's finding says so.
        if self.object_lines > 1 && !self.order.zero_came_late {
            let n = self.object_lines - 1;
            self.here(
                RuleId::MetaNotFirst,
                format!("aoi:meta comes after {n} event(s)"),
            );
        }
        let id = self.identity_of(ev, types::META);
        let missing: Vec<&str> = [
            ("tool", &id.tool),
            ("tool_version", &id.tool_version),
            ("aoi_version", &id.aoi_version),
            ("schema_name", &id.schema_name),
            ("schema_version", &id.schema_version),
        ]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| *k)
        .collect();
        if !missing.is_empty() {
            self.here(
                RuleId::MetaIdentity,
                format!("aoi:meta lacks {}", missing.join(", ")),
            );
        }
        if let Some(v) = id.aoi_version.clone() {
            self.check_aoi_version(&v);
        }
        self.meta_secrets(ev);
        self.identity = id;
    }

    /// § 11, § 8.3: no secret in the arguments echoed, at the top level
    /// or in `properties`, and no environment echoed wholesale. One
    /// finding of each kind per meta: the first certain secret, else the
    /// first named one.
    fn meta_secrets(&mut self, ev: &Ev<'_>) {
        let mut places: Vec<(String, &[u8], &Member)> = ev
            .members
            .iter()
            .map(|m| (String::new(), ev.line, m))
            .collect();
        let props = ev.get("properties").filter(|p| p.kind == Kind::Object);
        let inner: Vec<Member> =
            props.map_or_else(Vec::new, |p| object_members(ev.raw(p)).collect());
        if let Some(p) = props {
            let obj = ev.raw(p);
            places.extend(inner.iter().map(|m| ("properties.".to_string(), obj, m)));
        }
        let mut found: Option<(String, Secret)> = None;
        let mut env: Option<String> = None;
        for (at, line, m) in &places {
            let key = span(line, &m.key);
            let name = crate::peek::unescape(key);
            let raw = span(line, &m.value);
            if ARGS_KEYS.iter().any(|k| key_is(key, m.key_escaped, k)) {
                if let Some(s) = find_secret(raw) {
                    if found.as_ref().is_none_or(|(_, f)| s.certain && !f.certain) {
                        found = Some((format!("{at}{name}"), s));
                    }
                }
            }
            if env.is_none() && matches!(m.kind, Kind::Object | Kind::Array) {
                let dump = serde_json::from_slice(raw).is_ok_and(|v| is_env_dump(&v));
                if dump {
                    env = Some(format!("{at}{name}"));
                }
            }
        }
        if let Some((at, s)) = found {
            let rule = if s.certain {
                RuleId::MetaArgsSecret
            } else {
                RuleId::MetaArgsSecretFlag
            };
            self.here(rule, format!("aoi:meta.{at} echoes a secret: {}", s.what));
        }
        if let Some(at) = env {
            self.here(
                RuleId::MetaEnv,
                format!("aoi:meta.{at} echoes the environment wholesale (PATH, HOME, …)"),
            );
        }
    }

    /// § 5: a consumer built for AOI 1 must not interpret another major.
    pub(super) fn check_aoi_version(&mut self, v: &str) {
        let major = v.split(['.', '-']).next().unwrap_or_default();
        if major != "1" {
            // § 5.2 lists what changed from v0.2; another 0.x is named as
            // itself ("0.1" was called a v0.2 stream).
            let v02 = v == "0.2" || v.starts_with("0.2.") || v.starts_with("0.2-");
            let hint = if major == "0" && !v02 {
                " (a pre-1.0 stream; § 5.2 lists what changed from v0.2, the version before 1.0-alpha)"
            } else if v02 {
                " (a v0.2 stream, § 5.2: nest seq/run under `aoi`; category temporary is now \
unavailable; drop category partial, use scope:item and summary.partial; retryable on every \
aoi:error, retry_after_ms only with retryable:true; aoi:error.upstream is now wrapped; end every \
line with \\n; reason when ok:false)"
            } else {
                ""
            };
            self.here(
                RuleId::VersionUnsupported,
                format!(
                    "aoi_version \"{v}\" is not AOI 1.x{hint}; the stream's other findings \
under AOI 1's rules are not reported"
                ),
            );
            self.foreign = true;
        }
    }
}
