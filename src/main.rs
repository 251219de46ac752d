//! The `tribolab` binary: the desktop laboratory without arguments, the CLI with them.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => open_gui(None),
        Some("gui") => match args.get(1) {
            None => open_gui(None),
            Some(arg) => match tribolab::cli::load_preset_arg(arg) {
                Ok(p) => open_gui(Some(p)),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            },
        },
        Some(_) => tribolab::cli::main_with_args(&args),
    }
}

#[cfg(feature = "gui")]
fn open_gui(preset: Option<tribolab::preset::Preset>) -> ExitCode {
    tribolab::gui::run_app(preset)
}

#[cfg(not(feature = "gui"))]
fn open_gui(_preset: Option<tribolab::preset::Preset>) -> ExitCode {
    eprintln!("this tribolab was built without the `gui` feature; see `tribolab help`");
    ExitCode::from(2)
}
