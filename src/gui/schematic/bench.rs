//! The animated test bench — the belt–block system's own schematic — drawn with egui's
//! painter and driven by the newest sample: the drive wheel turns at the set rpm, the belt and
//! its joint move at the belt speed, the spring stretches with x, and the block is green while
//! it sticks and orange while it slips.

use std::f32::consts::TAU;

use eframe::egui::{self, Color32, Pos2, Rect, Shape, Stroke, pos2, vec2};

use super::{Schematic, damper, zigzag};
use crate::gui::TriboApp;
use crate::gui::plots::roles::col;
use crate::gui::plots::{SLIP_COLOR, STICK_COLOR, window_range};
use crate::integrate::Role;
use crate::systems::BeltBlockParams;

const HEIGHT: f32 = 190.0;

/// The bench with the parameters it is drawn for.
pub struct BenchSchematic(pub BeltBlockParams);

impl Schematic for BenchSchematic {
    fn show(&self, app: &TriboApp, ui: &mut egui::Ui) {
        show(&self.0, app, ui);
    }
}

fn show(b: &BeltBlockParams, app: &TriboApp, ui: &mut egui::Ui) {
    let (rect, _) =
        ui.allocate_exact_size(vec2(ui.available_width(), HEIGHT), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let fg = visuals.text_color();
    let (Some(ix), Some(is)) = (col(app, Role::Position(0)), col(app, Role::Stick(0))) else {
        return;
    };
    let t = app.history.last(0).unwrap_or(0.0);
    let x = app.history.last(ix).unwrap_or(0.0);
    let stuck = app.history.last(is).unwrap_or(0.0) > 0.5;
    // Displacement scale: the largest |x| of the window spans 90 px.
    let range = window_range(app);
    let x_max = app
        .history
        .extremes(ix, range)
        .map_or(0.0, |(lo, hi)| lo.abs().max(hi.abs()))
        .max(1e-6);
    let px_per_m = (90.0 / x_max) as f32;

    // Belt loop between two wheels.
    let r_wheel = 34.0f32;
    let left_c = pos2(rect.left() + 110.0, rect.bottom() - 62.0);
    let right_c = pos2(rect.right() - 70.0, rect.bottom() - 62.0);
    let belt = BeltLoop {
        left: left_c,
        right: right_c,
        r: r_wheel,
    };
    painter.add(belt.outline(Stroke::new(5.0, Color32::from_gray(90))));
    // Moving dashes and the joint: the belt runs rightwards on top at v_b.
    let v_b = b.belt_speed_mps();
    let travelled = if b.belt_length_m > 0.0 {
        ((v_b * t / b.belt_length_m).rem_euclid(1.0)) as f32
    } else {
        0.0
    };
    let perimeter = belt.perimeter();
    let dashes = 24;
    for k in 0..dashes {
        let u = (k as f32 / dashes as f32 + travelled).rem_euclid(1.0) * perimeter;
        let p = belt.point(u);
        painter.circle_filled(p, 2.0, Color32::from_gray(170));
    }
    // Block sits above the belt's top run; its rest position is a third along it.
    let rest_x = left_c.x + (right_c.x - left_c.x) * 0.45;
    let block_w = 70.0;
    let block_h = 44.0;
    let bx = rest_x + x as f32 * px_per_m;
    let top = left_c.y - r_wheel - 3.0;
    let block = Rect::from_min_size(
        pos2(bx - block_w / 2.0, top - block_h),
        vec2(block_w, block_h),
    );
    // The joint is under the block when t mod T_b = 0.
    if b.joint_amplitude > 0.0 && b.joint_length_m > 0.0 {
        let u0 = belt.top_u(rest_x);
        let u = (u0 + travelled * perimeter).rem_euclid(perimeter);
        let p = belt.point(u);
        painter.rect_filled(
            Rect::from_center_size(p, vec2(14.0, 9.0)),
            2.0,
            Color32::from_rgb(200, 60, 60),
        );
    }
    // Wheels, with spokes turning at the wheel's angular speed.
    let angle = if b.wheel_radius_m > 0.0 {
        (v_b * t / b.wheel_radius_m) as f32
    } else {
        0.0
    };
    for (c, drive) in [(left_c, false), (right_c, true)] {
        painter.circle(
            c,
            r_wheel - 4.0,
            visuals.faint_bg_color,
            Stroke::new(2.0, fg),
        );
        for s in 0..4 {
            let a = -angle + s as f32 * TAU / 4.0;
            let d = vec2(a.cos(), a.sin()) * (r_wheel - 6.0);
            painter.line_segment([c - d, c + d], Stroke::new(1.5, fg));
        }
        if drive {
            painter.text(
                c + vec2(0.0, r_wheel + 8.0),
                egui::Align2::CENTER_TOP,
                format!("{:.2} rpm", b.wheel_rpm),
                egui::FontId::proportional(12.0),
                fg,
            );
        }
    }
    // Wall, spring and damper.
    let wall_x = rect.left() + 18.0;
    painter.line_segment(
        [pos2(wall_x, top - block_h - 10.0), pos2(wall_x, top + 4.0)],
        Stroke::new(4.0, fg),
    );
    let spring_y = top - block_h * 0.7;
    let damper_y = top - block_h * 0.25;
    painter.add(zigzag(
        pos2(wall_x, spring_y),
        pos2(block.left(), spring_y),
        12,
        7.0,
        Stroke::new(1.8, fg),
    ));
    damper(
        &painter,
        pos2(wall_x, damper_y),
        pos2(block.left(), damper_y),
        Stroke::new(1.5, fg),
    );
    // Block.
    let color = if stuck { STICK_COLOR } else { SLIP_COLOR };
    painter.rect_filled(block, 4.0, color);
    painter.text(
        block.center(),
        egui::Align2::CENTER_CENTER,
        if stuck { "stick" } else { "slip" },
        egui::FontId::proportional(14.0),
        Color32::WHITE,
    );
    // Normal load arrow.
    let arrow_top = block.center_top() - vec2(0.0, 22.0);
    painter.arrow(arrow_top, vec2(0.0, 18.0), Stroke::new(2.0, fg));
    painter.text(
        arrow_top + vec2(6.0, 0.0),
        egui::Align2::LEFT_TOP,
        "N",
        egui::FontId::proportional(12.0),
        fg,
    );
    // Belt direction and numbers.
    painter.arrow(
        pos2(right_c.x - 60.0, top + 14.0),
        vec2(30.0, 0.0),
        Stroke::new(1.5, fg),
    );
    painter.text(
        pos2(rect.left() + 8.0, rect.top() + 6.0),
        egui::Align2::LEFT_TOP,
        format!(
            "t = {t:.2} s   x = {:+.2} mm   v_b = {:.1} mm/s   (displacement exaggerated)",
            x * 1e3,
            v_b * 1e3
        ),
        egui::FontId::monospace(12.0),
        fg,
    );
}

/// The belt as a stadium-shaped loop around two wheels.
struct BeltLoop {
    left: Pos2,
    right: Pos2,
    r: f32,
}

impl BeltLoop {
    fn span(&self) -> f32 {
        self.right.x - self.left.x
    }

    fn perimeter(&self) -> f32 {
        2.0 * self.span() + TAU * self.r
    }

    /// Arc-length position `u` of a point of the top run at screen `x`.
    fn top_u(&self, x: f32) -> f32 {
        x - self.left.x
    }

    /// The point at arc length `u`: top run rightwards, right wheel, bottom run, left wheel.
    fn point(&self, u: f32) -> Pos2 {
        let s = self.span();
        let half = TAU / 2.0 * self.r;
        if u < s {
            pos2(self.left.x + u, self.left.y - self.r)
        } else if u < s + half {
            let a = -TAU / 4.0 + (u - s) / self.r;
            self.right + vec2(a.cos(), a.sin()) * self.r
        } else if u < 2.0 * s + half {
            pos2(self.right.x - (u - s - half), self.left.y + self.r)
        } else {
            let a = TAU / 4.0 + (u - 2.0 * s - half) / self.r;
            self.left + vec2(a.cos(), a.sin()) * self.r
        }
    }

    fn outline(&self, stroke: Stroke) -> Shape {
        let n = 120;
        let p = self.perimeter();
        let pts: Vec<Pos2> = (0..n)
            .map(|k| self.point(p * k as f32 / n as f32))
            .collect();
        Shape::closed_line(pts, stroke)
    }
}
