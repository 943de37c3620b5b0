//! The framed mode's engine: each input judged as `aoi check` judges it
//! while the filter runs on its events, the results written as aoi's own
//! stream, the upstream's errors forwarded, and the closing summary that
//! accounts for the upstream (§ 13, § 13.1).

use crate::spec::exit::Code;
use std::io::{self, Read, Write};

use jaq_core::{Ctx, Vars};
use jaq_json::Val;
use jaq_std::input::RcIter;
use serde_json::json;

use super::sink::{Emit, halted_in_report};
use super::{BoxedInputs, MAX_MESSAGE, error_text};
use crate::cli::FilterArgs;
use crate::drive::drive_source;
use crate::emit::ErrorEvent;
use crate::jq::{self, Data, Filter, Kind};
use crate::judge::fields::Ev;
use crate::judge::{Cause, Finding, Judge, LineClass, Outcome, Verdict, envelope_run};
use crate::out::{
    Closing, Judging, Sinks, Stop, cancelled, close_report, eprint_line, finding_line,
    unreadable_error, verdict_line,
};
use crate::out::{EventKind, Found, event_kind, forwarded_body, one_line_of, push_member};
use crate::spec::types;

/// The transformer's state across its inputs.
pub(super) struct Framed<'a, O: Emit> {
    pub(super) args: &'a FilterArgs,
    pub(super) judging: &'a Judging,
    pub(super) filter: &'a Filter,
    pub(super) vars: Vars<Val>,
    /// aoi's report, or a worker's record of what it would write.
    pub(super) sinks: O,
    /// Own item-level errors (the filter failed on an event).
    pub(super) item_errors: u64,
    /// The code of the first of them, which `caused_by` names.
    pub(super) first_item_code: Option<String>,
    /// The first of them as stderr says it (code, place, message).
    pub(super) first_item: Option<String>,
    /// The input being filtered, for [`Self::first_item`].
    pub(super) source: String,
    /// Set by `halt`/`halt_error`: the filter stops, the stream is still
    /// read to its end so the verdict stays true.
    pub(super) halted: Option<i32>,
    pub(super) buf: Vec<u8>,
    /// The filter is a plain path (`.title`, `.a.b`): see [`simple_path`].
    pub(super) path: Option<Vec<String>>,
    /// The key `type`, made once (looked up in every result).
    pub(super) type_key: Val,
    /// The only members the filter reads, when it reads its input only
    /// through them ([`jq::input_keys`]): the event is built of them.
    pub(super) keys: Option<Vec<String>>,
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
/// written as it is: a string without escapes, an integer (not `-0`), a
/// decimal, `true`, `false`, or `null` (also for a missing key or a step
/// into `null`: jq's `.a` on `null` is `null`). `None` sends the event to
/// the full evaluation: an object or array result (an object may be an
/// event of its own, § 8.1), an escaped string, or a step into a value
/// that is not an object (jq's error).
pub(super) fn path_value<'a>(
    line: &'a [u8],
    peek: &crate::peek::Peeker,
    keys: &[String],
) -> Option<&'a [u8]> {
    use crate::peek::{Kind as K, key_is, object_members, span};
    let mut members: Vec<crate::peek::Member> = Vec::new();
    let mut obj: &[u8] = line;
    let mut top = true;
    let mut found: Option<(K, &[u8])> = None;
    for (depth, key) in keys.iter().enumerate() {
        if depth > 0 {
            match found {
                Some((K::Object, raw)) => {
                    obj = raw;
                    top = false;
                }
                Some((K::Null, _)) | None => return Some(b"null"),
                _ => return None,
            }
        }
        // The last occurrence of a repeated key wins, as in jaq's value.
        let pick = |ms: &mut dyn Iterator<Item = &crate::peek::Member>, o: &'a [u8]| {
            ms.filter(|m| key_is(span(o, &m.key), m.key_escaped, key))
                .last()
                .map(|m| (m.kind, span(o, &m.value)))
        };
        found = if top {
            pick(&mut peek.members.iter(), obj)
        } else {
            members.clear();
            members.extend(object_members(obj));
            pick(&mut members.iter(), obj)
        };
    }
    match found {
        None | Some((K::Null, _)) => Some(b"null"),
        Some((K::True | K::False, raw)) => Some(raw),
        Some((K::String { escaped: false }, raw)) => Some(raw),
        Some((K::Number { .. }, raw)) if raw != b"-0" => Some(raw),
        _ => None,
    }
}

impl<'a, O: Emit> Framed<'a, O> {
    pub(super) fn new(
        args: &'a FilterArgs,
        judging: &'a Judging,
        filter: &'a Filter,
        vars: Vars<Val>,
        sinks: O,
    ) -> Self {
        Framed {
            args,
            judging,
            filter,
            vars,
            sinks,
            item_errors: 0,
            first_item_code: None,
            first_item: None,
            source: String::new(),
            halted: None,
            buf: Vec::with_capacity(4096),
            path: simple_path(&args.filter),
            type_key: Val::utf8_str(&b"type"[..]),
            keys: jq::input_keys(&args.filter),
        }
    }
}

/// What the inputs made of the run so far.
#[derive(Default)]
pub(super) struct Taken {
    pub(super) code: Code,
    pub(super) verdicts: crate::out::Verdicts,
    pub(super) own_cause: Option<Cause>,
}

/// Ends the report once every input is taken; returns the exit status.
pub(super) fn close_framed(f: &mut Framed<'_, Sinks>, t: Taken) -> Result<Code, Stop> {
    let args = f.args;
    let Taken {
        mut code,
        verdicts,
        mut own_cause,
    } = t;
    // § 13: upstream aoi:error events fail the run, unless
    // --continue-on-error; caused_by reproduces the most severe one.
    let upstream = verdicts
        .upstream_errors()
        .filter(|_| !args.continue_on_error);
    if let Some((upstream_code, _)) = &upstream {
        code = code.worst(*upstream_code);
    }
    if f.item_errors > 0 && !args.continue_on_error {
        code = code.worst(Code::FAILED);
        let first = f.first_item_code.as_deref().unwrap_or("FILTER_ERROR");
        own_cause.get_or_insert_with(|| Cause::own("validation", first));
    }
    crate::out::say_upstream_errors("filter", args.quiet, code, upstream.as_ref());
    let upstream_said = upstream.as_ref().is_some_and(|(c, _)| *c == code);
    // The upstream error is the cause only when it decides the status: an
    // input aoi could not read (66), a cut stream (74) or the filter's own
    // errors (1, over a retryable 75) outrank it.
    let cause = upstream
        .filter(|(c, _)| *c == code)
        .and_then(|(_, worst)| worst);
    let mut exit_code = code;
    if let Some(h) = f.halted.filter(|h| *h != 0) {
        // halt_error: the filter's own verdict; the report says failed.
        f.sinks.out.error(&ErrorEvent::new(
            "validation",
            "FILTER_HALTED",
            format!("the filter halted with exit code {h}"),
        ))?;
        own_cause = Some(Cause::own("validation", "FILTER_HALTED"));
        code = code.worst(Code::FAILED);
        // As a process status (jq's `& 0xff`), never 0 for a failed run.
        exit_code = match h.rem_euclid(256) {
            0 => Code::FAILED,
            c => Code::of(c),
        };
    }
    say_own_errors(f, exit_code, upstream_said);
    let properties = json!({
        "streams": verdicts.streams,
        "item_errors": f.item_errors,
        "exit_code": exit_code,
    });
    let closing = Closing {
        code,
        properties,
        cause: cause.or(own_cause),
        extra: (0, 0, 0),
    };
    close_report(&mut f.sinks, &verdicts, closing)?;
    Ok(exit_code)
}

/// Says an input's verdict (its first findings and one line) unless it
/// is ok, and takes it into `t`.
pub(super) fn take_verdict(
    f: &mut Framed<'_, Sinks>,
    t: &mut Taken,
    source: &str,
    v: Verdict,
    shown: &[Finding],
) {
    let name = f.judging.named().then_some(source);
    if !f.args.quiet && v.outcome != Outcome::Ok {
        let mut err = io::stderr().lock();
        for finding in shown {
            let _ = writeln!(err, "{}", finding_line(finding, name));
        }
        let _ = writeln!(err, "{}", verdict_line("filter", &v, name));
    }
    t.code = t.code.worst(Code::of(v.exit_code));
    f.sinks.add_consumed(&v);
    t.verdicts.add(v);
}

/// Says why the run failed when the filter's own failures decided it
/// (§ 13.1 counts them as a transformer's errors): every non-zero exit
/// says why in one line. A halt says nothing of aoi's: as in
/// jq, `halt_error`'s message is the why.
pub(super) fn say_own_errors<O: Emit>(f: &Framed<'_, O>, exit_code: Code, upstream_said: bool) {
    if f.item_errors == 0 || f.args.continue_on_error || exit_code != Code::FAILED {
        return;
    }
    if upstream_said || f.halted.is_some_and(|h| h != 0) {
        return;
    }
    let first = f.first_item.as_deref().unwrap_or("FILTER_ERROR");
    eprint_line(
        f.args.quiet,
        &format!(
            "aoi filter: exit 1: the filter failed on {} event(s), the first {}; \
             --continue-on-error to go on",
            f.item_errors,
            crate::out::sanitize(first)
        ),
    );
}

/// An input that could not be opened: said, 66, and an `aoi:error`.
pub(super) fn unreadable(
    f: &mut Framed<'_, Sinks>,
    t: &mut Taken,
    msg: &str,
    source: &str,
) -> Result<(), Stop> {
    eprint_line(f.args.quiet, &format!("aoi filter: {msg}"));
    t.code = t.code.worst(Code::NOINPUT);
    t.own_cause
        .get_or_insert_with(|| Cause::own("not_found", "INPUT_UNREADABLE"));
    f.sinks.out.error(&unreadable_error(msg, source))
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

/// Whether the top-level keys of the peeked `line` are all distinct, so
/// that its object has a member for each (what [`unchanged`] asks of the
/// whole object's length). An escaped key, or more keys than are cheap to
/// compare pairwise, is not decided here: `false`.
pub(super) fn distinct_keys(line: &[u8], peek: &crate::peek::Peeker) -> bool {
    use crate::peek::{bytes_eq, span};
    let ms = &peek.members;
    if ms.len() > 32 || ms.iter().any(|m| m.key_escaped) {
        return false;
    }
    ms.iter().enumerate().all(|(i, a)| {
        let a = span(line, &a.key);
        ms.iter()
            .skip(i + 1)
            .all(|b| !bytes_eq(a, span(line, &b.key)))
    })
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
    f.source = source.to_string();
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
            cell.borrow_mut().sinks.flush()
        },
    )?;
    // A stream stopped by SIGINT/SIGTERM is not judged to its end; what
    // was read of it still counts as consumed.
    if let Err(stop) = cancelled() {
        f.sinks.consumed(&judge.finish().0);
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
        if let Some(raw) = self
            .path
            .as_deref()
            .and_then(|keys| path_value(line, seen.peek, keys))
        {
            self.buf.clear();
            self.buf.extend_from_slice(b",\"value\":");
            self.buf.extend_from_slice(raw);
            return self.sinks.raw_event("value", &self.buf);
        }
        let built = match self.keys.as_deref() {
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
                    if seen.domain && distinct_keys(line, peek) && spliceable(peek) {
                        let ty = self.splice(line, peek);
                        self.sinks.raw_event(&ty, &self.buf)?;
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
                            self.halt(exn.get_halt().unwrap_or(Code::SOFTWARE.code()));
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
            return self.sinks.raw_event(&ty, &self.buf);
        }
        match self.encode_result(v) {
            Ok(ty) => self.sinks.raw_event(&ty, &self.buf),
            Err(e) => {
                let msg = format!("result is not JSON: {}", e.0);
                self.item_error("FILTER_RESULT_NOT_JSON", &msg, seen.line_no, item_index)
            }
        }
    }

    /// The event of `line` (judged a domain event with a string `type`) as
    /// a domain event of aoi's stream: aoi's envelope, then every other
    /// member byte for byte: the members go into `buf`, the type is
    /// returned.
    pub(super) fn splice<'l>(
        &mut self,
        line: &'l [u8],
        peek: &crate::peek::Peeker,
    ) -> std::borrow::Cow<'l, str> {
        use crate::peek::span;
        self.buf.clear();
        let mut ty = std::borrow::Cow::Borrowed("");
        for (i, m) in peek.members.iter().enumerate() {
            if Some(i) == peek.type_member {
                ty = crate::judge::fields::str_ref(line, m).unwrap_or_default();
                continue;
            }
            if Some(i) == peek.aoi_member {
                continue;
            }
            push_member(&mut self.buf, span(line, &m.key), span(line, &m.value));
        }
        ty
    }

    /// Encodes one result as a domain event of aoi's stream: its members
    /// go into `buf`, its type is returned.
    pub(super) fn encode_result<'v>(
        &mut self,
        v: &'v Val,
    ) -> Result<std::borrow::Cow<'v, str>, jq::NotJson> {
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
                std::borrow::Cow::Borrowed(ty)
            }
            _ => {
                self.buf.extend_from_slice(b",\"value\":");
                jq::write_json(&mut self.buf, v)?;
                std::borrow::Cow::Borrowed("value")
            }
        };
        Ok(ty)
    }

    /// The filter halted (`halt`, `halt_error`) with exit code `h`.
    pub(super) fn halt(&mut self, h: i32) {
        self.halted = Some(h);
        self.sinks.halted(h);
    }

    /// An item-level `aoi:error` of aoi's own (§ 9.1: scope item, with the
    /// input line and the event's index among the domain events).
    pub(super) fn item_error(
        &mut self,
        code: &str,
        message: &str,
        line_no: u64,
        item_index: Option<u64>,
    ) -> Result<(), Stop> {
        self.item_errors += 1;
        self.first_item_code.get_or_insert_with(|| code.to_string());
        let mut msg = one_line_of(message);
        if msg.chars().count() > MAX_MESSAGE {
            msg = msg.chars().take(MAX_MESSAGE).collect::<String>() + "…";
        }
        let said = match self.source.as_str() {
            "-" => format!("{code} at line {line_no}: {msg}"),
            source => format!("{code} at {source}:{line_no}: {msg}"),
        };
        self.first_item.get_or_insert_with(|| said.clone());
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
        self.sinks.item_error(code, &fields, &said)
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
