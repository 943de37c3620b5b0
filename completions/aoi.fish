# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_aoi_global_optspecs
    string join \n q/quiet color= h/help V/version
end

function __fish_aoi_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_aoi_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_aoi_using_subcommand
    set -l cmd (__fish_aoi_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c aoi -n "__fish_aoi_needs_command" -l color -d 'Before the command, for every command that colours a table (errors, merge-report, lint): auto (a terminal, NO_COLOR unset), always or never. The command\'s own --color wins' -r -f -a "auto\t'When stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c aoi -n "__fish_aoi_needs_command" -s q -l quiet -d 'Before the command, for every command that has -q (as `aoi -q check`): print nothing on stderr; the exit status still tells'
complete -c aoi -n "__fish_aoi_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_needs_command" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "check" -d 'Relay a stream unchanged and judge it: complete, conforming, successful'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "strip" -d 'The data plane without the framework (or, with --control, the control plane alone)'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "summary" -d 'The outcome of a run: one line, a JSON object, or one field raw; exits with it'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "errors" -d 'Errors and warnings out of AOI streams and real logs'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "filter" -d 'Run a jq filter over the domain events; the framework stays right around it'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "merge-report" -d 'Many runs, one verdict: a report per stream, totals, and the worst outcome'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "capabilities" -d 'What aoi can do, as one JSON object (§ 17): commands, outputs, schemas, exit codes'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "input-schema" -d 'The input schema of a command that reads JSON Lines (§ 12)'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "schema" -d 'JSON Schema 2020-12 for every event aoi emits (§ 10)'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "lint" -d 'Check a tool against the conformance checks of § 18, per factor and per command'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "rules" -d 'List the rule catalog: ids, severity, spec section, what each requires'
complete -c aoi -n "__fish_aoi_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aoi -n "__fish_aoi_using_subcommand check" -l files-from -d 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name \'*.jsonl\' | aoi check --output jsonl --files-from -`). An empty or unreadable list is 66' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand check" -l output -d 'Write a report (an AOI stream of violation, advisory and stream events) to stdout instead of relaying' -r -f -a "jsonl\t'An AOI stream (JSON Lines)'"
complete -c aoi -n "__fish_aoi_using_subcommand check" -l report -d 'Also write the report to FILE while relaying' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand check" -l show -d 'Findings shown on stderr per stream' -r
complete -c aoi -n "__fish_aoi_using_subcommand check" -l max-per-rule -d 'Findings of one rule reported per stream (the rest are counted)' -r
complete -c aoi -n "__fish_aoi_using_subcommand check" -l idle-timeout -d 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). Off by default' -r
complete -c aoi -n "__fish_aoi_using_subcommand check" -l threads -d 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi check judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB is read in its turn when the relay copies it to stdout); the output is one thread\'s, byte for byte' -r
complete -c aoi -n "__fish_aoi_using_subcommand check" -l schema -d 'Validate every event, domain and framework, against this JSON Schema (the tool\'s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand check" -s q -l quiet -d 'Print nothing on stderr; the exit status still tells'
complete -c aoi -n "__fish_aoi_using_subcommand check" -l no-relay -d 'Do not relay the input to stdout (verdict only)'
complete -c aoi -n "__fish_aoi_using_subcommand check" -l unbounded -d 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
complete -c aoi -n "__fish_aoi_using_subcommand check" -l fail-on-partial -d 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
complete -c aoi -n "__fish_aoi_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand check" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l files-from -d 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name \'*.jsonl\' | aoi strip --files-from - > events.jsonl`). An empty or unreadable list is 66' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l max-runs -d 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)' -r
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l show -d 'Findings shown on stderr in all, as check\'s --show: the failed runs\' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed' -r
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l idle-timeout -d 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default' -r
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l threads -d 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi strip judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread\'s, byte for byte' -r
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l schema -d 'Validate every event, domain and framework, against this JSON Schema (the tool\'s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l keep-envelope -d 'Keep the `aoi` member on domain events'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l control -d 'Keep only the control plane: every aoi:* event, exactly as it came'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l no-fail -d 'Exit 0 whatever the upstream verdict (usage and I/O errors still fail)'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -s q -l quiet -d 'Print nothing on stderr'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -s v -l verbose -d 'Print the verdict line on stderr on success too'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l log -d 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l unbounded -d 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -l fail-on-partial -d 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand strip" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l files-from -d 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name \'*.jsonl\' | aoi summary --files-from -`). An empty or unreadable list is 66' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l output -d 'Output format instead of the readable line' -r -f -a "json\t'One JSON object per stream'
jsonl\t'A conforming AOI stream'"
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l field -d 'Print one field of the outcome object raw (e.g. outcome, exit_code, retry_after_ms, tool, run): strings unquoted, others as JSON. A field absent from this outcome (retry_after_ms of a run that succeeded) prints nothing, not even a line feed; the exit status is the outcome\'s either way. A name that is no field of the object is a usage error (64)' -r -f -a "source\t''
tool\t''
tool_version\t''
aoi_version\t''
schema_name\t''
schema_version\t''
run\t''
outcome\t''
exit_code\t''
ok\t''
reason\t''
lines\t''
seq_reconciled\t''
domain_count\t''
warning_count\t''
error_count\t''
violation_count\t''
advisory_count\t''
checks_failed\t''
first_failed_check\t''
retryable\t''
retry_after_ms\t''
caused_by\t''
elapsed_ms\t''
summary\t''"
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l max-runs -d 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)' -r
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l show -d 'Findings shown on stderr in all, as check\'s --show: the failed runs\' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed' -r
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l idle-timeout -d 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default' -r
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l threads -d 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi summary judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread\'s, byte for byte' -r
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l schema -d 'Validate every event, domain and framework, against this JSON Schema (the tool\'s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand summary" -s q -l quiet -d 'Print nothing on stderr; stdout (the line, the object, the field) is the same'
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l log -d 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l unbounded -d 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
complete -c aoi -n "__fish_aoi_using_subcommand summary" -l fail-on-partial -d 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
complete -c aoi -n "__fish_aoi_using_subcommand summary" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand summary" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l files-from -d 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name \'*.jsonl\' | aoi errors --count --files-from -`). An empty or unreadable list is 66' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l category -d 'Only these categories (repeat or separate with commas): the 15 of § 9.2' -r -f -a "usage\t''
validation\t''
config\t''
authn\t''
authz\t''
not_found\t''
conflict\t''
precondition_failed\t''
unsupported\t''
rate_limited\t''
unavailable\t''
timeout\t''
cancelled\t''
io\t''
internal\t''"
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l code -d 'Only these codes (repeat or separate with commas)' -r
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l scope -d 'Only errors of this scope (an absent scope is process, § 9.1)' -r -f -a "process\t''
item\t''"
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l run -d 'With --log (without it an input is one stream, not runs to choose from): only the runs RUN names, an aoi.run that starts with RUN or ends with it (tables, reports and verdict lines show a run by its last 8 characters). Naming no run of the inputs: exit 66, with the runs that are there' -r
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l output -d 'Output format (default: table on a terminal, raw otherwise)' -r -f -a "table\t'An aligned table, one row per event (the default on a terminal)'
raw\t'The events as they came, one JSON object per line (the default otherwise)'
jsonl\t'A conforming AOI stream: aoi:meta, the events tagged with origin, aoi:summary'"
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l color -d 'Colour the table by category' -r -f -a "auto\t'When stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l max-runs -d 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)' -r
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l show -d 'Findings shown on stderr in all, as check\'s --show: the failed runs\' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed' -r
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l idle-timeout -d 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default' -r
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l threads -d 'Threads for reading an input: one reads and validates lines and finds each line\'s event, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi errors judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread\'s, byte for byte' -r
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l schema -d 'Validate every event, domain and framework, against this JSON Schema (the tool\'s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand errors" -s w -l warnings -d 'Also extract aoi:warning events'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l retryable -d 'Only errors whose retry may help (retryable:true; § 9.3: the field is authoritative)'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l not-retryable -d 'Only errors that retry will not fix (retryable:false)'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -s c -l count -d 'Print only the number of matching events'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l no-fail -d 'Exit 0 whatever the streams\' verdicts, an input without any AOI stream included (usage errors and unreadable inputs, 66, still fail)'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l continue-on-error -d 'With --output jsonl: upstream aoi:error events do not make the run fail. Without it, aoi\'s stream accounts for them as any AOI producer must (§ 13.1): ok:false, exit 75 when the most severe is retryable, else 1, and caused_by reproducing it'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -s q -l quiet -d 'Print nothing on stderr'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l log -d 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l unbounded -d 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -l fail-on-partial -d 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand errors" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l files-from -d 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name \'*.jsonl\' | aoi filter \'select(.rank <= 3)\' --files-from -`). An empty or unreadable list is 66' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l output -d 'Output format: jsonl, the only one (accepted for the `--output jsonl` convention, § 16.1)' -r -f -a "jsonl\t'An AOI stream (JSON Lines)'"
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l indent -d 'As jq --indent N: results printed indented, N spaces per level (0 to 7; 0 is compact)' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s f -l from-file -d 'As jq -f: read the filter from FILE; every positional argument is then an input' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s L -d 'As jq -L: search DIR for the modules `import` and `include` name (repeatable)' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l arg -d 'Bind $NAME to the string VALUE' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l rawfile -d 'Bind $NAME to the text of FILE, as a string' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l slurpfile -d 'Bind $NAME to an array of the JSON values in FILE' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l argjson -d 'Bind $NAME to the JSON value TEXT' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l max-line-bytes -d 'Longest event the filter holds in memory (K, M, G suffixes). A longer event is the filter\'s own item error (INPUT_TOO_LONG; with --raw, exit 65), not a fault of the stream, which is judged at any line length' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l idle-timeout -d 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). Off by default' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l threads -d 'Threads for reading an input: one reads and judges lines and the others run the program on chunks of events in turn, with the same results as one thread (`.` and a plain path such as `.title`, written from the line\'s own bytes, keep two threads: one reads and validates lines, one judges them and runs the program). 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: three at most run the program) two from the start on any input. Given several regular files, aoi filter judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn; --raw reads in turn when the program uses input/inputs, or with -n or -s); the output is one thread\'s, byte for byte' -r
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l schema -d 'Validate every event, domain and framework, against this JSON Schema (the tool\'s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l framework -d 'Run the filter on framework (aoi:*) events too; their results are domain events'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l continue-on-error -d 'Filter errors and upstream aoi:error events do not make the run fail (§ 13)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l raw -d 'Plain jq over any JSON Lines input, NOT an AOI judge: the input is not judged (a stream that failed or ended without its summary exits 0), no framing, output as `jq -c` prints it. For input that is not an AOI stream; without it every mode judges the stream as `aoi check`'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s r -l raw-output -d 'As jq -r: print the results as jq does, strings without quotes, no framing. The stream is still judged as `aoi check` judges it: the exit status and stderr say the verdict (only --raw stops judging)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s j -l join-output -d 'As jq -j: as -r, with no newline after each result. The stream is still judged as `aoi check` judges it (only --raw stops judging)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s n -l null-input -d 'As jq -n: run the filter once on null; `input`/`inputs` read the stream\'s domain events (framework events too with --framework). The rest of the stream is still read to its end and judged. Results printed as jq prints them'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s s -l slurp -d 'As jq -s: the stream\'s domain events in one array (held in memory), the filter run once on it; the whole input is judged. Results printed as jq prints them'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s c -l compact-output -d 'As jq -c: print the results as jq -c does, one per line, no framing; the stream is still judged as `aoi check` judges it (only --raw stops judging)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s a -l ascii-output -d 'As jq -a: characters past ASCII written as \\uXXXX escapes'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s S -l sort-keys -d 'As jq -S: the members of every object printed sorted by key'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l tab -d 'As jq --tab: results printed indented, a tab per level'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l seq -d 'As jq --seq: each result preceded by an ASCII record separator (RFC 7464)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l raw-output0 -d 'As jq --raw-output0: as -r, with a NUL after each result instead of a newline (a string holding NUL is an error)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s C -l color-output -d 'As jq -C: colour the results, even off a terminal'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s M -l monochrome-output -d 'As jq -M: no colour. Without -C or -M, results are coloured on a terminal only, and never where NO_COLOR is set'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s e -l exit-status -d 'As jq -e: the exit status also says the last result: 1 when it was false or null, 4 when there was none. The stream\'s verdict is kept: of the two, the more severe exit wins'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l args -d 'As jq --args: the positional arguments after the filter are strings in $ARGS.positional, not inputs (the input is stdin)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l jsonargs -d 'As jq --jsonargs: the positional arguments after the filter are JSON values in $ARGS.positional, not inputs'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s R -l raw-input -d 'As jq -R: each line of the input is a string, not JSON (with -s, the whole input is one string). With --raw only: an AOI stream is JSON'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s q -l quiet -d 'Print nothing on stderr but the filter\'s own messages (debug, stderr)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l unbounded -d 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -l fail-on-partial -d 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand filter" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l files-from -d 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name \'*.jsonl\' | aoi merge-report --files-from -`). An empty or unreadable list is 66' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l format -d 'Output format (default: table on a terminal, jsonl otherwise): jsonl, table, markdown, junit or tap; FORMAT=PATH writes it to PATH instead of stdout. Repeat it for several formats in one pass (`--format junit=aoi-junit.xml --format markdown=summary.md --format table`), each file byte for byte what that format alone writes (its times aside); at most one on stdout; one exit for the whole (73 when a PATH cannot be created)' -r
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l color -d 'Colour the table\'s outcomes' -r -f -a "auto\t'When stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l max-runs -d 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)' -r
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l show -d 'Findings shown on stderr in all, as check\'s --show: the failed runs\' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed' -r
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l idle-timeout -d 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default' -r
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l threads -d 'Threads for reading an input: one reads and validates lines and finds each line\'s event, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi merge-report judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread\'s, byte for byte' -r
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l schema -d 'Validate every event, domain and framework, against this JSON Schema (the tool\'s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l no-fail -d 'Exit 0 whatever the streams\' verdicts, an input without any AOI stream included (usage errors and unreadable inputs, 66, still fail)'
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -s q -l quiet -d 'Print nothing on stderr'
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l log -d 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l unbounded -d 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -l fail-on-partial -d 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand merge-report" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand capabilities" -l output -d 'Output format (JSON is the only one; accepted for the `--output json` convention, § 3)' -r -f -a "json\t'One JSON object'"
complete -c aoi -n "__fish_aoi_using_subcommand capabilities" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand capabilities" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand input-schema" -l command -d 'The command whose input is described (one that reads JSON Lines)' -r -f -a "check\t''
strip\t''
summary\t''
errors\t''
filter\t''
merge-report\t''"
complete -c aoi -n "__fish_aoi_using_subcommand input-schema" -l output -d 'Output format (JSON is the only one; accepted for the `--output json` convention)' -r -f -a "json\t'One JSON object'"
complete -c aoi -n "__fish_aoi_using_subcommand input-schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand input-schema" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand schema" -l output -d 'Output format (JSON is the only one; accepted for the `--output json` convention, § 3)' -r -f -a "json\t'One JSON object'"
complete -c aoi -n "__fish_aoi_using_subcommand schema" -l schema-version -d 'The schema version wanted: 1 or 1.0.0 (§ 10.1)' -r
complete -c aoi -n "__fish_aoi_using_subcommand schema" -l name -d 'The schema wanted by name: aoi.toolkit.events (§ 10.1)' -r
complete -c aoi -n "__fish_aoi_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand schema" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l tool -d 'The words that run the tool, when more than the first word of the invocation: `--tool \'python3 mytool.py\'`. Without it, an interpreter (node, python3, ruby, sh, deno run, java -jar, …) and the script or module after it are the tool, as stderr says' -r
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l machine-flag -d 'The tool\'s machine-mode flag, added to the invocation ("" for none). When the invocation fails with it and writes AOI without it (a wrapper that passes its arguments on), lint lints it without the flag and says so' -r
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l secret-flag -d 'The flag whose value the secret probe fills with a canary (check 9)' -r
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l stdin -d 'Feed FILE to the invocation\'s stdin (default: none)' -r -F
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l timeout -d 'Time each probe may take (`500ms`, `10s`, `2m`; a bare number is seconds); a probe that takes longer is killed' -r
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l output -d 'Machine output: a conforming AOI stream of aoi:check events (one per check) and a summary' -r -f -a "jsonl\t'An AOI stream (JSON Lines)'"
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l color -d 'Colour in the table: auto (a terminal, NO_COLOR unset), always, never' -r -f -a "auto\t'When stdout is a terminal and NO_COLOR is not set'
always\t''
never\t''"
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l self -d 'Lint aoi itself: each of its commands that writes a stream, fed a known stream'
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l allow-side-effects -d 'Let lint run a command that changes state more than once: its probes (an unknown flag, a canary, signals, --limit, --schema-version), the command without its confirmation and with --dry-run (check 6), and, when it refuses before its stream, with --dry-run (or --confirm) to judge a stream. Without it such a command runs once, as given'
complete -c aoi -n "__fish_aoi_using_subcommand lint" -l no-network -d 'Run the discovery probes without network (a new network namespace, `unshare -rn`)'
complete -c aoi -n "__fish_aoi_using_subcommand lint" -s q -l quiet -d 'Print nothing on stderr (the failing checks are otherwise named there in one line when the report is not a table on a terminal)'
complete -c aoi -n "__fish_aoi_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand lint" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand rules" -l output -d 'Print the catalog as an AOI stream: aoi:meta, one `rule` event per rule (id, severity, spec, hint, doc), aoi:summary' -r -f -a "jsonl\t'An AOI stream (JSON Lines)'"
complete -c aoi -n "__fish_aoi_using_subcommand rules" -l markdown -d 'Print the catalog as Markdown (the text of docs/rules.md)'
complete -c aoi -n "__fish_aoi_using_subcommand rules" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aoi -n "__fish_aoi_using_subcommand rules" -s V -l version -d 'Print version'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "check" -d 'Relay a stream unchanged and judge it: complete, conforming, successful'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "strip" -d 'The data plane without the framework (or, with --control, the control plane alone)'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "summary" -d 'The outcome of a run: one line, a JSON object, or one field raw; exits with it'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "errors" -d 'Errors and warnings out of AOI streams and real logs'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "filter" -d 'Run a jq filter over the domain events; the framework stays right around it'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "merge-report" -d 'Many runs, one verdict: a report per stream, totals, and the worst outcome'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "capabilities" -d 'What aoi can do, as one JSON object (§ 17): commands, outputs, schemas, exit codes'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "input-schema" -d 'The input schema of a command that reads JSON Lines (§ 12)'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "schema" -d 'JSON Schema 2020-12 for every event aoi emits (§ 10)'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "lint" -d 'Check a tool against the conformance checks of § 18, per factor and per command'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "rules" -d 'List the rule catalog: ids, severity, spec section, what each requires'
complete -c aoi -n "__fish_aoi_using_subcommand help; and not __fish_seen_subcommand_from check strip summary errors filter merge-report capabilities input-schema schema lint rules help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
