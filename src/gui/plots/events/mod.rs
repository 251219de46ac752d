//! The slip events of a chain: the space–time plot (block against time, coloured by slip
//! rate, so events show as streaks), the magnitude–frequency plot with its fitted b-value, and
//! the event list; picking an event moves the space–time plot to it.

mod list;
mod magnitude;
mod space_time;

use eframe::egui;

use crate::gui::TriboApp;

pub use space_time::SpaceTimeCache;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    if app.catalogue.is_none() {
        ui.centered_and_justified(|ui| {
            ui.label("Slip events are catalogued for chains of blocks (two or more contacts).")
        });
        return;
    }
    let avail = ui.available_size();
    let top = (avail.y * 0.5).max(140.0);
    ui.allocate_ui_with_layout(
        egui::vec2(avail.x, top),
        egui::Layout::top_down(egui::Align::Min),
        |ui| space_time::show(app, ui, reset),
    );
    let rest = ui.available_size();
    let half = egui::vec2((rest.x - 8.0) / 2.0, rest.y);
    let down = egui::Layout::top_down(egui::Align::Min);
    ui.horizontal(|ui| {
        ui.allocate_ui_with_layout(half, down, |ui| magnitude::show(app, ui, reset));
        ui.allocate_ui_with_layout(half, down, |ui| list::show(app, ui));
    });
}
