#!/usr/bin/env bash
# `aoi check --schema` against plain `aoi check` on the same stream, and
# against a user's alternative: a Python loop over the jsonschema-rs
# validator (PyPI `jsonschema-rs`, when it imports; otherwise said and
# skipped). The stream is realistic and discriminated (benches/schema/
# gen.py: aoi:meta, hit/file/progress events, aoi:summary) and the schema
# uses if/then, $ref, pattern, enum, minimum (benches/schema/events.json).
#
#   benches/schema.sh                 # 200000 events, median of 5 runs each
#   N=50000 RUNS=3 PYTHON=/tmp/venv/bin/python benches/schema.sh
#
# Times are the median's seconds (CPU where GNU time is here, else wall),
# MB/s is 10^6 bytes per second of them.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

N=${N:-200000}
RUNS=${RUNS:-5}
PYTHON=${PYTHON:-python3}
AOI=${AOI:-target/release/aoi}

die() {
    echo "schema.sh: $*" >&2
    exit 1
}
[[ $N =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer, not '$N'"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$RUNS'"
if [[ ! -x $AOI ]]; then
    echo "Building aoi (release)..." >&2
    cargo build --release >&2 || die "cargo build --release failed"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stream=$tmp/stream.jsonl
python3 benches/schema/gen.py "$N" >"$stream"
schema=benches/schema/events.json
bytes=$(wc -c <"$stream")

# The median of RUNS runs of "$@" (stdout discarded): CPU seconds (user +
# sys, GNU time) where /usr/bin/time is there, since on a shared machine
# wall time measures the neighbours; wall seconds otherwise.
CLOCK=wall
[[ -x /usr/bin/time ]] && /usr/bin/time -f %U true 2>/dev/null && CLOCK=cpu
median() {
    local times=() t0 t1
    for _ in $(seq "$RUNS"); do
        if [[ $CLOCK == cpu ]]; then
            /usr/bin/time -o "$tmp/time" -f '%U %S' "$@" >/dev/null 2>&1 || true
            times+=("$(tail -1 "$tmp/time" | awk '{print $1 + $2}')")
        else
            t0=$(date +%s.%N)
            "$@" >/dev/null 2>&1 || true
            t1=$(date +%s.%N)
            times+=("$(echo "$t1 - $t0" | bc)")
        fi
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

"$AOI" check -q --no-relay --schema "$schema" "$stream" ||
    die "the generated stream does not pass its own schema"

row() {
    local name=$1 t=$2
    printf '%-42s %8.3f s %9.1f MB/s\n' "$name" "$t" "$(echo "$bytes / $t / 1000000" | bc -l)"
}
echo "stream: $N events, $bytes bytes; median of $RUNS runs, $CLOCK seconds"
plain=$(median "$AOI" check -q --no-relay "$stream")
row "aoi check" "$plain"
with=$(median "$AOI" check -q --no-relay --schema "$schema" "$stream")
row "aoi check --schema" "$with"
printf '%-42s %8.2f (the issue asks >= 0.25)\n' "speed of --schema / plain check" "$(echo "$plain / $with" | bc -l)"
if "$PYTHON" -c 'import jsonschema_rs' 2>/dev/null; then
    py=$(median "$PYTHON" benches/schema/py_loop.py "$schema" "$stream")
    row "python loop over jsonschema-rs" "$py"
    printf '%-42s %8.2f\n' "aoi check --schema is faster by" "$(echo "$py / $with" | bc -l)"
else
    echo "python loop over jsonschema-rs: skipped ($PYTHON cannot import jsonschema_rs: pip install jsonschema-rs)"
fi
