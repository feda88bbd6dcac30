#!/usr/bin/env python3
"""Two profilers at once: what torch.profiler (Kineto) and our tracer each add per training step when the
other one is on too, against what each adds alone (docs/CUPTI-SHARING.md). Paired rounds on one GPU:

    PYTHONUNBUFFERED=1 timeout 540 python3 gpu/bench_coexist.py --bin DIR --out OUTDIR
    python3 gpu/bench_coexist.py --self-test        (the statistics and the process plumbing, no GPU)

DIR holds accelprof, libaccelprof_inject.so and libcupti_shim.so (`cargo build --release -p accelprof
-p accelprof-inject -p cupti-shim`). Modes, each measurement a fresh process:
  none    untraced;
  kineto  torch.profiler with CUDA activities, its schedule's active window covering every timed step
          (its trace is processed after the timed steps, when the profiler exits);
  ours    under our launcher with the CUPTI sharing shim (`accelprof trace --vendor cuda --cuda-share on -o T.json -- python ...`),
          no torch.profiler;
  both    under our launcher with the shim AND torch.profiler as in `kineto`.
Each process runs the workloads (the CNN of gpu/coexist_check.py, launch-bound, and the transformer step
of gpu/bench_workloads.py), each `--warmup` untimed steps then `--steps` timed steps (a device
synchronization ends each step); its figure per workload is the median step time. Modes alternate round
by round, the order rotating; rounds are added until `--budget-s` would be passed (at least
`--min-rounds`).

Per round r: added_kineto = kineto - none, added_ours = ours - none, added_both = both - none. The figures:
  ratio_kineto = (both - ours) / (kineto - none): torch.profiler's added time with ours on, over what it
                 adds alone;
  ratio_ours   = (both - kineto) / (ours - none): ours with torch.profiler on, over ours alone.
Each as the ratio of the medians over rounds of the paired differences, with a bootstrap 95% interval
(rounds resampled with replacement, all four modes of a round kept together); also the median of the
per-round ratios. Goal (issue 23): both ratios at most 1.05. A ratio is only as good as its denominator:
the table prints the added times with their intervals, so a denominator lost in the noise shows.

Round 0 also exports torch.profiler's trace (after the timed steps) and counts its kernels, in `kineto`
and `both`: the counts must be equal (the shim gives Kineto everything); ours' summary (kernel records,
dropped) is read in every `ours`/`both` process. Results: OUTDIR/bench_coexist.json, the table printed
last and written to OUTDIR/bench_coexist.txt, children's stderr in OUTDIR/child_stderr.txt.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODES = ["none", "kineto", "ours", "both"]
WORKLOADS = ["cnn", "transformer"]
GOAL = 1.05


def log(*a):
    print(*a, flush=True)


# ---------------------------------------------------------------------------------------------------------
# The child: one process, one mode.


def make_cnn(torch):
    """The training step of gpu/coexist_check.py (small and launch-bound: CUPTI's cost per kernel shows)."""
    dev = "cuda"
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
        torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.BatchNorm2d(64), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(64, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(64, 3, 32, 32, device=dev)
    y = torch.randint(0, 10, (64,), device=dev)

    def step():
        opt.zero_grad(set_to_none=True)
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()

    return step


def make_transformer(torch):
    """The transformer training step of gpu/bench_workloads.py (its TorchBackend.make_transformer)."""
    import types

    sys.path.insert(0, HERE)
    from bench_workloads import TorchBackend

    return TorchBackend.make_transformer(types.SimpleNamespace(torch=torch, device=torch.device("cuda")))


def child_torch(args):
    import torch

    torch.manual_seed(0)
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    workloads = args.workloads.split(",")
    makers = {"cnn": make_cnn, "transformer": make_transformer}
    result = {"mode": args.child, "pid": os.getpid(), "workloads": {}, "kineto_kernels": None}
    prof = None
    if args.child in ("kineto", "both"):
        from torch.profiler import ProfilerActivity, profile, schedule

        total = len(workloads) * (args.warmup + args.steps)
        acts = {"cpu": ProfilerActivity.CPU, "cuda": ProfilerActivity.CUDA}
        activities = [acts[a] for a in args.kineto_activities.split(",")]
        # One window over the whole run: the first step is Kineto's warm-up, every later step (all timed
        # steps included) is active, and one step more than run, so the window ends only at exit.
        sched = schedule(wait=0, warmup=1, active=total, repeat=1)

        def ready(p):
            if args.kineto_trace:
                p.export_chrome_trace(args.kineto_trace)
                with open(args.kineto_trace) as f:
                    events = json.load(f).get("traceEvents", [])
                result["kineto_kernels"] = sum(1 for e in events if e.get("cat") == "kernel")
                os.remove(args.kineto_trace)

        prof = profile(activities=activities, schedule=sched, on_trace_ready=ready)
        prof.__enter__()
    for name in workloads:
        step = makers[name](torch)
        for _ in range(args.warmup):
            step()
            torch.cuda.synchronize()
            if prof is not None:
                prof.step()
        times = []
        for _ in range(args.steps):
            t = time.perf_counter()
            step()
            torch.cuda.synchronize()
            times.append(time.perf_counter() - t)
            if prof is not None:
                prof.step()  # outside the timed region
        result["workloads"][name] = {"step_s": times}
    if prof is not None:
        prof.__exit__(None, None, None)
    print(json.dumps(result), flush=True)
    return 0


def child_fake(args):
    """No GPU: a step that sleeps, longer per profiler on (for --self-test's plumbing check)."""
    extra = {"none": 0.0, "kineto": 0.0004, "ours": 0.0002, "both": 0.0006}[args.child]
    if args.child in ("ours", "both") and not os.environ.get("FAKE_LAUNCHER"):
        raise SystemExit("fake child in mode ours/both but not under the (fake) launcher")
    result = {"mode": args.child, "pid": os.getpid(), "workloads": {},
              "kineto_kernels": 123 if args.kineto_trace else None}
    for name in args.workloads.split(","):
        times = []
        for _ in range(args.steps):
            t = time.perf_counter()
            time.sleep(0.002 + extra)
            times.append(time.perf_counter() - t)
        result["workloads"][name] = {"step_s": times}
    print(json.dumps(result), flush=True)
    return 0


# ---------------------------------------------------------------------------------------------------------
# Statistics (plain Python: numpy may be missing).


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def ratio_of_medians(num, den):
    d = median(den)
    return median(num) / d if d > 0 else float("nan")


def percentile(sorted_xs, q):
    if not sorted_xs:
        return float("nan")
    k = (len(sorted_xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (k - lo)


def bootstrap(rounds, stat, resamples=4000, seed=12345):
    """95% percentile interval of stat(rounds') over resamples of the rounds (with replacement; a round's
    values stay together, so the pairing holds). Returns (lo, hi, undefined_fraction): stat giving NaN (a
    denominator <= 0 in that resample) is counted apart and left out of the interval."""
    rng = random.Random(seed)
    n = len(rounds)
    vals, undefined = [], 0
    for _ in range(resamples):
        v = stat([rounds[rng.randrange(n)] for _ in range(n)])
        if v != v:
            undefined += 1
        else:
            vals.append(v)
    vals.sort()
    return percentile(vals, 0.025), percentile(vals, 0.975), undefined / resamples


def analyse(per_round, resamples=4000):
    """per_round: list of {mode: per-process median step time (ms)} for complete rounds."""
    d = lambda r, a, b: r[a] - r[b]
    diffs = {
        "added_kineto": lambda r: d(r, "kineto", "none"),
        "added_ours": lambda r: d(r, "ours", "none"),
        "added_both": lambda r: d(r, "both", "none"),
        "kineto_with_ours": lambda r: d(r, "both", "ours"),
        "ours_with_kineto": lambda r: d(r, "both", "kineto"),
    }
    out = {"rounds": len(per_round), "median_step_ms": {m: median([r[m] for r in per_round]) for m in MODES}}
    for k, f in diffs.items():
        xs = [f(r) for r in per_round]
        lo, hi, _ = bootstrap(per_round, lambda rs, f=f: median([f(r) for r in rs]), resamples)
        out[k] = {"median_ms": median(xs), "ci95_ms": [lo, hi], "per_round_ms": xs}
    for name, num, den in (("ratio_kineto", "kineto_with_ours", "added_kineto"),
                           ("ratio_ours", "ours_with_kineto", "added_ours")):
        fn, fd = diffs[num], diffs[den]
        stat = lambda rs, fn=fn, fd=fd: ratio_of_medians([fn(r) for r in rs], [fd(r) for r in rs])
        lo, hi, undefined = bootstrap(per_round, stat, resamples)
        per = [fn(r) / fd(r) for r in per_round if fd(r) > 0]
        value = stat(per_round)
        if len(per_round) < 5:
            verdict = "too few rounds (< 5) to say"
        elif value != value:
            verdict = "undefined (median denominator <= 0)"
        elif hi == hi and hi <= GOAL and undefined == 0:
            verdict = f"met (95% upper bound <= {GOAL})"
        elif value <= GOAL:
            verdict = f"point <= {GOAL}, not shown (upper bound above)"
        else:
            verdict = f"NOT met (point above {GOAL})"
        out[name] = {"value": value, "ci95": [lo, hi], "bootstrap_undefined_fraction": undefined,
                     "median_of_round_ratios": median(per), "rounds_with_positive_denominator": len(per),
                     "verdict": verdict}
    return out


# ---------------------------------------------------------------------------------------------------------
# The parent.


def rotate(r):
    return MODES[r % len(MODES):] + MODES[:r % len(MODES)]


class Runner:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="bench_coexist_")
        os.makedirs(args.out, exist_ok=True)
        self.stderr_log = open(os.path.join(args.out, "child_stderr.txt"), "w")

    def command(self, mode, tag, count_kineto):
        a = self.args
        cmd = [sys.executable, os.path.abspath(__file__), "--child", mode, "--workloads", a.workloads,
               "--warmup", str(a.warmup), "--steps", str(a.steps), "--kineto-activities", a.kineto_activities]
        if a.fake:
            cmd.append("--fake")
        if count_kineto and mode in ("kineto", "both"):
            cmd += ["--kineto-trace", os.path.join(self.work, f"kineto_{tag}.json")]
        files = {}
        if mode in ("ours", "both"):
            files = {"trace": os.path.join(self.work, f"ours_{tag}.json"),
                     "summary": os.path.join(self.work, f"ours_{tag}_summary.json")}
            cmd = [os.path.join(a.bin, "accelprof"), "trace", "--vendor", "cuda", "--cuda-share", "on", "-o", files["trace"],
                   "--summary-json", files["summary"], "--"] + cmd
        return cmd, files

    def child(self, mode, tag, count_kineto):
        cmd, files = self.command(mode, tag, count_kineto)
        env = dict(os.environ)
        env.pop("CUDA_INJECTION64_PATH", None)
        t = time.monotonic()
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=self.args.child_timeout)
            rc, stdout, stderr = p.returncode, p.stdout, p.stderr
        except OSError as e:
            rc, stdout, stderr = f"not started ({e})", "", ""
        except subprocess.TimeoutExpired as e:
            rc, stdout, stderr = "timeout", e.stdout or "", e.stderr or ""
            stdout = stdout.decode(errors="replace") if isinstance(stdout, bytes) else stdout
            stderr = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
        seconds = time.monotonic() - t
        self.stderr_log.write(f"=== {tag} {mode} rc={rc} {seconds:.1f}s\n{stderr[-20000:]}\n")
        self.stderr_log.flush()
        res = None
        for line in reversed(stdout.strip().splitlines()):
            try:
                res = json.loads(line)
                break
            except ValueError:
                continue
        if rc != 0 or not res or "workloads" not in res:
            return {"mode": mode, "error": f"exit {rc}", "seconds": seconds, "tail": (stdout + stderr)[-3000:]}
        res["seconds"] = seconds
        res["median_ms"] = {w: median(v["step_s"]) * 1e3 for w, v in res["workloads"].items()}
        del res["workloads"]  # the per-step lists are not kept (the medians are the figure)
        if files:
            try:
                with open(files["summary"]) as f:
                    s = json.load(f)
                res["ours"] = {k: s.get(k) for k in ("kernel_records", "incomplete_kernels", "records_dropped",
                                                     "cupti_dropped")}
            except (OSError, ValueError) as e:
                res["ours"] = {"error": f"no summary ({e})"}
            for p in files.values():
                for q in (p, p + ".gz"):
                    if os.path.exists(q):
                        os.remove(q)
        return res


def run(args):
    for name in ("accelprof", "libaccelprof_inject.so", "libcupti_shim.so"):
        if not args.fake and not os.path.exists(os.path.join(args.bin, name)):
            raise SystemExit(f"{os.path.join(args.bin, name)} is missing (--bin: the folder of the built launcher)")
    runner = Runner(args)
    started = time.monotonic()
    workloads = args.workloads.split(",")
    rounds, failures, raw = [], [], []
    longest = 0.0
    for r in range(args.rounds):
        elapsed = time.monotonic() - started
        if len(rounds) >= args.min_rounds and elapsed + longest > args.budget_s:
            log(f"stopping after {r} rounds: {elapsed:.0f} s used, a round takes up to {longest:.0f} s, "
                f"budget {args.budget_s:.0f} s")
            break
        if elapsed + longest > args.hard_s:
            log(f"stopping after {r} rounds, FEWER than --min-rounds: {elapsed:.0f} s used, a round takes up to "
                f"{longest:.0f} s, hard limit {args.hard_s:.0f} s")
            break
        t = time.monotonic()
        got = {}
        for mode in rotate(r):
            res = runner.child(mode, f"r{r}", count_kineto=(r == 0))
            got[mode] = res
            raw.append(dict(res, round=r))
            if "error" in res:
                log(f"round {r} {mode:6s} FAILED ({res['error']}, {res['seconds']:.1f} s):\n{res['tail'][-1500:]}")
            else:
                meds = " ".join(f"{w}={res['median_ms'][w]:.3f}ms" for w in workloads)
                extra = f" ours={res['ours']}" if "ours" in res else ""
                extra += f" kineto_kernels={res['kineto_kernels']}" if res.get("kineto_kernels") is not None else ""
                log(f"round {r} {mode:6s} {res['seconds']:5.1f}s  {meds}{extra}")
        longest = max(longest, time.monotonic() - t)
        if any("error" in v for v in got.values()):
            failures.append(r)
            if len(failures) >= 2 and not rounds:
                log("two rounds failed and none completed: giving up")
                break
            continue
        rounds.append(got)
        # Written after every round: a run stopped from outside still leaves the rounds it finished.
        summarize(args, rounds, failures, raw, started, final=False)
    results = summarize(args, rounds, failures, raw, started, final=True)
    shutil.rmtree(runner.work, ignore_errors=True)
    log("\n" + render(results, workloads))
    return results


def summarize(args, rounds, failures, raw, started, final):
    workloads = args.workloads.split(",")
    results = {"rounds": len(rounds), "failed_rounds": failures, "steps": args.steps, "warmup": args.warmup,
               "workloads": {}, "kineto_activities": args.kineto_activities, "goal": GOAL}
    for w in workloads:
        per_round = [{m: got[m]["median_ms"][w] for m in MODES} for got in rounds]
        results["workloads"][w] = analyse(per_round, args.resamples if final else 500) if per_round else None
    if rounds:
        first = rounds[0]
        results["round0"] = {"kineto_kernels_alone": first["kineto"].get("kineto_kernels"),
                             "kineto_kernels_with_ours": first["both"].get("kineto_kernels"),
                             "ours_alone": first["ours"].get("ours"), "ours_with_kineto": first["both"].get("ours")}
        results["ours_dropped_any"] = any((g[m].get("ours") or {}).get("records_dropped") not in (0, None)
                                          or (g[m].get("ours") or {}).get("cupti_dropped") not in (0, None)
                                          for g in rounds for m in ("ours", "both"))
    results["seconds"] = time.monotonic() - started
    results["complete"] = final
    with open(os.path.join(args.out, "bench_coexist.json"), "w") as f:
        json.dump({"results": results, "raw": raw}, f, indent=1)
    with open(os.path.join(args.out, "bench_coexist.txt"), "w") as f:
        f.write(render(results, workloads))
    return results


def render(res, workloads):
    lines = [f"coexistence benchmark: {res['rounds']} complete rounds (failed: {res['failed_rounds'] or 'none'}) "
             f"of 4 fresh processes each{'' if res.get('complete', True) else ' (STOPPED EARLY: partial)'}, {res['steps']} timed steps after {res['warmup']} warm-up; "
             f"torch.profiler activities {res['kineto_activities']}; {res['seconds']:.0f} s"]
    if res["rounds"] < 5:
        lines.append("FEWER THAN 5 ROUNDS: the intervals below mean little")
    fmt_ci = lambda ci, p=3: f"[{ci[0]:.{p}f}, {ci[1]:.{p}f}]"
    for w in workloads:
        a = res["workloads"].get(w)
        if not a:
            lines.append(f"{w}: no complete round")
            continue
        ms = a["median_step_ms"]
        lines.append(f"{w}: median step ms: none {ms['none']:.3f}, kineto {ms['kineto']:.3f}, ours {ms['ours']:.3f}, "
                     f"both {ms['both']:.3f}")
        lines.append(f"  {'paired difference (ms/step)':34s} {'median':>9s}  95% interval")
        for k, label in (("added_kineto", "kineto - none (kineto alone)"), ("added_ours", "ours - none (ours alone)"),
                         ("added_both", "both - none"), ("kineto_with_ours", "both - ours (kineto, ours on)"),
                         ("ours_with_kineto", "both - kineto (ours, kineto on)")):
            lines.append(f"  {label:34s} {a[k]['median_ms']:+9.4f}  {fmt_ci(a[k]['ci95_ms'], 4)}")
        for k, label in (("ratio_kineto", "ratio_kineto (both-ours)/(kineto-none)"),
                         ("ratio_ours", "ratio_ours (both-kineto)/(ours-none)")):
            x = a[k]
            und = f", {x['bootstrap_undefined_fraction']:.1%} of resamples undefined" if x["bootstrap_undefined_fraction"] else ""
            lines.append(f"  {label:40s} {x['value']:.3f} {fmt_ci(x['ci95'])}{und}; median of round ratios "
                         f"{x['median_of_round_ratios']:.3f} ({x['rounds_with_positive_denominator']} rounds); "
                         f"{x['verdict']}")
    r0 = res.get("round0")
    if r0:
        lines.append(f"round 0: torch.profiler kernels alone {r0['kineto_kernels_alone']}, with ours "
                     f"{r0['kineto_kernels_with_ours']}; ours alone {r0['ours_alone']}; ours with torch.profiler "
                     f"{r0['ours_with_kineto']}; any dropped by ours in any round: {res.get('ours_dropped_any')}")
    lines.append(f"goal (issue 23): ratio_kineto <= {GOAL} and ratio_ours <= {GOAL} [ratios of the medians over "
                 f"rounds of the paired differences; bootstrap over rounds]")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------
# Self-test (no GPU).


def self_test():
    rng = random.Random(7)
    assert [rotate(r) for r in range(5)][1] == ["kineto", "ours", "both", "none"]
    assert sorted(rotate(3)) == sorted(MODES)
    assert percentile([1.0, 2.0, 3.0], 0.5) == 2.0 and percentile([1.0, 3.0], 0.25) == 1.5

    def synth(n, interference_kineto, interference_ours, noise):
        rounds = []
        for _ in range(n):
            base = 10.0 + rng.gauss(0, 0.05)  # round-to-round drift, shared by the round's modes
            e = lambda: rng.gauss(0, noise)
            rounds.append({"none": base + e(), "kineto": base + 1.0 + e(), "ours": base + 0.5 + e(),
                           "both": base + 1.0 * interference_kineto + 0.5 + e()
                           if interference_ours == 1.0 else base + 1.0 + 0.5 * interference_ours + e()})
        return rounds

    # No interference, little noise: both ratios near 1, inside the goal, intervals around 1.
    a = analyse(synth(12, 1.0, 1.0, 0.005), resamples=1000)
    for k in ("ratio_kineto", "ratio_ours"):
        assert abs(a[k]["value"] - 1.0) < 0.03, (k, a[k])
        assert a[k]["ci95"][0] <= 1.0 <= a[k]["ci95"][1] + 0.02, (k, a[k])
        assert a[k]["verdict"].startswith("met"), (k, a[k])
    assert abs(a["added_kineto"]["median_ms"] - 1.0) < 0.02 and abs(a["added_ours"]["median_ms"] - 0.5) < 0.02
    # The drift shared by a round cancels in the paired differences.
    assert a["added_ours"]["ci95_ms"][1] - a["added_ours"]["ci95_ms"][0] < 0.05, a["added_ours"]
    # Kineto slowed by 30% with ours on: ratio_kineto ~1.3, not met; ratio_ours is then (both - kineto)/(ours -
    # none) = (1.3 + 0.5 - 1.0)/0.5 = 1.6.
    b = analyse(synth(12, 1.3, 1.0, 0.005), resamples=1000)
    assert abs(b["ratio_kineto"]["value"] - 1.3) < 0.05 and b["ratio_kineto"]["verdict"].startswith("NOT"), b["ratio_kineto"]
    assert abs(b["ratio_ours"]["value"] - 1.6) < 0.05, b["ratio_ours"]
    assert b["ratio_kineto"]["ci95"][0] > GOAL
    # Ours slowed by 20% with Kineto on: ratio_ours ~1.2; ratio_kineto = (1.6 - 0.5)/1.0 = 1.1.
    c = analyse(synth(12, 1.0, 1.2, 0.005), resamples=1000)
    assert abs(c["ratio_ours"]["value"] - 1.2) < 0.05 and abs(c["ratio_kineto"]["value"] - 1.1) < 0.05, c
    # Noise as large as the added time: wide intervals, not "met".
    d = analyse(synth(6, 1.0, 1.0, 0.5), resamples=1000)
    assert d["ratio_ours"]["ci95"][1] - d["ratio_ours"]["ci95"][0] > 0.3 or d["ratio_ours"]["bootstrap_undefined_fraction"] > 0, d["ratio_ours"]
    assert not d["ratio_ours"]["verdict"].startswith("met"), d["ratio_ours"]
    # A profiler that adds nothing: the ratio is undefined, not a number that looks like a result.
    e = analyse([{"none": 10.0, "kineto": 10.0, "ours": 10.5, "both": 10.5} for _ in range(5)], resamples=200)
    assert e["ratio_kineto"]["value"] != e["ratio_kineto"]["value"] and e["ratio_kineto"]["verdict"].startswith("undefined")
    # Deterministic intervals (seeded).
    assert analyse(synth(5, 1.0, 1.0, 0.01), 300)["ratio_kineto"]["ci95"] != [float("nan")] * 2
    r1 = [{"none": 1.0 + i * 0.01, "kineto": 2.0, "ours": 1.5, "both": 2.5 + i * 0.02} for i in range(7)]
    assert analyse(r1, 500)["ratio_kineto"]["ci95"] == analyse(r1, 500)["ratio_kineto"]["ci95"]

    # The process plumbing: the parent with fake children and a fake launcher that checks its arguments.
    tmp = tempfile.mkdtemp(prefix="bench_coexist_selftest_")
    try:
        launcher = os.path.join(tmp, "accelprof")
        with open(launcher, "w") as f:
            f.write(
                "#!/usr/bin/env python3\n"
                "import json, os, sys\n"
                "a = sys.argv[1:]\n"
                "i = a.index('--')\n"
                "opts, cmd = a[:i], a[i + 1:]\n"
                "assert opts[:3] == ['trace', '--vendor', 'cuda'], opts\n"
                "assert opts[opts.index('--cuda-share') + 1] == 'on', opts\n"
                "out, summary = opts[opts.index('-o') + 1], opts[opts.index('--summary-json') + 1]\n"
                "assert '--kineto-activities' in cmd and cmd[cmd.index('--child') + 1] in ('ours', 'both'), cmd\n"
                "open(out, 'w').write('{}')\n"
                "json.dump({'kernel_records': 42, 'incomplete_kernels': 0, 'records_dropped': 0, 'cupti_dropped': 0},"
                " open(summary, 'w'))\n"
                "os.execve(cmd[0], cmd, dict(os.environ, FAKE_LAUNCHER='1'))\n")
        os.chmod(launcher, 0o755)
        out = os.path.join(tmp, "out")
        args = parse([ "--bin", tmp, "--out", out, "--fake", "--steps", "15", "--warmup", "1", "--rounds", "40",
                       "--min-rounds", "5", "--budget-s", "3", "--hard-s", "60", "--resamples", "500"])
        res = run(args)
        assert res["rounds"] >= 5 and not res["failed_rounds"], res
        assert res["round0"]["kineto_kernels_alone"] == 123 and res["round0"]["kineto_kernels_with_ours"] == 123, res
        assert res["round0"]["ours_with_kineto"]["kernel_records"] == 42 and res["ours_dropped_any"] is False, res
        for w in WORKLOADS:
            a = res["workloads"][w]
            # The fake adds 0.4 ms (kineto), 0.2 ms (ours), 0.6 ms (both): both ratios near 1.
            assert 0.25 < a["added_kineto"]["median_ms"] < 0.6 and 0.1 < a["added_ours"]["median_ms"] < 0.4, a
            assert 0.5 < a["ratio_kineto"]["value"] < 1.5 and 0.3 < a["ratio_ours"]["value"] < 2.0, a
        saved = json.load(open(os.path.join(out, "bench_coexist.json")))
        assert saved["results"]["rounds"] == res["rounds"] and len(saved["raw"]) >= 4 * res["rounds"]
        assert saved["results"]["complete"] is True
        # The hard limit wins over --min-rounds.
        args = parse(["--bin", tmp, "--out", out, "--fake", "--steps", "5", "--warmup", "1", "--min-rounds", "5",
                      "--budget-s", "0", "--hard-s", "0.01", "--resamples", "100"])
        one = run(args)
        assert one["rounds"] == 1 and one["workloads"]["cnn"]["ratio_ours"]["verdict"].startswith("too few"), one
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("self-test OK")


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", help="folder with accelprof, libaccelprof_inject.so, libcupti_shim.so")
    ap.add_argument("--out", default=os.environ.get("OUT") or "bench_coexist_out")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=40, help="at most this many rounds")
    ap.add_argument("--min-rounds", type=int, default=5, help="rounds run whatever the budget")
    ap.add_argument("--budget-s", type=float, default=420, help="no round is started that would end past this")
    ap.add_argument("--hard-s", type=float, default=480,
                    help="no round is started that would end past this, even below --min-rounds")
    ap.add_argument("--kineto-activities", default="cuda", help="torch.profiler activities: cuda, or cpu,cuda")
    ap.add_argument("--resamples", type=int, default=4000)
    ap.add_argument("--child-timeout", type=float, default=180)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    ap.add_argument("--kineto-trace", help=argparse.SUPPRESS)
    ap.add_argument("--fake", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not args.self_test and not args.child and not args.bin:
        ap.error("--bin is needed")
    if args.warmup < 1:
        ap.error("--warmup must be at least 1 (the first step is torch.profiler's own warm-up, never timed)")
    return args


def main():
    args = parse()
    if args.self_test:
        self_test()
        return 0
    if args.child:
        return child_fake(args) if args.fake else child_torch(args)
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
