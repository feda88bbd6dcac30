#!/usr/bin/env python3
"""Two CUPTI clients in one process: a PyTorch training loop that runs torch.profiler over a window of steps,
alone and under our tracer (the launcher, no shim), each in fresh processes. Prints torch.profiler's kernel
count, ours, and what our summary says another client took, so that a run shows whether the counts name the
loss exactly.

    python3 gpu/coexist_torch.py --launcher .device/bin/accelprof [--out DIR] [--steps 12]

`--launcher` is the `accelprof` executable (a release build carries `libaccelprof_inject.so`: `cargo build
--release -p accelprof`; it runs `accelprof trace --vendor cuda`). Runs, each a fresh process:

1. `alone`: the loop with torch.profiler (schedule wait=2, warmup=2, active=--active steps), untraced.
2. `ours_alone`: the loop without torch.profiler under `accelprof trace`: our kernel count of the whole run.
3. `both`: the loop with torch.profiler under `accelprof trace` (no shim).

The training step is a small CNN (conv, batch norm, ReLU, pooling, linear) with SGD on random data, the same
every run (seeded). torch.profiler's kernels are counted twice: events of its exported Chrome trace with
cat "kernel", and `prof.events()` on the CUDA device; both are printed.

Without the shim, on CUPTI before 13.3 (the H200: CUDA 13.0, driver 580) expect in `both`: torch.profiler's
kernels below `alone` (0 when it got none of its buffers back), our kernel_records below `ours_alone`, our
summary's line "LOST to another client of CUPTI in the process: ..." and `other_client` in the summary JSON
non-zero, and the launcher's exit status 4. Each mode's child can also be run by hand:

    python3 gpu/coexist_torch.py --child --profile                       # (a) alone
    .device/bin/accelprof trace --vendor cuda -o ours.json -- python3 gpu/coexist_torch.py --child --profile   # (b) both
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def child(args):
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, 10),
    ).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(32, 3, 32, 32, device="cuda")
    y = torch.randint(0, 10, (32,), device="cuda")

    def step():
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    result = {"steps": args.steps, "profiled": args.profile}
    if args.profile:
        from torch.profiler import ProfilerActivity, profile, schedule

        trace_path = args.trace or os.path.join(tempfile.mkdtemp(prefix="coexist_"), "torch_trace.json")
        window = schedule(wait=2, warmup=2, active=args.active, repeat=1)
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], schedule=window) as prof:
            for _ in range(args.steps):
                step()
                prof.step()
            torch.cuda.synchronize()
        prof.export_chrome_trace(trace_path)
        with open(trace_path) as f:
            events = json.load(f).get("traceEvents", [])
        result["torch_kernels_trace"] = sum(1 for e in events if e.get("cat") == "kernel")
        result["torch_kernels_events"] = sum(1 for e in prof.events() if str(e.device_type).endswith("CUDA"))
        result["torch_trace"] = trace_path
    else:
        for _ in range(args.steps):
            step()
    torch.cuda.synchronize()
    print(json.dumps(result), flush=True)


def run_mode(mode, args, out):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--steps", str(args.steps),
           "--active", str(args.active), "--trace", os.path.join(out, f"torch_{mode}.json")]
    if mode != "ours_alone":
        cmd.append("--profile")
    env = dict(os.environ)
    env.pop("CUDA_INJECTION64_PATH", None)
    summary = None
    if mode != "alone":
        summary = os.path.join(out, f"summary_{mode}.json")
        env["ACCELPROF_SUMMARY_JSON"] = summary
        cmd = [args.launcher, "trace", "--vendor", "cuda", "-o", os.path.join(out, f"ours_{mode}.json"), "--"] + cmd
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    result = json.loads(lines[-1]) if lines else {}
    result["mode"] = mode
    result["status"] = p.returncode
    result["lost_line"] = [l for l in p.stderr.splitlines() if "LOST to another client" in l]
    result["kineto_unknown_buffer_logs"] = p.stderr.count("bufferCompleted called with unknown buffer")
    if summary and os.path.exists(summary):
        with open(summary) as f:
            s = json.load(f)
        result["our_kernel_records"] = s.get("kernel_records")
        result["our_records_dropped"] = s.get("records_dropped")
        result["other_client"] = s.get("other_client")
    if not lines:
        sys.stderr.write(p.stdout[-4000:] + p.stderr[-4000:])
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--launcher", help="the accelprof executable")
    ap.add_argument("--out", default="gpu/out/coexist")
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--active", type=int, default=5, help="steps torch.profiler records")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--profile", action="store_true", help="(child) run torch.profiler over the window")
    ap.add_argument("--trace", help="(child) where torch.profiler's trace goes")
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    if not args.launcher:
        ap.error("--launcher is required")
    os.makedirs(args.out, exist_ok=True)
    results = {m: run_mode(m, args, args.out) for m in ["alone", "ours_alone", "both"]}
    for r in results.values():
        print(json.dumps(r))
    a, o, b = results["alone"], results["ours_alone"], results["both"]
    print(f"torch.profiler kernels: alone {a.get('torch_kernels_trace')} (events {a.get('torch_kernels_events')}), "
          f"under our tracer {b.get('torch_kernels_trace')} (events {b.get('torch_kernels_events')})")
    print(f"our kernel records: alone {o.get('our_kernel_records')}, with torch.profiler "
          f"{b.get('our_kernel_records')}, dropped {b.get('our_records_dropped')}, other_client {b.get('other_client')}")
    print(f"our summary line: {b['lost_line']}; launcher status {b['status']}; "
          f"Kineto's unknown-buffer logs {b['kineto_unknown_buffer_logs']}")
    lost = (b.get("other_client") or {})
    named = bool(b["lost_line"]) and b["status"] == 4 and (lost.get("buffers_taken", 0) + lost.get("foreign_buffers", 0)) > 0
    whole = b.get("torch_kernels_trace") == a.get("torch_kernels_trace") and b.get("our_kernel_records") == o.get("our_kernel_records")
    print("both whole" if whole else ("loss named by our tracer" if named else "LOSS NOT NAMED"))
    sys.exit(0 if whole or named else 1)


if __name__ == "__main__":
    main()
