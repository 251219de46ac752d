//! The laboratory window driven by its labels (egui_kittest): start-up with the default preset
//! running, law choice, sliders, play/pause/reset keys, good and broken presets, image
//! snapshots of the main views.

#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::time::Duration;

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tribolab::gui::TriboApp;
use tribolab::gui::session::Tab;
use tribolab::preset::builtin;

mod gui_common;
use gui_common::{run_until, temp_dir};

fn app(start_running: bool, answers: Vec<Option<PathBuf>>) -> Harness<'static, TriboApp> {
    gui_common::window(egui::vec2(1400.0, 900.0), start_running, answers)
}

#[test]
fn starts_with_the_s1_bench_running() {
    let mut h = app(true, vec![]);
    run_until(&mut h, 10.0, |a| {
        a.run_state().t_s > 0.2 && a.history().len() > 100
    });
    let a = h.state();
    assert_eq!(a.session().preset.law.variant(), "StribeckS1");
    assert!(a.session().preset.name.contains("19.36"));
    assert!(a.run_state().running);
    // The plot tabs are on screen and no integration error is reported.
    h.get_by_label("Overview");
    assert!(h.query_by_label_contains("Integration stopped").is_none());
}

#[test]
fn choosing_a_law_restarts_with_its_states() {
    let mut h = app(true, vec![]);
    run_until(&mut h, 10.0, |a| a.history().len() > 10);
    h.get_by_role_and_label(Role::ComboBox, "Friction law")
        .click();
    h.run_steps(2);
    h.get_by_label("LuGre").click();
    run_until(&mut h, 10.0, |a| {
        a.history().index("z").is_some() && a.history().len() > 10
    });
    assert_eq!(h.state().session().preset.law.variant(), "LuGre");
}

#[test]
fn reference_systems_are_selectable_and_run() {
    let mut h = app(true, vec![]);
    run_until(&mut h, 10.0, |a| a.history().len() > 10);
    for (label, variant, column) in [
        ("Lorenz flow (reference)", "Lorenz", "z"),
        ("Hénon map (reference)", "HenonMap", "y"),
    ] {
        h.get_by_role_and_label(Role::ComboBox, "Mechanical system")
            .click();
        h.run_steps(2);
        h.get_by_label(label).click();
        run_until(&mut h, 10.0, |a| {
            a.history().index(column).is_some() && a.history().len() > 2
        });
        assert_eq!(h.state().session().preset.system.variant(), variant);
        // The system's own sliders, no friction law, no integration error.
        h.get_by_label("This reference system has no friction law.");
        assert!(h.query_by_label_contains("Integration stopped").is_none());
    }
    h.get_by_role_and_label(Role::Slider, "Nonlinearity")
        .set_value_accesskit(1.2);
    h.run_steps(3);
    assert_eq!(
        h.state().session().preset.system.params().get("a"),
        Some(1.2)
    );
}

#[test]
fn slider_sets_the_parameter_in_its_unit() {
    let mut h = app(true, vec![]);
    run_until(&mut h, 10.0, |a| a.history().len() > 10);
    h.get_by_role_and_label(Role::Slider, "Block mass")
        .set_value_accesskit(2.5);
    h.run_steps(3);
    let mass = h.state().session().preset.system.params().get("mass");
    assert_eq!(mass, Some(2.5));
    // A live change keeps the run going (no restart: time keeps increasing).
    let t0 = h.state().run_state().t_s;
    run_until(&mut h, 10.0, |a| a.run_state().t_s > t0 + 0.1);
}

/// Values that contradict each other (μ_K above μ_S) are not sent to the run: the side
/// panel names both fields, the run goes on with the last consistent values, and putting the
/// slider back applies again.
#[test]
fn contradicting_values_are_named_and_not_applied() {
    let preset = builtin::load("spring_slider_stick_slip").unwrap().unwrap();
    let mut h = gui_common::window_with_preset(egui::vec2(1400.0, 900.0), preset);
    run_until(&mut h, 10.0, |a| a.history().len() > 10);
    h.get_by_role_and_label(Role::Slider, "Kinetic coefficient")
        .set_value_accesskit(0.8);
    h.run_steps(3);
    let unapplied = &h.state().run_state().unapplied;
    assert_eq!(unapplied.len(), 1, "{unapplied:?}");
    assert_eq!(unapplied[0].0, "law.mu_k");
    assert!(unapplied[0].1.contains("mu_s"), "{}", unapplied[0].1);
    h.get_by_label_contains("Not applied");
    h.get_by_label_contains("law.mu_k: μ_K = 0.8");
    // The run goes on, without an integration error.
    let t0 = h.state().run_state().t_s;
    run_until(&mut h, 10.0, |a| a.run_state().t_s > t0 + 0.5);
    assert!(h.state().run_state().error.is_none());
    h.get_by_role_and_label(Role::Slider, "Kinetic coefficient")
        .set_value_accesskit(0.2);
    h.run_steps(3);
    assert!(h.state().run_state().unapplied.is_empty());
    assert!(h.query_by_label_contains("Not applied").is_none());
}

/// A panic in the simulation worker (injected, as a bug in the numerics would) stops the run
/// with a message; the window stays alive, the session is kept, and Reset starts a new run.
#[test]
fn a_worker_panic_is_reported_and_reset_restarts() {
    let mut h = app(true, vec![]);
    run_until(&mut h, 10.0, |a| a.run_state().t_s > 0.3);
    let preset = h.state().session().preset.clone();
    let generation = h.state().run_state().generation;
    h.state().inject_worker_fault();
    run_until(&mut h, 10.0, |a| a.run_state().error.is_some());
    let message = h.state().run_state().error.clone().unwrap();
    assert!(message.contains("internal error"), "{message}");
    assert!(!h.state().run_state().running);
    assert_eq!(h.state().session().preset, preset);
    h.key_press(egui::Key::R);
    run_until(&mut h, 10.0, |a| a.run_state().generation > generation);
    assert!(h.state().run_state().error.is_none());
    h.key_press(egui::Key::Space);
    let t0 = h.state().run_state().t_s;
    run_until(&mut h, 10.0, |a| a.run_state().t_s > t0 + 0.2);
}

#[test]
fn space_pauses_and_plays_r_resets() {
    let mut h = app(true, vec![]);
    run_until(&mut h, 10.0, |a| a.run_state().t_s > 0.3);
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(!h.state().run_state().running);
    std::thread::sleep(Duration::from_millis(200));
    h.run_steps(3);
    let t_paused = h.state().run_state().t_s;
    std::thread::sleep(Duration::from_millis(300));
    h.run_steps(3);
    assert_eq!(
        h.state().run_state().t_s,
        t_paused,
        "time advanced while paused"
    );
    h.key_press(egui::Key::Space);
    run_until(&mut h, 10.0, |a| a.run_state().t_s > t_paused + 0.1);
    let generation = h.state().run_state().generation;
    h.key_press(egui::Key::R);
    run_until(&mut h, 10.0, |a| a.run_state().generation > generation);
    assert!(h.state().run_state().t_s < t_paused);
}

#[test]
fn opening_a_good_preset_loads_it() {
    let dir = temp_dir("good");
    let path = dir.join("lugre.ron");
    let (_, text) = builtin::BUILTIN
        .iter()
        .find(|(s, _)| *s == "lugre_canudas_1995")
        .unwrap();
    std::fs::write(&path, text).unwrap();
    let mut h = app(true, vec![Some(path.clone())]);
    run_until(&mut h, 10.0, |a| a.history().len() > 5);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    run_until(&mut h, 10.0, |a| {
        a.session().preset.law.variant() == "LuGre"
    });
    assert_eq!(h.state().session().source, path.display().to_string());
    assert!(h.state().notice().is_none());
}

#[test]
fn a_broken_preset_shows_where_and_leaves_the_session_alone() {
    let dir = temp_dir("broken");
    let path = dir.join("broken.ron");
    std::fs::write(
        &path,
        "(\n    name: \"broken\",\n    system: BeltBlock(mass: -3.0),\n    law: LuGre(sigma0: 1e5),\n)\n",
    )
    .unwrap();
    let mut h = app(true, vec![Some(path.clone())]);
    run_until(&mut h, 10.0, |a| a.history().len() > 5);
    let before = h.state().session().preset.clone();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h.run_steps(3);
    let notice = h.state().notice().expect("an error is shown").clone();
    assert!(notice.is_error);
    let expected = format!("{}:3:23: system.mass:", path.display());
    assert!(notice.text.contains(&expected), "{}", notice.text);
    // The message is on screen.
    h.get_by_label_contains("outside the allowed range");
    assert_eq!(h.state().session().preset, before);
    h.get_by_label("OK").click();
    h.run_steps(2);
    assert!(h.state().notice().is_none());
}

/// Without a desktop file dialog the window asks for the path in a field of its own: the preset
/// is saved where typed, the session stays as it was and the run goes on.
#[test]
fn without_a_file_dialog_a_path_field_asks_and_the_run_goes_on() {
    use tribolab::gui::dialogs::ScriptedDialogs;
    let dialogs = ScriptedDialogs {
        answers: Default::default(),
        unavailable: true,
    };
    let dir = temp_dir("path-field");
    let target = dir.join("typed.ron");
    let mut h = gui_common::window_with(egui::vec2(1400.0, 900.0), true, dialogs);
    run_until(&mut h, 10.0, |a| a.history().len() > 5);
    let before = h.state().session().preset.clone();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(3);
    h.get_by_label_contains("xdg-desktop-portal or zenity");
    assert!(!h.state().dialog_open());
    h.get_by_role_and_label(Role::TextInput, "File path")
        .set_text_value_accesskit(target.to_str().unwrap());
    h.run_steps(2);
    h.get_by_label("OK").click();
    h.run_steps(3);
    let saved = tribolab::preset::Preset::load(&target).unwrap();
    assert_eq!(saved, before);
    assert_eq!(h.state().session().preset, before);
    assert!(h.query_by_label("File path").is_none());
    // The run goes on.
    let t = h.state().run_state().t_s;
    run_until(&mut h, 10.0, |a| a.run_state().t_s > t + 0.1);
    std::fs::remove_dir_all(&dir).ok();
}

/// Reaches a reproducible state: paused, stepped to `t` model seconds.
fn stepped_to(t: f64, tab: Tab) -> Harness<'static, TriboApp> {
    let mut h = app(false, vec![]);
    run_until(&mut h, 10.0, |a| !a.history().is_empty());
    h.state_mut().step_by(t);
    run_until(&mut h, 20.0, |a| a.run_state().t_s >= t - 1e-9);
    h.state_mut().set_tab(tab);
    h.remove_cursor();
    h.run_steps(4);
    h
}

#[test]
fn snapshot_overview() {
    let mut h = stepped_to(3.0, Tab::Grid);
    h.snapshot("overview");
}

#[test]
fn snapshot_traces() {
    let mut h = stepped_to(3.0, Tab::Traces);
    h.snapshot("time_traces");
}

#[test]
fn snapshot_friction_velocity() {
    let mut h = stepped_to(3.0, Tab::FrictionVelocity);
    h.snapshot("friction_velocity");
}

#[test]
fn save_as_writes_a_preset_that_loads_back_and_csv_export_writes_the_window() {
    let dir = temp_dir("save");
    let preset_path = dir.join("mine.ron");
    let csv_path = dir.join("traces.csv");
    let mut h = app(
        true,
        vec![Some(preset_path.clone()), Some(csv_path.clone())],
    );
    run_until(&mut h, 10.0, |a| a.run_state().t_s > 0.2);
    h.get_by_role_and_label(Role::Slider, "Spring stiffness")
        .set_value_accesskit(321.0);
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    let saved = tribolab::preset::Preset::load(&preset_path).unwrap();
    assert_eq!(saved, h.state().session().preset);
    assert_eq!(saved.system.params().get("stiffness"), Some(321.0));
    // File → Export traces (CSV).
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Export traces (CSV)…").click();
    h.run_steps(2);
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    // The preset of the run in `#` comment lines first: it loads back as the session's.
    let ron: String = csv
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{}\n", l.trim_start_matches('#').trim_start()))
        .collect();
    let again = tribolab::preset::Preset::from_ron(&ron, "header").unwrap();
    assert_eq!(again, h.state().session().preset);
    let mut lines = csv.lines().skip_while(|l| l.starts_with('#'));
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("t,x,v,v_rel,friction_force")
    );
    let rows = lines.count();
    assert!(rows >= h.state().history().len().min(100), "{rows} rows");
}

/// The Slip events tab of a Carlson–Langer chain: reached by its label, it fills with events as
/// the run goes; a click on an event in the list selects it (every view's time window moves
/// to it) and *Follow the run* lets go of it.
#[test]
fn slip_events_tab_lists_events_and_selects_one() {
    let preset = builtin::load("carlson_langer_100").unwrap().unwrap();
    let mut h = gui_common::window_with_preset(egui::vec2(1400.0, 880.0), preset);
    h.state_mut().set_max_speed(true);
    h.get_by_label("Slip events").click();
    run_until(&mut h, 60.0, |a| {
        a.catalogue().is_some_and(|c| c.events.len() >= 3)
    });
    assert_eq!(h.state().session().view.tab, Tab::Events);
    // Paused, so no new event moves the list under the click.
    h.key_press(egui::Key::Space);
    h.run_steps(3);
    assert!(!h.state().run_state().running);
    // Rows already on their way are still drained after the pause: wait until the list has
    // not grown for 0.4 s (ten looks; one look was too short beside other tests on two cores,
    // where the worker's last chunk can take longer than 30 ms), so the row clicked is the row
    // meant.
    let mut n = h.state().catalogue().unwrap().events.len();
    let mut unchanged = 0;
    for _ in 0..400 {
        std::thread::sleep(Duration::from_millis(40));
        h.run_steps(3);
        let now = h.state().catalogue().unwrap().events.len();
        unchanged = if now == n { unchanged + 1 } else { 0 };
        n = now;
        if unchanged >= 10 {
            break;
        }
    }
    h.get_by_label_contains(&format!("#{n}  t =")).click();
    h.run_steps(2);
    assert_eq!(h.state().catalogue().unwrap().selected, Some(n - 1));
    // Every view's time window now holds the event, centred where the history allows.
    let (start, end) = {
        let e = &h.state().catalogue().unwrap().events[n - 1];
        (e.start_s, e.end_s)
    };
    let window = h.state().session().view.window_s;
    let latest = h.state().history().last(0).unwrap();
    let view_end = tribolab::gui::plots::view_end_s(h.state());
    assert!(
        view_end >= end && view_end - window <= start,
        "{view_end} for [{start}, {end}]"
    );
    assert!(view_end <= latest);
    h.get_by_label("Follow the run").click();
    h.run_steps(2);
    assert_eq!(h.state().catalogue().unwrap().selected, None);
    assert_eq!(
        tribolab::gui::plots::view_end_s(h.state()),
        h.state().history().last(0).unwrap()
    );
    // The statistics headline and the space–time plot are on screen.
    h.get_by_label_contains("Slip rate of every block");
}

/// A slide–hold–slide run in the *Steps & holds* tab: the holds are read off the record as it
/// grows (peaks higher after longer holds, a healing rate per decade), the critical stiffness is
/// stated beside the sliders, and the load point's programme is a menu.
#[test]
fn steps_and_holds_tab_reads_the_holds_of_a_slide_hold_slide_run() {
    let preset = builtin::load("rate_state_slide_hold_slide")
        .unwrap()
        .unwrap();
    let mut h = gui_common::window_with_preset(egui::vec2(1400.0, 880.0), preset);
    h.state_mut().set_max_speed(true);
    h.get_by_label("Steps & holds").click();
    h.run_steps(2);
    assert_eq!(h.state().session().view.tab, Tab::LoadPoint);
    // Four holds (1 s to 32 s) and their reloads end before t = 150 s.
    run_until(&mut h, 120.0, |a| {
        a.load_point_tests()
            .holds
            .iter()
            .filter(|h| h.complete)
            .count()
            >= 4
    });
    let holds = h.state().load_point_tests().holds.clone();
    for w in holds.windows(2).filter(|w| w[1].complete) {
        assert!(w[1].hold_s > 3.0 * w[0].hold_s, "{holds:?}");
        assert!(w[1].healing() > w[0].healing(), "{holds:?}");
    }
    h.get_by_label_contains("Healing: the peak on reloading rises by");
    h.get_by_label_contains("k_c = ");
    // The programme is a menu of its options.
    h.get_by_role_and_label(Role::ComboBox, "programme").click();
    h.run_steps(2);
    h.get_by_label("VelocitySteps").click();
    h.run_steps(3);
    let tribolab::systems::SystemConfig::SpringSlider(s) = &h.state().session().preset.system
    else {
        panic!("not the spring–slider");
    };
    assert_eq!(s.programme, tribolab::systems::Programme::VelocitySteps);
}

/// The playback speed holds when the integrator's steps are much longer than a frame (a slider
/// at rest, then sliding steadily, takes steps of tens of seconds): the model time sent to the
/// window advances at the set factor, not a whole step at a time.
#[test]
fn playback_speed_holds_when_the_steps_are_long() {
    let preset = builtin::load("rate_state_stable_sliding").unwrap().unwrap();
    let factor = preset.playback.speed;
    let mut h = gui_common::window_with_preset(egui::vec2(1400.0, 880.0), preset);
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let wall = started.elapsed().as_secs_f64();
    let t = h.state().run_state().t_s;
    assert!(
        t <= 1.5 * factor * wall + 1.0,
        "{t} s of model time in {wall} s at {factor}×"
    );
    assert!(
        t >= 0.2 * factor * wall,
        "{t} s of model time in {wall} s at {factor}×"
    );
}

/// Paused and untouched, the window asks for no frame on any tab: it redraws on input or new
/// data only (a window that costs nothing while idle). Running, it keeps asking.
#[test]
fn paused_window_requests_no_repaint_on_any_tab() {
    let mut h = app(true, vec![]);
    run_until(&mut h, 10.0, |a| a.run_state().t_s > 0.3);
    assert!(
        h.try_run().is_err(),
        "a running simulation should keep the window drawing"
    );
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(!h.state().run_state().running);
    // Chunks already on their way arrive and are drawn once.
    std::thread::sleep(Duration::from_millis(300));
    for tab in Tab::ALL {
        h.state_mut().set_tab(tab);
        let settled = h.try_run();
        assert!(settled.is_ok(), "{tab:?}: {}", settled.unwrap_err());
        // Left alone, nothing asks for another frame.
        std::thread::sleep(Duration::from_millis(150));
        let steps = h.try_run();
        assert_eq!(steps.ok(), Some(1), "{tab:?} redraws while idle");
    }
}

/// The 3-D pendulum in the window: it strikes the spinning plate, the 3-D view turns when
/// dragged and goes back with "Reset 3-D view", the friction–velocity tab plots the friction
/// coefficient against the spin/slide ratio, the traces show the contact, and the status bar
/// keeps the energy account.
#[test]
fn pendulum_3d_strikes_turns_its_view_and_plots_friction_against_spin() {
    let preset = builtin::load("pendulum_3d_seed").unwrap().unwrap();
    let mut h = gui_common::window_with_preset(egui::vec2(1400.0, 900.0), preset);
    // The first strike comes at 1.23 s of model time (played at real time).
    let normal = |a: &TriboApp| a.history().index("normal");
    run_until(&mut h, 30.0, |a| {
        normal(a).is_some_and(|c| a.history().column(c).iter().any(|&n| n > 10.0))
    });
    let view = h.get_by_label(tribolab::gui::SCENE_VIEW_LABEL);
    let centre = view.rect().center();
    let centre = egui::pos2(centre.x as f32, centre.y as f32);
    let before = tribolab::gui::scene_view_direction(&h.ctx).unwrap();
    h.hover_at(centre);
    h.step();
    h.drag_at(centre);
    h.step();
    for k in 1..=10 {
        h.hover_at(centre + egui::vec2(6.0 * k as f32, -3.0 * k as f32));
        h.step();
    }
    h.drop_at(centre + egui::vec2(60.0, -30.0));
    h.run_steps(2);
    let after = tribolab::gui::scene_view_direction(&h.ctx).unwrap();
    // 60 px right turns the azimuth by −0.6 rad, 30 px up lowers the elevation by 0.3 rad.
    assert!(
        (after.0 - (before.0 - 0.6)).abs() < 0.05 && (after.1 - (before.1 - 0.3)).abs() < 0.05,
        "view {before:?} → {after:?}"
    );
    h.get_by_label("Reset 3-D view").click();
    h.run_steps(2);
    let reset = tribolab::gui::scene_view_direction(&h.ctx).unwrap();
    assert_eq!(reset, before, "the view is back where it started");
    // The traces of the contact: normal force, slip, spin and friction.
    h.get_by_role_and_label(Role::ComboBox, "Traces of").click();
    h.run_steps(2);
    h.get_by_label("ball on the spinning obstacle").click();
    h.run_steps(2);
    assert_eq!(h.state().session().view.trace_contact, Some(0));
    // Friction against the spin/slide ratio, and the energy account in the status bar.
    h.get_by_label("Friction–velocity").click();
    h.run_steps(2);
    assert_eq!(h.state().session().view.tab, Tab::FrictionVelocity);
    h.get_by_role_and_label(
        Role::RadioButton,
        "friction coefficient against the spin/slide ratio",
    );
    assert!(h.state().session().view.friction_against_spin);
    h.get_by_label_contains("energy balance error");
    assert!(h.query_by_label_contains("Integration stopped").is_none());
}

/// Resident memory of this process [MiB] (Linux).
fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

/// Soak test, on demand: the window runs the bench with its belt joint at full speed for
/// `TRIBOLAB_SOAK_S` wall seconds (default 600), drawing every frame; model time must reach
/// hours and memory stay flat once the history is full (the median of the last quarter at
/// most 5 % or 16 MiB, whichever is larger, above that of the second quarter). Run: `cargo test --release --test gui soak -- --ignored --nocapture`;
/// figures in docs/ROBUSTNESS.md.
#[test]
#[ignore = "minutes of wall time; run on demand"]
fn soak_hours_of_model_time_with_flat_memory() {
    let wall_s: f64 = std::env::var("TRIBOLAB_SOAK_S")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600.0);
    let preset = builtin::load("s1_bench_19_36rpm").unwrap().unwrap();
    let mut h = gui_common::window_with_preset(egui::vec2(1400.0, 900.0), preset);
    h.state_mut().set_max_speed(true);
    let started = std::time::Instant::now();
    let mut samples: Vec<(f64, f64, f64)> = Vec::new();
    let mut next_sample = 0.0;
    while started.elapsed().as_secs_f64() < wall_s {
        h.step();
        let wall = started.elapsed().as_secs_f64();
        if wall >= next_sample {
            let t = h.state().run_state().t_s;
            let rss = rss_mib();
            println!("wall {wall:7.1} s  model {t:10.1} s  RSS {rss:7.1} MiB");
            samples.push((wall, t, rss));
            next_sample += wall_s / 20.0;
        }
        assert!(
            h.state().run_state().error.is_none(),
            "{:?}",
            h.state().run_state().error
        );
    }
    let t_end = h.state().run_state().t_s;
    // The history and the event catalogue fill during the first minutes, and transient
    // buffers come and go (peaks of ~150 MiB that are returned); a leak shows as a rising
    // floor: the median of the last quarter against that of the second.
    let median = |part: &[(f64, f64, f64)]| {
        let mut v: Vec<f64> = part.iter().map(|s| s.2).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let n = samples.len();
    let (second, last) = (
        median(&samples[n / 4..n / 2]),
        median(&samples[3 * n / 4..]),
    );
    let peak = samples.iter().map(|s| s.2).fold(0.0, f64::max);
    println!(
        "soak: {wall_s} s wall, {:.1} h model time, RSS median {second:.1} MiB in the second \
         quarter, {last:.1} MiB in the last, peak {peak:.1} MiB",
        t_end / 3600.0
    );
    assert!(t_end > 3600.0, "only {t_end} s of model time");
    assert!(
        last - second < (0.05 * second).max(16.0),
        "memory floor rose {second} → {last} MiB"
    );
}
