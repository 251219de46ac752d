//! Velocity from a recorded position: the slope of a local quadratic least-squares fit over a
//! window of samples around each one (Savitzky–Golay, written for uneven time steps).
//!
//! At sample `i` the window holds the `2h + 1` samples `i − h … i + h` (shifted inwards at the
//! ends, so every sample has a full window); `x(t) ≈ a + b·(t − t_i) + c·(t − t_i)²` is fitted
//! and `b` is the velocity. A quadratic is exact for constant acceleration, so the smoothing
//! removes noise without the lag of a moving average; its cost is a width of `2h + 1` samples in
//! time resolution (the report states it).

/// `dx/dt` at every sample of `x(t)`, by local quadratic fits over `2·half_width + 1` samples.
/// `None` when there are fewer than 3 samples or a window's times coincide.
pub fn smoothed_derivative(t: &[f64], x: &[f64], half_width: usize) -> Option<Vec<f64>> {
    let n = t.len();
    if n < 3 || x.len() != n {
        return None;
    }
    let h = half_width.max(1).min((n - 1) / 2);
    let width = 2 * h + 1;
    (0..n)
        .map(|i| {
            let start = i.saturating_sub(h).min(n - width);
            let window = start..start + width;
            // Normal equations of the quadratic in τ = (t − t_i)/scale.
            let scale = (t[window.end - 1] - t[window.start]).max(f64::MIN_POSITIVE);
            let mut s = [0.0f64; 5];
            let mut r = [0.0f64; 3];
            for j in window {
                let tau = (t[j] - t[i]) / scale;
                let mut p = 1.0;
                for m in 0..5 {
                    s[m] += p;
                    if m < 3 {
                        r[m] += p * x[j];
                    }
                    p *= tau;
                }
            }
            let a = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]];
            let coef = solve3(a, r)?;
            Some(coef[1] / scale)
        })
        .collect()
}

/// Solves a 3×3 system by Cramer's rule; `None` when singular.
fn solve3(a: [[f64; 3]; 3], b: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(a);
    if d.abs() < 1e-300 || !d.is_finite() {
        return None;
    }
    let mut out = [0.0; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let mut m = a;
        for row in 0..3 {
            m[row][c] = b[row];
        }
        *o = det(m) / d;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quadratic on uneven steps is differentiated exactly; a sine to the window's order.
    #[test]
    fn quadratics_are_exact_and_sines_close_on_uneven_steps() {
        let t: Vec<f64> = (0..200)
            .map(|i| 0.01 * i as f64 + 0.003 * ((i * 7919) % 13) as f64 / 13.0)
            .collect();
        let x: Vec<f64> = t.iter().map(|t| 2.0 + 3.0 * t - 4.0 * t * t).collect();
        let v = smoothed_derivative(&t, &x, 4).expect("fits");
        for (ti, vi) in t.iter().zip(&v) {
            assert!((vi - (3.0 - 8.0 * ti)).abs() < 1e-9, "t {ti}: {vi}");
        }
        let x: Vec<f64> = t.iter().map(|t| (3.0 * t).sin()).collect();
        // The slope of a local quadratic misses by about x‴·w²/10 over a half-width w
        // (w ≈ 0.035 s here, |x‴| ≤ 27 s⁻³: 3.3e-3).
        let v = smoothed_derivative(&t, &x, 3).expect("fits");
        for (ti, vi) in t.iter().zip(&v).skip(5).take(180) {
            assert!((vi - 3.0 * (3.0 * ti).cos()).abs() < 5e-3, "t {ti}: {vi}");
        }
    }
}
