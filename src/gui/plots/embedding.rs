//! Embedding tab: one run of the series pipeline on the chosen signal (simulation or imported
//! CSV) — the trace, its spectrum, the AMI curve with the chosen delay, Cao's E1/E2 with the
//! chosen dimension and the noise flag, the divergence curve p(k) with its fitted straight
//! region and slope λ₁, and a summary in words.

use eframe::egui;
use egui_plot::{Corner, Legend, Line, Plot, Points, VLine, log_grid_spacer};

use super::{job_bar, series_source, setting_rows};
use crate::analysis::mutual_information::DelayRule;
use crate::gui::TriboApp;
use crate::gui::controls::param_slider;
use crate::gui::decimate::min_max;
use crate::gui::jobs::{JobKind, SeriesResult};
use crate::gui::lab::short;
use crate::params::{ParamMeta, Scale, fmt_num};

const SAMPLES: ParamMeta = ParamMeta {
    key: "samples",
    label: "Samples analysed",
    symbol: "",
    unit: "",
    default: 20_000.0,
    min: 500.0,
    max: 200_000.0,
    scale: Scale::Log,
    integer: true,
    restart: false,
    help: "Newest samples of the run (first samples of a file) given to the pipeline",
};
const DELAY: ParamMeta = ParamMeta {
    key: "delay",
    label: "Delay τ",
    symbol: "",
    unit: "samples",
    default: 1.0,
    min: 1.0,
    max: 1000.0,
    scale: Scale::Log,
    integer: true,
    restart: false,
    help: "Embedding delay instead of the first minimum of the mutual information",
};
const DIM: ParamMeta = ParamMeta {
    key: "dim",
    label: "Dimension d",
    symbol: "",
    unit: "",
    default: 3.0,
    min: 1.0,
    max: 10.0,
    scale: Scale::Linear,
    integer: true,
    restart: false,
    help: "Embedding dimension instead of Cao's rule",
};

const E1_COLOR: egui::Color32 = egui::Color32::from_rgb(31, 119, 180);
const E2_COLOR: egui::Color32 = egui::Color32::from_rgb(214, 39, 40);
const MARK_COLOR: egui::Color32 = egui::Color32::from_rgb(44, 160, 44);

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    series_source::row(app, ui);
    overrides(app, ui);
    if job_bar::show(app, ui, JobKind::Series, "Analyse series", Ok(())) {
        app.start_series();
    }
    let Some(r) = app.lab.series().cloned() else {
        ui.label(
            "Press “Analyse series”: spectrum, mutual information (delay), Cao (dimension) and \
             the divergence curve (largest exponent) of the chosen signal.",
        );
        return;
    };
    if !series_source::is_current(app, &r.input.origin, &r.input.name) {
        ui.label(
            egui::RichText::new(format!(
                "Showing the analysis of `{}` ({}); press “Analyse series” for the data chosen \
                 above.",
                r.input.name,
                match &r.input.origin {
                    crate::gui::jobs::SeriesOrigin::Simulation => "simulation".to_string(),
                    crate::gui::jobs::SeriesOrigin::Imported { file } =>
                        series_source::file_name(file).to_string(),
                }
            ))
            .weak(),
        );
    }
    let avail = ui.available_size();
    let cell = egui::vec2((avail.x - 16.0) / 3.0, (avail.y - 8.0) / 2.0);
    let down = egui::Layout::top_down(egui::Align::Min);
    ui.horizontal(|ui| {
        ui.allocate_ui_with_layout(cell, down, |ui| trace(&r, ui, reset));
        ui.allocate_ui_with_layout(cell, down, |ui| spectrum(&r, ui, reset));
        ui.allocate_ui_with_layout(cell, down, |ui| ami(&r, ui, reset));
    });
    ui.horizontal(|ui| {
        ui.allocate_ui_with_layout(cell, down, |ui| cao(&r, ui, reset));
        ui.allocate_ui_with_layout(cell, down, |ui| divergence(&r, ui, reset));
        ui.allocate_ui_with_layout(cell, down, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("embedding_summary")
                .show(ui, |ui| summary(&r, ui));
        });
    });
}

fn overrides(app: &mut TriboApp, ui: &mut egui::Ui) {
    let s = &mut app.session.view.lab;
    setting_rows(
        ui,
        vec![
            Box::new(|ui| _ = param_slider(ui, &SAMPLES, &mut s.max_samples)),
            Box::new(|ui| own_choice(ui, "Choose τ", &DELAY, &mut s.delay, 1)),
            Box::new(|ui| own_choice(ui, "Choose d", &DIM, &mut s.dim, 3)),
        ],
    );
}

/// A checkbox "choose by hand" and, when ticked, the slider of the value.
fn own_choice(
    ui: &mut egui::Ui,
    label: &str,
    meta: &ParamMeta,
    value: &mut Option<usize>,
    initial: usize,
) {
    let mut own = value.is_some();
    ui.checkbox(&mut own, label);
    if own {
        let mut v = value.unwrap_or(initial) as f64;
        param_slider(ui, meta, &mut v);
        *value = Some(v.round().max(1.0) as usize);
    } else {
        *value = None;
    }
}

fn titled(ui: &mut egui::Ui, title: &str) {
    ui.label(egui::RichText::new(title).strong());
}

fn trace(r: &SeriesResult, ui: &mut egui::Ui, reset: bool) {
    let inp = &r.input;
    titled(ui, &format!("Trace of {}", inp.name));
    let t: Vec<f64> = (0..inp.values.len())
        .map(|k| inp.t0_s + k as f64 * inp.dt_s)
        .collect();
    let width = ui.available_width().max(100.0) as usize;
    let pts = min_max(t.as_slice(), inp.values.as_slice(), 0..t.len(), width);
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("embedding_trace"))
        .x_grid_spacer(log_grid_spacer(5))
        .x_axis_label("t [s]")
        .y_axis_label(inp.name.clone());
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| p.line(Line::new(inp.name.clone(), pts).width(1.0)));
}

fn spectrum(r: &SeriesResult, ui: &mut egui::Ui, reset: bool) {
    let dominant = r.report.peaks.first().copied();
    titled(
        ui,
        &dominant.map_or_else(
            || "Amplitude spectrum".to_string(),
            |d| format!("Spectrum: dominant {} Hz", fmt_num(round4(d.freq_hz))),
        ),
    );
    let s = &r.spectrum;
    let nyquist = 0.5 / r.input.dt_s;
    // Up to well past the strongest peaks (not only the dominant one, which may be a slow
    // drift; peaks under 5 % of it are left out), at least a few bins.
    let f_max = r
        .report
        .peaks
        .iter()
        .take(3)
        .filter(|p| dominant.is_none_or(|d| p.amplitude >= 0.05 * d.amplitude))
        .map(|p| 1.5 * p.freq_hz)
        .chain(dominant.map(|d| 5.0 * d.freq_hz))
        .fold(None, |m: Option<f64>, f| Some(m.map_or(f, |m| m.max(f))))
        .map_or(nyquist, |f| f.max(8.0 * s.resolution_hz))
        .min(nyquist);
    let pts: Vec<[f64; 2]> = s
        .freqs_hz
        .iter()
        .zip(&s.amplitudes)
        .take_while(|(f, _)| **f <= f_max)
        .map(|(f, a)| [*f, *a])
        .collect();
    let peaks: Vec<[f64; 2]> = r
        .report
        .peaks
        .iter()
        .filter(|p| p.freq_hz <= f_max)
        .map(|p| [p.freq_hz, p.amplitude])
        .collect();
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("embedding_spectrum"))
        .x_grid_spacer(log_grid_spacer(5))
        .x_axis_label("frequency [Hz]")
        .y_axis_label("amplitude")
        .include_y(0.0);
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.line(Line::new("amplitude", pts).width(1.0));
        p.points(Points::new("peaks", peaks).radius(3.0).color(MARK_COLOR));
    });
}

fn ami(r: &SeriesResult, ui: &mut egui::Ui, reset: bool) {
    let rep = &r.report;
    let how = match rep.delay_choice.1 {
        Some(DelayRule::FirstMinimum) => "first minimum",
        Some(DelayRule::OneOverE) => "I(0)/e fallback",
        None => "given",
    };
    titled(
        ui,
        &format!("Mutual information: τ = {} samples ({how})", rep.delay),
    );
    let pts: Vec<[f64; 2]> = rep
        .ami
        .values
        .iter()
        .enumerate()
        .map(|(k, v)| [k as f64, *v])
        .collect();
    let mark: Vec<[f64; 2]> = rep
        .ami
        .values
        .get(rep.delay)
        .map(|v| vec![[rep.delay as f64, *v]])
        .unwrap_or_default();
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("embedding_ami"))
        .x_grid_spacer(log_grid_spacer(5))
        .x_axis_label("delay τ [samples]")
        .y_axis_label("I(τ) [nats]")
        .include_y(0.0);
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.line(Line::new("I(τ)", pts).width(1.2));
        p.points(
            Points::new(format!("chosen τ = {}", rep.delay), mark)
                .radius(5.0)
                .filled(true)
                .color(MARK_COLOR),
        );
    });
}

fn cao(r: &SeriesResult, ui: &mut egui::Ui, reset: bool) {
    let rep = &r.report;
    let c = &rep.cao;
    if c.noise {
        ui.label(
            egui::RichText::new("Cao: E2 ≈ 1 for every d — the series looks like noise")
                .strong()
                .color(ui.visuals().warn_fg_color),
        );
    } else {
        titled(ui, &format!("Cao: embedding dimension d = {}", rep.dim));
    }
    let curve = |v: &[f64]| -> Vec<[f64; 2]> {
        v.iter()
            .enumerate()
            .map(|(k, e)| [(k + 1) as f64, *e])
            .collect()
    };
    // Undefined E2 (E* = 0: exact prediction) leaves a gap, never a NaN.
    let e2: Vec<[f64; 2]> =
        c.e2.iter()
            .enumerate()
            .filter_map(|(k, e)| e.map(|e| [(k + 1) as f64, e]))
            .collect();
    let e1 = curve(&c.e1);
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("embedding_cao"))
        .x_grid_spacer(log_grid_spacer(5))
        .x_axis_label("dimension d")
        .y_axis_label("E1(d), E2(d)")
        .include_y(0.0)
        .include_y(1.2)
        .legend(Legend::default().position(Corner::RightBottom));
    if reset {
        plot = plot.reset();
    }
    let dim = rep.dim as f64;
    plot.show(ui, |p| {
        p.line(Line::new("E1", e1.clone()).color(E1_COLOR).width(1.5));
        p.points(Points::new("E1", e1).color(E1_COLOR).radius(3.0));
        p.line(Line::new("E2", e2.clone()).color(E2_COLOR).width(1.5));
        p.points(Points::new("E2", e2).color(E2_COLOR).radius(3.0));
        p.vline(VLine::new(format!("chosen d = {}", rep.dim), dim).color(MARK_COLOR));
    });
}

fn divergence(r: &SeriesResult, ui: &mut egui::Ui, reset: bool) {
    let rep = &r.report;
    let dv = &rep.divergence;
    match rep.fit {
        Some(f) => titled(
            ui,
            &format!(
                "Divergence p(k): λ₁ = {} 1/s (k = {}…{})",
                fmt_num(round4(f.slope)),
                f.start,
                f.end
            ),
        ),
        None => titled(ui, "Divergence p(k): no straight region"),
    }
    let p_k = dv.p_k();
    let pts: Vec<[f64; 2]> = p_k
        .iter()
        .enumerate()
        .map(|(k, v)| [k as f64, *v])
        .collect();
    let fit: Vec<[f64; 2]> = rep
        .fit
        .map(|f| {
            [f.start, f.end]
                .iter()
                .map(|&k| {
                    let x = k as f64 * dv.dt_s;
                    [k as f64, (f.intercept + f.slope * x) / dv.dt_s]
                })
                .collect()
        })
        .unwrap_or_default();
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("embedding_divergence"))
        .x_grid_spacer(log_grid_spacer(5))
        .x_axis_label(format!("k [steps of t_s = {} s]", short(dv.dt_s)))
        .y_axis_label("p(k) = L(k)/t_s")
        .legend(Legend::default().position(Corner::RightBottom));
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.line(Line::new("p(k)", pts).width(1.2));
        if !fit.is_empty() {
            p.line(
                Line::new("fitted straight region", fit)
                    .color(MARK_COLOR)
                    .width(3.0),
            );
        }
    });
}

/// Four significant digits.
fn round4(v: f64) -> f64 {
    format!("{v:.3e}").parse().unwrap_or(v)
}

fn summary(r: &SeriesResult, ui: &mut egui::Ui) {
    let rep = &r.report;
    titled(ui, "Summary");
    let mut lines = vec![
        format!(
            "{}: {} samples, t_s = {} s",
            rep.name,
            rep.samples,
            short(rep.dt_s)
        ),
        format!(
            "peaks: {}",
            rep.peaks
                .iter()
                .take(3)
                .map(|p| format!("{} Hz", fmt_num(round4(p.freq_hz))))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "delay τ = {} samples = {} s ({})",
            rep.delay,
            fmt_num(round4(rep.delay as f64 * rep.dt_s)),
            rep.delay_choice.0.key()
        ),
        format!("Theiler window w = {} samples", rep.theiler),
        format!(
            "embedding dimension d = {} ({})",
            rep.dim,
            rep.dim_choice.key()
        ),
    ];
    match rep.fit {
        Some(f) => lines.push(format!(
            "λ₁ (Rosenstein) = {} 1/s over {}…{} s, r² = {:.4}",
            fmt_num(round4(f.slope)),
            fmt_num(round4(f.start as f64 * rep.dt_s)),
            fmt_num(round4(f.end as f64 * rep.dt_s)),
            f.r2
        )),
        None => lines.push("λ₁ (Rosenstein): no straight region".into()),
    }
    if let Some(w) = rep.wolf {
        lines.push(format!(
            "λ₁ (Wolf) = {} 1/s",
            fmt_num(round4(w.lambda_per_s))
        ));
    }
    for l in lines {
        ui.label(egui::RichText::new(l).small());
    }
    for n in r.input.notes.iter().chain(&rep.warnings) {
        ui.label(
            egui::RichText::new(n)
                .small()
                .color(ui.visuals().warn_fg_color),
        );
    }
}
