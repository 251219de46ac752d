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

use crate::integrate::driver::{DriverSettings, NullSink};
use crate::integrate::{Column, Method, Model, SimError, Simulation};
use crate::laws::{Contact, FrictionLaw, Law};
use crate::systems::reversal::Reversal;

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
    law: Law,
    recording: std::sync::Arc<Recording>,
    nominal_load_n: f64,
    n_law: usize,
    n_law_events: usize,
    reversal: Option<Reversal>,
    time_scale_s: f64,
}

impl SampledMotion {
    /// A rig playing `recording` to `law`, whose force parameters hold at `nominal_load_n`.
    pub fn new(law: Law, recording: std::sync::Arc<Recording>, nominal_load_n: f64) -> Self {
        let n_law = law.n_states();
        let n_law_events = law.n_events();
        let reversal = law
            .kinks_at_reversal()
            .then(|| Reversal::new(recording.v_mps[0]));
        let n = recording.t_s.len();
        let time_scale_s = if n > 1 {
            (recording.t_s[n - 1] - recording.t_s[0]) / (n - 1) as f64
        } else {
            1.0
        };
        Self {
            law,
            recording,
            nominal_load_n,
            n_law,
            n_law_events,
            reversal,
            time_scale_s,
        }
    }

    /// Initial state at the first sample: `x = 0`, the law's steady states there (where it
    /// defines them; else its rest state).
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; 1 + self.n_law];
        self.law.initial_states(&mut y[1..]);
        let (v, n) = (self.recording.v_mps[0], self.recording.load_n[0]);
        self.law.steady_states(v, n, &mut y[1..]);
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
        let mut ds = vec![0.0; self.n_law];
        self.law.eval(&self.contact(t), &y[1..], &mut ds)
    }
}

impl Model for SampledMotion {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        1 + self.n_law
    }

    fn state_names(&self) -> Vec<String> {
        let mut v = vec!["x".to_string()];
        v.extend(self.law.state_columns().into_iter().map(|c| c.name));
        v
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
        scales[0] = 1e-3;
        self.law.state_scales(&mut scales[1..]);
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        let c = self.contact(t);
        self.law.initialize(&c, &mut y[1..]);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let c = self.contact(t);
        dy[0] = c.v_rel_mps;
        self.law.eval(&c, &y[1..], &mut dy[1..]);
    }

    fn n_events(&self) -> usize {
        self.n_law_events + usize::from(self.reversal.is_some())
    }

    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let c = self.contact(t);
        let ne = self.n_law_events;
        self.law.events(&c, &y[1..], &mut g[..ne]);
        if let Some(r) = &self.reversal {
            g[ne] = r.guard(c.v_rel_mps);
        }
    }

    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        if index == self.n_law_events {
            if let Some(r) = self.reversal.as_mut() {
                r.flip();
            }
            return Ok(());
        }
        let c = self.contact(t);
        self.law.apply_event(index, &c, &mut y[1..]);
        Ok(())
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        if !self.law.has_after_step() {
            return false;
        }
        let c = self.contact(t);
        self.law.after_step(&c, &mut y[1..])
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = vec![
            Column::new("x", "m"),
            Column::new("v", "m/s"),
            Column::new("normal_load", "N"),
            Column::new("friction_force", "N"),
        ];
        cols.extend(self.law.state_columns());
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let c = self.contact(t);
        row[0] = y[0];
        row[1] = c.v_rel_mps;
        row[2] = c.normal_load_n;
        row[3] = self.force_n(t, y);
        row[4..4 + self.n_law].copy_from_slice(&y[1..]);
    }

    fn prefers_implicit(&self) -> bool {
        self.law.is_stiff()
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
