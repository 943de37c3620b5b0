#!/usr/bin/env bash
# `aoi check --schema` against plain `aoi check` on the same stream, and
# against a user's alternative: a Python loop over the jsonschema-rs
# validator (PyPI `jsonschema-rs`, when it imports; otherwise said and
# skipped). The stream is realistic and discriminated (benches/schema/
# gen.py: aoi:meta, hit/file/progress events, aoi:summary) and the schema
# uses if/then, $ref, pattern, enum, minimum (benches/schema/events.json).
#
#   benches/schema.sh                 # 200000 events, 5 rounds
#   N=50000 RUNS=3 PYTHON=/tmp/venv/bin/python benches/schema.sh
#
# Times are medians, wall seconds (the speed a user sees: plain check
# and --schema on their default threads) and CPU seconds (user + sys,
# where GNU time is here); MB/s is 10^6 bytes per wall second.
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

# Each round runs plain check, check --schema and the Python loop once,
# in turn (interleaved: on a shared machine the neighbours' load falls on
# all three alike); each run's wall seconds and CPU seconds (user + sys,
# where GNU time is here) are kept, and the medians of RUNS rounds shown.
GNU_TIME=no
[[ -x /usr/bin/time ]] && /usr/bin/time -f %U true 2>/dev/null && GNU_TIME=yes
timed() { # name, command...: appends "wall cpu" to $tmp/name
    local name=$1 t0 t1
    shift
    if [[ $GNU_TIME == yes ]]; then
        /usr/bin/time -o "$tmp/time" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
        tail -1 "$tmp/time" | awk '{print $1, $2 + $3}' >>"$tmp/$name"
    else
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || true
        t1=$(date +%s.%N)
        echo "$(echo "$t1 - $t0" | bc) -" >>"$tmp/$name"
    fi
}
median() { # name, column (1 wall, 2 cpu)
    awk -v c="$2" '{print $c}' "$tmp/$1" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

"$AOI" check -q --no-relay --schema "$schema" "$stream" ||
    die "the generated stream does not pass its own schema"
have_py=no
"$PYTHON" -c 'import jsonschema_rs' 2>/dev/null && have_py=yes

for _ in $(seq "$RUNS"); do
    timed plain "$AOI" check -q --no-relay "$stream"
    timed schema "$AOI" check -q --no-relay --schema "$schema" "$stream"
    if [[ $have_py == yes ]]; then
        timed python "$PYTHON" benches/schema/py_loop.py "$schema" "$stream"
    fi
done

row() {
    local name=$1 file=$2 wall cpu
    wall=$(median "$file" 1)
    cpu=$(median "$file" 2)
    printf '%-36s %7.3f s %8.1f MB/s' "$name" "$wall" "$(echo "$bytes / $wall / 1000000" | bc -l)"
    if [[ $cpu == - ]]; then echo; else printf '   cpu %7.3f s\n' "$cpu"; fi
}
ratio() { # what, numerator file, denominator file, column
    printf '%-36s %7.2f' "$1" "$(echo "$(median "$2" "$4") / $(median "$3" "$4")" | bc -l)"
}
echo "stream: $N events, $bytes bytes; $(nproc) CPUs; medians of $RUNS interleaved rounds"
echo "(wall seconds and MB/s; cpu: user + sys seconds)"
row "aoi check" plain
row "aoi check --schema" schema
ratio "speed of --schema / plain (wall)" plain schema 1
echo "   (the issue asks >= 0.25)"
if [[ $GNU_TIME == yes ]]; then
    ratio "speed of --schema / plain (cpu)" plain schema 2
    echo
fi
if [[ $have_py == yes ]]; then
    row "python loop over jsonschema-rs" python
    ratio "aoi check --schema faster by (wall)" python schema 1
    echo
else
    echo "python loop over jsonschema-rs: skipped ($PYTHON cannot import jsonschema_rs: pip install jsonschema-rs)"
fi
