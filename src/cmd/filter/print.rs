//! How jq prints a result outside the framed stream (`-r`, `-j`, `-a`,
//! `-c`, `--tab`, `--indent N`, `-S`, `-C`/`-M`, `--seq`,
//! `--raw-output0`, `-n`, `-s`, `--raw`): one seam, so every unframed
//! mode prints alike. A result is written as compact JSON first
//! (`jq::write_json`, strict), then restyled (`style.rs`) only when a
//! flag asks for indentation, colour or ASCII.

use jaq_json::{Rc, Val};

use crate::cli::FilterArgs;
use crate::jq;

#[path = "style.rs"]
mod style;
pub(super) use style::Style;

/// jq's output flags.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct JqPrint {
    /// `-r`/`-j`/`--raw-output0`: a string result is printed as its text.
    pub raw_strings: bool,
    /// `-j`: no newline after a result (jq's `--join-output`).
    pub join: bool,
    /// `--raw-output0`: a NUL after each result.
    pub nul: bool,
    /// `--seq`: an ASCII record separator before each result.
    pub seq: bool,
    /// `-S`: object members sorted by key.
    pub sort_keys: bool,
    /// `--indent`, `--tab`, `-C`, `-a`.
    pub style: Style,
}

impl JqPrint {
    pub(super) fn of(args: &FilterArgs) -> Self {
        JqPrint {
            raw_strings: args.raw_output || args.join_output || args.raw_output0,
            join: args.join_output,
            nul: args.raw_output0,
            seq: args.seq,
            sort_keys: args.sort_keys,
            style: Style::of(args),
        }
    }

    /// Whether a flag asks for jq's printing (and so no framing).
    pub(super) fn asked(args: &FilterArgs) -> bool {
        args.raw_output
            || args.join_output
            || args.compact_output
            || args.ascii_output
            || args.sort_keys
            || args.tab
            || args.indent.is_some()
            || args.seq
            || args.raw_output0
            || args.color_output
            || args.monochrome_output
            || args.exit_status
    }

    /// One result as jq prints it; then a newline (`-j`: none,
    /// `--raw-output0`: NUL).
    pub(super) fn result(self, buf: &mut Vec<u8>, v: &Val) -> Result<(), jq::NotJson> {
        if let (Val::TStr(s), true) = (v, self.raw_strings) {
            return self.text(buf, s);
        }
        if self.seq {
            buf.push(0x1e);
        }
        match v {
            _ if self.sort_keys => self.json(buf, &sorted(v))?,
            _ => self.json(buf, v)?,
        }
        self.end(buf);
        Ok(())
    }

    /// A string result `s` (its text, decoded) as [`JqPrint::result`]
    /// prints it with `-r`.
    pub(super) fn text(self, buf: &mut Vec<u8>, s: &[u8]) -> Result<(), jq::NotJson> {
        debug_assert!(self.raw_strings);
        if self.nul && s.contains(&0) {
            return Err(jq::NotJson(
                "Cannot dump a string containing NUL with --raw-output0 option".into(),
            ));
        }
        if self.seq {
            buf.push(0x1e);
        }
        self.style.text(buf, s);
        self.end(buf);
        Ok(())
    }

    /// A result that is no string, already written as `jq::write_json`
    /// writes it (`compact`), as [`JqPrint::result`] prints it; only
    /// without `-S` (whose order is not the result's).
    pub(super) fn compact(self, buf: &mut Vec<u8>, compact: &[u8]) {
        debug_assert!(!self.sort_keys);
        if self.seq {
            buf.push(0x1e);
        }
        if self.style.is_plain() {
            buf.extend_from_slice(compact);
        } else {
            self.style.json(buf, compact);
        }
        self.end(buf);
    }

    /// What follows a result: a newline (`-j`: none, `--raw-output0`: NUL).
    fn end(self, buf: &mut Vec<u8>) {
        if self.nul {
            buf.push(0);
        } else if !self.join {
            buf.push(b'\n');
        }
    }

    fn json(self, buf: &mut Vec<u8>, v: &Val) -> Result<(), jq::NotJson> {
        if self.style.is_plain() {
            return jq::write_json(buf, v);
        }
        let mut compact = Vec::new();
        jq::write_json(&mut compact, v)?;
        self.style.json(buf, &compact);
        Ok(())
    }
}

/// `v` with the members of every object sorted by key (jq's `-S`).
fn sorted(v: &Val) -> Val {
    match v {
        Val::Arr(a) => Val::Arr(Rc::new(a.iter().map(sorted).collect())),
        Val::Obj(o) => {
            let mut members: Vec<(Val, Val)> =
                o.iter().map(|(k, v)| (k.clone(), sorted(v))).collect();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            Val::obj(members.into_iter().collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::JqPrint;

    fn printed(p: JqPrint, v: &jaq_json::Val) -> Vec<u8> {
        let mut b = Vec::new();
        p.result(&mut b, v).unwrap();
        b
    }

    #[test]
    fn results_print_as_jq_prints_them() {
        let s = jaq_json::Val::utf8_str(b"a\tb".to_vec());
        let n = jaq_json::Val::from(1isize);
        let raw = JqPrint {
            raw_strings: true,
            ..JqPrint::default()
        };
        let join = JqPrint {
            raw_strings: true,
            join: true,
            ..JqPrint::default()
        };
        assert_eq!(printed(raw, &s), b"a\tb\n");
        assert_eq!(printed(JqPrint::default(), &s), b"\"a\\tb\"\n");
        assert_eq!(printed(join, &s), b"a\tb");
        assert_eq!(printed(join, &n), b"1");
        let seq = JqPrint {
            seq: true,
            ..JqPrint::default()
        };
        assert_eq!(printed(seq, &n), b"\x1e1\n");
        let nul = JqPrint {
            raw_strings: true,
            nul: true,
            ..JqPrint::default()
        };
        assert_eq!(printed(nul, &s), b"a\tb\0");
    }

    #[test]
    fn sort_keys_sorts_every_object() {
        let v = jaq_json::read::parse_single(br#"{"b":1,"a":[{"d":1,"c":2}]}"#).unwrap();
        let p = JqPrint {
            sort_keys: true,
            ..JqPrint::default()
        };
        assert_eq!(
            printed(p, &v),
            br#"{"a":[{"c":2,"d":1}],"b":1}"#.iter().chain(b"\n").copied().collect::<Vec<u8>>()
        );
    }
}
