//! What goes in comes back out: Arrow and Parquet read back equal to the batches written (names included),
//! Perfetto parsed back by our message definitions holds the same events as the JSON trace.

use std::collections::BTreeMap;
use std::path::PathBuf;

use accelprof_core::columns::*;
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, Family, NameId, Names};
use accelprof_export::arrow::{events_schema, schema, split_events, ArrowDecoder, ArrowEncoder, EventsTable};
use accelprof_export::parquet::{read_meta, read_parquet, ParquetOptions, ParquetWriter};
use accelprof_export::perfetto::{read_perfetto, PerfettoOptions, PerfettoWriter, TraceSummary};
use accelprof_export::synthetic::SyntheticRank;
use accelprof_export::trace::{ChromeTrace, DeviceProperties};
use accelprof_export::{ClockAnchor, RunMeta};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A batch with rows of every family, at the edges of every column's range.
fn every_family(interner: &mut Interner, seed: u64) -> Batch {
    let mut b = Batch::new();
    let kernel = interner.intern("void gemm<float, 128>(float const*, float*)");
    let other = interner.intern(&format!("triton_poi_fused_{seed}"));
    let api = interner.intern("cudaLaunchKernel");
    let domain = interner.intern("NVTX domain");
    let comm = interner.intern("world");
    let ring = interner.intern("Ring");
    let counter = interner.intern("sm__cycles_elapsed.avg");
    let sync = interner.intern("Stream Sync");
    let s = seed * 1_000_000;
    b.kernels.push(KernelRow {
        start: s + 1_000,
        end: s + 5_000,
        device: 3,
        context: 1,
        stream: 7,
        correlation: 11,
        grid_x: 1024,
        grid_y: 2,
        grid_z: 3,
        block_x: 256,
        block_y: 4,
        block_z: 5,
        shared_memory: 49_152,
        registers: 255,
        name: kernel,
    });
    b.kernels.push(KernelRow {
        start: u64::MAX - 10,
        end: u64::MAX,
        device: u32::MAX,
        stream: u64::MAX,
        correlation: u64::MAX,
        registers: u16::MAX,
        grid_x: u32::MAX,
        name: NameId::NONE,
        ..Default::default()
    });
    b.kernels.push(KernelRow {
        start: s + 6_000,
        end: s + 6_000,
        stream: 8,
        correlation: 12,
        name: other,
        ..Default::default()
    });
    b.memcpys.push(MemcpyRow {
        start: s + 10,
        end: s + 900,
        device: 3,
        context: 1,
        stream: 7,
        correlation: 13,
        bytes: 1 << 40,
        copy_kind: CopyKind::HTOD,
        src_kind: MemoryKind::PINNED,
        dst_kind: MemoryKind::DEVICE,
        is_async: true,
    });
    b.memcpys.push(MemcpyRow {
        start: s + 20,
        end: s + 30,
        copy_kind: CopyKind(200),
        src_kind: MemoryKind(99),
        dst_kind: MemoryKind::UNKNOWN,
        ..Default::default()
    });
    b.memsets.push(MemsetRow {
        start: s + 40,
        end: s + 60,
        device: 3,
        stream: 7,
        correlation: 14,
        bytes: 4096,
        value: 0xdead_beef,
        memory_kind: MemoryKind::MANAGED,
        ..Default::default()
    });
    b.api_calls.push(ApiRow {
        start: s + 1,
        end: s + 800,
        process: 4242,
        thread: 0xffff_8000_0000_0001,
        correlation: 11,
        domain: 2,
        cbid: 211,
        name: api,
    });
    b.api_calls.push(ApiRow {
        start: s + 2,
        end: s + 3,
        correlation: 99,
        domain: 7,
        cbid: 9,
        ..Default::default()
    });
    b.markers.push(MarkerRow {
        start: s,
        end: s + 10_000,
        id: 5,
        process: 4242,
        thread: 77,
        device: HOST_DEVICE,
        stream: 0,
        domain,
        name: interner.intern("ProfilerStep#0"),
        flags: 0x8000_0001,
    });
    b.markers.push(MarkerRow {
        start: s + 50,
        end: s + 50,
        id: 6,
        device: 3,
        stream: 7,
        name: interner.intern("instant"),
        ..Default::default()
    });
    b.collectives.push(CollectiveRow {
        start: s + 100,
        end: s + 2_000,
        device: 3,
        stream: 9,
        correlation: 15,
        name: interner.intern("AllReduce"),
        comm_name: comm,
        count: 1 << 20,
        bytes: 4 << 20,
        bandwidth_gbps: 123.25,
        data_type: 7,
        algorithm: ring,
    });
    b.memory.push(MemoryRow {
        start: s + 5,
        end: s + 5,
        device: 3,
        stream: 0,
        correlation: 16,
        address: 0x7f00_0000_1000,
        bytes: 1 << 30,
        op: 1,
        memory_kind: 2,
        process: 4242,
    });
    b.syncs.push(SyncRow {
        start: s + 3_000,
        end: s + 5_500,
        device: 3,
        context: 1,
        stream: 7,
        correlation: 17,
        sync_type: 3,
        event: 0x1234,
        name: sync,
    });
    b.external_correlations.push(ExternalCorrelationRow {
        external_kind: 2,
        external_id: 9_000_000_001,
        correlation: 11,
    });
    b.counters.push(CounterRow {
        correlation: 11,
        device: 3,
        counter,
        value: -0.5,
        start: s + 1_000,
        end: s + 5_000,
    });
    b
}

/// Every row of a batch with its names as text (ids differ between interners), per family.
fn texts(b: &Batch, names: &Names) -> BTreeMap<&'static str, Vec<String>> {
    let n = |id: NameId| format!("{:?}", names.lookup(id));
    let mut out = BTreeMap::new();
    out.insert(
        "kernel",
        b.kernels
            .rows()
            .map(|r| format!("{:?} {}", KernelRow { name: NameId::NONE, ..r }, n(r.name)))
            .collect(),
    );
    out.insert("memcpy", b.memcpys.rows().map(|r| format!("{r:?}")).collect());
    out.insert("memset", b.memsets.rows().map(|r| format!("{r:?}")).collect());
    out.insert(
        "api",
        b.api_calls
            .rows()
            .map(|r| format!("{:?} {}", ApiRow { name: NameId::NONE, ..r }, n(r.name)))
            .collect(),
    );
    out.insert(
        "marker",
        b.markers
            .rows()
            .map(|r| {
                format!(
                    "{:?} {} {}",
                    MarkerRow { name: NameId::NONE, domain: NameId::NONE, ..r },
                    n(r.name),
                    n(r.domain)
                )
            })
            .collect(),
    );
    out.insert(
        "collective",
        b.collectives
            .rows()
            .map(|r| {
                let bare = CollectiveRow {
                    name: NameId::NONE,
                    comm_name: NameId::NONE,
                    algorithm: NameId::NONE,
                    ..r
                };
                format!("{bare:?} {} {} {}", n(r.name), n(r.comm_name), n(r.algorithm))
            })
            .collect(),
    );
    out.insert("memory", b.memory.rows().map(|r| format!("{r:?}")).collect());
    out.insert(
        "sync",
        b.syncs.rows().map(|r| format!("{:?} {}", SyncRow { name: NameId::NONE, ..r }, n(r.name))).collect(),
    );
    out.insert("external", b.external_correlations.rows().map(|r| format!("{r:?}")).collect());
    out.insert(
        "counter",
        b.counters
            .rows()
            .map(|r| format!("{:?} {}", CounterRow { counter: NameId::NONE, ..r }, n(r.counter)))
            .collect(),
    );
    out
}

fn meta(rank: u32) -> RunMeta {
    RunMeta {
        rank,
        world_size: 16,
        host: "node7".into(),
        process_id: 4242,
        vendor: "cupti".into(),
        library_versions: vec![("cupti".into(), "13.0.0".into()), ("driver".into(), "580.65".into())],
        device_properties: vec![DeviceProperties {
            id: 3,
            name: "NVIDIA H200".into(),
            total_global_mem: Some(150_000_000_000),
            compute_major: Some(9),
            compute_minor: Some(0),
            num_sms: Some(132),
            extra: vec![("uuid".into(), "GPU-1234".into())],
            ..Default::default()
        }],
        clock: ClockAnchor::new("CLOCK_MONOTONIC_RAW", 1_000, 1_700_000_000_000_001_000),
        backend: Some("nccl".into()),
        trace_name: Some("round trip".into()),
        start_unix_ns: 1_700_000_000_000_000_500,
        extra: vec![("job".into(), "42".into())],
    }
}

#[test]
fn arrow_batches_read_back_as_the_rows_that_went_in() {
    let mut interner = Interner::new();
    let batch = every_family(&mut interner, 1);
    let names = interner.names();
    let mut encoder = ArrowEncoder::new();
    let encoded = encoder.encode(&batch, &names).unwrap();
    assert_eq!(encoded.len(), Family::ALL.len(), "every family has rows");
    let mut decoder = ArrowDecoder::new();
    let mut back = Batch::new();
    for (family, rb) in &encoded {
        assert_eq!(rb.schema(), schema(*family));
        assert_eq!(rb.num_rows(), batch.len_of(*family));
        decoder.append(*family, rb, &mut back).unwrap();
    }
    assert_eq!(texts(&back, &decoder.names()), texts(&batch, &names));

    // Through the events table too.
    let mut table = EventsTable::new();
    let mut again = Batch::new();
    let mut decoder = ArrowDecoder::new();
    for (family, rb) in &encoded {
        let wide = table.widen(5, *family, rb).unwrap();
        assert_eq!(wide.schema(), events_schema());
        for (f, rows) in split_events(&wide).unwrap() {
            assert_eq!(f, *family);
            decoder.append(f, &rows, &mut again).unwrap();
        }
    }
    assert_eq!(texts(&again, &decoder.names()), texts(&batch, &names));
}

#[test]
fn names_are_dictionary_keys_equal_to_the_name_ids_and_unsigned_values_keep_their_bits() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, Int64Type, UInt32Type};
    use arrow_array::Array;
    let mut interner = Interner::new();
    let batch = every_family(&mut interner, 2);
    let rb = ArrowEncoder::new().encode_family(Family::KERNEL, &batch, &interner.names()).unwrap();
    let names = rb.column_by_name("name").unwrap().as_dictionary::<UInt32Type>();
    assert_eq!(names.keys().value(0), batch.kernels.name()[0].0);
    assert!(names.is_null(1), "NameId::NONE is a null");
    let start = rb.column_by_name("start_ns").unwrap().as_primitive::<Int64Type>();
    assert_eq!(start.value(1) as u64, u64::MAX - 10);
    let device = rb.column_by_name("device").unwrap().as_primitive::<Int32Type>();
    assert_eq!(device.value(1), -1, "u32::MAX reads -1");
    // Fixed-width columns are not nullable; name columns are.
    let schema = rb.schema();
    assert!(!schema.field_with_name("start_ns").unwrap().is_nullable());
    assert!(schema.field_with_name("name").unwrap().is_nullable());
}

#[test]
fn a_parquet_file_reads_back_whole_with_its_metadata_and_a_row_group_per_flush() {
    let dir = temp_dir("parquet");
    let path = dir.join("rank5.parquet");
    let meta = meta(5);
    let mut interner = Interner::new();
    let mut writer = ParquetWriter::create(&path, &meta, ParquetOptions::default()).unwrap();
    let mut all = Batch::new();
    for seed in 0..3 {
        let batch = every_family(&mut interner, seed);
        writer.write_batch(&batch, &interner.names()).unwrap();
        writer.flush().unwrap();
        all.extend_from(&batch);
    }
    assert!(!path.exists(), "the final name appears only at finish");
    let rows = *writer.rows();
    let done = writer.finish().unwrap();
    assert_eq!(done.path, path);
    assert_eq!(done.rows, rows);
    assert_eq!(done.bytes, std::fs::metadata(&path).unwrap().len());
    let leftovers: Vec<_> =
        std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left: {leftovers:?}");

    let back = read_parquet(&path).unwrap();
    assert_eq!(back.meta, meta);
    assert_eq!(read_meta(&path).unwrap(), meta);
    assert_eq!(back.row_groups, 3);
    assert_eq!(back.footer_rows, Some(rows));
    assert_eq!(texts(&back.batch, &back.names), texts(&all, &interner.names()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `steps` steps with a row group every 500 rows; returns the row groups and the writer's largest
/// buffer.
fn write_steps(path: &std::path::Path, steps: u32) -> (usize, usize, u64) {
    let mut spec = SyntheticRank::new(0, 1, steps, 20);
    spec.batch_rows = 100;
    let options = ParquetOptions { max_row_group_rows: 500, ..ParquetOptions::default() };
    let mut writer = ParquetWriter::create(path, &spec.meta(), options).unwrap();
    let mut largest_buffer = 0;
    spec.run(|b, n| {
        writer.write_batch(b, n).unwrap();
        largest_buffer = largest_buffer.max(writer.buffered_bytes());
    });
    writer.finish().unwrap();
    let back = read_parquet(path).unwrap();
    assert_eq!(back.batch.len() as u64, spec.rows());
    (back.row_groups, largest_buffer, spec.rows())
}

#[test]
fn row_groups_end_at_the_row_limit_and_memory_does_not_grow_with_the_run() {
    let dir = temp_dir("row-groups");
    let (groups, short_buffer, rows) = write_steps(&dir.join("short.parquet"), 40);
    assert_eq!(groups as u64, rows.div_ceil(500));
    let (groups, long_buffer, rows) = write_steps(&dir.join("long.parquet"), 400);
    assert_eq!(groups as u64, rows.div_ceil(500));
    // Ten times the rows, not more buffered.
    assert!(long_buffer <= short_buffer + short_buffer / 4, "{short_buffer} then {long_buffer}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perfetto_reads_back_with_the_json_traces_events_tracks_and_flows() {
    let dir = temp_dir("perfetto");
    let path = dir.join("rank0.pftrace");
    let spec = SyntheticRank::new(0, 2, 6, 30);
    let meta = spec.meta();
    let mut writer = PerfettoWriter::create(&path, &meta, PerfettoOptions::default()).unwrap();
    let mut json = ChromeTrace::new(RunMeta { start_unix_ns: meta.clock.unix_ns, ..RunMeta::default() });
    let mut all = Batch::new();
    let mut names = None;
    spec.run(|b, n| {
        writer.write_batch(b, n).unwrap();
        json.add_batch(b, n, &meta.clock.time_map());
        all.extend_from(b);
        names = Some(n.clone());
    });
    let names = names.unwrap();
    writer.finish().unwrap();

    let summary = TraceSummary::of(&read_perfetto(&path).unwrap());
    assert_eq!(summary.unbalanced, 0, "every begin has its end on its track");
    assert_eq!(summary.unresolved, 0, "every name and category interned before use");
    assert_eq!(summary.undeclared_tracks, 0);
    assert_eq!(summary.events("kernel"), all.kernels.len() as u64);
    assert_eq!(summary.events("gpu_memcpy"), all.memcpys.len() as u64);
    assert_eq!(summary.events("gpu_memset"), all.memsets.len() as u64);
    assert_eq!(summary.events("cuda_runtime"), all.api_calls.len() as u64);
    assert_eq!(summary.events("user_annotation"), all.markers.len() as u64);
    // An arrow from each launch to its GPU work.
    assert_eq!(summary.linked_flows, all.kernels.len() + all.memcpys.len() + all.memsets.len());

    // The same kernels, by name, as the JSON trace.
    let mut text = Vec::new();
    json.write(&mut text).unwrap();
    let parsed: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let mut json_kernels: BTreeMap<(String, String), u64> = BTreeMap::new();
    for e in parsed["traceEvents"].as_array().unwrap() {
        if e["ph"] == "X" {
            *json_kernels
                .entry((e["cat"].as_str().unwrap().into(), e["name"].as_str().unwrap().into()))
                .or_default() += 1;
        }
    }
    let ours: BTreeMap<(String, String), u64> = summary.events_by_name.clone();
    assert_eq!(ours, json_kernels);
    let first = names.resolve(all.kernels.name()[0]).to_owned();
    assert!(ours.get(&("kernel".into(), first)).copied().unwrap_or(0) > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perfetto_files_of_many_ranks_concatenate_into_one_trace() {
    let dir = temp_dir("concat");
    let mut joined = Vec::new();
    let mut kernels = 0;
    for rank in 0..3 {
        let spec = SyntheticRank::new(rank, 3, 3, 10);
        let path = dir.join(format!("rank{rank}.pftrace"));
        let mut w = PerfettoWriter::create(&path, &spec.meta(), PerfettoOptions::default()).unwrap();
        let rows = spec.run(|b, n| w.write_batch(b, n).unwrap());
        kernels += rows[0];
        w.finish().unwrap();
        joined.extend(std::fs::read(&path).unwrap());
    }
    let trace: accelprof_export::perfetto::protos::Trace = prost::Message::decode(joined.as_slice()).unwrap();
    let sequences: std::collections::BTreeSet<u32> =
        trace.packet.iter().filter_map(|p| p.trusted_packet_sequence_id).collect();
    assert_eq!(sequences.len(), 3);
    let uuids: Vec<u64> = trace.packet.iter().filter_map(|p| p.track_descriptor.as_ref()?.uuid).collect();
    let distinct: std::collections::BTreeSet<u64> = uuids.iter().copied().collect();
    assert_eq!(distinct.len(), uuids.len(), "track uuids are distinct across ranks");
    let summary = TraceSummary::of(&trace);
    assert_eq!(summary.events("kernel"), kernels);
    assert_eq!(summary.unresolved + summary.unbalanced + summary.undeclared_tracks, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_abandoned_perfetto_file_keeps_the_batches_written_before() {
    let dir = temp_dir("abandoned");
    let path = dir.join("crash.pftrace");
    let mut spec = SyntheticRank::new(0, 1, 4, 10);
    spec.batch_rows = 1;
    let mut w = PerfettoWriter::create(&path, &spec.meta(), PerfettoOptions::default()).unwrap();
    let mut kernels = 0;
    let mut batches = 0;
    spec.run(|b, n| {
        if batches < 2 {
            w.write_batch(b, n).unwrap();
            kernels += b.kernels.len() as u64;
        }
        batches += 1;
    });
    w.flush().unwrap();
    drop(w); // no finish: as if the process died here
    assert!(!path.exists());
    let tmp = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    let summary = TraceSummary::of(&read_perfetto(&tmp).unwrap());
    assert_eq!(summary.events("kernel"), kernels);
    assert!(kernels > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `recover` called any `.pftrace` "whole" (an empty file, garbage, a torn one) and only renamed it,
/// reporting 0 events: a torn last packet is cut off now and the packets and track events kept are
/// counted; a file without a whole first packet of the writer's is an error, left in place.
#[test]
fn recover_cuts_a_torn_perfetto_file_after_its_last_whole_packet() {
    use accelprof_export::trace::recover;
    use prost::Message;
    let dir = temp_dir("recover-perfetto");
    let path = dir.join("rank0.pftrace");
    let spec = SyntheticRank::new(0, 1, 4, 10);
    let mut w = PerfettoWriter::create(&path, &spec.meta(), PerfettoOptions::default()).unwrap();
    spec.run(|b, n| w.write_batch(b, n).unwrap());
    w.finish().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let trace = read_perfetto(&path).unwrap();
    // Where each packet ends, and the track events up to there.
    let mut ends = Vec::new();
    let (mut at, mut events) = (0, 0);
    for p in &trace.packet {
        let len = p.encoded_len();
        at += 1 + prost::length_delimiter_len(len) + len;
        events += u64::from(p.track_event.is_some());
        ends.push((at, events));
    }
    assert_eq!(at, bytes.len());

    // Whole: renamed, every packet counted.
    let partial = dir.join("w.partial-6.pftrace");
    std::fs::write(&partial, &bytes).unwrap();
    let r = recover(&partial, None).unwrap();
    assert!(r.was_complete, "{r:?}");
    assert_eq!((r.packets, r.events, r.dropped_bytes), (Some(trace.packet.len() as u64), events, 0));
    assert_eq!(std::fs::read(dir.join("w.pftrace")).unwrap(), bytes);

    // Torn in the middle of the packets: cut after the last whole one.
    for torn in [bytes.len() / 2, bytes.len() - 1, ends[0].0 + 1] {
        let partial = dir.join("p.partial-10.pftrace");
        std::fs::write(&partial, &bytes[..torn]).unwrap();
        let whole = ends.iter().filter(|(end, _)| *end <= torn).count();
        let (keep, events) = ends[whole - 1];
        let r = recover(&partial, None).unwrap();
        assert!(!r.was_complete, "{torn}: {r:?}");
        assert_eq!(
            (r.packets, r.events, r.dropped_bytes),
            (Some(whole as u64), events, (torn - keep) as u64)
        );
        let out = dir.join("p.pftrace");
        assert_eq!(std::fs::read(&out).unwrap(), &bytes[..keep]);
        assert_eq!(read_perfetto(&out).unwrap().packet.len(), whole);
        assert!(!partial.exists());
    }

    // Nothing of the writer's: an error naming why, the file left in place.
    let mut noise = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..999 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise.push((x >> 24) as u8);
    }
    noise[0] = 0x0a; // even starting like a packet
    for (name, content) in
        [("empty", &b""[..]), ("noise", &noise[..]), ("torn-first", &bytes[..ends[0].0 - 1])]
    {
        let partial = dir.join(format!("{name}.partial-20.pftrace"));
        std::fs::write(&partial, content).unwrap();
        let err = recover(&partial, None).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData, "{name}: {err}");
        assert_eq!(std::fs::read(&partial).unwrap(), content, "{name}: left as it was");
        assert!(!dir.join(format!("{name}.pftrace")).exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `recover` called any `.parquet` that starts and ends with `PAR1` whole (`PAR1garbagePAR1`, a file
/// whose footer a torn row-group write overwrote) and reported 0 events for a whole one: the footer is
/// read and checked now, and its rows are the events reported.
#[test]
fn recover_checks_a_parquet_footer_and_counts_its_rows() {
    use accelprof_export::trace::recover;
    let dir = temp_dir("recover-parquet");
    let path = dir.join("rank0.parquet");
    let mut spec = SyntheticRank::new(0, 1, 8, 10);
    spec.batch_rows = 30;
    let mut w = ParquetWriter::create(&path, &spec.meta(), ParquetOptions::default()).unwrap();
    let tmp = w.temporary_path().to_path_buf();
    // The file after each flush: a whole Parquet file of the row groups so far.
    let mut states = Vec::new();
    spec.run(|b, n| {
        w.write_batch(b, n).unwrap();
        w.flush().unwrap();
        states.push(std::fs::read(&tmp).unwrap());
    });
    drop(w); // the process died after its last flush
    assert!(states.len() >= 3, "{} flushes", states.len());
    let rows = read_parquet(&tmp).unwrap().batch.len() as u64;
    assert_eq!(rows, spec.rows());

    let partial = dir.join("w.partial-5.parquet");
    std::fs::write(&partial, states.last().unwrap()).unwrap();
    let r = recover(&partial, None).unwrap();
    assert!(r.was_complete, "{r:?}");
    assert_eq!((r.events, r.packets, r.dropped_bytes), (rows, None, 0));
    assert_eq!(read_parquet(dir.join("w.parquet")).unwrap().batch.len() as u64, rows);

    // Killed in the middle of the third row group's write: its bytes are over the second footer, and
    // the file still ends with that footer's length and `PAR1`.
    let (before, after) = (&states[1], &states[2]);
    assert!(after.len() > before.len());
    let cut = before.len() - 20;
    let mut torn = after[..cut].to_vec();
    torn.extend_from_slice(&before[cut..]);
    assert_eq!(&torn[torn.len() - 4..], b"PAR1");
    let empty: &[u8] = b"";
    for (name, content) in [
        ("garbage", &b"PAR1garbagePAR1"[..]),
        ("empty", empty),
        ("torn", &torn[..]),
        ("truncated", &after[..after.len() / 2]),
    ] {
        let partial = dir.join(format!("{name}.partial-22.parquet"));
        std::fs::write(&partial, content).unwrap();
        let err = recover(&partial, None).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData, "{name}: {err}");
        assert_eq!(std::fs::read(&partial).unwrap(), content, "{name}: left as it was");
        assert!(!dir.join(format!("{name}.parquet")).exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file at a writer's `.partial` name before it starts (a `.partial` that a process of the same id
/// left, or one someone put there) is never written into: the writers wrote into it (truncated, their
/// data in a file that another name shares, or that another user owns, mode and owner kept). Now a file
/// of this user is replaced by a new one (the other name keeps what it held), and one of another user
/// is refused, left as it was.
#[test]
fn a_file_at_the_partial_name_is_never_written_into() {
    let dir = temp_dir("partial-there");
    let pid = std::process::id();
    let mut interner = Interner::new();
    let batch = every_family(&mut interner, 0);
    for name in ["t.json", "t.parquet", "t.pftrace"] {
        let path = dir.join(name);
        let partial = accelprof_export::trace::partial_path(&path, pid);
        // Another name of one file: what the writer writes must not reach it.
        let other = dir.join(format!("other-{name}"));
        std::fs::write(&other, b"not a trace").unwrap();
        std::fs::hard_link(&other, &partial).unwrap();
        let written = match name {
            "t.json" => {
                let mut w = accelprof_export::trace::ChromeTraceWriter::create(&path, meta(0)).unwrap();
                w.add_batch(&batch, &interner.names(), &Default::default()).unwrap();
                w.finish(None).map(drop).map_err(|e| e.to_string())
            }
            "t.parquet" => {
                let mut w = ParquetWriter::create(&path, &meta(0), ParquetOptions::default()).unwrap();
                w.write_batch(&batch, &interner.names()).unwrap();
                w.finish().map(drop).map_err(|e| e.to_string())
            }
            _ => {
                let mut w = PerfettoWriter::create(&path, &meta(0), PerfettoOptions::default()).unwrap();
                w.write_batch(&batch, &interner.names()).unwrap();
                w.finish().map(drop).map_err(|e| e.to_string())
            }
        };
        written.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            std::fs::read(&other).unwrap(),
            b"not a trace",
            "{name}: the other name's file was written"
        );
        assert!(std::fs::metadata(&path).unwrap().len() > 100, "{name}: the trace is at its name");
        assert!(!partial.exists());

        // Another user's file at the name (only root can make one): refused, left as it was.
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::fs::write(&partial, b"theirs").unwrap();
            std::os::unix::fs::chown(&partial, Some(65534), None).unwrap();
            let path = dir.join(format!("theirs-{name}"));
            std::fs::rename(&partial, accelprof_export::trace::partial_path(&path, pid)).unwrap();
            let partial = accelprof_export::trace::partial_path(&path, pid);
            let refused = match name {
                "t.json" => accelprof_export::trace::ChromeTraceWriter::create(&path, meta(0))
                    .err()
                    .map(|e| e.to_string()),
                "t.parquet" => ParquetWriter::create(&path, &meta(0), ParquetOptions::default())
                    .err()
                    .map(|e| e.to_string()),
                _ => PerfettoWriter::create(&path, &meta(0), PerfettoOptions::default())
                    .err()
                    .map(|e| e.to_string()),
            };
            let refused = refused.unwrap_or_else(|| panic!("{name}: another user's file was taken"));
            assert!(refused.contains("is there already"), "{name}: {refused}");
            assert_eq!(std::fs::read(&partial).unwrap(), b"theirs", "{name}");
            assert!(!path.exists());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Set in the child of [`a_parquet_file_stays_whole_when_the_disk_fills`]: the directory to write in.
const FULL_DISK_CHILD: &str = "ACCELPROF_EXPORT_FULL_DISK_CHILD";

/// A row group whose write fails part way (a full disk; here a file size limit, which fails the same
/// way: the bytes that fit are written, then the error) tore the footer it was written over: the file
/// could not be read or recovered, every row group of the run lost. Now the previous footer is written
/// back and the file cut to its previous length: it reads whole, with every row group committed before.
#[test]
fn a_parquet_file_stays_whole_when_the_disk_fills() {
    if let Some(dir) = std::env::var_os(FULL_DISK_CHILD) {
        // The child, under the limit: row groups until a write fails.
        let path = PathBuf::from(dir).join("t.parquet");
        let mut interner = Interner::new();
        let mut writer = ParquetWriter::create(&path, &meta(0), ParquetOptions::default()).unwrap();
        for seed in 0..1_000 {
            let batch = every_family(&mut interner, seed);
            if let Err(e) = writer.write_batch(&batch, &interner.names()).and_then(|()| writer.flush()) {
                println!("failed after {seed} row groups: {e}");
                return;
            }
        }
        panic!("no write failed");
    }
    let dir = temp_dir("full-disk");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--exact",
            "a_parquet_file_stays_whole_when_the_disk_fills",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(FULL_DISK_CHILD, &dir);
    // SAFETY: between fork and exec only setrlimit and signal, which are async-signal-safe.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut child, || {
            let limit = libc::rlimit { rlim_cur: 96 * 1024, rlim_max: libc::RLIM_INFINITY };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // A write past the limit fails with EFBIG instead of killing the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = child.output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && said.contains("failed after"), "{said}");
    let groups: usize =
        said.split("failed after ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(groups > 0, "some row groups fit: {said}");
    let partial = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(".partial-"))
        .expect("the partial file");
    let back = read_parquet(&partial).unwrap_or_else(|e| panic!("{}: {e}; {said}", partial.display()));
    let mut interner = Interner::new();
    let mut expected = 0;
    for seed in 0..groups as u64 {
        expected += every_family(&mut interner, seed).len();
    }
    assert_eq!(back.batch.len(), expected, "every row group committed before the failure: {said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every format is a whole file from its creation: a process that dies before its first batch leaves a
/// JSON trace (its head) and a Parquet file of no rows, and left an empty `.pftrace` (its first packet
/// still in the writer's buffer), which `recover` refuses ("an empty file") and the command left lying
/// as `.partial`. The Perfetto writer now puts its first packet on disk when it creates the file.
#[test]
fn a_perfetto_trace_is_recoverable_before_its_first_batch() {
    let dir = temp_dir("perfetto-first-packet");
    let path = dir.join("t.pftrace");
    let writer = PerfettoWriter::create(&path, &meta(0), PerfettoOptions::default()).unwrap();
    // The process dies here: nothing more is written (no flush, no drop).
    let partial = writer.temporary_path().unwrap().to_path_buf();
    let copy = dir.join("dead.partial-1.pftrace");
    std::fs::copy(&partial, &copy).unwrap();
    std::mem::forget(writer);
    let recovered =
        accelprof_export::trace::recover(&copy, None).unwrap_or_else(|e| panic!("{}: {e}", copy.display()));
    assert_eq!(recovered.events, 0, "{recovered:?}");
    let back = read_perfetto(dir.join("dead.pftrace")).unwrap();
    assert!(!back.packet.is_empty(), "the first packet and the process track");
    let _ = std::fs::remove_dir_all(&dir);
}
