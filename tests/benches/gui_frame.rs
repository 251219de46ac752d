//! Window timings, measured (not asserted): first frame with samples after start-up, frame time
//! of the UI logic with 10⁶ samples of history, and the latency from a slider change to the
//! changed samples in the plots. Run with `cargo bench --bench gui_frame`. The frames here are
//! built by egui without a GPU (the harness does no rasterisation); the README also quotes the
//! frame rate of the real window under Xvfb.

use std::time::{Duration, Instant};

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tribolab::gui::TriboApp;
use tribolab::gui::session::Tab;

const HISTORY: usize = 1_000_000;

#[path = "../gui_common/mod.rs"]
mod gui_common;

fn harness(start_running: bool) -> Harness<'static, TriboApp> {
    gui_common::window(egui::vec2(1600.0, 1000.0), start_running, vec![])
}

/// What the rasteriser receives for the last frame.
struct Geometry {
    vertices: usize,
    triangles: usize,
    meshes: usize,
    /// Summed area of the triangles (each inside its clip rectangle, clipped as a box) [px]:
    /// the fragments a software rasteriser shades, overdraw included.
    area_px: f64,
    window_px: f64,
}

/// Tessellates the last frame's shapes (as eframe does before painting) and counts.
fn geometry(h: &Harness<'static, TriboApp>, feathering: bool) -> Geometry {
    let out = h.output();
    let ctx = &h.ctx;
    let before = ctx.tessellation_options(|o| o.feathering);
    ctx.tessellation_options_mut(|o| o.feathering = feathering);
    let primitives = ctx.tessellate(out.shapes.clone(), out.pixels_per_point);
    ctx.tessellation_options_mut(|o| o.feathering = before);
    let mut g = Geometry {
        vertices: 0,
        triangles: 0,
        meshes: 0,
        area_px: 0.0,
        window_px: 0.0,
    };
    let screen = ctx.content_rect();
    g.window_px = f64::from(screen.width() * screen.height());
    for p in &primitives {
        let egui::epaint::Primitive::Mesh(mesh) = &p.primitive else {
            continue;
        };
        g.meshes += 1;
        g.vertices += mesh.vertices.len();
        g.triangles += mesh.indices.len() / 3;
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize].pos);
            let area = 0.5 * ((b - a).x * (c - a).y - (c - a).x * (b - a).y).abs();
            // Clip by the box of the triangle inside the clip rectangle (an upper bound).
            let bbox = egui::Rect::from_points(&[a, b, c]);
            let inside = bbox.intersect(p.clip_rect);
            let kept = if bbox.area() > 0.0 {
                (inside.area().max(0.0) / bbox.area()).min(1.0)
            } else {
                0.0
            };
            g.area_px += f64::from(area * kept);
        }
    }
    g
}

fn main() {
    // First frame that shows samples, from the creation of the app.
    let started = Instant::now();
    let mut h = harness(true);
    while h.state().history().is_empty() {
        h.step();
    }
    println!(
        "first frame with samples: {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    );

    // Fill 10⁶ samples (1000 model-seconds at 1 ms) as fast as possible, then time frames of
    // the Overview tab while the simulation keeps running at real time.
    h.state_mut().set_tab(Tab::Grid);
    h.state_mut().set_window_s(1000.0);
    h.state_mut().set_max_speed(true);
    let deadline = Instant::now() + Duration::from_secs(600);
    while h.state().history().len() < HISTORY && Instant::now() < deadline {
        h.step();
    }
    println!("history: {} samples", h.state().history().len());
    h.state_mut().set_max_speed(false);
    for tab in [
        Tab::Grid,
        Tab::Traces,
        Tab::Phase,
        Tab::FrictionVelocity,
        Tab::Spectrum,
    ] {
        h.state_mut().set_tab(tab);
        for _ in 0..5 {
            h.step();
        }
        let frames = 60;
        let t0 = Instant::now();
        for _ in 0..frames {
            h.step();
        }
        let per_frame = t0.elapsed().as_secs_f64() / frames as f64;
        println!(
            "{tab:?}: {:.2} ms per frame of UI logic ({:.0} frames/s)",
            per_frame * 1e3,
            1.0 / per_frame
        );
        for feathering in [true, false] {
            let g = geometry(&h, feathering);
            println!(
                "    feathering {}: {} vertices, {} triangles, {:.2} Mpx of triangles \
                 ({:.2}× the window), {} draw calls",
                if feathering { "on " } else { "off" },
                g.vertices,
                g.triangles,
                g.area_px * 1e-6,
                g.area_px / g.window_px,
                g.meshes
            );
        }
    }

    // Slider → plots: change the normal load and wait for samples that carry it.
    h.state_mut().set_tab(Tab::Grid);
    let i_load = h.state().history().index("normal_load").expect("column");
    let t0 = Instant::now();
    h.get_by_role_and_label(Role::Slider, "Normal load")
        .set_value_accesskit(20.0);
    loop {
        h.step();
        let last = h.state().history().last(i_load).unwrap_or(0.0);
        if last > 15.0 || t0.elapsed() > Duration::from_secs(5) {
            break;
        }
    }
    println!(
        "slider change visible in the plots after {:.1} ms",
        t0.elapsed().as_secs_f64() * 1e3
    );
}
