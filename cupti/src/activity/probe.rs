//! The decoder's stride probe: the library's own `cuptiActivityGetNextRecord`, asked once per kind.

use std::mem::size_of;

use cupti_sys::{CUptiResult, CUpti_Activity, CuptiFunctions};

use crate::decode::StrideProbe;
use crate::Cupti;

/// Most bytes copied for one probe: a record and the next one, whatever their kinds.
const PROBE_BYTES: usize = 2048;

/// A probe asking `cupti`'s `cuptiActivityGetNextRecord` how far the record at the start of a slice
/// reaches; `None` when the library lacks the function.
///
/// The walker calls it only for kinds whose size is not settled (an unverified table, or a kind the table
/// does not know), once per kind. The library walks a private copy of the bytes, never the buffer being
/// decoded.
pub(crate) fn stride_probe(cupti: &Cupti) -> Option<StrideProbe> {
    let functions = CuptiFunctions::new(cupti.functions().resolver().clone());
    if !functions.has("cuptiActivityGetNextRecord") {
        return None;
    }
    Some(Box::new(move |rest: &[u8]| {
        let len = rest.len().min(PROBE_BYTES) / 8 * 8;
        if len < 8 {
            return None;
        }
        let mut scratch = vec![0u64; len / 8];
        for (word, bytes) in scratch.iter_mut().zip(rest[..len].chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(bytes);
            *word = u64::from_ne_bytes(b);
        }
        let base = scratch.as_mut_ptr().cast::<u8>();
        let mut record = base.cast::<CUpti_Activity>();
        // SAFETY: `base` points to `len` initialised, 8-aligned bytes we own for the call; `record` is the
        // first record of that buffer, as the function expects of its "previous record" argument.
        let r = unsafe { functions.cuptiActivityGetNextRecord(base, len, &mut record) };
        if r != Ok(CUptiResult::CUPTI_SUCCESS) {
            return None;
        }
        let stride = (record as usize).checked_sub(base as usize)?;
        (stride >= size_of::<u64>() && stride <= len).then_some(stride)
    }))
}
