//! `accelprof-analyze`: the analyses of a directory of per-rank Parquet traces, from the command line.

use std::process::ExitCode;

use accelprof_analyze::{render, sql, Analysis, KernelRules, Options, Query};
use datafusion::arrow::util::pretty::pretty_format_batches;

const USAGE: &str = "\
usage:
  accelprof-analyze analyze DIR [options]   every analysis of DIR/*.parquet (one file per rank)
  accelprof-analyze query DIR 'SQL'         any SQL over the table `events`
  accelprof-analyze sql [options]           the analyses' SQL text (to run on DuckDB, Spark, Trino)

options:
  --json                 the report as JSON (times in ns) instead of tables (times in us)
  --rules hta-0.5|hta-main
                         HolisticTraceAnalysis's kernel classification of which release (default hta-0.5,
                         the one on PyPI; hta-main adds hip*/hccl* as communication)
  --no-memory-kernels    leave copies and sets out of the overlap breakdown
  --hta-window           only the GPU work HTA analyses: launched before each rank's last ProfilerStep
  --memory-limit MIB     the engine's memory before it spills to disk (default 1024)
  --top N                kernels per rank in the tables (default 15)
";

struct Args {
    command: String,
    positional: Vec<String>,
    json: bool,
    top: usize,
    options: Options,
}

fn parse() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let command = it.next().ok_or("no command")?;
    let mut args =
        Args { command, positional: Vec::new(), json: false, top: 15, options: Options::default() };
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--json" => args.json = true,
            "--no-memory-kernels" => args.options.queries.include_memory_kernels = false,
            "--hta-window" => args.options.queries.hta_window = true,
            "--rules" => {
                args.options.queries.rules = match value("--rules")?.as_str() {
                    "hta-0.5" => KernelRules::Hta0_5,
                    "hta-main" => KernelRules::HtaMain,
                    other => return Err(format!("unknown rules `{other}` (hta-0.5 or hta-main)")),
                }
            }
            "--memory-limit" => {
                let mib: usize =
                    value("--memory-limit")?.parse().map_err(|e| format!("--memory-limit: {e}"))?;
                args.options.memory_limit = mib.max(16) << 20;
            }
            "--top" => args.top = value("--top")?.parse().map_err(|e| format!("--top: {e}"))?,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ => args.positional.push(a),
        }
    }
    Ok(args)
}

fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    match (args.command.as_str(), args.positional.as_slice()) {
        ("analyze", [dir]) => {
            let report = Analysis::open(dir, args.options)?.report()?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&report.to_json())?);
            } else {
                print!("{}", render(&report, args.top));
            }
        }
        ("query", [dir, text]) => {
            let batches = Analysis::open(dir, args.options)?.query(text)?;
            println!("{}", pretty_format_batches(&batches)?);
        }
        ("sql", []) => {
            for q in Query::ALL {
                println!("-- {}\n{};\n", q.name(), sql(q, &args.options.queries));
            }
        }
        _ => return Err(format!("bad arguments\n{USAGE}").into()),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(args) => args,
        Err(e) => {
            if e.is_empty() {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            eprint!("accelprof-analyze: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("accelprof-analyze: {e}");
            ExitCode::FAILURE
        }
    }
}
