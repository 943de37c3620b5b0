//! The framed mode's engine: each input judged as `aoi check` judges it
//! while the filter runs on its events, the results written as aoi's own
//! stream's events and the upstream's errors forwarded, to aoi's report
//! ([`super::report`]) or a worker's record of it (§ 13, § 13.1).

use crate::spec::exit::Code;
use std::io::Read;

use jaq_core::{Ctx, Vars};
use jaq_json::Val;
use jaq_std::input::RcIter;

use super::report::halted_in_report;
use super::sink::{Emit, ItemError};
use super::{BoxedInputs, MAX_MESSAGE, error_text};
use crate::cli::FilterArgs;
use crate::drive::drive_source;
use crate::jq::{self, Data, Filter, Kind};
use crate::judge::fields::Ev;
use crate::judge::{Finding, Judge, LineClass, Verdict, envelope_run};
use crate::out::{EventKind, Found, event_kind, forwarded_body, one_line_of, push_member};
use crate::out::{Judging, Stop, cancelled};
use crate::spec::types;

/// The filter and what it reads, made once for a run.
pub(super) struct Program<'a> {
    pub(super) args: &'a FilterArgs,
    pub(super) judging: &'a Judging,
    pub(super) filter: &'a Filter,
    /// The filter is a plain path (`.title`, `.a.b`): see [`simple_path`].
    path: Option<Vec<String>>,
    /// The only members the filter reads, when it reads its input only
    /// through them ([`jq::input_keys`]): the event is built of them.
    keys: Option<Vec<String>>,
    /// The filter builds an object of plain paths (`{id, title}`), never
    /// one with a `type` (an event of its own, § 8.1): it is written from
    /// the line's bytes ([`jq::Construction`]).
    built: Option<jq::Construction>,
}

impl<'a> Program<'a> {
    pub(super) fn new(args: &'a FilterArgs, judging: &'a Judging, filter: &'a Filter) -> Self {
        Program {
            args,
            judging,
            filter,
            path: simple_path(&args.filter),
            keys: jq::input_keys(&args.filter),
            built: jq::construction(&args.filter).filter(|c| !c.has_key("type")),
        }
    }

    /// Whether each result is written from the line's own bytes (`.`, a
    /// plain path, an object of plain paths): cheaper than handing the
    /// line to another thread.
    pub(super) fn writes_from_line(&self) -> bool {
        self.args.filter.trim() == "." || self.path.is_some() || self.built.is_some()
    }
}

/// The transformer's state while it filters a stream (or, on a split
/// stream's worker, its chunks).
pub(super) struct Framed<'a, O: Emit> {
    pub(super) args: &'a FilterArgs,
    pub(super) judging: &'a Judging,
    pub(super) filter: &'a Filter,
    pub(super) vars: Vars<Val>,
    /// aoi's report, or a worker's record of what it would write.
    pub(super) sinks: O,
    /// The input being filtered, for an item error's place.
    pub(super) source: String,
    /// Set by `halt`/`halt_error`: the filter stops, the stream is still
    /// read to its end so the verdict stays true.
    pub(super) halted: Option<i32>,
    /// A result's type and then its members, as [`Emit::event`] takes them.
    pub(super) buf: Vec<u8>,
    path: Option<&'a [String]>,
    /// The key `type`, made once (looked up in every result).
    pub(super) type_key: Val,
    keys: Option<&'a [String]>,
    built: Option<&'a jq::Construction>,
}

/// The keys of a filter that is a plain path of identifiers (`.title`,
/// `.owner.name`), whose result on an event can be read from the peek's
/// spans without building the event's value (the commonest jq use, and
/// the one where building the value costs most).
pub(super) fn simple_path(filter: &str) -> Option<Vec<String>> {
    let f = filter.trim();
    let mut keys = Vec::new();
    for seg in f.strip_prefix('.')?.split('.') {
        let mut chars = seg.chars();
        let first = chars.next()?;
        if !(first.is_ascii_alphabetic() || first == '_')
            || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return None;
        }
        keys.push(seg.to_string());
    }
    Some(keys)
}

/// The value a plain path selects in `line`, as raw JSON, when it can be
/// written as it is ([`jq::verbatim`]), or is `null` (also for a missing
/// key or a step into `null`: jq's `.a` on `null` is `null`). `None` sends
/// the event to the full evaluation: an object or array result (an object
/// may be an event of its own, § 8.1), a string or number jaq writes
/// otherwise, or a step into a value that is not an object (jq's error).
pub(super) fn path_value<'a>(
    line: &'a [u8],
    peek: &crate::peek::Peeker,
    keys: &[String],
) -> Option<&'a [u8]> {
    match jq::member_at(line, peek, keys)? {
        jq::Found::Null => Some(b"null"),
        jq::Found::Value(kind, raw) => jq::verbatim(kind, raw).then_some(raw),
    }
}

impl<'a, O: Emit> Framed<'a, O> {
    pub(super) fn new(program: &'a Program<'a>, vars: Vars<Val>, sinks: O) -> Self {
        Framed {
            args: program.args,
            judging: program.judging,
            filter: program.filter,
            vars,
            sinks,
            source: String::new(),
            halted: None,
            buf: Vec::with_capacity(4096),
            path: program.path.as_deref(),
            type_key: Val::utf8_str(&b"type"[..]),
            keys: program.keys.as_deref(),
            built: program.built.as_ref(),
        }
    }
}

/// One event as the filter reads it: its bytes, their peek, and what the
/// judge said of its line. The judge's own on one thread; on a filter
/// worker ([`super::split`]), what the judge said, and the worker's peek
/// of the same bytes.
pub(super) struct Seen<'l> {
    pub(super) line: &'l [u8],
    pub(super) peek: &'l crate::peek::Peeker,
    /// The judge read it as a domain event (its `type` is a domain type).
    pub(super) domain: bool,
    pub(super) line_no: u64,
    /// Longer than the reader holds: `line` is the judge's reduced copy.
    pub(super) long: bool,
}

impl<'l> Seen<'l> {
    /// The event the judge just read, on `line` (its event's bytes).
    pub(super) fn judged(judge: &'l Judge, line: &'l [u8]) -> Self {
        Seen {
            line,
            peek: judge.last_peek(),
            domain: judge.last_class() == LineClass::Domain,
            line_no: judge.line_no(),
            long: judge.last_long(),
        }
    }
}

/// Whether `v` is the input object `same` itself (the same allocation:
/// no filter step changed it), from a line whose members are all distinct
/// (so its bytes say exactly what the value holds) and that the judge read
/// as a domain event (so its `type` is a domain type).
pub(super) fn unchanged(v: &Val, same: &Val, seen: &Seen<'_>) -> bool {
    match v {
        Val::Obj(a) => {
            same_object(v, same)
                && a.len() == seen.peek.members.len()
                && seen.domain
                && spliceable(seen.peek)
        }
        _ => false,
    }
}

/// Whether the line's bytes may be written into aoi's own stream as they
/// came: not with a lone surrogate escape, which the value holds as U+FFFD
/// and which aoi's output never carries (jq and serde_json refuse it).
fn spliceable(peek: &crate::peek::Peeker) -> bool {
    !peek.lone_surrogate
}

/// Whether `v` is the object `same` itself (the same allocation).
pub(super) fn same_object(v: &Val, same: &Val) -> bool {
    match (v, same) {
        (Val::Obj(a), Val::Obj(b)) => jaq_json::Rc::ptr_eq(a, b),
        _ => false,
    }
}

/// Filters one input stream; returns its verdict and the first findings.
pub(super) fn framed_stream<R: Read + Send, O: Emit>(
    f: &mut Framed<'_, O>,
    reader: crate::drive::Source<R>,
    source: &str,
) -> Result<(Verdict, Vec<Finding>), Stop> {
    let mut judge = Judge::new(f.judging.options(10));
    let empty: BoxedInputs<'_> = Box::new(std::iter::empty());
    let inputs = RcIter::new(empty);
    let data = Data {
        lut: &f.filter.lut,
        inputs: &inputs,
    };
    let mut item_index = 0u64;
    let mut shown: Vec<Finding> = Vec::new();
    f.reading(source);
    // Results are written line by line and flushed block by block.
    let cell = std::cell::RefCell::new(&mut *f);
    drive_source(
        reader,
        &mut judge,
        |judge, line| {
            let line = judge.last_event(line);
            let mut f = cell.borrow_mut();
            match judge.last_class() {
                LineClass::Domain => {
                    let idx = item_index;
                    item_index += 1;
                    f.apply(&data, &Seen::judged(judge, line), Some(idx))?;
                }
                LineClass::Framework => {
                    if let Some((ty, body)) = forward_of(judge, line, source) {
                        f.sinks.forward(ty, &body)?;
                    }
                    if f.args.framework {
                        f.apply(&data, &Seen::judged(judge, line), None)?;
                    }
                }
                LineClass::Invalid => {}
            }
            Ok(())
        },
        |judge, _| {
            shown.extend(judge.drain().take(10usize.saturating_sub(shown.len())));
            // After each block read: a live producer's results go on at
            // once, not when the buffer fills.
            cell.borrow_mut().sinks.block_end()
        },
    )?;
    // A stream stopped by SIGINT/SIGTERM is not judged to its end; what
    // was read of it still counts as consumed.
    if let Err(stop) = cancelled() {
        f.sinks.consumed(judge.finish().0)?;
        return Err(stop);
    }
    shown.extend(judge.drain().take(10usize.saturating_sub(shown.len())));
    let (v, last) = judge.finish();
    shown.extend(last.into_iter().take(10usize.saturating_sub(shown.len())));
    Ok((v, shown))
}

/// What an upstream `aoi:error`/`aoi:warning` on `line` is forwarded as
/// (§ 13.1): its type and members; `None` for any other framework event.
pub(super) fn forward_of(
    judge: &Judge,
    line: &[u8],
    source: &str,
) -> Option<(&'static str, Vec<u8>)> {
    let peek = judge.last_peek();
    let kind = event_kind(line, peek, true)?;
    let ev = Ev {
        line,
        members: &peek.members,
    };
    let run = peek
        .aoi_member
        .and_then(|i| peek.members.get(i))
        .and_then(|env| envelope_run(line, env));
    let tool = judge.identity().tool.as_deref();
    let body = forwarded_body(&Found {
        ev: &ev,
        kind,
        tool,
        run,
        line_no: judge.line_no(),
        source,
    });
    let ty = match kind {
        EventKind::Error => types::ERROR,
        EventKind::Warning => types::WARNING,
    };
    Some((ty, body))
}

impl<O: Emit> Framed<'_, O> {
    /// Runs the filter on one event and emits its results.
    pub(super) fn apply<'d>(
        &mut self,
        data: &'d Data<'d>,
        seen: &Seen<'_>,
        item_index: Option<u64>,
    ) -> Result<(), Stop> {
        if self.halted.is_some() || halted_in_report() {
            return Ok(());
        }
        let (line, line_no) = (seen.line, seen.line_no);
        if seen.long {
            // The stream judges a line of any length; the filter needs the
            // whole value (its limit is its own item error).
            let msg = format!(
                "event longer than --max-line-bytes {}: the filter does not hold it",
                self.args.max_line_bytes
            );
            return self.item_error("INPUT_TOO_LONG", &msg, line_no, item_index);
        }
        if jq::too_deep(line) {
            let msg = format!("event nests deeper than {} levels", jq::MAX_DEPTH);
            return self.item_error("INPUT_TOO_DEEP", &msg, line_no, item_index);
        }
        if let Some(raw) = self.path.and_then(|keys| path_value(line, seen.peek, keys)) {
            self.buf.clear();
            self.buf.extend_from_slice(b"value,\"value\":");
            self.buf.extend_from_slice(raw);
            return self.sinks.event("value".len(), &self.buf);
        }
        if let Some(c) = self.built {
            self.buf.clear();
            self.buf.extend_from_slice(b"value,\"value\":");
            if c.write(&mut self.buf, line, seen.peek).is_some() {
                return self.sinks.event("value".len(), &self.buf);
            }
        }
        let built = match self.keys {
            Some(keys) => jq::object_with_keys(line, seen.peek, keys),
            None => jq::object_from_peek(line, seen.peek),
        };
        let input = match built {
            Ok(v) => v,
            Err(e) => return self.unreadable_event(&e, line_no, item_index),
        };
        // The input object itself, to recognise a result that is the event
        // unchanged (`.`, `select(…)`): it is written from the line's own
        // bytes, as it came, without serialising it again.
        let same = input.clone();
        let ctx = Ctx::<Kind>::new(data, self.vars.clone());
        let outputs = self.filter.id.run((ctx, input));
        for out in outputs {
            match out {
                Ok(v) if self.keys.is_some() && same_object(&v, &same) => {
                    // The event built of some members only: the result is
                    // the whole event, written from the line as it came
                    // where the whole object would be ([`unchanged`]).
                    let peek = seen.peek;
                    if seen.domain && jq::distinct_keys(line, peek) && spliceable(peek) {
                        let ty = self.splice(line, peek);
                        self.sinks.event(ty, &self.buf)?;
                        continue;
                    }
                    match jq::object_from_peek(line, peek) {
                        Ok(whole) => self.result(&whole, &whole, seen, item_index)?,
                        Err(e) => self.unreadable_event(&e, line_no, item_index)?,
                    }
                }
                Ok(v) => self.result(&v, &same, seen, item_index)?,
                Err(exn) => {
                    match exn.get_err() {
                        Ok(err) => {
                            let msg = error_text(err);
                            self.item_error("FILTER_ERROR", &msg, line_no, item_index)?;
                        }
                        Err(exn) => {
                            self.halt(exn.get_halt().unwrap_or(Code::SOFTWARE.code()))?;
                        }
                    }
                    // Like jq: an error ends the outputs for this input.
                    break;
                }
            }
        }
        Ok(())
    }

    /// The event could not be made a value.
    fn unreadable_event(&mut self, e: &str, line_no: u64, index: Option<u64>) -> Result<(), Stop> {
        let msg = format!("the filter cannot read the event: {e}");
        self.item_error("INPUT_UNREADABLE", &msg, line_no, index)
    }

    /// Emits one result `v` of the filter run on the event `same`.
    fn result(
        &mut self,
        v: &Val,
        same: &Val,
        seen: &Seen<'_>,
        item_index: Option<u64>,
    ) -> Result<(), Stop> {
        if unchanged(v, same, seen) {
            let ty = self.splice(seen.line, seen.peek);
            return self.sinks.event(ty, &self.buf);
        }
        match self.encode_result(v) {
            Ok(ty) => self.sinks.event(ty, &self.buf),
            Err(e) => {
                let msg = format!("result is not JSON: {}", e.0);
                self.item_error("FILTER_RESULT_NOT_JSON", &msg, seen.line_no, item_index)
            }
        }
    }

    /// The event of `line` (judged a domain event with a string `type`) as
    /// a domain event of aoi's stream: aoi's envelope, then every other
    /// member byte for byte: its type and then its members go into `buf`;
    /// returns the type's length.
    pub(super) fn splice(&mut self, line: &[u8], peek: &crate::peek::Peeker) -> usize {
        use crate::peek::span;
        self.buf.clear();
        let ty = peek.type_member.and_then(|i| peek.members.get(i));
        let ty = ty.and_then(|m| crate::judge::fields::str_ref(line, m));
        self.buf
            .extend_from_slice(ty.unwrap_or_default().as_bytes());
        let ty = self.buf.len();
        for (i, m) in peek.members.iter().enumerate() {
            if Some(i) == peek.type_member || Some(i) == peek.aoi_member {
                continue;
            }
            push_member(&mut self.buf, span(line, &m.key), span(line, &m.value));
        }
        ty
    }

    /// Encodes one result as a domain event of aoi's stream: its type and
    /// then its members go into `buf`; returns the type's length.
    pub(super) fn encode_result(&mut self, v: &Val) -> Result<usize, jq::NotJson> {
        self.buf.clear();
        let ty = match v {
            Val::Obj(o) => o.get(&self.type_key).and_then(|t| match t {
                Val::TStr(s) if !s.starts_with(crate::spec::types::bytes::PREFIX) => {
                    std::str::from_utf8(s).ok()
                }
                _ => None,
            }),
            _ => None,
        };
        let ty = match (ty, v) {
            (Some(ty), Val::Obj(o)) => {
                self.buf.extend_from_slice(ty.as_bytes());
                for (k, x) in o.iter() {
                    // A byte-string key is written as a string too: it
                    // must not bring a second `type` or `aoi` (§ 8.1).
                    let key: &[u8] = match k {
                        Val::TStr(s) | Val::BStr(s) => s,
                        _ => b"",
                    };
                    if key == b"type" || key == b"aoi" {
                        continue;
                    }
                    self.buf.push(b',');
                    match k {
                        Val::TStr(s) | Val::BStr(s) => jq::write_str(&mut self.buf, s),
                        other => {
                            return Err(jq::NotJson(format!(
                                "object keys must be strings, not {other}"
                            )));
                        }
                    }
                    self.buf.push(b':');
                    jq::write_json(&mut self.buf, x)?;
                }
                ty.len()
            }
            _ => {
                self.buf.extend_from_slice(b"value,\"value\":");
                jq::write_json(&mut self.buf, v)?;
                "value".len()
            }
        };
        Ok(ty)
    }

    /// The input being read is `source` (`-`: stdin): in findings, and
    /// for jq's `input_filename` on this thread (null for stdin).
    pub(super) fn reading(&mut self, source: &str) {
        self.source.clear();
        self.source.push_str(source);
        jq::set_input_filename((source != "-").then_some(source));
    }

    /// The filter halted (`halt`, `halt_error`) with exit code `h`.
    pub(super) fn halt(&mut self, h: i32) -> Result<(), Stop> {
        self.halted = Some(h);
        self.sinks.halted(h)
    }

    /// An item-level `aoi:error` of aoi's own (§ 9.1: scope item, with the
    /// input line and the event's index among the domain events).
    pub(super) fn item_error(
        &mut self,
        code: &'static str,
        message: &str,
        line_no: u64,
        item_index: Option<u64>,
    ) -> Result<(), Stop> {
        let mut msg = one_line_of(message);
        if msg.chars().count() > MAX_MESSAGE {
            msg = msg.chars().take(MAX_MESSAGE).collect::<String>() + "…";
        }
        let said = match self.source.as_str() {
            "-" => format!("{code} at line {line_no}: {msg}"),
            source => format!("{code} at {source}:{line_no}: {msg}"),
        };
        let mut fields: Vec<(&str, serde_json::Value)> = vec![
            ("scope", "item".into()),
            ("category", "validation".into()),
            ("code", code.into()),
            ("message", msg.into()),
            ("retryable", false.into()),
            ("line_number", line_no.into()),
        ];
        // The index among the domain events; a framework event (seen with
        // --framework) has none.
        if let Some(i) = item_index {
            fields.push(("item_index", i.into()));
        }
        self.sinks.item_error(ItemError { code, fields, said })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_recognised() {
        assert_eq!(simple_path(".title"), Some(vec!["title".to_string()]));
        assert_eq!(
            simple_path(" .owner.name "),
            Some(vec!["owner".into(), "name".into()])
        );
        for f in [
            ".", "..", ".a | .b", ".a[0]", ".a?", ".\"a b\"", ".1a", "title", ".a.", ".a,b",
        ] {
            assert_eq!(simple_path(f), None, "{f}");
        }
    }
}
