//! Per-contact laws of a system with several contacts: a contact can have its own law (edited
//! like the law of every contact), and law parameters can be spread at random across the
//! contacts with a seed.

use eframe::egui;

use super::law_section::law_editor;
use super::param_slider;
use crate::gui::TriboApp;
use crate::params::{ParamMeta, Scale};
use crate::preset::{ContactOverride, Distribution, LawSpread};

/// Metadata of the relative-spread slider.
const SPREAD_META: ParamMeta = ParamMeta {
    key: "relative",
    label: "Relative spread",
    symbol: "σ/μ",
    unit: "",
    default: 0.05,
    min: 0.0,
    max: 0.5,
    scale: Scale::Linear,
    integer: false,
    restart: false,
    help: "Relative standard deviation of the parameter across the contacts (0.05: 5 %)",
};

/// Draws the section; `true` when the preset changed.
pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) -> bool {
    let mut changed = false;
    let preset = &mut app.session.preset;
    let layout = preset.system.layout();
    egui::CollapsingHeader::new("Contacts")
        .default_open(!preset.contacts.is_empty() || !preset.spread.is_empty())
        .show(ui, |ui| {
            for (k, contact) in layout.contacts.iter().enumerate() {
                let number = k + 1;
                ui.push_id(("contact", number), |ui| {
                    let existing = preset.contacts.iter().position(|o| o.contact == number);
                    let mut own = existing.is_some();
                    let label = format!("Contact {number} ({}) has its own law", contact.name);
                    if ui.checkbox(&mut own, label).changed() {
                        match existing {
                            Some(i) if !own => {
                                preset.contacts.remove(i);
                            }
                            None if own => {
                                preset.contacts.push(ContactOverride {
                                    contact: number,
                                    law: preset.law.clone(),
                                });
                                preset.contacts.sort_by_key(|o| o.contact);
                            }
                            _ => {}
                        }
                        changed = true;
                    }
                    if let Some(o) = preset.contacts.iter_mut().find(|o| o.contact == number) {
                        ui.indent("law", |ui| changed |= law_editor(ui, &mut o.law));
                    }
                });
            }
            ui.separator();
            changed |= spread_ui(ui, preset);
        });
    changed
}

/// The list of spreads with their sliders, seeds and remove buttons, and a menu to add one.
fn spread_ui(ui: &mut egui::Ui, preset: &mut crate::preset::Preset) -> bool {
    let mut changed = false;
    ui.label(egui::RichText::new("Random spread across the contacts").strong());
    let mut remove = None;
    for (i, s) in preset.spread.iter_mut().enumerate() {
        ui.push_id(("spread", i), |ui| {
            ui.horizontal(|ui| {
                ui.label(format!("{}:", s.param));
                let mut seed = s.seed;
                if ui
                    .add(egui::DragValue::new(&mut seed).prefix("seed "))
                    .on_hover_text("Same seed, same contacts")
                    .changed()
                {
                    s.seed = seed;
                    changed = true;
                }
                let mut normal = s.distribution == Distribution::Normal;
                if ui
                    .checkbox(&mut normal, "normal")
                    .on_hover_text("Normal deviates (truncated at ±3σ) instead of uniform ones")
                    .changed()
                {
                    s.distribution = if normal {
                        Distribution::Normal
                    } else {
                        Distribution::Uniform
                    };
                    changed = true;
                }
                if ui.button("Remove").clicked() {
                    remove = Some(i);
                }
            });
            let mut v = s.relative;
            if param_slider(ui, &SPREAD_META, &mut v) {
                s.relative = v;
                changed = true;
            }
        });
    }
    if let Some(i) = remove {
        preset.spread.remove(i);
        changed = true;
    }
    let keys: Vec<&'static str> = preset
        .law
        .params()
        .meta()
        .iter()
        .map(|m| m.key)
        .filter(|k| !preset.spread.iter().any(|s| s.param == *k))
        .collect();
    let mut add = None;
    egui::ComboBox::from_label("Add a spread of")
        .selected_text("parameter…")
        .show_ui(ui, |ui| {
            for key in keys {
                if ui.selectable_label(false, key).clicked() {
                    add = Some(key);
                }
            }
        });
    if let Some(key) = add {
        preset.spread.push(LawSpread {
            param: key.to_string(),
            relative: SPREAD_META.default,
            distribution: Distribution::Uniform,
            seed: 1,
        });
        changed = true;
    }
    changed
}
