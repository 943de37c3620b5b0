#!/usr/bin/env bash
# Runs every fuzz target (`cargo fuzz list`) over the kept crashes of
# tests/fuzz_regressions, then for SECONDS_PER seconds (default 600) each,
# two at a time, seeded with the example streams and those crashes, and
# prints libFuzzer's final line per target
# (executions, coverage). Exits 1 if any target failed: its input lands in
# fuzz/artifacts/TARGET/ and its log in fuzz/log-TARGET.txt; copy the input
# into tests/fuzz_regressions/ with a name that says what it was. CI runs
# it for 60 s per target, so an oracle a design change outdated fails
# there, not in the hands of the next person who runs it.
#
#   fuzz/run.sh                 # 10 minutes per target
#   SECONDS_PER=60 fuzz/run.sh
set -euo pipefail
cd "$(dirname "$0")"
PER=${SECONDS_PER:-600}
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz/run.sh: cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
    exit 1
fi
# cargo-fuzz passes nightly's -Z flags. Without a nightly toolchain the
# stable compiler takes them under RUSTC_BOOTSTRAP=1 (its standard library
# ships the sanitizer runtime), so a machine with only stable fuzzes too.
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    fuzz=(cargo +nightly fuzz)
else
    echo "fuzz/run.sh: no nightly toolchain; stable under RUSTC_BOOTSTRAP=1" >&2
    export RUSTC_BOOTSTRAP=1
    fuzz=(cargo fuzz)
fi
"${fuzz[@]}" build -O >&2
mapfile -t targets < <("${fuzz[@]}" list)
# The kept crashes first, through every target: quick, and named.
for t in "${targets[@]}"; do
    if ! "${fuzz[@]}" run -O "$t" ../tests/fuzz_regressions -- -runs=0 >"log-$t.txt" 2>&1; then
        echo "fuzz/run.sh: $t fails on a kept input of tests/fuzz_regressions:" >&2
        grep -E -A3 'panicked|SUMMARY' "log-$t.txt" | head -20 >&2 || true
        exit 1
    fi
done
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    cp ../tests/fuzz_regressions/* "corpus/$t/"
    for f in ../examples/*.jsonl ../examples/*.log; do
        case $t in
            judge | strip) cp "$f" "corpus/$t/" ;;
            # One line per seed.
            *) split -l 1 -a 4 "$f" "corpus/$t/$(basename "$f")-" ;;
        esac
    done
done
# One target: its libFuzzer run, then a line of figures; 1 when it failed.
run() {
    local status=0
    "${fuzz[@]}" run -O "$1" "corpus/$1" -- -max_total_time="$PER" -max_len=8192 \
        -print_final_stats=1 >"log-$1.txt" 2>&1 || status=$?
    echo "$1: $(grep -E '^Done|stat::number_of_executed_units|stat::peak_rss' "log-$1.txt" | tr '\n' ' ')"
    if [ "$status" -ne 0 ]; then
        echo "$1: FAILED (exit $status); fuzz/log-$1.txt says:" >&2
        grep -E -A3 'panicked|SUMMARY|Test unit written' "log-$1.txt" | head -20 >&2 || true
        return 1
    fi
}
failed=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    pids=()
    for t in "${targets[@]:i:2}"; do
        run "$t" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do
        wait "$p" || failed=1
    done
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz/run.sh: a target failed; see above" >&2
    exit 1
fi
echo "fuzz/run.sh: ${#targets[@]} targets, ${PER} s each, no failure"
