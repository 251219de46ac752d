//! Rig test: a characterisation rig's record read as its standard test
//! ([`crate::analysis::rig_reading`]) — the Stribeck curve, frictional-lag loops, pre-sliding
//! loops with return points and the Masing rule, break-away force against force rate. Draws
//! whatever series the reading describes (log axes as powers of ten), with its findings and
//! table beside the plot.

use eframe::egui;
use egui_plot::{Line, LineStyle, MarkerShape, Plot, Points};

use super::roles::col;
use super::{BELT_COLOR, SLIP_COLOR, STICK_COLOR};
use crate::analysis::rig_reading::{Axis, Mark, RigReading, RigRecord, read};
use crate::gui::TriboApp;
use crate::integrate::Role;
use crate::util::eng::{axis_unit, format_si};

/// Seconds of wall time between readings of a growing record.
const REFRESH_S: f64 = 0.5;
/// Most points drawn of one series.
const MAX_POINTS: usize = 8_000;

/// The last reading and the history length it was made at.
#[derive(Default)]
pub struct RigTestCache {
    len: usize,
    read_at: f64,
    reading: RigReading,
}

impl RigTestCache {
    /// The last reading.
    pub fn reading(&self) -> &RigReading {
        &self.reading
    }
}

/// Whether the session's system is a characterisation rig.
pub fn applies(app: &TriboApp) -> bool {
    app.session.preset.system.characterisation().is_some()
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    if !applies(app) {
        ui.centered_and_justified(|ui| {
            ui.label("Standard friction tests run on the characterisation rig (system: Characterisation rig).")
        });
        return;
    }
    refresh(app, ui.input(|i| i.time));
    // A paused run draws no new frames of its own: come back once the reading may be stale.
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_secs_f64(REFRESH_S));
    let reading = &app.plots.rig_test.reading;
    let avail = ui.available_size();
    let plot_w = (avail.x * 0.66).max(avail.x - 420.0);
    let down = egui::Layout::top_down(egui::Align::Min);
    ui.horizontal(|ui| {
        ui.allocate_ui_with_layout(egui::vec2(plot_w, avail.y), down, |ui| {
            ui.strong(&reading.title);
            plot(ui, reading, reset);
        });
        ui.allocate_ui_with_layout(egui::vec2(avail.x - plot_w - 8.0, avail.y), down, |ui| {
            side(ui, reading);
        });
    });
}

/// Reads the record again when it grew and the last reading is old enough.
fn refresh(app: &mut TriboApp, now_s: f64) {
    let h = &app.history;
    let cache = &app.plots.rig_test;
    let grown = h.len() != cache.len;
    let shrunk = h.len() < cache.len;
    if !(shrunk || (grown && now_s - cache.read_at >= REFRESH_S) || cache.len == 0) {
        return;
    }
    let Some(programme) = app.session.preset.system.characterisation() else {
        return;
    };
    let index = |role| col(app, role);
    let (Some(t), Some(x), Some(v), Some(f)) = (
        index(Role::Time),
        index(Role::Position(0)),
        index(Role::SlipVelocity(0)),
        index(Role::FrictionForce(0)),
    ) else {
        return;
    };
    let applied = index(Role::AppliedForce(0));
    let record = RigRecord {
        time: h.column(t),
        position: h.column(x),
        velocity: h.column(v),
        friction: h.column(f),
        applied: applied.map(|a| h.column(a)),
        normal: index(Role::Position(1)).map(|n| h.column(n)),
    };
    let load = app
        .session
        .preset
        .system
        .nominal_normal_load_n(0)
        .unwrap_or(1.0);
    let laws = app.session.preset.contact_laws();
    let law = app
        .session
        .preset
        .system
        .uses_law()
        .then(|| laws.first().unwrap_or(&app.session.preset.law));
    let reading = read(&programme, law, load, &record);
    let len = h.len();
    let cache = &mut app.plots.rig_test;
    cache.reading = reading;
    cache.len = len;
    cache.read_at = now_s;
}

/// How an axis is drawn: log axes as powers of ten (ticks in SI notation), linear axes in the
/// prefixed unit of their largest value (`µm`), ticks as plain numbers.
struct Scale {
    log: bool,
    factor: f64,
    unit: String,
    title: String,
}

impl Scale {
    fn of(axis: Option<&Axis>, values: impl Iterator<Item = f64>) -> Self {
        let Some(a) = axis else {
            return Self {
                log: false,
                factor: 1.0,
                unit: String::new(),
                title: String::new(),
            };
        };
        if a.log {
            return Self {
                log: true,
                factor: 1.0,
                unit: a.unit.to_string(),
                title: format!("{} [{}] (log scale)", a.label, a.unit),
            };
        }
        let largest = values
            .filter(|v| v.is_finite())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let (factor, unit) = axis_unit(largest, a.unit);
        Self {
            log: false,
            factor,
            title: if unit.is_empty() {
                a.label.clone()
            } else {
                format!("{} [{unit}]", a.label)
            },
            unit,
        }
    }

    /// A value as plotted.
    fn to_plot(&self, value: f64) -> f64 {
        if self.log {
            value.log10()
        } else {
            value * self.factor
        }
    }

    /// The tick label at plotted value `v`.
    fn tick(&self, v: f64) -> String {
        if self.log {
            format_si(10f64.powf(v), &self.unit, 2)
        } else {
            format_si(v, "", 3)
        }
    }
}

/// The corner of the plot whose quarter holds the fewest points: where the legend hides
/// nothing.
fn emptiest_corner(points: &[[f64; 2]]) -> egui_plot::Corner {
    use egui_plot::Corner;
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let share = |p: &[f64; 2], k: usize| (p[k] - lo[k]) / (hi[k] - lo[k]).max(f64::MIN_POSITIVE);
    let count = |right: bool, top: bool| {
        points
            .iter()
            .filter(|p| {
                let (x, y) = (share(p, 0), share(p, 1));
                (if right { x > 0.6 } else { x < 0.4 }) && (if top { y > 0.6 } else { y < 0.4 })
            })
            .count()
    };
    [
        (Corner::RightTop, count(true, true)),
        (Corner::LeftTop, count(false, true)),
        (Corner::RightBottom, count(true, false)),
        (Corner::LeftBottom, count(false, false)),
    ]
    .into_iter()
    .min_by_key(|(_, n)| *n)
    .map_or(Corner::RightTop, |(c, _)| c)
}

fn plot(ui: &mut egui::Ui, reading: &RigReading, reset: bool) {
    let all = || reading.series.iter().flat_map(|s| s.points.iter());
    let xs = Scale::of(reading.x.as_ref(), all().map(|p| p[0]));
    let ys = Scale::of(reading.y.as_ref(), all().map(|p| p[1]));
    let series: Vec<Vec<[f64; 2]>> = reading
        .series
        .iter()
        .map(|s| {
            let stride = (s.points.len() / MAX_POINTS).max(1);
            s.points
                .iter()
                .step_by(stride)
                .map(|q| [xs.to_plot(q[0]), ys.to_plot(q[1])])
                .filter(|q| q[0].is_finite() && q[1].is_finite())
                .collect()
        })
        .collect();
    let everything: Vec<[f64; 2]> = series.iter().flatten().copied().collect();
    let corner = emptiest_corner(&everything);
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("rig_test_plot"))
        .x_axis_label(xs.title.clone())
        .y_axis_label(ys.title.clone())
        .x_axis_formatter(move |mark, _| xs.tick(mark.value))
        .y_axis_formatter(move |mark, _| ys.tick(mark.value))
        .legend(egui_plot::Legend::default().position(corner));
    if reset {
        plot = plot.reset();
    }
    let palette = [
        SLIP_COLOR,
        BELT_COLOR,
        STICK_COLOR,
        egui::Color32::from_rgb(170, 60, 170),
        egui::Color32::from_rgb(220, 200, 60),
        egui::Color32::from_rgb(60, 190, 200),
        egui::Color32::from_rgb(200, 70, 70),
        egui::Color32::from_rgb(150, 150, 150),
    ];
    plot.show(ui, |p| {
        let mut point_series = 0;
        for (k, (s, pts)) in reading.series.iter().zip(series).enumerate() {
            let color = palette[k % palette.len()];
            let cross = s.mark == Mark::Points && point_series % 2 == 1;
            point_series += usize::from(s.mark == Mark::Points);
            match s.mark {
                // Measurements that may coincide (forward and backward) in shapes that
                // stay apart: a filled disc, then a cross over it.
                Mark::Points => p.points(
                    Points::new(s.name.clone(), pts)
                        .shape(if cross {
                            MarkerShape::Cross
                        } else {
                            MarkerShape::Circle
                        })
                        .radius(if cross { 6.0 } else { 4.0 })
                        .filled(true)
                        .color(color),
                ),
                Mark::Line => p.line(Line::new(s.name.clone(), pts).color(color).width(1.4)),
                Mark::Dashed => p.line(
                    Line::new(s.name.clone(), pts)
                        .color(egui::Color32::GRAY)
                        .width(1.4)
                        .style(LineStyle::dashed_loose()),
                ),
            }
        }
    });
}

fn side(ui: &mut egui::Ui, reading: &RigReading) {
    egui::ScrollArea::vertical()
        .id_salt("rig_test_side")
        .show(ui, |ui| {
            if reading.findings.is_empty() {
                ui.label("Nothing complete yet: the first reading appears when the first stretch of the test has run.");
            }
            for f in &reading.findings {
                ui.label(f);
                ui.add_space(4.0);
            }
            if reading.rows.is_empty() {
                return;
            }
            ui.separator();
            egui::ScrollArea::horizontal()
                .id_salt("rig_test_table_scroll")
                .show(ui, |ui| table(ui, reading));
        });
}

fn table(ui: &mut egui::Ui, reading: &RigReading) {
    egui::Grid::new("rig_test_table")
        .striped(true)
        .show(ui, |ui| {
            for (name, _) in &reading.columns {
                ui.strong(name.replace('_', " "));
            }
            ui.end_row();
            for row in &reading.rows {
                for (value, (_, unit)) in row.iter().zip(&reading.columns) {
                    ui.label(format_si(*value, unit, 4));
                }
                ui.end_row();
            }
        });
}
