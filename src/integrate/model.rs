//! The interface between a simulated system and the integrators.

use super::SimError;
pub use super::column::Column;
use super::jacobian_structure::JacobianStructure;
use super::rk4_batch::Rk4Batch;
use crate::systems::{Restart, SystemSpec};

/// A hybrid dynamical system `ẏ = f(t, y, mode)` with event functions and mode switches.
///
/// Continuous state `y` has [`dim`](Model::dim) components; the last
/// [`n_quadratures`](Model::n_quadratures) of them are pure integrals (work, energy) that feed
/// nothing back and are excluded from error control and from the Jacobian.
/// The discrete mode lives inside the model and only changes in
/// [`initialize`](Model::initialize), [`apply_event`](Model::apply_event) and
/// [`after_step`](Model::after_step).
///
/// Events: event function `g_i` is positive while the current mode is valid; the driver
/// triggers event `i` when `g_i` goes from `≥ 0` to `< 0` over a step, locates the time on the
/// solution and calls [`apply_event`](Model::apply_event).
pub trait Model {
    /// Number of continuous state components.
    fn dim(&self) -> usize;

    /// Number of trailing quadrature components (not error-controlled).
    fn n_quadratures(&self) -> usize {
        0
    }

    /// Names of the state components (for error messages).
    fn state_names(&self) -> Vec<String>;

    /// Typical magnitude of each state component; the absolute tolerance is `rtol·scale`.
    fn state_scales(&self, scales: &mut [f64]);

    /// Whether `f` depends on `t` explicitly (enables the time-derivative term of Rosenbrock).
    fn is_autonomous(&self) -> bool {
        false
    }

    /// Characteristic time of the dynamics [s] (an oscillation period over 2π): what "a small
    /// step" and "a first step" are measured against. One second (the default) suits the
    /// bench; an atomic model oscillates in microseconds or picoseconds.
    fn time_scale_s(&self) -> f64 {
        1.0
    }
    /// Largest step the integrator may take from time `t_s` [s] (e.g. so a short load bump is
    /// not stepped over; a bump's start being a breakpoint, the cap need only hold inside it).
    fn max_step_s(&self, _t_s: f64) -> f64 {
        f64::INFINITY
    }

    /// The next time after `t` at which the right-hand side has a kink or jump in time (a grid
    /// point of a sampled input); steps end exactly there so no step straddles it.
    fn next_breakpoint_s(&self, _t: f64) -> f64 {
        f64::INFINITY
    }

    /// Sets the initial mode from the initial state; may adjust `y` (e.g. enforce stick).
    fn initialize(&mut self, _t: f64, _y: &mut [f64]) -> Result<(), SimError> {
        Ok(())
    }

    /// Right-hand side `dy = f(t, y)` in the current mode.
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]);

    /// Analytic Jacobian `∂f/∂y` restricted to the non-quadrature columns, row-major
    /// `dim × (dim − n_quadratures)`; `false` (the default) lets the integrator difference
    /// numerically.
    fn jacobian(&self, _t: f64, _y: &[f64], _jac: &mut [f64]) -> bool {
        false
    }

    /// Number of event functions.
    fn n_events(&self) -> usize {
        0
    }

    /// Event functions `g` (positive while the mode is valid).
    fn events(&self, _t: f64, _y: &[f64], _g: &mut [f64]) {}

    /// Handles event `index` at time `t`; may change the mode and reset `y`.
    fn apply_event(&mut self, _index: usize, _t: f64, _y: &mut [f64]) -> Result<(), SimError> {
        Ok(())
    }

    /// The output's time column: seconds (the default), or the model's own time unit (a
    /// dimensionless model says so, so that axes and spectra are not labelled in s and Hz).
    fn time_column(&self) -> Column {
        Column::new("t", "s").role(super::column::Role::Time)
    }

    /// Whether the output gets a row just before and just after every mode switch (flagged
    /// in the event column), besides the regular samples. A chain of many blocks declines: a
    /// row of all its blocks at every switch of one block would make the output cost grow
    /// like N² per model-second.
    fn records_switch_rows(&self) -> bool {
        true
    }

    /// Puts a state placed by hand (a Lyapunov shadow's reseed) onto the constraints of the
    /// current discrete modes, keeping the modes: a contact in set-valued stick moves with its
    /// counter-surface. Without it a reseeded shadow could "stick" while sliding (its stick
    /// dynamics keep any velocity it was given). The default does nothing.
    fn project(&self, _t: f64, _y: &mut [f64]) {}

    /// A copy of the model with its current discrete modes and law memories: a perturbed
    /// trajectory restarted from it (a flow-map column, a reset differenced for a saltation
    /// matrix) continues in the same modes instead of having them chosen afresh by
    /// [`initialize`](Model::initialize). `None` (the default): the model cannot be copied and
    /// callers fall back to re-initialising, and to resets taken as the identity.
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        None
    }

    /// Called after each accepted step (projections, algebraic updates).
    /// Returns `true` if it changed `y` or the mode (the integrator then restarts).
    fn after_step(&mut self, _t: f64, _y: &mut [f64]) -> bool {
        false
    }

    /// Output columns of [`observe`](Model::observe), without `t` (the driver adds it first).
    fn columns(&self) -> Vec<Column>;

    /// Fills one output row (same order as [`columns`](Model::columns)).
    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]);

    /// Names of the Poincaré sections the model offers (e.g. "stick onset").
    fn section_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// Section functions: a point is recorded when `s_i` crosses zero upwards (`< 0 → ≥ 0`),
    /// located on the dense solution.
    fn sections(&self, _t: f64, _y: &[f64], _s: &mut [f64]) {}

    /// Takes new parameters while running (a slider moved): the system and its contacts' laws
    /// take `spec`'s values in place, keeping the state, the discrete modes and the laws'
    /// memories; the driver then calls [`resume`](Model::resume). `Err` when the change needs
    /// a fresh start (another law, another number of states or events); the model is then
    /// left as it was. The default refuses.
    fn reconfigure(&mut self, _spec: &SystemSpec) -> Result<(), Restart> {
        Err(Restart::Unsupported)
    }

    /// Continues from the current state after [`reconfigure`](Model::reconfigure): keeps
    /// modes and memories, and switches any mode whose guard the new parameters violate (a
    /// lowered static threshold breaks a stuck contact away) exactly as the event would have.
    /// The default chooses the mode afresh with [`initialize`](Model::initialize), right for
    /// models without memory.
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.initialize(t, y)
    }

    /// Whether the model is stiff enough to need an implicit integrator by default.
    fn prefers_implicit(&self) -> bool {
        true
    }

    /// Takes fixed-step RK4 steps with a statically dispatched right-hand side: a model that
    /// can, calls [`Rk4Batch::run`] with its concrete self and returns `true`. The batch must
    /// behave exactly like [`rhs`](Model::rhs) and [`events`](Model::events); models whose
    /// [`after_step`](Model::after_step) acts must decline. The default declines, and the
    /// driver then takes every step through the general path.
    fn rk4_batch(&self, _batch: &mut Rk4Batch<'_>) -> bool {
        false
    }

    /// Which entries of the dynamic Jacobian block `∂f_d/∂y_d` (`n_d × n_d`,
    /// `n_d = dim − n_quadratures`, state order) may be non-zero, in any mode. The default,
    /// [`Dense`](JacobianStructure::Dense), suits small systems; a large model (a chain of
    /// blocks) declares [`Banded`](JacobianStructure::Banded) or
    /// [`Sparse`](JacobianStructure::Sparse), and the Rosenbrock stepper then differences
    /// groups of structurally orthogonal columns together (Curtis–Powell–Reid) and factors with
    /// a sparse LU. Queried once per run; it must stay fixed while [`dim`](Model::dim) does.
    fn jacobian_structure(&self) -> JacobianStructure {
        JacobianStructure::Dense
    }

    /// Analytic values of the declared structure's entries, in **pattern order**: the order of
    /// [`JacobianStructure::pattern`] (column by column, rows ascending; for a band, column `j`
    /// holds rows `j − upper ..= j + lower` clipped to the block). Only the structured path
    /// calls it, and only the dynamic block: the quadrature rows are differenced. `false` (the
    /// default) lets the integrator difference numerically.
    fn jacobian_sparse(&self, _t: f64, _y: &[f64], _values: &mut [f64]) -> bool {
        false
    }
}

/// Damping rate above which a damped oscillator counts as stiff, in units of its highest
/// natural angular frequency (`γ/m > 20·ω_max`). The fast eigenvalue is then `≈ −γ/m` and the
/// motion follows the slow one, `≈ −m·ω²/γ`: an explicit method's stability limit holds it at
/// steps of `3/(γ/m)` (an overdamped atom at γ/m = 3·10¹⁹/s took hours per nanosecond).
pub const STIFF_DAMPING_RATIO: f64 = 20.0;

/// Whether damping `rate_per_s = γ/m` makes an oscillator of top frequency `omega_max_rad_per_s`
/// stiff ([`STIFF_DAMPING_RATIO`]).
pub fn damping_is_stiff(rate_per_s: f64, omega_max_rad_per_s: f64) -> bool {
    rate_per_s > STIFF_DAMPING_RATIO * omega_max_rad_per_s
}
