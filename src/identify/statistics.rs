//! What the data say about each parameter at the optimum (MODELS §4.10): standard errors, 95 %
//! intervals, correlations and an identifiability verdict.
//!
//! With `J = ∂r/∂z` in the scaled coordinates (`ln p`, or `p/|p₀|`) and `s² = RSS/(n − k)`:
//! `C_z = s²·(JᵀJ)⁻¹`. *Scaled* `JᵀJ` is taken as the column-equilibrated matrix
//! `A = D⁻¹JᵀJD⁻¹`, `D = diag(‖J_i‖)`, so its condition number measures how nearly the
//! parameters' effects on the residuals coincide, not how large they are (a weak but
//! independent effect shows up as a wide interval instead). Decomposing `A = VΛVᵀ`, a direction
//! with `λ_j < λ_max/10⁸` (the sheet's condition-number limit) is one the data do not determine:
//! it is left out of `C_z = s²·D⁻¹(Σ_{kept} v_j v_jᵀ/λ_j)D⁻¹`, and every parameter carrying more
//! than a twentieth of it (`v_ij² > 0.05`, and always the largest) is reported *not
//! determined*, naming the others that share
//! the direction — never with a standard error. A parameter that does not change the residuals
//! at all (`‖J_i‖ = 0`) is not determined either. Intervals are `p̂ ± t₀.₉₇₅,n−k·SE` for linear
//! parameters and `p̂·exp(±t·SE_z)` for logarithmic ones (the fit's own coordinate, so they
//! never cross zero); an interval wider than the parameter's whole range also means *not
//! determined*, and `|r_ij| > 0.99` names the pair.

use nalgebra::{DMatrix, SymmetricEigen};

use super::free_param::FreeParam;
use super::student_t::two_sided_quantile;

/// Largest condition number of `JᵀJ` the estimate is trusted with (MODELS §4.10).
pub const CONDITION_LIMIT: f64 = 1e8;
/// Correlation above which a pair is reported as one combination the data determine.
pub const CORRELATION_LIMIT: f64 = 0.99;
/// Share of an undetermined direction that makes a parameter part of it (`v² > 0.05`; the
/// largest member always is): a parameter left out keeps a standard error that ignores its
/// small part in the direction, so the share is kept low.
const DIRECTION_SHARE: f64 = 0.05;

/// Why a parameter's estimate is not (or not alone) what the data say.
#[derive(Clone, Debug, PartialEq)]
pub enum Flag {
    /// It lies along a direction the data do not determine (with the other parameters named).
    Undetermined {
        /// The other parameters of that direction.
        with: Vec<String>,
    },
    /// Its 95 % interval is wider than its whole range.
    WiderThanRange,
    /// It moves with another parameter: the data determine a combination of the two.
    Correlated {
        /// The other parameter.
        with: String,
        /// Their correlation.
        r: f64,
    },
    /// It ended on a bound of its range (the optimum may lie beyond it).
    AtBound {
        /// Whether it is the upper bound.
        upper: bool,
    },
}

/// One parameter's estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The parameter.
    pub param: FreeParam,
    /// The value found [unit].
    pub value: f64,
    /// Standard error [unit] (`None` when not determined); for a log parameter, `SE_z·p̂`.
    pub std_error: Option<f64>,
    /// 95 % confidence interval [unit] (`None` when not determined).
    pub interval: Option<(f64, f64)>,
    /// What limits the estimate; empty when the data determine it.
    pub flags: Vec<Flag>,
}

impl Estimate {
    /// Whether the data determine this parameter (no undetermined direction, interval inside
    /// its range). Correlated or bound-touching estimates are determined but flagged.
    pub fn is_determined(&self) -> bool {
        !self
            .flags
            .iter()
            .any(|f| matches!(f, Flag::Undetermined { .. } | Flag::WiderThanRange))
    }
}

/// The statistics of a fit at its optimum.
#[derive(Clone, Debug, PartialEq)]
pub struct Statistics {
    /// Per parameter, in the fit's order.
    pub estimates: Vec<Estimate>,
    /// Correlation matrix (NaN for pairs with an undetermined member).
    pub correlation: Vec<Vec<f64>>,
    /// Residuals (weighted).
    pub n: usize,
    /// Degrees of freedom `n − k`.
    pub dof: usize,
    /// Weighted residual sum of squares.
    pub rss: f64,
    /// Residual standard deviation `s = √(RSS/(n − k))`.
    pub s: f64,
    /// Condition number of the column-equilibrated `JᵀJ` (∞ when a parameter has no effect).
    pub condition: f64,
    /// The t quantile used for the intervals.
    pub t_quantile: f64,
}

/// Statistics at `p_hat` from its weighted residuals and `∂r/∂z` (one column per parameter).
pub fn statistics(
    params: &[FreeParam],
    p_hat: &[f64],
    residuals: &[f64],
    jacobian_z: &[Vec<f64>],
) -> Statistics {
    let (n, k) = (residuals.len(), params.len());
    let dof = n.saturating_sub(k).max(1);
    let rss: f64 = residuals.iter().map(|r| r * r).sum();
    let s2 = rss / dof as f64;
    let t = two_sided_quantile(0.95, dof as f64).unwrap_or(f64::INFINITY);

    // The column-equilibrated JᵀJ and its eigen-decomposition.
    let norms: Vec<f64> = jacobian_z
        .iter()
        .map(|c| c.iter().map(|x| x * x).sum::<f64>().sqrt())
        .collect();
    let live: Vec<usize> = (0..k)
        .filter(|&i| norms[i] > 0.0 && norms[i].is_finite())
        .collect();
    let m = live.len();
    let a = DMatrix::from_fn(m, m, |x, y| {
        let (i, j) = (live[x], live[y]);
        jacobian_z[i]
            .iter()
            .zip(&jacobian_z[j])
            .map(|(p, q)| p * q)
            .sum::<f64>()
            / (norms[i] * norms[j])
    });
    let eig = SymmetricEigen::new(a);
    let largest = eig.eigenvalues.iter().fold(0.0f64, |m, &l| m.max(l));
    let smallest = eig.eigenvalues.iter().fold(f64::INFINITY, |m, &l| m.min(l));
    let condition = if m < k || smallest <= 0.0 {
        f64::INFINITY
    } else {
        largest / smallest
    };
    let cutoff = largest / CONDITION_LIMIT;
    let mut cov_z = DMatrix::<f64>::zeros(k, k);
    let mut undetermined: Vec<Vec<usize>> = (0..k)
        .filter(|i| !live.contains(i))
        .map(|i| vec![i])
        .collect();
    for (j, &lambda) in eig.eigenvalues.iter().enumerate() {
        let v = eig.eigenvectors.column(j);
        if lambda > cutoff && lambda > 0.0 {
            for x in 0..m {
                for y in 0..m {
                    let (i, l) = (live[x], live[y]);
                    cov_z[(i, l)] += s2 * v[x] * v[y] / (lambda * norms[i] * norms[l]);
                }
            }
        } else {
            let largest = (0..m)
                .max_by(|&a, &b| (v[a] * v[a]).total_cmp(&(v[b] * v[b])))
                .unwrap_or(0);
            undetermined.push(
                (0..m)
                    .filter(|&x| x == largest || v[x] * v[x] > DIRECTION_SHARE)
                    .map(|x| live[x])
                    .collect(),
            );
        }
    }
    let mut flags: Vec<Vec<Flag>> = vec![Vec::new(); k];
    for members in &undetermined {
        for &i in members {
            let with = members
                .iter()
                .filter(|&&m| m != i)
                .map(|&m| params[m].key.clone())
                .collect();
            flags[i].push(Flag::Undetermined { with });
        }
    }
    let is_undetermined = |i: usize| undetermined.iter().any(|m| m.contains(&i));

    let mut correlation = vec![vec![f64::NAN; k]; k];
    for a in 0..k {
        for b in 0..k {
            if is_undetermined(a) || is_undetermined(b) {
                continue;
            }
            let d = (cov_z[(a, a)] * cov_z[(b, b)]).sqrt();
            correlation[a][b] = if d > 0.0 { cov_z[(a, b)] / d } else { f64::NAN };
        }
    }
    for a in 0..k {
        for b in 0..k {
            let r = correlation[a][b];
            if a != b && r.abs() > CORRELATION_LIMIT {
                flags[a].push(Flag::Correlated {
                    with: params[b].key.clone(),
                    r,
                });
            }
        }
    }

    let estimates = params
        .iter()
        .enumerate()
        .map(|(i, param)| {
            let value = p_hat[i];
            let mut flags = std::mem::take(&mut flags[i]);
            if let Some(upper) = param.on_bound(value) {
                flags.push(Flag::AtBound { upper });
            }
            let (std_error, interval) = if is_undetermined(i) {
                (None, None)
            } else {
                let se_z = cov_z[(i, i)].max(0.0).sqrt();
                let z = param.z_of(value);
                let se = se_z * param.dp_dz(z);
                let interval = if param.log {
                    (value * (-t * se_z).exp(), value * (t * se_z).exp())
                } else {
                    (value - t * se, value + t * se)
                };
                let (lo, hi) = param.z_bounds();
                if lo.is_finite() && hi.is_finite() && 2.0 * t * se_z > hi - lo {
                    flags.push(Flag::WiderThanRange);
                }
                (Some(se), Some(interval))
            };
            let determined = !flags
                .iter()
                .any(|f| matches!(f, Flag::Undetermined { .. } | Flag::WiderThanRange));
            Estimate {
                param: param.clone(),
                value,
                std_error: std_error.filter(|_| determined),
                interval: interval.filter(|_| determined),
                flags,
            }
        })
        .collect();
    Statistics {
        estimates,
        correlation,
        n,
        dof,
        rss,
        s: s2.sqrt(),
        condition,
        t_quantile: t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(key: &str) -> FreeParam {
        FreeParam {
            key: key.into(),
            symbol: key.into(),
            unit: String::new(),
            start: 1.0,
            min: 0.0,
            max: 10.0,
            log: false,
        }
    }

    /// Two parameters with the same effect (columns parallel to 1e-9) and a third apart: the
    /// pair is one undetermined direction, named in both verdicts; the third keeps the
    /// textbook standard error `s/‖J_3‖` (to 1e-3: the third column is orthogonal to the pair
    /// only to about 1 %).
    #[test]
    fn parallel_columns_are_one_undetermined_direction() {
        let n = 50;
        let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).sin()).collect();
        let b: Vec<f64> = a
            .iter()
            .enumerate()
            .map(|(i, x)| 2.0 * x + 1e-9 * (i % 3) as f64)
            .collect();
        let c: Vec<f64> = (0..n)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let r: Vec<f64> = (0..n).map(|i| 0.01 * ((i * 7) % 5) as f64 - 0.02).collect();
        let params = [param("a"), param("b"), param("c")];
        let s = statistics(&params, &[1.0, 1.0, 1.0], &r, &[a, b, c.clone()]);
        assert!(s.condition > CONDITION_LIMIT, "{}", s.condition);
        for (i, other) in [(0, "b"), (1, "a")] {
            let e = &s.estimates[i];
            assert!(!e.is_determined() && e.std_error.is_none(), "{e:?}");
            assert!(
                e.flags.contains(&Flag::Undetermined {
                    with: vec![other.to_string()]
                }),
                "{e:?}"
            );
        }
        let rss: f64 = r.iter().map(|x| x * x).sum();
        let expected = (rss / (n - 3) as f64).sqrt() / (n as f64).sqrt();
        let se = s.estimates[2].std_error.expect("determined");
        assert!((se / expected - 1.0).abs() < 1e-3, "{se} vs {expected}");
    }
}
