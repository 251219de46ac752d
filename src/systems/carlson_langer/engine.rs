//! The Carlson–Langer chain's own exact scheme: only the slipping blocks are integrated.
//!
//! A stuck block does not move (`U̇_j = 0`), and while its neighbours are stuck too its
//! elastic force grows only through the leaf spring, `F_j(τ) = F_j(τ₀) + ν·(τ − τ₀)`, so it
//! breaks away at `τ₀ + (1 − F_j(τ₀))/ν`, known in closed form. The scheme keeps three sets:
//!
//! - **slipping** blocks, integrated together by Dormand–Prince 5(4) in the plate frame
//!   (`y_j = U_j − ν·τ`, `U̇_j`, as the [`CarlsonLanger`] model), with the stuck neighbours'
//!   positions held fixed; each has the event `U̇_j = 0` (it sticks);
//! - **frontier** blocks, stuck next to a slipping one: their force moves with the
//!   neighbour, so each has the event `F_j = 1` (it breaks away), located on the dense output;
//! - every other stuck block, in a priority queue by its closed-form break-away time; a step
//!   lands on the earliest, and with nothing slipping the run jumps straight to it.
//!
//! A step costs O(slipping blocks), an event O(1) plus its queue update, a quiet stretch
//! O(log N): the cost of a model-second grows with the slip activity, not with N × the
//! number of switches as when every state is stepped at every switch of one block. Events and
//! rules are those of the model (a block whose velocity comes to 0 sticks; a stuck block whose
//! force reaches 1 slips), the samples are the model's `observe` rows, the work integrals
//! close the same energy account. Used for chains longer than
//! [`SWITCH_ROWS_MAX_BLOCKS`](crate::systems::chain::SWITCH_ROWS_MAX_BLOCKS) run with
//! `integrator: Auto`; shorter ones, other integrators and every analysis use the model
//! through the generic driver.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::{CarlsonLanger, CarlsonLangerParams};
use crate::integrate::driver::SectionId;
use crate::integrate::dopri5::Dopri5;
use crate::integrate::root::illinois;
use crate::integrate::stepper::Stepper;
use crate::integrate::{Column, Engine, Model, SampleSink, SimError, Stats, Tolerance};
use crate::systems::{ConfigOf, Restart, SystemSpec};

const NONE: usize = usize::MAX;
/// Where in a step the guards are checked (fractions of the step).
const PROBES: [f64; 4] = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];
/// Smallest step before the run gives up [time units].
const H_MIN: f64 = 1e-12;

/// A break-away time in the queue (ordered by time, then block).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Due(f64, usize, u32);

impl Eq for Due {}

impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Due {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

/// The active-set run of a Carlson–Langer chain ([module docs](self)).
pub struct ActiveSetRun {
    model: CarlsonLanger,
    dt_out: f64,
    t: f64,
    /// Ground positions of the stuck blocks (slipping blocks: at their last stick or start).
    u: Vec<f64>,
    /// Plate position at `t_ref` (both 0 until ν is changed live).
    plate_ref: f64,
    t_ref: f64,
    /// Work integrals `W_p`, `W_f` up to `t`.
    w_p: f64,
    w_f: f64,
    /// Slipping blocks; block `active[s]` has `(y, U̇)` at `z[2s], z[2s + 1]`.
    active: Vec<usize>,
    slot: Vec<usize>,
    frontier: Vec<usize>,
    fslot: Vec<usize>,
    slipping_neighbours: Vec<u8>,
    queue: BinaryHeap<Reverse<Due>>,
    version: Vec<u32>,
    /// `Σ U_j` and count of the stuck blocks (for the plate's work on them).
    sum_u_stuck: f64,
    n_stuck: usize,
    /// `[y, U̇] per slipping block, ΔW_p, ΔW_f` over the current step.
    z: Vec<f64>,
    z_new: Vec<f64>,
    z_dense: Vec<f64>,
    /// Dense states at the interior probes of the last step.
    probes: Vec<f64>,
    stepper: Dopri5,
    tol: Tolerance,
    h: f64,
    /// Index of the next regular sample `k·Δt_out`.
    next_sample: u64,
    row: Vec<f64>,
    y_full: Vec<f64>,
    track_sections: bool,
    stats: Stats,
}

/// The slipping blocks' equations for the stepper (stuck neighbours held at `u`).
struct Cluster<'a> {
    run: &'a ActiveSetRun,
    k: usize,
}

impl ActiveSetRun {
    /// The run from the model's initial state at `τ = 0`.
    pub fn new(params: CarlsonLangerParams, rtol: f64, dt_out: f64) -> Result<Self, SimError> {
        let mut model = CarlsonLanger::new(params);
        let n = model.n;
        let mut y = model.initial_state();
        model.initialize(0.0, &mut y)?;
        let scale = model.params.sigma.max(1e-3);
        let mut run = Self {

            dt_out,
            t: 0.0,
            plate_ref: 0.0,
            t_ref: 0.0,
            u: (0..n).map(|j| y[2 * j]).collect(),
            w_p: 0.0,
            w_f: 0.0,
            active: Vec::new(),
            slot: vec![NONE; n],
            frontier: Vec::new(),
            fslot: vec![NONE; n],
            slipping_neighbours: vec![0; n],
            queue: BinaryHeap::new(),
            version: vec![0; n],
            sum_u_stuck: 0.0,
            n_stuck: 0,
            z: vec![0.0; 2 * n + 2],
            z_new: vec![0.0; 2 * n + 2],
            z_dense: vec![0.0; 2 * n + 2],
            probes: Vec::new(),
            stepper: Dopri5::new(2 * n + 2),
            tol: Tolerance::from_scales(rtol, &vec![scale; 2 * n + 2], 0),
            h: 1e-2,
            next_sample: 0,
            row: vec![0.0; model.columns().len() + 2],
            y_full: y.clone(),
            track_sections: false,
            stats: Stats::default(),
            model,
        };
        // Blocks the initial state leaves slipping (none for the usual patterns at rest).
        for j in 0..n {
            if run.model.stuck[j] {
                run.sum_u_stuck += run.u[j];
                run.n_stuck += 1;
            }
        }
        for j in 0..n {
            if !run.model.stuck[j] {
                run.model.stuck[j] = true;
                run.sum_u_stuck += run.u[j];
                run.n_stuck += 1;
                run.slip(j, y[2 * j + 1]);
            }
        }
        for j in 0..n {
            if run.model.stuck[j] && run.slipping_neighbours[j] == 0 {
                run.schedule(j);
            }
        }
        Ok(run)
    }

    fn nu(&self) -> f64 {
        self.model.params.plate_speed
    }

    fn l2(&self) -> f64 {
        self.model.params.stiffness_ratio * self.model.params.stiffness_ratio
    }

    /// Ground position of block `j` at `t` with the slipping blocks' states in `z`.
    #[inline]
    fn position(&self, t: f64, z: &[f64], j: usize) -> f64 {
        match self.slot[j] {
            NONE => self.u[j],
            s => z[2 * s] + self.plate(t),
        }
    }

    /// Elastic force on block `j` at `t` (coupling, frame at fixed ends, leaf spring).
    fn force(&self, t: f64, z: &[f64], j: usize) -> f64 {
        let uj = self.position(t, z, j);
        let (l, r) = self.model.neighbours[j];
        let frame = self.model.params.ends.ties_to_frame();
        let side = |k: Option<usize>| match k {
            Some(k) => self.position(t, z, k) - uj,
            None if frame => -uj,
            None => 0.0,
        };
        self.l2() * (side(l) + side(r)) - (uj - self.plate(t))
    }

    /// Puts stuck, non-frontier block `j` in the queue at its closed-form break-away time.
    fn schedule(&mut self, j: usize) {
        self.version[j] = self.version[j].wrapping_add(1);
        let f = self.force(self.t, &self.z, j);
        let due = self.t + ((1.0 - f) / self.nu()).max(0.0);
        self.queue.push(Reverse(Due(due, j, self.version[j])));
    }

    /// Earliest valid break-away time in the queue (stale entries dropped).
    fn next_due(&mut self) -> Option<Due> {
        while let Some(&Reverse(d)) = self.queue.peek() {
            let Due(_, j, v) = d;
            if v == self.version[j] && self.model.stuck[j] && self.slipping_neighbours[j] == 0 {
                return Some(d);
            }
            self.queue.pop();
        }
        None
    }

    fn add_frontier(&mut self, j: usize) {
        if self.fslot[j] == NONE {
            self.version[j] = self.version[j].wrapping_add(1);
            self.fslot[j] = self.frontier.len();
            self.frontier.push(j);
        }
    }

    fn remove_frontier(&mut self, j: usize) {
        let f = self.fslot[j];
        if f == NONE {
            return;
        }
        self.frontier.swap_remove(f);
        if let Some(&moved) = self.frontier.get(f) {
            self.fslot[moved] = f;
        }
        self.fslot[j] = NONE;
    }

    /// Stuck block `j` starts slipping with velocity `v` (0 at a break-away).
    fn slip(&mut self, j: usize, v: f64) {
        let k = self.active.len();
        self.remove_frontier(j);
        self.version[j] = self.version[j].wrapping_add(1);
        self.model.stuck[j] = false;
        self.sum_u_stuck -= self.u[j];
        self.n_stuck -= 1;
        // The step increments of the work integrals move up one block.
        let (dp, df) = (self.z[2 * k], self.z[2 * k + 1]);
        self.z[2 * k] = self.u[j] - self.plate(self.t);
        self.z[2 * k + 1] = v;
        self.z[2 * k + 2] = dp;
        self.z[2 * k + 3] = df;
        self.slot[j] = k;
        self.active.push(j);
        let (l, r) = self.model.neighbours[j];
        for nb in [l, r].into_iter().flatten() {
            self.slipping_neighbours[nb] += 1;
            if self.model.stuck[nb] {
                self.add_frontier(nb);
            }
        }
    }

    /// Slipping block `j` sticks where it is.
    fn stick(&mut self, j: usize) {
        let s = self.slot[j];
        let k = self.active.len();
        self.u[j] = self.z[2 * s] + self.plate(self.t);
        self.model.stuck[j] = true;
        self.sum_u_stuck += self.u[j];
        self.n_stuck += 1;
        // The last slipping block takes the freed slot; the work increments move down.
        let last = k - 1;
        if s != last {
            self.z[2 * s] = self.z[2 * last];
            self.z[2 * s + 1] = self.z[2 * last + 1];
            let moved = self.active[last];
            self.active[s] = moved;
            self.slot[moved] = s;
        }
        self.active.pop();
        self.z[2 * last] = self.z[2 * k];
        self.z[2 * last + 1] = self.z[2 * k + 1];
        self.slot[j] = NONE;
        let (l, r) = self.model.neighbours[j];
        for nb in [l, r].into_iter().flatten() {
            self.slipping_neighbours[nb] -= 1;
            if self.model.stuck[nb] && self.slipping_neighbours[nb] == 0 {
                self.remove_frontier(nb);
                self.schedule(nb);
            }
        }
        if self.slipping_neighbours[j] > 0 {
            self.add_frontier(j);
        } else {
            self.schedule(j);
        }
    }

    /// The plate's work on the stuck blocks over `[t0, t1]`:
    /// `ν·Σ ∫(P(τ) − U_j) dτ = ν·(t1 − t0)·(n·(P(t0) + P(t1))/2 − ΣU_j)`.
    fn stuck_plate_work(&self, t0: f64, t1: f64) -> f64 {
        let mean_plate = 0.5 * (self.plate(t0) + self.plate(t1));
        self.nu() * (t1 - t0) * (self.n_stuck as f64 * mean_plate - self.sum_u_stuck)
    }

    /// Position of the plate, `P(τ) = P(τ_ref) + ν·(τ − τ_ref)`: continuous across a live
    /// change of ν (the leaf springs keep their stretch, as in the model's state).
    #[inline]
    fn plate(&self, t: f64) -> f64 {
        self.plate_ref + self.nu() * (t - self.t_ref)
    }

    /// Writes the model's state at `t` (slipping blocks from `z`, increments in `z`) to
    /// `y_full`.
    fn fill_state(&mut self, t: f64, z_from_dense: bool) {
        let n = self.model.n;
        let k = self.active.len();
        let plate = self.plate(t);
        let z = if z_from_dense { &self.z_dense } else { &self.z };
        for j in 0..n {
            let (y, v) = match self.slot[j] {
                NONE => (self.u[j] - plate, 0.0),
                s => (z[2 * s], z[2 * s + 1]),
            };
            self.y_full[2 * j] = y;
            self.y_full[2 * j + 1] = v;
        }
        let (dp, df) = (z[2 * k], z[2 * k + 1]);
        self.y_full[2 * n] = self.w_p + dp + self.stuck_plate_work(self.t, t);
        self.y_full[2 * n + 1] = self.w_f + df;
    }

    fn push_row(&mut self, t: f64, event: bool, sink: &mut dyn SampleSink, section: bool) {
        let last = self.row.len() - 1;
        self.row[0] = t;
        self.model.observe(t, &self.y_full, &mut self.row[1..last]);
        self.row[last] = f64::from(u8::from(event));
        if section {
            sink.push_section(SectionId::Model(0), &self.row);
        } else {
            sink.push(&self.row);
        }
    }

    /// Regular samples in `(self.t, t_end]`, from the dense output of the step just taken
    /// (of size `h`) or, with nothing slipping, from the stuck state.
    fn emit_samples(&mut self, t_end: f64, h: f64, sink: &mut dyn SampleSink) {
        let dims = 2 * self.active.len() + 2;
        loop {
            let ts = self.next_sample as f64 * self.dt_out;
            if ts > t_end {
                break;
            }
            if ts >= self.t {
                let dense = !self.active.is_empty() && h > 0.0;
                if dense {
                    let theta = ((ts - self.t) / h).clamp(0.0, 1.0);
                    self.stepper.dense(theta, &mut self.z_dense[..dims]);
                }
                self.fill_state(ts, dense);
                self.push_row(ts, false, sink, false);
            }
            self.next_sample += 1;
        }
    }

    /// Advances `t` to `t_end` after a step (or a quiet stretch), folding the increments.
    fn commit(&mut self, t_end: f64) {
        let k = self.active.len();
        self.w_p += self.z[2 * k] + self.stuck_plate_work(self.t, t_end);
        self.w_f += self.z[2 * k + 1];
        self.z[2 * k] = 0.0;
        self.z[2 * k + 1] = 0.0;
        self.t = t_end;
    }

    /// Breaks every stuck block whose force has reached the threshold (after a switch) and
    /// sticks none: a block that stuck with its force above 1 slips on at once.
    fn settle(&mut self, candidates: &[usize]) {
        for &j in candidates {
            if self.model.stuck[j] && self.force(self.t, &self.z, j) >= 1.0 {
                self.slip(j, 0.0);
                self.stats.events += 1;
            }
        }
    }

    /// One step from `t`, ending at `t_stop` at the latest and on the queue's next
    /// break-away if that comes first; returns after any switch it lands on.
    fn step(
        &mut self,
        t_stop: f64,
        land_on_due: Option<Due>,
        sink: &mut dyn SampleSink,
    ) -> Result<(), SimError> {
        let h_max = t_stop - self.t;
        let k = self.active.len();
        let dims = 2 * k + 2;
        self.tol.n_controlled = 2 * k;
        loop {
            let mut h = self.h.min(h_max);
            let landing = match land_on_due {
                Some(d) if d.0 - self.t <= h => {
                    h = d.0 - self.t;
                    true
                }
                _ => false,
            };
            if h < H_MIN && !landing {
                return Err(SimError::StepTooSmall {
                    t_s: self.t,
                    h_s: h,
                    method: "Carlson–Langer active set (Dormand–Prince 5(4))",
                });
            }
            let err = {
                let mut stepper = std::mem::replace(&mut self.stepper, Dopri5::new(0));
                let mut z_new = std::mem::take(&mut self.z_new);
                let cluster = Cluster { run: self, k };
                let e = stepper.step(
                    &cluster,
                    self.t,
                    &self.z[..dims],
                    h.max(0.0),
                    &mut z_new[..dims],
                    &self.tol,
                );
                self.stepper = stepper;
                self.z_new = z_new;
                e
            };
            if !err.is_finite()
                && let Some(i) = self.z_new[..dims].iter().position(|v| !v.is_finite())
                && h <= H_MIN
            {
                return Err(SimError::NonFinite {
                    t_s: self.t,
                    name: format!("state {i} of the slipping blocks"),
                    value: self.z_new[i],
                });
            }
            if err.is_nan() || err > 1.0 {
                self.stats.rejected += 1;
                let shrink = if err.is_finite() {
                    (0.9 * err.powf(-0.2)).clamp(0.2, 1.0)
                } else {
                    0.2
                };
                self.h = h * shrink;
                continue;
            }
            self.stats.steps += 1;
            {
                let (z, z_new) = (&self.z[..dims], &self.z_new[..dims]);
                self.stepper.prepare_dense(z, z_new);
            }
            // Earliest switch inside the step: each guard is checked at the step's ends and
            // at two interior points of the dense output, so a velocity that dips below zero
            // and comes back within one step is not missed.
            let mut probes = std::mem::take(&mut self.probes);
            probes.resize(2 * dims, 0.0);
            self.stepper.dense(PROBES[1], &mut probes[..dims]);
            self.stepper.dense(PROBES[2], &mut probes[dims..2 * dims]);
            let mut first: Option<(f64, usize, bool)> = None; // (θ, block, sticks)
            for s in 0..k {
                let i = 2 * s + 1;
                let g = [self.z[i], probes[i], probes[dims + i], self.z_new[i]];
                if let Some(theta) = self.locate(h, dims, &g, |_, _, zd| zd[i])
                    && first.is_none_or(|f| theta < f.0)
                {
                    first = Some((theta, self.active[s], true));
                }
            }
            for fi in 0..self.frontier.len() {
                let j = self.frontier[fi];
                let g = [
                    1.0 - self.force(self.t, &self.z, j),
                    1.0 - self.force(self.t + PROBES[1] * h, &probes[..dims], j),
                    1.0 - self.force(self.t + PROBES[2] * h, &probes[dims..], j),
                    1.0 - self.force(self.t + h, &self.z_new, j),
                ];
                if let Some(theta) = self.locate(h, dims, &g, |run, t, zd| 1.0 - run.force(t, zd, j))
                    && first.is_none_or(|f| theta < f.0)
                {
                    first = Some((theta, j, false));
                }
            }
            self.probes = probes;
            let next_h = h * (0.9 * err.max(1e-10).powf(-0.2)).clamp(0.2, 5.0);
            match first {
                Some((theta, j, sticks)) => {
                    let t_e = self.t + theta * h;
                    self.emit_samples(t_e, h, sink);
                    self.stepper.dense(theta, &mut self.z_dense[..dims]);
                    self.z[..dims].copy_from_slice(&self.z_dense[..dims]);
                    self.commit(t_e);
                    self.stepper.reset();
                    self.stats.events += 1;
                    if sticks {
                        let s = self.slot[j];
                        self.z[2 * s + 1] = 0.0;
                        self.stick(j);
                        if j == 0 && self.track_sections {
                            self.fill_state(self.t, false);
                            self.push_row(self.t, false, sink, true);
                        }
                        self.settle(&[j]);
                    } else {
                        self.slip(j, 0.0);
                    }
                    self.h = next_h.max(1e-6);
                }
                None => {
                    let t_e = if h >= h_max { t_stop } else { self.t + h };
                    self.emit_samples(t_e, h, sink);
                    self.z[..dims].copy_from_slice(&self.z_new[..dims]);
                    self.commit(t_e);
                    if landing {
                        self.stepper.reset();
                        if let Some(d) = land_on_due {
                            self.slip(d.1, 0.0);
                            self.stats.events += 1;
                        }
                    } else {
                        self.stepper.accept();
                        self.h = next_h;
                    }
                }
            }
            return Ok(());
        }
    }

    /// The first `θ` of the step of size `h` just taken where the guard `g(run, t, dense
    /// state)` goes from `≥ 0` to `< 0`, given its values at the [`PROBES`]; `Some(0)` when it
    /// is already negative at the start (the switch is due now), `None` when it stays `≥ 0`.
    fn locate(
        &self,
        h: f64,
        dims: usize,
        at_probes: &[f64; 4],
        g: impl Fn(&Self, f64, &[f64]) -> f64,
    ) -> Option<f64> {
        if at_probes[0] < 0.0 {
            return Some(0.0);
        }
        let i = (1..4).find(|&i| at_probes[i] < 0.0)?;
        let mut buf = vec![0.0; dims];
        let tol = (1e-13 / h.max(1e-300)).min(1e-6);
        Some(illinois(
            |theta| {
                self.stepper.dense(theta, &mut buf);
                g(self, self.t + theta * h, &buf)
            },
            PROBES[i - 1],
            PROBES[i],
            tol,
        ))
    }
}

impl Model for Cluster<'_> {
    fn dim(&self) -> usize {
        2 * self.k + 2
    }

    fn state_names(&self) -> Vec<String> {
        Vec::new()
    }

    fn state_scales(&self, _scales: &mut [f64]) {}

    fn rhs(&self, t: f64, z: &[f64], dz: &mut [f64]) {
        let run = self.run;
        let nu = run.nu();
        let (mut dp, mut df) = (0.0, 0.0);
        for s in 0..self.k {
            let j = run.active[s];
            let (y, v) = (z[2 * s], z[2 * s + 1]);
            let phi = run.model.params.friction(v.max(0.0));
            dz[2 * s] = v - nu;
            dz[2 * s + 1] = run.force(t, z, j) - phi;
            dp -= nu * y;
            df -= phi * v;
        }
        dz[2 * self.k] = dp;
        dz[2 * self.k + 1] = df;
    }

    fn columns(&self) -> Vec<Column> {
        Vec::new()
    }

    fn observe(&self, _t: f64, _y: &[f64], _row: &mut [f64]) {}
}

impl Engine for ActiveSetRun {
    fn advance(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        while self.t < t_stop {
            let due = self.next_due();
            if self.active.is_empty() {
                let t_next = due.map_or(t_stop, |d| d.0.min(t_stop));
                self.emit_samples(t_next, 0.0, sink);
                self.commit(t_next);
                if let Some(d) = due
                    && d.0 <= t_stop
                {
                    self.queue.pop();
                    self.slip(d.1, 0.0);
                    self.stats.events += 1;
                }
                continue;
            }
            self.step(t_stop, due, sink)?;
        }
        // The samples at exactly t_stop.
        self.emit_samples(t_stop.min(self.t), 0.0, sink);
        self.fill_state(self.t, false);
        Ok(())
    }

    fn time_s(&self) -> f64 {
        self.t
    }

    fn state(&self) -> &[f64] {
        &self.y_full
    }

    fn columns(&self) -> Vec<Column> {
        let mut v = vec![self.model.time_column()];
        v.extend(self.model.columns());
        v.push(Column::new("event", "").role(crate::integrate::Role::EventFlag));
        v
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = CarlsonLangerParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if params.n_blocks() != self.model.n || params.ends != self.model.params.ends {
            return Err(Restart::Changed(
                "the number of blocks or the ends changed".into(),
            ));
        }
        self.plate_ref = self.plate(self.t);
        self.t_ref = self.t;
        self.model.params = params.clone();
        // New stiffness or plate speed: every closed-form break-away time changes.
        self.queue.clear();
        for j in 0..self.model.n {
            if self.model.stuck[j] && self.slipping_neighbours[j] == 0 {
                self.schedule(j);
            }
        }
        self.stepper.reset();
        Ok(())
    }

    fn method_name(&self) -> &'static str {
        "active set (Dormand–Prince 5(4))"
    }

    fn section_names(&self) -> Vec<String> {
        self.model.section_names()
    }

    fn track_sections(&mut self, _strobe_period_s: Option<f64>) {
        self.track_sections = true;
    }

    fn stats(&self) -> Stats {
        Stats {
            rhs_evals: self.stepper.rhs_evals(),
            ..self.stats
        }
    }
}
