#!/usr/bin/env python3
"""One PyTorch training job traced to Parquet, Perfetto and JSON at once, read back by tools we did not write.

Runs a small transformer training job (bf16, AdamW, one NVTX range `ProfilerStep#N` per step) under the
injection library `libcupti_columns.so` (accelprof-export's example), which writes rank0.parquet,
rank0.pftrace and rank0.json from the same batches. Then, and also on its own with `--check DIR`:
  1. pyarrow reads the Parquet file, Perfetto's own message definitions (`perfetto_trace_pb2`) read the
     Perfetto file: kernel, copy and set counts and names must equal the JSON trace's
     (accelprof-export/python/check_export.py);
  2. our analysis (`accelprof-analyze analyze DIR --json --hta-window`) next to HTA 0.5's
     get_gpu_kernel_breakdown and get_temporal_breakdown on the JSON trace, HTA without its microsecond
     rounding (accelprof-analyze/python/compare_hta.py --ns), when HTA can be imported.

    python3 gpu/torch_columns.py --lib .device/libcupti_columns.so --analyze .device/accelprof-analyze \\
        --wheels .device/wheels --out $OUT/columns

`--wheels DIR`: wheels to install (into a private directory, nothing else touched) on a machine without
network: perfetto and protobuf for the Perfetto check; HolisticTraceAnalysis, plotly, narwhals, networkx,
pydot, pyparsing, psutil, pyyaml for HTA (which also needs pandas and numpy installed). `--analyze` may be an
`.xz` file (decompressed next to the traces). Exits 1 when a check fails; the summary is printed last.
"""
import argparse
import glob
import lzma
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK_EXPORT = os.path.join(ROOT, "accelprof-export", "python", "check_export.py")
COMPARE_HTA = os.path.join(ROOT, "accelprof-analyze", "python", "compare_hta.py")


def job(steps):
    """The traced job (runs in the child process)."""
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    dev = "cuda"
    model = nn.TransformerEncoder(
        nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, batch_first=True), num_layers=4
    ).to(dev)
    head = nn.Linear(512, 1000).to(dev)
    opt = torch.optim.AdamW(list(model.parameters()) + list(head.parameters()), lr=1e-4)
    data = torch.randn(32, 128, 512, pin_memory=True)
    labels = torch.randint(0, 1000, (32, 128), pin_memory=True)
    for step in range(steps):
        torch.cuda.nvtx.range_push(f"ProfilerStep#{step}")
        x = data.to(dev, non_blocking=True)
        y = labels.to(dev, non_blocking=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(head(model(x)).flatten(0, 1), y.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        loss.item()  # the host waits for the step, as a training loop that logs its loss does
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


def find_cupti():
    """libcupti of the CUDA PyTorch uses (for NVTX_INJECTION64_PATH)."""
    import importlib.util

    for pkg in ("nvidia.cu13", "nvidia.cuda_cupti", "nvidia"):
        try:
            spec = importlib.util.find_spec(pkg)
        except ModuleNotFoundError:
            continue
        for base in list(spec.submodule_search_locations or []):
            hits = sorted(glob.glob(os.path.join(base, "**", "libcupti.so*"), recursive=True))
            if hits:
                return hits[-1]
    for base in ("/usr/local/cuda/extras/CUPTI/lib64", "/usr/local/cuda/lib64"):
        hits = sorted(glob.glob(os.path.join(base, "libcupti.so*")))
        if hits:
            return hits[-1]
    return None


def run(cmd, env=None):
    print("+ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        sys.stdout.write(p.stderr[-4000:])
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", help="libcupti_columns.so")
    ap.add_argument("--analyze", required=True, help="the accelprof-analyze binary")
    ap.add_argument("--out", default=os.environ.get("OUT", "columns_out"))
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--wheels", help="a directory of wheels to import from")
    ap.add_argument("--check", metavar="DIR", help="only check an existing directory of traces")
    ap.add_argument("--job", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.job:
        job(args.steps)
        return 0

    env = dict(os.environ)
    out = os.path.abspath(args.check or args.out)
    os.makedirs(out, exist_ok=True)
    results = {}
    if args.wheels:
        pylib = os.path.join(out, ".pylib")
        shutil.rmtree(pylib, ignore_errors=True)
        names = sorted({os.path.basename(w).split("-")[0] for w in glob.glob(os.path.join(args.wheels, "*.whl"))})
        missing = []
        for name in names:  # one at a time: a wheel for another Python version only skips itself
            p = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                                "--find-links", os.path.abspath(args.wheels), "--target", pylib, name],
                               capture_output=True, text=True)
            if p.returncode != 0:
                missing.append(name)
        env["PYTHONPATH"] = os.pathsep.join([pylib, env.get("PYTHONPATH", "")])
        results["wheels installed"] = f"{len(names) - len(missing)} of {len(names)}" + (
            f" (not: {', '.join(missing)})" if missing else "")
    if args.analyze.endswith(".xz"):
        binary = os.path.join(out, ".accelprof-analyze")
        with lzma.open(args.analyze) as src, open(binary, "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.chmod(binary, 0o755)
        args.analyze = binary
    if not args.check:
        if not args.lib:
            ap.error("--lib is needed to trace (or --check DIR)")
        for f in glob.glob(os.path.join(out, "rank*")):
            os.remove(f)
        job_env = dict(env, CUDA_INJECTION64_PATH=os.path.abspath(args.lib), ACCELPROF_OUT=out)
        cupti = find_cupti()
        if cupti:
            job_env["NVTX_INJECTION64_PATH"] = cupti
        p = run([sys.executable, os.path.abspath(__file__), "--job", "--steps", str(args.steps),
                 "--analyze", args.analyze], env=job_env)
        sys.stdout.write("".join(l + "\n" for l in p.stderr.splitlines() if "[accelprof]" in l))
        results["traced job"] = p.returncode == 0
        if p.returncode != 0:
            print("the traced job failed")
            return 1
        results["NVTX steps"] = "recorded" if cupti else "not injected (no libcupti found)"

    p = run([sys.executable, CHECK_EXPORT, out], env=env)
    results["Parquet (pyarrow) and Perfetto (perfetto_trace_pb2) vs JSON"] = p.returncode == 0
    has_hta = subprocess.run([sys.executable, "-c", "import hta.trace_analysis"], env=env,
                             capture_output=True).returncode == 0
    if has_hta:
        p = run([sys.executable, COMPARE_HTA, "--analyze", args.analyze, out, "--ns"], env=env)
        results["analysis vs HTA kernel and temporal breakdown"] = p.returncode == 0
    else:
        p = run([args.analyze, "analyze", out, "--top", "8"], env=env)
        results["accelprof-analyze ran"] = p.returncode == 0
        results["analysis vs HTA"] = (f"skipped (no HTA here): python3 {COMPARE_HTA} --analyze "
                                      f"target/release/accelprof-analyze {out} --ns")

    print("\nsummary")
    for what, ok in results.items():
        print(f"  {what}: {'OK' if ok is True else 'FAILED' if ok is False else ok}")
    return 0 if all(ok is not False for ok in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
