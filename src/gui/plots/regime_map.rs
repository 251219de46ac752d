//! Regime map tab: choose two numeric parameters, their ranges, the grid and the run length;
//! the map fills cell by cell while it runs, coloured by the steady state each cell settles
//! into (steady, periodic with its points per period, quasi-periodic, chaotic), with the
//! system's linear stability boundary of steady sliding drawn on top. Hovering a cell reads
//! it out; clicking it loads its two values into the live run.

use eframe::egui::{self, Color32, ColorImage, TextureOptions};
use egui_plot::{Line, Plot, PlotImage, PlotPoint};

use super::bifurcation::{Param, current_value, default_range, parameters};
use super::{job_bar, setting_rows};
use crate::analysis::regime_map::{MapCell, Regime, figure};
use crate::gui::TriboApp;
use crate::gui::controls::param_slider;
use crate::gui::jobs::JobKind;
use crate::gui::lab::MapView;
use crate::params::{ParamMeta, Scale};
use crate::util::eng::format_si;

/// Colour of a cell (the figure's palette, [`figure::cell_rgb`]).
fn cell_color(c: &MapCell) -> Color32 {
    let [r, g, b] = figure::cell_rgb(c);
    Color32::from_rgb(r, g, b)
}

/// The map's texture and what it shows: (cells received, cells in all, background).
#[derive(Default)]
pub struct MapImageCache {
    texture: Option<egui::TextureHandle>,
    key: Option<(usize, usize, usize, Color32)>,
}

/// Colour of the stability boundary.
const BOUNDARY_COLOR: Color32 = Color32::from_rgb(255, 255, 255);

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    if app.session.preset.system.is_map() {
        ui.label("Regime maps run flows; for a map, use the Bifurcation tab.");
        return;
    }
    let params = parameters(app);
    if params.len() < 2 {
        ui.label("This system has fewer than two numeric parameters to map.");
        return;
    }
    let (x, y) = choose_params(app, ui, &params);
    settings(app, ui, &x, &y);
    forced_hint(app, ui);
    let same = x.path() == y.path();
    let ready = if same {
        Err("choose two different parameters")
    } else {
        Ok(())
    };
    if job_bar::show(app, ui, JobKind::RegimeMap, "Run map", ready) {
        app.start_regime_map();
    }
    let Some(view) = app.lab.regime_map().cloned() else {
        ui.label(
            "Press “Run map”: every cell runs from the preset's start, drops the transient and \
             is named by its Poincaré returns — steady (no return), periodic (K points), \
             quasi-periodic (a closed curve) or chaotic (scattered).",
        );
        return;
    };
    ui.horizontal_wrapped(|ui| {
        summary(ui, &view);
        save_buttons(app, ui, &view);
    });
    legend(ui);
    map(app, ui, &view, reset);
}

/// *Save table (CSV)…* (the bytes `tribolab map` writes; once the map is complete) and *Save
/// figure (SVG)…* (for a handout; any time).
fn save_buttons(app: &mut TriboApp, ui: &mut egui::Ui, view: &MapView) {
    let ctx = ui.ctx().clone();
    if ui
        .add_enabled(view.complete, egui::Button::new("Save table (CSV)…"))
        .on_hover_text("One row per cell, as `tribolab map` writes it")
        .on_disabled_hover_text("The table is saved once every cell has run")
        .clicked()
    {
        app.save_map_csv_dialog(&ctx);
    }
    if ui
        .add_enabled(view.done() > 0, egui::Button::new("Save figure (SVG)…"))
        .on_hover_text(
            "The map on a white background with axes, legend and stability boundary, for a \
             handout or a paper",
        )
        .clicked()
    {
        app.save_map_figure_dialog(&ctx);
    }
}

/// The two parameter choosers; a newly chosen parameter gets a range around its value.
fn choose_params(app: &mut TriboApp, ui: &mut egui::Ui, params: &[Param]) -> (Param, Param) {
    let pick = |ui: &mut egui::Ui, label: &str, current: &str, fallback: Param| {
        let chosen = params.iter().find(|p| p.path() == current).copied();
        let mut picked = None;
        egui::ComboBox::from_label(label)
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
                        picked = Some(*p);
                    }
                }
            });
        match (picked, chosen) {
            (Some(p), _) => (p, true),
            (None, Some(c)) => (c, false),
            (None, None) => (fallback, true),
        }
    };
    let (x_now, y_now) = (
        app.session.view.lab.map_x_param.clone(),
        app.session.view.lab.map_y_param.clone(),
    );
    let ((x, x_new), (y, y_new)) = ui
        .horizontal(|ui| {
            (
                pick(ui, "x", &x_now, params[0]),
                pick(ui, "y", &y_now, params[1]),
            )
        })
        .inner;
    if x_new {
        let range = default_range(x.meta, current_value(app, &x));
        let s = &mut app.session.view.lab;
        s.map_x_param = x.path();
        s.map_x_range = range;
    }
    if y_new {
        let range = default_range(y.meta, current_value(app, &y));
        let s = &mut app.session.view.lab;
        s.map_y_param = y.path();
        s.map_y_range = range;
    }
    (x, y)
}

fn settings(app: &mut TriboApp, ui: &mut egui::Ui, x: &Param, y: &Param) {
    let s = &mut app.session.view.lab;
    let range = |p: &Param, label: &'static str| ParamMeta {
        label,
        symbol: "",
        ..*p.meta
    };
    let (x_from, x_to, y_from, y_to) = (
        range(x, "x from"),
        range(x, "x to"),
        range(y, "y from"),
        range(y, "y to"),
    );
    let steps = ParamMeta {
        key: "steps",
        label: "Grid",
        symbol: "",
        unit: "per axis",
        default: 20.0,
        min: 2.0,
        max: 200.0,
        scale: Scale::Log,
        integer: true,
        restart: false,
        help: "Values along each axis (the map has this many squared cells)",
    };
    let duration = ParamMeta {
        key: "duration",
        label: "Run per cell",
        symbol: "",
        unit: "s",
        default: 60.0,
        min: 0.1,
        max: 1e5,
        scale: Scale::Log,
        integer: false,
        restart: false,
        help: "Model time of each cell's run, transient included",
    };
    let transient = ParamMeta {
        key: "transient",
        label: "Transient",
        symbol: "",
        unit: "of the run",
        default: 0.5,
        min: 0.0,
        max: 0.95,
        scale: Scale::Linear,
        integer: false,
        restart: false,
        help: "Part of each run dropped before the steady state is read",
    };
    setting_rows(
        ui,
        vec![
            Box::new(|ui| _ = param_slider(ui, &x_from, &mut s.map_x_range.0)),
            Box::new(|ui| _ = param_slider(ui, &x_to, &mut s.map_x_range.1)),
            Box::new(|ui| _ = param_slider(ui, &y_from, &mut s.map_y_range.0)),
            Box::new(|ui| _ = param_slider(ui, &y_to, &mut s.map_y_range.1)),
            Box::new(|ui| _ = param_slider(ui, &steps, &mut s.map_steps)),
            Box::new(|ui| _ = param_slider(ui, &duration, &mut s.map_duration_s)),
            Box::new(|ui| _ = param_slider(ui, &transient, &mut s.map_transient_fraction)),
        ],
    );
    ui.checkbox(&mut s.map_lyapunov, "Largest Lyapunov exponent per cell")
        .on_hover_text(
            "Also integrate the tangent equations of each cell (about twice the time): λ₁ \
             decides between quasi-periodic (λ₁ ≈ 0) and chaotic (λ₁ > 0) and shows in the \
             hover readout",
        );
}

/// Section returns a forced cell needs after its transient for a verdict on a curve or a
/// scatter (the classification reads at least 40).
const FORCED_RETURNS: f64 = 50.0;

/// A forced system returns to its stroboscopic section once per forcing period: a run shorter
/// than the transient plus 40 periods cannot be named. Offers the length that can.
fn forced_hint(app: &mut TriboApp, ui: &mut egui::Ui) {
    let Some(period) = app
        .session
        .preset
        .system
        .forcing_period_s()
        .filter(|t| t.is_finite() && *t > 0.0)
    else {
        return;
    };
    let s = &mut app.session.view.lab;
    let kept = 1.0 - s.map_transient_fraction;
    let needed = FORCED_RETURNS * period / kept.max(0.05);
    if s.map_duration_s >= needed {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(
            egui::RichText::new(format!(
                "The system is forced with period {}: each cell needs about {} after its \
                 transient for 50 section returns.",
                format_si(period, "s", 3),
                format_si(FORCED_RETURNS * period, "s", 3)
            ))
            .color(ui.visuals().warn_fg_color),
        );
        if ui
            .button(format!("Run {} per cell", format_si(needed, "s", 3)))
            .clicked()
        {
            s.map_duration_s = needed;
        }
    });
}

fn summary(ui: &mut egui::Ui, view: &MapView) {
    let cells: Vec<&MapCell> = view.cells.iter().flatten().collect();
    let count = |f: fn(&Regime) -> bool| cells.iter().filter(|c| f(&c.regime)).count();
    let state = if view.complete {
        "complete"
    } else if view.cancelled {
        "cancelled"
    } else {
        "running"
    };
    ui.label(format!(
        "{} × {} cells, {} done ({state}): {} steady, {} periodic, {} quasi-periodic, {} \
         chaotic, {} unsettled, {} failed",
        view.spec.x.values.len(),
        view.spec.y.values.len(),
        cells.len(),
        count(|r| *r == Regime::Steady),
        count(|r| matches!(r, Regime::Periodic(_))),
        count(|r| *r == Regime::QuasiPeriodic),
        count(|r| *r == Regime::Chaotic),
        count(|r| *r == Regime::Unsettled),
        count(|r| *r == Regime::Failed),
    ));
}

fn legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for ([r, g, b], name) in figure::legend() {
            let c = Color32::from_rgb(r, g, b);
            ui.label(egui::RichText::new("■").color(c));
            ui.label(name);
            ui.add_space(6.0);
        }
    });
}

/// The map's image: one pixel per cell, row 0 at the top (the largest y).
fn image(view: &MapView, background: Color32) -> ColorImage {
    let (nx, ny) = (view.spec.x.values.len(), view.spec.y.values.len());
    let mut pixels = vec![background; nx * ny];
    for c in view.cells.iter().flatten() {
        pixels[(ny - 1 - c.iy) * nx + c.ix] = cell_color(c);
    }
    ColorImage::new([nx, ny], pixels)
}

/// Cell width along an axis (the spacing of its values; the whole range for one value).
fn spacing(values: &[f64]) -> f64 {
    match values {
        [a, b, ..] => (b - a).abs(),
        [a] => a.abs().max(1.0) * 0.1,
        [] => 1.0,
    }
}

fn map(app: &mut TriboApp, ui: &mut egui::Ui, view: &MapView, reset: bool) {
    let (xs, ys) = (&view.spec.x.values, &view.spec.y.values);
    let (dx, dy) = (spacing(xs), spacing(ys));
    let lo = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (x0, x1) = (lo(xs) - 0.5 * dx, hi(xs) + 0.5 * dx);
    let (y0, y1) = (lo(ys) - 0.5 * dy, hi(ys) + 0.5 * dy);
    let background = ui.visuals().extreme_bg_color;
    let key = (
        view.done(),
        view.cells.len(),
        view.spec.x.values.len(),
        background,
    );
    let cache = &mut app.plots.regime_map;
    if cache.key != Some(key) || cache.texture.is_none() {
        let img = image(view, background);
        match cache.texture.as_mut() {
            Some(t) => t.set(img, TextureOptions::NEAREST),
            None => {
                cache.texture = Some(ui.ctx().load_texture(
                    "regime_map",
                    img,
                    TextureOptions::NEAREST,
                ));
            }
        }
        cache.key = Some(key);
    }
    let Some(texture_id) = cache.texture.as_ref().map(egui::TextureHandle::id) else {
        return;
    };
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("regime_map"))
        .x_axis_label(figure::axis_label(&view.preset, &view.spec.x.param))
        .y_axis_label(figure::axis_label(&view.preset, &view.spec.y.param))
        .include_x(x0)
        .include_x(x1)
        .include_y(y0)
        .include_y(y1)
        .allow_scroll(false);
    if reset {
        plot = plot.reset();
    }
    let response = plot.show(ui, |p| {
        p.image(PlotImage::new(
            "regimes",
            texture_id,
            PlotPoint::new(0.5 * (x0 + x1), 0.5 * (y0 + y1)),
            egui::vec2((x1 - x0) as f32, (y1 - y0) as f32),
        ));
        if view.boundary.len() >= 2 {
            p.line(
                Line::new(
                    format!(
                        "{} from the linearisation (steady sliding unstable below)",
                        view.boundary_symbol
                    ),
                    view.boundary.clone(),
                )
                .color(BOUNDARY_COLOR)
                .width(2.0)
                .style(egui_plot::LineStyle::dashed_loose()),
            );
        }
        p.pointer_coordinate()
    });
    app.lab.map_transform = Some(response.transform);
    let hovered = response.inner.and_then(|pt| cell_at(view, pt.x, pt.y));
    match hovered {
        Some(c) => {
            ui.label(describe(view, c));
        }
        None => {
            ui.label("Hover a cell to read it; click it to load its two values into the live run.");
        }
    }
    if response.response.clicked()
        && let Some(c) = hovered
    {
        let (xp, yp) = (view.spec.x.param.clone(), view.spec.y.param.clone());
        app.load_map_cell(&xp, c.x, &yp, c.y);
    }
}

/// The finished cell under plot coordinates `(x, y)`.
fn cell_at(view: &MapView, x: f64, y: f64) -> Option<&MapCell> {
    let nearest = |values: &[f64], v: f64, d: f64| -> Option<usize> {
        let (i, best) = values
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - v).abs().total_cmp(&(b.1 - v).abs()))?;
        ((best - v).abs() <= 0.5 * d).then_some(i)
    };
    let ix = nearest(&view.spec.x.values, x, spacing(&view.spec.x.values))?;
    let iy = nearest(&view.spec.y.values, y, spacing(&view.spec.y.values))?;
    view.cells.get(iy * view.spec.x.values.len() + ix)?.as_ref()
}

/// One line on a cell.
fn describe(view: &MapView, c: &MapCell) -> String {
    if c.regime == Regime::Failed {
        return format!(
            "{}, {}: run failed — {}",
            figure::axis_value(&view.preset, &view.spec.x.param, c.x),
            figure::axis_value(&view.preset, &view.spec.y.param, c.y),
            c.message
        );
    }
    let mut parts = vec![c.regime.describe()];
    if c.stick_fraction.is_finite() {
        parts.push(format!("stick {:.0} %", 100.0 * c.stick_fraction));
    }
    if c.amplitude.is_finite() {
        parts.push(format!(
            "amplitude {}",
            format_si(c.amplitude, &view.amplitude_unit, 3)
        ));
    }
    if c.frequency_hz.is_finite() {
        parts.push(format!("f = {}", format_si(c.frequency_hz, "Hz", 3)));
    }
    parts.push(format!("{} slip events", c.slip_events));
    if c.lambda1_per_s.is_finite() {
        parts.push(format!("λ₁ = {}", format_si(c.lambda1_per_s, "/s", 3)));
    }
    format!(
        "{}, {}: {}",
        figure::axis_value(&view.preset, &view.spec.x.param, c.x),
        figure::axis_value(&view.preset, &view.spec.y.param, c.y),
        parts.join(", ")
    )
}
