//! Phase plane x–v with the belt-speed line; stick segments drawn in green over the path. Systems without x and v
//! show their first two output columns.

use eframe::egui;
use egui_plot::{HLine, Line, Plot, Points};

use super::traces::belt_speed;
use super::{BELT_COLOR, STICK_COLOR, col, plane_columns, trail_name, trail_range};
use crate::gui::TriboApp;

/// Most points drawn for the trajectory (longer windows are strided): a screen of a few hundred
/// pixels cannot show more, and every point costs tessellation.
const MAX_POINTS: usize = 1_500;
/// Most stick segments drawn (a law without exact stick can flicker around its threshold).
const MAX_STICK_SEGMENTS: usize = 400;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let Some(((ix, x_label), (iv, v_label))) = plane_columns(app) else {
        return;
    };
    let is = col(app, "stick");
    let range = trail_range(app);
    let stride = (range.len() / MAX_POINTS).max(1);
    let h = &app.history;
    let (x, v) = (h.column(ix), h.column(iv));
    let stuck = |i: usize| is.is_some_and(|is| h.column(is)[i] > 0.5);
    let path: Vec<[f64; 2]> = range
        .clone()
        .step_by(stride)
        .map(|i| [x[i], v[i]])
        .collect();
    // Stick segments of the drawn path, as thick green lines over it (one legend entry).
    let mut stick: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut run: Vec<[f64; 2]> = Vec::new();
    for i in range.clone().step_by(stride) {
        if stuck(i) {
            run.push([x[i], v[i]]);
        } else if !run.is_empty() {
            if run.len() > 1 && stick.len() < MAX_STICK_SEGMENTS {
                stick.push(std::mem::take(&mut run));
            }
            run.clear();
        }
    }
    if run.len() > 1 && stick.len() < MAX_STICK_SEGMENTS {
        stick.push(run);
    }
    let last = range.end.checked_sub(1).map(|i| [x[i], v[i]]);
    let mut plot = Plot::new("phase_plane")
        .x_axis_label(x_label)
        .y_axis_label(v_label)
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    let vb = belt_speed(app);
    let path_label = trail_name(app, "trajectory");
    plot.show(ui, |p| {
        if let Some(vb) = vb {
            p.hline(HLine::new("belt speed v_b", vb).color(BELT_COLOR));
        }
        p.line(Line::new(path_label, path).width(1.2));
        for segment in stick {
            p.line(Line::new("stick", segment).color(STICK_COLOR).width(3.0));
        }
        if let Some(pt) = last {
            p.points(Points::new("now", vec![pt]).radius(5.0).filled(true));
        }
    });
}
