//! Stochastic normal-load fluctuation, a modifier on any law (MODELS §2.12, [PROPOSED] there;
//! S1 only mentions random normal-force variation):
//! ```text
//! N(t) = max(0, N_det(t)·(1 + σ_N·ζ(t)))
//! ζ_{k+1} = ζ_k·e^(−Δt/τ_c) + sqrt(1 − e^(−2Δt/τ_c))·n_k,   n_k ~ N(0, 1),  ζ_0 = n_0
//! ```
//! ζ is a unit-variance Ornstein–Uhlenbeck process sampled exactly on the grid `t_k = k·Δt` from
//! the crate's own seeded generator, so a seed reproduces the same load history forever.
//! Between grid points ζ is interpolated linearly and renormalised (we chose continuity over
//! MODELS' hold, so adaptive integrators see no jumps; the grid step stays the user's knob for
//! the bandwidth):
//! ```text
//! ζ(t_k + w·Δt) = ((1 − w)·ζ_k + w·ζ_{k+1}) / sqrt((1 − w)² + w² + 2w(1 − w)·ρ),   ρ = e^(−Δt/τ_c)
//! ```
//! Plain linear interpolation would have variance `(1 − w)² + w² + 2w(1 − w)ρ` (as low as
//! `(1 + ρ)/2` mid-step, on average `2/3 + ρ/3`), so σ_N would not be the load's standard
//! deviation; the divisor makes the variance 1 at every instant. A grid step above τ_c/10 is
//! refused ([`GRID_STEPS_PER_TAU`]): the interpolation smooths over a step, so the correlation
//! time is τ_c only with several steps per τ_c.

use std::cell::RefCell;
use std::collections::VecDeque;

use crate::util::rng::SplitMix64;

crate::param_struct! {
    /// Normal-load noise parameters.
    pub struct NoiseParams {
        /// Relative standard deviation of the normal load.
        sigma: "sigma" = 0.05, "Load noise level", "σ_N", "", [0.0, 0.5], Linear;
        /// Correlation time of the fluctuation.
        correlation_time_s: "correlation_time" = 0.01, "Correlation time", "τ_c", "s", [1e-4, 10.0], Log;
        /// Spacing of the noise grid.
        grid_step_s: "grid_step" = 1e-3, "Noise grid step", "Δt", "s", [1e-5, 1.0], Log;
    }
    extra {
        /// Seed of the random generator.
        seed: "seed": u64 = 1;
    }
    consistency = |p: &Self| crate::params::not_above(
        ("grid_step", "Δt", p.grid_step_s),
        ("correlation_time/10", "τ_c/10", p.correlation_time_s / GRID_STEPS_PER_TAU),
        "the fluctuation is drawn on a grid of step Δt and interpolated between its points; \
         its correlation time is τ_c (within 4 %) only with at least ten grid steps per τ_c",
    );
}

/// Fewest grid steps per correlation time: with ten, the correlation of the interpolated
/// process at lag τ_c is 0.381 against e^(−1) = 0.368 (averaged over the phase in the step);
/// with five it would be 0.395, with one 0.562.
pub const GRID_STEPS_PER_TAU: f64 = 10.0;

/// Most grid values kept in memory; older ones are regenerated on demand (never in practice,
/// since integration only moves forward).
const WINDOW: usize = 1 << 16;

#[derive(Clone, Debug)]
struct Cache {
    rng: SplitMix64,
    first_index: u64,
    values: VecDeque<f64>,
}

/// A seeded realisation of the load noise.
#[derive(Clone, Debug)]
pub struct NormalLoadNoise {
    /// Parameters.
    pub params: NoiseParams,
    rho: f64,
    kick: f64,
    cache: RefCell<Cache>,
}

impl NormalLoadNoise {
    /// Noise with the given parameters, starting at `t = 0`.
    pub fn new(params: NoiseParams) -> Self {
        let rho = (-params.grid_step_s / params.correlation_time_s).exp();
        let kick = (1.0 - rho * rho).sqrt();
        let cache = Self::fresh_cache(params.seed);
        Self {
            params,
            rho,
            kick,
            cache: RefCell::new(cache),
        }
    }

    fn fresh_cache(seed: u64) -> Cache {
        let mut rng = SplitMix64::new(seed);
        let z0 = rng.normal();
        Cache {
            rng,
            first_index: 0,
            values: VecDeque::from([z0]),
        }
    }

    /// The unit-variance process ζ at grid index `k`.
    pub fn zeta_at_index(&self, k: u64) -> f64 {
        let mut c = self.cache.borrow_mut();
        if k < c.first_index {
            *c = Self::fresh_cache(self.params.seed);
        }
        while c.first_index + (c.values.len() as u64) <= k {
            let last = c.values.back().copied().unwrap_or(0.0);
            let next = last * self.rho + self.kick * c.rng.normal();
            c.values.push_back(next);
            if c.values.len() > WINDOW && c.first_index + (WINDOW as u64 / 2) < k {
                c.values.pop_front();
                c.first_index += 1;
            }
        }
        c.values[(k - c.first_index) as usize]
    }

    /// ζ(t) between grid points: interpolated linearly and renormalised to unit variance
    /// (t ≥ 0; see the module documentation).
    pub fn zeta(&self, t_s: f64) -> f64 {
        let x = t_s.max(0.0) / self.params.grid_step_s;
        let k = x.floor();
        let w = x - k;
        let k = k as u64;
        let a = self.zeta_at_index(k);
        if w == 0.0 {
            return a;
        }
        let b = self.zeta_at_index(k + 1);
        let variance = (1.0 - w).powi(2) + w * w + 2.0 * w * (1.0 - w) * self.rho;
        ((1.0 - w) * a + w * b) / variance.sqrt()
    }

    /// Multiplicative load factor `max(0, 1 + σ_N·ζ(t))`.
    pub fn factor(&self, t_s: f64) -> f64 {
        (1.0 + self.params.sigma * self.zeta(t_s)).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_history_and_correct_statistics() {
        let p = NoiseParams {
            correlation_time_s: 0.01,
            grid_step_s: 1e-3,
            ..NoiseParams::default()
        };
        let a = NormalLoadNoise::new(p.clone());
        let b = NormalLoadNoise::new(p.clone());
        let n = 400_000u64;
        let (mut s, mut s2, mut lag) = (0.0, 0.0, 0.0);
        let mut prev = a.zeta_at_index(0);
        for k in 0..n {
            let z = a.zeta_at_index(k);
            assert_eq!(z.to_bits(), b.zeta_at_index(k).to_bits());
            s += z;
            s2 += z * z;
            if k > 0 {
                lag += z * prev;
            }
            prev = z;
        }
        let nf = n as f64;
        let var = s2 / nf - (s / nf).powi(2);
        // 400 000 samples with correlation time 10 samples: ~20 000 independent ones.
        assert!((var - 1.0).abs() < 0.05, "variance {var}");
        let rho = lag / (nf - 1.0) / var;
        let expected = (-0.1f64).exp();
        assert!(
            (rho - expected).abs() < 0.01,
            "lag-1 correlation {rho} vs {expected}"
        );
    }

    #[test]
    fn interpolates_between_grid_points() {
        let noise = NormalLoadNoise::new(NoiseParams::default());
        let (a, b) = (noise.zeta_at_index(3), noise.zeta_at_index(4));
        let mid = noise.zeta(3.5e-3);
        let rho = (-0.1f64).exp();
        let expected = 0.5 * (a + b) / (0.5 * (1.0 + rho)).sqrt();
        assert!((mid - expected).abs() < 1e-12);
        // Continuous at the grid points.
        assert!((noise.zeta(4e-3 - 1e-15) - b).abs() < 1e-9);
    }

    /// Regression: plain linear interpolation had variance 2/3 + ρ/3 between grid points
    /// (about 0.70 at τ_c = Δt), so the load's standard deviation was not σ_N. Sampled off the
    /// grid, the variance is 1 and the correlation at lag τ_c is e^(−1).
    #[test]
    fn off_grid_samples_have_unit_variance_and_the_stated_correlation_time() {
        for (tau_c, dt) in [(1e-3, 1e-4), (1e-2, 1e-3)] {
            let p = NoiseParams {
                correlation_time_s: tau_c,
                grid_step_s: dt,
                ..NoiseParams::default()
            };
            let noise = NormalLoadNoise::new(p);
            let mut rng = SplitMix64::new(7);
            let n = 200_000;
            let (mut s, mut s2, mut sxy) = (0.0, 0.0, 0.0);
            // Points spaced 3τ_c apart at random phases: nearly independent samples.
            for i in 0..n {
                let t = (i as f64 * 3.0 + rng.uniform_open()) * tau_c;
                let z = noise.zeta(t);
                s += z;
                s2 += z * z;
                sxy += z * noise.zeta(t + tau_c);
            }
            let nf = n as f64;
            let var = s2 / nf - (s / nf).powi(2);
            assert!((var - 1.0).abs() < 0.02, "τ_c {tau_c}: variance {var}");
            let corr = sxy / nf / var;
            let expected = (-1.0f64).exp();
            assert!(
                (corr - expected).abs() < 0.03,
                "τ_c {tau_c}: correlation at lag τ_c {corr} vs {expected}"
            );
        }
    }

    #[test]
    fn a_grid_coarser_than_the_correlation_time_is_refused() {
        use crate::params::ParamSet;
        let p = NoiseParams {
            correlation_time_s: 1e-3,
            grid_step_s: 2e-4,
            ..NoiseParams::default()
        };
        let problems = p.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, "grid_step");
        assert!(
            problems[0].1.contains("correlation_time"),
            "{}",
            problems[0].1
        );
        let fine = NoiseParams {
            correlation_time_s: 1e-3,
            grid_step_s: 1e-4,
            ..NoiseParams::default()
        };
        assert!(fine.problems().is_empty());
    }
}
