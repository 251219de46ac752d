//! Non-numeric parameters: a menu for a choice among named options, a RON text field for the
//! others (lists, options carrying numbers).

use eframe::egui;

use crate::params::ParamSet;

/// The non-numeric options of a law or a system, except those in `skip` (which have their own
/// editor): a choice among named options (a chain's ends, an evolution law) as a menu, the
/// others (an element list, an initial pattern) as RON text applied when it parses; a parse
/// error shows under the field.
pub(super) fn extra_fields_ui(ui: &mut egui::Ui, params: &mut dyn ParamSet, skip: &[&str]) -> bool {
    let mut changed = false;
    for &key in params.extra_keys() {
        if skip.contains(&key) {
            continue;
        }
        let Some(current) = params.get_text(key) else {
            continue;
        };
        let choices = params.extra_choices(key);
        if !choices.is_empty() {
            changed |= choice_ui(ui, params, key, &current, choices);
            continue;
        }
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

/// A menu of the named options of `key`; sets the chosen one.
fn choice_ui(
    ui: &mut egui::Ui,
    params: &mut dyn ParamSet,
    key: &str,
    current: &str,
    choices: &[&str],
) -> bool {
    let mut chosen = None;
    egui::ComboBox::new(("extra-choice", key), key)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for &option in choices {
                if ui.selectable_label(option == current, option).clicked() && option != current {
                    chosen = Some(option);
                }
            }
        });
    chosen.is_some_and(|option| params.set_text(key, option).is_ok())
}
