//! Kernel names through the demanglers the decoders' name transform uses (the C++ runtime's
//! `__cxa_demangle`, which this binary has loaded, and the `cpp_demangle` crate): any bytes, no panic
//! and no abort.
#![no_main]

use accelprof_export::demangle::Demangler;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let name: Vec<u8> = data.iter().copied().filter(|&b| b != 0).collect();
    for demangler in [Demangler::new(), Demangler::cpp_demangle()] {
        let _ = demangler.demangle(&name);
    }
});
