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
trap 'rm -rf "$parts"' EXIT

# One shard per SHARD files, in name order, as many at once as there are
# cores. --no-fail: a shard whose runs failed exits 0 (its report carries
# them to the final merge); a shard that could not be merged at all (64
# usage, 66 an unreadable file) stops the job, and so the script.
find "$dir" -type f -name '*.jsonl' | LC_ALL=C sort |
  parallel --will-cite --halt now,fail=1 -N "${SHARD:-500}" --pipe \
    "$aoi merge-report -q --no-fail --format jsonl --files-from - > $parts/{#}.jsonl"

# The shards' reports, in shard order: the final verdict.
ls "$parts" | sort -n | sed "s|^|$parts/|" |
  "$aoi" merge-report --format "$format" --files-from -
