#!/usr/bin/env python3
"""Loads traces with HolisticTraceAnalysis (HTA) as a user would, and checks what HTA makes of them.

    python3 check_traces.py DIR KERNELS LINKED [DIR KERNELS LINKED ...]

Each DIR holds one trace file (.json or .json.gz). For each: TraceAnalysis(trace_dir=DIR) must load it,
get_gpu_kernel_breakdown() and get_temporal_breakdown() must run, HTA must see KERNELS kernel events, and
link LINKED of them to the API call that launched them (index_correlation > 0; -1: not checked).
Prints one JSON line per trace and exits 1 on the first failure.
"""
import json
import logging
import sys
import warnings

logging.disable(logging.WARNING)
warnings.filterwarnings("ignore")

import pandas  # noqa: E402
from hta import version as hta_version  # noqa: E402
from hta.trace_analysis import TraceAnalysis  # noqa: E402


def check(trace_dir, kernels, linked):
    analysis = TraceAnalysis(trace_dir=trace_dir)
    df = analysis.t.get_trace(0)
    symbols = analysis.t.symbol_table.get_sym_id_map()
    kernel_rows = df[df["cat"] == symbols.get("kernel", -2)] if "kernel" in symbols else df.iloc[0:0]
    seen = {
        "dir": trace_dir,
        "events": int(len(df)),
        "kernels": int(len(kernel_rows)),
        "linked": int((kernel_rows["index_correlation"] > 0).sum()) if len(kernel_rows) else 0,
        "correlation_dtype": str(df["correlation"].dtype) if "correlation" in df else None,
    }
    breakdown = analysis.get_gpu_kernel_breakdown(visualize=False)
    metrics = breakdown[1]
    seen["breakdown_kernels"] = int(len(metrics))
    # HTA's kernel breakdown, top 5 by time: (name, launches = sum / mean, total us).
    if len(metrics) and {"name", "sum (us)", "mean (us)"} <= set(metrics.columns):
        top = metrics.sort_values("sum (us)", ascending=False).head(5)
        seen["top"] = [
            [str(r["name"])[:100], int(round(r["sum (us)"] / r["mean (us)"])) if r["mean (us)"] else 0, float(r["sum (us)"])]
            for _, r in top.iterrows()
        ]
    analysis.get_temporal_breakdown(visualize=False)
    ok = seen["kernels"] == kernels and (linked < 0 or seen["linked"] == linked)
    seen["ok"] = ok
    print(json.dumps(seen), flush=True)
    return ok


def main(args):
    if len(args) < 3 or len(args) % 3:
        raise SystemExit(__doc__)
    version = ".".join(map(str, getattr(hta_version, "__version_tuple__", ())))
    print(json.dumps({"hta": version, "pandas": pandas.__version__}))
    ok = True
    for i in range(0, len(args), 3):
        ok = check(args[i], int(args[i + 1]), int(args[i + 2])) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
