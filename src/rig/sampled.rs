//! A friction law driven by a recorded motion: the sliding velocity `v(t)` and normal load
//! `N(t)` of a measurement, linear between its samples — the simulation a force-data fit of a
//! state law runs (MODELS §4.10, issue "identify friction from measurements").
//!
//! State `[x, law states…]`, `ẋ = v(t)`; the law sees `Contact { v_rel = v(t), N = N(t),
//! N/N₀ }`. Every sample time is a breakpoint, so steps end on the samples and the force can be
//! read there exactly; a velocity reversal inside a segment is an event for laws with a kink at
//! `v = 0`. A law that knows its steady state (`FrictionLaw::steady_states`: LuGre,
//! rate-and-state) starts in it at the first sample's velocity and load, the natural guess for a
//! record that starts while sliding; the others start at rest (undeflected elements), so a
//! record should start at rest or begin with a run-in the fit can spend on their transient.

use super::DrivenLaw;
use crate::integrate::driver::{DriverSettings, NullSink};
use crate::integrate::{Column, Method, Model, SimError, Simulation};
use crate::laws::{Contact, FrictionLaw, Law};

/// A recorded motion: sample times with the velocity and normal load at each.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// Sample times [s], strictly increasing.
    pub t_s: Vec<f64>,
    /// Sliding velocity `v_rel` [m/s] at each sample.
    pub v_mps: Vec<f64>,
    /// Normal load [N] at each sample.
    pub load_n: Vec<f64>,
}

impl Recording {
    /// Index `i` of the segment `[t_i, t_{i+1}]` holding `t` (clamped to the record).
    fn segment(&self, t: f64) -> usize {
        let n = self.t_s.len();
        self.t_s.partition_point(|&s| s <= t).clamp(1, n - 1) - 1
    }

    /// `(v, N)` at `t`, linear between samples, held beyond the ends.
    pub fn at(&self, t: f64) -> (f64, f64) {
        if self.t_s.len() == 1 {
            return (self.v_mps[0], self.load_n[0]);
        }
        let i = self.segment(t);
        let (t0, t1) = (self.t_s[i], self.t_s[i + 1]);
        let w = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
        (
            self.v_mps[i] + w * (self.v_mps[i + 1] - self.v_mps[i]),
            self.load_n[i] + w * (self.load_n[i + 1] - self.load_n[i]),
        )
    }
}

/// The rig as a [`Model`].
#[derive(Clone, Debug)]
pub struct SampledMotion {
    driven: DrivenLaw,
    recording: std::sync::Arc<Recording>,
    nominal_load_n: f64,
    time_scale_s: f64,
}

impl SampledMotion {
    /// A rig playing `recording` to `law`, whose force parameters hold at `nominal_load_n`.
    pub fn new(law: Law, recording: std::sync::Arc<Recording>, nominal_load_n: f64) -> Self {
        let n = recording.t_s.len();
        let time_scale_s = if n > 1 {
            (recording.t_s[n - 1] - recording.t_s[0]) / (n - 1) as f64
        } else {
            1.0
        };
        Self {
            driven: DrivenLaw::new(law, recording.v_mps[0]),
            recording,
            nominal_load_n,
            time_scale_s,
        }
    }

    /// Initial state at the first sample: `x = 0`, the law's steady states there (where it
    /// defines them; else its rest state).
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = self.driven.initial_state();
        let (v, n) = (self.recording.v_mps[0], self.recording.load_n[0]);
        self.driven.law().steady_states(v, n, &mut y[1..]);
        y
    }

    fn contact(&self, t: f64) -> Contact {
        let (v, n) = self.recording.at(t);
        Contact {
            load_ratio: n / self.nominal_load_n,
            ..Contact::kinematic(t, v, n)
        }
    }

    /// The friction force on the body at `t` in state `y` [N].
    pub fn force_n(&self, t: f64, y: &[f64]) -> f64 {
        self.driven.force_n(&self.contact(t), y)
    }
}

impl Model for SampledMotion {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        self.driven.dim()
    }

    fn state_names(&self) -> Vec<String> {
        self.driven.state_names()
    }

    fn time_scale_s(&self) -> f64 {
        self.time_scale_s
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        let times = &self.recording.t_s;
        let i = times.partition_point(|&s| s <= t);
        times.get(i).copied().unwrap_or(f64::INFINITY)
    }

    fn state_scales(&self, scales: &mut [f64]) {
        self.driven.state_scales(scales);
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t);
        self.driven.initialize(&c, y)
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.driven.rhs(&self.contact(t), y, dy);
    }

    fn n_events(&self) -> usize {
        self.driven.n_events()
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.driven.events(&self.contact(t), y, g);
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t);
        self.driven.apply_event(index, &c, y);
        Ok(())
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        let c = self.contact(t);
        self.driven.after_step(&c, y)
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = vec![
            Column::new("x", "m"),
            Column::new("v", "m/s"),
            Column::new("normal_load", "N"),
            Column::new("friction_force", "N"),
        ];
        cols.extend(self.driven.law().state_columns());
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let c = self.contact(t);
        let n_law = self.driven.n_law();
        row[0] = y[0];
        row[1] = c.v_rel_mps;
        row[2] = c.normal_load_n;
        row[3] = self.driven.force_n(&c, y);
        row[4..4 + n_law].copy_from_slice(&y[1..]);
    }

    fn prefers_implicit(&self) -> bool {
        self.driven.prefers_implicit()
    }
}

/// The friction force on the body at every sample of `recording` [N], the law simulated along
/// it with relative tolerance `rtol`.
pub fn force_along(
    law: Law,
    recording: std::sync::Arc<Recording>,
    nominal_load_n: f64,
    rtol: f64,
) -> Result<Vec<f64>, SimError> {
    let rig = SampledMotion::new(law, recording.clone(), nominal_load_n);
    let y0 = rig.initial_state();
    let t0 = recording.t_s[0];
    let mut sim = Simulation::new(
        Box::new(rig),
        y0,
        t0,
        DriverSettings {
            method: Method::Auto,
            rtol,
            rk4_dt_s: 1e-5,
            output_interval_s: (recording.t_s[recording.t_s.len() - 1] - t0).max(1e-9),
        },
    )?;
    let mut out = Vec::with_capacity(recording.t_s.len());
    let mut row = vec![0.0; sim.model().columns().len()];
    let mut sink = NullSink;
    for &t in &recording.t_s {
        if t > sim.time_s() {
            sim.advance(t, &mut sink)?;
        }
        // Every sample is a breakpoint, so the run stands exactly on it.
        sim.model().observe(sim.time_s(), sim.state(), &mut row);
        out.push(row[3]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::LawConfig;

    /// Uneven sample times from 0 to about 0.2 s.
    fn times() -> Vec<f64> {
        let mut t = vec![0.0];
        for i in 0..200 {
            let last = t[t.len() - 1];
            t.push(last + 5e-4 + 1e-3 * ((i * 37) % 11) as f64 / 11.0);
        }
        t
    }

    /// Dahl (α = 1) slid from rest at constant speed follows its closed-form branch
    /// `F = F_C·(1 − exp(−σx/F_C))` at every (uneven) sample.
    #[test]
    fn dahl_from_rest_follows_its_closed_form_at_every_sample() {
        let t = times();
        let v = 2e-5;
        let rec = std::sync::Arc::new(Recording {
            v_mps: vec![v; t.len()],
            load_n: vec![1.0; t.len()],
            t_s: t.clone(),
        });
        let law = LawConfig::Dahl(Default::default()).build();
        let f = force_along(law, rec, 1.0, 1e-11).expect("runs");
        for (ti, fi) in t.iter().zip(&f) {
            let expected = -(1.0 - (-1e5 * v * ti).exp());
            assert!((fi - expected).abs() < 1e-8, "t {ti}: {fi} vs {expected}");
        }
    }

    /// LuGre starts in its steady state, so a constant record reads the steady force at every
    /// sample (no start-up transient), at the load ratio of each sample.
    #[test]
    fn lugre_starts_steady_and_follows_the_load() {
        let t = times();
        let n = t.len();
        let load: Vec<f64> = (0..n).map(|i| 2.0 + (i % 2) as f64).collect();
        let rec = std::sync::Arc::new(Recording {
            v_mps: vec![0.01; n],
            load_n: load.clone(),
            t_s: t,
        });
        let law = LawConfig::LuGre(Default::default()).build();
        let f = force_along(law.clone(), rec, 2.0, 1e-11).expect("runs");
        assert!(
            (f[0] - law.steady_force(0.01, 2.0, 1.0)).abs() < 1e-12,
            "{}",
            f[0]
        );
        // The bristle state is the same at every load (z_ss = g/σ₀), so a load jump scales the
        // dry part at once.
        for (fi, n) in f.iter().zip(&load) {
            let expected = law.steady_force(0.01, *n, n / 2.0);
            assert!((fi - expected).abs() < 1e-6, "{fi} vs {expected}");
        }
    }
}

#[cfg(test)]
mod landing {
    use super::*;
    use crate::laws::LawConfig;

    /// Every sample time is reached exactly (the force is read there): each is a breakpoint.
    #[test]
    fn runs_stop_exactly_on_every_sample() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut t = vec![0.0];
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let last = t[t.len() - 1];
            t.push(last + 1e-3 * (0.3 + (state % 1000) as f64 / 1000.0));
        }
        let n = t.len();
        let rec = std::sync::Arc::new(Recording {
            v_mps: t.iter().map(|t| 0.01 * (20.0 * t).sin()).collect(),
            load_n: vec![1.0; n],
            t_s: t.clone(),
        });
        let rig = SampledMotion::new(LawConfig::LuGre(Default::default()).build(), rec, 1.0);
        let y0 = rig.initial_state();
        let mut sim = Simulation::new(
            Box::new(rig),
            y0,
            0.0,
            DriverSettings {
                method: Method::Auto,
                rtol: 1e-8,
                rk4_dt_s: 1e-5,
                output_interval_s: 10.0,
            },
        )
        .expect("starts");
        for &ti in &t[1..] {
            sim.advance(ti, &mut NullSink).expect("runs");
            assert_eq!(sim.time_s(), ti);
        }
    }
}
