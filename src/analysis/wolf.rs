//! Largest Lyapunov exponent from a series by Wolf, Swift, Swinney & Vastano (1985), fixed
//! evolution time (MODELS §4.5).
//! ```text
//! y₀ reference, z₀ its nearest neighbour (|i − j| > w, distance > s_min)
//! repeat: L = ‖y − z‖;  evolve both Δ samples;  L′ = ‖y′ − z′‖;  S += ln(L′/L)
//!         if L′ > s_max: replace z′ by the point z″ near y′ (s_min < ‖z″ − y′‖ ≤ s_max,
//!                        outside the Theiler window) whose separation makes the smallest
//!                        angle θ with y′ − z′ (θ ≤ θ_max); none ⇒ keep z′
//! λ₁ = S / (M·Δ·t_s)  [1/s]       (λ₁/ln 2 in bits/s)
//! ```
//! Angles are taken between lines (|cos θ|): the sign of a separation does not matter in the
//! linear regime. When the kept neighbour runs off the end of the record, it is replaced by the
//! plain nearest neighbour (counted as a restart).
//!
//! **Defaults** ([`WolfOptions::for_series`]): Δ = ⌈τ/2⌉, θ_max = 0.3 rad, s_min = 0.1 % and
//! s_max = 4 % of the series' range. MODELS (after Wolf) says "~10 % of attractor size"; on
//! Lorenz x (τ = 16, d = 3, N = 2–3·10⁴, four starts) s_max = 10 % gives λ₁ ≈ 0.52–0.70 1/s
//! (replacements sit where separations already grow sub-exponentially), 3–5 % gives
//! 0.83–0.99, 4 % gives 0.86–0.92 against 0.906; Hénon x gives 0.42 for 3–10 %.

use super::embedding::{Embedding, Norm};
use super::error::{SeriesError, range_of};
use super::neighbours::{NeighbourIndex, nearest_outside_window};

/// Settings of Wolf's algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WolfOptions {
    /// Embedding dimension d.
    pub dim: usize,
    /// Delay τ [samples].
    pub delay: usize,
    /// Theiler window w [samples].
    pub theiler: usize,
    /// Evolution time Δ [samples].
    pub evolve: usize,
    /// Largest separation kept before a replacement, s_max (series unit).
    pub scale_max: f64,
    /// Smallest admissible separation (noise level), s_min (series unit).
    pub scale_min: f64,
    /// Largest angle between the old and the replacement separation θ_max [rad].
    pub max_angle_rad: f64,
}

impl WolfOptions {
    /// The defaults of the module doc for `series`.
    pub fn for_series(series: &[f64], dim: usize, delay: usize, theiler: usize) -> Self {
        let range = range_of(series);
        Self {
            dim,
            delay,
            theiler,
            evolve: delay.div_ceil(2).max(1),
            scale_max: 0.04 * range,
            scale_min: 1e-3 * range,
            max_angle_rad: 0.3,
        }
    }
}

/// Wolf estimate and bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WolfResult {
    /// λ₁ [1/s].
    pub lambda_per_s: f64,
    /// λ₁ [bits/s].
    pub bits_per_s: f64,
    /// Number of evolution steps M.
    pub steps: usize,
    /// Replacements made by the angle criterion.
    pub replacements: usize,
    /// Steps where no replacement qualified and the grown pair was kept.
    pub kept: usize,
    /// Restarts from the plain nearest neighbour (end of record reached).
    pub restarts: usize,
    /// Evolution time Δ·t_s [s].
    pub evolve_s: f64,
}

/// Runs Wolf's algorithm on `series` sampled every `dt_s` seconds (module doc).
pub fn wolf(series: &[f64], dt_s: f64, o: &WolfOptions) -> Result<WolfResult, SeriesError> {
    const WHAT: &str = "Wolf's method";
    let bad = |message: String| SeriesError::InvalidParameter {
        what: WHAT,
        message,
    };
    if !(dt_s > 0.0 && dt_s.is_finite()) || o.evolve == 0 {
        return Err(bad(format!(
            "needs t_s > 0 and Δ ≥ 1, got {dt_s} and {}",
            o.evolve
        )));
    }
    if !(o.scale_min >= 0.0 && o.scale_max > o.scale_min && o.max_angle_rad > 0.0) {
        return Err(bad(format!(
            "needs 0 ≤ s_min < s_max and θ_max > 0, got {}, {}, {}",
            o.scale_min, o.scale_max, o.max_angle_rad
        )));
    }
    let emb = Embedding::new(series, o.dim, o.delay)?;
    let m = emb.len();
    let need = 4 * o.evolve + 2 * o.theiler + 10;
    if m < need {
        return Err(SeriesError::TooShort {
            what: WHAT,
            got: m,
            need,
        });
    }
    let index = NeighbourIndex::build(&emb, 0..m - o.evolve, Norm::Euclidean);
    let restart = |r: usize| nearest_outside_window(&emb, &index, r, o.theiler, o.scale_min);
    let no_pair = SeriesError::NoNeighbours {
        what: WHAT,
        theiler: o.theiler,
    };
    let mut z = restart(0).ok_or(no_pair.clone())?.index;
    let (mut r, mut sum, mut steps) = (0usize, 0.0, 0usize);
    let (mut replacements, mut kept, mut restarts) = (0, 0, 0);
    let (mut y, mut old) = (vec![0.0; o.dim], vec![0.0; o.dim]);
    let cos_min = o.max_angle_rad.min(std::f64::consts::FRAC_PI_2).cos();
    while r + o.evolve < m {
        let before = emb.distance(r, z, Norm::Euclidean);
        let (r1, z1) = (r + o.evolve, z + o.evolve);
        let after = emb.distance(r1, z1, Norm::Euclidean);
        if after > 0.0 {
            sum += (after / before).ln();
            steps += 1;
        }
        r = r1;
        if r + o.evolve >= m {
            break;
        }
        let z_can_go_on = z1 + o.evolve < m;
        if after <= o.scale_max && after > o.scale_min && z_can_go_on {
            z = z1;
            continue;
        }
        emb.copy_point(r, &mut y);
        for (j, v) in old.iter_mut().enumerate() {
            *v = emb.coord(z1, j) - y[j];
        }
        let mut best: Option<(f64, usize)> = None;
        index.within(&y, o.scale_max, |nb| {
            if nb.index.abs_diff(r) <= o.theiler || nb.dist <= o.scale_min || after <= 0.0 {
                return;
            }
            let dot: f64 = (0..o.dim)
                .map(|j| (emb.coord(nb.index, j) - y[j]) * old[j])
                .sum();
            let cos = (dot / (nb.dist * after)).abs();
            if cos >= cos_min && best.is_none_or(|b| cos > b.0) {
                best = Some((cos, nb.index));
            }
        });
        if let Some((_, j)) = best {
            z = j;
            replacements += 1;
        } else if z_can_go_on && after > 0.0 {
            z = z1;
            kept += 1;
        } else {
            z = restart(r).ok_or(no_pair.clone())?.index;
            restarts += 1;
        }
    }
    if steps == 0 {
        return Err(no_pair);
    }
    let lambda = sum / (steps * o.evolve) as f64 / dt_s;
    Ok(WolfResult {
        lambda_per_s: lambda,
        bits_per_s: lambda / std::f64::consts::LN_2,
        steps,
        replacements,
        kept,
        restarts,
        evolve_s: o.evolve as f64 * dt_s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_map_gives_ln_2() {
        // r = 4: λ = ln 2 per iteration (MODELS §5); dt = 0.5 s doubles the rate per second.
        let mut x = 0.3_f64;
        let s: Vec<f64> = (0..6000)
            .map(|_| {
                x = 4.0 * x * (1.0 - x);
                x
            })
            .collect();
        let o = WolfOptions::for_series(&s, 1, 1, 2);
        let r = wolf(&s, 0.5, &o).unwrap();
        let ln2 = std::f64::consts::LN_2;
        assert!((r.lambda_per_s - 2.0 * ln2).abs() < 0.1 * ln2, "{r:?}");
        assert!((r.bits_per_s - r.lambda_per_s / ln2).abs() < 1e-12);
        assert!(r.replacements > 0);
    }

    #[test]
    fn rejects_bad_scales() {
        let s: Vec<f64> = (0..500).map(|n| (n as f64 * 0.3).sin()).collect();
        let mut o = WolfOptions::for_series(&s, 2, 1, 1);
        o.scale_max = 0.0;
        assert!(matches!(
            wolf(&s, 1.0, &o),
            Err(SeriesError::InvalidParameter { .. })
        ));
    }
}
