#!/bin/sh
# A fleet's run files, judged on every core with GNU parallel: one
# `aoi merge-report` per shard of files, then one merge of the shards'
# reports, which gives the verdict (and, in jsonl, the bytes) of merging
# every file at once. See docs/guide.md, "A fleet of runs".
#
#   usage: examples/fleet/parallel.sh DIR [FORMAT]
#   exit:  the final merge's status (0 when every run passed)
#
# AOI names the aoi binary (default: aoi on PATH); SHARD the files per
# shard (default 500).
set -eu
dir=${1:?usage: parallel.sh DIR [FORMAT]}
format=${2:-table}
aoi=${AOI:-aoi}
parts=$(mktemp -d)
# Passed to the jobs through the environment, so spaces in them are safe.
export AOI_BIN="$aoi" PARTS="$parts"
trap 'rm -rf "$parts"' EXIT

files="$parts/files"
find "$dir" -type f -name '*.jsonl' | LC_ALL=C sort > "$files"
if [ ! -s "$files" ]; then
  echo "parallel.sh: no .jsonl file under $dir" >&2
  exit 66
fi

# One shard per SHARD files, in name order, as many at once as there are
# cores; each shard's findings go to stderr, a job's lines together.
# --no-fail: a shard whose runs failed exits 0 (its report carries them).
# A shard that could not read a file (66) still writes its report, which
# carries the failure to the final merge; a shard that died leaves an
# empty or cut report, which the final merge reports as such. So the
# shards' own exit statuses are left to the final merge.
parallel --will-cite -N "${SHARD:-500}" --pipe \
  "\"\$AOI_BIN\" merge-report --no-fail --format jsonl --files-from - > \"\$PARTS\"/{#}.jsonl" \
  < "$files" || true

# The shards' reports, in shard order: the final verdict and exit status.
ls "$parts" | grep -v '^files$' | sort -n | sed "s|^|$parts/|" |
  "$aoi" merge-report --format "$format" --files-from -
