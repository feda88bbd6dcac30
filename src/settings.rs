//! Every setting of the tracer, once, for every front end: the environment variable a front door
//! (the CUDA injection library, the rocprofiler-sdk tool library, the Ascend preload) reads, the
//! launcher's option for it, and what it does. The launcher's `--help` prints this table, and
//! misspelled variables and options are matched against it. [`TracerConfig::from_env`] reads them.
//!
//! [`TracerConfig::from_env`]: crate::TracerConfig::from_env

pub use crate::tracer::{parse_duration, parse_families, parse_signal, DEFAULT_OUTPUT};

/// Environment variables the tracer reads (all optional). A variable that only one vendor can honour
/// says so in its name (`ACCELPROF_CUDA_...`).
pub mod vars {
    /// Trace files, a comma-separated list (`%p` process id, `%r` rank, `%l` local rank); each in its
    /// name's format (`.json`, `.json.gz`, `.parquet`, `.pftrace`); `none` writes no trace (summary
    /// only). Default `accelprof_%p.json` in the working directory.
    pub const OUTPUT: &str = "ACCELPROF_OUTPUT";
    /// Comma-separated record families (`kernel`, `memcpy`, `memset`, `api`, `marker`, `collective`,
    /// `memory`, `sync`, `external_correlation`), or `common` (default) / `all`.
    pub const FAMILIES: &str = "ACCELPROF_FAMILIES";
    /// Start collecting this long after the tracer starts (`30s`, `1500ms`, `2m`; a plain number is
    /// seconds).
    pub const DELAY: &str = "ACCELPROF_DELAY";
    /// Stop collecting this long after collection started, and finish the outputs (the program runs on).
    pub const DURATION: &str = "ACCELPROF_DURATION";
    /// A signal that pauses and resumes collection (`USR1`, `USR2`, `WINCH`, `URG`, `HUP`, or a
    /// real-time signal number); `off` by default.
    pub const TOGGLE_SIGNAL: &str = "ACCELPROF_TOGGLE_SIGNAL";
    /// `profiler-api`: collect only between the program's profiler start and stop calls
    /// (`cudaProfilerStart`/`Stop` on CUDA, `roctxProfilerResume`/`Pause` on ROCm; MSPTI has none:
    /// the tracer does not start there); `none` (default).
    pub const CAPTURE_RANGE: &str = "ACCELPROF_CAPTURE_RANGE";
    /// `off`: leave SIGINT, SIGTERM and SIGHUP alone (by default, one that would kill the program first
    /// finishes the outputs, then kills it as it would have).
    pub const SIGNALS: &str = "ACCELPROF_SIGNALS";
    /// `off` to print no kernel summary at the end (default: printed to stderr).
    pub const SUMMARY: &str = "ACCELPROF_SUMMARY";
    /// Rows of the kernel summary (default 20).
    pub const SUMMARY_TOP: &str = "ACCELPROF_SUMMARY_TOP";
    /// Also write the summary as JSON to this path (`%p` / `%r` as for the output).
    pub const SUMMARY_JSON: &str = "ACCELPROF_SUMMARY_JSON";
    /// `off` to keep kernel names mangled (default: demangled where the vendor reports them mangled).
    pub const DEMANGLE: &str = "ACCELPROF_DEMANGLE";
    /// Compression level (0-9) of a `.json.gz` trace (default 1).
    pub const GZIP_LEVEL: &str = "ACCELPROF_GZIP_LEVEL";
    /// Correlation ids whose launch -> kernel arrow may wait for its other end in a Chrome trace
    /// (default 131072).
    pub const PENDING_FLOWS: &str = "ACCELPROF_PENDING_FLOWS";
    /// Bytes per vendor buffer (`K`/`M`/`G` suffixes). Default: the vendor crate's.
    pub const BUFFER_SIZE: &str = "ACCELPROF_BUFFER_SIZE";
    /// Most pool buffers at once. Default: the vendor crate's.
    pub const MAX_BUFFERS: &str = "ACCELPROF_MAX_BUFFERS";
    /// `lossless` (default) or `lossy`: what happens when every buffer is in flight (CUPTI; the other
    /// vendors' sessions have one policy each, see the vendor notes).
    pub const POLICY: &str = "ACCELPROF_POLICY";
    /// Hand the vendor's completed buffers over every N ms (default 1000; `0`: only when full).
    pub const FLUSH_PERIOD_MS: &str = "ACCELPROF_FLUSH_PERIOD_MS";
    /// `cupti`, `rocprofiler`, `mspti` or `auto` (default): whose library to trace with.
    pub const VENDOR: &str = "ACCELPROF_VENDOR";
    /// This exact vendor library file (needs `ACCELPROF_VENDOR`).
    pub const LIBRARY: &str = "ACCELPROF_LIBRARY";
    /// CUPTI only: which runtime and driver calls are recorded: `timeline` (default: what PyTorch's
    /// profiler shows), `all`, `none`, and changes to them: `timeline,+cuMemAlloc_v2,-cudaMemsetAsync`.
    pub const CUDA_API_CALLS: &str = "ACCELPROF_CUDA_API_CALLS";
    /// CUPTI only: where `ACCELPROF_CUDA_API_CALLS` applies: `cupti` (default: each call left out is
    /// disabled in CUPTI by its id) or `decode` (Kineto's way: CUPTI records every call but four, the
    /// decoder drops the rest, counted as filtered).
    pub const CUDA_API_FILTER_AT: &str = "ACCELPROF_CUDA_API_FILTER_AT";
    /// The launcher's: the front-door library it has the vendor runtime load (default: the one next to
    /// the `accelprof` executable).
    pub const INJECT_LIBRARY: &str = "ACCELPROF_INJECT_LIBRARY";
    /// The launcher's, CUDA only: `off` leaves the CUPTI sharing shim (`libcupti_shim.so`) out of the
    /// program's `LD_PRELOAD` (default `on`).
    pub const CUDA_SHARE: &str = "ACCELPROF_CUDA_SHARE";
    /// The launcher's: the CUPTI sharing shim it preloads (default: the one it carries, or the one
    /// next to the `accelprof` executable).
    pub const SHIM_LIBRARY: &str = "ACCELPROF_SHIM_LIBRARY";
    /// Set by the launcher: its private report directory (mode 0700, see [`crate::launcher`]), where
    /// each traced process appends its lines to its own file and claims its output names.
    pub const LAUNCHER_REPORT: &str = "ACCELPROF_LAUNCHER_REPORT";
}

/// One setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The environment variable (`ACCELPROF_...`).
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
        default: "accelprof_%p.json",
        help: "trace file (%p: process id, %r: rank); .json.gz compresses; .parquet is Parquet, .pftrace \
               Perfetto's protobuf (extensions in any case); several at once: repeat the option, or a \
               comma-separated list; `none`, alone: no trace, summary only",
    },
    Setting {
        var: vars::FAMILIES,
        option: "--families",
        short: None,
        value: "LIST",
        default: "common",
        help: "record families: kernel, memcpy, memset, api, marker, collective, memory, sync, \
               external_correlation; or common, all",
    },
    Setting {
        var: vars::VENDOR,
        option: "--vendor",
        short: None,
        value: "NAME",
        default: "auto",
        help: "whose library traces: cupti, rocprofiler, mspti, or auto (whichever the machine has)",
    },
    Setting {
        var: vars::LIBRARY,
        option: "--vendor-lib",
        short: None,
        value: "PATH",
        default: "the vendor's search",
        help: "this exact vendor library file (needs --vendor)",
    },
    Setting {
        var: vars::CUDA_API_CALLS,
        option: "--cuda-api-calls",
        short: None,
        value: "LIST",
        default: "timeline",
        help:
            "CUPTI only: which runtime/driver calls are recorded: timeline (Kineto's: no cudaGetDevice and \
               the like, driver launches only), all, none; then +name or -name per call",
    },
    Setting {
        var: vars::CUDA_API_FILTER_AT,
        option: "--cuda-api-filter-at",
        short: None,
        value: "WHERE",
        default: "decode",
        help: "CUPTI only: where --cuda-api-calls applies: cupti (each call left out disabled in CUPTI) or \
               decode (Kineto's way: CUPTI records every call but four, the decoder drops the rest, counted)",
    },
    Setting {
        var: vars::BUFFER_SIZE,
        option: "--buffer-size",
        short: None,
        value: "BYTES",
        default: "the vendor crate's",
        help:
            "bytes per vendor buffer (K, M, G suffixes; 512 to 1G; rocprofiler-sdk's buffer is 4K at least)",
    },
    Setting {
        var: vars::MAX_BUFFERS,
        option: "--max-buffers",
        short: None,
        value: "N",
        default: "the vendor crate's",
        help: "pool buffers in flight at most (1 to 65536; bounded also to 64 GiB of buffers in all)",
    },
    Setting {
        var: vars::POLICY,
        option: "--policy",
        short: None,
        value: "lossless|lossy",
        default: "lossless",
        help: "CUPTI: when every buffer is in flight, lossless takes extra buffers, then makes the program \
               wait for the decoding; lossy drops (counted)",
    },
    Setting {
        var: vars::FLUSH_PERIOD_MS,
        option: "--flush-period-ms",
        short: None,
        value: "MS",
        default: "1000",
        help: "hand the vendor's completed buffers over (and stream them to the trace) this often; 0: only \
               when full",
    },
    Setting {
        var: vars::DELAY,
        option: "--delay",
        short: None,
        value: "TIME",
        default: "0",
        help: "start collecting this long after the tracer starts (e.g. 30s, 1500ms, 2m)",
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
        var: vars::CAPTURE_RANGE,
        option: "--capture-range",
        short: None,
        value: "none|profiler-api",
        default: "none",
        help: "profiler-api: collect only between the program's profiler start and stop calls \
               (cudaProfilerStart/Stop, torch.cuda.profiler.start/stop; roctxProfilerResume/Pause); a vendor \
               that cannot (MSPTI) is an error",
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
        help: "print the per-kernel summary at the end (stderr)",
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
        var: vars::INJECT_LIBRARY,
        option: "--lib",
        short: None,
        value: "PATH",
        default: "the front-door library next to accelprof",
        help: "the tracer library the vendor runtime loads",
    },
    Setting {
        var: vars::CUDA_SHARE,
        option: "--cuda-share",
        short: None,
        value: "on|off",
        default: "on",
        help: "CUDA only: preload libcupti_shim.so so that the program's own CUPTI client (PyTorch's \
               profiler) and the tracer both get every record (off: the launcher leaves it out)",
    },
];

/// Variables that are not the tracer's settings: set by the launcher for the tracer, or read by the
/// launcher alone (not in `--help`'s options).
pub const INTERNAL_VARS: &[&str] = &[vars::LAUNCHER_REPORT, vars::SHIM_LIBRARY];

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

const PREFIX: &str = "ACCELPROF";

/// Whether an environment variable's name looks like one of ours: it starts with `ACCELPROF`, in any
/// case (`accelprof_output` is a typo of `ACCELPROF_OUTPUT`, not someone else's variable).
fn looks_like_ours(name: &str) -> bool {
    name.get(..PREFIX.len()).is_some_and(|p| p.eq_ignore_ascii_case(PREFIX))
}

/// Prefixes of the variables of this workspace's own build and test machinery that share the
/// tracer's prefix: the mocks' paths (set by cargo for tests), the mocks' build switches (CI sets
/// `ACCELPROF_MOCKS_CLIPPY` for the whole run, so every traced test program sees it), the stress
/// tests' knobs and the command's build-time overrides. Not typos of a setting.
const BUILD_VARIABLE_PREFIXES: &[&str] =
    &["ACCELPROF_MOCK_", "ACCELPROF_MOCKS_", "ACCELPROF_STRESS_", "ACCELPROF_EMBED_"];

/// Whole names of the build and test machinery's variables (generated sources' directories, the
/// real-library and installed-command tests' switches).
const BUILD_VARIABLES: &[&str] = &[
    "ACCELPROF_CUPTI_GENERATED",
    "ACCELPROF_ROCPROFILER_GENERATED",
    "ACCELPROF_REAL_MSPTI",
    "ACCELPROF_INSTALLED",
];

/// Variables of this workspace's own build and test machinery, or read by a lower layer (the
/// callback table's `ACCELPROF_NO_MEMBARRIER`): not typos of a setting.
fn is_build_variable(name: &str) -> bool {
    BUILD_VARIABLE_PREFIXES.iter().any(|p| name.starts_with(p))
        || BUILD_VARIABLES.contains(&name)
        || name == accelprof_core::callback::rcu::NO_MEMBARRIER_VAR
}

/// The prefix of the variables of `cupti-trace`'s own tracer, retired (issue 18): none is read.
pub const RETIRED_PREFIX: &str = "CUPTI_TRACE_";

/// Each variable of `cupti-trace`'s retired tracer and what to set instead. They are not read as
/// aliases: several took other values than their successors (`CUPTI_TRACE_KINDS` named CUPTI activity
/// kinds, `CUPTI_TRACE_PROFILER_RANGE` was `on|off`) or had other defaults.
pub const RETIRED_VARS: &[(&str, &str)] = &[
    ("CUPTI_TRACE_OUTPUT", vars::OUTPUT),
    ("CUPTI_TRACE_KINDS", "ACCELPROF_FAMILIES (record families: kernel, memcpy, memset, api, ...)"),
    ("CUPTI_TRACE_API_CALLS", vars::CUDA_API_CALLS),
    ("CUPTI_TRACE_BUFFER_SIZE", vars::BUFFER_SIZE),
    ("CUPTI_TRACE_MAX_BUFFERS", vars::MAX_BUFFERS),
    ("CUPTI_TRACE_POLICY", vars::POLICY),
    ("CUPTI_TRACE_FLUSH_PERIOD_MS", vars::FLUSH_PERIOD_MS),
    ("CUPTI_TRACE_SUMMARY", vars::SUMMARY),
    ("CUPTI_TRACE_SUMMARY_TOP", vars::SUMMARY_TOP),
    ("CUPTI_TRACE_SUMMARY_JSON", vars::SUMMARY_JSON),
    ("CUPTI_TRACE_DEMANGLE", vars::DEMANGLE),
    ("CUPTI_TRACE_DELAY", vars::DELAY),
    ("CUPTI_TRACE_DURATION", vars::DURATION),
    ("CUPTI_TRACE_TOGGLE_SIGNAL", vars::TOGGLE_SIGNAL),
    ("CUPTI_TRACE_PROFILER_RANGE", "ACCELPROF_CAPTURE_RANGE=profiler-api"),
    ("CUPTI_TRACE_SIGNALS", vars::SIGNALS),
    ("CUPTI_TRACE_GZIP_LEVEL", vars::GZIP_LEVEL),
    ("CUPTI_TRACE_PENDING_FLOWS", vars::PENDING_FLOWS),
    ("CUPTI_TRACE_LIBRARY", vars::INJECT_LIBRARY),
    ("CUPTI_TRACE_SHARE", vars::CUDA_SHARE),
    ("CUPTI_TRACE_LAUNCHER_REPORT", "accelprof trace (the launcher sets ACCELPROF_LAUNCHER_REPORT)"),
];

/// The message for a variable of `cupti-trace`'s retired tracer (`CUPTI_TRACE_*`), naming what to
/// set instead; `None` for any other name.
pub fn retired_variable(name: &str) -> Option<String> {
    if !name.starts_with(RETIRED_PREFIX) {
        return None;
    }
    Some(match RETIRED_VARS.iter().find(|(old, _)| *old == name) {
        Some((_, new)) => {
            format!("{name} is no longer read (cupti-trace's own tracer is gone): use {new}")
        }
        None => format!(
            "{name} is no longer read (cupti-trace's own tracer is gone; accelprof --help lists the \
             ACCELPROF_* settings)"
        ),
    })
}

/// A warning for each variable among `names` that looks like the tracer's (`ACCELPROF...`, in any case)
/// but is not one it reads, naming the closest known one, and for each variable of `cupti-trace`'s
/// retired tracer (`CUPTI_TRACE_*`, [`retired_variable`]).
pub fn unknown_variables<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let known = || SETTINGS.iter().map(|s| s.var).chain(INTERNAL_VARS.iter().copied());
    let names: Vec<&str> = names.into_iter().collect();
    let retired = names.iter().filter_map(|n| retired_variable(n));
    let unknown = names
        .iter()
        .filter(|n| looks_like_ours(n) && !is_build_variable(n) && !known().any(|k| k == **n))
        .map(|n| match closest(n, SETTINGS.iter().map(|s| s.var)) {
            Some(near) if near.eq_ignore_ascii_case(n) => {
                format!("unknown variable {n} ignored: did you mean {near}? (names are case-sensitive)")
            }
            Some(near) => format!("unknown variable {n} ignored: did you mean {near}?"),
            None => format!("unknown variable {n} ignored (accelprof --help lists the settings)"),
        });
    retired.chain(unknown).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CI exports `ACCELPROF_MOCKS_CLIPPY` for the whole run: a traced test program saw it and the
    /// engine warned about an unknown setting.
    #[test]
    fn the_build_and_test_variables_are_not_unknown_settings() {
        let names = [
            "ACCELPROF_MOCKS_CLIPPY",
            "ACCELPROF_MOCKS_SANITIZER",
            "ACCELPROF_MOCK_CUPTI",
            "ACCELPROF_STRESS_ITERS",
            "ACCELPROF_EMBED_INJECT",
            "ACCELPROF_CUPTI_GENERATED",
            "ACCELPROF_REAL_MSPTI",
            "ACCELPROF_NO_MEMBARRIER",
        ];
        assert_eq!(unknown_variables(names), Vec::<String>::new());
        // The prefixes are whole words: a typo next to them is still one.
        assert_eq!(unknown_variables(["ACCELPROF_MOCKSCLIPPY"]).len(), 1);
    }

    /// Issue 18: `cupti-trace`'s tracer is gone; a user's `CUPTI_TRACE_OUTPUT` must not be ignored
    /// without a word (the engine never read it and said nothing).
    #[test]
    fn variables_of_the_retired_cupti_trace_are_refused_naming_their_successor() {
        let warnings = unknown_variables([
            "CUPTI_TRACE_OUTPUT",
            "CUPTI_TRACE_PROFILER_RANGE",
            "CUPTI_TRACE_NO_SUCH",
            "CUPTI_LIBRARY_PATH",
            "PATH",
        ]);
        assert_eq!(
            warnings,
            [
                "CUPTI_TRACE_OUTPUT is no longer read (cupti-trace's own tracer is gone): use ACCELPROF_OUTPUT",
                "CUPTI_TRACE_PROFILER_RANGE is no longer read (cupti-trace's own tracer is gone): use \
                 ACCELPROF_CAPTURE_RANGE=profiler-api",
                "CUPTI_TRACE_NO_SUCH is no longer read (cupti-trace's own tracer is gone; accelprof --help lists \
                 the ACCELPROF_* settings)",
            ]
        );
        // Every successor named is a setting (or the launcher's own variable).
        for (old, new) in RETIRED_VARS {
            let var = new.split([' ', '=']).next().unwrap();
            assert!(
                by_var(var).is_some() || old.ends_with("LAUNCHER_REPORT"),
                "{old}: {new} is not a setting"
            );
        }
    }

    #[test]
    fn typos_find_their_setting() {
        assert_eq!(closest("ACCELPROF_OUTPTU", SETTINGS.iter().map(|s| s.var)), Some(vars::OUTPUT));
        assert_eq!(closest("ACCELPROF_BUFER_SIZE", SETTINGS.iter().map(|s| s.var)), Some(vars::BUFFER_SIZE));
        assert_eq!(closest("--ouptut", SETTINGS.iter().map(|s| s.option)), Some("--output"));
        assert_eq!(closest("--dur", SETTINGS.iter().map(|s| s.option)), Some("--duration"));
        assert_eq!(closest("--zzzzzzzzzzzz", SETTINGS.iter().map(|s| s.option)), None);
        let warnings =
            unknown_variables(["ACCELPROF_FAMILY", "ACCELPROF_FAMILIES", "PATH", vars::LAUNCHER_REPORT]);
        assert_eq!(warnings, ["unknown variable ACCELPROF_FAMILY ignored: did you mean ACCELPROF_FAMILIES?"]);
    }

    #[test]
    fn variables_that_look_like_ours_in_any_case_are_warned_about() {
        let warnings = unknown_variables([
            "accelprof_output",
            "Accelprof_Families",
            "ACCELPROF_OUTPT",
            "ACCELPROF_OUTPUT",
            "ACCELPROF_MOCK_CUPTI",
            "MY_ACCELPROF_OUTPUT",
            "accel",
        ]);
        assert_eq!(
            warnings,
            [
                "unknown variable accelprof_output ignored: did you mean ACCELPROF_OUTPUT? (names are \
                 case-sensitive)",
                "unknown variable Accelprof_Families ignored: did you mean ACCELPROF_FAMILIES? (names are \
                 case-sensitive)",
                "unknown variable ACCELPROF_OUTPT ignored: did you mean ACCELPROF_OUTPUT?",
            ]
        );
    }

    #[test]
    fn names_are_unique_and_options_look_like_options() {
        for (i, a) in SETTINGS.iter().enumerate() {
            assert!(a.var.starts_with("ACCELPROF_") && a.option.starts_with("--"), "{a:?}");
            for b in &SETTINGS[i + 1..] {
                assert!(a.var != b.var && a.option != b.option && (a.short.is_none() || a.short != b.short));
            }
            assert_eq!(by_var(a.var), Some(a));
            assert_eq!(by_option(a.option), Some(a));
        }
        assert_eq!(by_option("-o").map(|s| s.var), Some(vars::OUTPUT));
    }

    /// Every variable `vars` defines is in the table (so `--help` lists it) or is internal: read from
    /// this file's source, so that a variable added without a row fails.
    #[test]
    fn every_variable_is_listed() {
        let source = include_str!("settings.rs");
        let defined: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub const "))
            .filter_map(|l| l.split('"').nth(1))
            .filter(|v| v.starts_with("ACCELPROF_"))
            .collect();
        assert!(defined.len() >= SETTINGS.len(), "{defined:?}");
        for var in defined {
            assert!(by_var(var).is_some() || INTERNAL_VARS.contains(&var), "{var} has no row in SETTINGS");
        }
    }
}
