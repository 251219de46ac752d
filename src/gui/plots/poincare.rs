//! Poincaré map: stroboscopic at the forcing period when the system is periodically forced
//! (the belt joint of the bench), otherwise the model's own sections (stick onset, turning
//! point), located on the solution; drawn in the plane of the phase-plane view.

use eframe::egui;
use egui_plot::{Plot, Points};

use super::roles::plane_axes;
use crate::gui::TriboApp;
use crate::integrate::driver::SectionId;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let mut options: Vec<(SectionId, String)> = Vec::new();
    if let Some(p) = app.run.strobe_period_s {
        options.push((
            SectionId::Stroboscopic,
            format!("stroboscopic, every forcing period ({p:.3} s)"),
        ));
    }
    for (i, name) in app.run.section_names.iter().enumerate() {
        options.push((SectionId::Model(i), name.clone()));
    }
    if options.is_empty() {
        ui.label("This system offers no Poincaré section.");
        return;
    }
    let sel = &mut app.session.view.poincare_section;
    if *sel >= options.len() {
        *sel = 0;
    }
    egui::ComboBox::from_label("Section")
        .selected_text(options[*sel].1.clone())
        .show_ui(ui, |ui| {
            for (i, (_, name)) in options.iter().enumerate() {
                ui.selectable_value(sel, i, name);
            }
        });
    let id = options[*sel].0;
    let Some(choice) = super::plane_row(app, ui, "Plane") else {
        return;
    };
    let Some((ix, iv)) = plane_axes(app, choice) else {
        return;
    };
    let (x_label, v_label) = (app.run.label(ix), app.run.label(iv));
    let pts: Vec<[f64; 2]> = app
        .history
        .section_points(id)
        .map(|r| [r[ix], r[iv]])
        .collect();
    ui.label(format!("{} points", pts.len()));
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("poincare"))
        .x_axis_label(x_label)
        .y_axis_label(v_label);
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.points(Points::new("section points", pts).radius(2.5).filled(true));
    });
}
