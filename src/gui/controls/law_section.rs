//! Friction-law choice, its equation, its sliders and options; the load-noise modifier.

use eframe::egui;

use super::extra_fields::extra_fields_ui;
use super::param_slider;
use crate::gui::TriboApp;
use crate::laws::{LAWS, NoiseParams, REGULARIZATION_RANGE_MPS, SignModel};
use crate::params::{ParamMeta, ParamSet, Scale};

/// Metadata of the regularisation velocity slider of the sign models.
const REG_META: ParamMeta = ParamMeta {
    key: "sign_velocity",
    label: "Regularisation velocity",
    symbol: "v_ε",
    unit: "m/s",
    default: 1e-4,
    min: REGULARIZATION_RANGE_MPS.0,
    max: REGULARIZATION_RANGE_MPS.1,
    scale: Scale::Log,
    integer: false,
    restart: false,
    help: "Velocity scale of the smoothed sign (tanh, arctan) or width of Karnopp's band",
};

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    let mut changed = false;
    let n_contacts = app.session.preset.system.n_contacts();
    let title = if n_contacts > 1 {
        "Friction law (every contact)"
    } else {
        "Friction law"
    };
    egui::CollapsingHeader::new(title)
        .default_open(true)
        .show(ui, |ui| {
            changed |= law_editor(ui, &mut app.session.preset.law);
        });
    let preset = &app.session.preset;
    if n_contacts > 1 || !preset.contacts.is_empty() || !preset.spread.is_empty() {
        changed |= super::contacts_section::show(app, ui);
    }
    egui::CollapsingHeader::new("Normal-load noise")
        .default_open(false)
        .show(ui, |ui| {
            let mut on = app.session.preset.noise.is_some();
            if ui
                .checkbox(&mut on, "Stochastic normal-load fluctuation")
                .on_hover_text(
                    "N(t) = N_det(t)·(1 + σ_N·ζ(t)), ζ a seeded Ornstein–Uhlenbeck process",
                )
                .changed()
            {
                app.session.preset.noise = on.then(NoiseParams::default);
                changed = true;
            }
            if let Some(noise) = app.session.preset.noise.as_mut() {
                for meta in NoiseParams::META {
                    let mut v = noise.get(meta.key).unwrap_or(meta.default);
                    if param_slider(ui, meta, &mut v) && noise.set(meta.key, v).is_ok() {
                        changed = true;
                    }
                }
                let mut seed = noise.seed;
                if ui
                    .add(egui::DragValue::new(&mut seed).prefix("seed "))
                    .on_hover_text("Same seed, same load history")
                    .changed()
                {
                    noise.seed = seed;
                    changed = true;
                }
            }
        });
    if changed {
        app.apply_preset();
    }
}

/// The law menu, its equation and summary, its sliders and options; `true` when it changed.
pub(super) fn law_editor(ui: &mut egui::Ui, law: &mut crate::laws::LawConfig) -> bool {
    let mut changed = false;
    let current = law.info();
    let mut chosen = None;
    // Tall enough for every law without a scroll bar.
    egui::ComboBox::from_label("Friction law")
        .selected_text(current.name)
        .width(200.0)
        .height(520.0)
        .show_ui(ui, |ui| {
            for info in LAWS {
                let r = ui
                    .selectable_label(info.variant == current.variant, info.name)
                    .on_hover_text(info.summary);
                if r.clicked() && info.variant != current.variant {
                    chosen = Some((info.default_config)());
                }
            }
        });
    if let Some(cfg) = chosen {
        *law = cfg;
        changed = true;
    }
    let info = law.info();
    ui.label(egui::RichText::new(info.equation).monospace().small());
    ui.label(egui::RichText::new(info.summary).italics());
    let params = law.params_mut();
    for meta in params.meta() {
        let mut v = params.get(meta.key).unwrap_or(meta.default);
        if param_slider(ui, meta, &mut v) && params.set(meta.key, v).is_ok() {
            changed = true;
        }
    }
    if let Some(mut sign) = law.sign_model()
        && sign_model_ui(ui, &mut sign)
    {
        changed |= law.set_sign_model(sign);
    }
    changed |= extra_fields_ui(ui, law.params_mut(), &[crate::laws::SIGN_KEY]);
    changed
}

fn sign_model_ui(ui: &mut egui::Ui, sign: &mut SignModel) -> bool {
    let mut changed = false;
    let velocity = sign.velocity_mps().unwrap_or(REG_META.default);
    egui::ComboBox::from_label("Sign at v = 0")
        .selected_text(sign.name())
        .show_ui(ui, |ui| {
            let options = [
                SignModel::SetValued,
                SignModel::Tanh(velocity),
                SignModel::Arctan(velocity),
                SignModel::Karnopp(velocity),
            ];
            for opt in options {
                if ui
                    .selectable_label(
                        std::mem::discriminant(&opt) == std::mem::discriminant(sign),
                        opt.name(),
                    )
                    .clicked()
                    && opt != *sign
                {
                    *sign = opt;
                    changed = true;
                }
            }
        });
    if let Some(mut v) = sign.velocity_mps()
        && param_slider(ui, &REG_META, &mut v)
    {
        *sign = match *sign {
            SignModel::Tanh(_) => SignModel::Tanh(v),
            SignModel::Arctan(_) => SignModel::Arctan(v),
            SignModel::Karnopp(_) => SignModel::Karnopp(v),
            SignModel::SetValued => SignModel::SetValued,
        };
        changed = true;
    }
    changed
}
