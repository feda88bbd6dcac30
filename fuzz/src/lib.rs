//! What the fuzz targets share: a batch whose names are the fuzzer's bytes.

use accelprof_core::columns::{ApiRow, KernelRow, MarkerRow, HOST_DEVICE};
use accelprof_core::intern::Interner;
use accelprof_core::Batch;

/// Reads little-endian numbers from the fuzzer's bytes (zeros once they run out).
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// The next `u64`.
    pub fn u64(&mut self) -> u64 {
        let n = self.0.len().min(8);
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        u64::from_le_bytes(b)
    }
}

/// A batch with a kernel, a marker and an API call per name: the names are the pieces of `data`
/// between NUL bytes (any bytes: invalid UTF-8, quotes, control characters, huge); the numbers
/// come from the first 64 bytes.
pub fn hostile_batch(data: &[u8]) -> (Batch, Interner) {
    let (head, tail) = data.split_at(data.len().min(64));
    let mut n = Bytes(head);
    let (t0, len, device, pid) = (n.u64(), n.u64(), n.u64() as u32, n.u64() as u32);
    let mut batch = Batch::new();
    let mut names = Interner::new();
    for (i, piece) in tail.split(|&b| b == 0).enumerate().take(256) {
        let name = names.intern_bytes(piece);
        let i = i as u64;
        let start = t0.wrapping_add(i.wrapping_mul(len));
        let end = start.wrapping_add(len);
        batch.kernels.push(KernelRow {
            start,
            end,
            device,
            context: 1,
            stream: i,
            correlation: i,
            grid_x: 1,
            grid_y: 1,
            grid_z: 1,
            block_x: 32,
            block_y: 1,
            block_z: 1,
            shared_memory: 0,
            registers: 0,
            name,
        });
        batch.markers.push(MarkerRow {
            start,
            end,
            id: i,
            process: pid,
            thread: i,
            device: HOST_DEVICE,
            stream: 0,
            domain: name,
            name,
            flags: 2,
        });
        batch.api_calls.push(ApiRow {
            start,
            end,
            process: pid,
            thread: i,
            correlation: i,
            domain: 1,
            cbid: 1,
            name,
        });
    }
    (batch, names)
}
