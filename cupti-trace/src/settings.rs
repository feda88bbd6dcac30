//! Every setting of the tracer, once: the environment variable the injected library reads, the launcher's
//! option for it, and what it does. `cupti-trace --help` prints this table, and misspelled variables and
//! options are matched against it.

use crate::config::vars;

/// One setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The environment variable (`CUPTI_TRACE_...`).
    pub var: &'static str,
    /// The launcher's long option (`--output`), which sets the variable for the traced program.
    pub option: &'static str,
    /// The launcher's short option, if any.
    pub short: Option<char>,
    /// What the value looks like.
    pub value: &'static str,
    /// The default, as written in `--help`.
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// The tracer's settings, in `--help` order.
pub const SETTINGS: &[Setting] = &[
    Setting {
        var: vars::OUTPUT,
        option: "--output",
        short: Some('o'),
        value: "PATH",
        default: "cupti_trace_%p.json",
        help: "trace file (%p: process id, %r: rank); .json.gz compresses; .parquet is Parquet, .pftrace \
               Perfetto's protobuf; several at once: repeat the option, or a comma-separated list; `none`: no \
               trace, summary only",
    },
    Setting {
        var: vars::KINDS,
        option: "--kinds",
        short: None,
        value: "LIST",
        default: "default",
        help: "activity kinds: concurrent_kernel, memcpy, memset, runtime, driver, synchronization, \
               external_correlation, overhead, nvtx, cuda_event, memory, kernel (serializes kernels); \
               or default, all",
    },
    Setting {
        var: vars::API_CALLS,
        option: "--api-calls",
        short: None,
        value: "LIST",
        default: "timeline",
        help: "which runtime/driver calls CUPTI records: timeline (Kineto's: no cudaGetDevice and the like, \
               driver launches only), all, none; then +name or -name per call, runtime:all, driver:none",
    },
    Setting {
        var: vars::BUFFER_SIZE,
        option: "--buffer-size",
        short: None,
        value: "BYTES",
        default: "4M",
        help: "bytes per CUPTI buffer (K, M, G suffixes; 4K to 1G)",
    },
    Setting {
        var: vars::MAX_BUFFERS,
        option: "--max-buffers",
        short: None,
        value: "N",
        default: "16",
        help: "pool buffers in flight at most (1 to 65536; bounded also to 64 GiB of buffers in all)",
    },
    Setting {
        var: vars::POLICY,
        option: "--policy",
        short: None,
        value: "lossless|lossy",
        default: "lossless",
        help: "when every buffer is in flight: lossless takes up to 64 extra buffers, then makes the program wait \
               for the decoding (nothing dropped unless it stalls 5 s); lossy drops (counted)",
    },
    Setting {
        var: vars::FLUSH_PERIOD_MS,
        option: "--flush-period-ms",
        short: None,
        value: "MS",
        default: "1000",
        help:
            "hand CUPTI's completed buffers over (and stream them to the trace) this often; 0: only when full",
    },
    Setting {
        var: vars::DELAY,
        option: "--delay",
        short: None,
        value: "TIME",
        default: "0",
        help: "start collecting this long after CUDA starts (e.g. 30s, 1500ms, 2m)",
    },
    Setting {
        var: vars::DURATION,
        option: "--duration",
        short: None,
        value: "TIME",
        default: "off",
        help: "stop collecting this long after collection started and write the trace (the program runs on)",
    },
    Setting {
        var: vars::TOGGLE_SIGNAL,
        option: "--toggle-signal",
        short: None,
        value: "SIGNAL",
        default: "off",
        help: "a signal that pauses and resumes collection (e.g. USR2: `kill -USR2 <pid>`)",
    },
    Setting {
        var: vars::PROFILER_RANGE,
        option: "--profiler-range",
        short: None,
        value: "on|off",
        default: "off",
        help: "collect only between cudaProfilerStart and cudaProfilerStop (torch.cuda.profiler.start/stop)",
    },
    Setting {
        var: vars::SIGNALS,
        option: "--signals",
        short: None,
        value: "on|off",
        default: "on",
        help: "on SIGINT, SIGTERM or SIGHUP that would kill the program: finish the trace and the summary, \
               then die of the signal as it would have",
    },
    Setting {
        var: vars::SUMMARY,
        option: "--summary",
        short: None,
        value: "on|off",
        default: "on",
        help: "print the per-kernel summary at exit (stderr)",
    },
    Setting {
        var: vars::SUMMARY_TOP,
        option: "--summary-top",
        short: None,
        value: "N",
        default: "20",
        help: "rows of that summary",
    },
    Setting {
        var: vars::SUMMARY_JSON,
        option: "--summary-json",
        short: None,
        value: "PATH",
        default: "off",
        help: "also write the summary as JSON (%p, %r as for --output)",
    },
    Setting {
        var: vars::DEMANGLE,
        option: "--demangle",
        short: None,
        value: "on|off",
        default: "on",
        help: "kernel names as PyTorch's profiler shows them (the C++ runtime's __cxa_demangle)",
    },
    Setting {
        var: vars::GZIP_LEVEL,
        option: "--gzip-level",
        short: None,
        value: "0-9",
        default: "1",
        help: "compression level of a .json.gz trace",
    },
    Setting {
        var: vars::PENDING_FLOWS,
        option: "--pending-flows",
        short: None,
        value: "N",
        default: "131072",
        help: "correlation ids whose launch -> kernel arrow may still be waiting for its other end",
    },
    Setting {
        var: vars::LIBRARY,
        option: "--lib",
        short: None,
        value: "PATH",
        default: "libcupti_trace.so next to cupti-trace",
        help: "the tracer library the CUDA driver loads (CUDA_INJECTION64_PATH)",
    },
    Setting {
        var: vars::SHARE,
        option: "--share",
        short: None,
        value: "on|off",
        default: "on",
        help: "preload libcupti_shim.so so that the program's own CUPTI client (PyTorch's profiler) and \
               the tracer both get every record (off: the launcher leaves it out)",
    },
];

/// Variables read by the tracer that are not user settings (the launcher sets them).
pub const INTERNAL_VARS: &[&str] = &[vars::LAUNCHER_REPORT];

/// The setting of an environment variable.
pub fn by_var(var: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.var == var)
}

/// The setting of a long option (`--output`) or short one (`-o`).
pub fn by_option(option: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| {
        s.option == option
            || s.short.is_some_and(|c| option.len() == 2 && option.ends_with(c) && option.starts_with('-'))
    })
}

/// Edit distance between two names (insertions, deletions, substitutions), case-insensitive.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) =
        (a.to_ascii_lowercase().chars().collect(), b.to_ascii_lowercase().chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The known name closest to `name` among `candidates`, when it is close enough to be a typo (at most a
/// third of its length away, or one is a prefix of the other).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let lower = name.to_ascii_lowercase();
    // An abbreviation of exactly one name (`--dur` for `--duration`).
    let mut prefixed = candidates.iter().filter(|c| c.to_ascii_lowercase().starts_with(&lower));
    if let (Some(only), None) = (prefixed.next(), prefixed.next()) {
        return Some(only);
    }
    let (d, best) = candidates.iter().map(|c| (distance(name, c), *c)).min_by_key(|(d, _)| *d)?;
    (d <= name.len().max(3) / 3).then_some(best)
}

/// Whether an environment variable's name looks like one of ours: it starts with `CUPTI_TRACE`, in any
/// case (`cupti_trace_output` is a typo of `CUPTI_TRACE_OUTPUT`, not someone else's variable).
fn looks_like_ours(name: &str) -> bool {
    name.get(..PREFIX.len()).is_some_and(|p| p.eq_ignore_ascii_case(PREFIX))
}

const PREFIX: &str = "CUPTI_TRACE";

/// A warning for each variable among `names` that looks like the tracer's (`CUPTI_TRACE...`, in any case)
/// but is not one it reads, naming the closest known one.
pub fn unknown_variables<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let known = || SETTINGS.iter().map(|s| s.var).chain(INTERNAL_VARS.iter().copied());
    names
        .into_iter()
        .filter(|n| looks_like_ours(n) && !known().any(|k| k == *n))
        .map(|n| match closest(n, SETTINGS.iter().map(|s| s.var)) {
            Some(near) if near.eq_ignore_ascii_case(n) => {
                format!("unknown variable {n} ignored: did you mean {near}? (names are case-sensitive)")
            }
            Some(near) => format!("unknown variable {n} ignored: did you mean {near}?"),
            None => format!("unknown variable {n} ignored (cupti-trace --help lists the settings)"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_setting() {
        assert_eq!(closest("CUPTI_TRACE_OUTPTU", SETTINGS.iter().map(|s| s.var)), Some(vars::OUTPUT));
        assert_eq!(
            closest("CUPTI_TRACE_BUFER_SIZE", SETTINGS.iter().map(|s| s.var)),
            Some(vars::BUFFER_SIZE)
        );
        assert_eq!(closest("--ouptut", SETTINGS.iter().map(|s| s.option)), Some("--output"));
        assert_eq!(closest("--dur", SETTINGS.iter().map(|s| s.option)), Some("--duration"));
        assert_eq!(closest("--zzzzzzzzzzzz", SETTINGS.iter().map(|s| s.option)), None);
        let warnings =
            unknown_variables(["CUPTI_TRACE_KIND", "CUPTI_TRACE_KINDS", "PATH", vars::LAUNCHER_REPORT]);
        assert_eq!(warnings, ["unknown variable CUPTI_TRACE_KIND ignored: did you mean CUPTI_TRACE_KINDS?"]);
    }

    /// A lowercase or mixed-case variable (a typo of ours) was passed over without a word.
    #[test]
    fn variables_that_look_like_ours_in_any_case_are_warned_about() {
        let warnings = unknown_variables([
            "cupti_trace_output",
            "cupti_trace_outpt",
            "Cupti_Trace_Kinds",
            "CUPTI_TRACE_OUTPT",
            "CUPTI_TRACEOUTPUT",
            "CUPTI_TRACE_OUTPUT",
            "CUPTI_TRACER_HOME_OF_SOMEONE_ELSE_ENTIRELY",
            "MY_CUPTI_TRACE_OUTPUT",
            "cupti",
        ]);
        assert_eq!(
            warnings,
            [
                "unknown variable cupti_trace_output ignored: did you mean CUPTI_TRACE_OUTPUT? (names are \
                 case-sensitive)",
                "unknown variable cupti_trace_outpt ignored: did you mean CUPTI_TRACE_OUTPUT?",
                "unknown variable Cupti_Trace_Kinds ignored: did you mean CUPTI_TRACE_KINDS? (names are \
                 case-sensitive)",
                "unknown variable CUPTI_TRACE_OUTPT ignored: did you mean CUPTI_TRACE_OUTPUT?",
                "unknown variable CUPTI_TRACEOUTPUT ignored: did you mean CUPTI_TRACE_OUTPUT?",
                "unknown variable CUPTI_TRACER_HOME_OF_SOMEONE_ELSE_ENTIRELY ignored (cupti-trace --help lists \
                 the settings)",
            ]
        );
    }

    #[test]
    fn names_are_unique_and_options_look_like_options() {
        for (i, a) in SETTINGS.iter().enumerate() {
            assert!(a.var.starts_with("CUPTI_TRACE_") && a.option.starts_with("--"), "{a:?}");
            for b in &SETTINGS[i + 1..] {
                assert!(a.var != b.var && a.option != b.option && (a.short.is_none() || a.short != b.short));
            }
            assert_eq!(by_var(a.var), Some(a));
            assert_eq!(by_option(a.option), Some(a));
        }
        assert_eq!(by_option("-o").map(|s| s.var), Some(vars::OUTPUT));
    }

    /// Every variable the configuration defines is in the table (so `--help` lists it): read from the
    /// source of `config::vars`, so that a setting added there without a row here fails.
    #[test]
    fn every_variable_of_the_configuration_is_listed() {
        let source = include_str!("config.rs");
        let defined: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub const "))
            .filter_map(|l| l.split('"').nth(1))
            .filter(|v| v.starts_with("CUPTI_TRACE_"))
            .collect();
        assert!(defined.len() >= SETTINGS.len(), "{defined:?}");
        for var in defined {
            assert!(by_var(var).is_some() || INTERNAL_VARS.contains(&var), "{var} has no row in SETTINGS");
        }
    }
}
