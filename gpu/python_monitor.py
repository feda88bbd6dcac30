#!/usr/bin/env python3
"""Issue 21 on a GPU: the Python package `accelprof` (python/) in a PyTorch training loop.

    # here (a machine with Rust): the wheel; pyarrow's wheel for the GPU machine's Python if it lacks it
    maturin build --release -m python/Cargo.toml -o .device/accelprof
    pip download --only-binary=:all: --no-deps --python-version 3.X -d .device/wheels pyarrow
    # there (no network; .device/ carried):
    PYTHONUNBUFFERED=1 timeout 560 python3 gpu/python_monitor.py --wheel .device/accelprof --out $OUT/pm \
        [--deps .device/wheels] [--shim .device/bin/libcupti_shim.so] [--floor /tmp/libcount_records.so] \
        [--budget-s 360]
    python3 gpu/python_monitor.py --self-test [--wheel W]   (no GPU: the statistics; with the wheel built
        with the `mocks` feature importable and W, the whole run over the mock libcupti and a stand-in torch)

1. The wheel is installed with pip (`--no-index --no-deps --target OUTDIR/.pylib`, and the --deps
   wheels when given) and the README's example runs as written (extracted from python/README.md) in
   a child process whose `work()` is 20 steps of a training loop (3 warm-up steps before it, out of
   the traced block). A second child runs the same loop under torch.profiler (CUDA activities)
   alone and counts the `kernel` events of its exported trace. Printed: the example's own line
   ("N kernels; N in t.parquet") and torch.profiler's count; the check is that the three numbers
   are equal, and with --floor equal to a minimal C client's (benches/c/count_records.c, built as in
   gpu/bench_tracer.py) count of the same 20 steps. Then (1b) the example again with torch.profiler profiling the same steps inside its
   block, in the same process (the CUPTI sharing shim preloaded when --shim is given): both counts
   must equal the counts alone.

2. The benchmark (paired rounds): each measurement is a fresh process running the workload (the CNN
   step of gpu/coexist_check.py, launch-bound, 32 warm-up and --steps timed steps, a device
   synchronization ending each step; the figure is the median step time) in one of four modes:
     none    untraced;
     rust    accelprof's tracer with a consumer in Rust counting kernel and API rows
             (`Tracer.register_counter`: the engine's cost, no Arrow, no Python);
     python  accelprof's tracer with a Python observer of kernels and API calls as Arrow columns
             (`Tracer.register({"kernel": "all", "api": "all"}, cb)`, cb sums a numpy view of
             each batch's `end_ns - start_ns`);
     torch   torch.profiler with CPU and CUDA activities (its trace processed after the timed steps).
   Modes alternate within a round, the order rotating; rounds are added until --budget-s would be
   passed (at least --min-rounds). Per round: added_X = X - none. Printed per mode: the added time
   per step (median over rounds, ms) with a bootstrap 95% interval, and
     ratio = median(added_python) / median(added_rust)   (goal: at most 1.1)
   with its bootstrap interval; the kernel rows each traced child saw (rust and python must equal
   each other; each child's engine counts must add up with 0 dropped).

Results: OUTDIR/python_monitor.json; the table printed last and written to OUTDIR/python_monitor.txt;
children's stderr in OUTDIR/child_stderr.txt. Exit 1 when the example's counts differ, a child fails,
or a traced child's records do not add up.
"""
import argparse
import glob
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, "..", "python", "README.md")

WORKLOAD = r"""
import torch
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
"""

EXAMPLE_CHILD = WORKLOAD + r"""
for _ in range(3):
    step()
torch.cuda.synchronize()

def work():
    for _ in range(20):
        step()
    torch.cuda.synchronize()

"""

# The minimal C client's count (benches/c/count_records.c, the process's only CUPTI client): the same
# warm-up and argv[1] steps; the 20 steps' kernels are the count with 20 steps less the count with 0.
C_CLIENT_CHILD = WORKLOAD + r"""
import sys
for _ in range(3):
    step()
torch.cuda.synchronize()
for _ in range(int(sys.argv[1])):
    step()
torch.cuda.synchronize()
"""

TORCH_COUNT_CHILD = WORKLOAD + r"""
import json, sys
for _ in range(3):
    step()
torch.cuda.synchronize()
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                        torch.profiler.ProfilerActivity.CUDA]) as prof:
    for _ in range(20):
        step()
    torch.cuda.synchronize()
prof.export_chrome_trace(sys.argv[1])
doc = json.load(open(sys.argv[1]))
print("torch.profiler kernels", sum(1 for e in doc["traceEvents"] if e.get("cat") == "kernel"))
"""

# The README's example and torch.profiler in one process (the coexist issue): torch.profiler profiles
# the same 20 steps inside the example's traced block; both counts are printed.
COEXIST_CHILD = EXAMPLE_CHILD.replace("def work():", "def _work():") + r"""
import json, sys
def work():
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                            torch.profiler.ProfilerActivity.CUDA]) as prof:
        _work()
    prof.export_chrome_trace("torch.json")
    doc = json.load(open("torch.json"))
    print("torch.profiler kernels", sum(1 for e in doc["traceEvents"] if e.get("cat") == "kernel"))
"""

BENCH_CHILD = WORKLOAD + r"""
import json, sys, time
cfg = json.loads(sys.argv[1])
mode = cfg["mode"]
out = {"mode": mode}
tracer = prof = None
rows = {"kernel": 0, "api": 0}
busy = [0]
if mode in ("rust", "python"):
    import accelprof
    tracer = accelprof.Tracer(families=["kernel", "api"], synchronize=torch.cuda.synchronize)
    if mode == "rust":
        counter = tracer.register_counter(["kernel", "api"])
    else:
        def on_batch(cols):
            for fam, b in cols.items():
                rows[fam] += b.num_rows
                s = b.column("start_ns").to_numpy(zero_copy_only=True)
                e = b.column("end_ns").to_numpy(zero_copy_only=True)
                busy[0] += int((e - s).sum())
        tracer.register({"kernel": "all", "api": "all"}, on_batch)
    tracer.start()
elif mode == "torch":
    prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                              torch.profiler.ProfilerActivity.CUDA])
    prof.__enter__()
for _ in range(cfg["warmup"]):
    step()
torch.cuda.synchronize()
times = []
for _ in range(cfg["steps"]):
    t0 = time.perf_counter()
    step()
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t0)
if prof is not None:
    prof.__exit__(None, None, None)
if tracer is not None:
    tracer.flush()
    if mode == "rust":
        rows = {k: v for k, v in tracer.counter_rows(counter).items() if k in rows}
    stats = tracer.stats()
    report = tracer.stop()
    c = report["counts"]
    out.update(kernel_rows=rows["kernel"], api_rows=rows["api"], produced=c["produced"],
               delivered=c["delivered"], dropped=c["dropped"], adds_up=c["adds_up"],
               callback_errors=stats["callback_errors"])
out["median_step_s"] = sorted(times)[len(times) // 2]
print("RESULT " + json.dumps(out))
"""

MODES = ["none", "rust", "python", "torch"]

# --self-test with the wheel built with the `mocks` feature importable: the children's plumbing on
# the mock libcupti, a step being 20 kernel launches.
MOCK_WORKLOAD = r"""
import types
from accelprof._native import _testing as T
T.cupti_reset()
torch = types.SimpleNamespace(cuda=types.SimpleNamespace(synchronize=T.cupti_synchronize))

def step():
    T.cupti_launch("k", 20)
"""


def example_code():
    with open(README) as f:
        section = f.read().split("## Example", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def bootstrap(rounds, stat, resamples=4000, seed=12345):
    """The 95% interval of stat(rounds) with rounds resampled with replacement."""
    rng = random.Random(seed)
    vals = []
    for _ in range(resamples):
        sample = [rounds[rng.randrange(len(rounds))] for _ in rounds]
        v = stat(sample)
        if v is not None:
            vals.append(v)
    if not vals:
        return (None, None)
    vals.sort()
    return (vals[int(0.025 * len(vals))], vals[min(len(vals) - 1, int(0.975 * len(vals)))])


def added(rounds, mode):
    return statistics.median(r[mode] - r["none"] for r in rounds)


def ratio(rounds):
    rust = added(rounds, "rust")
    return None if rust <= 0 else added(rounds, "python") / rust


def summarize(rounds):
    res = {"rounds": len(rounds)}
    for mode in ("rust", "python", "torch"):
        lo, hi = bootstrap(rounds, lambda s, m=mode: added(s, m))
        res[f"added_{mode}_ms"] = (added(rounds, mode) * 1e3, lo * 1e3, hi * 1e3)
    lo, hi = bootstrap(rounds, ratio)
    res["ratio_python_over_rust"] = (ratio(rounds), lo, hi)
    return res


def run(cmd, env, errlog, timeout=300):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    errlog.write(f"--- {' '.join(cmd[:3])} ... rc={p.returncode}\n{p.stderr[-4000:]}\n")
    errlog.flush()
    return p


FAKE_TORCH = r"""
# A stand-in for torch over the mock libcupti (gpu/python_monitor.py --self-test --wheel W): each step
# launches 6 kernels; torch.profiler counts the kernels launched inside it.
import json, types
from accelprof._native import _testing as T
_launched = [0]
def _launch(name, n):
    T.cupti_launch(name, n)
    _launched[0] += n
class _Loss:
    def backward(self): _launch("bwd", 2)
class _Module:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k):
        _launch("fwd", 3)
        return None
    def to(self, dev): return self
    def parameters(self): return []
class _Opt:
    def __init__(self, *a, **k): pass
    def zero_grad(self, set_to_none=True): pass
    def step(self): _launch("opt", 1)
nn = types.SimpleNamespace(Sequential=_Module, Conv2d=_Module, BatchNorm2d=_Module, ReLU=_Module,
                           AdaptiveAvgPool2d=_Module, Flatten=_Module, Linear=_Module,
                           functional=types.SimpleNamespace(cross_entropy=lambda out, y: _Loss()))
optim = types.SimpleNamespace(SGD=_Opt)
def manual_seed(s): pass
def randn(*a, **k): return None
def randint(*a, **k): return None
cuda = types.SimpleNamespace(synchronize=T.cupti_synchronize)
class _Profile:
    def __init__(self, activities=None): self.n = 0
    def __enter__(self):
        self.start = _launched[0]
        return self
    def __exit__(self, *exc): self.n = _launched[0] - self.start
    def export_chrome_trace(self, path):
        json.dump({"traceEvents": [{"cat": "kernel"}] * self.n}, open(path, "w"))
profiler = types.SimpleNamespace(profile=_Profile, ProfilerActivity=types.SimpleNamespace(CPU=0, CUDA=1))
"""


def self_test_pipeline(wheel):
    """The whole run (install, example, torch.profiler count, coexistence, benchmark rounds) with a
    stand-in torch over the mock libcupti of a wheel built with the `mocks` feature."""
    from accelprof._native import _testing

    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "torch"))
        with open(os.path.join(d, "torch", "__init__.py"), "w") as f:
            f.write(FAKE_TORCH)
        os.environ["PYTHONPATH"] = os.pathsep.join([d, os.environ.get("PYTHONPATH", "")])
        out = os.path.join(d, "out")
        rc = main(["--wheel", wheel, "--out", out, "--cupti", _testing.cupti_library(), "--steps", "10",
                   "--warmup", "2", "--budget-s", "5", "--min-rounds", "2"])
        with open(os.path.join(out, "python_monitor.json")) as f:
            res = json.load(f)
    assert rc == 0, res
    assert res["example"]["output"] == "120 kernels; 120 in t.parquet", res["example"]
    assert res["example"]["torch_profiler_kernels"] == 120 and res["coexist"]["equal_to_alone"], res
    assert res["bench"]["rounds"] == 2, res["bench"]
    print("self-test pipeline ok")
    return 0


def self_test():
    rng = random.Random(1)
    rounds = []
    for _ in range(12):
        base = 0.010 + rng.uniform(-1e-4, 1e-4)
        rounds.append({"none": base, "rust": base + 0.001, "python": base + 0.00105, "torch": base + 0.004})
    s = summarize(rounds)
    r, lo, hi = s["ratio_python_over_rust"]
    assert abs(r - 1.05) < 1e-6, s
    assert lo <= r <= hi, s
    assert abs(s["added_torch_ms"][0] - 4.0) < 1e-6, s
    assert "work()" in example_code(), "the README's example calls work()"
    print("self-test ok", json.dumps(s))
    try:
        from accelprof._native import _testing
    except ImportError:
        print("(no accelprof wheel with the mocks here: the children's plumbing is not run)")
        return 0
    env = dict(os.environ, CUPTI_LIBRARY_PATH=_testing.cupti_library())
    child = BENCH_CHILD.replace(WORKLOAD, MOCK_WORKLOAD)
    for mode in ("none", "rust", "python"):
        cfg = json.dumps({"mode": mode, "steps": 5, "warmup": 2})
        p = subprocess.run([sys.executable, "-c", child, cfg], env=env, capture_output=True, text=True,
                           timeout=120, cwd=tempfile.gettempdir())
        line = next((l for l in p.stdout.splitlines() if l.startswith("RESULT ")), None)
        assert p.returncode == 0 and line, (mode, p.stdout, p.stderr)
        res = json.loads(line[7:])
        if mode != "none":
            assert res["kernel_rows"] == 7 * 20 and res["api_rows"] >= 7 * 20, res
            assert res["adds_up"] and res["dropped"] == 0 and res["callback_errors"] == 0, res
        print("self-test child", json.dumps(res))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheel", help="the accelprof wheel, or a directory holding it")
    ap.add_argument("--deps", help="a directory of wheels to install too (pyarrow, numpy)")
    ap.add_argument("--out", default="python_monitor_out")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=32)
    ap.add_argument("--budget-s", type=float, default=360)
    ap.add_argument("--min-rounds", type=int, default=4)
    ap.add_argument("--floor", help="libcount_records.so (benches/c/count_records.c): the C client's count")
    ap.add_argument("--shim", help="libcupti_shim.so to preload for the example next to torch.profiler")
    ap.add_argument("--cupti", help="libcupti to use (CUPTI_LIBRARY_PATH); default the tracer's search")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        rc = self_test()
        return rc if rc or not args.wheel else self_test_pipeline(args.wheel)
    if not args.wheel:
        ap.error("--wheel is needed")
    import time

    start = time.monotonic()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    errlog = open(os.path.join(out, "child_stderr.txt"), "w")
    pylib = os.path.join(out, ".pylib")
    wheels = [args.wheel] if args.wheel.endswith(".whl") else glob.glob(os.path.join(args.wheel, "accelprof-*.whl"))
    p = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                        "--target", pylib, *wheels], capture_output=True, text=True)
    if p.returncode != 0 or len(wheels) != 1:
        print("pip install of the accelprof wheel failed:", wheels, p.stderr[-2000:])
        return 1
    print("installed:", os.path.basename(wheels[0]))
    if args.deps:
        # One at a time, only those the machine lacks: a wheel for another Python only skips itself.
        for w in sorted(glob.glob(os.path.join(args.deps, "*.whl"))):
            name = os.path.basename(w).split("-")[0]
            if subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True).returncode == 0:
                continue
            p = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                                "--target", pylib, w], capture_output=True, text=True)
            print("installed:" if p.returncode == 0 else "not installed:", os.path.basename(w))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([pylib, env.get("PYTHONPATH", "")])
    if args.cupti:
        env["CUPTI_LIBRARY_PATH"] = os.path.abspath(args.cupti)
    results = {"ok": True}

    # 1. The README's example, and torch.profiler's count of the same steps.
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([sys.executable, "-c", EXAMPLE_CHILD + example_code()], env=env, cwd=d,
                           capture_output=True, text=True, timeout=300)
        errlog.write(f"--- example rc={p.returncode}\n{p.stderr[-4000:]}\n")
        example_line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else f"(failed, rc={p.returncode})"
        p2 = subprocess.run([sys.executable, "-c", TORCH_COUNT_CHILD, os.path.join(d, "torch.json")], env=env,
                            capture_output=True, text=True, timeout=300)
        errlog.write(f"--- torch count rc={p2.returncode}\n{p2.stderr[-4000:]}\n")
    m = re.match(r"(\d+) kernels; (\d+) in t.parquet", example_line)
    t = re.search(r"torch.profiler kernels (\d+)", p2.stdout)
    counts = (int(m.group(1)), int(m.group(2)), int(t.group(1))) if m and t else None
    results["example"] = {"output": example_line, "torch_profiler_kernels": int(t.group(1)) if t else None,
                          "equal": bool(counts) and len(set(counts)) == 1}
    print("README example:", example_line)
    print("torch.profiler kernels over the same 20 steps:", results["example"]["torch_profiler_kernels"])
    print("equal:", results["example"]["equal"])
    if args.floor:
        c = {}
        for n in (20, 0):
            with tempfile.TemporaryDirectory() as d:
                cenv = dict(env, CUDA_INJECTION64_PATH=os.path.abspath(args.floor),
                            COUNT_RECORDS_OUT=os.path.join(d, "c.json"))
                p = subprocess.run([sys.executable, "-c", C_CLIENT_CHILD, str(n)], env=cenv,
                                   capture_output=True, text=True, timeout=300)
                errlog.write(f"--- C client {n} steps rc={p.returncode}\n{p.stderr[-4000:]}\n")
                try:
                    with open(os.path.join(d, "c.json")) as f:
                        c[n] = json.load(f)["by_kind"].get("10", 0)
                except (OSError, ValueError, KeyError):
                    c[n] = None
        ck = c[20] - c[0] if c[20] is not None and c[0] is not None else None
        results["example"]["c_client_kernels"] = ck
        results["example"]["equal_to_c_client"] = bool(counts) and ck == counts[0]
        print("minimal C client kernels over the same 20 steps:", ck)
        results["ok"] &= results["example"]["equal_to_c_client"]

    # 1b. The same with torch.profiler on in the example's process (with the CUPTI sharing shim
    # preloaded when --shim is given: docs/CUPTI-SHARING.md).
    cenv = dict(env)
    if args.shim:
        cenv["LD_PRELOAD"] = os.pathsep.join(filter(None, [os.path.abspath(args.shim), env.get("LD_PRELOAD")]))
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([sys.executable, "-c", COEXIST_CHILD + example_code()], env=cenv, cwd=d,
                           capture_output=True, text=True, timeout=300)
        errlog.write(f"--- coexist rc={p.returncode}\n{p.stderr[-4000:]}\n")
    lines = p.stdout.strip().splitlines()
    t = re.search(r"torch.profiler kernels (\d+)", p.stdout)
    m = re.match(r"(\d+) kernels; (\d+) in t.parquet", lines[-1]) if lines else None
    results["coexist"] = {
        "shim": bool(args.shim),
        "output": lines[-1] if lines else f"(failed, rc={p.returncode})",
        "torch_profiler_kernels": int(t.group(1)) if t else None,
        "equal_to_alone": bool(m and t and counts)
        and int(m.group(1)) == int(t.group(1)) == counts[2],
    }
    print("with torch.profiler in the process:", results["coexist"])
    results["ok"] &= results["coexist"]["equal_to_alone"]

    # 2. The benchmark.
    rounds, details = [], []
    per_round = None
    r = 0
    while True:
        elapsed = time.monotonic() - start
        if len(rounds) >= args.min_rounds and per_round and elapsed + per_round > args.budget_s:
            break
        if len(rounds) >= args.min_rounds and elapsed > args.budget_s:
            break
        t0 = time.monotonic()
        order = MODES[r % len(MODES):] + MODES[:r % len(MODES)]
        row = {}
        for mode in order:
            cfg = json.dumps({"mode": mode, "steps": args.steps, "warmup": args.warmup})
            p = run([sys.executable, "-c", BENCH_CHILD, cfg], env, errlog)
            line = next((l for l in p.stdout.splitlines() if l.startswith("RESULT ")), None)
            if p.returncode != 0 or line is None:
                print(f"round {r} mode {mode} failed (rc={p.returncode}); see child_stderr.txt")
                results["ok"] = False
                row = None
                break
            res = json.loads(line[7:])
            details.append({"round": r, **res})
            row[mode] = res["median_step_s"]
            if mode in ("rust", "python") and not (res["adds_up"] and res["dropped"] == 0):
                print(f"round {r} {mode}: records do not add up: {res}")
                results["ok"] = False
        if row is None:
            break
        rounds.append(row)
        per_round = time.monotonic() - t0
        print(f"round {r}: " + ", ".join(f"{k} {v * 1e3:.3f} ms" for k, v in row.items()), flush=True)
        r += 1
    if rounds:
        results["bench"] = summarize(rounds)
    results["details"] = details
    with open(os.path.join(out, "python_monitor.json"), "w") as f:
        json.dump(results, f, indent=1)
    lines = [f"python_monitor: {len(rounds)} paired rounds, {args.steps} timed steps per process"]
    if rounds:
        b = results["bench"]
        for mode in ("rust", "python", "torch"):
            v, lo, hi = b[f"added_{mode}_ms"]
            lines.append(f"  added per step, {mode:6s}: {v:8.4f} ms  [95% {lo:.4f} .. {hi:.4f}]")
        v, lo, hi = b["ratio_python_over_rust"]
        fmt = lambda x: "n/a" if x is None else f"{x:.3f}"
        lines.append(f"  ratio python/rust added: {fmt(v)}  [95% {fmt(lo)} .. {fmt(hi)}]  (goal <= 1.1)")
        for mode in ("rust", "python"):
            ks = sorted({d["kernel_rows"] for d in details if d["mode"] == mode})
            lines.append(f"  kernel rows seen per {mode} process: {ks}")
    lines.append(f"  README example: {results['example']['output']}; torch.profiler: "
                 f"{results['example']['torch_profiler_kernels']}; equal: {results['example']['equal']}; "
                 f"C client: {results['example'].get('c_client_kernels', 'not run (--floor)')}")
    c = results["coexist"]
    lines.append(f"  next to torch.profiler (shim {'on' if c['shim'] else 'off'}): {c['output']}; torch.profiler: "
                 f"{c['torch_profiler_kernels']}; equal to alone: {c['equal_to_alone']}")
    lines.append("RESULT " + ("ok" if results["ok"] else "FAILED"))
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "python_monitor.txt"), "w") as f:
        f.write(text + "\n")
    return 0 if results["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
