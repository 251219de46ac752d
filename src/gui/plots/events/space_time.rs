//! Space–time plot: block index against time, each cell coloured by the block's slip rate
//! (log scale over three decades below the window's fastest slip), dark where it sticks. An
//! event is a streak; one running along the chain is a slanted band. The image is rebuilt a
//! few times a second from the history (O(blocks × samples in the window)).

use std::time::{Duration, Instant};

use eframe::egui::{self, Color32, ColorImage, TextureHandle, TextureOptions};
use egui_plot::{Line, Plot, PlotImage, PlotPoint};

use crate::gui::TriboApp;
use crate::gui::plots::roles::col;
use crate::integrate::Role;

/// Most time bins of the image (about one per pixel of a wide plot).
const MAX_BINS: usize = 800;
/// Slip rates shown: three decades below the fastest.
const DECADES: f64 = 3.0;
/// Shortest time between two rebuilds of the image.
const REBUILD_EVERY: Duration = Duration::from_millis(200);

/// The last image and what it shows.
#[derive(Default)]
pub struct SpaceTimeCache {
    texture: Option<TextureHandle>,
    built: Option<Instant>,
    key: Option<(usize, u64, u64, usize)>,
    range_s: (f64, f64),
    v_max: f64,
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let n = app.run.layout.contacts.len();
    let t_end = app.history.last(0).unwrap_or(0.0);
    let selected = app
        .catalogue
        .as_ref()
        .and_then(|c| c.selected.and_then(|i| c.events.get(i)).cloned());
    let (t0, t1) = match &selected {
        Some(e) => {
            let pad = e.duration_s().max(0.05 * app.session.view.window_s);
            (e.start_s - pad, e.end_s + pad)
        }
        None => (t_end - app.session.view.window_s, t_end),
    };
    let key = (n, t0.to_bits(), t1.to_bits(), app.history.len());
    let cache = &mut app.plots.space_time;
    let fresh = cache.built.is_some_and(|b| b.elapsed() < REBUILD_EVERY);
    if cache.key != Some(key) && !(fresh && selected.is_none()) {
        let (image, v_max) = build_image(app, n, t0, t1, ui.visuals().extreme_bg_color);
        let cache = &mut app.plots.space_time;
        match cache.texture.as_mut() {
            Some(t) => t.set(image, TextureOptions::NEAREST),
            None => {
                cache.texture = Some(ui.ctx().load_texture(
                    "space_time",
                    image,
                    TextureOptions::NEAREST,
                ));
            }
        }
        cache.key = Some(key);
        cache.built = Some(Instant::now());
        cache.range_s = (t0, t1);
        cache.v_max = v_max;
    }
    let cache = &app.plots.space_time;
    let Some(texture) = cache.texture.as_ref() else {
        return;
    };
    let (a, b) = cache.range_s;
    let unit = app
        .run
        .layout
        .dofs
        .first()
        .map_or(String::new(), |d| format!("{}/s", d.unit));
    ui.label(
        egui::RichText::new(format!(
            "Slip rate of every block (dark: stuck; colour: log scale up to {})",
            crate::util::eng::format_si(cache.v_max, &unit, 3)
        ))
        .small(),
    );
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("space_time"))
        .x_axis_label(app.run.time_label())
        .y_axis_label("block")
        .allow_scroll(false)
        .include_y(0.5)
        .include_y(n as f64 + 0.5);
    if reset || selected.is_some() {
        plot = plot.reset();
    }
    let id = texture.id();
    plot.show(ui, |p| {
        p.image(PlotImage::new(
            "slip rate",
            id,
            PlotPoint::new(0.5 * (a + b), 0.5 * (n as f64 + 1.0)),
            egui::vec2((b - a) as f32, n as f32),
        ));
        if let Some(e) = &selected {
            let (lo, hi) = (e.first_block as f64 + 0.5, e.last_block as f64 + 1.5);
            let outline = vec![
                [e.start_s, lo],
                [e.end_s, lo],
                [e.end_s, hi],
                [e.start_s, hi],
                [e.start_s, lo],
            ];
            p.line(Line::new("selected event", outline).color(Color32::WHITE));
        }
    });
}

/// The image of `[t0, t1]`: row 0 is the top (the last block), one column per time bin.
fn build_image(
    app: &TriboApp,
    n: usize,
    t0: f64,
    t1: f64,
    background: Color32,
) -> (ColorImage, f64) {
    let t = app.history.column(0);
    let (i0, i1) = (
        t.partition_point(|&v| v < t0),
        t.partition_point(|&v| v <= t1),
    );
    let bins = (i1 - i0).clamp(1, MAX_BINS);
    let mut rate = vec![0.0f64; n * bins];
    let span = (t1 - t0).max(f64::MIN_POSITIVE);
    for c in 0..n {
        let (Some(iv), Some(is)) = (col(app, Role::SlipVelocity(c)), col(app, Role::Stick(c)))
        else {
            continue;
        };
        let (v, stick) = (app.history.column(iv), app.history.column(is));
        for i in i0..i1 {
            if stick[i] != 0.0 {
                continue;
            }
            let b = (((t[i] - t0) / span) * bins as f64) as usize;
            let cell = &mut rate[c * bins + b.min(bins - 1)];
            *cell = cell.max(v[i].abs().max(f64::MIN_POSITIVE));
        }
    }
    let v_max = rate.iter().copied().fold(0.0, f64::max);
    let floor = v_max * 10f64.powf(-DECADES);
    let mut pixels = vec![background; n * bins];
    for c in 0..n {
        let row = n - 1 - c;
        for b in 0..bins {
            let v = rate[c * bins + b];
            if v > 0.0 {
                let s = ((v.max(floor) / floor).log10() / DECADES).clamp(0.0, 1.0);
                pixels[row * bins + b] = ramp(s);
            }
        }
    }
    (ColorImage::new([bins, n], pixels), v_max)
}

/// Dark red → orange → pale yellow.
fn ramp(s: f64) -> Color32 {
    let stops = [
        (110.0, 20.0, 30.0),
        (230.0, 110.0, 20.0),
        (255.0, 240.0, 150.0),
    ];
    let x = s * 2.0;
    let (k, f) = if x < 1.0 { (0, x) } else { (1, x - 1.0) };
    let (a, b) = (stops[k], stops[k + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f) as u8;
    Color32::from_rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}
