#!/usr/bin/env python3
"""Reads our traces with tools we did not write and checks they hold the same GPU work as our JSON trace.

For every `<stem>.parquet` in DIR with a `<stem>.json` (Chrome trace, Kineto's conventions) next to it, and a
`<stem>.pftrace` when present:
  - the Parquet file with pyarrow: rows per family, the kernel names, the `accelprof.*` metadata;
  - the Perfetto file with Perfetto's own message definitions (`perfetto_trace_pb2` from `pip install
    perfetto`): no field that Perfetto does not define, names and categories resolved through the sequence's
    interned data, every slice begin matched by an end on its track, launch-to-kernel flows;
  - kernels, copies and sets: the same count and the same multiset of names in all three.

    pip install perfetto pyarrow
    python3 check_export.py DIR

Exits 1 on any difference; prints a compact summary last.
"""
import argparse
import collections
import json
import os
import sys

import pyarrow.parquet as pq
from google.protobuf import unknown_fields
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

GPU = {"kernel": "kernel", "memcpy": "gpu_memcpy", "memset": "gpu_memset"}
SLICE_BEGIN = pb.TrackEvent.Type.Value("TYPE_SLICE_BEGIN")
SLICE_END = pb.TrackEvent.Type.Value("TYPE_SLICE_END")
INSTANT = pb.TrackEvent.Type.Value("TYPE_INSTANT")


def parquet_side(path):
    table = pq.read_table(path)
    pf = pq.ParquetFile(path)
    meta = {k.decode(): v.decode() for k, v in (pf.metadata.metadata or {}).items()
            if k.decode().startswith("accelprof.")}
    for key in ("accelprof.rank", "accelprof.world_size", "accelprof.clock", "accelprof.rows",
                "accelprof.device_properties", "accelprof.library_versions"):
        if key not in meta:
            raise SystemExit(f"{path}: no {key} in the file's metadata")
    cols = table.select(["family", "name"]).to_pydict()
    names = {cat: collections.Counter() for cat in GPU.values()}
    families = collections.Counter()
    for family, name in zip(cols["family"], cols["name"]):
        families[family] += 1
        if family in GPU:
            names[GPU[family]][name if name is not None else family] += 1
    footer = json.loads(meta["accelprof.rows"])
    if dict(footer) != {f: families.get(f, 0) for f in footer}:
        raise SystemExit(f"{path}: rows {dict(families)} but the footer says {footer}")
    return {"rank": int(meta["accelprof.rank"]), "names": names, "rows": table.num_rows,
            "row_groups": pf.num_row_groups, "families": families,
            "clock": json.loads(meta["accelprof.clock"])}


def unknown(msg):
    return len(unknown_fields.UnknownFieldSet(msg))


def perfetto_side(path):
    trace = pb.Trace()
    with open(path, "rb") as f:
        trace.ParseFromString(f.read())
    names, cats = {}, {}
    declared, open_slices = set(), collections.Counter()
    counts = {cat: collections.Counter() for cat in GPU.values()}
    problems = collections.Counter()
    flow_starts, flow_ends = set(), set()
    per_category = collections.Counter()
    for p in trace.packet:
        if unknown(p):
            problems["unknown packet fields"] += 1
        seq = p.trusted_packet_sequence_id
        if p.sequence_flags & pb.TracePacket.SequenceFlags.Value("SEQ_INCREMENTAL_STATE_CLEARED"):
            names = {k: v for k, v in names.items() if k[0] != seq}
            cats = {k: v for k, v in cats.items() if k[0] != seq}
        if p.HasField("interned_data"):
            for n in p.interned_data.event_names:
                names[(seq, n.iid)] = n.name
            for c in p.interned_data.event_categories:
                cats[(seq, c.iid)] = c.name
        if p.HasField("track_descriptor"):
            if unknown(p.track_descriptor):
                problems["unknown track descriptor fields"] += 1
            declared.add(p.track_descriptor.uuid)
        if not p.HasField("track_event"):
            continue
        e = p.track_event
        if unknown(e):
            problems["unknown track event fields"] += 1
        if e.track_uuid not in declared:
            problems["event on an undeclared track"] += 1
        flow_starts.update(e.flow_ids)
        flow_ends.update(e.terminating_flow_ids)
        if e.type == SLICE_END:
            if open_slices[e.track_uuid] == 0:
                problems["end without a begin"] += 1
            else:
                open_slices[e.track_uuid] -= 1
            continue
        if e.type not in (SLICE_BEGIN, INSTANT):
            continue
        if e.type == SLICE_BEGIN:
            open_slices[e.track_uuid] += 1
        name = e.name if e.HasField("name") else names.get((seq, e.name_iid))
        cat = cats.get((seq, e.category_iids[0])) if e.category_iids else (e.categories[0] if e.categories else "")
        if name is None or cat is None:
            problems["unresolved interned id"] += 1
            continue
        per_category[cat] += 1
        if cat in counts:
            counts[cat][name] += 1
    problems["begin without an end"] += sum(open_slices.values())
    problems = {k: v for k, v in problems.items() if v}
    return {"names": counts, "packets": len(trace.packet), "problems": problems,
            "flows": len(flow_starts & flow_ends), "per_category": per_category}


def json_side(path):
    with open(path) as f:
        trace = json.load(f)
    counts = {cat: collections.Counter() for cat in GPU.values()}
    for e in trace["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") in counts:
            counts[e["cat"]][e["name"]] += 1
    return {"rank": trace.get("distributedInfo", {}).get("rank", 0), "names": counts}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    args = ap.parse_args()
    stems = sorted(f[: -len(".parquet")] for f in os.listdir(args.dir) if f.endswith(".parquet"))
    if not stems:
        raise SystemExit(f"no *.parquet in {args.dir}")
    failures, lines = [], []
    for stem in stems:
        base = os.path.join(args.dir, stem)
        if not os.path.exists(base + ".json"):
            failures.append(f"{stem}: no {stem}.json to compare with")
            continue
        pa_side, js = parquet_side(base + ".parquet"), json_side(base + ".json")
        sides = {"parquet": pa_side, "json": js}
        pf = None
        if os.path.exists(base + ".pftrace"):
            pf = perfetto_side(base + ".pftrace")
            sides["perfetto"] = pf
            for what, n in pf["problems"].items():
                failures.append(f"{stem}.pftrace: {what}: {n}")
        if pa_side["rank"] != js["rank"]:
            failures.append(f"{stem}: rank {pa_side['rank']} in Parquet, {js['rank']} in JSON")
        for cat in GPU.values():
            ref = js["names"][cat]
            for side, data in sides.items():
                if data["names"][cat] != ref:
                    diff = (data["names"][cat] - ref) + (ref - data["names"][cat])
                    failures.append(f"{stem}: {cat} in {side}: {sum(data['names'][cat].values())} vs JSON "
                                    f"{sum(ref.values())}; differing names: {list(diff)[:3]}")
        k = {side: sum(d["names"]["kernel"].values()) for side, d in sides.items()}
        line = (f"{stem}: rank {pa_side['rank']}: kernels " + " ".join(f"{s}={n}" for s, n in k.items())
                + f", copies {sum(js['names']['gpu_memcpy'].values())}, sets {sum(js['names']['gpu_memset'].values())}"
                + f"; parquet {pa_side['rows']} rows in {pa_side['row_groups']} row groups")
        if pf:
            line += f"; perfetto {pf['packets']} packets, {pf['flows']} flows"
        lines.append(line)
    print("\n".join(lines))
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"OK: {len(stems)} ranks; every kernel, copy and set in Parquet (pyarrow) and Perfetto "
          f"(perfetto_trace_pb2) is the JSON trace's, by count and by name")
    return 0


if __name__ == "__main__":
    sys.exit(main())
