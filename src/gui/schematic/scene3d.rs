//! A spatial system drawn in 3-D from its [`Scene`]: rods, balls, a spinning disc and a force
//! arrow, orthographic projection, parts painted back to front. Drag turns the view,
//! double-click or "Reset 3-D view" resets it. The trail of the last moving ball shows where it went.

use eframe::egui::{self, Color32, Pos2, Stroke, pos2, vec2};

use super::Schematic;
use crate::gui::TriboApp;
use crate::gui::plots::roles::col;
use crate::gui::plots::{SLIP_COLOR, window_range};
use crate::integrate::Role;
use crate::systems::{Scene, ScenePart, ScenePoint};

const HEIGHT: f32 = 300.0;
/// Most points of the ball's trail.
const TRAIL_POINTS: usize = 300;

/// The 3-D drawing of a scene.
pub struct SceneSchematic(pub Scene);

impl Schematic for SceneSchematic {
    fn show(&self, app: &TriboApp, ui: &mut egui::Ui) {
        show(&self.0, app, ui);
    }
}

/// Viewing direction: azimuth and elevation [rad].
#[derive(Clone, Copy, Debug, PartialEq)]
struct View {
    yaw: f32,
    pitch: f32,
}

const DEFAULT_VIEW: View = View {
    yaw: -1.25,
    pitch: 0.3,
};

/// Orthographic camera: screen right, screen up and depth (towards the viewer) axes.
struct Camera {
    right: [f64; 3],
    up: [f64; 3],
    toward: [f64; 3],
    centre: Pos2,
    px_per_m: f64,
    look_at: [f64; 3],
}

impl Camera {
    fn new(view: View, centre: Pos2, px_per_m: f64, look_at: [f64; 3]) -> Self {
        let (sy, cy) = (view.yaw as f64).sin_cos();
        let (sp, cp) = (view.pitch as f64).sin_cos();
        Self {
            toward: [cp * cy, cp * sy, sp],
            right: [-sy, cy, 0.0],
            up: [-sp * cy, -sp * sy, cp],
            centre,
            px_per_m,
            look_at,
        }
    }

    fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// Screen position and depth of a world point.
    fn project(&self, p: [f64; 3]) -> (Pos2, f64) {
        let d = [
            p[0] - self.look_at[0],
            p[1] - self.look_at[1],
            p[2] - self.look_at[2],
        ];
        let x = Self::dot(d, self.right) * self.px_per_m;
        let y = Self::dot(d, self.up) * self.px_per_m;
        (
            pos2(self.centre.x + x as f32, self.centre.y - y as f32),
            Self::dot(d, self.toward),
        )
    }
}

/// The accessible name of the 3-D view.
pub const VIEW_LABEL: &str = "3-D view (drag to turn)";

/// The button that turns the view back to where it started.
pub const RESET_LABEL: &str = "Reset 3-D view";

/// Where the view direction is kept (one 3-D view in the window).
fn view_id() -> egui::Id {
    egui::Id::unique("tribolab_scene3d_view")
}

/// The 3-D view's direction, azimuth and elevation [rad], once it has been drawn.
pub fn view_direction(ctx: &egui::Context) -> Option<(f32, f32)> {
    ctx.data(|d| d.get_temp::<View>(view_id()))
        .map(|v| (v.yaw, v.pitch))
}

fn show(scene: &Scene, app: &TriboApp, ui: &mut egui::Ui) {
    let (rect, response) = ui.allocate_exact_size(
        vec2(ui.available_width(), HEIGHT),
        egui::Sense::click_and_drag(),
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, VIEW_LABEL));
    let id = view_id();
    let mut view = ui.data(|d| d.get_temp::<View>(id)).unwrap_or(DEFAULT_VIEW);
    if response.dragged() {
        let d = response.drag_delta();
        view.yaw -= d.x * 0.01;
        view.pitch = (view.pitch + d.y * 0.01).clamp(-1.5, 1.5);
    }
    if response.double_clicked() {
        view = DEFAULT_VIEW;
    }
    ui.data_mut(|d| d.insert_temp(id, view));
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    let fg = visuals.text_color();
    let extent = scene.extent_m.max(1e-6);
    // The scene's sphere fills the drawing's height (a little margin).
    let px_per_m = 0.48 * rect.height().min(rect.width()) as f64 / extent;
    let cam = Camera::new(view, rect.center(), px_per_m, scene.centre_m);
    let point = |p: ScenePoint| -> Option<[f64; 3]> {
        match p {
            ScenePoint::Fixed(x) => Some(x),
            ScenePoint::Moving(k) => {
                let mut x = [0.0; 3];
                for (axis, v) in x.iter_mut().enumerate() {
                    *v = app
                        .history
                        .last(col(app, Role::ScenePoint { point: k, axis })?)?;
                }
                Some(x)
            }
        }
    };
    let t = app.history.last(0).unwrap_or(0.0);
    let touching = col(app, Role::NormalLoad(0))
        .and_then(|c| app.history.last(c))
        .is_some_and(|n| n > 0.0);
    axes_triad(&painter, &cam, rect, fg);
    trail(scene, app, &painter, &cam);
    // Parts with their depth, painted far to near (arrows last).
    let mut shapes: Vec<(f64, egui::Shape)> = Vec::new();
    for part in &scene.parts {
        match part {
            ScenePart::Rod { a, b, width_m } => {
                let (Some(a), Some(b)) = (point(*a), point(*b)) else {
                    continue;
                };
                let ((pa, da), (pb, db)) = (cam.project(a), cam.project(b));
                let w = (*width_m * px_per_m).max(2.0) as f32;
                let color = Color32::from_gray(150);
                shapes.push((
                    0.5 * (da + db),
                    egui::Shape::line_segment([pa, pb], Stroke::new(w, color)),
                ));
            }
            ScenePart::Ball { centre, radius_m } => {
                let Some(c) = point(*centre) else { continue };
                let (pc, dc) = cam.project(c);
                let r = (*radius_m * px_per_m).max(3.0) as f32;
                let moving = matches!(centre, ScenePoint::Moving(_));
                let fill = if moving && touching && *radius_m > 0.015 {
                    SLIP_COLOR
                } else if moving {
                    Color32::from_rgb(90, 140, 210)
                } else {
                    Color32::from_gray(110)
                };
                shapes.push((dc, egui::Shape::circle_filled(pc, r, fill)));
                shapes.push((
                    dc + 1e-9,
                    egui::Shape::circle_stroke(pc, r, Stroke::new(1.0, fg)),
                ));
            }
            ScenePart::Disc {
                centre,
                normal,
                radius_m,
                spin_rad_s,
            } => {
                let (e1, e2) = plane_basis(*normal);
                let at = |angle: f64, r: f64| {
                    let (s, c) = angle.sin_cos();
                    [0, 1, 2].map(|i| centre[i] + r * (c * e1[i] + s * e2[i]))
                };
                let rim: Vec<Pos2> = (0..48)
                    .map(|k| {
                        cam.project(at(std::f64::consts::TAU * k as f64 / 48.0, *radius_m))
                            .0
                    })
                    .collect();
                let (pc, dc) = cam.project(*centre);
                let fill = Color32::from_rgba_unmultiplied(120, 120, 200, 90);
                shapes.push((
                    dc - 0.5 * radius_m,
                    egui::Shape::convex_polygon(
                        rim,
                        fill,
                        Stroke::new(1.0, Color32::from_rgb(120, 120, 200)),
                    ),
                ));
                let angle = spin_rad_s * t;
                for k in 0..3 {
                    let spoke = cam
                        .project(at(
                            angle + k as f64 * std::f64::consts::TAU / 3.0,
                            *radius_m,
                        ))
                        .0;
                    shapes.push((
                        dc - 0.5 * radius_m + 1e-9,
                        egui::Shape::line_segment(
                            [pc, spoke],
                            Stroke::new(1.5, Color32::from_rgb(160, 160, 230)),
                        ),
                    ));
                }
            }
            ScenePart::Arrow { from, to } => {
                let (Some(a), Some(b)) = (point(*from), point(*to)) else {
                    continue;
                };
                let ((pa, _), (pb, _)) = (cam.project(a), cam.project(b));
                if (pb - pa).length() > 2.0 {
                    let mut arrow = Vec::new();
                    arrow_shapes(
                        pa,
                        pb,
                        Stroke::new(2.5, Color32::from_rgb(220, 60, 60)),
                        &mut arrow,
                    );
                    shapes.extend(arrow.into_iter().map(|s| (f64::INFINITY, s)));
                }
            }
        }
    }
    shapes.sort_by(|a, b| a.0.total_cmp(&b.0));
    painter.extend(shapes.into_iter().map(|(_, s)| s));
    let note = format!(
        "drag to turn · double-click resets · {}",
        scene.arrow_meaning
    );
    painter.text(
        rect.left_top() + vec2(6.0, 4.0),
        egui::Align2::LEFT_TOP,
        note,
        egui::FontId::proportional(12.0),
        fg,
    );
    let button = egui::Rect::from_min_size(rect.right_top() + vec2(-112.0, 2.0), vec2(108.0, 20.0));
    // A child over the drawing: `put` would move the parent's cursor back up to the button.
    let mut over = ui.new_child(egui::UiBuilder::new().max_rect(button));
    if over
        .add(egui::Button::new(RESET_LABEL).small())
        .on_hover_text("Back to the view the window opens with")
        .clicked()
    {
        ui.data_mut(|d| d.insert_temp(id, DEFAULT_VIEW));
    }
}

/// Two unit vectors spanning the plane normal to `n`.
fn plane_basis(n: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-300);
    let n = n.map(|v| v / len);
    let helper = if n[2].abs() < 0.9 {
        [0.0, 0.0, 1.0]
    } else {
        [1.0, 0.0, 0.0]
    };
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let e1 = cross(n, helper);
    let l1 = (e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]).sqrt();
    let e1 = e1.map(|v| v / l1);
    (e1, cross(n, e1))
}

fn arrow_shapes(a: Pos2, b: Pos2, stroke: Stroke, out: &mut Vec<egui::Shape>) {
    let d = b - a;
    let len = d.length();
    let u = d / len;
    let n = vec2(-u.y, u.x);
    let head = (0.25 * len).min(10.0);
    out.push(egui::Shape::line_segment([a, b], stroke));
    out.push(egui::Shape::line_segment(
        [b, b - u * head + n * head * 0.5],
        stroke,
    ));
    out.push(egui::Shape::line_segment(
        [b, b - u * head - n * head * 0.5],
        stroke,
    ));
}

/// x, y, z arrows in a corner, turning with the view.
fn axes_triad(painter: &egui::Painter, cam: &Camera, rect: egui::Rect, fg: Color32) {
    let origin = rect.left_bottom() + vec2(36.0, -30.0);
    for (axis, name) in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        .iter()
        .zip(["x", "y", "z"])
    {
        let x = Camera::dot(*axis, cam.right) as f32;
        let y = Camera::dot(*axis, cam.up) as f32;
        let tip = origin + vec2(x, -y) * 22.0;
        painter.line_segment([origin, tip], Stroke::new(1.5, fg));
        painter.text(
            origin + vec2(x, -y) * 30.0,
            egui::Align2::CENTER_CENTER,
            name,
            egui::FontId::proportional(11.0),
            fg,
        );
    }
}

/// The path of the last moving ball over the shown window.
fn trail(scene: &Scene, app: &TriboApp, painter: &egui::Painter, cam: &Camera) {
    let Some(k) = scene.parts.iter().rev().find_map(|p| match p {
        ScenePart::Ball {
            centre: ScenePoint::Moving(k),
            ..
        } => Some(*k),
        _ => None,
    }) else {
        return;
    };
    let cols: Option<Vec<usize>> = (0..3)
        .map(|axis| col(app, Role::ScenePoint { point: k, axis }))
        .collect();
    let Some(cols) = cols else { return };
    let range = window_range(app);
    let stride = (range.len() / TRAIL_POINTS).max(1);
    let (x, y, z) = (
        app.history.column(cols[0]),
        app.history.column(cols[1]),
        app.history.column(cols[2]),
    );
    let pts: Vec<Pos2> = range
        .step_by(stride)
        .map(|i| cam.project([x[i], y[i], z[i]]).0)
        .collect();
    if pts.len() > 1 {
        painter.add(egui::Shape::line(
            pts,
            Stroke::new(1.0, Color32::from_rgba_unmultiplied(230, 110, 20, 120)),
        ));
    }
}
