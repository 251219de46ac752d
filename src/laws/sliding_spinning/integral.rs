//! The exact model the Padé law approximates: Coulomb traction `−μ·p·v(ρ)/|v(ρ)|` integrated
//! over a circular contact with the Hertz pressure `p = (3N/2πa²)·√(1 − r²/a²)`, where a point
//! `ρ` of the contact slides at `v(ρ) = v_s + ω_s ẑ × ρ`.
//!
//! By symmetry the net force opposes `v_s`; its size depends only on `ξ = |v_s|/(a·|ω_s|)`:
//! ```text
//! |T|/(μN) = f(ξ) = (3/2π)·∫₀¹ s²·G(√(1 − s²)) ds          (s = √(1 − r²), r in units of a)
//! G(r) = ∫₀^{2π} (ξ − r sin θ)/√(ξ² + r² − 2ξr sin θ) dθ = 4E(k) + 2(E(k) − K(k))·(r − ξ)/ξ,
//! k = 2√(ξr)/(ξ + r)
//! ```
//! (`G = ∂H/∂ξ` with `H = ∫√(ξ² + r² − 2ξr sin θ) dθ = 4(ξ + r)E(k)`). `K`, `E` are complete
//! elliptic integrals, computed by the arithmetic–geometric mean; the outer integral by
//! adaptive Simpson split at `r = ξ`, where `G′` has a logarithmic singularity.
//!
//! The Padé law gives `f(ξ) ≈ ξ/√(ξ² + b_T²)`; [`fit_b_t`] finds the `b_T` that fits best.
//! Measured (tests/pendulum3d.rs): the seed's `b_T = 0.681` is within 5.8 % of `μN` over
//! `ξ ∈ [10⁻³, 10³]` (worst at ξ ≈ 0.3), RMS 2.2 %; the least-squares value is 0.722 (RMS 2.0 %).
//! At small ξ the exact curve is `(3π/8)·ξ` (linearised traction), which `b_T = 8/(3π) ≈ 0.849`
//! would match, at the cost of the knee.

use std::f64::consts::PI;

/// Complete elliptic integrals `(K(k), E(k))` of modulus `k ∈ [0, 1)` (AGM, to round-off).
pub fn elliptic_k_e(k: f64) -> (f64, f64) {
    elliptic_k_e_complementary(k, (1.0 - k * k).sqrt())
}

/// [`elliptic_k_e`] given both the modulus `k` and its complement `k′ = √(1 − k²)`: near
/// `k = 1` the complement must come from its own formula, not from `1 − k²`, which cancels.
fn elliptic_k_e_complementary(k: f64, k_complement: f64) -> (f64, f64) {
    let (mut a, mut b) = (1.0f64, k_complement);
    let mut c = k;
    let mut sum = 0.5 * c * c;
    let mut pow2 = 0.5;
    for _ in 0..40 {
        if c.abs() < 1e-17 {
            break;
        }
        let an = 0.5 * (a + b);
        c = 0.5 * (a - b);
        b = (a * b).sqrt();
        a = an;
        pow2 *= 2.0;
        sum += pow2 * c * c;
    }
    let kk = PI / (2.0 * a);
    (kk, kk * (1.0 - sum))
}

/// The ring integral `G(r)` at slide ratio `ξ` (see the module docs).
fn ring(xi: f64, r: f64) -> f64 {
    if r == 0.0 {
        return 2.0 * PI;
    }
    // k = 2√(ξr)/(ξ + r), k′ = |ξ − r|/(ξ + r).
    let k_complement = (xi - r).abs() / (xi + r);
    if k_complement == 0.0 {
        return 4.0; // r = ξ: E(1) = 1 and (E − K)(r − ξ) → 0.
    }
    let k = (2.0 * (xi * r).sqrt() / (xi + r)).min(1.0);
    let (kk, ee) = elliptic_k_e_complementary(k, k_complement);
    4.0 * ee + 2.0 * (ee - kk) * (r - xi) / xi
}

/// `|T|/(μN)` of the exact model at `ξ = |v_s|/(a|ω_s|)` (1 for pure sliding, 0 for pure spin),
/// to about 1e-12 (absolute).
pub fn force_ratio(xi: f64) -> f64 {
    force_ratio_to(xi, 1e-12)
}

/// Below this slide ratio [`force_ratio`] is `(3π/8)·ξ`.
const SMALL_XI: f64 = 1e-4;

/// [`force_ratio`] with the quadrature's absolute tolerance `tol` (1e-9 is ten times cheaper).
pub fn force_ratio_to(xi: f64, tol: f64) -> f64 {
    if xi.is_nan() || xi <= 0.0 {
        return 0.0;
    }
    if xi.is_infinite() {
        return 1.0;
    }
    if xi < SMALL_XI {
        // The linearised traction (see `limits_of_the_exact_model`); the next term is
        // ≈ 0.3·ξ³, below 1e-12 here. The quadrature cannot split at s = √(1 − ξ²) = 1.
        return 3.0 * PI / 8.0 * xi;
    }
    let f = |s: f64| s * s * ring(xi, (1.0 - s * s).max(0.0).sqrt());
    let total = if xi < 1.0 {
        let s_star = (1.0 - xi * xi).sqrt();
        adaptive_simpson(&f, 0.0, s_star, tol) + adaptive_simpson(&f, s_star, 1.0, tol)
    } else {
        adaptive_simpson(&f, 0.0, 1.0, tol)
    };
    1.5 / PI * total
}

/// The Padé approximant `ξ/√(ξ² + b²)` of [`force_ratio`] (ε = 0).
pub fn pade_ratio(xi: f64, b_t: f64) -> f64 {
    xi / (xi * xi + b_t * b_t).sqrt()
}

/// How well the Padé law with coefficient `b` matches the exact model over `ξ` from 10⁻³ to 10³.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PadeFit {
    /// The coefficient.
    pub b_t: f64,
    /// Largest `|f_Padé − f_exact|` (in units of μN).
    pub max_error: f64,
    /// Where it occurs.
    pub xi_at_max: f64,
    /// Root-mean-square error over the log-spaced ξ.
    pub rms_error: f64,
}

/// Log-spaced slide ratios the fit and error are taken over.
fn fit_grid() -> Vec<(f64, f64)> {
    (0..=120)
        .map(|i| {
            let xi = 10f64.powf(-3.0 + 6.0 * i as f64 / 120.0);
            (xi, force_ratio(xi))
        })
        .collect()
}

fn errors(grid: &[(f64, f64)], b_t: f64) -> PadeFit {
    let (mut max_error, mut xi_at_max, mut sum) = (0.0f64, 0.0, 0.0);
    for &(xi, exact) in grid {
        let e = (pade_ratio(xi, b_t) - exact).abs();
        sum += e * e;
        if e > max_error {
            (max_error, xi_at_max) = (e, xi);
        }
    }
    PadeFit {
        b_t,
        max_error,
        xi_at_max,
        rms_error: (sum / grid.len() as f64).sqrt(),
    }
}

/// The error of the Padé law with coefficient `b_t` against the exact model.
pub fn pade_error(b_t: f64) -> PadeFit {
    errors(&fit_grid(), b_t)
}

/// The least-squares `b_T` over log-spaced `ξ ∈ [10⁻³, 10³]` (golden section on [0.2, 2]).
pub fn fit_b_t() -> PadeFit {
    let grid = fit_grid();
    let cost = |b: f64| errors(&grid, b).rms_error;
    let (mut lo, mut hi) = (0.2f64, 2.0f64);
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut f1, mut f2) = (cost(x1), cost(x2));
    while hi - lo > 1e-7 {
        if f1 < f2 {
            (hi, x2, f2) = (x2, x1, f1);
            x1 = hi - g * (hi - lo);
            f1 = cost(x1);
        } else {
            (lo, x1, f1) = (x1, x2, f2);
            x2 = lo + g * (hi - lo);
            f2 = cost(x2);
        }
    }
    errors(&grid, 0.5 * (lo + hi))
}

fn adaptive_simpson(f: &impl Fn(f64) -> f64, a: f64, b: f64, tol: f64) -> f64 {
    let m = 0.5 * (a + b);
    let (fa, fm, fb) = (f(a), f(m), f(b));
    let whole = (b - a) / 6.0 * (fa + 4.0 * fm + fb);
    simpson_step(f, a, b, fa, fm, fb, whole, tol, 50)
}

#[allow(clippy::too_many_arguments)]
fn simpson_step(
    f: &impl Fn(f64) -> f64,
    a: f64,
    b: f64,
    fa: f64,
    fm: f64,
    fb: f64,
    whole: f64,
    tol: f64,
    depth: u32,
) -> f64 {
    let m = 0.5 * (a + b);
    let (lm, rm) = (0.5 * (a + m), 0.5 * (m + b));
    let (flm, frm) = (f(lm), f(rm));
    let left = (m - a) / 6.0 * (fa + 4.0 * flm + fm);
    let right = (b - m) / 6.0 * (fm + 4.0 * frm + fb);
    let delta = left + right - whole;
    if depth == 0 || delta.abs() <= 15.0 * tol {
        return left + right + delta / 15.0;
    }
    simpson_step(f, a, m, fa, flm, fm, left, 0.5 * tol, depth - 1)
        + simpson_step(f, m, b, fm, frm, fb, right, 0.5 * tol, depth - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elliptic_integrals_match_tabulated_values() {
        // K(sin 30°), E(sin 30°) (Abramowitz & Stegun, Table 17.5).
        let (k, e) = elliptic_k_e(0.5);
        assert!((k - 1.685_750_354_812_596).abs() < 1e-14, "K = {k}");
        assert!((e - 1.467_462_209_339_427).abs() < 1e-14, "E = {e}");
    }

    #[test]
    fn ring_integral_matches_brute_force_quadrature() {
        for (xi, r) in [(0.3, 0.1), (0.3, 0.7), (2.0, 0.9), (0.5, 0.5001)] {
            let n = 200_000;
            let brute: f64 = (0..n)
                .map(|i| {
                    let th = 2.0 * PI * (i as f64 + 0.5) / n as f64;
                    (xi - r * th.sin()) / (xi * xi + r * r - 2.0 * xi * r * th.sin()).sqrt()
                })
                .sum::<f64>()
                * 2.0
                * PI
                / n as f64;
            assert!((ring(xi, r) - brute).abs() < 1e-6, "ξ={xi} r={r}");
        }
    }

    #[test]
    fn limits_of_the_exact_model() {
        assert!((force_ratio(1e6) - 1.0).abs() < 1e-6);
        assert!(force_ratio(1e-6) < 1e-5);
        // Small slide against spin: linearising the traction, |T| = (v/ω)·π∫₀^a p(r) dr, so
        // f ≈ (3π/8)·ξ — the Padé law's 1/b_T would need b_T = 8/(3π) ≈ 0.849 to match it.
        // From the quadrature (ξ = 10⁻³, next term ≈ 0.3ξ² relative)…
        let slope = force_ratio(1e-3) / 1e-3;
        assert!((slope - 3.0 * PI / 8.0).abs() < 1e-6, "slope {slope}");
        // …and continuous where the asymptote takes over.
        let (below, above) = (force_ratio(SMALL_XI * (1.0 - 1e-9)), force_ratio(SMALL_XI));
        assert!((below - above).abs() < 1e-12, "{below} vs {above}");
        // Monotonic in ξ.
        let mut last = 0.0;
        for i in 0..60 {
            let f = force_ratio(10f64.powf(-3.0 + 0.1 * i as f64));
            assert!(f > last);
            last = f;
        }
    }
}
