//! Non-numeric parameters (options, lists) as RON text fields.

use eframe::egui;

use crate::params::ParamSet;

/// The non-numeric options of a law or a system (an overstress form, an explicit element list,
/// a chain's ends or initial pattern), except those in `skip` (which have their own editor),
/// edited as RON text and applied when the text parses; a parse error shows under the field.
pub(super) fn extra_fields_ui(ui: &mut egui::Ui, params: &mut dyn ParamSet, skip: &[&str]) -> bool {
    let mut changed = false;
    for &key in params.extra_keys() {
        if skip.contains(&key) {
            continue;
        }
        let Some(current) = params.get_text(key) else {
            continue;
        };
        let id = ui.scope_id().with(("extra", key));
        let mut text = ui
            .data_mut(|d| d.get_temp::<String>(id))
            .unwrap_or_else(|| current.clone());
        let response = ui
            .horizontal(|ui| {
                let r = ui.add(
                    egui::TextEdit::singleline(&mut text)
                        .desired_width(180.0)
                        .font(egui::TextStyle::Monospace),
                );
                ui.label(key);
                r
            })
            .inner
            .on_hover_text("RON value; press Enter to apply");
        let commit = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if commit && text != current {
            match params.set_text(key, &text) {
                Ok(()) => {
                    changed = true;
                    ui.data_mut(|d| d.remove::<String>(id));
                }
                Err(e) => {
                    ui.data_mut(|d| d.insert_temp(id, text.clone()));
                    ui.colored_label(ui.visuals().error_fg_color, e.to_string());
                }
            }
        } else if response.has_focus() || text != current {
            ui.data_mut(|d| d.insert_temp(id, text));
        }
    }
    changed
}
