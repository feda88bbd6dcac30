//! The streaming writer's memory is a fixed budget: whatever the run's length and whatever the size of
//! the batches it is given, the heap it holds does not grow (every byte allocated in this process is
//! counted, the writer's own threads included).
//!
//! The batches are as large as a CUPTI session delivers them: the decode thread hands a batch over once it
//! holds 65,536 rows or more, after the buffer that got it there, so a batch holds 65,536 rows and up to a
//! buffer's worth of records past them. Each launch is 3 rows (runtime call, the driver call it makes,
//! kernel) and 5 events (with its arrow).

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use accelprof_core::columns::{ApiRow, Batch, KernelRow};
use accelprof_core::intern::{Interner, NameId};
use accelprof_export::trace::{ChromeTraceWriter, RunMeta, TimeMap};

/// Counts the bytes live on the heap and the most live at once since the last [`reset_peak`].
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting has no effect on memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's arguments.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // Counted as the allocator sees it: both blocks live while the old one is copied.
            grew(new_size);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The tests measure the whole process: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Bytes live now; the peak starts again from here.
fn reset_peak() -> usize {
    let now = LIVE.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

const MIB: usize = 1 << 20;
/// The most the writer may hold, at any moment, whatever the run's length and the batches' size (default
/// options): its flow table (131,072 waiting ends of 72 bytes: 9 MiB), its chunk buffers (16 MiB), gzip
/// members in flight and small change (encoded names, tails).
const BUDGET: usize = 32 * MIB;
const BASE: u64 = 1_700_000_000_000_000_000;

struct Ids {
    runtime: NameId,
    driver: NameId,
    kernels: Vec<NameId>,
}

fn ids(names: &mut Interner) -> Ids {
    Ids {
        runtime: names.intern("cudaLaunchKernel"),
        driver: names.intern("cuLaunchKernel"),
        kernels: (0..24)
            .map(|i| {
                names.intern(&format!(
                    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)_{i}"
                ))
            })
            .collect(),
    }
}

/// Refills `b` (its columns keep their capacity) with `launches` launches whose correlation ids follow
/// the previous batch's: every launch draws its arrow, as in a real run.
fn fill(b: &mut Batch, ids: &Ids, first: u64, launches: u64) {
    b.clear();
    for i in 0..launches {
        let c = first + i;
        let t = BASE + c * 4_000;
        for (domain, cbid, name, start, end) in
            [(1, 211, ids.runtime, t, t + 2_000), (2, 307, ids.driver, t + 300, t + 1_700)]
        {
            b.api_calls.push(ApiRow {
                start,
                end,
                process: 77,
                thread: 5,
                correlation: c,
                domain,
                cbid,
                name,
            });
        }
        b.kernels.push(KernelRow {
            start: t + 2_500,
            end: t + 3_500,
            device: 0,
            context: 1,
            stream: 7 + i % 2,
            correlation: c,
            grid_x: 1024,
            grid_y: 1,
            grid_z: 1,
            block_x: 256,
            block_y: 1,
            block_z: 1,
            registers: 32,
            name: ids.kernels[i as usize % ids.kernels.len()],
            ..Default::default()
        });
    }
}

/// As a CUPTI session's largest batches: 32,768 launches, 98,304 rows, about 32 MB of JSON.
const LAUNCHES: u64 = 32_768;
/// As a CUPTI session's smallest full batches: 21,846 launches, 65,538 rows, about 21 MB of JSON.
const SESSION_LAUNCHES: u64 = 21_846;

/// A directory of its own, removed at the end (a failed test included).
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir = std::env::temp_dir()
            .join(format!("accelprof-export-writer-memory-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A writer fed batch after batch as a tracer feeds it (no waiting for the file in between), and what
/// the heap held on top of what was live before the writer was created.
struct Run {
    names: Interner,
    ids: Ids,
    batch: Batch,
    writer: ChromeTraceWriter,
    next_id: u64,
    added: u64,
    /// Bytes live before the writer was created (the batch at its largest included).
    baseline: usize,
}

impl Run {
    fn new(path: PathBuf, largest: u64) -> Run {
        let mut names = Interner::new();
        let ids = ids(&mut names);
        let mut batch = Batch::new();
        // The batch's columns at the largest size they will hold, so that refilling allocates nothing.
        fill(&mut batch, &ids, 0, largest);
        let baseline = reset_peak();
        let writer =
            ChromeTraceWriter::create(path, RunMeta { start_unix_ns: BASE, ..Default::default() }).unwrap();
        Run { names, ids, batch, writer, next_id: 1, added: 0, baseline }
    }

    fn add(&mut self, launches: u64) {
        fill(&mut self.batch, &self.ids, self.next_id, launches);
        self.next_id += launches;
        self.writer.add_batch(&self.batch, &self.names.names(), &TimeMap::IDENTITY).unwrap();
        self.added += 1;
        if self.added % 5 == 0 {
            // These tests are about memory, not disk (50 batches are 1.6 GB): what was written is
            // dropped (the writer's next positioned write leaves a hole before it).
            self.writer.sync().unwrap();
            std::fs::OpenOptions::new()
                .write(true)
                .open(self.writer.partial_path())
                .unwrap()
                .set_len(0)
                .unwrap();
        }
    }

    /// What the writer holds once everything added is in the file.
    fn held(&self) -> usize {
        self.writer.sync().unwrap();
        LIVE.load(Ordering::Relaxed).saturating_sub(self.baseline)
    }

    /// The most the writer held at once so far.
    fn most(&self) -> usize {
        peak().saturating_sub(self.baseline)
    }
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / MIB as f64
}

#[test]
fn the_writers_heap_after_50_batches_is_its_heap_after_5_and_stays_within_a_fixed_budget() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = TempDir::new("long");
    let mut run = Run::new(dir.0.join("trace.json"), SESSION_LAUNCHES);
    for _ in 0..5 {
        run.add(SESSION_LAUNCHES);
    }
    let warm = run.held();
    for _ in 5..50 {
        run.add(SESSION_LAUNCHES);
    }
    let after = run.held();
    let most = run.most();
    eprintln!(
        "the writer held {:.1} MiB after 5 batches, {:.1} MiB after 50, at most {:.1} MiB",
        mib(warm),
        mib(after),
        mib(most)
    );
    assert!(
        after.abs_diff(warm) <= MIB,
        "the writer held {:.1} MiB after 5 batches, {:.1} MiB after 50",
        mib(warm),
        mib(after)
    );
    assert!(
        most <= BUDGET,
        "the writer held up to {:.1} MiB over 50 batches (budget {} MiB)",
        mib(most),
        BUDGET / MIB
    );
    let file = run.writer.finish(None).unwrap();
    assert_eq!(file.rows, 50 * 3 * SESSION_LAUNCHES);
    assert_eq!(file.flows.linked, 50 * SESSION_LAUNCHES);
}

/// Two batches of `small` launches, then one of `large`: the writer stays within the same budget.
fn budget_whatever_the_batch_size(name: &str, small: u64, large: u64) {
    let dir = TempDir::new(name);
    let mut run = Run::new(dir.0.join(name), large);
    for _ in 0..2 {
        run.add(small);
    }
    let warm = run.held();
    run.add(large);
    let after = run.held();
    let most = run.most();
    eprintln!(
        "{name}: held {:.1} MiB before the large batch, {:.1} MiB after, at most {:.1} MiB",
        mib(warm),
        mib(after),
        mib(most)
    );
    assert!(
        most <= BUDGET,
        "{name}: with a batch of {large} launches the writer held up to {:.1} MiB (budget {} MiB)",
        mib(most),
        BUDGET / MIB
    );
    let file = run.writer.finish(None).unwrap();
    assert_eq!(file.rows, 3 * (2 * small + large));
}

#[test]
fn a_batch_four_times_the_sessions_largest_fits_the_same_budget() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    budget_whatever_the_batch_size("trace.json", LAUNCHES, 4 * LAUNCHES);
}

#[test]
fn a_compressed_trace_fits_the_same_budget() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Gzip members in flight too (smaller batches first: compressing is slow in a debug build).
    budget_whatever_the_batch_size("trace.json.gz", LAUNCHES / 8, LAUNCHES);
}
