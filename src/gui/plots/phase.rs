//! Phase plane of a chosen degree of freedom (position–velocity, with the driver-speed line),
//! or the positions of two degrees of freedom, or two state components of a system without
//! mechanics; stick segments of the degree of freedom's contacts drawn in green over the path.

use eframe::egui;
use egui_plot::{HLine, Line, Plot, Points};

use super::roles::{PlaneChoice, col, driver_speed, plane_axes};
use super::{BELT_COLOR, STICK_COLOR, trail_name, trail_range};
use crate::gui::TriboApp;
use crate::integrate::Role;

/// Most points drawn for the trajectory (longer windows are strided): a screen of a few hundred
/// pixels cannot show more, and every point costs tessellation.
const MAX_POINTS: usize = 1_500;
/// Most stick segments drawn (a law without exact stick can flicker around its threshold).
const MAX_STICK_SEGMENTS: usize = 400;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let Some(choice) = super::plane_row(app, ui, "Phase plane") else {
        ui.label("This run has no two columns to draw against each other.");
        return;
    };
    let Some((ix, iv)) = plane_axes(app, choice) else {
        return;
    };
    let (x_label, v_label) = (app.run.label(ix), app.run.label(iv));
    // Stick of the contacts of the degree(s) of freedom shown.
    let dofs: Vec<usize> = match choice {
        PlaneChoice::Phase(d) => vec![d],
        PlaneChoice::Positions(a, b) => vec![a, b],
        PlaneChoice::States(..) => Vec::new(),
    };
    let stick_cols: Vec<usize> = app
        .run
        .layout
        .contacts
        .iter()
        .enumerate()
        .filter(|(_, c)| dofs.contains(&c.dof))
        .filter_map(|(k, _)| col(app, Role::Stick(k)))
        .collect();
    let range = trail_range(app);
    let stride = (range.len() / MAX_POINTS).max(1);
    let h = &app.history;
    let (x, v) = (h.column(ix), h.column(iv));
    let stuck =
        |i: usize| !stick_cols.is_empty() && stick_cols.iter().all(|&is| h.column(is)[i] > 0.5);
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
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("phase_plane"))
        .x_axis_label(x_label)
        .y_axis_label(v_label)
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    let vb = driver_speed(app).filter(|_| matches!(choice, PlaneChoice::Phase(_)));
    let path_label = trail_name(app, "trajectory");
    plot.show(ui, |p| {
        if let Some(vb) = vb {
            p.hline(HLine::new("driver speed", vb).color(BELT_COLOR));
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
