
use builtin;
use str;

set edit:completion:arg-completer[aoi] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'aoi'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'aoi'= {
            cand --color 'Before the command, for every command that colours a table (errors, merge-report, lint): auto (a terminal, NO_COLOR unset), always or never. The command''s own --color wins'
            cand -q 'Before the command, for every command that has -q (as `aoi -q check`): print nothing on stderr; the exit status still tells'
            cand --quiet 'Before the command, for every command that has -q (as `aoi -q check`): print nothing on stderr; the exit status still tells'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Relay a stream unchanged and judge it: complete, conforming, successful'
            cand strip 'The data plane without the framework (or, with --control, the control plane alone)'
            cand summary 'The outcome of a run: one line, a JSON object, or one field raw; exits with it'
            cand errors 'Errors and warnings out of AOI streams and real logs'
            cand filter 'Run a jq filter over the domain events; the framework stays right around it'
            cand merge-report 'Many runs, one verdict: a report per stream, totals, and the worst outcome'
            cand capabilities 'What aoi can do, as one JSON object (§ 17): commands, outputs, schemas, exit codes'
            cand input-schema 'The input schema of a command that reads JSON Lines (§ 12)'
            cand schema 'JSON Schema 2020-12 for every event aoi emits (§ 10)'
            cand lint 'Check a tool against the conformance checks of § 18, per factor and per command'
            cand rules 'List the rule catalog: ids, severity, spec section, what each requires'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aoi;check'= {
            cand --files-from 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi check --output jsonl --files-from -`). An empty or unreadable list is 66'
            cand --output 'Write a report (an AOI stream of violation, advisory and stream events) to stdout instead of relaying'
            cand --report 'Also write the report to FILE while relaying'
            cand --show 'Findings shown on stderr per stream'
            cand --max-per-rule 'Findings of one rule reported per stream (the rest are counted)'
            cand --idle-timeout 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). Off by default'
            cand --threads 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi check judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB is read in its turn when the relay copies it to stdout); the output is one thread''s, byte for byte'
            cand --schema 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id'
            cand -q 'Print nothing on stderr; the exit status still tells'
            cand --quiet 'Print nothing on stderr; the exit status still tells'
            cand --no-relay 'Do not relay the input to stdout (verdict only)'
            cand --unbounded 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
            cand --fail-on-partial 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;strip'= {
            cand --files-from 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi strip --files-from - > events.jsonl`). An empty or unreadable list is 66'
            cand --max-runs 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)'
            cand --show 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed'
            cand --idle-timeout 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default'
            cand --threads 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi strip judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte'
            cand --schema 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id'
            cand --keep-envelope 'Keep the `aoi` member on domain events'
            cand --control 'Keep only the control plane: every aoi:* event, exactly as it came'
            cand --no-fail 'Exit 0 whatever the upstream verdict (usage and I/O errors still fail)'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -v 'Print the verdict line on stderr on success too'
            cand --verbose 'Print the verdict line on stderr on success too'
            cand --log 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
            cand --unbounded 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
            cand --fail-on-partial 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;summary'= {
            cand --files-from 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi summary --files-from -`). An empty or unreadable list is 66'
            cand --output 'Output format instead of the readable line'
            cand --field 'Print one field of the outcome object raw (e.g. outcome, exit_code, retry_after_ms, tool, run): strings unquoted, others as JSON. A field absent from this outcome (retry_after_ms of a run that succeeded) prints nothing, not even a line feed; the exit status is the outcome''s either way. A name that is no field of the object is a usage error (64)'
            cand --max-runs 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)'
            cand --show 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed'
            cand --idle-timeout 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default'
            cand --threads 'Threads for reading an input: one reads and validates lines, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi summary judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte'
            cand --schema 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id'
            cand -q 'Print nothing on stderr; stdout (the line, the object, the field) is the same'
            cand --quiet 'Print nothing on stderr; stdout (the line, the object, the field) is the same'
            cand --log 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
            cand --unbounded 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
            cand --fail-on-partial 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;errors'= {
            cand --files-from 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi errors --count --files-from -`). An empty or unreadable list is 66'
            cand --category 'Only these categories (repeat or separate with commas): the 15 of § 9.2'
            cand --code 'Only these codes (repeat or separate with commas)'
            cand --scope 'Only errors of this scope (an absent scope is process, § 9.1)'
            cand --run 'With --log (without it an input is one stream, not runs to choose from): only the runs RUN names, an aoi.run that starts with RUN or ends with it (tables, reports and verdict lines show a run by its last 8 characters). Naming no run of the inputs: exit 66, with the runs that are there'
            cand --output 'Output format (default: table on a terminal, raw otherwise)'
            cand --color 'Colour the table by category'
            cand --max-runs 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)'
            cand --show 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed'
            cand --idle-timeout 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default'
            cand --threads 'Threads for reading an input: one reads and validates lines and finds each line''s event, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi errors judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte'
            cand --schema 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id'
            cand -w 'Also extract aoi:warning events'
            cand --warnings 'Also extract aoi:warning events'
            cand --retryable 'Only errors whose retry may help (retryable:true; § 9.3: the field is authoritative)'
            cand --not-retryable 'Only errors that retry will not fix (retryable:false)'
            cand -c 'Print only the number of matching events'
            cand --count 'Print only the number of matching events'
            cand --no-fail 'Exit 0 whatever the streams'' verdicts, an input without any AOI stream included (usage errors and unreadable inputs, 66, still fail)'
            cand --continue-on-error 'With --output jsonl: upstream aoi:error events do not make the run fail. Without it, aoi''s stream accounts for them as any AOI producer must (§ 13.1): ok:false, exit 75 when the most severe is retryable, else 1, and caused_by reproducing it'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand --log 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
            cand --unbounded 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
            cand --fail-on-partial 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;filter'= {
            cand --files-from 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi filter ''select(.rank <= 3)'' --files-from -`). An empty or unreadable list is 66'
            cand --output 'Output format: jsonl, the only one (accepted for the `--output jsonl` convention, § 16.1)'
            cand --indent 'As jq --indent N: results printed indented, N spaces per level (0 to 7; 0 is compact)'
            cand -f 'As jq -f: read the filter from FILE; every positional argument is then an input'
            cand --from-file 'As jq -f: read the filter from FILE; every positional argument is then an input'
            cand -L 'As jq -L: search DIR for the modules `import` and `include` name (repeatable)'
            cand --arg 'Bind $NAME to the string VALUE'
            cand --rawfile 'Bind $NAME to the text of FILE, as a string'
            cand --slurpfile 'Bind $NAME to an array of the JSON values in FILE'
            cand --argjson 'Bind $NAME to the JSON value TEXT'
            cand --max-line-bytes 'Longest event the filter holds in memory (K, M, G suffixes). A longer event is the filter''s own item error (INPUT_TOO_LONG; with --raw, exit 65), not a fault of the stream, which is judged at any line length'
            cand --idle-timeout 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). Off by default'
            cand --threads 'Threads for reading an input: one reads and judges lines and the others run the program on chunks of events in turn, with the same results as one thread (`.` and a plain path such as `.title`, written from the line''s own bytes, keep two threads: one reads and validates lines, one judges them and runs the program). 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: three at most run the program) two from the start on any input. Given several regular files, aoi filter judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn; --raw reads in turn when the program uses input/inputs, or with -n or -s); the output is one thread''s, byte for byte'
            cand --schema 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id'
            cand --framework 'Run the filter on framework (aoi:*) events too; their results are domain events'
            cand --continue-on-error 'Filter errors and upstream aoi:error events do not make the run fail (§ 13)'
            cand --raw 'Plain jq over any JSON Lines input, NOT an AOI judge: the input is not judged (a stream that failed or ended without its summary exits 0), no framing, output as `jq -c` prints it. For input that is not an AOI stream; without it every mode judges the stream as `aoi check`'
            cand -r 'As jq -r: print the results as jq does, strings without quotes, no framing. The stream is still judged as `aoi check` judges it: the exit status and stderr say the verdict (only --raw stops judging)'
            cand --raw-output 'As jq -r: print the results as jq does, strings without quotes, no framing. The stream is still judged as `aoi check` judges it: the exit status and stderr say the verdict (only --raw stops judging)'
            cand -j 'As jq -j: as -r, with no newline after each result. The stream is still judged as `aoi check` judges it (only --raw stops judging)'
            cand --join-output 'As jq -j: as -r, with no newline after each result. The stream is still judged as `aoi check` judges it (only --raw stops judging)'
            cand -n 'As jq -n: run the filter once on null; `input`/`inputs` read the stream''s domain events (framework events too with --framework). The rest of the stream is still read to its end and judged. Results printed as jq prints them'
            cand --null-input 'As jq -n: run the filter once on null; `input`/`inputs` read the stream''s domain events (framework events too with --framework). The rest of the stream is still read to its end and judged. Results printed as jq prints them'
            cand -s 'As jq -s: the stream''s domain events in one array (held in memory), the filter run once on it; the whole input is judged. Results printed as jq prints them'
            cand --slurp 'As jq -s: the stream''s domain events in one array (held in memory), the filter run once on it; the whole input is judged. Results printed as jq prints them'
            cand -c 'As jq -c: print the results as jq -c does, one per line, no framing; the stream is still judged as `aoi check` judges it (only --raw stops judging)'
            cand --compact-output 'As jq -c: print the results as jq -c does, one per line, no framing; the stream is still judged as `aoi check` judges it (only --raw stops judging)'
            cand -a 'As jq -a: characters past ASCII written as \uXXXX escapes'
            cand --ascii-output 'As jq -a: characters past ASCII written as \uXXXX escapes'
            cand -S 'As jq -S: the members of every object printed sorted by key'
            cand --sort-keys 'As jq -S: the members of every object printed sorted by key'
            cand --tab 'As jq --tab: results printed indented, a tab per level'
            cand --seq 'As jq --seq: each result preceded by an ASCII record separator (RFC 7464)'
            cand --raw-output0 'As jq --raw-output0: as -r, with a NUL after each result instead of a newline (a string holding NUL is an error)'
            cand -C 'As jq -C: colour the results, even off a terminal'
            cand --color-output 'As jq -C: colour the results, even off a terminal'
            cand -M 'As jq -M: no colour. Without -C or -M, results are coloured on a terminal only, and never where NO_COLOR is set'
            cand --monochrome-output 'As jq -M: no colour. Without -C or -M, results are coloured on a terminal only, and never where NO_COLOR is set'
            cand -e 'As jq -e: the exit status also says the last result: 1 when it was false or null, 4 when there was none. The stream''s verdict is kept: of the two, the more severe exit wins'
            cand --exit-status 'As jq -e: the exit status also says the last result: 1 when it was false or null, 4 when there was none. The stream''s verdict is kept: of the two, the more severe exit wins'
            cand --args 'As jq --args: the positional arguments after the filter are strings in $ARGS.positional, not inputs (the input is stdin)'
            cand --jsonargs 'As jq --jsonargs: the positional arguments after the filter are JSON values in $ARGS.positional, not inputs'
            cand -R 'As jq -R: each line of the input is a string, not JSON (with -s, the whole input is one string). With --raw only: an AOI stream is JSON'
            cand --raw-input 'As jq -R: each line of the input is a string, not JSON (with -s, the whole input is one string). With --raw only: an AOI stream is JSON'
            cand -q 'Print nothing on stderr but the filter''s own messages (debug, stderr)'
            cand --quiet 'Print nothing on stderr but the filter''s own messages (debug, stderr)'
            cand --unbounded 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
            cand --fail-on-partial 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;merge-report'= {
            cand --files-from 'Read more input names from LIST, one per line (`-`: stdin), after the FILEs: for more run files than a command line holds (`find runs -name ''*.jsonl'' | aoi merge-report --files-from -`). An empty or unreadable list is 66'
            cand --format 'Output format (default: table on a terminal, jsonl otherwise): jsonl, table, markdown, junit or tap; FORMAT=PATH writes it to PATH instead of stdout. Repeat it for several formats in one pass (`--format junit=aoi-junit.xml --format markdown=summary.md --format table`), each file byte for byte what that format alone writes (its times aside); at most one on stdout; one exit for the whole (73 when a PATH cannot be created)'
            cand --color 'Colour the table''s outcomes'
            cand --max-runs 'Runs open at once per input, a guard against a log of runs that never end (a run ends at its aoi:summary, and every run is judged however many there are); lines of runs past it are still read, but those runs are not judged, which is reported (exit 74)'
            cand --show 'Findings shown on stderr in all, as check''s --show: the failed runs'' findings and verdict lines until N findings are shown (a run without findings counts one), then one line with how many runs failed and where every run is listed'
            cand --idle-timeout 'End the stream with the timeout outcome (exit 124) when the input is silent this long (`500ms`, `30s`, `5m`, `1h`; a bare number is seconds); any line, aoi:heartbeat included, resets it (§ 4.2). In a log of interleaved runs, the runs still open time out. Off by default'
            cand --threads 'Threads for reading an input: one reads and validates lines and finds each line''s event, one judges them, with the same results as one thread. 0 (the default) uses two when two CPUs are available: for a regular file of 8 MiB or more, for a pipe once it has carried 8 MiB; not when lines average over 2 KiB, nor with --idle-timeout. 1 always one; 2 (or more: two is the most used) two from the start on any input. Given several regular files, aoi merge-report judges N files at once instead (0, or more than the CPUs: one per CPU), each on one thread (a file over 1 MiB whose output grows with it is read in its turn); the output is one thread''s, byte for byte'
            cand --schema 'Validate every event, domain and framework, against this JSON Schema (the tool''s own, `TOOL schema --output json`, § 10; draft 2020-12, or the draft its `$schema` names): an event that fails is a violation (65), one finding each with its JSON pointer, keyword and what it wanted. The file is read first: missing 66, not JSON or not a valid schema 64; a $ref to another document is not fetched (64) unless the file holds it under its $id'
            cand --no-fail 'Exit 0 whatever the streams'' verdicts, an input without any AOI stream included (usage errors and unreadable inputs, 66, still fail)'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand --log 'Read the inputs as logs: an event after a prefix (a BOM, a time stamp, `[worker-3]`, a CRI or Docker json-file record) is found, colour and CR are trimmed, prose and other lines are skipped, and both are counted and stated in the output; runs interleaved in one log are told apart by aoi.run and each is judged as `aoi check` judges a stream. Without it each input is one stream, judged exactly as `aoi check` judges it: a line that is no event is a violation (65)'
            cand --unbounded 'The stream is unbounded (watch, tail; § 4.2): EOF without aoi:summary is a clean end'
            cand --fail-on-partial 'Fail when the summary says partial:true (§ 4.1 lets a producer call partial success): exit 1, or 75 when the cause (an item error) says retry may help (§ 9.3)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;capabilities'= {
            cand --output 'Output format (JSON is the only one; accepted for the `--output json` convention, § 3)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;input-schema'= {
            cand --command 'The command whose input is described (one that reads JSON Lines)'
            cand --output 'Output format (JSON is the only one; accepted for the `--output json` convention)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;schema'= {
            cand --output 'Output format (JSON is the only one; accepted for the `--output json` convention, § 3)'
            cand --schema-version 'The schema version wanted: 1 or 1.0.0 (§ 10.1)'
            cand --name 'The schema wanted by name: aoi.toolkit.events (§ 10.1)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;lint'= {
            cand --tool 'The words that run the tool, when more than the first word of the invocation: `--tool ''python3 mytool.py''`. Without it, an interpreter (node, python3, ruby, sh, deno run, java -jar, …) and the script or module after it are the tool, as stderr says'
            cand --machine-flag 'The tool''s machine-mode flag, added to the invocation ("" for none). When the invocation fails with it and writes AOI without it (a wrapper that passes its arguments on), lint lints it without the flag and says so'
            cand --secret-flag 'The flag whose value the secret probe fills with a canary (check 9)'
            cand --stdin 'Feed FILE to the invocation''s stdin (default: none)'
            cand --timeout 'Time each probe may take (`500ms`, `10s`, `2m`; a bare number is seconds); a probe that takes longer is killed'
            cand --output 'Machine output: a conforming AOI stream of aoi:check events (one per check) and a summary'
            cand --color 'Colour in the table: auto (a terminal, NO_COLOR unset), always, never'
            cand --self 'Lint aoi itself: each of its commands that writes a stream, fed a known stream'
            cand --allow-side-effects 'Let lint run a command that changes state more than once: its probes (an unknown flag, a canary, signals, --limit, --schema-version), the command without its confirmation and with --dry-run (check 6), and, when it refuses before its stream, with --dry-run (or --confirm) to judge a stream. Without it such a command runs once, as given'
            cand --no-network 'Run the discovery probes without network (a new network namespace, `unshare -rn`)'
            cand -q 'Print nothing on stderr (the failing checks are otherwise named there in one line when the report is not a table on a terminal)'
            cand --quiet 'Print nothing on stderr (the failing checks are otherwise named there in one line when the report is not a table on a terminal)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;rules'= {
            cand --output 'Print the catalog as an AOI stream: aoi:meta, one `rule` event per rule (id, severity, spec, hint, doc), aoi:summary'
            cand --markdown 'Print the catalog as Markdown (the text of docs/rules.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aoi;help'= {
            cand check 'Relay a stream unchanged and judge it: complete, conforming, successful'
            cand strip 'The data plane without the framework (or, with --control, the control plane alone)'
            cand summary 'The outcome of a run: one line, a JSON object, or one field raw; exits with it'
            cand errors 'Errors and warnings out of AOI streams and real logs'
            cand filter 'Run a jq filter over the domain events; the framework stays right around it'
            cand merge-report 'Many runs, one verdict: a report per stream, totals, and the worst outcome'
            cand capabilities 'What aoi can do, as one JSON object (§ 17): commands, outputs, schemas, exit codes'
            cand input-schema 'The input schema of a command that reads JSON Lines (§ 12)'
            cand schema 'JSON Schema 2020-12 for every event aoi emits (§ 10)'
            cand lint 'Check a tool against the conformance checks of § 18, per factor and per command'
            cand rules 'List the rule catalog: ids, severity, spec section, what each requires'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aoi;help;check'= {
        }
        &'aoi;help;strip'= {
        }
        &'aoi;help;summary'= {
        }
        &'aoi;help;errors'= {
        }
        &'aoi;help;filter'= {
        }
        &'aoi;help;merge-report'= {
        }
        &'aoi;help;capabilities'= {
        }
        &'aoi;help;input-schema'= {
        }
        &'aoi;help;schema'= {
        }
        &'aoi;help;lint'= {
        }
        &'aoi;help;rules'= {
        }
        &'aoi;help;help'= {
        }
    ]
    $completions[$command]
}
