//! System parameters.

use eframe::egui;

use super::extra_fields::extra_fields_ui;
use super::param_slider;
use crate::gui::TriboApp;
use crate::systems::SYSTEMS;
use crate::util::eng::format_si;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    let mut changed = false;
    egui::CollapsingHeader::new("System")
        .default_open(true)
        .show(ui, |ui| {
            let variant = app.session.preset.system.variant();
            let info = SYSTEMS.iter().find(|s| s.variant == variant);
            let mut chosen = None;
            // A fixed width with the name truncated: a long system name must not squeeze the
            // label into a column of single letters.
            let name = info.map_or(variant, |i| i.name);
            egui::ComboBox::from_label("Mechanical system")
                .selected_text(name)
                .width(200.0)
                .height(480.0)
                .truncate()
                .show_ui(ui, |ui| {
                    for s in SYSTEMS {
                        if ui.selectable_label(s.variant == variant, s.name).clicked()
                            && s.variant != variant
                        {
                            chosen = Some((s.default_config)());
                        }
                    }
                })
                .response
                .on_hover_text(name);
            if let Some(system) = chosen {
                let preset = &mut app.session.preset;
                preset.system = system;
                // Overrides and spreads belong to the old system's contacts.
                preset.contacts.clear();
                preset.spread.clear();
                if !preset.system.uses_law() {
                    preset.noise = None;
                }
                changed = true;
            }
            let info = app.session.preset.system.info();
            ui.label(egui::RichText::new(info.equation).italics());
            let derived = app.session.preset.system.derived();
            if !derived.is_empty() {
                let line: Vec<String> = derived
                    .iter()
                    .map(|d| format!("{} = {}", d.label, format_si(d.value, d.unit, 4)))
                    .collect();
                ui.label(egui::RichText::new(line.join(" · ")).small());
            }
            // Where steady sliding loses its stability, with the laws as set.
            for b in app.session.preset.spec().stability_boundaries() {
                ui.label(egui::RichText::new(b.describe()).small())
                    .on_hover_text(
                        "From the linearised equations about steady sliding at the driver's speed; \
                         the Bifurcation tab draws it on a sweep of this parameter.",
                    );
            }
            if info.discrete {
                ui.label(
                    egui::RichText::new(
                        "Discrete map: t counts iterations (raise the speed and the window)",
                    )
                    .small(),
                );
            }
            let params = app.session.preset.system.params_mut();
            for restart in [false, true] {
                if restart && params.meta().iter().any(|m| m.restart) {
                    ui.label(egui::RichText::new("Changing these restarts the run").strong());
                }
                for meta in params.meta() {
                    if meta.restart != restart {
                        continue;
                    }
                    let mut v = params.get(meta.key).unwrap_or(meta.default);
                    if param_slider(ui, meta, &mut v) && params.set(meta.key, v).is_ok() {
                        changed = true;
                    }
                }
            }
            changed |= extra_fields_ui(ui, params, &[]);
        });
    if changed {
        app.apply_preset();
    }
}
