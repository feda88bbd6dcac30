//! The launcher's command line.

use std::ffi::OsString;

use cupti_trace::config::vars;
use cupti_trace::settings::{self, Setting, SETTINGS};
use cupti_trace::TraceConfig;

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// Trace `program` with these settings (variable, value).
    Run {
        settings: Vec<(&'static str, String)>,
        program: Vec<OsString>,
    },
    /// Close traces left behind by processes that died while writing them.
    Recover(Vec<OsString>),
    Help,
    Version,
}

/// A usage error: the message, with the closest option when it looks like a typo.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Usage(pub(crate) String);

fn unknown(option: &str) -> Usage {
    let candidates = SETTINGS.iter().map(|s| s.option).chain(["--help", "--version"]);
    match settings::closest(option, candidates) {
        Some(near) => Usage(format!("unknown option {option} (did you mean {near}?)")),
        None => Usage(format!("unknown option {option} (cupti-trace --help lists the options)")),
    }
}

/// Parses the arguments after the program name.
pub(crate) fn parse(args: Vec<OsString>) -> Result<Command, Usage> {
    let mut args = args.into_iter().peekable();
    let mut chosen: Vec<(&'static str, String)> = Vec::new();
    if args.peek().is_some_and(|a| a == "recover") {
        args.next();
        let files: Vec<OsString> = args.collect();
        if files.is_empty() {
            return Err(Usage("recover: name the .partial trace files to close".into()));
        }
        return Ok(Command::Recover(files));
    }
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else {
            // Not UTF-8: not one of our options, so the program.
            return run(chosen, std::iter::once(arg).chain(args).collect());
        };
        if text == "--" {
            return run(chosen, args.collect());
        }
        if !text.starts_with('-') || text == "-" {
            return run(chosen, std::iter::once(arg).chain(args).collect());
        }
        match text {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            _ => {}
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
            _ => (text, None),
        };
        let setting: &Setting = settings::by_option(name).ok_or_else(|| unknown(name))?;
        let value = match inline {
            Some(value) => value,
            None => match args.next() {
                Some(value) => value
                    .into_string()
                    .map_err(|v| Usage(format!("{name}: the value {v:?} is not valid UTF-8")))?,
                None => return Err(Usage(format!("{name} needs a value ({})", setting.value))),
            },
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
    Err(Usage("name the program to trace: cupti-trace [options] [--] program [args...]".into()))
}

fn run(settings: Vec<(&'static str, String)>, program: Vec<OsString>) -> Result<Command, Usage> {
    if program.is_empty() {
        return Err(Usage("name the program to trace after --".into()));
    }
    check_values(&settings)?;
    Ok(Command::Run { settings, program })
}

/// A value given on the command line that the tracer would ignore or bound (with a warning named after
/// its variable, were it set in the environment) is a usage error naming the option.
fn check_values(settings: &[(&'static str, String)]) -> Result<(), Usage> {
    for (var, value) in settings.iter().filter(|(v, _)| *v != vars::OUTPUT && *v != vars::LIBRARY) {
        let (_, warnings) = TraceConfig::from_lookup(|name| (name == *var).then(|| value.clone()));
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

/// `--help`: every setting, its variable, its default.
pub(crate) fn help() -> String {
    let mut out = String::from(
        "cupti-trace: trace a CUDA program (PyTorch included) into a Chrome trace, unchanged\n\
         \n\
         usage: cupti-trace [options] [--] program [args...]\n\
         \x20      cupti-trace recover FILE...   close a .partial trace left by a process that died mid-write\n\
         \n\
         The program's CUDA driver loads the tracer (CUDA_INJECTION64_PATH); each option sets the variable\n\
         shown, which the tracer reads (set the variables yourself to trace without the launcher). The trace\n\
         streams to <name>.partial-<pid>.<ext> and is renamed to <name> when the process ends; on\n\
         SIGINT/SIGTERM/SIGHUP it is finished first. Perfetto and HolisticTraceAnalysis read both.\n\
         Outputs and option values are checked before the program starts (a bad one: exit 2). A second\n\
         process of the run asking for a name already taken writes <name>.<pid>.<ext>. The exit status is\n\
         the program's; 1 when it exited 0 but a trace could not be written.\n\
         \n\
         options:\n",
    );
    for s in SETTINGS {
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
        "  -h, --help\n  -V, --version\n\
         \n\
         also read: CUPTI_LIBRARY_PATH (which libcupti; default: the one the program loaded, else the usual\n\
         places), RANK and WORLD_SIZE (the trace's rank, as torch.distributed sets them).\n\
         An unknown CUPTI_TRACE_* variable is reported with the closest known one.\n",
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
        let parsed =
            parse(args(&["-o", "t.json.gz", "--delay=30s", "--kinds", "kernel", "python", "-u", "x.py"]));
        assert_eq!(
            parsed,
            Ok(Command::Run {
                settings: vec![
                    (vars::OUTPUT, "t.json.gz".into()),
                    (vars::DELAY, "30s".into()),
                    (vars::KINDS, "kernel".into())
                ],
                program: args(&["python", "-u", "x.py"]),
            })
        );
        let parsed = parse(args(&["--output", "a", "--output", "b", "--", "--weird-program"]));
        assert_eq!(
            parsed,
            Ok(Command::Run {
                settings: vec![(vars::OUTPUT, "a,b".into())],
                program: args(&["--weird-program"])
            })
        );
        assert_eq!(parse(args(&["--help"])), Ok(Command::Help));
        assert_eq!(
            parse(args(&["recover", "a.partial-1.json"])),
            Ok(Command::Recover(args(&["a.partial-1.json"])))
        );
    }

    #[test]
    fn mistakes_are_explained() {
        assert_eq!(
            parse(args(&["--ouptut", "x", "prog"])),
            Err(Usage("unknown option --ouptut (did you mean --output?)".into()))
        );
        assert!(parse(args(&["--frobnicate-everything", "prog"])).unwrap_err().0.contains("--help lists"));
        assert_eq!(parse(args(&["--delay"])), Err(Usage("--delay needs a value (TIME)".into())));
        assert!(parse(args(&["-o", "x"])).is_err(), "no program");
        assert!(parse(args(&["recover"])).is_err());
    }

    /// Issue 18: bad values on the command line were warnings named after variables, and the program ran.
    #[test]
    fn bad_values_on_the_command_line_are_usage_errors_naming_the_option() {
        assert_eq!(
            parse(args(&["--buffer-size", "1T", "prog"])),
            Err(Usage("--buffer-size \"1T\": expected bytes >= 4096, e.g. 8M".into()))
        );
        assert_eq!(
            parse(args(&["--delay=10x", "prog"])),
            Err(Usage("--delay \"10x\": expected a time such as 30s, 1500ms or 2m".into()))
        );
        assert_eq!(
            parse(args(&["--max-buffers", "1099511627776", "prog"])),
            Err(Usage("--max-buffers \"1099511627776\": above the limit (65536 at most)".into()))
        );
        assert!(parse(args(&["--buffer-size", "8M", "--delay", "2s", "prog"])).is_ok());
    }

    #[test]
    fn help_lists_every_setting_with_its_variable() {
        let text = help();
        for s in SETTINGS {
            assert!(text.contains(s.option) && text.contains(s.var), "{s:?}");
        }
    }
}
