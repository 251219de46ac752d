//! Short-time amplitude spectra (spectrogram): how the spectrum of a record changes in time, e.g.
//! the stick–slip frequency drifting while a bench warms up or across a speed ramp.
//! ```text
//! segment j: s[j·hop … j·hop + L),  centre time t_j = (j·hop + L/2)·Δt
//! A_j(f_k) = amplitude spectrum of segment j (mean removed, window w)   (see `spectrum`)
//! ```
//! Segments of `L` samples overlap by `L − hop`; the frequency resolution is `1/(L·Δt)`.

use super::spectrum::{Peak, Window, amplitude_spectrum};

/// Amplitude spectra of overlapping segments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spectrogram {
    /// Centre time of each segment, from the first sample [s].
    pub times_s: Vec<f64>,
    /// Frequencies of the bins [Hz] (the same for every segment).
    pub freqs_hz: Vec<f64>,
    /// `amplitudes[j][k]`: amplitude of bin `k` in segment `j`, in the signal's unit.
    pub amplitudes: Vec<Vec<f64>>,
    /// The dominant frequency of each segment (sub-bin interpolated), `None` for a flat one.
    pub dominant: Vec<Option<Peak>>,
}

/// Spectrogram of `signal` sampled every `dt_s` seconds with segments of `segment` samples
/// every `hop` samples (`None` when the record is shorter than one segment, or `segment < 4`,
/// or `hop == 0`).
pub fn spectrogram(
    signal: &[f64],
    dt_s: f64,
    segment: usize,
    hop: usize,
    window: Window,
) -> Option<Spectrogram> {
    if segment < 4 || hop == 0 || signal.len() < segment || dt_s.is_nan() || dt_s <= 0.0 {
        return None;
    }
    let mut out = Spectrogram::default();
    let mut start = 0;
    while start + segment <= signal.len() {
        let sp = amplitude_spectrum(&signal[start..start + segment], dt_s, window);
        if out.freqs_hz.is_empty() {
            out.freqs_hz = sp.freqs_hz.clone();
        }
        out.times_s
            .push((start as f64 + 0.5 * segment as f64) * dt_s);
        out.dominant.push(sp.dominant());
        out.amplitudes.push(sp.amplitudes);
        start += hop;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_a_frequency_step_and_keeps_segment_geometry() {
        // 5 Hz for 10 s, then 12 Hz for 10 s, at 1 kHz.
        let dt = 1e-3;
        let s: Vec<f64> = (0..20_000)
            .map(|i| {
                let t = i as f64 * dt;
                let f = if t < 10.0 { 5.0 } else { 12.0 };
                (std::f64::consts::TAU * f * t).sin()
            })
            .collect();
        let g = spectrogram(&s, dt, 2000, 1000, Window::Hann).unwrap();
        // (20 000 − 2000)/1000 + 1 segments, centred at 1, 2, …, 19 s.
        assert_eq!(g.times_s.len(), 19);
        assert!((g.times_s[0] - 1.0).abs() < 1e-12 && (g.times_s[18] - 19.0).abs() < 1e-9);
        assert_eq!(g.freqs_hz.len(), 1000);
        assert!((g.freqs_hz[1] - 0.5).abs() < 1e-12, "resolution 1/(L·Δt)");
        for (t, d) in g.times_s.iter().zip(&g.dominant) {
            let f = d.unwrap().freq_hz;
            if *t < 9.0 {
                assert!((f - 5.0).abs() < 1e-6, "t = {t}: {f}");
            } else if *t > 11.0 {
                assert!((f - 12.0).abs() < 1e-6, "t = {t}: {f}");
            }
        }
    }

    #[test]
    fn refuses_records_shorter_than_a_segment() {
        assert!(spectrogram(&[0.0; 100], 1e-3, 200, 50, Window::Hann).is_none());
        assert!(spectrogram(&[0.0; 100], 1e-3, 50, 0, Window::Hann).is_none());
        assert!(spectrogram(&[0.0; 100], 0.0, 50, 10, Window::Hann).is_none());
    }
}
