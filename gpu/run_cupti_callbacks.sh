#!/usr/bin/env bash
# The cupti callback checks on a GPU machine (no cargo needed there: the binaries are built elsewhere with
#   cargo build --release --example cupti_callback_domain --example cupti_callback_timestamp \
#       --example cupti_callback_overhead
#   cargo test --release -p cupti --test gpu --no-run
# and copied along with this repository, target/release/examples/ and target/release/deps/gpu-* included).
#
#   gpu/run_cupti_callbacks.sh                     # everything
#   STEPS="overhead" CALLS=200000 REPS=101 PIN_CPU=2 gpu/run_cupti_callbacks.sh
#
# Output goes to $OUT (default gpu/out/callbacks). Needs gcc (or nvcc) for the C no-op callback.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${BIN:-$root/target/release}
out=${OUT:-$here/out/callbacks}
steps=${STEPS:-"examples tests overhead"}
cuda_lib=${CUDA_LIB:-/usr/local/cuda/targets/x86_64-linux/lib}
mkdir -p "$out"
status=0

# libcudart for the runtime half of the workload; libcupti is found there by the default search too.
[ -d "$cuda_lib" ] && export LD_LIBRARY_PATH="$cuda_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "CUPTI_LIBRARY_PATH=${CUPTI_LIBRARY_PATH:-<default search>}  LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -2

run() {
    local name=$1; shift
    echo; echo "=== $name: $*"
    "$@" >"$out/$name.txt" 2>&1
    local rc=$?
    if [ "$(wc -l <"$out/$name.txt")" -gt 60 ]; then
        head -n 25 "$out/$name.txt"; echo "[... $(wc -l <"$out/$name.txt") lines in $out/$name.txt ...]"; tail -n 25 "$out/$name.txt"
    else
        cat "$out/$name.txt"
    fi
    [ $rc -eq 0 ] || { echo "=== FAILED ($rc): $name"; status=1; }
}

for step in $steps; do
    case $step in
    examples)
        run callback_domain "$bin/examples/cupti_callback_domain"
        run callback_timestamp "$bin/examples/cupti_callback_timestamp"
        ;;
    tests)
        test_bin=$(ls -t "$bin"/deps/gpu-* 2>/dev/null | grep -v '\.d$' | head -1)
        if [ -z "$test_bin" ]; then echo "no gpu test binary (cupti) under $bin/deps"; status=1; continue; fi
        run gpu_tests "$test_bin" --test-threads=1 --nocapture
        ;;
    overhead)
        so="$out/libnoop_callback.so"
        if command -v nvcc >/dev/null; then nvcc -O2 -shared -Xcompiler -fPIC -o "$so" "$root/benches/c/noop_callback.c"
        else gcc -O2 -shared -fPIC -o "$so" "$root/benches/c/noop_callback.c"; fi || { status=1; continue; }
        # One CPU for the whole measurement (no migrations between kinds), when taskset exists.
        pin=()
        command -v taskset >/dev/null && pin=(taskset -c "${PIN_CPU:-2}")
        run callback_overhead "${pin[@]}" "$bin/examples/cupti_callback_overhead" --c-callback "$so" \
            --calls "${CALLS:-200000}" --reps "${REPS:-101}"
        ;;
    *) echo "unknown step $step"; status=1 ;;
    esac
done
exit $status
