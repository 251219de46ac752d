//! Bracketed root finding (Illinois variant of regula falsi) used to locate events on the
//! dense output of a step.

/// Finds `θ ∈ [a, b]` with `g(θ) = 0` given `g(a) ≥ 0 > g(b)` (or any sign change).
///
/// Stops when the bracket is narrower than `tol` and returns its right end, so the returned
/// point is on the side where the event has already happened (or exactly on it).
pub fn illinois<F: FnMut(f64) -> f64>(mut g: F, mut a: f64, mut b: f64, tol: f64) -> f64 {
    let mut ga = g(a);
    let mut gb = g(b);
    if ga == 0.0 {
        return a;
    }
    let mut side = 0i8;
    for _ in 0..200 {
        if (b - a).abs() <= tol {
            break;
        }
        let mut c = (a * gb - b * ga) / (gb - ga);
        if !c.is_finite() || c <= a.min(b) || c >= a.max(b) {
            c = 0.5 * (a + b);
        }
        let gc = g(c);
        if gc == 0.0 {
            return c;
        }
        if (gc > 0.0) == (ga > 0.0) {
            a = c;
            ga = gc;
            if side == -1 {
                gb *= 0.5;
            }
            side = -1;
        } else {
            b = c;
            gb = gc;
            if side == 1 {
                ga *= 0.5;
            }
            side = 1;
        }
        // Guarantee progress when the secant creeps from one side.
        if (b - a).abs() > tol && (gb.abs() < 1e-300 || ga.abs() < 1e-300) {
            break;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cosine_root_to_tolerance() {
        let r = illinois(f64::cos, 0.0, 3.0, 1e-15);
        assert!((r - std::f64::consts::FRAC_PI_2).abs() < 1e-14, "{r}");
    }

    #[test]
    fn handles_flat_then_steep_function() {
        let r = illinois(|x| 1.0 - x.powi(9) * 512.0, 0.0, 1.0, 1e-14);
        assert!((r - 0.5).abs() < 1e-13, "{r}");
    }
}
