#!/usr/bin/env python3
"""Two processes, one GPU each, an NCCL all-reduce loop under our tracer: one trace per rank, records on
each rank's device, NCCL kernels present, `distributedInfo` carrying the rank.

    python3 gpu/torch_nccl.py --tracer target/release/libcupti_trace.so
"""
import argparse
import json
import os
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world, port, iters):
    # Before anything touches CUDA: the tracer reads RANK / WORLD_SIZE when the driver loads it.
    os.environ.update(RANK=str(rank), WORLD_SIZE=str(world), LOCAL_RANK=str(rank),
                      MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world)
    t = torch.ones(1 << 20, device="cuda")
    for _ in range(iters):
        dist.all_reduce(t)
    torch.cuda.synchronize()
    expected = float(world ** iters)
    assert t[0].item() == expected, (t[0].item(), expected)
    dist.barrier()
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tracer", required=True)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--port", type=int, default=29533)
    ap.add_argument("--out", default=os.environ.get("OUT"))
    args = ap.parse_args()
    world = torch.cuda.device_count()
    if world < 2:
        print(f"needs 2 GPUs, this machine has {world}: skipped")
        return 0
    world = 2
    workdir = args.out or tempfile.mkdtemp(prefix="torch_nccl_")
    os.makedirs(workdir, exist_ok=True)
    os.environ["CUDA_INJECTION64_PATH"] = os.path.abspath(args.tracer)
    os.environ["CUPTI_TRACE_OUTPUT"] = os.path.join(workdir, "nccl_trace_rank%r.json")
    os.environ["CUPTI_TRACE_SUMMARY_JSON"] = os.path.join(workdir, "nccl_summary_rank%r.json")
    os.environ["CUPTI_TRACE_SUMMARY_TOP"] = "5"
    mp.spawn(worker, args=(world, args.port, args.iters), nprocs=world, join=True)

    ok = True
    for rank in range(world):
        path = os.path.join(workdir, f"nccl_trace_rank{rank}.json")
        with open(path) as f:
            raw = f.read()
        trace = json.loads(raw)
        events = trace["traceEvents"]
        kernels = [e for e in events if e.get("cat") == "kernel"]
        nccl = [e for e in kernels if e["name"].startswith("nccl")]
        devices = sorted({e["pid"] for e in kernels})
        rank_ok = bool(nccl) and devices == [rank] and f'"rank": {rank}' in raw
        ok &= rank_ok
        print(f"rank {rank}: {len(kernels)} kernels on devices {devices}, {len(nccl)} NCCL kernels "
              f"({sorted({e['name'][:60] for e in nccl})[:2]}), distributedInfo {trace.get('distributedInfo')} "
              f"-> {'OK' if rank_ok else 'FAIL'}")
        if rank == 0:
            print("first events:", json.dumps(events[:3])[:600])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
