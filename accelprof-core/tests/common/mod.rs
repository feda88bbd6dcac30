//! A toy vendor format for pipeline tests: records of two little-endian u64s, `(tag, value)`.
#![allow(dead_code)]

use std::time::Duration;

use accelprof_core::columns::{ApiRow, Batch, KernelRow};
use accelprof_core::intern::Interner;
use accelprof_core::pipeline::{Handoff, WalkStats};

pub const KERNEL: u64 = 1;
pub const API: u64 = 2;
/// The walker panics on this record.
pub const PANIC: u64 = 0xdead;
/// A record the walker leaves out as a user's filter asks (`WalkStats::filtered`).
pub const FILTERED: u64 = 0xF1;
pub const RECORD_BYTES: usize = 16;

/// Writes `records` at the start of a fresh buffer from the handoff's pool (spinning while the pool is at
/// its bound, as a test producer may) and hands it off. Returns how many times the pool declined.
pub fn hand_off(handoff: &Handoff, records: &[(u64, u64)]) -> u64 {
    let mut declined = 0;
    let mut buf = loop {
        match handoff.request_buffer() {
            Some(buf) => break buf,
            None => {
                declined += 1;
                std::thread::yield_now();
            }
        }
    };
    let bytes = buf.as_mut_bytes();
    assert!(records.len() * RECORD_BYTES <= bytes.len(), "test buffer too small");
    for (i, (tag, value)) in records.iter().enumerate() {
        bytes[i * 16..i * 16 + 8].copy_from_slice(&tag.to_le_bytes());
        bytes[i * 16 + 8..i * 16 + 16].copy_from_slice(&value.to_le_bytes());
    }
    handoff.completed(buf, records.len() * RECORD_BYTES);
    declined
}

/// Decodes the toy format: KERNEL -> kernel row (correlation = value), API -> API row, PANIC -> panics,
/// FILTERED -> left out (filtered), anything else -> skipped. Sleeps `delay` per buffer to play a slow decoder.
pub fn walker(delay: Duration) -> impl FnMut(&[u8], &mut Batch, &mut Interner) -> WalkStats + Send + 'static {
    move |bytes, out, names| {
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
        let mut stats = WalkStats::default();
        for record in bytes.chunks_exact(RECORD_BYTES) {
            let tag = u64::from_le_bytes(record[..8].try_into().unwrap());
            let value = u64::from_le_bytes(record[8..].try_into().unwrap());
            match tag {
                KERNEL => {
                    let name = names.intern("gemm_kernel");
                    out.kernels.push(KernelRow {
                        correlation: value,
                        start: value,
                        end: value + 1,
                        name,
                        ..Default::default()
                    });
                }
                API => {
                    let name = names.intern("cudaLaunchKernel");
                    out.api_calls.push(ApiRow {
                        correlation: value,
                        start: value,
                        end: value + 1,
                        name,
                        ..Default::default()
                    });
                }
                PANIC => panic!("walker met a poisoned record"),
                FILTERED => {
                    stats.filtered += 1;
                    continue;
                }
                _ => {
                    stats.skipped_unknown += 1;
                    continue;
                }
            }
            stats.records += 1;
        }
        stats
    }
}
