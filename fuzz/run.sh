#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600) each, two at a time,
# seeded with the example streams, and prints libFuzzer's final line per
# target (executions, coverage). Crashes land in fuzz/artifacts/TARGET/;
# copy each into tests/fuzz_regressions/ with a name that says what it was.
#
#   fuzz/run.sh            # 10 minutes per target
#   SECONDS_PER=60 fuzz/run.sh
set -euo pipefail
cd "$(dirname "$0")"
PER=${SECONDS_PER:-600}
cargo +nightly fuzz build -O >&2
for t in peek judge strip filter_json; do
    mkdir -p "corpus/$t"
    for f in ../examples/*.jsonl ../examples/*.log; do
        if [[ $t == peek || $t == filter_json ]]; then
            # One line per seed.
            split -l 1 -a 4 "$f" "corpus/$t/$(basename "$f")-"
        else
            cp "$f" "corpus/$t/"
        fi
    done
done
run() {
    cargo +nightly fuzz run -O "$1" "corpus/$1" -- -max_total_time="$PER" -max_len=8192 \
        -print_final_stats=1 >"log-$1.txt" 2>&1 || true
    echo "$1: $(grep -E '^Done|stat::number_of_executed_units|stat::peak_rss' "log-$1.txt" | tr '\n' ' ')"
    grep -E 'panicked|SUMMARY' "log-$1.txt" | head -3 || true
}
run peek & run judge & wait
run strip & run filter_json & wait
