//! Main response frequency against the drive frequency across a sweep (S1 Fig 61): for each
//! parameter value, the dominant frequency of the first degree of freedom's position after the
//! transient (Hann-windowed FFT peak with sub-bin interpolation, [`amplitude_spectrum`]) next
//! to the frequency of the drive's cycle (the bench's belt turn `v_b/L_b`).

use super::spectrum::{Window, amplitude_spectrum};
use super::sweep::{Branch, Capture, SweepControl, SweepError, SweepSpec, sweep};
use crate::integrate::Role;
use crate::integrate::column::find_role;
use crate::preset::Preset;

/// One parameter value of a response-frequency sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponsePoint {
    /// Branch of the run.
    pub branch: Branch,
    /// Parameter value.
    pub value: f64,
    /// Frequency of the drive's cycle [Hz] (the bench's belt turn `v_b/L_b`).
    pub drive_hz: f64,
    /// Dominant frequency of the captured signal [Hz] (`None`: no oscillation recorded).
    pub response_hz: Option<f64>,
    /// Amplitude of the dominant peak (signal unit).
    pub amplitude: f64,
}

/// Frequency of the drive's cycle of a preset [Hz] (the bench's belt turn `v_b/L_b`; NaN for a
/// system without a drive cycle).
pub fn drive_hz(preset: &Preset) -> f64 {
    preset.system.drive_period_s().map_or(f64::NAN, |p| 1.0 / p)
}

/// Runs `spec` (capturing the first position column at the preset's output interval unless
/// `spec.capture` says otherwise) and reports the response and drive frequency of every run.
pub fn response_frequencies(
    base: &Preset,
    spec: &SweepSpec,
    control: SweepControl<'_>,
) -> Result<Vec<ResponsePoint>, SweepError> {
    let mut spec = spec.clone();
    if spec.capture.is_none() {
        let (model, _) = base.build_model();
        let columns = model.columns();
        let first = find_role(&columns, Role::Position(0))
            .or_else(|| find_role(&columns, Role::State(0)))
            .or((!columns.is_empty()).then_some(0))
            .ok_or_else(|| SweepError::Spec("the system has no output column".into()))?;
        spec.capture = Some(Capture {
            column: columns[first].name.clone(),
            interval_s: base.run.output_interval_s,
            rows: false,
        });
    }
    let dt = spec
        .capture
        .as_ref()
        .map_or(base.run.output_interval_s, |c| c.interval_s);
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
                drive_hz: drive_hz(&preset),
                response_hz: peak.map(|p| p.freq_hz),
                amplitude: peak.map_or(0.0, |p| p.amplitude),
            })
        })
        .collect()
}
