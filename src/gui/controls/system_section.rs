//! System parameters.

use eframe::egui;

use super::param_slider;
use crate::gui::TriboApp;
use crate::systems::{SYSTEMS, SystemConfig};

/// Keys of the initial conditions (changing them restarts the run).
const INITIAL: [&str; 2] = ["initial_position", "initial_slip_velocity"];

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    let mut changed = false;
    egui::CollapsingHeader::new("System")
        .default_open(true)
        .show(ui, |ui| {
            let variant = app.session.preset.system.variant();
            let info = SYSTEMS.iter().find(|s| s.variant == variant);
            egui::ComboBox::from_label("Mechanical system")
                .selected_text(info.map_or(variant, |i| i.name))
                .show_ui(ui, |ui| {
                    for s in SYSTEMS {
                        let _ = ui.selectable_label(s.variant == variant, s.name);
                    }
                });
            if let Some(i) = info {
                ui.label(egui::RichText::new(i.equation).italics());
            }
            let SystemConfig::BeltBlock(b) = &app.session.preset.system;
            ui.label(
                egui::RichText::new(format!(
                    "v_b = {:.4} m/s · belt turn {:.2} s · f₀ = {:.3} Hz",
                    b.belt_speed_mps(),
                    b.belt_period_s(),
                    b.omega_rad_per_s() / std::f64::consts::TAU
                ))
                .small(),
            );
            let params = app.session.preset.system.params_mut();
            for initial in [false, true] {
                if initial {
                    ui.label(egui::RichText::new("Initial conditions (restart the run)").strong());
                }
                for meta in params.meta() {
                    if INITIAL.contains(&meta.key) != initial {
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
