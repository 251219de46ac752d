//! The generic schematic: the system's degrees of freedom as blocks in a row, displaced by
//! their positions (exaggerated, one scale for all), green while every contact of the block
//! sticks and orange while one slips; springs and dampers from the layout's links (to the frame
//! above, to the driver plate, or between blocks); a belt or the ground under the contacts.

use eframe::egui::{self, Color32, Rect, Stroke, pos2, vec2};

use super::{Schematic, damper, zigzag};
use crate::gui::TriboApp;
use crate::gui::plots::roles::col;
use crate::gui::plots::{BELT_COLOR, SLIP_COLOR, STICK_COLOR};
use crate::integrate::Role;
use crate::systems::{Anchor, LinkKind, Surface};
use crate::util::eng::format_si;

const HEIGHT: f32 = 170.0;
/// Visual speed of belt marks [px/s] (not to scale: the displacement is exaggerated too).
const BELT_MARK_SPEED_PX_PER_S: f32 = 40.0;
/// Most blocks drawn one by one with their springs and labels (longer chains get the compact
/// strip of [`chain_strip`](super::chain_strip)).
const MAX_BLOCKS: usize = 24;

/// The generic drawing from the layout.
pub struct GenericSchematic;

impl Schematic for GenericSchematic {
    fn show(&self, app: &TriboApp, ui: &mut egui::Ui) {
        show(app, ui);
    }
}

fn show(app: &TriboApp, ui: &mut egui::Ui) {
    let layout = &app.run.layout;
    if layout.dofs.len() > MAX_BLOCKS {
        super::chain_strip::show(app, ui);
        return;
    }
    let (rect, _) =
        ui.allocate_exact_size(vec2(ui.available_width(), HEIGHT), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let fg = visuals.text_color();
    let n = layout.dofs.len().min(MAX_BLOCKS);
    if n == 0 {
        return;
    }
    let t = app.history.last(0).unwrap_or(0.0);
    // One displacement scale for every block: the largest |x| of the window spans 30 % of a
    // block's slot.
    let (x, x_max) = super::positions_and_extent(app, n, 1e-9);
    let slot = (rect.width() - 40.0) / n as f32;
    let px_per_m = (0.3 * slot) as f64 / x_max;
    let block_w = (slot * 0.45).clamp(18.0, 70.0);
    let block_h = 38.0;
    let floor_y = rect.bottom() - 34.0;
    let frame_y = rect.top() + 30.0;
    let rest_x = |d: usize| rect.left() + 20.0 + slot * (d as f32 + 0.5);
    let blocks: Vec<Rect> = (0..n)
        .map(|d| {
            let cx = rest_x(d) + (x[d] * px_per_m) as f32;
            Rect::from_min_size(
                pos2(cx - block_w / 2.0, floor_y - block_h),
                vec2(block_w, block_h),
            )
        })
        .collect();
    // Surfaces under the contacts: a belt with moving marks, or hatched ground.
    let belt = layout.contacts.iter().any(|c| c.surface == Surface::Belt);
    let ground = layout.contacts.iter().any(|c| c.surface == Surface::Ground);
    let (left, right) = (rect.left() + 8.0, rect.right() - 8.0);
    if belt {
        painter.line_segment(
            [pos2(left, floor_y + 3.0), pos2(right, floor_y + 3.0)],
            Stroke::new(5.0, Color32::from_gray(90)),
        );
        let dir = layout.driver_speed_mps.unwrap_or(0.0).signum() as f32;
        let offset = (t as f32 * BELT_MARK_SPEED_PX_PER_S * dir).rem_euclid(24.0);
        let mut mx = left + offset;
        while mx < right {
            painter.circle_filled(pos2(mx, floor_y + 3.0), 1.8, Color32::from_gray(170));
            mx += 24.0;
        }
        painter.arrow(
            pos2(right - 50.0, floor_y + 16.0),
            vec2(30.0 * dir, 0.0),
            Stroke::new(1.5, BELT_COLOR),
        );
    } else if ground {
        painter.line_segment(
            [pos2(left, floor_y), pos2(right, floor_y)],
            Stroke::new(2.0, fg),
        );
        let mut hx = left;
        while hx < right {
            painter.line_segment(
                [pos2(hx, floor_y + 8.0), pos2(hx + 8.0, floor_y)],
                Stroke::new(1.0, fg),
            );
            hx += 10.0;
        }
    }
    // The frame (and the driver plate) above.
    let driver = layout
        .links
        .iter()
        .any(|l| l.a == Anchor::Driver || l.b == Anchor::Driver);
    let has_frame = layout
        .links
        .iter()
        .any(|l| l.a == Anchor::Ground || l.b == Anchor::Ground);
    if has_frame || driver {
        painter.line_segment(
            [pos2(left, frame_y), pos2(right, frame_y)],
            Stroke::new(3.0, if driver { BELT_COLOR } else { fg }),
        );
    }
    // Links.
    let stroke = Stroke::new(1.6, fg);
    for link in &layout.links {
        let (a, b) = match (link.a, link.b) {
            (Anchor::Dof(i), Anchor::Dof(j)) if i < n && j < n => {
                let (l, r) = if blocks[i].center().x <= blocks[j].center().x {
                    (i, j)
                } else {
                    (j, i)
                };
                let y = blocks[l].center().y;
                (pos2(blocks[l].right(), y), pos2(blocks[r].left(), y))
            }
            (Anchor::Dof(i), _) | (_, Anchor::Dof(i)) if i < n => (
                pos2(rest_x(i), frame_y),
                pos2(blocks[i].center().x, blocks[i].top()),
            ),
            _ => continue,
        };
        match link.kind {
            LinkKind::Damper if (a.y - b.y).abs() < 1.0 => damper(&painter, a, b, stroke),
            _ => {
                painter.add(zigzag(a, b, 10, 5.0, stroke));
            }
        }
        let mid = a + (b - a) * 0.5;
        painter.text(
            mid + vec2(6.0, -4.0),
            egui::Align2::LEFT_BOTTOM,
            &link.label,
            egui::FontId::proportional(11.0),
            fg,
        );
    }
    // Blocks, coloured by the stick state of their contacts.
    for (d, block) in blocks.iter().enumerate() {
        let stick: Vec<bool> = layout
            .contacts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.dof == d)
            .filter_map(|(k, _)| col(app, Role::Stick(k)))
            .filter_map(|c| app.history.last(c))
            .map(|s| s > 0.5)
            .collect();
        let color = match (stick.is_empty(), stick.iter().all(|&s| s)) {
            (true, _) => Color32::from_gray(120),
            (false, true) => STICK_COLOR,
            (false, false) => SLIP_COLOR,
        };
        painter.rect_filled(*block, 4.0, color);
        painter.text(
            block.center(),
            egui::Align2::CENTER_CENTER,
            &layout.dofs[d].symbol,
            egui::FontId::proportional(14.0),
            Color32::WHITE,
        );
    }
    let positions: Vec<String> = (0..n.min(4))
        .map(|d| {
            let dof = &layout.dofs[d];
            format!("{} = {}", dof.symbol, format_si(x[d], &dof.unit, 3))
        })
        .collect();
    painter.text(
        pos2(rect.left() + 8.0, rect.top() + 6.0),
        egui::Align2::LEFT_TOP,
        format!(
            "t = {}   {}   (displacements exaggerated; green: sticks, orange: slips)",
            format_si(t, app.run.time_unit(), 4),
            positions.join("   ")
        ),
        egui::FontId::monospace(12.0),
        fg,
    );
}
