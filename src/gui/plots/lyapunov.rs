//! Lyapunov tab: start a spectrum of the current preset, watch `λ_i(T)` converge, read the
//! verdict (equilibrium / limit cycle / subharmonic K / torus / chaos), the Kaplan–Yorke
//! dimension and `Σλ` against the exact mean volume growth.

use crate::analysis::lyapunov::signed;
use eframe::egui;
use egui_plot::{HLine, Legend, Line, Plot};

use super::{job_bar, setting_rows};
use crate::analysis::classify::SystemKind;
use crate::gui::TriboApp;
use crate::gui::controls::param_slider;
use crate::gui::jobs::{JobKind, LyapunovSnapshot};
use crate::params::{ParamMeta, Scale};

/// Curve colours of λ₁, λ₂, … (then repeated).
const COLORS: [egui::Color32; 6] = [
    egui::Color32::from_rgb(214, 39, 40),
    egui::Color32::from_rgb(31, 119, 180),
    egui::Color32::from_rgb(44, 160, 44),
    egui::Color32::from_rgb(148, 103, 189),
    egui::Color32::from_rgb(255, 127, 14),
    egui::Color32::from_rgb(140, 86, 75),
];

/// Slider metadata of a run setting (also the friction sweep's).
#[allow(clippy::too_many_arguments)]
pub(super) const fn meta(
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
    default: f64,
    scale: Scale,
    help: &'static str,
) -> ParamMeta {
    ParamMeta {
        key,
        label,
        symbol: "",
        unit,
        default,
        min,
        max,
        scale,
        integer: false,
        restart: false,
        help,
    }
}

const FLOW_DURATION: ParamMeta = meta(
    "duration",
    "Averaging time",
    "s",
    1.0,
    1e5,
    200.0,
    Scale::Log,
    "Model time averaged after the transient",
);
const FLOW_TRANSIENT: ParamMeta = meta(
    "transient",
    "Transient",
    "s",
    0.0,
    1e4,
    20.0,
    Scale::Linear,
    "Model time run (vectors aligned) before averaging starts",
);
const FLOW_TAU: ParamMeta = meta(
    "tau",
    "Renormalisation interval τ",
    "s",
    0.01,
    100.0,
    0.5,
    Scale::Log,
    "Gram–Schmidt every τ (and after every switch); one running-estimate point each",
);
const MAP_DURATION: ParamMeta = meta(
    "duration",
    "Averaging time",
    "iterations",
    100.0,
    1e7,
    20_000.0,
    Scale::Log,
    "Iterations averaged after the transient",
);
const MAP_TRANSIENT: ParamMeta = meta(
    "transient",
    "Transient",
    "iterations",
    0.0,
    1e5,
    100.0,
    Scale::Linear,
    "Iterations dropped before averaging starts",
);
const MAP_TAU: ParamMeta = meta(
    "tau",
    "Estimate every",
    "iterations",
    1.0,
    1e4,
    100.0,
    Scale::Log,
    "Iterations between running-estimate points (maps re-orthonormalise every iteration)",
);

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    if job_bar::show(app, ui, JobKind::Lyapunov, "Start Lyapunov run", Ok(())) {
        app.start_lyapunov();
    }
    settings(app, ui);
    ui.separator();
    let Some(snap) = app.lab.lyapunov() else {
        ui.label("Press “Start Lyapunov run”: the spectrum of the system as set in the side panel converges here live.");
        return;
    };
    let snap = snap.clone();
    ui.horizontal_top(|ui| {
        ui.allocate_ui_with_layout(
            egui::vec2(330.0, ui.available_height()),
            egui::Layout::top_down(egui::Align::Min),
            |ui| summary(&snap, ui),
        );
        ui.separator();
        ui.vertical(|ui| plot(&snap, ui, reset));
    });
}

fn settings(app: &mut TriboApp, ui: &mut egui::Ui) {
    let is_map = app.session.preset.system.is_map();
    let s = &mut app.session.view.lab;
    if is_map {
        setting_rows(
            ui,
            vec![
                Box::new(|ui| _ = param_slider(ui, &MAP_DURATION, &mut s.lyap_map_duration)),
                Box::new(|ui| _ = param_slider(ui, &MAP_TRANSIENT, &mut s.lyap_map_transient)),
                Box::new(|ui| _ = param_slider(ui, &MAP_TAU, &mut s.lyap_map_tau)),
            ],
        );
    } else {
        setting_rows(
            ui,
            vec![
                Box::new(|ui| _ = param_slider(ui, &FLOW_DURATION, &mut s.lyap_duration_s)),
                Box::new(|ui| _ = param_slider(ui, &FLOW_TRANSIENT, &mut s.lyap_transient_s)),
                Box::new(|ui| _ = param_slider(ui, &FLOW_TAU, &mut s.lyap_tau_s)),
                Box::new(|ui| {
                    ui.checkbox(
                        &mut s.lyap_fast_stiff,
                        "Fast for stiff laws (λ₁ and verdict only)",
                    )
                    .on_hover_text(
                        "With an implicit integrator, damp the stiff tangent directions \
                             instead of resolving them: much faster for LuGre-type laws; the \
                             most negative exponents become upper bounds",
                    );
                }),
            ],
        );
    }
}

fn summary(s: &LyapunovSnapshot, ui: &mut egui::Ui) {
    let sp = &s.spectrum;
    let c = &s.classification;
    let unit = sp.kind.unit();
    let verdict = c.attractor.describe(sp.kind);
    let text = if s.done {
        format!("Verdict: {verdict}")
    } else {
        format!("Verdict so far: {verdict}")
    };
    ui.label(egui::RichText::new(text).heading());
    ui.label(format!("Kaplan–Yorke dimension {:.4}", c.kaplan_yorke));
    ui.add_space(4.0);
    for (i, l) in sp.exponents.iter().enumerate() {
        let note = if *l == f64::NEG_INFINITY {
            "  (collapsed entering stick: multiplier 0)"
        } else {
            ""
        };
        ui.label(
            egui::RichText::new(format!(
                "λ{} = {} {unit}{note}",
                subscript(i + 1),
                signed(*l, 4)
            ))
            .monospace()
            .color(COLORS[i % COLORS.len()]),
        );
    }
    if sp.kind.is_forced() {
        ui.label(
            egui::RichText::new("time direction: 0 exactly (forced; added for the verdict)")
                .small(),
        );
    }
    ui.add_space(4.0);
    ui.label(egui::RichText::new(format!("Σλ = {} {unit}", signed(sp.sum(), 4))).monospace());
    if let Some(d) = sp.mean_divergence {
        ui.label(
            egui::RichText::new(format!(
                "check: mean tr J + switches = {} {unit}",
                signed(d, 4)
            ))
            .monospace(),
        )
        .on_hover_text("The exact mean volume growth that the sum of a full spectrum must equal");
    }
    ui.add_space(4.0);
    let time = if sp.kind == SystemKind::Map {
        "iterations"
    } else {
        "s"
    };
    ui.label(
        egui::RichText::new(format!(
            "averaged over {:.0} {time} after a {:.0} {time} transient; {} renormalisations{}",
            sp.averaging_time,
            s.options.transient,
            sp.renormalisations,
            if sp.switches > 0 {
                format!(", {} switches with saltation", sp.switches)
            } else {
                String::new()
            }
        ))
        .small(),
    );
    ui.label(egui::RichText::new(format!("{} · {}", sp.kind.describe(), sp.integrator)).small());
    ui.label(egui::RichText::new(sp.method).small().weak());
    for note in &c.notes {
        ui.label(
            egui::RichText::new(format!("note: {note}"))
                .small()
                .color(ui.visuals().warn_fg_color),
        );
    }
}

/// `n` in subscript digits.
fn subscript(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c))
        .collect()
}

fn plot(s: &LyapunovSnapshot, ui: &mut egui::Ui, reset: bool) {
    let sp = &s.spectrum;
    let k = sp.exponents.len();
    let x_label = if sp.kind == SystemKind::Map {
        "averaging time T [iterations]"
    } else {
        "averaging time T [s]"
    };
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("lyapunov_convergence"))
        .x_axis_label(x_label)
        .y_axis_label(format!("λ_i(T) [{}]", sp.kind.unit()))
        .legend(Legend::default());
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.hline(HLine::new("", 0.0).color(egui::Color32::GRAY).width(0.5));
        for i in 0..k {
            let pts: Vec<[f64; 2]> = sp
                .history
                .iter()
                .filter_map(|(t, l)| l.get(i).filter(|v| v.is_finite()).map(|v| [*t, *v]))
                .collect();
            if pts.is_empty() {
                continue;
            }
            p.line(
                Line::new(format!("λ{}", subscript(i + 1)), pts)
                    .color(COLORS[i % COLORS.len()])
                    .width(1.5),
            );
        }
    });
}
