#!/usr/bin/env python3
"""The tracer as a user meets it, on a GPU machine with PyTorch: self-checking, summary printed last.

    python3 gpu/torch_trace_check.py --launcher .device/bin/accelprof [--out DIR] [--steps 5]

`--launcher` is the `accelprof` executable (a release build carries `libaccelprof_inject.so`:
`cargo build --release -p accelprof`), run as `accelprof trace --vendor cuda`. Checks, each in fresh processes, on a small training workload
(a 2-layer transformer encoder step with AdamW, a pinned host-to-device copy on a second stream, 20 tiny
ops):

1. streamed .json.gz: `accelprof trace --vendor cuda -o ours.json.gz --capture-range profiler-api -- python <step script>` (the
   steps between torch.cuda.profiler.start() and stop()); the trace is a whole gzip JSON and the
   demangler was the C++ runtime's.
2. kernel names: the multiset of kernel names of those steps equals the one torch.profiler (CUDA
   activities) records for the same steps in another process.
3. SIGTERM mid-run (to the launcher, as a scheduler does) and Ctrl-C mid-run (a real terminal: the script
   types ^C into a pseudo-terminal): each leaves a complete trace, and the launcher ends as the program did.
4. memory: RSS of a process launching `--memory-kernels` tiny kernels (default 1,000,000) with the
   trace file on (.json.gz) stays flat: growth from the first quarter to the end under 64 MiB.
5. HolisticTraceAnalysis loads our trace (when `import hta` works here; otherwise run
   accelprof-mocks/hta/check_traces.py on OUT/hta_ours on a machine that has it).

Trace files stay in OUT (default gpu/out/trace_check) for Perfetto, HTA and the closing note.
"""
import argparse
import collections
import glob
import gzip
import json
import os
import pty
import select
import signal
import site
import subprocess
import sys
import time

CHILD = r"""
import json, os, sys, time
import torch
import torch.nn as nn

mode, steps, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
torch.manual_seed(0)
torch.backends.cudnn.benchmark = False
dev = "cuda"
layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, batch_first=True)
model = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(16, 128, 256, device=dev)
side = torch.cuda.Stream()
pinned = torch.empty(4 << 20, dtype=torch.uint8).pin_memory()
device_buf = torch.empty(4 << 20, dtype=torch.uint8, device=dev)
tiny = torch.zeros(1, device=dev)

def step():
    opt.zero_grad(set_to_none=True)
    loss = model(x).float().pow(2).mean()
    loss.backward()
    opt.step()
    with torch.cuda.stream(side):
        device_buf.copy_(pinned, non_blocking=True)
    torch.cuda.current_stream().wait_stream(side)
    for _ in range(20):
        tiny.add_(1.0)

for _ in range(3):
    step()
torch.cuda.synchronize()

if mode == "ours":
    torch.cuda.profiler.start()
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
elif mode == "torch":
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    prof.export_chrome_trace(out)
elif mode == "memory":
    def rss_mib():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
        return -1.0
    samples, every = [], max(1, steps // 20)
    for i in range(steps):
        tiny.add_(1.0)
        if (i + 1) % every == 0:
            torch.cuda.synchronize()
            samples.append([i + 1, rss_mib()])
    torch.cuda.synchronize()
    print(json.dumps({"samples": samples}), flush=True)
elif mode == "loop":
    i = 0
    while True:
        step()
        i += 1
        if i % 5 == 0:
            torch.cuda.synchronize()
            print(f"step {i}", flush=True)
print(json.dumps({"mode": mode, "value": tiny.item()}), flush=True)
"""


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return json.loads(f.read())


def kernel_names(trace):
    return collections.Counter(e["name"] for e in trace["traceEvents"] if e.get("cat") == "kernel")


def env_with_cupti():
    env = dict(os.environ)
    env.pop("CUDA_INJECTION64_PATH", None)
    if "CUPTI_LIBRARY_PATH" not in env:
        for base in site.getsitepackages() + [site.getusersitepackages()]:
            for pattern in ("nvidia/cu13/lib/libcupti.so*", "nvidia/cuda_cupti/lib/libcupti.so*"):
                found = sorted(glob.glob(os.path.join(base, pattern)))
                if found:
                    env["CUPTI_LIBRARY_PATH"] = found[0]
                    break
            if "CUPTI_LIBRARY_PATH" in env:
                break
    return env


def fresh_dir(path):
    os.makedirs(path, exist_ok=True)
    for f in glob.glob(os.path.join(path, "*")):
        os.remove(f)
    return path


class Checks:
    def __init__(self):
        self.rows = []

    def add(self, name, ok, detail):
        status = "OK" if ok is True else ("SKIP" if ok is None else "FAIL")
        self.rows.append((name, status, detail))
        print(f"--> {name}: {status} {detail}", flush=True)

    def failed(self):
        return any(s == "FAIL" for _, s, _ in self.rows)


def run_launcher(args, out, options, mode, steps, env):
    cmd = args.launcher + options + ["--", sys.executable, "-c", CHILD, mode, str(steps), out]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)


def check_streamed_and_names(args, checks, env):
    ours_dir = fresh_dir(os.path.join(args.out, "hta_ours"))
    ours = os.path.join(ours_dir, "ours.json.gz")
    p = run_launcher(args, args.out, ["-o", ours, "--capture-range", "profiler-api"], "ours", args.steps, env)
    sys.stderr.write(p.stderr[-4000:])
    if p.returncode != 0 or not os.path.exists(ours):
        checks.add("streamed .json.gz trace under the launcher", False, f"status {p.returncode}, no {ours}")
        return None
    with open(ours, "rb") as f:
        magic = f.read(2)
    trace = load(ours)
    names = kernel_names(trace)
    events = len(trace["traceEvents"])
    ok = magic == b"\x1f\x8b" and sum(names.values()) > 0 and "traceSummary" in trace
    demangler = trace.get("kernel_name_demangler")
    checks.add(
        "streamed .json.gz trace under the launcher",
        ok,
        f"{sum(names.values())} kernels, {events} events, {os.path.getsize(ours) / 1e6:.2f} MB, "
        f"demangler {demangler}, dropped {trace['traceSummary'].get('records_dropped')}",
    )
    checks.add("kernel names demangled by the C++ runtime", demangler == "abi::__cxa_demangle", str(demangler))

    torch_dir = fresh_dir(os.path.join(args.out, "hta_torch"))
    torch_trace = os.path.join(torch_dir, "torch.json.gz")
    q = subprocess.run([sys.executable, "-c", CHILD, "torch", str(args.steps), torch_trace],
                       env=env, capture_output=True, text=True, timeout=600)
    if q.returncode != 0:
        sys.stderr.write(q.stderr[-4000:])
        checks.add("kernel names equal torch.profiler's", False, f"torch.profiler run failed ({q.returncode})")
        return ours_dir
    theirs = kernel_names(load(torch_trace))
    only_ours, only_theirs = names - theirs, theirs - names
    same = names == theirs
    detail = f"{sum(names.values())} kernels ({len(names)} distinct) vs torch.profiler {sum(theirs.values())} ({len(theirs)} distinct)"
    if not same:
        detail += f"; only ours {sum(only_ours.values())}, only torch.profiler {sum(only_theirs.values())}"
        for name, n in list(only_ours.items())[:3]:
            print(f"    only ours x{n}: {name[:160]}")
        for name, n in list(only_theirs.items())[:3]:
            print(f"    only torch.profiler x{n}: {name[:160]}")
    checks.add("kernel names equal torch.profiler's (multiset)", same, detail)
    return ours_dir


def wait_for_steps(stream_read, deadline, want=2):
    """Reads the child's output until `want` 'step' lines were seen; returns the text read."""
    seen, text = 0, ""
    while time.time() < deadline and seen < want:
        chunk = stream_read()
        if chunk is None:
            continue
        if chunk == "":
            break
        text += chunk
        seen = text.count("step ")
    return text, seen >= want


def check_sigterm(args, checks, env):
    d = fresh_dir(os.path.join(args.out, "sigterm"))
    trace_path = os.path.join(d, "sigterm.json.gz")
    cmd = args.launcher + ["-o", trace_path, "--", sys.executable, "-c", CHILD, "loop", "0", d]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def read():
        r, _, _ = select.select([p.stdout], [], [], 0.5)
        return p.stdout.readline() if r else None

    _, ran = wait_for_steps(read, time.time() + 300)
    time.sleep(1.0)
    partial = glob.glob(os.path.join(d, "*.partial-*"))
    p.send_signal(signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    sys.stderr.write(err[-3000:])
    ok, detail = False, f"launcher status {p.returncode}"
    if os.path.exists(trace_path):
        trace = load(trace_path)
        kernels = sum(kernel_names(trace).values())
        ok = ran and bool(partial) and p.returncode == -signal.SIGTERM and kernels > 0 and "traceSummary" in trace
        detail = (f"streamed before the signal: {bool(partial)}; launcher died of SIGTERM: "
                  f"{p.returncode == -signal.SIGTERM}; {kernels} kernels; summary in file: {'traceSummary' in trace}; "
                  f"summary on stderr: {'kernel launches' in err}")
        ok = ok and "kernel launches" in err
    checks.add("SIGTERM mid-run leaves a complete trace", ok, detail)


def check_ctrl_c(args, checks, env):
    d = fresh_dir(os.path.join(args.out, "ctrl_c"))
    trace_path = os.path.join(d, "ctrl_c.json.gz")
    cmd = args.launcher + ["-o", trace_path, "--", sys.executable, "-c", CHILD, "loop", "0", d]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(cmd[0], cmd, env)

    def read():
        r, _, _ = select.select([fd], [], [], 0.5)
        if not r:
            return None
        try:
            return os.read(fd, 65536).decode(errors="replace")
        except OSError:
            return ""

    text, ran = wait_for_steps(read, time.time() + 300)
    time.sleep(1.0)
    os.write(fd, b"\x03")  # Ctrl-C: the terminal sends SIGINT to the foreground process group
    deadline = time.time() + 120
    status = None
    while time.time() < deadline:
        chunk = read()
        if chunk:
            text += chunk
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
            break
    if status is None:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    while True:
        chunk = read()
        if not chunk:
            break
        text += chunk
    os.close(fd)
    print(text[-3000:])
    ok, detail = False, f"wait status {status}"
    if os.path.exists(trace_path):
        trace = load(trace_path)
        kernels = sum(kernel_names(trace).values())
        # Python turns SIGINT into KeyboardInterrupt and exits (status 1 after the traceback, or
        # killed by SIGINT): the trace is finished by the exit handler either way.
        ok = ran and kernels > 0 and "traceSummary" in trace
        detail = (f"{kernels} kernels; summary in file: {'traceSummary' in trace}; "
                  f"launcher {'died of SIGINT' if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT else 'exited ' + str(os.WEXITSTATUS(status) if os.WIFEXITED(status) else status)}")
    checks.add("Ctrl-C (a real terminal) mid-run leaves a complete trace", ok, detail)


def check_memory(args, checks, env):
    d = fresh_dir(os.path.join(args.out, "memory"))
    trace_path = os.path.join(d, "memory.json.gz")
    p = run_launcher(args, d, ["-o", trace_path], "memory", args.memory_kernels, env)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{\"samples\"")]
    if p.returncode != 0 or not lines:
        sys.stderr.write(p.stderr[-3000:])
        checks.add("memory flat with the trace file on", False, f"status {p.returncode}")
        return
    samples = json.loads(lines[-1])["samples"]
    quarter = samples[len(samples) // 4][1]
    last = samples[-1][1]
    trace = load(trace_path)
    kernels = trace["traceSummary"]["kernel_records"]
    growth = last - quarter
    checks.add(
        "memory flat with the trace file on",
        growth < 64 and kernels >= args.memory_kernels,
        f"RSS {samples[0][1]:.0f} -> {quarter:.0f} (1/4) -> {last:.0f} MiB over {args.memory_kernels} kernels "
        f"(+{growth:.1f} MiB after the first quarter); {kernels} kernel records; trace {os.path.getsize(trace_path) / 1e6:.1f} MB",
    )


def check_hta(args, checks, ours_dir, env):
    try:
        import hta  # noqa: F401
    except ImportError:
        checks.add("HolisticTraceAnalysis loads our trace", None,
                   f"HTA not installed here: run accelprof-mocks/hta/check_traces.py {ours_dir} <kernels> -1 elsewhere")
        return
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "accelprof-mocks", "hta", "check_traces.py")
    trace = load(os.path.join(ours_dir, "ours.json.gz"))
    kernels = sum(kernel_names(trace).values())
    p = subprocess.run([sys.executable, script, ours_dir, str(kernels), "-1"], capture_output=True, text=True)
    print(p.stdout[-2000:] + p.stderr[-2000:])
    checks.add("HolisticTraceAnalysis loads our trace", p.returncode == 0, p.stdout.strip().splitlines()[-1][:200] if p.stdout else p.stderr[-200:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launcher", required=True, help="the accelprof executable")
    ap.add_argument("--out", default=os.path.join(os.environ.get("OUT", os.path.join(os.path.dirname(__file__), "out")), "trace_check"))
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--memory-kernels", type=int, default=1_000_000)
    args = ap.parse_args()
    args.launcher = [os.path.abspath(args.launcher), "trace", "--vendor", "cuda"]
    os.makedirs(args.out, exist_ok=True)
    env = env_with_cupti()
    print(f"launcher: {args.launcher}\nCUPTI_LIBRARY_PATH={env.get('CUPTI_LIBRARY_PATH', '<the one torch loads>')}\nout: {args.out}", flush=True)
    checks = Checks()
    ours_dir = check_streamed_and_names(args, checks, env)
    check_sigterm(args, checks, env)
    check_ctrl_c(args, checks, env)
    if args.memory_kernels > 0:
        check_memory(args, checks, env)
    if ours_dir:
        check_hta(args, checks, ours_dir, env)
    print("\nSUMMARY")
    for name, status, detail in checks.rows:
        print(f"  {status:4s} {name:58s} {detail}")
    verdict = "FAIL" if checks.failed() else "PASS"
    print(f"  {verdict}")
    return 1 if checks.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
