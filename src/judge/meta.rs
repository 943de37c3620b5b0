//! `aoi:meta` (§ 5, § 11): once and first, the identity it declares, the
//! AOI major version it speaks, and no secret echoed in its `args`.

use super::fields::{Ev, str_value};
use super::secrets::secret_in_args;
use super::{Identity, Judge};
use crate::rules::RuleId;

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
        let id = self.identity_of(ev, "aoi:meta");
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
        if let Some(args) = ev.get("args") {
            let raw = ev.raw(args);
            if let Some(what) = secret_in_args(raw) {
                self.here(
                    RuleId::MetaArgsSecret,
                    format!("aoi:meta.args echoes a secret: {what}"),
                );
            }
        }
        self.identity = id;
    }

    /// § 5: a consumer built for AOI 1 must not interpret another major.
    pub(super) fn check_aoi_version(&mut self, v: &str) {
        let major = v.split(['.', '-']).next().unwrap_or_default();
        if major != "1" {
            let hint = if major == "0" {
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
