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
import subprocess
import sys
import tempfile

from pyspark import SparkConf, SparkContext


def partial_reports(sc, paths, aoi):
    """One jsonl report per partition of `paths`, as lists of lines."""
    partitions = max(1, min(len(paths), sc.defaultParallelism * 4))
    # Each partition's names reach aoi on stdin, one per line. --no-fail: a
    # partition whose runs failed exits 0 (its report carries them);
    # checkCode fails the job when a partition could not be merged at all.
    command = [aoi, "merge-report", "-q", "--no-fail", "--format", "jsonl", "--files-from", "-"]
    return (
        sc.parallelize(paths, partitions)
        .pipe(" ".join(command), checkCode=True)
        .glom()
        .collect()
    )


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: spark.py DIR [FORMAT]")
    root, fmt = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "table")
    aoi = os.environ.get("AOI", "aoi")
    paths = sorted(glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True))
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
            if lines:
                name = os.path.join(tmp, f"{i:06}.jsonl")
                with open(name, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
                files.append(name)
        return subprocess.run([aoi, "merge-report", "--format", fmt, *files]).returncode


if __name__ == "__main__":
    sys.exit(main())
