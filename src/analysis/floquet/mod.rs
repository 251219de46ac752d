//! Floquet multipliers of a periodic orbit (MODELS §4.3).
//!
//! 1. **Transient.** Integrate from the initial state for `transient_s`, recording the natural
//!    Poincaré section (MODELS §4.2): stroboscopic `t = k·T` for a forced system, otherwise the
//!    model's section (stick onset `v_rel = 0` for laws with exact stick, turning point `ẋ = 0`
//!    for smooth laws). The last points give the orbit's period as a number `K` of section
//!    returns (`K > 1`: subharmonic or multi-loop orbit) and the first guess.
//! 2. **Shooting.** Newton on `P^K(u) − u = 0` for the Poincaré map `P`: forced, `u` is the
//!    dynamic state at phase 0 and `P` the flow over `K·T`; autonomous, `u` are the state
//!    coordinates that parametrise the section (the coordinate with the largest scaled gradient
//!    of the section function is solved for) and `P` the `K`-th return. `DP` by central
//!    differences.
//! 3. **Monodromy** `Φ(T)`: central differences of the flow map over one period from a base
//!    point on the orbit — the fixed point for forced orbits and smooth fields, the middle of
//!    the longest switch-free arc for autonomous orbits with mode switches (so no perturbed
//!    start sits on a switching surface).
//!    The flow map of the event-driven integration contains the saltation matrices of every
//!    switch (entering stick collapses the perturbation: a zero multiplier). The variational
//!    equations are an alternative (`JacobianMethod::Variational`), with the saltation matrices
//!    of the switches for models that switch modes.
//! 4. **Multipliers** `m_i = eig Φ(T)`. Autonomous orbits have a trivial multiplier 1 (flow
//!    direction), reported separately as an accuracy check; the non-trivial ones are
//!    `eig DP` on the section. Verdict from the non-trivial multipliers.
//!
//! Every flow map starts in the modes and law memories the orbit has at its start (a copy of
//! the model taken at the Poincaré point or at the base point, [`ModeSnapshot`]), not in modes
//! chosen afresh: a perturbed start inside a compliant stick stays stuck.
//!
//! Central-difference increments: `h_j = δ·max(|y_j|, scale_j)` with the model's state scales
//! (1 cm and 1 cm/s on the belt–block). A central difference of a map computed with relative
//! noise `ε` errs by `~ε/δ + C·δ²`, least near `δ = ∛ε`. The noise of the integrated flow map,
//! measured on the shipped presets, is `ε ≈ 1e-3·rtol` for the explicit integrators (Dormand–Prince
//! with events located to 1e-12 s) and `ε ≈ 1e2·rtol` for Rodas4 (finite-difference Jacobian,
//! 3rd-order dense output), so the default is `δ = ∛ε` clamped to `[1e-6, 1e-3]`: 4.6e-5 and 1e-3
//! at rtol 1e-10.

mod shooting;
mod variational;
pub mod verdict;

use nalgebra::{Complex, DMatrix};
use rayon::prelude::*;

pub use verdict::{Crossing, Stability};

use super::dynamics::{Dynamics, SectionChoice, section_name};
use super::probe::{FlowError, ModeSnapshot, ProbeSink, flow, probe_simulation};
use crate::integrate::driver::{DriverSettings, SectionId};
use crate::integrate::{Method, Model, SimError};
use shooting::{Shooting, detect_returns};

/// How the monodromy matrix is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JacobianMethod {
    /// Central differences of the flow map (any model, event-driven ones included).
    #[default]
    FlowMap,
    /// Variational equations `Φ̇ = JΦ`, with the saltation matrix of every switch for models
    /// with mode switches.
    Variational,
}

/// Settings of [`floquet`].
#[derive(Clone, Debug, PartialEq)]
pub struct FloquetOptions {
    /// Model time integrated before the orbit is sought [s] (forced systems: at least 12
    /// forcing periods).
    pub transient_s: f64,
    /// Poincaré section.
    pub section: SectionChoice,
    /// Largest number of section returns per period looked for.
    pub max_returns: usize,
    /// Section returns per period, if known (skips the detection; needed for unstable orbits,
    /// which the transient does not settle on).
    pub returns: Option<usize>,
    /// Newton stops when the scaled residual `|P(u) − u|/scale` falls below this.
    pub newton_tol: f64,
    /// Newton iteration limit.
    pub max_newton: usize,
    /// Relative central-difference increment `δ` (default from the integrator's noise, see the
    /// module documentation).
    pub fd_step: Option<f64>,
    /// Monodromy method.
    pub jacobian: JacobianMethod,
    /// `||m| − 1|` below which the critical multiplier counts as on the unit circle.
    pub marginal_tol: f64,
    /// Worker threads (default: available parallelism).
    pub threads: Option<usize>,
}

impl Default for FloquetOptions {
    fn default() -> Self {
        Self {
            transient_s: 60.0,
            section: SectionChoice::Auto,
            max_returns: 8,
            returns: None,
            newton_tol: 1e-9,
            max_newton: 20,
            fd_step: None,
            jacobian: JacobianMethod::FlowMap,
            marginal_tol: 1e-4,
            threads: None,
        }
    }
}

/// Why no multipliers could be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FloquetError {
    /// Load noise or a heat bath makes every orbit aperiodic.
    #[error(
        "the motion is random, so aperiodic (normal-load noise or a temperature above 0 K): no periodic orbit — turn the noise off or set the temperature to 0"
    )]
    Stochastic,
    /// The system has no tangent equations to follow (it says why).
    #[error("{0}")]
    NoTangent(&'static str),
    /// Nothing to take a section of.
    #[error("the system is not forced and the model offers no Poincaré section")]
    NoSection,
    /// Too few section points in the transient.
    #[error(
        "only {crossings} crossing(s) of the {section} section in the {transient_s} s transient: \
         the run settles to an equilibrium or the transient is too short"
    )]
    NoOscillation {
        /// Section name.
        section: String,
        /// Crossings counted.
        crossings: usize,
        /// Transient length [s].
        transient_s: f64,
    },
    /// An integration failed.
    #[error("{stage}: {source}")]
    Flow {
        /// What was being computed.
        stage: &'static str,
        /// The failure.
        source: FlowError,
    },
    /// Newton did not converge.
    #[error(
        "no periodic orbit found: Newton stopped after {iterations} iterations with scaled \
         residual {residual:e} ({returns} section return(s) per period tried; the motion may \
         be quasi-periodic or chaotic)"
    )]
    NotConverged {
        /// Iterations done.
        iterations: usize,
        /// Last scaled residual.
        residual: f64,
        /// Section returns per period.
        returns: usize,
    },
    /// `DP − I` is singular: a multiplier equals 1 on the section.
    #[error("the Newton matrix DP − I is singular (a non-trivial multiplier equals 1)")]
    Singular,
    /// The system has too many states for the monodromy matrix.
    #[error(
        "the system has {states} states; the monodromy matrix needs one perturbed period per \
         state, which this tool does for at most {MAX_FLOQUET_STATES} (choose fewer blocks or \
         elements)"
    )]
    TooManyStates {
        /// Dynamic states of the system.
        states: usize,
    },
}

/// Most dynamic states a Floquet analysis takes: the monodromy is built from one perturbed
/// period (or one variational direction) per state and its eigenvalues cost `O(n³)`; a chain
/// of a hundred blocks is beyond what a window should start on a click.
pub const MAX_FLOQUET_STATES: usize = 64;

/// Multipliers and verdict of one periodic orbit.
#[derive(Clone, Debug, PartialEq)]
pub struct FloquetReport {
    /// Whether the orbit is of a periodically forced system (no trivial multiplier).
    pub forced: bool,
    /// Section used.
    pub section: String,
    /// Section returns per period (`K`; forcing periods per orbit period when forced).
    pub returns: usize,
    /// Period of the orbit [s].
    pub period_s: f64,
    /// Names of the dynamic state components.
    pub state_names: Vec<String>,
    /// Fixed point on the section (dynamic components).
    pub fixed_point: Vec<f64>,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// Final scaled residual `max_j |P(u) − u|_j / scale_j`.
    pub residual: f64,
    /// Events per period: mode switches (stick/slip) and, for laws with a kink at `v_rel = 0`,
    /// velocity reversals.
    pub switches_per_period: usize,
    /// Whether the vector field has no mode switches ([`Dynamics::smooth`]); events of a smooth
    /// field only mark kinks, with identity saltation.
    pub smooth_field: bool,
    /// Monodromy method.
    pub method: JacobianMethod,
    /// Time from the fixed point to the base point of the monodromy [s].
    pub base_offset_s: f64,
    /// Monodromy matrix `Φ(T)` over the dynamic components.
    pub monodromy: DMatrix<f64>,
    /// Floquet multipliers `eig Φ(T)`, largest modulus first.
    pub multipliers: Vec<Complex<f64>>,
    /// Index in `multipliers` of the trivial multiplier (autonomous orbits; exact value 1).
    pub trivial_index: Option<usize>,
    /// Multipliers of the Poincaré-map Jacobian on the section (the non-trivial ones).
    pub map_multipliers: Vec<Complex<f64>>,
    /// `∫₀ᵀ tr J dt` (variational method only): `Π m_i = exp` of it.
    pub trace_integral: Option<f64>,
    /// Verdict from the non-trivial multipliers.
    pub stability: Stability,
}

impl FloquetReport {
    /// The trivial multiplier as computed (autonomous orbits).
    pub fn trivial(&self) -> Option<Complex<f64>> {
        self.trivial_index.map(|i| self.multipliers[i])
    }

    /// Floquet exponents `ln|m_i|/T` [1/s].
    pub fn exponents(&self) -> Vec<f64> {
        self.multipliers
            .iter()
            .map(|m| m.norm().ln() / self.period_s)
            .collect()
    }
}

fn sim_err(stage: &'static str) -> impl Fn(SimError) -> FloquetError {
    move |e| FloquetError::Flow {
        stage,
        source: FlowError::Sim(e),
    }
}

/// Finds the periodic orbit the run from the initial state settles on and computes its
/// multipliers.
pub fn floquet(
    dynamics: &dyn Dynamics,
    options: &FloquetOptions,
) -> Result<FloquetReport, FloquetError> {
    super::parallel::with_pool(options.threads, || floquet_in_pool(dynamics, options))
}

fn floquet_in_pool(
    dynamics: &dyn Dynamics,
    options: &FloquetOptions,
) -> Result<FloquetReport, FloquetError> {
    if let Some(why) = dynamics.tangent_refusal() {
        return Err(FloquetError::NoTangent(why));
    }
    if dynamics.is_stochastic() {
        return Err(FloquetError::Stochastic);
    }
    let (model, y0) = dynamics.build();
    let forcing = dynamics.forcing_period_s();
    let section = options
        .section
        .resolve(model.section_names().len(), forcing, dynamics.exact_stick())
        .ok_or(FloquetError::NoSection)?;
    let n = model.dim();
    let nd = n - model.n_quadratures();
    if nd > MAX_FLOQUET_STATES {
        return Err(FloquetError::TooManyStates { states: nd });
    }
    let mut scales = vec![1.0; n];
    model.state_scales(&mut scales);
    let state_names: Vec<String> = model.state_names().into_iter().take(nd).collect();

    // 1. Transient with every section recorded (forced: at least 12 forcing periods, so the
    //    second half holds the points of orbits of up to 3 periods twice).
    let transient_s = match forcing {
        Some(p) => options.transient_s.max(12.0 * p),
        None => options.transient_s,
    };
    let mut sim =
        probe_simulation(dynamics, &y0, 0.0, f64::MAX / 4.0, None).map_err(sim_err("transient"))?;
    sim.track_sections(forcing);
    let mut sink = ProbeSink::new(false).with_modes();
    sim.advance(transient_s, &mut sink)
        .map_err(sim_err("transient"))?;
    let points_of = |id: SectionId| -> Vec<(f64, Vec<f64>)> {
        sink.sections
            .iter()
            .filter(|(s, t, _)| *s == id && *t > 0.5 * transient_s)
            .map(|(_, t, y)| (*t, y.clone()))
            .collect()
    };
    let needed = 2 * options.max_returns.max(1) + 1;
    let mut chosen = (section, points_of(section));
    if chosen.1.len() < needed
        && matches!(options.section, SectionChoice::Auto)
        && forcing.is_none()
    {
        // Another model section may be crossed (e.g. a pure-slip cycle never sticks).
        for i in 0..model.section_names().len() {
            let pts = points_of(SectionId::Model(i));
            if pts.len() >= needed {
                chosen = (SectionId::Model(i), pts);
                break;
            }
        }
    }
    let (section, points) = chosen;
    let name = section_name(model.as_ref(), section);
    if points.len() < 3 {
        return Err(FloquetError::NoOscillation {
            section: name,
            crossings: points.len(),
            transient_s,
        });
    }
    let fd_step = options
        .fd_step
        .unwrap_or_else(|| default_fd_step(model.as_ref(), &dynamics.settings()));
    let returns = match options.returns {
        Some(k) => k.max(1),
        None => detect_returns(&points, nd, &scales, options.max_returns),
    };
    // The model as it was at the guess (modes, law memories): every flow map below restarts
    // from it instead of choosing modes afresh.
    let guess_modes = points.last().and_then(|p| sink.modes_at(section, p.0));
    let guess = points.last().map(|p| p.1.clone()).unwrap_or(y0);
    let spacing = {
        let m = points.len();
        (points[m - 1].0 - points[0].0) / (m - 1) as f64
    };

    // 2. Shooting.
    let shoot = Shooting {
        dynamics,
        section,
        forcing_period_s: forcing,
        returns,
        scales: scales.clone(),
        nd,
        fd_step,
        period_guess_s: spacing * returns as f64,
        modes: guess_modes,
    };
    let orbit = shoot.newton(&guess, options.newton_tol, options.max_newton)?;

    // 3. Monodromy from a base point away from switches.
    let period = orbit.period_s;
    let smooth_field = dynamics.smooth();
    let base_offset = if forcing.is_some() || smooth_field {
        0.0
    } else {
        base_offset(&orbit.event_times, period)
    };
    let base_flow = flow(dynamics, &orbit.state, 0.0, base_offset, guess_modes)
        .map_err(sim_err("base point"))?;
    let base = base_flow.y;
    let (monodromy, trace_integral) = match options.jacobian {
        JacobianMethod::Variational if smooth_field => {
            let (phi, tr) = variational::monodromy(dynamics, &base, 0.0, period)
                .map_err(sim_err("variational equations"))?;
            (phi, Some(tr))
        }
        JacobianMethod::Variational => {
            let phi = variational::monodromy_with_switches(
                dynamics,
                &base,
                base_flow.modes.as_ref(),
                0.0,
                period,
            )
            .map_err(sim_err("variational equations with saltation matrices"))?;
            (phi, None)
        }
        JacobianMethod::FlowMap if forcing.is_some() => (orbit.map_jacobian.clone(), None),
        JacobianMethod::FlowMap => (
            flow_jacobian(
                dynamics,
                &base,
                base_flow.modes.as_ref(),
                period,
                nd,
                &scales,
                fd_step,
            )?,
            None,
        ),
    };

    // 4. Multipliers and verdict.
    let multipliers = verdict::eigenvalues(&monodromy);
    let (trivial_index, map_multipliers) = if forcing.is_some() {
        (None, multipliers.clone())
    } else {
        let trivial = multipliers
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - 1.0).norm().total_cmp(&(b.1 - 1.0).norm()))
            .map(|(i, _)| i);
        (trivial, verdict::eigenvalues(&orbit.map_jacobian))
    };
    let stability = Stability::classify(&map_multipliers, options.marginal_tol);
    Ok(FloquetReport {
        forced: forcing.is_some(),
        section: name,
        returns,
        period_s: period,
        state_names,
        fixed_point: orbit.state[..nd].to_vec(),
        newton_iterations: orbit.iterations,
        residual: orbit.residual,
        switches_per_period: orbit.event_times.len(),
        smooth_field,
        method: options.jacobian,
        base_offset_s: base_offset,
        monodromy,
        multipliers,
        trivial_index,
        map_multipliers,
        trace_integral,
        stability,
    })
}

/// `δ = ∛ε` for the flow-map noise `ε` of the integrator that will run (module documentation).
fn default_fd_step(model: &dyn Model, settings: &DriverSettings) -> f64 {
    let implicit = match settings.method {
        Method::Rodas4 | Method::Rodas5 => true,
        Method::Auto => model.prefers_implicit(),
        Method::Dopri5 | Method::Rk4 => false,
    };
    let noise = settings.rtol * if implicit { 1e2 } else { 1e-3 };
    noise.cbrt().clamp(1e-6, 1e-3)
}

/// Middle of the longest switch-free arc of the orbit, as time after the fixed point.
fn base_offset(event_times: &[f64], period_s: f64) -> f64 {
    if event_times.is_empty() {
        return 0.0;
    }
    let mut e: Vec<f64> = event_times.iter().map(|t| t.rem_euclid(period_s)).collect();
    e.sort_by(f64::total_cmp);
    let mut best = (e[e.len() - 1], e[0] + period_s);
    for w in e.windows(2) {
        if w[1] - w[0] > best.1 - best.0 {
            best = (w[0], w[1]);
        }
    }
    (0.5 * (best.0 + best.1)).rem_euclid(period_s)
}

/// Central differences of the flow map `y ↦ φ_T(y)` over the dynamic components at `base`,
/// every perturbed start in the modes the orbit has there (`modes`).
fn flow_jacobian(
    dynamics: &dyn Dynamics,
    base: &[f64],
    modes: Option<&ModeSnapshot>,
    period_s: f64,
    nd: usize,
    scales: &[f64],
    fd_step: f64,
) -> Result<DMatrix<f64>, FloquetError> {
    let columns: Vec<Vec<f64>> = (0..nd)
        .into_par_iter()
        .map(|j| {
            let h = fd_step * base[j].abs().max(scales[j]);
            let mut yp = base.to_vec();
            yp[j] += h;
            let mut ym = base.to_vec();
            ym[j] -= h;
            let fp = flow(dynamics, &yp, 0.0, period_s, modes)?.y;
            let fm = flow(dynamics, &ym, 0.0, period_s, modes)?.y;
            Ok((0..nd).map(|i| (fp[i] - fm[i]) / (2.0 * h)).collect())
        })
        .collect::<Result<_, SimError>>()
        .map_err(sim_err("monodromy"))?;
    Ok(DMatrix::from_fn(nd, nd, |i, j| columns[j][i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_point_is_mid_longest_switch_free_arc() {
        // Switches at 0.2 and 0.671 of a 0.671 s period: longest arc 0.2 → 0.671.
        let b = base_offset(&[0.2, 0.671], 0.671);
        assert!((b - 0.4355).abs() < 1e-12, "{b}");
        // Wrap-around arc: switches at 0.1 and 0.3 of 1 s → arc 0.3 → 1.1, middle 0.7.
        assert!((base_offset(&[0.1, 0.3], 1.0) - 0.7).abs() < 1e-12);
        assert_eq!(base_offset(&[], 2.0), 0.0);
    }
}
