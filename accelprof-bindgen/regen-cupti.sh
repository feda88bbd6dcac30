#!/usr/bin/env bash
# Regenerates cupti-sys/src/generated/ from the CUPTI 13.0, 13.5 and 12.9 Python wheels.
#
#   accelprof-bindgen/regen-cupti.sh [DIR]        (DIR defaults to .vendor/cupti, which git ignores)
#
# The wheels are downloaded (never installed) into DIR/wheels when absent and unpacked into
# DIR/cu13, DIR/cu135 and DIR/cu12; nothing from them enters the repository. Needs python3 with pip, rustfmt,
# and libclang (Debian/Ubuntu: `apt-get install libclang-dev`; or set LIBCLANG_PATH).
# Check that the committed files are current with:
#
#   accelprof-bindgen/regen-cupti.sh && git diff --exit-code -- cupti-sys/src/generated
#
# Afterwards the real libraries for `cargo test -p cupti --test real` are
#   CUPTI_REAL_LIB_13=DIR/cu13/nvidia/cu13/lib/libcupti.so.13
#   CUPTI_REAL_LIB_13_5=DIR/cu135/nvidia/cu13/lib/libcupti.so.13
#   CUPTI_REAL_LIB_12=DIR/cu12/nvidia/cuda_cupti/lib/libcupti.so.12
set -euo pipefail

cd "$(dirname "$0")/.."
DIR=${1:-.vendor/cupti}

# Exact versions: the committed bindings are generated from these.
WHEELS_13="nvidia-cuda-cupti==13.0.85 nvidia-cuda-runtime==13.0.96 nvidia-cuda-crt==13.0.88"
# The newest CUPTI on PyPI: the V2 (subscriber-scoped) activity API and user-defined records
# (13.2 beta, 13.3 production, per-cbid options 13.4); 13.3 and 13.4 declare a subset of it.
WHEELS_13_5="nvidia-cuda-cupti==13.5.25 nvidia-cuda-runtime==13.5.37 nvidia-cuda-crt==13.5.37"
# nvidia-cuda-nvcc-cu12 only for its include/crt headers (cuda_runtime's headers need them).
WHEELS_12="nvidia-cuda-cupti-cu12==12.9.79 nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86"

# unpack WHEEL DEST: extracts the headers, libraries and metadata (not nvcc's compilers).
unpack() {
    python3 - "$1" "$2" <<'EOF'
import sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for m in z.namelist():
        if "/bin/" not in m and "/nvvm/" not in m:
            z.extract(m, dest)
EOF
}

# fetch SUBDIR SPEC...: downloads and unpacks each wheel that DIR/SUBDIR does not hold yet.
fetch() {
    local sub=$1
    shift
    mkdir -p "$DIR/wheels" "$DIR/$sub"
    for spec in "$@"; do
        local name=${spec%%==*} version=${spec##*==}
        local stem=${name//-/_}-$version
        [ -d "$DIR/$sub/$stem.dist-info" ] && continue
        local wheel
        wheel=$(ls "$DIR/wheels/$stem"-*.whl 2>/dev/null | head -n1 || true)
        if [ -z "$wheel" ]; then
            python3 -m pip download --quiet --no-deps -d "$DIR/wheels" "$spec"
            wheel=$(ls "$DIR/wheels/$stem"-*.whl | head -n1)
        fi
        echo "unpacking $(basename "$wheel") into $DIR/$sub"
        unpack "$wheel" "$DIR/$sub"
    done
}

# shellcheck disable=SC2086
fetch cu13 $WHEELS_13
# shellcheck disable=SC2086
fetch cu135 $WHEELS_13_5
# shellcheck disable=SC2086
fetch cu12 $WHEELS_12

cargo run --quiet -p accelprof-bindgen -- cupti "$DIR"
