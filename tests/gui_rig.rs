//! The characterisation rig in the window (egui_kittest, by labels): a rig preset chosen from
//! the File menu opens on the *Rig test* tab, which reads the live record as the test runs
//! (Maxwell-slip's loops close, and the window says so); choosing the Dahl law instead redraws
//! the reading (loops no longer close); leaving for another system leaves the tab.

#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)]

use eframe::egui;
use egui_kittest::kittest::Queryable;
use tribolab::gui::session::Tab;

mod gui_common;

/// The Dahl law's display name.
const DAHL: &str = "Dahl";
use gui_common::{load_builtin, run_until};

#[test]
fn a_rig_preset_opens_on_its_test_and_reads_it_live() {
    let mut h = gui_common::window(egui::vec2(1400.0, 880.0), true, vec![]);
    // The bench has no standard test: no Rig test tab.
    h.run_steps(3);
    assert!(h.query_by_label("Rig test").is_none());
    load_builtin(&mut h, "Pre-sliding hysteresis with memory (Maxwell-slip)");
    assert_eq!(h.state().session().view.tab, Tab::RigTest);
    h.state_mut().set_max_speed(true);
    // Three cycles at 1 Hz: the loops are read once a few reversals have passed.
    run_until(&mut h, 60.0, |a| {
        a.run_state().t_s >= 2.9 && a.rig_reading().rows.len() >= 4
    });
    h.run_steps(40);
    let reading = h.state().rig_reading().clone();
    assert!(
        reading.title.starts_with("Pre-sliding"),
        "{}",
        reading.title
    );
    let mismatch = reading
        .figures
        .iter()
        .find(|(n, _)| *n == "return_mismatch_share")
        .unwrap()
        .1;
    assert!(mismatch < 1e-6, "{mismatch}");
    h.get_by_label_contains("Inner loops close where they began");
    h.get_by_label_contains("the rule holds");

    // Another law on the same rig: Dahl's loops do not close.
    // The law menu is below the rig's sliders in the side panel: scroll it into view.
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Friction law")
        .scroll_to_me();
    h.run_steps(3);
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Friction law")
        .click();
    h.run_steps(2);
    h.get_by_label(DAHL).click();
    h.run_steps(3);
    run_until(&mut h, 60.0, |a| {
        a.rig_reading()
            .findings
            .iter()
            .any(|f| f.starts_with("Inner loops do not close"))
    });

    // Another system: the tab goes away and the view falls back to the overview.
    load_builtin(&mut h, "S1 bench, 19.36 rpm, Stribeck");
    assert_eq!(h.state().session().view.tab, Tab::Grid);
    h.run_steps(3);
    assert!(h.query_by_label("Rig test").is_none());
}

/// The asperity model's normal-creep test in the window: its preset opens on the *Rig test*
/// tab, which draws the approach against log time and counts it per decade as the run goes;
/// the law menu is not offered (the model's friction is its own).
#[test]
fn the_asperity_model_s_normal_creep_is_read_live_in_the_rig_test_tab() {
    let mut h = gui_common::window(egui::vec2(1400.0, 880.0), true, vec![]);
    load_builtin(&mut h, "Normal creep: a loaded contact keeps settling");
    assert_eq!(h.state().session().view.tab, Tab::RigTest);
    h.state_mut().set_max_speed(true);
    // A few hundred milliseconds: the load is on and the last decade of the record is read.
    run_until(&mut h, 120.0, |a| {
        a.run_state().t_s >= 0.35 && !a.rig_reading().rows.is_empty()
    });
    h.run_steps(10);
    let reading = h.state().rig_reading().clone();
    assert!(
        reading.title.starts_with("Normal creep"),
        "{}",
        reading.title
    );
    let approach = reading
        .figures
        .iter()
        .find(|(n, _)| *n == "approach_m")
        .unwrap()
        .1;
    // The body settles by tens of micrometres under 10 N on the default asperities.
    assert!((20e-6..1e-3).contains(&approach), "{approach}");
    h.get_by_label_contains("Approach per decade of time");
    assert!(
        h.query_by_role_and_label(egui::accesskit::Role::ComboBox, "Friction law")
            .is_none()
    );
}
