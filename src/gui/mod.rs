//! The desktop laboratory window (egui/eframe). A thin front end: the simulation runs in the
//! worker thread over the core; this module draws controls, plots and the animated bench.

mod app;
mod asking;
pub mod baseline;
pub mod catalogue;

mod controls;
pub mod decimate;
pub mod dialogs;
mod export;
mod figure_export;
mod frame_stats;
pub mod history;
pub mod jobs;
pub mod lab;
pub mod lesson;
mod menu;
pub mod pacing;
pub mod plots;
mod presentation;
pub mod priority;
mod schematic;
pub use schematic::{SCENE_VIEW_LABEL, scene_view_direction};
pub mod session;
mod shutdown;
mod status_bar;
pub mod undo;
pub mod worker;

pub use app::{AppOptions, TriboApp};

use std::process::ExitCode;

use crate::preset::Preset;

/// When [`run_app`] was called (the first-frame time of `--frame-stats` counts from here).
static LAUNCHED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Opens the window (blocking until it is closed); `frame_stats` prints frame timings to
/// stderr once a second.
pub fn run_app(
    preset: Option<Preset>,
    frame_stats: bool,
    fit_data: Option<std::path::PathBuf>,
    lesson: Option<std::path::PathBuf>,
    measured: Option<std::path::PathBuf>,
) -> ExitCode {
    let _ = LAUNCHED.set(std::time::Instant::now());
    let icon = eframe::icon_data::from_png_bytes(include_bytes!("../../assets/icon.png")).ok();
    let mut viewport = baseline::viewport();
    if let Some(icon) = icon {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions {
        viewport,
        // Dithering hides banding in gradients, which the app does not draw; without a GPU
        // it costs a fifth of an empty window's frame (measured under llvmpipe).
        dithering: false,
        ..Default::default()
    };
    let result = eframe::run_native(
        "tribolab",
        options,
        Box::new(move |cc| {
            let opts = AppOptions {
                preset: preset.clone(),
                frame_stats,
                panels_on_clear: true,
                fit_data: fit_data.clone(),
                lesson: lesson.clone(),
                measured: measured.clone(),
                ..AppOptions::default()
            };
            Ok(Box::new(TriboApp::with_options(cc, opts)))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot open the window: {e}");
            eprintln!("(the command-line tools work without a display: `tribolab help`)");
            ExitCode::FAILURE
        }
    }
}
