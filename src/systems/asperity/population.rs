//! The asperities of one seed: where each hangs (`ξ_i`), how far its tip reaches below the
//! body (`s_i`, from a zero-mean height distribution of spread `σ_s`) and how fast its normal
//! plastic element creeps (`τ_i`).

use serde::{Deserialize, Serialize};

use crate::params::ExtraField;
use crate::util::rng::SplitMix64;

/// Distribution of the asperity heights, each shifted to mean 0 and scaled to spread `σ_s`
/// (S2: the type hardly changes the hysteresis; the upper tail sets how many asperities touch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeightDistribution {
    /// `s = σ_s·z`, `z` standard normal.
    #[default]
    Gaussian,
    /// `s = σ_s·(E − 1)`, `E` exponential of mean 1: a long tail of tall asperities.
    Exponential,
    /// `s = σ_s·(e^{a·z} − e^{a²/2})/√((e^{a²} − 1)·e^{a²})`, `a = ½`: skewed toward tall ones.
    LogNormal,
}

impl ExtraField for HeightDistribution {
    fn choices() -> &'static [&'static str] {
        &["Gaussian", "Exponential", "LogNormal"]
    }
}

/// Shape parameter of the log-normal heights.
const LOG_NORMAL_SHAPE: f64 = 0.5;

impl HeightDistribution {
    /// One height of spread 1 and mean 0.
    fn draw(self, rng: &mut SplitMix64) -> f64 {
        match self {
            HeightDistribution::Gaussian => rng.normal(),
            HeightDistribution::Exponential => -rng.uniform_open().ln() - 1.0,
            HeightDistribution::LogNormal => {
                let a2 = LOG_NORMAL_SHAPE * LOG_NORMAL_SHAPE;
                let mean = (0.5 * a2).exp();
                let sd = ((a2.exp() - 1.0) * a2.exp()).sqrt();
                ((LOG_NORMAL_SHAPE * rng.normal()).exp() - mean) / sd
            }
        }
    }
}

/// The asperities of one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Population {
    /// Horizontal offset of each asperity from the body's reference point [m].
    pub offsets_m: Vec<f64>,
    /// How far each tip reaches below the body's reference height at rest [m].
    pub reach_m: Vec<f64>,
    /// Creep time of each normal plastic element [s].
    pub creep_times_s: Vec<f64>,
}

impl Population {
    /// `n` asperities spread uniformly over `n` mean wavelengths, heights of spread
    /// `spread_m`, creep times log-uniform over `[tau_min, tau_max]` (stratified: one per
    /// `n`-th of the log range, so few asperities still cover it), drawn from `seed`.
    pub fn draw(
        n: usize,
        distribution: HeightDistribution,
        spread_m: f64,
        wavelength_m: f64,
        (tau_min_s, tau_max_s): (f64, f64),
        seed: u64,
    ) -> Self {
        let mut rng = SplitMix64::new(seed);
        let span = n as f64 * wavelength_m;
        let offsets_m = (0..n).map(|_| span * rng.uniform_open()).collect();
        let reach_m = (0..n)
            .map(|_| spread_m * distribution.draw(&mut rng))
            .collect();
        let ratio = tau_max_s / tau_min_s;
        let creep_times_s = (0..n)
            .map(|i| tau_min_s * ratio.powf((i as f64 + rng.uniform_open()) / n as f64))
            .collect();
        Self {
            offsets_m,
            reach_m,
            creep_times_s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_height_distribution_has_mean_zero_and_the_spread_asked_for() {
        for d in [
            HeightDistribution::Gaussian,
            HeightDistribution::Exponential,
            HeightDistribution::LogNormal,
        ] {
            let p = Population::draw(200_000, d, 2e-6, 1e-4, (0.1, 10.0), 5);
            let n = p.reach_m.len() as f64;
            let mean = p.reach_m.iter().sum::<f64>() / n;
            let var = p.reach_m.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
            assert!(mean.abs() < 2e-8, "{d:?}: mean {mean}");
            assert!((var.sqrt() / 2e-6 - 1.0).abs() < 0.02, "{d:?}: spread {}", var.sqrt());
        }
    }

    #[test]
    fn creep_times_cover_the_log_range_evenly() {
        let p = Population::draw(1000, HeightDistribution::Gaussian, 1.0, 1.0, (0.01, 100.0), 2);
        let below_1s = p.creep_times_s.iter().filter(|&&t| t < 1.0).count();
        assert_eq!(below_1s, 500);
        assert!(p.creep_times_s.iter().all(|&t| (0.01..=100.0).contains(&t)));
    }
}
