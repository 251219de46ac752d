//! The event list, newest first; a click selects an event (every view's time window moves to
//! it, see `plots::view_end_s`).

use eframe::egui;

use crate::gui::TriboApp;
use crate::util::eng::format_si;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    let Some(cat) = app.catalogue.as_mut() else {
        return;
    };
    // Potency is a slip distance in the blocks' unit (dimensionless for Carlson–Langer).
    let unit = app
        .run
        .layout
        .dofs
        .first()
        .map_or(String::new(), |d| d.unit.clone());
    let time_unit = app.run.time_unit();
    ui.horizontal(|ui| {
        ui.strong(format!(
            "{} events ({} in progress)",
            cat.events.len() + cat.dropped,
            cat.open_events()
        ));
        if cat.selected.is_some() && ui.button("Follow the run").clicked() {
            cat.selected = None;
        }
    });
    ui.label(
        egui::RichText::new("start · duration · first block · blocks · slip (potency) · magnitude")
            .small(),
    );
    let n = cat.events.len();
    let row_h = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, row_h, n, |ui, rows| {
            for k in rows {
                let i = n - 1 - k;
                let e = &cat.events[i];
                let text = format!(
                    "#{}  t = {}  ·  {}  ·  block {}  ·  {} block{}  ·  {}  ·  M = {:.2}",
                    cat.dropped + i + 1,
                    format_si(e.start_s, time_unit, 4),
                    format_si(e.duration_s(), time_unit, 3),
                    e.epicentre + 1,
                    e.blocks,
                    if e.blocks == 1 { "" } else { "s" },
                    format_si(e.potency_m, &unit, 3),
                    e.magnitude
                );
                if ui.selectable_label(cat.selected == Some(i), text).clicked() {
                    clicked = Some(i);
                }
            }
        });
    if let Some(i) = clicked {
        cat.selected = Some(i);
    }
}
