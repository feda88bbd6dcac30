#!/usr/bin/env bash
# The tracer benchmark in one command (see gpu/bench_tracer.py): builds the floor library
# (benches/c/count_records.c) against the CUPTI headers found on this machine, then runs every workload
# untraced, under our tracer, under torch.profiler and under the floor, and prints the table last.
#
# On the GPU machine (no cargo there; the tracer built elsewhere with
#   cargo build --release -p cupti-trace && mkdir -p .device && cp target/release/libcupti_trace.so .device/
# and carried in .device/):
#
#   gpu/bench_tracer.sh                      # everything, about 6 to 8 minutes; details in $OUT
#   gpu/bench_tracer.sh --rounds 3 --memory-kernels 0    # shorter
#
# Without a GPU (tests the benchmark itself against the mock libcupti; needs `cargo build -p accelprof-mocks -p cupti-trace` first):
#
#   gpu/bench_tracer.sh --mock
#
# Options after the first are passed to gpu/bench_tracer.py. Environment: OUT (default gpu/out),
# TRACER_LIB (default .device/libcupti_trace.so, else target/release, else target/debug), PYTHON.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${OUT:-$here/out}
py=${PYTHON:-python3}
mkdir -p "$out"

mock=0
if [ "${1:-}" = "--mock" ]; then
    mock=1
    shift
fi

tracer=${TRACER_LIB:-}
for cand in "$root/.device/libcupti_trace.so" "$root/target/release/libcupti_trace.so" "$root/target/debug/libcupti_trace.so"; do
    [ -z "$tracer" ] && [ -f "$cand" ] && tracer=$cand
done
[ -n "$tracer" ] || { echo "no libcupti_trace.so (build: cargo build --release -p cupti-trace)"; exit 1; }

# The CUPTI and CUDA headers: a CUDA install, or the NVIDIA wheels of the Python environment (PyTorch
# depends on nvidia-cuda-cupti), or (for the mock run) the wheels accelprof-bindgen/regen-cupti.sh unpacked.
site=$("$py" -c 'import site, sys; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null || true)
find_dir() { # find_dir FILE DIR... : the first DIR holding FILE
    local file=$1
    shift
    for d in "$@"; do
        [ -f "$d/$file" ] && { echo "$d"; return 0; }
    done
    return 1
}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
wheel_dirs=()
for s in $site; do wheel_dirs+=("$s/nvidia/cu13/include" "$s/nvidia/cuda_cupti/include" "$s/nvidia/cuda_runtime/include"); done
vendor_dirs=("$root/.vendor/cupti/cu13/nvidia/cu13/include")
cupti_inc=$(find_dir cupti.h "${wheel_dirs[@]}" "$cuda_home/extras/CUPTI/include" "$cuda_home/include" \
    "$cuda_home/targets/x86_64-linux/include" "${vendor_dirs[@]}") || { echo "cupti.h not found"; exit 1; }
cuda_inc=$(find_dir cuda.h "$cuda_home/include" "$cuda_home/targets/x86_64-linux/include" "${wheel_dirs[@]}" \
    "${vendor_dirs[@]}") || { echo "cuda.h not found"; exit 1; }
crt_inc=$(find_dir crt/host_defines.h "$cuda_home/include" "$cuda_home/targets/x86_64-linux/include" \
    "${wheel_dirs[@]}" "${vendor_dirs[@]}") || crt_inc=$cuda_inc
floor=$out/libcount_records.so
cc_cmd=$(command -v gcc || command -v cc || true)
flags=(-O2 -shared -fPIC -I"$cupti_inc" -I"$cuda_inc" -I"$crt_inc" -o "$floor" "$root/benches/c/count_records.c" -ldl -lpthread)
echo "floor: cupti.h from $cupti_inc, cuda.h from $cuda_inc"
if [ -n "$cc_cmd" ]; then
    "$cc_cmd" "${flags[@]}"
else
    nvcc -O2 -shared -Xcompiler -fPIC -I"$cupti_inc" -I"$cuda_inc" -o "$floor" "$root/benches/c/count_records.c" -ldl -lpthread
fi
# The library goes to $OUT only to be built once; it need not come back.
mv "$floor" "${TMPDIR:-/tmp}/libcount_records.so" && floor=${TMPDIR:-/tmp}/libcount_records.so

"$py" "$here/bench_tracer.py" --self-test
if [ $mock = 1 ]; then
    mock_lib=$(ls -t "$root"/target/*/build/accelprof-mocks-*/out/mocks/libcupti.so 2>/dev/null | head -1)
    [ -n "$mock_lib" ] || { echo "no mock libcupti.so: run cargo build -p accelprof-mocks first"; exit 1; }
    exec "$py" "$here/bench_tracer.py" --backend mock --mock-lib "$mock_lib" --tracer "$tracer" --floor "$floor" \
        --out "$out" --rounds 7 --steps 5 --warmup 1 --memory-kernels 200000 --budget-s 300 "$@"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -2 || true
"$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
exec "$py" "$here/bench_tracer.py" --tracer "$tracer" --floor "$floor" --out "$out" "$@"
