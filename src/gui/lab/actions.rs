//! Starting and cancelling analysis jobs from the session's settings, and loading a swept
//! value into the live run.

use crate::analysis::FloquetOptions;
use crate::analysis::dynamics::SectionChoice;
use crate::analysis::friction_sweep::{FrictionSweepSpec, Span};
use crate::analysis::lyapunov::LyapunovOptions;
use crate::analysis::pipeline::PipelineOptions;
use crate::analysis::regime_map::{self, Axis, MapSpec, Shard};
use crate::analysis::sweep::{SweepSpec, Transient, linspace};
use crate::gui::TriboApp;
use crate::gui::jobs::{Job, JobKind};
use crate::integrate::Role;
use crate::params::fmt_num;
use crate::systems::HeatBathKeys;

use super::{ActiveJob, MapView, PickedValue, SeriesSource, SweepView};

impl TriboApp {
    /// Submits a job, replacing (cancelling) the one in progress.
    pub(super) fn submit(&mut self, job: Job) {
        let kind = job.kind();
        let Some(handle) = self.lab.handle.as_mut() else {
            self.lab.set_outcome(
                kind,
                Some("the analysis thread is not running (it could not be started)".into()),
            );
            return;
        };
        let id = handle.submit(job);
        self.lab.set_outcome(kind, None);
        self.lab.active = Some(ActiveJob {
            id,
            kind,
            fraction: 0.0,
            text: "starting…".into(),
            cancelling: false,
        });
    }

    /// Asks the job in progress to stop.
    pub fn cancel_analysis(&mut self) {
        if let (Some(h), Some(a)) = (self.lab.handle.as_ref(), self.lab.active.as_mut()) {
            h.cancel();
            a.cancelling = true;
        }
    }

    /// The Lyapunov options the panel's settings ask for (flows in seconds, maps in iterations).
    pub fn lyapunov_options(&self) -> LyapunovOptions {
        let s = &self.session.view.lab;
        let (duration, transient, tau) = if self.session.preset.system.is_map() {
            (s.lyap_map_duration, s.lyap_map_transient, s.lyap_map_tau)
        } else {
            (s.lyap_duration_s, s.lyap_transient_s, s.lyap_tau_s)
        };
        LyapunovOptions {
            transient,
            duration,
            renorm_interval: tau,
            fast_stiff: s.lyap_fast_stiff,
            ..LyapunovOptions::default()
        }
    }

    /// Starts the Lyapunov spectrum of the current preset (as edited).
    pub fn start_lyapunov(&mut self) {
        let options = self.lyapunov_options();
        self.lab.lyapunov = None;
        self.submit(Job::Lyapunov {
            preset: Box::new(self.session.preset.clone()),
            options,
        });
    }

    /// Starts the search for the periodic orbit and its Floquet multipliers.
    pub fn start_floquet(&mut self) {
        let preset = self.session.preset.clone();
        let rtol = preset.run.rtol.min(1e-10);
        let options = FloquetOptions {
            transient_s: self.session.view.lab.floquet_transient_s,
            ..FloquetOptions::default()
        };
        self.lab.floquet = None;
        self.submit(Job::Floquet {
            preset: Box::new(preset),
            options,
            rtol,
        });
    }

    /// Starts the bifurcation sweep the panel describes.
    pub fn start_sweep(&mut self) {
        let s = &self.session.view.lab;
        let steps = s.sweep_steps.round().max(1.0) as usize;
        let mut spec = SweepSpec::new(
            &s.sweep_param,
            s.sweep_from,
            s.sweep_to,
            steps,
            s.sweep_duration,
        );
        spec.transient = Transient::Returns(s.sweep_transient_returns.round().max(0.0) as usize);
        self.lab.sweep = Some(SweepView {
            param: spec.param.clone(),
            values: spec.values.clone(),
            ..SweepView::default()
        });
        self.lab.picked = None;
        self.submit(Job::Sweep {
            preset: Box::new(self.session.preset.clone()),
            spec,
        });
    }

    /// Starts the regime map the panel describes.
    pub fn start_regime_map(&mut self) {
        let s = &self.session.view.lab;
        let steps = s.map_steps.round().clamp(1.0, 1000.0) as usize;
        let duration_s = s.map_duration_s.max(1e-9);
        let spec = MapSpec {
            x: Axis::new(&s.map_x_param, s.map_x_range.0, s.map_x_range.1, steps),
            y: Axis::new(&s.map_y_param, s.map_y_range.0, s.map_y_range.1, steps),
            duration_s,
            transient: Transient::Seconds(s.map_transient_fraction.clamp(0.0, 0.95) * duration_s),
            section: SectionChoice::Auto,
            shard: Shard::ALL,
            threads: None,
            lyapunov: s.map_lyapunov,
        };
        let preset = self.session.preset.clone();
        let (boundary_symbol, boundary) = regime_map::stability_curve(&preset, &spec);
        let amplitude_unit = self
            .run
            .columns
            .iter()
            .find(|c| c.role == Role::Position(0))
            .map(|c| c.unit.clone())
            .unwrap_or_default();
        self.lab.map = Some(MapView {
            cells: vec![None; spec.cells()],
            spec: spec.clone(),
            preset: Box::new(preset.clone()),
            amplitude_unit,
            boundary,
            boundary_symbol,
            complete: false,
            cancelled: false,
        });
        self.submit(Job::RegimeMap {
            preset: Box::new(preset),
            spec,
        });
    }

    /// Loads a cell's two parameter values into the live run.
    pub fn load_map_cell(&mut self, x_param: &str, x: f64, y_param: &str, y: f64) {
        let set = self
            .session
            .preset
            .set_path(x_param, &format!("{x}"))
            .and_then(|()| self.session.preset.set_path(y_param, &format!("{y}")));
        match set {
            Ok(()) => self.apply_preset(),
            Err(e) => self.show_error(
                "Cannot load the cell",
                format!(
                    "{x_param} = {}, {y_param} = {}: {e}",
                    fmt_num(x),
                    fmt_num(y)
                ),
            ),
        }
    }

    /// Runs the series pipeline on the chosen source (simulation column or imported file).
    pub fn start_series(&mut self) {
        let s = &self.session.view.lab;
        let max = s.max_samples.round().max(200.0) as usize;
        let input = match s.source {
            SeriesSource::Imported => self
                .lab
                .imported
                .as_ref()
                .map(|i| super::series::from_imported(i, max)),
            SeriesSource::Simulation => super::series::from_history(&self.history, &s.signal, max),
        };
        let Some(input) = input else {
            let why = match s.source {
                SeriesSource::Imported => "no series imported yet (File → Import measured series)",
                SeriesSource::Simulation => "the simulation has no samples of this signal yet",
            };
            self.lab.set_outcome(JobKind::Series, Some(why.into()));
            return;
        };
        let options = PipelineOptions {
            delay: s.delay,
            dim: s.dim,
            ..PipelineOptions::default()
        };
        self.submit(Job::Series {
            input: Box::new(input),
            options,
        });
    }

    /// Sets the swept parameter of the current preset to `value` and applies it to the live
    /// run (a live change, or a restart when the parameter needs one).
    pub fn load_sweep_value(&mut self, param: &str, value: f64, y: Option<f64>) {
        match self.session.preset.set_path(param, &format!("{value}")) {
            Ok(()) => {
                self.lab.picked = Some(PickedValue {
                    param: param.to_string(),
                    value,
                    y,
                });
                self.apply_preset();
            }
            Err(e) => self.show_error(
                "Cannot load the value",
                format!("{param} = {}: {e}", fmt_num(value)),
            ),
        }
    }
}

impl TriboApp {
    /// The friction sweep the panel's settings ask for, or why there is none.
    pub fn friction_sweep_spec(&self) -> Result<FrictionSweepSpec, String> {
        let p = &self.session.preset;
        let keys = p
            .system
            .heat_bath_keys()
            .ok_or("this system has no heat bath and drive speed")?;
        let s = &self.session.view.lab;
        let steps = s.friction_steps.round().max(1.0) as usize;
        let (key, values) = if s.friction_by_temperature {
            let (a, b) = friction_temperature_range(self);
            (keys.temperature, linspace(a, b, steps))
        } else {
            let (a, b) = friction_speed_range(self);
            if !(a > 0.0 && b > 0.0) {
                return Err("the speeds must be positive".into());
            }
            let logs = linspace(a.ln(), b.ln(), steps);
            (keys.speed, logs.into_iter().map(f64::exp).collect())
        };
        Ok(FrictionSweepSpec {
            param: format!("system.{key}"),
            values,
            seeds: (1..=s.friction_seeds.round().max(1.0) as u64).collect(),
            transient: Span::DrivePeriods(s.friction_transient_periods.max(0.0)),
            measure: Span::DrivePeriods(s.friction_measure_periods.max(0.1)),
            threads: None,
        })
    }

    /// Starts the friction sweep of the current preset (as edited).
    pub fn start_friction_sweep(&mut self) {
        match self.friction_sweep_spec() {
            Ok(spec) => {
                self.lab.friction = None;
                self.submit(Job::FrictionSweep {
                    preset: Box::new(self.session.preset.clone()),
                    spec,
                });
            }
            Err(message) => self.lab.set_outcome(JobKind::FrictionSweep, Some(message)),
        }
    }
}

/// The speed range of the friction sweep [m/s]: the settings', or a decade either side of the
/// current speed (slow speeds are costly: a run covers the same number of lattice periods).
pub fn friction_speed_range(app: &TriboApp) -> (f64, f64) {
    let (a, b) = app.session.view.lab.friction_speed_mps;
    if a > 0.0 && b > 0.0 {
        return (a, b);
    }
    let v = current(app, |k| k.speed).unwrap_or(1e-7).abs().max(1e-12);
    (v * 0.1, v * 10.0)
}

/// The temperature range of the friction sweep [K]: the settings', or 0 K to twice the current
/// temperature (300 K when it is 0).
pub fn friction_temperature_range(app: &TriboApp) -> (f64, f64) {
    let (a, b) = app.session.view.lab.friction_temperature_k;
    if b > a {
        return (a, b);
    }
    let t = current(app, |k| k.temperature).unwrap_or(0.0);
    (0.0, if t > 0.0 { 2.0 * t } else { 300.0 })
}

fn current(app: &TriboApp, key: impl Fn(HeatBathKeys) -> &'static str) -> Option<f64> {
    let system = &app.session.preset.system;
    let keys = system.heat_bath_keys()?;
    system.params().get(key(keys))
}
