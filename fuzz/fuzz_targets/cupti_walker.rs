//! CUPTI activity buffers at every layout version, walked by the walker that trusts no pointer.
#![no_main]

use accelprof_core::intern::Interner;
use accelprof_core::{Batch, RecordWalker};
use cupti::decode::{Walker, RecordLayouts, VERSION_12_9, VERSION_13_0, VERSION_13_2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let version = [VERSION_12_9, VERSION_13_0, VERSION_13_2, pick as u32 * 1000][usize::from(pick % 4)];
    let mut walker =
        Walker::untrusted(RecordLayouts::for_version(version)).emit_sync_rows(pick & 4 != 0);
    let (mut batch, mut names) = (Batch::new(), Interner::new());
    // Twice: the second walk meets the state the first left (open ranges, name caches).
    for _ in 0..2 {
        let stats = walker.walk(bytes, &mut batch, &mut names);
        assert!(stats.records + stats.skipped_unknown <= bytes.len() as u64 / 8 + 1);
    }
});
