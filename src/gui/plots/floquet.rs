//! Floquet tab: the periodic orbit the current preset settles on, its multipliers in the complex
//! plane with the unit circle, the trivial multiplier (flow direction) marked, the stability
//! verdict in words and the period.

use eframe::egui;
use egui_plot::{Legend, Line, MarkerShape, Plot, Points};
use nalgebra::Complex;

use super::job_bar;
use crate::analysis::floquet::FloquetReport;
use crate::gui::TriboApp;
use crate::gui::controls::param_slider;
use crate::gui::jobs::JobKind;
use crate::params::{ParamMeta, Scale, fmt_num};

const TRANSIENT: ParamMeta = ParamMeta {
    key: "transient",
    label: "Transient",
    symbol: "",
    unit: "s",
    default: 20.0,
    min: 1.0,
    max: 1000.0,
    scale: Scale::Log,
    integer: false,
    restart: false,
    help: "Model time run before the orbit is sought (forced systems: at least 12 periods)",
};

const TRIVIAL_COLOR: egui::Color32 = egui::Color32::from_rgb(120, 120, 200);
const MULTIPLIER_COLOR: egui::Color32 = egui::Color32::from_rgb(214, 39, 40);

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let enabled = if app.session.preset.system.is_map() {
        Err(
            "Floquet multipliers are computed for flows; for the periodic orbits of a map see \
             the Lyapunov tab (period K) and the bifurcation diagram",
        )
    } else {
        Ok(())
    };
    if job_bar::show(
        app,
        ui,
        JobKind::Floquet,
        "Find orbit and multipliers",
        enabled,
    ) {
        app.start_floquet();
    }
    param_slider(
        ui,
        &TRANSIENT,
        &mut app.session.view.lab.floquet_transient_s,
    );
    ui.separator();
    let Some(r) = app.lab.floquet() else {
        ui.label(
            "Press “Find orbit and multipliers”: the run from the initial state settles on a \
             periodic orbit, found by shooting; its multipliers are shown here.",
        );
        return;
    };
    let r = r.clone();
    ui.horizontal_top(|ui| {
        ui.allocate_ui_with_layout(
            egui::vec2(360.0, ui.available_height()),
            egui::Layout::top_down(egui::Align::Min),
            |ui| summary(&r, ui),
        );
        ui.separator();
        ui.vertical(|ui| plot(&r, ui, reset));
    });
}

/// A complex number compactly.
fn complex(m: Complex<f64>) -> String {
    let re = fmt_num(round(m.re));
    if m.im.abs() < 1e-12 {
        re
    } else {
        let sign = if m.im < 0.0 { '−' } else { '+' };
        format!("{re} {sign} {}i", fmt_num(round(m.im.abs())))
    }
}

/// Seven significant digits.
fn round(v: f64) -> f64 {
    format!("{v:.6e}").parse().unwrap_or(v)
}

fn summary(r: &FloquetReport, ui: &mut egui::Ui) {
    let verdict = r.stability.describe();
    let head = if r.stability.is_stable() {
        "Stable periodic orbit"
    } else {
        "Periodic orbit"
    };
    ui.label(egui::RichText::new(head).heading());
    ui.label(verdict);
    ui.add_space(4.0);
    ui.label(
        egui::RichText::new(format!("Period T = {} s", fmt_num(round(r.period_s)))).monospace(),
    );
    ui.label(format!(
        "{} orbit; section {} ({} return{} per period)",
        if r.forced { "forced" } else { "autonomous" },
        r.section,
        r.returns,
        if r.returns == 1 { "" } else { "s" }
    ));
    let fixed: Vec<String> = r
        .state_names
        .iter()
        .zip(&r.fixed_point)
        .map(|(n, v)| format!("{n} = {}", fmt_num(round(*v))))
        .collect();
    ui.label(format!("fixed point on the section: {}", fixed.join(", ")));
    ui.label(
        egui::RichText::new(format!(
            "Newton: {} iterations, residual {:.1e}; {} switches per period",
            r.newton_iterations, r.residual, r.switches_per_period
        ))
        .small(),
    );
    ui.add_space(4.0);
    ui.label(egui::RichText::new("Multipliers").strong());
    for (i, m) in r.multipliers.iter().enumerate() {
        let trivial = Some(i) == r.trivial_index;
        let text = format!(
            "m{} = {}   |m| = {}{}",
            i + 1,
            complex(*m),
            fmt_num(round(m.norm())),
            if trivial {
                "   (trivial: flow direction)"
            } else {
                ""
            }
        );
        let color = if trivial {
            TRIVIAL_COLOR
        } else {
            MULTIPLIER_COLOR
        };
        ui.label(egui::RichText::new(text).monospace().color(color));
    }
    if !r.forced {
        let on_section: Vec<String> = r.map_multipliers.iter().map(|m| complex(*m)).collect();
        ui.label(
            egui::RichText::new(format!(
                "on the section (non-trivial): {}",
                on_section.join(", ")
            ))
            .small(),
        );
    }
}

fn plot(r: &FloquetReport, ui: &mut egui::Ui, reset: bool) {
    let circle: Vec<[f64; 2]> = (0..=256)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 256.0;
            [a.cos(), a.sin()]
        })
        .collect();
    let trivial: Vec<[f64; 2]> = r.trivial().map(|m| vec![[m.re, m.im]]).unwrap_or_default();
    let others: Vec<[f64; 2]> = r
        .multipliers
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != r.trivial_index)
        .map(|(_, m)| [m.re, m.im])
        .collect();
    let reach = r
        .multipliers
        .iter()
        .map(|m| m.norm())
        .fold(1.0_f64, f64::max)
        * 1.15;
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("floquet_unit_circle"))
        .data_aspect(1.0)
        .x_axis_label("Re m")
        .y_axis_label("Im m")
        .include_x(-reach)
        .include_x(reach)
        .include_y(-reach)
        .include_y(reach)
        .legend(Legend::default());
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.line(
            Line::new("unit circle", circle)
                .color(egui::Color32::GRAY)
                .width(1.0),
        );
        if !trivial.is_empty() {
            p.points(
                Points::new("trivial multiplier (flow direction)", trivial)
                    .shape(MarkerShape::Diamond)
                    .radius(7.0)
                    .filled(false)
                    .color(TRIVIAL_COLOR),
            );
        }
        p.points(
            Points::new("multipliers", others)
                .shape(MarkerShape::Circle)
                .radius(5.0)
                .filled(true)
                .color(MULTIPLIER_COLOR),
        );
    });
}
