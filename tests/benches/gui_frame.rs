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
