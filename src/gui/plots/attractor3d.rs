//! The rotatable 3-D view of a delay reconstruction, painted with egui's painter: the points
//! `(x(t), x(t+τ), x(t+2τ))` normalised to the cube `[−1, 1]³`, turned by a yaw about the
//! vertical axis and a pitch towards the viewer, projected orthographically. Drag to rotate,
//! double-click to return to the default angles. Far parts are drawn fainter (depth cue).

use eframe::egui;

use crate::gui::lab::LabSettings;

/// Most points (or polyline vertices) drawn; longer series are strided.
pub const MAX_POINTS: usize = 4_000;
/// Radians per dragged pixel.
const DRAG_RAD_PER_PX: f32 = 0.01;
/// The pitch stays short of straight up or down.
const PITCH_LIMIT: f32 = 1.5;

/// Colour of the trajectory (near end; the far end is blended towards the background).
const CURVE_COLOR: egui::Color32 = egui::Color32::from_rgb(31, 119, 180);
/// Colours of the three axes.
const AXIS_COLORS: [egui::Color32; 3] = [
    egui::Color32::from_rgb(214, 39, 40),
    egui::Color32::from_rgb(44, 160, 44),
    egui::Color32::from_rgb(148, 103, 189),
];

/// Points scaled into `[−1, 1]³` (each coordinate by its own range; a constant coordinate maps
/// to 0).
pub fn normalise(points: &[[f64; 3]]) -> Vec<[f32; 3]> {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in points {
        for k in 0..3 {
            if p[k].is_finite() {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
    }
    points
        .iter()
        .filter(|p| p.iter().all(|v| v.is_finite()))
        .map(|p| {
            let mut q = [0.0_f32; 3];
            for k in 0..3 {
                let span = hi[k] - lo[k];
                q[k] = if span > 0.0 {
                    (2.0 * (p[k] - lo[k]) / span - 1.0) as f32
                } else {
                    0.0
                };
            }
            q
        })
        .collect()
}

/// An orthographic camera: yaw about the vertical (third) axis, then pitch.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    yaw: f32,
    pitch: f32,
}

impl Camera {
    /// The camera at these angles [rad].
    pub fn new(yaw: f32, pitch: f32) -> Self {
        Self { yaw, pitch }
    }

    /// Screen offsets (right, up) and depth (towards the viewer positive) of a point of the
    /// unit cube.
    pub fn project(&self, p: [f32; 3]) -> (f32, f32, f32) {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        let x1 = p[0] * cy - p[1] * sy;
        let y1 = p[0] * sy + p[1] * cy;
        let z1 = p[2];
        let up = z1 * cp + y1 * sp;
        let depth = -y1 * cp + z1 * sp;
        (x1, up, depth)
    }
}

/// Draws the view into a square of side `side`; `labels` name the three axes. The angles live
/// in `settings` (so they persist with the session); `reset` returns them to the defaults.
pub fn show(
    ui: &mut egui::Ui,
    side: f32,
    points: &[[f64; 3]],
    as_points: bool,
    labels: [&str; 3],
    settings: &mut LabSettings,
    reset: bool,
) {
    let side = side.max(120.0);
    let (response, painter) =
        ui.allocate_painter(egui::vec2(side, side), egui::Sense::click_and_drag());
    response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "3-D attractor view"));
    let response = response.on_hover_text("Drag to rotate; double-click for the default angles");
    let defaults = LabSettings::default();
    if reset || response.double_clicked() {
        settings.yaw = defaults.yaw;
        settings.pitch = defaults.pitch;
    }
    if response.dragged() {
        let d = response.drag_delta();
        settings.yaw = (settings.yaw + d.x * DRAG_RAD_PER_PX) % std::f32::consts::TAU;
        settings.pitch = (settings.pitch + d.y * DRAG_RAD_PER_PX).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }
    let rect = response.rect;
    let visuals = ui.visuals();
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let cam = Camera::new(settings.yaw, settings.pitch);
    // The cube's diagonal fits whatever the angles.
    let scale = 0.5 * side / 3.0_f32.sqrt() * 0.92;
    let centre = rect.center();
    let to_screen = |p: [f32; 3]| {
        let (x, y, d) = cam.project(p);
        (centre + egui::vec2(x * scale, -y * scale), d)
    };

    // The box: 12 edges, the three from the corner (−1, −1, −1) coloured as axes.
    let box_stroke = egui::Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.6));
    let corner = |i: usize| {
        [
            if i & 1 == 0 { -1.0 } else { 1.0 },
            if i & 2 == 0 { -1.0 } else { 1.0 },
            if i & 4 == 0 { -1.0 } else { 1.0 },
        ]
    };
    for i in 0..8usize {
        for bit in [1usize, 2, 4] {
            let j = i | bit;
            if j == i {
                continue;
            }
            let (a, _) = to_screen(corner(i));
            let (b, _) = to_screen(corner(j));
            if i == 0 {
                let axis = bit.trailing_zeros() as usize;
                painter.line_segment([a, b], egui::Stroke::new(2.0, AXIS_COLORS[axis]));
            } else {
                painter.line_segment([a, b], box_stroke);
            }
        }
    }

    // The trajectory, strided to at most MAX_POINTS, fainter with depth.
    let cube = normalise(points);
    let stride = cube.len().div_ceil(MAX_POINTS).max(1);
    let bg = visuals.extreme_bg_color;
    let shade = |depth: f32| {
        // depth in [−√3, √3] → weight 0.25 (far) … 1 (near).
        let w = (0.625 + 0.375 * depth / 3.0_f32.sqrt()).clamp(0.25, 1.0);
        lerp_color(bg, CURVE_COLOR, w)
    };
    let projected: Vec<(egui::Pos2, f32)> =
        cube.iter().step_by(stride).map(|p| to_screen(*p)).collect();
    if as_points {
        for (p, d) in &projected {
            painter.circle_filled(*p, 1.3, shade(*d));
        }
    } else {
        for w in projected.windows(2) {
            let ((a, da), (b, db)) = (w[0], w[1]);
            painter.line_segment([a, b], egui::Stroke::new(1.0, shade(0.5 * (da + db))));
        }
    }

    // Axis names at the far ends of the coloured edges.
    let font = egui::FontId::proportional(13.0);
    for (axis, label) in labels.iter().enumerate() {
        let mut end = [-1.0_f32; 3];
        end[axis] = 1.15;
        let (pos, _) = to_screen(end);
        painter.text(
            pos,
            egui::Align2::CENTER_CENTER,
            *label,
            font.clone(),
            AXIS_COLORS[axis],
        );
    }
    painter.text(
        rect.left_bottom() + egui::vec2(6.0, -6.0),
        egui::Align2::LEFT_BOTTOM,
        format!(
            "yaw {:.0}°, pitch {:.0}° — drag to rotate",
            settings.yaw.to_degrees(),
            settings.pitch.to_degrees()
        ),
        egui::FontId::proportional(11.0),
        visuals.weak_text_color(),
    );
    if cube.is_empty() {
        painter.text(
            centre,
            egui::Align2::CENTER_CENTER,
            "no points",
            font,
            visuals.weak_text_color(),
        );
    }
}

fn lerp_color(a: egui::Color32, b: egui::Color32, w: f32) -> egui::Color32 {
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * w).round() as u8;
    egui::Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_maps_ranges_to_the_unit_cube() {
        let q = normalise(&[[0.0, 5.0, 1.0], [2.0, 5.0, 3.0], [1.0, 5.0, 2.0]]);
        assert_eq!(q[0], [-1.0, 0.0, -1.0]);
        assert_eq!(q[1], [1.0, 0.0, 1.0]);
        assert_eq!(q[2], [0.0, 0.0, 0.0]);
    }

    #[test]
    fn projection_keeps_lengths_and_turns_with_yaw() {
        let cam = Camera::new(0.0, 0.0);
        // The third axis points up on the screen, the first to the right.
        assert_eq!(cam.project([0.0, 0.0, 1.0]), (0.0, 1.0, 0.0));
        assert_eq!(cam.project([1.0, 0.0, 0.0]), (1.0, 0.0, 0.0));
        let cam = Camera::new(0.7, 0.3);
        let (x, y, d) = cam.project([0.3, -0.4, 0.5]);
        let len = (x * x + y * y + d * d).sqrt();
        assert!((len - (0.5_f32).sqrt()).abs() < 1e-6);
    }
}
