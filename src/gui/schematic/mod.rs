//! The drawing of the running system above the plots. A system may have its own schematic (the
//! animated belt–block bench); a layout with a crystal substrate gets the corrugated landscape
//! with its particles; every other mechanical system gets the generic drawing of its masses,
//! springs and contacts from its [`Layout`](crate::systems::Layout) and the column roles.

mod bench;
mod chain_strip;
mod generic;
mod lattice;
mod scene3d;

pub use scene3d::{VIEW_LABEL as SCENE_VIEW_LABEL, view_direction as scene_view_direction};

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
    // Systems that move in space: their 3-D scene.
    if let Some(scene) = &app.run.layout.scene {
        return Some(Box::new(scene3d::SceneSchematic(scene.clone())));
    }
    // Particles on a crystal lattice: the corrugated landscape.
    if let Some(substrate) = app.run.layout.substrate {
        return Some(Box::new(lattice::LatticeSchematic(substrate)));
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

/// The newest position of each of the first `n` degrees of freedom, and the largest `|x|` of
/// them over the shown time window (at least `floor`), so that one displacement scale serves
/// every block of a drawing.
pub(crate) fn positions_and_extent(app: &TriboApp, n: usize, floor: f64) -> (Vec<f64>, f64) {
    use crate::gui::plots::roles::col;
    use crate::integrate::Role;
    let cols: Vec<Option<usize>> = (0..n).map(|d| col(app, Role::Position(d))).collect();
    let x = cols
        .iter()
        .map(|c| c.and_then(|c| app.history.last(c)).unwrap_or(0.0))
        .collect();
    let range = crate::gui::plots::window_range(app);
    let x_max = cols
        .iter()
        .flatten()
        .filter_map(|&c| app.history.extremes(c, range.clone()))
        .map(|(lo, hi)| lo.abs().max(hi.abs()))
        .fold(floor, f64::max);
    (x, x_max)
}
