#!/usr/bin/env bash
# Many run files judged at once (--threads). Writes N small run
# files (four lines each: aoi:meta, two domain events, aoi:summary) in 100
# directories and L large ones (one run of E events each), then times
# check, errors, summary, strip (plain and --log), filter (framed and --raw) and merge-report over each set on one
# and on two threads: best of R, runs per second, peak RSS (GNU time).
#
#   benches/many-files.sh [N] [L] [E] [R]    # defaults: 100000 4 400000 3
#
# Needs about 500 bytes of /tmp per small file and 60 bytes per large-file event.
set -euo pipefail
N=${1:-100000}
L=${2:-4}
E=${3:-400000}
R=${4:-3}
AOI=$(realpath "${AOI:-target/release/aoi}")
DIR=${TMPDIR:-/tmp}/aoi-many-files-$N-$L-$E
[ -x "$AOI" ] || { cargo build --release -q && AOI=$(realpath target/release/aoi); }
[ -x /usr/bin/time ] || { echo "many-files.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }

# One run's lines; %s is the run id, %d the domain events.
META='{"type":"aoi:meta","aoi":{"seq":0,"run":"%s"},"tool":"t","tool_version":"1","aoi_version":"1.0-alpha","schema_name":"x.y","schema_version":"1"}\n'
HIT='{"type":"hit","aoi":{"seq":%d,"run":"%s"},"path":"src/lib.rs","line":%d}\n'
SUMM='{"type":"aoi:summary","aoi":{"seq":%d,"run":"%s"},"ok":true,"count":%d,"warning_count":0,"error_count":0,"event_count":%d,"tool":"t","tool_version":"1","schema_name":"x.y","schema_version":"1"}\n'

# Paths relative to $DIR; every command reads them from a list
# (--files-from), as 100,000 of them do not fit on a command line.
mkdir -p "$DIR"
cd "$DIR"
if [ ! -s small.list ]; then
  mkdir -p small large
  awk -v n="$N" -v dir="small" -v meta="$META" -v hit="$HIT" -v summ="$SUMM" 'BEGIN {
    for (i = 0; i < n; i++) {
      d = sprintf("%s/%02d", dir, i % 100)
      if (i < 100) system("mkdir -p " d)
      f = sprintf("%s/%07d", d, i)
      run = sprintf("R%09d", i)
      printf meta, run > f
      printf hit, 1, run, 1 > f
      printf hit, 2, run, 2 > f
      printf summ, 3, run, 2, 4 > f
      close(f)
      print f > "small.list"
    }
  }'
  for ((l = 0; l < L; l++)); do
    awk -v e="$E" -v run="L$l" -v meta="$META" -v hit="$HIT" -v summ="$SUMM" 'BEGIN {
      printf meta, run
      for (i = 1; i <= e; i++) printf hit, i, run, i
      printf summ, e + 1, run, e, e + 2
    }' > "large/run-$l.jsonl"
  done
  ls large/*.jsonl > large.list
fi
echo "small: $N run files, $(du -sh small | cut -f1); large: $L run files of $E events, $(du -ch large/*.jsonl | tail -1 | cut -f1)"

# Best wall time of R runs, and the peak RSS of that run: "secs kib".
best() {
  local best_s="" best_k=""
  for ((r = 0; r < R; r++)); do
    /usr/bin/time -f "%e %M" -o time "$@" > /dev/null 2>err || true
    read -r s k < time
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s=$s best_k=$k
    fi
  done
  echo "$best_s $best_k"
}

printf '| %-34s | %-6s | %13s | %13s | %-18s | %-15s |\n' command input "--threads 1" "--threads 2" "runs/s, 1 -> 2" "peak RSS 1 / 2"
printf '|%s|%s|%s|%s|%s|%s|\n' "---" "---" "---:" "---:" "---:" "---:"
for set in small large; do
  if [ "$set" = small ]; then runs=$N; else runs=$L; fi
  args=(--files-from "$set.list")
  for cmd in "check --no-relay -q" "check" "errors --count" "summary -q" "strip -q" "strip --log -q" "filter -q ." "filter --raw -c .aoi.seq" "merge-report --format jsonl -q"; do
    read -r s1 k1 <<< "$(best "$AOI" $cmd --threads 1 "${args[@]}")"
    read -r s2 k2 <<< "$(best "$AOI" $cmd --threads 2 "${args[@]}")"
    rate() { awk -v n="$runs" -v s="$1" 'BEGIN { if (s > 0) printf "%d", n / s; else print "-" }'; }
    printf '| %-34s | %-6s | %11s s | %11s s | %-18s | %-15s |\n' "\`$cmd\`" "$set" "$s1" "$s2" \
      "$(rate "$s1") -> $(rate "$s2")" "$((k1 / 1024)) / $((k2 / 1024)) MiB"
  done
done
