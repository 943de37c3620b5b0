"""A fleet's run files, judged with Apache Spark: RDD.pipe runs
`aoi merge-report` on each partition of file names, and the partitions'
reports are merged once more on the driver, which gives the verdict (and,
in jsonl, the bytes) of merging every file at once. See docs/guide.md,
"A fleet of runs".

    usage: python3 examples/fleet/spark.py DIR [FORMAT]
    exit:  the final merge's status (0 when every run passed)

AOI names the aoi binary (default: aoi on PATH); SPARK_MASTER the cluster
(default local[*]). On a cluster, the run files and aoi must be reachable
from every executor (a shared file system, or an object store mounted).
"""

import glob
import os
import shlex
import subprocess
import sys
import tempfile

from pyspark import SparkConf, SparkContext


def partial_reports(sc, paths, aoi):
    """One jsonl report per partition of `paths`, as lists of lines."""
    # At most one partition per path: none is empty, so an empty report
    # can only be a merge that died, which the final merge reports.
    partitions = max(1, min(len(paths), sc.defaultParallelism * 4))
    # Each partition's names reach aoi on stdin, one per line. --no-fail: a
    # partition whose runs failed exits 0 (its report carries them); one
    # that could not read a file (66) writes its report all the same, so
    # the exit statuses are left to the final merge (no checkCode).
    command = [aoi, "merge-report", "-q", "--no-fail", "--format", "jsonl", "--files-from", "-"]
    return sc.parallelize(paths, partitions).pipe(shlex.join(command)).glom().collect()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: spark.py DIR [FORMAT]")
    # Absolute: executors need not share the driver's working directory.
    root, fmt = os.path.abspath(sys.argv[1]), (sys.argv[2] if len(sys.argv) > 2 else "table")
    aoi = os.environ.get("AOI", "aoi")
    # Regular files, hidden ones included, in byte order (as find | sort).
    pattern = os.path.join(glob.escape(root), "**", "*.jsonl")
    paths = sorted(p for p in glob.glob(pattern, recursive=True, include_hidden=True) if os.path.isfile(p))
    if not paths:
        sys.exit(f"spark.py: no .jsonl file under {root}")
    conf = (
        SparkConf()
        .setMaster(os.environ.get("SPARK_MASTER", "local[*]"))
        .setAppName("aoi merge-report")
        .set("spark.ui.enabled", "false")
        .set("spark.ui.showConsoleProgress", "false")
    )
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    try:
        reports = partial_reports(sc, paths, aoi)
    finally:
        sc.stop()
    # The partitions' reports, in partition order: the final verdict.
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, lines in enumerate(reports):
            # Kept when empty: a partition that wrote nothing failed, and
            # the final merge says so.
            name = os.path.join(tmp, f"{i:06}.jsonl")
            with open(name, "w", encoding="utf-8") as f:
                f.write("".join(line + "\n" for line in lines))
            files.append(name)
        return subprocess.run([aoi, "merge-report", "--format", fmt, *files]).returncode


if __name__ == "__main__":
    sys.exit(main())
