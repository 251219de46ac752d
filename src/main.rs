//! The `tribolab` binary: the desktop laboratory without arguments, the CLI with them.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    tribolab::cli::main_with_args(&args)
}
