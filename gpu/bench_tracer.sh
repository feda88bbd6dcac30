#!/usr/bin/env bash
# The tracer benchmark in one command (see gpu/bench_tracer.py): builds the floor library
# (benches/c/count_records.c) against the CUPTI headers found on this machine, checks the analysis
# (gpu/bench_analyze.py --self-test), then runs rounds of fresh processes (untraced, ours, torch.profiler,
# the floor with our and with Kineto's CUPTI configuration) until the time budget is used, and prints
# the table with intervals last.
#
# On the GPU machine (no cargo there; the tracer built elsewhere with
#   cargo build --release -p accelprof-inject && mkdir -p .device && cp target/release/libaccelprof_inject.so .device/
# and carried in .device/):
#
#   OUT=gpu/out/bench1 gpu/bench_tracer.sh --budget-s 480            # about 8.5 minutes; raw steps in $OUT
#   OUT=gpu/out/bench2 gpu/bench_tracer.sh --budget-s 480 --factors --modes untraced,ours,kineto,floor,floor-kineto
#   python3 gpu/bench_analyze.py gpu/out/bench1/raw.jsonl gpu/out/bench2/raw.jsonl --markdown   # pooled
#   # with the runs kept in the repository (gzipped raw.jsonl files, gpu/results/README.md):
#   python3 gpu/bench_analyze.py gpu/results/*/run*.raw.jsonl.gz gpu/out/bench1/raw.jsonl --markdown
#   # the API filter applied while decoding against ours and Kineto, the tiny-op loop alone (~200 s):
#   OUT=gpu/out/decodefilter gpu/bench_tracer.sh --budget-s 200 --workloads tiny --modes ours-cuptifilter,ours-decodefilter,kineto --pairs 4
#
# Without a GPU (tests the benchmark itself against the mock libcupti; needs
# `cargo build -p accelprof-mocks -p accelprof-inject` first):
#
#   gpu/bench_tracer.sh --mock
#
# Options after the first are passed to gpu/bench_tracer.py. Environment: OUT (default gpu/out),
# TRACER_LIB (default .device/libaccelprof_inject.so, else the newer of the cargo target directory's
# release and debug builds), PYTHON.
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

target=${CARGO_TARGET_DIR:-$root/target}
tracer=${TRACER_LIB:-}
[ -z "$tracer" ] && [ -f "$root/.device/libaccelprof_inject.so" ] && tracer=$root/.device/libaccelprof_inject.so
# Else the newer of the release and debug builds (an older one may be left from another checkout).
[ -z "$tracer" ] && tracer=$(ls -t "$target/release/libaccelprof_inject.so" "$target/debug/libaccelprof_inject.so" 2>/dev/null | head -1)
[ -n "$tracer" ] || { echo "no libaccelprof_inject.so (build: cargo build --release -p accelprof-inject)"; exit 1; }

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
    "$cuda_home/targets/x86_64-linux/include" "${vendor_dirs[@]}") || { echo "cupti.h not found"; cupti_inc=; }
cuda_inc=$(find_dir cuda.h "$cuda_home/include" "$cuda_home/targets/x86_64-linux/include" "${wheel_dirs[@]}" \
    "${vendor_dirs[@]}") || { echo "cuda.h not found"; cuda_inc=; }
crt_inc=$(find_dir crt/host_defines.h "$cuda_home/include" "$cuda_home/targets/x86_64-linux/include" \
    "${wheel_dirs[@]}" "${vendor_dirs[@]}") || crt_inc=$cuda_inc
# Built in a directory of its own (mktemp -d: private, new), never at a fixed path another user could
# have placed a link or a library at.
build_dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_floor.XXXXXX")
trap 'rm -rf "$build_dir"' EXIT
floor=$build_dir/libcount_records.so
cc_cmd=$(command -v gcc || command -v cc || true)
flags=(-O2 -shared -fPIC -I"$cupti_inc" -I"$cuda_inc" -I"$crt_inc" -o "$floor" "$root/benches/c/count_records.c" -ldl -lpthread)
echo "floor: cupti.h from $cupti_inc, cuda.h from $cuda_inc; tracer: $tracer"
if [ -z "$cupti_inc" ] || [ -z "$cuda_inc" ]; then
    :
elif [ -n "$cc_cmd" ]; then
    "$cc_cmd" "${flags[@]}" || true
else
    nvcc -O2 -shared -Xcompiler -fPIC -I"$cupti_inc" -I"$cuda_inc" -o "$floor" "$root/benches/c/count_records.c" -ldl -lpthread || true
fi
# Without the floor the benchmark still runs its other modes (it says so) rather than nothing.
[ -f "$floor" ] || { echo "the floor did not build: its modes are left out"; floor=; }

"$py" "$here/bench_analyze.py" --self-test
if [ $mock = 1 ]; then
    mock_lib=$(ls -t "$target"/*/build/accelprof-mocks-*/out/mocks/libcupti.so 2>/dev/null | head -1)
    [ -n "$mock_lib" ] || { echo "no mock libcupti.so: run cargo build -p accelprof-mocks first"; exit 1; }
    "$py" "$here/bench_tracer.py" --backend mock --mock-lib "$mock_lib" --tracer "$tracer" ${floor:+--floor "$floor"} \
        --out "$out" --rounds 3 --min-rounds 3 --warmup 1 --pairs 2 --block-s 0.05 --quiet-s 0.05 --factors --budget-s 300 "$@"
    exit
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -2 || true
"$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
"$py" "$here/bench_tracer.py" --tracer "$tracer" ${floor:+--floor "$floor"} --out "$out" "$@"
