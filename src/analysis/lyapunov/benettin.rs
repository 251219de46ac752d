//! Largest exponent by Benettin's two-trajectory method (MODELS §4.4): a shadow trajectory
//! `d₀` away (in attractor-scaled coordinates; [`default_separation`](super::default_separation))
//! runs beside the reference, each with its own
//! events and modes; every `τ` (and whenever `d/d₀` leaves `[10⁻³, 10³]`) `ln(d/d₀)` is added
//! and the shadow is pulled back to `d₀` along the separation. `λ₁ = Σ ln(d_k/d₀)/T`.
//!
//! The two trajectories are one [`Model`] (`Twin`) so the driver steps them together and
//! locates each one's switches separately. A reseeded shadow is put on its mode's constraints
//! (`Model::project`: in stick it moves with the belt) and growth is counted from the
//! separation it then has. Rescaling can move the shadow out of the region its
//! mode is valid in (the reference slipping while the shadow still sticks): when one of its
//! guards is then negative, that mode is switched as its event would have switched it
//! (`Model::resume`); mode and law memory are kept otherwise and in the switch (re-initialising
//! would reset dwell times, hysteresis branches and filtered accelerations and can make the
//! shadow chatter).

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

use super::jacobian::active_dim;
use super::log::{ExponentLog, SharedLog, lock};
use super::{Estimate, LargestExponent, LyapunovError, LyapunovOptions};
use crate::integrate::driver::{DriverSettings, NullSink};
use crate::integrate::{Column, MapModel, Model, SimError, Simulation};

/// Rescale early when `d/d₀` leaves `[1/MAX_RATIO, MAX_RATIO]`.
const MAX_RATIO: f64 = 1e3;

/// Reference and shadow of one system, integrated together.
struct Twin {
    reference: Box<dyn Model + Send>,
    shadow: Box<dyn Model + Send>,
    n: usize,
    m: usize,
    ne: usize,
    /// Attractor scale of each non-quadrature component.
    scales: Vec<f64>,
    d0: f64,
    /// Separation right after the last reseed (`d₀` unless a projection or a re-chosen mode
    /// moved the shadow); growth is counted from it.
    d_start: f64,
    transient_end: f64,
    interval: f64,
    next_renorm: f64,
    lo: Vec<f64>,
    hi: Vec<f64>,
    log: SharedLog,
    failure: Option<SimError>,
    scratch: RefCell<(Vec<f64>, Vec<f64>)>,
}

impl Twin {
    fn ref_state(&self, y: &[f64], out: &mut [f64]) {
        let (m, n) = (self.m, self.n);
        out[..m].copy_from_slice(&y[..m]);
        out[m..n].copy_from_slice(&y[2 * m..2 * m + n - m]);
    }

    fn shadow_state(&self, y: &[f64], out: &mut [f64]) {
        let (m, n) = (self.m, self.n);
        out[..m].copy_from_slice(&y[m..2 * m]);
        out[m..n].copy_from_slice(&y[m + n..2 * n]);
    }

    fn put_ref(&self, yi: &[f64], y: &mut [f64]) {
        let (m, n) = (self.m, self.n);
        y[..m].copy_from_slice(&yi[..m]);
        y[2 * m..2 * m + n - m].copy_from_slice(&yi[m..n]);
    }

    fn put_shadow(&self, yi: &[f64], y: &mut [f64]) {
        let (m, n) = (self.m, self.n);
        y[m..2 * m].copy_from_slice(&yi[..m]);
        y[m + n..2 * n].copy_from_slice(&yi[m..n]);
    }

    /// Scaled distance between shadow and reference.
    fn distance(&self, y: &[f64]) -> f64 {
        (0..self.m)
            .map(|i| ((y[self.m + i] - y[i]) / self.scales[i]).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    /// Puts the shadow `d₀` from the reference along the current separation (or a generic
    /// direction when there is none), on the constraints of its mode ([`Model::project`]: a
    /// shadow in stick moves with the belt, else its stick would keep a sliding velocity and
    /// the separation grow for the rest of the stick); if that leaves its mode invalid (a
    /// guard negative), lets it choose its mode afresh.
    fn reseed(&mut self, t: f64, y: &mut [f64]) {
        let m = self.m;
        let mut ys = vec![0.0; self.n];
        let generic: Vec<f64> = (0..m)
            .map(|i| (1.0 + 0.1 * i as f64) / generic_norm(m))
            .collect();
        let first = self.separation_dir(y).unwrap_or_else(|| generic.clone());
        self.place(y, &first);
        self.project_shadow(t, y, &mut ys);
        // The projection removed the constrained part of the separation: back to d₀ (the
        // second projection changes nothing unless the reference itself is off the shadow's
        // constraint — modes differ — and then `d_start` below keeps the count exact). A
        // separation wholly in constrained directions is replaced by a generic one.
        let second = self.separation_dir(y).unwrap_or(generic);
        self.place(y, &second);
        self.project_shadow(t, y, &mut ys);
        self.shadow_state(y, &mut ys);
        let mut g = vec![0.0; self.ne];
        self.shadow.events(t, &ys, &mut g);
        // Only an invalid mode is switched, as its event would have (`resume`); the law
        // memories (dwell, filtered velocity, hysteresis branches) are kept.
        if g.iter().any(|&v| v < 0.0)
            && let Err(e) = self.shadow.resume(t, &mut ys)
        {
            self.failure.get_or_insert(e);
        }
        self.put_shadow(&ys, y);
        let d = self.distance(y);
        self.d_start = if d > 0.0 && d.is_finite() { d } else { self.d0 };
    }

    /// Unit separation of shadow from reference (scaled coordinates), if there is one.
    fn separation_dir(&self, y: &[f64]) -> Option<Vec<f64>> {
        let d = self.distance(y);
        (d > 0.0 && d.is_finite()).then(|| {
            (0..self.m)
                .map(|i| (y[self.m + i] - y[i]) / self.scales[i] / d)
                .collect()
        })
    }

    /// Shadow at `reference + d₀·scale·dir` in the active components.
    fn place(&self, y: &mut [f64], dir: &[f64]) {
        for (i, di) in dir.iter().enumerate() {
            y[self.m + i] = y[i] + self.d0 * self.scales[i] * di;
        }
    }

    /// Applies the shadow's [`Model::project`] in place.
    fn project_shadow(&self, t: f64, y: &mut [f64], ys: &mut [f64]) {
        self.shadow_state(y, ys);
        self.shadow.project(t, ys);
        self.put_shadow(ys, y);
    }
}

fn generic_norm(m: usize) -> f64 {
    (0..m)
        .map(|i| (1.0 + 0.1 * i as f64).powi(2))
        .sum::<f64>()
        .sqrt()
}

impl Model for Twin {
    fn dim(&self) -> usize {
        2 * self.n
    }

    fn n_quadratures(&self) -> usize {
        2 * (self.n - self.m)
    }

    fn state_names(&self) -> Vec<String> {
        let names = self.reference.state_names();
        let (m, n) = (self.m, self.n);
        let mut v: Vec<String> = names[..m].to_vec();
        v.extend(names[..m].iter().map(|s| format!("{s}'")));
        v.extend_from_slice(&names[m..n]);
        v.extend(names[m..n].iter().map(|s| format!("{s}'")));
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        let (m, n) = (self.m, self.n);
        let mut s = vec![1.0; n];
        self.reference.state_scales(&mut s);
        scales[..m].copy_from_slice(&s[..m]);
        scales[m..2 * m].copy_from_slice(&s[..m]);
        scales[2 * m..2 * m + n - m].copy_from_slice(&s[m..]);
        scales[m + n..].copy_from_slice(&s[m..]);
    }

    fn is_autonomous(&self) -> bool {
        self.reference.is_autonomous()
    }

    fn max_step_s(&self, t_s: f64) -> f64 {
        self.reference.max_step_s(t_s)
    }
    fn time_scale_s(&self) -> f64 {
        self.reference.time_scale_s()
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        let next = self.reference.next_breakpoint_s(t);
        if self.next_renorm > t {
            next.min(self.next_renorm)
        } else {
            next
        }
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let mut yi = vec![0.0; self.n];
        self.ref_state(y, &mut yi);
        self.reference.initialize(t, &mut yi)?;
        self.put_ref(&yi, y);
        self.shadow_state(y, &mut yi);
        self.shadow.initialize(t, &mut yi)?;
        self.put_shadow(&yi, y);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (m, n) = (self.m, self.n);
        let mut guard = self.scratch.borrow_mut();
        let (yi, fi) = &mut *guard;
        self.ref_state(y, yi);
        self.reference.rhs(t, yi, fi);
        dy[..m].copy_from_slice(&fi[..m]);
        dy[2 * m..2 * m + n - m].copy_from_slice(&fi[m..n]);
        self.shadow_state(y, yi);
        self.shadow.rhs(t, yi, fi);
        dy[m..2 * m].copy_from_slice(&fi[..m]);
        dy[m + n..2 * n].copy_from_slice(&fi[m..n]);
    }

    fn n_events(&self) -> usize {
        2 * self.ne
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let mut guard = self.scratch.borrow_mut();
        let (yi, _) = &mut *guard;
        self.ref_state(y, yi);
        self.reference.events(t, yi, &mut g[..self.ne]);
        self.shadow_state(y, yi);
        self.shadow.events(t, yi, &mut g[self.ne..]);
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.switch(index, t, y)?;
        // The other trajectory may have crossed the same surface already.
        let other = if index < self.ne {
            self.ne..2 * self.ne
        } else {
            0..self.ne
        };
        self.catch_up(t, y, other)
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        self.after_step_inner(t, y)
    }

    fn columns(&self) -> Vec<Column> {
        Vec::new()
    }

    fn observe(&self, _t: f64, _y: &[f64], _row: &mut [f64]) {}

    fn prefers_implicit(&self) -> bool {
        self.reference.prefers_implicit()
    }
}

impl Twin {
    /// Switch `index` of the pair (reference first, then shadow).
    fn switch(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let mut yi = vec![0.0; self.n];
        if index < self.ne {
            self.ref_state(y, &mut yi);
            self.reference.apply_event(index, t, &mut yi)?;
            self.put_ref(&yi, y);
        } else {
            self.shadow_state(y, &mut yi);
            self.shadow.apply_event(index - self.ne, t, &mut yi)?;
            self.put_shadow(&yi, y);
        }
        Ok(())
    }

    /// Handles the switches of one trajectory (event indices `range`) that the driver would
    /// miss: reference and shadow cross the same surface ~d₀ apart in time, within the accuracy
    /// with which the driver orders two events, so after one of them switched (at a time the
    /// driver polished on the landed solution) the other's guard can already be negative — and
    /// a guard that is negative when a step starts never fires.
    fn catch_up(
        &mut self,
        t: f64,
        y: &mut [f64],
        range: std::ops::Range<usize>,
    ) -> Result<(), SimError> {
        let mut g = vec![0.0; 2 * self.ne];
        for _ in 0..range.len() {
            self.events(t, y, &mut g);
            let Some(i) = range.clone().find(|&i| g[i] < 0.0) else {
                break;
            };
            self.switch(i, t, y)?;
        }
        Ok(())
    }

    fn after_step_inner(&mut self, t: f64, y: &mut [f64]) -> bool {
        let mut changed = false;
        let mut yi = vec![0.0; self.n];
        self.ref_state(y, &mut yi);
        if self.reference.after_step(t, &mut yi) {
            self.put_ref(&yi, y);
            changed = true;
        }
        self.shadow_state(y, &mut yi);
        if self.shadow.after_step(t, &mut yi) {
            self.put_shadow(&yi, y);
            changed = true;
        }
        let averaging = lock(&self.log).averaging();
        if !averaging {
            for i in 0..self.m {
                self.lo[i] = self.lo[i].min(y[i]);
                self.hi[i] = self.hi[i].max(y[i]);
            }
        }
        let tol = 1e-9 * t.abs().max(1.0);
        let scheduled = t >= self.next_renorm - tol;
        while self.next_renorm <= t + tol {
            self.next_renorm += self.interval;
        }
        let ratio = self.distance(y) / self.d_start;
        if !scheduled && (1.0 / MAX_RATIO..=MAX_RATIO).contains(&ratio) {
            return changed;
        }
        if averaging {
            let mut log = lock(&self.log);
            let collapsed = ratio == 0.0 || !ratio.is_finite();
            log.add(t, &[ratio.ln()], &[collapsed]);
            if scheduled {
                log.record();
            }
        } else if t >= self.transient_end - tol {
            // The attractor's extent so far sets the metric (never below 1e-3 of the model's
            // own scale, so a settled equilibrium keeps a usable metric).
            let mut s = vec![1.0; self.n];
            self.reference.state_scales(&mut s);
            for i in 0..self.m {
                let range = self.hi[i] - self.lo[i];
                self.scales[i] = if range.is_finite() {
                    range.max(1e-3 * s[i].abs())
                } else {
                    s[i].abs()
                };
            }
            lock(&self.log).start(t);
        }
        self.reseed(t, y);
        true
    }
}

/// A running Benettin computation of a flow.
pub struct FlowBenettin {
    sim: Simulation,
    log: SharedLog,
    d0: f64,
    t_end: f64,
}

impl FlowBenettin {
    /// Reference and shadow from two instances of the same system (built by `build`), starting
    /// at `y0`.
    pub fn new(
        build: &dyn Fn() -> Box<dyn Model + Send>,
        y0: Vec<f64>,
        settings: DriverSettings,
        opts: &LyapunovOptions,
    ) -> Result<Self, LyapunovError> {
        opts.check()?;
        let d0 = opts
            .separation
            .unwrap_or_else(|| super::default_separation(settings.rtol));
        let (reference, shadow) = (build(), build());
        let (n, m, ne) = (
            reference.dim(),
            active_dim(reference.as_ref()),
            reference.n_events(),
        );
        let mut scales = vec![1.0; n];
        reference.state_scales(&mut scales);
        scales.truncate(m);
        scales
            .iter_mut()
            .for_each(|s| *s = s.abs().max(f64::MIN_POSITIVE));
        let log: SharedLog = Arc::new(Mutex::new(ExponentLog::new(1, opts.history_capacity)));
        let interval = opts.renorm_interval;
        let tol = 1e-9;
        if opts.transient <= tol {
            lock(&log).start(0.0);
        }
        let mut next_renorm = opts.transient - (opts.transient / interval).floor() * interval;
        while next_renorm <= tol {
            next_renorm += interval;
        }
        let mut twin = Twin {
            reference,
            shadow,
            n,
            m,
            ne,
            scales,
            d0,
            d_start: d0,
            transient_end: opts.transient,
            interval,
            next_renorm,
            lo: vec![f64::INFINITY; m],
            hi: vec![f64::NEG_INFINITY; m],
            log: Arc::clone(&log),
            failure: None,
            scratch: RefCell::new((vec![0.0; n], vec![0.0; n])),
        };
        let mut y = vec![0.0; 2 * n];
        twin.put_ref(&y0, &mut y);
        twin.put_shadow(&y0, &mut y);
        twin.initialize(0.0, &mut y)?;
        twin.reseed(0.0, &mut y);
        if let Some(e) = twin.failure.take() {
            return Err(e.into());
        }
        let settings = DriverSettings {
            output_interval_s: 1e300,
            ..settings
        };
        let sim = Simulation::new(Box::new(twin), y, 0.0, settings)?;
        Ok(Self {
            sim,
            log,
            d0,
            t_end: opts.transient + opts.duration,
        })
    }

    /// Integrates until `t ≥ t_stop`.
    pub fn advance(&mut self, t_stop: f64) -> Result<(), SimError> {
        self.sim.advance(t_stop, &mut NullSink)
    }

    /// Integrates to the end of the averaging.
    pub fn run(&mut self) -> Result<(), SimError> {
        self.advance(self.t_end)
    }

    /// The running estimate now.
    pub fn estimate(&self) -> Estimate {
        let log = lock(&self.log);
        Estimate {
            averaging_time: log.averaging_time(),
            exponents: log.exponents(),
        }
    }

    /// The result so far.
    pub fn result(&self) -> LargestExponent {
        let log = lock(&self.log);
        LargestExponent {
            exponent: log.exponents()[0],
            averaging_time: log.averaging_time(),
            separation: self.d0,
            renormalisations: log.renormalisations,
            history: log.history.clone(),
        }
    }
}

/// Benettin's largest exponent of a map: reference and shadow iterated side by side, the
/// shadow rescaled to `d₀` after every iteration.
pub fn map_benettin(
    map: &dyn MapModel,
    x0: &[f64],
    opts: &LyapunovOptions,
) -> Result<LargestExponent, LyapunovError> {
    opts.check()?;
    let (n, m) = (map.dim(), map.dim() - map.n_passive());
    let d0 = opts.separation.unwrap_or(1e-8);
    let mut scales = vec![1.0; n];
    map.state_scales(&mut scales);
    let mut x = x0.to_vec();
    let mut xs = x0.to_vec();
    for i in 0..m {
        xs[i] += d0 * scales[i] * (1.0 + 0.1 * i as f64) / generic_norm(m);
    }
    let (mut nx, mut nxs) = (vec![0.0; n], vec![0.0; n]);
    let transient = opts.transient.max(0.0).ceil() as u64;
    let total = transient + opts.duration.max(0.0).ceil() as u64;
    let mut log = ExponentLog::new(1, opts.history_capacity);
    let every = opts.renorm_interval.max(1.0).round() as u64;
    if transient == 0 {
        log.start(0.0);
    }
    for it in 1..=total {
        map.step(&x, &mut nx);
        map.step(&xs, &mut nxs);
        std::mem::swap(&mut x, &mut nx);
        std::mem::swap(&mut xs, &mut nxs);
        if let Some(i) = x.iter().chain(&xs).position(|v| !v.is_finite()) {
            return Err(SimError::NonFinite {
                t_s: it as f64,
                name: map.state_names().get(i % n).cloned().unwrap_or_default(),
                value: f64::NAN,
            }
            .into());
        }
        let d = (0..m)
            .map(|i| ((xs[i] - x[i]) / scales[i]).powi(2))
            .sum::<f64>()
            .sqrt();
        let ratio = d / d0;
        if log.averaging() {
            log.add(it as f64, &[ratio.ln()], &[ratio == 0.0]);
            if it.is_multiple_of(every) {
                log.record();
            }
        } else if it >= transient {
            log.start(it as f64);
        }
        for i in 0..m {
            let dir = if d > 0.0 {
                (xs[i] - x[i]) / d
            } else {
                scales[i] * (1.0 + 0.1 * i as f64) / generic_norm(m)
            };
            xs[i] = x[i] + d0 * dir;
        }
    }
    Ok(LargestExponent {
        exponent: log.exponents()[0],
        averaging_time: log.averaging_time(),
        separation: d0,
        renormalisations: log.renormalisations,
        history: log.history,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::builtin;

    /// A shadow seeded while stuck moves with the belt (before, the generic direction's
    /// velocity part stayed in its stick: v ≠ v_b, a contact "stuck" while sliding), and the
    /// separation it starts from is what growth is counted from.
    #[test]
    fn a_shadow_seeded_in_stick_moves_with_the_belt() {
        let preset = builtin::load("coulomb_stick_slip_undamped")
            .unwrap()
            .unwrap();
        let (_, y0) = preset.build_model();
        let build = || preset.build_model().0;
        let b = FlowBenettin::new(
            &build,
            y0,
            preset.driver_settings(),
            &LyapunovOptions::default(),
        )
        .unwrap();
        let y = b.sim.state();
        // Layout: active states of the reference, then of the shadow (x, v each).
        let (v_ref, v_shadow) = (y[1], y[3]);
        assert_eq!(v_ref, 0.1, "the reference starts stuck on the 0.1 m/s belt");
        assert_eq!(v_shadow, v_ref, "shadow x = {}, v = {v_shadow}", y[2]);
        assert!(y[2] != y[0], "the separation lies along x");
    }

    /// A drifting point with a side (mode `right`: guard `x`, else `−x`) and a memory state
    /// `mem` that only a fresh start (`initialize`) clears, as a law's dwell or branch memory.
    #[derive(Clone)]
    struct Memo {
        right: bool,
    }

    impl Model for Memo {
        fn dim(&self) -> usize {
            2
        }
        fn state_names(&self) -> Vec<String> {
            vec!["x".into(), "mem".into()]
        }
        fn state_scales(&self, s: &mut [f64]) {
            s.fill(1.0);
        }
        fn initialize(&mut self, _t: f64, y: &mut [f64]) -> Result<(), SimError> {
            self.right = y[0] >= 0.0;
            y[1] = 0.0;
            Ok(())
        }
        fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
            let mut g = [0.0];
            self.events(t, y, &mut g);
            if g[0] < 0.0 {
                self.right = !self.right;
            }
            Ok(())
        }
        fn rhs(&self, _t: f64, _y: &[f64], dy: &mut [f64]) {
            dy[0] = -0.1;
            dy[1] = 0.0;
        }
        fn n_events(&self) -> usize {
            1
        }
        fn events(&self, _t: f64, y: &[f64], g: &mut [f64]) {
            g[0] = if self.right { y[0] } else { -y[0] };
        }
        fn apply_event(&mut self, _index: usize, _t: f64, _y: &mut [f64]) -> Result<(), SimError> {
            self.right = !self.right;
            Ok(())
        }
        fn columns(&self) -> Vec<Column> {
            vec![Column::new("x", ""), Column::new("mem", "")]
        }
        fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
            row.copy_from_slice(y);
        }
        fn prefers_implicit(&self) -> bool {
            false
        }
    }

    /// A reseed that leaves the shadow's mode invalid switches that mode and keeps the memory
    /// (before, the shadow was re-initialised: its memory cleared, as a law's dwell time or
    /// hysteresis branch).
    #[test]
    fn a_shadow_reseeded_across_a_guard_keeps_its_memory() {
        let build = || -> Box<dyn Model + Send> { Box::new(Memo { right: false }) };
        let d0 = 1e-3;
        let mut twin = Twin {
            reference: build(),
            shadow: build(),
            n: 2,
            m: 2,
            ne: 1,
            scales: vec![1.0; 2],
            d0,
            d_start: d0,
            transient_end: 0.0,
            interval: 1.0,
            next_renorm: 1.0,
            lo: vec![f64::INFINITY; 2],
            hi: vec![f64::NEG_INFINITY; 2],
            log: Arc::new(Mutex::new(ExponentLog::new(1, 8))),
            failure: None,
            scratch: RefCell::new((vec![0.0; 2], vec![0.0; 2])),
        };
        // Both sit just left of the surface (left mode) with memory 5; the generic reseed
        // direction puts the shadow on the right, outside its mode.
        let mut y = vec![0.0; 4];
        twin.put_ref(&[-1e-12, 5.0], &mut y);
        twin.put_shadow(&[-1e-12, 5.0], &mut y);
        twin.reseed(0.0, &mut y);
        assert!(twin.failure.is_none());
        // Layout: x, mem of the reference, then of the shadow.
        assert!(
            y[2] > 0.0,
            "the shadow is placed on the right: x = {}",
            y[2]
        );
        assert!(
            (y[3] - 5.0).abs() <= 2.0 * d0,
            "the shadow keeps its memory: mem = {}",
            y[3]
        );
        let mut g = [0.0];
        twin.shadow.events(0.0, &[y[2], y[3]], &mut g);
        assert!(g[0] > 0.0, "its mode was switched to the right side");
    }
}
