//! The side panel: preset, system, friction law, load noise and run controls. Every slider is
//! generated from the parameter metadata of the core.

mod contacts_section;
mod extra_fields;
mod law_section;
mod param_slider;
mod run_section;
mod system_section;

use eframe::egui;

use super::TriboApp;

pub use param_slider::param_slider;

/// Draws the side panel.
pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        preset_header(app, ui);
        unapplied(app, ui);
        ui.separator();
        run_section::show(app, ui);
        ui.separator();
        system_section::show(app, ui);
        ui.separator();
        if app.session.preset.system.uses_law() {
            law_section::show(app, ui);
        } else if app.session.preset.system.layout().contacts.is_empty() {
            ui.label(egui::RichText::new("This reference system has no friction law.").weak());
        } else {
            ui.label(
                egui::RichText::new(
                    "This system's friction is part of its equation (above): its parameters are \
                     the system's.",
                )
                .weak(),
            );
        }
        ui.add_space(8.0);
    });
}

/// The edited values that contradict each other, and that the run goes on without them.
fn unapplied(app: &TriboApp, ui: &mut egui::Ui) {
    if app.run.unapplied.is_empty() {
        return;
    }
    let colour = ui.visuals().error_fg_color;
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.0, colour))
        .show(ui, |ui| {
            ui.label(
                egui::RichText::new("Not applied: the run goes on with the last consistent values")
                    .color(colour)
                    .strong(),
            );
            for (path, message) in &app.run.unapplied {
                ui.label(egui::RichText::new(format!("{path}: {message}")).color(colour));
            }
        });
}

fn preset_header(app: &mut TriboApp, ui: &mut egui::Ui) {
    let p = &app.session.preset;
    ui.heading(&p.name);
    let changed = app.session.preset != app.session.reference;
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(&app.session.source).small().weak());
        if changed {
            ui.label(egui::RichText::new("(modified)").small().italics());
        }
    });
    if changed {
        // An edited preset is the user's own: offer it a name of its own.
        ui.horizontal(|ui| {
            let label = ui.label("Name of your version");
            ui.text_edit_singleline(&mut app.session.preset.name)
                .labelled_by(label.id);
        });
    }
    if let Some(note) = description_mismatch(app) {
        ui.label(
            egui::RichText::new(note)
                .italics()
                .color(ui.visuals().warn_fg_color),
        );
    }
    let p = &app.session.preset;
    if !p.description.is_empty() {
        egui::CollapsingHeader::new("About this preset")
            .default_open(true)
            .show(ui, |ui| {
                ui.label(&app.session.preset.description);
            });
    }
    let reset = ui
        .add_enabled(changed, egui::Button::new("Reset to preset"))
        .on_hover_text("Undo every change made since the preset was loaded");
    if reset.clicked() {
        app.reset_to_preset();
    }
}

/// When the law or the system is no longer the one the description was written for: a note
/// saying so (the description itself stays as written).
pub fn description_mismatch(app: &TriboApp) -> Option<String> {
    let (now, was) = (&app.session.preset, &app.session.reference);
    if now.system.variant() != was.system.variant() {
        return Some(format!(
            "The description below was written for the {}; the system is now the {}.",
            was.system.info().name,
            now.system.info().name
        ));
    }
    if now.system.uses_law() && now.law.variant() != was.law.variant() {
        return Some(format!(
            "The description below was written for {} friction; the law is now {}.",
            was.law.info().name,
            now.law.info().name
        ));
    }
    None
}
