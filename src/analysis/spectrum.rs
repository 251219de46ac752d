//! FFT amplitude spectrum and dominant frequency (MODELS §4.1).
//! ```text
//! s_n − mean,  w_n = ½(1 − cos(2πn/N)) (periodic Hann),  X_k = Σ w_n s_n e^(−2πi kn/N)
//! A_k = 2|X_k| / Σw_n  (1 ≤ k < N/2),   f_k = k/(N·Δt)
//! peak k* = argmax A_k, refined to f = (k* + p)/(N·Δt):
//!   Hann window:        p = ±(2A₂ − A₁)/(A₁ + A₂), A₁ = A_{k*}, A₂ the larger neighbour
//!                       (exact for a pure tone: the Hann kernel gives A₂/A₁ = (1 + p)/(2 − p))
//!   rectangular window: parabola through ln A_{k*−1}, ln A_{k*}, ln A_{k*+1} (MODELS §4.1),
//!                       p = ½(α − γ)/(α − 2β + γ)
//! ```
//! An on-bin sine returns its amplitude exactly. MODELS §4.1 gives the log-parabola for every
//! window; for Hann we use Grandke's exact two-bin formula instead, whose bias is far below the
//! parabola's (which reaches ~0.01 bin, 2e-4 relative at 40 bins).

use rustfft::FftPlanner;
use rustfft::num_complex::Complex;
use serde::{Deserialize, Serialize};

/// Window applied before the transform.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Window {
    /// No window (leakage, best amplitude for on-bin tones).
    Rectangular,
    /// Periodic Hann window (the default).
    #[default]
    Hann,
}

impl Window {
    fn weight(self, n: usize, len: usize) -> f64 {
        match self {
            Window::Rectangular => 1.0,
            Window::Hann => 0.5 * (1.0 - (std::f64::consts::TAU * n as f64 / len as f64).cos()),
        }
    }
}

/// Fewest samples for a dominant frequency to be reported.
pub const MIN_DOMINANT_SAMPLES: usize = 64;
/// Fewest cycles of the dominant frequency in the record for it to be reported.
pub const MIN_DOMINANT_CYCLES: f64 = 3.0;

/// One-sided amplitude spectrum.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spectrum {
    /// Frequencies `f_k = k/(NΔt)` for `0 ≤ k < N/2` [Hz].
    pub freqs_hz: Vec<f64>,
    /// Amplitudes `A_k` in the signal's unit.
    pub amplitudes: Vec<f64>,
    /// Bin spacing `1/(NΔt)` [Hz].
    pub resolution_hz: f64,
    /// Window used.
    pub window: Window,
}

/// A spectral peak.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Peak {
    /// Interpolated frequency [Hz].
    pub freq_hz: f64,
    /// Amplitude of the peak bin.
    pub amplitude: f64,
}

/// Amplitude spectrum of `signal` sampled every `dt_s` seconds (mean removed first).
pub fn amplitude_spectrum(signal: &[f64], dt_s: f64, window: Window) -> Spectrum {
    let n = signal.len();
    if n < 4 || dt_s <= 0.0 {
        return Spectrum::default();
    }
    let mean = signal.iter().sum::<f64>() / n as f64;
    let mut wsum = 0.0;
    let mut buf: Vec<Complex<f64>> = signal
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let w = window.weight(i, n);
            wsum += w;
            Complex::new((s - mean) * w, 0.0)
        })
        .collect();
    FftPlanner::new().plan_fft_forward(n).process(&mut buf);
    let half = n / 2;
    let resolution_hz = 1.0 / (n as f64 * dt_s);
    let amplitudes = (0..half)
        .map(|k| {
            let scale = if k == 0 { 1.0 } else { 2.0 };
            scale * buf[k].norm() / wsum
        })
        .collect();
    Spectrum {
        freqs_hz: (0..half).map(|k| k as f64 * resolution_hz).collect(),
        amplitudes,
        resolution_hz,
        window,
    }
}

/// Fewest spectral bins below `f₀` for its harmonics to be told apart.
pub const MIN_FUNDAMENTAL_BINS: f64 = 4.0;
/// Least amplitude, relative to the strongest component, of a lower peak taken as the
/// fundamental (see [`Spectrum::fundamental`]).
pub const FUNDAMENTAL_LEVEL: f64 = 0.5;

impl Spectrum {
    /// Refined frequency of the local maximum at bin `k`.
    fn refine(&self, k: usize) -> Peak {
        let a = &self.amplitudes;
        let mut p = 0.0;
        let inside = k > 0 && k + 1 < a.len() && a[k] > 0.0;
        // A neighbour at round-off level means an on-bin tone: no shift.
        let resolved = inside && a[k - 1].max(a[k + 1]) > 1e-9 * a[k];
        if resolved && self.window == Window::Hann {
            let (left, right) = (a[k - 1], a[k + 1]);
            p = if right >= left {
                (2.0 * right - a[k]) / (a[k] + right)
            } else {
                -(2.0 * left - a[k]) / (a[k] + left)
            };
            p = p.clamp(-0.5, 0.5);
        } else if resolved && a[k - 1] > 0.0 && a[k + 1] > 0.0 {
            let (al, be, ga) = (a[k - 1].ln(), a[k].ln(), a[k + 1].ln());
            let den = al - 2.0 * be + ga;
            if den < 0.0 {
                p = (0.5 * (al - ga) / den).clamp(-0.5, 0.5);
            }
        }
        Peak {
            freq_hz: (k as f64 + p) * self.resolution_hz,
            amplitude: a[k],
        }
    }

    /// The strongest component above 0 Hz, with sub-bin interpolation.
    pub fn dominant(&self) -> Option<Peak> {
        let (k, _) = self
            .amplitudes
            .iter()
            .enumerate()
            .skip(1)
            .max_by(|a, b| a.1.total_cmp(b.1))?;
        Some(self.refine(k))
    }

    /// The dominant component when it means something: a record of at least
    /// [`MIN_DOMINANT_SAMPLES`] samples in which it repeats at least [`MIN_DOMINANT_CYCLES`]
    /// times. A short record, or a drift (creep, a transient) whose strongest bin is the first
    /// few above zero, has no dominant frequency to speak of.
    pub fn meaningful_dominant(&self) -> Option<Peak> {
        let samples = 2 * self.freqs_hz.len();
        let peak = self.dominant()?;
        (samples >= MIN_DOMINANT_SAMPLES
            && peak.freq_hz >= MIN_DOMINANT_CYCLES * self.resolution_hz)
            .then_some(peak)
    }

    /// The fundamental `f₀`: the strongest component, unless a lower local maximum of at least
    /// [`FUNDAMENTAL_LEVEL`] of its amplitude (and at least [`MIN_FUNDAMENTAL_BINS`] bins up)
    /// has it as a multiple `m·f` (`m ≥ 2`, within ±max(2 bins, 2 %)); then the lowest such.
    /// A train of narrow spikes has harmonics of nearly equal height, and the strongest is any
    /// of them (a 12.4 Hz train gave 493.6 Hz); a sawtooth's or a sine's strongest is `f₀`.
    pub fn fundamental(&self) -> Option<Peak> {
        let top = self.dominant()?;
        let a = &self.amplitudes;
        let res = self.resolution_hz;
        let floor = FUNDAMENTAL_LEVEL * top.amplitude;
        (1..a.len().saturating_sub(1))
            .filter(|&k| a[k] >= floor && a[k] > a[k - 1] && a[k] >= a[k + 1])
            .map(|k| self.refine(k))
            .take_while(|p| p.freq_hz < top.freq_hz)
            .filter(|p| p.freq_hz >= MIN_FUNDAMENTAL_BINS * res)
            .find(|p| {
                let m = (top.freq_hz / p.freq_hz).round();
                let tol = (2.0 * res).max(0.02 * top.freq_hz);
                m >= 2.0 && (top.freq_hz - m * p.freq_hz).abs() <= tol
            })
            .or(Some(top))
    }

    /// The fundamental `f₀` ([`fundamental`](Self::fundamental)) and its harmonics `k·f₀`,
    /// `k = 1 … count` (those below the
    /// Nyquist frequency): for each `k` the largest bin within ±max(2, 2 %·k·f₀) of `k·f₀` (at
    /// most 0.49·f₀, so neighbouring multiples never share a bin; with `f₀` below
    /// [`MIN_FUNDAMENTAL_BINS`] bins only `f₀` itself),
    /// refined like [`dominant`](Self::dominant). The frequencies show how far a stick–slip
    /// response is from a pure tone (and whether its overtones are exact multiples).
    pub fn harmonics(&self, count: usize) -> Vec<Peak> {
        let Some(f0) = self.fundamental() else {
            return Vec::new();
        };
        let a = &self.amplitudes;
        let res = self.resolution_hz;
        let f0_bins = f0.freq_hz / res;
        if f0_bins < MIN_FUNDAMENTAL_BINS {
            // The overtones' windows would overlap the fundamental (a step's spectrum gave
            // "2f₀ = f₀"): the series is not resolved, only f₀ is reported.
            return vec![f0];
        }
        let mut out = Vec::with_capacity(count);
        for k in 1..=count {
            let target = k as f64 * f0_bins;
            // Never reach half-way to the neighbouring multiples.
            let reach = (0.02 * target).max(2.0).min(0.49 * f0_bins);
            let lo = (target - reach).floor().max(1.0) as usize;
            let hi = ((target + reach).ceil() as usize).min(a.len().saturating_sub(1));
            if lo > hi {
                break;
            }
            let Some(best) = (lo..=hi).max_by(|&i, &j| a[i].total_cmp(&a[j])) else {
                break;
            };
            out.push(if k == 1 { f0 } else { self.refine(best) });
        }
        out
    }

    /// Up to `count` strongest local maxima above 0 Hz, strongest first.
    pub fn peaks(&self, count: usize) -> Vec<Peak> {
        let a = &self.amplitudes;
        let mut idx: Vec<usize> = (1..a.len().saturating_sub(1))
            .filter(|&k| a[k] > a[k - 1] && a[k] >= a[k + 1])
            .collect();
        idx.sort_by(|&i, &j| a[j].total_cmp(&a[i]));
        idx.into_iter()
            .take(count)
            .map(|k| self.refine(k))
            .collect()
    }
}

#[cfg(test)]
mod tests {

    /// A sine over ten periods has a dominant frequency; a ramp (creep) and a record of four
    /// samples do not.
    #[test]
    fn a_dominant_frequency_only_where_one_repeats() {
        let dt = 0.01;
        let sine: Vec<f64> = (0..1000)
            .map(|k| (std::f64::consts::TAU * 1.0 * k as f64 * dt).sin())
            .collect();
        let p = amplitude_spectrum(&sine, dt, Window::Hann)
            .meaningful_dominant()
            .expect("a sine repeats");
        assert!((p.freq_hz - 1.0).abs() < 0.02, "{}", p.freq_hz);
        let ramp: Vec<f64> = (0..1000).map(|k| k as f64).collect();
        assert!(
            amplitude_spectrum(&ramp, dt, Window::Hann)
                .meaningful_dominant()
                .is_none()
        );
        assert!(
            amplitude_spectrum(&sine[..4], dt, Window::Hann)
                .meaningful_dominant()
                .is_none()
        );
    }

    use super::*;

    /// Regression: a step's spectrum reported "2f₀ = 3f₀ = f₀" (overtone windows reaching
    /// back to the fundamental's bin). An unresolved fundamental has no harmonics; resolved
    /// ones are distinct multiples.
    #[test]
    fn harmonics_of_an_unresolved_fundamental_are_not_reported() {
        let step: Vec<f64> = (0..5000).map(|i| f64::from(u8::from(i >= 2500))).collect();
        let s = amplitude_spectrum(&step, 0.01, Window::Hann);
        assert_eq!(s.harmonics(5).len(), 1);
        let square: Vec<f64> = (0..5000)
            .map(|i| if (i / 50) % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let h = amplitude_spectrum(&square, 0.01, Window::Hann).harmonics(3);
        assert_eq!(h.len(), 3);
        for (k, p) in h.iter().enumerate() {
            let expected = (k + 1) as f64;
            assert!(
                (p.freq_hz - expected).abs() < 0.02,
                "harmonic {}: {}",
                k + 1,
                p.freq_hz
            );
        }
    }

    /// Regression: a train of narrow spikes at 12.4 Hz has harmonics of nearly equal height;
    /// its fundamental is 12.4 Hz, not whichever overtone happens to be the tallest (493.6 Hz).
    #[test]
    fn a_spike_train_has_its_repetition_rate_as_fundamental() {
        let (n, dt, f) = (20_000, 1e-3, 12.4);
        let spikes: Vec<f64> = (0..n)
            .map(|i| {
                let phase = (i as f64 * dt * f).fract();
                f64::from(u8::from(phase < dt * f))
            })
            .collect();
        let s = amplitude_spectrum(&spikes, dt, Window::Hann);
        let top = s.dominant().unwrap();
        let f0 = s.fundamental().unwrap();
        assert!(
            (f0.freq_hz - f).abs() < 0.5 * s.resolution_hz,
            "{f0:?} (tallest {top:?})"
        );
        let h = s.harmonics(5);
        for (k, p) in h.iter().enumerate() {
            let want = (k + 1) as f64 * f;
            assert!((p.freq_hz - want).abs() < s.resolution_hz, "{k}: {p:?}");
        }
        // Two tones that are not multiples keep the stronger as f₀.
        let two: Vec<f64> = (0..n)
            .map(|i| {
                let t = i as f64 * dt;
                (std::f64::consts::TAU * 37.0 * t).sin()
                    + 0.8 * (std::f64::consts::TAU * 13.0 * t).sin()
            })
            .collect();
        let s = amplitude_spectrum(&two, dt, Window::Hann);
        assert!((s.fundamental().unwrap().freq_hz - 37.0).abs() < 0.01);
    }

    fn sine(f: f64, amp: f64, n: usize, dt: f64) -> Vec<f64> {
        (0..n)
            .map(|i| 0.3 + amp * (std::f64::consts::TAU * f * i as f64 * dt).sin())
            .collect()
    }

    #[test]
    fn on_bin_sine_returns_its_amplitude() {
        // 4096 samples at 1 ms: bin 0.2441 Hz; 100 bins → 24.414 Hz exactly on bin.
        let (n, dt) = (4096, 1e-3);
        let f = 100.0 / (n as f64 * dt);
        for w in [Window::Rectangular, Window::Hann] {
            let s = amplitude_spectrum(&sine(f, 1.5, n, dt), dt, w);
            let p = s.dominant().unwrap();
            assert!((p.amplitude - 1.5).abs() < 1e-9, "{w:?}: {}", p.amplitude);
            assert!((p.freq_hz - f).abs() < 1e-9 * f, "{w:?}: {}", p.freq_hz);
        }
    }

    #[test]
    fn off_bin_frequency_within_1e_4_relative() {
        let (n, dt) = (16384, 1e-3);
        for f in [2.2531, 7.77, 13.0137] {
            let s = amplitude_spectrum(&sine(f, 1.0, n, dt), dt, Window::Hann);
            let p = s.dominant().unwrap();
            assert!((p.freq_hz - f).abs() < 1e-4 * f, "{f}: {}", p.freq_hz);
        }
    }

    #[test]
    fn finds_harmonics_in_order() {
        let (n, dt) = (8192, 1e-3);
        let base = 50.0 / (n as f64 * dt);
        let s: Vec<f64> = (0..n)
            .map(|i| {
                let t = i as f64 * dt;
                (std::f64::consts::TAU * base * t).sin()
                    + 0.5 * (std::f64::consts::TAU * 2.0 * base * t).sin()
                    + 0.25 * (std::f64::consts::TAU * 3.0 * base * t).sin()
            })
            .collect();
        let peaks = amplitude_spectrum(&s, dt, Window::Hann).peaks(3);
        let ratios: Vec<f64> = peaks.iter().map(|p| p.freq_hz / base).collect();
        for (r, e) in ratios.iter().zip([1.0, 2.0, 3.0]) {
            assert!((r - e).abs() < 1e-9, "{ratios:?}");
        }
    }

    #[test]
    fn harmonics_are_found_at_multiples_of_the_dominant_frequency() {
        // A 2.3 Hz sawtooth-like stick–slip signal: harmonics at k·f₀ with amplitudes 1/k,
        // off-bin; a small 0.7 Hz line in between must not be taken for a harmonic.
        let (n, dt) = (20_000, 1e-3);
        let f0 = 2.3;
        let s: Vec<f64> = (0..n)
            .map(|i| {
                let t = i as f64 * dt;
                (1..=4)
                    .map(|k| (std::f64::consts::TAU * k as f64 * f0 * t).sin() / k as f64)
                    .sum::<f64>()
                    + 0.05 * (std::f64::consts::TAU * 0.7 * t).sin()
            })
            .collect();
        let h = amplitude_spectrum(&s, dt, Window::Hann).harmonics(6);
        assert_eq!(h.len(), 6);
        for (k, p) in h.iter().take(4).enumerate() {
            let k = (k + 1) as f64;
            assert!(
                (p.freq_hz - k * f0).abs() < 1e-6 * k * f0,
                "{k}: {}",
                p.freq_hz
            );
            // Peak-bin amplitude of an off-bin Hann tone: within the scalloping loss (15 %).
            assert!(
                p.amplitude > 0.84 / k && p.amplitude <= 1.0 / k + 1e-9,
                "{k}: {}",
                p.amplitude
            );
        }
        // No 5th and 6th harmonic in the signal: only leakage there.
        assert!(h[4].amplitude < 1e-3 && h[5].amplitude < 1e-3, "{h:?}");
    }
}
