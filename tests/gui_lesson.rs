//! A lesson taught from the window (egui_kittest, by labels): Lessons → a built-in lesson sets
//! the session to its first step and the view it names; Next ▶, Page Down, ◀ Previous and
//! Page Up move between steps with the state each stands for; End lesson closes the panel and
//! leaves the session; a lecturer's lesson file opens from the menu, and a broken one is
//! reported without touching the session.

#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)]

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tribolab::gui::TriboApp;
use tribolab::gui::session::Tab;
use tribolab::systems::SystemConfig;

mod gui_common;
use gui_common::temp_dir;

fn rpm(h: &Harness<'static, TriboApp>) -> f64 {
    match &h.state().session().preset.system {
        SystemConfig::BeltBlock(b) => b.wheel_rpm,
        other => panic!("not the bench: {}", other.variant()),
    }
}

fn open_lesson_menu(h: &mut Harness<'static, TriboApp>) {
    h.get_by_label("Lessons").click();
    h.run_steps(2);
}

#[test]
fn a_built_in_lesson_steps_forward_and_back() {
    let mut h = gui_common::window(egui::vec2(1400.0, 880.0), false, vec![]);
    h.run_steps(3);
    open_lesson_menu(&mut h);
    h.get_by_label("Stick–slip onset and the critical belt speed")
        .click();
    h.run_steps(3);
    assert_eq!(h.state().lesson().unwrap().step, 0);
    assert_eq!(
        h.state().session().preset.name,
        "Stribeck stick–slip (Gaussian curve)"
    );
    assert_eq!(h.state().session().view.tab, Tab::Traces);
    h.get_by_label_contains("step 1 of 4: Slow belt: long sticks");
    h.get_by_label_contains("Question: Read the stick share");

    h.get_by_label("Next ▶").click();
    h.run_steps(3);
    assert_eq!(rpm(&h), 40.0);
    h.key_press(egui::Key::PageDown);
    h.run_steps(3);
    assert_eq!(rpm(&h), 55.0);
    assert_eq!(h.state().session().view.tab, Tab::Phase);
    h.key_press(egui::Key::PageDown);
    h.run_steps(3);
    assert_eq!(rpm(&h), 60.0);
    h.get_by_label_contains("step 4 of 4");
    // Back: each step shows its own state again.
    h.get_by_label("◀ Previous").click();
    h.run_steps(3);
    assert_eq!(rpm(&h), 55.0);
    h.key_press(egui::Key::PageUp);
    h.key_press(egui::Key::PageUp);
    h.run_steps(3);
    assert_eq!(h.state().lesson().unwrap().step, 0);
    assert_eq!(rpm(&h), 19.36);

    h.get_by_label("End lesson").click();
    h.run_steps(3);
    assert!(h.state().lesson().is_none());
    assert!(h.query_by_label_contains("Lesson:").is_none());
    assert_eq!(rpm(&h), 19.36);
}

#[test]
fn a_lecturer_s_lesson_file_opens_and_a_broken_one_is_reported() {
    let dir = temp_dir("lesson");
    let mine = dir.join("mine.ron");
    std::fs::write(
        &mine,
        r#"(
    version: 1,
    title: "My own lesson",
    summary: "Two presets side by side.",
    steps: [
        (title: "Pre-sliding", preset: "rig_presliding_dahl", view: RigTest, look_for: "Loops.", question: "Do they close?"),
        (title: "Softer", set: [("law.sigma", "10000")], view: RigTest, look_for: "Softer loops.", question: "Why?"),
    ],
)"#,
    )
    .unwrap();
    let broken = dir.join("broken.ron");
    std::fs::write(
        &broken,
        "(\n    version: 1,\n    title: \"cut\",\n    steps: [\n",
    )
    .unwrap();
    let mut h = gui_common::window(
        egui::vec2(1400.0, 880.0),
        false,
        vec![Some(mine.clone()), Some(broken.clone())],
    );
    h.run_steps(3);
    open_lesson_menu(&mut h);
    h.get_by_label("Open a lesson file…").click();
    for _ in 0..20 {
        h.run_steps(2);
        if h.state().lesson().is_some() {
            break;
        }
    }
    assert_eq!(h.state().lesson().unwrap().lesson.title, "My own lesson");
    assert_eq!(h.state().session().view.tab, Tab::RigTest);
    // Let the new panel settle before clicking in it.
    h.run_steps(3);
    h.get_by_label("Next ▶").click();
    h.run_steps(3);
    assert_eq!(
        h.state().session().preset.law.params().get("sigma"),
        Some(1e4)
    );

    let before = h.state().session().preset.clone();
    open_lesson_menu(&mut h);
    h.get_by_label("Open a lesson file…").click();
    for _ in 0..20 {
        h.run_steps(2);
        if h.query_by_label_contains("unexpected end of file")
            .is_some()
        {
            break;
        }
    }
    h.get_by_label_contains("broken.ron:");
    h.get_by_label_contains("unexpected end of file");
    // The session and the running lesson are as they were.
    assert_eq!(h.state().session().preset, before);
    assert_eq!(h.state().lesson().unwrap().lesson.title, "My own lesson");
    std::fs::remove_dir_all(&dir).ok();
}
