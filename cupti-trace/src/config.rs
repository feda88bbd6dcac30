//! The tracer's settings, read from environment variables.

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
    /// `lossless` (default: extra buffers beyond the pool while decoding lags) or `lossy`.
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
}

/// What the tracer does.
#[derive(Clone, Debug)]
pub struct TraceConfig {
    /// Where the trace goes (`None`: no trace file).
    pub output: Option<PathBuf>,
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
}

impl Default for TraceConfig {
    /// Trace to `cupti_trace_%p.json`, summary of 20 rows, demangled names; the activity session's defaults
    /// except a shorter final fence (5 s: the process is exiting) and the API calls of a timeline
    /// ([`ApiFilter::timeline`]).
    fn default() -> Self {
        TraceConfig {
            output: Some(PathBuf::from("cupti_trace_%p.json")),
            activity: ActivityConfig {
                fence_timeout: Duration::from_secs(5),
                api_filter: ApiFilter::timeline(),
                ..ActivityConfig::default()
            },
            summary: true,
            summary_top: 20,
            demangle: true,
            summary_json: None,
            rank: 0,
            world_size: 1,
        }
    }
}

impl TraceConfig {
    /// The configuration the environment asks for. Values that do not parse are reported in the returned
    /// warnings and replaced by their defaults: a typo never stops the traced program.
    pub fn from_env() -> (TraceConfig, Vec<String>) {
        TraceConfig::from_lookup(|name| std::env::var(name).ok())
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
        let rank = c.rank.to_string();
        let expand = |path: &str| {
            PathBuf::from(path.replace("%p", &std::process::id().to_string()).replace("%r", &rank))
        };
        let output = get(vars::OUTPUT).unwrap_or_else(|| "cupti_trace_%p.json".to_owned());
        c.output = match output.to_ascii_lowercase().as_str() {
            "none" | "off" | "0" => None,
            _ => Some(expand(&output)),
        };
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
        if let Some(v) = get(vars::BUFFER_SIZE) {
            match parse_bytes(&v) {
                Some(n) if n >= 4096 => c.activity.buffer_size = n,
                _ => warn(vars::BUFFER_SIZE, &v, "expected bytes >= 4096, e.g. 8M"),
            }
        }
        if let Some(v) = get(vars::MAX_BUFFERS) {
            match v.parse::<usize>() {
                Ok(n) if n > 0 => c.activity.max_buffers_in_flight = n,
                _ => warn(vars::MAX_BUFFERS, &v, "expected a positive number"),
            }
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
        (c, warnings)
    }
}

/// `4096`, `64K`, `8M`, `1G` (binary units).
fn parse_bytes(v: &str) -> Option<usize> {
    let v = v.trim().to_ascii_uppercase();
    let v = v.strip_suffix('B').unwrap_or(&v);
    let (digits, shift) = match v.chars().last()? {
        'K' => (&v[..v.len() - 1], 10),
        'M' => (&v[..v.len() - 1], 20),
        'G' => (&v[..v.len() - 1], 30),
        _ => (v, 0),
    };
    digits.trim().parse::<usize>().ok()?.checked_mul(1 << shift)
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
}
