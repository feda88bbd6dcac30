//! The report's command-line options, one parser for `accelprof-analyze analyze` and `accelprof analyze`.

use crate::{KernelRules, Options};

/// How a report is made and shown: the analyses' [`Options`] and the output's form.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The analyses' options (`--rules`, `--no-memory-kernels`, `--hta-window`, `--memory-limit`).
    pub options: Options,
    /// The report as JSON (`--json`) rather than tables.
    pub json: bool,
    /// Kernels per rank in the tables (`--top`, default 15).
    pub top: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions { options: Options::default(), json: false, top: 15 }
    }
}

impl ReportOptions {
    /// The options [`take`](Self::take) knows.
    pub const NAMES: [&'static str; 6] =
        ["--json", "--rules", "--no-memory-kernels", "--hta-window", "--memory-limit", "--top"];

    /// Takes `option` when it is one of [`NAMES`](Self::NAMES), reading its value (if it has one) with
    /// `value`, which is given the option's name; `Ok(false)` when it is not one of them.
    pub fn take(
        &mut self,
        option: &str,
        value: impl FnOnce(&str) -> Result<String, String>,
    ) -> Result<bool, String> {
        match option {
            "--json" => self.json = true,
            "--no-memory-kernels" => self.options.queries.include_memory_kernels = false,
            "--hta-window" => self.options.queries.hta_window = true,
            "--rules" => {
                self.options.queries.rules = match value("--rules")?.as_str() {
                    "hta-0.5" => KernelRules::Hta0_5,
                    "hta-main" => KernelRules::HtaMain,
                    other => return Err(format!("unknown rules `{other}` (hta-0.5 or hta-main)")),
                }
            }
            "--memory-limit" => {
                let mib: usize =
                    value("--memory-limit")?.parse().map_err(|e| format!("--memory-limit: {e}"))?;
                self.options.memory_limit = mib.max(16).checked_mul(1 << 20).ok_or_else(|| {
                    format!("--memory-limit: {mib} MiB is more bytes than this machine can address")
                })?;
            }
            "--top" => self.top = value("--top")?.parse().map_err(|e| format!("--top: {e}"))?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}
