//! The engine's settings from the environment (`TracerConfig::from_lookup_os`: the `ACCELPROF_*`
//! variables, RANK and WORLD_SIZE): any values, values that are not UTF-8 included.
#![no_main]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use accel_profiling::settings;
use accel_profiling::TracerConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // name=value pairs separated by NUL; names are matched case-sensitively against what is asked.
    let pairs: Vec<(String, Vec<u8>)> = data
        .split(|&b| b == 0)
        .filter_map(|kv| {
            let at = kv.iter().position(|&b| b == b'=')?;
            Some((String::from_utf8_lossy(&kv[..at]).into_owned(), kv[at + 1..].to_vec()))
        })
        .collect();
    let get = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| OsString::from_vec(v.clone()));
    let (_config, _warnings) = TracerConfig::from_lookup_os(get);
    let _ = settings::unknown_variables(pairs.iter().map(|(k, _)| k.as_str()));
    for (_, v) in &pairs {
        let v = String::from_utf8_lossy(v);
        let _ = settings::parse_duration(&v);
        let _ = settings::parse_signal(&v);
        let _ = settings::parse_families(&v);
    }
});
