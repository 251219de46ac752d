//! Run controls: play/pause, step, reset, speed, history length, accuracy.

use eframe::egui;

use super::param_slider;
use crate::gui::TriboApp;
use crate::gui::worker::{Command, STEP_MODEL_S};
use crate::integrate::Method;
use crate::params::{ParamMeta, ParamSet};
use crate::preset::Playback;

/// The speed and history sliders take their label, unit and range from the preset's playback
/// metadata, so a preset can ask for nothing the window cannot show.
const SPEED_META: &ParamMeta = &Playback::META[0];
const WINDOW_META: &ParamMeta = &Playback::META[1];

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    // One step is a thousandth of the history shown, at most the bench's 10 ms: an atomic
    // model shown over nanoseconds steps by picoseconds.
    let step_s = STEP_MODEL_S.min(app.session.view.window_s * 1e-3);
    ui.horizontal(|ui| {
        let label = if app.run.running { "Pause" } else { "Play" };
        if ui
            .button(label)
            .on_hover_text("Space: play / pause")
            .clicked()
        {
            app.toggle_running();
        }
        if ui
            .button("Step")
            .on_hover_text(format!(
                "Advance {} of model time",
                crate::util::eng::format_si(step_s, app.run.time_unit(), 3)
            ))
            .clicked()
        {
            app.step_by(step_s);
        }
        if ui
            .button("Reset")
            .on_hover_text("R: restart from the initial conditions")
            .clicked()
        {
            app.reset();
        }
    });
    let view = &mut app.session.view;
    let mut speed_changed = false;
    ui.add_enabled_ui(!view.max_speed, |ui| {
        speed_changed |= param_slider(ui, SPEED_META, &mut view.speed);
    });
    speed_changed |= ui
        .checkbox(&mut view.max_speed, "As fast as possible")
        .changed();
    param_slider(ui, WINDOW_META, &mut view.window_s);
    if speed_changed {
        let s = app.speed();
        app.send(Command::SetSpeed(s));
    }
    egui::CollapsingHeader::new("Accuracy")
        .default_open(false)
        .show(ui, |ui| {
            let mut changed = false;
            let run = &mut app.session.preset.run;
            egui::ComboBox::from_label("Integrator")
                .selected_text(run.integrator.name())
                .show_ui(ui, |ui| {
                    for m in Method::ALL {
                        if ui.selectable_label(run.integrator == m, m.name()).clicked()
                            && run.integrator != m
                        {
                            run.integrator = m;
                            changed = true;
                        }
                    }
                });
            for key in ["rtol", "rk4_dt", "output_interval"] {
                if let Some(meta) = run.meta().iter().find(|m| m.key == key) {
                    let mut v = run.get(key).unwrap_or(meta.default);
                    if param_slider(ui, meta, &mut v) && run.set(key, v).is_ok() {
                        changed = true;
                    }
                }
            }
            if changed {
                app.apply_preset();
            }
        });
}
