//! The `tribolab` binary: the desktop laboratory without arguments, the CLI with them.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => open_gui(None, false, None),
        // `gui --help` is answered by the command line's help.
        Some("gui") if args.iter().any(|a| a == "--help" || a == "-h") => {
            tribolab::cli::main_with_args(&args)
        }
        Some("gui") if args.iter().any(|a| a == "--baseline") => open_baseline(),
        Some("gui") => {
            // `tribolab gui [--frame-stats] [--fit DATA] [PRESET.ron]`
            let frame_stats = args.iter().any(|a| a == "--frame-stats");
            let fit_at = args.iter().position(|a| a == "--fit");
            let fit_data = fit_at.and_then(|i| args.get(i + 1)).map(PathBuf::from);
            if fit_at.is_some() && fit_data.is_none() {
                eprintln!("error: --fit needs the measurement file");
                return ExitCode::from(2);
            }
            let preset_arg = args[1..]
                .iter()
                .enumerate()
                .find(|(i, a)| *a != "--frame-stats" && *a != "--fit" && fit_at != Some(*i));
            // A measured series (by its extension) opens in the import window.
            if let Some((_, a)) = preset_arg {
                let ext = std::path::Path::new(a)
                    .extension()
                    .map(|e| e.to_string_lossy().to_ascii_lowercase());
                if matches!(ext.as_deref(), Some("csv" | "tsv" | "txt")) {
                    return open_gui_with_measurement(PathBuf::from(a), frame_stats);
                }
            }
            // A lesson file opens the window teaching it.
            if let Some((_, a)) = preset_arg
                && std::fs::read_to_string(a).is_ok_and(|t| tribolab::lesson::looks_like_lesson(&t))
            {
                return open_gui_with_lesson(PathBuf::from(a), frame_stats);
            }
            match preset_arg.map(|(_, a)| tribolab::cli::load_preset_arg(a)) {
                None => open_gui(None, frame_stats, fit_data),
                Some(Ok(p)) => open_gui(Some(p), frame_stats, fit_data),
                Some(Err(e)) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(_) => {
            // Ctrl-C or SIGTERM mid-write: remove the half-written temporary files, then stop
            // as the signal would have (128 + SIGINT).
            let _ = ctrlc::set_handler(|| {
                tribolab::util::atomic_write::remove_pending_temp_files();
                std::process::exit(130);
            });
            tribolab::cli::main_with_args(&args)
        }
    }
}

#[cfg(feature = "gui")]
fn open_gui(
    preset: Option<tribolab::preset::Preset>,
    frame_stats: bool,
    fit_data: Option<PathBuf>,
) -> ExitCode {
    tribolab::gui::run_app(preset, frame_stats, fit_data, None, None)
}

/// `tribolab gui LESSON.ron`: the window teaching a lesson.
#[cfg(feature = "gui")]
fn open_gui_with_lesson(lesson: PathBuf, frame_stats: bool) -> ExitCode {
    tribolab::gui::run_app(None, frame_stats, None, Some(lesson), None)
}

/// `tribolab gui DATA.csv`: the window with a measured series in its import window.
#[cfg(feature = "gui")]
fn open_gui_with_measurement(data: PathBuf, frame_stats: bool) -> ExitCode {
    tribolab::gui::run_app(None, frame_stats, None, None, Some(data))
}

/// `tribolab gui --baseline`: an empty window with frame statistics (the rasteriser's floor).
#[cfg(feature = "gui")]
fn open_baseline() -> ExitCode {
    match tribolab::gui::baseline::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_baseline() -> ExitCode {
    open_gui(None, false, None)
}

#[cfg(not(feature = "gui"))]
fn open_gui_with_lesson(_lesson: PathBuf, frame_stats: bool) -> ExitCode {
    open_gui(None, frame_stats, None)
}

#[cfg(not(feature = "gui"))]
fn open_gui_with_measurement(_data: PathBuf, frame_stats: bool) -> ExitCode {
    open_gui(None, frame_stats, None)
}

#[cfg(not(feature = "gui"))]
fn open_gui(
    _preset: Option<tribolab::preset::Preset>,
    _frame_stats: bool,
    _fit_data: Option<PathBuf>,
) -> ExitCode {
    eprintln!("this tribolab was built without the `gui` feature; see `tribolab help`");
    ExitCode::from(2)
}
