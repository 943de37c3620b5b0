//! Example invocations per subcommand, written once: `--help` (short and
//! long), the man pages' EXAMPLES section and the tests that run them read
//! this table.

/// Examples of one subcommand: the invocation and what it does.
pub type Examples = &'static [(&'static str, &'static str)];

/// Every subcommand's examples, by name.
pub const EXAMPLES: &[(&str, Examples)] = &[
    (
        "check",
        &[
            (
                "tool --output jsonl | aoi check | next-step",
                "relay the stream unchanged; the verdict goes to stderr and the exit status",
            ),
            (
                "aoi check -q run.jsonl && echo complete",
                "judge a saved run; -q prints nothing, the exit status says it",
            ),
            (
                "aoi check --output jsonl run.jsonl | jq -c 'select(.type==\"violation\")'",
                "machine mode: the report (itself an AOI stream) instead of the relay",
            ),
            (
                "tool --output jsonl | aoi check --report check.jsonl > out.jsonl",
                "relay and write the report to a file at once",
            ),
            (
                "tool watch --output jsonl | aoi check --unbounded --idle-timeout 5m",
                "a stream that may never end: a clean EOF passes, 5 minutes of silence does not",
            ),
        ],
    ),
    (
        "strip",
        &[
            (
                "tool --output jsonl | aoi strip | jq -c .",
                "only the domain events, without their `aoi` envelope",
            ),
            (
                "tool --output jsonl | aoi strip --keep-envelope > data.jsonl",
                "only the domain events, envelope kept",
            ),
            (
                "aoi strip --control run.jsonl",
                "only the framework (aoi:*) events, as they came",
            ),
            (
                "aoi strip --log --control ci.log > control.jsonl",
                "the framework events out of a CI log with prefixes and prose",
            ),
        ],
    ),
    (
        "summary",
        &[
            ("aoi summary run.jsonl", "the run's outcome in one line"),
            (
                "if tool --output jsonl | aoi summary -q; then echo done; fi",
                "branch on the outcome (the exit status of aoi check)",
            ),
            (
                "ms=$(aoi summary --field retry_after_ms run.jsonl) || true; sleep $(( ${ms:-1000} / 1000 ))",
                "wait what a failed run asks before a retry (nothing printed when the field is absent)",
            ),
            (
                "aoi summary --output json run.jsonl | jq .outcome",
                "machine mode: the outcome as one JSON object",
            ),
            (
                "find runs -name '*.jsonl' | aoi summary --files-from - --output jsonl",
                "every run of a directory, judged on every core, one outcome event each",
            ),
        ],
    ),
    (
        "errors",
        &[
            (
                "tool --output jsonl | aoi errors",
                "the errors of a run, as a table on a terminal",
            ),
            (
                "aoi errors --log --warnings --category rate_limited,unavailable ci.log",
                "errors and warnings of some categories out of a CI log",
            ),
            (
                "aoi errors --count --retryable run.jsonl",
                "how many errors say a retry may help",
            ),
            (
                "kubectl logs job/sync | aoi errors --log --output raw | jq -r .code",
                "the error events as they came, one JSON object a line",
            ),
            (
                "aoi errors --output jsonl run.jsonl | aoi check -q",
                "machine mode: a conforming AOI stream of the errors, with their origin",
            ),
        ],
    ),
    (
        "filter",
        &[
            (
                "tool --output jsonl | aoi filter 'select(.rank <= 3)'",
                "keep some domain events; the framework stays right",
            ),
            (
                "tool --output jsonl | aoi filter '{type: \"title\", text: .title}'",
                "reshape each event into a new domain event",
            ),
            (
                "aoi filter -r 'select(.type == \"hit\") | .title' run.jsonl",
                "as jq -r: the values, strings without quotes (implies --raw)",
            ),
            (
                "aoi filter --framework 'select(.type == \"aoi:error\") | .code' run.jsonl",
                "run the filter on the aoi:* events too",
            ),
            (
                "aoi filter --arg min 3 'select(.rank >= ($min | tonumber))' run.jsonl",
                "bind a variable, as in jq",
            ),
        ],
    ),
    (
        "merge-report",
        &[
            (
                "aoi merge-report runs/*.jsonl",
                "one verdict for many runs, as a table",
            ),
            (
                "aoi merge-report --log --format markdown ci.log >> \"$GITHUB_STEP_SUMMARY\"",
                "a CI job summary from a log of interleaved runs",
            ),
            (
                "aoi merge-report --format junit=junit.xml --format markdown=sum.md runs/*",
                "one pass: JUnit for the test tab, Markdown to append to $GITHUB_STEP_SUMMARY",
            ),
            (
                "find runs -name '*.jsonl' | aoi merge-report --files-from - --format jsonl > part.jsonl",
                "more files than a command line holds; merge such parts again for the fleet's verdict",
            ),
            (
                "aoi merge-report --format tap=aoi.tap runs/*.jsonl; prove --exec cat aoi.tap",
                "TAP for a TAP harness (prove runs `cat aoi.tap`: stdin would be read as test names)",
            ),
            (
                "aoi merge-report --no-fail --format jsonl shard/*.jsonl > part.jsonl",
                "a shard's report (machine mode), merged again later whatever its verdict",
            ),
        ],
    ),
    (
        "capabilities",
        &[
            (
                "aoi capabilities --output json",
                "what aoi can do, as § 17 describes it",
            ),
            (
                "aoi capabilities --output json | jq '.commands[].name'",
                "the command names",
            ),
            (
                "aoi capabilities --output json | jq '.commands[] | select(.name == \"check\") | .outputs'",
                "the output formats of one command",
            ),
        ],
    ),
    (
        "input-schema",
        &[
            (
                "aoi input-schema --command check --output json",
                "the JSON Schema of a command's arguments",
            ),
            (
                "aoi input-schema --command errors --output json | jq '.\"x-aoi-input\"'",
                "what the command reads",
            ),
            (
                "aoi input-schema --command filter --output json | jq '.\"x-aoi-input\".malformed_mode'",
                "what it does with a malformed line (§ 12.2)",
            ),
        ],
    ),
    (
        "schema",
        &[
            (
                "aoi schema --output json",
                "the schema of the events aoi writes",
            ),
            (
                "aoi schema --output json | jq '.[\"$defs\"] | keys'",
                "the event types it defines",
            ),
            (
                "aoi schema --output json --name aoi.toolkit.events --schema-version 1",
                "ask for it by name and version (§ 10.1); another is a usage error",
            ),
        ],
    ),
    (
        "lint",
        &[
            (
                "aoi lint -- mytool search 'agent tools'",
                "run a tool through the § 18 conformance checks",
            ),
            (
                "aoi lint --tool 'python3 mytool.py' -- python3 mytool.py search x",
                "a tool run by an interpreter: say which words are the tool",
            ),
            (
                "aoi lint --machine-flag '--format jsonl' -- mytool list",
                "a tool whose machine mode has another flag",
            ),
            (
                "aoi lint --output jsonl -- mytool list | aoi check -q",
                "machine mode: the checks as an AOI stream",
            ),
            ("aoi lint --self", "aoi's own conformance"),
        ],
    ),
    (
        "rules",
        &[
            ("aoi rules", "the rule catalog: id, severity, spec section"),
            ("aoi rules | grep '^seq\\.'", "the rules about seq (§ 8.1)"),
            (
                "aoi rules --markdown > rules.md",
                "the catalog with the decisions, as Markdown",
            ),
        ],
    ),
];

/// The examples of subcommand `name` (none for an unknown name).
pub fn of(name: &str) -> Examples {
    EXAMPLES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[], |(_, e)| e)
}

/// The examples as `--help` shows them: each explanation as a comment
/// over its invocation.
pub fn help_text(examples: Examples) -> String {
    let mut s = String::from("Examples:");
    for (cmd, why) in examples {
        s.push_str(&format!("\n  # {why}\n  {cmd}"));
    }
    s
}
