//! System parameters.

use eframe::egui;

use super::param_slider;
use crate::gui::TriboApp;
use crate::systems::{SYSTEMS, SystemConfig};

/// Initial conditions (changing them restarts the run) are the parameters keyed `initial_*`.
fn is_initial(key: &str) -> bool {
    key.starts_with("initial_")
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    let mut changed = false;
    egui::CollapsingHeader::new("System")
        .default_open(true)
        .show(ui, |ui| {
            let variant = app.session.preset.system.variant();
            let info = SYSTEMS.iter().find(|s| s.variant == variant);
            let mut chosen = None;
            egui::ComboBox::from_label("Mechanical system")
                .selected_text(info.map_or(variant, |i| i.name))
                .show_ui(ui, |ui| {
                    for s in SYSTEMS {
                        if ui.selectable_label(s.variant == variant, s.name).clicked()
                            && s.variant != variant
                        {
                            chosen = Some((s.default_config)());
                        }
                    }
                });
            if let Some(system) = chosen {
                app.session.preset.system = system;
                if !app.session.preset.system.uses_law() {
                    app.session.preset.noise = None;
                }
                changed = true;
            }
            let info = app.session.preset.system.info();
            ui.label(egui::RichText::new(info.equation).italics());
            match &app.session.preset.system {
                SystemConfig::BeltBlock(b) => {
                    ui.label(
                        egui::RichText::new(format!(
                            "v_b = {:.4} m/s · belt turn {:.2} s · f₀ = {:.3} Hz",
                            b.belt_speed_mps(),
                            b.belt_period_s(),
                            b.omega_rad_per_s() / std::f64::consts::TAU
                        ))
                        .small(),
                    );
                }
                _ if info.discrete => {
                    ui.label(
                        egui::RichText::new(
                            "Discrete map: t counts iterations (raise the speed and the window)",
                        )
                        .small(),
                    );
                }
                _ => {}
            }
            let params = app.session.preset.system.params_mut();
            for initial in [false, true] {
                if initial {
                    ui.label(egui::RichText::new("Initial conditions (restart the run)").strong());
                }
                for meta in params.meta() {
                    if is_initial(meta.key) != initial {
                        continue;
                    }
                    let mut v = params.get(meta.key).unwrap_or(meta.default);
                    if param_slider(ui, meta, &mut v) && params.set(meta.key, v).is_ok() {
                        changed = true;
                    }
                }
            }
        });
    if changed {
        app.apply_preset();
    }
}
