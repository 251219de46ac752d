//! Lyapunov spectrum of a flow (variational equations + QR) and its flow Jacobian.

use std::collections::VecDeque;

use super::log::{SharedLog, lock};
use super::variational::{Schedule, Variational};
use super::{Estimate, LyapunovError, LyapunovOptions, Spectrum, SystemKind};
use crate::integrate::driver::{DriverSettings, SampleSink, SectionId};
use crate::integrate::{Method, Model, SimError, Simulation};

/// Largest number of Poincaré points kept for the classification (the newest).
pub const MAX_POINTS: usize = 4000;

/// Keeps the state part of the Poincaré points of one section after the transient.
pub(crate) struct PointSink {
    pub(crate) section: Option<SectionId>,
    pub(crate) from_t: f64,
    pub(crate) m: usize,
    pub(crate) points: VecDeque<Vec<f64>>,
}

impl SampleSink for PointSink {
    fn push(&mut self, _row: &[f64]) {}

    fn push_section(&mut self, section: SectionId, row: &[f64]) {
        if Some(section) == self.section && row[0] >= self.from_t {
            if self.points.len() == MAX_POINTS {
                self.points.pop_front();
            }
            self.points.push_back(row[1..1 + self.m].to_vec());
        }
    }
}

/// The kind of a flow model: autonomous, periodically forced (period given by the caller) or
/// aperiodically forced.
pub fn flow_kind(model: &dyn Model, forcing_period_s: Option<f64>) -> SystemKind {
    if model.is_autonomous() {
        SystemKind::Autonomous
    } else {
        match forcing_period_s {
            Some(p) if p.is_finite() && p > 0.0 => SystemKind::Forced { period: p },
            _ => SystemKind::Aperiodic,
        }
    }
}

/// Driver settings with output samples switched off (only events and section points).
fn quiet(settings: DriverSettings) -> DriverSettings {
    DriverSettings {
        output_interval_s: 1e300,
        ..settings
    }
}

/// A running spectrum computation of a flow; read [`estimate`](Self::estimate) at any time.
pub struct FlowSpectrum {
    sim: Simulation,
    log: SharedLog,
    sink: PointSink,
    kind: SystemKind,
    analytic: bool,
    t_end: f64,
}

impl FlowSpectrum {
    /// Prepares the spectrum of `model` from `y0` at `t = 0` (`opts.n_exponents` directions).
    pub fn new(
        model: Box<dyn Model + Send>,
        y0: Vec<f64>,
        settings: DriverSettings,
        opts: &LyapunovOptions,
    ) -> Result<Self, LyapunovError> {
        opts.check()?;
        let kind = flow_kind(model.as_ref(), opts.forcing_period_s);
        let m = super::jacobian::active_dim(model.as_ref());
        let k = opts.n_exponents.unwrap_or(m).clamp(1, m);
        let analytic = {
            let mut jac = vec![0.0; model.dim() * m];
            model.jacobian(0.0, &y0, &mut jac)
        };
        let implicit = match settings.method {
            Method::Auto => model.prefers_implicit(),
            // Both Rosenbrock methods (Rodas5 was missed: --fast-stiff did nothing there).
            m => matches!(m, Method::Rodas4 | Method::Rodas5),
        };
        let schedule = Schedule {
            transient_end: opts.transient,
            interval: opts.renorm_interval,
            history_capacity: opts.history_capacity,
            tangent_scale: if implicit && opts.fast_stiff {
                1.0 / settings.rtol
            } else {
                1.0
            },
        };
        let (var, ya) = Variational::new(model, &y0, 0.0, k, Some(schedule));
        let log = var.log();
        let section = match kind {
            SystemKind::Forced { .. } => Some(SectionId::Stroboscopic),
            _ if !var.section_names().is_empty() => Some(SectionId::Model(0)),
            _ => None,
        };
        let mut sim = Simulation::new(Box::new(var), ya, 0.0, quiet(settings))?;
        if section.is_some() {
            sim.track_sections(opts.forcing_period_s.filter(|_| kind.is_forced()));
        }
        Ok(Self {
            sim,
            log,
            sink: PointSink {
                section,
                from_t: opts.transient,
                m,
                points: VecDeque::new(),
            },
            kind,
            analytic,
            t_end: opts.transient + opts.duration,
        })
    }

    /// Integrates until `t ≥ t_stop`.
    pub fn advance(&mut self, t_stop: f64) -> Result<(), SimError> {
        self.sim.advance(t_stop, &mut self.sink)
    }

    /// Integrates to the end of the averaging (transient + duration).
    pub fn run(&mut self) -> Result<(), SimError> {
        self.advance(self.t_end)
    }

    /// Model time reached.
    pub fn time(&self) -> f64 {
        self.sim.time_s()
    }

    /// Integrator counters of the run.
    pub fn stats(&self) -> crate::integrate::Stats {
        self.sim.stats()
    }

    /// The running estimate now.
    pub fn estimate(&self) -> Estimate {
        let log = lock(&self.log);
        Estimate {
            averaging_time: log.averaging_time(),
            exponents: log.exponents(),
        }
    }

    /// The shared log (sums, counters, running-estimate history).
    pub fn log(&self) -> SharedLog {
        SharedLog::clone(&self.log)
    }

    /// The result so far.
    pub fn spectrum(&self) -> Spectrum {
        let log = lock(&self.log);
        Spectrum {
            exponents: log.exponents(),
            averaging_time: log.averaging_time(),
            kind: self.kind,
            method: if self.analytic {
                "variational equations (analytic Jacobian) + Gram–Schmidt"
            } else {
                "variational equations (central-difference Jacobian) + Gram–Schmidt"
            },
            integrator: self.sim.method_name(),
            mean_divergence: log.mean_divergence(),
            switches: log.switches,
            grazing: log.grazing,
            renormalisations: log.renormalisations,
            stats: self.sim.stats(),
            history: log.history.clone(),
            poincare_points: self.sink.points.iter().cloned().collect(),
        }
    }
}

/// Flow Jacobian `Φ = ∂x(t₁)/∂x(t₀)` (`m × m`, row-major, non-quadrature block) of a hybrid model
/// from `y0` at `t0`, with the saltation matrix of every switch on the way; returns the state
/// at `t₁` and `Φ`. For a periodic orbit over one period this is the monodromy matrix.
pub fn flow_jacobian(
    model: Box<dyn Model + Send>,
    y0: &[f64],
    t0: f64,
    t1: f64,
    settings: DriverSettings,
) -> Result<(Vec<f64>, Vec<f64>), SimError> {
    let m = super::jacobian::active_dim(model.as_ref());
    let (mut var, ya) = Variational::new(model, y0, t0, m, None);
    var.land_at(t1);
    let scales = var.scales().to_vec();
    let mut sim = Simulation::new(Box::new(var), ya, t0, quiet(settings))?;
    sim.advance(t1, &mut crate::integrate::driver::NullSink)?;
    let t = sim.time_s();
    if (t - t1).abs() > 1e-9 * t1.abs().max(1.0) {
        return Err(SimError::Model {
            t_s: t,
            message: format!("flow Jacobian: the integration did not land on t₁ = {t1}"),
        });
    }
    let y = sim.state();
    let q = &y[m..m + m * m];
    // Column c of q is D⁻¹·Φ·D·e_c: Φ_ic = s_i·q[c][i]/s_c.
    let mut phi = vec![0.0; m * m];
    for c in 0..m {
        for i in 0..m {
            phi[i * m + c] = scales[i] * q[c * m + i] / scales[c];
        }
    }
    let n_inner = y.len() - m * m - 1;
    let mut x = vec![0.0; n_inner];
    x[..m].copy_from_slice(&y[..m]);
    x[m..].copy_from_slice(&y[m + m * m..m + m * m + n_inner - m]);
    Ok((x, phi))
}
