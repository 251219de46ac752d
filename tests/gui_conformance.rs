//! Every registered system in every plot tab of the window (egui_kittest, headless): each view
//! finds its columns by role or says in one line why it does not apply, and nothing stops the
//! run. A new system that breaks a view fails here.

#![cfg(feature = "gui")]
#![allow(clippy::unwrap_used)]

use eframe::egui;
use egui::accesskit::Role as A11y;
use egui_kittest::kittest::Queryable;
use tribolab::gui::plots::roles;
use tribolab::gui::session::Tab;
use tribolab::integrate::Role;
use tribolab::preset::{Preset, builtin};
use tribolab::systems::SYSTEMS;

mod gui_common;
use gui_common::{run_until, window_with_preset};

/// The first built-in preset of every registered system, else its defaults.
fn preset_of(variant: &str, default: fn() -> tribolab::systems::SystemConfig) -> Preset {
    builtin::BUILTIN
        .iter()
        .find_map(|(stem, _)| {
            let p = builtin::load(stem)?.ok()?;
            (p.system.variant() == variant).then_some(p)
        })
        .unwrap_or_else(|| Preset {
            system: default(),
            ..Preset::default()
        })
}

#[test]
fn every_system_in_every_tab() {
    for info in SYSTEMS {
        let preset = preset_of(info.variant, info.default_config);
        let mut h = window_with_preset(egui::vec2(1400.0, 900.0), preset);
        // Maps run at one iteration per model second, in real time.
        let enough = if info.discrete { 3 } else { 50 };
        run_until(&mut h, 20.0, |a| a.history().len() > enough);
        let name = info.name;
        {
            let app = h.state();
            let run = app.run_state();
            let layout = &run.layout;
            assert_eq!(*layout, app.session().preset.system.layout(), "{name}");
            // Every degree of freedom and contact has its columns.
            for d in 0..layout.dofs.len() {
                for role in [Role::Position(d), Role::Velocity(d)] {
                    assert!(run.column(role).is_some(), "{name}: no {role:?} column");
                }
            }
            // The normal load is what a law is given; a system with its friction built in
            // (Carlson–Langer, in units of the static threshold) has none.
            let uses_law = app.session().preset.system.uses_law();
            for c in 0..layout.contacts.len() {
                for role in [
                    Role::SlipVelocity(c),
                    Role::FrictionForce(c),
                    Role::Stick(c),
                ] {
                    assert!(run.column(role).is_some(), "{name}: no {role:?} column");
                }
                if uses_law {
                    let role = Role::NormalLoad(c);
                    assert!(run.column(role).is_some(), "{name}: no {role:?} column");
                }
            }
            if layout.is_mechanical() {
                for role in [Role::KineticEnergy, Role::StoredEnergy, Role::EnergyError] {
                    assert!(run.column(role).is_some(), "{name}: no {role:?} column");
                }
            }
            // The views' choices resolve to columns of this run.
            let plane = roles::current_plane(app).unwrap_or_else(|| panic!("{name}: no plane"));
            assert!(roles::plane_axes(app, plane).is_some(), "{name}: {plane:?}");
            assert!(
                roles::spectrum_column(app).is_some(),
                "{name}: no spectrum column"
            );
        }
        for tab in Tab::ALL {
            h.state_mut().set_tab(tab);
            h.run_steps(4);
            let app = h.state();
            assert!(
                app.run_state().error.is_none(),
                "{name}, {}: {:?}",
                tab.title(),
                app.run_state().error
            );
            let mechanical = app.run_state().layout.is_mechanical();
            match tab {
                Tab::FrictionVelocity if mechanical => {
                    assert!(
                        h.query_by_label_contains("no frictional contact").is_none(),
                        "{name}"
                    );
                    assert!(
                        h.query_by_label_contains("reports no slip").is_none(),
                        "{name}"
                    );
                }
                Tab::FrictionVelocity => {
                    h.get_by_label_contains("no frictional contact");
                }
                Tab::Spectrum => {
                    h.get_by_role_and_label(A11y::ComboBox, "Spectrum of");
                }
                Tab::Poincare => {
                    let points = h.query_all_by_label_contains(" points").next().is_some();
                    let none = h
                        .query_all_by_label_contains("offers no Poincaré section")
                        .next()
                        .is_some();
                    assert!(points || none, "{name}: the Poincaré tab says nothing");
                }
                _ => {}
            }
        }
    }
}

/// The two-block system in the window: a chooser of the traced block, the plane of the two
/// positions, the friction–velocity plot of the second contact with its own law, and the
/// stick fraction averaged over both contacts.
#[test]
fn the_two_block_system_in_the_window() {
    let preset = builtin::load("two_block_bk").unwrap().unwrap();
    let mut h = window_with_preset(egui::vec2(1400.0, 900.0), preset);
    run_until(&mut h, 20.0, |a| a.run_state().t_s > 2.0);
    h.state_mut().set_tab(Tab::Phase);
    h.run_steps(3);
    h.get_by_role_and_label(A11y::ComboBox, "Phase plane")
        .click();
    h.run_steps(2);
    h.get_by_label("positions x₁–x₂").click();
    h.run_steps(3);
    let plane = roles::current_plane(h.state()).unwrap();
    assert_eq!(plane, roles::PlaneChoice::Positions(0, 1));
    let (a, b) = roles::plane_axes(h.state(), plane).unwrap();
    let cols = &h.state().run_state().columns;
    assert_eq!(
        (cols[a].role, cols[b].role),
        (Role::Position(0), Role::Position(1))
    );

    h.state_mut().set_tab(Tab::FrictionVelocity);
    h.run_steps(3);
    h.get_by_role_and_label(A11y::ComboBox, "Contact").click();
    h.run_steps(2);
    h.get_by_label("block 2 on the belt").click();
    h.run_steps(3);
    assert_eq!(roles::current_contact(h.state()), Some(1));

    h.state_mut().set_tab(Tab::Traces);
    h.run_steps(3);
    h.get_by_role_and_label(A11y::ComboBox, "Traces of");
    // Stick fraction of both contacts in the status bar.
    h.get_by_label_contains("stick ");
    // The second contact's own law is in the side panel.
    h.get_by_label_contains("Contact 2 (block 2 on the belt) has its own law");
    assert!(h.state().run_state().error.is_none());

    // The Floquet tab finds the same orbit as the core does for this preset: four states,
    // the trivial multiplier 1, the period the CLI prints.
    h.state_mut().set_tab(Tab::Floquet);
    h.run_steps(3);
    h.get_by_label("Find orbit and multipliers").click();
    run_until(&mut h, 60.0, |a| a.analysis().floquet().is_some());
    let r = h.state().analysis().floquet().unwrap().clone();
    let mut core = tribolab::analysis::PresetDynamics::new(h.state().session().preset.clone());
    core.rtol = Some(core.preset.run.rtol.min(1e-10));
    let options = tribolab::analysis::FloquetOptions {
        transient_s: h.state().session().view.lab.floquet_transient_s,
        ..Default::default()
    };
    let expected = tribolab::analysis::floquet(&core, &options).unwrap();
    assert_eq!(r.multipliers.len(), 4);
    assert!(
        (r.period_s - expected.period_s).abs() < 1e-9,
        "{} s",
        r.period_s
    );
    assert!(
        r.multipliers
            .iter()
            .any(|m| (m - nalgebra::Complex::new(1.0, 0.0)).norm() < 1e-4),
        "{:?}",
        r.multipliers
    );
}
