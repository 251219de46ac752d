//! `e^{−q}` for the Gaussian decays of the Stribeck laws, flushed to zero where the exact value
//! is below the smallest normal double.
//!
//! A sliding contact evaluates `exp(−(v/v_s)²)` at `(v/v_s)² ≈ 10⁴` at every step; libm's
//! underflow path (errno, subnormal rounding) costs several times a normal `exp`. For
//! `q > 708`, `e^{−q} < 3.1·10⁻³⁰⁸`, so `F_C + (F_S − F_C)·e^{−q}` rounds to `F_C` for every
//! `F_C` above 10⁻²⁹¹: the flushed value gives the same doubles.

/// Above this `q`, `e^{−q}` is below the smallest normal double (`e^{−708.4}`).
const FLUSH_ABOVE: f64 = 708.0;

/// `e^{−q}`, or 0 for `q > 708`.
#[inline]
pub fn exp_neg(q: f64) -> f64 {
    if q > FLUSH_ABOVE { 0.0 } else { (-q).exp() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_exp_where_it_is_normal_and_flushes_beyond() {
        for q in [0.0, 1e-3, 1.0, 50.0, 700.0, 708.0] {
            assert_eq!(exp_neg(q), (-q).exp(), "q = {q}");
        }
        assert_eq!(exp_neg(708.5), 0.0);
        assert_eq!(exp_neg(1e4), 0.0);
        // Where it flushes, the exact value does not move a Stribeck level of 1 mN.
        assert_eq!(1e-3 + 1.0 * (-708.5f64).exp(), 1e-3);
    }
}
