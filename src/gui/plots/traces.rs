//! Time traces on a linked time axis, chosen by role: positions, velocities (with the driver
//! speed) and friction forces of the chosen degree of freedom — or of every one, overlaid, when
//! the system has a few —, or one contact's normal force, slip, spin and friction; and the first
//! three state components of a system without mechanics.

use eframe::egui;
use egui_plot::{HLine, Line, Plot};

use super::roles::{col, dof_name, driver_speed, n_dofs};
use super::{BELT_COLOR, MAX_OVERLAID_DOFS, window_range};
use crate::gui::TriboApp;
use crate::integrate::Role;

/// One plot of the stack: its curves (history column, legend) and its axis label.
struct TracePlot {
    id: &'static str,
    curves: Vec<(usize, String)>,
    label: String,
    /// Mark the driver speed (velocity plots).
    driver_line: bool,
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let range = window_range(app);
    if range.is_empty() || app.history.is_empty() {
        return;
    }
    dof_row(app, ui);
    let plots = trace_plots(app);
    if plots.is_empty() {
        ui.label("This run has no columns to trace.");
        return;
    }
    let t_end = super::view_end_s(app);
    let t_first = app.history.column(0).first().copied().unwrap_or(0.0);
    let window = app.session.view.window_s;
    let width = ui.available_width().max(100.0) as usize;
    let each = ((ui.available_height() - 12.0) / plots.len() as f32).max(60.0);
    let link = egui::Id::unique("tribolab_time_axis");
    let vb = driver_speed(app);
    // A decimated trace (several samples per pixel) is a band of near-vertical strokes; thin
    // strokes keep it legible and halve what a software rasteriser fills. Without smoothing
    // fringes a 1-point stroke can miss a pixel column (dark seams in the band): 1.5 then.
    let smooth = ui.ctx().tessellation_options(|o| o.feathering);
    let line_width = if range.len() > 2 * width && smooth {
        1.0
    } else {
        1.5
    };
    let last = plots.len() - 1;
    let time_label = app.run.time_label();
    let mut interacted = false;
    for (k, tp) in plots.iter().enumerate() {
        let mut plot = crate::gui::plots::ticks::readable(Plot::new(("trace", tp.id)))
            .height(each)
            .link_axis(link, [true, false])
            .link_cursor(link, [true, false])
            .y_axis_label(tp.label.clone())
            .x_axis_label(if k == last {
                time_label.clone()
            } else {
                String::new()
            })
            .y_axis_min_width(48.0)
            // Labels at 1-2-5 steps rather than decades: a 10 s window shows more than "10".
            .x_grid_spacer(egui_plot::log_grid_spacer(5));
        if tp.curves.len() > 1 {
            plot = plot.legend(egui_plot::Legend::default());
        }
        if reset {
            plot = plot.reset();
        }
        // Follow the run, or hold the window on the event picked in the slip-event list.
        let follow =
            app.plots.follow || app.catalogue.as_ref().is_some_and(|c| c.selected.is_some());
        let lines: Vec<(String, Vec<[f64; 2]>)> = tp
            .curves
            .iter()
            .map(|(ic, name)| {
                (
                    name.clone(),
                    app.history.decimated(0, *ic, range.clone(), width),
                )
            })
            .collect();
        let resp = plot.show(ui, |p| {
            for (name, pts) in lines {
                p.line(Line::new(name, pts).width(line_width));
            }
            if let (Some(vb), true) = (vb, tp.driver_line) {
                p.hline(HLine::new("driver speed", vb).color(BELT_COLOR));
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

/// Most contacts offered in the traces' chooser (the chains have thousands).
const MAX_LISTED_CONTACTS: usize = 8;

/// The chooser of systems with more than one degree of freedom: one of them, all of them, or
/// one contact (its normal force, slip, spin and friction).
fn dof_row(app: &mut TriboApp, ui: &mut egui::Ui) {
    let n = n_dofs(app);
    if n < 2 {
        return;
    }
    let all = "all";
    let contacts: Vec<String> = app
        .run
        .layout
        .contacts
        .iter()
        .map(|c| c.name.clone())
        .collect();
    let listed = if contacts.len() <= MAX_LISTED_CONTACTS {
        contacts.len()
    } else {
        0
    };
    let current = app.session.view.trace_dof.filter(|&d| d < n);
    let contact = app.session.view.trace_contact.filter(|&c| c < listed);
    let names: Vec<String> = (0..n).map(|d| dof_name(app, d)).collect();
    let text = match (contact, current) {
        (Some(c), _) => contacts[c].clone(),
        (None, Some(d)) => names[d].clone(),
        (None, None) => all.to_string(),
    };
    egui::ComboBox::from_label("Traces of")
        .selected_text(text)
        .show_ui(ui, |ui| {
            let view = &mut app.session.view;
            if n <= MAX_OVERLAID_DOFS
                && ui
                    .selectable_label(contact.is_none() && current.is_none(), all)
                    .clicked()
            {
                (view.trace_dof, view.trace_contact) = (None, None);
            }
            for (d, name) in names.iter().enumerate() {
                if ui
                    .selectable_label(contact.is_none() && current == Some(d), name)
                    .clicked()
                {
                    (view.trace_dof, view.trace_contact) = (Some(d), None);
                }
            }
            for (c, name) in contacts.iter().take(listed).enumerate() {
                if ui.selectable_label(contact == Some(c), name).clicked() {
                    view.trace_contact = Some(c);
                }
            }
        });
}

/// Positions, velocities and friction forces of the chosen degrees of freedom; for systems
/// without mechanics, their first three state components.
fn trace_plots(app: &TriboApp) -> Vec<TracePlot> {
    let n = n_dofs(app);
    if n == 0 {
        return (0..3)
            .filter_map(|k| {
                let ic = col(app, Role::State(k))?;
                Some(TracePlot {
                    id: ["s0", "s1", "s2"][k],
                    curves: vec![(ic, app.run.columns[ic].symbol.clone())],
                    label: app.run.label(ic),
                    driver_line: false,
                })
            })
            .collect();
    }
    if let Some(c) = app
        .session
        .view
        .trace_contact
        .filter(|&c| n >= 2 && c < app.run.layout.contacts.len().min(MAX_LISTED_CONTACTS))
    {
        return contact_plots(app, c);
    }
    let chosen: Vec<usize> = match app.session.view.trace_dof.filter(|&d| d < n) {
        Some(d) => vec![d],
        None if n <= MAX_OVERLAID_DOFS => (0..n).collect(),
        None => vec![0],
    };
    let contacts_of = |d: usize| -> Vec<usize> {
        (0..app.run.layout.contacts.len())
            .filter(|&c| app.run.layout.contacts[c].dof == d)
            .collect()
    };
    let curves = |roles: Vec<Role>| -> Vec<(usize, String)> {
        roles
            .into_iter()
            .filter_map(|r| col(app, r))
            .map(|ic| (ic, app.run.columns[ic].symbol.clone()))
            .collect()
    };
    // One curve: its own label (`x [m]`); several: the symbol without its index (`x [m]` for
    // x₁ and x₂), short enough for the narrow plots of the overview.
    let unit_label = |curves: &[(usize, String)]| -> String {
        let Some((ic, _)) = curves.first() else {
            return String::new();
        };
        let column = &app.run.columns[*ic];
        if curves.len() == 1 {
            return column.label();
        }
        let symbol: String = column
            .symbol
            .trim_end_matches(|c: char| ('₀'..='₉').contains(&c) || c == ',')
            .to_string();
        if column.unit.is_empty() {
            symbol
        } else {
            format!("{symbol} [{}]", column.unit)
        }
    };
    let positions = curves(chosen.iter().map(|&d| Role::Position(d)).collect());
    let velocities = curves(chosen.iter().map(|&d| Role::Velocity(d)).collect());
    let forces = curves(
        chosen
            .iter()
            .flat_map(|&d| contacts_of(d))
            .map(Role::FrictionForce)
            .collect(),
    );
    [
        ("position", positions, false),
        ("velocity", velocities, true),
        ("friction", forces, false),
    ]
    .into_iter()
    .filter(|(_, c, _)| !c.is_empty())
    .map(|(id, curves, driver_line)| TracePlot {
        id,
        label: unit_label(&curves),
        curves,
        driver_line,
    })
    .collect()
}

/// The traces of one contact: normal force, slip velocity, spin and friction force, each where
/// the system reports it.
fn contact_plots(app: &TriboApp, c: usize) -> Vec<TracePlot> {
    [
        ("contact normal", Role::NormalLoad(c)),
        ("contact slip", Role::SlipVelocity(c)),
        ("contact spin", Role::Spin(c)),
        ("contact friction", Role::FrictionForce(c)),
    ]
    .into_iter()
    .filter_map(|(id, role)| {
        let ic = col(app, role)?;
        Some(TracePlot {
            id,
            curves: vec![(ic, app.run.columns[ic].symbol.clone())],
            label: app.run.label(ic),
            driver_line: false,
        })
    })
    .collect()
}
