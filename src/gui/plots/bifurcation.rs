//! Bifurcation tab: choose any numeric system or law parameter, its range, the number of values
//! and the run length; the diagram (section values against the parameter, up and down branches
//! in two colours) fills in while the sweep runs. Clicking a point — or choosing a value from
//! the list — loads that parameter value into the live run.

use eframe::egui;
use egui_plot::{Legend, MarkerShape, Plot, PlotPoint, Points, VLine};

use super::{job_bar, setting_rows};
use crate::analysis::sweep::Branch;
use crate::gui::TriboApp;
use crate::gui::controls::param_slider;
use crate::gui::jobs::JobKind;
use crate::gui::lab::{SweepView, short};
use crate::params::{ParamMeta, Scale};

/// Colour of the up branch.
pub const UP_COLOR: egui::Color32 = egui::Color32::from_rgb(31, 119, 180);
/// Colour of the down branch.
pub const DOWN_COLOR: egui::Color32 = egui::Color32::from_rgb(230, 110, 20);
/// Colour of the linear stability boundary.
const BOUNDARY_COLOR: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);

/// Most points drawn per parameter value and branch (the newest).
const MAX_POINTS_PER_RUN: usize = 300;
/// Fewest points drawn per run when a long sweep shares [`MAX_POINTS`] out.
const MIN_POINTS_PER_RUN: usize = 40;
/// About the most points the diagram draws.
const MAX_POINTS: usize = 40_000;
/// Points of a run closer than this fraction of the y range are drawn once.
const Y_RESOLUTION: f64 = 1.0 / 1500.0;
/// How close a click must be to a point [px].
const PICK_RADIUS: f32 = 12.0;

/// A sweepable parameter: dotted path and its metadata.
#[derive(Clone, Copy)]
pub(super) struct Param {
    path_prefix: &'static str,
    pub(super) meta: &'static ParamMeta,
}

impl Param {
    pub(super) fn path(&self) -> String {
        format!("{}.{}", self.path_prefix, self.meta.key)
    }
}

/// Every numeric parameter of the system and (when the system uses it) the law.
pub(super) fn parameters(app: &TriboApp) -> Vec<Param> {
    let p = &app.session.preset;
    let mut out: Vec<Param> = p
        .system
        .params()
        .meta()
        .iter()
        .map(|meta| Param {
            path_prefix: "system",
            meta,
        })
        .collect();
    if p.system.uses_law() {
        out.extend(p.law.params().meta().iter().map(|meta| Param {
            path_prefix: "law",
            meta,
        }));
    }
    out
}

pub(super) fn current_value(app: &TriboApp, param: &Param) -> f64 {
    let p = &app.session.preset;
    let v = match param.path_prefix {
        "law" => p.law.params().get(param.meta.key),
        _ => p.system.params().get(param.meta.key),
    };
    v.unwrap_or(param.meta.default)
}

/// A range around the current value, inside the parameter's bounds.
pub(super) fn default_range(meta: &ParamMeta, v: f64) -> (f64, f64) {
    if v != 0.0 {
        let (a, b) = (0.5 * v, 1.5 * v);
        (a.min(b).max(meta.min), a.max(b).min(meta.max))
    } else {
        let hi = if meta.max.is_finite() {
            meta.min + 0.1 * (meta.max - meta.min)
        } else {
            meta.min + 1.0
        };
        (meta.min, hi)
    }
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let params = parameters(app);
    let Some(param) = choose_param(app, ui, &params) else {
        ui.label("This system has no numeric parameter to sweep.");
        return;
    };
    settings(app, ui, &param);
    if job_bar::show(app, ui, JobKind::Sweep, "Run sweep", Ok(())) {
        app.start_sweep();
    }
    let Some(view) = app.lab.sweep().cloned() else {
        ui.label(
            "Press “Run sweep”: each value runs from the previous one's end state (up, then \
             down), drops the transient and records its Poincaré points.",
        );
        return;
    };
    let column = choose_column(app, ui, &view);
    status(app, ui, &view);
    diagram(app, ui, &view, column, reset);
}

fn choose_param(app: &mut TriboApp, ui: &mut egui::Ui, params: &[Param]) -> Option<Param> {
    let first = *params.first()?;
    let s = &app.session.view.lab;
    let chosen = params.iter().find(|p| p.path() == s.sweep_param).copied();
    let mut pick = None;
    egui::ComboBox::from_label("Swept parameter")
        .selected_text(chosen.map_or_else(String::new, |p| {
            format!("{} ({})", p.meta.label_with_unit(), p.path())
        }))
        .show_ui(ui, |ui| {
            for p in params {
                let text = format!("{} ({})", p.meta.label_with_unit(), p.path());
                if ui
                    .selectable_label(Some(p.path()) == chosen.map(|c| c.path()), text)
                    .clicked()
                {
                    pick = Some(*p);
                }
            }
        });
    let param = match (pick, chosen) {
        (Some(p), _) => p,
        (None, Some(c)) => return Some(c),
        (None, None) => first,
    };
    // A new parameter: a range around its current value.
    let (from, to) = default_range(param.meta, current_value(app, &param));
    let s = &mut app.session.view.lab;
    s.sweep_param = param.path();
    s.sweep_from = from;
    s.sweep_to = to;
    Some(param)
}

fn settings(app: &mut TriboApp, ui: &mut egui::Ui, param: &Param) {
    let is_map = app.session.preset.system.is_map();
    let s = &mut app.session.view.lab;
    let range = |label: &'static str| ParamMeta {
        label,
        symbol: "",
        ..*param.meta
    };
    let steps = ParamMeta {
        key: "steps",
        label: "Steps",
        symbol: "",
        unit: "values",
        default: 40.0,
        min: 1.0,
        max: 1000.0,
        scale: Scale::Log,
        integer: true,
        restart: false,
        help: "Number of parameter values (each run twice: up and down)",
    };
    let duration = ParamMeta {
        key: "duration",
        label: "Run per value",
        symbol: "",
        unit: if is_map { "iterations" } else { "s" },
        default: 100.0,
        min: 1.0,
        max: 1e5,
        scale: Scale::Log,
        integer: is_map,
        restart: false,
        help: "Model time (iterations for maps) of each run, transient included",
    };
    let transient = ParamMeta {
        key: "transient",
        label: "Transient",
        symbol: "",
        unit: if is_map { "iterations" } else { "returns" },
        default: 50.0,
        min: 0.0,
        max: 10_000.0,
        scale: Scale::Linear,
        integer: true,
        restart: false,
        help: "Section returns (iterations for maps) dropped at the start of each run",
    };
    let (from, to) = (range("From"), range("To"));
    setting_rows(
        ui,
        vec![
            Box::new(|ui| _ = param_slider(ui, &from, &mut s.sweep_from)),
            Box::new(|ui| _ = param_slider(ui, &to, &mut s.sweep_to)),
            Box::new(|ui| _ = param_slider(ui, &steps, &mut s.sweep_steps)),
            Box::new(|ui| _ = param_slider(ui, &duration, &mut s.sweep_duration)),
            Box::new(|ui| _ = param_slider(ui, &transient, &mut s.sweep_transient_returns)),
        ],
    );
}

fn choose_column(app: &mut TriboApp, ui: &mut egui::Ui, view: &SweepView) -> usize {
    let s = &mut app.session.view.lab;
    let mut idx = view
        .columns
        .iter()
        .position(|c| *c == s.sweep_column)
        .unwrap_or(0);
    ui.horizontal(|ui| {
        if !view.columns.is_empty() {
            egui::ComboBox::from_label("Plotted value")
                .selected_text(view.columns[idx].clone())
                .show_ui(ui, |ui| {
                    for (k, c) in view.columns.iter().enumerate() {
                        ui.selectable_value(&mut idx, k, c);
                    }
                });
            s.sweep_column = view.columns[idx].clone();
        }
    });
    idx
}

fn status(app: &mut TriboApp, ui: &mut egui::Ui, view: &SweepView) {
    let mut load = None;
    ui.horizontal_wrapped(|ui| {
        let state = if view.complete {
            "complete"
        } else if view.cancelled {
            "cancelled"
        } else {
            "running"
        };
        ui.label(format!(
            "{}: {} runs, {} points ({state})",
            view.param,
            view.runs.len(),
            view.points()
        ));
        let unsettled = view.runs.iter().filter(|r| r.unsettled).count();
        if unsettled > 0 {
            ui.label(
                egui::RichText::new(format!(
                    "{unsettled} run(s) ended inside their transient: lengthen the run"
                ))
                .color(ui.visuals().warn_fg_color),
            );
        }
        ui.separator();
        egui::ComboBox::from_label("Load a swept value into the live run")
            .selected_text(
                app.lab
                    .picked()
                    .map_or_else(|| "choose…".to_string(), |p| short(p.value)),
            )
            .show_ui(ui, |ui| {
                for v in &view.values {
                    if ui.selectable_label(false, short(*v)).clicked() {
                        load = Some(*v);
                    }
                }
            });
    });
    if let Some(p) = app.lab.picked() {
        ui.label(format!(
            "Loaded {} = {} into the live run{}",
            p.param,
            short(p.value),
            p.y.map_or_else(String::new, |y| format!(" (point at {})", short(y)))
        ));
    }
    if let Some(v) = load {
        let param = view.param.clone();
        app.load_sweep_value(&param, v, None);
    }
}

/// How many of a run's newest points the diagram draws: all up to [`MAX_POINTS_PER_RUN`], fewer
/// when there are many runs, so a long sweep stays at about [`MAX_POINTS`] in all.
fn per_run_cap(view: &SweepView) -> usize {
    (MAX_POINTS / view.runs.len().max(1)).clamp(MIN_POINTS_PER_RUN, MAX_POINTS_PER_RUN)
}

/// Points of one branch, `[value, y]`, and those that are final states. Within a run, points
/// closer than `quantum` in y are drawn once (a periodic orbit repeats the same few values).
fn branch_points(
    view: &SweepView,
    column: usize,
    branch: Branch,
    final_state: bool,
    quantum: f64,
) -> Vec<[f64; 2]> {
    let cap = per_run_cap(view);
    let mut out = Vec::new();
    let mut cells: Vec<i64> = Vec::new();
    for r in view
        .runs
        .iter()
        .filter(|r| r.branch == branch && r.final_state == final_state)
    {
        let skip = r.points.len().saturating_sub(cap);
        cells.clear();
        for p in &r.points[skip..] {
            let Some(&y) = p.row.get(column) else {
                continue;
            };
            if !y.is_finite() {
                continue;
            }
            let cell = (y / quantum).round() as i64;
            if !cells.contains(&cell) {
                cells.push(cell);
                out.push([r.value, y]);
            }
        }
    }
    out
}

/// The range of the plotted column over all runs.
fn y_range(view: &SweepView, column: usize) -> Option<(f64, f64)> {
    let (lo, hi) = view
        .runs
        .iter()
        .flat_map(|r| r.points.iter().filter_map(|p| p.row.get(column)))
        .filter(|y| y.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
            (a.min(*y), b.max(*y))
        });
    (lo <= hi).then_some((lo, hi))
}

fn diagram(app: &mut TriboApp, ui: &mut egui::Ui, view: &SweepView, column: usize, reset: bool) {
    let y_label = view.columns.get(column).cloned().unwrap_or_default();
    let (lo, hi) = view
        .values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("bifurcation_diagram"))
        .x_axis_label(view.param.clone())
        .y_axis_label(format!("{y_label} on the section"))
        .legend(Legend::default());
    if lo.is_finite() && hi.is_finite() {
        plot = plot.include_x(lo).include_x(hi);
    }
    if reset {
        plot = plot.reset();
    }
    let picked = app.lab.picked().map(|p| p.value);
    // Where steady sliding loses its stability in the swept parameter (the linearisation).
    let boundaries: Vec<_> = app
        .session
        .preset
        .spec()
        .stability_boundaries()
        .into_iter()
        .filter(|b| b.path == view.param)
        .collect();
    let series = [
        (Branch::Up, "up branch", UP_COLOR),
        (Branch::Down, "down branch", DOWN_COLOR),
        (Branch::Fixed, "fixed start", UP_COLOR),
    ];
    let quantum = y_range(view, column)
        .map(|(lo, hi)| (hi - lo) * Y_RESOLUTION)
        .filter(|q| *q > 0.0)
        .unwrap_or(1e-12);
    let response = plot.show(ui, |p| {
        for (branch, name, color) in series {
            let pts = branch_points(view, column, branch, false, quantum);
            if !pts.is_empty() {
                p.points(Points::new(name, pts).radius(1.5).filled(true).color(color));
            }
            let finals = branch_points(view, column, branch, true, quantum);
            if !finals.is_empty() {
                p.points(
                    Points::new(format!("{name}: final state (no section return)"), finals)
                        .shape(MarkerShape::Square)
                        .radius(2.5)
                        .color(color),
                );
            }
        }
        if let Some(v) = picked {
            p.vline(VLine::new("loaded into the live run", v).color(egui::Color32::GRAY));
        }
        for b in &boundaries {
            p.vline(
                VLine::new(
                    format!(
                        "{} from the linearisation (steady sliding unstable {})",
                        b.symbol,
                        if b.unstable_below { "below" } else { "above" }
                    ),
                    b.value,
                )
                .color(BOUNDARY_COLOR)
                .style(egui_plot::LineStyle::dashed_loose()),
            );
        }
    });
    let transform = response.transform;
    app.lab.sweep_transform = Some(transform);
    if response.response.clicked()
        && let Some(pos) = response.response.interact_pointer_pos()
        && let Some((value, y)) = nearest(view, column, &transform, pos)
    {
        let param = view.param.clone();
        app.load_sweep_value(&param, value, Some(y));
    }
}

/// The diagram point nearest to a screen position, within [`PICK_RADIUS`].
fn nearest(
    view: &SweepView,
    column: usize,
    transform: &egui_plot::PlotTransform,
    pos: egui::Pos2,
) -> Option<(f64, f64)> {
    let mut best: Option<(f32, f64, f64)> = None;
    let cap = per_run_cap(view);
    for r in &view.runs {
        let skip = r.points.len().saturating_sub(cap);
        for p in &r.points[skip..] {
            let Some(y) = p.row.get(column) else {
                continue;
            };
            let s = transform.position_from_point(&PlotPoint::new(r.value, *y));
            let d = s.distance(pos);
            if d <= PICK_RADIUS && best.is_none_or(|b| d < b.0) {
                best = Some((d, r.value, *y));
            }
        }
    }
    best.map(|(_, v, y)| (v, y))
}
