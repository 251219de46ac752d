//! Persisted settings of the analysis panels (part of the session's view settings; every field
//! defaults, so sessions saved by older builds load).

use serde::{Deserialize, Serialize};

/// Which series the attractor and embedding panels analyse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeriesSource {
    /// A column of the running simulation.
    #[default]
    Simulation,
    /// The imported CSV series.
    Imported,
}

/// Settings of the analysis panels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LabSettings {
    /// Lyapunov averaging time of flows [s].
    pub lyap_duration_s: f64,
    /// Lyapunov transient of flows [s].
    pub lyap_transient_s: f64,
    /// Renormalisation interval τ of flows [s].
    pub lyap_tau_s: f64,
    /// Lyapunov averaging of maps [iterations].
    pub lyap_map_duration: f64,
    /// Lyapunov transient of maps [iterations].
    pub lyap_map_transient: f64,
    /// Iterations between running-estimate entries of maps.
    pub lyap_map_tau: f64,
    /// Damp the stiff tangent directions (λ₁ and verdict only, much faster for stiff laws).
    pub lyap_fast_stiff: bool,
    /// Floquet transient [s].
    pub floquet_transient_s: f64,
    /// Swept parameter (dotted preset path).
    pub sweep_param: String,
    /// First value.
    pub sweep_from: f64,
    /// Last value.
    pub sweep_to: f64,
    /// Number of values.
    pub sweep_steps: f64,
    /// Model time per value [s] (iterations for maps).
    pub sweep_duration: f64,
    /// Section returns (iterations for maps) dropped as transient.
    pub sweep_transient_returns: f64,
    /// Output column plotted against the parameter.
    pub sweep_column: String,
    /// Regime map: parameter along x (dotted preset path).
    pub map_x_param: String,
    /// Regime map: first and last x.
    pub map_x_range: (f64, f64),
    /// Regime map: parameter along y.
    pub map_y_param: String,
    /// Regime map: first and last y.
    pub map_y_range: (f64, f64),
    /// Regime map: values along each axis.
    pub map_steps: f64,
    /// Regime map: model time per cell [s].
    pub map_duration_s: f64,
    /// Regime map: part of each run dropped as transient (0–1).
    pub map_transient_fraction: f64,
    /// Regime map: also compute each cell's largest Lyapunov exponent.
    pub map_lyapunov: bool,
    /// The friction sweep varies the temperature (else the drive speed).
    pub friction_by_temperature: bool,
    /// Lowest and highest drive speed of the friction sweep [m/s] (0: around the current).
    pub friction_speed_mps: (f64, f64),
    /// Lowest and highest temperature of the friction sweep [K] (equal: around the current).
    pub friction_temperature_k: (f64, f64),
    /// Values of the friction sweep.
    pub friction_steps: f64,
    /// Noise seeds per value.
    pub friction_seeds: f64,
    /// Drive periods discarded at the start of each run.
    pub friction_transient_periods: f64,
    /// Drive periods measured after the transient.
    pub friction_measure_periods: f64,
    /// Which series the attractor and embedding panels use.
    pub source: SeriesSource,
    /// Simulation column analysed.
    pub signal: String,
    /// Newest samples taken from the simulation (and most taken from a file).
    pub max_samples: f64,
    /// Delay τ [samples] chosen by hand (`None`: AMI rule).
    pub delay: Option<usize>,
    /// Embedding dimension chosen by hand (`None`: Cao's rule).
    pub dim: Option<usize>,
    /// Delay of the attractor view [samples].
    pub attractor_delay: f64,
    /// Attractor views draw points instead of a line (maps always use points).
    pub attractor_points: bool,
    /// 3-D view: rotation about the vertical axis [rad].
    pub yaw: f32,
    /// 3-D view: tilt [rad].
    pub pitch: f32,
}

impl Default for LabSettings {
    fn default() -> Self {
        Self {
            lyap_duration_s: 200.0,
            lyap_transient_s: 20.0,
            lyap_tau_s: 0.5,
            lyap_map_duration: 20_000.0,
            lyap_map_transient: 100.0,
            lyap_map_tau: 100.0,
            lyap_fast_stiff: false,
            floquet_transient_s: 20.0,
            sweep_param: String::new(),
            sweep_from: 0.0,
            sweep_to: 0.0,
            sweep_steps: 40.0,
            sweep_duration: 100.0,
            sweep_transient_returns: 50.0,
            sweep_column: String::new(),
            map_x_param: String::new(),
            map_x_range: (0.0, 0.0),
            map_y_param: String::new(),
            map_y_range: (0.0, 0.0),
            map_steps: 20.0,
            map_duration_s: 60.0,
            map_transient_fraction: 0.5,
            map_lyapunov: false,
            friction_by_temperature: false,
            friction_speed_mps: (0.0, 0.0),
            friction_temperature_k: (0.0, 0.0),
            friction_steps: 7.0,
            friction_seeds: 4.0,
            friction_transient_periods: 1.0,
            friction_measure_periods: 5.0,
            source: SeriesSource::Simulation,
            signal: String::new(),
            max_samples: 20_000.0,
            delay: None,
            dim: None,
            attractor_delay: 10.0,
            attractor_points: false,
            yaw: 0.6,
            pitch: 0.35,
        }
    }
}
