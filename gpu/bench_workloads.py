#!/usr/bin/env python3
"""One fresh process of the tracer benchmark (gpu/bench_tracer.py runs it): the workloads, timed step by
step, under the mode the environment sets up (our tracer or the floor library through
CUDA_INJECTION64_PATH; torch.profiler when --mode kineto).

Each workload's timed steps are framed by two marker kernels launched through the driver API
(`bench_begin_<workload>` / `bench_end_<workload>`, after a device synchronization), so that the kernels
of exactly those steps can be picked out of any trace by time. The tiny-op workload also launches a kernel
through `cuLaunchKernel` each step, as Triton does (a driver launch no runtime call encloses).

Backends:
  torch  PyTorch on a CUDA GPU (the real thing).
  mock   no GPU: plays the same shapes of work through the mock libcupti's mock_cupti_* controls, and
         starts the injection library itself (there is no driver to do it); for testing the benchmark.

Prints one JSON line: {"mode", "backend", "workloads": {name: {"step_s": [...]}}, "memory": ...}.
"""
import argparse
import ctypes
import json
import os
import sys
import threading
import time

WORKLOADS = ["transformer", "graphs", "streams", "tiny"]

# Kernels with no parameters: the frame markers and a Triton-like kernel (PTX, JIT-compiled by the driver).
MARKERS = [f"bench_{edge}_{w}" for w in WORKLOADS + ["memory"] for edge in ("begin", "end")]
PTX = (
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    + "".join(f".visible .entry {name}()\n{{\n\tret;\n}}\n" for name in MARKERS + ["triton_like_driver_kernel"])
)


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return -1.0


class DriverLaunches:
    """Launches the PTX kernels above through the CUDA driver API (cuLaunchKernel), on a given stream."""

    def __init__(self):
        self.cuda = ctypes.CDLL("libcuda.so.1")
        ctx = ctypes.c_void_p()
        self._check(self.cuda.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
        if not ctx.value:
            raise SystemExit("no current CUDA context on the main thread")
        module = ctypes.c_void_p()
        self._check(self.cuda.cuModuleLoadData(ctypes.byref(module), PTX.encode() + b"\0"), "cuModuleLoadData")
        self.functions = {}
        for name in MARKERS + ["triton_like_driver_kernel"]:
            f = ctypes.c_void_p()
            self._check(self.cuda.cuModuleGetFunction(ctypes.byref(f), module, name.encode()), "cuModuleGetFunction")
            self.functions[name] = f
        self.cuda.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3

    @staticmethod
    def _check(r, what):
        if r != 0:
            raise SystemExit(f"{what} failed with CUresult {r}")

    def launch(self, name, stream=0):
        self._check(self.cuda.cuLaunchKernel(self.functions[name], 1, 1, 1, 1, 1, 1, 0, stream, None, None), name)


class TorchBackend:
    def __init__(self):
        import torch

        self.torch = torch
        torch.manual_seed(0)
        self.device = torch.device("cuda")
        torch.zeros(1, device=self.device)
        torch.cuda.synchronize()
        self.driver = DriverLaunches()

    def sync(self):
        self.torch.cuda.synchronize()

    def marker(self, name):
        self.sync()
        self.driver.launch(name, self.torch.cuda.current_stream().cuda_stream)
        self.sync()

    def workload(self, name):
        return getattr(self, "make_" + name)()

    def make_transformer(self):
        torch = self.torch
        layer = torch.nn.TransformerEncoderLayer(d_model=1024, nhead=16, dim_feedforward=4096, batch_first=True)
        model = torch.nn.TransformerEncoder(layer, num_layers=4).to(self.device)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        x = torch.randn(8, 512, 1024, device=self.device)

        def step():
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(x).float().pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)

        return step

    def make_graphs(self):
        torch = self.torch
        a = torch.randn(512, 512, device=self.device)
        w = [torch.randn(512, 512, device=self.device) for _ in range(4)]
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                y = a
                for i in range(50):
                    y = torch.relu(y @ w[i % 4]) + a
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            y = a
            for i in range(50):
                y = torch.relu(y @ w[i % 4]) + a

        def step():
            for _ in range(10):
                graph.replay()

        return step

    def make_streams(self):
        torch = self.torch
        streams = [torch.cuda.Stream(), torch.cuda.Stream()]
        host_in = [torch.randn(1 << 20, pin_memory=True) for _ in streams]
        host_out = [torch.empty(1 << 20, pin_memory=True) for _ in streams]
        dev = [torch.empty(1 << 20, device=self.device) for _ in streams]

        def step():
            for _ in range(20):
                for s, hi, ho, d in zip(streams, host_in, host_out, dev):
                    with torch.cuda.stream(s):
                        d.copy_(hi, non_blocking=True)
                        d.mul_(1.0001).add_(0.5)
                        ho.copy_(d, non_blocking=True)
            for s in streams:
                s.synchronize()

        return step

    def make_tiny(self):
        torch = self.torch
        x = torch.zeros(1, device=self.device)
        stream = torch.cuda.current_stream().cuda_stream

        def step():
            for i in range(2000):
                x.add_(1.0)
                if i % 200 == 0:
                    self.driver.launch("triton_like_driver_kernel", stream)

        return step

    def memory(self, kernels, every_s):
        """`kernels` tiny kernels through CUDA-graph replays of 1000 each; RSS sampled meanwhile."""
        torch = self.torch
        x = torch.zeros(1, device=self.device)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                x.add_(1.0)
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(1000):
                x.add_(1.0)
        replays = max(1, kernels // 1000)
        return run_memory(self, lambda: graph.replay(), replays, 1000, every_s)


class MockBackend:
    """The mock libcupti played as a CUDA program (see the module docs)."""

    RUNTIME, DRIVER = 2, 1

    def __init__(self, mock_lib):
        self.m = ctypes.CDLL(mock_lib, mode=ctypes.RTLD_GLOBAL)
        self.m.mock_cupti_launch_kernel.argtypes = [ctypes.c_char_p] + [ctypes.c_uint32] * 7 + [ctypes.c_uint64] * 2
        self.m.mock_cupti_launch_kernel_driver.argtypes = self.m.mock_cupti_launch_kernel.argtypes
        self.m.mock_cupti_api_call.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
        self.m.mock_cupti_memcpy.argtypes = [ctypes.c_uint64] * 3 + [ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int, ctypes.c_uint64]
        self.m.mock_cupti_memset.argtypes = [ctypes.c_uint64, ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int, ctypes.c_uint64]
        # cudaGetDevice, cuDevicePrimaryCtxGetState, cudaGetLastError (the 13.0 headers' ids).
        self.get_device, self.primary_state, self.last_error = 17, 392, 10
        injection = os.environ.get("CUDA_INJECTION64_PATH")
        if injection:
            lib = ctypes.CDLL(injection)
            if lib.InitializeInjection() != 1:
                raise SystemExit("InitializeInjection failed")

    def sync(self):
        self.m.mock_cupti_device_synchronize()

    def marker(self, name):
        self.sync()
        self.m.mock_cupti_launch_kernel_driver(name.encode(), 1, 1, 1, 1, 1, 1, 0, 0, 1000)
        self.sync()

    def launch(self, name, stream=0, ns=2000):
        # What PyTorch does around a launch, seen on an H200: ~13 cudaGetDevice, ~4 primary-context queries.
        for _ in range(13):
            self.m.mock_cupti_api_call(self.RUNTIME, self.get_device, None, None, 0)
        for _ in range(4):
            self.m.mock_cupti_api_call(self.DRIVER, self.primary_state, None, None, 0)
        self.m.mock_cupti_api_call(self.RUNTIME, self.last_error, None, None, 0)
        self.m.mock_cupti_launch_kernel(name.encode(), 8, 1, 1, 128, 1, 1, 0, stream, ns)

    def workload(self, name):
        names = [f"void at::native::vectorized_elementwise_kernel<4, {op}>" for op in ("add", "mul", "gelu", "copy")]
        if name == "transformer":
            return lambda: [self.launch(names[i % 4] + f"_{i % 40}") for i in range(200)]
        if name == "graphs":
            return lambda: [self.m.mock_cupti_launch_kernel(b"graph_node", 4, 1, 1, 64, 1, 1, 0, 9, 1500) for _ in range(500)]
        if name == "streams":

            def step():
                for _ in range(20):
                    for s in (11, 12):
                        self.m.mock_cupti_memcpy(0x1000, 0x2000, 4 << 20, 1, s, 1, 3000)
                        self.launch(names[1], s)
                        self.m.mock_cupti_memcpy(0x2000, 0x1000, 4 << 20, 2, s, 1, 3000)
                self.sync()

            return step
        if name == "tiny":

            def step():
                for i in range(500):
                    self.launch(names[0])
                    if i % 100 == 0:
                        self.m.mock_cupti_launch_kernel_driver(b"triton_like_driver_kernel", 1, 1, 1, 32, 1, 1, 0, 0, 500)

            return step
        raise SystemExit(f"unknown workload {name}")

    def memory(self, kernels, every_s):
        replays = max(1, kernels // 1000)

        def replay():
            for _ in range(1000):
                self.m.mock_cupti_launch_kernel(b"memory_kernel", 1, 1, 1, 32, 1, 1, 0, 0, 100)

        return run_memory(self, replay, replays, 1000, every_s)


def run_memory(backend, replay, replays, per_replay, every_s):
    samples = []
    done = [0]
    stop = threading.Event()
    t0 = time.perf_counter()

    def sampler():
        while not stop.wait(every_s):
            samples.append([done[0] * per_replay, rss_mib(), time.perf_counter() - t0])

    thread = threading.Thread(target=sampler, daemon=True)
    backend.marker("bench_begin_memory")
    samples.append([0, rss_mib(), 0.0])
    thread.start()
    for i in range(replays):
        replay()
        done[0] = i + 1
        if i % 100 == 99:
            backend.sync()
    backend.sync()
    stop.set()
    thread.join()
    samples.append([replays * per_replay, rss_mib(), time.perf_counter() - t0])
    backend.marker("bench_end_memory")
    return {"kernels": replays * per_replay, "seconds": time.perf_counter() - t0, "samples": samples}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=["torch", "mock"], default="torch")
    ap.add_argument("--mock-lib", help="the mock libcupti (backend mock)")
    ap.add_argument("--mode", required=True, choices=["untraced", "ours", "kineto", "floor"])
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--kineto-trace", help="export torch.profiler's trace of each workload to PREFIX_<workload>.json")
    ap.add_argument("--memory", type=int, default=0, help="instead of the workloads: this many kernels, RSS sampled")
    ap.add_argument("--rss-every", type=float, default=0.5)
    args = ap.parse_args()

    backend = TorchBackend() if args.backend == "torch" else MockBackend(args.mock_lib)
    result = {"mode": args.mode, "backend": args.backend, "pid": os.getpid(), "workloads": {}}
    if args.memory:
        result["memory"] = backend.memory(args.memory, args.rss_every)
        print(json.dumps(result))
        sys.stdout.flush()
        return 0

    for name in args.workloads.split(","):
        step = backend.workload(name)
        profiler = None
        if args.mode == "kineto":
            from torch.profiler import ProfilerActivity, profile

            profiler = profile(activities=[ProfilerActivity.CUDA])
            profiler.__enter__()
        for _ in range(args.warmup):
            step()
        backend.marker(f"bench_begin_{name}")
        times = []
        for _ in range(args.steps):
            t = time.perf_counter()
            step()
            backend.sync()
            times.append(time.perf_counter() - t)
        backend.marker(f"bench_end_{name}")
        if profiler is not None:
            profiler.__exit__(None, None, None)
            if args.kineto_trace:
                profiler.export_chrome_trace(f"{args.kineto_trace}_{name}.json")
        result["workloads"][name] = {"step_s": times}
    print(json.dumps(result))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
