#!/usr/bin/env python3
"""The tracer benchmark: what our tracer adds per step, next to torch.profiler (Kineto, CUDA activities)
and next to the floor (a C injection library that enables what a profiler enables in CUPTI, hands CUPTI
buffers and only counts records: what CUPTI itself costs for those records), with intervals.

    python3 gpu/bench_tracer.py --tracer .device/libaccelprof_inject.so --floor /tmp/libcount_records.so
    python3 gpu/bench_tracer.py --backend mock --mock-lib <mock libcupti.so> ...   (a dry run, no GPU)

Workloads (gpu/bench_workloads.py): a transformer training step, CUDA-graph replay, two streams with pinned
copies, a loop of tiny ops (with a driver-API launch now and then, as Triton makes), a ResNet-50 training
step, a GPT-2-shaped decoder's training step (both bf16 autocast), and a CuPy program (no PyTorch in it).

Modes (the "main" group), one fresh process each per round, every workload in each:
  untraced      nothing (its off and on blocks are alike: an A/A check of the method)
  ours          CUDA_INJECTION64_PATH=libaccelprof_inject.so with ACCELPROF_CAPTURE_RANGE=profiler-api,
                switched by cudaProfilerStart/Stop; its trace file written (JSON)
  ours-decodefilter  ours with ACCELPROF_CUDA_API_FILTER_AT=decode: the API filter applied while decoding
                (Kineto's way: CUPTI records every call but four, the decoder drops the rest, counted;
                the engine's default since the H200 measured it); not in the default modes: --modes
  ours-cuptifilter   ours with ACCELPROF_CUDA_API_FILTER_AT=cupti: the filter inside CUPTI (each call left
                out disabled by id; the default before); not in the default modes: --modes
  kineto        torch.profiler.profile(activities=[CUDA]) entered and exited
  floor         libcount_records.so with our tracer's CUPTI configuration (COUNT_RECORDS_PRESET=ours with
                COUNT_RECORDS_API=kineto: the engine's default filters the API records while decoding, so
                CUPTI leaves out only Kineto's four ids; enabled in cuInit, then switched by
                count_records_window as ours is by the capture range)
  floor-cuptifilter  the same with the API filter in CUPTI (COUNT_RECORDS_API=timeline: ours-cuptifilter's
                configuration); not in the default modes: --modes
  floor-kineto  libcount_records.so with Kineto's CUPTI configuration (COUNT_RECORDS_PRESET=kineto;
                enabled at the first window only); not in the default modes: --modes
With --factors, a second group each round (the tiny-op loop only by default): floor-kineto and variants
of it that each change one thing towards our configuration (fk-systid: system thread ids; fk-cupticlock:
CUPTI's own clock instead of the TSC callback; fk-timeline: our API filter; fk-recycle: recycled buffers;
fk-eager: enabled from cuInit), to find what makes Kineto's configuration cheaper.

Inside each process, each workload is measured in pairs of blocks with the profiler off and on (see
gpu/bench_workloads.py); gpu/bench_analyze.py turns the raw steps into ratios with bootstrap intervals.
Modes rotate round by round. Rounds are added until --budget-s would be passed by one more round. Every
workload's steps go to $OUT/raw.jsonl as soon as they are measured, each process's summary to
$OUT/processes.jsonl; the analysis runs at the end ($OUT/bench_table.txt) and can be rerun offline on
several runs' raw.jsonl.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_analyze  # noqa: E402

MAIN = ["untraced", "ours", "kineto", "floor"]
# Our tracer's modes: the environment each adds to ours'.
OURS_ENV = {
    "ours": {},
    "ours-decodefilter": {"ACCELPROF_CUDA_API_FILTER_AT": "decode"},
    "ours-cuptifilter": {"ACCELPROF_CUDA_API_FILTER_AT": "cupti"},
}
# The floor modes with our tracer's CUPTI configuration: where its API filter applies (COUNT_RECORDS_API).
FLOOR_API = {"floor": "kineto", "floor-cuptifilter": "timeline"}
FACTORS = ["floor-kineto", "fk-systid", "fk-cupticlock", "fk-timeline", "fk-recycle", "fk-eager"]
# What each factor variant changes in Kineto's configuration (count_records.c's settings).
FACTOR_ENV = {
    "floor-kineto": {},
    "fk-systid": {"COUNT_RECORDS_THREAD_ID": "system"},
    "fk-cupticlock": {"COUNT_RECORDS_CLOCK": "cupti"},
    "fk-timeline": {"COUNT_RECORDS_API": "timeline"},
    "fk-recycle": {"COUNT_RECORDS_RECYCLE": "1"},
    "fk-eager": {"COUNT_RECORDS_LAZY": "0"},
}


def log(*a):
    print(*a, flush=True)


class Bench:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="bench_tracer_")
        self.out = args.out
        os.makedirs(self.out, exist_ok=True)
        self.raw = os.path.join(self.out, "raw.jsonl")
        self.processes = os.path.join(self.out, "processes.jsonl")
        self.started = time.monotonic()
        self.run_id = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        self.stderr_log = open(os.path.join(self.out, "child_stderr.txt"), "a")

    def elapsed(self):
        return time.monotonic() - self.started

    def env(self, mode, tag):
        env = dict(os.environ)
        for k in list(env):
            if k == "CUDA_INJECTION64_PATH" or k.startswith("COUNT_RECORDS_") or k.startswith("ACCELPROF_"):
                if k != "ACCELPROF_MOCKS_CLIPPY":
                    env.pop(k)
        files = {}
        toggle = "none"
        if mode in OURS_ENV:
            toggle = "cudaprofiler"
            env["CUDA_INJECTION64_PATH"] = os.path.abspath(self.args.tracer)
            env["ACCELPROF_CAPTURE_RANGE"] = "profiler-api"
            env["ACCELPROF_VENDOR"] = "cupti"
            files["trace"] = os.path.join(self.work, f"ours_{tag}.json")
            files["summary"] = os.path.join(self.work, f"ours_{tag}_summary.json")
            env["ACCELPROF_OUTPUT"] = files["trace"]
            env["ACCELPROF_SUMMARY_JSON"] = files["summary"]
            env["ACCELPROF_SUMMARY"] = "off"
            if self.args.api_calls:
                env["ACCELPROF_CUDA_API_CALLS"] = self.args.api_calls
            env.update(OURS_ENV[mode])
        elif mode == "kineto":
            toggle = "kineto"
        elif mode in FLOOR_API or mode in FACTOR_ENV:
            toggle = "floor"
            env["CUDA_INJECTION64_PATH"] = os.path.abspath(self.args.floor)
            env["COUNT_RECORDS_PRESET"] = "ours" if mode in FLOOR_API else "kineto"
            if mode in FLOOR_API:
                env["COUNT_RECORDS_API"] = FLOOR_API[mode]
            # When the kinds are first on: the floor as ours (in cuInit, then off until the first "on"
            # block: our tracer with a capture range starts so), floor-kineto as Kineto (at its first
            # window only).
            env["COUNT_RECORDS_LAZY"] = "0" if mode in FLOOR_API else "1"
            env.update(FACTOR_ENV.get(mode, {}))
            files["counts"] = os.path.join(self.work, f"{mode}_{tag}.json")
            env["COUNT_RECORDS_OUT"] = files["counts"]
        elif mode != "untraced":
            raise SystemExit(f"unknown mode {mode}")
        # The decoder's model is built from a config: nothing is to be fetched.
        env.setdefault("HF_HUB_OFFLINE", "1")
        env.setdefault("TRANSFORMERS_OFFLINE", "1")
        if self.args.backend == "mock":
            env["CUPTI_LIBRARY_PATH"] = os.path.abspath(self.args.mock_lib)
            env["COUNT_RECORDS_CUPTI"] = os.path.abspath(self.args.mock_lib)
        return env, files, toggle

    def child(self, group, mode, rnd, workloads):
        tag = f"{group}_r{rnd}_{mode}"
        env, files, toggle = self.env(mode, tag)
        a = self.args
        cmd = [sys.executable, os.path.join(HERE, "bench_workloads.py"), "--backend", a.backend, "--mode", mode,
               "--toggle", toggle, "--workloads", ",".join(workloads), "--warmup", str(a.warmup),
               "--pairs", str(a.pairs), "--settle", str(a.settle), "--block-s", str(a.block_s),
               "--min-steps", str(a.min_steps), "--max-steps", str(a.max_steps), "--quiet-s", str(a.quiet_s),
               "--pin", a.pin, "--raw", self.raw,
               "--tag", json.dumps({"run": self.run_id, "round": rnd, "group": group})]
        if a.backend == "mock":
            cmd += ["--mock-lib", os.path.abspath(a.mock_lib)]
        t = time.monotonic()
        timeout = max(20.0, min(a.child_timeout, a.budget_s + 30 - self.elapsed()))
        record = {"run": self.run_id, "round": rnd, "group": group, "mode": mode}
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
            status, stdout, stderr = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            status, stdout, stderr = "timeout", e.stdout or "", e.stderr or ""
            stdout = stdout.decode() if isinstance(stdout, bytes) else stdout
            stderr = stderr.decode() if isinstance(stderr, bytes) else stderr
        record["seconds"] = time.monotonic() - t
        record["status"] = status
        self.stderr_log.write(f"=== {tag} ({record['seconds']:.1f} s) status {status}\n{stderr[-6000:]}\n")
        self.stderr_log.flush()
        try:
            record["summary"] = json.loads(stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            record["summary"] = None
        for key in ("summary", "counts"):
            path = files.get(key)
            if path and os.path.exists(path):
                try:
                    with open(path) as f:
                        doc = json.load(f)
                    record["ours" if key == "summary" else "floor"] = (
                        {k: doc.get(k) for k in ("records_delivered", "records_dropped", "records_filtered", "rows",
                                                  "collection_windows", "errors", "skipped", "trace_bytes")}
                        if key == "summary" else doc)
                except (OSError, json.JSONDecodeError) as e:
                    record[key + "_error"] = str(e)
        for path in files.values():
            for p in (path, path + ".gz"):
                if os.path.exists(p):
                    os.remove(p)
        with open(self.processes, "a") as f:
            f.write(json.dumps(record) + "\n")
        return record


def describe(record):
    s = record.get("summary") or {}
    parts = []
    for w, r in (s.get("workloads") or {}).items():
        parts.append(f"{w}:{'ERR' if r.get('error') else r.get('steps_per_block')}")
    extra = ""
    if "ours" in record:
        o = record["ours"]
        extra = (f" ours delivered {o.get('records_delivered')} dropped {o.get('records_dropped')}"
                 f" filtered {o.get('records_filtered')} windows {o.get('collection_windows')}")
    elif "floor" in record:
        extra = f" floor {record['floor'].get('records')} records, windows {record['floor'].get('windows')}"
    return f"status {record['status']} {record['seconds']:.1f}s steps/block {' '.join(parts)}{extra}"


def run(args):
    b = Bench(args)
    groups = [("main", args.modes.split(","), args.workloads.split(","))]
    if args.factors:
        groups.append(("factors", FACTORS, args.factor_workloads.split(",")))
    if args.backend == "mock":
        groups = [(g, [m for m in modes if m != "kineto"], ws) for g, modes, ws in groups]
        log("(mock backend: no torch.profiler mode)")
    log(f"run {b.run_id}: raw steps to {b.raw}")
    durations = []
    rounds = 0
    for r in range(args.rounds):
        # The next round's length: the longest since the first (which pays for cold caches), else the first.
        round_s = max(durations[1:] or durations or [0.0])
        if r >= args.min_rounds and b.elapsed() + round_s > args.budget_s:
            log(f"stopping after {r} rounds: {b.elapsed():.0f} s used, a round takes ~{round_s:.0f} s, budget {args.budget_s:.0f} s")
            break
        t = time.monotonic()
        for group, modes, workloads in groups:
            order = modes[r % len(modes):] + modes[:r % len(modes)]
            for mode in order:
                record = b.child(group, mode, r, workloads)
                log(f"round {r} {group} {mode:13s} {describe(record)}")
        rounds = r + 1
        durations.append(time.monotonic() - t)
    log(f"{rounds} rounds in {b.elapsed():.0f} s")
    data, errors = bench_analyze.load([b.raw])
    result = bench_analyze.analyze(data, n=args.bootstrap)
    table = bench_analyze.render(result)
    head = (f"tracer benchmark ({args.backend}, run {b.run_id}): {rounds} rounds, {args.pairs} off/on block pairs per "
            f"workload and process, ~{args.block_s} s per block, {args.settle} settle steps per switch; {b.elapsed():.0f} s\n")
    warnings = [f"error: {e}" for e in errors]
    with open(b.processes) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("run") != b.run_id:
                continue
            if rec["status"] != 0:
                warnings.append(f"process {rec['group']} r{rec['round']} {rec['mode']}: status {rec['status']}")
            if rec["mode"] in OURS_ENV and not (rec.get("ours") or {}).get("records_delivered"):
                warnings.append(f"{rec['mode']} r{rec['round']}: no records delivered (did the tracer start?)")
            if (rec.get("ours") or {}).get("records_dropped"):
                warnings.append(f"{rec['mode']} r{rec['round']}: {rec['ours']['records_dropped']} records dropped")
    text = head + "\n".join(warnings) + ("\n" if warnings else "") + table
    with open(os.path.join(b.out, "bench_table.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(b.out, "bench_results.json"), "w") as f:
        json.dump(bench_analyze.json_safe(result), f, indent=1, allow_nan=False)
    if not args.keep:
        shutil.rmtree(b.work, ignore_errors=True)
    log("\n" + text)
    return result


WORKLOADS = ["transformer", "graphs", "streams", "tiny", "resnet", "gpt", "cupy"]
KNOWN_MODES = MAIN + [m for m in list(OURS_ENV) + list(FLOOR_API) + ["floor-kineto"] if m not in MAIN]


def check_lists(ap, args):
    """Refuses an unknown or repeated mode or workload, or an empty list, before any process starts."""
    for what, value, known in (("--modes", args.modes, KNOWN_MODES), ("--workloads", args.workloads, WORKLOADS),
                               ("--factor-workloads", args.factor_workloads, WORKLOADS)):
        items = [x.strip() for x in value.split(",") if x.strip()]
        unknown = [x for x in items if x not in known]
        if not items or unknown or len(set(items)) != len(items):
            ap.error(f"{what} {value!r}: expected distinct names among {','.join(known)}")
        setattr(args, what[2:].replace("-", "_"), ",".join(items))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tracer", help="libaccelprof_inject.so")
    ap.add_argument("--floor", help="libcount_records.so (benches/c/count_records.c)")
    ap.add_argument("--backend", choices=["torch", "mock"], default="torch")
    ap.add_argument("--mock-lib", help="the mock libcupti.so (backend mock)")
    ap.add_argument("--modes", default=",".join(MAIN),
                    help=f"comma-separated, of {','.join(KNOWN_MODES)} (default {','.join(MAIN)})")
    ap.add_argument("--workloads", default=",".join(WORKLOADS),
                    help=f"comma-separated, of {','.join(WORKLOADS)} (default all)")
    ap.add_argument("--factors", action="store_true", help="also the factor group (what makes Kineto's CUPTI configuration cheaper)")
    ap.add_argument("--factor-workloads", default="tiny")
    ap.add_argument("--rounds", type=int, default=100, help="at most this many rounds")
    ap.add_argument("--min-rounds", type=int, default=1, help="rounds run whatever the budget")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--settle", type=int, default=2)
    ap.add_argument("--block-s", type=float, default=0.25, help="timed seconds per block (from the warm-up's pace)")
    ap.add_argument("--min-steps", type=int, default=5, help="timed steps per block at least")
    ap.add_argument("--max-steps", type=int, default=400, help="timed steps per block at most")
    ap.add_argument("--quiet-s", type=float, default=0.25,
                    help="untimed steps after each switch fill at least this many seconds (the GPU kept busy)")
    ap.add_argument("--pin", default="auto", help="the main thread's CPU in each process (auto, off, or a number)")
    ap.add_argument("--api-calls", default="", help="ACCELPROF_CUDA_API_CALLS for ours (default: the tracer's own)")
    ap.add_argument("--budget-s", type=float, default=480, help="no round is started that would end after this many seconds (estimated)")
    ap.add_argument("--child-timeout", type=float, default=240)
    ap.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples of the analysis at the end")
    ap.add_argument("--out", default=os.environ.get("OUT") or "bench_out")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (traces)")
    ap.add_argument("--self-test", action="store_true", help="the analysis's self-test (gpu/bench_analyze.py)")
    ap.add_argument("--plan", action="store_true",
                    help="print the groups, modes, workloads and each mode's environment, then exit (starts nothing)")
    args = ap.parse_args(argv)
    if args.self_test:
        bench_analyze.self_test()
        return 0
    check_lists(ap, args)
    if not args.floor:
        # The floor's modes need the library; the others run without it.
        kept = [m for m in args.modes.split(",") if not m.startswith("f")]
        if kept != args.modes.split(",") or args.factors:
            log(f"no --floor: the floor modes and factors are left out (modes {','.join(kept)})")
        args.modes, args.factors = ",".join(kept), False
    if any(m in OURS_ENV for m in args.modes.split(",")) and not args.tracer:
        ap.error("--tracer is needed for the ours modes")
    if args.backend == "mock" and not args.mock_lib:
        ap.error("--backend mock needs --mock-lib")
    if args.plan:
        plan(args)
        return 0
    run(args)
    return 0


def plan(args):
    """What `run` would do: each group's modes and workloads, and what each mode sets in the environment."""
    groups = [("main", args.modes.split(","), args.workloads.split(","))]
    if args.factors:
        groups.append(("factors", FACTORS, args.factor_workloads.split(",")))
    b = Bench.__new__(Bench)
    b.args, b.work = args, "WORK"
    base = dict(os.environ)
    for group, modes, workloads in groups:
        print(f"group {group}: modes {','.join(modes)}; workloads {','.join(workloads)}")
        for mode in modes:
            env, _, toggle = b.env(mode, "plan")
            added = {k: v for k, v in sorted(env.items()) if base.get(k) != v and not k.endswith("_OFFLINE")}
            print(f"  {mode}: toggle {toggle}; " + " ".join(f"{k}={v}" for k, v in added.items()))


if __name__ == "__main__":
    sys.exit(main())
