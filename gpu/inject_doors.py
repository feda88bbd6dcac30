#!/usr/bin/env python3
"""The CUDA front door of libaccelprof_inject.so on a real GPU: a PyTorch job with no profiling code, run with
CUDA_INJECTION64_PATH naming the library, must end normally and leave a whole trace of its kernels and runtime
calls, and the report as JSON.

    cargo build --release -p accelprof-inject
    python3 gpu/inject_doors.py --lib target/release/libaccelprof_inject.so --out $OUT/doors

Checks: exit status 0; stderr has `[accelprof] pid N: tracing with CUPTI ... through the CUDA door`; the trace
parses, its `vendor` is `cupti`, it holds kernels (each with a name, `args.device` = `pid`, `args.stream` =
`tid`, `ts`, `dur`) and `cuda_runtime` rows; the summary's `kernel_records` equals the trace's kernels and
nothing was dropped. Exits 1 when a check fails; prints the figures last.
"""
import argparse
import json
import os
import subprocess
import sys

JOB = r"""
import torch
x = torch.randn(2048, 2048, device="cuda")
for _ in range(20):
    x = torch.relu(x @ x / 2048.0)
torch.cuda.synchronize()
print("job done", float(x.sum()))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--out", default="gpu/out/doors")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    trace = os.path.join(os.path.abspath(args.out), "cuda_door.json")
    summary = os.path.join(os.path.abspath(args.out), "cuda_door_summary.json")
    env = dict(os.environ)
    env.update(
        CUDA_INJECTION64_PATH=os.path.abspath(args.lib), ACCELPROF_OUTPUT=trace, ACCELPROF_SUMMARY_JSON=summary
    )
    run = subprocess.run([sys.executable, "-c", JOB], env=env, capture_output=True, text=True, timeout=300)
    print(run.stdout + run.stderr)
    failures = []
    if run.returncode != 0:
        failures.append(f"exit status {run.returncode}")
    if "through the CUDA door" not in run.stderr:
        failures.append("no [accelprof] start line")
    kernels = api = 0
    try:
        doc = json.load(open(trace))
        if doc.get("vendor") != "cupti":
            failures.append(f"vendor {doc.get('vendor')!r}")
        for e in doc["traceEvents"]:
            if e.get("cat") == "kernel":
                kernels += 1
                a = e.get("args", {})
                if not e.get("name") or a.get("device") != e.get("pid") or a.get("stream") != e.get("tid"):
                    failures.append(f"kernel event {e}")
                    break
                if e.get("dur", 0) <= 0 or e.get("ts", 0) <= 0:
                    failures.append(f"kernel times {e}")
                    break
            elif e.get("cat") == "cuda_runtime":
                api += 1
        s = json.load(open(summary))
        if s["kernel_records"] != kernels or s["records_dropped"] != 0:
            failures.append(f"summary {s['kernel_records']} kernels, {s['records_dropped']} dropped")
    except Exception as e:  # a missing or partial file is a failure, said
        failures.append(f"reading the outputs: {e}")
    if kernels < 20 or api < 20:
        failures.append(f"{kernels} kernels, {api} runtime rows (expected at least 20 each)")
    print(f"cuda door: {kernels} kernels, {api} cuda_runtime rows; {'FAILED: ' + '; '.join(failures) if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
