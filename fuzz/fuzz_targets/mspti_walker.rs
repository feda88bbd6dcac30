//! MSPTI activity buffers, walked by the walker that trusts no pointer.
#![no_main]

use accelprof_core::intern::Interner;
use accelprof_core::{Batch, RecordWalker};
use libfuzzer_sys::fuzz_target;
use mspti::decode::Walker;

fuzz_target!(|data: &[u8]| {
    let mut walker = Walker::untrusted();
    let (mut batch, mut names) = (Batch::new(), Interner::new());
    let stats = walker.walk(data, &mut batch, &mut names);
    assert!(stats.records + stats.skipped_unknown <= data.len() as u64 / 4 + 1);
    assert!(walker.abandoned_bytes() <= data.len() as u64);
});
