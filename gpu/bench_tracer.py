#!/usr/bin/env python3
"""The tracer benchmark: what our tracer adds per training step, next to torch.profiler (CUDA activities)
and next to the floor (a C injection library that enables the same kinds and filters, hands CUPTI recycled
buffers and only counts records: what CUPTI itself costs for those records).

    python3 gpu/bench_tracer.py --tracer .device/libcupti_trace.so --floor /tmp/libcount_records.so
    python3 gpu/bench_tracer.py --backend mock --mock-lib <mock libcupti.so> ...   (a dry run, no GPU)

Workloads (gpu/bench_workloads.py): a transformer training step, CUDA-graph replay, two streams with pinned
copies, a loop of tiny ops (with a driver-API launch now and then, as Triton makes). Modes: untraced, ours
(CUDA_INJECTION64_PATH=libcupti_trace.so, trace file on), kineto (torch.profiler with CUDA activities),
floor (CUDA_INJECTION64_PATH=libcount_records.so). Every measurement is a fresh process running all four
workloads; modes alternate round by round (the order rotates), at least 7 rounds; per workload and mode
the median over rounds of each process's median step time.

Also: record counts (ours and the floor), kernel counts and the multiset of kernel names in the timed
steps of each workload (ours against Kineto's, from the traces of round 0), and resident memory over
10^7 kernels with the trace file on. Details go to $OUT (at most 6 files); the table is printed last.
"""
import argparse
import collections
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = ["transformer", "graphs", "streams", "tiny"]


def log(*a):
    print(*a, flush=True)


class Bench:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="bench_tracer_")
        self.out = args.out
        os.makedirs(self.out, exist_ok=True)
        self.started = time.monotonic()
        self.stderr_log = open(os.path.join(self.out, "child_stderr.txt"), "w")

    def elapsed(self):
        return time.monotonic() - self.started

    def env(self, mode, tag):
        env = dict(os.environ)
        for k in ("CUDA_INJECTION64_PATH", "CUPTI_TRACE_OUTPUT", "COUNT_RECORDS_OUT"):
            env.pop(k, None)
        files = {}
        if mode == "ours":
            env["CUDA_INJECTION64_PATH"] = os.path.abspath(self.args.tracer)
            files["trace"] = os.path.join(self.work, f"ours_{tag}.json")
            files["summary"] = os.path.join(self.work, f"ours_{tag}_summary.json")
            env["CUPTI_TRACE_OUTPUT"] = files["trace"]
            env["CUPTI_TRACE_SUMMARY_JSON"] = files["summary"]
            env["CUPTI_TRACE_SUMMARY"] = "0"
            if self.args.api_calls:
                env["CUPTI_TRACE_API_CALLS"] = self.args.api_calls
        elif mode == "floor":
            env["CUDA_INJECTION64_PATH"] = os.path.abspath(self.args.floor)
            files["counts"] = os.path.join(self.work, f"floor_{tag}.json")
            env["COUNT_RECORDS_OUT"] = files["counts"]
            env["COUNT_RECORDS_API"] = "all" if self.args.api_calls == "all" else "timeline"
        if self.args.backend == "mock":
            env["CUPTI_LIBRARY_PATH"] = os.path.abspath(self.args.mock_lib)
            env["COUNT_RECORDS_CUPTI"] = os.path.abspath(self.args.mock_lib)
        return env, files

    def child(self, mode, tag, extra, preload=None):
        env, files = self.env(mode, tag)
        if preload:
            env["LD_PRELOAD"] = os.path.abspath(preload) + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
        cmd = [sys.executable, os.path.join(HERE, "bench_workloads.py"), "--backend", self.args.backend, "--mode", mode]
        if self.args.backend == "mock":
            cmd += ["--mock-lib", os.path.abspath(self.args.mock_lib)]
        cmd += extra
        t = time.monotonic()
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=self.args.child_timeout)
        self.stderr_log.write(f"=== {mode} {tag} ({time.monotonic() - t:.1f} s) status {p.returncode}\n{p.stderr[-4000:]}\n")
        self.stderr_log.flush()
        if p.returncode != 0:
            sys.stderr.write(p.stdout[-2000:] + p.stderr[-4000:])
            raise SystemExit(f"{mode} {tag} failed with status {p.returncode}")
        result = json.loads(p.stdout.strip().splitlines()[-1])
        result["seconds"] = time.monotonic() - t
        for key, path in files.items():
            if key in ("summary", "counts") and os.path.exists(path):
                with open(path) as f:
                    result[key] = json.load(f)
            result[key + "_path"] = path
        return result


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def load_trace(path):
    for candidate in (path, path + ".gz"):
        if os.path.exists(candidate):
            opener = gzip.open if candidate.endswith(".gz") else open
            with opener(candidate, "rt") as f:
                return json.load(f)
    return None


def kernel_events(trace):
    events = trace.get("traceEvents", []) if isinstance(trace, dict) else trace
    return [e for e in events if e.get("ph") == "X" and e.get("cat") == "kernel"]


def window(kernels, workload):
    """The kernels between the end of `bench_begin_<workload>` and the start of `bench_end_<workload>`."""
    begin = [e for e in kernels if e["name"] == f"bench_begin_{workload}"]
    end = [e for e in kernels if e["name"] == f"bench_end_{workload}"]
    if not begin or not end:
        return None
    lo = float(begin[0]["ts"]) + float(begin[0].get("dur", 0))
    hi = float(end[0]["ts"])
    return collections.Counter(
        e["name"] for e in kernels if float(e["ts"]) >= lo and float(e["ts"]) + float(e.get("dur", 0)) <= hi
    )


def api_window(trace, workload):
    """Runtime and driver API events between the two markers' launches, per category."""
    events = trace.get("traceEvents", [])
    kernels = kernel_events(trace)
    begin = [e for e in kernels if e["name"] == f"bench_begin_{workload}"]
    end = [e for e in kernels if e["name"] == f"bench_end_{workload}"]
    if not begin or not end:
        return {}
    lo, hi = float(begin[0]["ts"]), float(end[0]["ts"])
    out = collections.Counter()
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and lo <= float(e["ts"]) <= hi:
            out[e["cat"]] += 1
    return out


def compare_names(ours, kineto):
    if ours is None or kineto is None:
        return {"equal": None}
    only_ours = ours - kineto
    only_kineto = kineto - ours
    return {
        "equal": not only_ours and not only_kineto,
        "ours": sum(ours.values()),
        "kineto": sum(kineto.values()),
        "distinct": len(ours | kineto),
        "only_ours": only_ours.most_common(8),
        "only_kineto": only_kineto.most_common(8),
    }


def run(args):
    b = Bench(args)
    modes = args.modes.split(",")
    if args.backend == "mock" and "kineto" in modes:
        modes.remove("kineto")
        log("(mock backend: no torch.profiler mode)")
    workloads = args.workloads.split(",")
    extra = ["--workloads", ",".join(workloads), "--warmup", str(args.warmup), "--steps", str(args.steps)]
    per_round = {m: [] for m in modes}
    rounds_done = 0
    for r in range(args.rounds):
        if r >= args.min_rounds and b.elapsed() > args.budget_s * 0.75:
            log(f"stopping after {r} rounds: {b.elapsed():.0f} s of a {args.budget_s} s budget used")
            break
        order = modes[r % len(modes):] + modes[:r % len(modes)]
        for mode in order:
            e = list(extra)
            if mode == "kineto" and r == 0:
                e += ["--kineto-trace", os.path.join(b.work, "kineto_r0")]
            res = b.child(mode, f"r{r}", e)
            per_round[mode].append(res)
            meds = " ".join(f"{w}={median(res['workloads'][w]['step_s']) * 1e3:.3f}ms" for w in workloads)
            log(f"round {r} {mode:9s} {res['seconds']:5.1f}s  {meds}")
            if r > 0 and mode == "ours":
                # Only round 0's trace is read; later ones only cost what writing them costs.
                for k in ("trace_path",):
                    for p in (res.get(k, ""), res.get(k, "") + ".gz"):
                        if p and os.path.exists(p):
                            os.remove(p)
        rounds_done = r + 1

    # Step times.
    results = {"rounds": rounds_done, "steps": args.steps, "warmup": args.warmup, "backend": args.backend,
               "modes": modes, "workloads": {}}
    for w in workloads:
        entry = {}
        for m in modes:
            meds = [median(res["workloads"][w]["step_s"]) for res in per_round[m]]
            entry[m] = {"median_step_ms": median(meds) * 1e3, "per_round_ms": [x * 1e3 for x in meds]}
        base = entry["untraced"]["median_step_ms"] if "untraced" in entry else float("nan")
        for m in modes:
            entry[m]["added_us"] = (entry[m]["median_step_ms"] - base) * 1e3
        # Paired: each round's added time against the same round's untraced run (the modes of a round
        # run back to back, so drift of the host between rounds cancels), then the median over rounds.
        if "untraced" in entry:
            untraced = entry["untraced"]["per_round_ms"]
            for m in modes:
                added = [(a - u) * 1e3 for a, u in zip(entry[m]["per_round_ms"], untraced)]
                entry[m]["paired_added_us"] = median(added)
                entry[m]["paired_added_per_round_us"] = added
            for other in ("floor", "kineto"):
                if "ours" in entry and other in entry:
                    ratios = [o / f for o, f in zip(entry["ours"]["paired_added_per_round_us"],
                                                    entry[other]["paired_added_per_round_us"]) if f > 0]
                    entry["ours"][f"paired_ratio_{other}"] = median(ratios) if ratios else float("nan")
        results["workloads"][w] = entry

    # Records, kernels and names (round 0).
    ours0 = per_round.get("ours", [None])[0]
    floor0 = per_round.get("floor", [None])[0]
    trace = load_trace(ours0["trace_path"]) if ours0 else None
    ours_kernels = kernel_events(trace) if trace else []
    names = {}
    for w in workloads:
        mine = window(ours_kernels, w) if trace else None
        kineto_trace = load_trace(os.path.join(b.work, f"kineto_r0_{w}.json"))
        theirs = window(kernel_events(kineto_trace), w) if kineto_trace else None
        names[w] = compare_names(mine, theirs)
        names[w]["ours_kernels_in_steps"] = sum(mine.values()) if mine is not None else None
        names[w]["api_events_in_steps"] = dict(api_window(trace, w)) if trace else {}
    results["names"] = names
    results["records"] = {
        "ours": ours0.get("summary") if ours0 else None,
        "floor": floor0.get("counts") if floor0 else None,
    }
    if trace:
        head = {k: v for k, v in trace.items() if k != "traceEvents"}
        head["traceEvents"] = trace.get("traceEvents", [])[:40]
        with open(os.path.join(b.out, "trace_head.json"), "w") as f:
            json.dump(head, f, indent=1)

    # Memory over many kernels, trace file on.
    memory = None
    if args.memory_kernels and b.elapsed() > args.budget_s:
        log(f"memory test left out: {b.elapsed():.0f} s used of a {args.budget_s} s budget")
    elif args.memory_kernels:
        memory = {}
        for mode in ("untraced", "ours"):
            try:
                res = b.child(mode, "memory", ["--memory", str(args.memory_kernels), "--rss-every", str(args.rss_every)])
            except (SystemExit, subprocess.TimeoutExpired) as e:
                log(f"memory test of {mode} failed: {e}")
                continue
            mem = res["memory"]
            trace_path = res.get("trace_path")
            size = 0
            for p in (trace_path, (trace_path or "") + ".gz"):
                if p and os.path.exists(p):
                    size = os.path.getsize(p)
                    os.remove(p)
            rss = [s[1] for s in mem["samples"]]
            memory[mode] = {
                "kernels": mem["kernels"],
                "seconds": mem["seconds"],
                "rss_start_mib": rss[0],
                "rss_end_mib": rss[-1],
                "rss_max_mib": max(rss),
                "samples": mem["samples"],
                "trace_bytes": size,
                "summary": res.get("summary"),
            }
            log(f"memory {mode}: {mem['kernels']} kernels in {mem['seconds']:.1f} s, RSS {rss[0]:.0f} -> {rss[-1]:.0f} MiB "
                f"(max {max(rss):.0f}), trace {size / 2**20:.0f} MiB")
        with open(os.path.join(b.out, "memory.json"), "w") as f:
            json.dump(memory, f, indent=1)
    results["memory"] = {k: {kk: vv for kk, vv in v.items() if kk != "samples"} for k, v in (memory or {}).items()}
    # The main results first, in case a later optional run goes wrong.
    with open(os.path.join(b.out, "bench_table.txt"), "w") as f:
        f.write(render(dict(results, seconds=b.elapsed()), workloads, modes))

    # Optionally: the tiny workload with a newer libcupti preloaded (it replaces the one PyTorch brings:
    # same soname), so the session takes the V2 API and user-defined records (13.4+ with the filter).
    if args.cupti_preload:
        newer = {}
        for mode in ("ours", "floor"):
            try:
                res = b.child(mode, "preload", ["--workloads", "tiny", "--warmup", "1", "--steps", "5"],
                              preload=args.cupti_preload)
            except (SystemExit, subprocess.TimeoutExpired) as e:
                newer[mode] = {"error": str(e)}
                log(f"preloaded run of {mode} failed: {e}")
                continue
            t = load_trace(res["trace_path"]) if mode == "ours" else None
            newer[mode] = {
                "step_ms": median(res["workloads"]["tiny"]["step_s"]) * 1e3,
                "summary": res.get("summary"),
                "counts": res.get("counts"),
                "trace_metadata": {k: v for k, v in (t or {}).items() if k != "traceEvents"},
                "kernels_in_steps": sum(window(kernel_events(t), "tiny").values()) if t and window(kernel_events(t), "tiny") else None,
            }
        results["preload"] = newer
        log(f"preloaded {args.cupti_preload}: {json.dumps(newer)[:1500]}")
    results["seconds"] = b.elapsed()
    with open(os.path.join(b.out, "bench_results.json"), "w") as f:
        json.dump({"results": results, "raw": {m: [{k: v for k, v in r.items() if k != "trace"} for r in per_round[m]] for m in modes}}, f, indent=1)
    with open(os.path.join(b.out, "kernel_names.txt"), "w") as f:
        for w in workloads:
            f.write(f"== {w}: {json.dumps(names[w])}\n")
    table = render(results, workloads, modes)
    with open(os.path.join(b.out, "bench_table.txt"), "w") as f:
        f.write(table)
    if not args.keep:
        shutil.rmtree(b.work, ignore_errors=True)
    log("\n" + table)
    return results


def render(results, workloads, modes):
    lines = [f"tracer benchmark ({results['backend']}): {results['rounds']} rounds of fresh processes, "
             f"{results['steps']} timed steps after {results['warmup']} warm-up, medians; {results['seconds']:.0f} s"]
    head = f"{'workload':12s} {'untraced':>10s}"
    added_modes = [m for m in modes if m != "untraced"]
    head += "".join(f" {('+' + m):>10s}" for m in added_modes)
    head += f" {'ours/floor':>10s} {'ours/kineto':>11s} {'kernels ours/kineto':>19s} {'names=kineto':>12s}"
    lines.append(head + "   (ms/step; +mode: added us/step)")
    for w in workloads:
        e = results["workloads"][w]
        row = f"{w:12s} {e.get('untraced', {}).get('median_step_ms', float('nan')):10.3f}"
        row += "".join(f" {e[m]['added_us']:+10.1f}" for m in added_modes)
        ours = e.get("ours", {}).get("added_us")
        floor = e.get("floor", {}).get("added_us")
        kineto = e.get("kineto", {}).get("added_us")
        ratio = lambda a, c: f"{a / c:.2f}" if a is not None and c not in (None, 0) and c == c else "n/a"
        n = results["names"].get(w, {})
        eq = n.get("equal")
        kernels = f"{n.get('ours_kernels_in_steps')}/{n.get('kineto', 'n/a')}"
        row += f" {ratio(ours, floor):>10s} {ratio(ours, kineto):>11s} {kernels:>19s}"
        row += f" {('yes' if eq else 'NO' if eq is False else 'n/a'):>12s}"
        lines.append(row)
    if any("paired_added_us" in results["workloads"][w].get("ours", {}) for w in workloads):
        lines.append("paired by round (each round's added time against that round's untraced run; medians over rounds):")
        lines.append(f"{'workload':12s}" + "".join(f" {('+' + m):>10s}" for m in added_modes)
                     + f" {'ours/floor':>10s} {'ours/kineto':>11s}   (added us/step; ratios: median of per-round ratios)")
        for w in workloads:
            e = results["workloads"][w]
            row = f"{w:12s}" + "".join(f" {e[m].get('paired_added_us', float('nan')):+10.1f}" for m in added_modes)
            o = e.get("ours", {})
            row += f" {o.get('paired_ratio_floor', float('nan')):10.2f} {o.get('paired_ratio_kineto', float('nan')):11.2f}"
            lines.append(row)
    lines.append("goals: ours within 5% of the floor (ours/floor <= 1.05, where the floor adds a measurable time), "
                 "ours <= kineto everywhere, ours <= 0.5 x kineto where kineto adds more than the floor")
    rec = results["records"]
    if rec.get("ours") or rec.get("floor"):
        o, fl = rec.get("ours") or {}, rec.get("floor") or {}
        orows = o.get("rows", {})
        by = fl.get("by_kind", {})
        lines.append(
            "records per process (round 0): ours delivered {} (kernel {}, api {}, memcpy {}, memset {}; dropped {}); "
            "floor {} (kernel {}, api {}, memcpy {}, memset {}; dropped {})".format(
                o.get("records_delivered"), orows.get("kernel"), orows.get("api"), orows.get("memcpy"),
                orows.get("memset"), o.get("records_dropped"), fl.get("records"), by.get("10"),
                int(by.get("4", 0)) + int(by.get("5", 0)), by.get("1"), by.get("2"), fl.get("dropped")))
    for w in workloads:
        n = results["names"].get(w, {})
        if n.get("equal") is False:
            lines.append(f"  {w}: names differ: only ours {n['only_ours'][:3]}, only kineto {n['only_kineto'][:3]}")
        api = n.get("api_events_in_steps")
        if api:
            lines.append(f"  {w}: api events in the timed steps (ours): {api}")
    pre = results.get("preload")
    if pre and any("error" in v for v in pre.values()):
        lines.append(f"preloaded libcupti: {json.dumps(pre)[:300]}")
    elif pre:
        o, fl = pre["ours"], pre["floor"]
        meta = o.get("trace_metadata", {})
        lines.append(f"preloaded libcupti (cupti_version {meta.get('cupti_version', meta)}): tiny ours {o['step_ms']:.3f} "
                     f"ms/step, floor {fl['step_ms']:.3f}; kernels in steps {o['kernels_in_steps']}; ours delivered "
                     f"{(o.get('summary') or {}).get('records_delivered')}, floor {(fl.get('counts') or {}).get('records')}")
    for mode, m in results.get("memory", {}).items():
        lines.append(f"memory {mode:8s}: {m['kernels']} kernels, RSS {m['rss_start_mib']:.0f} -> {m['rss_end_mib']:.0f} MiB "
                     f"(max {m['rss_max_mib']:.0f}), trace file {m['trace_bytes'] / 2**20:.0f} MiB, {m['seconds']:.1f} s")
    return "\n".join(lines) + "\n"


def self_test():
    """The trace parsing, on a tiny Kineto-style trace (runs anywhere)."""
    ev = [{"ph": "X", "cat": "kernel", "name": n, "ts": t, "dur": 1} for n, t in
          [("warm", 1), ("bench_begin_tiny", 10), ("k", 12), ("k", 14), ("j", 15), ("bench_end_tiny", 20), ("late", 30)]]
    w = window(ev, "tiny")
    assert w == collections.Counter({"k": 2, "j": 1}), w
    c = compare_names(w, collections.Counter({"k": 2, "i": 1}))
    assert c["equal"] is False and c["only_ours"] == [("j", 1)] and c["only_kineto"] == [("i", 1)], c
    assert compare_names(w, w)["equal"] is True
    print("self-test OK")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tracer", help="libcupti_trace.so")
    ap.add_argument("--floor", help="libcount_records.so (benches/c/count_records.c)")
    ap.add_argument("--backend", choices=["torch", "mock"], default="torch")
    ap.add_argument("--mock-lib", help="the mock libcupti.so (backend mock)")
    ap.add_argument("--modes", default="untraced,ours,kineto,floor")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--min-rounds", type=int, default=7, help="rounds run whatever the budget")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--api-calls", default="", help="CUPTI_TRACE_API_CALLS for ours (default: the tracer's own)")
    ap.add_argument("--memory-kernels", type=int, default=10_000_000)
    ap.add_argument("--rss-every", type=float, default=0.5)
    ap.add_argument("--budget-s", type=float, default=420)
    ap.add_argument("--cupti-preload", help="also run the tiny workload with this libcupti.so.13 preloaded (13.3+: V2 API)")
    ap.add_argument("--child-timeout", type=float, default=240)
    ap.add_argument("--out", default=os.environ.get("OUT") or "bench_out")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (traces)")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return 0
    if not args.tracer or (not args.floor and "floor" in args.modes.split(",")):
        ap.error("--tracer (and --floor, for the floor mode) are needed")
    if args.backend == "mock" and not args.mock_lib:
        ap.error("--backend mock needs --mock-lib")
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
