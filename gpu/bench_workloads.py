#!/usr/bin/env python3
"""One fresh process of the tracer benchmark (gpu/bench_tracer.py runs it): every workload, timed step
by step, in blocks that alternate between the profiler off and on inside this one process.

The process is started under one mode (the environment sets it up: our tracer or the floor library
through CUDA_INJECTION64_PATH; torch.profiler in-process for kineto). Its --toggle says how the profiler
is switched between blocks, outside the timed steps:

  none          nothing (the untraced mode: its "on" and "off" blocks are the same, an A/A check)
  cudaprofiler  cudaProfilerStart / cudaProfilerStop (our tracer with ACCELPROF_CAPTURE_RANGE=profiler-api:
                its CUPTI kinds are enabled and disabled by them)
  kineto        torch.profiler.profile(activities=[CUDA]) entered and exited
  floor         the floor library's count_records_window(1 / 0) (its kinds enabled / disabled and flushed)

Per workload: the setup, --warmup untimed steps (profiler off), then --pairs pairs of blocks, off/on in
even pairs and on/off in odd ones; each block is untimed steps after the switch (at least --settle, and
as many as fill --quiet-s seconds: the GPU is never left idle between blocks), then the timed steps (as many as fill about --block-s seconds, from the warm-up's pace, the same count in every block of
the workload). A step's time is the wall time of the step and a device synchronization.

Each workload's result is appended as one JSON line to --raw as soon as it is measured (a process killed
later still leaves the workloads before); the last line on stdout is a JSON summary.

Backends:
  torch  PyTorch (and CuPy for the cupy workload) on a CUDA GPU: the real thing.
  mock   no GPU: plays the same shapes of work through the mock libcupti's mock_cupti_* controls, and
         starts the injection library itself (there is no driver to do it); for testing the benchmark.
"""
import argparse
import ctypes
import gc
import json
import os
import sys
import threading
import time

WORKLOADS = ["transformer", "graphs", "streams", "tiny", "resnet", "gpt", "cupy"]

PTX = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry triton_like_driver_kernel()\n{\n\tret;\n}\n"

# cudaProfilerStart_v4000, cudaProfilerStop_v4000 (the 13.0 headers' runtime callback ids).
PROFILER_START, PROFILER_STOP = 171, 172


class DriverLaunches:
    """Launches a parameterless PTX kernel through the CUDA driver API (cuLaunchKernel), as Triton does."""

    def __init__(self):
        self.cuda = ctypes.CDLL("libcuda.so.1")
        ctx = ctypes.c_void_p()
        self._check(self.cuda.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
        if not ctx.value:
            raise SystemExit("no current CUDA context on the main thread")
        module = ctypes.c_void_p()
        self._check(self.cuda.cuModuleLoadData(ctypes.byref(module), PTX.encode() + b"\0"), "cuModuleLoadData")
        self.function = ctypes.c_void_p()
        self._check(self.cuda.cuModuleGetFunction(ctypes.byref(self.function), module, b"triton_like_driver_kernel"),
                    "cuModuleGetFunction")
        self.cuda.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3

    @staticmethod
    def _check(r, what):
        if r != 0:
            raise SystemExit(f"{what} failed with CUresult {r}")

    def launch(self, stream=0):
        self._check(self.cuda.cuLaunchKernel(self.function, 1, 1, 1, 1, 1, 1, 0, stream, None, None), "cuLaunchKernel")


class TorchBackend:
    def __init__(self):
        import torch

        self.torch = torch
        torch.manual_seed(0)
        # Deterministic algorithm choice: cuDNN's benchmark mode could pick other kernels in another process.
        torch.backends.cudnn.benchmark = False
        self.device = torch.device("cuda")
        torch.zeros(1, device=self.device)
        torch.cuda.synchronize()
        self.driver = DriverLaunches()

    def sync(self):
        self.torch.cuda.synchronize()

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
                    self.driver.launch(stream)

        return step

    def make_resnet(self):
        """A convolutional network's training step: torchvision's ResNet-50 (random weights), batch 32 of
        224x224 synthetic images, channels-last, bf16 autocast, SGD with momentum."""
        torch = self.torch
        import torchvision

        model = torchvision.models.resnet50(weights=None, num_classes=1000)
        model = model.to(self.device, memory_format=torch.channels_last).train()
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        x = torch.randn(32, 3, 224, 224, device=self.device).to(memory_format=torch.channels_last)
        y = torch.randint(0, 1000, (32,), device=self.device)
        loss_fn = torch.nn.CrossEntropyLoss()

        def step():
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)

        return step

    def make_gpt(self):
        """A decoder language model's training step: a GPT-2-shaped model from transformers' config (8
        layers, 768 wide, 12 heads; random initialization, nothing downloaded), batch 8 of 256 tokens,
        bf16 autocast, AdamW."""
        torch = self.torch
        from transformers import GPT2Config, GPT2LMHeadModel

        config = GPT2Config(vocab_size=32000, n_positions=512, n_embd=768, n_layer=8, n_head=12, use_cache=False)
        model = GPT2LMHeadModel(config).to(self.device).train()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        tokens = torch.randint(0, config.vocab_size, (8, 256), device=self.device)

        def step():
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(input_ids=tokens, labels=tokens).loss
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)

        return step

    def make_cupy(self):
        """A CUDA program that is not PyTorch: CuPy elementwise kernels, reductions and pinned copies both
        ways (no PyTorch call in the step)."""
        import cupy as cp
        import numpy as np

        x = cp.random.random(1 << 18, dtype=cp.float32)
        y = cp.empty_like(x)
        host = cp.cuda.alloc_pinned_memory(4 << 12)
        host_view = np.frombuffer(host, dtype=np.float32, count=4 << 10)
        scale = cp.ElementwiseKernel("float32 a", "float32 b", "b = a * 1.0001f + 0.5f", "bench_scale")
        stream = cp.cuda.Stream(non_blocking=True)

        def step():
            with stream:
                for i in range(300):
                    scale(x, y)
                    cp.sqrt(y, out=x)
                    if i % 10 == 0:
                        x[:1024].sum()
                    if i % 30 == 0:
                        x[: 4 << 10].get(stream=stream, out=host_view)
                        x[4 << 10 : 8 << 10].set(host_view, stream=stream)
                stream.synchronize()

        return step


class MockBackend:
    """The mock libcupti played as a CUDA program (see the module docs)."""

    RUNTIME, DRIVER = 2, 1

    def __init__(self, mock_lib):
        self.m = ctypes.CDLL(mock_lib, mode=ctypes.RTLD_GLOBAL)
        self.m.mock_cupti_launch_kernel.argtypes = [ctypes.c_char_p] + [ctypes.c_uint32] * 7 + [ctypes.c_uint64] * 2
        self.m.mock_cupti_launch_kernel_driver.argtypes = self.m.mock_cupti_launch_kernel.argtypes
        self.m.mock_cupti_api_call.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
        self.m.mock_cupti_memcpy.argtypes = [ctypes.c_uint64] * 3 + [ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int, ctypes.c_uint64]
        # cudaGetDevice, cuDevicePrimaryCtxGetState, cudaGetLastError (the 13.0 headers' ids).
        self.get_device, self.primary_state, self.last_error = 17, 392, 10
        injection = os.environ.get("CUDA_INJECTION64_PATH")
        if injection:
            lib = ctypes.CDLL(injection)
            if lib.InitializeInjection() != 1:
                raise SystemExit("InitializeInjection failed")

    def sync(self):
        self.m.mock_cupti_device_synchronize()

    def profiler_api(self, start):
        self.m.mock_cupti_api_call(self.RUNTIME, PROFILER_START if start else PROFILER_STOP, None, None, 0)

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
        if name in ("transformer", "resnet", "gpt"):
            width = {"transformer": 40, "resnet": 60, "gpt": 50}[name]
            return lambda: [self.launch(names[i % 4] + f"_{i % width}") for i in range(200)]
        if name == "graphs":
            return lambda: [self.m.mock_cupti_launch_kernel(b"graph_node", 4, 1, 1, 64, 1, 1, 0, 9, 1500) for _ in range(500)]
        if name in ("streams", "cupy"):

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


class Toggle:
    """Switches the process's profiler on and off between blocks (see the module docs)."""

    def __init__(self, kind, backend):
        self.kind, self.backend, self.on = kind, backend, False
        self.profiler = None
        self.floor = None
        if kind == "floor":
            self.floor = ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"])
            self.floor.count_records_counts.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
            # Off before the first workload, whether or not the library enabled its kinds at start
            # (COUNT_RECORDS_LAZY=0 keeps them on from cuInit to here).
            if self.floor.count_records_window(0) != 0:
                raise SystemExit("count_records_window failed: the floor library did not start")

    def counts(self):
        """The floor's record counts so far (None for the other toggles)."""
        if self.floor is None:
            return None
        buf = ctypes.create_string_buffer(8192)
        self.floor.count_records_counts(buf, len(buf))
        return json.loads(buf.value.decode())

    def set(self, on):
        if on == self.on:
            return
        self.on = on
        if self.kind == "cudaprofiler":
            if isinstance(self.backend, MockBackend):
                self.backend.profiler_api(on)
            elif on:
                self.backend.torch.cuda.profiler.start()
            else:
                self.backend.torch.cuda.profiler.stop()
        elif self.kind == "kineto":
            from torch.profiler import ProfilerActivity, profile

            if on:
                self.profiler = profile(activities=[ProfilerActivity.CUDA])
                self.profiler.__enter__()
            else:
                self.profiler.__exit__(None, None, None)
                self.profiler = None
        elif self.kind == "floor":
            if self.floor.count_records_window(1 if on else 0) != 0:
                raise SystemExit("count_records_window failed: the floor library did not start")


def pin_threads(main_cpu, allowed):
    """The main thread alone on `main_cpu`; every other thread of the process (the CUDA driver's, CUPTI's,
    a tracer's, a profiler's) on the other CPUs of `allowed` (the process's CPUs at its start: the main
    thread's own set is one CPU after the first call). The same in every mode, so the timed thread is not
    shared, whatever the profiler runs beside it; threads started since the last call are moved too.
    Returns whether it could."""
    try:
        others = set(allowed) - {main_cpu}
        if not others:
            return False
        me = threading.get_native_id()
        for tid in os.listdir("/proc/self/task"):
            try:
                os.sched_setaffinity(int(tid), {main_cpu} if int(tid) == me else others)
            except OSError:
                pass
        return True
    except (OSError, AttributeError):
        return False


def by_kind_delta(after, before):
    if after is None or before is None:
        return None
    keys = set(after["by_kind"]) | set(before["by_kind"])
    return {
        "records": after["records"] - before["records"],
        "dropped": after["dropped"] - before["dropped"],
        "by_kind": {k: after["by_kind"].get(k, 0) - before["by_kind"].get(k, 0) for k in sorted(keys)
                    if after["by_kind"].get(k, 0) != before["by_kind"].get(k, 0)},
    }


def measure(backend, toggle, name, args, main_cpu):
    step = backend.workload(name)
    toggle.set(False)
    warm = []
    for _ in range(max(1, args.warmup)):
        t0 = time.perf_counter()
        step()
        backend.sync()
        warm.append(time.perf_counter() - t0)
    # The pace of the later warm-up steps (the first ones pay for libraries' and kernels' first use).
    pace = sorted(warm[len(warm) // 2:])[len(warm[len(warm) // 2:]) // 2]
    steps = max(args.min_steps, min(args.max_steps, int(args.block_s / max(pace, 1e-6))))
    blocks = []
    for pair in range(args.pairs):
        for on in ((False, True) if pair % 2 == 0 else (True, False)):
            toggle.set(on)
            before = toggle.counts()
            # Untimed steps after every switch, the same in every mode and both directions: at least
            # --settle of them, and as many more as fill --quiet-s seconds. What a profiler still does
            # after a switch (a tracer decoding and writing the records of the block before; a profiler's
            # start) ends in them, and the GPU stays busy: an idle pause here let its clocks drop, so that
            # the block after the pause ran slower (the A/A difference of the heavy workloads was -1 to
            # -1.5 ms with a 0.3 s sleep before each off block).
            settled, t_settle = 0, time.perf_counter()
            while settled < args.settle or time.perf_counter() - t_settle < args.quiet_s:
                step()
                backend.sync()
                settled += 1
            if main_cpu is not None:
                pin_threads(main_cpu, args.cpus)
            gc.collect()
            gc.disable()
            times = []
            for _ in range(steps):
                t = time.perf_counter()
                step()
                backend.sync()
                times.append(time.perf_counter() - t)
            gc.enable()
            block = {"on": on, "step_s": times, "settle_steps": settled}
            if on and toggle.floor is not None:
                # The block's records: flushed by switching off (the settle steps' records included).
                toggle.set(False)
                block["records"] = by_kind_delta(toggle.counts(), before)
                block["record_steps"] = settled + steps
            blocks.append(block)
    toggle.set(False)
    return {"warmup_pace_s": pace, "steps_per_block": steps, "blocks": blocks}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=["torch", "mock"], default="torch")
    ap.add_argument("--mock-lib", help="the mock libcupti (backend mock)")
    ap.add_argument("--mode", required=True, help="the mode's name (recorded)")
    ap.add_argument("--toggle", required=True, choices=["none", "cudaprofiler", "kineto", "floor"])
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=4, help="pairs of off/on blocks per workload")
    ap.add_argument("--settle", type=int, default=2, help="untimed steps after each switch")
    ap.add_argument("--block-s", type=float, default=0.25, help="timed seconds per block (from the warm-up's pace)")
    ap.add_argument("--quiet-s", type=float, default=0.25,
                    help="untimed steps after each switch fill at least this many seconds (the GPU kept busy)")
    ap.add_argument("--min-steps", type=int, default=5)
    ap.add_argument("--max-steps", type=int, default=400)
    ap.add_argument("--pin", default="auto", help="CPU for the main thread alone (auto: the highest allowed; off)")
    ap.add_argument("--raw", help="append one JSON line per workload here")
    ap.add_argument("--tag", default="{}", help="JSON object merged into every line written")
    args = ap.parse_args()

    backend = TorchBackend() if args.backend == "torch" else MockBackend(args.mock_lib)
    toggle = Toggle(args.toggle, backend)
    main_cpu = None
    args.cpus = set()
    if args.pin != "off":
        try:
            args.cpus = os.sched_getaffinity(0)
            main_cpu = max(args.cpus) if args.pin == "auto" else int(args.pin)
        except (OSError, ValueError):
            main_cpu = None
    tag = json.loads(args.tag)
    summary = {"mode": args.mode, "backend": args.backend, "pid": os.getpid(), "main_cpu": main_cpu, "workloads": {}}
    for name in args.workloads.split(","):
        t = time.monotonic()
        try:
            result = measure(backend, toggle, name, args, main_cpu)
        except Exception as e:  # noqa: BLE001 (any failure of one workload is its result)
            # A workload whose library is missing (or fails) is reported, and the others still run.
            toggle.set(False)
            result = {"error": f"{type(e).__name__}: {e}"[:500]}
        result["seconds"] = time.monotonic() - t
        line = dict(tag, mode=args.mode, workload=name, pid=os.getpid(), **result)
        if args.raw:
            with open(args.raw, "a") as f:
                f.write(json.dumps(line) + "\n")
        summary["workloads"][name] = {k: v for k, v in result.items() if k != "blocks"}
        print(f"{args.mode} {name}: {result.get('error') or str(result['steps_per_block']) + ' steps/block'} "
              f"({result['seconds']:.1f} s)", file=sys.stderr, flush=True)
    summary["floor_counts"] = toggle.counts()
    print(json.dumps(summary))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
