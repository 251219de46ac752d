//! The schematic of a long chain (more blocks than the generic drawing spells out): every
//! block as a small box in one row, displaced by its position (exaggerated, one scale for all),
//! green while it sticks and orange while it slips, the coupling springs as a line through
//! the blocks and the pull springs up to the frame, the surface below.

use eframe::egui::{self, Color32, Rect, Stroke, pos2, vec2};

use crate::gui::TriboApp;
use crate::gui::plots::roles::col;
use crate::gui::plots::{SLIP_COLOR, STICK_COLOR};
use crate::integrate::Role;

const HEIGHT: f32 = 120.0;
/// Pull springs are drawn up to this many blocks (beyond, they would fill the strip).
const MAX_PULL_SPRINGS: usize = 200;

pub fn show(app: &TriboApp, ui: &mut egui::Ui) {
    let layout = &app.run.layout;
    let n = layout.dofs.len();
    let (rect, _) =
        ui.allocate_exact_size(vec2(ui.available_width(), HEIGHT), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let fg = visuals.text_color();
    if n == 0 {
        return;
    }
    let t = app.history.last(0).unwrap_or(0.0);
    let (x, x_max) = super::positions_and_extent(app, n, 1e-12);
    let (left, right) = (rect.left() + 10.0, rect.right() - 10.0);
    let slot = (right - left) / n as f32;
    let px_per_unit = (0.4 * slot.max(4.0)) as f64 / x_max;
    let (frame_y, floor_y) = (rect.top() + 26.0, rect.bottom() - 18.0);
    let block_h = 22.0;
    let block_w = (slot * 0.7).max(1.0);
    let centre = |d: usize| left + slot * (d as f32 + 0.5) + (x[d] * px_per_unit) as f32;
    painter.line_segment(
        [pos2(left, frame_y), pos2(right, frame_y)],
        Stroke::new(2.0, fg),
    );
    painter.line_segment(
        [pos2(left, floor_y + 2.0), pos2(right, floor_y + 2.0)],
        Stroke::new(4.0, Color32::from_gray(90)),
    );
    let thin = Stroke::new(1.0, fg.gamma_multiply(0.6));
    if n <= MAX_PULL_SPRINGS {
        for d in 0..n {
            let cx = centre(d);
            painter.line_segment(
                [
                    pos2(left + slot * (d as f32 + 0.5), frame_y),
                    pos2(cx, floor_y - block_h),
                ],
                thin,
            );
        }
    }
    let mid_y = floor_y - block_h / 2.0;
    let chain: Vec<egui::Pos2> = (0..n).map(|d| pos2(centre(d), mid_y)).collect();
    painter.add(egui::Shape::line(chain, Stroke::new(1.2, fg)));
    let mut slipping = 0;
    for d in 0..n {
        let stuck = layout
            .contacts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.dof == d)
            .filter_map(|(k, _)| col(app, Role::Stick(k)))
            .filter_map(|c| app.history.last(c))
            .all(|s| s > 0.5);
        slipping += usize::from(!stuck);
        let r = Rect::from_center_size(pos2(centre(d), mid_y), vec2(block_w, block_h));
        painter.rect_filled(r, 1.0, if stuck { STICK_COLOR } else { SLIP_COLOR });
    }
    painter.text(
        pos2(rect.left() + 8.0, rect.top() + 5.0),
        egui::Align2::LEFT_TOP,
        format!(
            "t = {}   {n} blocks, {slipping} slipping   (displacements exaggerated; \
             green: sticks, orange: slips)",
            crate::util::eng::format_si(t, app.run.time_unit(), 4)
        ),
        egui::FontId::monospace(12.0),
        fg,
    );
}
