#!/usr/bin/env python3
"""Checks the benchmark's floor (benches/c/count_records.c) on the mock libcupti, without a GPU: its window
switches collection (nothing before the first window or between windows is counted, everything inside is,
flushed by the switch off) and its two presets filter the API records as they say (ours: the timeline
filter; kineto: only cudaGetDevice, cuKernelGetAttribute, cuDevicePrimaryCtxGetState and cuCtxGetCurrent off).

    python3 gpu/bench_floor_check.py --floor libcount_records.so --mock-lib <mock libcupti.so>

Each case runs in a fresh process (the library's state is process-wide). Exits 1 on a mismatch.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys

RUNTIME, DRIVER = 2, 1
# The 13.0 headers' ids.
CUDA_GET_DEVICE, CUDA_GET_LAST_ERROR = 17, 10
CU_PRIMARY_CTX_GET_STATE, CU_CTX_GET_CURRENT, CU_MEM_ALLOC = 392, 304, 243


def child(floor, mock_lib):
    m = ctypes.CDLL(mock_lib, mode=ctypes.RTLD_GLOBAL)
    m.mock_cupti_launch_kernel.argtypes = [ctypes.c_char_p] + [ctypes.c_uint32] * 7 + [ctypes.c_uint64] * 2
    m.mock_cupti_api_call.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
    lib = ctypes.CDLL(floor)
    lib.count_records_counts.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    assert lib.InitializeInjection() == 1
    launch = lambda name: m.mock_cupti_launch_kernel(name, 8, 1, 1, 128, 1, 1, 0, 0, 1000)
    counts = []

    def snapshot():
        buf = ctypes.create_string_buffer(8192)
        lib.count_records_counts(buf, len(buf))
        counts.append(json.loads(buf.value.decode()))

    assert lib.count_records_window(0) == 0
    launch(b"before_the_window")
    m.mock_cupti_device_synchronize()
    snapshot()
    assert lib.count_records_window(1) == 0
    for cbid, n in ((CUDA_GET_DEVICE, 3), (CUDA_GET_LAST_ERROR, 2)):
        for _ in range(n):
            m.mock_cupti_api_call(RUNTIME, cbid, None, None, 0)
    for cbid, n in ((CU_PRIMARY_CTX_GET_STATE, 4), (CU_CTX_GET_CURRENT, 1), (CU_MEM_ALLOC, 1)):
        for _ in range(n):
            m.mock_cupti_api_call(DRIVER, cbid, None, None, 0)
    for _ in range(5):
        launch(b"inside")
    assert lib.count_records_window(0) == 0
    snapshot()
    launch(b"between_windows")
    m.mock_cupti_device_synchronize()
    snapshot()
    print(json.dumps(counts))


def run_case(args, preset):
    env = dict(os.environ, COUNT_RECORDS_PRESET=preset, COUNT_RECORDS_CUPTI=os.path.abspath(args.mock_lib))
    env.pop("COUNT_RECORDS_OUT", None)
    p = subprocess.run([sys.executable, __file__, "--child", "--floor", os.path.abspath(args.floor),
                        "--mock-lib", os.path.abspath(args.mock_lib)], env=env, capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        raise SystemExit(f"{preset}: status {p.returncode}\n{p.stdout[-2000:]}{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def kinds(c):
    return {int(k): v for k, v in c["by_kind"].items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--floor", required=True)
    ap.add_argument("--mock-lib", required=True)
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    if args.child:
        child(args.floor, args.mock_lib)
        return 0
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: {got}, expected {want}")

    result = {}
    for preset in ("ours", "kineto"):
        before, inside, after = run_case(args, preset)
        result[preset] = k = {kind: kinds(inside).get(kind, 0) - kinds(before).get(kind, 0) for kind in (4, 5, 10)}
        expect(f"{preset}: kernels before the first window", kinds(before).get(10, 0), 0)
        expect(f"{preset}: kernels of the window", k[10], 5)
        expect(f"{preset}: kernels between windows", kinds(after).get(10, 0), kinds(inside).get(10, 0))
        expect(f"{preset}: dropped", inside["dropped"], 0)
        expect(f"{preset}: preset", inside["preset"], preset)
        expect(f"{preset}: windows", inside["windows"], 1 if preset == "kineto" else 2)
    # What Kineto's filter keeps and ours leaves out: the 2 cudaGetLastError (runtime) and cuMemAlloc_v2
    # (driver); neither records cudaGetDevice, cuDevicePrimaryCtxGetState or cuCtxGetCurrent.
    expect("runtime records kineto - ours", result["kineto"][5] - result["ours"][5], 2)
    expect("driver records kineto - ours", result["kineto"][4] - result["ours"][4], 1)
    # Ours: of the runtime calls only the launches (5); of the driver calls only the launches' nested
    # cuLaunchKernel (the mock plays the runtime's nesting).
    expect("ours runtime records", result["ours"][5], 5)
    expect("ours driver records", result["ours"][4], 5)
    print(json.dumps(result))
    if failures:
        print("FAIL\n" + "\n".join(failures))
        return 1
    print("floor check OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
