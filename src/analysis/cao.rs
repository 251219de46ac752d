//! Cao's method (Cao 1997; MODELS §4.5): minimum embedding dimension and a noise test.
//! ```text
//! y_i(d) delay vectors (max norm), n(i,d) nearest neighbour of y_i(d) outside the Theiler window
//! a(i,d) = ‖y_i(d+1) − y_n(d+1)‖ / ‖y_i(d) − y_n(d)‖,      E(d)  = mean_i a(i,d)
//! E*(d)  = mean_i |s_{i+dτ} − s_{n+dτ}|  (the coordinate that d+1 adds)
//! E1(d) = E(d+1)/E(d),   E2(d) = E*(d+1)/E*(d)
//! ```
//! With the backward vectors of [`Embedding`] the added coordinate is `s_{n−dτ}`; vectors are
//! taken where it exists (`n ≥ dτ`), so each `E(d)` averages `N − dτ` points.
//!
//! **Dimension rule**: E1 climbs to ≈ 1 once the attractor is unfolded. The dimension is the
//! smallest `d` with `E1(d) ≥ 0.85` that stays there (`E1(d′) ≥ 0.85` for every larger computed
//! `d′`) and no longer changes (`|E1(d+1) − E1(d)| ≤ 0.1`). Lorenz x (τ = 16): E1 = 0.10, 0.91,
//! 0.92 … ⇒ 3; Hénon x (τ = 1): E1(2) = 0.93, E1(3) = 0.97 ⇒ 2 (MODELS §5). The last computed
//! `d` cannot be confirmed and is never chosen.
//!
//! **Noise flag**: for deterministic data E2 differs from 1 at some small `d` (its future is
//! predictable from the past); for independent samples `E2(d) ≈ 1` for all `d`. Flagged when
//! `|E2(d) − 1| ≤ 0.1` for every computed `d` (white noise, N = 2·10⁴: max deviation ≈ 0.01;
//! Lorenz: E2(1) ≈ 0.11; Hénon: E2(1) ≈ 0.003). Where `E*(d) = 0` (every neighbour predicts the
//! added coordinate exactly: a quantised or exactly repeating series) `E2(d)` is undefined and
//! reported as missing, never as NaN or ∞; such a series is not flagged as noise.

use super::embedding::{Embedding, Norm};
use super::error::SeriesError;
use super::neighbours::{NeighbourIndex, nearest_outside_window};

/// E1 level that counts as "saturated" (≈ 1).
pub const E1_PLATEAU: f64 = 0.85;
/// Largest change of E1 between consecutive dimensions on the plateau.
pub const E1_STEADY: f64 = 0.1;
/// Half-width of the band around 1 in which every E2 must lie to flag noise.
pub const E2_NOISE_BAND: f64 = 0.1;

/// Settings of Cao's method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaoOptions {
    /// Delay τ [samples].
    pub delay: usize,
    /// Largest dimension `d` for which `E1(d)`, `E2(d)` are computed.
    pub max_dim: usize,
    /// Theiler window: neighbours must be more than this many samples apart.
    pub theiler: usize,
}

/// Cao's curves and verdicts; entry `k` of each vector belongs to `d = k + 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct CaoResult {
    /// `E(d)`, `d = 1 ..= max_dim + 1`.
    pub e: Vec<f64>,
    /// `E*(d)`, `d = 1 ..= max_dim + 1`.
    pub e_star: Vec<f64>,
    /// `E1(d)`, `d = 1 ..= max_dim`.
    pub e1: Vec<f64>,
    /// `E2(d)`, `d = 1 ..= max_dim`; `None` where `E*(d) = 0` (every nearest neighbour
    /// predicts the added coordinate exactly — a quantised or exactly repeating series — and
    /// the ratio is undefined).
    pub e2: Vec<Option<f64>>,
    /// Minimum embedding dimension by the rule of the module doc (`None`: E1 never settles).
    pub dimension: Option<usize>,
    /// Whether E2 ≈ 1 for all d (the series looks like noise).
    pub noise: bool,
}

/// `E(d)` and `E*(d)` for one dimension.
fn e_and_e_star(series: &[f64], d: usize, o: &CaoOptions) -> Result<(f64, f64), SeriesError> {
    let emb = Embedding::new(series, d, o.delay)?;
    let tau = o.delay;
    let index = NeighbourIndex::build(&emb, tau..emb.len(), Norm::Max);
    let (mut sum_a, mut sum_star, mut count) = (0.0, 0.0, 0usize);
    for i in tau..emb.len() {
        let Some(nb) = nearest_outside_window(&emb, &index, i, o.theiler, 0.0) else {
            continue;
        };
        let extra =
            (series[emb.anchor(i) - d * tau] - series[emb.anchor(nb.index) - d * tau]).abs();
        sum_a += nb.dist.max(extra) / nb.dist;
        sum_star += extra;
        count += 1;
    }
    if count == 0 {
        return Err(SeriesError::NoNeighbours {
            what: "Cao's method",
            theiler: o.theiler,
        });
    }
    Ok((sum_a / count as f64, sum_star / count as f64))
}

/// Runs Cao's method for `d = 1 ..= max_dim` (module doc).
pub fn cao(series: &[f64], opts: &CaoOptions) -> Result<CaoResult, SeriesError> {
    cao_reporting(series, opts, &mut |_| {})
}

/// [`cao`], calling `progress(d)` before each dimension `d = 1 ..= max_dim + 1` is computed
/// (the slow part of a long series' analysis).
pub fn cao_reporting(
    series: &[f64],
    opts: &CaoOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<CaoResult, SeriesError> {
    if opts.max_dim < 2 || opts.delay == 0 {
        return Err(SeriesError::InvalidParameter {
            what: "Cao's method",
            message: format!(
                "needs max_dim ≥ 2 and delay ≥ 1, got {} and {}",
                opts.max_dim, opts.delay
            ),
        });
    }
    let need = (opts.max_dim + 1) * opts.delay + 2 * opts.theiler + 10;
    if series.len() < need {
        return Err(SeriesError::TooShort {
            what: "Cao's method",
            got: series.len(),
            need,
        });
    }
    let (mut e, mut e_star) = (Vec::new(), Vec::new());
    for d in 1..=opts.max_dim + 1 {
        progress(d);
        let (a, b) = e_and_e_star(series, d, opts)?;
        e.push(a);
        e_star.push(b);
    }
    let e1: Vec<f64> = e.windows(2).map(|w| w[1] / w[0]).collect();
    let e2: Vec<Option<f64>> = e_star
        .windows(2)
        .map(|w| (w[0] > 0.0).then(|| w[1] / w[0]))
        .collect();
    Ok(CaoResult {
        dimension: dimension_from_e1(&e1),
        // An exactly predicted coordinate (undefined E2) is determinism, not noise.
        noise: e2
            .iter()
            .all(|v| v.is_some_and(|v| (v - 1.0).abs() <= E2_NOISE_BAND)),
        e,
        e_star,
        e1,
        e2,
    })
}

/// Smallest `d` on a steady E1 plateau (module doc); `e1[k]` is `E1(k + 1)`.
pub fn dimension_from_e1(e1: &[f64]) -> Option<usize> {
    (0..e1.len().saturating_sub(1))
        .find(|&k| {
            e1[k..].iter().all(|&v| v >= E1_PLATEAU) && (e1[k + 1] - e1[k]).abs() <= E1_STEADY
        })
        .map(|k| k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_rule_on_the_sheet_values() {
        assert_eq!(dimension_from_e1(&[0.0, 0.94, 1.0, 0.99]), Some(2));
        assert_eq!(dimension_from_e1(&[0.0, 0.12, 0.92, 0.95, 0.96]), Some(3));
        // Still climbing: no plateau.
        assert_eq!(dimension_from_e1(&[0.15, 0.39, 0.58, 0.71, 0.78]), None);
        // A plateau that is left again does not count.
        assert_eq!(dimension_from_e1(&[0.1, 0.9, 0.6, 0.95, 0.97]), Some(4));
        // The last value alone cannot be confirmed.
        assert_eq!(dimension_from_e1(&[0.1, 0.2, 0.95]), None);
    }

    #[test]
    fn circle_is_unfolded_in_two_dimensions() {
        // x_n = cos(n·φ) with an irrational rotation: a circle, embedded by (x_n, x_{n−τ}).
        let phi = 0.5 * (5f64.sqrt() - 1.0);
        let s: Vec<f64> = (0..4000).map(|n| (n as f64 * phi).cos()).collect();
        let r = cao(
            &s,
            &CaoOptions {
                delay: 1,
                max_dim: 5,
                theiler: 0,
            },
        )
        .unwrap();
        assert_eq!(r.dimension, Some(2), "{:?}", r.e1);
        assert!(!r.noise, "{:?}", r.e2);
    }
}
