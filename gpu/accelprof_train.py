#!/usr/bin/env python3
"""Issue 18's check on a GPU machine: `accelprof trace -o t.json.gz -o t.parquet -- python train.py`, with the
kernel count next to torch.profiler's for the same training run.

    python3 gpu/accelprof_train.py --accelprof .device/inst/bin/accelprof --out $OUT/train

The training script (written to OUT/train.py): a 2-layer transformer encoder and a small CNN trained with
AdamW under autocast (bf16) for 12 steps. Run 1: under `accelprof trace` (the command alone, HOME fresh, so it
writes its carried libraries to a private cache first). Run 2: the same script with torch.profiler (CUDA
activities) around all of it, in another process. Prints both counts, the Parquet file's kernel rows, and
`RESULT ok` when our kernel count equals torch.profiler's (its CUDA events less `Memcpy*`/`Memset*`)
and the two files agree.
"""
import argparse
import glob
import gzip
import json
import os
import subprocess
import sys

TRAIN = r"""
import sys, torch, torch.nn as nn
torch.manual_seed(0)
torch.backends.cudnn.benchmark = False
dev = "cuda"
prof = None
if len(sys.argv) > 1 and sys.argv[1] == "torch":
    from torch.profiler import profile, ProfilerActivity
    prof = profile(activities=[ProfilerActivity.CUDA])
    prof.__enter__()
layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, batch_first=True)
tr = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).to(dev)
cnn = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                    nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)).to(dev)
opt = torch.optim.AdamW(list(tr.parameters()) + list(cnn.parameters()), lr=1e-4)
x = torch.randn(16, 128, 256, device=dev)
img = torch.randn(32, 3, 32, 32, device=dev)
y = torch.randint(0, 10, (32,), device=dev)
for step in range(12):
    opt.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = tr(x).float().pow(2).mean() + nn.functional.cross_entropy(cnn(img), y)
    loss.backward()
    opt.step()
torch.cuda.synchronize()
if prof is not None:
    prof.__exit__(None, None, None)
    gpu = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    copies = sum(1 for e in gpu if e.name.startswith("Memcpy"))
    sets = sum(1 for e in gpu if e.name.startswith("Memset"))
    print("TORCH_KERNELS", len(gpu) - copies - sets, copies, sets)
print("train done", float(loss))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accelprof", required=True)
    ap.add_argument("--out", default="gpu/out/train")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(os.path.join(out, "home"), exist_ok=True)
    script = os.path.join(out, "train.py")
    open(script, "w").write(TRAIN)
    env = dict(os.environ, HOME=os.path.join(out, "home"))
    env.pop("XDG_CACHE_HOME", None)
    cmd = [os.path.abspath(args.accelprof), "trace", "-o", os.path.join(out, "t.json.gz"), "-o",
           os.path.join(out, "t.parquet"), "--", sys.executable, script]
    print("$", " ".join(cmd), flush=True)
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=out)
    print(r.stdout[-2000:], r.stderr[-4000:], sep="\n")
    print("exit status", r.returncode)
    trace = json.load(gzip.open(os.path.join(out, "t.json.gz")))
    ours = sum(1 for e in trace["traceEvents"] if e.get("cat") == "kernel")
    rows = None
    try:
        import pyarrow.parquet as pq
        t = pq.read_table(os.path.join(out, "t.parquet"))
        fam = [c for c in t.column_names if c in ("family", "kind", "record_family")]
        if fam:
            rows = sum(1 for v in t.column(fam[0]).to_pylist() if str(v).lower().startswith("kernel"))
        print("parquet columns:", t.column_names[:12], "rows", t.num_rows)
    except Exception as e:  # the check still reports the JSON side
        print("parquet not read:", e)
    t = subprocess.run([sys.executable, script, "torch"], capture_output=True, text=True, cwd=out)
    line = next(l.split() for l in t.stdout.splitlines() if l.startswith("TORCH_KERNELS"))
    theirs, their_copies, their_sets = int(line[1]), int(line[2]), int(line[3])
    ours_copies = sum(1 for e in trace["traceEvents"] if e.get("cat") == "gpu_memcpy")
    ours_sets = sum(1 for e in trace["traceEvents"] if e.get("cat") == "gpu_memset")
    print(f"copies: accelprof {ours_copies}, torch.profiler {their_copies}; sets: accelprof {ours_sets}, "
          f"torch.profiler {their_sets}")
    cache = glob.glob(os.path.join(out, "home", ".cache", "accelprof", "*"))
    modes = [oct(os.stat(p).st_mode & 0o777) for p in cache]
    print(f"kernels: accelprof {ours} (json.gz), parquet kernel rows {rows}; torch.profiler {theirs}; "
          f"cache {cache} modes {modes}")
    ok = r.returncode == 0 and ours == theirs and (rows is None or rows == ours)
    print("RESULT", "ok" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
