#!/usr/bin/env bash
# Regenerates rocprofiler-sys/src/generated from the ROCm/rocm-systems monorepo.
#
#   rocprofiler-sys/regenerate.sh <git dir or clone of ROCm/rocm-systems> [commit]
#
# The committed output comes from commit 1b1610fc2b2ab32af71e6e04e4d4a6a4ae597992 (the default);
# the generator adds the declarations that arrived later (set_agents, status 41) when the
# snapshot lacks them. Only the three include trees are extracted, into a temporary directory
# outside the repository; libclang must be installed (e.g. the libclang-dev package).
set -euo pipefail
repo=${1:?usage: regenerate.sh <ROCm/rocm-systems git dir or clone> [commit]}
commit=${2:-1b1610fc2b2ab32af71e6e04e4d4a6a4ae597992}
here=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
git --git-dir="$(git -C "$repo" rev-parse --absolute-git-dir 2>/dev/null || echo "$repo")" archive "$commit" \
    projects/rocprofiler-sdk/VERSION \
    projects/rocprofiler-sdk/source/include \
    projects/rocr-runtime/runtime/hsa-runtime/inc \
    projects/rocr-runtime/libhsakmt/include | tar -x -C "$tree"
cd "$here"
cargo run -q -p accelprof-bindgen -- rocprofiler "$tree"
