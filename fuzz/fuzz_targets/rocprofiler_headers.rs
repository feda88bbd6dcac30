//! rocprofiler-sdk's record headers as its buffer callback receives them: categories, kinds and
//! payloads (each record's leading size field included) from the fuzzer, copied into frames by the
//! callback's own code and walked.
#![no_main]

use accelprof_core::intern::Interner;
use accelprof_core::{Batch, RecordWalker};
use libfuzzer_sys::fuzz_target;
use rocprofiler::decode::{frame_records, Walker};
use rocprofiler_sys as sys;

/// The most a record's leading size may claim for the copy to take it.
const MAX_RECORD: usize = 64 * 1024;
/// Bytes of every payload at least (more than any fixed-size record).
const MIN_PAYLOAD: usize = 256;

fuzz_target!(|data: &[u8]| {
    // Each header: category (1 byte: 1 = tracing, 3 = counters, anything else as is), kind (1 byte),
    // then up to 255 payload bytes (length byte first). Each payload buffer is as long as the size
    // its first 8 bytes claim (what the SDK guarantees), zero past the fuzzer's bytes.
    let mut payloads: Vec<Vec<u8>> = Vec::new();
    let mut headers: Vec<sys::rocprofiler_record_header_t> = Vec::new();
    let mut rest = data;
    while rest.len() >= 3 && headers.len() < 64 {
        let (category, kind, len) = (rest[0], rest[1], usize::from(rest[2]));
        rest = &rest[3..];
        let take = len.min(rest.len());
        let mut claimed = [0u8; 8];
        claimed[..take.min(8)].copy_from_slice(&rest[..take.min(8)]);
        let claimed = usize::try_from(u64::from_le_bytes(claimed)).unwrap_or(usize::MAX).min(MAX_RECORD);
        let mut payload = vec![0u8; claimed.max(MIN_PAYLOAD)];
        payload[..take].copy_from_slice(&rest[..take]);
        rest = &rest[take..];
        // SAFETY: plain C data; every bit pattern is a valid header.
        let mut h: sys::rocprofiler_record_header_t = unsafe { std::mem::zeroed() };
        h.__bindgen_anon_1.__bindgen_anon_1 = sys::rocprofiler_record_header_t__bindgen_ty_1__bindgen_ty_1 {
            category: category.into(),
            kind: kind.into(),
        };
        payloads.push(payload);
        headers.push(h);
    }
    for (h, p) in headers.iter_mut().zip(payloads.iter_mut()) {
        h.payload = if p[0] == 0xff { std::ptr::null_mut() } else { p.as_mut_ptr().cast() };
    }
    let pointers: Vec<*mut sys::rocprofiler_record_header_t> =
        headers.iter_mut().map(|h| h as *mut _).collect();
    let mut frames = Vec::new();
    // SAFETY: every header is readable, and every payload holds the bytes its size field claims (up
    // to the 64 KiB the copy accepts) and at least MIN_PAYLOAD, more than a counter value.
    let lost = unsafe { frame_records(&pointers, &mut frames) };
    assert!(lost <= pointers.len() as u64);
    let mut walker = Walker::untrusted();
    let (mut batch, mut names) = (Batch::new(), Interner::new());
    let stats = walker.walk(&frames, &mut batch, &mut names);
    assert_eq!(stats.records + stats.skipped_unknown + lost, pointers.len() as u64);
});
