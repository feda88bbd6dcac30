#!/usr/bin/env python3
"""Added time per tiny PyTorch op: untraced, under our tracer (CUDA_INJECTION64_PATH=libaccelprof_inject.so),
and under torch.profiler with CUDA activities (and with CPU + CUDA).

Each measurement is a fresh process (injection happens at cuInit, once per process), modes alternate round
by round, and the median per mode is reported. Also checks that our kernel record count equals the number of
kernels the loop launched (each `x.add_(1.0)` on a 1-element CUDA tensor launches exactly one kernel).

    python3 gpu/torch_overhead.py --tracer target/release/libaccelprof_inject.so [--ops 20000] [--rounds 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time
import torch

mode, ops, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
x = torch.zeros(1, device="cuda")
for _ in range(warm):
    x.add_(1.0)
torch.cuda.synchronize()

def loop():
    for _ in range(ops):
        x.add_(1.0)
    torch.cuda.synchronize()

profiler_kernels = None
if mode.startswith("torch"):
    from torch.profiler import ProfilerActivity, profile
    activities = [ProfilerActivity.CUDA]
    if mode == "torch_cpu_cuda":
        activities.insert(0, ProfilerActivity.CPU)
    with profile(activities=activities) as prof:
        t0 = time.perf_counter()
        loop()
        t1 = time.perf_counter()
    profiler_kernels = sum(
        1 for e in prof.events() if str(e.device_type).endswith("CUDA") and "elementwise" in e.name
    )
else:
    t0 = time.perf_counter()
    loop()
    t1 = time.perf_counter()
value = x.item()
print(json.dumps({"mode": mode, "seconds": t1 - t0, "ops": ops, "warm": warm, "value": value,
                  "profiler_kernels": profiler_kernels}))
"""

MODES = ["untraced", "ours", "torch_cuda", "torch_cpu_cuda"]


def run_child(mode, args, workdir, round_no):
    env = dict(os.environ)
    env.pop("CUDA_INJECTION64_PATH", None)
    summary = None
    if mode == "ours":
        env["CUDA_INJECTION64_PATH"] = os.path.abspath(args.tracer)
        summary = os.path.join(workdir, f"summary_{round_no}.json")
        env["ACCELPROF_SUMMARY_JSON"] = summary
        env["ACCELPROF_OUTPUT"] = os.path.join(workdir, f"trace_{round_no}.json") if args.write_trace else "none"
        env.setdefault("ACCELPROF_SUMMARY_TOP", "5")
    p = subprocess.run([sys.executable, "-c", CHILD, mode, str(args.ops), str(args.warm)],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"{mode} run failed with status {p.returncode}")
    result = json.loads(p.stdout.strip().splitlines()[-1])
    expected_value = float(args.warm + args.ops)
    if result["value"] != expected_value:
        raise SystemExit(f"{mode}: the loop computed {result['value']}, expected {expected_value}")
    if summary:
        with open(summary) as f:
            result["summary"] = json.load(f)
        result["tracer_stderr"] = p.stderr
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tracer", required=True, help="path of libaccelprof_inject.so")
    ap.add_argument("--ops", type=int, default=20000)
    ap.add_argument("--warm", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--write-trace", action="store_true", help="also write our trace JSON (at exit)")
    ap.add_argument("--out", default=os.environ.get("OUT"))
    args = ap.parse_args()
    workdir = args.out or tempfile.mkdtemp(prefix="torch_overhead_")
    os.makedirs(workdir, exist_ok=True)

    times = {m: [] for m in MODES}
    ours = []
    profiler_kernels = []
    for r in range(args.rounds):
        order = MODES[r % len(MODES):] + MODES[:r % len(MODES)]
        for mode in order:
            res = run_child(mode, args, workdir, r)
            times[mode].append(res["seconds"] / args.ops)
            if mode == "ours":
                ours.append(res["summary"])
                if r == 0:
                    print(res["tracer_stderr"], end="")
            if res["profiler_kernels"] is not None:
                profiler_kernels.append((mode, res["profiler_kernels"]))
            print(f"round {r} {mode:15s} {res['seconds'] / args.ops * 1e6:8.3f} us/op", flush=True)

    base = statistics.median(times["untraced"])
    print(f"\n{args.ops} tiny ops per run, {args.rounds} alternating rounds, medians:")
    report = {"ops": args.ops, "rounds": args.rounds, "modes": {}}
    for mode in MODES:
        med = statistics.median(times[mode])
        added = (med - base) * 1e6
        print(f"  {mode:15s} {med * 1e6:8.3f} us/op   added {added:+8.3f} us/op   "
              f"(runs: {', '.join(f'{t * 1e6:.2f}' for t in times[mode])})")
        report["modes"][mode] = {"median_us_per_op": med * 1e6, "added_us_per_op": added,
                                 "runs_us_per_op": [t * 1e6 for t in times[mode]]}

    # Record counts: each add_ launches exactly one kernel; zeros() launched one fill kernel.
    expected_add = args.warm + args.ops
    ok = True
    print("\nour kernel records (per run):")
    for s in ours:
        by_name = sorted(s["kernels"], key=lambda k: -k["count"])
        add = by_name[0] if by_name else {"name": "-", "count": 0}
        others = sum(k["count"] for k in by_name[1:])
        match = add["count"] == expected_add and s["records_dropped"] == 0
        ok &= match
        print(f"  add kernel {add['count']} (launched {expected_add}) + {others} other kernels "
              f"= {s['kernel_records']} records; dropped {s['records_dropped']}; "
              f"{'OK' if match else 'MISMATCH'}   [{add['name'][:90]}]")
    for mode, n in profiler_kernels[:2]:
        print(f"  ({mode}: torch.profiler saw {n} elementwise kernels in its window of {args.ops} ops)")
    added_ours = report["modes"]["ours"]["added_us_per_op"]
    added_torch = report["modes"]["torch_cuda"]["added_us_per_op"]
    print(f"\nverdict: ours {added_ours:+.3f} us/op vs torch.profiler(CUDA) {added_torch:+.3f} us/op -> "
          f"{'ours <= torch.profiler' if added_ours <= added_torch else 'ours > torch.profiler'}; "
          f"record counts {'match' if ok else 'DO NOT match'}")
    report["counts_match"] = ok
    with open(os.path.join(workdir, "torch_overhead.json"), "w") as f:
        json.dump(report, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
