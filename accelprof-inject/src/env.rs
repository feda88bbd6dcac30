//! The settings a door reads from the environment, until the engine's own
//! (`accel_profiling::settings`, `TracerConfig::from_env`) take their place: this module is the one
//! place they are read.
//!
//! | variable | meaning |
//! | --- | --- |
//! | `ACCELPROF_OUTPUT` | the outputs, comma-separated (`trace.json,trace.parquet`); none: summary only |
//! | `ACCELPROF_VENDOR` | `auto` (or unset), `cupti`, `mspti`, `rocprofiler` (and the names [`Vendor`] reads): a door acts only for its own vendor or `auto`; the Ascend door only when it names MSPTI |
//! | `ACCELPROF_SUMMARY_JSON` | a file the report is written to as JSON at the end |

use std::path::PathBuf;

use accel_profiling::{Output, TracerConfig, Vendor};

/// What the variables ask for.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The tracer's settings (its vendor is the door's).
    pub config: TracerConfig,
    /// The vendor `ACCELPROF_VENDOR` names (`Auto` when unset).
    pub vendor: Vendor,
    /// Where the report goes as JSON at the end.
    pub summary_json: Option<PathBuf>,
}

impl Settings {
    /// From the process's environment.
    pub fn from_env() -> (Settings, Vec<String>) {
        Settings::from_lookup(|name| std::env::var(name).ok())
    }

    /// From `get` (a variable's value, `None` when unset); with what was wrong in them.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> (Settings, Vec<String>) {
        let mut warnings = Vec::new();
        let outputs: Vec<Output> = get("ACCELPROF_OUTPUT")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(Output::from)
            .collect();
        let vendor = match get("ACCELPROF_VENDOR").as_deref().map(str::trim) {
            None | Some("") => Vendor::Auto,
            Some(name) => name.parse().unwrap_or_else(|e| {
                warnings.push(format!("ACCELPROF_VENDOR: {e}; taken as auto"));
                Vendor::Auto
            }),
        };
        let summary_json = get("ACCELPROF_SUMMARY_JSON").filter(|s| !s.is_empty()).map(PathBuf::from);
        let config = TracerConfig { outputs, ..TracerConfig::default() };
        (Settings { config, vendor, summary_json }, warnings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(vars: &[(&str, &str)]) -> (Settings, Vec<String>) {
        Settings::from_lookup(|name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn the_variables_are_read() {
        let (s, warnings) = read(&[
            ("ACCELPROF_OUTPUT", "t.json, t.parquet,,"),
            ("ACCELPROF_VENDOR", "ascend"),
            ("ACCELPROF_SUMMARY_JSON", "s.json"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(s.config.outputs.len(), 2);
        assert_eq!(s.vendor, Vendor::Mspti);
        assert_eq!(s.summary_json, Some(PathBuf::from("s.json")));

        let (s, warnings) = read(&[("ACCELPROF_VENDOR", "opencl")]);
        assert_eq!((s.vendor, s.config.outputs.len(), s.summary_json), (Vendor::Auto, 0, None));
        assert!(warnings[0].contains("ACCELPROF_VENDOR"), "{warnings:?}");
    }
}
