#!/usr/bin/env python3
"""What Kineto (torch.profiler) asks of CUPTI, logged by interposition, on a GPU machine with PyTorch.

    gcc -O2 -shared -fPIC -o .device/libcupti_calls.so benches/c/cupti_calls.c -ldl -lpthread
    python3 gpu/kineto_calls.py --calls .device/libcupti_calls.so [--out DIR]

Runs a small mixed-precision ResNet training loop with torch.profiler over a window of steps
(schedule: wait 2, warmup 2, active 4) in a child process with `libcupti_calls.so` preloaded, then prints
the log of CUPTI calls (benches/c/cupti_calls.c) and torch.profiler's kernel count. The same child
(`--child`) is the workload of the coexistence checks.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def child(trace_path, steps):
    import torch
    import torch.nn as nn
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.resnet18(num_classes=100).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scaler = torch.amp.GradScaler("cuda")
    x = torch.randn(32, 3, 128, 128, device="cuda")
    y = torch.randint(0, 100, (32,), device="cuda")
    loss_fn = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = loss_fn(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    for _ in range(3):
        step()
    torch.cuda.synchronize()
    sched = torch.profiler.schedule(wait=2, warmup=2, active=4, repeat=1)
    done = []

    def on_ready(prof):
        prof.export_chrome_trace(trace_path)
        done.append(True)

    with torch.profiler.profile(
        activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA],
        schedule=sched,
        on_trace_ready=on_ready,
    ) as prof:
        for _ in range(steps):
            step()
            prof.step()
    torch.cuda.synchronize()
    with open(trace_path) as f:
        events = json.load(f)["traceEvents"]
    kernels = sum(1 for e in events if e.get("cat") == "kernel")
    print(f"torch.profiler: {kernels} kernels in its trace ({len(done)} window(s))", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", help="libcupti_calls.so to preload")
    ap.add_argument("--out", default=None)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--child", metavar="TRACE", help="run the workload, write torch.profiler's trace here")
    a = ap.parse_args()
    if a.child:
        child(a.child, a.steps)
        return
    out = a.out or tempfile.mkdtemp()
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "cupti_calls.log")
    env = dict(os.environ, CUPTI_CALLS_OUT=log, PYTHONUNBUFFERED="1")
    if a.calls:
        env["LD_PRELOAD"] = os.path.abspath(a.calls)
    r = subprocess.run([sys.executable, __file__, "--child", os.path.join(out, "kineto.json"),
                        "--steps", str(a.steps)], env=env)
    if os.path.exists(log):
        print(open(log).read())
    sys.exit(r.returncode)


if __name__ == "__main__":
    main()
