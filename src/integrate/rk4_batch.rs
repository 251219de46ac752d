//! Runs of fixed-step RK4 steps with the right-hand side known at compile time.
//!
//! The general driver calls the model through `dyn Model` four times a step and does its
//! bookkeeping (events, output, finiteness) after every step. Between two output samples with
//! no event in sight that work is the same every step, so a model may offer a *batch*: it
//! hands the driver's [`Rk4Batch`] a concrete [`BatchRhs`] (for the belt–block, the system with
//! its law's concrete type), and [`Rk4Batch::run`] takes the steps in one monomorphised loop.
//!
//! The loop performs exactly the arithmetic of [`Rk4`](super::rk4::Rk4) in the same order, so
//! a run with batches is bit-for-bit the run without them. It stops *before* committing a step
//! after which an event function changed sign from `≥ 0` to `< 0`, a tracked Poincaré section
//! function from `< 0` to `≥ 0`, or the state left the driver's finite range ([`is_bounded`]),
//! and before the step that would reach the output time, the next stroboscopic time or the stop
//! time; the driver then takes that step through its general path (event location, section
//! points, dense output, error messages).

use super::is_bounded;

/// A right-hand side and event functions with a concrete type (statically dispatched).
pub trait BatchRhs {
    /// `dy = f(t, y)` in the current mode, as [`Model::rhs`](super::Model::rhs).
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]);

    /// Event functions, as [`Model::events`](super::Model::events).
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]);

    /// Poincaré section functions, as [`Model::sections`](super::Model::sections).
    fn sections(&self, t: f64, y: &[f64], s: &mut [f64]);
}

/// One request of the driver: step from `(t, y)` with step `h` while `t + h < t_limit`.
#[derive(Debug)]
pub struct Rk4Batch<'a> {
    /// Current time [s]; advanced by `h` per committed step (same rounding as the driver).
    pub t: f64,
    /// Current state; overwritten by each committed step.
    pub y: &'a mut [f64],
    /// Step size [s].
    pub h: f64,
    /// Steps end strictly before this time [s] (next output sample, stroboscopic time or stop
    /// time).
    pub t_limit: f64,
    /// Event functions at `(t, y)`; kept current.
    pub g: &'a mut [f64],
    /// Section functions at `(t, y)` when Poincaré sections are tracked (else empty); kept
    /// current.
    pub s: &'a mut [f64],
    /// Workspace.
    pub work: &'a mut Rk4BatchWork,
    /// Committed steps.
    pub steps: u64,
    /// Right-hand-side evaluations, including those of a step that was not committed.
    pub rhs_evals: u64,
}

/// Scratch vectors of a batch, kept by the driver between batches.
#[derive(Clone, Debug, Default)]
pub struct Rk4BatchWork {
    k: [Vec<f64>; 4],
    tmp: Vec<f64>,
    y_new: Vec<f64>,
    g_new: Vec<f64>,
    s_new: Vec<f64>,
}

impl Rk4BatchWork {
    /// Workspace for `n` states, `n_events` event functions and `n_sections` section
    /// functions.
    pub fn new(n: usize, n_events: usize, n_sections: usize) -> Self {
        Self {
            k: std::array::from_fn(|_| vec![0.0; n]),
            tmp: vec![0.0; n],
            y_new: vec![0.0; n],
            g_new: vec![0.0; n_events],
            s_new: vec![0.0; n_sections],
        }
    }
}

impl Rk4Batch<'_> {
    /// Takes the steps with `sys` as right-hand side. Dimensions 5–7 (the belt–block with up
    /// to two law states) get their own compiled loop with the stage vectors in registers.
    pub fn run<S: BatchRhs>(&mut self, sys: &S) {
        let (t, steps, evals) = match self.y.len() {
            5 => self.run_n::<5, S>(sys),
            6 => self.run_n::<6, S>(sys),
            7 => self.run_n::<7, S>(sys),
            _ => self.run_n::<0, S>(sys),
        };
        self.t = t;
        self.steps += steps;
        self.rhs_evals += evals;
    }

    /// The loop for dimension `N` (`0`: any, stage vectors in the workspace).
    fn run_n<const N: usize, S: BatchRhs>(&mut self, sys: &S) -> (f64, u64, u64) {
        let (t, h, t_limit) = (self.t, self.h, self.t_limit);
        let w = &mut *self.work;
        let (ne, ns) = (self.g.len(), self.s.len());
        let g = Crossings::new(&mut *self.g, &mut w.g_new[..ne]);
        let s = Crossings::new(&mut *self.s, &mut w.s_new[..ns]);
        if N == 0 {
            let n = self.y.len();
            let [k1, k2, k3, k4] = &mut w.k;
            let k = [&mut k1[..n], &mut k2[..n], &mut k3[..n], &mut k4[..n]];
            let (tmp, y_new) = (&mut w.tmp[..n], &mut w.y_new[..n]);
            Self::steps(sys, t, h, t_limit, &mut *self.y, k, tmp, y_new, g, s)
        } else {
            // Stage vectors as local arrays of known length: with the right-hand side inlined
            // they live in registers instead of memory.
            let [mut k1, mut k2, mut k3, mut k4, mut tmp, mut y_new, mut y] = [[0.0; N]; 7];
            y.copy_from_slice(&self.y[..N]);
            let k = [&mut k1[..], &mut k2[..], &mut k3[..], &mut k4[..]];
            let out = Self::steps(sys, t, h, t_limit, &mut y, k, &mut tmp, &mut y_new, g, s);
            self.y[..N].copy_from_slice(&y);
            out
        }
    }

    /// The loop: RK4 steps from `(t, y)` while `t + h < t_limit`, stopping before a step that
    /// triggers an event, crosses a section or leaves the finite range. Returns
    /// `(t, steps, evaluations)`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn steps<S: BatchRhs>(
        sys: &S,
        mut t: f64,
        h: f64,
        t_limit: f64,
        y: &mut [f64],
        [k1, k2, k3, k4]: [&mut [f64]; 4],
        tmp: &mut [f64],
        y_new: &mut [f64],
        mut g: Crossings<'_>,
        mut s: Crossings<'_>,
    ) -> (f64, u64, u64) {
        let n = y.len();
        let (hh, h6) = (0.5 * h, h / 6.0);
        let (mut steps, mut evals) = (0, 0);
        while t + h < t_limit {
            sys.rhs(t, y, k1);
            for i in 0..n {
                tmp[i] = y[i] + hh * k1[i];
            }
            sys.rhs(t + hh, tmp, k2);
            for i in 0..n {
                tmp[i] = y[i] + hh * k2[i];
            }
            sys.rhs(t + hh, tmp, k3);
            for i in 0..n {
                tmp[i] = y[i] + h * k3[i];
            }
            sys.rhs(t + h, tmp, k4);
            for i in 0..n {
                y_new[i] = y[i] + h6 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
            }
            evals += 4;
            let t_new = t + h;
            if !y_new.iter().all(|&v| is_bounded(v)) {
                break;
            }
            if g.active() {
                sys.events(t_new, y_new, g.end);
                if g.any(|start, end| start >= 0.0 && end < 0.0) {
                    break;
                }
            }
            if s.active() {
                sys.sections(t_new, y_new, s.end);
                if s.any(|start, end| start < 0.0 && end >= 0.0) {
                    break;
                }
            }
            g.advance();
            s.advance();
            y.copy_from_slice(y_new);
            t = t_new;
            steps += 1;
        }
        g.finish();
        s.finish();
        (t, steps, evals)
    }
}

/// Guard values at the start and the end of a step; the two buffers swap roles after each
/// committed step instead of being copied.
struct Crossings<'a> {
    start: &'a mut [f64],
    end: &'a mut [f64],
    swapped: bool,
}

impl<'a> Crossings<'a> {
    /// `current` holds the values at the start (and gets the final ones back); `spare` is
    /// workspace of the same length.
    fn new(current: &'a mut [f64], spare: &'a mut [f64]) -> Self {
        Self {
            start: current,
            end: spare,
            swapped: false,
        }
    }

    fn active(&self) -> bool {
        !self.start.is_empty()
    }

    /// Whether `crossed(start, end)` holds for any function.
    fn any(&self, crossed: impl Fn(f64, f64) -> bool) -> bool {
        self.start
            .iter()
            .zip(self.end.iter())
            .any(|(&a, &b)| crossed(a, b))
    }

    /// The step is committed: its end values become the next start values.
    fn advance(&mut self) {
        if self.active() {
            std::mem::swap(&mut self.start, &mut self.end);
            self.swapped = !self.swapped;
        }
    }

    /// Leaves the current values in the caller's slice.
    fn finish(self) {
        if self.swapped {
            self.end.copy_from_slice(self.start);
        }
    }
}
