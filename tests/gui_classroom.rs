//! The window in a classroom (egui_kittest, by labels and keys): F5 and the View menu's
//! presentation mode hide the side panel; the UI size and the light theme are set from the
//! View menu and kept in the saved session; Ctrl+Z and Ctrl+Shift+Z (and the Edit menu) undo
//! and redo slider edits, one step per edit; F1 shows the shortcuts.

#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)]

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

mod gui_common;

fn mass(h: &egui_kittest::Harness<'static, tribolab::gui::TriboApp>) -> f64 {
    h.state()
        .session()
        .preset
        .system
        .params()
        .get("mass")
        .unwrap()
}

#[test]
fn presentation_mode_ui_size_and_theme() {
    let mut h = gui_common::window(egui::vec2(1400.0, 880.0), false, vec![]);
    h.run_steps(3);
    assert!(h.query_by_label("Mechanical system").is_some());
    h.key_press(egui::Key::F5);
    h.run_steps(3);
    assert!(h.state().presenting());
    assert!(h.query_by_label("Mechanical system").is_none());
    // The plots are still there, and wider.
    h.get_by_label("Overview");
    // Back through the View menu.
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Presentation mode (F5)").click();
    h.run_steps(3);
    assert!(!h.state().presenting());
    assert!(h.query_by_label("Mechanical system").is_some());

    // Light theme and a larger UI from the View menu, kept in the saved session.
    h.key_press(egui::Key::Escape);
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Light").click();
    h.run_steps(2);
    if h.query_by_role_and_label(Role::Slider, "UI size").is_none() {
        h.get_by_label("View").click();
        h.run_steps(2);
    }
    h.get_by_role_and_label(Role::Slider, "UI size")
        .set_value_accesskit(1.5);
    h.run_steps(4);
    assert!(h.state().session().view.light_theme);
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    assert!(
        (h.ctx.zoom_factor() - 1.5).abs() < 1e-6,
        "{}",
        h.ctx.zoom_factor()
    );
    let saved = h.state().session().to_saved();
    assert!(saved.view.light_theme);
    assert!((saved.view.ui_scale - 1.5).abs() < 1e-6);
}

#[test]
fn undo_and_redo_slider_edits() {
    let mut h = gui_common::window(egui::vec2(1400.0, 880.0), false, vec![]);
    h.run_steps(3);
    assert_eq!(mass(&h), 1.0);
    assert!(!h.state().edit_history().can_undo());
    for m in [2.0, 3.0] {
        h.get_by_role_and_label(Role::Slider, "Block mass")
            .set_value_accesskit(m);
        h.run_steps(3);
    }
    assert_eq!(mass(&h), 3.0);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(mass(&h), 2.0);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(mass(&h), 1.0);
    assert!(!h.state().edit_history().can_undo());
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(3);
    assert_eq!(mass(&h), 2.0);
    // The Edit menu does the same.
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains("Redo").click();
    h.run_steps(3);
    assert_eq!(mass(&h), 3.0);
    // A new edit after undoing clears what could be redone.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    h.get_by_role_and_label(Role::Slider, "Block mass")
        .set_value_accesskit(5.0);
    h.run_steps(3);
    assert!(!h.state().edit_history().can_redo());
    assert_eq!(mass(&h), 5.0);

    h.key_press(egui::Key::F1);
    h.run_steps(3);
    h.get_by_label_contains("undo a parameter change");
}

/// File → Export figure (SVG) writes the current view as a handout figure: the rig's test with
/// its title and units.
#[test]
fn the_current_view_exports_as_a_figure() {
    let dir = gui_common::temp_dir("figure");
    let path = dir.join("stribeck.svg");
    let mut h = gui_common::window(egui::vec2(1400.0, 880.0), true, vec![Some(path.clone())]);
    h.run_steps(3);
    gui_common::load_builtin(&mut h, "Stribeck curve on the test rig (LuGre)");
    h.state_mut().set_max_speed(true);
    gui_common::run_until(&mut h, 60.0, |a| a.rig_reading().rows.len() >= 4);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Export figure (SVG)…").click();
    gui_common::run_until(&mut h, 10.0, |_| path.exists());
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("Stribeck curve: steady friction against sliding speed"));
    assert!(svg.contains("sliding speed |v| [m/s] (log scale)"));
    assert!(svg.contains("Stribeck curve on the test rig (LuGre). Characterisation rig"));
    std::fs::remove_dir_all(&dir).ok();
}

/// State that tells the truth: the belt-turn line follows a changed wheel speed at once; after
/// another law is chosen the side panel says the description was written for the old one and
/// offers the edited preset a name of its own.
#[test]
fn derived_lines_and_notes_follow_the_live_parameters() {
    let mut h = gui_common::window(egui::vec2(1400.0, 880.0), false, vec![]);
    h.run_steps(3);
    let f0 = h.state().spectrum_forcing_hz().unwrap();
    assert!((f0 - 0.10136).abs() < 1e-4, "{f0}");
    h.get_by_role_and_label(Role::Slider, "Wheel speed")
        .set_value_accesskit(38.72);
    h.run_steps(3);
    let f1 = h.state().spectrum_forcing_hz().unwrap();
    assert!((f1 - 2.0 * f0).abs() < 1e-6, "{f1} vs {f0}");

    assert!(h.state().description_note().is_none());
    h.get_by_role_and_label(Role::ComboBox, "Friction law")
        .scroll_to_me();
    h.run_steps(3);
    h.get_by_role_and_label(Role::ComboBox, "Friction law")
        .click();
    h.run_steps(2);
    h.get_by_label("Dahl").click();
    h.run_steps(3);
    let note = h.state().description_note().unwrap();
    assert!(
        note.contains("written for Stribeck (thesis S1) friction; the law is now Dahl"),
        "{note}"
    );
    h.get_by_label_contains("the law is now Dahl");
    h.get_by_role_and_label(Role::TextInput, "Name of your version")
        .set_text_value_accesskit("My Dahl bench");
    h.run_steps(3);
    assert_eq!(h.state().session().preset.name, "My Dahl bench");
}

/// `tribolab gui DATA.csv` (AppOptions::measured) opens the window with the file in the import
/// window, ready to analyse or fit.
#[test]
fn a_measured_file_on_the_command_line_opens_in_the_import_window() {
    use egui_kittest::Harness;
    use tribolab::gui::{AppOptions, TriboApp};
    let path = std::path::PathBuf::from("docs/examples/ball_on_flat.tsv");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 880.0))
        .build_eframe(move |cc| {
            TriboApp::with_options(
                cc,
                AppOptions {
                    restore: false,
                    start_running: false,
                    measured: Some(path.clone()),
                    ..AppOptions::default()
                },
            )
        });
    h.run_steps(3);
    h.get_by_label("Import measured series");
    h.get_by_label_contains("4 columns: time, Fn, pos, Ff");
    h.get_by_label("Fit a law to this file instead");
}
