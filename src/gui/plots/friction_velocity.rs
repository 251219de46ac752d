//! Friction force against slip velocity of a chosen contact: its law's steady characteristic,
//! the live operating point and its trail (hysteresis loops of state laws show here). Where the
//! run reports a driver position (a tip pulled over a lattice), the friction loop instead:
//! the lateral force against the support's position, the figure of atomic-friction
//! microscopy (its enclosed area is the energy friction dissipates).

use eframe::egui;
use egui_plot::{Line, Plot, Points};

use super::roles::{col, contact_name, current_contact, driver_speed, n_contacts};
use super::{SLIP_COLOR, trail_name, trail_range};
use crate::gui::TriboApp;
use crate::integrate::Role;
use crate::laws::FrictionLaw;

/// Most points of the trail (longer windows are strided).
const MAX_POINTS: usize = 1_500;
const CURVE_POINTS: usize = 401;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let Some(contact) = current_contact(app) else {
        ui.label("This system has no frictional contact: there is no friction–velocity plot.");
        return;
    };
    let loop_axes = (
        col(app, Role::DriverPosition),
        col(app, Role::SpringForce(0)),
    );
    if let (Some(ix), Some(iy)) = loop_axes {
        ui.horizontal(|ui| {
            ui.label("Draw");
            ui.radio_value(
                &mut app.session.view.friction_loop,
                true,
                "friction loop (lateral force against support position)",
            );
            ui.radio_value(
                &mut app.session.view.friction_loop,
                false,
                "friction against slip velocity",
            );
        });
        if app.session.view.friction_loop {
            friction_loop(app, ui, reset, ix, iy);
            return;
        }
    }
    contact_row(app, ui);
    let spin_axes = (
        col(app, Role::SpinSlideRatio(contact)),
        col(app, Role::FrictionForce(contact)),
        col(app, Role::NormalLoad(contact)),
    );
    if let (Some(ir), Some(ifr), Some(inl)) = spin_axes {
        ui.horizontal(|ui| {
            ui.label("Draw");
            ui.radio_value(
                &mut app.session.view.friction_against_spin,
                true,
                "friction coefficient against the spin/slide ratio",
            );
            ui.radio_value(
                &mut app.session.view.friction_against_spin,
                false,
                "friction against slip velocity",
            );
        });
        if app.session.view.friction_against_spin {
            spin_ratio(app, ui, reset, [ir, ifr, inl]);
            return;
        }
    }
    let (Some(iv), Some(ifr)) = (
        col(app, Role::SlipVelocity(contact)),
        col(app, Role::FrictionForce(contact)),
    ) else {
        ui.label("This run reports no slip velocity and friction force for the contact.");
        return;
    };
    let range = trail_range(app);
    let stride = (range.len() / MAX_POINTS).max(1);
    let h = &app.history;
    let (v, f) = (h.column(iv), h.column(ifr));
    let trail: Vec<[f64; 2]> = range
        .clone()
        .step_by(stride)
        .map(|i| [v[i], f[i]])
        .collect();
    // Range of the characteristic: the trail's extent (strided, so a frame does not scan the
    // whole window), at least twice the driver speed.
    let v_span = trail
        .iter()
        .map(|p| p[0].abs())
        .fold(0.0f64, f64::max)
        .max(2.0 * driver_speed(app).unwrap_or(0.0).abs())
        .max(1e-3);
    // The characteristic of the contact's law, where the preset's law is the contact's (not
    // for a system with its friction built in, like the Carlson–Langer chain).
    let inl = col(app, Role::NormalLoad(contact));
    let curve: Vec<[f64; 2]> = match inl {
        Some(inl) if app.session.preset.system.uses_law() => {
            let normal = h.last(inl).unwrap_or(1.0);
            // The law at the load of the moment (belt joint, load noise): its ratio to the
            // nominal load scales the laws written with forces.
            let ratio = app
                .session
                .preset
                .system
                .nominal_normal_load_n(contact)
                .filter(|n0| *n0 > 0.0)
                .map_or(1.0, |n0| normal / n0);
            let law = app.session.preset.contact_law(contact).build();
            (0..CURVE_POINTS)
                .map(|k| {
                    let vr = -v_span + 2.0 * v_span * k as f64 / (CURVE_POINTS - 1) as f64;
                    [vr, law.steady_force(vr, normal, ratio)]
                })
                .filter(|p| p[1].is_finite())
                .collect()
        }
        _ => Vec::new(),
    };
    let last = range.end.checked_sub(1).map(|i| [v[i], f[i]]);
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("friction_velocity"))
        .x_axis_label(format!("slip velocity {}", app.run.label(iv)))
        .y_axis_label(format!("friction force {}", app.run.label(ifr)))
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    let trail_label = trail_name(app, "trail");
    plot.show(ui, |p| {
        if !curve.is_empty() {
            p.line(
                Line::new("steady characteristic", curve)
                    .color(egui::Color32::GRAY)
                    .width(1.5),
            );
        }
        p.line(Line::new(trail_label, trail).color(SLIP_COLOR).width(1.0));
        if let Some(pt) = last {
            p.points(
                Points::new("operating point", vec![pt])
                    .radius(5.0)
                    .filled(true),
            );
        }
    });
}

/// The contact chooser of systems with more than one contact.
fn contact_row(app: &mut TriboApp, ui: &mut egui::Ui) {
    let n = n_contacts(app);
    if n < 2 {
        return;
    }
    let names: Vec<String> = (0..n).map(|c| contact_name(app, c)).collect();
    let current = app.session.view.contact.min(n - 1);
    egui::ComboBox::from_label("Contact")
        .selected_text(names[current].clone())
        .show_ui(ui, |ui| {
            for (c, name) in names.iter().enumerate() {
                ui.selectable_value(&mut app.session.view.contact, c, name);
            }
        });
}

/// The lateral force against the driver's position over the trail, with its mean.
fn friction_loop(app: &TriboApp, ui: &mut egui::Ui, reset: bool, ix: usize, iy: usize) {
    let range = trail_range(app);
    let stride = (range.len() / (4 * MAX_POINTS)).max(1);
    let h = &app.history;
    let (x, f) = (h.column(ix), h.column(iy));
    let trail: Vec<[f64; 2]> = range
        .clone()
        .step_by(stride)
        .map(|i| [x[i], f[i]])
        .collect();
    let mean = if range.is_empty() {
        0.0
    } else {
        range.clone().map(|i| f[i]).sum::<f64>() / range.len() as f64
    };
    let span = trail
        .first()
        .zip(trail.last())
        .map(|(a, b)| [a[0].min(b[0]), a[0].max(b[0])]);
    let last = range.end.checked_sub(1).map(|i| [x[i], f[i]]);
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("friction_loop"))
        .x_axis_label(format!("support position {}", app.run.label(ix)))
        .y_axis_label(format!("lateral force {}", app.run.label(iy)))
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    let trail_label = trail_name(app, "friction loop");
    plot.show(ui, |p| {
        p.line(Line::new(trail_label, trail).color(SLIP_COLOR).width(1.2));
        if let Some([a, b]) = span {
            p.line(
                Line::new(
                    format!(
                        "mean {}",
                        crate::util::eng::format_si(
                            mean,
                            app.run.columns.get(iy).map_or("", |c| c.unit.as_str()),
                            3
                        )
                    ),
                    vec![[a, mean], [b, mean]],
                )
                .color(egui::Color32::GRAY)
                .width(1.0),
            );
        }
        if let Some(pt) = last {
            p.points(
                Points::new("operating point", vec![pt])
                    .radius(5.0)
                    .filled(true),
            );
        }
    });
}

/// Smallest spin/slide ratio drawn, log₁₀: below it the spin does not matter (the Padé law's
/// reduction is `1 − 0.5·b_T²·10⁻⁶` there), and pure sliding would be at −∞.
const RATIO_FLOOR_LOG10: f64 = -3.0;

/// Friction coefficient `|T|/N` against the spin-to-slide ratio on a log axis, over the trail
/// (samples in contact only): how spinning weakens sliding friction.
fn spin_ratio(app: &TriboApp, ui: &mut egui::Ui, reset: bool, [ir, ifr, inl]: [usize; 3]) {
    let range = trail_range(app);
    let stride = (range.len() / (2 * MAX_POINTS)).max(1);
    let h = &app.history;
    let (r, f, n) = (h.column(ir), h.column(ifr), h.column(inl));
    let pts: Vec<[f64; 2]> = range
        .step_by(stride)
        .filter(|&i| n[i] > 0.0 && r[i] > 0.0)
        .map(|i| [r[i].log10().max(RATIO_FLOOR_LOG10), f[i] / n[i]])
        .collect();
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("friction_spin_ratio"))
        .x_axis_label(format!(
            "spin/slide ratio {} (log scale; below 0.001 drawn at 0.001)",
            app.run.label(ir)
        ))
        .y_axis_label("friction coefficient |T|/N")
        .x_axis_formatter(|mark, _| decade_label(mark.value))
        .include_x(RATIO_FLOOR_LOG10)
        .include_x(1.0)
        .include_y(0.0)
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    if pts.is_empty() {
        ui.label("No contact in the shown window yet.");
    }
    let label = trail_name(app, "in contact");
    plot.show(ui, |p| {
        p.points(Points::new(label, pts).radius(1.5).color(SLIP_COLOR));
    });
}

/// Tick label of a log₁₀ axis: the decades as plain numbers (0.001 … 1000, then powers of ten),
/// nothing between them.
fn decade_label(log10: f64) -> String {
    let k = log10.round();
    if (log10 - k).abs() > 1e-6 {
        return String::new();
    }
    match k as i32 {
        k @ -3..=-1 => format!("{:.*}", (-k) as usize, 10f64.powi(k)),
        k @ 0..=3 => format!("{}", 10i32.pow(k as u32)),
        k => format!("1e{k}"),
    }
}

#[cfg(test)]
mod tests {
    use super::decade_label;

    #[test]
    fn decades_are_labelled_and_nothing_between() {
        assert_eq!(decade_label(-3.0), "0.001");
        assert_eq!(decade_label(-1.0), "0.1");
        assert_eq!(decade_label(0.0), "1");
        assert_eq!(decade_label(2.0), "100");
        assert_eq!(decade_label(-5.0), "1e-5");
        assert_eq!(decade_label(-0.5), "");
    }
}
