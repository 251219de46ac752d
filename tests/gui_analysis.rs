//! The analysis tabs driven by their labels (egui_kittest): the Lyapunov spectrum of the Lorenz
//! preset converging to its known values, the Floquet multipliers of the undamped stick–slip
//! cycle, a bifurcation sweep with progress, cancel and "click a point to load it", and the
//! import of measured CSV series — a good one through the whole pipeline, broken ones with
//! their `file:line:col` errors and the session left alone.

#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tribolab::gui::TriboApp;
use tribolab::gui::jobs::JobKind;
use tribolab::gui::session::Tab;

mod gui_common;
use gui_common::{load_builtin, run_until, temp_dir};

/// The window, paused (the analyses do not need the live run; the two cores are theirs).
fn app(answers: Vec<Option<PathBuf>>) -> Harness<'static, TriboApp> {
    gui_common::window(egui::vec2(1400.0, 900.0), false, answers)
}

/// Clicks a tab of the central area.
fn open_tab(h: &mut Harness<'static, TriboApp>, title: &str, tab: Tab) {
    h.get_by_label(title).click();
    h.run_steps(2);
    assert_eq!(h.state().session().view.tab, tab);
}

/// Clicks the left mouse button at a screen position.
fn click_at(h: &mut Harness<'static, TriboApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.run_steps(2);
}

#[test]
fn lyapunov_tab_converges_to_the_lorenz_spectrum() {
    let mut h = app(vec![]);
    load_builtin(&mut h, "Lorenz attractor (reference)");
    open_tab(&mut h, "Lyapunov", Tab::Lyapunov);
    h.get_by_label_contains("Press “Start Lyapunov run”");
    // A shorter average than the default keeps the test fast; λ₁ is within a few % by then.
    h.get_by_role_and_label(Role::Slider, "Averaging time")
        .set_value_accesskit(100.0);
    h.get_by_role_and_label(Role::Slider, "Transient")
        .set_value_accesskit(10.0);
    h.run_steps(2);
    assert_eq!(h.state().session().view.lab.lyap_duration_s, 100.0);
    h.get_by_label("Start Lyapunov run").click();
    // The estimate arrives live, before the run is complete.
    run_until(&mut h, 30.0, |a| {
        a.analysis()
            .lyapunov()
            .is_some_and(|s| !s.done && s.spectrum.averaging_time > 0.0)
    });
    h.get_by_label_contains("Verdict so far:");
    h.get_by_label("Cancel");
    run_until(&mut h, 60.0, |a| {
        a.analysis().lyapunov().is_some_and(|s| s.done)
    });
    h.run_steps(2);
    let snap = h.state().analysis().lyapunov().unwrap().clone();
    let l = &snap.spectrum.exponents;
    assert_eq!(l.len(), 3);
    assert!((l[0] - 0.906).abs() < 0.12, "λ1 = {}", l[0]);
    assert!(l[1].abs() < 0.05, "λ2 = {}", l[1]);
    let sum: f64 = l.iter().sum();
    assert!((sum + 13.667).abs() < 0.05, "Σλ = {sum}");
    // The same on screen: verdict, exponents, sum.
    h.get_by_label_contains("Verdict: chaos");
    let lambda1 = format!("λ₁ = +{:.4}", l[0]);
    h.get_by_label_contains(&lambda1);
    h.get_by_label_contains("Σλ = −13.6");
    h.get_by_label_contains("Kaplan–Yorke dimension 2.0");
    assert!(h.state().analysis().active().is_none());
}

#[test]
fn floquet_tab_shows_the_unit_multiplier_of_the_stick_slip_cycle() {
    let mut h = app(vec![]);
    load_builtin(&mut h, "Undamped static/kinetic stick–slip (closed form)");
    open_tab(&mut h, "Floquet", Tab::Floquet);
    h.get_by_label("Find orbit and multipliers").click();
    h.run_steps(2);
    assert!(h.state().analysis().is_running(JobKind::Floquet));
    run_until(&mut h, 60.0, |a| a.analysis().floquet().is_some());
    h.run_steps(2);
    let r = h.state().analysis().floquet().unwrap().clone();
    // Period 0.6712 s (MODELS.md section 5), one multiplier 1 (the flow direction).
    assert!((r.period_s - 0.6712).abs() < 1e-3, "T = {}", r.period_s);
    let unit = r
        .multipliers
        .iter()
        .filter(|m| (*m - nalgebra::Complex::new(1.0, 0.0)).norm() < 1e-4)
        .count();
    assert!(unit >= 1, "{:?}", r.multipliers);
    h.get_by_label_contains("Period T = 0.6712");
    h.get_by_label_contains("(trivial: flow direction)");
    let trivial = h.query_all_by_label_contains("|m| = 1").count();
    assert!(trivial >= 1, "no multiplier of modulus 1 on screen");
}

#[test]
fn bifurcation_sweep_shows_progress_cancels_and_loads_a_clicked_point() {
    let mut h = app(vec![]);
    load_builtin(&mut h, "Undamped static/kinetic stick–slip (closed form)");
    open_tab(&mut h, "Bifurcation", Tab::Bifurcation);
    h.get_by_role_and_label(Role::ComboBox, "Swept parameter")
        .click();
    h.run_steps(2);
    h.get_by_label_contains("(system.wheel_rpm)").click();
    h.run_steps(2);
    assert_eq!(h.state().session().view.lab.sweep_param, "system.wheel_rpm");

    // A long sweep, cancelled while it runs.
    h.get_by_role_and_label(Role::Slider, "Steps")
        .set_value_accesskit(200.0);
    h.get_by_role_and_label(Role::Slider, "Run per value")
        .set_value_accesskit(20.0);
    h.run_steps(2);
    h.get_by_label("Run sweep").click();
    run_until(&mut h, 20.0, |a| {
        a.analysis().sweep().is_some_and(|s| !s.runs.is_empty())
    });
    h.get_by_label_contains("of 400 runs");
    h.get_by_label("Cancel").click();
    run_until(&mut h, 20.0, |a| a.analysis().active().is_none());
    h.run_steps(2);
    let view = h.state().analysis().sweep().unwrap();
    assert!(view.cancelled && !view.complete);
    assert!(view.runs.len() < 400);
    h.get_by_label("bifurcation sweep cancelled");
    h.get_by_label_contains("(cancelled)");

    // A small sweep to the end.
    h.get_by_role_and_label(Role::Slider, "Steps")
        .set_value_accesskit(4.0);
    h.get_by_role_and_label(Role::Slider, "Run per value")
        .set_value_accesskit(8.0);
    h.get_by_role_and_label(Role::Slider, "Transient")
        .set_value_accesskit(3.0);
    h.run_steps(2);
    h.get_by_label("Run sweep").click();
    run_until(&mut h, 30.0, |a| {
        a.analysis().sweep().is_some_and(|s| s.complete)
    });
    h.run_steps(3);
    h.get_by_label_contains("8 runs");
    h.get_by_label_contains("(complete)");

    // Click a point of the third value: its rpm goes into the live run.
    let (run, value) = {
        let v = h.state().analysis().sweep().unwrap();
        let k = v
            .runs
            .iter()
            .position(|r| r.index == 2 && !r.points.is_empty())
            .unwrap();
        (k, v.runs[k].value)
    };
    let column = {
        let v = h.state().analysis().sweep().unwrap();
        v.columns.iter().position(|c| c == "x").unwrap()
    };
    let before = h.state().session().preset.system.params().get("wheel_rpm");
    assert_ne!(before, Some(value));
    h.remove_cursor();
    h.run_steps(2);
    let pos = h
        .state()
        .analysis()
        .sweep_point_on_screen(run, column)
        .unwrap();
    click_at(&mut h, pos);
    let picked = h
        .state()
        .analysis()
        .picked()
        .cloned()
        .expect("a point was picked");
    assert_eq!(picked.param, "system.wheel_rpm");
    assert_eq!(picked.value, value);
    assert_eq!(
        h.state().session().preset.system.params().get("wheel_rpm"),
        Some(value)
    );
    h.get_by_label_contains("into the live run (point at");

    // Or choose a value from the list.
    let first = h.state().analysis().sweep().unwrap().values[0];
    h.get_by_role_and_label(Role::ComboBox, "Load a swept value into the live run")
        .click();
    h.run_steps(2);
    let label = tribolab::params::fmt_num(format!("{first:.5e}").parse().unwrap());
    h.get_by_label(&label).click();
    h.run_steps(2);
    assert_eq!(
        h.state().session().preset.system.params().get("wheel_rpm"),
        Some(first)
    );
}

/// The Lorenz x and z components, `n` samples every `dt` after a transient (RK4).
fn lorenz_series(n: usize, dt: f64) -> Vec<[f64; 2]> {
    let f = |s: [f64; 3]| {
        [
            10.0 * (s[1] - s[0]),
            s[0] * (28.0 - s[2]) - s[1],
            s[0] * s[1] - 8.0 / 3.0 * s[2],
        ]
    };
    let add =
        |a: [f64; 3], b: [f64; 3], k: f64| [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]];
    let mut s = [1.0, 1.0, 1.0];
    let mut out = Vec::with_capacity(n);
    let h = dt / 4.0;
    for i in 0..(n + 2000) * 4 {
        let k1 = f(s);
        let k2 = f(add(s, k1, h / 2.0));
        let k3 = f(add(s, k2, h / 2.0));
        let k4 = f(add(s, k3, h));
        for j in 0..3 {
            s[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
        }
        if i % 4 == 3 && i / 4 >= 2000 {
            out.push([s[0], s[2]]);
        }
    }
    out
}

fn write_lorenz_csv(path: &Path, n: usize) {
    let dt = 0.01;
    let mut text = String::from("# Lorenz, x and z\ntime,x,z\n");
    for (k, [x, z]) in lorenz_series(n, dt).into_iter().enumerate() {
        writeln!(text, "{:.4},{x:.6},{z:.6}", k as f64 * dt).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// File → Import measured series (CSV)… (the scripted dialog answers the path).
fn open_import(h: &mut Harness<'static, TriboApp>) {
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Import measured series (CSV)…").click();
    h.run_steps(3);
}

#[test]
fn importing_a_csv_lists_columns_and_runs_the_pipeline() {
    let dir = temp_dir("good");
    let path = dir.join("lorenz.csv");
    write_lorenz_csv(&path, 3000);
    let mut h = app(vec![Some(path.clone())]);
    open_import(&mut h);
    let d = h
        .state()
        .analysis()
        .import_dialog()
        .expect("the import window is open");
    assert_eq!(d.names, ["time", "x", "z"]);
    h.get_by_label("Import measured series");
    h.get_by_label_contains("3000 rows, t from 0 s to 29.99 s");
    h.get_by_label_contains("Time steps uniform: t_s = 0.01 s");
    // The columns are listed; choose z, then back to x.
    h.get_by_role_and_label(Role::ComboBox, "Data column")
        .click();
    h.run_steps(2);
    h.get_by_label("z").click();
    h.run_steps(2);
    assert_eq!(h.state().analysis().import_dialog().unwrap().data, 2);
    h.get_by_role_and_label(Role::ComboBox, "Data column")
        .click();
    h.run_steps(2);
    h.get_by_label("x").click();
    h.run_steps(2);
    let preset_before = h.state().session().preset.clone();
    h.get_by_label("Import and analyse").click();
    h.run_steps(2);
    // The window closes, the Embedding tab opens on the imported series, the pipeline runs.
    assert!(h.state().analysis().import_dialog().is_none());
    assert_eq!(h.state().session().view.tab, Tab::Embedding);
    let imported = h.state().analysis().imported().unwrap();
    assert_eq!(imported.series.name, "x");
    assert_eq!(imported.series.values.len(), 3000);
    run_until(&mut h, 60.0, |a| a.analysis().series().is_some());
    h.run_steps(3);
    let r = h.state().analysis().series().unwrap().report.clone();
    // Lorenz x at t_s = 0.01 s: the first AMI minimum near 0.16 s, Cao dimension 3.
    assert!((8..=25).contains(&r.delay), "τ = {}", r.delay);
    assert!((2..=4).contains(&r.dim), "d = {}", r.dim);
    h.get_by_label_contains(&format!("Mutual information: τ = {} samples", r.delay));
    h.get_by_label_contains(&format!("Cao: embedding dimension d = {}", r.dim));
    h.get_by_label_contains("Divergence p(k)");
    let source = h.get_by_role_and_label(Role::ComboBox, "Data").value();
    assert_eq!(source.as_deref(), Some("imported: lorenz.csv (x)"));
    // The simulation's preset is not touched by an import.
    assert_eq!(h.state().session().preset, preset_before);

    // The Attractor tab reconstructs the imported series with the AMI delay.
    open_tab(&mut h, "Attractor", Tab::Attractor);
    h.get_by_label(&format!("Use the AMI delay (τ = {})", r.delay))
        .click();
    h.run_steps(2);
    assert_eq!(h.state().session().view.lab.attractor_delay, r.delay as f64);
    h.get_by_label_contains(&format!("delay vectors of x, τ = {} samples", r.delay));
    h.get_by_label("3-D attractor view");
}

#[test]
fn broken_csv_files_show_where_and_leave_the_session_alone() {
    let dir = temp_dir("broken");
    let good = dir.join("good.csv");
    let mut text = String::from("t,x\n");
    for k in 0..400 {
        writeln!(text, "{},{}", k as f64 * 0.1, (k as f64 * 0.3).sin()).unwrap();
    }
    std::fs::write(&good, &text).unwrap();
    let ragged = dir.join("ragged.csv");
    std::fs::write(&ragged, "t,x,y\n0,1,2\n0.1,1.5\n0.2,2,3\n").unwrap();
    let non_numeric = dir.join("words.csv");
    std::fs::write(&non_numeric, "t,x\n0,1\n0.1,oops\n0.2,3\n").unwrap();
    let backwards = dir.join("backwards.csv");
    std::fs::write(&backwards, "t,x\n0,1\n0.2,2\n0.1,3\n").unwrap();
    let jittered = dir.join("jittered.csv");
    std::fs::write(&jittered, "t,x\n0,1\n0.1,2\n0.25,3\n0.3,4\n0.4,5\n0.5,6\n").unwrap();
    let mut h = app(vec![
        Some(good.clone()),
        Some(ragged.clone()),
        Some(non_numeric.clone()),
        Some(backwards.clone()),
        Some(jittered.clone()),
    ]);

    // A good file first: it is the "previous session" that must survive the broken ones.
    open_import(&mut h);
    h.get_by_label("Import and analyse").click();
    h.run_steps(2);
    let imported = h.state().analysis().imported().unwrap().clone();
    let preset = h.state().session().preset.clone();
    run_until(&mut h, 30.0, |a| a.analysis().series().is_some());

    for (path, expected) in [
        (
            &ragged,
            format!(
                "{}:3:8: row has 2 cells, the header has 3",
                ragged.display()
            ),
        ),
        (
            &non_numeric,
            format!(
                "{}:3:5: `oops` in column `x` is not a number",
                non_numeric.display()
            ),
        ),
        (
            &backwards,
            format!("{}:4:1: time 0.1 is earlier than", backwards.display()),
        ),
    ] {
        open_import(&mut h);
        let d = h.state().analysis().import_dialog().unwrap();
        assert_eq!(d.path, *path);
        let err = d.check.as_ref().unwrap_err().clone();
        assert!(err.starts_with(&expected), "{err}\nexpected {expected}");
        h.get_by_label_contains(&expected);
        h.get_by_label("Nothing was imported; your session is unchanged.");
        assert!(
            h.get_by_label("Import and analyse")
                .accesskit_node()
                .is_disabled()
                || h.query_by_label("Import and analyse").is_none()
        );
        h.get_by_label("Cancel import").click();
        h.run_steps(2);
        assert!(h.state().analysis().import_dialog().is_none());
        assert_eq!(h.state().analysis().imported(), Some(&imported));
        assert_eq!(h.state().session().preset, preset);
    }

    // Non-uniform steps: reported, imported only after asking for resampling.
    open_import(&mut h);
    h.get_by_label_contains("Time steps not uniform");
    assert!(
        h.get_by_label("Import and analyse")
            .accesskit_node()
            .is_disabled()
    );
    h.get_by_label("Resample linearly to the median step")
        .click();
    h.run_steps(2);
    h.get_by_label("Import and analyse").click();
    h.run_steps(2);
    let now = h.state().analysis().imported().unwrap();
    assert!(now.series.resampled);
    assert_eq!(now.series.dt_s, 0.1);
}

/// The friction sweep of the thermal tip: speeds on a log scale, error bars over seeds, the
/// cold tip's friction drawn for comparison; the temperature can be swept instead.
#[test]
fn friction_sweep_tab_measures_friction_against_speed() {
    let mut h = app(vec![]);
    load_builtin(
        &mut h,
        "Atomic friction at room temperature: thermally activated slips",
    );
    open_tab(&mut h, "Friction sweep", Tab::FrictionSweep);
    for (label, value) in [
        ("From", 1e-6),
        ("To", 1e-5),
        ("Values", 3.0),
        ("Seeds", 2.0),
        ("Measured", 3.0),
    ] {
        h.get_by_role_and_label(Role::Slider, label)
            .set_value_accesskit(value);
        h.run_steps(2);
    }
    let spec = h.state().friction_sweep_spec().unwrap();
    assert_eq!(spec.values.len(), 3);
    assert!(
        (spec.values[0] / 1e-6 - 1.0).abs() < 1e-9,
        "{:?}",
        spec.values
    );
    assert!((spec.values[1] / 10f64.powf(-5.5) - 1.0).abs() < 1e-9);
    assert_eq!(spec.seeds, vec![1, 2]);
    h.get_by_label("Run friction sweep").click();
    run_until(&mut h, 120.0, |a| a.analysis().friction_sweep().is_some());
    let r = h.state().analysis().friction_sweep().unwrap().clone();
    assert!(r.by_speed);
    assert_eq!(r.points.len(), 3);
    let cold = r.study.athermal_friction_n.unwrap();
    for p in &r.points {
        assert_eq!(p.per_seed_n.len(), 2);
        assert!(p.mean_n > 0.0 && p.mean_n.is_finite(), "{p:?}");
        assert!(p.sem_n.is_finite(), "{p:?}");
    }
    // The drag γ·v grows with speed: the fastest run rubs hardest.
    assert!(r.points[2].mean_n > r.points[0].mean_n, "{:?}", r.points);
    h.get_by_label_contains("Friction of the cold system");
    assert!(cold > 0.0);
    // Temperature instead: 0 K to twice the preset's 300 K by default.
    h.get_by_label("temperature").click();
    h.run_steps(2);
    let spec = h.state().friction_sweep_spec().unwrap();
    assert_eq!(spec.param, "system.temperature");
    assert_eq!(spec.values.first(), Some(&0.0));
    assert_eq!(spec.values.last(), Some(&600.0));
}

/// The regime map of the Stribeck bench over belt speed and damping, driven by labels: the map
/// fills, every cell is named, the stability boundary is drawn, and a click on a cell loads its
/// two values into the live run.
#[test]
fn regime_map_tab_fills_and_loads_a_cell() {
    let mut h = app(vec![]);
    load_builtin(&mut h, "Stribeck stick–slip (Gaussian curve)");
    open_tab(&mut h, "Regime map", Tab::RegimeMap);
    for (combo, item) in [("x", "(system.wheel_rpm)"), ("y", "(system.damping)")] {
        h.get_by_label(combo).click();
        h.run_steps(2);
        h.get_by_label_contains(item).click();
        h.run_steps(2);
    }
    for (label, value) in [
        ("x from", 0.5),
        ("x to", 5.0),
        ("y from", 0.0),
        ("y to", 100.0),
        ("Grid", 4.0),
        ("Run per cell", 40.0),
    ] {
        h.get_by_role_and_label(Role::Slider, label)
            .set_value_accesskit(value);
        h.run_steps(2);
    }
    let s = &h.state().session().view.lab;
    assert_eq!(s.map_x_param, "system.wheel_rpm");
    assert_eq!(s.map_y_param, "system.damping");
    h.get_by_label("Run map").click();
    run_until(&mut h, 120.0, |a| {
        a.analysis().regime_map().is_some_and(|m| m.complete)
    });
    let m = h.state().analysis().regime_map().unwrap().clone();
    assert_eq!(m.cells.len(), 16);
    let cells: Vec<_> = m.cells.iter().map(|c| c.clone().unwrap()).collect();
    use tribolab::analysis::regime_map::Regime;
    assert!(cells.iter().any(|c| c.regime == Regime::Steady));
    assert!(
        cells
            .iter()
            .any(|c| matches!(c.regime, Regime::Periodic(_)))
    );
    assert!(cells.iter().all(|c| c.regime != Regime::Failed));
    assert!(m.boundary.len() >= 2 && m.boundary_symbol == "c_c");
    h.get_by_label_contains("16 done (complete)");
    h.run_steps(2);
    // Click cell 6 (x = 3.5 rpm, y = 33.3 N·s/m) and load it.
    let pos = h.state().analysis().map_cell_on_screen(6).unwrap();
    click_at(&mut h, pos);
    let p = &h.state().session().preset;
    let params = p.system.params();
    assert!((params.get("wheel_rpm").unwrap() - cells[6].x).abs() < 1e-9);
    assert!((params.get("damping").unwrap() - cells[6].y).abs() < 1e-9);
}
