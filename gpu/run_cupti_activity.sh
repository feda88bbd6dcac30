#!/usr/bin/env bash
# The cupti activity checks on a GPU machine (no cargo needed there: the binaries are built elsewhere with
#   cargo build --release -p accelprof-inject --example cupti_activity_trace --example quickstart
# and copied along with this repository).
#
#   gpu/run_cupti_activity.sh            # everything
#   STEPS="examples overhead" gpu/run_cupti_activity.sh
#
# Results go to $OUT (default gpu/out). Needs python3 with torch (CUDA) for the torch steps.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
lib=${TRACER_LIB:-$root/target/release/libaccelprof_inject.so}
out=${OUT:-$here/out}
steps=${STEPS:-"examples overhead memory nccl"}
mkdir -p "$out"
status=0

# Where the CUDA 13 wheels put libcupti and libcudart (torch depends on them), for the examples.
wheel_lib=$(python3 - <<'PY' 2>/dev/null
import glob, os, site, sys
cands = []
for base in site.getsitepackages() + [site.getusersitepackages()]:
    cands += glob.glob(os.path.join(base, "nvidia", "cu13", "lib"))
    cands += glob.glob(os.path.join(base, "nvidia", "cuda_cupti", "lib"))
print(cands[0] if cands else "")
PY
)
if [ -n "$wheel_lib" ]; then
    export LD_LIBRARY_PATH="$wheel_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    cupti_so=$(ls "$wheel_lib"/libcupti.so* 2>/dev/null | head -1)
    [ -n "$cupti_so" ] && export CUPTI_LIBRARY_PATH="${CUPTI_LIBRARY_PATH:-$cupti_so}"
fi
echo "tracer: $lib"; echo "CUPTI_LIBRARY_PATH=${CUPTI_LIBRARY_PATH:-<default search>}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -2

run() { echo; echo "=== $*"; "$@" || { echo "=== FAILED ($?): $*"; status=1; }; }

for step in $steps; do
    case $step in
    examples)
        (cd "$out" && run "$root/target/release/examples/cupti_activity_trace")
        (cd "$out" && run "$root/target/release/examples/quickstart" && head -c 1500 trace.json && echo)
        ;;
    overhead)
        run python3 "$here/torch_overhead.py" --tracer "$lib" --ops 20000 --rounds 5 --write-trace --out "$out"
        echo "--- first events of a PyTorch trace ($out/trace_0.json):"
        python3 - "$out/trace_0.json" <<'PY' || true
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
print("keys:", list(t.keys()))
print("events:", len(ev), "kernels:", sum(e.get("cat") == "kernel" for e in ev),
      "flows:", sum(e.get("cat") == "ac2g" for e in ev) // 2)
for e in [e for e in ev if e.get("ph") == "X"][:4]:
    print(json.dumps(e)[:400])
PY
        ;;
    memory) run python3 "$here/torch_memory.py" --tracer "$lib" --kernels 1000000 --out "$out" ;;
    nccl) run python3 "$here/torch_nccl.py" --tracer "$lib" --out "$out" ;;
    *) echo "unknown step $step"; status=1 ;;
    esac
done
exit $status
