#!/usr/bin/env python3
"""The analyses' SQL text, unchanged, on Apache Spark SQL over the same per-rank Parquet files: every query
must give what accelprof-analyze (DataFusion) gives.

    pip install pyspark            # and a Java 17+ runtime (apt: openjdk-17-jre-headless)
    python3 check_spark.py --analyze target/release/accelprof-analyze DIR --master local[2] \\
        [--options='--rules hta-main --hta-window' ...]
    spark-submit --master spark://HOST:7077 check_spark.py --analyze ... /shared/traces    # on a cluster

The SQL comes from the binary (`accelprof-analyze sql --json`: the text `analyze` runs), DataFusion's results
from `accelprof-analyze analyze DIR --json`. Integers and strings must be equal; floating-point columns
(means and standard deviations) may differ by a relative 1e-9 (the engines sum in different orders).
One Spark session runs every query of every option set. Exits 1 on any difference.
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys
import time

# The columns compared, per query: the report's JSON (DataFusion) and the query's result (Spark) share them.
KEYS = {
    "kernels": ["rank", "kernel_type", "name", "count", "sum_ns", "min_ns", "max_ns", "mean_ns", "stddev_ns"],
    "categories": ["rank", "kernel_type", "count", "sum_ns"],
    "breakdown": ["rank", "state", "time_ns"],
    "idle": ["rank", "idle_ns", "compute_ns", "non_compute_ns", "kernel_time_ns"],
    "steps": ["step", "rank", "start_ns", "duration_ns", "last_comm_start_ns"],
    "stragglers": ["step", "ranks", "slowest_rank", "slowest_ns", "fastest_rank", "fastest_ns", "mean_ns",
                   "latest_comm_rank", "latest_comm_start_ns"],
    "communication": ["rank", "name", "count", "sum_ns", "min_ns", "max_ns", "mean_ns"],
}
REL_TOL = 1e-9


def step_number(name):
    m = re.match(r"ProfilerStep#(\d+)$", name)
    return int(m.group(1)) if m else None


def plain(v):
    """A Spark value as the JSON report has it: Decimal and other integral numbers as int."""
    if v is None or isinstance(v, (bool, str, float, int)):
        return v
    if hasattr(v, "as_integer_ratio") and int(v) == v:  # Decimal (unsigned 64-bit columns)
        return int(v)
    return v


def same(a, b):
    """Row equality: exact, of the same types, but for two floats (relative REL_TOL)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if not math.isclose(x, y, rel_tol=REL_TOL, abs_tol=1e-9):
                return False
        elif x != y or type(x) is not type(y):
            return False
    return True


def compare(name, got, expected):
    """A line saying how `got` (Spark's rows) and `expected` (the report's) differ, or None."""
    def key(row):  # floats rounded only to pair rows up; equality is `same`
        return tuple((v is None, round(v, 3) if isinstance(v, float) else v) for v in row)

    a, b = sorted(got, key=key), sorted(expected, key=key)
    if len(a) != len(b):
        return f"{name}: Spark {len(a)} rows, DataFusion {len(b)}; e.g. {a[:1]} / {b[:1]}"
    bad = [(x, y) for x, y in zip(a, b) if not same(x, y)]
    if bad:
        return f"{name}: {len(bad)} of {len(a)} rows differ; e.g. Spark {bad[0][0]}, DataFusion {bad[0][1]}"
    return None


def mutated(rows):
    """`rows` with one value of its first row changed (the last integer by one, else a float by a relative
    1e-6, else a string): what `compare` must report."""
    row = list(rows[0])
    for i in reversed(range(len(row))):
        v = row[i]
        if isinstance(v, int) and not isinstance(v, bool):
            row[i] = v + 1
            break
        if isinstance(v, float) and v != 0.0:
            row[i] = v * (1 + 1e-6)
            break
        if isinstance(v, str):
            row[i] = v + "x"
            break
    else:
        return None
    return [tuple(row)] + list(rows[1:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", help="a directory of per-rank Parquet files (*.parquet)")
    ap.add_argument("--analyze", required=True, help="the accelprof-analyze executable")
    ap.add_argument("--options", action="append",
                    help="accelprof-analyze's query options, one set per use (e.g. '--rules hta-main "
                         "--hta-window'); default: none (the defaults)")
    ap.add_argument("--master", help="Spark master (default: spark-submit's --master, else local[*]); "
                                     "local[N] also tunes the session for small data")
    args = ap.parse_args()
    variants = [o.split() for o in args.options] if args.options else [[]]

    def analyze(flags, *argv):
        return json.loads(subprocess.run([args.analyze, *argv, "--json"] + flags, check=True,
                                         capture_output=True, text=True).stdout)

    files = sorted(glob.glob(os.path.join(glob.escape(args.dir), "*.parquet")))
    if not files:
        print(f"FAILED: no *.parquet in {args.dir}")
        return 1
    local = (args.master or "").startswith("local")
    if local:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # the driver on the loopback only

    from pyspark.sql import SparkSession

    t0 = time.monotonic()
    builder = SparkSession.builder.appName("accelprof-check-spark").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    if local:
        # A few thousand rows: one shuffle partition, no adaptive re-planning, and expressions interpreted
        # rather than compiled (Janino's compilation of each query's generated code took most of the time);
        # the JVM's quick compiler only. None of these changes what a query computes.
        builder = (builder.config("spark.sql.shuffle.partitions", "1")
                   .config("spark.sql.adaptive.enabled", "false")
                   .config("spark.sql.codegen.wholeStage", "false")
                   .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                   .config("spark.ui.enabled", "false")
                   .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1"))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    failures, lines = [], []
    try:
        # Each file by its own path, as accelprof-analyze gives them to DataFusion; read once, kept in memory
        # for every query.
        events = spark.read.parquet(*files).cache()
        total = events.count()
        events.createOrReplaceTempView("events")
        started = time.monotonic() - t0
        for flags in variants:
            queries = analyze(flags, "sql")
            ours = analyze(flags, "analyze", args.dir)
            if sorted(queries) != sorted(KEYS):
                failures.append(f"the binary's queries are {sorted(queries)}, this script compares {sorted(KEYS)}")
                continue
            counts = {}
            for name, keys in KEYS.items():
                rows = [r.asDict() for r in spark.sql(queries[name]).collect()]
                counts[name] = len(rows)
                if name in ("steps", "stragglers"):
                    rows = [dict(r, step=step_number(r["step"])) for r in rows
                            if step_number(r["step"]) is not None]
                got = [tuple(plain(r[k]) for k in keys) for r in rows]
                expected = [tuple(r[k] for k in keys) for r in ours[name]]
                diff = compare(name, got, expected)
                if diff:
                    failures.append(f"[{' '.join(flags) or 'defaults'}] {diff}")
                # The comparison itself: a result one value off must be told apart.
                wrong = mutated(expected) if expected else None
                if not expected or wrong is None or compare(name, got, wrong) is None:
                    failures.append(f"[{' '.join(flags) or 'defaults'}] {name}: no rows, or a changed value "
                                    "is not noticed: the comparison proves nothing")
            lines.append(f"  [{' '.join(flags) or 'defaults'}] rows per query: "
                         + ", ".join(f"{k} {v}" for k, v in counts.items()))
        version, master = spark.version, spark.sparkContext.master
    finally:
        spark.stop()
    print(f"Spark {version} ({master}), {len(files)} files, {total} rows; session and read {started:.1f}s, "
          f"queries {time.monotonic() - t0 - started:.1f}s")
    print("\n".join(lines))
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"OK: the same SQL text gives the same results on Spark SQL as on DataFusion (floats within {REL_TOL:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
