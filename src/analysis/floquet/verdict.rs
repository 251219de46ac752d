//! Stability verdict from the non-trivial Floquet multipliers (MODELS §4.3).

use nalgebra::{Complex, DMatrix};

/// How the critical multiplier leaves (or would leave) the unit circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// Real multiplier through +1 (fold / saddle-node of cycles, or symmetry breaking).
    PlusOne,
    /// Real multiplier through −1 (period doubling, flip).
    MinusOne,
    /// Complex pair (Neimark–Sacker, torus).
    ComplexPair,
}

impl Crossing {
    /// Description in words.
    pub fn describe(self) -> &'static str {
        match self {
            Crossing::PlusOne => "through +1 (fold of cycles)",
            Crossing::MinusOne => "through −1 (period doubling)",
            Crossing::ComplexPair => "as a complex pair (torus, Neimark–Sacker)",
        }
    }
}

/// Stability of a periodic orbit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stability {
    /// Every non-trivial multiplier is inside the unit circle.
    Stable {
        /// Largest non-trivial modulus.
        max_modulus: f64,
    },
    /// A non-trivial multiplier is outside the unit circle.
    Unstable {
        /// Largest non-trivial modulus.
        max_modulus: f64,
        /// Type of the critical multiplier.
        via: Crossing,
    },
    /// The largest non-trivial multiplier lies on the unit circle within the tolerance: the
    /// orbit is at a bifurcation (or the numbers cannot decide).
    Marginal {
        /// Largest non-trivial modulus.
        max_modulus: f64,
        /// Type of the critical multiplier.
        via: Crossing,
    },
}

impl Stability {
    /// Classifies from the non-trivial multipliers; `|m| − 1` within `tol` counts as marginal.
    pub fn classify(nontrivial: &[Complex<f64>], tol: f64) -> Self {
        let Some(m) = nontrivial
            .iter()
            .copied()
            .max_by(|a, b| a.norm().total_cmp(&b.norm()))
        else {
            return Stability::Stable { max_modulus: 0.0 };
        };
        let r = m.norm();
        let via = if m.im.abs() > 1e-9 * r.max(1e-300) {
            Crossing::ComplexPair
        } else if m.re >= 0.0 {
            Crossing::PlusOne
        } else {
            Crossing::MinusOne
        };
        if (r - 1.0).abs() <= tol {
            Stability::Marginal {
                max_modulus: r,
                via,
            }
        } else if r < 1.0 {
            Stability::Stable { max_modulus: r }
        } else {
            Stability::Unstable {
                max_modulus: r,
                via,
            }
        }
    }

    /// Whether the orbit is asymptotically stable.
    pub fn is_stable(&self) -> bool {
        matches!(self, Stability::Stable { .. })
    }

    /// Verdict in words.
    pub fn describe(&self) -> String {
        match self {
            Stability::Stable { max_modulus } => format!(
                "asymptotically stable (largest non-trivial |m| = {})",
                crate::util::eng::format_si(*max_modulus, "", 6)
            ),
            Stability::Unstable { max_modulus, via } => format!(
                "unstable: a multiplier left the unit circle {} (|m| = {})",
                via.describe(),
                crate::util::eng::format_si(*max_modulus, "", 6)
            ),
            Stability::Marginal { max_modulus, via } => format!(
                "marginal: a multiplier is on the unit circle {} (|m| = {}); the orbit is at a \
                 bifurcation",
                via.describe(),
                crate::util::eng::format_si(*max_modulus, "", 6)
            ),
        }
    }
}

/// Eigenvalues of a square matrix, sorted by modulus, largest first.
pub fn eigenvalues(m: &DMatrix<f64>) -> Vec<Complex<f64>> {
    if m.nrows() == 0 {
        return Vec::new();
    }
    let mut ev: Vec<Complex<f64>> = m.complex_eigenvalues().iter().copied().collect();
    ev.sort_by(|a, b| b.norm().total_cmp(&a.norm()).then(b.im.total_cmp(&a.im)));
    ev
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_the_three_ways_out() {
        let c = |re, im| Complex::new(re, im);
        assert!(Stability::classify(&[c(0.5, 0.0), c(0.0, 0.0)], 1e-6).is_stable());
        assert!(matches!(
            Stability::classify(&[c(1.2, 0.0)], 1e-6),
            Stability::Unstable {
                via: Crossing::PlusOne,
                ..
            }
        ));
        assert!(matches!(
            Stability::classify(&[c(-1.5, 0.0), c(0.3, 0.0)], 1e-6),
            Stability::Unstable {
                via: Crossing::MinusOne,
                ..
            }
        ));
        assert!(matches!(
            Stability::classify(&[c(0.8, 0.8), c(0.8, -0.8)], 1e-6),
            Stability::Unstable {
                via: Crossing::ComplexPair,
                ..
            }
        ));
        assert!(matches!(
            Stability::classify(&[c(-1.0, 1e-12)], 1e-6),
            Stability::Marginal {
                via: Crossing::MinusOne,
                ..
            }
        ));
    }

    #[test]
    fn eigenvalues_of_a_rotation_are_a_complex_pair() {
        let (c, s) = (0.6_f64, 0.8_f64);
        let m = DMatrix::from_row_slice(2, 2, &[0.5 * c, -0.5 * s, 0.5 * s, 0.5 * c]);
        let ev = eigenvalues(&m);
        assert!((ev[0].norm() - 0.5).abs() < 1e-14 && (ev[1].norm() - 0.5).abs() < 1e-14);
        assert!((ev[0].im.abs() - 0.4).abs() < 1e-14 && ev[0].im > 0.0);
    }
}
