//! The `accelprof` command line (what `cupti-trace`, its old name, also parses): any arguments, not
//! UTF-8 included.
#![no_main]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let argv: Vec<OsString> = data.split(|&b| b == 0).map(|a| OsString::from_vec(a.to_vec())).collect();
    let _ = accelprof::check_arguments(argv);
});
