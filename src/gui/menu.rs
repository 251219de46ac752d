//! The menu bar: presets (built-in, open, save), export, view and help.

use eframe::egui;

use super::TriboApp;
use super::session::Tab;
use crate::preset::Preset;
use crate::preset::builtin::BUILTIN;

pub fn bar(app: &mut TriboApp, ui: &mut egui::Ui) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            ui.menu_button("Built-in presets", |ui| builtin_menu(app, ui));
            if ui
                .add(egui::Button::new("Open preset…").shortcut_text("Ctrl+O"))
                .clicked()
            {
                ui.close();
                app.open_preset_dialog(ui.ctx());
            }
            if ui
                .add(egui::Button::new("Save preset as…").shortcut_text("Ctrl+S"))
                .clicked()
            {
                ui.close();
                app.save_preset_dialog(ui.ctx());
            }
            if ui.button("Import measured series (CSV)…").clicked() {
                ui.close();
                app.import_csv_dialog(ui.ctx());
            }
            if ui
                .button("Fit a law to a friction measurement…")
                .on_hover_text("Opens the Fit tab and asks for the file")
                .clicked()
            {
                ui.close();
                app.set_tab(super::session::Tab::Fit);
                app.ask_file(ui.ctx(), super::dialogs::DialogKind::FitData, "");
            }
            ui.separator();
            if ui.button("Export traces (CSV)…").clicked() {
                ui.close();
                app.export_csv_dialog(ui.ctx());
            }
            if ui
                .button("Export figure (SVG)…")
                .on_hover_text(
                    "The current view as a figure for a handout: white background, title, \
                     axes with units, legend, the parameters in the caption",
                )
                .clicked()
            {
                ui.close();
                app.export_figure_dialog(ui.ctx());
            }
            if ui.button("Export plots (PNG)…").clicked() {
                ui.close();
                app.export_png_dialog(ui.ctx());
            }
            ui.separator();
            if ui.button("Quit").clicked() {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        });
        ui.menu_button("Edit", |ui| {
            if ui
                .add_enabled(
                    app.edit_history().can_undo(),
                    egui::Button::new("Undo").shortcut_text("Ctrl+Z"),
                )
                .clicked()
            {
                ui.close();
                app.undo();
            }
            if ui
                .add_enabled(
                    app.edit_history().can_redo(),
                    egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z"),
                )
                .clicked()
            {
                ui.close();
                app.redo();
            }
        });
        ui.menu_button("Lessons", |ui| super::lesson::menu(app, ui));
        ui.menu_button("View", |ui| {
            for tab in Tab::ALL {
                if ui.radio(app.session.view.tab == tab, tab.title()).clicked() {
                    app.session.view.tab = tab;
                    ui.close();
                }
            }
            ui.separator();
            super::presentation::menu(app, ui);
            ui.separator();
            ui.checkbox(&mut app.session.view.show_bench, "Bench animation");
            ui.checkbox(&mut app.session.view.antialiasing, "Anti-aliasing")
                .on_hover_text(
                    "Smooth line edges. Turn off for a higher frame rate on machines without a GPU",
                );
            ui.add_enabled_ui(app.session.view.antialiasing, |ui| {
                ui.checkbox(
                    &mut app.session.view.smooth_while_running,
                    "Anti-aliasing while running",
                )
                .on_hover_text(
                    "Smooth lines also while the simulation runs (paused views and exported \
                     figures are always smooth). Costs about half the frame rate without a GPU",
                );
            });
        });
        ui.menu_button("Help", |ui| {
            if ui
                .add(egui::Button::new("Keyboard shortcuts").shortcut_text("F1"))
                .clicked()
            {
                app.show_shortcuts();
                ui.close();
            }
            if ui.button("About tribolab").clicked() {
                app.show_info(
                    "About tribolab",
                    format!(
                        "tribolab {} — a laboratory for dry friction and stick–slip dynamics.\n\
                         Equations: MODELS.md; sources: the S1–S4 seed documents.",
                        env!("CARGO_PKG_VERSION")
                    ),
                );
                ui.close();
            }
        });
    });
}

/// The built-in presets, one submenu per system (in the systems' menu order), each preset with
/// its description on hover.
fn builtin_menu(app: &mut TriboApp, ui: &mut egui::Ui) {
    let presets: Vec<(&str, Result<Preset, String>)> = BUILTIN
        .iter()
        .map(|(stem, text)| {
            let parsed = Preset::from_ron(text, &format!("<builtin:{stem}>"));
            (*stem, parsed.map_err(|e| e.to_string()))
        })
        .collect();
    for (stem, p) in &presets {
        if let Err(e) = p {
            ui.label(format!("{stem}: {e}"));
        }
    }
    for info in crate::systems::SYSTEMS {
        let of_system: Vec<(&str, &Preset)> = presets
            .iter()
            .filter_map(|(stem, p)| p.as_ref().ok().map(|p| (*stem, p)))
            .filter(|(_, p)| p.system.variant() == info.variant)
            .collect();
        if of_system.is_empty() {
            continue;
        }
        ui.menu_button(info.name, |ui| {
            for (stem, p) in of_system {
                let r = ui.button(&p.name).on_hover_text(&p.description);
                if r.clicked() {
                    app.load_preset(p.clone(), format!("<builtin:{stem}>"));
                    ui.close();
                }
            }
        });
    }
}

impl TriboApp {
    /// The keyboard shortcuts (Help menu, F1).
    pub fn show_shortcuts(&mut self) {
        self.show_info(
            "Keyboard shortcuts",
            "Space      play / pause\nR          restart from the initial conditions\n\
                     Ctrl+O     open a preset\nCtrl+S     save the preset as…\n\
                     Ctrl+Z     undo a parameter change (Ctrl+Shift+Z or Ctrl+Y: redo)\n\
                     F1         this list\n\
                     F5         presentation mode (side panel hidden)\n\
                     Ctrl + / Ctrl − / Ctrl 0   larger / smaller / normal UI size\n\
                     Page Down / Page Up   next / previous step of a lesson\n\
                     Double-click a slider to reset it to its default.\n\
                     Drop a preset or lesson (.ron) or a measurement (.csv) on the window to open it.\n\
                     Plots: drag to pan, scroll or Ctrl+drag to zoom, double-click to reset."
                .into(),
        );
    }
}
