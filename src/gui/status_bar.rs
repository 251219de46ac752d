//! Status bar: simulation time, achieved real-time factor, stick fraction, dominant frequency,
//! energy balance error and any integration error in words.

use eframe::egui;

use super::TriboApp;
use super::plots::{col, window_range};

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui) {
    super::plots::update_spectrum(app);
    let stick = stick_fraction(app);
    ui.horizontal_wrapped(|ui| {
        let r = &app.run;
        // Time of the newest sample (on the output grid), not the integrator's overshoot.
        let t = app.history.last(0).unwrap_or(r.t_s);
        ui.label(format!("t = {t:.3} s"));
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
        if let Some(f) = stick {
            ui.label(format!("stick {:.0} %", 100.0 * f));
            ui.separator();
        }
        if let Some(p) = app.plots.spectrum.dominant {
            ui.label(format!("dominant {:.4} Hz", p.freq_hz));
            ui.separator();
        }
        if let Some(e) = energy_error(app) {
            ui.label(format!("energy balance error {e:.1e}"))
                .on_hover_text("|E_kin + E_spring − E₀ − W_belt − W_friction + W_damping| relative to the belt input");
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

/// Fraction of the shown window spent sticking (cached while running).
fn stick_fraction(app: &mut TriboApp) -> Option<f64> {
    let fresh = app
        .plots
        .stick_fraction
        .filter(|(at, _)| app.run.running && at.elapsed().as_secs_f64() < STICK_REFRESH_S);
    if let Some((_, f)) = fresh {
        return f;
    }
    let f = compute_stick_fraction(app);
    app.plots.stick_fraction = Some((std::time::Instant::now(), f));
    f
}

fn compute_stick_fraction(app: &TriboApp) -> Option<f64> {
    let (is, iev) = (col(app, "stick")?, col(app, "event")?);
    let range = window_range(app);
    let (s, ev) = (
        &app.history.column(is)[range.clone()],
        &app.history.column(iev)[range],
    );
    // Regular samples only (event rows repeat an instant); one branch-free pass over slices.
    let (n, stuck) = s.iter().zip(ev).fold((0u64, 0u64), |(n, k), (&s, &e)| {
        let regular = u64::from(e == 0.0);
        (n + regular, k + regular * u64::from(s > 0.5))
    });
    (n > 0).then(|| stuck as f64 / n as f64)
}

/// Newest energy balance error relative to the work put in by the belt.
fn energy_error(app: &TriboApp) -> Option<f64> {
    let e = app.history.last(col(app, "energy_error")?)?;
    let w = app.history.last(col(app, "w_belt")?)?.abs();
    let ek = app.history.last(col(app, "e_kin")?)?.abs();
    let es = app.history.last(col(app, "e_spring")?)?.abs();
    let scale = w.max(ek + es);
    (scale > 0.0).then(|| (e / scale).abs())
}
