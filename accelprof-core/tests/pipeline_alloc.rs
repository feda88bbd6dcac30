//! Once warm, decoding allocates nothing per record: columns reuse their capacity, names are interned once.
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use accelprof_core::columns::{Batch, FamilySet};
use accelprof_core::intern::Interner;
use accelprof_core::pipeline::{Pipeline, PipelineConfig, WalkStats};
use accelprof_core::pool::BufferPool;
use common::{hand_off, walker, API, KERNEL};

/// Counts allocations made on threads that set `COUNTED`.
struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting has no effect on memory.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTED.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTED.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded with the caller's arguments.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

#[test]
fn a_warm_decode_thread_allocates_nothing_per_record() {
    const RECORDS_PER_BUFFER: u64 = 60;
    const BUFFERS: u64 = 50;
    let pool = BufferPool::new(RECORDS_PER_BUFFER as usize * common::RECORD_BYTES, 8);
    let config = PipelineConfig { batch_rows: 1_000_000, ..Default::default() };
    let mut inner = walker(Duration::ZERO);
    // Mark the decode thread (the walker runs there) as counted.
    let walk = move |bytes: &[u8], out: &mut Batch, names: &mut Interner| -> WalkStats {
        COUNTED.with(|c| c.set(true));
        inner(bytes, out, names)
    };
    let pipeline = Pipeline::start(walk, pool, config).unwrap();
    let rows = Arc::new(AtomicU64::new(0));
    let sink = Arc::clone(&rows);
    pipeline.subscribe(FamilySet::all(), move |batch, _| {
        sink.fetch_add(batch.len() as u64, Ordering::Relaxed);
    });
    let handoff = pipeline.handoff();
    let records: Vec<_> =
        (0..RECORDS_PER_BUFFER).map(|i| (if i % 2 == 0 { KERNEL } else { API }, i)).collect();
    let round = || {
        for _ in 0..BUFFERS {
            hand_off(&handoff, &records);
        }
        pipeline.sync().unwrap();
    };
    // Warm up until three rounds in a row allocate nothing: columns grow, names are interned, and the
    // channel sets up its blocking context (once) the first time the decode thread waits on an empty
    // channel, which the pause after each round lets it do.
    let (mut warm_rounds, mut quiet_rounds) = (0, 0);
    while quiet_rounds < 3 && warm_rounds < 50 {
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        round();
        std::thread::sleep(Duration::from_millis(20));
        warm_rounds += 1;
        quiet_rounds = if ALLOCATIONS.load(Ordering::SeqCst) == before { quiet_rounds + 1 } else { 0 };
    }
    assert!(ALLOCATIONS.load(Ordering::SeqCst) > 0, "the counter sees the decode thread's allocations");
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    round();
    round();
    let during = ALLOCATIONS.load(Ordering::SeqCst) - before;
    assert_eq!(rows.load(Ordering::SeqCst), (warm_rounds + 2) * BUFFERS * RECORDS_PER_BUFFER);
    assert_eq!(
        during,
        0,
        "decode thread allocated {during} times for {} records",
        2 * BUFFERS * RECORDS_PER_BUFFER
    );
}
