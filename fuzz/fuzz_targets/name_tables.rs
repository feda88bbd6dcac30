//! The name tables: interning any bytes, resolving every id back, and CUPTI's cbid name tables
//! for any domain, cbid and version.
#![no_main]

use accelprof_core::intern::Interner;
use cupti_sys::{cbid_name, CUpti_CallbackDomain};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut names = Interner::new();
    let ids: Vec<_> = data.split(|&b| b == 0).map(|piece| (names.intern_bytes(piece), piece)).collect();
    let table = names.names();
    for (id, piece) in &ids {
        let shown = table.resolve(*id);
        if let Ok(text) = std::str::from_utf8(piece) {
            if !text.is_empty() {
                assert_eq!(shown, text);
            }
        }
    }
    let mut n = accelprof_fuzz::Bytes(data);
    let (domain, cbid, version) = (n.u64() as u32, n.u64() as u32, n.u64() as u32);
    let _ = cbid_name(CUpti_CallbackDomain(domain), cbid, version);
});
