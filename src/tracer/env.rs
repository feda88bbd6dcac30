//! [`TracerConfig::from_env`]: the settings of [`crate::settings`], read from environment variables
//! (every front door reads them so; the launcher's options set the same variables).

use std::cell::RefCell;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use accelprof_core::columns::Family;
use accelprof_core::FamilySet;
use accelprof_export::trace::WriterOptions;

use super::{BufferPolicy, CaptureRange, Distributed, Format, Output, TracerConfig, Vendor};
use crate::settings::{self, vars};

/// The largest vendor buffer the settings ask for (the pool's own limit).
pub const MAX_BUFFER_SIZE: usize = accelprof_core::BufferPool::MAX_BUFFER_SIZE;
/// The smallest vendor buffer the settings ask for (the pool's own limit: the library refuses less).
pub const MIN_BUFFER_SIZE: usize = accelprof_core::BufferPool::MIN_BUFFER_SIZE;
/// The most pool buffers in flight (the pool's own limit).
pub const MAX_BUFFERS: usize = accelprof_core::BufferPool::MAX_IN_FLIGHT;
/// The most bytes the pool's buffers may add up to (buffer size times buffers in flight).
pub const MAX_POOL_BYTES: u128 = 64 << 30;

/// The default output of a front door: `accelprof_<pid>.json` in the working directory.
pub const DEFAULT_OUTPUT: &str = "accelprof_%p.json";

impl TracerConfig {
    /// The configuration the environment asks for (the variables of [`settings::vars`]), and a
    /// warning for each value that does not parse (naming the variable; the value keeps its
    /// default), each value bounded, and each unknown `ACCELPROF_*` variable (naming the closest
    /// known one). A typo never stops the traced program; the launcher turns warnings into exit 2.
    ///
    /// The defaults are a front door's: one output `accelprof_%p.json`, signals handled, the summary
    /// printed; `RANK`, `WORLD_SIZE`, `LOCAL_RANK` as torch.distributed sets them.
    pub fn from_env() -> (TracerConfig, Vec<String>) {
        let names: Vec<String> =
            std::env::vars_os().filter_map(|(name, _)| name.into_string().ok()).collect();
        let (config, mut warnings) = TracerConfig::from_lookup_os(|name| std::env::var_os(name));
        warnings.extend(settings::unknown_variables(names.iter().map(String::as_str)));
        (config, warnings)
    }

    /// As [`from_lookup`](Self::from_lookup), with values as the OS gives them: a value that is not
    /// UTF-8 is reported and ignored.
    pub fn from_lookup_os(get: impl Fn(&str) -> Option<OsString>) -> (TracerConfig, Vec<String>) {
        let not_utf8 = RefCell::new(Vec::new());
        let (config, mut warnings) = TracerConfig::from_lookup(|name| match get(name)?.into_string() {
            Ok(value) => Some(value),
            Err(raw) => {
                not_utf8.borrow_mut().push(format!("ignoring {name}={raw:?}: not valid UTF-8"));
                None
            }
        });
        warnings.splice(0..0, not_utf8.into_inner());
        (config, warnings)
    }

    /// As [`from_env`](Self::from_env), reading variables through `get` (and not warning about
    /// unknown ones: only `from_env` can list them).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> (TracerConfig, Vec<String>) {
        let mut c = TracerConfig {
            handle_signals: true,
            print_summary: true,
            outputs: vec![Output::Path(DEFAULT_OUTPUT.into())],
            ..TracerConfig::default()
        };
        let mut warnings = Vec::new();
        let get = |name: &str| get(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        match Distributed::from_vars(get) {
            Ok(d) => c.distributed = Some(d),
            // Left to the tracer, which refuses it: a trace must not claim a rank it does not have.
            Err(e) => warnings.push(format!("{e}: the tracer will not start with it")),
        }
        let mut warn = |name: &str, value: &str, what: &str| {
            warnings.push(format!("ignoring {name}={value:?}: {what}"));
        };
        if let Some(v) = get(vars::OUTPUT) {
            // Several files: comma-separated (a name with a comma in it cannot be given here).
            let outputs: Vec<&str> = v.split(',').map(str::trim).filter(|o| !o.is_empty()).collect();
            let files: Vec<&str> =
                outputs.iter().filter(|o| !crate::launcher::means_no_trace(o)).copied().collect();
            if !files.is_empty() && files.len() < outputs.len() {
                // `none` beside files named: the files are written (a first `none` wrote nothing at all,
                // silently, and a later one was taken for a file name of an unknown format).
                warn(vars::OUTPUT, &v, "`none` (no trace) with other outputs: the files named are written");
            }
            c.outputs = files.iter().map(|o| Output::Path(o.into())).collect();
        }
        c.summary_json = get(vars::SUMMARY_JSON).map(PathBuf::from);
        if let Some(v) = get(vars::FAMILIES) {
            match parse_families(&v) {
                Ok(families) if !families.is_empty() => c.families = families,
                Ok(_) => warn(vars::FAMILIES, &v, "no family named"),
                Err(unknown) => warn(vars::FAMILIES, &v, &format!("unknown families {unknown:?}")),
            }
        }
        if let Some(v) = get(vars::VENDOR) {
            match v.parse::<Vendor>() {
                Ok(vendor) => c.vendor = vendor,
                Err(_) => warn(vars::VENDOR, &v, "expected cupti, rocprofiler, mspti or auto"),
            }
        }
        c.library = get(vars::LIBRARY).map(PathBuf::from);
        if c.library.is_some() && c.vendor == Vendor::Auto {
            warnings.push(format!(
                "{} names a file: say whose library it is ({})",
                vars::LIBRARY,
                vars::VENDOR
            ));
            c.library = None;
        }
        let mut warn = |name: &str, value: &str, what: &str| {
            warnings.push(format!("ignoring {name}={value:?}: {what}"));
        };
        if let Some(v) = get(vars::CUDA_API_CALLS) {
            #[cfg(feature = "cupti")]
            match cupti::activity::ApiFilter::parse(&v) {
                Ok(_) => c.cuda_api_calls = Some(v.clone()),
                Err(unknown) => {
                    warn(vars::CUDA_API_CALLS, &v, &format!("unknown presets or API names {unknown:?}"))
                }
            }
            #[cfg(not(feature = "cupti"))]
            warn(vars::CUDA_API_CALLS, &v, "this build has no CUPTI (the `cupti` feature is off)");
        }
        if let Some(v) = get(vars::CUDA_API_FILTER_AT) {
            match v.trim().to_ascii_lowercase().as_str() {
                "cupti" => c.cuda_api_filter_in_decoder = false,
                "decode" => c.cuda_api_filter_in_decoder = true,
                _ => warn(vars::CUDA_API_FILTER_AT, &v, "expected cupti or decode"),
            }
        }
        let mut bounded = Vec::new();
        if let Some(v) = get(vars::BUFFER_SIZE) {
            let expected = format!("expected bytes >= {MIN_BUFFER_SIZE}, e.g. 8M");
            match parse_bytes(&v) {
                Some(n) if n < MIN_BUFFER_SIZE as u128 => warn(vars::BUFFER_SIZE, &v, &expected),
                Some(n) if n > MAX_BUFFER_SIZE as u128 => {
                    c.buffer_size = Some(MAX_BUFFER_SIZE);
                    bounded.push(format!("{}={v:?} is above the limit: bounded to 1G", vars::BUFFER_SIZE));
                }
                Some(n) => c.buffer_size = Some(n as usize),
                None => warn(vars::BUFFER_SIZE, &v, &expected),
            }
            // rocprofiler-sdk's buffer is larger than the pool's smallest: a smaller size is bounded
            // there (as `TracerConfig::buffer_size` says), said here rather than taken silently.
            #[cfg(feature = "rocprofiler")]
            if let Some(size) =
                c.buffer_size.filter(|s| c.vendor == Vendor::Rocprofiler && *s < rocprofiler::MIN_BUFFER_SIZE)
            {
                c.buffer_size = Some(rocprofiler::MIN_BUFFER_SIZE);
                bounded.push(format!(
                    "{}={v:?} ({size} bytes) is below the {} bytes of rocprofiler-sdk's smallest buffer: bounded to \
                     {}",
                    vars::BUFFER_SIZE,
                    rocprofiler::MIN_BUFFER_SIZE,
                    rocprofiler::MIN_BUFFER_SIZE
                ));
            }
        }
        if let Some(v) = get(vars::MAX_BUFFERS) {
            match v.parse::<u128>() {
                Ok(0) | Err(_) => warn(vars::MAX_BUFFERS, &v, "expected a positive number"),
                Ok(n) if n > MAX_BUFFERS as u128 => {
                    c.max_buffers = Some(MAX_BUFFERS);
                    bounded.push(format!(
                        "{}={v:?} is above the limit: bounded to {MAX_BUFFERS}",
                        vars::MAX_BUFFERS
                    ));
                }
                Ok(n) => c.max_buffers = Some(n as usize),
            }
        }
        if let (Some(size), Some(max)) = (c.buffer_size, c.max_buffers) {
            let pool_bytes = size as u128 * max as u128;
            if pool_bytes > MAX_POOL_BYTES {
                let fit = (MAX_POOL_BYTES / size as u128).max(1) as usize;
                bounded.push(format!(
                    "{size} x {max} buffers would be {} GiB of buffers: bounded to {fit} buffers (64 GiB)",
                    pool_bytes >> 30
                ));
                c.max_buffers = Some(fit);
            }
        }
        if let Some(v) = get(vars::POLICY) {
            match v.to_ascii_lowercase().as_str() {
                "lossless" => c.policy = BufferPolicy::Lossless,
                "lossy" => c.policy = BufferPolicy::Lossy,
                _ => warn(vars::POLICY, &v, "expected lossless or lossy"),
            }
        }
        if let Some(v) = get(vars::FLUSH_PERIOD_MS) {
            match v.parse::<u64>() {
                Ok(0) => c.flush_period = None,
                Ok(ms) => c.flush_period = Some(Duration::from_millis(ms)),
                Err(_) => warn(vars::FLUSH_PERIOD_MS, &v, "expected milliseconds"),
            }
        }
        for (var, field) in [(vars::SUMMARY, &mut c.print_summary), (vars::DEMANGLE, &mut c.demangle)] {
            if let Some(v) = get(var) {
                match parse_switch(&v) {
                    Some(on) => *field = on,
                    None => warn(var, &v, "expected on or off"),
                }
            }
        }
        if let Some(v) = get(vars::SUMMARY_TOP) {
            match v.parse() {
                Ok(n) => c.summary_top = n,
                Err(_) => warn(vars::SUMMARY_TOP, &v, "expected a number"),
            }
        }
        if let Some(v) = get(vars::DELAY) {
            match parse_duration(&v) {
                Some(d) => c.delay = d,
                None => warn(vars::DELAY, &v, "expected a time such as 30s, 1500ms or 2m"),
            }
        }
        if let Some(v) = get(vars::DURATION) {
            match v.to_ascii_lowercase().as_str() {
                "off" | "none" | "0" => c.duration = None,
                _ => match parse_duration(&v) {
                    Some(d) => c.duration = Some(d),
                    None => warn(vars::DURATION, &v, "expected a time such as 30s, 1500ms or 2m"),
                },
            }
        }
        if let Some(v) = get(vars::TOGGLE_SIGNAL) {
            match parse_signal(&v) {
                Ok(signal) => c.toggle_signal = signal,
                Err(what) => warn(vars::TOGGLE_SIGNAL, &v, what),
            }
        }
        if let Some(v) = get(vars::CAPTURE_RANGE) {
            match v.to_ascii_lowercase().replace('_', "-").as_str() {
                "none" | "off" | "0" => c.capture_range = CaptureRange::None,
                "profiler-api" | "cudaprofilerapi" | "profiler" => {
                    c.capture_range = CaptureRange::ProfilerApi
                }
                _ => warn(vars::CAPTURE_RANGE, &v, "expected none or profiler-api"),
            }
        }
        if let Some(v) = get(vars::SIGNALS) {
            match parse_switch(&v) {
                Some(on) => c.handle_signals = on,
                None => warn(vars::SIGNALS, &v, "expected on or off"),
            }
        }
        let mut writer = WriterOptions::default();
        if let Some(v) = get(vars::GZIP_LEVEL) {
            match v.parse::<u32>() {
                Ok(level) if level <= 9 => writer.gzip_level = level,
                _ => warn(vars::GZIP_LEVEL, &v, "expected 0 to 9"),
            }
        }
        if let Some(v) = get(vars::PENDING_FLOWS) {
            match v.parse::<u32>() {
                Ok(n) if (2..=1 << 24).contains(&n) => writer.pending_flows = n as usize,
                _ => warn(vars::PENDING_FLOWS, &v, "expected 2 to 16777216"),
            }
        }
        let defaults = WriterOptions::default();
        if (writer.gzip_level, writer.pending_flows) != (defaults.gzip_level, defaults.pending_flows) {
            c.formats[0] = Format::chrome_json_with(writer);
        }
        c.launcher_report = get(vars::LAUNCHER_REPORT).map(PathBuf::from);
        warnings.extend(bounded);
        (c, warnings)
    }
}

/// `kernel,memcpy`, `common`, `all`; the names not known, when some are not.
pub fn parse_families(v: &str) -> Result<FamilySet, Vec<String>> {
    let mut set = FamilySet::empty();
    let mut unknown = Vec::new();
    for name in v.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "common" | "default" => set |= TracerConfig::COMMON,
            "all" => set |= FamilySet::all(),
            _ => match Family::ALL.iter().find(|f| f.name() == lower) {
                Some(f) => set |= f.set(),
                None => unknown.push(name.to_owned()),
            },
        }
    }
    if unknown.is_empty() {
        Ok(set)
    } else {
        Err(unknown)
    }
}

/// `on`/`off` (also `1`/`0`, `true`/`false`, `yes`/`no`).
fn parse_switch(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "on" | "true" | "yes" => Some(true),
        "0" | "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// `30s`, `1500ms`, `2m`, `1h`, `0.5` (seconds).
pub fn parse_duration(v: &str) -> Option<Duration> {
    let v = v.trim().to_ascii_lowercase();
    let (number, unit) = match v.find(|c: char| c.is_ascii_alphabetic()) {
        Some(at) => v.split_at(at),
        None => (v.as_str(), "s"),
    };
    let seconds = match unit.trim() {
        "ms" => 1e-3,
        "s" | "sec" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return None,
    };
    let value: f64 = number.trim().parse().ok()?;
    let total = value * seconds;
    (0.0..1e9).contains(&total).then(|| Duration::from_secs_f64(total))
}

/// A signal for toggling collection: `USR1`, `SIGUSR2`, `WINCH`, `URG`, `HUP`, a real-time signal
/// number; `off`/`none` for none.
pub fn parse_signal(v: &str) -> Result<Option<i32>, &'static str> {
    let upper = v.trim().to_ascii_uppercase();
    let name = upper.strip_prefix("SIG").unwrap_or(&upper);
    let signal = match name {
        "OFF" | "NONE" | "" | "0" => return Ok(None),
        "USR1" => libc::SIGUSR1,
        "USR2" => libc::SIGUSR2,
        "WINCH" => libc::SIGWINCH,
        "URG" => libc::SIGURG,
        "HUP" => libc::SIGHUP,
        number => match number.parse::<i32>() {
            Ok(n) if is_toggle_signal(n) => n,
            _ => return Err(TOGGLE_SIGNALS),
        },
    };
    Ok(Some(signal))
}

/// The signals that may toggle collection, in words.
pub(crate) const TOGGLE_SIGNALS: &str = "expected USR1, USR2, WINCH, URG, HUP or a real-time signal number";

/// Whether `signal` may toggle collection: SIGUSR1, SIGUSR2, SIGWINCH, SIGURG, SIGHUP or a real-time
/// signal (not one that cannot be caught, nor a fault whose handler returning would run the faulting
/// instruction again).
pub(crate) fn is_toggle_signal(signal: i32) -> bool {
    (libc::SIGRTMIN()..=libc::SIGRTMAX()).contains(&signal)
        || [libc::SIGUSR1, libc::SIGUSR2, libc::SIGWINCH, libc::SIGURG, libc::SIGHUP].contains(&signal)
}

/// `4096`, `64K`, `8M`, `1G` (binary units); as `u128`, so that no value a user writes overflows.
fn parse_bytes(v: &str) -> Option<u128> {
    let v = v.trim().to_ascii_uppercase();
    let v = v.strip_suffix('B').unwrap_or(&v);
    let (digits, shift) = match v.chars().last()? {
        'K' => (&v[..v.len() - 1], 10),
        'M' => (&v[..v.len() - 1], 20),
        'G' => (&v[..v.len() - 1], 30),
        _ => (v, 0),
    };
    digits.trim().parse::<u128>().ok()?.checked_mul(1 << shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(pairs: &[(&str, &str)]) -> (TracerConfig, Vec<String>) {
        let pairs: Vec<(String, String)> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        TracerConfig::from_lookup(|name| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    fn paths(c: &TracerConfig) -> Vec<PathBuf> {
        c.outputs
            .iter()
            .map(|o| match o {
                Output::Path(p) => p.clone(),
                Output::Sink(_) => panic!("a sink"),
            })
            .collect()
    }

    #[test]
    fn variables_are_read_and_bad_values_are_warnings_naming_the_variable() {
        let (c, warnings) = from(&[
            ("ACCELPROF_OUTPUT", "out_%r.json.gz, out_%r.parquet"),
            ("RANK", "3"),
            ("WORLD_SIZE", "8"),
            ("ACCELPROF_FAMILIES", "kernel,memcpy"),
            ("ACCELPROF_BUFFER_SIZE", "8M"),
            ("ACCELPROF_POLICY", "lossy"),
            ("ACCELPROF_FLUSH_PERIOD_MS", "50"),
            ("ACCELPROF_SUMMARY_JSON", "sum_%r.json"),
            ("ACCELPROF_VENDOR", "mspti"),
            ("ACCELPROF_DELAY", "1500ms"),
            ("ACCELPROF_DURATION", "2m"),
            ("ACCELPROF_TOGGLE_SIGNAL", "SIGUSR2"),
            ("ACCELPROF_CAPTURE_RANGE", "profiler-api"),
            ("ACCELPROF_SIGNALS", "off"),
            ("ACCELPROF_SUMMARY", "off"),
            ("ACCELPROF_LAUNCHER_REPORT", "/run/x"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(paths(&c), [PathBuf::from("out_%r.json.gz"), PathBuf::from("out_%r.parquet")]);
        assert_eq!(c.distributed, Some(Distributed { rank: 3, world_size: 8, local_rank: None }));
        assert_eq!(c.families, FamilySet::KERNEL | FamilySet::MEMCPY);
        assert_eq!((c.buffer_size, c.policy), (Some(8 << 20), BufferPolicy::Lossy));
        assert_eq!(c.flush_period, Some(Duration::from_millis(50)));
        assert_eq!(c.summary_json, Some(PathBuf::from("sum_%r.json")));
        assert_eq!(c.vendor, Vendor::Mspti);
        assert_eq!((c.delay, c.duration), (Duration::from_millis(1500), Some(Duration::from_secs(120))));
        assert_eq!(c.toggle_signal, Some(libc::SIGUSR2));
        assert_eq!(c.capture_range, CaptureRange::ProfilerApi);
        assert!(!c.handle_signals && !c.print_summary);
        assert_eq!(c.launcher_report, Some(PathBuf::from("/run/x")));

        let (c, warnings) = from(&[]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(paths(&c), [PathBuf::from(DEFAULT_OUTPUT)]);

        // `none` beside files named: the files are written, with a warning (a first `none` wrote nothing,
        // silently; a later one was taken for a file).
        for list in ["none,keep.json", "keep.json, off"] {
            let (c, warnings) = from(&[("ACCELPROF_OUTPUT", list)]);
            assert_eq!(paths(&c), [PathBuf::from("keep.json")], "{list}");
            assert_eq!(warnings.len(), 1, "{list}: {warnings:?}");
            assert!(warnings[0].contains("with other outputs"), "{warnings:?}");
        }
        assert!(c.handle_signals && c.print_summary, "a front door's defaults");

        let (c, warnings) = from(&[
            ("ACCELPROF_OUTPUT", "none"),
            ("ACCELPROF_FAMILIES", "kernel,bogus"),
            ("ACCELPROF_BUFFER_SIZE", "12"),
            ("ACCELPROF_DELAY", "soon"),
            ("ACCELPROF_TOGGLE_SIGNAL", "TERM"),
            ("ACCELPROF_CAPTURE_RANGE", "nvtx"),
            ("ACCELPROF_VENDOR", "intel"),
            ("ACCELPROF_GZIP_LEVEL", "11"),
            ("ACCELPROF_PENDING_FLOWS", "1"),
        ]);
        assert!(c.outputs.is_empty());
        assert_eq!(warnings.len(), 8, "{warnings:?}");
        for (w, var) in warnings.iter().zip([
            "ACCELPROF_FAMILIES",
            "ACCELPROF_VENDOR",
            "ACCELPROF_BUFFER_SIZE",
            "ACCELPROF_DELAY",
            "ACCELPROF_TOGGLE_SIGNAL",
            "ACCELPROF_CAPTURE_RANGE",
            "ACCELPROF_GZIP_LEVEL",
            "ACCELPROF_PENDING_FLOWS",
        ]) {
            assert!(w.starts_with(&format!("ignoring {var}=")), "{w}");
        }
        assert_eq!(c.families, TracerConfig::COMMON, "a bad list keeps the default");
        assert_eq!((c.buffer_size, c.delay, c.toggle_signal), (None, Duration::ZERO, None));
        assert_eq!(c.capture_range, CaptureRange::None);
    }

    #[test]
    fn a_rank_that_cannot_be_is_a_warning_and_left_to_the_tracer() {
        let (c, warnings) = from(&[("RANK", "4"), ("WORLD_SIZE", "4")]);
        assert_eq!(c.distributed, None);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("RANK=4 is not below WORLD_SIZE=4"), "{warnings:?}");
    }

    #[cfg(feature = "cupti")]
    #[test]
    fn the_cuda_api_calls_setting_is_checked() {
        let (c, warnings) = from(&[("ACCELPROF_CUDA_API_CALLS", "timeline,+cuMemAlloc_v2")]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(c.cuda_api_calls.as_deref(), Some("timeline,+cuMemAlloc_v2"));
        let (c, warnings) = from(&[("ACCELPROF_CUDA_API_CALLS", "timeline,cuBogus")]);
        assert!(warnings.len() == 1 && warnings[0].contains("ACCELPROF_CUDA_API_CALLS"), "{warnings:?}");
        assert_eq!(c.cuda_api_calls, None);
    }

    #[test]
    fn the_cuda_api_filter_at_setting_takes_cupti_or_decode() {
        let (c, warnings) = from(&[("ACCELPROF_CUDA_API_FILTER_AT", "decode")]);
        assert!(warnings.is_empty() && c.cuda_api_filter_in_decoder, "{warnings:?}");
        let (c, warnings) = from(&[("ACCELPROF_CUDA_API_FILTER_AT", "CUPTI")]);
        assert!(warnings.is_empty() && !c.cuda_api_filter_in_decoder, "{warnings:?}");
        let (c, warnings) = from(&[("ACCELPROF_CUDA_API_FILTER_AT", "both")]);
        assert!(c.cuda_api_filter_in_decoder, "an unknown value leaves the default: while decoding");
        assert!(warnings.len() == 1 && warnings[0].contains("ACCELPROF_CUDA_API_FILTER_AT"), "{warnings:?}");
    }

    /// Settings that would abort the traced program: bounded, with a warning each.
    #[test]
    fn sizes_that_would_abort_are_bounded_with_a_warning() {
        let (c, warnings) = from(&[("ACCELPROF_BUFFER_SIZE", "1125899906842624")]);
        assert_eq!(c.buffer_size, Some(MAX_BUFFER_SIZE));
        assert!(warnings.iter().any(|w| w.contains("bounded to 1G")), "{warnings:?}");
        let (c, warnings) = from(&[("ACCELPROF_BUFFER_SIZE", "1G"), ("ACCELPROF_MAX_BUFFERS", "65536")]);
        assert_eq!((c.buffer_size, c.max_buffers), (Some(1 << 30), Some(64)));
        assert!(warnings.iter().any(|w| w.contains("bounded to 64 buffers")), "{warnings:?}");
        let (_, warnings) = from(&[("ACCELPROF_BUFFER_SIZE", "99999999999999999999999999999999999999999G")]);
        assert!(warnings[0].starts_with("ignoring ACCELPROF_BUFFER_SIZE"), "{warnings:?}");
    }

    /// The smallest buffer is the library's (the pool's 512 bytes): the settings refused less than 4096,
    /// which the library takes. Less than the library takes is ignored with a warning naming the
    /// variable, the vendor crate's size kept, as every invalid value is (never the program's end).
    #[test]
    fn the_smallest_buffer_size_is_the_librarys() {
        assert_eq!(MIN_BUFFER_SIZE, accelprof_core::BufferPool::MIN_BUFFER_SIZE);
        for (value, size) in [("512", 512), ("1000", 1000), ("4K", 4096)] {
            let (c, warnings) = from(&[("ACCELPROF_BUFFER_SIZE", value)]);
            assert!(warnings.is_empty(), "{value}: {warnings:?}");
            assert_eq!(c.buffer_size, Some(size), "{value}");
        }
        let (c, warnings) = from(&[("ACCELPROF_BUFFER_SIZE", "511")]);
        assert_eq!(c.buffer_size, None, "the vendor crate's size kept");
        assert_eq!(warnings, ["ignoring ACCELPROF_BUFFER_SIZE=\"511\": expected bytes >= 512, e.g. 8M"]);
        // rocprofiler-sdk's smallest buffer is larger: a smaller size is bounded to it, and that is said.
        #[cfg(feature = "rocprofiler")]
        {
            let (c, warnings) =
                from(&[("ACCELPROF_VENDOR", "rocprofiler"), ("ACCELPROF_BUFFER_SIZE", "1000")]);
            assert_eq!(c.buffer_size, Some(rocprofiler::MIN_BUFFER_SIZE));
            assert!(warnings.len() == 1 && warnings[0].contains("bounded to 4096"), "{warnings:?}");
            let (c, warnings) = from(&[("ACCELPROF_VENDOR", "cupti"), ("ACCELPROF_BUFFER_SIZE", "1000")]);
            assert!(warnings.is_empty() && c.buffer_size == Some(1000), "{warnings:?}");
        }
    }

    #[test]
    fn values_that_are_not_utf8_are_reported_not_dropped_silently() {
        use std::os::unix::ffi::OsStringExt;
        let (c, warnings) = TracerConfig::from_lookup_os(|name| match name {
            "ACCELPROF_OUTPUT" => Some(OsString::from_vec(b"trace-\xff.json".to_vec())),
            "ACCELPROF_FAMILIES" => Some(OsString::from("kernel")),
            _ => None,
        });
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("ACCELPROF_OUTPUT") && warnings[0].contains("not valid UTF-8"));
        assert_eq!(c.families, FamilySet::KERNEL, "the other variables are read");
    }

    #[test]
    fn times_signals_and_sizes_parse() {
        assert_eq!(parse_duration("0.25"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("1h"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_duration("-1s"), None);
        assert_eq!(parse_duration("5 parsecs"), None);
        assert_eq!(parse_signal("off"), Ok(None));
        assert_eq!(parse_signal("usr1"), Ok(Some(libc::SIGUSR1)));
        assert!(parse_signal("KILL").is_err() && parse_signal("9").is_err() && parse_signal("SEGV").is_err());
        assert_eq!(parse_bytes("64k"), Some(65536));
        assert_eq!(parse_bytes("1GB"), Some(1 << 30));
        assert_eq!(parse_bytes("x"), None);
        assert_eq!(parse_families("all"), Ok(FamilySet::all()));
        assert_eq!(parse_families("Kernel, api"), Ok(FamilySet::KERNEL | FamilySet::API));
    }
}
