//! The drawing of the running system above the plots. A system may have its own schematic (the
//! animated belt–block bench); every other mechanical system gets the generic drawing of its
//! masses, springs and contacts from its [`Layout`](crate::systems::Layout) and the column roles.

mod bench;
mod chain_strip;
mod generic;

use eframe::egui::{self, Pos2, Shape, Stroke, pos2, vec2};

use super::TriboApp;
use crate::systems::{BeltBlockParams, ConfigOf};

/// A drawing of the running system, driven by the newest samples.
pub trait Schematic {
    /// Draws it across the available width.
    fn show(&self, app: &TriboApp, ui: &mut egui::Ui);
}

/// The schematic of the session's system: its own where it has one, else the generic drawing
/// of its layout; `None` for systems without mechanics (the reference flows and maps).
pub fn for_session(app: &TriboApp) -> Option<Box<dyn Schematic>> {
    // The systems with a drawing of their own.
    if let Some(p) = BeltBlockParams::of(&app.session.preset.system) {
        return Some(Box::new(bench::BenchSchematic(p.clone())));
    }
    app.run
        .layout
        .is_mechanical()
        .then(|| Box::new(generic::GenericSchematic) as Box<dyn Schematic>)
}

/// A spring from `a` to `b` with `turns` zigzags of amplitude `amp` across its axis.
pub(crate) fn zigzag(a: Pos2, b: Pos2, turns: usize, amp: f32, stroke: Stroke) -> Shape {
    let d = b - a;
    let len = d.length().max(1e-3);
    let (u, n) = (d / len, vec2(-d.y, d.x) / len);
    let lead = (len * 0.1).min(12.0);
    let mut pts = vec![a, a + u * lead];
    let body = len - 2.0 * lead;
    for k in 0..turns {
        let along = lead + body * (k as f32 + 0.5) / turns as f32;
        let side = if k % 2 == 0 { -amp } else { amp };
        pts.push(a + u * along + n * side);
    }
    pts.push(b - u * lead);
    pts.push(b);
    Shape::line(pts, stroke)
}

/// A horizontal dashpot from `a` to `b` (same height).
pub(crate) fn damper(painter: &egui::Painter, a: Pos2, b: Pos2, stroke: Stroke) {
    let mid = a.x + (b.x - a.x) * 0.5;
    let w = 7.0;
    painter.line_segment([a, pos2(mid - 8.0, a.y)], stroke);
    painter.line_segment([pos2(mid - 8.0, a.y - w), pos2(mid - 8.0, a.y + w)], stroke);
    painter.line_segment(
        [pos2(mid - 14.0, a.y - w), pos2(mid + 8.0, a.y - w)],
        stroke,
    );
    painter.line_segment(
        [pos2(mid - 14.0, a.y + w), pos2(mid + 8.0, a.y + w)],
        stroke,
    );
    painter.line_segment([pos2(mid + 2.0, a.y), b], stroke);
    painter.line_segment(
        [
            pos2(mid + 2.0, a.y - w + 2.0),
            pos2(mid + 2.0, a.y + w - 2.0),
        ],
        stroke,
    );
}
