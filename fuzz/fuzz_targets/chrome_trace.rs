//! The Chrome trace writer on hostile names: the output is always valid JSON.
#![no_main]

use accelprof_export::trace::{ChromeTrace, TimeMap, RunMeta};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (batch, names) = accelprof_fuzz::hostile_batch(data);
    let mut trace = ChromeTrace::new(RunMeta::default());
    let names = names.names();
    trace.add_batch(&batch, &names, &TimeMap::from_pair(0, 0));
    trace.add_process_name(1, String::from_utf8_lossy(data));
    let mut out = Vec::new();
    trace.write(&mut out).expect("writes to memory");
    // Checked without building a tree of it (a `Value` of every event cost most of the time).
    std::str::from_utf8(&out).expect("the trace is UTF-8");
    serde_json::from_slice::<serde::de::IgnoredAny>(&out).expect("the trace is valid JSON");
});
