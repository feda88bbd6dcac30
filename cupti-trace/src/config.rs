//! The tracer's settings, read from environment variables (the launcher's options set the same
//! variables: see [`crate::settings`]).

use std::cell::RefCell;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use cupti::activity::{ActivityConfig, ActivityKinds, ApiFilter, BufferPolicy};

/// Environment variables the tracer reads (all optional).
pub mod vars {
    /// Trace file path (`%p` = process id, `%r` = rank); `none` writes no trace (summary only).
    /// Default `cupti_trace_%p.json` in the working directory.
    pub const OUTPUT: &str = "CUPTI_TRACE_OUTPUT";
    /// Comma-separated activity kinds (`kernel`, `concurrent_kernel`, `memcpy`, `memset`, `runtime`,
    /// `driver`, `synchronization`, `external_correlation`, `overhead`, `nvtx`, `cuda_event`, `memory`),
    /// or `default` / `all`.
    pub const KINDS: &str = "CUPTI_TRACE_KINDS";
    /// Which runtime and driver calls are recorded: `timeline` (default: what PyTorch's profiler shows,
    /// leaving out `cudaGetDevice`, `cudaSetDevice`, `cudaGetLastError`, `cudaEvent{Create,CreateWithFlags,
    /// Destroy}` and every driver call but the launches no runtime call encloses and the virtual-memory
    /// calls), `all` (every call), `none`, and changes to them: `timeline,+cuMemAlloc_v2,-cudaMemsetAsync`.
    pub const API_CALLS: &str = "CUPTI_TRACE_API_CALLS";
    /// Bytes per CUPTI buffer (`K`/`M` suffixes allowed). Default 4M.
    pub const BUFFER_SIZE: &str = "CUPTI_TRACE_BUFFER_SIZE";
    /// Most pool buffers at once. Default 16.
    pub const MAX_BUFFERS: &str = "CUPTI_TRACE_MAX_BUFFERS";
    /// `lossless` (default: extra buffers beyond the pool while decoding lags, then the program's thread
    /// waits for the decoding; records are dropped, counted, only if no buffer is decoded for 5 s) or
    /// `lossy` (dropped, counted, as soon as the buffers are out).
    pub const POLICY: &str = "CUPTI_TRACE_POLICY";
    /// Flush CUPTI's completed buffers every N ms on a background thread (default: off).
    pub const FLUSH_PERIOD_MS: &str = "CUPTI_TRACE_FLUSH_PERIOD_MS";
    /// `0` to print no kernel summary at exit (default: printed to stderr).
    pub const SUMMARY: &str = "CUPTI_TRACE_SUMMARY";
    /// Rows of the kernel summary (default 20).
    pub const SUMMARY_TOP: &str = "CUPTI_TRACE_SUMMARY_TOP";
    /// `0` to keep kernel names mangled (default: demangled, as PyTorch's profiler shows them).
    pub const DEMANGLE: &str = "CUPTI_TRACE_DEMANGLE";
    /// Also write the summary as JSON to this path (`%p` / `%r` as for the output): kernels per name,
    /// record counts, dropped records. For scripts that check a run.
    pub const SUMMARY_JSON: &str = "CUPTI_TRACE_SUMMARY_JSON";
    /// Start collecting this long after CUDA starts (`30s`, `1500ms`, `2m`; a plain number is seconds).
    pub const DELAY: &str = "CUPTI_TRACE_DELAY";
    /// Stop collecting this long after collection started, and write the trace (the program runs on).
    pub const DURATION: &str = "CUPTI_TRACE_DURATION";
    /// A signal that pauses and resumes collection (`USR1`, `USR2`, `WINCH`, `URG`, `HUP`, or a real-time
    /// signal number); `off` by default.
    pub const TOGGLE_SIGNAL: &str = "CUPTI_TRACE_TOGGLE_SIGNAL";
    /// `1`: collect only between `cudaProfilerStart` and `cudaProfilerStop`.
    pub const PROFILER_RANGE: &str = "CUPTI_TRACE_PROFILER_RANGE";
    /// `0`: leave SIGINT, SIGTERM and SIGHUP alone (by default, one that would kill the program first
    /// finishes the trace and the summary, then kills it as it would have).
    pub const SIGNALS: &str = "CUPTI_TRACE_SIGNALS";
    /// Compression level (0-9) of a `.json.gz` trace (default 1).
    pub const GZIP_LEVEL: &str = "CUPTI_TRACE_GZIP_LEVEL";
    /// Correlation ids whose flow arrow may wait for its other end (default 131072).
    pub const PENDING_FLOWS: &str = "CUPTI_TRACE_PENDING_FLOWS";
    /// Set by the launcher: its private report directory (mode 0700, see [`crate::launcher`]), where each
    /// traced process appends its lines to its own file and claims its output names.
    pub const LAUNCHER_REPORT: &str = "CUPTI_TRACE_LAUNCHER_REPORT";
    /// The launcher's: the tracer library it has the CUDA driver load (default: `libcupti_trace.so` next
    /// to the `cupti-trace` executable).
    pub const LIBRARY: &str = "CUPTI_TRACE_LIBRARY";
    /// The launcher's: `off` leaves the CUPTI sharing shim (`libcupti_shim.so`) out of the program's
    /// `LD_PRELOAD` (default `on`; see docs/CUPTI-SHARING.md).
    pub const SHARE: &str = "CUPTI_TRACE_SHARE";
}

/// The largest CUPTI buffer the tracer asks for (the pool's own limit).
pub const MAX_BUFFER_SIZE: usize = accelprof_core::BufferPool::MAX_BUFFER_SIZE;
/// The most pool buffers in flight (the pool's own limit).
pub const MAX_BUFFERS: usize = accelprof_core::BufferPool::MAX_IN_FLIGHT;
/// The most bytes the pool's buffers may add up to (buffer size times buffers in flight).
pub const MAX_POOL_BYTES: u128 = 64 << 30;

/// What the tracer does.
#[derive(Clone, Debug)]
pub struct TraceConfig {
    /// Where the trace goes (`None`: no trace file). The format is the name's: Chrome JSON (`.json`,
    /// `.json.gz`, or any other name), Parquet (`.parquet`), Perfetto's protobuf (`.pftrace`,
    /// `.perfetto-trace`).
    pub output: Option<PathBuf>,
    /// Further files written from the same collection (`CUPTI_TRACE_OUTPUT=a.json.gz,a.parquet,a.pftrace`
    /// gives `output` `a.json.gz` and these two), each in its name's format.
    pub more_outputs: Vec<PathBuf>,
    /// The activity session's settings.
    pub activity: ActivityConfig,
    /// Print the per-kernel summary table at exit.
    pub summary: bool,
    /// Rows of that table.
    pub summary_top: usize,
    /// Demangle kernel names.
    pub demangle: bool,
    /// Where to write the summary as JSON, if anywhere.
    pub summary_json: Option<PathBuf>,
    /// This process's rank and the job's size (from `RANK` / `WORLD_SIZE`, as torch.distributed sets them).
    pub rank: u32,
    /// See `rank`.
    pub world_size: u32,
    /// Collection starts this long after the tracer does.
    pub delay: Duration,
    /// Collection stops this long after it started, and the trace is written.
    pub duration: Option<Duration>,
    /// The signal that pauses and resumes collection.
    pub toggle_signal: Option<i32>,
    /// Collect only between `cudaProfilerStart` and `cudaProfilerStop`.
    pub profiler_range: bool,
    /// Finish the trace on SIGINT, SIGTERM and SIGHUP that would kill the program, then die of them.
    pub handle_signals: bool,
    /// Compression level of a `.json.gz` trace.
    pub gzip_level: u32,
    /// Correlation ids whose flow arrow may wait for its other end.
    pub pending_flows: usize,
    /// The launcher's private report directory ([`crate::launcher`]).
    pub launcher_report: Option<PathBuf>,
}

impl Default for TraceConfig {
    /// Trace to `cupti_trace_%p.json`, summary of 20 rows, demangled names, collection from the start,
    /// SIGINT/SIGTERM/SIGHUP handled; the activity session's defaults except a shorter final fence (5 s:
    /// the process is exiting), a flush every second (so the trace on disk is at most about a second
    /// behind the program) and the API calls of a timeline ([`ApiFilter::timeline`]).
    fn default() -> Self {
        TraceConfig {
            output: Some(PathBuf::from("cupti_trace_%p.json")),
            more_outputs: Vec::new(),
            activity: ActivityConfig {
                fence_timeout: Duration::from_secs(5),
                api_filter: ApiFilter::timeline(),
                flush_period: Some(Duration::from_secs(1)),
                ..ActivityConfig::default()
            },
            summary: true,
            summary_top: 20,
            demangle: true,
            summary_json: None,
            rank: 0,
            world_size: 1,
            delay: Duration::ZERO,
            duration: None,
            toggle_signal: None,
            profiler_range: false,
            handle_signals: true,
            gzip_level: 1,
            pending_flows: accelprof_export::trace::DEFAULT_PENDING_FLOWS,
            launcher_report: None,
        }
    }
}

impl TraceConfig {
    /// The configuration the environment asks for. Values that do not parse are reported in the returned
    /// warnings and replaced by their defaults, values out of bounds are bounded with a warning, and
    /// unknown `CUPTI_TRACE_*` variables are named with the closest known one: a typo never stops the
    /// traced program.
    pub fn from_env() -> (TraceConfig, Vec<String>) {
        let names: Vec<String> =
            std::env::vars_os().filter_map(|(name, _)| name.into_string().ok()).collect();
        let (config, mut warnings) = TraceConfig::from_lookup_os(|name| std::env::var_os(name));
        warnings.extend(crate::settings::unknown_variables(names.iter().map(String::as_str)));
        (config, warnings)
    }

    /// As [`from_lookup`](Self::from_lookup), with values as the OS gives them: a value that is not UTF-8
    /// is reported and ignored.
    pub fn from_lookup_os(get: impl Fn(&str) -> Option<OsString>) -> (TraceConfig, Vec<String>) {
        let not_utf8 = RefCell::new(Vec::new());
        let (config, mut warnings) = TraceConfig::from_lookup(|name| match get(name)?.into_string() {
            Ok(value) => Some(value),
            Err(raw) => {
                not_utf8.borrow_mut().push(format!("ignoring {name}={raw:?}: not valid UTF-8"));
                None
            }
        });
        warnings.splice(0..0, not_utf8.into_inner());
        (config, warnings)
    }

    /// As [`from_env`](Self::from_env), reading variables through `get`.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> (TraceConfig, Vec<String>) {
        let mut c = TraceConfig::default();
        let mut warnings = Vec::new();
        let mut warn = |name: &str, value: &str, what: &str| {
            warnings.push(format!("ignoring {name}={value:?}: {what}"));
        };
        let get = |name: &str| get(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        if let Some(v) = get("RANK") {
            match v.parse() {
                Ok(rank) => c.rank = rank,
                Err(_) => warn("RANK", &v, "not a number"),
            }
        }
        if let Some(v) = get("WORLD_SIZE") {
            match v.parse::<u32>() {
                Ok(n) if n > 0 => c.world_size = n,
                _ => warn("WORLD_SIZE", &v, "not a positive number"),
            }
        }
        if c.rank >= c.world_size {
            warnings.push(format!(
                "RANK={} is not below WORLD_SIZE={}: the trace says rank {} of {} as given",
                c.rank, c.world_size, c.rank, c.world_size
            ));
        }
        let mut warn = |name: &str, value: &str, what: &str| {
            warnings.push(format!("ignoring {name}={value:?}: {what}"));
        };
        let rank = c.rank.to_string();
        let expand = |path: &str| {
            PathBuf::from(path.replace("%p", &std::process::id().to_string()).replace("%r", &rank))
        };
        let output = get(vars::OUTPUT).unwrap_or_else(|| "cupti_trace_%p.json".to_owned());
        // Several files: comma-separated (a name with a comma in it cannot be given here).
        let outputs: Vec<&str> = output.split(',').map(str::trim).filter(|o| !o.is_empty()).collect();
        let off =
            outputs.first().is_none_or(|o| matches!(o.to_ascii_lowercase().as_str(), "none" | "off" | "0"));
        c.output = if off { None } else { Some(expand(outputs[0])) };
        c.more_outputs = if off { Vec::new() } else { outputs[1..].iter().map(|o| expand(o)).collect() };
        c.summary_json = get(vars::SUMMARY_JSON).map(|p| expand(&p));
        if let Some(v) = get(vars::KINDS) {
            match ActivityKinds::parse(&v) {
                Ok(kinds) if !kinds.is_empty() => c.activity.kinds = kinds,
                Ok(_) => warn(vars::KINDS, &v, "no kind named"),
                Err(unknown) => warn(vars::KINDS, &v, &format!("unknown kinds {unknown:?}")),
            }
        }
        if let Some(v) = get(vars::API_CALLS) {
            match ApiFilter::parse(&v) {
                Ok(filter) => c.activity.api_filter = filter,
                Err(unknown) => {
                    warn(vars::API_CALLS, &v, &format!("unknown presets or API names {unknown:?}"))
                }
            }
        }
        let mut bounded = Vec::new();
        if let Some(v) = get(vars::BUFFER_SIZE) {
            match parse_bytes(&v) {
                Some(n) if n < 4096 => warn(vars::BUFFER_SIZE, &v, "expected bytes >= 4096, e.g. 8M"),
                Some(n) if n > MAX_BUFFER_SIZE as u128 => {
                    c.activity.buffer_size = MAX_BUFFER_SIZE;
                    bounded.push(format!("{}={v:?} is above the limit: bounded to 1G", vars::BUFFER_SIZE));
                }
                Some(n) => c.activity.buffer_size = n as usize,
                None => warn(vars::BUFFER_SIZE, &v, "expected bytes >= 4096, e.g. 8M"),
            }
        }
        if let Some(v) = get(vars::MAX_BUFFERS) {
            match v.parse::<u128>() {
                Ok(0) | Err(_) => warn(vars::MAX_BUFFERS, &v, "expected a positive number"),
                Ok(n) if n > MAX_BUFFERS as u128 => {
                    c.activity.max_buffers = MAX_BUFFERS;
                    bounded.push(format!(
                        "{}={v:?} is above the limit: bounded to {MAX_BUFFERS}",
                        vars::MAX_BUFFERS
                    ));
                }
                Ok(n) => c.activity.max_buffers = n as usize,
            }
        }
        let pool_bytes = c.activity.buffer_size as u128 * c.activity.max_buffers as u128;
        if pool_bytes > MAX_POOL_BYTES {
            let fit = (MAX_POOL_BYTES / c.activity.buffer_size as u128).max(1) as usize;
            bounded.push(format!(
                "{} x {} buffers would be {} GiB of buffers: bounded to {fit} buffers (64 GiB)",
                c.activity.buffer_size,
                c.activity.max_buffers,
                pool_bytes >> 30
            ));
            c.activity.max_buffers = fit;
        }
        if let Some(v) = get(vars::POLICY) {
            match v.to_ascii_lowercase().as_str() {
                "lossless" => {}
                "lossy" => c.activity.policy = BufferPolicy::Lossy,
                _ => warn(vars::POLICY, &v, "expected lossless or lossy"),
            }
        }
        if let Some(v) = get(vars::FLUSH_PERIOD_MS) {
            match v.parse::<u64>() {
                Ok(0) => c.activity.flush_period = None,
                Ok(ms) => c.activity.flush_period = Some(Duration::from_millis(ms)),
                Err(_) => warn(vars::FLUSH_PERIOD_MS, &v, "expected milliseconds"),
            }
        }
        if let Some(v) = get(vars::SUMMARY) {
            c.summary = !matches!(v.as_str(), "0" | "false" | "off" | "no");
        }
        if let Some(v) = get(vars::SUMMARY_TOP) {
            match v.parse() {
                Ok(n) => c.summary_top = n,
                Err(_) => warn(vars::SUMMARY_TOP, &v, "expected a number"),
            }
        }
        if let Some(v) = get(vars::DEMANGLE) {
            c.demangle = !matches!(v.as_str(), "0" | "false" | "off" | "no");
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
        if let Some(v) = get(vars::PROFILER_RANGE) {
            match parse_switch(&v) {
                Some(on) => c.profiler_range = on,
                None => warn(vars::PROFILER_RANGE, &v, "expected on or off"),
            }
        }
        if let Some(v) = get(vars::SIGNALS) {
            match parse_switch(&v) {
                Some(on) => c.handle_signals = on,
                None => warn(vars::SIGNALS, &v, "expected on or off"),
            }
        }
        if let Some(v) = get(vars::GZIP_LEVEL) {
            match v.parse::<u32>() {
                Ok(level) if level <= 9 => c.gzip_level = level,
                _ => warn(vars::GZIP_LEVEL, &v, "expected 0 to 9"),
            }
        }
        if let Some(v) = get(vars::PENDING_FLOWS) {
            match v.parse::<u32>() {
                Ok(n) if (2..=1 << 24).contains(&n) => c.pending_flows = n as usize,
                _ => warn(vars::PENDING_FLOWS, &v, "expected 2 to 16777216"),
            }
        }
        c.launcher_report = get(vars::LAUNCHER_REPORT).map(PathBuf::from);
        warnings.extend(bounded);
        (c, warnings)
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
            Ok(n) if (libc::SIGRTMIN()..=libc::SIGRTMAX()).contains(&n) => n,
            Ok(n)
                if [libc::SIGUSR1, libc::SIGUSR2, libc::SIGWINCH, libc::SIGURG, libc::SIGHUP]
                    .contains(&n) =>
            {
                n
            }
            _ => return Err("expected USR1, USR2, WINCH, URG, HUP or a real-time signal number"),
        },
    };
    Ok(Some(signal))
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
    use cupti::activity::ActivityKind;

    fn from(pairs: &[(&str, &str)]) -> (TraceConfig, Vec<String>) {
        let pairs: Vec<(String, String)> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        TraceConfig::from_lookup(|name| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    #[test]
    fn variables_are_read_and_bad_values_reported_not_fatal() {
        let (c, warnings) = from(&[
            ("CUPTI_TRACE_OUTPUT", "out_%r.json"),
            ("RANK", "3"),
            ("WORLD_SIZE", "8"),
            ("CUPTI_TRACE_KINDS", "kernel,memcpy"),
            ("CUPTI_TRACE_BUFFER_SIZE", "8M"),
            ("CUPTI_TRACE_POLICY", "lossy"),
            ("CUPTI_TRACE_FLUSH_PERIOD_MS", "50"),
            ("CUPTI_TRACE_SUMMARY_JSON", "sum_%r.json"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(c.output, Some(PathBuf::from("out_3.json")));
        assert_eq!((c.rank, c.world_size), (3, 8));
        assert!(c.activity.kinds.contains(ActivityKind::KERNEL));
        assert_eq!(c.activity.kinds.iter().count(), 2);
        assert_eq!(c.activity.buffer_size, 8 << 20);
        assert_eq!(c.activity.policy, BufferPolicy::Lossy);
        assert_eq!(c.activity.flush_period, Some(Duration::from_millis(50)));
        assert_eq!(c.summary_json, Some(PathBuf::from("sum_3.json")));
        assert_eq!(c.activity.api_filter, ApiFilter::timeline(), "the default records a timeline's calls");

        let (c, warnings) = from(&[
            ("CUPTI_TRACE_OUTPUT", "none"),
            ("CUPTI_TRACE_KINDS", "kernel,bogus"),
            ("CUPTI_TRACE_BUFFER_SIZE", "12"),
        ]);
        assert_eq!(c.output, None);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert_eq!(c.activity.kinds, ActivityKinds::timeline(), "a bad list keeps the default");
        assert_eq!(c.activity.buffer_size, 4 << 20);
        assert_eq!(parse_bytes("64k"), Some(65536));
        assert_eq!(parse_bytes("1GB"), Some(1 << 30));
        assert_eq!(parse_bytes("x"), None);
    }

    #[test]
    fn the_api_calls_setting_picks_the_filter() {
        let (c, warnings) = from(&[("CUPTI_TRACE_API_CALLS", "all")]);
        assert!(warnings.is_empty());
        assert_eq!(c.activity.api_filter, ApiFilter::all());
        let (c, _) = from(&[("CUPTI_TRACE_API_CALLS", "timeline,+cuMemAlloc_v2")]);
        assert!(c.activity.api_filter.records_driver(cupti::DriverCbid::cuMemAlloc_v2));
        assert!(!c.activity.api_filter.records_runtime(cupti::RuntimeCbid::cudaGetDevice_v3020));
        let (c, warnings) = from(&[("CUPTI_TRACE_API_CALLS", "timeline,cuBogus")]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("cuBogus"), "{warnings:?}");
        assert_eq!(c.activity.api_filter, ApiFilter::timeline(), "a bad list keeps the default");
    }

    /// Settings that used to abort the traced program (issue 14): bounded, with a warning each.
    #[test]
    fn sizes_that_would_abort_are_bounded_with_a_warning() {
        let (c, warnings) = from(&[("CUPTI_TRACE_BUFFER_SIZE", "1125899906842624")]);
        assert_eq!(c.activity.buffer_size, MAX_BUFFER_SIZE);
        assert!(
            warnings.iter().any(|w| w.contains("CUPTI_TRACE_BUFFER_SIZE") && w.contains("bounded to 1G")),
            "{warnings:?}"
        );
        // 1 GiB x 16 buffers is within 64 GiB: no second warning.
        assert_eq!((c.activity.max_buffers, warnings.len()), (16, 1), "{warnings:?}");

        for huge in ["1099511627776", "18446744073709551615", "340282366920938463463374607431768211455"] {
            let (c, warnings) = from(&[("CUPTI_TRACE_MAX_BUFFERS", huge)]);
            assert!(warnings.iter().any(|w| w.contains("bounded to 65536")), "{huge}: {warnings:?}");
            // 65,536 buffers of the default 4 MiB would be 256 GiB: bounded again, to 64 GiB of them.
            assert_eq!(c.activity.max_buffers, 16_384, "{huge}");
            assert!(warnings.iter().any(|w| w.contains("bounded to 16384 buffers")), "{huge}: {warnings:?}");
            // The pool the session builds from it is made without overflow or abort.
            let pool = accelprof_core::BufferPool::try_new(c.activity.buffer_size, c.activity.max_buffers);
            assert!(pool.is_ok(), "{huge}");
        }
        let (c, warnings) = from(&[("CUPTI_TRACE_BUFFER_SIZE", "18446744073709551615")]);
        assert_eq!(c.activity.buffer_size, MAX_BUFFER_SIZE);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let (_, warnings) =
            from(&[("CUPTI_TRACE_BUFFER_SIZE", "99999999999999999999999999999999999999999G")]);
        assert!(warnings[0].starts_with("ignoring CUPTI_TRACE_BUFFER_SIZE"), "{warnings:?}");

        // Both at their limits: 64 TiB of buffers is bounded to 64 GiB.
        let (c, warnings) = from(&[("CUPTI_TRACE_BUFFER_SIZE", "1G"), ("CUPTI_TRACE_MAX_BUFFERS", "65536")]);
        assert_eq!((c.activity.buffer_size, c.activity.max_buffers), (1 << 30, 64));
        assert!(warnings.iter().any(|w| w.contains("bounded to 64 buffers")), "{warnings:?}");
        assert!(c.activity.buffer_size as u128 * c.activity.max_buffers as u128 <= MAX_POOL_BYTES);
    }

    #[test]
    fn values_that_are_not_utf8_are_reported_not_dropped_silently() {
        use std::os::unix::ffi::OsStringExt;
        let (c, warnings) = TraceConfig::from_lookup_os(|name| match name {
            "CUPTI_TRACE_OUTPUT" => Some(OsString::from_vec(b"trace-\xff.json".to_vec())),
            "CUPTI_TRACE_KINDS" => Some(OsString::from("kernel")),
            _ => None,
        });
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("CUPTI_TRACE_OUTPUT") && warnings[0].contains("not valid UTF-8"),
            "{warnings:?}"
        );
        assert_eq!(
            c.output,
            Some(PathBuf::from("cupti_trace_%p.json".replace("%p", &std::process::id().to_string())))
        );
        assert_eq!(c.activity.kinds.iter().count(), 1, "the other variables are read");
    }

    #[test]
    fn a_rank_not_below_the_world_size_is_reported() {
        let (c, warnings) = from(&[("RANK", "4"), ("WORLD_SIZE", "4")]);
        assert_eq!((c.rank, c.world_size), (4, 4));
        assert_eq!(warnings, ["RANK=4 is not below WORLD_SIZE=4: the trace says rank 4 of 4 as given"]);
        let (_, warnings) = from(&[("RANK", "3"), ("WORLD_SIZE", "4")]);
        assert!(warnings.is_empty());
        let (_, warnings) = from(&[("RANK", "1")]);
        assert_eq!(warnings.len(), 1, "RANK=1 with no WORLD_SIZE (1): {warnings:?}");
    }

    #[test]
    fn collection_windows_parse() {
        let (c, warnings) = from(&[
            ("CUPTI_TRACE_DELAY", "1500ms"),
            ("CUPTI_TRACE_DURATION", "2m"),
            ("CUPTI_TRACE_TOGGLE_SIGNAL", "SIGUSR2"),
            ("CUPTI_TRACE_PROFILER_RANGE", "on"),
            ("CUPTI_TRACE_SIGNALS", "off"),
            ("CUPTI_TRACE_GZIP_LEVEL", "6"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!((c.delay, c.duration), (Duration::from_millis(1500), Some(Duration::from_secs(120))));
        assert_eq!(c.toggle_signal, Some(libc::SIGUSR2));
        assert!(c.profiler_range && !c.handle_signals);
        assert_eq!(c.gzip_level, 6);
        assert_eq!(parse_duration("0.25"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("1h"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_duration("-1s"), None);
        assert_eq!(parse_duration("5 parsecs"), None);
        assert_eq!(parse_signal("off"), Ok(None));
        assert_eq!(parse_signal("usr1"), Ok(Some(libc::SIGUSR1)));
        assert!(parse_signal("KILL").is_err() && parse_signal("9").is_err() && parse_signal("SEGV").is_err());
        let (c, warnings) = from(&[("CUPTI_TRACE_DELAY", "soon"), ("CUPTI_TRACE_TOGGLE_SIGNAL", "TERM")]);
        assert_eq!((c.delay, c.toggle_signal, warnings.len()), (Duration::ZERO, None, 2));
    }
}
