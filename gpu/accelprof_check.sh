#!/usr/bin/env bash
# The installed `accelprof` command on a GPU machine: one executable, nothing next to it.
#
# Built elsewhere (no cargo on the GPU machine) with the README's install line, and carried alone:
#
#   cargo install --locked --path accelprof --root .device/accelprof
#   gpu/accelprof_check.sh .device/accelprof/bin/accelprof      # on the GPU machine
#
# Expect: `info` prints `cuda   CUPTI (libcupti): found at <path>, version 13.x...` (or the 12.x API
# version) and a not-found line for rocm and ascend; the trace of a small PyTorch workload is written
# (status 0) with kernels in it; the libraries were written to $HOME/.cache/accelprof/<version>-<hash>/
# (mode 0700) and used from there. Prints `accelprof check: ok` last, else the failing step.
set -euo pipefail
bin=$(readlink -f "${1:?the accelprof executable}")
out=${OUT:-$(dirname "$0")/out}/accelprof_check
py=${PYTHON:-python3}
rm -rf "$out" && mkdir -p "$out/home"
cd "$out"
export HOME=$out/home LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
"$bin" --version
"$bin" info
"$bin" info | grep -q '^cuda .*found at' || { echo "accelprof check: CUPTI not found"; exit 1; }
"$bin" trace -o "$out/t_%p.json" -- "$py" -c '
import torch
x = torch.randn(1024, 1024, device="cuda")
for _ in range(10):
    x = torch.relu(x @ x) / 1024
torch.cuda.synchronize()
print("workload done")
'
"$py" - "$out" <<'PY'
import glob, json, sys
traces = glob.glob(sys.argv[1] + "/t_*.json")
assert len(traces) == 1, traces
kernels = [e for e in json.load(open(traces[0]))["traceEvents"] if e.get("cat") == "kernel"]
assert len(kernels) >= 10, len(kernels)
print(f"{traces[0]}: {len(kernels)} kernels")
PY
stat -c '%a %n' "$HOME"/.cache/accelprof/* "$HOME"/.cache/accelprof/*/*
[ "$(stat -c '%a' "$HOME"/.cache/accelprof/*)" = 700 ] || { echo "accelprof check: cache not 0700"; exit 1; }
echo "accelprof check: ok"
