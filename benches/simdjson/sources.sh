#!/usr/bin/env bash
# Prints the directory of simdjson's single-header sources (simdjson.h and
# simdjson.cpp), downloading them from crates.io first: the simdjson-sys
# crate ships them (see Cargo.toml here). Exits 1 with a message when they
# cannot be had. Used by benches/validators.sh and .ci/run.
set -euo pipefail
cd "$(dirname "$0")"
host=$(rustc -vV | sed -n 's/^host: //p')
if ! cargo fetch --quiet --locked --target "$host" --manifest-path Cargo.toml >&2; then
    echo "benches/simdjson/sources.sh: cargo fetch failed" >&2
    exit 1
fi
src=$(cargo metadata --locked --format-version 1 --manifest-path Cargo.toml |
    grep -m1 -o '"manifest_path":"[^"]*simdjson-sys-[^"]*"' | cut -d'"' -f4) || src=""
inc=${src%/Cargo.toml}/simdjson/singleheader
if [[ -z $src || ! -f $inc/simdjson.h || ! -f $inc/simdjson.cpp ]]; then
    echo "benches/simdjson/sources.sh: simdjson's sources (simdjson-sys) were not found after cargo fetch" >&2
    exit 1
fi
echo "$inc"
