//! `tribolab gui --baseline`: an empty eframe window of the app's size — one empty central
//! panel, as eframe's own template draws — that redraws without a pause and prints its frame
//! statistics — the floor of this machine's rasteriser, measured in
//! the same conditions as the app (`tribolab gui --frame-stats`) so that the window's frame
//! rate can be stated relative to it (docs/PERFORMANCE.md).

use eframe::egui;

use super::frame_stats::FrameStats;

struct Baseline {
    stats: FrameStats,
}

impl eframe::App for Baseline {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        if let Some(line) = self.stats.frame(frame.info().cpu_usage, 0, None) {
            eprintln!("{line}");
        }
        ctx.request_repaint();
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // The panel fills the window with its background, like every egui app; without it the
        // frame is only the GL clear and flatters the rasteriser.
        egui::CentralPanel::default().show(ui, |_| {});
    }
}

/// The options of the app's window (size, title), for both windows.
pub(super) fn viewport() -> egui::ViewportBuilder {
    egui::ViewportBuilder::default()
        .with_title("tribolab — dry friction & stick–slip laboratory")
        .with_inner_size([1400.0, 880.0])
        .with_min_inner_size([900.0, 600.0])
        .with_drag_and_drop(true)
}

/// Opens the empty window (blocking until it is closed).
pub fn run() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: viewport(),
        ..Default::default()
    };
    eframe::run_native(
        "tribolab-baseline",
        options,
        Box::new(|_cc| {
            Ok(Box::new(Baseline {
                stats: FrameStats::default(),
            }))
        }),
    )
}
