//! Time traces of x, v (with the belt speed) and the friction force on a linked time axis.

use eframe::egui;
use egui_plot::{HLine, Line, Plot};

use super::{BELT_COLOR, col, window_range};
use crate::gui::TriboApp;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let range = window_range(app);
    let h = app.history.len();
    if range.is_empty() || h == 0 {
        return;
    }
    let t_end = app.history.last(0).unwrap_or(0.0);
    let t_first = app.history.column(0).first().copied().unwrap_or(0.0);
    let window = app.session.view.window_s;
    let width = ui.available_width().max(100.0) as usize;
    let each = ((ui.available_height() - 12.0) / 3.0).max(60.0);
    let link = egui::Id::unique("tribolab_time_axis");
    let belt_speed = belt_speed(app);
    let bench = [
        ("x", "x [m]"),
        ("v", "v [m/s]"),
        ("friction_force", "F_f [N]"),
    ];
    // Other systems: their first three output columns, unitless.
    let signals: Vec<(String, String)> = if col(app, "friction_force").is_some() {
        bench
            .iter()
            .map(|(n, l)| (n.to_string(), l.to_string()))
            .collect()
    } else {
        let names = app.history.names();
        names[1..names.len().saturating_sub(1)]
            .iter()
            .take(3)
            .map(|n| (n.clone(), n.clone()))
            .collect()
    };
    let last_signal = signals.last().map(|(n, _)| n.clone()).unwrap_or_default();
    // A decimated trace (several samples per pixel) is a band of near-vertical strokes; thin
    // strokes keep it legible and halve what a software rasteriser fills.
    let line_width = if range.len() > 2 * width { 1.0 } else { 1.5 };
    let mut interacted = false;
    for (name, label) in &signals {
        let (name, label) = (name.as_str(), label.as_str());
        let Some(ic) = col(app, name) else { continue };
        let pts = app.history.decimated(0, ic, range.clone(), width);
        let mut plot = Plot::new(("trace", name))
            .height(each)
            .link_axis(link, [true, false])
            .link_cursor(link, [true, false])
            .y_axis_label(label)
            .x_axis_label(if name == last_signal { "t [s]" } else { "" })
            .y_axis_min_width(48.0)
            // Labels at 1-2-5 steps rather than decades: a 10 s window shows more than "10".
            .x_grid_spacer(egui_plot::log_grid_spacer(5));
        if reset {
            plot = plot.reset();
        }
        let follow = app.plots.follow;
        let resp = plot.show(ui, |p| {
            p.line(Line::new(label, pts).width(line_width));
            if let (Some(vb), "v") = (belt_speed, name) {
                p.hline(HLine::new("belt speed v_b", vb).color(BELT_COLOR));
            }
            if follow {
                let start = (t_end - window).max(t_first);
                p.set_plot_bounds_x(start..=(start + window).max(t_end));
                p.set_auto_bounds([false, true]);
            }
        });
        let r = &resp.response;
        interacted |=
            r.dragged() || (r.hovered() && ui.input(|i| i.smooth_scroll_delta != egui::Vec2::ZERO));
    }
    if interacted {
        app.plots.follow = false;
    }
}

/// Belt speed of the current preset [m/s] (`None` for systems without a belt).
pub fn belt_speed(app: &TriboApp) -> Option<f64> {
    match &app.session.preset.system {
        crate::systems::SystemConfig::BeltBlock(b) => Some(b.belt_speed_mps()),
        _ => None,
    }
}
