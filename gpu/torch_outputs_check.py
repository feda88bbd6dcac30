#!/usr/bin/env python3
"""`accelprof trace` writes Chrome JSON, Parquet and Perfetto's protobuf from one run of a PyTorch training job,
with the same kernels in each and the GPUs' real deviceProperties: self-checking, summary printed last.

    python3 gpu/torch_outputs_check.py --launcher .device/outputs/accelprof \\
        --counts .device/outputs/trace_counts --analyze .device/outputs/accelprof-analyze.xz \\
        [--wheels .device/columns/wheels] --out $OUT/outputs

`--launcher` is the `accelprof` executable (a release build carries `libaccelprof_inject.so`: `cargo build
--release -p accelprof`; run as `accelprof trace --vendor cuda`); `--counts` our own reader of the columnar files (`cargo build --release -p accelprof-export
--example trace_counts`), used where pyarrow or Perfetto's Python package is missing and always as a cross-check;
`--analyze` the analysis command (`cargo build --release -p accelprof-analyze`, may be `.xz`).

1. The job (a 4-layer transformer, bf16, AdamW, `ProfilerStep#N` NVTX ranges) runs under
   `accelprof trace --vendor cuda -o rank0.json.gz -o rank0.parquet -o rank0.pftrace -- python ...`.
2. Kernels counted in each file: JSON events with `cat` "kernel" (json); Parquet rows of family `kernel`
   (pyarrow, else our reader); Perfetto slice begins of category `kernel` on the tracks of a `GPU <n>` device
   (Perfetto's `perfetto_trace_pb2`, else our reader). FAIL when they differ (or are 0).
3. deviceProperties of the JSON trace (and the Parquet footer's) against torch.cuda.get_device_properties(i):
   one entry per visible GPU, every field torch has must be equal; a field this torch lacks is listed as not
   checked.
4. With pyarrow and perfetto importable: accelprof-export/python/check_export.py (names, flows, unknown fields).
5. `accelprof-analyze analyze DIR`; next to HTA's kernel breakdown (accelprof-analyze/python/compare_hta.py)
   when HTA imports here, else the command to run on the directory brought back.

`--check DIR` re-checks a directory without tracing. Exits 1 when a check fails.
"""
import argparse
import collections
import glob
import gzip
import json
import lzma
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK_EXPORT = os.path.join(ROOT, "accelprof-export", "python", "check_export.py")
COMPARE_HTA = os.path.join(ROOT, "accelprof-analyze", "python", "compare_hta.py")
STEM = "rank0"

# deviceProperties key -> torch.cuda.get_device_properties attribute
TORCH_FIELDS = [
    ("name", "name"),
    ("totalGlobalMem", "total_memory"),
    ("computeMajor", "major"),
    ("computeMinor", "minor"),
    ("numSms", "multi_processor_count"),
    ("maxThreadsPerBlock", "max_threads_per_block"),
    ("maxThreadsPerMultiprocessor", "max_threads_per_multi_processor"),
    ("regsPerBlock", "regs_per_block"),
    ("regsPerMultiprocessor", "regs_per_multiprocessor"),
    ("warpSize", "warp_size"),
    ("sharedMemPerBlock", "shared_memory_per_block"),
    ("sharedMemPerMultiprocessor", "shared_memory_per_multiprocessor"),
    ("sharedMemPerBlockOptin", "shared_memory_per_block_optin"),
    ("uuid", "uuid"),
    ("pciBusId", "pci_bus_id"),
    ("pciDeviceId", "pci_device_id"),
    ("pciDomainId", "pci_domain_id"),
]

TORCH_PROPS = r"""
import json, torch
out = []
for i in range(torch.cuda.device_count()):
    p = torch.cuda.get_device_properties(i)
    d = {}
    for a in dir(p):
        if a.startswith("_"):
            continue
        v = getattr(p, a)
        if isinstance(v, (int, float, str, bool)):
            d[a] = v
        elif a == "uuid":
            d[a] = str(v)
    out.append(d)
print(json.dumps({"torch": torch.__version__, "devices": out}))
"""


def run(cmd, env=None):
    print("+ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        sys.stdout.write(p.stderr[-4000:])
    return p


def importable(env, module):
    return subprocess.run([sys.executable, "-c", f"import {module}"], env=env, capture_output=True).returncode == 0


def json_side(path):
    with open(path) as f:
        doc = json.load(f)
    kernels = collections.Counter(e.get("name") for e in doc["traceEvents"] if e.get("cat") == "kernel")
    return doc, kernels


def parquet_pyarrow(path):
    """Kernel rows and the footer's devices, read with pyarrow (run in a child with the wheels' path)."""
    code = r"""
import json, sys, collections
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1], columns=["family", "name"])
fam = [str(f) for f in t.column("family").to_pylist()]
names = t.column("name").to_pylist()
k = collections.Counter(n for f, n in zip(fam, names) if f == "kernel")
meta = {a.decode(): b.decode() for a, b in (pq.ParquetFile(sys.argv[1]).metadata.metadata or {}).items()}
print(json.dumps({"kernels": sum(k.values()), "names": k,
                  "device_properties": json.loads(meta.get("accelprof.device_properties", "null"))}))
"""
    return code


def perfetto_pb2_code():
    return r"""
import json, sys, collections
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
t = pb.Trace()
t.ParseFromString(open(sys.argv[1], "rb").read())
BEGIN = pb.TrackEvent.Type.Value("TYPE_SLICE_BEGIN")
tracks, cats, names, seqs = {}, {}, {}, set()
for p in t.packet:
    if p.HasField("track_descriptor"):
        d = p.track_descriptor
        tracks[d.uuid] = (d.parent_uuid if d.HasField("parent_uuid") else None, d.name)
def on_gpu(u):
    for _ in range(16):
        if u not in tracks:
            return False
        up, name = tracks[u]
        if name.startswith("GPU ") and name[4:].isdigit():
            return True
        if up is None:
            return False
        u = up
    return False
k = collections.Counter()
for p in t.packet:
    seq = p.trusted_packet_sequence_id
    if p.sequence_flags & 1:
        cats = {key: v for key, v in cats.items() if key[0] != seq}
        names = {key: v for key, v in names.items() if key[0] != seq}
    if p.HasField("interned_data"):
        for c in p.interned_data.event_categories:
            cats[(seq, c.iid)] = c.name
        for n in p.interned_data.event_names:
            names[(seq, n.iid)] = n.name
    if not p.HasField("track_event"):
        continue
    e = p.track_event
    if e.type != BEGIN or not e.category_iids or cats.get((seq, e.category_iids[0])) != "kernel":
        continue
    if on_gpu(e.track_uuid):
        k[e.name if e.HasField("name") else names.get((seq, e.name_iid), "?")] += 1
print(json.dumps({"kernels": sum(k.values()), "names": k}))
"""


def compare_devices(ours, torch_devices, label):
    """Failures and the fields not checked."""
    failures, unchecked = [], set()
    if len(ours) != len(torch_devices):
        failures.append(f"{label}: {len(ours)} devices, torch sees {len(torch_devices)}")
    for mine, theirs in zip(ours, torch_devices):
        for key, attr in TORCH_FIELDS:
            if attr not in theirs:
                unchecked.add(f"{key} (torch has no {attr})")
                continue
            if key not in mine:
                failures.append(f"{label} device {mine.get('id')}: no {key} (torch: {theirs[attr]!r})")
                continue
            a, b = mine[key], theirs[attr]
            if key == "uuid":
                a, b = str(a).removeprefix("GPU-"), str(b).removeprefix("GPU-")
            if a != b:
                failures.append(f"{label} device {mine.get('id')}: {key} = {a!r}, torch {attr} = {b!r}")
    return failures, sorted(unchecked)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--launcher", help="the accelprof executable")
    ap.add_argument("--counts", help="our reader: accelprof-export's trace_counts example")
    ap.add_argument("--analyze", help="the accelprof-analyze binary (or .xz)")
    ap.add_argument("--wheels", help="a directory of wheels to import from (pyarrow, perfetto, protobuf, HTA...)")
    ap.add_argument("--out", default=os.environ.get("OUT", "outputs_out"))
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--check", metavar="DIR", help="only check an existing directory of traces")
    ap.add_argument("--job", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.job:
        sys.path.insert(0, HERE)
        from torch_columns import job

        job(args.steps)
        return 0

    env = dict(os.environ)
    out = os.path.abspath(args.check or args.out)
    os.makedirs(out, exist_ok=True)
    results = {}
    failures = []
    if args.wheels:
        pylib = os.path.join(out, ".pylib")
        shutil.rmtree(pylib, ignore_errors=True)
        names = sorted({os.path.basename(w).split("-")[0] for w in glob.glob(os.path.join(args.wheels, "*.whl"))})
        missing = []
        for name in names:  # one at a time: a wheel for another Python only skips itself
            p = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                                "--find-links", os.path.abspath(args.wheels), "--target", pylib, name],
                               capture_output=True, text=True)
            if p.returncode != 0:
                missing.append(name)
        env["PYTHONPATH"] = os.pathsep.join([pylib, env.get("PYTHONPATH", "")])
        results["wheels installed"] = f"{len(names) - len(missing)} of {len(names)}" + (
            f" (not: {', '.join(missing)})" if missing else "")
    if args.analyze and args.analyze.endswith(".xz"):
        binary = os.path.join(out, ".accelprof-analyze")
        with lzma.open(args.analyze) as src, open(binary, "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.chmod(binary, 0o755)
        args.analyze = binary
    base = os.path.join(out, STEM)

    if not args.check:
        if not args.launcher:
            ap.error("--launcher is needed to trace (or --check DIR)")
        for f in glob.glob(base + ".*"):
            os.remove(f)
        sys.path.insert(0, HERE)
        from torch_columns import find_cupti

        cupti = find_cupti()
        job_env = dict(env)
        kinds = "default"
        if cupti:  # NVTX ranges (ProfilerStep#N) through CUPTI's NVTX injection
            job_env["NVTX_INJECTION64_PATH"] = cupti
            kinds = "default,nvtx"
        p = run([os.path.abspath(args.launcher), "trace", "--vendor", "cuda", "-o", base + ".json.gz", "-o", base + ".parquet",
                 "-o", base + ".pftrace", "--kinds", kinds, "--",
                 sys.executable, os.path.abspath(__file__), "--job", "--steps", str(args.steps)], env=job_env)
        sys.stdout.write("".join(l + "\n" for l in p.stderr.splitlines() if "[accelprof]" in l))
        results["traced job"] = p.returncode == 0
        if p.returncode != 0:
            print("the traced job failed")
            return 1
        results["NVTX steps"] = "recorded" if cupti else "not injected (no libcupti found)"

    # The JSON trace, also uncompressed for the checkers that read <stem>.json.
    with gzip.open(base + ".json.gz", "rb") as src, open(base + ".json", "wb") as dst:
        shutil.copyfileobj(src, dst)
    doc, json_kernels = json_side(base + ".json")
    counts = {"json (python json, events with cat kernel)": sum(json_kernels.values())}

    # Parquet.
    parquet_devices = None
    if importable(env, "pyarrow.parquet"):
        p = subprocess.run([sys.executable, "-c", parquet_pyarrow(base + ".parquet"), base + ".parquet"],
                           env=env, capture_output=True, text=True)
        if p.returncode == 0:
            r = json.loads(p.stdout)
            counts["parquet (pyarrow, family=kernel rows)"] = r["kernels"]
            parquet_devices = r["device_properties"]
            if collections.Counter(r["names"]) != json_kernels:
                failures.append("parquet (pyarrow): kernel names differ from the JSON trace's")
        else:
            failures.append(f"pyarrow could not read the Parquet file: {p.stderr[-800:]}")
    else:
        results["pyarrow"] = "NOT importable here: Parquet counted with our reader only"
    # Perfetto.
    if importable(env, "perfetto.protos.perfetto.trace.perfetto_trace_pb2"):
        p = subprocess.run([sys.executable, "-c", perfetto_pb2_code(), base + ".pftrace"], env=env,
                           capture_output=True, text=True)
        if p.returncode == 0:
            r = json.loads(p.stdout)
            counts["perfetto (perfetto_trace_pb2, kernel slices on GPU tracks)"] = r["kernels"]
            if collections.Counter(r["names"]) != json_kernels:
                failures.append("perfetto (perfetto_trace_pb2): kernel names differ from the JSON trace's")
        else:
            failures.append(f"perfetto_trace_pb2 could not read the Perfetto file: {p.stderr[-800:]}")
    else:
        results["perfetto_trace_pb2"] = "NOT importable here: Perfetto counted with our reader only"
    # Our own reader (always, when given).
    if args.counts:
        p = run([os.path.abspath(args.counts), base + ".parquet", base + ".pftrace"], env=env)
        if p.returncode == 0:
            lines = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
            for r in lines:
                if r["format"] == "parquet":
                    counts["parquet (our reader)"] = r["kernels"]
                    parquet_devices = parquet_devices if parquet_devices is not None else r["device_properties"]
                else:
                    counts["perfetto (our reader, kernel slices on GPU tracks)"] = r["gpu_kernel_slices"]
        else:
            failures.append("our reader (trace_counts) failed")
    elif "parquet (pyarrow, family=kernel rows)" not in counts:
        failures.append("Parquet not counted: no pyarrow and no --counts")
    print("\nkernels per file:")
    for what, n in counts.items():
        print(f"  {n:>8}  {what}")
    equal = len(set(counts.values())) == 1 and next(iter(counts.values())) > 0
    formats = {w.split(" ")[0] for w in counts}
    results["kernel counts equal (json, parquet, perfetto)"] = equal and formats == {"json", "parquet", "perfetto"}
    if not equal:
        failures.append(f"kernel counts differ: {counts}")
    elif formats != {"json", "parquet", "perfetto"}:
        failures.append(f"not every format was counted: {sorted(formats)}")

    # deviceProperties against torch.
    ours = doc.get("deviceProperties") or []
    p = subprocess.run([sys.executable, "-c", TORCH_PROPS], env=env, capture_output=True, text=True)
    if p.returncode == 0:
        torch_side = json.loads(p.stdout.strip().splitlines()[-1])
        bad, unchecked = compare_devices(ours, torch_side["devices"], "JSON deviceProperties")
        failures += bad
        print(f"\ndeviceProperties: {len(ours)} in the trace, torch {torch_side['torch']} sees "
              f"{len(torch_side['devices'])}")
        for d in ours:
            print("  " + json.dumps(d))
        results["deviceProperties = torch.cuda.get_device_properties"] = not bad and len(ours) > 0
        if unchecked:
            results["deviceProperties fields not checked"] = ", ".join(unchecked)
    else:
        failures.append(f"torch could not describe the devices: {p.stderr[-800:]}")
        results["deviceProperties = torch.cuda.get_device_properties"] = False
    if parquet_devices is not None:
        same = parquet_devices == ours
        results["Parquet footer devices = JSON deviceProperties"] = same
        if not same:
            failures.append(f"Parquet footer devices differ: {parquet_devices} vs {ours}")

    # Tools we did not write, on names, flows and fields.
    if importable(env, "pyarrow.parquet") and importable(env, "perfetto.protos.perfetto.trace.perfetto_trace_pb2"):
        p = run([sys.executable, CHECK_EXPORT, out], env=env)
        results["check_export.py (pyarrow + perfetto_trace_pb2 vs JSON)"] = p.returncode == 0
    else:
        results["check_export.py"] = "skipped (needs pyarrow and perfetto here)"

    # The analysis, next to HTA where it imports.
    if args.analyze:
        p = run([args.analyze, "analyze", out, "--top", "10"], env=env)
        results["accelprof-analyze analyze"] = p.returncode == 0
        with open(os.path.join(out, "analysis.json"), "w") as f:
            f.write(subprocess.run([args.analyze, "analyze", out, "--json"], env=env, capture_output=True,
                                   text=True).stdout)
        if importable(env, "hta.trace_analysis"):
            p = run([sys.executable, COMPARE_HTA, "--analyze", args.analyze, out, "--ns"], env=env)
            results["analysis vs HTA kernel and temporal breakdown"] = p.returncode == 0
        else:
            results["analysis vs HTA"] = (f"skipped (no HTA here): on the directory brought back, "
                                          f"<hta-venv>/bin/python {COMPARE_HTA} --analyze "
                                          f"target/release/accelprof-analyze DIR --ns")
    for f in failures:
        print("FAIL: " + f)
    print("\nsummary")
    for what, ok in results.items():
        print(f"  {what}: {'OK' if ok is True else 'FAILED' if ok is False else ok}")
    print("RESULT: " + ("FAIL" if failures or any(ok is False for ok in results.values()) else "PASS"))
    return 1 if failures or any(ok is False for ok in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
