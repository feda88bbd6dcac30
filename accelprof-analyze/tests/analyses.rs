//! The analyses on two small hand-made ranks, against values computed by hand (in the comments).

use std::path::PathBuf;

use accelprof_analyze::{sql, Analysis, Error, KernelRules, KernelType, Options, Query, QueryOptions};
use accelprof_core::columns::{
    ApiRow, CopyKind, KernelRow, MarkerRow, MemcpyRow, MemoryKind, SyncRow, HOST_DEVICE,
};
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, NameId};
use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
use accelprof_export::RunMeta;

const NCCL: &str = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

struct Rank {
    interner: Interner,
    batch: Batch,
    device: u32,
}

impl Rank {
    fn new(device: u32) -> Self {
        Rank { interner: Interner::new(), batch: Batch::new(), device }
    }

    fn step(&mut self, n: u32, start: u64, end: u64) {
        let name = self.interner.intern(&format!("ProfilerStep#{n}"));
        self.batch.markers.push(MarkerRow {
            start,
            end,
            id: n.into(),
            process: 10,
            thread: 11,
            device: HOST_DEVICE,
            name,
            ..Default::default()
        });
    }

    fn launch(&mut self, correlation: u64, at: u64) {
        let name = self.interner.intern("cudaLaunchKernel");
        self.batch.api_calls.push(ApiRow {
            start: at,
            end: at + 5,
            process: 10,
            thread: 11,
            correlation,
            domain: 2,
            cbid: 211,
            name,
        });
    }

    fn kernel(&mut self, name: &str, stream: u64, correlation: u64, start: u64, end: u64) {
        let name = if name.is_empty() { NameId::NONE } else { self.interner.intern(name) };
        let device = self.device;
        self.batch.kernels.push(KernelRow {
            start,
            end,
            device,
            stream,
            correlation,
            name,
            ..Default::default()
        });
    }

    fn write(self, dir: &std::path::Path, rank: u32) {
        let meta =
            RunMeta { rank, world_size: 2, host: "h".into(), vendor: "cupti".into(), ..RunMeta::default() };
        let path = dir.join(format!("rank{rank}.parquet"));
        let mut w = ParquetWriter::create(path, &meta, ParquetOptions::default()).unwrap();
        w.write_batch(&self.batch, &self.interner.names()).unwrap();
        w.finish().unwrap();
    }
}

/// Rank 0: step 1 [0, 1000) launches gemm [100, 300], gemm [300, 400] (stream 7) and NCCL [350, 600]
/// (stream 13); step 2 [1000, 2500) launches relu [1150, 1250], NCCL [1300, 1500] and a copy [1600, 1700];
/// a sync [1700, 1800] with no launch. Rank 1: step 1 [0, 1200) launches gemm [100, 500] and NCCL [450,
/// 700]; step 2 [1200, 2400) launches NCCL [1500, 1600].
fn two_ranks(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-analyze-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    two_ranks_in(&dir);
    dir
}

/// The two ranks of [`two_ranks`], written into `dir` (which exists).
fn two_ranks_in(dir: &std::path::Path) {
    let dir = dir.to_path_buf();
    let mut r = Rank::new(0);
    r.step(1, 0, 1000);
    r.step(2, 1000, 2500);
    for (c, at) in [(1, 10), (2, 20), (3, 30), (4, 1100), (5, 1110), (6, 1200)] {
        r.launch(c, at);
    }
    r.kernel("gemm", 7, 1, 100, 300);
    r.kernel("gemm", 7, 2, 300, 400);
    r.kernel(NCCL, 13, 3, 350, 600);
    r.kernel("relu", 7, 4, 1150, 1250);
    r.kernel(NCCL, 13, 5, 1300, 1500);
    r.batch.memcpys.push(MemcpyRow {
        start: 1600,
        end: 1700,
        stream: 7,
        correlation: 6,
        bytes: 64,
        copy_kind: CopyKind::HTOD,
        src_kind: MemoryKind::PINNED,
        dst_kind: MemoryKind::DEVICE,
        ..Default::default()
    });
    let sync = r.interner.intern("Stream Sync");
    r.batch.syncs.push(SyncRow {
        start: 1700,
        end: 1800,
        stream: 7,
        correlation: 0,
        name: sync,
        ..Default::default()
    });
    r.write(&dir, 0);

    let mut r = Rank::new(1);
    r.step(1, 0, 1200);
    r.step(2, 1200, 2400);
    for (c, at) in [(1, 10), (2, 20), (3, 1250)] {
        r.launch(c, at);
    }
    r.kernel("gemm", 7, 1, 100, 500);
    r.kernel(NCCL, 13, 2, 450, 700);
    r.kernel(NCCL, 13, 3, 1500, 1600);
    r.write(&dir, 1);
}

fn open(dir: &std::path::Path, queries: QueryOptions) -> Analysis {
    Analysis::open(dir, Options { queries, memory_limit: 64 << 20, ..Options::default() }).unwrap()
}

#[test]
fn time_per_kernel_and_per_type_per_rank() {
    let dir = two_ranks("kernels");
    let a = open(&dir, QueryOptions::default());
    assert_eq!(a.ranks().iter().map(|r| r.meta.rank).collect::<Vec<_>>(), [0, 1]);
    let k = a.kernels().unwrap();
    let find = |rank: u32, name: &str| k.iter().find(|s| s.rank == rank && s.name == name).unwrap().clone();

    let gemm = find(0, "gemm");
    assert_eq!(
        (gemm.kernel_type, gemm.count, gemm.sum_ns, gemm.min_ns, gemm.max_ns),
        (KernelType::Computation, 2, 300, 100, 200)
    );
    assert_eq!(gemm.mean_ns, 150.0);
    assert!((gemm.stddev_ns - 5000f64.sqrt()).abs() < 1e-9, "{}", gemm.stddev_ns); // sample std of 200, 100
    let relu = find(0, "relu");
    assert_eq!((relu.count, relu.sum_ns, relu.stddev_ns), (1, 100, 0.0));
    let nccl = find(0, NCCL);
    assert_eq!(
        (nccl.kernel_type, nccl.count, nccl.sum_ns, nccl.min_ns, nccl.max_ns),
        (KernelType::Communication, 2, 450, 200, 250)
    );
    let copy = find(0, "Memcpy HtoD (Pinned -> Device)");
    assert_eq!((copy.kernel_type, copy.count, copy.sum_ns), (KernelType::Memory, 1, 100));
    let sync = find(0, "Stream Sync");
    assert_eq!((sync.kernel_type, sync.sum_ns), (KernelType::Other, 100));
    let nccl1 = find(1, NCCL);
    assert_eq!((nccl1.count, nccl1.sum_ns, nccl1.mean_ns), (2, 350, 175.0));
    assert!((nccl1.stddev_ns - (2.0f64 * 75.0 * 75.0).sqrt()).abs() < 1e-9);
    assert_eq!(k.len(), 5 + 2);

    let c = a.categories().unwrap();
    let cat = |rank: u32, t: KernelType| {
        c.iter().find(|x| x.rank == rank && x.kernel_type == t).map(|x| (x.count, x.sum_ns))
    };
    assert_eq!(cat(0, KernelType::Computation), Some((3, 400)));
    assert_eq!(cat(0, KernelType::Communication), Some((2, 450)));
    assert_eq!(cat(0, KernelType::Memory), Some((1, 100)));
    assert_eq!(cat(0, KernelType::Other), Some((1, 100)));
    assert_eq!(cat(1, KernelType::Computation), Some((1, 400)));
    assert_eq!(cat(1, KernelType::Memory), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn overlap_breakdown_and_idle_time_per_rank() {
    let dir = two_ranks("breakdown");
    let a = open(&dir, QueryOptions::default());
    let b = a.breakdown().unwrap();
    let state = |rank: u32, s: u32| b.iter().find(|x| x.rank == rank && x.state == s).map(|x| x.time_ns);
    // Rank 0: computation alone [100, 350) + [1150, 1250); with communication [350, 400); communication
    // alone [400, 600) + [1300, 1500); memory [1600, 1700). The sync is OTHER: not in the breakdown.
    assert_eq!(state(0, 1), Some(350));
    assert_eq!(state(0, 3), Some(50));
    assert_eq!(state(0, 2), Some(400));
    assert_eq!(state(0, 4), Some(100));
    assert_eq!(b.iter().filter(|x| x.rank == 0).count(), 4);
    // Rank 1: [100, 450) computation, [450, 500) both, [500, 700) + [1500, 1600) communication.
    assert_eq!((state(1, 1), state(1, 3), state(1, 2)), (Some(350), Some(50), Some(300)));

    let idle = a.idle().unwrap();
    // Rank 0: busy [100, 600] + [1150, 1250] + [1300, 1500] + [1600, 1800] = 1000 of a 1700 span; computation
    // [100, 400] + [1150, 1250].
    let r0 = &idle[0];
    assert_eq!(
        (r0.rank, r0.kernel_time_ns, r0.idle_ns, r0.compute_ns, r0.non_compute_ns),
        (0, 1700, 700, 400, 600)
    );
    let r1 = &idle[1];
    assert_eq!(
        (r1.rank, r1.kernel_time_ns, r1.idle_ns, r1.compute_ns, r1.non_compute_ns),
        (1, 1500, 800, 400, 300)
    );

    // Without copies and sets in the breakdown, the memory state is gone.
    let a = open(&dir, QueryOptions { include_memory_kernels: false, ..QueryOptions::default() });
    assert!(a.breakdown().unwrap().iter().all(|x| x.state & 4 == 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn steps_stragglers_and_nccl_kernels_per_rank() {
    let dir = two_ranks("steps");
    let a = open(&dir, QueryOptions::default());
    let steps = a.steps().unwrap();
    let got: Vec<_> = steps.iter().map(|s| (s.step, s.rank, s.duration_ns, s.last_comm_start_ns)).collect();
    // The NCCL kernel belongs to the step in which it was launched.
    assert_eq!(
        got,
        [(1, 0, 1000, Some(350)), (1, 1, 1200, Some(450)), (2, 0, 1500, Some(300)), (2, 1, 1200, Some(300))]
    );

    let s = a.stragglers().unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(
        (s[0].step, s[0].ranks, s[0].slowest_rank, s[0].slowest_ns, s[0].fastest_rank, s[0].fastest_ns),
        (1, 2, 1, 1200, 0, 1000)
    );
    assert_eq!(s[0].mean_ns, 1100.0);
    assert_eq!((s[0].latest_comm_rank, s[0].latest_comm_start_ns), (Some(1), Some(450)));
    assert_eq!(
        (s[1].slowest_rank, s[1].fastest_rank, s[1].latest_comm_rank),
        (0, 1, Some(0)),
        "a tie goes to the lower rank"
    );

    let c = a.communication().unwrap();
    let got: Vec<_> =
        c.iter().map(|x| (x.rank, x.name.as_str(), x.count, x.sum_ns, x.min_ns, x.max_ns)).collect();
    assert_eq!(got, [(0, NCCL, 2, 450, 200, 250), (1, NCCL, 2, 350, 100, 250)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_hta_window_keeps_the_work_launched_before_each_ranks_last_step() {
    let dir = two_ranks("window");
    let a = open(&dir, QueryOptions { hta_window: true, ..QueryOptions::default() });
    let k = a.kernels().unwrap();
    let got: Vec<_> = k.iter().map(|s| (s.rank, s.name.as_str(), s.count, s.sum_ns)).collect();
    // Rank 0's last step starts at 1000: gemm x2 and the first NCCL kernel were launched before it; relu, the
    // second NCCL kernel, the copy (launched in the last step) and the sync (no launch) are left out.
    assert_eq!(got, [(0, NCCL, 1, 250), (1, NCCL, 1, 250), (0, "gemm", 2, 300), (1, "gemm", 1, 400)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_release_rules_and_the_main_branch_rules_classify_differently() {
    let dir = std::env::temp_dir().join(format!("accelprof-analyze-rules-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Rank::new(0);
    r.kernel("hcclAllReduce", 1, 1, 0, 10);
    r.kernel("", 1, 2, 20, 30); // no name: "kernel", as the JSON trace names it
    r.write(&dir, 0);
    for (rules, hccl) in
        [(KernelRules::Hta0_5, KernelType::Computation), (KernelRules::HtaMain, KernelType::Communication)]
    {
        let k = open(&dir, QueryOptions { rules, ..QueryOptions::default() }).kernels().unwrap();
        assert_eq!(k.iter().find(|s| s.name == "hcclAllReduce").unwrap().kernel_type, hccl);
        assert_eq!(k.iter().find(|s| s.name == "kernel").unwrap().kernel_type, KernelType::Computation);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sql_text_runs_as_it_is_given() {
    let dir = two_ranks("sql");
    let a = open(&dir, QueryOptions::default());
    for q in Query::ALL {
        let text = sql(q, &QueryOptions::default());
        let rows: usize = a.query(&text).unwrap().iter().map(|b| b.num_rows()).sum();
        assert!(rows > 0, "{}", q.name());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_directory_without_our_files_is_an_error_naming_them() {
    let dir = std::env::temp_dir().join(format!("accelprof-analyze-empty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(matches!(Analysis::open(&dir, Options::default()), Err(Error::NoFiles(_))));
    std::fs::write(dir.join("other.parquet"), b"PAR1 not really").unwrap();
    match Analysis::open(&dir, Options::default()) {
        Err(Error::File(path, _)) => assert!(path.ends_with("other.parquet")),
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh, empty directory under the temporary one.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-analyze-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A directory whose name holds `[`, `?` or `*` is that directory, not a pattern: the engine was given
/// `dir/` and read `traces[1]` as "traces1", another directory (here an empty one: 0 kernels).
#[test]
fn a_directory_named_like_a_pattern_is_that_directory() {
    let base = scratch("pattern");
    for (name, decoy) in [("traces[1]", "traces1"), ("run?", "runx"), ("all*", "all-other")] {
        let dir = base.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        two_ranks_in(&dir);
        std::fs::create_dir_all(base.join(decoy)).unwrap();
        let a = open(&dir, QueryOptions::default());
        let kernels: u64 = a.kernels().unwrap().iter().map(|k| k.count).sum();
        assert_eq!(kernels, 10, "{name}: every kernel, copy and sync of the two ranks");
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// Two files of one rank were read as one rank, their kernels added together.
#[test]
fn two_files_of_one_rank_are_refused_naming_both() {
    let dir = two_ranks("same-rank");
    let mut r = Rank::new(0);
    r.kernel("gemm", 7, 1, 100, 300);
    r.write(&scratch("same-rank-other"), 1);
    std::fs::rename(scratch_path("same-rank-other").join("rank1.parquet"), dir.join("rank1-again.parquet"))
        .unwrap();
    match Analysis::open(&dir, Options::default()) {
        Err(e @ Error::SameRank { rank: 1, .. }) => {
            let text = e.to_string();
            assert!(text.contains("rank1.parquet") && text.contains("rank1-again.parquet"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch_path("same-rank-other"));
}

fn scratch_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("accelprof-analyze-{name}-{}", std::process::id()))
}

/// `analyze /nonexistent` said only "i/o: No such file or directory".
#[test]
fn a_missing_directory_is_named() {
    let missing = scratch_path("missing").join("not-there");
    let err = Analysis::open(&missing, Options::default()).unwrap_err();
    assert!(err.to_string().contains(&*missing.to_string_lossy()), "{err}");
}

/// A file of ours without the `rank` column (rewritten by another tool) opened, and every query then
/// failed with "Non-nullable column 'rank' is missing", naming no file.
#[test]
fn a_file_without_a_needed_column_is_named() {
    use datafusion::arrow::array::RecordBatch;
    use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use datafusion::parquet::arrow::ArrowWriter;
    use datafusion::parquet::file::properties::WriterProperties;

    let dir = two_ranks("no-rank-column");
    let source = dir.join("rank1.parquet");
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&source).unwrap()).unwrap();
    let kv = reader.metadata().file_metadata().key_value_metadata().cloned();
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    let keep: Vec<usize> = (1..batches[0].num_columns()).collect();
    let target = dir.join("rewritten.parquet");
    let properties = WriterProperties::builder().set_key_value_metadata(kv).build();
    let schema = batches[0].schema().project(&keep).unwrap();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&target).unwrap(), schema.into(), Some(properties))
            .unwrap();
    for b in &batches {
        w.write(&b.project(&keep).unwrap()).unwrap();
    }
    w.close().unwrap();
    std::fs::remove_file(&source).unwrap();

    let err = Analysis::open(&dir, Options::default()).and_then(|a| a.report()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("rewritten.parquet") && text.contains("rank"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file whose `start_ns` has a null (rewritten by another tool) opened, and the analysis then failed
/// with "unexpected result: a null in row 0", naming neither the file nor the column.
#[test]
fn a_null_timestamp_is_named_with_its_file_and_column() {
    use datafusion::arrow::array::{Array, ArrayRef, Int64Array, RecordBatch};
    use datafusion::arrow::datatypes::{Field, Schema};
    use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use datafusion::parquet::arrow::ArrowWriter;
    use datafusion::parquet::file::properties::WriterProperties;

    let dir = two_ranks("null-start");
    let source = dir.join("rank1.parquet");
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&source).unwrap()).unwrap();
    let kv = reader.metadata().file_metadata().key_value_metadata().cloned();
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    let schema = batches[0].schema();
    let at = schema.index_of("start_ns").unwrap();
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .enumerate()
        .map(|(i, f)| if i == at { f.as_ref().clone().with_nullable(true) } else { f.as_ref().clone() })
        .collect();
    let schema = std::sync::Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
    let target = dir.join("rewritten.parquet");
    let properties = WriterProperties::builder().set_key_value_metadata(kv).build();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&target).unwrap(), schema.clone(), Some(properties))
            .unwrap();
    for (n, b) in batches.iter().enumerate() {
        let mut columns: Vec<ArrayRef> = b.columns().to_vec();
        if n == 0 {
            let start = b.column(at).as_any().downcast_ref::<Int64Array>().unwrap();
            let nulled: Int64Array = (0..start.len()).map(|i| (i != 0).then(|| start.value(i))).collect();
            columns[at] = std::sync::Arc::new(nulled);
        }
        w.write(&RecordBatch::try_new(schema.clone(), columns).unwrap()).unwrap();
    }
    w.close().unwrap();
    std::fs::remove_file(&source).unwrap();

    let err = Analysis::open(&dir, Options::default()).and_then(|a| a.report()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("rewritten.parquet") && text.contains("`start_ns`"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `query` ran `COPY ... TO` (writing any file) and `CREATE EXTERNAL TABLE` (reading any file).
#[test]
fn queries_are_read_only_unless_writes_are_allowed() {
    let dir = two_ranks("read-only");
    let out = scratch("read-only-out").join("copy.parquet");
    let copy = format!("COPY (SELECT rank FROM events) TO '{}' STORED AS PARQUET", out.display());
    let external = format!(
        "CREATE EXTERNAL TABLE other STORED AS PARQUET LOCATION '{}'",
        dir.join("rank0.parquet").display()
    );
    let a = open(&dir, QueryOptions::default());
    for statement in [&copy, &external, &"SET datafusion.execution.batch_size = 1".to_owned()] {
        let err = a.query(statement).unwrap_err();
        assert!(err.to_string().contains("not supported"), "{statement}: {err}");
    }
    assert!(!out.exists(), "COPY wrote {}", out.display());
    assert_eq!(a.query("SELECT COUNT(*) FROM events").unwrap()[0].num_rows(), 1);

    let a = Analysis::open(&dir, Options { allow_writes: true, ..Options::default() }).unwrap();
    a.query(&copy).unwrap();
    assert!(out.exists());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(out.parent().unwrap());
}

fn cli(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_accelprof-analyze")).args(args).output().unwrap()
}

/// A directory argument that is not UTF-8 made `std::env::args` panic (exit 101).
#[test]
fn a_non_utf8_argument_is_an_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let bytes = scratch_path("non-utf8").into_os_string().into_encoded_bytes();
    let dir = std::ffi::OsStr::from_bytes(&[bytes.as_slice(), b"-\xff"].concat()).to_owned();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    two_ranks_in(std::path::Path::new(&dir));
    let out = cli(&["analyze".as_ref(), &dir]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("non-utf8-") && stderr.contains("not UTF-8"), "{stderr}");
    // SQL that is not text is a usage error, as an option's value is.
    let out = cli(&["query".as_ref(), &dir, std::ffi::OsStr::from_bytes(b"SELECT '\xff'")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && stderr.contains("is not UTF-8"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kernel named with an escape sequence reached the terminal raw (here: clear the screen).
#[test]
fn names_are_printed_with_their_control_characters_escaped() {
    let dir = scratch("escapes");
    let mut r = Rank::new(0);
    r.step(1, 0, 1000);
    r.launch(1, 10);
    r.kernel("\x1b[2Jevil\x07kernel", 7, 1, 100, 300);
    r.write(&dir, 0);
    for args in [vec!["analyze", ""], vec!["query", "", "SELECT name FROM events"]] {
        let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        args[1] = dir.as_os_str();
        let out = cli(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("\\u{1b}[2Jevil\\u{7}kernel"), "{stdout}");
        assert!(!stdout.contains('\x1b') && !stdout.contains('\x07'), "{stdout:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sql --json`: each query's text by name, the text `analyze` runs with the same options (what the
/// Spark and DuckDB checks run).
#[test]
fn sql_json_gives_the_text_analyze_runs() {
    for (flags, o) in [
        (vec![], QueryOptions::default()),
        (
            vec!["--rules", "hta-main", "--hta-window", "--no-memory-kernels"],
            QueryOptions { rules: KernelRules::HtaMain, include_memory_kernels: false, hta_window: true },
        ),
    ] {
        let mut args: Vec<&std::ffi::OsStr> = vec!["sql".as_ref(), "--json".as_ref()];
        args.extend(flags.iter().map(std::ffi::OsStr::new));
        let out = cli(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(got.len(), Query::ALL.len());
        for q in Query::ALL {
            assert_eq!(got[q.name()].as_str(), Some(sql(q, &o).as_str()), "{}", q.name());
        }
    }
}

/// `accelprof-analyze sql | head`: a reader that went away ends the command quietly with success (it
/// panicked with a backtrace and exited 101 under `println!`). The pipe's read end is closed before the
/// command starts, so its first write fails, whatever the timing.
#[test]
fn a_closed_standard_output_ends_the_command_quietly() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe() writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: pipe() returned two open descriptors that nothing else owns.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    for args in [&["sql"][..], &["sql", "--json"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_accelprof-analyze"))
            .args(args)
            .stdout(std::process::Stdio::from(write.try_clone().unwrap()))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// A kernel that lasted from 0 to 2^63-1 ns: no clock gives it, but a corrupt or edited file can.
fn huge_kernels(dir: &std::path::Path, rank: u32, kernels: u64) {
    let mut r = Rank::new(rank);
    for c in 0..kernels {
        r.kernel("gemm", 7, c + 1, 0, i64::MAX as u64 - 1);
    }
    r.write(dir, rank);
}

/// Two ranks, each with one kernel of 2^63-2 ns: adding their times across ranks panicked ("attempt to
/// add with overflow", exit 101), and a release build wrapped to a negative total.
/// `analyze` with no directory and an unknown command exited 1, as a failed analysis does, where
/// `accelprof analyze` and every other usage error of the command exit 2.
#[test]
fn wrong_commands_and_arguments_are_usage_errors() {
    let cases: [(&[&str], &str); 7] = [
        (&["analyze"], "name the directory"),
        (&["analyze", "a", "b"], "name one directory"),
        (&["bogus"], "unknown command `bogus`"),
        (&["bogus", "dir"], "unknown command `bogus`"),
        (&["query", "dir"], "query DIR 'SQL'"),
        (&["sql", "dir"], "sql takes no directory"),
        (&[], "no command"),
    ];
    for (args, says) in cases {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let out = cli(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && stderr.contains("usage:"), "{args:?}: {stderr}");
    }
    // A directory that is not there is the analysis failing, not a usage error.
    let out = cli(&["analyze".as_ref(), scratch_path("no-such-dir").as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn times_past_64_bits_across_ranks_are_an_error_not_a_panic() {
    let dir = scratch("huge-across");
    huge_kernels(&dir, 0, 1);
    huge_kernels(&dir, 1, 1);
    let err = Analysis::open(&dir, Options::default()).unwrap().report().unwrap_err();
    let text = err.to_string();
    assert!(text.contains("rank0.parquet") && text.contains("rank1.parquet"), "{text}");
    // Each rank alone is fine: its figures fit.
    let k = Analysis::open(&dir, Options::default()).unwrap().kernels().unwrap();
    assert!(k.iter().all(|k| k.sum_ns == i64::MAX - 1), "{k:?}");
    let out = cli(&["analyze".as_ref(), dir.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("292 years") && !stderr.contains("panicked"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One rank, two kernels of 2^63-2 ns: the engine's sum wrapped, and the report showed a total of -4 ns.
#[test]
fn a_sum_past_64_bits_on_one_rank_is_an_error_naming_the_file() {
    let dir = scratch("huge-sum");
    huge_kernels(&dir, 0, 2);
    let a = Analysis::open(&dir, Options::default()).unwrap();
    for result in [a.kernels().map(drop), a.categories().map(drop), a.report().map(drop)] {
        let err = result.unwrap_err();
        let text = err.to_string();
        assert!(text.contains("rank0.parquet") && text.contains("18446744073709551612"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A timestamp past 2^63-1 ns (a corrupt clock value) is a negative `start_ns`/`end_ns`: the engine's
/// differences of such values wrap.
#[test]
fn a_negative_timestamp_is_refused_naming_the_file() {
    let dir = two_ranks("negative-time");
    let mut r = Rank::new(0);
    r.kernel("gemm", 7, 1, u64::MAX - 10, 100);
    r.write(&scratch("negative-time-other"), 2);
    std::fs::rename(scratch_path("negative-time-other").join("rank2.parquet"), dir.join("rank2.parquet"))
        .unwrap();
    let err = Analysis::open(&dir, Options::default()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("rank2.parquet") && text.contains("start_ns"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(scratch_path("negative-time-other"));
}

/// `rank1.parquet` of [`two_ranks`] rewritten with its `rank` column set to `rank` (its metadata kept).
fn rewrite_rank_column(dir: &std::path::Path, rank: i32) {
    rewrite_rank(dir, rank, None);
}

/// `rank1.parquet` of [`two_ranks`] rewritten as `edited.parquet` with its `rank` column set to `rank`,
/// and its metadata's `accelprof.rank` set to `meta_rank` when given.
fn rewrite_rank(dir: &std::path::Path, rank: i32, meta_rank: Option<&str>) {
    use datafusion::arrow::array::{ArrayRef, Int32Array, RecordBatch};
    use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use datafusion::parquet::arrow::ArrowWriter;
    use datafusion::parquet::file::properties::WriterProperties;

    let source = dir.join("rank1.parquet");
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&source).unwrap()).unwrap();
    let mut kv = reader.metadata().file_metadata().key_value_metadata().cloned();
    if let Some(meta_rank) = meta_rank {
        for pair in kv.iter_mut().flatten().filter(|p| p.key == "accelprof.rank") {
            pair.value = Some(meta_rank.to_owned());
        }
    }
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    let properties = WriterProperties::builder().set_key_value_metadata(kv).build();
    let target = dir.join("edited.parquet");
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&target).unwrap(), batches[0].schema(), Some(properties))
            .unwrap();
    for b in &batches {
        let mut columns = b.columns().to_vec();
        columns[0] = std::sync::Arc::new(Int32Array::from_value(rank, b.num_rows())) as ArrayRef;
        w.write(&RecordBatch::try_new(b.schema(), columns).unwrap()).unwrap();
    }
    w.close().unwrap();
    std::fs::remove_file(&source).unwrap();
}

/// A file of rank 1 whose `rank` column says -1 was shown as rank 4294967295 (and its rows would have
/// been another rank's had the column said 0).
#[test]
fn a_rank_column_other_than_the_files_rank_is_refused_naming_the_file() {
    for column in [-1, 0] {
        let dir = two_ranks("rank-column");
        rewrite_rank_column(&dir, column);
        let err = Analysis::open(&dir, Options::default()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("edited.parquet") && text.contains(&format!("{column}")), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// HTA decides whether to drop the last step from the step names of its symbol table, which it shares
/// across ranks (`len(profiler_steps) == 1` over all ranks' names): a rank with one step keeps its
/// kernels alone, and loses them (all launched in its last step) beside a rank with two.
#[test]
fn the_hta_window_counts_the_steps_of_every_rank_as_hta_does() {
    let dir = scratch("window-global");
    let mut r = Rank::new(1);
    r.step(1, 0, 1000);
    r.launch(1, 10);
    r.kernel("gemm", 7, 1, 100, 300);
    r.write(&dir, 1);
    let window = QueryOptions { hta_window: true, ..QueryOptions::default() };
    let kept = |a: &Analysis, rank: u32| -> u64 {
        a.kernels().unwrap().iter().filter(|k| k.rank == rank).map(|k| k.count).sum()
    };
    assert_eq!(kept(&open(&dir, window), 1), 1, "one step in the directory: nothing is left out");

    let mut r = Rank::new(0);
    r.step(1, 0, 1000);
    r.step(2, 1000, 2000);
    r.launch(1, 10);
    r.launch(2, 1010);
    r.kernel("gemm", 7, 1, 100, 300);
    r.kernel("gemm", 7, 2, 1100, 1300);
    r.write(&dir, 0);
    let a = open(&dir, window);
    assert_eq!(kept(&a, 0), 1, "rank 0: its last step's kernel is left out");
    assert_eq!(kept(&a, 1), 0, "rank 1: its only step is its last");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kernel name with a line end started a row of its own in the tables (ESC was escaped, `\n` and `\t`
/// were not).
#[test]
fn line_ends_and_tabs_in_names_are_escaped_too() {
    let dir = scratch("escapes-lines");
    let mut r = Rank::new(0);
    r.kernel("\x1b[31mred\x1b[0m\nnewline\tkernel", 7, 1, 100, 300);
    r.write(&dir, 0);
    for args in [vec!["analyze", ""], vec!["query", "", "SELECT name, 1 AS \"a\nb\" FROM events"]] {
        let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        args[1] = dir.as_os_str();
        let out = cli(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("red\\u{1b}[0m\\nnewline\\tkernel"), "{stdout}");
        assert!(!stdout.contains('\t') && !stdout.contains('\x1b'), "{stdout:?}");
        assert!(!stdout.lines().any(|l| l.trim_start().starts_with("newline")), "{stdout}");
        assert!(!stdout.lines().any(|l| l.trim_start().starts_with("b ")), "{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--memory-limit 17592186044416` (2^44 MiB, 2^64 bytes) wrapped to a pool of 0 bytes: every query
/// failed with "Resources exhausted".
#[test]
fn a_memory_limit_past_the_address_space_is_a_usage_error() {
    let dir = two_ranks("memory-limit");
    let out =
        cli(&["analyze".as_ref(), dir.as_os_str(), "--memory-limit".as_ref(), "17592186044416".as_ref()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--memory-limit") && stderr.contains("17592186044416"), "{stderr}");
    let out = cli(&["analyze".as_ref(), dir.as_os_str(), "--memory-limit".as_ref(), "64".as_ref()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `accelprof-analyze analyze DIR 2>&1 | head -0`: a message to a closed standard error panicked the
/// command (exit 101), and so did the usage to a closed standard output (`--help | head -0`); nothing said
/// to nobody may change the exit status. The pipes' read ends are closed before the command starts, so its
/// first write fails, whatever the timing. `--help` before any command is the tool's help (it was an
/// unknown command, exit 2).
#[test]
fn a_closed_standard_error_or_output_changes_no_exit_status() {
    let (read, write) = std::io::pipe().unwrap();
    drop(read);
    let closed = || std::process::Stdio::from(write.try_clone().unwrap());
    let run = |args: &[&str], closed_stderr: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_accelprof-analyze"));
        cmd.args(args);
        if closed_stderr {
            cmd.stderr(closed());
        } else {
            cmd.stdout(closed());
        }
        let out = cmd.output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let missing = std::env::temp_dir().join(format!("accelprof-analyze-closed-{}", std::process::id()));
    let missing = missing.to_str().unwrap();
    assert_eq!(run(&["analyze", missing], true).0, Some(1), "a failure said to nobody");
    assert_eq!(run(&["analyze"], true).0, Some(2), "a usage error said to nobody");
    assert_eq!(run(&["bogus"], true).0, Some(2));
    for help in ["--help", "-h", "help"] {
        let (code, stderr) = run(&[help], false);
        assert_eq!(code, Some(0), "{help} to a closed standard output: {stderr}");
        assert!(stderr.is_empty(), "{help}: {stderr}");
    }
    let (code, stderr) = run(&["sql", "--help"], false);
    assert_eq!(code, Some(0), "{stderr}");
    // The help itself, read.
    let out = cli(&[std::ffi::OsStr::new("--help")]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("analyze"), "{out:?}");
}

/// A kernel still running when the vendor handed its record over (CUPTI's final forced flush) has an
/// end before its start: its time was negative in every analysis (a min of -500 ns, a sum less than the
/// kernels that ran). Such rows are left out of every time and counted per rank instead.
#[test]
fn rows_whose_end_is_before_their_start_are_left_out_and_counted() {
    let dir = scratch("unfinished");
    let mut r = Rank::new(0);
    r.step(1, 0, 1000);
    r.step(2, 1000, 0);
    r.launch(1, 10);
    r.launch(2, 20);
    r.kernel("gemm", 7, 1, 100, 300);
    r.kernel("gemm", 7, 2, 500, 0);
    r.write(&dir, 0);
    let a = open(&dir, QueryOptions::default());
    let k = a.kernels().unwrap();
    assert_eq!(k.len(), 1, "{k:?}");
    assert_eq!((k[0].count, k[0].sum_ns, k[0].min_ns, k[0].max_ns), (1, 200, 200, 200), "{k:?}");
    let c = a.categories().unwrap();
    assert_eq!((c[0].count, c[0].sum_ns), (1, 200), "{c:?}");
    assert!(a.breakdown().unwrap().iter().all(|b| b.time_ns >= 0));
    let idle = a.idle().unwrap();
    assert_eq!(idle[0].kernel_time_ns, 200, "{idle:?}");
    let steps = a.steps().unwrap();
    assert!(steps.iter().all(|s| s.duration_ns >= 0), "{steps:?}");
    assert_eq!(steps.len(), 1, "the step without an end is left out: {steps:?}");
    let report = a.report().unwrap();
    assert_eq!(report.unfinished, vec![accelprof_analyze::Unfinished { rank: 0, count: 2 }]);
    assert_eq!(report.to_json()["unfinished"], serde_json::json!([{"rank": 0, "count": 2}]));
    let text = accelprof_analyze::render(&report, 10);
    assert!(text.contains("rank    0: 2 GPU activities or steps with an end before their start"), "{text}");
    // What is known is said, not a guessed cause ("still running when the trace ended").
    assert!(!text.contains("still running"), "{text}");
    assert!(text.contains("one known source: kernels not finished at the final flush"), "{text}");
    let out = cli(&["analyze".as_ref(), dir.as_os_str()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("end before their start") && !stdout.contains("-0.5"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A metadata rank that is no u32 (2^32+1, -1) was refused as "metadata `accelprof.rank` is missing or
/// malformed": the field and the value are named.
#[test]
fn a_metadata_rank_that_is_no_rank_is_refused_naming_the_field_and_the_value() {
    for value in ["4294967297", "-1"] {
        let dir = two_ranks("rank-not-u32");
        rewrite_rank(&dir, 1, Some(value));
        let text = Analysis::open(&dir, Options::default()).unwrap_err().to_string();
        assert!(text.contains("edited.parquet"), "{text}");
        assert!(text.contains(&format!("`accelprof.rank` is \"{value}\"")), "{text}");
        assert!(text.contains("not a whole number from 0 to 4294967295"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A file whose metadata names a rank above i32::MAX, its `rank` column (Int32) holding it as the negative
/// rank it casts to: the analysis took the negative rank for the file's (the check compared the column
/// with `rank as i32`), and every result of that rank held a negative rank.
#[test]
fn a_rank_above_the_rank_columns_range_is_refused_naming_the_file() {
    let dir = two_ranks("rank-too-large");
    rewrite_rank(&dir, i32::MIN, Some("2147483648"));
    let err = Analysis::open(&dir, Options::default()).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, Error::Values(..)), "{text}");
    assert!(text.contains("edited.parquet") && text.contains("rank 2147483648, above 2147483647"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
