#!/usr/bin/env bash
# Throughput and memory of `aoi check`, `strip`, `summary`, `errors` and `filter` against floors (cat, wc) and peers (jq, jaq, grep).
#
#   benches/compare.sh                          # 10M and 200M, every mix, 5 runs
#   SIZES="1M 100M 1G" MIXES="domain long" RUNS=7 benches/compare.sh
#   MIXES=messy SIZES=100M benches/compare.sh   # a CI log: errors and merge-report
#   MIXES=runs SIZES=100M NO_FILTER=1 benches/compare.sh  # eight runs in one log
#   KEEP=1 benches/compare.sh                   # keep the generated data
#   INSTR=1 SIZES= benches/compare.sh           # only instructions per byte (callgrind)
#   MERGE=1 SIZES= benches/compare.sh           # only merge-report over 100 files of 10 MB
#
# Environment:
#   SIZES  sizes to generate (K/M/G suffixes), default "10M 200M"
#   MIXES  generator mixes, default "domain control long unicode messy runs" (messy: a log
#          of interleaved runs, prose and decorated lines; runs: eight whole runs one after
#          another; both timed with the log readers, errors and merge-report)
#   RUNS   timed runs per command, default 5 (the median is reported)
#   SEED   generator seed, default 1
#   KEEP   1 keeps the data directory (its path is printed)
#   INSTR  1 also runs callgrind on `aoi check -q --no-relay` over a 5M domain file (seed 1)
#   MERGE  1 also times `aoi merge-report` over MERGE_FILES files of MERGE_SIZE (default
#          100 x 10M, seeds 1..N), against `cat` of the same files, with peak RSS
#   NO_PEERS 1 times aoi and the floors only (for 1G sizes: jq takes minutes there)
#   NO_FILTER 1 leaves out the aoi filter rows and their peers
#   STARTUP 0 skips the start-up table (N=200 launches of aoi check on an empty stream)
#   TMPDIR where the data directory is created
#
# Method: every file is generated once, then read once by every command untimed
# (warm-up: the page cache holds the file, and the peak RSS is measured then, with
# GNU time around each program of the command). Then RUNS rounds run every
# command once each, round-robin, so background noise hits all commands alike.
# Wall time comes from $EPOCHREALTIME (microseconds) around the command, which
# runs in a forked child of this shell (no extra shell start-up is timed).
# MB/s is 10^6 bytes per second. "vs wc -l" is the command's time divided by
# `wc -l FILE`'s; "vs jq" is jq's time divided by the command's (the speedup).

set -euo pipefail
export LC_ALL=C

SIZES=${SIZES-"10M 200M"}
MIXES=${MIXES-"domain control long unicode messy runs"}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
KEEP=${KEEP:-0}
INSTR=${INSTR:-0}
MERGE=${MERGE:-0}
MERGE_FILES=${MERGE_FILES:-100}
MERGE_SIZE=${MERGE_SIZE:-10M}
STARTUP=${STARTUP:-1}
NO_PEERS=${NO_PEERS:-0}
NO_FILTER=${NO_FILTER:-0}

cd "$(dirname "$0")/.."

die() {
    echo "compare.sh: $*" >&2
    exit 1
}

[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$RUNS'"

# --- tools --------------------------------------------------------------------

# A GNU-compatible time(1) (-f/-o) for the peak RSS, if there is one.
TIME_BIN=
for t in /usr/bin/time "$(type -P time || true)"; do
    if [[ -n $t && -x $t ]] && "$t" -f '%e %M' -o /dev/null true 2>/dev/null; then
        TIME_BIN=$t
        break
    fi
done

# Wall clock: $EPOCHREALTIME (bash >= 5), else the `time` keyword with TIMEFORMAT.
if [[ -n ${EPOCHREALTIME-} ]]; then
    CLOCK=epochrealtime
else
    CLOCK=timeformat
fi

echo "Building (cargo build --release, generator)..." >&2
AOI=$(cargo build --release --message-format=json 2>/dev/null |
    grep '"name":"aoi"' | grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4) ||
    true
[[ -n $AOI && -x $AOI ]] || {
    cargo build --release >&2 || true
    die "cargo build --release failed"
}
GEN=$(cargo bench --bench generate --no-run --message-format=json 2>/dev/null |
    grep '"name":"generate"' | grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4) ||
    true
[[ -n $GEN && -x $GEN ]] || {
    cargo bench --bench generate --no-run >&2 || true
    die "building the generator (cargo bench --bench generate --no-run) failed"
}

DATA=$(mktemp -d "${TMPDIR:-/tmp}/aoi-bench.XXXXXX")
if [[ $KEEP == 1 ]]; then
    trap 'echo "compare.sh: data kept in $DATA" >&2' EXIT
else
    trap 'rm -rf "$DATA"' EXIT
fi

# Private copies: a `cargo build` elsewhere during the run must not swap the
# binary between two tables.
cp "$AOI" "$DATA/aoi"
cp "$GEN" "$DATA/generate"
AOI=$DATA/aoi
GEN=$DATA/generate

# --- machine ------------------------------------------------------------------

cpu=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
mem=$(awk '/^MemTotal:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null || true)
echo "# aoi check benchmark"
echo
echo "- machine: $(nproc) CPU(s), ${cpu:-unknown CPU}, ${mem:-unknown} RAM, Linux $(uname -r) ($(uname -m))"
rev=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
git diff --quiet HEAD -- src Cargo.toml Cargo.lock 2>/dev/null || rev="$rev+dirty"
echo "- $("$AOI" --version) (tree $rev, binary sha256 $(sha256sum "$AOI" | cut -c1-12)), $(rustc --version 2>/dev/null || echo 'rustc ?')"
echo "- peers: $(command -v jq >/dev/null && jq --version || echo 'jq not installed'), $(command -v jaq >/dev/null && jaq --version || echo 'jaq not installed'), $(grep --version | head -1)"
echo "- runs: median of $RUNS, interleaved round-robin after one warm-up; clock: $CLOCK; peak RSS: ${TIME_BIN:-not measured (no GNU time)}"
echo "- MB/s is 10^6 bytes/s; \"vs wc -l\" is time ÷ wc -l's time; \"speedup vs jq\" is the time of the jq command doing the same job (check/summary: jq -e on the summary; strip: jq del; errors: jq select) ÷ aoi's; grep's count goes to a file (GNU grep stops at the first match when stdout is /dev/null)"
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo

# The spec's own pipeline check (§ 13.2).
JQ_PROG='select(.type=="aoi:summary") | .ok == true'
JQ_STRIP='select(.type|startswith("aoi:")|not) | del(.aoi)'
JQ_ERRORS='select(.type=="aoi:error")'
# The filters aoi filter is timed with (`.rank // 0`: not every event has a rank):
# the identity, a selection, a path and an object construction.
FILTERS=('.' 'select((.rank // 0) % 2 == 0)' '.title' '{id, title}')

# --- measuring ----------------------------------------------------------------

# A peer to time next to aoi: installed, and not switched off (NO_PEERS=1).
have() {
    [[ $NO_PEERS != 1 ]] && command -v "$1" >/dev/null
}

# Seconds (float) taken by `eval "$1"`; sets LAST_RC.
LAST_RC=0
time_once() {
    local cmd=$1 t0 t1
    if [[ $CLOCK == epochrealtime ]]; then
        t0=$EPOCHREALTIME
        if eval "$cmd"; then LAST_RC=0; else LAST_RC=$?; fi
        t1=$EPOCHREALTIME
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
    else
        local tf=$DATA/timeformat TIMEFORMAT=%3R
        { time { if eval "$cmd"; then LAST_RC=0; else LAST_RC=$?; fi; }; } 2>"$tf"
        tail -1 "$tf"
    fi
}

# Peak RSS in KiB of the largest program marked {T} in the template.
rss_once() {
    local tpl=$1 tf=$DATA/rss
    : >"$tf"
    local cmd=${tpl//\{T\}/$TIME_BIN -f %M -a -o $tf }
    if eval "$cmd"; then LAST_RC=0; else LAST_RC=$?; fi
    awk 'BEGIN { m = 0 } /^[0-9]+$/ && $1 > m { m = $1 } END { print m }' "$tf"
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# --- one file -----------------------------------------------------------------

bench_file() {
    local file=$1 label=$2
    local bytes lines f jqprog
    bytes=$(stat -c %s "$file")
    lines=$(wc -l <"$file")
    f=$(printf %q "$file")
    local a
    a=$(printf %q "$AOI")
    jqprog=$(printf %q "$JQ_PROG")

    # Parallel arrays: the label shown, the kind (floor, aoi, jq, peer), the
    # command template, in which {T} marks the programs whose peak RSS counts,
    # and for an aoi row the jq command that does the same job (its "vs jq").
    local -a names=() kinds=() tpls=() jobs=()
    add() {
        names+=("$1")
        kinds+=("$2")
        tpls+=("$3")
        jobs+=("${4-}")
    }
    add 'cat FILE > /dev/null' floor "{T}cat $f > /dev/null"
    add 'wc -l FILE' floor "{T}wc -l $f > /dev/null"
    add 'cat FILE | wc -l' floor "{T}cat $f | {T}wc -l > /dev/null"
    local skipped=()
    if [[ $label == messy* || $label == runs* ]]; then
        # A log, not a stream: what errors and merge-report are for. The
        # peers are what a user assembles instead: grep for a count (which
        # also counts prose that mentions aoi:error), and grep + jq for the
        # events (which misses Docker-wrapped events, and silently drops,
        # through `fromjson?`, lines that end in a CR or a colour code).
        # (With --threads 1 next to the default: what the second core brings.)
        add 'aoi errors -q --count FILE' aoi "{T}$a errors -q --no-fail --log --count $f > /dev/null" errors
        add 'aoi errors -q --count --threads 1 FILE' aoi "{T}$a errors -q --no-fail --log --count --threads 1 $f > /dev/null" errors
        add 'cat FILE | aoi errors -q --count' aoi "{T}cat $f | {T}$a errors -q --no-fail --log --count > /dev/null" errors
        add 'aoi errors -q FILE > /dev/null' aoi "{T}$a errors -q --no-fail --log --output raw $f > /dev/null" errors
        add 'aoi errors -q --output jsonl FILE > /dev/null' aoi "{T}$a errors -q --no-fail --log --output jsonl $f > /dev/null" errors
        add 'aoi errors -q --output jsonl --threads 1 FILE > /dev/null' aoi "{T}$a errors -q --no-fail --log --output jsonl --threads 1 $f > /dev/null" errors
        add 'cat FILE | aoi errors -q --output jsonl > /dev/null' aoi "{T}cat $f | {T}$a errors -q --no-fail --log --output jsonl > /dev/null" errors
        add 'aoi merge-report --format jsonl FILE > /dev/null' aoi "{T}$a merge-report -q --no-fail --log --format jsonl $f > /dev/null" errors
        add 'aoi merge-report --format jsonl --threads 1 FILE > /dev/null' aoi "{T}$a merge-report -q --no-fail --log --format jsonl --threads 1 $f > /dev/null" errors
        add 'aoi strip -q --log FILE > /dev/null' aoi "{T}$a strip -q --no-fail --log $f > /dev/null" strip
        add 'aoi summary -q --log FILE > /dev/null' aoi "{T}$a summary -q --log $f > /dev/null" check
        add 'grep -c aoi:error FILE' peer "{T}grep -c aoi:error $f > $(printf %q "$DATA/grep.out")"
        if ! have jq; then
            skipped+=(jq)
        elif [[ $label == runs* ]]; then
            # Lines as the tool wrote them: jq reads the log as it is.
            add "jq -c '$JQ_ERRORS' FILE" jq "{T}jq -c $(printf %q "$JQ_ERRORS") $f > /dev/null" errors
        else
            add "grep -o '{\"type\".*' FILE | jq -cR 'fromjson? | $JQ_ERRORS'" jq \
                "{T}grep -o '{\"type\".*' $f | {T}jq -cR $(printf %q "fromjson? | $JQ_ERRORS") > /dev/null" errors
        fi
    else
        add 'aoi check -q --no-relay FILE' aoi "{T}$a check -q --no-relay $f" check
        add 'aoi check -q --no-relay --threads 1 FILE' aoi "{T}$a check -q --no-relay --threads 1 $f" check
        add 'aoi check -q FILE > /dev/null' aoi "{T}$a check -q $f > /dev/null" check
        add 'cat FILE | aoi check -q > /dev/null' aoi "{T}cat $f | {T}$a check -q > /dev/null" check
        add 'aoi check -q FILE | cat > /dev/null' aoi "{T}$a check -q $f | {T}cat > /dev/null" check
        add 'aoi check --output jsonl FILE > /dev/null 2>&1' aoi "{T}$a check --output jsonl $f > /dev/null 2>&1" check
        add 'aoi strip -q FILE > /dev/null' aoi "{T}$a strip -q --no-fail $f > /dev/null" strip
        add 'cat FILE | aoi strip -q > /dev/null' aoi "{T}cat $f | {T}$a strip -q --no-fail > /dev/null" strip
        # The outcome line goes to stdout (-q or not): into /dev/null, not
        # into the captured timing.
        add 'aoi summary -q FILE' aoi "{T}$a summary -q $f > /dev/null" check
        add 'cat FILE | aoi summary -q' aoi "{T}cat $f | {T}$a summary -q > /dev/null" check
        add 'aoi errors -q FILE > /dev/null' aoi "{T}$a errors -q --no-fail --log --output raw $f > /dev/null" errors
        add 'aoi errors -q --count FILE' aoi "{T}$a errors -q --no-fail --log --count $f > /dev/null" errors
        add 'cat FILE | aoi errors -q --count' aoi "{T}cat $f | {T}$a errors -q --no-fail --log --count > /dev/null" errors
        add 'aoi errors -q --output jsonl FILE > /dev/null' aoi "{T}$a errors -q --no-fail --log --output jsonl $f > /dev/null" errors
        add 'cat FILE | aoi errors -q --output jsonl > /dev/null' aoi "{T}cat $f | {T}$a errors -q --no-fail --log --output jsonl > /dev/null" errors
        # The run's verdict as a report, against jq -e on its summary.
        add 'aoi merge-report --format jsonl FILE > /dev/null' aoi "{T}$a merge-report -q --no-fail --log --format jsonl $f > /dev/null" check
        # aoi filter against jaq and jq on the same filters (FILTERS).
        local fi=0 flt q
        [[ $NO_FILTER == 1 ]] || for flt in "${FILTERS[@]}"; do
            fi=$((fi + 1))
            q=$(printf %q "$flt")
            add "aoi filter '$flt' FILE" aoi "{T}$a filter -q --continue-on-error $q $f > /dev/null" "filter$fi"
            add "aoi filter --raw '$flt' FILE" aoi "{T}$a filter --raw $q $f > /dev/null" "filter$fi"
            have jaq && add "jaq -c '$flt' FILE" jaq "{T}jaq -c $q $f > /dev/null" "filter$fi"
            have jq && add "jq -c '$flt' FILE" jq "{T}jq -c $q $f > /dev/null" "filter$fi"
        done
        if have jq; then
            add "jq -e '$JQ_PROG' FILE" jq "{T}jq -e $jqprog $f > /dev/null" check
        else
            skipped+=(jq)
        fi
        if have jq; then
            # What a user writes instead of `aoi strip` (compare with that row).
            add "jq -c '$JQ_STRIP' FILE" jq "{T}jq -c $(printf %q "$JQ_STRIP") $f > /dev/null" strip
            # ... and instead of `aoi errors`.
            add "jq -c '$JQ_ERRORS' FILE" jq "{T}jq -c $(printf %q "$JQ_ERRORS") $f > /dev/null" errors
        fi
        if have jaq; then
            add "jaq -e '$JQ_PROG' FILE" jaq "{T}jaq -e $jqprog $f > /dev/null" check
        else
            skipped+=(jaq)
        fi
        # Not > /dev/null: GNU grep sees /dev/null and stops at the first match.
        add 'grep -c aoi: FILE' peer "{T}grep -c aoi: $f > $(printf %q "$DATA/grep.out")"
    fi

    local n=${#names[@]} i r
    local -a rss=() rcs=() times=()

    # Warm-up round: page cache, peak RSS, exit status.
    for ((i = 0; i < n; i++)); do
        if [[ -n $TIME_BIN ]]; then
            rss[i]=$(rss_once "${tpls[i]}")
            rcs[i]=$LAST_RC
        else
            rss[i]=
            time_once "${tpls[i]//\{T\}/}" >/dev/null
            rcs[i]=$LAST_RC
        fi
        times[i]=
    done

    # Timed rounds, round-robin. (LAST_RC is set in the $(...) subshell, so the
    # exit status is taken from the warm-up round.)
    for ((r = 0; r < RUNS; r++)); do
        for ((i = 0; i < n; i++)); do
            times[i]+="$(time_once "${tpls[i]//\{T\}/}") "
        done
    done

    local -a med=()
    for ((i = 0; i < n; i++)); do
        med[i]=$(tr ' ' '\n' <<<"${times[i]}" | grep . | median)
    done
    local wc_t=${med[1]}
    # jq's time for each job (check, strip, errors).
    local -A jq_of=() jaq_of=()
    for ((i = 0; i < n; i++)); do
        [[ ${kinds[i]} == jq ]] && jq_of[${jobs[i]}]=${med[i]}
        [[ ${kinds[i]} == jaq ]] && jaq_of[${jobs[i]}]=${med[i]}
    done

    echo "## $label: $(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }') ($bytes bytes, $lines lines)"
    echo
    echo "| command | median s | MB/s | peak RSS MiB | vs wc -l | speedup vs jq on the same job | vs jaq |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    for ((i = 0; i < n; i++)); do
        local name=${names[i]//|/\\|}
        [[ ${rcs[i]} == 0 ]] || name="$name (exit ${rcs[i]}!)"
        awk -v name="$name" -v t="${med[i]}" -v b="$bytes" -v rss="${rss[i]}" \
            -v wc="$wc_t" -v jq="${jq_of[${jobs[i]:-none}]-}" -v jaq="${jaq_of[${jobs[i]:-none}]-}" -v kind="${kinds[i]}" 'BEGIN {
            mbs = t > 0 ? sprintf("%.0f", b / 1e6 / t) : "inf"
            r = rss == "" ? "n/a" : sprintf("%.1f", rss / 1024)
            vw = t > 0 && wc > 0 ? sprintf("%.2fx", t / wc) : "-"
            vj = "-"
            if (kind == "aoi" && jq != "" && t > 0) vj = sprintf("%.1fx", jq / t)
            va = "-"
            if (kind == "aoi" && jaq != "" && t > 0) va = sprintf("%.2fx", jaq / t)
            printf "| `%s` | %.4f | %s | %s | %s | %s | %s |\n", name, t, mbs, r, vw, vj, va
        }'
    done
    echo
    if ((${#skipped[@]})); then
        echo "Skipped (not installed, or NO_PEERS=1): ${skipped[*]}."
        echo
    fi
}

# --- main ---------------------------------------------------------------------

for size in $SIZES; do
    for mix in $MIXES; do
        file=$DATA/$mix-$size-s$SEED.jsonl
        echo "Generating $mix $size..." >&2
        "$GEN" --out "$file" --size "$size" --mix "$mix" --seed "$SEED" 2>&1 | sed 's/^/  /' >&2
        if [[ $mix == messy || $mix == runs ]]; then
            verdict_cmd=(errors --log --count)
        else
            verdict_cmd=(check --no-relay)
        fi
        if ! verdict=$("$AOI" "${verdict_cmd[@]}" "$file" 2>&1); then
            die "generated $file does not pass aoi ${verdict_cmd[*]}: $verdict"
        fi
        bench_file "$file" "$mix $size"
    done
done

if [[ $STARTUP == 1 ]]; then
    # Agents call aoi thousands of times: the cost of one launch, median of
    # 200, against the launch of a program that does nothing.
    example=examples/search.jsonl
    echo "## Start-up: median of 200 launches"
    echo
    echo "| command | median ms |"
    echo "|---|---:|"
    a=$(printf %q "$AOI")
    startup_names=('/bin/true' 'aoi check -q < /dev/null' "aoi check -q < $example > /dev/null" "aoi summary -q < $example")
    startup_cmds=(/bin/true "$a check -q < /dev/null" "$a check -q < $example > /dev/null" "$a summary -q < $example")
    if command -v jq >/dev/null; then
        startup_names+=("jq -e '$JQ_PROG' < $example")
        startup_cmds+=("jq -e $(printf %q "$JQ_PROG") < $example > /dev/null")
    fi
    for ((j = 0; j < ${#startup_cmds[@]}; j++)); do
        ts=()
        for ((k = 0; k < 200; k++)); do
            ts+=("$(time_once "${startup_cmds[j]}")")
        done
        med=$(printf '%s\n' "${ts[@]}" | median)
        awk -v c="${startup_names[j]//|/\\|}" -v t="$med" 'BEGIN { printf "| `%s` | %.2f |\n", c, t * 1000 }'
    done
    echo
fi

if [[ $MERGE == 1 ]]; then
    mdir=$DATA/merge
    mkdir -p "$mdir"
    echo "Generating $MERGE_FILES x $MERGE_SIZE..." >&2
    for ((k = 1; k <= MERGE_FILES; k++)); do
        "$GEN" --out "$mdir/run-$k.jsonl" --size "$MERGE_SIZE" --mix domain --seed "$k" 2>/dev/null
    done
    total=$(cat "$mdir"/*.jsonl | wc -c)
    cat "$mdir"/*.jsonl >/dev/null
    declare -a mt=() ct=()
    mrss=
    [[ -n $TIME_BIN ]] && mrss=$(rss_once "{T}$(printf %q "$AOI") merge-report --format jsonl $(printf %q "$mdir")/*.jsonl > /dev/null")
    for ((r = 0; r < RUNS; r++)); do
        ct+=("$(time_once "cat $(printf %q "$mdir")/*.jsonl > /dev/null")")
        mt+=("$(time_once "$(printf %q "$AOI") merge-report --format jsonl $(printf %q "$mdir")/*.jsonl > /dev/null")")
    done
    cmed=$(printf '%s\n' "${ct[@]}" | median)
    mmed=$(printf '%s\n' "${mt[@]}" | median)
    echo "## merge-report: $MERGE_FILES files of $MERGE_SIZE (domain, seeds 1..$MERGE_FILES)"
    echo
    echo "| command | median s | MB/s | peak RSS MiB |"
    echo "|---|---:|---:|---:|"
    awk -v t="$cmed" -v b="$total" 'BEGIN { printf "| `cat FILES > /dev/null` | %.4f | %.0f | - |\n", t, b / 1e6 / t }'
    awk -v t="$mmed" -v b="$total" -v rss="$mrss" 'BEGIN {
        r = rss == "" ? "n/a" : sprintf("%.1f", rss / 1024)
        printf "| `aoi merge-report --format jsonl FILES` | %.4f | %.0f | %s |\n", t, b / 1e6 / t, r
    }'
    echo
fi

if [[ $INSTR == 1 ]]; then
    command -v valgrind >/dev/null || die "INSTR=1 needs valgrind"
    file=$DATA/instr-domain-5M-s1.jsonl
    tiny=$DATA/instr-domain-1K-s1.jsonl
    "$GEN" --out "$file" --size 5M --mix domain --seed 1 2>/dev/null
    "$GEN" --out "$tiny" --size 1K --mix domain --seed 1 2>/dev/null
    ir_of() {
        valgrind --tool=callgrind --callgrind-out-file="$DATA/callgrind.out" \
            "$AOI" check -q --no-relay "$1" 2>&1 >/dev/null |
            awk '/Collected :/ { print $NF }'
    }
    echo "Running callgrind..." >&2
    ir=$(ir_of "$file")
    ir0=$(ir_of "$tiny")
    [[ -n $ir && -n $ir0 ]] || die "callgrind did not report a total (Collected :)"
    bytes=$(stat -c %s "$file")
    bytes0=$(stat -c %s "$tiny")
    echo "## Instructions per byte (callgrind)"
    echo
    echo "\`aoi check -q --no-relay\` over a generated 5M \`domain\` file (seed 1):"
    echo
    awk -v ir="$ir" -v b="$bytes" -v ir0="$ir0" -v b0="$bytes0" 'BEGIN {
        printf "- total: %d Ir / %d bytes = **%.2f instructions per byte**\n", ir, b, ir / b
        printf "- start-up and exit (a %d-byte file): %d Ir\n", b0, ir0
        printf "- marginal (total minus start-up): %.2f instructions per byte\n", (ir - ir0) / (b - b0)
    }'
    echo
fi
