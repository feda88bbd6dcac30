#!/usr/bin/env python3
"""NCCL ranks under our tracer, one process per GPU: a per-rank trace (JSON and Parquet) with
`distributedInfo`, every NCCL kernel on its rank's device, nothing dropped; the cost per step next to
torch.profiler's on the same job.

    python3 gpu/torch_nccl.py --tracer .device/libaccelprof_inject.so [--world 2] [--steps 20] [--out DIR]

Each rank runs an all-reduce (averaging, so that NCCL launches a kernel even on one rank) and a small
data-parallel training step (DistributedDataParallel over an MLP) per step. Three modes, each in fresh
processes: untraced, under our tracer (`CUDA_INJECTION64_PATH`, outputs `rank%r.json` and
`rank%r.parquet`), under torch.profiler (CUDA and CPU activities, a Chrome trace per rank). Printed: per
rank the kernels, the NCCL kernels and the devices they ran on, `distributedInfo`, the records dropped,
and the median ms per step of every mode. `--world` defaults to the number of GPUs, at most 2; on a
one-GPU machine the job runs as one NCCL rank (NCCL refuses two ranks on one device).

Afterwards, where the trace files were brought: `accelprof-analyze analyze OUT/ours` (the cross-rank
analysis of the Parquet files) next to HolisticTraceAnalysis on OUT/ours/*.json and OUT/torch/*.json.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

# Keep NVLink multicast (NVLS) off in every process, as the machine's notes ask.
NCCL_ENV = {"NCCL_NVLS_ENABLE": "0", "NCCL_CUMEM_ENABLE": "0"}

CHILD = r"""
import json, os, sys, time
import torch
import torch.distributed as dist
import torch.nn as nn

rank, world, mode, steps, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
torch.cuda.set_device(rank)
dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
torch.manual_seed(rank)
model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()
ddp = nn.parallel.DistributedDataParallel(model, device_ids=[rank])
opt = torch.optim.SGD(ddp.parameters(), lr=1e-3)
x = torch.randn(64, 1024, device="cuda")
t = torch.ones(1 << 20, device="cuda")

def step():
    dist.all_reduce(t, op=dist.ReduceOp.AVG)
    opt.zero_grad(set_to_none=True)
    ddp(x).float().pow(2).mean().backward()
    opt.step()

for _ in range(3):
    step()
torch.cuda.synchronize()
dist.barrier()
prof = None
if mode == "torch":
    from torch.profiler import profile, ProfilerActivity
    prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])
    prof.__enter__()
times = []
for _ in range(steps):
    t0 = time.perf_counter()
    step()
    torch.cuda.synchronize()
    times.append((time.perf_counter() - t0) * 1e3)
if prof is not None:
    prof.__exit__(None, None, None)
    prof.export_chrome_trace(os.path.join(out, f"rank{rank}.json"))
assert abs(t[0].item() - 1.0) < 1e-6, t[0].item()
dist.barrier()
dist.destroy_process_group()
with open(os.path.join(out, f"times_rank{rank}.json"), "w") as f:
    json.dump(times, f)
"""


def run_mode(mode, world, steps, port, out, tracer):
    os.makedirs(out, exist_ok=True)
    procs = []
    for rank in range(world):
        env = dict(os.environ, **NCCL_ENV, RANK=str(rank), WORLD_SIZE=str(world), LOCAL_RANK=str(rank),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        if mode == "ours":
            env["CUDA_INJECTION64_PATH"] = os.path.abspath(tracer)
            env["ACCELPROF_OUTPUT"] = ",".join(os.path.join(out, f"rank%r.{ext}") for ext in ("json", "parquet"))
            env["ACCELPROF_SUMMARY_JSON"] = os.path.join(out, "summary_rank%r.json")
        procs.append(subprocess.Popen([sys.executable, "-c", CHILD, str(rank), str(world), mode, str(steps), out],
                                      env=env))
    codes = [p.wait(timeout=600) for p in procs]
    if any(codes):
        raise SystemExit(f"{mode}: ranks exited {codes}")
    per_rank = []
    for rank in range(world):
        with open(os.path.join(out, f"times_rank{rank}.json")) as f:
            per_rank.append(statistics.median(json.load(f)))
    return max(per_rank)


def check_ours(out, world):
    ok = True
    for rank in range(world):
        path = os.path.join(out, f"rank{rank}.json")
        with open(path) as f:
            trace = json.load(f)
        events = trace["traceEvents"]
        kernels = [e for e in events if e.get("cat") == "kernel"]
        # NCCL's kernels: `ncclDevKernel_*` between ranks; on one rank NCCL runs its own reduction kernel
        # from src/device/onerank.cu, whose name is a static symbol (`__nv_static_..._onerank_cu_...`).
        nccl = [e for e in kernels if "nccl" in e["name"].lower() or "onerank_cu" in e["name"]]
        devices = sorted({e["args"].get("device", e["pid"]) for e in kernels})
        dist_info = trace.get("distributedInfo", {})
        dropped = None
        summary = os.path.join(out, f"summary_rank{rank}.json")
        if os.path.exists(summary):
            with open(summary) as f:
                dropped = json.load(f).get("records_dropped")
        parquet = os.path.join(out, f"rank{rank}.parquet")
        rank_ok = (bool(nccl) and devices == [rank] and dist_info.get("rank") == rank
                   and dist_info.get("world_size") == world and os.path.getsize(parquet) > 0
                   and dropped in (0, None))
        ok &= rank_ok
        print(f"rank {rank}: {len(kernels)} kernels on devices {devices}, {len(nccl)} NCCL kernels "
              f"{sorted({e['name'][:70] for e in nccl})[:3]}, distributedInfo {dist_info}, dropped {dropped}, "
              f"parquet {os.path.getsize(parquet)} bytes -> {'OK' if rank_ok else 'FAIL'}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tracer", required=True)
    ap.add_argument("--world", type=int)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--port", type=int, default=29533)
    ap.add_argument("--out", default=os.environ.get("OUT"))
    args = ap.parse_args()
    import torch
    gpus = torch.cuda.device_count()
    world = args.world or min(gpus, 2)
    if world < 1 or world > gpus:
        print(f"--world {world} needs {world} GPUs, this machine has {gpus}")
        return 1
    if world == 1:
        print("one GPU: the job runs as one NCCL rank (two ranks need two GPUs)")
    out = args.out or tempfile.mkdtemp(prefix="torch_nccl_")
    ms = {"untraced": [], "ours": [], "torch": []}
    port = args.port
    for r in range(args.rounds):
        for mode in ms:
            port += 1
            ms[mode].append(run_mode(mode, world, args.steps, port, os.path.join(out, mode), args.tracer))
    ok = check_ours(os.path.join(out, "ours"), world)
    base = statistics.median(ms["untraced"])
    print(f"world {world}, {args.steps} steps x {args.rounds} rounds, ms/step (median of rounds, slowest rank):")
    for mode, v in ms.items():
        med = statistics.median(v)
        print(f"  {mode:9s} {med:8.3f}  (+{(med - base) * 1e3:8.1f} us/step)  rounds {[round(x, 3) for x in v]}")
    print("torch.profiler traces:", sorted(glob.glob(os.path.join(out, "torch", "rank*.json"))))
    print("SUMMARY", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
