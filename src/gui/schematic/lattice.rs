//! The schematic of particles on a crystal lattice (the atomic-scale models, layouts with a
//! [`Substrate`](crate::systems::Substrate)): the corrugated potential `V(x)` drawn to scale
//! as a landscape, every particle as a ball resting on it at its position, green while it sits
//! in its well and orange while it slips; the driven support (or the slider body) above, with
//! its spring down to a single tip, or its springs to every atom and the bonds between
//! neighbouring atoms of a chain. The view follows the driver, so the landscape scrolls by.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, pos2, vec2};

use super::{Schematic, zigzag};
use crate::gui::TriboApp;
use crate::gui::plots::roles::col;
use crate::gui::plots::{BELT_COLOR, SLIP_COLOR, STICK_COLOR};
use crate::integrate::Role;
use crate::systems::{Substrate, Surface};
use crate::util::eng::format_si;

const HEIGHT: f32 = 180.0;
/// Lattice periods shown around a single tip.
const TIP_PERIODS: f64 = 6.0;

/// The drawing of a lattice system.
pub struct LatticeSchematic(pub Substrate);

impl Schematic for LatticeSchematic {
    fn show(&self, app: &TriboApp, ui: &mut egui::Ui) {
        show(app, ui, self.0);
    }
}

fn last(app: &TriboApp, role: Role) -> Option<f64> {
    col(app, role).and_then(|c| app.history.last(c))
}

fn show(app: &TriboApp, ui: &mut egui::Ui, substrate: Substrate) {
    let layout = &app.run.layout;
    let (rect, _) =
        ui.allocate_exact_size(vec2(ui.available_width(), HEIGHT), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let fg = visuals.text_color();
    let a = substrate.period_m;
    // The particles on the lattice, in contact order.
    let atoms: Vec<(usize, usize)> = layout
        .contacts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.surface == Surface::Lattice)
        .map(|(k, c)| (k, c.dof))
        .collect();
    if atoms.is_empty() || a.is_nan() || a <= 0.0 {
        return;
    }
    let x: Vec<f64> = atoms
        .iter()
        .map(|&(_, d)| last(app, Role::Position(d)).unwrap_or(0.0))
        .collect();
    let driver = last(app, Role::DriverPosition).unwrap_or(0.0);
    // The window: around a single tip, or the whole chain with a period's margin.
    let (lo, hi) = if x.len() == 1 {
        let centre = 0.5 * (x[0] + driver);
        (
            centre - 0.5 * TIP_PERIODS * a,
            centre + 0.5 * TIP_PERIODS * a,
        )
    } else {
        let (min, max) = x
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        (min - a, max + a)
    };
    let (left, right) = (rect.left() + 12.0, rect.right() - 12.0);
    let px_per_m = f64::from(right - left) / (hi - lo);
    let sx = |xm: f64| left + ((xm - lo) * px_per_m) as f32;
    // The landscape: valleys at the atoms of the crystal, amplitude in pixels.
    let floor = rect.bottom() - 22.0;
    let depth = 34.0f32;
    let vy = |xm: f64| {
        let c = (std::f64::consts::TAU * xm / a).cos() as f32;
        floor - depth * 0.5 * (1.0 - c)
    };
    let samples = ((right - left) / 2.0).max(16.0) as usize;
    let curve: Vec<Pos2> = (0..=samples)
        .map(|i| {
            let xm = lo + (hi - lo) * i as f64 / samples as f64;
            pos2(sx(xm), vy(xm))
        })
        .collect();
    painter.add(egui::Shape::line(curve, Stroke::new(2.0, fg)));
    // Crystal atoms under the valleys.
    let first = (lo / a).ceil() as i64;
    let last_site = (hi / a).floor() as i64;
    if last_site - first < 400 {
        for n in first..=last_site {
            let xm = n as f64 * a;
            painter.circle_filled(pos2(sx(xm), floor + 10.0), 3.0, Color32::from_gray(130));
        }
    }
    // The particles, resting on the landscape.
    let radius = ((a * px_per_m) as f32 * 0.25).clamp(2.5, 12.0);
    let centres: Vec<Pos2> = x.iter().map(|&xm| pos2(sx(xm), vy(xm) - radius)).collect();
    let body_y = rect.top() + 40.0;
    let thin = Stroke::new(1.0, fg.gamma_multiply(0.5));
    if centres.len() == 1 {
        // The cantilever's support, pulled at the driver speed, and its spring.
        let base = pos2(sx(driver), body_y);
        painter.rect_filled(
            Rect::from_center_size(base, vec2(26.0, 12.0)),
            2.0,
            BELT_COLOR,
        );
        painter.add(zigzag(
            base + vec2(0.0, 6.0),
            centres[0] - vec2(0.0, radius),
            8,
            5.0,
            Stroke::new(1.5, fg),
        ));
    } else {
        // The slider body over the chain, its springs to the atoms and the bonds.
        let x_body = (0..layout.dofs.len())
            .filter(|d| !atoms.iter().any(|&(_, a)| a == *d))
            .find_map(|d| last(app, Role::Position(d)));
        let (bl, br) = (
            centres.first().map_or(left, |p| p.x),
            centres.last().map_or(right, |p| p.x),
        );
        let shift = x_body.map_or(0.0, |xb| ((xb - driver) * px_per_m) as f32);
        painter.rect_filled(
            Rect::from_min_max(
                pos2(bl.min(br) + shift, body_y - 6.0),
                pos2(bl.max(br) + shift, body_y + 6.0),
            ),
            2.0,
            BELT_COLOR,
        );
        if centres.len() <= 300 {
            for c in &centres {
                painter.line_segment([pos2(c.x, body_y + 6.0), *c], thin);
            }
        }
        let mut sorted = centres.clone();
        sorted.sort_by(|p, q| p.x.total_cmp(&q.x));
        painter.add(egui::Shape::line(sorted, Stroke::new(1.2, fg)));
    }
    let mut slipping = 0;
    for (i, &(k, _)) in atoms.iter().enumerate() {
        let stuck = last(app, Role::Stick(k)).is_none_or(|s| s > 0.5);
        slipping += usize::from(!stuck);
        painter.circle_filled(
            centres[i],
            radius,
            if stuck { STICK_COLOR } else { SLIP_COLOR },
        );
    }
    let t = app.history.last(0).unwrap_or(0.0);
    let lateral = last(app, Role::SpringForce(0))
        .map(|f| format!("   lateral force {}", format_si(f, "N", 3)))
        .unwrap_or_default();
    let count = if atoms.len() > 1 {
        format!("   {} atoms, {slipping} slipping", atoms.len())
    } else {
        String::new()
    };
    painter.text(
        pos2(rect.left() + 8.0, rect.top() + 6.0),
        egui::Align2::LEFT_TOP,
        format!(
            "t = {}   lattice a = {}{count}{lateral}   (green: in its well, orange: slipping)",
            format_si(t, app.run.time_unit(), 4),
            format_si(a, "m", 3),
        ),
        egui::FontId::monospace(12.0),
        fg,
    );
}
