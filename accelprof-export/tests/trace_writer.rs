//! The streaming Chrome trace writer: a file that is a whole trace after every batch, `.partial` until
//! finished, gzip members for `.json.gz`, bounded flow table, recovery of a torn file.

use std::io::Read;
use std::path::{Path, PathBuf};

use accelprof_core::columns::{ApiRow, Batch, KernelRow};
use accelprof_core::intern::Interner;
use accelprof_export::trace::{
    finished_path, partial_path, recover, ChromeTraceWriter, RunMeta, TimeMap, TraceSink, WriterOptions,
};
use serde_json::{json, Value};

const BASE: u64 = 1_700_000_000_000_000_000;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-export-writer-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Reads a trace file (plain or gzip, several members allowed) as JSON.
fn read(path: &Path) -> Value {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut text = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut text).unwrap();
        text
    } else {
        raw
    };
    serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{} is not whole JSON: {e}", path.display()))
}

fn events(trace: &Value) -> &Vec<Value> {
    trace["traceEvents"].as_array().unwrap()
}

fn count(trace: &Value, cat: &str) -> usize {
    events(trace).iter().filter(|e| e["cat"] == cat).count()
}

/// `n` launches (correlation `first..first+n`) and their kernels, the kernels in the same batch.
fn launches(names: &mut Interner, first: u64, n: u64) -> Batch {
    let (launch, kernel) = (names.intern("cudaLaunchKernel"), names.intern("void k<1ul>(float*)"));
    let mut b = Batch::new();
    for c in first..first + n {
        let t = BASE + c * 1_000;
        b.api_calls.push(ApiRow {
            start: t,
            end: t + 400,
            process: 77,
            thread: 5,
            correlation: c,
            domain: 1,
            cbid: 211,
            name: launch,
        });
        b.kernels.push(KernelRow {
            start: t + 500,
            end: t + 900,
            device: 0,
            stream: 7,
            correlation: c,
            name: kernel,
            ..Default::default()
        });
    }
    b
}

fn meta() -> RunMeta {
    RunMeta { start_unix_ns: BASE, rank: 2, world_size: 4, ..Default::default() }
}

fn streams_batch_by_batch(name: &str) {
    let dir = temp_dir(name);
    let path = dir.join(name);
    let mut names = Interner::new();
    let mut writer = ChromeTraceWriter::create(&path, meta()).unwrap();
    let partial = writer.partial_path().to_path_buf();
    assert_eq!(partial, partial_path(&path, std::process::id()));
    assert_eq!(finished_path(&partial).as_deref(), Some(path.as_path()));
    assert!(!path.exists(), "the final name appears only when finished");
    assert_eq!(events(&read(&partial)).len(), 0, "a valid, empty trace from the start");

    writer.add_process_name(77, "python train.py").unwrap();
    for round in 0..5u64 {
        writer
            .add_batch(&launches(&mut names, 1 + round * 100, 100), &names.names(), &TimeMap::IDENTITY)
            .unwrap();
        writer.sync().unwrap();
        // After every batch the file on disk is a whole trace holding everything added so far.
        let now = read(&partial);
        assert_eq!(count(&now, "kernel"), 100 * (round as usize + 1), "round {round}");
        assert_eq!(count(&now, "ac2g"), 200 * (round as usize + 1), "arrows written with their batch");
        assert_eq!(now["distributedInfo"], json!({"rank": 2, "world_size": 4}));
    }
    let summary = json!({"kernels": 500});
    let file = writer.finish(Some(&summary)).unwrap();
    assert_eq!(file.path, path);
    assert!(!partial.exists(), "renamed into place");
    assert_eq!((file.rows, file.flows.linked), (1000, 500));
    let done = read(&path);
    assert_eq!(done["traceSummary"], summary);
    assert_eq!(count(&done, "kernel"), 500);
    assert_eq!(done["traceEvents"][0]["args"]["name"], "python train.py");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_plain_trace_is_whole_after_every_batch_and_renamed_at_the_end() {
    streams_batch_by_batch("trace.json");
}

#[test]
fn a_gzip_trace_is_members_that_read_as_one_whole_trace_after_every_batch() {
    streams_batch_by_batch("trace.json.gz");
    let dir = temp_dir("gz-magic");
    let path = dir.join("t.json.gz");
    let mut names = Interner::new();
    let mut writer = ChromeTraceWriter::create(&path, meta()).unwrap();
    writer.add_batch(&launches(&mut names, 1, 10), &names.names(), &TimeMap::IDENTITY).unwrap();
    let file = writer.finish(None).unwrap();
    let raw = std::fs::read(&path).unwrap();
    assert_eq!(&raw[..2], &[0x1f, 0x8b]);
    assert!(file.file_bytes < file.json_bytes, "{file:?}");
    assert_eq!(u64::try_from(raw.len()).unwrap(), file.file_bytes);
}

#[test]
fn dropping_the_writer_without_finishing_leaves_a_whole_partial_trace() {
    let dir = temp_dir("drop");
    let path = dir.join("t.json.gz");
    let mut names = Interner::new();
    let mut sink: Box<dyn TraceSink> = Box::new(ChromeTraceWriter::create(&path, meta()).unwrap());
    sink.add_batch(&launches(&mut names, 1, 50), &names.names(), &TimeMap::IDENTITY).unwrap();
    let partial = sink.partial_path().to_path_buf();
    drop(sink);
    assert!(!path.exists());
    assert_eq!(count(&read(&partial), "kernel"), 50);
    let recovered = recover(&partial, None).unwrap();
    assert!(recovered.was_complete);
    assert!(!partial.exists());
    let trace = read(&path);
    assert_eq!(recovered.path, path);
    assert_eq!(recovered.events, u64::try_from(events(&trace).len()).unwrap());
    assert_eq!(count(&trace, "kernel"), 50);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_torn_last_chunk_is_cut_after_the_last_complete_event() {
    for name in ["t.json", "t.json.gz"] {
        let dir = temp_dir(&format!("torn-{name}"));
        let path = dir.join(name);
        let mut names = Interner::new();
        let mut writer = ChromeTraceWriter::create(&path, meta()).unwrap();
        writer.add_batch(&launches(&mut names, 1, 40), &names.names(), &TimeMap::IDENTITY).unwrap();
        writer.sync().unwrap();
        let partial = writer.partial_path().to_path_buf();
        let whole = std::fs::metadata(&partial).unwrap().len();
        writer.add_batch(&launches(&mut names, 41, 40), &names.names(), &TimeMap::IDENTITY).unwrap();
        drop(writer);
        // The process died in the middle of the second chunk's write.
        let grown = std::fs::metadata(&partial).unwrap().len();
        let torn = whole + (grown - whole) / 2;
        std::fs::OpenOptions::new().write(true).open(&partial).unwrap().set_len(torn).unwrap();
        let recovered = recover(&partial, None).unwrap();
        assert!(!recovered.was_complete && recovered.dropped_bytes > 0, "{name}: {recovered:?}");
        let trace = read(&path);
        let kernels = count(&trace, "kernel");
        assert!((40..80).contains(&kernels), "{name}: the first chunk and part of the second: {kernels}");
        let kept = events(&trace).iter().filter(|e| e["cat"] != "trace_span").count();
        assert_eq!(trace["traceRecovered"]["events"], u64::try_from(kept).unwrap());
        assert_eq!(trace["distributedInfo"]["rank"], 2, "the head survives");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn recovery_refuses_what_is_not_a_streamed_trace() {
    let dir = temp_dir("refuse");
    let partial = dir.join("x.partial-12.json");
    std::fs::write(&partial, "{\"something\": 1}\n").unwrap();
    assert!(recover(&partial, None).is_err());
    assert!(partial.exists(), "left as it was");
    assert!(recover(dir.join("plain.json"), None).is_err(), "not named like a partial trace");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A whole partial trace (one event) at `path`.
fn small_partial(path: &Path) {
    let mut names = Interner::new();
    let mut writer = ChromeTraceWriter::create(path, meta()).unwrap();
    writer.add_batch(&launches(&mut names, 1, 1), &names.names(), &TimeMap::IDENTITY).unwrap();
    writer.sync().unwrap();
    let partial = writer.partial_path().to_path_buf();
    std::mem::forget(writer); // the process "died": the partial file stays
    std::fs::rename(partial, path).unwrap();
}

/// `recover` followed a symbolic link (and renamed the link); a FIFO made it wait forever in `open`;
/// `/dev/zero` was read until a 2 GiB allocation aborted the process.
#[test]
fn recovery_reads_only_regular_files_and_follows_no_link() {
    let dir = temp_dir("links");
    let real = dir.join("real.partial-1.json");
    small_partial(&real);
    let before = std::fs::read(&real).unwrap();
    let link = dir.join("link.partial-2.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let err = recover(&link, None).unwrap_err();
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is left");
    assert_eq!(std::fs::read(&real).unwrap(), before, "its target is left");
    assert!(!dir.join("link.json").exists());

    let err = recover("/dev/zero", Some(&dir.join("zero.json"))).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");

    let fifo = dir.join("fifo.partial-3.json");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(recover(&fifo, None).map_err(|e| e.to_string())));
    match rx.recv_timeout(std::time::Duration::from_secs(20)) {
        Ok(Err(e)) => assert!(e.contains("not a regular file"), "{e}"),
        Ok(Ok(r)) => panic!("a FIFO recovered: {r:?}"),
        Err(_) => panic!("recover waited on a FIFO"),
    }
    assert_eq!(
        std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count(),
        0,
        "no temporary file left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A line without an end (a file of zeros after the head) was read whole into memory; now it is left
/// out and counted as soon as it passes `MAX_LINE`, and the trace is closed.
#[test]
fn an_endless_line_is_left_out_and_counted() {
    let dir = temp_dir("endless");
    let partial = dir.join("t.partial-4.json");
    small_partial(&partial);
    let events_before = {
        let copy = dir.join("copy.partial-5.json");
        std::fs::copy(&partial, &copy).unwrap();
        recover(&copy, None).unwrap().events
    };
    // In place of the tail (`]` and `}`), a long run of zeros without a line end (sparse: no disk used).
    let text = std::fs::read(&partial).unwrap();
    let tail = text.windows(4).rposition(|w| w == b"\n  ]").unwrap() + 1;
    let zeros = accelprof_export::trace::MAX_LINE as u64 + 5;
    let file = std::fs::OpenOptions::new().write(true).open(&partial).unwrap();
    file.set_len(tail as u64).unwrap();
    file.set_len(tail as u64 + zeros).unwrap();
    drop(file);
    let r = recover(&partial, None).unwrap();
    assert_eq!((r.was_complete, r.dropped_bytes, r.events), (false, zeros, events_before), "{r:?}");
    let trace = read(&r.path);
    assert_eq!(trace["traceRecovered"]["events"], r.events);
    assert_eq!(trace["traceRecovered"]["dropped_bytes"], zeros);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_flow_table_is_bounded_whatever_the_runs_length() {
    let dir = temp_dir("bounded");
    let path = dir.join("t.json");
    let mut names = Interner::new();
    let options = WriterOptions { pending_flows: 1_024, ..WriterOptions::default() };
    let mut writer = ChromeTraceWriter::create_with(&path, meta(), options).unwrap();
    let (launch, kernel) = (names.intern("cudaGetDevice"), names.intern("k"));
    // 200,000 API calls that launch nothing, then kernels whose launches are far behind the bound.
    for chunk in 0..20u64 {
        let mut b = Batch::new();
        for i in 0..10_000u64 {
            let c = 1 + chunk * 10_000 + i;
            b.api_calls.push(ApiRow {
                start: BASE + c,
                end: BASE + c + 1,
                correlation: c,
                name: launch,
                ..Default::default()
            });
        }
        writer.add_batch(&b, &names.names(), &TimeMap::IDENTITY).unwrap();
        assert!(writer.flow_stats().pending <= 1_024);
    }
    let mut late = Batch::new();
    for c in [1u64, 2, 199_999, 200_000] {
        late.kernels.push(KernelRow {
            start: BASE + 300_000,
            end: BASE + 300_001,
            correlation: c,
            name: kernel,
            ..Default::default()
        });
    }
    writer.add_batch(&late, &names.names(), &TimeMap::IDENTITY).unwrap();
    let stats = writer.flow_stats();
    assert_eq!(stats.linked, 2, "the two recent launches still get their arrow: {stats:?}");
    // Every launch but the last 1,024 was pushed out by a newer id, and the two late kernels of ids 1 and
    // 2 pushed out two more (they wait, unlinked, in their place).
    assert_eq!(stats.launches_evicted, 200_000 - 1_024 + 2, "{stats:?}");
    assert_eq!(stats.pending, 1_024 - 2, "the two linked ids wait no more");
    let file = writer.finish(None).unwrap();
    assert_eq!(count(&read(&file.path), "ac2g"), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_trace_with_ids_narrower_than_its_events_carries_the_hta_guard() {
    let dir = temp_dir("guard");
    let mut names = Interner::new();
    // 100 launches: ids below 128 (int8 for pandas) but 400 event lines (int16 indexes).
    let small = dir.join("small.json");
    let mut writer = ChromeTraceWriter::create(&small, meta()).unwrap();
    writer.add_batch(&launches(&mut names, 1, 100), &names.names(), &TimeMap::IDENTITY).unwrap();
    writer.sync().unwrap();
    let guard = |trace: &Value| {
        events(trace).iter().filter(|e| e["cat"] == "trace_span").cloned().collect::<Vec<_>>()
    };
    let partial = read(writer.partial_path());
    assert_eq!(guard(&partial).len(), 1, "the tail of the partial file has it too");
    writer.finish(None).unwrap();
    let trace = read(&small);
    let span = guard(&trace);
    assert_eq!(span.len(), 1);
    assert_eq!(span[0]["args"]["correlation"].as_f64(), Some(-1.0));
    assert!(std::fs::read_to_string(&small).unwrap().contains("\"correlation\": -1.0"));
    assert_eq!(span[0]["ts"].as_f64(), Some(1.0), "from the first event");
    assert_eq!(span[0]["pid"], 77);

    // Ids as wide as the event count: no guard.
    let wide = dir.join("wide.json");
    let mut writer = ChromeTraceWriter::create(&wide, meta()).unwrap();
    writer.add_batch(&launches(&mut names, 1_000_000, 100), &names.names(), &TimeMap::IDENTITY).unwrap();
    writer.finish(None).unwrap();
    assert!(guard(&read(&wide)).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn creating_in_a_missing_directory_is_an_error() {
    let dir = temp_dir("missing");
    assert!(ChromeTraceWriter::create(dir.join("no/such/dir/t.json"), meta()).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The gzip members of a file, each decompressed.
fn members(raw: &[u8]) -> Vec<String> {
    let mut rest = raw;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let mut member = flate2::bufread::GzDecoder::new(rest);
        let mut text = String::new();
        member.read_to_string(&mut text).unwrap();
        rest = member.into_inner();
        out.push(text);
    }
    out
}

#[test]
fn a_batch_is_written_in_chunks_cut_between_rows() {
    for name in ["t.json", "t.json.gz"] {
        let dir = temp_dir(&format!("chunks-{name}"));
        let path = dir.join(name);
        let mut names = Interner::new();
        let options =
            WriterOptions { chunk_bytes: 4 << 10, buffer_bytes: 16 << 10, ..WriterOptions::default() };
        let mut writer = ChromeTraceWriter::create_with(&path, meta(), options).unwrap();
        let mut batch = launches(&mut names, 1, 400);
        // A row far past a chunk buffer's room (a 100 KiB kernel name): its chunk grows, and is not kept.
        let huge = names.intern(&format!("void huge<{}>()", "x".repeat(100 << 10)));
        batch.kernels.push(KernelRow {
            start: BASE,
            end: BASE + 9,
            device: 0,
            stream: 7,
            name: huge,
            ..Default::default()
        });
        writer.add_batch(&batch, &names.names(), &TimeMap::IDENTITY).unwrap();
        writer.add_batch(&launches(&mut names, 401, 400), &names.names(), &TimeMap::IDENTITY).unwrap();
        writer.sync().unwrap();
        let chunks = writer.output_stats().chunks;
        assert!(chunks > 40, "{name}: 2 batches of about 100 KiB each in chunks of 4 KiB: {chunks} chunks");
        let partial = writer.partial_path().to_path_buf();
        let now = read(&partial);
        assert_eq!(
            (count(&now, "kernel"), count(&now, "ac2g")),
            (801, 1600),
            "{name}: whole after the chunks"
        );
        let file = writer.finish(None).unwrap();
        assert_eq!(file.flows.linked, 800);
        assert_eq!(count(&read(&path), "kernel"), 801);
        if name.ends_with(".gz") {
            // One member per chunk (after the head's): each holds whole rows, a kernel with its arrow.
            let all = members(&std::fs::read(&path).unwrap());
            let (head, rows, tail) = (&all[0], &all[1..all.len() - 1], &all[all.len() - 1]);
            assert!(head.ends_with("\"traceEvents\": [\n") && tail.starts_with("\n  ]"), "{head:?} {tail:?}");
            assert_eq!(rows.len() as u64, chunks, "one member per chunk");
            for chunk in rows {
                let lines: Vec<Value> = chunk
                    .trim_start_matches(",\n")
                    .split(",\n")
                    .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:.200}")))
                    .collect();
                for (i, event) in lines.iter().enumerate() {
                    if event["cat"] == "kernel"
                        && event["args"]["correlation"].as_u64().is_some_and(|c| c > 0)
                    {
                        let f = i.checked_sub(1).map(|j| &lines[j]);
                        assert_eq!(
                            f.map(|f| &f["ph"]),
                            Some(&json!("f")),
                            "the arrow's end is in the kernel's chunk"
                        );
                    }
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A torn trace gzipped whole as one member (`gzip -c torn.json`): no member ends after an event, so it
/// cannot be cut in place. It was refused as "not a streamed trace: no "traceEvents" line in its head",
/// which it has; it is closed into a new file now.
#[test]
fn a_torn_trace_in_one_gzip_member_is_closed() {
    let dir = temp_dir("one-member");
    let plain = dir.join("t.partial-40.json");
    small_partial(&plain);
    let text = std::fs::read(&plain).unwrap();
    let events_before = {
        let copy = dir.join("copy.partial-5.json");
        std::fs::copy(&plain, &copy).unwrap();
        recover(&copy, None).unwrap().events
    };
    // Torn in the middle of the closing (`\n  ]`): every event is whole.
    let torn = &text[..text.windows(4).rposition(|w| w == b"\n  ]").unwrap() + 2];
    let partial = dir.join("x.partial-41.json.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, torn).unwrap();
    std::fs::write(&partial, gz.finish().unwrap()).unwrap();
    let r = recover(&partial, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.was_complete, r.events), (false, events_before), "{r:?}");
    let trace = read(&dir.join("x.json.gz"));
    assert_eq!(trace["traceRecovered"]["events"], events_before);
    assert!(!partial.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory where the trace was to go: the error named the partial (`t.partial-9.json: Is a
/// directory`), and the partial had already been cut in place. The destination is checked first now.
#[test]
fn a_directory_in_the_way_is_named_and_the_partial_left_as_it_was() {
    let dir = temp_dir("dir-in-the-way");
    let partial = dir.join("y.partial-9.json");
    small_partial(&partial);
    // Torn: the closing cut off, so that recovery would cut and close it.
    let text = std::fs::read(&partial).unwrap();
    let torn = text[..text.windows(4).rposition(|w| w == b"\n  ]").unwrap() + 2].to_vec();
    std::fs::write(&partial, &torn).unwrap();
    let output = dir.join("y.json");
    std::fs::create_dir(&output).unwrap();
    let err = recover(&partial, None).unwrap_err();
    assert!(err.to_string().contains(&output.display().to_string()), "{err}");
    assert!(err.to_string().contains("is a directory"), "{err}");
    assert_eq!(std::fs::read(&partial).unwrap(), torn, "the partial is left as it was");
    assert!(output.is_dir());
    let _ = std::fs::remove_dir_all(&dir);
}
