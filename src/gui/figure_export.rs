//! File → Export figure (SVG): the current view as a figure for a handout or a paper
//! ([`crate::figure`]): the time views and planes over the shown window, the rig's test over
//! the whole record.

use std::path::PathBuf;

use eframe::egui;

use super::TriboApp;
use super::dialogs::DialogKind;
use super::session::Tab;
use crate::figure::views::{FigureView, Record, figure};

/// Size of an exported figure [px].
const SIZE: (u32, u32) = (900, 600);

/// The figure view of a tab (`None` for the views that have no figure export).
pub fn view_of(tab: Tab) -> Option<FigureView> {
    match tab {
        Tab::Grid | Tab::Traces => Some(FigureView::Position),
        Tab::Phase => Some(FigureView::Phase),
        Tab::FrictionVelocity => Some(FigureView::FrictionVelocity),
        Tab::Spectrum => Some(FigureView::Spectrum),
        Tab::RigTest => Some(FigureView::Rig),
        _ => None,
    }
}

impl TriboApp {
    /// Asks where to save the current view's figure.
    pub(super) fn export_figure_dialog(&mut self, ctx: &egui::Context) {
        if self.history.is_empty() {
            self.show_info("Nothing to export", "No samples yet.".into());
            return;
        }
        if view_of(self.session.view.tab).is_none() {
            self.show_info(
                "No figure of this view",
                "Figures are made of the time traces (Overview, Time traces), the phase plane, \
                 the friction–velocity plot, the spectrum and the rig's test: open one of them \
                 first."
                    .into(),
            );
            return;
        }
        let stem = crate::gui::export::file_stem(&self.session.preset.name);
        self.ask_file(ctx, DialogKind::ExportFigure, &format!("{stem}.svg"));
    }

    /// Writes the current view's figure to `path` (atomically).
    pub(super) fn export_figure_to(&mut self, path: PathBuf) {
        let path = crate::gui::export::with_extension(path, "svg");
        let Some(view) = view_of(self.session.view.tab) else {
            return;
        };
        let range = if view == FigureView::Rig {
            0..self.history.len()
        } else {
            super::plots::window_range(self)
        };
        let h = &self.history;
        let data = |i: usize| &h.column(i)[range.clone()];
        let record = Record {
            columns: &self.run.columns,
            data: &data,
        };
        let svg = figure(view, &self.session.preset, &record).map(|f| f.to_svg(SIZE.0, SIZE.1));
        let result = svg.and_then(|text| {
            crate::util::atomic_write::write_string_atomically(&path, &text)
                .map_err(|e| format!("{}: {e}", path.display()))
        });
        if let Err(e) = result {
            self.show_error("Cannot export the figure", e);
        }
    }
}
