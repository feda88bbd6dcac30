#!/usr/bin/env python3
"""Memory stays bounded under our tracer over 1,000,000 kernels: RSS sampled every 50,000 tiny ops, untraced
and traced (trace file off, summary only: what grows then is the tracer itself), in fresh processes.

    python3 gpu/torch_memory.py --tracer target/release/libaccelprof_inject.so [--kernels 1000000]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys
import torch

kernels, every = int(sys.argv[1]), int(sys.argv[2])

def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return -1.0

x = torch.zeros(1, device="cuda")
torch.cuda.synchronize()
samples = []
for i in range(kernels):
    x.add_(1.0)
    if (i + 1) % every == 0:
        samples.append([i + 1, rss_mib()])
torch.cuda.synchronize()
print(json.dumps({"samples": samples, "value": x.item()}))
"""


def run(traced, args, workdir):
    env = dict(os.environ)
    env.pop("CUDA_INJECTION64_PATH", None)
    summary = os.path.join(workdir, "memory_summary.json")
    if traced:
        env["CUDA_INJECTION64_PATH"] = os.path.abspath(args.tracer)
        env["ACCELPROF_OUTPUT"] = "none"
        env["ACCELPROF_SUMMARY_JSON"] = summary
        env["ACCELPROF_SUMMARY_TOP"] = "3"
    p = subprocess.run([sys.executable, "-c", CHILD, str(args.kernels), str(args.every)],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"run failed with status {p.returncode}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if traced:
        sys.stdout.write(p.stderr)
        with open(summary) as f:
            out["summary"] = json.load(f)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tracer", required=True)
    ap.add_argument("--kernels", type=int, default=1_000_000)
    ap.add_argument("--every", type=int, default=50_000)
    ap.add_argument("--limit-mib", type=float, default=64.0,
                    help="most growth allowed between the first sample and the last, beyond the untraced run's")
    ap.add_argument("--out", default=os.environ.get("OUT"))
    args = ap.parse_args()
    workdir = args.out or tempfile.mkdtemp(prefix="torch_memory_")
    os.makedirs(workdir, exist_ok=True)

    base = run(False, args, workdir)
    ours = run(True, args, workdir)
    print(f"{'kernels':>10}  {'untraced MiB':>12}  {'traced MiB':>10}")
    for (n, a), (_, b) in zip(base["samples"], ours["samples"]):
        print(f"{n:>10}  {a:>12.1f}  {b:>10.1f}")
    growth_base = base["samples"][-1][1] - base["samples"][0][1]
    growth_ours = ours["samples"][-1][1] - ours["samples"][0][1]
    s = ours["summary"]
    add = max(s["kernels"], key=lambda k: k["count"])
    counts_ok = add["count"] == args.kernels and s["records_dropped"] == 0
    bounded = growth_ours - growth_base <= args.limit_mib
    print(f"\nRSS growth from {base['samples'][0][0]} to {args.kernels} kernels: untraced {growth_base:+.1f} MiB, "
          f"traced {growth_ours:+.1f} MiB -> {'bounded' if bounded else 'NOT bounded'} (limit {args.limit_mib} MiB)")
    print(f"kernel records: add {add['count']} of {args.kernels} launched, {s['kernel_records']} in all, "
          f"dropped {s['records_dropped']}, overflow buffers {s['overflow_buffers']}, "
          f"buffers completed {s['buffers_completed']} -> {'OK' if counts_ok else 'MISMATCH'}")
    with open(os.path.join(workdir, "torch_memory.json"), "w") as f:
        json.dump({"untraced": base, "traced": ours, "bounded": bounded, "counts_ok": counts_ok}, f, indent=1)
    return 0 if bounded and counts_ok else 1


if __name__ == "__main__":
    sys.exit(main())
