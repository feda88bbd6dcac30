#!/usr/bin/env python3
"""The analyses' SQL text, unchanged, on DuckDB over the same Parquet files: every query must give what
accelprof-analyze (DataFusion) gives.

    pip install duckdb
    python3 check_duckdb.py --analyze target/release/accelprof-analyze DIR [--rules hta-main] [--hta-window]

Exits 1 on any difference.
"""
import argparse
import json
import re
import subprocess
import sys

import duckdb

NAMES = ["kernels", "categories", "breakdown", "idle", "steps", "stragglers", "communication"]


def step_number(name):
    m = re.match(r"ProfilerStep#(\d+)", name)
    return int(m.group(1)) if m else None


def rows(con, text):
    cur = con.execute(text)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def norm(v):
    return round(v, 6) if isinstance(v, float) else v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--analyze", required=True)
    ap.add_argument("--rules", default="hta-0.5")
    ap.add_argument("--hta-window", action="store_true")
    args = ap.parse_args()
    flags = ["--rules", args.rules] + (["--hta-window"] if args.hta_window else [])
    text = subprocess.run([args.analyze, "sql"] + flags, check=True, capture_output=True, text=True).stdout
    parts = re.split(r"^-- (%s)\n" % "|".join(NAMES), text, flags=re.M)
    queries = {parts[i]: parts[i + 1].strip().rstrip(";") for i in range(1, len(parts), 2)}
    ours = json.loads(subprocess.run([args.analyze, "analyze", args.dir, "--json"] + flags,
                                     check=True, capture_output=True, text=True).stdout)

    con = duckdb.connect()
    con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet('{args.dir}/*.parquet')")
    failures, counts = [], {}
    for name in NAMES:
        got = rows(con, queries[name])
        counts[name] = len(got)
        if name in ("steps", "stragglers"):
            got = [dict(r, step=step_number(r["step"])) for r in got if step_number(r["step"]) is not None]
        if name == "breakdown":
            expected = ours["breakdown"]
            keys = ["rank", "state", "time_ns"]
        elif name == "kernels":
            expected, keys = ours["kernels"], ["rank", "kernel_type", "name", "count", "sum_ns", "min_ns",
                                               "max_ns", "mean_ns", "stddev_ns"]
        elif name == "categories":
            expected, keys = ours["categories"], ["rank", "kernel_type", "count", "sum_ns"]
        elif name == "idle":
            expected, keys = ours["idle"], ["rank", "idle_ns", "compute_ns", "non_compute_ns", "kernel_time_ns"]
        elif name == "steps":
            expected, keys = ours["steps"], ["step", "rank", "start_ns", "duration_ns", "last_comm_start_ns"]
        elif name == "stragglers":
            expected, keys = ours["stragglers"], ["step", "ranks", "slowest_rank", "slowest_ns", "fastest_rank",
                                                  "fastest_ns", "mean_ns", "latest_comm_rank",
                                                  "latest_comm_start_ns"]
        else:
            expected, keys = ours["communication"], ["rank", "name", "count", "sum_ns", "min_ns", "max_ns",
                                                     "mean_ns"]
        a = sorted(tuple(norm(r[k]) for k in keys) for r in got)
        b = sorted(tuple(norm(r[k]) for k in keys) for r in expected)
        if a != b:
            diff = [x for x in a if x not in b][:2] + [x for x in b if x not in a][:2]
            failures.append(f"{name}: DuckDB {len(a)} rows, ours {len(b)}; e.g. {diff}")
    print("rows per query on DuckDB " + duckdb.__version__ + ": " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("OK: the same SQL text gives the same results on DuckDB as on DataFusion")
    return 0


if __name__ == "__main__":
    sys.exit(main())
