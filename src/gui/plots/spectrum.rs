//! FFT amplitude spectrum (Hann window) of a chosen signal over the shown window, with the
//! dominant frequency and, when the system is periodically forced (the belt joint), the
//! forcing frequency.

use std::time::Instant;

use eframe::egui;
use egui_plot::{Line, Plot, VLine};

use super::roles::{col, spectrum_column, spectrum_options};
use super::{BELT_COLOR, window_range};
use crate::analysis::{Peak, Spectrum, Window, amplitude_spectrum};
use crate::gui::TriboApp;

/// Longest record transformed.
const MAX_SAMPLES: usize = 1 << 16;
/// Recompute at most this often [s].
const REFRESH_S: f64 = 0.3;

/// The last computed spectrum.
#[derive(Default)]
pub struct SpectrumCache {
    /// The spectrum.
    pub spectrum: Spectrum,
    /// Its strongest peak.
    pub dominant: Option<Peak>,
    /// History column it was computed from.
    signal: Option<usize>,
    computed: Option<Instant>,
    t_end: f64,
}

/// Recomputes the spectrum when stale (cheap when not).
pub fn update(app: &mut TriboApp) {
    let signal = spectrum_column(app);
    let t_end = app.history.last(0).unwrap_or(0.0);
    let c = &app.plots.spectrum;
    let same_signal = c.signal == signal && c.computed.is_some();
    let unchanged = same_signal && c.t_end == t_end;
    // While running, refresh at most every REFRESH_S; when paused, as soon as data changed.
    let throttled = same_signal
        && app.run.running
        && c.computed
            .is_some_and(|t| t.elapsed().as_secs_f64() < REFRESH_S);
    if unchanged || throttled {
        return;
    }
    let (Some(is), Some(iev)) = (signal, col(app, crate::integrate::Role::EventFlag)) else {
        return;
    };
    let range = window_range(app);
    let h = &app.history;
    let (s, ev) = (h.column(is), h.column(iev));
    // The newest MAX_SAMPLES regular samples (event rows break the uniform spacing), taken
    // from the end so a long window is not scanned.
    let mut samples: Vec<f64> = range
        .rev()
        .filter(|&i| ev[i] == 0.0)
        .map(|i| s[i])
        .take(MAX_SAMPLES)
        .collect();
    samples.reverse();
    let dt = app.session.preset.run.output_interval_s;
    let spectrum = amplitude_spectrum(&samples, dt, Window::Hann);
    // Only a frequency that repeats in the record (not a drift, not four samples).
    let dominant = spectrum.meaningful_dominant();
    app.plots.spectrum = SpectrumCache {
        spectrum,
        dominant,
        signal,
        computed: Some(Instant::now()),
        t_end,
    };
}

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    update(app);
    ui.horizontal(|ui| {
        let options = spectrum_options(app);
        let current = spectrum_column(app).map(|i| app.run.label(i));
        egui::ComboBox::from_label("Spectrum of")
            .selected_text(current.unwrap_or_default())
            .show_ui(ui, |ui| {
                for (role, name) in &options {
                    if ui
                        .selectable_label(spectrum_column(app) == col(app, *role), name.as_str())
                        .clicked()
                    {
                        app.session.view.spectrum_column = Some(*role);
                    }
                }
            });
        if let Some(p) = app.plots.spectrum.dominant {
            ui.label(format!("dominant {:.4} Hz", p.freq_hz));
        }
    });
    let c = &app.plots.spectrum;
    let nyquist = 0.5 / app.session.preset.run.output_interval_s;
    // Show up to five times the dominant frequency (the harmonics), at least 1 Hz.
    let f_max = c
        .dominant
        .map_or(10.0, |d| (5.0 * d.freq_hz).max(1.0))
        .min(nyquist);
    let pts: Vec<[f64; 2]> = c
        .spectrum
        .freqs_hz
        .iter()
        .zip(&c.spectrum.amplitudes)
        .take_while(|(f, _)| **f <= f_max)
        .map(|(f, a)| [*f, *a])
        .collect();
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("spectrum"))
        .x_axis_label(app.run.frequency_label())
        // Finer labels than the default decades: a 0–9 Hz axis would show only "0".
        .x_grid_spacer(egui_plot::log_grid_spacer(5))
        .y_axis_label("amplitude")
        .include_x(0.0)
        .include_x(f_max)
        .include_y(0.0)
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    let dominant = c.dominant;
    let forcing = forcing_frequency_hz(app);
    plot.show(ui, |p| {
        p.line(Line::new("amplitude", pts).width(1.2));
        if let Some(d) = dominant {
            p.vline(VLine::new(
                format!("dominant {:.4} Hz", d.freq_hz),
                d.freq_hz,
            ));
        }
        if let Some(fb) = forcing {
            p.vline(VLine::new(format!("forcing {fb:.4} Hz"), fb).color(BELT_COLOR));
        }
    });
}

/// The forcing frequency marked on the spectrum, from the parameters as they are now (a
/// changed wheel speed moves it at once) [Hz].
pub fn forcing_frequency_hz(app: &TriboApp) -> Option<f64> {
    app.session
        .preset
        .system
        .forcing_period_s()
        .filter(|p| p.is_finite() && *p > 0.0)
        .map(|p| 1.0 / p)
}
