//! Shared by the window tests and the window benchmark: the real app in an egui_kittest
//! harness with scripted file dialogs, and stepping it in real time (the simulation and the
//! analyses run on their own threads).

#![allow(dead_code, clippy::unwrap_used)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use tribolab::gui::dialogs::ScriptedDialogs;
use tribolab::gui::{AppOptions, TriboApp};

/// The window (fresh session) of `size`, answering file dialogs from `answers` in order.
pub fn window(
    size: egui::Vec2,
    start_running: bool,
    answers: Vec<Option<PathBuf>>,
) -> Harness<'static, TriboApp> {
    window_with(
        size,
        start_running,
        ScriptedDialogs {
            answers: answers.into(),
            unavailable: false,
        },
    )
}

/// The window (fresh session) of `size` with the given scripted dialogs.
pub fn window_with(
    size: egui::Vec2,
    start_running: bool,
    dialogs: ScriptedDialogs,
) -> Harness<'static, TriboApp> {
    Harness::builder().with_size(size).build_eframe(move |cc| {
        TriboApp::with_options(
            cc,
            AppOptions {
                preset: None,
                restore: false,
                start_running,
                dialogs: Box::new(dialogs),
                frame_stats: false,
                panels_on_clear: false,
                fit_data: None,
                lesson: None,
                measured: None,
            },
        )
    })
}

/// The window opened with `preset`, running, with no file dialogs.
pub fn window_with_preset(
    size: egui::Vec2,
    preset: tribolab::preset::Preset,
) -> Harness<'static, TriboApp> {
    Harness::builder().with_size(size).build_eframe(move |cc| {
        TriboApp::with_options(
            cc,
            AppOptions {
                preset: Some(preset),
                restore: false,
                start_running: true,
                dialogs: Box::new(ScriptedDialogs {
                    answers: Vec::new().into(),
                    unavailable: true,
                }),
                frame_stats: false,
                panels_on_clear: false,
                fit_data: None,
                lesson: None,
                measured: None,
            },
        )
    })
}

/// Steps frames until `done` holds; panics after `secs` seconds.
pub fn run_until(h: &mut Harness<'static, TriboApp>, secs: f64, done: impl Fn(&TriboApp) -> bool) {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    while Instant::now() < deadline {
        h.step();
        if done(h.state()) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("condition not reached within {secs} s");
}

/// A fresh scratch folder named after the test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tribolab-gui-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// File → Built-in presets → the preset's system → the preset called `name`.
#[allow(dead_code)] // not every window test opens a preset from the menu
pub fn load_builtin(h: &mut Harness<'static, TriboApp>, name: &str) {
    use egui_kittest::kittest::Queryable;
    let system = tribolab::preset::builtin::BUILTIN
        .iter()
        .filter_map(|(stem, _)| tribolab::preset::builtin::load(stem)?.ok())
        .find(|p| p.name == name)
        .unwrap()
        .system
        .info()
        .name;
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Built-in presets").click();
    h.run_steps(2);
    h.get_by_label(system).click();
    h.run_steps(2);
    h.get_by_label(name).click();
    h.run_steps(3);
    assert_eq!(h.state().session().preset.name, name);
}
