#!/usr/bin/env python3
"""The tracer benchmark's analysis (offline, pure Python): reads the raw lines gpu/bench_workloads.py
appended (one per process and workload, with every timed step of every block) and prints, per workload,
what each mode adds per step and the ratios ours/Kineto and ours/floor with 95% intervals.

    python3 gpu/bench_analyze.py OUT1/raw.jsonl [OUT2/raw.jsonl ...] [--markdown] [--json FILE]
    python3 gpu/bench_analyze.py --self-test

Method. Every process (one mode, one round) measures each workload in pairs of blocks, profiler off and
on, inside the process. What a mode adds per step in a process is the mean over its pairs of (mean step
time of the on block - mean step time of the off block next to it): the host's drift between processes
(the untraced step of the tiny-op loop moved 15-21 ms between processes on the H200) cancels. A ratio is a
ratio of means over rounds: sum over rounds of ours' added time / sum of Kineto's (rounds where both ran).

The interval is a two-level percentile bootstrap: rounds are resampled with replacement (a round is the
independent unit: its processes ran back to back), and inside each resampled round's process its block
pairs are resampled too (so that a round with few or noisy pairs counts as uncertain as it is). Resampling
only steps or only blocks would treat the steps of one process as independent, which they are not (one
process's heap, clocks and placement are shared by its steps): those intervals would be too narrow.

Also printed: the same ratios against the same round's untraced process ("fresh-process": each traced
process's on blocks minus the untraced process's blocks; the issue's original measure, which the
between-process noise widens), the untraced process's own on - off (an A/A check: its interval should
hold 0), each traced process's off blocks and on blocks against the same round's untraced process (what a
profiler costs while off: CUPTI stays attached; and its whole cost while on), and for the floor modes the
records per step and CUPTI's cost per record (added time / records).

A claim "ours <= Kineto" is made only where the interval's top is at or below 1.05; an interval is
"narrow" when its half-width is at most 15% of the point.
"""
import argparse
import gzip
import collections
import json
import math
import random
import statistics
import sys

LIMIT = 1.05
NARROW = 0.15


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


class Process:
    """One process's measurement of one workload."""

    def __init__(self, line):
        self.line = line
        self.mode = line["mode"]
        blocks = line.get("blocks") or []
        # Every block's mean step, in the order run (for the noise's structure, `noise`).
        self.sequence = [(bool(b["on"]), mean(b["step_s"])) for b in blocks if b.get("step_s")]
        self.on = [mean(b["step_s"]) for b in blocks if b["on"]]
        self.off = [mean(b["step_s"]) for b in blocks if not b["on"]]
        # Pairs: blocks 2i and 2i+1 (one off, one on, in either order).
        self.pairs = []
        for i in range(0, len(blocks) - 1, 2):
            a, b = blocks[i], blocks[i + 1]
            if a["on"] != b["on"]:
                on, off = (a, b) if a["on"] else (b, a)
                self.pairs.append(mean(on["step_s"]) - mean(off["step_s"]))
        recs = [b for b in blocks if b.get("records")]
        self.records = sum(b["records"]["records"] for b in recs)
        self.record_steps = sum(b.get("record_steps", 0) for b in recs)
        self.dropped = sum(b["records"].get("dropped", 0) for b in recs)
        kinds = collections.Counter()
        for b in recs:
            kinds.update({k: v for k, v in b["records"].get("by_kind", {}).items()})
        self.by_kind = dict(kinds)

    def added(self, rng=None):
        pairs = self.pairs if rng is None else [rng.choice(self.pairs) for _ in self.pairs]
        return mean(pairs)

    def on_mean(self, rng=None):
        xs = self.on if rng is None else [rng.choice(self.on) for _ in self.on]
        return mean(xs)

    def off_mean(self, rng=None):
        xs = self.off if rng is None else [rng.choice(self.off) for _ in self.off]
        return mean(xs)

    def all_mean(self, rng=None):
        xs = self.on + self.off
        xs = xs if rng is None else [rng.choice(xs) for _ in xs]
        return mean(xs)

    def records_per_step(self):
        return self.records / self.record_steps if self.record_steps else None


def load(paths):
    """{group: {workload: {round_key: {mode: Process}}}} and the errors seen."""
    data = collections.defaultdict(lambda: collections.defaultdict(dict))
    errors = []
    for path in paths:
        # A run kept in the repository is gzipped (gpu/results/).
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            for n, text in enumerate(f):
                text = text.strip()
                if not text:
                    continue
                try:
                    line = json.loads(text)
                except json.JSONDecodeError:
                    errors.append(f"{path}:{n + 1}: not JSON (a line cut short by a killed run?)")
                    continue
                if line.get("error"):
                    errors.append(f"{line.get('mode')} {line.get('workload')} round {line.get('round')}: {line['error']}")
                    continue
                p = Process(line)
                if not p.pairs:
                    continue
                key = (line.get("run", path), line.get("round", 0))
                data[line.get("group", "main")][line["workload"]].setdefault(key, {})[p.mode] = p
    return data, errors


def interval(samples, point):
    """The percentile 95% interval of bootstrap samples (NaN samples: a denominator at or below 0 in a
    resample make the interval unbounded)."""
    good = sorted(s for s in samples if s == s)
    if not good or len(good) < 0.95 * len(samples):
        return (point, float("-inf"), float("inf"))
    lo = good[int(0.025 * (len(good) - 1))]
    hi = good[int(math.ceil(0.975 * (len(good) - 1)))]
    return (point, lo, hi)


def ratio(num, den):
    return num / den if den > 0 else float("nan")


def bootstrap(rounds, stat, n, seed):
    """stat(rounds, rng) on the data (rng None) and on n resamples of the rounds (and, inside stat, of the
    blocks: stat is given the rng)."""
    rng = random.Random(seed)
    point = stat(rounds, None)
    samples = []
    for _ in range(n):
        pick = [rounds[rng.randrange(len(rounds))] for _ in rounds]
        samples.append(stat(pick, rng))
    return interval(samples, point)


def added_stat(mode):
    return lambda rounds, rng: mean([r[mode].added(rng) for r in rounds])


def ratio_stat(num, den):
    return lambda rounds, rng: ratio(sum(r[num].added(rng) for r in rounds), sum(r[den].added(rng) for r in rounds))


def fresh_ratio_stat(num, den, base="untraced"):
    def stat(rounds, rng):
        a = b = 0.0
        for r in rounds:
            u = r[base].all_mean(rng)
            a += r[num].on_mean(rng) - u
            b += r[den].on_mean(rng) - u
        return ratio(a, b)

    return stat


def resident_stat(mode, base="untraced", blocks="off"):
    """What a traced process's steps cost over the same round's untraced process, mean over rounds: its off
    blocks (the profiler present but off: what stays when it is switched off) or its on blocks (the whole
    cost while on)."""

    def stat(rounds, rng):
        level = (lambda p: p.off_mean(rng)) if blocks == "off" else (lambda p: p.on_mean(rng))
        return mean([level(r[mode]) - r[base].all_mean(rng) for r in rounds])

    return stat


def per_record_stat(mode):
    """Added ns per record: sum of added time / sum of records per step."""

    def stat(rounds, rng):
        return ratio(sum(r[mode].added(rng) for r in rounds) * 1e9, sum(r[mode].records_per_step() for r in rounds))

    return stat


def analyze(data, n=2000, seed=1):
    out = {}
    for group, workloads in data.items():
        out[group] = {}
        for w, by_round in workloads.items():
            modes = sorted({m for r in by_round.values() for m in r})
            entry = {"modes": {}, "ratios": {}}
            base = [r for r in by_round.values() if "untraced" in r]
            if base:
                entry["untraced_ms"] = 1e3 * statistics.median(r["untraced"].all_mean() for r in base)
            for m in modes:
                rounds = [r for r in by_round.values() if m in r]
                e = {"rounds": len(rounds), "pairs": sum(len(r[m].pairs) for r in rounds)}
                e["added_us"] = [1e6 * x for x in bootstrap(rounds, added_stat(m), n, seed)]
                rps = [r[m].records_per_step() for r in rounds]
                if rounds and all(x is not None for x in rps):
                    e["records_per_step"] = mean(rps)
                    e["dropped"] = sum(r[m].dropped for r in rounds)
                    e["by_kind_per_step"] = {
                        k: sum(r[m].by_kind.get(k, 0) for r in rounds) / sum(r[m].record_steps for r in rounds)
                        for k in sorted({k for r in rounds for k in r[m].by_kind}, key=int)
                    }
                    e["ns_per_record"] = list(bootstrap(rounds, per_record_stat(m), n, seed))
                fresh = [r for r in rounds if "untraced" in r]
                if m != "untraced" and fresh:
                    e["resident_us"] = [1e6 * x for x in bootstrap(fresh, resident_stat(m), n, seed)]
                    e["fresh_added_us"] = [1e6 * x for x in bootstrap(fresh, resident_stat(m, blocks="on"), n, seed)]
                entry["modes"][m] = e
            for num, den in [("ours", "kineto"), ("ours", "floor"), ("ours", "floor-kineto"),
                             ("floor-kineto", "kineto"), ("floor", "floor-kineto")] + DECODEFILTER_RATIOS + [
                                 (m, "floor-kineto") for m in modes if m.startswith("fk-")]:
                rounds = [r for r in by_round.values() if num in r and den in r]
                if not rounds:
                    continue
                key = f"{num}/{den}"
                entry["ratios"][key] = {"rounds": len(rounds),
                                        "within": list(bootstrap(rounds, ratio_stat(num, den), n, seed))}
                fresh = [r for r in rounds if "untraced" in r]
                if fresh:
                    entry["ratios"][key]["fresh"] = list(bootstrap(fresh, fresh_ratio_stat(num, den), n, seed))
            out[group][w] = entry
    return out


def json_safe(obj):
    """The results with each NaN or infinite number as null (JSON has neither; an unbounded interval's
    end, or a ratio whose denominator was not above 0)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def verdict(iv):
    point, lo, hi = iv
    if hi <= LIMIT:
        return "<= (top <= 1.05)"
    if lo > LIMIT:
        return "> (bottom > 1.05)"
    return "not shown"


def narrow(iv):
    point, lo, hi = iv
    return point > 0 and math.isfinite(lo) and math.isfinite(hi) and (hi - lo) / 2 <= NARROW * point


def fmt_iv(iv, scale=1.0, digits=2):
    point, lo, hi = iv
    if point != point:
        return "n/a"
    f = lambda x: ("inf" if x > 0 else "-inf") if math.isinf(x) else f"{x * scale:.{digits}f}"
    return f"{f(point)} [{f(lo)}, {f(hi)}]"


# The engine with its API filter applied while decoding (ACCELPROF_CUDA_API_FILTER_AT=decode, the default
# since the H200 measured it) against the filter inside CUPTI (ours-cuptifilter; `ours` was that before the
# default changed), ours and Kineto.
DECODEFILTER = "ours-decodefilter"
CUPTIFILTER = "ours-cuptifilter"
DECODEFILTER_RATIOS = [(DECODEFILTER, CUPTIFILTER), (DECODEFILTER, "ours"), (DECODEFILTER, "kineto")]

ORDER = ["transformer", "graphs", "streams", "tiny", "resnet", "gpt", "cupy"]


def render(result, markdown=False):
    lines = []
    sep = " | " if markdown else "  "
    for group in sorted(result, key=lambda g: g != "main"):
        ws = sorted(result[group], key=lambda w: ORDER.index(w) if w in ORDER else 99)
        lines.append(f"== {group}: added us/step (on - off inside each process, mean over rounds) and ratios, "
                     f"95% two-level bootstrap intervals over rounds")
        if group == "main":
            head = ["workload", "untraced ms", "rounds", "+ours", "+kineto", "+floor", "+floor-kineto",
                    "ours/kineto", "verdict", "ours/floor", "ours/floor-kineto", "floor-kineto/kineto", "A/A untraced"]
        else:
            head = ["workload", "mode", "rounds", "added us", "vs floor-kineto", "ns/record"]
        rows = [head]
        for w in ws:
            e = result[group][w]
            m = e["modes"]
            r = e["ratios"]
            get = lambda name: fmt_iv(m[name]["added_us"], digits=1) if name in m else "n/a"
            rat = lambda key: (fmt_iv(r[key]["within"]) + ("" if narrow(r[key]["within"]) else " (wide)")) if key in r else "n/a"
            if group == "main":
                rows.append([w, f"{e.get('untraced_ms', float('nan')):.3f}",
                             str(max((x["rounds"] for x in m.values()), default=0)),
                             get("ours"), get("kineto"), get("floor"), get("floor-kineto"),
                             rat("ours/kineto"),
                             verdict(r["ours/kineto"]["within"]) if "ours/kineto" in r else "n/a",
                             rat("ours/floor"), rat("ours/floor-kineto"), rat("floor-kineto/kineto"), get("untraced")])
            else:
                for mode in sorted(m, key=lambda x: (x != "floor-kineto", x)):
                    key = f"{mode}/floor-kineto"
                    nspr = fmt_iv(m[mode]["ns_per_record"], digits=0) if "ns_per_record" in m[mode] else "n/a"
                    rows.append([w, mode, str(m[mode]["rounds"]), get(mode), rat(key) if key in r else "-", nspr])
        lines += table(rows, markdown)
        if group == "main":
            lines.append("")
            lines.append("fresh-process ratios (each traced process's on blocks against the same round's untraced "
                         "process; between-process noise included):")
            rows = [["workload", "ours/kineto", "ours/floor", "ours/floor-kineto"]]
            for w in ws:
                r = result[group][w]["ratios"]
                rows.append([w] + [fmt_iv(r[k]["fresh"]) if k in r and "fresh" in r[k] else "n/a"
                                   for k in ("ours/kineto", "ours/floor", "ours/floor-kineto")])
            lines += table(rows, markdown)
        if group == "main" and any("resident_us" in e for w in ws for e in result[group][w]["modes"].values()):
            lines.append("")
            lines.append("what a traced process costs while its profiler is off (its off blocks - the same round's "
                         "untraced process, us/step) and in all while on (its on blocks - the same; between-process "
                         "noise included):")
            shown = [m for m in ("ours", "kineto", "floor", "floor-kineto")
                     if any(m in result[group][w]["modes"] for w in ws)]
            rows = [["workload", "untraced ms"] + [f"{m} off" for m in shown] + [f"{m} on" for m in shown]]
            for w in ws:
                e = result[group][w]
                m = e["modes"]
                cell = lambda mode, key: fmt_iv(m[mode][key], digits=0) if mode in m and key in m[mode] else "n/a"
                rows.append([w, f"{e.get('untraced_ms', float('nan')):.3f}"] + [cell(x, "resident_us") for x in shown]
                            + [cell(x, "fresh_added_us") for x in shown])
            lines += table(rows, markdown)
        if group == "main" and any(DECODEFILTER in result[group][w]["modes"] for w in ws):
            lines.append("")
            lines.append(f"{DECODEFILTER} (the API filter applied while decoding) against {CUPTIFILTER} (the filter "
                         "inside CUPTI), ours (the tracer's default) and Kineto; in-process ratios, then fresh-process:")
            keys = [f"{n}/{d}" for n, d in DECODEFILTER_RATIOS]
            rows = [["workload", "rounds", f"+{DECODEFILTER}"] + keys + [k + " (fresh)" for k in keys]]
            for w in ws:
                e = result[group][w]
                if DECODEFILTER not in e["modes"]:
                    continue
                r = e["ratios"]
                rows.append([w, str(e["modes"][DECODEFILTER]["rounds"]),
                             fmt_iv(e["modes"][DECODEFILTER]["added_us"], digits=1)]
                            + [(fmt_iv(r[k]["within"]) + ("" if narrow(r[k]["within"]) else " (wide)")) if k in r
                               else "n/a" for k in keys]
                            + [fmt_iv(r[k]["fresh"]) if k in r and "fresh" in r[k] else "n/a" for k in keys])
            lines += table(rows, markdown)
        rec_rows = [["workload", "mode", "records/step", "dropped", "CUPTI ns/record", "records/step by kind"]]
        for w in ws:
            for mode, e in sorted(result[group][w]["modes"].items()):
                if "records_per_step" in e:
                    rec_rows.append([w, mode, f"{e['records_per_step']:.0f}", str(e["dropped"]),
                                     fmt_iv(e["ns_per_record"], digits=0),
                                     " ".join(f"{k}:{v:.0f}" for k, v in e["by_kind_per_step"].items())])
        if len(rec_rows) > 1:
            lines.append("")
            lines.append("records in the floor's on blocks (kinds: 1 memcpy, 2 memset, 4 driver, 5 runtime, 10 kernel, "
                         "17 overhead, 39 external correlation); CUPTI's cost per record = added time / records:")
            lines += table(rec_rows, markdown)
        lines.append("")
    return "\n".join(lines)


def table(rows, markdown):
    if markdown:
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        return out + ["| " + " | ".join(r) + " |" for r in rows[1:]]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(wd) for c, wd in zip(r, widths)).rstrip() for r in rows]


# ---- the noise's structure (--noise): what a design change could narrow ----

def autocorrelation(series_list, lag):
    """The lag-`lag` correlation of the values of several series (each one process's block residuals),
    pairs taken inside each series only. NaN when there are too few pairs."""
    pairs = [(xs[i], xs[i + lag]) for xs in series_list for i in range(len(xs) - lag)]
    if len(pairs) < 3:
        return float("nan")
    mx, my = mean([a for a, _ in pairs]), mean([b for _, b in pairs])
    sxy = sum((a - mx) * (b - my) for a, b in pairs)
    sxx = sum((a - mx) ** 2 for a, _ in pairs)
    syy = sum((b - my) ** 2 for _, b in pairs)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def variance(xs):
    return statistics.variance(xs) if len(xs) > 1 else float("nan")


def noise(data, lags=(1, 2, 3)):
    """Per workload and mode: the pairs, the standard deviation of a pair's on - off difference inside a
    round (pooled over rounds), that of the rounds' means beyond what the pairs' spread explains, and the
    correlation of adjacent blocks' residuals (each block's mean step less its process's on or off mean).
    A residual correlated with its neighbour's says the host's slow changes last about a block: shorter
    blocks (and settles) make a pair's two blocks more alike and give more pairs per second."""
    out = {}
    for group, workloads in data.items():
        for workload, rounds in workloads.items():
            modes = sorted({m for procs in rounds.values() for m in procs})
            for mode in modes:
                procs = [procs[mode] for procs in rounds.values() if mode in procs]
                within = [variance(p.pairs) for p in procs if len(p.pairs) > 1]
                var_within = mean(within)
                round_means = [mean(p.pairs) for p in procs]
                per_round = mean([len(p.pairs) for p in procs])
                var_between = variance(round_means) - var_within / per_round if len(procs) > 1 else float("nan")
                residuals = []
                for p in procs:
                    on_m = mean([v for o, v in p.sequence if o])
                    off_m = mean([v for o, v in p.sequence if not o])
                    residuals.append([v - (on_m if o else off_m) for o, v in p.sequence])
                out[(group, workload, mode)] = {
                    "pairs": sum(len(p.pairs) for p in procs),
                    "rounds": len(procs),
                    "sd_within_us": math.sqrt(var_within) * 1e6 if var_within == var_within else float("nan"),
                    "sd_between_rounds_us": math.sqrt(max(var_between, 0.0)) * 1e6 if var_between == var_between else float("nan"),
                    "lags": {lag: autocorrelation(residuals, lag) for lag in lags},
                }
    return out


def render_noise(result, markdown=False):
    rows = [["group", "workload", "mode", "pairs", "rounds", "sd of a pair, us", "sd between rounds, us"]
            + [f"lag {lag} r" for lag in next(iter(result.values()))["lags"]]] if result else [[]]
    for (group, workload, mode), r in sorted(result.items()):
        rows.append([group, workload, mode, str(r["pairs"]), str(r["rounds"]), f"{r['sd_within_us']:.0f}",
                     f"{r['sd_between_rounds_us']:.0f}"] + [f"{v:+.2f}" for v in r["lags"].values()])
    return "\n".join(table(rows, markdown))


# ---- self-test: synthetic data where the answer is known ----

def synth_line(run, rnd, mode, workload, base_s, added_s, rng, pairs=3, steps=20, step_sd=0.0004,
               process_sd=0.002, records_per_step=None, group="main", resident_s=0.0):
    """One process: its own offset (between-process noise), steps with noise, on blocks slower by added_s."""
    offset = rng.gauss(0, process_sd)
    blocks = []
    for pair in range(pairs):
        for on in ((False, True) if pair % 2 == 0 else (True, False)):
            drift = rng.gauss(0, step_sd / 4)
            times = [max(1e-6, base_s + offset + drift + resident_s + (added_s if on else 0) + rng.gauss(0, step_sd))
                     for _ in range(steps)]
            b = {"on": on, "step_s": times}
            if on and records_per_step is not None:
                b["records"] = {"records": records_per_step * (steps + 2), "dropped": 0,
                                "by_kind": {"10": records_per_step * (steps + 2)}}
                b["record_steps"] = steps + 2
            blocks.append(b)
    return {"run": run, "round": rnd, "group": group, "mode": mode, "workload": workload, "blocks": blocks}


def synth(rounds, truth, rng, run="synthetic", resident=None, **kw):
    lines = []
    for r in range(rounds):
        for mode, (added, rps) in truth.items():
            lines.append(synth_line(run, r, mode, "tiny", 0.010, added, rng,
                                    records_per_step=rps if mode.startswith("f") else None,
                                    resident_s=(resident or {}).get(mode, 0.0), **kw))
    return lines


def as_data(lines):
    import os
    import tempfile

    fd, path = tempfile.mkstemp(prefix="bench_analyze_selftest_", suffix=".jsonl")
    try:
        with os.fdopen(fd, "w") as f:
            for line in lines:
                f.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
        return load([path])
    finally:
        os.remove(path)


def self_test():
    rng = random.Random(7)
    truth = {"untraced": (0.0, None), "ours": (0.0010, None), "kineto": (0.0020, None),
             "floor": (0.00125, 1000), "floor-kineto": (0.0015, 1200)}
    data, errors = as_data(synth(10, truth, rng))
    assert not errors, errors
    res = analyze(data, n=500)["main"]["tiny"]
    ok = lambda iv, x: iv[1] <= x <= iv[2]
    r = res["ratios"]
    assert ok(r["ours/kineto"]["within"], 0.5), r["ours/kineto"]
    assert ok(r["ours/floor"]["within"], 0.8), r["ours/floor"]
    assert narrow(r["ours/kineto"]["within"]), r["ours/kineto"]
    assert verdict(r["ours/kineto"]["within"]).startswith("<="), r["ours/kineto"]
    assert ok(res["modes"]["untraced"]["added_us"], 0.0), res["modes"]["untraced"]  # the A/A check
    assert ok(res["modes"]["ours"]["added_us"], 1000.0), res["modes"]["ours"]
    # CUPTI's cost per record: 1.25 ms over 1000 records per step = 1250 ns.
    assert ok(res["modes"]["floor"]["ns_per_record"], 1250.0), res["modes"]["floor"]
    assert abs(res["modes"]["floor"]["records_per_step"] - 1000) < 1e-9
    # The between-process noise (2 ms per process, larger than the effect) widens the fresh-process ratio,
    # not the within-process one.
    fresh, within = r["ours/kineto"]["fresh"], r["ours/kineto"]["within"]
    assert fresh[2] - fresh[1] > 2 * (within[2] - within[1]), (fresh, within)

    # What stays while the profiler is off: 3 ms per step in ours' process (none in Kineto's), found against
    # the untraced process; the in-process added time does not see it.
    data, _ = as_data(synth(20, {"untraced": (0, None), "ours": (0.001, None), "kineto": (0.002, None)},
                            random.Random(5), resident={"ours": 0.003}, process_sd=0.0003))
    m = analyze(data, n=500)["main"]["tiny"]["modes"]
    assert ok(m["ours"]["resident_us"], 3000.0) and not ok(m["ours"]["resident_us"], 0.0), m["ours"]
    assert ok(m["kineto"]["resident_us"], 0.0), m["kineto"]
    assert ok(m["ours"]["fresh_added_us"], 4000.0) and ok(m["ours"]["added_us"], 1000.0), m["ours"]
    assert "untraced process" in render(analyze(data, n=50))

    # Equal costs: the interval holds 1, and no "<=" claim is made.
    data, _ = as_data(synth(10, {"untraced": (0, None), "ours": (0.001, None), "kineto": (0.001, None)}, rng))
    iv = analyze(data, n=500)["main"]["tiny"]["ratios"]["ours/kineto"]["within"]
    assert ok(iv, 1.0) and verdict(iv) == "not shown", iv

    # Coverage: over 40 synthetic experiments of 6 rounds, the 95% interval holds the true ratio in most.
    hits = 0
    for i in range(40):
        data, _ = as_data(synth(6, {"ours": (0.0010, None), "kineto": (0.0020, None)}, random.Random(100 + i),
                                pairs=2, steps=10, step_sd=0.001))
        iv = analyze(data, n=300, seed=i)["main"]["tiny"]["ratios"]["ours/kineto"]["within"]
        hits += ok(iv, 0.5)
    assert hits >= 34, f"coverage {hits}/40"

    # A denominator that is 0 in truth: the interval is unbounded, not a number.
    data, _ = as_data(synth(6, {"ours": (0.001, None), "kineto": (0.0, None)}, rng))
    iv = analyze(data, n=300)["main"]["tiny"]["ratios"]["ours/kineto"]["within"]
    assert math.isinf(iv[2]) and verdict(iv) != "<= (top <= 1.05)", iv

    # A line cut short (a killed run) and a workload that failed are reported, and the rest is read.
    lines = synth(3, {"untraced": (0, None), "ours": (0.001, None)}, rng)
    lines.append({"run": "synthetic", "round": 3, "mode": "ours", "workload": "gpt", "error": "ImportError: x"})
    lines.append(json.dumps(synth_line("synthetic", 3, "ours", "tiny", 0.01, 0.001, rng))[:200])
    data, errors = as_data(lines)
    assert len(errors) == 2 and "ImportError" in errors[0] and "not JSON" in errors[1], errors
    assert len(data["main"]["tiny"]) == 3
    render(analyze(data, n=50))

    # The decode-filter mode: its ratios against ours and Kineto, and its table (no untraced process: no
    # fresh-process ratio, and nothing fails for it).
    truth = {"ours": (0.0010, None), "kineto": (0.0020, None), DECODEFILTER: (0.0006, None)}
    data, _ = as_data(synth(10, truth, random.Random(11)))
    r = analyze(data, n=400)["main"]["tiny"]["ratios"]
    assert ok(r[f"{DECODEFILTER}/ours"]["within"], 0.6), r[f"{DECODEFILTER}/ours"]
    assert ok(r[f"{DECODEFILTER}/kineto"]["within"], 0.3), r[f"{DECODEFILTER}/kineto"]
    assert "fresh" not in r[f"{DECODEFILTER}/ours"]
    text = render(analyze(data, n=50))
    assert f"{DECODEFILTER}/ours" in text and f"+{DECODEFILTER}" in text, text
    assert DECODEFILTER not in render(analyze(as_data(synth(3, {"ours": (0.001, None)}, rng))[0], n=20))
    assert json.loads(json.dumps(json_safe({"a": [float("nan"), float("inf"), 1.5]}), allow_nan=False)) == {"a": [None, None, 1.5]}
    # The noise's structure: block residuals of an AR(1) process of known correlation (0.6 from one block
    # to the next) are found with about that lag-1 correlation (0.36 at lag 2), and no round effect.
    rng = random.Random(13)
    lines = []
    for r in range(8):
        e, blocks = 0.0, []
        for pair in range(150):
            for on in ((False, True) if pair % 2 == 0 else (True, False)):
                e = 0.6 * e + math.sqrt(1 - 0.36) * rng.gauss(0, 0.001)
                blocks.append({"on": on, "step_s": [0.010 + (0.001 if on else 0) + e]})
        lines.append({"run": "ar1", "round": r, "mode": "ours", "workload": "tiny", "blocks": blocks})
    nz = noise(as_data(lines)[0])[("main", "tiny", "ours")]
    assert abs(nz["lags"][1] - 0.6) < 0.08 and abs(nz["lags"][2] - 0.36) < 0.1, nz
    assert nz["pairs"] == 1200 and nz["sd_between_rounds_us"] < 100, nz
    assert "lag 1 r" in render_noise(noise(as_data(lines)[0]))
    print(f"self-test OK (coverage {hits}/40)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raw", nargs="*", help="raw.jsonl files, or gzipped (.gz); several runs are pooled, a round being (run, round)")
    ap.add_argument("--bootstrap", type=int, default=2000)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--noise", action="store_true",
                    help="also the noise's structure per workload and mode (spread of a pair, between rounds, "
                         "adjacent blocks' correlation)")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return 0
    if not args.raw:
        ap.error("raw.jsonl files are needed (or --self-test)")
    data, errors = load(args.raw)
    result = analyze(data, n=args.bootstrap)
    for e in errors:
        print("error:", e)
    print(render(result, args.markdown))
    if args.noise:
        print()
        print("The noise's structure (block residuals: each block's mean step less its process's on or off mean):")
        print(render_noise(noise(data), args.markdown))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(json_safe(result), f, indent=1, allow_nan=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
