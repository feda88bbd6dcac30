//! The command line: subcommands, the trace options (the settings table), usage errors.

use std::ffi::OsString;

use crate::engine::settings::{self, Setting, SETTINGS};
use crate::engine::{vars, TracerConfig};
use crate::vendors::Vendor;

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// Trace `program` with these settings (variable, value) on `vendor` (`None`: found on this machine).
    Trace {
        vendor: Option<Vendor>,
        settings: Vec<(&'static str, String)>,
        program: Vec<OsString>,
    },
    /// Analyse a directory of Parquet traces (the arguments after `analyze`).
    Analyze(Vec<OsString>),
    /// Close traces left behind by processes that died while writing them.
    Recover(Vec<OsString>),
    /// Which vendor libraries this machine has (`verbose`: every place looked in).
    Info {
        verbose: bool,
    },
    /// `--help` of the command (`None`) or of a subcommand.
    Help(Option<&'static str>),
    Version,
}

/// A usage error: the message, with the closest name when it looks like a typo.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Usage(pub(crate) String);

/// The subcommands, in `--help` order.
pub(crate) const SUBCOMMANDS: [&str; 4] = ["trace", "analyze", "recover", "info"];

/// Parses the arguments after the program name.
pub(crate) fn parse(args: Vec<OsString>) -> Result<Command, Usage> {
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        return Err(Usage("name a subcommand: trace, analyze, recover or info (accelprof --help)".into()));
    };
    let Some(name) = first.to_str() else {
        return Err(Usage(format!("unknown subcommand {first:?} (trace, analyze, recover, info)")));
    };
    let rest: Vec<OsString> = args.collect();
    let asks_help = |rest: &[OsString]| rest.first().is_some_and(|a| a == "-h" || a == "--help");
    match name {
        "-h" | "--help" | "help" => Ok(Command::Help(
            rest.first()
                .and_then(|a| a.to_str())
                .and_then(|a| SUBCOMMANDS.iter().find(|s| **s == a))
                .copied(),
        )),
        "-V" | "--version" | "version" => Ok(Command::Version),
        "trace" if asks_help(&rest) => Ok(Command::Help(Some("trace"))),
        "trace" => trace(rest),
        "analyze" if asks_help(&rest) => Ok(Command::Help(Some("analyze"))),
        "analyze" if rest.is_empty() => Err(Usage("analyze: name the directory of Parquet traces".into())),
        "analyze" => Ok(Command::Analyze(rest)),
        "recover" if asks_help(&rest) => Ok(Command::Help(Some("recover"))),
        "recover" if rest.is_empty() => Err(Usage("recover: name the .partial trace files to close".into())),
        "recover" => Ok(Command::Recover(rest)),
        "info" if asks_help(&rest) => Ok(Command::Help(Some("info"))),
        "info" => match rest.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().as_slice() {
            [] => Ok(Command::Info { verbose: false }),
            [v] if v == "-v" || v == "--verbose" => Ok(Command::Info { verbose: true }),
            [other, ..] => {
                Err(Usage(format!("info: unknown argument {other:?} (-v lists every place looked in)")))
            }
        },
        other if other.starts_with('-') => {
            let candidates = ["--help", "--version"];
            Err(Usage(match settings::closest(other, candidates) {
                Some(near) => format!("unknown option {other} (did you mean {near}?)"),
                None if settings::by_option(other).is_some() || other == "--vendor" => {
                    format!(
                        "{other} is an option of `accelprof trace`: accelprof trace {other} ... -- program"
                    )
                }
                None => format!("unknown option {other} (accelprof --help)"),
            }))
        }
        other => Err(Usage(match near(other, &SUBCOMMANDS) {
            Some(near) => format!("unknown subcommand `{other}`: did you mean `{near}`?"),
            None => format!("unknown subcommand `{other}` (trace, analyze, recover, info; accelprof --help)"),
        })),
    }
}

/// The subcommand `name` is a typo of: within two edits, a swap of neighbours counting one
/// (`trcae` -> `trace`), or the only one it starts.
fn near<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let starts: Vec<&str> = candidates.iter().copied().filter(|c| c.starts_with(name)).collect();
    if let [one] = starts.as_slice() {
        return Some(one);
    }
    let distance = |a: &str, b: &str| {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        d[0] = (0..=b.len()).collect();
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    };
    let (d, best) = candidates.iter().map(|c| (distance(&name.to_ascii_lowercase(), c), *c)).min()?;
    (d <= 2 && d < name.len()).then_some(best)
}

fn unknown(option: &str) -> Usage {
    let candidates = SETTINGS.iter().map(|s| s.option).chain(["--vendor", "--help"]);
    match settings::closest(option, candidates) {
        Some(near) => Usage(format!("unknown option {option} (did you mean {near}?)")),
        None => Usage(format!("unknown option {option} (accelprof trace --help lists the options)")),
    }
}

/// `trace [options] [--] program [args...]`.
fn trace(args: Vec<OsString>) -> Result<Command, Usage> {
    let mut args = args.into_iter().peekable();
    let mut chosen: Vec<(&'static str, String)> = Vec::new();
    let mut vendor = None;
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else {
            // Not UTF-8: not one of our options, so the program.
            return run(vendor, chosen, std::iter::once(arg).chain(args).collect());
        };
        if text == "--" {
            return run(vendor, chosen, args.collect());
        }
        if !text.starts_with('-') || text == "-" {
            return run(vendor, chosen, std::iter::once(arg).chain(args).collect());
        }
        if text == "-h" || text == "--help" {
            return Ok(Command::Help(Some("trace")));
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
            _ => (text, None),
        };
        // `--vendor` is the command's own (cuda, rocm, ascend): it picks the way into the program, and
        // sets ACCELPROF_VENDOR for the tracer there.
        let setting: Option<&Setting> = settings::by_option(name).filter(|s| s.var != vars::VENDOR);
        if setting.is_none() && name != "--vendor" {
            return Err(unknown(name));
        }
        let value = match inline {
            Some(value) => value,
            None => match args.next() {
                Some(value) => value
                    .into_string()
                    .map_err(|v| Usage(format!("{name}: the value {v:?} is not valid UTF-8")))?,
                None => {
                    let what = setting.map_or("cuda|rocm|ascend|auto", |s| s.value);
                    return Err(Usage(format!("{name} needs a value ({what})")));
                }
            },
        };
        let Some(setting) = setting else {
            vendor = Vendor::parse(&value).map_err(Usage)?;
            continue;
        };
        // Outputs add up (one collection, several files); any other option given twice: the last wins.
        if let Some((_, outputs)) =
            chosen.iter_mut().find(|(var, _)| *var == vars::OUTPUT && setting.var == vars::OUTPUT)
        {
            outputs.push(',');
            outputs.push_str(&value);
            continue;
        }
        chosen.retain(|(var, _)| *var != setting.var);
        chosen.push((setting.var, value));
    }
    Err(Usage("trace: name the program to trace: accelprof trace [options] [--] program [args...]".into()))
}

fn run(
    vendor: Option<Vendor>,
    settings: Vec<(&'static str, String)>,
    program: Vec<OsString>,
) -> Result<Command, Usage> {
    if program.is_empty() {
        return Err(Usage("trace: name the program to trace after --".into()));
    }
    check_values(&settings)?;
    Ok(Command::Trace { vendor, settings, program })
}

/// A value given on the command line that the tracer would ignore or bound (with a warning named after
/// its variable, were it set in the environment) is a usage error naming the option.
fn check_values(settings: &[(&'static str, String)]) -> Result<(), Usage> {
    for (var, value) in settings.iter().filter(|(v, _)| *v != vars::OUTPUT && *v != vars::LIBRARY) {
        let (_, warnings) = TracerConfig::from_lookup(|name| (name == *var).then(|| value.clone()));
        let Some(warning) = warnings.iter().find(|w| w.contains(var)) else { continue };
        let option = settings::by_var(var).map_or(*var, |s| s.option);
        let why = match warning.split_once(" is above the limit: bounded to ") {
            Some((_, limit)) => format!("above the limit ({limit} at most)"),
            None => warning.split_once(": ").map_or_else(|| warning.clone(), |(_, why)| why.to_owned()),
        };
        return Err(Usage(format!("{option} {value:?}: {why}")));
    }
    Ok(())
}

/// `accelprof --help`, or a subcommand's.
pub(crate) fn help(subcommand: Option<&str>) -> String {
    match subcommand {
        Some("trace") => trace_help(),
        #[cfg(feature = "analyze")]
        Some("analyze") => crate::analyze::USAGE.to_owned(),
        #[cfg(not(feature = "analyze"))]
        Some("analyze") => format!("usage: accelprof analyze DIR [options]\n\n{}\n", crate::NO_ANALYZE),
        Some("recover") => "usage: accelprof recover FILE...\n\n\
             Closes a trace left as <name>.partial-<pid>.<ext> by a process that died while writing it: the\n\
             events written up to then are kept (a torn last write left out: the bytes of the file left out,\n\
             compressed ones for .gz, are said) and the file is renamed to <name> (a <name> too long to take\n\
             the suffix was shortened in the .partial name: the name given is then the shortened one, which\n\
             a .partial name of about 255 bytes may be, and that is said). A Perfetto trace is cut\n\
             after its last whole packet; a Parquet file is renamed when its footer is whole, and cannot be\n\
             recovered without one. Exit status 1 when a file could not be closed (it is then left as it\n\
             was).\n"
            .to_owned(),
        Some("info") => "usage: accelprof info [-v]\n\n\
             One line per vendor: its profiling library found (path, version when the library says it without\n\
             a device) or not found, and why. -v lists every place looked in.\n"
            .to_owned(),
        _ => format!(
            "accelprof {}: GPU/NPU traces on NVIDIA CUPTI, AMD rocprofiler-sdk and Huawei Ascend MSPTI\n\
             \n\
             usage: accelprof trace [options] [--] program [args...]   trace a program (accelprof trace --help)\n\
             \x20      accelprof analyze DIR [options]                    analyse a directory of Parquet traces\n\
             \x20      accelprof recover FILE...                          close traces of processes that died\n\
             \x20      accelprof info [-v]                                which vendor libraries this machine has\n\
             \x20      accelprof --help | --version\n\
             \n\
             Exit status: the traced program's (128+n when a signal n ended it); 2 for a usage error (nothing\n\
             ran); 126 when the program cannot be run, 127 when it is not found; 1 when it succeeded but a\n\
             trace or the summary JSON was not written whole, or tracing did not start in a process of it\n\
             (said); 4 when it succeeded but records were lost to another profiling client in it.\n",
            env!("CARGO_PKG_VERSION")
        ),
    }
}

fn trace_help() -> String {
    let mut out = String::from(
        "usage: accelprof trace [options] [--] program [args...]\n\
         \n\
         Runs the program with the tracer injected into it: each process that starts the vendor's runtime\n\
         writes a trace (Chrome JSON, gzip, Parquet or Perfetto, by the name's extension). The trace streams\n\
         to <name>.partial-<pid>.<ext> (as much of <name>'s start as fits in 255 bytes with the suffix)\n\
         and is renamed to <name> when the process ends; on SIGINT/SIGTERM/SIGHUP it is finished first.\n\
         Outputs, option values, ACCELPROF_VENDOR and the vendor library named are checked before the\n\
         program starts (a bad one: exit 2). Each option sets the variable shown, which the tracer reads.\n\
         \n\
         options:\n\
         \x20     --vendor cuda|rocm|ascend          ACCELPROF_VENDOR\n\
         \x20       the vendor (aliases cupti, nvidia; rocprofiler, amd; mspti, huawei): the way into the program,\n\
         \x20       and the library that traces [default: auto] (auto: the one whose library this machine has;\n\
         \x20       of several, the one whose driver is present)\n",
    );
    for s in SETTINGS.iter().filter(|s| s.var != vars::VENDOR) {
        let flag = match s.short {
            Some(c) => format!("-{c}, {} {}", s.option, s.value),
            None => format!("    {} {}", s.option, s.value),
        };
        out.push_str(&format!("  {flag:<34} {}\n", s.var));
        for line in wrap(&format!("{} [default: {}]", s.help, s.default), 88) {
            out.push_str(&format!("        {line}\n"));
        }
    }
    out.push_str(
        "  -h, --help\n\
         \n\
         environment: ACCELPROF_INJECT_LIBRARY and ACCELPROF_SHIM_LIBRARY name the injection library and the CUPTI\n\
         sharing shim to use instead of the ones this command carries.\n",
    );
    out
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn options_become_variables_and_the_rest_is_the_program() {
        let parsed = parse(args(&[
            "trace",
            "-o",
            "t.json.gz",
            "--vendor=amd",
            "--families",
            "kernel",
            "python",
            "-u",
        ]));
        assert_eq!(
            parsed,
            Ok(Command::Trace {
                vendor: Some(Vendor::Rocm),
                settings: vec![(vars::OUTPUT, "t.json.gz".into()), (vars::FAMILIES, "kernel".into())],
                program: args(&["python", "-u"]),
            })
        );
        let parsed = parse(args(&["trace", "--output", "a", "--output", "b", "--", "--weird-program"]));
        assert_eq!(
            parsed,
            Ok(Command::Trace {
                vendor: None,
                settings: vec![(vars::OUTPUT, "a,b".into())],
                program: args(&["--weird-program"])
            })
        );
        assert_eq!(parse(args(&["trace", "--vendor", "auto", "x"])).map(|_| ()), Ok(()));
        assert_eq!(parse(args(&["--help"])), Ok(Command::Help(None)));
        assert_eq!(parse(args(&["trace", "--help"])), Ok(Command::Help(Some("trace"))));
        assert_eq!(
            parse(args(&["recover", "a.partial-1.json"])),
            Ok(Command::Recover(args(&["a.partial-1.json"])))
        );
        assert_eq!(parse(args(&["info", "-v"])), Ok(Command::Info { verbose: true }));
    }

    #[test]
    fn mistakes_are_explained_with_the_closest_name() {
        assert_eq!(
            parse(args(&["trcae"])),
            Err(Usage("unknown subcommand `trcae`: did you mean `trace`?".into()))
        );
        assert_eq!(
            parse(args(&["anlyze", "d"])).unwrap_err().0,
            "unknown subcommand `anlyze`: did you mean `analyze`?"
        );
        assert_eq!(
            parse(args(&["trace", "--ouptut", "x", "prog"])),
            Err(Usage("unknown option --ouptut (did you mean --output?)".into()))
        );
        assert_eq!(
            parse(args(&["trace", "--vendr", "cuda", "prog"])),
            Err(Usage("unknown option --vendr (did you mean --vendor?)".into()))
        );
        assert!(parse(args(&["trace", "--vendor", "intel", "prog"])).unwrap_err().0.contains("intel"));
        assert!(parse(args(&["--output", "x"])).unwrap_err().0.contains("accelprof trace --output"));
        assert_eq!(parse(args(&["trace", "--delay"])), Err(Usage("--delay needs a value (TIME)".into())));
        assert!(parse(args(&["trace", "-o", "x"])).is_err(), "no program");
        assert!(parse(args(&[])).is_err());
        assert!(parse(args(&["recover"])).is_err());
        assert!(parse(args(&["analyze"])).is_err());
        assert!(parse(args(&["info", "--bogus"])).is_err());
    }

    #[test]
    fn bad_values_on_the_command_line_are_usage_errors_naming_the_option() {
        assert_eq!(
            parse(args(&["trace", "--buffer-size", "1T", "prog"])),
            Err(Usage("--buffer-size \"1T\": expected bytes >= 512, e.g. 8M".into()))
        );
        // What the library takes (BufferPool::MIN_BUFFER_SIZE, 512) the command line takes: it refused
        // less than 4096.
        for size in ["512", "1000", "1K"] {
            assert_eq!(parse(args(&["trace", "--buffer-size", size, "prog"])).map(|_| ()), Ok(()), "{size}");
        }
        assert_eq!(
            parse(args(&["trace", "--buffer-size", "511", "prog"])),
            Err(Usage("--buffer-size \"511\": expected bytes >= 512, e.g. 8M".into()))
        );
        assert_eq!(
            parse(args(&["trace", "--max-buffers", "1099511627776", "prog"])),
            Err(Usage("--max-buffers \"1099511627776\": above the limit (65536 at most)".into()))
        );
    }

    #[test]
    fn help_lists_every_setting_with_its_variable() {
        let text = help(Some("trace"));
        for s in SETTINGS {
            assert!(text.contains(s.option) && text.contains(s.var), "{s:?}");
        }
        assert!(text.contains("--vendor"));
        for sub in SUBCOMMANDS {
            assert!(help(None).contains(&format!("accelprof {sub}")), "{sub}");
        }
    }
}
