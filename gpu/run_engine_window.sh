#!/usr/bin/env bash
# The engine's capture window on a GPU machine: pause/resume and the cuProfilerStart/Stop capture range
# of the root tracer on the real CUPTI. Build elsewhere with
#   cargo build --release -p accel-profiling --example engine_window
# and copy it along with this repository. Exits 0 when every check passes; prints one line per check.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${ENGINE_WINDOW:-$root/target/release/examples/engine_window}

# Where the CUDA wheels put libcupti (torch depends on them), when no CUPTI_LIBRARY_PATH is set.
if [ -z "${CUPTI_LIBRARY_PATH:-}" ]; then
    cupti_so=$(python3 - <<'PY' 2>/dev/null
import glob, os, site
for base in site.getsitepackages() + [site.getusersitepackages()]:
    for d in ("nvidia/cu13/lib", "nvidia/cuda_cupti/lib"):
        hits = sorted(glob.glob(os.path.join(base, d, "libcupti.so*")))
        if hits:
            print(hits[0]); raise SystemExit
PY
)
    [ -n "$cupti_so" ] && export CUPTI_LIBRARY_PATH="$cupti_so"
fi
echo "CUPTI_LIBRARY_PATH=${CUPTI_LIBRARY_PATH:-<default search>}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
exec "$bin"
