#!/usr/bin/env python3
"""Two CUPTI clients in one process on the GPU machine: a small PyTorch training loop that runs
torch.profiler over a window of steps (its own CUPTI client, Kineto), run
  (a) alone,
  (b) under `accelprof trace --vendor cuda` with the CUPTI sharing shim (the default),
  (c) under `accelprof trace --vendor cuda --cuda-share off`.
Prints, for each, torch.profiler's kernel count (kernel events of its trace) and ours (the kernel
records of our summary, and its dropped counts). See docs/CUPTI-SHARING.md.

  python3 gpu/coexist_check.py --bin DIR   # DIR holds accelprof, libaccelprof_inject.so, libcupti_shim.so

Expected with the shim: torch.profiler's count in (b) equals (a); ours counts every kernel of the run
(more than torch.profiler's, which covers its window only), 0 dropped. In (c) at least one of the two
falls short (the loss the shim removes).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, torch
steps, out = int(sys.argv[1]), sys.argv[2]
torch.manual_seed(0)
dev = "cuda"
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
    torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.BatchNorm2d(64), torch.nn.ReLU(),
    torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(64, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(64, 3, 32, 32, device=dev)
y = torch.randint(0, 10, (64,), device=dev)
sched = torch.profiler.schedule(wait=2, warmup=2, active=6, repeat=1)
import os
if os.environ.get("COEXIST_NO_PROFILER"):
    # The reference run: the same steps with no torch.profiler (a minimal C client counts the kernels).
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    torch.cuda.synchronize()
    print(json.dumps({"profiler_kernels": None}))
    sys.exit(0)
def step():
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                        torch.profiler.ProfilerActivity.CUDA],
                            schedule=sched,
                            on_trace_ready=lambda p: p.export_chrome_trace(out)) as prof:
    for _ in range(steps):
        step()
        prof.step()
torch.cuda.synchronize()
with open(out) as f:
    events = json.load(f)["traceEvents"]
kernels = sum(1 for e in events if e.get("cat") == "kernel")
print(json.dumps({"profiler_kernels": kernels}))
"""


def reference(args, work):
    """The kernels of the whole run as a minimal C client counts them (benches/c/count_records.c as the
    only CUPTI client, torch.profiler off): what ours must match."""
    counts = os.path.join(work, "d_c_client.json")
    env = dict(os.environ, CUDA_INJECTION64_PATH=os.path.abspath(args.floor), COUNT_RECORDS_OUT=counts,
               COEXIST_NO_PROFILER="1")
    p = subprocess.run([sys.executable, "-c", CHILD, str(args.steps), os.path.join(work, "unused.json")],
                       env=env, capture_output=True, text=True, timeout=240)
    row = {"case": "d_c_client_alone", "exit": p.returncode}
    try:
        with open(counts) as f:
            c = json.load(f)
        row.update({"c_client_kernels": c["by_kind"].get("10", 0), "c_client_dropped": c["dropped"]})
    except (OSError, ValueError, KeyError) as e:
        row["c_client_kernels"] = f"no counts ({e})"
        sys.stderr.write(p.stderr[-4000:])
    return row


def run(label, launcher, args, work):
    trace = os.path.join(work, f"{label}_torch.json")
    summary = os.path.join(work, f"{label}_summary.json")
    cmd = [sys.executable, "-c", CHILD, str(args.steps), trace]
    env = dict(os.environ)
    env.pop("CUDA_INJECTION64_PATH", None)
    if launcher is not None:
        cmd = [os.path.join(args.bin, "accelprof"), "trace", "--vendor", "cuda", "--output", "none", "--summary-json", summary,
               *launcher, "--", *cmd]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    logs = p.stdout + p.stderr
    unknown = logs.count("unknown buffer")
    row = {"case": label, "exit": p.returncode, "kineto_unknown_buffer_lines": unknown}
    # Our summary's line naming records lost to another CUPTI client, and the launcher's word on it.
    said = [l.strip() for l in logs.splitlines() if "LOST" in l or "lost to another" in l]
    if said:
        row["ours_said"] = said[:2]
    try:
        row.update(json.loads(p.stdout.strip().splitlines()[-1]))
    except (ValueError, IndexError):
        row["profiler_kernels"] = None
    if launcher is not None:
        try:
            with open(summary) as f:
                s = json.load(f)
            row.update({"ours_kernels": s["kernel_records"], "ours_incomplete": s["incomplete_kernels"],
                        "ours_records_dropped": s["records_dropped"], "ours_cupti_dropped": s["cupti_dropped"]})
        except (OSError, ValueError, KeyError) as e:
            row["ours_kernels"] = f"no summary ({e})"
    if p.returncode != 0 or row.get("profiler_kernels") is None:
        sys.stderr.write(f"--- {label}: exit {p.returncode}\n{logs[-4000:]}\n")
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="folder with accelprof, libaccelprof_inject.so, libcupti_shim.so")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--floor", help="libcount_records.so (benches/c/count_records.c): the C client's count")
    ap.add_argument("--out", default=os.environ.get("OUT"))
    args = ap.parse_args()
    work = args.out or tempfile.mkdtemp(prefix="coexist_")
    os.makedirs(work, exist_ok=True)
    rows = [run("a_alone", None, args, work),
            run("b_shim", [], args, work),
            run("c_no_shim", ["--cuda-share", "off"], args, work)]
    if args.floor:
        rows.append(reference(args, work))
    for r in rows:
        print(json.dumps(r))
    with open(os.path.join(work, "coexist.json"), "w") as f:
        json.dump(rows, f, indent=1)
    a, b = rows[0], rows[1]
    ok = (b["exit"] == 0 and b.get("profiler_kernels") == a.get("profiler_kernels")
          and isinstance(b.get("ours_kernels"), int) and b["ours_kernels"] >= (a.get("profiler_kernels") or 0)
          and b.get("ours_records_dropped") == 0)
    if args.floor:
        ok = ok and b.get("ours_kernels") == rows[-1].get("c_client_kernels")
    print("RESULT", "both complete with the shim" if ok else "NOT both complete with the shim")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
