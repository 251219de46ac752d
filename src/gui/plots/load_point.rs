//! Steps & holds: a run whose load point follows a programme, read the way a friction
//! laboratory reads it ([`crate::analysis::load_point`]). Left, the friction coefficient
//! against the load point's displacement over the whole record (the standard figure of
//! velocity-step and slide–hold–slide tests), with the steps and holds marked; right, the
//! healing curve (peak friction after each hold against the hold time, log axis, with its
//! fitted rate per decade) and a table of every step and hold.

use eframe::egui;
use egui_plot::{Line, MarkerShape, Plot, Points, VLine};

use super::roles::col;
use super::{BELT_COLOR, SLIP_COLOR, STICK_COLOR};
use crate::analysis::load_point::{LoadPointTests, load_point_tests};
use crate::gui::TriboApp;
use crate::integrate::Role;
use crate::util::eng::format_si;

/// Most points drawn of the friction record.
const MAX_POINTS: usize = 6_000;
/// Seconds of wall time between readings of a growing record.
const REFRESH_S: f64 = 0.5;

/// The steps and holds of the record and the history length they were read at.
#[derive(Default)]
pub struct LoadPointCache {
    len: usize,
    read_at: f64,
    tests: LoadPointTests,
}

impl LoadPointCache {
    /// The steps and holds of the last reading.
    pub fn tests(&self) -> &LoadPointTests {
        &self.tests
    }
}

/// History columns the tab reads.
struct Columns {
    time: usize,
    driver_speed: usize,
    driver_position: usize,
    friction: usize,
    load: usize,
}

fn columns(app: &TriboApp) -> Option<Columns> {
    Some(Columns {
        time: col(app, Role::Time)?,
        driver_speed: col(app, Role::DriverVelocity)?,
        driver_position: col(app, Role::DriverPosition)?,
        friction: col(app, Role::FrictionForce(0))?,
        load: col(app, Role::NormalLoad(0))?,
    })
}

/// Whether the running system has a load point whose speed the tab can read.
pub fn applies(app: &TriboApp) -> bool {
    col(app, Role::DriverVelocity).is_some()
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let Some(c) = columns(app) else {
        ui.centered_and_justified(|ui| {
            ui.label("Steps and holds are read from a load point that follows a programme (the spring–slider rig).")
        });
        return;
    };
    refresh(app, &c, ui.input(|i| i.time));
    let avail = ui.available_size();
    let half = egui::vec2((avail.x - 8.0) / 2.0, avail.y);
    let down = egui::Layout::top_down(egui::Align::Min);
    ui.horizontal(|ui| {
        ui.allocate_ui_with_layout(half, down, |ui| record(app, ui, &c, reset));
        ui.allocate_ui_with_layout(half, down, |ui| {
            let tests = &app.plots.load_point.tests;
            if tests.is_empty() {
                ui.label(
                    "No velocity step or hold yet: choose the VelocitySteps or SlideHoldSlide \
                     programme of the load point, or wait for the first one.",
                );
                return;
            }
            let h = if tests.holds.is_empty() {
                0.0
            } else {
                ui.available_height() * 0.55
            };
            if h > 0.0 {
                ui.allocate_ui_with_layout(
                    egui::vec2(ui.available_width(), h),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| healing(ui, tests, reset),
                );
            }
            table(ui, tests);
        });
    });
}

/// Reads the steps and holds again when the record grew and the last reading is old enough.
fn refresh(app: &mut TriboApp, c: &Columns, now_s: f64) {
    let h = &app.history;
    let cache = &mut app.plots.load_point;
    let grown = h.len() != cache.len;
    let shrunk = h.len() < cache.len;
    if !(shrunk || (grown && now_s - cache.read_at >= REFRESH_S) || cache.len == 0) {
        return;
    }
    cache.tests = load_point_tests(
        h.column(c.time),
        h.column(c.driver_speed),
        h.column(c.friction),
        h.column(c.load),
    );
    cache.len = h.len();
    cache.read_at = now_s;
}

/// μ = −F_f/N against the load point's displacement, the steps and holds marked.
fn record(app: &TriboApp, ui: &mut egui::Ui, c: &Columns, reset: bool) {
    let h = &app.history;
    let n = h.len();
    let stride = (n / MAX_POINTS).max(1);
    let (x, f, load, t) = (
        h.column(c.driver_position),
        h.column(c.friction),
        h.column(c.load),
        h.column(c.time),
    );
    let mu = |i: usize| -f[i] / load[i];
    let points: Vec<[f64; 2]> = (0..n)
        .step_by(stride)
        .filter(|&i| load[i] > 0.0)
        .map(|i| [x[i], mu(i)])
        .collect();
    // Marks at the load-point position of each step and hold.
    let position_at = |t_s: f64| {
        let i = t.partition_point(|&ti| ti < t_s).min(n.saturating_sub(1));
        x.get(i).copied()
    };
    let tests = &app.plots.load_point.tests;
    let steps: Vec<f64> = tests
        .steps
        .iter()
        .filter_map(|s| position_at(s.t_s))
        .collect();
    let holds: Vec<f64> = tests
        .holds
        .iter()
        .filter_map(|s| position_at(s.t_s))
        .collect();
    let unit = app
        .run
        .columns
        .get(c.driver_position)
        .map_or("m", |c| c.unit.as_str())
        .to_string();
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("load_point_record"))
        .x_axis_label(format!("load-point displacement x_lp [{unit}]"))
        .y_axis_label("friction coefficient μ = −F_f/N")
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.line(Line::new("μ", points).color(SLIP_COLOR).width(1.2));
        for (k, x) in steps.iter().enumerate() {
            let line = VLine::new("velocity step", *x).color(BELT_COLOR);
            p.vline(if k == 0 {
                line
            } else {
                line.allow_hover(false)
            });
        }
        for x in &holds {
            p.vline(VLine::new("hold", *x).color(STICK_COLOR));
        }
    });
}

/// Δμ_peak against log₁₀ of the hold time, with the fitted healing rate.
fn healing(ui: &mut egui::Ui, tests: &LoadPointTests, reset: bool) {
    let points: Vec<[f64; 2]> = tests
        .holds
        .iter()
        .filter(|h| h.complete)
        .map(|h| [h.hold_s.log10(), h.healing()])
        .collect();
    let fit = tests.healing_rate_per_decade(0.0);
    match fit {
        Some((beta, _)) => ui.label(format!(
            "Healing: the peak on reloading rises by {beta:.4} per tenfold longer hold"
        )),
        None => ui.label("Healing: two complete holds are needed for a rate"),
    };
    let line = fit.and_then(|(beta, c0)| {
        let lo = points.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
        let hi = points
            .iter()
            .map(|p| p[0])
            .fold(f64::NEG_INFINITY, f64::max);
        (lo < hi).then(|| vec![[lo, c0 + beta * lo], [hi, c0 + beta * hi]])
    });
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("load_point_healing"))
        .x_axis_label("hold time t_h [s] (log scale)")
        .y_axis_label("Δμ_peak")
        .x_axis_formatter(|mark, _| format_si(10f64.powf(mark.value), "s", 2))
        .legend(egui_plot::Legend::default().position(egui_plot::Corner::RightBottom));
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        if let Some(line) = line {
            p.line(
                Line::new("fitted rate", line)
                    .color(egui::Color32::GRAY)
                    .width(1.0),
            );
        }
        p.points(
            Points::new("peak after each hold", points)
                .shape(MarkerShape::Circle)
                .radius(4.0)
                .filled(true)
                .color(STICK_COLOR),
        );
    });
}

/// One row per step and per hold.
fn table(ui: &mut egui::Ui, tests: &LoadPointTests) {
    egui::ScrollArea::vertical()
        .id_salt("load_point_table")
        .show(ui, |ui| {
            if !tests.steps.is_empty() {
                ui.label(
                    "Velocity steps: the jump of μ per e-fold of speed estimates the direct \
                     effect a, the settled change the steady-state slope a − b.",
                );
                egui::Grid::new("load_point_steps")
                    .striped(true)
                    .show(ui, |ui| {
                        for head in ["at", "speed", "μ before", "peak", "after", "≈ a", "≈ a − b"]
                        {
                            ui.strong(head);
                        }
                        ui.end_row();
                        for s in &tests.steps {
                            ui.label(format_si(s.t_s, "s", 4));
                            ui.label(format!(
                                "{} → {}",
                                format_si(s.v_before_mps, "m/s", 3),
                                format_si(s.v_after_mps, "m/s", 3)
                            ));
                            ui.label(format!("{:.5}", s.mu_before));
                            ui.label(format!("{:.5}", s.mu_peak));
                            ui.label(format!(
                                "{:.5}{}",
                                s.mu_after,
                                if s.complete { "" } else { " …" }
                            ));
                            ui.label(format!("{:.5}", s.direct_effect()));
                            ui.label(format!("{:+.5}", s.steady_change()));
                            ui.end_row();
                        }
                    });
            }
            if !tests.holds.is_empty() {
                ui.label(
                    "Holds: friction relaxes while the load point stands still, and overshoots \
                     to a peak when it moves again.",
                );
                egui::Grid::new("load_point_holds")
                    .striped(true)
                    .show(ui, |ui| {
                        for head in ["at", "hold", "μ before", "relaxed", "peak", "Δμ_peak"] {
                            ui.strong(head);
                        }
                        ui.end_row();
                        for h in &tests.holds {
                            ui.label(format_si(h.t_s, "s", 4));
                            ui.label(format_si(h.hold_s, "s", 3));
                            ui.label(format!("{:.5}", h.mu_before));
                            ui.label(format!("{:.5}", h.mu_relaxed));
                            ui.label(format!(
                                "{:.5}{}",
                                h.mu_peak,
                                if h.complete { "" } else { " …" }
                            ));
                            ui.label(format!("{:+.5}", h.healing()));
                            ui.end_row();
                        }
                    });
            }
        });
}
