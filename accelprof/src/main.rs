//! `accelprof`: one command for GPU/NPU traces (the command is the library's [`accelprof::main_with`]).

fn main() -> std::process::ExitCode {
    accelprof::main_with(std::env::args_os().skip(1).collect())
}
