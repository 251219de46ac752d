//! Stochastic normal-load fluctuation, a modifier on any law (MODELS §2.12, [PROPOSED] there;
//! S1 only mentions random normal-force variation):
//! ```text
//! N(t) = max(0, N_det(t)·(1 + σ_N·ζ(t)))
//! ζ_{k+1} = ζ_k·e^(−Δt/τ_c) + sqrt(1 − e^(−2Δt/τ_c))·n_k,   n_k ~ N(0, 1),  ζ_0 = n_0
//! ```
//! ζ is a unit-variance Ornstein–Uhlenbeck process sampled exactly on the grid `t_k = k·Δt` from
//! the crate's own seeded generator, so a seed reproduces the same load history forever.
//! Between grid points ζ is interpolated linearly (we chose continuity over MODELS' hold, so
//! adaptive integrators see no jumps; the grid step stays the user's knob for the bandwidth).

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
}

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

    /// ζ(t), linearly interpolated between grid points (t ≥ 0).
    pub fn zeta(&self, t_s: f64) -> f64 {
        let x = t_s.max(0.0) / self.params.grid_step_s;
        let k = x.floor();
        let frac = x - k;
        let k = k as u64;
        let a = self.zeta_at_index(k);
        if frac == 0.0 {
            a
        } else {
            a + frac * (self.zeta_at_index(k + 1) - a)
        }
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
        assert!((mid - 0.5 * (a + b)).abs() < 1e-12);
    }
}
