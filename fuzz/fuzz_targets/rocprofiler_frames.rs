//! The frames rocprofiler's buffer callback writes, walked without a library.
#![no_main]

use accelprof_core::intern::Interner;
use accelprof_core::{Batch, RecordWalker};
use libfuzzer_sys::fuzz_target;
use rocprofiler::decode::Walker;

fuzz_target!(|data: &[u8]| {
    let mut walker = Walker::untrusted();
    let (mut batch, mut names) = (Batch::new(), Interner::new());
    for _ in 0..2 {
        walker.walk(data, &mut batch, &mut names);
    }
});
