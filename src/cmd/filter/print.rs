//! How jq prints a result outside the framed stream (`-r`, `-j`, `-c`,
//! `-n`, `-s`, `--raw`): one seam, so every unframed mode prints alike.

use jaq_json::Val;

use crate::cli::FilterArgs;
use crate::jq;

/// jq's output flags, as far as aoi takes them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct JqPrint {
    /// `-r`/`-j`: a string result is printed as its text, unquoted.
    pub raw_strings: bool,
    /// `-j`: no newline after a result (jq's `--join-output`).
    pub join: bool,
}

impl JqPrint {
    pub(super) fn of(args: &FilterArgs) -> Self {
        JqPrint {
            raw_strings: args.raw_output || args.join_output,
            join: args.join_output,
        }
    }

    /// One result as jq prints it: compact JSON, or with `-r`/`-j` a
    /// string's text unquoted; then a newline unless `-j`.
    pub(super) fn result(self, buf: &mut Vec<u8>, v: &Val) -> Result<(), jq::NotJson> {
        match (v, self.raw_strings) {
            (Val::TStr(s), true) => buf.extend_from_slice(s),
            _ => jq::write_json(buf, v)?,
        }
        if !self.join {
            buf.push(b'\n');
        }
        Ok(())
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
            join: false,
        };
        let join = JqPrint {
            raw_strings: true,
            join: true,
        };
        assert_eq!(printed(raw, &s), b"a\tb\n");
        assert_eq!(printed(JqPrint::default(), &s), b"\"a\\tb\"\n");
        assert_eq!(printed(join, &s), b"a\tb");
        assert_eq!(printed(join, &n), b"1");
    }
}
