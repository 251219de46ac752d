//! Friction sweep tab (systems with a heat bath): mean friction against the drive speed (log
//! axis) or the temperature, each point the mean over noise seeds with its standard error as an
//! error bar; on speed sweeps the thermally activated law F_c − ΔF·|ln(v/v_c)|^β (+ drag·v)
//! fitted with F_c held at the cold system's friction, drawn as a curve, with that friction as
//! a line.

use eframe::egui;
use egui_plot::{HLine, Legend, Line, Plot, Points};

use super::{job_bar, setting_rows};
use crate::gui::TriboApp;
use crate::gui::controls::param_slider;
use crate::gui::jobs::{FrictionSweepResult, JobKind};
use crate::gui::lab::{friction_speed_range, friction_temperature_range};
use crate::params::{ParamMeta, Scale};
use crate::util::eng::format_si;

/// Colour of the measured points and their error bars.
const POINT_COLOR: egui::Color32 = egui::Color32::from_rgb(31, 119, 180);
/// Colour of the fitted law.
const FIT_COLOR: egui::Color32 = egui::Color32::from_rgb(230, 110, 20);
/// Colour of the exponent-2/3 law.
const THEORY_COLOR: egui::Color32 = egui::Color32::from_rgb(44, 160, 44);
/// Points of the fitted curves.
const CURVE_POINTS: usize = 200;

/// Slider metadata of a sweep setting.
fn setting(
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    (min, max): (f64, f64),
    scale: Scale,
    integer: bool,
    help: &'static str,
) -> ParamMeta {
    ParamMeta {
        integer,
        ..super::lyapunov::meta(key, label, unit, min, max, min, scale, help)
    }
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    ui.horizontal(|ui| {
        ui.label("Sweep");
        let by_t = &mut app.session.view.lab.friction_by_temperature;
        ui.radio_value(by_t, false, "drive speed (log)");
        ui.radio_value(by_t, true, "temperature");
    });
    settings(app, ui);
    if job_bar::show(
        app,
        ui,
        JobKind::FrictionSweep,
        "Run friction sweep",
        Ok(()),
    ) {
        app.start_friction_sweep();
    }
    let Some(result) = app.lab.friction_sweep().cloned() else {
        ui.label(
            "Each value runs once per noise seed, from a fresh start: the transient is dropped \
             and the friction averaged over the measured drive periods (lattice periods of the \
             support's travel). Slow speeds take long: the support must travel the same \
             number of lattice periods.",
        );
        return;
    };
    summary(ui, &result);
    plot(ui, &result, reset);
}

fn settings(app: &mut TriboApp, ui: &mut egui::Ui) {
    let by_t = app.session.view.lab.friction_by_temperature;
    let speed = friction_speed_range(app);
    let temperature = friction_temperature_range(app);
    let s = &mut app.session.view.lab;
    let (mut lo, mut hi) = if by_t { temperature } else { speed };
    let range_meta = |label| {
        if by_t {
            setting(
                "t",
                label,
                "K",
                (0.0, 2000.0),
                Scale::Linear,
                false,
                "Temperature",
            )
        } else {
            setting(
                "v",
                label,
                "m/s",
                (1e-12, 1e3),
                Scale::Log,
                false,
                "Drive speed",
            )
        }
    };
    let (from, to) = (range_meta("From"), range_meta("To"));
    let steps = setting(
        "steps",
        "Values",
        "",
        (2.0, 40.0),
        Scale::Linear,
        true,
        "Number of values",
    );
    let seeds = setting(
        "seeds",
        "Seeds",
        "",
        (1.0, 32.0),
        Scale::Linear,
        true,
        "Runs per value, one per noise seed (the error bar is their standard error)",
    );
    let transient = setting(
        "transient",
        "Transient",
        "periods",
        (0.0, 50.0),
        Scale::Linear,
        false,
        "Drive periods dropped at the start of each run",
    );
    let measure = setting(
        "measure",
        "Measured",
        "periods",
        (0.5, 200.0),
        Scale::Log,
        false,
        "Drive periods averaged after the transient",
    );
    setting_rows(
        ui,
        vec![
            Box::new(|ui| _ = param_slider(ui, &from, &mut lo)),
            Box::new(|ui| _ = param_slider(ui, &to, &mut hi)),
            Box::new(|ui| _ = param_slider(ui, &steps, &mut s.friction_steps)),
            Box::new(|ui| _ = param_slider(ui, &seeds, &mut s.friction_seeds)),
            Box::new(|ui| _ = param_slider(ui, &transient, &mut s.friction_transient_periods)),
            Box::new(|ui| _ = param_slider(ui, &measure, &mut s.friction_measure_periods)),
        ],
    );
    let chosen = (lo.min(hi), lo.max(hi));
    if by_t {
        if chosen != temperature {
            s.friction_temperature_k = chosen;
        }
    } else if chosen != speed {
        s.friction_speed_mps = chosen;
    }
}

fn summary(ui: &mut egui::Ui, r: &FrictionSweepResult) {
    if let Some(f) = r.study.athermal_friction_n {
        ui.label(format!(
            "Friction of the cold system as v → 0 (quasi-static): {}",
            format_si(f, "N", 4)
        ));
    }
    if !r.by_speed {
        return;
    }
    let line =
        |name: &str, fit: Option<&crate::analysis::activated_friction::SpeedSweepFit>| match fit {
            Some(f) => format!(
                "{name}: F = {} − {}·|ln(v / {})|^{:.2} + drag·v   ({} of {} speeds fitted, \
                 rms {})",
                format_si(f.law.f_c_n, "N", 4),
                format_si(f.law.delta_f_n, "N", 3),
                format_si(f.law.v_c_mps, "m/s", 3),
                f.law.exponent,
                f.points_used,
                r.points.len(),
                format_si(f.law.rms_n, "N", 2)
            ),
            None => format!(
                "{name}: no fit (needs three speeds whose friction lies below the cold value)"
            ),
        };
    ui.label(line("Fitted exponent", r.fit.as_ref()));
    ui.label(line("Exponent 2/3 (theory)", r.fit_two_thirds.as_ref()));
}

fn plot(ui: &mut egui::Ui, r: &FrictionSweepResult, reset: bool) {
    // Speeds on a log axis: the plot's x is log₁₀ v, labelled in m/s.
    let x_of = |v: f64| if r.by_speed { v.log10() } else { v };
    let points: Vec<[f64; 2]> = r
        .points
        .iter()
        .filter(|p| p.mean_n.is_finite())
        .map(|p| [x_of(p.value), p.mean_n])
        .collect();
    let by_speed = r.by_speed;
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("friction_sweep"))
        .legend(Legend::default())
        .x_axis_label(if by_speed {
            "drive speed v [m/s] (log)"
        } else {
            "temperature T [K]"
        })
        .y_axis_label("mean friction F [N]")
        .x_axis_formatter(move |mark, _| {
            if by_speed {
                format_si(10f64.powf(mark.value), "m/s", 2)
            } else {
                format_si(mark.value, "K", 3)
            }
        })
        .y_axis_formatter(|mark, _| format_si(mark.value, "N", 3));
    if reset {
        plot = plot.reset();
    }
    let (lo, hi) = r
        .points
        .iter()
        .map(|p| p.value)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let curve = |fit: &crate::analysis::activated_friction::SpeedSweepFit| -> Vec<[f64; 2]> {
        let (a, b) = (lo.ln(), hi.min(fit.law.v_c_mps).ln());
        (0..CURVE_POINTS)
            .map(|i| {
                let v = (a + (b - a) * i as f64 / (CURVE_POINTS - 1) as f64).exp();
                [v.log10(), fit.force_n(v)]
            })
            .collect()
    };
    plot.show(ui, |p| {
        for q in r.points.iter().filter(|q| q.mean_n.is_finite()) {
            let x = x_of(q.value);
            let e = q.sem_n.max(0.0);
            p.line(
                Line::new(
                    "mean over seeds ± standard error",
                    vec![[x, q.mean_n - e], [x, q.mean_n + e]],
                )
                .color(POINT_COLOR)
                .width(1.5),
            );
        }
        p.points(
            Points::new("mean over seeds ± standard error", points)
                .color(POINT_COLOR)
                .radius(4.0),
        );
        if let Some(f) = r.study.athermal_friction_n {
            p.hline(HLine::new("cold system (quasi-static)", f).color(egui::Color32::GRAY));
        }
        if by_speed && lo > 0.0 {
            if let Some(fit) = r.fit.as_ref() {
                p.line(
                    Line::new(
                        format!("fitted law (β = {:.2})", fit.law.exponent),
                        curve(fit),
                    )
                    .color(FIT_COLOR)
                    .width(2.0),
                );
            }
            if let Some(fit) = r.fit_two_thirds.as_ref() {
                p.line(
                    Line::new("law with β = 2/3", curve(fit))
                        .color(THEORY_COLOR)
                        .width(1.5),
                );
            }
        }
    });
}
