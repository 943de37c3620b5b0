#!/usr/bin/env bash
# A log of many short runs, interleaved, read by the log reader.
# Writes N two-line runs (aoi:meta, aoi:summary) with W runs open at once
# (run i's meta, then run i-W's summary), and measures merge-report,
# errors and summary over it: seconds and peak RSS (GNU time).
#
#   benches/many-runs.sh [N] [W]      # defaults: 10000000 100
#
# Needs ~150 bytes of /tmp per line (3 GB for 10 million runs).
set -euo pipefail
N=${1:-10000000}
W=${2:-100}
AOI=${AOI:-target/release/aoi}
LOG=${TMPDIR:-/tmp}/aoi-many-runs-$N-$W.log
[ -x "$AOI" ] || cargo build --release -q
if [ ! -s "$LOG" ]; then
  awk -v n="$N" -v w="$W" 'BEGIN {
    meta = "{\"type\":\"aoi:meta\",\"aoi\":{\"seq\":0,\"run\":\"R%09d\"},\"tool\":\"t\",\"tool_version\":\"1\",\"aoi_version\":\"1.0-alpha\",\"schema_name\":\"x.y\",\"schema_version\":\"1\"}\n"
    summ = "{\"type\":\"aoi:summary\",\"aoi\":{\"seq\":1,\"run\":\"R%09d\"},\"ok\":true,\"count\":0,\"warning_count\":0,\"error_count\":0,\"event_count\":2,\"tool\":\"t\",\"tool_version\":\"1\",\"schema_name\":\"x.y\",\"schema_version\":\"1\"}\n"
    for (i = 0; i < n + w; i++) {
      if (i < n) printf meta, i
      if (i >= w) printf summ, i - w
    }
  }' > "$LOG"
fi
echo "log: $N runs, $W open at once, $(stat -c %s "$LOG") bytes"
measure() {
  local label=$1; shift
  # The report goes through a pipe to its last line (writing gigabytes of
  # it to disk would time the disk).
  { /usr/bin/time -f "%e %M" -o /tmp/aoi-many-runs.time "$@" < "$LOG" 2>/tmp/aoi-many-runs.err || true; } | tail -c 400 > /tmp/aoi-many-runs.out
  read -r secs kib < /tmp/aoi-many-runs.time
  printf '%-40s %8s s %8s MiB  exit-line: %s\n' "$label" "$secs" "$((kib / 1024))" "$(tail -c 200 /tmp/aoi-many-runs.out | tail -1 | cut -c1-60)"
}
measure "merge-report --log --format jsonl" "$AOI" merge-report --log --format jsonl
measure "errors --log --count" "$AOI" errors --log --count
measure "summary --log --output jsonl" "$AOI" summary --log --output jsonl
