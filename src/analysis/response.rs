//! Main response frequency against belt-turn frequency across a sweep (S1 Fig 61): for each
//! parameter value, the dominant frequency of the block's displacement after the transient
//! (Hann-windowed FFT peak with sub-bin interpolation, [`amplitude_spectrum`]) next to the
//! belt-turn frequency `v_b/L_b`.

use super::spectrum::{Window, amplitude_spectrum};
use super::sweep::{Branch, Capture, SweepControl, SweepError, SweepSpec, sweep};
use crate::preset::Preset;
use crate::systems::SystemConfig;

/// One parameter value of a response-frequency sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponsePoint {
    /// Branch of the run.
    pub branch: Branch,
    /// Parameter value.
    pub value: f64,
    /// Belt-turn frequency `v_b/L_b` [Hz].
    pub belt_turn_hz: f64,
    /// Dominant frequency of the captured signal [Hz] (`None`: no oscillation recorded).
    pub response_hz: Option<f64>,
    /// Amplitude of the dominant peak (signal unit).
    pub amplitude: f64,
}

/// Belt-turn frequency `v_b/L_b` of a preset [Hz] (NaN for a system without a belt).
pub fn belt_turn_hz(preset: &Preset) -> f64 {
    match &preset.system {
        SystemConfig::BeltBlock(b) => b.belt_speed_mps() / b.belt_length_m,
        _ => f64::NAN,
    }
}

/// Runs `spec` (capturing column `x` at the preset's output interval unless `spec.capture`
/// says otherwise) and reports the response and belt-turn frequency of every run.
pub fn response_frequencies(
    base: &Preset,
    spec: &SweepSpec,
    control: SweepControl<'_>,
) -> Result<Vec<ResponsePoint>, SweepError> {
    let mut spec = spec.clone();
    let capture = spec.capture.get_or_insert_with(|| Capture {
        column: "x".into(),
        interval_s: base.run.output_interval_s,
    });
    let dt = capture.interval_s;
    let result = sweep(base, &spec, control)?;
    result
        .runs
        .iter()
        .map(|run| {
            let mut preset = base.clone();
            preset
                .set_path(&spec.param, &format!("{}", run.value))
                .map_err(|message| SweepError::Parameter {
                    param: spec.param.clone(),
                    value: run.value,
                    message,
                })?;
            let peak = amplitude_spectrum(&run.samples, dt, Window::Hann).dominant();
            // A flat signal (steady sliding) has no peak worth the name.
            let peak = peak.filter(|p| p.amplitude > 1e-12);
            Ok(ResponsePoint {
                branch: run.branch,
                value: run.value,
                belt_turn_hz: belt_turn_hz(&preset),
                response_hz: peak.map(|p| p.freq_hz),
                amplitude: peak.map_or(0.0, |p| p.amplitude),
            })
        })
        .collect()
}
