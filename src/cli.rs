//! The command-line definitions (clap derive). Man pages and completions are
//! generated from these, and so is the list of commands in capabilities.

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

pub mod commands;
pub mod examples;
pub mod help;

/// Subcommands that judge a stream and exit with [`EXIT_TABLE`]'s codes.
pub const JUDGING: &[&str] = &[
    "check",
    "strip",
    "summary",
    "errors",
    "filter",
    "merge-report",
];

/// The command line as aoi parses it and documents it: the derive's
/// definitions with each subcommand's examples (and, for those that judge
/// a stream, the exit table) after its help, short and long.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        let text = examples::help_text(examples::of(&name));
        let long = if JUDGING.contains(&name.as_str()) {
            format!("{text}\n\n{}", help::exit_table(&name))
        } else {
            text.clone()
        };
        cmd = cmd.mut_subcommand(&name, |sub| {
            help::per_command(&name, sub.after_help(text).after_long_help(long))
        });
    }
    cmd
}

/// The exit-status table shared by every command that judges a stream.
pub const EXIT_TABLE: &str = "\
Exit status:
    0    complete, conforming, ok:true (also partial:true, unless --fail-on-partial;
         with --unbounded also a clean EOF without summary)
    1    conforming, upstream ok:false, not retryable
   75    conforming, upstream failed and retry may help (caused_by.retryable,
         else the most severe aoi:error's retryable)
   77    upstream reason \"denied\"
  124    upstream reason \"timeout\"
  130    upstream reason \"cancelled\"; or aoi itself stopped by SIGINT
  143    aoi stopped by SIGTERM (its report, if any, ends with reason \"cancelled\")
   65    the stream breaks the contract (any violation)
   74    incomplete: EOF without aoi:summary, unterminated final line, or an I/O error
   64    usage error
   66    an input file cannot be opened
   70    internal error
   73    an output file cannot be created (check --report, merge-report --format F=PATH)
  141    stdout closed by the reader (quiet exit)
With several streams or inputs the most severe wins: aoi's own failures 70, 64, 66, 73,
then 65, 74, 77, 1, 124, 130, 75, 0; 141 and 143 end aoi at once.";

#[derive(Parser, Debug)]
#[command(
    name = "aoi",
    version,
    about = "Check, filter and report AOI-CLI streams (JSON Lines with an aoi envelope)",
    long_about = "aoi is to AOI-CLI streams what jq is to JSON. A tool in machine mode writes \
UTF-8 JSON Lines: aoi:meta first, domain events, framework events and a terminal aoi:summary, \
each in an `aoi` envelope with seq and run (AOI-CLI v1.0-alpha). aoi sits in the pipeline and \
says whether the stream was complete, conforming and successful.",
    after_help = "Examples:\n  tool --output jsonl | aoi check | next-step\n  aoi check examples/search.jsonl\n  tool --output jsonl | aoi strip | jq -c .\n  aoi errors --log --warnings examples/messy.log\n  tool --output jsonl | aoi filter 'select(.rank <= 3)'\n  aoi merge-report --format junit runs/*.jsonl > junit.xml\n  aoi summary --field retry_after_ms run.jsonl\n  aoi rules",
    propagate_version = true
)]
pub struct Cli {
    /// Before the command, for every command that has -q (as `aoi -q check`): print nothing on
    /// stderr; the exit status still tells.
    #[arg(short, long)]
    pub quiet: bool,
    /// Before the command, for every command that colours a table (errors, merge-report, lint):
    /// auto (a terminal, NO_COLOR unset), always or never. The command's own --color wins.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The command with the options given before it applied: `-q` to a
    /// command that has it, `--color` to one whose own was left at auto.
    pub fn resolved(mut self) -> Command {
        let (q, c) = (self.quiet, self.color);
        let color = |own: &mut ColorChoice| {
            if *own == ColorChoice::Auto {
                *own = c;
            }
        };
        match &mut self.command {
            Command::Check(a) => a.quiet |= q,
            Command::Strip(a) => a.quiet |= q,
            Command::Summary(a) => a.quiet |= q,
            Command::Errors(a) => {
                a.quiet |= q;
                color(&mut a.color);
            }
            Command::Filter(a) => a.quiet |= q,
            Command::MergeReport(a) => {
                a.quiet |= q;
                color(&mut a.color);
            }
            Command::Lint(a) => {
                a.quiet |= q;
                color(&mut a.color);
            }
            Command::Capabilities(_)
            | Command::InputSchema(_)
            | Command::Schema(_)
            | Command::Rules(_) => {}
        }
        self.command
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Relay a stream unchanged and judge it: complete, conforming, successful.
    #[command(
        long_about = "Relay a stream byte for byte (it is `cat` with a verdict) and judge it against \
AOI-CLI v1.0-alpha: every line one JSON object with a string type (§ 2), aoi:meta first and \
aoi:summary last (§ 13.1), seq contiguous and run constant (§ 8.1), counters reconciled (§ 8.3), \
the error taxonomy (§ 9). The verdict goes to stderr and to the exit status. With stdout on a \
terminal only the verdict is printed. `--output jsonl` makes stdout a report (itself an AOI \
stream) instead of the relay; `--report FILE` writes that report while relaying. Several FILEs \
are judged as separate streams (and relayed one after the other)."
    )]
    Check(CheckArgs),
    /// The data plane without the framework (or, with --control, the control plane alone).
    #[command(
        long_about = "Drop every framework (aoi:*) event and remove the `aoi` member from each domain \
event, by splicing bytes: every other field, its order, number spellings, escapes and whitespace \
come out exactly as they came in (`--keep-envelope` keeps the member). `--control` does the \
inverse: only the aoi:* events, exactly as they came. Lines that are no event at all (blank, \
prose, invalid JSON, an unterminated last line) belong to neither \
plane: they are dropped, and the verdict reports them. The stream is judged as `aoi check` judges \
it; the verdict is the exit status (the same table) and, on failure, a few lines on stderr. A CI \
log with prefixes, prose and interleaved runs is read with `--log`: each event after its prefix \
goes to its plane, each run is judged, and the lines skipped are counted on stderr."
    )]
    Strip(StripArgs),
    /// The outcome of a run: one line, a JSON object, or one field raw; exits with it.
    #[command(
        long_about = "Read the whole stream through the judge (seq and event_count reconciliation \
catch a middle elision that a look at the last line would miss) and print its outcome: on a \
terminal one readable line (tool, run, outcome, counts, elapsed, and for failures the cause with \
its retry advice); `--output json` one JSON object per stream (the upstream summary as it was, \
plus what aoi established: outcome, exit_code, lines, seq_reconciled, violation_count (the \
findings that fail the stream: contract violations and incompleteness), retry_after_ms, \
caused_by); `--output jsonl` a conforming AOI stream (aoi:meta, one `outcome` \
event per stream, aoi:summary); `--field NAME` one field of that object, raw, for scripts. The \
exit status is the outcome's, from the same table as aoi check."
    )]
    Summary(SummaryArgs),
    /// Errors and warnings out of AOI streams and real logs.
    #[command(
        long_about = "Extract aoi:error events (and with --warnings aoi:warning) from AOI streams \
and, with --log, from real logs. Each input is one stream judged exactly as `aoi check` judges \
it (a prose line is the violation it is there: one verdict from every command). With --log, \
lines that are not AOI events (prose, stack traces, other JSON) are skipped and counted, a JSON \
object after a text prefix on the same line is found (`2026-07-30T12:00:00Z stdout F {…}`, \
`[worker-3] {…}`), CR and colour are trimmed, a Docker json-file line \
(`{\"log\":\"{…}\\n\",…}`) is unwrapped, and what was passed over is stated on stderr and in \
`properties`. Several runs interleaved in one log are told apart by aoi.run: each run is judged \
as its own stream, exactly as `aoi check` judges one, and the exit status is the worst of them \
(same table). On a terminal the errors are \
an aligned table (upstream text sanitised); otherwise the events are written as they came, one \
JSON object per line (`--output raw`), or as a conforming AOI stream (`--output jsonl`: aoi:meta, \
the events with `origin` set to the tool that raised them, aoi:summary accounting for the input)."
    )]
    Errors(ErrorsArgs),
    /// Run a jq filter over the domain events; the framework stays right around it.
    #[command(
        long_about = "Apply a jq FILTER (the jaq dialect: jaq-core, jaq-std, jaq-json) to each \
domain event, the event as it came, envelope included (`select(.aoi.seq > 10)` works), and emit \
each result as a domain event of aoi's own conforming stream (§ 13, § 13.1): an object with a \
string type is emitted as it is, with aoi's envelope in place of its `aoi` member; any other \
result is wrapped as {\"type\":\"value\",\"value\":R}. aoi:meta first, upstream aoi:error and \
aoi:warning forwarded with `origin`, upstream aoi:meta/aoi:summary never forwarded, and an \
aoi:summary with input_count, count, warning_count, error_count, upstream and, when the upstream \
failed, caused_by. A runtime error on one event is an item-level aoi:error (scope item, \
line_number, item_index) and the run goes on, ending ok:false unless --continue-on-error; so do \
upstream aoi:error events. A filter that does not compile is exit 64 with the position. \
jq's flags `-r`, `-j`, `-c`, `-n`, `-s` print the results as jq prints them (no framing; `-n`: \
`input`/`inputs` read the domain events; `-s`: one array of them) and change nothing else: \
the stream is judged as `aoi check` judges it, and the exit status and stderr are those of \
the framed mode. Only `--raw` stops judging: plain jq over any JSON Lines input, for input \
that is not an AOI stream (no verdict: a stream that failed or lost its end exits 0).\n\n\
For jq users: jq's options work as in jq 1.7. Output: -r, -j, -a, -c, --tab, --indent N, -S, \
-C/-M (colour on a terminal only unless -C; NO_COLOR honoured), --seq, --raw-output0, -e (exit \
1 when the last result was false or null, 4 when there was none; without --raw the stream's \
verdict is kept and the more severe exit wins). Program and variables: -f FILE, -L DIR, --arg, \
--argjson, --args, --jsonargs, --rawfile, --slurpfile, $ENV, $ARGS, $__loc__, input_filename. \
Input: -n, -s, and -R (with --raw). Every output flag prints without the framing; only --raw \
stops judging. The language is jaq's with jq's semantics where a jq user would be surprised \
(updates create missing paths, del of several paths, IN/INDEX/JOIN, tostream, limit, ...); \
docs/filter.md lists what still differs."
    )]
    Filter(FilterArgs),
    /// Many runs, one verdict: a report per stream, totals, and the worst outcome.
    #[command(
        name = "merge-report",
        long_about = "Read any number of AOI streams, logs (--log) and earlier merge-report \
outputs, judge each stream exactly as `aoi check` does, and report them together. Each input is \
one stream, judged as `aoi check` judges it; with --log an input is read as a log, split into \
streams by aoi.run (one log that interleaves concurrent runs yields one stream per run; events \
without an envelope are the file's unnamed stream), and every format states the lines skipped. \
The report is one `report` event per stream and an aoi:summary \
for the whole (--format jsonl, itself a conforming AOI stream), a table, Markdown for a CI job \
summary, JUnit XML, TAP (version 13, which prove and TAP 14 readers read) or CTRF JSON; several at once with --format FORMAT=PATH. Everything is recomputed from the events, never taken from a \
producer's totals unreconciled. A merge-report output given to merge-report again is carried, \
not re-judged: merging is associative, so reports can be merged shard by shard. The exit status \
is the most severe stream's (the shared table); no stream at all is exit 74."
    )]
    MergeReport(MergeArgs),
    /// What aoi can do, as one JSON object (§ 17): commands, outputs, schemas, exit codes.
    #[command(
        long_about = "Print aoi's capability manifest (AOI-CLI § 17) as one JSON object: tool, \
tool_version, aoi_versions, outputs, schemas, one entry per command (its role, whether it is \
read-only and bounded, its input modes and how it treats malformed input lines, § 12.2, the \
event types its machine output holds) and the exit-status table. Credential-free, network-free, \
no input read (§ 3)."
    )]
    Capabilities(CapabilitiesArgs),
    /// The input schema of a command that reads JSON Lines (§ 12).
    #[command(
        name = "input-schema",
        long_about = "Print what a command that reads JSON Lines accepts (§ 12.1): JSON Schema \
2020-12 for one input line (an AOI-CLI event: a string `type`, an optional `aoi` envelope), and \
under x-aoi-input the input modes and what a malformed line does (§ 12.2). The judge's rules \
(`aoi rules`) are the strict part of the contract."
    )]
    InputSchema(InputSchemaArgs),
    /// JSON Schema 2020-12 for every event aoi emits (§ 10).
    #[command(
        long_about = "Print the JSON Schema (2020-12) of aoi's own streams, aoi.toolkit.events \
1.0.0: every event aoi writes in machine mode, discriminated on `type` with a $defs entry per \
event (§ 10.4), permissive for fields it does not name (§ 10.3), with an https $id that \
identifies it and is never fetched (§ 10.2, § 5). Credential-free, network-free, no input (§ 3)."
    )]
    Schema(SchemaArgs),
    /// Check a tool against the conformance checks of § 18, per factor and per command.
    #[command(
        long_about = "Run a tool the way an agent would and check it against AOI-CLI's conformance \
checks (§ 18), reported per factor and per command, never as a level. TOOL ARGS is one \
machine-mode invocation (`--output jsonl` is added unless --machine-flag says otherwise); aoi \
also probes the tool's discovery (`TOOL schema --output json`, `TOOL capabilities --output json` \
in an environment reduced to PATH), a malformed usage, a secret-looking argument, an early pipe \
close, SIGINT and SIGTERM mid-run, `--schema-version`, `--limit`, malformed and known upstream \
input for commands that read JSON Lines, and the confirmation and dry run of destructive \
commands. A command that changes state (destructive, requires_confirm or read_only:false in \
its capabilities, or a name such as delete, create, update, send) is run once, as given, \
unless --allow-side-effects: every probe that would run it again is not tested, and says so. \
Every run of the tool is listed in the evidence and counted. A check passes only on what it \
saw; what a black box cannot see (idempotent replay, stable ids) is not tested, with why.\n\n\
Capability keys read (per command in `commands`): § 17's read_only, destructive, \
requires_confirm, supports_dry_run, bounded, supports_cursor; and aoi's own, where § 17 has \
none: supports_limit (a --limit without a cursor), input_jsonl or input_modes (reads JSON \
Lines on stdin, § 12.1), malformed_mode (fail-fast, per-line tolerant or configurable, \
§ 12.2); schemas[].versions for --schema-version. A key the manifest does not give leaves its \
check not tested, never not applicable on a guess.\n\n\
Exit 0 when every check that ran passed, 1 when one failed, 64 on usage, 66 when the tool \
is not found."
    )]
    Lint(LintArgs),
    /// List the rule catalog: ids, severity, spec section, what each requires.
    Rules(RulesArgs),
}

/// Output format of a command's stdout.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An AOI stream (JSON Lines).
    Jsonl,
}

/// Options every stream-judging command shares, with the same meaning.
#[derive(Args, Debug, Clone, Default)]
pub struct JudgeArgs {
    /// The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end.
    #[arg(long)]
    pub unbounded: bool,
    /// Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit
    /// 1, or 75 when the cause (an item error) says retry may help (§ 9.3).
    #[arg(long)]
    pub fail_on_partial: bool,
    /// End the stream with the timeout outcome (exit 124) when the input is silent
    /// this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of
    /// interleaved runs, the runs still open time out. Off by default.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub idle_timeout: Option<std::time::Duration>,
    /// Threads for reading an input: one reads and validates lines (for errors and
    /// merge-report: finds each line's event), one judges them, with the same results as one
    /// thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8
    /// MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB,
    /// nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the
    /// start on any input. Given several regular files, check, errors, summary, strip, filter
    /// and merge-report judge N files at once instead (0, or more than the CPUs: one per CPU),
    /// each on one thread (a file over 1 MiB whose output grows with it, as check's relay, is
    /// read in its turn; filter --raw reads in turn when the program uses input/inputs, or with
    /// -n or -s); the output is one thread's, byte for byte.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Validate every event, domain and framework, against this JSON Schema (the tool's own,
    /// `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an
    /// event that fails is a violation (65), one finding each with its JSON pointer, keyword and
    /// what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a
    /// $ref to another document is not fetched (64) unless the file holds it under its $id.
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
}

/// Input names read from a list, for the commands that take several files.
#[derive(Args, Debug, Clone, Default)]
pub struct FilesFrom {
    /// Read more input names from LIST, one per line (`-`: stdin), after the FILEs:
    /// for more run files than a command line holds (`find runs -name '*.jsonl' |
    /// aoi merge-report --files-from -`). An empty or unreadable list is 66.
    #[arg(long, value_name = "LIST")]
    pub files_from: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: FilesFrom,
    /// Print nothing on stderr; the exit status still tells.
    #[arg(short, long)]
    pub quiet: bool,
    /// Write a report (an AOI stream of violation, advisory and stream events) to stdout instead of relaying.
    #[arg(long, alias = "format", value_name = "FORMAT")]
    pub output: Option<Format>,
    /// Also write the report to FILE while relaying.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Do not relay the input to stdout (verdict only).
    #[arg(long)]
    pub no_relay: bool,
    /// Findings shown on stderr per stream.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub show: usize,
    /// Findings of one rule reported per stream (the rest are counted).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_per_rule: u64,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

#[derive(Args, Debug, Clone)]
pub struct StripArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: FilesFrom,
    /// Keep the `aoi` member on domain events.
    #[arg(long, conflicts_with = "control")]
    pub keep_envelope: bool,
    /// Keep only the control plane: every aoi:* event, exactly as it came.
    #[arg(long)]
    pub control: bool,
    /// Exit 0 whatever the upstream verdict (usage and I/O errors still fail).
    #[arg(long)]
    pub no_fail: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print the verdict line on stderr on success too.
    #[arg(short, long)]
    pub verbose: bool,
    #[command(flatten)]
    pub logs: LogArgs,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

/// How inputs are read: each as one stream judged as `aoi check` judges
/// it (the default), or as logs (`--log`, asked for).
#[derive(Args, Debug, Clone)]
pub struct LogArgs {
    /// Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a
    /// CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other
    /// lines are skipped, and both are counted and stated in the output; runs interleaved in
    /// one log are told apart by aoi.run and each is judged as `aoi check` judges a stream.
    /// Without it each input is one stream, judged exactly as `aoi check` judges it: a line
    /// that is no event is a violation (65).
    #[arg(long)]
    pub log: bool,
    /// Runs open at once per input, a guard against a log of runs that never end (a run ends
    /// at its aoi:summary, and every run is judged however many there are); lines of runs
    /// past it are still read, but those runs are not judged, which is reported (exit 74).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_runs: usize,
    /// Findings shown on stderr in all, as check's --show: the failed runs' findings and
    /// verdict lines until N findings are shown (a run without findings counts one), then one
    /// line with how many runs failed and where every run is listed.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub show: usize,
}

/// Output formats of `aoi summary`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryFormat {
    /// One JSON object per stream.
    Json,
    /// A conforming AOI stream.
    Jsonl,
}

#[derive(Args, Debug, Clone)]
pub struct SummaryArgs {
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: FilesFrom,
    /// Print nothing on stderr; stdout (the line, the object, the field) is the same.
    #[arg(short, long)]
    pub quiet: bool,
    /// Output format instead of the readable line.
    #[arg(long, alias = "format", value_name = "FORMAT")]
    pub output: Option<SummaryFormat>,
    /// Print one field of the outcome object raw (e.g. outcome, exit_code, retry_after_ms, tool,
    /// run): strings unquoted, others as JSON. A field absent from this outcome (retry_after_ms
    /// of a run that succeeded) prints nothing, not even a line feed; the exit status is the
    /// outcome's either way. A name that is no field of the object is a usage error (64).
    #[arg(long, value_name = "NAME", value_parser = OUTCOME_FIELDS.to_vec())]
    pub field: Option<String>,
    #[command(flatten)]
    pub logs: LogArgs,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

/// Output formats of `aoi errors`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorsFormat {
    /// An aligned table, one row per event (the default on a terminal).
    Table,
    /// The events as they came, one JSON object per line (the default otherwise).
    Raw,
    /// A conforming AOI stream: aoi:meta, the events tagged with origin, aoi:summary.
    Jsonl,
}

/// When to colour human output.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// When stdout is a terminal and NO_COLOR is not set.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour, for a stdout that is (or is not) a terminal.
    pub fn enabled(self, tty: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// An error's `scope` (§ 9.1).
pub use crate::spec::Scope;

#[derive(Args, Debug, Clone)]
pub struct ErrorsArgs {
    /// Input files (streams or logs); `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: FilesFrom,
    /// Also extract aoi:warning events.
    #[arg(short, long)]
    pub warnings: bool,
    /// Only these categories (repeat or separate with commas): the 15 of § 9.2.
    #[arg(long, value_name = "CATEGORY", value_delimiter = ',', value_parser = categories())]
    pub category: Vec<String>,
    /// Only these codes (repeat or separate with commas).
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub code: Vec<String>,
    /// Only errors whose retry may help (retryable:true; § 9.3: the field is authoritative).
    #[arg(long, conflicts_with = "not_retryable")]
    pub retryable: bool,
    /// Only errors that retry will not fix (retryable:false).
    #[arg(long)]
    pub not_retryable: bool,
    /// Only errors of this scope (an absent scope is process, § 9.1).
    #[arg(long, value_enum, value_name = "SCOPE")]
    pub scope: Option<Scope>,
    /// With --log (without it an input is one stream, not runs to choose from): only the runs
    /// RUN names, an aoi.run that starts with RUN or ends with it (tables, reports and verdict
    /// lines show a run by its last 8 characters). Naming no run of the inputs: exit 66, with the
    /// runs that are there.
    #[arg(long, value_name = "RUN", requires = "log")]
    pub run: Option<String>,
    /// Print only the number of matching events.
    #[arg(short, long, conflicts_with = "output")]
    pub count: bool,
    /// Output format (default: table on a terminal, raw otherwise).
    #[arg(long, alias = "format", value_name = "FORMAT")]
    pub output: Option<ErrorsFormat>,
    /// Colour the table by category.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Exit 0 whatever the streams' verdicts, an input without any AOI stream included
    /// (usage errors and unreadable inputs, 66, still fail).
    #[arg(long)]
    pub no_fail: bool,
    /// With --output jsonl: upstream aoi:error events do not make the run fail. Without it,
    /// aoi's stream accounts for them as any AOI producer must (§ 13.1): ok:false, exit 75
    /// when the most severe is retryable, else 1, and caused_by reproducing it.
    #[arg(long)]
    pub continue_on_error: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub logs: LogArgs,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

#[derive(Args, Debug, Clone)]
pub struct FilterArgs {
    /// The jq filter (jaq with jq's semantics where they differ; docs/filter.md lists what
    /// remains). With -f, the first input.
    #[arg(
        value_name = "FILTER",
        required_unless_present = "from_file",
        default_value = ""
    )]
    pub filter: String,
    /// Input files; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: FilesFrom,
    /// Run the filter on framework (aoi:*) events too; their results are domain events.
    #[arg(long, conflicts_with = "raw")]
    pub framework: bool,
    /// Filter errors and upstream aoi:error events do not make the run fail (§ 13).
    #[arg(long, conflicts_with = "raw")]
    pub continue_on_error: bool,
    /// Plain jq over any JSON Lines input, NOT an AOI judge: the input is not judged (a stream
    /// that failed or ended without its summary exits 0), no framing, output as `jq -c` prints it. For input
    /// that is not an AOI stream; without it every mode judges the stream as `aoi check`.
    #[arg(long)]
    pub raw: bool,
    /// As jq -r: print the results as jq does, strings without quotes, no framing. The
    /// stream is still judged as `aoi check` judges it: the exit status and stderr say the
    /// verdict (only --raw stops judging).
    #[arg(short = 'r', long = "raw-output", conflicts_with = "output")]
    pub raw_output: bool,
    /// As jq -j: as -r, with no newline after each result. The stream is still judged as
    /// `aoi check` judges it (only --raw stops judging).
    #[arg(short = 'j', long = "join-output", conflicts_with = "output")]
    pub join_output: bool,
    /// As jq -n: run the filter once on null; `input`/`inputs` read the stream's domain
    /// events (framework events too with --framework). The rest of the stream is still read
    /// to its end and judged. Results printed as jq prints them.
    #[arg(short = 'n', long, conflicts_with = "output")]
    pub null_input: bool,
    /// As jq -s: the stream's domain events in one array (held in memory), the filter run
    /// once on it; the whole input is judged. Results printed as jq prints them.
    #[arg(short = 's', long, conflicts_with_all = ["output", "null_input"])]
    pub slurp: bool,
    /// Output format: jsonl, the only one (accepted for the `--output jsonl` convention, § 16.1).
    #[arg(long, alias = "format", value_name = "FORMAT", conflicts_with = "raw")]
    pub output: Option<Format>,
    /// As jq -c: print the results as jq -c does, one per line, no framing; the stream is
    /// still judged as `aoi check` judges it (only --raw stops judging).
    #[arg(short = 'c', long = "compact-output", conflicts_with = "output")]
    pub compact_output: bool,
    /// As jq -a: characters past ASCII written as \uXXXX escapes.
    #[arg(short = 'a', long = "ascii-output", conflicts_with = "output")]
    pub ascii_output: bool,
    /// As jq -S: the members of every object printed sorted by key.
    #[arg(short = 'S', long = "sort-keys", conflicts_with = "output")]
    pub sort_keys: bool,
    /// As jq --tab: results printed indented, a tab per level.
    #[arg(long, conflicts_with_all = ["output", "indent"])]
    pub tab: bool,
    /// As jq --indent N: results printed indented, N spaces per level (0 to 7; 0 is compact).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=7), conflicts_with = "output")]
    pub indent: Option<u8>,
    /// As jq --seq: each result preceded by an ASCII record separator (RFC 7464).
    #[arg(long, conflicts_with = "output")]
    pub seq: bool,
    /// As jq --raw-output0: as -r, with a NUL after each result instead of a newline (a
    /// string holding NUL is an error).
    #[arg(long = "raw-output0", conflicts_with = "output")]
    pub raw_output0: bool,
    /// As jq -C: colour the results, even off a terminal.
    #[arg(short = 'C', long = "color-output", conflicts_with_all = ["output", "monochrome_output"])]
    pub color_output: bool,
    /// As jq -M: no colour. Without -C or -M, results are coloured on a terminal only, and
    /// never where NO_COLOR is set.
    #[arg(short = 'M', long = "monochrome-output", conflicts_with = "output")]
    pub monochrome_output: bool,
    /// As jq -e: the exit status also says the last result: 1 when it was false or null, 4
    /// when there was none. The stream's verdict is kept: of the two, the more severe exit wins.
    #[arg(short = 'e', long = "exit-status", conflicts_with = "output")]
    pub exit_status: bool,
    /// As jq -f: read the filter from FILE; every positional argument is then an input.
    #[arg(short = 'f', long = "from-file", value_name = "FILE")]
    pub from_file: Option<PathBuf>,
    /// As jq -L: search DIR for the modules `import` and `include` name (repeatable).
    #[arg(short = 'L', value_name = "DIR", action = clap::ArgAction::Append)]
    pub library_path: Vec<PathBuf>,
    /// As jq --args: the positional arguments after the filter are strings in
    /// $ARGS.positional, not inputs (the input is stdin).
    #[arg(long = "args", conflicts_with = "jsonargs")]
    pub positional_args: bool,
    /// As jq --jsonargs: the positional arguments after the filter are JSON values in
    /// $ARGS.positional, not inputs.
    #[arg(long)]
    pub jsonargs: bool,
    /// As jq -R: each line of the input is a string, not JSON (with -s, the whole input is one
    /// string). With --raw only: an AOI stream is JSON.
    #[arg(short = 'R', long = "raw-input", requires = "raw")]
    pub raw_input: bool,
    /// Bind $NAME to the string VALUE.
    #[arg(long, num_args = 2, value_names = ["NAME", "VALUE"], action = clap::ArgAction::Append)]
    pub arg: Vec<String>,
    /// Bind $NAME to the text of FILE, as a string.
    #[arg(long, num_args = 2, value_names = ["NAME", "FILE"], action = clap::ArgAction::Append)]
    pub rawfile: Vec<String>,
    /// Bind $NAME to an array of the JSON values in FILE.
    #[arg(long, num_args = 2, value_names = ["NAME", "FILE"], action = clap::ArgAction::Append)]
    pub slurpfile: Vec<String>,
    /// The bytes of each --rawfile FILE, then of each --slurpfile FILE, read once before
    /// the filter runs: every thread's variables are made of them (a FIFO or a pipe is read
    /// once). Not an argument.
    #[arg(skip)]
    pub(crate) file_texts: Vec<Vec<u8>>,
    /// $ARGS.positional: the positional arguments after the filter with --args or
    /// --jsonargs (set by aoi, not a flag).
    #[arg(skip)]
    pub positional: Vec<String>,
    /// Bind $NAME to the JSON value TEXT.
    #[arg(long, num_args = 2, value_names = ["NAME", "TEXT"], action = clap::ArgAction::Append)]
    pub argjson: Vec<String>,
    /// Print nothing on stderr but the filter's own messages (debug, stderr).
    #[arg(short, long)]
    pub quiet: bool,
    /// Longest event the filter holds in memory (K, M, G suffixes). A longer event is the
    /// filter's own item error (INPUT_TOO_LONG; with --raw, exit 65), not a fault of the
    /// stream, which is judged at any line length.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_line_bytes: usize,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

/// Output formats of `aoi merge-report`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeFormat {
    /// A conforming AOI stream: a `report` event per stream, then aoi:summary (the default off a terminal).
    Jsonl,
    /// An aligned table, one row per stream, with totals (the default on a terminal).
    Table,
    /// A Markdown section for a CI job summary.
    Markdown,
    /// JUnit XML: a testsuite per stream, a testcase for its outcome and one per aoi:check.
    Junit,
    /// TAP version 13 (prove and TAP 14 readers read it): one test point per stream, with a YAML block for failures.
    Tap,
    /// CTRF (Common Test Report Format) JSON: one test per stream, failed when its exit is not 0, with the cause and retry advice.
    Ctrf,
}

/// One `--format` of merge-report: a format, and the file it goes to
/// (stdout when none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatTarget {
    pub format: MergeFormat,
    pub path: Option<PathBuf>,
}

fn parse_format_target(s: &str) -> Result<FormatTarget, String> {
    let (name, path) = match s.split_once('=') {
        Some((_, "")) => return Err(format!("`{s}`: no PATH after `=`")),
        Some((name, path)) => (name, Some(PathBuf::from(path))),
        None => (s, None),
    };
    let format = MergeFormat::from_str(name, true).map_err(|_| {
        let names: Vec<String> = MergeFormat::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        format!("`{name}` is not a format ({})", names.join(", "))
    })?;
    Ok(FormatTarget { format, path })
}

#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// Inputs: streams, logs, earlier merge-report outputs; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: FilesFrom,
    /// Output format (default: table on a terminal, jsonl otherwise): jsonl, table, markdown,
    /// junit or tap; FORMAT=PATH writes it to PATH instead of stdout. Repeat it for several
    /// formats in one pass (`--format junit=aoi-junit.xml --format markdown=summary.md --format
    /// table`), each file byte for byte what that format alone writes (its times aside); at
    /// most one on stdout; one exit for the whole (73 when a PATH cannot be created).
    #[arg(long, alias = "output", value_name = "FORMAT[=PATH]", value_parser = parse_format_target)]
    pub format: Vec<FormatTarget>,
    /// Colour the table's outcomes.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Exit 0 whatever the streams' verdicts, an input without any AOI stream included
    /// (usage errors and unreadable inputs, 66, still fail).
    #[arg(long)]
    pub no_fail: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub logs: LogArgs,
    #[command(flatten)]
    pub judge: JudgeArgs,
}

/// The only output of the discovery commands: one JSON object.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonFormat {
    /// One JSON object.
    Json,
}

#[derive(Args, Debug)]
pub struct CapabilitiesArgs {
    /// Output format (JSON is the only one; accepted for the `--output json` convention, § 3).
    #[arg(long, alias = "format", value_name = "FORMAT")]
    pub output: Option<JsonFormat>,
}

#[derive(Args, Debug)]
pub struct LintArgs {
    /// The invocation to check: TOOL and its arguments, after `--`.
    #[arg(
        value_name = "TOOL ARGS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub invocation: Vec<String>,
    /// Lint aoi itself: each of its commands that writes a stream, fed a known stream.
    #[arg(long = "self", conflicts_with = "invocation")]
    pub lint_self: bool,
    /// The words that run the tool, when more than the first word of the
    /// invocation: `--tool 'python3 mytool.py'`. Without it, an interpreter (node, python3,
    /// ruby, sh, deno run, java -jar, …) and the script or module after it are the tool, as
    /// stderr says.
    #[arg(long, value_name = "WORDS")]
    pub tool: Option<String>,
    /// The tool's machine-mode flag, added to the invocation ("" for none). When the invocation
    /// fails with it and writes AOI without it (a wrapper that passes its arguments on), lint
    /// lints it without the flag and says so.
    #[arg(long, value_name = "FLAGS", default_value = "--output jsonl")]
    pub machine_flag: String,
    /// The flag whose value the secret probe fills with a canary (check 9).
    #[arg(long, value_name = "FLAG", default_value = "--token")]
    pub secret_flag: String,
    /// Feed FILE to the invocation's stdin (default: none).
    #[arg(long, value_name = "FILE")]
    pub stdin: Option<PathBuf>,
    /// Time each probe may take (`500ms`, `10s`, `2m`; a bare number is seconds); a probe that takes longer is killed.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_duration)]
    pub timeout: std::time::Duration,
    /// Let lint run a command that changes state more than once: its probes (an unknown
    /// flag, a canary, signals, --limit, --schema-version), the command without its
    /// confirmation and with --dry-run (check 6), and, when it refuses before its stream, with
    /// --dry-run (or --confirm) to judge a stream. Without it such a command runs once, as given.
    #[arg(long)]
    pub allow_side_effects: bool,
    /// Run the discovery probes without network (a new network namespace, `unshare -rn`).
    #[arg(long)]
    pub no_network: bool,
    /// Machine output: a conforming AOI stream of aoi:check events (one per check) and a summary.
    #[arg(long, alias = "format", value_name = "FORMAT")]
    pub output: Option<Format>,
    /// Colour in the table: auto (a terminal, NO_COLOR unset), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print nothing on stderr (the failing checks are otherwise named there in one line when
    /// the report is not a table on a terminal).
    #[arg(short, long)]
    pub quiet: bool,
}

/// A duration: a number with `ms`, `s` (the default) or `m`.
/// Every field of the outcome object `aoi summary` writes, for `--field` (a
/// name outside this list is a usage error, not an empty answer); held to
/// the object by `summary::every_outcome_key_is_a_field_name`.
pub const OUTCOME_FIELDS: &[&str] = &[
    "source",
    "tool",
    "tool_version",
    "aoi_version",
    "schema_name",
    "schema_version",
    "run",
    "outcome",
    "exit_code",
    "ok",
    "reason",
    "lines",
    "seq_reconciled",
    "domain_count",
    "warning_count",
    "error_count",
    "violation_count",
    "advisory_count",
    "checks_failed",
    "first_failed_check",
    "retryable",
    "retry_after_ms",
    "caused_by",
    "elapsed_ms",
    "summary",
];

/// The § 9.2 error categories, as `--category` accepts them (and the shell
/// completions offer them).
fn categories() -> clap::builder::PossibleValuesParser {
    crate::spec::CATEGORIES
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .into()
}

pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a duration (e.g. 500ms, 10s, 2m, 1h)"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "" | "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => {
            return Err(format!(
                "{s:?}: the unit is ms, s, m or h (a bare number is seconds)"
            ));
        }
    };
    if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
        return Err(format!("{s:?}: between 1ms and 24h"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

#[derive(Args, Debug)]
pub struct InputSchemaArgs {
    /// The command whose input is described (one that reads JSON Lines).
    #[arg(long, value_name = "NAME", value_parser = JUDGING.to_vec())]
    pub command: String,
    /// Output format (JSON is the only one; accepted for the `--output json` convention).
    #[arg(long, alias = "format", value_name = "FORMAT")]
    pub output: Option<JsonFormat>,
}

#[derive(Args, Debug)]
pub struct SchemaArgs {
    /// Output format (JSON is the only one; accepted for the `--output json` convention, § 3).
    #[arg(long, alias = "format", value_name = "FORMAT")]
    pub output: Option<JsonFormat>,
    /// The schema version wanted: 1 or 1.0.0 (§ 10.1).
    #[arg(long, value_name = "VERSION")]
    pub schema_version: Option<String>,
    /// The schema wanted by name: aoi.toolkit.events (§ 10.1).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// Print the catalog as Markdown (the text of docs/rules.md).
    #[arg(long)]
    pub markdown: bool,
    /// Print the catalog as an AOI stream: aoi:meta, one `rule` event per rule (id, severity,
    /// spec, hint, doc), aoi:summary.
    #[arg(
        long,
        alias = "format",
        value_name = "FORMAT",
        conflicts_with = "markdown"
    )]
    pub output: Option<Format>,
}

/// Parses `4096`, `64K`, `64KiB`, `16M`, `1G`.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: usize = num
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 4096, 64K, 16M, 1G)"))?;
    let mult: usize = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(format!("unknown size unit in `{s}` (use K, M or G)")),
    };
    let v = n
        .checked_mul(mult)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    if v == 0 {
        return Err("the size must be at least 1 byte".into());
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::DEFAULT_MAX_LINE_BYTES;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("10"), Ok(10));
        assert_eq!(parse_size("2KiB"), Ok(2048));
        assert!(parse_size("x").is_err());
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn default_max_line_matches_docs() {
        assert_eq!(parse_size("64M"), Ok(DEFAULT_MAX_LINE_BYTES));
    }
}
