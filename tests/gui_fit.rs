//! The Fit tab driven by its labels: a friction measurement typed into the path field, the
//! columns guessed from the header and one unit corrected, the law fitted on the analysis
//! thread, the estimates shown with their intervals, and "Use these values" putting the
//! fitted law into the live session.

#![cfg(feature = "gui")]

use std::sync::Arc;

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::kittest::{self, Queryable};
use tribolab::gui::session::Tab;
use tribolab::laws::LawConfig;
use tribolab::rig::{Recording, force_along};
use tribolab::util::rng::SplitMix64;

mod gui_common;
use gui_common::{run_until, temp_dir};

/// LuGre at 1 N along a sinusoidal velocity (±20 mm/s, 1 Hz, 3 s, 500 Hz): time in s,
/// velocity in mm/s, friction in mN (resisting the motion), 2 mN of noise.
fn write_measurement(path: &std::path::Path) {
    let n = 1501;
    let t: Vec<f64> = (0..n).map(|i| i as f64 / 500.0).collect();
    let v: Vec<f64> = t
        .iter()
        .map(|t| 0.02 * (std::f64::consts::TAU * t).sin())
        .collect();
    let mut law = LawConfig::LuGre(Default::default());
    law.params_mut().set("f_c", 0.8).expect("in range");
    law.params_mut().set("f_s", 1.3).expect("in range");
    let rec = Arc::new(Recording {
        t_s: t.clone(),
        v_mps: v.clone(),
        load_n: vec![1.0; n],
    });
    let f = force_along(law.build(), rec, 1.0, 1e-10).expect("runs");
    let mut rng = SplitMix64::new(9);
    let mut text = String::from("time,velocity,friction\n");
    for i in 0..n {
        text += &format!(
            "{},{},{}\n",
            t[i],
            v[i] * 1e3,
            (-f[i] + 2e-3 * rng.normal()) * 1e3
        );
    }
    std::fs::write(path, text).expect("write");
}

#[test]
fn a_measurement_is_fitted_in_the_window_and_its_values_used() {
    let dir = temp_dir("fit");
    let file = dir.join("measured.csv");
    write_measurement(&file);
    let mut h = gui_common::window(egui::vec2(1400.0, 900.0), false, Vec::new());
    let lugre = tribolab::preset::builtin::load("lugre_canudas_1995")
        .expect("built in")
        .expect("valid");
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Built-in presets").click();
    h.run_steps(2);
    h.get_by_label(lugre.system.info().name).click();
    h.run_steps(2);
    h.get_by_label(&lugre.name).click();
    h.run_steps(3);
    assert_eq!(h.state().session().preset.law.variant(), "LuGre");

    h.get_by_label("Fit").click();
    h.run_steps(2);
    assert_eq!(h.state().session().view.tab, Tab::Fit);
    h.get_by_label_contains("Load a measurement file first.");

    // An unreadable file is a message; nothing is loaded.
    h.get_by_role_and_label(Role::TextInput, "Measurement file")
        .set_text_value_accesskit(dir.join("missing.csv").to_str().expect("utf-8"));
    h.run_steps(2);
    h.get_by_label("Load").click();
    h.run_steps(3);
    assert!(h.state().analysis().fit_setup().file.is_none());
    h.get_by_label_contains("missing.csv: cannot read");
    h.get_by_role_and_label(Role::TextInput, "Measurement file")
        .set_text_value_accesskit(file.to_str().expect("utf-8"));
    h.run_steps(2);
    h.get_by_label("Load").click();
    h.run_steps(3);
    // Roles guessed from the header: velocity and friction.
    let setup = h.state().analysis().fit_setup();
    assert!(setup.file.is_some(), "{:?}", setup.error);
    assert_eq!((setup.motion, setup.force), (1, 2));
    h.get_by_label_contains("3 columns: time, velocity, friction");

    // The file is in mm/s and mN; the first two unit fields are time and velocity.
    let units: Vec<_> = h
        .query_all_by_role_and_label(Role::TextInput, "unit")
        .collect();
    assert_eq!(units.len(), 3, "time, velocity, force (no load column)");
    units[1].set_text_value_accesskit("mm/s");
    h.run_steps(2);
    let units: Vec<_> = h
        .query_all_by_role_and_label(Role::TextInput, "unit")
        .collect();
    units[2].set_text_value_accesskit("mN");
    h.run_steps(2);
    assert_eq!(
        h.state().analysis().fit_setup().units[1..],
        ["mm/s".to_string(), "N".into(), "mN".into()]
    );

    // Fit only F_C and F_S (untick the others).
    for key in ["σ₀", "σ₁", "σ₂", "v_S", "v_d"] {
        let label = format!("{key} = ");
        h.get(kittest::by().role(Role::CheckBox).label_contains(&label))
            .click();
        h.run_steps(1);
    }
    assert_eq!(h.state().analysis().fit_setup().free, ["f_c", "f_s"]);
    h.get_by_label("Fit the law").click();
    run_until(&mut h, 120.0, |app| app.analysis().fit().is_some());
    h.run_steps(3);
    let fit = h.state().analysis().fit().expect("result");
    let e = &fit.result.statistics.estimates;
    for (est, truth) in e.iter().zip([0.8, 1.3]) {
        let (lo, hi) = est.interval.expect("determined");
        assert!(lo <= truth && truth <= hi, "{est:?}");
    }
    h.get_by_label_contains("95 % interval");
    h.get_by_label_contains("residual RMS");
    h.get_by_label("Correlations of the estimates").click();
    h.run_steps(2);
    assert_eq!(h.query_all_by_label("+1.000").count(), 2, "the diagonal");

    h.get_by_label("Use these values").click();
    h.run_steps(3);
    let law = h.state().session().preset.law.params();
    let f_c = law.get("f_c").expect("key");
    assert!((f_c - 0.8).abs() < 0.01, "F_C in the session: {f_c}");
    std::fs::remove_dir_all(&dir).ok();
}

/// File → Import measured series, then "Fit a law to this file instead": the Fit tab opens
/// with the file read and its columns guessed.
#[test]
fn an_imported_file_goes_to_the_fit_tab() {
    let dir = temp_dir("fit-import");
    let file = dir.join("measured.csv");
    write_measurement(&file);
    let mut h = gui_common::window(egui::vec2(1400.0, 900.0), false, vec![Some(file.clone())]);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Import measured series (CSV)…").click();
    run_until(&mut h, 10.0, |app| app.analysis().import_dialog().is_some());
    h.run_steps(2);
    h.get_by_label("Fit a law to this file instead").click();
    h.run_steps(3);
    assert_eq!(h.state().session().view.tab, Tab::Fit);
    assert!(h.state().analysis().import_dialog().is_none());
    let setup = h.state().analysis().fit_setup();
    assert_eq!(
        setup.file.as_ref().map(|f| f.names.clone()),
        Some(vec!["time".into(), "velocity".into(), "friction".into()])
    );
    std::fs::remove_dir_all(&dir).ok();
}
