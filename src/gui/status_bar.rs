//! Status bar: simulation time, achieved real-time factor, stick fraction, dominant frequency,
//! energy balance error and any integration error in words.

use eframe::egui;

use super::TriboApp;
use super::plots::roles::col;
use super::plots::{StickFractions, window_range};
use crate::integrate::Role;
use crate::util::eng::format_si;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    super::plots::update_spectrum(app);
    let stick = stick_fraction(app);
    ui.horizontal_wrapped(|ui| {
        let r = &app.run;
        // Time of the newest sample (on the output grid), not the integrator's overshoot.
        let t = app.history.last(0).unwrap_or(r.t_s);
        ui.label(format!("t = {t:.3} {}", app.run.time_unit()).trim_end());
        ui.separator();
        let state = if r.error.is_some() {
            "stopped"
        } else if r.running {
            "running"
        } else {
            "paused"
        };
        if r.running {
            ui.label(format!("{state} · {:.2}× real time", r.rtf));
        } else {
            ui.label(state);
        }
        ui.separator();
        if let Some((overall, per_contact)) = &stick {
            let label = ui.label(format!("stick {:.0} %", 100.0 * overall));
            if per_contact.len() > 1 {
                let lines: Vec<String> = per_contact
                    .iter()
                    .enumerate()
                    .map(|(k, f)| format!("contact {}: {:.0} %", k + 1, 100.0 * f))
                    .collect();
                label.on_hover_text(format!(
                    "Share of the shown window spent sticking while in contact, averaged over the contacts:\n{}",
                    lines.join("\n")
                ));
            }
            ui.separator();
        }
        if let Some(p) = app.plots.spectrum.dominant {
            ui.label(format!("dominant {:.4} {}", p.freq_hz, app.run.frequency_unit()));
            ui.separator();
        }
        if let Some(e) = energy_error(app) {
            ui.label(format!("energy balance error {e:.1e}"))
                .on_hover_ui(|ui| {
                    ui.label(energy_account_text(app));
                });
            ui.separator();
        }
        ui.label(egui::RichText::new(r.method).weak());
        let dt = ui.input(|i| i.stable_dt).max(1e-4);
        let fps = ui.label(egui::RichText::new(format!("{:.0} fps", 1.0 / dt)).weak());
        if let Some(cpu) = app.frame_cpu_s {
            ui.label(egui::RichText::new(format!("{:.1} ms/frame", 1e3 * cpu)).weak())
                .on_hover_text(
                    "Time the window spends on one frame: building, tessellating and painting \
                     it (without the buffer swap). Frames per second are bounded by this plus \
                     the rasteriser's time.",
                );
        }
        fps.on_hover_text("Frames drawn per second (smoothed)");
        ui.label(egui::RichText::new(format!("{} samples", app.history.len())).weak());
        if let Some(err) = &app.run.error {
            ui.separator();
            ui.label(
                egui::RichText::new(format!("Integration stopped: {err}"))
                    .color(ui.visuals().error_fg_color),
            );
        }
    });
}

/// Refresh interval of the stick fraction while running [s].
const STICK_REFRESH_S: f64 = 0.25;

/// Stick fraction of the shown window (cached while running).
fn stick_fraction(app: &mut TriboApp) -> StickFractions {
    let fresh = app
        .plots
        .stick_fraction
        .as_ref()
        .filter(|(at, _)| app.run.running && at.elapsed().as_secs_f64() < STICK_REFRESH_S);
    if let Some((_, f)) = fresh {
        return f.clone();
    }
    let f = compute_stick_fraction(app);
    app.plots.stick_fraction = Some((std::time::Instant::now(), f.clone()));
    f
}

fn compute_stick_fraction(app: &TriboApp) -> StickFractions {
    let iev = col(app, Role::EventFlag)?;
    let range = window_range(app);
    let ev = &app.history.column(iev)[range.clone()];
    let per_contact: Vec<f64> = (0..app.run.layout.contacts.len())
        .filter_map(|k| {
            let is = col(app, Role::Stick(k))?;
            let s = &app.history.column(is)[range.clone()];
            // Samples in contact: an open contact (zero normal load, between an impact
            // system's strikes) is neither stick nor slip.
            let closed =
                col(app, Role::NormalLoad(k)).map(|c| &app.history.column(c)[range.clone()]);
            let in_contact = |i: usize| closed.is_none_or(|n| n[i] > 0.0);
            // Regular samples only (event rows repeat an instant); one pass.
            let (n, stuck) =
                s.iter()
                    .zip(ev)
                    .enumerate()
                    .fold((0u64, 0u64), |(n, k), (i, (&s, &e))| {
                        let counted = u64::from(e == 0.0 && in_contact(i));
                        (n + counted, k + counted * u64::from(s > 0.5))
                    });
            (n > 0).then(|| stuck as f64 / n as f64)
        })
        .collect();
    (!per_contact.is_empty()).then(|| {
        let overall = per_contact.iter().sum::<f64>() / per_contact.len() as f64;
        (overall, per_contact)
    })
}

/// Newest energy-balance error relative to the energy put in (or the mechanical energy, when
/// larger).
fn energy_error(app: &TriboApp) -> Option<f64> {
    let last = |role| -> Option<f64> { app.history.last(col(app, role)?) };
    let e = last(Role::EnergyError)?;
    let w = last(Role::InputWork).unwrap_or(0.0).abs();
    let ek = last(Role::KineticEnergy).unwrap_or(0.0).abs();
    let es = last(Role::StoredEnergy).unwrap_or(0.0).abs();
    let scale = w.max(ek + es);
    (scale > 0.0).then(|| (e / scale).abs())
}

/// The energy account at the newest sample, one line per term, for the balance's tooltip.
fn energy_account_text(app: &TriboApp) -> String {
    let row: Vec<f64> = (0..app.run.columns.len())
        .map(|i| app.history.last(i).unwrap_or(f64::NAN))
        .collect();
    let Some(a) = crate::analysis::energy::energy_account(&app.run.columns, &row) else {
        return String::new();
    };
    let j = |v: f64| format_si(v, "J", 4);
    let mut lines = vec![
        "Energy account since the run (or its last change) started:".to_string(),
        format!("  at the start  {}", j(a.initial_j)),
        format!("  put in by the drives  {}", j(a.input_j)),
        format!("  kinetic now  {}", j(a.kinetic_j)),
        format!("  stored now  {}", j(a.stored_j)),
    ];
    for (c, e) in &a.friction_dissipated_j {
        lines.push(match c {
            Some(c) => format!("  taken by friction at contact {}  {}", c + 1, j(*e)),
            None => format!("  taken by friction  {}", j(*e)),
        });
    }
    lines.push(format!("  taken by dampers  {}", j(a.damping_dissipated_j)));
    lines.push(format!(
        "  balance error  {} (kinetic + stored − start − put in + taken)",
        j(a.balance_error_j)
    ));
    lines.join("\n")
}
