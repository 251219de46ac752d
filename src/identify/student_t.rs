//! Quantiles of Student's t distribution, for the confidence intervals of a fit (MODELS §4.10:
//! `p̂ ± t₀.₉₇₅,n−k·√C_ii`).
//!
//! `P(T ≤ t) = 1 − ½·I_x(ν/2, ½)` with `x = ν/(ν + t²)` for `t ≥ 0`, where `I_x(a, b)` is the
//! regularised incomplete beta function, evaluated by its continued fraction (modified Lentz);
//! the quantile is found by bisection on `t`, which is monotonic and cheap at these sizes.

/// The two-sided `confidence` quantile of Student's t with `dof` degrees of freedom: the `t`
/// with `P(|T| ≤ t) = confidence` (`confidence` = 0.95 gives t₀.₉₇₅). `dof` may be fractional;
/// `None` when `dof ≤ 0` or `confidence` is not in (0, 1).
pub fn two_sided_quantile(confidence: f64, dof: f64) -> Option<f64> {
    let valid = dof > 0.0 && confidence > 0.0 && confidence < 1.0;
    if !valid {
        return None;
    }
    // Tail mass beyond +t.
    let tail = 0.5 * (1.0 - confidence);
    let upper_tail = |t: f64| 0.5 * incomplete_beta(0.5 * dof, 0.5, dof / (dof + t * t));
    let (mut lo, mut hi) = (0.0, 1.0);
    while upper_tail(hi) > tail {
        hi *= 2.0;
        if hi > 1e12 {
            return Some(f64::INFINITY);
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if upper_tail(mid) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// Regularised incomplete beta function `I_x(a, b)` for `0 ≤ x ≤ 1`.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    // The continued fraction converges fast for x < (a + 1)/(a + b + 2); use the symmetry
    // I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=500 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, nine terms: about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = C[0];
    for (i, c) in C.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tabulated t₀.₉₇₅ (Abramowitz & Stegun Table 26.10) and the normal limit 1.959964.
    #[test]
    fn quantiles_match_the_tables() {
        for (dof, expected) in [
            (1.0, 12.706_204_736),
            (2.0, 4.302_652_730),
            (5.0, 2.570_581_836),
            (10.0, 2.228_138_852),
            (30.0, 2.042_272_456),
            (1e7, 1.959_964_1),
        ] {
            let t = two_sided_quantile(0.95, dof).expect("valid");
            assert!(
                (t - expected).abs() < 1e-6 * expected,
                "dof {dof}: {t} vs {expected}"
            );
        }
        let t99 = two_sided_quantile(0.99, 10.0).expect("valid");
        assert!((t99 - 3.169_272_673).abs() < 1e-6, "{t99}");
        assert_eq!(two_sided_quantile(0.95, 0.0), None);
    }
}
