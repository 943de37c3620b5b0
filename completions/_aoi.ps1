
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'aoi' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'aoi'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'aoi' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Before the command, for every command that colours a table (errors, merge-report, lint): auto (a terminal, NO_COLOR unset), always or never. The command''s own --color wins')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Before the command, for every command that has -q (as `aoi -q check`): print nothing on stderr; the exit status still tells')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Before the command, for every command that has -q (as `aoi -q check`): print nothing on stderr; the exit status still tells')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Relay a stream unchanged and judge it: complete, conforming, successful')
            [CompletionResult]::new('strip', 'strip', [CompletionResultType]::ParameterValue, 'The data plane without the framework (or, with --control, the control plane alone)')
            [CompletionResult]::new('summary', 'summary', [CompletionResultType]::ParameterValue, 'The outcome of a run: one line, a JSON object, or one field raw; exits with it')
            [CompletionResult]::new('errors', 'errors', [CompletionResultType]::ParameterValue, 'Errors and warnings out of AOI streams and real logs')
            [CompletionResult]::new('filter', 'filter', [CompletionResultType]::ParameterValue, 'Run a jq filter over the domain events; the framework stays right around it')
            [CompletionResult]::new('merge-report', 'merge-report', [CompletionResultType]::ParameterValue, 'Many runs, one verdict: a report per stream, totals, and the worst outcome')
            [CompletionResult]::new('capabilities', 'capabilities', [CompletionResultType]::ParameterValue, 'What aoi can do, as one JSON object (§ 17): commands, outputs, schemas, exit codes')
            [CompletionResult]::new('input-schema', 'input-schema', [CompletionResultType]::ParameterValue, 'The input schema of a command that reads JSON Lines (§ 12)')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'JSON Schema 2020-12 for every event aoi emits (§ 10)')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check a tool against the conformance checks of § 18, per factor and per command')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'List the rule catalog: ids, severity, spec section, what each requires')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aoi;check' {
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi check --output jsonl --files-from -`). An empty or unreadable list is 66')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write a report (an AOI stream of violation, advisory and stream events) to stdout instead of relaying')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Also write the report to FILE while relaying')
            [CompletionResult]::new('--show', '--show', [CompletionResultType]::ParameterName, 'Findings shown on stderr per stream')
            [CompletionResult]::new('--max-per-rule', '--max-per-rule', [CompletionResultType]::ParameterName, 'Findings of one rule reported per stream (the rest are counted)')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). Off by default')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi check judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB is read in its turn when the relay copies it to stdout); the output is one thread''s, byte for byte')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr; the exit status still tells')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr; the exit status still tells')
            [CompletionResult]::new('--no-relay', '--no-relay', [CompletionResultType]::ParameterName, 'Do not relay the input to stdout (verdict only)')
            [CompletionResult]::new('--unbounded', '--unbounded', [CompletionResultType]::ParameterName, 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end')
            [CompletionResult]::new('--fail-on-partial', '--fail-on-partial', [CompletionResultType]::ParameterName, 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;strip' {
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi strip --files-from - > events.jsonl`). An empty or unreadable list is 66')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)')
            [CompletionResult]::new('--show', '--show', [CompletionResultType]::ParameterName, 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi strip judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id')
            [CompletionResult]::new('--keep-envelope', '--keep-envelope', [CompletionResultType]::ParameterName, 'Keep the `aoi` member on domain events')
            [CompletionResult]::new('--control', '--control', [CompletionResultType]::ParameterName, 'Keep only the control plane: every aoi:* event, exactly as it came')
            [CompletionResult]::new('--no-fail', '--no-fail', [CompletionResultType]::ParameterName, 'Exit 0 whatever the upstream verdict (usage and I/O errors still fail)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print the verdict line on stderr on success too')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print the verdict line on stderr on success too')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)')
            [CompletionResult]::new('--unbounded', '--unbounded', [CompletionResultType]::ParameterName, 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end')
            [CompletionResult]::new('--fail-on-partial', '--fail-on-partial', [CompletionResultType]::ParameterName, 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;summary' {
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi summary --files-from -`). An empty or unreadable list is 66')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format instead of the readable line')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Print one field of the outcome object raw (e.g. outcome, exit_code, retry_after_ms, tool, run): strings unquoted, others as JSON. A field absent from this outcome (retry_after_ms of a run that succeeded) prints nothing, not even a line feed; the exit status is the outcome''s either way. A name that is no field of the object is a usage error (64)')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)')
            [CompletionResult]::new('--show', '--show', [CompletionResultType]::ParameterName, 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi summary judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr; stdout (the line, the object, the field) is the same')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr; stdout (the line, the object, the field) is the same')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)')
            [CompletionResult]::new('--unbounded', '--unbounded', [CompletionResultType]::ParameterName, 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end')
            [CompletionResult]::new('--fail-on-partial', '--fail-on-partial', [CompletionResultType]::ParameterName, 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;errors' {
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi errors --count --files-from -`). An empty or unreadable list is 66')
            [CompletionResult]::new('--category', '--category', [CompletionResultType]::ParameterName, 'Only these categories (repeat or separate with commas): the 15 of § 9.2')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Only these codes (repeat or separate with commas)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Only errors of this scope (an absent scope is process, § 9.1)')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'With --log (without it an input is one stream, not runs to choose from): only the runs RUN names, an aoi.run that starts with RUN or ends with it (tables, reports and verdict lines show a run by its last 8 characters). Naming no run of the inputs: exit 66, with the runs that are there')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (default: table on a terminal, raw otherwise)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table by category')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)')
            [CompletionResult]::new('--show', '--show', [CompletionResultType]::ParameterName, 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for reading an input: one reads and validates lines and finds each line''s event, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi errors judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Also extract aoi:warning events')
            [CompletionResult]::new('--warnings', '--warnings', [CompletionResultType]::ParameterName, 'Also extract aoi:warning events')
            [CompletionResult]::new('--retryable', '--retryable', [CompletionResultType]::ParameterName, 'Only errors whose retry may help (retryable:true; § 9.3: the field is authoritative)')
            [CompletionResult]::new('--not-retryable', '--not-retryable', [CompletionResultType]::ParameterName, 'Only errors that retry will not fix (retryable:false)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print only the number of matching events')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print only the number of matching events')
            [CompletionResult]::new('--no-fail', '--no-fail', [CompletionResultType]::ParameterName, 'Exit 0 whatever the streams'' verdicts, an input without any AOI stream included (usage errors and unreadable inputs, 66, still fail)')
            [CompletionResult]::new('--continue-on-error', '--continue-on-error', [CompletionResultType]::ParameterName, 'With --output jsonl: upstream aoi:error events do not make the run fail. Without it, aoi''s stream accounts for them as any AOI producer must (§ 13.1): ok:false, exit 75 when the most severe is retryable, else 1, and caused_by reproducing it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)')
            [CompletionResult]::new('--unbounded', '--unbounded', [CompletionResultType]::ParameterName, 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end')
            [CompletionResult]::new('--fail-on-partial', '--fail-on-partial', [CompletionResultType]::ParameterName, 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;filter' {
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi filter ''select(.rank <= 3)'' --files-from -`). An empty or unreadable list is 66')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: jsonl, the only one (accepted for the `--output jsonl` convention, § 16.1)')
            [CompletionResult]::new('--indent', '--indent', [CompletionResultType]::ParameterName, 'As jq --indent N: results printed indented, N spaces per level (0 to 7; 0 is compact)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'As jq -f: read the filter from FILE; every positional argument is then an input')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'As jq -f: read the filter from FILE; every positional argument is then an input')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'As jq -L: search DIR for the modules `import` and `include` name (repeatable)')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'Bind $NAME to the string VALUE')
            [CompletionResult]::new('--rawfile', '--rawfile', [CompletionResultType]::ParameterName, 'Bind $NAME to the text of FILE, as a string')
            [CompletionResult]::new('--slurpfile', '--slurpfile', [CompletionResultType]::ParameterName, 'Bind $NAME to an array of the JSON values in FILE')
            [CompletionResult]::new('--argjson', '--argjson', [CompletionResultType]::ParameterName, 'Bind $NAME to the JSON value TEXT')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Longest event the filter holds in memory (K, M, G suffixes). A longer event is the filter''s own item error (INPUT_TOO_LONG; with --raw, exit 65), not a fault of the stream, which is judged at any line length')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). Off by default')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for reading an input: one reads and judges lines and the others run the program on chunks of events in turn, with the same results as one thread (`.` and a plain path such as `.title`, written from the line''s own bytes, keep two threads: one reads and validates lines, one judges them and runs the program). 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: three at most run the program) two from the start on any input. Given several regular files, aoi filter judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn; --raw reads in turn when the program uses input/inputs, or with -n or -s); the output is one thread''s, byte for byte')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id')
            [CompletionResult]::new('--framework', '--framework', [CompletionResultType]::ParameterName, 'Run the filter on framework (aoi:*) events too; their results are domain events')
            [CompletionResult]::new('--continue-on-error', '--continue-on-error', [CompletionResultType]::ParameterName, 'Filter errors and upstream aoi:error events do not make the run fail (§ 13)')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Plain jq over any JSON Lines input, NOT an AOI judge: the input is not judged (a stream that failed or ended without its summary exits 0), no framing, output as `jq -c` prints it. For input that is not an AOI stream; without it every mode judges the stream as `aoi check`')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'As jq -r: print the results as jq does, strings without quotes, no framing. The stream is still judged as `aoi check` judges it: the exit status and stderr say the verdict (only --raw stops judging)')
            [CompletionResult]::new('--raw-output', '--raw-output', [CompletionResultType]::ParameterName, 'As jq -r: print the results as jq does, strings without quotes, no framing. The stream is still judged as `aoi check` judges it: the exit status and stderr say the verdict (only --raw stops judging)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'As jq -j: as -r, with no newline after each result. The stream is still judged as `aoi check` judges it (only --raw stops judging)')
            [CompletionResult]::new('--join-output', '--join-output', [CompletionResultType]::ParameterName, 'As jq -j: as -r, with no newline after each result. The stream is still judged as `aoi check` judges it (only --raw stops judging)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'As jq -n: run the filter once on null; `input`/`inputs` read the stream''s domain events (framework events too with --framework). The rest of the stream is still read to its end and judged. Results printed as jq prints them')
            [CompletionResult]::new('--null-input', '--null-input', [CompletionResultType]::ParameterName, 'As jq -n: run the filter once on null; `input`/`inputs` read the stream''s domain events (framework events too with --framework). The rest of the stream is still read to its end and judged. Results printed as jq prints them')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'As jq -s: the stream''s domain events in one array (held in memory), the filter run once on it; the whole input is judged. Results printed as jq prints them')
            [CompletionResult]::new('--slurp', '--slurp', [CompletionResultType]::ParameterName, 'As jq -s: the stream''s domain events in one array (held in memory), the filter run once on it; the whole input is judged. Results printed as jq prints them')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'As jq -c: print the results as jq -c does, one per line, no framing; the stream is still judged as `aoi check` judges it (only --raw stops judging)')
            [CompletionResult]::new('--compact-output', '--compact-output', [CompletionResultType]::ParameterName, 'As jq -c: print the results as jq -c does, one per line, no framing; the stream is still judged as `aoi check` judges it (only --raw stops judging)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'As jq -a: characters past ASCII written as \uXXXX escapes')
            [CompletionResult]::new('--ascii-output', '--ascii-output', [CompletionResultType]::ParameterName, 'As jq -a: characters past ASCII written as \uXXXX escapes')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'As jq -S: the members of every object printed sorted by key')
            [CompletionResult]::new('--sort-keys', '--sort-keys', [CompletionResultType]::ParameterName, 'As jq -S: the members of every object printed sorted by key')
            [CompletionResult]::new('--tab', '--tab', [CompletionResultType]::ParameterName, 'As jq --tab: results printed indented, a tab per level')
            [CompletionResult]::new('--seq', '--seq', [CompletionResultType]::ParameterName, 'As jq --seq: each result preceded by an ASCII record separator (RFC 7464)')
            [CompletionResult]::new('--raw-output0', '--raw-output0', [CompletionResultType]::ParameterName, 'As jq --raw-output0: as -r, with a NUL after each result instead of a newline (a string holding NUL is an error)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'As jq -C: colour the results, even off a terminal')
            [CompletionResult]::new('--color-output', '--color-output', [CompletionResultType]::ParameterName, 'As jq -C: colour the results, even off a terminal')
            [CompletionResult]::new('-M', '-M ', [CompletionResultType]::ParameterName, 'As jq -M: no colour. Without -C or -M, results are coloured on a terminal only, and never where NO_COLOR is set')
            [CompletionResult]::new('--monochrome-output', '--monochrome-output', [CompletionResultType]::ParameterName, 'As jq -M: no colour. Without -C or -M, results are coloured on a terminal only, and never where NO_COLOR is set')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'As jq -e: the exit status also says the last result: 1 when it was false or null, 4 when there was none. The stream''s verdict is kept: of the two, the more severe exit wins')
            [CompletionResult]::new('--exit-status', '--exit-status', [CompletionResultType]::ParameterName, 'As jq -e: the exit status also says the last result: 1 when it was false or null, 4 when there was none. The stream''s verdict is kept: of the two, the more severe exit wins')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'As jq --args: the positional arguments after the filter are strings in $ARGS.positional, not inputs (the input is stdin)')
            [CompletionResult]::new('--jsonargs', '--jsonargs', [CompletionResultType]::ParameterName, 'As jq --jsonargs: the positional arguments after the filter are JSON values in $ARGS.positional, not inputs')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'As jq -R: each line of the input is a string, not JSON (with -s, the whole input is one string). With --raw only: an AOI stream is JSON')
            [CompletionResult]::new('--raw-input', '--raw-input', [CompletionResultType]::ParameterName, 'As jq -R: each line of the input is a string, not JSON (with -s, the whole input is one string). With --raw only: an AOI stream is JSON')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but the filter''s own messages (debug, stderr)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but the filter''s own messages (debug, stderr)')
            [CompletionResult]::new('--unbounded', '--unbounded', [CompletionResultType]::ParameterName, 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end')
            [CompletionResult]::new('--fail-on-partial', '--fail-on-partial', [CompletionResultType]::ParameterName, 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;merge-report' {
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi merge-report --files-from -`). An empty or unreadable list is 66')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (default: table on a terminal, jsonl otherwise): jsonl, table, markdown, junit or tap; FORMAT=PATH writes it to PATH instead of stdout. Repeat it for several formats in one pass (`--format junit=aoi-junit.xml --format markdown=summary.md --format table`), each file byte for byte what that format alone writes (its times aside); at most one on stdout; one exit for the whole (73 when a PATH cannot be created)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the table''s outcomes')
            [CompletionResult]::new('--max-runs', '--max-runs', [CompletionResultType]::ParameterName, 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)')
            [CompletionResult]::new('--show', '--show', [CompletionResultType]::ParameterName, 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for reading an input: one reads and validates lines and finds each line''s event, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi merge-report judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id')
            [CompletionResult]::new('--no-fail', '--no-fail', [CompletionResultType]::ParameterName, 'Exit 0 whatever the streams'' verdicts, an input without any AOI stream included (usage errors and unreadable inputs, 66, still fail)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)')
            [CompletionResult]::new('--unbounded', '--unbounded', [CompletionResultType]::ParameterName, 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end')
            [CompletionResult]::new('--fail-on-partial', '--fail-on-partial', [CompletionResultType]::ParameterName, 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;capabilities' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (JSON is the only one; accepted for the `--output json` convention, § 3)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;input-schema' {
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'The command whose input is described (one that reads JSON Lines)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (JSON is the only one; accepted for the `--output json` convention)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;schema' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (JSON is the only one; accepted for the `--output json` convention, § 3)')
            [CompletionResult]::new('--schema-version', '--schema-version', [CompletionResultType]::ParameterName, 'The schema version wanted: 1 or 1.0.0 (§ 10.1)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The schema wanted by name: aoi.toolkit.events (§ 10.1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;lint' {
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'The words that run the tool, when more than the first word of the invocation: `--tool ''python3 mytool.py''`. Without it, an interpreter (node, python3, ruby, sh, deno run, java -jar, …) and the script or module after it are the tool, as stderr says')
            [CompletionResult]::new('--machine-flag', '--machine-flag', [CompletionResultType]::ParameterName, 'The tool''s machine-mode flag, added to the invocation ("" for none). When the invocation fails with it and writes AOI without it (a wrapper that passes its arguments on), lint lints it without the flag and says so')
            [CompletionResult]::new('--secret-flag', '--secret-flag', [CompletionResultType]::ParameterName, 'The flag whose value the secret probe fills with a canary (check 9)')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Feed FILE to the invocation''s stdin (default: none)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Time each probe may take (`500ms`, `10s`, `2m`; a bare number is seconds); a probe that takes longer is killed')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Machine output: a conforming AOI stream of aoi:check events (one per check) and a summary')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in the table: auto (a terminal, NO_COLOR unset), always, never')
            [CompletionResult]::new('--self', '--self', [CompletionResultType]::ParameterName, 'Lint aoi itself: each of its commands that writes a stream, fed a known stream')
            [CompletionResult]::new('--allow-side-effects', '--allow-side-effects', [CompletionResultType]::ParameterName, 'Let lint run a command that changes state more than once: its probes (an unknown flag, a canary, signals, --limit, --schema-version), the command without its confirmation and with --dry-run (check 6), and, when it refuses before its stream, with --dry-run (or --confirm) to judge a stream. Without it such a command runs once, as given')
            [CompletionResult]::new('--no-network', '--no-network', [CompletionResultType]::ParameterName, 'Run the discovery probes without network (a new network namespace, `unshare -rn`)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr (the failing checks are otherwise named there in one line when the report is not a table on a terminal)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr (the failing checks are otherwise named there in one line when the report is not a table on a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;rules' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the catalog as an AOI stream: aoi:meta, one `rule` event per rule (id, severity, spec, hint, doc), aoi:summary')
            [CompletionResult]::new('--markdown', '--markdown', [CompletionResultType]::ParameterName, 'Print the catalog as Markdown (the text of docs/rules.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aoi;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Relay a stream unchanged and judge it: complete, conforming, successful')
            [CompletionResult]::new('strip', 'strip', [CompletionResultType]::ParameterValue, 'The data plane without the framework (or, with --control, the control plane alone)')
            [CompletionResult]::new('summary', 'summary', [CompletionResultType]::ParameterValue, 'The outcome of a run: one line, a JSON object, or one field raw; exits with it')
            [CompletionResult]::new('errors', 'errors', [CompletionResultType]::ParameterValue, 'Errors and warnings out of AOI streams and real logs')
            [CompletionResult]::new('filter', 'filter', [CompletionResultType]::ParameterValue, 'Run a jq filter over the domain events; the framework stays right around it')
            [CompletionResult]::new('merge-report', 'merge-report', [CompletionResultType]::ParameterValue, 'Many runs, one verdict: a report per stream, totals, and the worst outcome')
            [CompletionResult]::new('capabilities', 'capabilities', [CompletionResultType]::ParameterValue, 'What aoi can do, as one JSON object (§ 17): commands, outputs, schemas, exit codes')
            [CompletionResult]::new('input-schema', 'input-schema', [CompletionResultType]::ParameterValue, 'The input schema of a command that reads JSON Lines (§ 12)')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'JSON Schema 2020-12 for every event aoi emits (§ 10)')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check a tool against the conformance checks of § 18, per factor and per command')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'List the rule catalog: ids, severity, spec section, what each requires')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aoi;help;check' {
            break
        }
        'aoi;help;strip' {
            break
        }
        'aoi;help;summary' {
            break
        }
        'aoi;help;errors' {
            break
        }
        'aoi;help;filter' {
            break
        }
        'aoi;help;merge-report' {
            break
        }
        'aoi;help;capabilities' {
            break
        }
        'aoi;help;input-schema' {
            break
        }
        'aoi;help;schema' {
            break
        }
        'aoi;help;lint' {
            break
        }
        'aoi;help;rules' {
            break
        }
        'aoi;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
