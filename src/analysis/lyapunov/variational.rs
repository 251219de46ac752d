//! The variational system: a [`Model`] wrapping another, integrating its state together with
//! `k` tangent vectors,
//! ```text
//! ẋ = f(t, x),     q̇_c = D⁻¹·J(t, x)·D·q_c,     d/dt ln V = tr J
//! ```
//! (`q_c` in scaled coordinates `D⁻¹·δx`, `D = diag(state scales)`), with the inner model's
//! events forwarded and, at every switch, the tangent vectors multiplied by the switch's
//! saltation matrix. Tangent vectors are re-orthonormalised (Gram–Schmidt) on a schedule `τ`,
//! after every switch, and whenever they lose conditioning; each `ln R_ii` goes into an
//! [`ExponentLog`](super::ExponentLog).
//!
//! State layout: `[x (m), q_1 … q_k (m each), inner quadratures (n − m), ln V]`; the last
//! `n − m + 1` components are quadratures for the driver. The resets of `apply_event` enter
//! through the saltation matrix (differenced when the inner model can be copied, see
//! [`saltation`]). An `after_step` projection that moves the state by more than round-off (a
//! constraint enforced step by step, such as a GMS element pinned to its falling threshold)
//! multiplies the tangents by its differenced Jacobian ([`saltation::projection_jacobian`]);
//! one that only removes round-off (a constraint the vector field itself keeps, such as the
//! subloading law's `r_s = r` while elastic) acts as the identity.
//!
//! **Error control of the tangents.** By default the tangents are error-controlled like the
//! state, which resolves every exponent. With a stiff law this is expensive: re-orthonormalising
//! puts each column back to unit length with components along all directions, stiff ones
//! included (LuGre bristles: local rates down to −10⁴/s), and resolving their decay takes steps
//! of ~10⁻⁵ s (LuGre 1995 bench, rtol 1e-8: 2.3·10⁷ steps for 250 s instead of 2·10⁴). An
//! L-stable method (Rodas4) damps those components without resolving them, so
//! [`Schedule::tangent_scale`] `= 1/rtol` (absolute tolerance 1 for the unit tangents) lets the
//! step follow the state: λ₁ is unaffected, but the contraction of the stiff directions is
//! under-counted (Rodas' `|R(hλ)| ≫ e^{hλ}`), so the other exponents become upper bounds
//! (same bench: λ₂ −6.0 instead of −21.3/s).

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

use super::jacobian::{Work, active_dim, jacobian};
use super::log::{ExponentLog, SharedLog, lock};
use super::qr::{conditioning, generic_frame, orthonormalize};
use super::saltation;
use crate::integrate::{Column, Model, SimError};

/// Re-orthonormalise as soon as a column's residual drops under `1/MAX_ALIGNMENT` of its norm.
const MAX_ALIGNMENT: f64 = 1e3;
/// ... or a column norm leaves `[1/MAX_GROWTH, MAX_GROWTH]` (keeps the absolute tolerance of
/// the tangent components meaningful).
const MAX_GROWTH: f64 = 1e3;

/// When the tangent vectors are renormalised and averaged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Averaging starts at the first renormalisation at or after this time.
    pub transient_end: f64,
    /// Interval of the scheduled renormalisations (points of the running estimate).
    pub interval: f64,
    /// Largest number of running-estimate entries kept.
    pub history_capacity: usize,
    /// Typical magnitude given to the tangent components for the error control (their
    /// absolute tolerance is `rtol·tangent_scale`): 1 controls them like the state, `1/rtol`
    /// only guards against blow-up (see [`Variational`]).
    pub tangent_scale: f64,
}

struct Scratch {
    yi: Vec<f64>,
    fi: Vec<f64>,
    jac: Vec<f64>,
    work: Work,
}

/// The inner model with its tangent vectors.
pub struct Variational {
    inner: Box<dyn Model + Send>,
    n: usize,
    m: usize,
    k: usize,
    scales: Vec<f64>,
    schedule: Option<Schedule>,
    next_renorm: f64,
    land_at: f64,
    log: SharedLog,
    volume_at_start: f64,
    saltation_log_det: f64,
    scratch: RefCell<Scratch>,
    qr_work: Vec<f64>,
}

impl Variational {
    /// Wraps `inner` (starting from `y0` at `t0`) with `k` tangent vectors. With a schedule
    /// the vectors start in a generic orthonormal frame and are renormalised; without one they
    /// start as the first `k` scaled unit vectors and are only propagated (flow Jacobian).
    pub fn new(
        inner: Box<dyn Model + Send>,
        y0: &[f64],
        t0: f64,
        k: usize,
        schedule: Option<Schedule>,
    ) -> (Self, Vec<f64>) {
        let n = inner.dim();
        let m = active_dim(inner.as_ref());
        assert!(k >= 1 && k <= m, "1 ≤ k ≤ m");
        let mut scales = vec![1.0; n];
        inner.state_scales(&mut scales);
        for s in &mut scales {
            *s = s.abs().max(f64::MIN_POSITIVE);
        }
        let frame = if schedule.is_some() {
            generic_frame(m, k)
        } else {
            let mut e = vec![0.0; m * k];
            (0..k).for_each(|c| e[c * m + c] = 1.0);
            e
        };
        let mut y = Vec::with_capacity(m + m * k + (n - m) + 1);
        y.extend_from_slice(&y0[..m]);
        y.extend_from_slice(&frame);
        y.extend_from_slice(&y0[m..n]);
        y.push(0.0);
        let capacity = schedule.map_or(2, |s| s.history_capacity);
        let mut log = ExponentLog::new(k, capacity);
        if k == m {
            log.log_volume = Some(0.0);
        }
        let mut next_renorm = f64::INFINITY;
        if let Some(s) = schedule {
            assert!(
                s.interval > 0.0,
                "renormalisation interval must be positive"
            );
            let tol = time_tol(t0);
            if s.transient_end <= t0 + tol {
                log.start(t0);
            }
            next_renorm =
                s.transient_end - ((s.transient_end - t0) / s.interval).floor() * s.interval;
            while next_renorm <= t0 + tol {
                next_renorm += s.interval;
            }
        }
        let n_events = inner.n_events();
        let model = Self {
            inner,
            n,
            m,
            k,
            scales,
            schedule,
            next_renorm,
            land_at: f64::INFINITY,
            log: Arc::new(Mutex::new(log)),
            volume_at_start: 0.0,
            saltation_log_det: 0.0,
            scratch: RefCell::new(Scratch {
                yi: vec![0.0; n],
                fi: vec![0.0; n],
                jac: vec![0.0; m * m],
                work: Work::new(n, n_events),
            }),
            qr_work: Vec::new(),
        };
        (model, y)
    }

    /// The shared log (read it while the run goes on).
    pub fn log(&self) -> SharedLog {
        Arc::clone(&self.log)
    }

    /// Dimension `m` of the tangent space.
    pub fn tangent_dim(&self) -> usize {
        self.m
    }

    /// Number of tangent vectors.
    pub fn n_vectors(&self) -> usize {
        self.k
    }

    /// Scales `D` of the tangent coordinates.
    pub fn scales(&self) -> &[f64] {
        &self.scales[..self.m]
    }

    /// Makes steps end exactly at `t` (to read the propagated tangents there).
    pub fn land_at(&mut self, t: f64) {
        self.land_at = t;
    }

    /// The tangent columns of an augmented state.
    pub fn tangents<'a>(&self, y: &'a [f64]) -> &'a [f64] {
        &y[self.m..self.m + self.m * self.k]
    }

    /// The inner model's state inside an augmented state.
    pub fn inner_state(&self, y: &[f64]) -> Vec<f64> {
        let mut yi = vec![0.0; self.n];
        self.gather(y, &mut yi);
        yi
    }

    /// The inner model.
    pub fn inner(&self) -> &dyn Model {
        self.inner.as_ref()
    }

    fn tangent_range(&self) -> std::ops::Range<usize> {
        self.m..self.m + self.m * self.k
    }

    fn quad_start(&self) -> usize {
        self.m + self.m * self.k
    }

    fn volume_index(&self) -> usize {
        self.quad_start() + self.n - self.m
    }

    fn gather(&self, y: &[f64], yi: &mut [f64]) {
        let (m, n, q0) = (self.m, self.n, self.quad_start());
        yi[..m].copy_from_slice(&y[..m]);
        yi[m..n].copy_from_slice(&y[q0..q0 + n - m]);
    }

    fn scatter(&self, yi: &[f64], y: &mut [f64]) {
        let (m, n, q0) = (self.m, self.n, self.quad_start());
        y[..m].copy_from_slice(&yi[..m]);
        y[q0..q0 + n - m].copy_from_slice(&yi[m..n]);
    }

    /// Re-orthonormalises the tangents at `t`; starts or feeds the averaging.
    fn renormalise(&mut self, t: f64, y: &mut [f64], scheduled: bool) {
        let (m, k) = (self.m, self.k);
        let range = self.tangent_range();
        let step = orthonormalize(&mut y[range], m, k);
        let volume = y[self.volume_index()];
        let transient_end = self.schedule.map_or(f64::NEG_INFINITY, |s| s.transient_end);
        let mut log = lock(&self.log);
        if log.averaging() {
            log.add(t, &step.log_r, &step.collapsed);
            if log.log_volume.is_some() {
                log.log_volume = Some(volume - self.volume_at_start + self.saltation_log_det);
            }
        } else if t >= transient_end - time_tol(t) {
            log.start(t);
            self.volume_at_start = volume;
            self.saltation_log_det = 0.0;
        }
        if scheduled {
            log.record();
        }
    }
}

fn time_tol(t: f64) -> f64 {
    1e-9 * t.abs().max(1.0)
}

impl Model for Variational {
    fn dim(&self) -> usize {
        self.n + self.m * self.k + 1
    }

    fn n_quadratures(&self) -> usize {
        self.n - self.m + 1
    }

    fn state_names(&self) -> Vec<String> {
        let names = self.inner.state_names();
        let mut v: Vec<String> = names[..self.m].to_vec();
        for c in 0..self.k {
            for name in &names[..self.m] {
                v.push(format!("δ{}{name}", c + 1));
            }
        }
        v.extend_from_slice(&names[self.m..]);
        v.push("ln_volume".into());
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        let (m, q0) = (self.m, self.quad_start());
        scales[..m].copy_from_slice(&self.scales[..m]);
        let tangent_scale = self.schedule.map_or(1.0, |s| s.tangent_scale);
        scales[self.tangent_range()]
            .iter_mut()
            .for_each(|s| *s = tangent_scale);
        scales[q0..q0 + self.n - m].copy_from_slice(&self.scales[m..]);
        scales[self.volume_index()] = 1.0;
    }

    fn is_autonomous(&self) -> bool {
        self.inner.is_autonomous()
    }

    fn max_step_s(&self, t_s: f64) -> f64 {
        self.inner.max_step_s(t_s)
    }
    fn time_scale_s(&self) -> f64 {
        self.inner.time_scale_s()
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        let mut next = self.inner.next_breakpoint_s(t);
        for cand in [self.next_renorm, self.land_at] {
            if cand > t {
                next = next.min(cand);
            }
        }
        next
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let mut yi = self.inner_state(y);
        self.inner.initialize(t, &mut yi)?;
        self.scatter(&yi, y);
        Ok(())
    }

    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let mut yi = self.inner_state(y);
        self.inner.resume(t, &mut yi)?;
        self.scatter(&yi, y);
        Ok(())
    }

    fn project(&self, t: f64, y: &mut [f64]) {
        let mut yi = self.inner_state(y);
        self.inner.project(t, &mut yi);
        self.scatter(&yi, y);
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (m, n, k, q0) = (self.m, self.n, self.k, self.quad_start());
        let mut guard = self.scratch.borrow_mut();
        let Scratch { yi, fi, jac, work } = &mut *guard;
        self.gather(y, yi);
        self.inner.rhs(t, yi, fi);
        dy[..m].copy_from_slice(&fi[..m]);
        dy[q0..q0 + n - m].copy_from_slice(&fi[m..n]);
        jacobian(self.inner.as_ref(), t, yi, &self.scales, jac, work);
        let s = &self.scales;
        let mut trace = 0.0;
        for i in 0..m {
            trace += jac[i * m + i];
        }
        for c in 0..k {
            let q = &y[m + c * m..m + (c + 1) * m];
            let dq = &mut dy[m + c * m..m + (c + 1) * m];
            for i in 0..m {
                let row = &jac[i * m..(i + 1) * m];
                let mut acc = 0.0;
                for j in 0..m {
                    acc += row[j] * s[j] * q[j];
                }
                dq[i] = acc / s[i];
            }
        }
        dy[self.volume_index()] = trace;
    }

    fn n_events(&self) -> usize {
        self.inner.n_events()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let mut guard = self.scratch.borrow_mut();
        self.gather(y, &mut guard.yi);
        self.inner.events(t, &guard.yi, g);
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let mut yi = self.inner_state(y);
        let mut work = Work::new(self.n, self.inner.n_events());
        let scales = self.scales.clone();
        let sw = saltation::switch(self.inner.as_mut(), index, t, &mut yi, &scales, &mut work)?;
        self.scatter(&yi, y);
        let averaging = lock(&self.log).averaging();
        if sw.is_grazing() {
            if averaging {
                lock(&self.log).grazing += 1;
            }
        } else {
            let (m, k) = (self.m, self.k);
            let range = self.tangent_range();
            sw.apply_scaled(&mut y[range], m, k, &scales);
            if averaging {
                self.saltation_log_det += sw.log_abs_det();
                lock(&self.log).switches += 1;
            }
        }
        if self.schedule.is_some() {
            self.renormalise(t, y, false);
        }
        Ok(())
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        let mut changed = false;
        let mut yi = std::mem::take(&mut self.scratch.get_mut().yi);
        self.gather(y, &mut yi);
        let before = self.inner.boxed_clone();
        let y_pre = yi.clone();
        if self.inner.after_step(t, &mut yi) {
            if let Some(p) = before.and_then(|b| {
                saltation::projection_jacobian(b.as_ref(), t, &y_pre, &yi, &self.scales, self.m)
            }) {
                let range = self.tangent_range();
                saltation::apply_matrix_scaled(&p, &mut y[range], self.m, self.k, &self.scales);
            }
            self.scatter(&yi, y);
            changed = true;
        }
        self.scratch.get_mut().yi = yi;
        let Some(schedule) = self.schedule else {
            return changed;
        };
        let tol = time_tol(t);
        let scheduled = t >= self.next_renorm - tol;
        while self.next_renorm <= t + tol {
            self.next_renorm += schedule.interval;
        }
        let needed = scheduled || {
            let range = self.tangent_range();
            let (worst, lo, hi) = conditioning(&y[range], self.m, self.k, &mut self.qr_work);
            worst > MAX_ALIGNMENT || lo < 1.0 / MAX_GROWTH || hi > MAX_GROWTH
        };
        if needed {
            self.renormalise(t, y, scheduled);
            changed = true;
        }
        changed
    }

    fn columns(&self) -> Vec<Column> {
        self.inner.state_names()[..self.m]
            .iter()
            .map(|n| Column::new(n.clone(), ""))
            .collect()
    }

    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row[..self.m].copy_from_slice(&y[..self.m]);
    }

    fn section_names(&self) -> Vec<String> {
        self.inner.section_names()
    }

    fn sections(&self, t: f64, y: &[f64], s: &mut [f64]) {
        let mut guard = self.scratch.borrow_mut();
        self.gather(y, &mut guard.yi);
        self.inner.sections(t, &guard.yi, s);
    }

    fn prefers_implicit(&self) -> bool {
        self.inner.prefers_implicit()
    }
}
