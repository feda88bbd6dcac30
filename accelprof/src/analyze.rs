//! `accelprof analyze DIR [options]`: accelprof-analyze's analyses of a directory of per-rank Parquet
//! traces, through its library (`accelprof-analyze query` and `sql` stay with that command).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use accelprof_analyze::{render, Analysis, ReportOptions};
use accelprof_export::summary::escape_control_lines;

pub(crate) const USAGE: &str = "\
usage: accelprof analyze DIR [options]   every analysis of DIR/*.parquet (one file per rank)

options:
  --json                 the report as JSON (times in ns) instead of tables (times in us)
  --rules hta-0.5|hta-main
                         HolisticTraceAnalysis's kernel classification of which release (default hta-0.5,
                         the one on PyPI; hta-main adds hip*/hccl* as communication)
  --no-memory-kernels    leave copies and sets out of the overlap breakdown
  --hta-window           only the GPU work HTA analyses: launched before each rank's last ProfilerStep
                         (when the ranks have two step names or more between them, as HTA counts them)
  --memory-limit MIB     the engine's memory before it spills to disk (default 1024, at least 16)
  --top N                kernels per rank in the tables (default 15)

Exit status: 0, 1 when the analysis failed, 2 for a usage error.
(`accelprof-analyze query DIR 'SQL'` runs any query over the same table.)
";

struct Args {
    dir: PathBuf,
    report: ReportOptions,
}

fn text(arg: OsString) -> Result<String, String> {
    arg.into_string().map_err(|a| format!("{a:?} is not UTF-8"))
}

fn parse(argv: Vec<OsString>) -> Result<Args, String> {
    let mut it = argv.into_iter();
    let mut dir = None;
    let mut report = ReportOptions::default();
    while let Some(a) = it.next() {
        // The directory may be any bytes; options are text.
        let Some(option) = a.to_str().filter(|a| a.starts_with('-')).map(str::to_owned) else {
            if dir.replace(PathBuf::from(a)).is_some() {
                return Err("name one directory".into());
            }
            continue;
        };
        let value = |name: &str| it.next().ok_or(format!("{name} needs a value")).and_then(text);
        if !report.take(&option, value)? {
            return Err(match crate::engine::settings::closest(&option, ReportOptions::NAMES) {
                Some(near) => format!("unknown option {option} (did you mean {near}?)"),
                None => format!("unknown option {option} (accelprof analyze --help)"),
            });
        }
    }
    let dir = dir.ok_or("name the directory of Parquet traces")?;
    Ok(Args { dir, report })
}

/// Runs the analyses (exit 2 for a usage error, 1 when the analysis failed).
pub(crate) fn run(argv: Vec<OsString>) -> ExitCode {
    let args = match parse(argv) {
        Ok(args) => args,
        Err(e) => {
            crate::complain_as("accelprof analyze", &e.to_string());
            return ExitCode::from(2);
        }
    };
    let report = Analysis::open(args.dir, args.report.options).and_then(|a| a.report());
    match report {
        Ok(report) if args.report.json => crate::out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&report.to_json()).expect("JSON values serialise")
        )),
        Ok(report) => crate::out(&escape_control_lines(&render(&report, args.report.top))),
        Err(e) => {
            crate::complain_as("accelprof analyze", &e.to_string());
            ExitCode::FAILURE
        }
    }
}
