#!/usr/bin/env python3
"""Our crate used as a library inside a PyTorch process that runs torch.profiler (Kineto, its own CUPTI
client): the `cupti_inprocess_session` example (a cdylib: an ActivitySession of CONCURRENT_KERNEL and
RUNTIME whose consumer counts kernel rows), loaded with ctypes into the training loop of
gpu/coexist_check.py (same model, torch.profiler schedule wait=2, warmup=2, active=6 over 30 steps).
Each case is a fresh child process:

  alone           torch.profiler only (its kernel count alone)
  d_probe_alone   the probe only, no torch.profiler, over all steps: kernels per step (our reference)
  a_before        the probe started before torch.profiler, stopped after the loop   (shim preloaded)
  b_after         the probe started after Kineto registered its callbacks (in the profiler's warmup,
                  after step 3), stopped after the loop                             (shim preloaded)
  c_before_no_shim, c_after_no_shim: as a and b without the shim (the loss, named by other_client)

The probe's span begins and ends at step boundaries after torch.cuda.synchronize(), so it must count
per_step x steps_in_span kernels, per_step from d_probe_alone. Kernels delivered to the probe that
started before its session did (records written for Kineto, handed to us too by the shim) are counted
apart ("ours_before_start") and left out of "ours_in_span".

  python3 gpu/coexist_inprocess.py --bin DIR [--out DIR]   # DIR: libcupti_inprocess_session.so, libcupti_shim.so

Prints one JSON line per case and a RESULT line; exits 1 unless a_before and b_after each have
torch.profiler's kernel count equal to alone's, and ours_in_span equal to expected with 0 dropped and
a balanced ledger. See docs/CUPTI-SHARING.md.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import ctypes, json, os, sys, torch
cfg = json.loads(sys.argv[1])
steps, pre = cfg["steps"], cfg["pre"]
torch.manual_seed(0)
dev = "cuda"
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
    torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.BatchNorm2d(64), torch.nn.ReLU(),
    torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(64, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(64, 3, 32, 32, device=dev)
y = torch.randint(0, 10, (64,), device=dev)

def step():
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()

class ProbeCounts(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in (
        "kernels", "kernels_before_start", "api_rows", "records_produced", "records_delivered",
        "records_dropped", "dropped_by_vendor", "dropped_skipped", "dropped_unconsumed",
        "other_buffers_taken", "other_foreign_buffers", "other_missing_since_unix_ns")] + \
        [(n, ctypes.c_uint32) for n in ("balanced", "fenced", "shared", "cupti_version")]

probe = None
if cfg["probe"] != "none":
    # After `import torch`: libtorch_cuda has loaded libcupti (DT_NEEDED), which the probe reuses.
    probe = ctypes.CDLL(cfg["probe_lib"])
    probe.accelprof_probe_start.argtypes = [ctypes.c_uint]
    probe.accelprof_probe_start.restype = ctypes.c_int
    probe.accelprof_probe_stop.argtypes = [ctypes.POINTER(ProbeCounts)]
    probe.accelprof_probe_stop.restype = ctypes.c_int
    for f in (probe.accelprof_probe_last_error, probe.accelprof_probe_library):
        f.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        f.restype = ctypes.c_size_t

def text(f):
    buf = ctypes.create_string_buffer(4096)
    f(buf, len(buf))
    return buf.value.decode(errors="replace")

span_start = [None]
def start_probe(at):
    torch.cuda.synchronize()
    r = probe.accelprof_probe_start(cfg["flags"])
    if r != 0:
        print("ROW " + json.dumps({"error": f"accelprof_probe_start = {r}: {text(probe.accelprof_probe_last_error)}"}))
        sys.exit(3)
    span_start[0] = at

for _ in range(pre):
    step()
torch.cuda.synchronize()
row = {}
if cfg["profiler"]:
    sched = torch.profiler.schedule(wait=2, warmup=2, active=6, repeat=1)
    if cfg["probe"] == "before":
        start_probe(0)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                            torch.profiler.ProfilerActivity.CUDA],
                                schedule=sched,
                                on_trace_ready=lambda p: p.export_chrome_trace(cfg["trace"])) as prof:
        for i in range(steps):
            step()
            prof.step()
            # Kineto registered its callbacks at the warmup's start (the prof.step() after step 2).
            if cfg["probe"] == "after" and i == 2:
                start_probe(i + 1)
else:
    if cfg["probe"] != "none":
        start_probe(0)
    for _ in range(steps):
        step()
torch.cuda.synchronize()
if probe is not None:
    c = ProbeCounts()
    r = probe.accelprof_probe_stop(ctypes.byref(c))
    row["probe"] = {n: getattr(c, n) for n, _ in ProbeCounts._fields_}
    row["stop_rc"] = r
    if r != 0:
        row["stop_error"] = text(probe.accelprof_probe_last_error)
    row["library"] = text(probe.accelprof_probe_library)
    row["steps_in_span"] = steps - span_start[0]
if cfg["profiler"]:
    with open(cfg["trace"]) as f:
        events = json.load(f)["traceEvents"]
    row["profiler_kernels"] = sum(1 for e in events if e.get("cat") == "kernel")
print("ROW " + json.dumps(row))
"""


def run(label, args, work, profiler, probe, shim):
    cfg = {"steps": args.steps, "pre": args.pre, "profiler": profiler, "probe": probe,
           "flags": 0 if args.no_runtime else 1,
           "probe_lib": os.path.abspath(os.path.join(args.bin, "libcupti_inprocess_session.so")),
           "trace": os.path.join(work, f"{label}_torch.json")}
    env = dict(os.environ)
    env.pop("CUDA_INJECTION64_PATH", None)
    env.pop("CUPTI_LIBRARY_PATH", None)
    if shim:
        env["LD_PRELOAD"] = os.path.abspath(os.path.join(args.bin, "libcupti_shim.so"))
    else:
        env.pop("LD_PRELOAD", None)
    p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(cfg)], env=env, capture_output=True,
                       text=True, timeout=240)
    logs = p.stdout + p.stderr
    row = {"case": label, "exit": p.returncode, "shim": shim, "kineto_unknown_buffer_lines": logs.count("unknown buffer")}
    lines = [l for l in p.stdout.splitlines() if l.startswith("ROW ")]
    if lines:
        row.update(json.loads(lines[-1][4:]))
    pr = row.get("probe")
    if pr:
        row["ours"] = pr["kernels"]
        row["ours_before_start"] = pr["kernels_before_start"]
        row["ours_in_span"] = pr["kernels"] - pr["kernels_before_start"]
        row["dropped"] = pr["records_dropped"]
        row["balanced"] = pr["balanced"]
        row["other_client"] = {"buffers_taken": pr["other_buffers_taken"],
                               "foreign_buffers": pr["other_foreign_buffers"],
                               "missing_since_unix_ns": pr["other_missing_since_unix_ns"]}
    if p.returncode != 0 or not lines:
        sys.stderr.write(f"--- {label}: exit {p.returncode}\n{logs[-4000:]}\n")
    with open(os.path.join(work, f"{label}.log"), "w") as f:
        f.write(logs)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="folder with libcupti_inprocess_session.so and libcupti_shim.so")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--pre", type=int, default=2, help="steps before anything starts (warm-up, not counted)")
    ap.add_argument("--no-runtime", action="store_true", help="the probe collects CONCURRENT_KERNEL only")
    ap.add_argument("--out", default=os.environ.get("OUT"))
    args = ap.parse_args()
    work = args.out or tempfile.mkdtemp(prefix="coexist_inprocess_")
    os.makedirs(work, exist_ok=True)
    rows = {}
    for label, profiler, probe, shim in [("alone", True, "none", False),
                                         ("d_probe_alone", False, "whole", True),
                                         ("a_before", True, "before", True),
                                         ("b_after", True, "after", True),
                                         ("c_before_no_shim", True, "before", False),
                                         ("c_after_no_shim", True, "after", False)]:
        rows[label] = run(label, args, work, profiler, probe, shim)
    alone = rows["alone"].get("profiler_kernels")
    d = rows["d_probe_alone"]
    per_step = None
    if d.get("exit") == 0 and "ours_in_span" in d and d["dropped"] == 0 and d["balanced"] == 1:
        q, r = divmod(d["ours_in_span"], d["steps_in_span"])
        d["per_step"] = q if r == 0 else d["ours_in_span"] / d["steps_in_span"]
        per_step = q if r == 0 and q > 0 else None
    d["profiler_alone_per_active_step"] = alone / 6 if isinstance(alone, int) else None
    for label, r in rows.items():
        if "steps_in_span" in r and per_step is not None:
            r["expected"] = per_step * r["steps_in_span"]
        if label != "alone" and "profiler_kernels" in r:
            r["profiler_alone"] = alone
        if label.startswith("c_") and "expected" in r:
            whole = r["ours_in_span"] == r["expected"] and r["dropped"] == 0 and r["balanced"] == 1
            named = r["balanced"] == 0 and (r["other_client"]["buffers_taken"] + r["other_client"]["foreign_buffers"]) > 0
            r["loss_named"] = whole or named
    for r in rows.values():
        print(json.dumps(r))
    with open(os.path.join(work, "coexist_inprocess.json"), "w") as f:
        json.dump(list(rows.values()), f, indent=1)

    def complete(r):
        return (r.get("exit") == 0 and isinstance(alone, int) and r.get("profiler_kernels") == alone
                and r.get("expected") is not None and r.get("ours_in_span") == r["expected"]
                and r.get("dropped") == 0 and r.get("balanced") == 1)
    ok = complete(rows["a_before"]) and complete(rows["b_after"])
    extras = {k: r.get("ours_before_start") for k, r in rows.items() if r.get("ours_before_start")}
    named = {k: rows[k].get("loss_named") for k in ("c_before_no_shim", "c_after_no_shim")}
    print("RESULT", "both complete in-process, started before and after Kineto" if ok
          else "NOT both complete in-process",
          f"| per_step {per_step} | without the shim, loss named: {named}",
          f"| kernels from before the probe's start delivered to it: {extras}" if extras else "")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
