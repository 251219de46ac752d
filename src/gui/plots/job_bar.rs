//! The row every analysis panel starts with: its start button, and while its job runs a
//! progress bar and Cancel; below, the last failure or cancellation in words.

use eframe::egui;

use crate::gui::TriboApp;
use crate::gui::jobs::JobKind;

/// Draws the row; returns `true` when the start button was clicked.
pub fn show(
    app: &mut TriboApp,
    ui: &mut egui::Ui,
    kind: JobKind,
    start: &str,
    enabled: Result<(), &str>,
) -> bool {
    let mut clicked = false;
    let mut cancel = false;
    ui.horizontal(|ui| {
        let running = app.lab.is_running(kind);
        let button = ui.add_enabled(enabled.is_ok() && !running, egui::Button::new(start));
        if let Err(why) = enabled {
            button.on_disabled_hover_text(why);
        } else if button.clicked() {
            clicked = true;
        }
        if let Some(a) = app.lab.active().filter(|a| a.kind == kind) {
            let text = if a.cancelling {
                "cancelling…".to_string()
            } else {
                a.text.clone()
            };
            ui.add(
                egui::ProgressBar::new(a.fraction)
                    .text(text)
                    .desired_width(ui.available_width().min(420.0) - 80.0),
            );
            cancel = ui.button("Cancel").clicked();
        } else if let Some(a) = app.lab.active() {
            ui.label(
                egui::RichText::new(format!(
                    "busy with the {} (starting this one cancels it)",
                    a.kind.describe()
                ))
                .weak(),
            );
        }
    });
    if let Err(why) = enabled {
        ui.label(egui::RichText::new(why).weak());
    }
    if !app.lab.is_running(kind)
        && let Some(text) = app.lab.outcome(kind)
    {
        let color = if text.ends_with("cancelled") {
            ui.visuals().weak_text_color()
        } else {
            ui.visuals().error_fg_color
        };
        ui.label(egui::RichText::new(text).color(color));
    }
    if cancel {
        app.cancel_analysis();
    }
    clicked
}
