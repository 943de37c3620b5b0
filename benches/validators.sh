#!/usr/bin/env bash
# Per-line JSON validation speed, in memory: aoi's validator (its peek, and
# the peek plus every rule of `aoi check`) against the Rust JSON parsers a
# team would reach for to validate JSON Lines (serde_json, simd-json,
# sonic-rs) and, when g++ is here, simdjson (C++, the fastest published JSON
# parser: each line on its own, and its batch mode for JSON Lines,
# parse_many), on the generated mixes. No I/O is timed: this is the ceiling
# of one core for the work aoi does on every line.
#
#   benches/validators.sh                        # 100M of each mix, 7 rounds
#   SIZE=20M MIXES="domain unicode" benches/validators.sh
#   NATIVE=1 benches/validators.sh               # -C target-cpu=native for all
#
# The parsers live in benches/validators (a crate of its own, so that their
# dependencies never reach aoi's build); the first run downloads and builds
# them (about 2 minutes). MB/s is 10^6 bytes per second, the median of RUNS
# rounds (each round runs every parser once, a run being the median of three
# passes over the file);
# "x peek" is a parser's time divided by aoi's peek's.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

SIZE=${SIZE:-100M}
MIXES=${MIXES:-"domain control unicode long"}
RUNS=${RUNS:-7}
NATIVE=${NATIVE:-0}

die() {
    echo "validators.sh: $*" >&2
    exit 1
}

[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$RUNS'"

GEN=$(cargo bench --bench generate --no-run --message-format=json 2>/dev/null |
    grep '"name":"generate"' | grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4) ||
    true
[[ -x $GEN ]] || die "building the generator (cargo bench --bench generate --no-run) failed"

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target/validators}
flags=()
if [[ $NATIVE == 1 ]]; then
    export RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native"
    flags=(native)
fi
echo "Building benches/validators (release)..." >&2
cargo build --release --manifest-path benches/validators/Cargo.toml >&2 ||
    die "building benches/validators failed"
BENCH=$CARGO_TARGET_DIR/release/aoi-validators-bench
[[ -x $BENCH ]] || die "no $BENCH after the build"

# simdjson (C++), the fastest published JSON parser, when g++ is here: its
# sources come from crates.io (the simdjson-sys crate ships them; see
# benches/simdjson/Cargo.toml), compiled once per set of flags with
# benches/simdjson/bench.cpp.
SIMDJSON=$CARGO_TARGET_DIR/simdjson-bench
[[ $NATIVE == 1 ]] && SIMDJSON+=-native
SIMDJSON_NOTE=""
if ! command -v g++ >/dev/null; then
    SIMDJSON_NOTE="simdjson skipped: no g++ here"
    SIMDJSON=""
elif [[ ! -x $SIMDJSON || benches/simdjson/bench.cpp -nt $SIMDJSON || benches/simdjson/Cargo.lock -nt $SIMDJSON ]]; then
    echo "Building simdjson (g++, about a minute)..." >&2
    cxxflags=(-O3 -std=c++17)
    [[ $NATIVE == 1 ]] && cxxflags+=(-march=native)
    mkdir -p "$CARGO_TARGET_DIR"
    if inc=$(benches/simdjson/sources.sh) &&
        g++ "${cxxflags[@]}" -I"$inc" benches/simdjson/bench.cpp "$inc/simdjson.cpp" -o "$SIMDJSON" >&2; then
        :
    else
        SIMDJSON_NOTE="simdjson skipped: its sources could not be fetched or compiled"
        SIMDJSON=""
    fi
fi
if [[ -n $SIMDJSON ]]; then
    if version=$("$SIMDJSON" version) && kernel=$("$SIMDJSON" kernel); then
        SIMDJSON_NOTE="simdjson $version, kernel $kernel chosen at run time"
    else
        SIMDJSON_NOTE="simdjson skipped: $SIMDJSON does not run here"
        SIMDJSON=""
    fi
fi

DATA=$(mktemp -d "${TMPDIR:-/tmp}/aoi-validators.XXXXXX")
trap 'rm -rf "$DATA"' EXIT

PARSERS=(split aoi-peek aoi-judge serde_json simd-json sonic-rs)
[[ -n $SIMDJSON ]] && PARSERS+=(simdjson-line simdjson-many)
echo
echo "Per-line validation in memory, $SIZE per mix, median of $RUNS rounds${flags:+, target-cpu=native}: MB/s (x aoi's peek time)"
echo "($SIMDJSON_NOTE)"
echo
printf '| mix |'
printf ' %s |' "${PARSERS[@]}"
printf '\n|---|'
printf -- '---:|%.0s' "${PARSERS[@]}"
printf '\n'
for mix in $MIXES; do
    file=$DATA/$mix.jsonl
    "$GEN" --out "$file" --size "$SIZE" --mix "$mix" --seed 1 2>/dev/null ||
        die "generating $mix failed"
    # ROUNDS rounds of every parser in turn (noise hits all alike); each
    # run is the median of 3 passes; the table has the median of the rounds.
    declare -A runs=()
    lines=""
    for ((round = 0; round < RUNS; round++)); do
        for p in "${PARSERS[@]}"; do
            if [[ $p == simdjson-* ]]; then
                read -r _ rate valid < <("$SIMDJSON" "${p#simdjson-}" "$file" 3) || die "$p on $mix failed"
            else
                read -r _ rate valid < <("$BENCH" "$p" "$file" 3) || die "$p on $mix failed"
            fi
            runs[$p]+="$rate "
            # Every parser accepts every generated line (they are valid JSON).
            if [[ $p == aoi-peek ]]; then
                lines=$valid
            elif [[ $p != split && $p != aoi-judge && $valid != "$lines" ]]; then
                die "$p accepted $valid lines of $mix, aoi's peek $lines"
            fi
        done
    done
    declare -A mbs=()
    for p in "${PARSERS[@]}"; do
        mbs[$p]=$(tr ' ' '\n' <<<"${runs[$p]}" | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    done
    printf '| %s |' "$mix"
    for p in "${PARSERS[@]}"; do
        if [[ $p == split || $p == aoi-peek ]]; then
            printf ' %s |' "${mbs[$p]}"
        else
            printf ' %s (%s) |' "${mbs[$p]}" "$(awk -v a="${mbs[aoi-peek]}" -v b="${mbs[$p]}" 'BEGIN { printf "%.2f", a / b }')"
        fi
    done
    printf '\n'
    rm -f "$file"
done
