//! Divergence curve of nearby trajectories (Sato et al. 1987, Kurths & Herzel 1987 = S1 eq 44;
//! Rosenstein, Collins & De Luca 1993; Kantz 1994; MODELS §4.5) and its straight part, whose
//! slope is the largest Lyapunov exponent.
//! ```text
//! Rosenstein: nn(n) = nearest neighbour of y_n (Euclidean) with |n − nn| > w (Theiler)
//!   L(k) = ⟨ ln(‖y_{n+k} − y_{nn+k}‖ / ‖y_n − y_nn‖) ⟩_n          (S1 eq 44: p(k) = L(k)/t_s)
//! Kantz: U_ε(n) = all y_m with ‖y_m − y_n‖ ≤ ε, |n − m| > w
//!   S(k) = ⟨ ln( ⟨‖y_{n+k} − y_{m+k}‖⟩_{m∈U_ε(n)} ) ⟩_n,   L(k) = S(k) − S(0)
//! λ₁ = slope of L against k·t_s over the straight region   [1/s]
//! ```
//! Both forms start at `L(0) = 0`; S1's p(k) is the same curve divided by `t_s`, so its slope
//! per step k is λ₁ in 1/s. Only pairs whose partners both stay inside the record for the
//! `K` steps are used. The straight region is found by [`find_straight_region`]; when there is
//! none, the series more likely is noise than chaos (MODELS §4.5).

use super::embedding::{Embedding, Norm};
use super::error::SeriesError;
use super::linefit::{LineFit, StraightCriteria, find_straight_region, fit_line};
use super::neighbours::{NeighbourIndex, nearest_outside_window};

/// How neighbours are gathered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DivergenceMethod {
    /// The nearest neighbour of each point (Rosenstein 1993).
    Rosenstein,
    /// Every neighbour within `radius` (Kantz 1994), in the series' unit.
    Kantz {
        /// Neighbourhood radius ε.
        radius: f64,
    },
}

/// Settings of the divergence curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DivergenceOptions {
    /// Embedding dimension d.
    pub dim: usize,
    /// Delay τ [samples].
    pub delay: usize,
    /// Theiler window w [samples].
    pub theiler: usize,
    /// Number of steps K the pairs are followed.
    pub max_steps: usize,
    /// Rosenstein or Kantz.
    pub method: DivergenceMethod,
}

/// `L(k)`, `k = 0 ..= K` (module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct DivergenceCurve {
    /// Sampling interval t_s [s].
    pub dt_s: f64,
    /// `L(k)` (natural log, dimensionless).
    pub values: Vec<f64>,
    /// Number of reference points that contributed.
    pub references: usize,
    /// Method used.
    pub method: DivergenceMethod,
}

impl DivergenceCurve {
    /// S1 eq 44 normalisation `p(k) = L(k)/t_s`.
    pub fn p_k(&self) -> Vec<f64> {
        self.values.iter().map(|v| v / self.dt_s).collect()
    }

    /// Straight region found automatically, slope in 1/s.
    pub fn fit_auto(&self, crit: &StraightCriteria) -> Option<LineFit> {
        find_straight_region(&self.values, self.dt_s, crit)
    }

    /// Line fitted over `k·t_s ∈ [t0_s, t1_s]`, slope in 1/s.
    pub fn fit_between(&self, t0_s: f64, t1_s: f64) -> Option<LineFit> {
        let a = (t0_s / self.dt_s).round().max(0.0) as usize;
        let b = ((t1_s / self.dt_s).round() as usize).min(self.values.len().saturating_sub(1));
        fit_line(&self.values, self.dt_s, a, b)
    }
}

/// Computes the divergence curve of `series` sampled every `dt_s` seconds (module doc).
pub fn divergence_curve(
    series: &[f64],
    dt_s: f64,
    opts: &DivergenceOptions,
) -> Result<DivergenceCurve, SeriesError> {
    const WHAT: &str = "divergence curve";
    if !(dt_s > 0.0 && dt_s.is_finite()) || opts.max_steps == 0 {
        return Err(SeriesError::InvalidParameter {
            what: WHAT,
            message: format!(
                "needs t_s > 0 and at least one step, got t_s = {dt_s}, K = {}",
                opts.max_steps
            ),
        });
    }
    let emb = Embedding::new(series, opts.dim, opts.delay)?;
    let k_max = opts.max_steps;
    let need = k_max + 2 * opts.theiler + 10;
    if emb.len() < need {
        return Err(SeriesError::TooShort {
            what: WHAT,
            got: emb.len(),
            need,
        });
    }
    let usable = emb.len() - k_max;
    let index = NeighbourIndex::build(&emb, 0..usable, Norm::Euclidean);
    let mut sums = vec![0.0; k_max + 1];
    let mut counts = vec![0usize; k_max + 1];
    let mut references = 0;
    let mut q = vec![0.0; emb.dim()];
    let mut partners = Vec::new();
    for n in 0..usable {
        match opts.method {
            DivergenceMethod::Rosenstein => {
                let Some(nb) = nearest_outside_window(&emb, &index, n, opts.theiler, 0.0) else {
                    continue;
                };
                references += 1;
                for k in 0..=k_max {
                    let d = emb.distance(n + k, nb.index + k, Norm::Euclidean);
                    if d > 0.0 {
                        sums[k] += (d / nb.dist).ln();
                        counts[k] += 1;
                    }
                }
            }
            DivergenceMethod::Kantz { radius } => {
                emb.copy_point(n, &mut q);
                partners.clear();
                index.within(&q, radius, |nb| {
                    if nb.index.abs_diff(n) > opts.theiler {
                        partners.push(nb.index);
                    }
                });
                if partners.is_empty() {
                    continue;
                }
                references += 1;
                for k in 0..=k_max {
                    let mean = partners
                        .iter()
                        .map(|&m| emb.distance(n + k, m + k, Norm::Euclidean))
                        .sum::<f64>()
                        / partners.len() as f64;
                    if mean > 0.0 {
                        sums[k] += mean.ln();
                        counts[k] += 1;
                    }
                }
            }
        }
    }
    if references == 0 {
        return Err(SeriesError::NoNeighbours {
            what: WHAT,
            theiler: opts.theiler,
        });
    }
    let mut values: Vec<f64> = sums
        .iter()
        .zip(&counts)
        .map(|(s, &c)| if c > 0 { s / c as f64 } else { f64::NAN })
        .collect();
    let origin = values[0];
    values.iter_mut().for_each(|v| *v -= origin);
    Ok(DivergenceCurve {
        dt_s,
        values,
        references,
        method: opts.method,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn henon(n: usize) -> Vec<f64> {
        let (mut x, mut y) = (0.1, 0.0);
        let mut out = Vec::with_capacity(n);
        for i in 0..n + 500 {
            (x, y) = (1.0 - 1.4 * x * x + y, 0.3 * x);
            if i >= 500 {
                out.push(x);
            }
        }
        out
    }

    #[test]
    fn henon_slope_is_its_exponent_by_both_methods() {
        let s = henon(5000);
        for method in [
            DivergenceMethod::Rosenstein,
            DivergenceMethod::Kantz { radius: 0.01 },
        ] {
            let o = DivergenceOptions {
                dim: 2,
                delay: 1,
                theiler: 5,
                max_steps: 30,
                method,
            };
            let c = divergence_curve(&s, 1.0, &o).unwrap();
            let fit = c.fit_auto(&StraightCriteria::default()).unwrap();
            // λ₁ = 0.419 per iteration (MODELS §5).
            assert!((fit.slope - 0.419).abs() < 0.04, "{method:?}: {fit:?}");
            assert!((c.p_k()[3] - c.values[3]).abs() < 1e-12);
        }
    }
}
