//! `accelprof-analyze`: the analyses of a directory of per-rank Parquet traces, from the command line.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use accelprof_analyze::{render, sql, Analysis, Query, ReportOptions};
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::error::ArrowError;
use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use datafusion::arrow::util::pretty::pretty_format_batches;

const USAGE: &str = "\
usage:
  accelprof-analyze analyze DIR [options]   every analysis of DIR/*.parquet (one file per rank)
  accelprof-analyze query DIR 'SQL'         any query over the table `events` (read-only: statements that
                                            write or read other files, COPY TO, CREATE EXTERNAL TABLE,
                                            INSERT, SET, are refused unless --allow-writes)
  accelprof-analyze sql [options]           the analyses' SQL text (to run on DuckDB, Spark, Trino)

options:
  --json                 the report as JSON (times in ns) instead of tables (times in us); with `sql`,
                         an object of the queries' texts by name
  --rules hta-0.5|hta-main
                         HolisticTraceAnalysis's kernel classification of which release (default hta-0.5,
                         the one on PyPI; hta-main adds hip*/hccl* as communication)
  --no-memory-kernels    leave copies and sets out of the overlap breakdown
  --hta-window           only the GPU work HTA analyses: launched before each rank's last ProfilerStep
                         (when the ranks have two step names or more between them, as HTA counts them)
  --memory-limit MIB     the engine's memory before it spills to disk (default 1024, at least 16)
  --top N                kernels per rank in the tables (default 15)
  --allow-writes         let `query` run statements that write or read files or change the session

Exit status: 0, 1 when the analysis failed, 2 for a usage error.
";

struct Args {
    command: String,
    positional: Vec<OsString>,
    report: ReportOptions,
}

/// An argument that must be text (a command, an option, a value, the SQL), or why not.
fn text(arg: OsString) -> Result<String, String> {
    arg.into_string().map_err(|a| format!("{} is not UTF-8", escape(&a.to_string_lossy())))
}

/// `s` with its control characters escaped (`\x1b`, `\n`), so that nothing from a file or an argument
/// drives the terminal.
fn escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| -> Box<dyn Iterator<Item = char>> {
            if c.is_control() {
                Box::new(c.escape_default())
            } else {
                Box::new(std::iter::once(c))
            }
        })
        .collect()
}

/// `s` with its control characters but the line ends escaped (a rendered table's).
fn escape_keeping_lines(s: &str) -> String {
    s.split('\n').map(escape).collect::<Vec<_>>().join("\n")
}

/// `batches` as text cells, each value (and column name) with its control characters escaped, line ends and
/// tabs included: a value never starts a row of its own in the table (the table keeps its own line ends).
fn escaped_cells(batches: &[RecordBatch]) -> Result<Vec<RecordBatch>, ArrowError> {
    let options = FormatOptions::default().with_display_error(true);
    batches
        .iter()
        .map(|batch| {
            let fields: Vec<Field> = batch
                .schema()
                .fields()
                .iter()
                .map(|f| Field::new(escape(f.name()), DataType::Utf8, true))
                .collect();
            let columns = batch
                .columns()
                .iter()
                .map(|column| {
                    let formatter = ArrayFormatter::try_new(column.as_ref(), &options)?;
                    let cells: StringArray = (0..column.len())
                        .map(|i| (!column.is_null(i)).then(|| escape(&formatter.value(i).to_string())))
                        .collect();
                    Ok(Arc::new(cells) as ArrayRef)
                })
                .collect::<Result<Vec<_>, ArrowError>>()?;
            RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
        })
        .collect()
}

fn parse(argv: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    let mut it = argv.into_iter();
    let command = text(it.next().ok_or("no command")?)?;
    if matches!(command.as_str(), "-h" | "--help" | "help") {
        // The tool's own help, asked for before any command.
        return Err(String::new());
    }
    let mut args = Args { command, positional: Vec::new(), report: ReportOptions::default() };
    while let Some(a) = it.next() {
        // Positional arguments (directories) may be any bytes; options are text.
        let Some(option) = a.to_str().filter(|a| a.starts_with('-')).map(str::to_owned) else {
            args.positional.push(a);
            continue;
        };
        let value = |name: &str| it.next().ok_or(format!("{name} needs a value")).and_then(text);
        if args.report.take(&option, value)? {
            continue;
        }
        match option.as_str() {
            "--allow-writes" => args.report.options.allow_writes = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown option `{}`", escape(s))),
            _ => args.positional.push(a),
        }
    }
    check_shape(&args)?;
    Ok(args)
}

/// The command and its positional arguments: a known command with what it takes (a usage error
/// otherwise, exit 2, as `accelprof analyze` says it), checked before anything is opened.
fn check_shape(args: &Args) -> Result<(), String> {
    match (args.command.as_str(), args.positional.as_slice()) {
        ("analyze", [_]) | ("sql", []) => Ok(()),
        ("query", [_, sql]) => text(sql.clone()).map(drop).map_err(|e| format!("query: the SQL {e}")),
        ("analyze", []) => Err("analyze: name the directory of Parquet traces".into()),
        ("analyze", _) => Err("analyze: name one directory".into()),
        ("query", _) => Err("query: name the directory and the SQL: query DIR 'SQL'".into()),
        ("sql", _) => Err("sql takes no directory (only options)".into()),
        (other, _) => Err(format!("unknown command `{}` (analyze, query, sql)", escape(other))),
    }
}

fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    match (args.command.as_str(), args.positional.as_slice()) {
        ("analyze", [dir]) => {
            let report = Analysis::open(PathBuf::from(dir), args.report.options)?.report()?;
            if args.report.json {
                out(&format!("{}\n", serde_json::to_string_pretty(&report.to_json())?))?;
            } else {
                out(&escape_keeping_lines(&render(&report, args.report.top)))?;
            }
        }
        ("query", [dir, sql]) => {
            let sql = text(sql.clone())?;
            let batches = Analysis::open(PathBuf::from(dir), args.report.options)?.query(&sql)?;
            let table = pretty_format_batches(&escaped_cells(&batches)?)?.to_string();
            out(&format!("{}\n", escape_keeping_lines(&table)))?;
        }
        ("sql", []) if args.report.json => {
            let queries: serde_json::Map<String, serde_json::Value> = Query::ALL
                .iter()
                .map(|&q| (q.name().to_owned(), sql(q, &args.report.options.queries).into()))
                .collect();
            out(&format!("{}\n", serde_json::to_string_pretty(&queries)?))?;
        }
        ("sql", []) => {
            for q in Query::ALL {
                out(&format!("-- {}\n{};\n\n", q.name(), sql(q, &args.report.options.queries)))?;
            }
        }
        // Refused by `check_shape` before this.
        _ => return Err(format!("bad arguments\n{USAGE}").into()),
    }
    Ok(())
}

/// Writes `text` to standard output. A reader that went away (`accelprof-analyze sql | head`) is an
/// io error the caller ends quietly on ([`is_closed_pipe`]), not a panic as `println!` gives.
fn out(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Writes `text` to standard error; a write that fails (its reader gone, `2>&1 | head -0`) is dropped:
/// what is said to nobody changes no exit status (`eprint!` panicked, exit 101).
fn say(text: &str) {
    use std::io::Write;
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush());
}

/// Whether `e` is standard output's reader having gone away.
fn is_closed_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

fn main() -> ExitCode {
    let args = match parse(std::env::args_os().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            if e.is_empty() {
                // Help to a reader that went away (`--help | head -0`) ends as a whole run does.
                let _ = out(USAGE);
                return ExitCode::SUCCESS;
            }
            say(&format!("accelprof-analyze: {}\n{USAGE}", escape_keeping_lines(&e)));
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        // As `head` expects of a command it cut short: no message, and the status of a whole run.
        Err(e) if is_closed_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) => {
            say(&format!("accelprof-analyze: {}\n", escape_keeping_lines(&e.to_string())));
            ExitCode::FAILURE
        }
    }
}
