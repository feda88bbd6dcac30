#!/usr/bin/env python3
"""Our analysis next to HolisticTraceAnalysis (HTA) on the same trace: per-kernel times, the kernel-type
breakdown and the temporal (idle-time) breakdown must agree.

DIR holds one rank per `<stem>.parquet` with its `<stem>.json` (the Chrome trace of the same records). We run
`accelprof-analyze analyze DIR --json --hta-window` (HTA analyses only work launched before each rank's last
ProfilerStep) and HTA 0.5's `get_gpu_kernel_breakdown(num_kernels=10**9, duration_ratio=1.0)` (no "others"
grouping) and `get_temporal_breakdown()` on the JSON files.

Two things about HTA to know when reading the result:
  - HTA counts a kernel once per host event carrying its correlation id: a trace that records a runtime call
    and the driver call inside it (same id) gets its kernels counted twice. HTA runs on copies of the JSON
    files without such nested driver calls (their count is printed); `--keep-nested-driver` runs it on the
    files as they are.
  - HTA rounds every event to whole microseconds (start up, end down) unless HTA_DISABLE_NS_ROUNDING=1. On
    traces with nanosecond timestamps pass `--ns`: HTA then runs without rounding, per-kernel and temporal
    figures must agree to float precision, and the kernel-type table within 1 us per activity (HTA
    truncates each interval of its sweep to whole microseconds). Without `--ns` every figure must agree
    exactly (traces whose timestamps are whole microseconds).

    pip install HolisticTraceAnalysis psutil pyarrow
    python3 compare_hta.py --analyze target/release/accelprof-analyze DIR [--ns]

Exits 1 on any difference; prints a compact summary last.
"""
import argparse
import collections
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile


def strip_nested_driver_calls(src, dst):
    """A copy of the JSON trace without `cuda_driver` events whose correlation id a `cuda_runtime` event also
    carries (the driver call inside a runtime call); returns how many were dropped."""
    with open(src) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    runtime = {e["args"]["correlation"] for e in events
               if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}
    kept = [e for e in events
            if not (e.get("cat") == "cuda_driver" and e.get("args", {}).get("correlation") in runtime)]
    dropped = len(events) - len(kept)
    trace["traceEvents"] = kept
    text = json.dumps(trace)
    # HTA finds the rank with the regex `"rank":\s+(\d+)`; json.dumps writes `"rank": N`.
    with open(dst, "w") as f:
        f.write(text)
    return dropped


def close(a, b, rel=1e-9, abs_tol=1e-6):
    return abs(a - b) <= max(abs_tol, rel * max(abs(a), abs(b)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--analyze", required=True, help="the accelprof-analyze binary")
    ap.add_argument("--ns", action="store_true", help="nanosecond timestamps: HTA without its rounding")
    ap.add_argument("--keep-nested-driver", action="store_true")
    ap.add_argument("--rules", default="hta-0.5")
    args = ap.parse_args()
    if args.ns:
        os.environ["HTA_DISABLE_NS_ROUNDING"] = "1"
    logging.disable(logging.WARNING)
    from hta.trace_analysis import TraceAnalysis  # after the environment is set

    stems = sorted(f[: -len(".parquet")] for f in os.listdir(args.dir) if f.endswith(".parquet"))
    hta_dir = tempfile.mkdtemp(prefix="hta_")
    dropped = 0
    for stem in stems:
        src = os.path.join(args.dir, stem + ".json")
        dst = os.path.join(hta_dir, stem + ".json")
        if args.keep_nested_driver:
            shutil.copy(src, dst)
        else:
            dropped += strip_nested_driver_calls(src, dst)

    ours = json.loads(subprocess.run(
        [args.analyze, "analyze", args.dir, "--json", "--hta-window", "--rules", args.rules],
        check=True, capture_output=True, text=True).stdout)

    analysis = TraceAnalysis(trace_dir=hta_dir)
    type_df, kernel_df = analysis.get_gpu_kernel_breakdown(
        visualize=False, num_kernels=10**9, duration_ratio=1.0)
    temporal = analysis.get_temporal_breakdown(visualize=False)
    shutil.rmtree(hta_dir, ignore_errors=True)

    failures = []
    analysed = {"COMPUTATION", "COMMUNICATION", "MEMORY"}

    # Per kernel name and rank: count, sum, min, max, mean, std (HTA in us, ours in ns).
    mine = {(k["rank"], k["kernel_type"], k["name"]): k for k in ours["kernels"] if k["kernel_type"] in analysed}
    theirs = {}
    for row in kernel_df.to_dict("records"):
        theirs[(int(row["rank"]), row["kernel_type"], row["name"])] = row
    for key in sorted(set(mine) | set(theirs)):
        if key not in mine or key not in theirs:
            failures.append(f"kernel {key}: only in {'ours' if key in mine else 'HTA'}")
            continue
        m, t = mine[key], theirs[key]
        count = round(t["sum (us)"] / t["mean (us)"]) if t["mean (us)"] else 0
        checks = [("count", m["count"], count), ("sum", m["sum_ns"] / 1e3, t["sum (us)"]),
                  ("min", m["min_ns"] / 1e3, t["min (us)"]), ("max", m["max_ns"] / 1e3, t["max (us)"]),
                  ("mean", m["mean_ns"] / 1e3, t["mean (us)"]), ("stddev", m["stddev_ns"] / 1e3, t["stddev"])]
        for what, a, b in checks:
            if not close(a, b, rel=1e-6):
                failures.append(f"kernel {key} {what}: ours {a} HTA {b}")

    # The kernel-type table, all ranks.
    our_types = {t["kernel_type"]: t["time_ns"] / 1e3 for t in ours["breakdown_totals"]}
    their_types = {r["kernel_type"]: float(r["sum"]) for r in type_df.to_dict("records") if r["sum"] > 0}
    activities = sum(k["count"] for k in mine.values())
    slack = activities if args.ns else 0.0  # HTA truncates each sweep interval to whole us
    for label in sorted(set(our_types) | set(their_types)):
        a, b = our_types.get(label, 0.0), their_types.get(label, 0.0)
        if abs(a - b) > slack + 1e-6:
            failures.append(f"kernel type {label!r}: ours {a} us, HTA {b} us")

    # The temporal breakdown per rank.
    our_idle = {i["rank"]: i for i in ours["idle"]}
    for row in temporal.to_dict("records"):
        rank = int(row["rank"])
        i = our_idle.get(rank)
        if i is None:
            failures.append(f"temporal: rank {rank} only in HTA")
            continue
        for what, ns, us in [("idle", i["idle_ns"], row["idle_time(us)"]),
                             ("compute", i["compute_ns"], row["compute_time(us)"]),
                             ("non-compute", i["non_compute_ns"], row["non_compute_time(us)"]),
                             ("kernel time", i["kernel_time_ns"], row["kernel_time(us)"])]:
            if not close(ns / 1e3, float(us), rel=1e-6):
                failures.append(f"temporal rank {rank} {what}: ours {ns / 1e3} us, HTA {us} us")

    ranks = sorted({k[0] for k in mine})
    print(f"ranks {ranks}; kernel names x ranks compared: {len(set(mine) & set(theirs))}; "
          f"GPU activities in HTA's window: {activities}; nested driver calls left out for HTA: {dropped}")
    print("kernel type (all ranks)              ours us        HTA us")
    for label in sorted(set(our_types) | set(their_types), key=lambda l: -our_types.get(l, 0.0)):
        print(f"  {label:<36} {our_types.get(label, 0.0):>12.1f} {their_types.get(label, 0.0):>12.1f}")
    for rank in ranks:
        i = our_idle.get(rank, {})
        print(f"  rank {rank}: idle {i.get('idle_ns', 0) / 1e3:.1f} us of {i.get('kernel_time_ns', 0) / 1e3:.1f} us")
    if failures:
        print(f"FAILED ({len(failures)}):\n  " + "\n  ".join(failures[:40]))
        return 1
    print("OK: per-kernel times, the kernel-type breakdown and the temporal breakdown equal HTA's"
          + (" (ns timestamps: HTA without rounding)" if args.ns else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
