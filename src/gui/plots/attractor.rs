//! Attractor tab: the delay reconstruction of the chosen signal (a simulation column or the
//! imported series) — a rotatable 3-D view of `(x(t), x(t+τ), x(t+2τ))` and the two 2-D
//! projections `x(t+τ)` against `x(t)` and `x(t+2τ)` against `x(t+τ)`. The delay is set here;
//! "Use the AMI delay" takes the one the Embedding tab's analysis chose.

use eframe::egui;
use egui_plot::{Line, Plot, Points};

use super::{attractor3d, series_source};
use crate::gui::TriboApp;
use crate::gui::controls::param_slider;
use crate::params::{ParamMeta, Scale, fmt_num};

/// Most samples reconstructed (the newest of a run, the first of a file).
const MAX_SAMPLES: usize = 50_000;
/// Most points drawn in each 2-D projection.
const MAX_PLOT_POINTS: usize = 3_000;

const DELAY: ParamMeta = ParamMeta {
    key: "attractor_delay",
    label: "Delay τ",
    symbol: "",
    unit: "samples",
    default: 10.0,
    min: 1.0,
    max: 2000.0,
    scale: Scale::Log,
    integer: true,
    restart: false,
    help: "Delay of the reconstruction in samples (the first minimum of the mutual information \
           is a good choice: see the Embedding tab)",
};

/// Delay vectors `(x_k, x_{k+τ}, x_{k+2τ})`.
pub fn delay_vectors(values: &[f64], tau: usize) -> Vec<[f64; 3]> {
    let tau = tau.max(1);
    let n = values.len().saturating_sub(2 * tau);
    (0..n)
        .map(|k| [values[k], values[k + tau], values[k + 2 * tau]])
        .collect()
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    series_source::row(app, ui);
    let max = (app.session.view.lab.max_samples.round() as usize).clamp(200, MAX_SAMPLES);
    let input = series_source::current(app, max);
    // The AMI delay of the last analysis, when it was made on the series now chosen.
    let ami_delay = app.lab.series().and_then(|r| {
        series_source::is_current(app, &r.input.origin, &r.input.name).then_some(r.report.delay)
    });
    let is_map = app.session.preset.system.is_map()
        && app.session.view.lab.source == crate::gui::lab::SeriesSource::Simulation;
    let s = &mut app.session.view.lab;
    ui.horizontal_wrapped(|ui| {
        param_slider(ui, &DELAY, &mut s.attractor_delay);
        match ami_delay {
            Some(d) => {
                if ui
                    .button(format!("Use the AMI delay (τ = {d})"))
                    .on_hover_text("The first minimum of the mutual information (Embedding tab)")
                    .clicked()
                {
                    s.attractor_delay = d as f64;
                }
            }
            None => {
                ui.label(
                    egui::RichText::new(
                        "(analyse the series in the Embedding tab for the AMI delay)",
                    )
                    .weak(),
                );
            }
        }
        ui.checkbox(&mut s.attractor_points, "Points instead of a line");
    });
    let Some(input) = input else {
        ui.label("No samples of this signal yet.");
        return;
    };
    let tau = s.attractor_delay.round().max(1.0) as usize;
    let pts = delay_vectors(&input.values, tau);
    if pts.len() < 2 {
        ui.label(format!(
            "{} samples are too few for τ = {tau}: at least 2τ + 2 are needed.",
            input.values.len()
        ));
        return;
    }
    let as_points = s.attractor_points || is_map;
    let name = input.name.clone();
    ui.label(
        egui::RichText::new(format!(
            "{} delay vectors of {name}, τ = {tau} samples = {} s",
            pts.len(),
            fmt_num(round4(tau as f64 * input.dt_s))
        ))
        .weak(),
    );
    let labels = [
        format!("{name}(t)"),
        format!("{name}(t+τ)"),
        format!("{name}(t+2τ)"),
    ];
    let avail = ui.available_size();
    let side = avail.y.min(0.55 * avail.x) - 4.0;
    let down = egui::Layout::top_down(egui::Align::Min);
    ui.horizontal_top(|ui| {
        attractor3d::show(
            ui,
            side,
            &pts,
            as_points,
            [&labels[0], &labels[1], &labels[2]],
            s,
            reset,
        );
        let rest = egui::vec2(ui.available_width(), side);
        ui.allocate_ui_with_layout(rest, down, |ui| {
            let h = (side - 8.0) / 2.0;
            let cell = egui::vec2(ui.available_width(), h);
            ui.allocate_ui_with_layout(cell, down, |ui| {
                projection(ui, "attractor_xy", &pts, [0, 1], &labels, as_points, reset);
            });
            ui.allocate_ui_with_layout(cell, down, |ui| {
                projection(ui, "attractor_yz", &pts, [1, 2], &labels, as_points, reset);
            });
        });
    });
}

fn projection(
    ui: &mut egui::Ui,
    id: &str,
    pts: &[[f64; 3]],
    axes: [usize; 2],
    labels: &[String; 3],
    as_points: bool,
    reset: bool,
) {
    let stride = pts.len().div_ceil(MAX_PLOT_POINTS).max(1);
    let xy: Vec<[f64; 2]> = pts
        .iter()
        .step_by(stride)
        .map(|p| [p[axes[0]], p[axes[1]]])
        .collect();
    let mut plot = crate::gui::plots::ticks::readable(Plot::new(id))
        .x_axis_label(labels[axes[0]].clone())
        .y_axis_label(labels[axes[1]].clone());
    if reset {
        plot = plot.reset();
    }
    let name = format!("{} vs {}", labels[axes[1]], labels[axes[0]]);
    plot.show(ui, |p| {
        if as_points {
            p.points(Points::new(name, xy).radius(1.2).filled(true));
        } else {
            p.line(Line::new(name, xy).width(1.0));
        }
    });
}

/// Four significant digits.
fn round4(v: f64) -> f64 {
    format!("{v:.3e}").parse().unwrap_or(v)
}

#[cfg(test)]
mod tests {
    use super::delay_vectors;

    #[test]
    fn delay_vectors_take_x_at_t_t_plus_tau_t_plus_two_tau() {
        let v: Vec<f64> = (0..10).map(f64::from).collect();
        let d = delay_vectors(&v, 3);
        assert_eq!(d.len(), 4);
        assert_eq!(d[0], [0.0, 3.0, 6.0]);
        assert_eq!(d[3], [3.0, 6.0, 9.0]);
        assert!(delay_vectors(&v[..5], 3).is_empty());
    }
}
