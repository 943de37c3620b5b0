//! `--raw`: plain jq over any JSON Lines input, no framing and no judge,
//! output as `jq -c` prints it (`-r` as `jq -r`): the engine, which
//! [`super::raw_files`] runs on the inputs, and where it writes.

use crate::spec::exit::Code;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::path::Path;
use std::rc::Rc;

use jaq_core::{Ctx, Vars};
use jaq_json::Val;
use jaq_std::input::RcIter;

use super::framed::{same_object, simple_path};
use super::print::JqPrint;
use super::sink::Rec;
use super::{BoxedInputs, error_text};
use crate::cli::FilterArgs;
use crate::jq::{self, Data, Filter, Kind};
use crate::lines::{Chunk, LineReader};
use crate::out::{Output, eprint_line, open_input};

/// Exit status of `--raw` when the filter failed on an input (jq's).
const RAW_FILTER_ERROR: Code = Code::of(5);

/// Where the value being filtered came from, for error messages.
#[derive(Clone, Default)]
struct Origin {
    source: String,
    line: u64,
    /// The value read from this line holds only the members the filter
    /// reads ([`partial_object`]); `text` is the line and `peek` its
    /// members, for the whole.
    partial: bool,
    text: Vec<u8>,
    peek: crate::peek::Peeker,
    /// The filter's one result on this line is `made`, written from the
    /// line's bytes ([`jq::Construction`], a plain path): the value given
    /// for the line is a stand-in, not run.
    written: Option<Made>,
    made: Vec<u8>,
}

/// What [`Origin::made`] holds.
#[derive(Clone, Copy)]
enum Made {
    /// A result as compact JSON; `truthy` unless `null` or `false`.
    Json { truthy: bool },
    /// A string result's text (`-r`), decoded.
    Text,
}

/// The values of `--raw` mode, read line by line from each input in turn:
/// one or more JSON values per line, blank lines skipped. A block of lines
/// is copied out of the reader and parsed one line at a time, so only the
/// values of one line are alive at once.
struct RawInputs<'a> {
    paths: std::vec::IntoIter<&'a Path>,
    reader: Option<LineReader<Box<dyn Read + 'a>>>,
    /// The name of the input being read, for messages.
    source: String,
    /// The current block of complete lines and how far it has been read.
    block: Vec<u8>,
    pos: usize,
    queue: VecDeque<Result<Val, String>>,
    line: u64,
    max_line: usize,
    at: std::rc::Rc<std::cell::RefCell<Origin>>,
    /// The worst input failure (66 unreadable, 65 invalid JSON, 74 read).
    failure: std::rc::Rc<std::cell::Cell<Code>>,
    /// `-R`: each line is a string, not JSON.
    text_lines: bool,
    /// The only members the filter reads, when it reads its input only
    /// through them ([`jq::input_keys`]).
    keys: Option<Vec<String>>,
    /// The filter builds an object of plain paths, written from the line
    /// (only where `keys` is given and members keep their order: no `-S`).
    built: Option<jq::Construction>,
    /// The filter is a plain path (`.title`; no keys: `.`), its value
    /// written from the line (one value per line, no `-S`).
    path: Option<Vec<String>>,
    transcriber: jq::Transcriber,
    /// `-r`: a string result is written as its text.
    raw_strings: bool,
}

impl Iterator for RawInputs<'_> {
    type Item = Result<Val, String>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.queue.pop_front() {
                return Some(item);
            }
            // The next line of the current block.
            if self.pos < self.block.len() {
                let rest = self.block.get(self.pos..).unwrap_or_default();
                let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                let text = rest.get(..end).unwrap_or_default();
                self.pos += end + 1;
                self.line += 1;
                // A byte order mark before an input's first value is
                // skipped, as jq skips it.
                let text = match self.line {
                    1 => text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text),
                    _ => text,
                };
                if self.text_lines {
                    let line = text.strip_suffix(b"\r").unwrap_or(text);
                    return Some(Ok(Val::utf8_str(line.to_vec())));
                }
                if text.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let source = self.source.as_str();
                {
                    let mut at = self.at.borrow_mut();
                    if at.source != source {
                        at.source = source.to_string();
                    }
                    at.line = self.line;
                    at.partial = false;
                    at.written = None;
                }
                if jq::too_deep(text) {
                    self.fail(Code::DATAERR);
                    let msg = format!(
                        "{source}:{}: nests deeper than {} levels",
                        self.line,
                        jq::MAX_DEPTH
                    );
                    return Some(Err(msg));
                }
                if let Some(keys) = &self.path {
                    let mut at = self.at.borrow_mut();
                    let (t, raw_strings) = (&mut self.transcriber, self.raw_strings);
                    if path_written(keys, &mut at, text, t, raw_strings) {
                        return Some(Ok(Val::Null));
                    }
                }
                if let Some(c) = &self.built {
                    let mut at = self.at.borrow_mut();
                    if peeked_object(&mut at.peek, text) && made(c, &mut at, text) {
                        return Some(Ok(Val::Null));
                    }
                }
                if self.keys.is_some() {
                    let mut at = self.at.borrow_mut();
                    let at = &mut *at;
                    if let Some(v) = partial(self.keys.as_deref(), &mut at.peek, text) {
                        at.partial = true;
                        at.text.clear();
                        at.text.extend_from_slice(text);
                        return Some(Ok(v));
                    }
                }
                for v in jaq_json::read::parse_many(text) {
                    match v {
                        Ok(v) => self.queue.push_back(Ok(v)),
                        Err(e) => {
                            self.fail(Code::DATAERR);
                            let msg = format!("{source}:{}: invalid JSON: {e}", self.line);
                            self.queue.push_back(Err(msg));
                            break;
                        }
                    }
                }
                continue;
            }
            let Some(reader) = self.reader.as_mut() else {
                let path = self.paths.next()?;
                // jq's reader opens each file itself, and says why it cannot.
                let src: Box<dyn Read> = if path == Path::new("-") {
                    crate::out::opening_stdin();
                    Box::new(io::stdin().lock())
                } else {
                    match open_input(path) {
                        Ok(f) => Box::new(f),
                        Err(msg) => {
                            self.fail(Code::NOINPUT);
                            return Some(Err(msg));
                        }
                    }
                };
                self.open(src, path);
                continue;
            };
            let source = self.source.as_str();
            match reader.next_chunk() {
                Ok(None) => self.reader = None,
                Ok(Some(Chunk::Lines(block))) => {
                    self.block.clear();
                    self.block.extend_from_slice(block);
                    self.pos = 0;
                }
                Ok(Some(Chunk::LongPart { end, .. })) => {
                    if end {
                        self.line += 1;
                        let (msg, code) = too_long(source, self.line, self.max_line);
                        self.fail(code);
                        return Some(Err(msg));
                    }
                }
                Err(e) => {
                    let (msg, code) = read_failed(source, &e);
                    self.reader = None;
                    self.fail(code);
                    return Some(Err(msg));
                }
            }
        }
    }
}

impl<'a> RawInputs<'a> {
    /// Reads `src`, the input at `path`, from its first line on.
    fn open(&mut self, src: Box<dyn Read + 'a>, path: &Path) {
        self.reading(path, 0);
        self.reader = Some(LineReader::new(src, self.max_line));
    }

    /// Messages name `path`, and the lines read next follow line `line`.
    fn reading(&mut self, path: &Path, line: u64) {
        self.source = path.display().to_string();
        // jq's input_filename: the file being read, null for stdin.
        let stdin = path == Path::new("-");
        jq::set_input_filename((!stdin).then_some(self.source.as_str()));
        self.line = line;
    }

    fn fail(&self, code: Code) {
        self.failure.set(self.failure.get().worst(code));
    }
}

/// What is said of line `line` of `source`, longer than `max_line`.
pub(super) fn too_long(source: &str, line: u64, max_line: usize) -> (String, Code) {
    let msg = format!("{source}:{line}: line longer than --max-line-bytes {max_line}");
    (msg, Code::DATAERR)
}

/// What is said when `source` cannot be read on.
pub(super) fn read_failed(source: &str, e: &io::Error) -> (String, Code) {
    (format!("{source}: read error: {e}"), Code::IOERR)
}

/// The line's object with only the members the filter reads, when the
/// filter reads only them and the line is one object jaq reads as the
/// peek does (no lone surrogate, which jaq refuses).
fn partial(keys: Option<&[String]>, peek: &mut crate::peek::Peeker, text: &[u8]) -> Option<Val> {
    let keys = keys?;
    if !peeked_object(peek, text) {
        return None;
    }
    partial_object(text, peek, keys)
}

/// Whether `text` is one object jaq reads as the peek does (no lone
/// surrogate, which jaq refuses), its members now in `peek`.
fn peeked_object(peek: &mut crate::peek::Peeker, text: &[u8]) -> bool {
    text.first() == Some(&b'{') && peek.peek(text).is_ok() && !peek.lone_surrogate
}

/// Writes the construction's object of the peeked line `text` into
/// `at.made`; false when the filter must run instead.
fn made(c: &jq::Construction, at: &mut Origin, text: &[u8]) -> bool {
    at.made.clear();
    at.written = c
        .write(&mut at.made, text, &at.peek)
        .map(|()| Made::Json { truthy: true });
    at.written.is_some()
}

/// The keys of a program that is a plain path ([`simple_path`]), none
/// for `.`.
fn plain_path(filter: &str) -> Option<Vec<String>> {
    match filter.trim() {
        "." => Some(Vec::new()),
        f => simple_path(f),
    }
}

/// Writes the value of the plain path `keys` (none: `.`) on the line
/// `text` into `at.made`, as the program's one result; false when the
/// program must run instead: the line is not one JSON text as the peek
/// reads it, holds a lone surrogate (which jaq refuses), the path steps
/// into a value without members (jq's error), or an object written has a
/// key twice ([`jq::Transcriber`]).
fn path_written(
    keys: &[String],
    at: &mut Origin,
    text: &[u8],
    t: &mut jq::Transcriber,
    raw_strings: bool,
) -> bool {
    use crate::peek::Kind;
    let peek = &mut at.peek;
    if peek.peek(text).is_err() || peek.lone_surrogate {
        return false;
    }
    at.made.clear();
    if keys.is_empty() && t.as_written(text, peek) {
        at.made.extend_from_slice(text);
        at.written = Some(Made::Json { truthy: true });
        return true;
    }
    let found = match (keys.is_empty(), peek.top) {
        (true, Some(Kind::Object)) => {
            at.written = t
                .object(text, peek, &mut at.made)
                .map(|()| Made::Json { truthy: true });
            return at.written.is_some();
        }
        (true, Some(kind)) => Some(jq::Found::Value(kind, text.trim_ascii())),
        (false, Some(Kind::Object)) => jq::member_at(text, peek, keys),
        _ => None,
    };
    at.written = found.and_then(|found| write_found(found, &mut at.made, t, raw_strings));
    at.written.is_some()
}

/// Appends `found` to `made` as the program's result is printed: with
/// `-r` a string's text, else compact JSON.
fn write_found(
    found: jq::Found<'_>,
    made: &mut Vec<u8>,
    t: &mut jq::Transcriber,
    raw_strings: bool,
) -> Option<Made> {
    use crate::peek::Kind;
    match found {
        jq::Found::Null => {
            made.extend_from_slice(b"null");
            Some(Made::Json { truthy: false })
        }
        jq::Found::Value(Kind::String { .. }, raw) if raw_strings => {
            let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
            crate::peek::unescape_into(body, made);
            Some(Made::Text)
        }
        jq::Found::Value(kind, raw) => {
            t.transcribe(raw, made)?;
            let truthy = !matches!(kind, Kind::Null | Kind::False);
            Some(Made::Json { truthy })
        }
    }
}

/// The object of the peeked `line` with only the members named in `keys`,
/// each value read by jaq's own parser (so each is the value the whole
/// line's parse holds; a repeated key's last value, as there).
fn partial_object(line: &[u8], peek: &crate::peek::Peeker, keys: &[String]) -> Option<Val> {
    use crate::peek::{key_is, span, unescape};
    let mut map = jaq_json::Map::with_capacity_and_hasher(keys.len(), Default::default());
    for m in &peek.members {
        let raw = span(line, &m.key);
        if !keys.iter().any(|k| key_is(raw, m.key_escaped, k)) {
            continue;
        }
        let key = unescape(raw).into_owned().into_bytes();
        let value = jaq_json::read::parse_single(span(line, &m.value)).ok()?;
        map.insert(Val::utf8_str(key), value);
    }
    Some(Val::obj(map))
}

/// `--raw`'s writes, on any [`Output`] of [`Rec`]s (stdout and stderr,
/// [`Live`], or a worker's record of them), its errors I/O errors.
pub(super) trait RawOut {
    /// One result, its newline included.
    fn line(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// A line of aoi's own on stderr (an input or filter error).
    fn say(&mut self, msg: &str) -> io::Result<()>;
}

impl<O: Output<Rec> + ?Sized> RawOut for O
where
    O::Error: Into<io::Error>,
{
    fn line(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.text(bytes).map_err(Into::into)
    }
    fn say(&mut self, msg: &str) -> io::Result<()> {
        self.put(Rec::Say(msg.to_string())).map_err(Into::into)
    }
}

/// stdout (buffered as every command's) and stderr.
pub(super) struct Live {
    pub(super) out: Box<dyn Write>,
    /// `-q`: aoi's own lines are not said (the filter's `debug` and
    /// `stderr` still are: they are the program's output).
    pub(super) quiet: bool,
}

/// What `--raw` writes, or a worker wrote, as one thread writes it.
impl Output<Rec> for Live {
    type Error = io::Error;
    fn text(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }
    /// Never flushed by block: stdout's buffer goes out when it fills.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn put(&mut self, rec: Rec) -> io::Result<()> {
        self.put_with(rec, &[])
    }
    fn put_with(&mut self, rec: Rec, bytes: &[u8]) -> io::Result<()> {
        match rec {
            Rec::Say(msg) => eprint_line(self.quiet, &msg),
            Rec::Stderr => {
                let _ = io::stderr().lock().write_all(bytes);
            }
            _ => {}
        }
        Ok(())
    }
}

/// What filtering some inputs came to.
#[derive(Clone, Copy, Default)]
pub(super) struct Ran {
    /// The exit code `halt`/`halt_error` stopped the filter with.
    pub(super) halted: Option<i32>,
    /// The worst of the filter's failures (5) and the inputs' (66
    /// unreadable, 65 invalid JSON, 74 read).
    pub(super) code: Code,
    /// Whether the last result was true (neither `false` nor `null`), for
    /// `-e`; `None` before any.
    pub(super) last: Option<bool>,
}

impl Ran {
    /// This and what came after it.
    pub(super) fn then(self, next: Ran) -> Ran {
        Ran {
            halted: self.halted.or(next.halted),
            code: self.code.worst(next.code),
            last: next.last.or(self.last),
        }
    }
}

/// The exit status of `--raw` once its inputs are filtered, or it halted
/// or could not write, with stdout flushed.
pub(super) fn finish(result: io::Result<Ran>, live: &mut Live, exit_status: bool) -> Code {
    let ran = match result.and_then(|ran| live.out.flush().map(|()| ran)) {
        Ok(ran) => ran,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Code::PIPE,
        Err(e) => {
            eprint_line(false, &format!("aoi filter: cannot write stdout: {e}"));
            return Code::IOERR;
        }
    };
    match ran.halted {
        Some(h) => Code::of(h.rem_euclid(256)),
        // jq -e: a failure's status first, then the last result's.
        None if exit_status && ran.code == Code::OK => last_result_code(ran.last),
        None => ran.code,
    }
}

/// jq's `-e` status: 0 when the last result was true, 1 when it was
/// `false` or `null`, 4 when there was none.
pub(super) fn last_result_code(last: Option<bool>) -> Code {
    match last {
        Some(true) => Code::OK,
        Some(false) => Code::FAILED,
        None => Code::of(4),
    }
}

/// Where `--raw`'s values come from.
pub(super) enum Start<'a> {
    /// The inputs at these paths, each opened in its turn.
    Paths(Vec<&'a Path>),
    /// The input at the path, opened.
    Opened(Box<dyn Read + 'a>, &'a Path),
    /// Whole lines of the input at `path`, after its line `line`.
    Lines {
        text: &'a [u8],
        path: &'a Path,
        line: u64,
    },
}

/// Filters the inputs at `paths` in turn into `out` (`-n`: once, on
/// `null`; `-s`: once, on the array of all values).
pub(super) fn filter_paths<O: RawOut>(
    args: &FilterArgs,
    filter: &Filter,
    vars: Vars<Val>,
    paths: Vec<&Path>,
    out: &mut O,
) -> io::Result<Ran> {
    filter_raw(args, filter, vars, Start::Paths(paths), out)
}

/// Filters the values from `start` into `out` (`-n`: once, on `null`;
/// `-s`: once, on the array of all values).
pub(super) fn filter_raw<O: RawOut>(
    args: &FilterArgs,
    filter: &Filter,
    vars: Vars<Val>,
    start: Start<'_>,
    out: &mut O,
) -> io::Result<Ran> {
    let at = Rc::new(RefCell::new(Origin::default()));
    let failure = Rc::new(Cell::new(Code::OK));
    // One value per line, each filtered on its own (not -n, -s, -R).
    let one_by_one = !args.null_input && !args.slurp && !args.raw_input;
    let mut raw_inputs = RawInputs {
        paths: Vec::new().into_iter(),
        reader: None,
        source: String::new(),
        block: Vec::new(),
        pos: 0,
        queue: VecDeque::new(),
        line: 0,
        max_line: args.max_line_bytes,
        at: at.clone(),
        failure: failure.clone(),
        text_lines: args.raw_input,
        keys: one_by_one.then(|| jq::input_keys(&args.filter)).flatten(),
        built: (one_by_one && !args.sort_keys)
            .then(|| jq::construction(&args.filter))
            .flatten(),
        path: (one_by_one && !args.sort_keys)
            .then(|| plain_path(&args.filter))
            .flatten(),
        transcriber: jq::Transcriber::default(),
        raw_strings: JqPrint::of(args).raw_strings,
    };
    match start {
        Start::Paths(paths) => raw_inputs.paths = paths.into_iter(),
        Start::Opened(src, path) => raw_inputs.open(src, path),
        Start::Lines { text, path, line } => {
            raw_inputs.reading(path, line);
            raw_inputs.block.extend_from_slice(text);
        }
    }
    let raw_inputs: BoxedInputs<'_> = Box::new(raw_inputs);
    let inputs = RcIter::new(raw_inputs);
    let data = Data {
        lut: &filter.lut,
        inputs: &inputs,
    };
    let mut f = OneByOne {
        data: &data,
        filter,
        vars,
        print: JqPrint::of(args),
        at: &at,
        buf: Vec::with_capacity(4096),
        whole: Vec::with_capacity(4096),
        transcriber: jq::Transcriber::default(),
        code: Code::OK,
        last: None,
    };
    let halted = if args.null_input {
        f.value(Val::Null, out)?
    } else if args.slurp && args.raw_input {
        // jq -Rs: the whole input, one string.
        let mut text = Vec::new();
        for line in inputs.into_iter().flatten() {
            if let Val::TStr(s) = line {
                text.extend_from_slice(&s);
                text.push(b'\n');
            }
        }
        f.value(Val::utf8_str(text), out)?
    } else if args.slurp {
        let mut all = Vec::new();
        for item in &inputs {
            match item {
                Ok(v) => all.push(v),
                Err(msg) => out.say(&format!("aoi filter: {msg}"))?,
            }
        }
        f.value(Val::Arr(all.into()), out)?
    } else {
        f.each(&inputs, out)?
    };
    Ok(Ran {
        halted,
        code: f.code.worst(failure.get()),
        last: f.last,
    })
}

/// The filter run on values one by one.
struct OneByOne<'a> {
    data: &'a Data<'a>,
    filter: &'a Filter,
    vars: Vars<Val>,
    print: JqPrint,
    at: &'a RefCell<Origin>,
    buf: Vec<u8>,
    /// The whole object of a line read in part, as compact JSON.
    whole: Vec<u8>,
    transcriber: jq::Transcriber,
    /// 5 once the filter failed on a value.
    code: Code,
    /// Whether the last result was true (for `-e`).
    last: Option<bool>,
}

impl OneByOne<'_> {
    /// Runs the filter on each of the `inputs` until one halts it.
    fn each<O: RawOut>(
        &mut self,
        inputs: &RcIter<BoxedInputs<'_>>,
        out: &mut O,
    ) -> io::Result<Option<i32>> {
        for item in inputs {
            match item {
                Ok(v) => {
                    if let Some(h) = self.value(v, out)? {
                        return Ok(Some(h));
                    }
                }
                Err(msg) => out.say(&format!("aoi filter: {msg}"))?,
            }
        }
        Ok(None)
    }

    /// Runs the filter on `input` and writes its results; the exit code
    /// when it halted. An error ends the value's results, as in jq.
    fn value<O: RawOut>(&mut self, input: Val, out: &mut O) -> io::Result<Option<i32>> {
        if self.at.borrow().written.is_some() {
            return self.written(out);
        }
        let (data, filter) = (self.data, self.filter);
        let ctx = Ctx::<Kind>::new(data, self.vars.clone());
        let same = self.at.borrow().partial.then(|| input.clone());
        for r in filter.id.run((ctx, input)) {
            let v = match r {
                Ok(v) if same.as_ref().is_some_and(|s| same_object(&v, s)) => {
                    // Of the line's members only some: the result is the
                    // whole value, written from the line, or else built
                    // from the peek's spans (the value jaq's parse of the
                    // line gives, see the function).
                    if self.whole_written(out)? {
                        continue;
                    }
                    let at = self.at.borrow();
                    match jq::object_from_peek(&at.text, &at.peek) {
                        Ok(whole) => whole,
                        Err(e) => {
                            drop(at);
                            return self.failed(&e, out);
                        }
                    }
                }
                Ok(v) => v,
                Err(exn) => match exn.get_err() {
                    Ok(err) => return self.failed(&error_text(err), out),
                    Err(exn) => return Ok(Some(exn.get_halt().unwrap_or(Code::SOFTWARE.code()))),
                },
            };
            self.buf.clear();
            self.last = Some(!matches!(v, Val::Null | Val::Bool(false)));
            if let Err(e) = self.print.result(&mut self.buf, &v) {
                return self.failed(&e.0, out);
            }
            out.line(&self.buf)?;
        }
        Ok(None)
    }

    /// Prints the result written from the line ([`Origin::made`]).
    fn written<O: RawOut>(&mut self, out: &mut O) -> io::Result<Option<i32>> {
        self.buf.clear();
        let at = self.at.borrow();
        let printed = match at.written {
            Some(Made::Json { truthy }) => {
                self.last = Some(truthy);
                self.print.compact(&mut self.buf, &at.made);
                Ok(())
            }
            Some(Made::Text) => {
                self.last = Some(true);
                self.print.text(&mut self.buf, &at.made)
            }
            None => return Ok(None),
        };
        drop(at);
        if let Err(e) = printed {
            return self.failed(&e.0, out);
        }
        out.line(&self.buf)?;
        Ok(None)
    }

    /// Prints the whole object of the line whose members the filter read
    /// only in part ([`Origin::partial`]), written from the line; false
    /// when it cannot be (`-S`, a key given twice), nothing printed.
    fn whole_written<O: RawOut>(&mut self, out: &mut O) -> io::Result<bool> {
        if self.print.sort_keys {
            return Ok(false);
        }
        let at = self.at.borrow();
        let text = if self.transcriber.as_written(&at.text, &at.peek) {
            &at.text
        } else {
            self.whole.clear();
            let (line, peek) = (&at.text, &at.peek);
            if self
                .transcriber
                .object(line, peek, &mut self.whole)
                .is_none()
            {
                return Ok(false);
            }
            &self.whole
        };
        self.buf.clear();
        self.last = Some(true);
        self.print.compact(&mut self.buf, text);
        drop(at);
        out.line(&self.buf)?;
        Ok(true)
    }

    /// The filter failed on the value being read: said with where it came
    /// from, and the exit will be 5.
    fn failed<O: RawOut>(&mut self, msg: &str, out: &mut O) -> io::Result<Option<i32>> {
        self.code = self.code.worst(RAW_FILTER_ERROR);
        let at = self.at.borrow();
        let place = match at.source.is_empty() {
            true => String::new(),
            false => format!(" at {}:{}", at.source, at.line),
        };
        out.say(&format!("aoi filter: error{place}: {msg}"))?;
        Ok(None)
    }
}
