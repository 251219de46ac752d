//! Dense linear algebra of the Rosenbrock stepper's `(I/(hγ) − J)` systems: cofactor inverses
//! for 1 × 1 to 3 × 3, nalgebra's LU with partial pivoting above (an explicit inverse for
//! small systems, so each stage solves by one matrix–vector product; nalgebra's triangular
//! solves for larger ones). Matrices are row-major slices.

use nalgebra::{DMatrix, DVectorViewMut, Dyn, LU};

/// Largest dimension solved through an explicit inverse. Forming the inverse costs `~2n³`
/// once per factorisation and saves the loop overhead of two triangular sweeps per stage:
/// worth it for the belt–block with a multi-state law (`n_d` ≤ 10 for the shipped presets),
/// not for large systems.
pub const INVERSE_MAX_DIM: usize = 16;

/// Inverse of the row-major `n × n` matrix `m` into `inv`; `false` when it is singular.
///
/// Cofactors for `n ≤ 3`. Above, nalgebra's LU (partial pivoting, first largest pivot; its
/// elimination performs the same operations as the home-made LU this replaced), then the
/// columns of the inverse by forward and back substitution **in row order**
/// (`x_i = (b_i − Σ_{j>i} u_ij x_j)/u_ii`, `j` ascending). nalgebra's own solve sums the
/// same terms column-wise in the opposite order; its last-bit differences grow to 1e-9 …
/// 2e-7 in the 5-second runs of the GMS and subloading presets, so the row order keeps their
/// numbers.
pub fn invert(m: &[f64], n: usize, inv: &mut [f64]) -> bool {
    if n <= 3 {
        return small_inverse(m, n, inv);
    }
    let lu = LU::new(DMatrix::from_row_slice(n, n, &m[..n * n]));
    if !lu.is_invertible() {
        return false;
    }
    let a = lu.lu_internal();
    let mut col = vec![0.0; n];
    for k in 0..n {
        col.iter_mut().for_each(|v| *v = 0.0);
        col[k] = 1.0;
        lu.p()
            .permute_rows(&mut DVectorViewMut::from_slice(&mut col, n));
        for i in 0..n {
            let mut s = col[i];
            for j in 0..i {
                s -= a[(i, j)] * col[j];
            }
            col[i] = s;
        }
        for i in (0..n).rev() {
            let mut s = col[i];
            for j in i + 1..n {
                s -= a[(i, j)] * col[j];
            }
            col[i] = s / a[(i, i)];
        }
        for i in 0..n {
            inv[i * n + k] = col[i];
        }
    }
    inv[..n * n].iter().all(|v| v.is_finite())
}

/// An LU factorisation (nalgebra, partial pivoting) kept for repeated solves.
#[derive(Clone, Debug, Default)]
pub struct DenseLu {
    lu: Option<LU<f64, Dyn, Dyn>>,
}

impl DenseLu {
    /// Factors the row-major `n × n` matrix `m`; `false` when it is singular.
    pub fn factor(&mut self, m: &[f64], n: usize) -> bool {
        let lu = LU::new(DMatrix::from_row_slice(n, n, &m[..n * n]));
        let ok = lu.is_invertible();
        self.lu = Some(lu);
        ok
    }

    /// Solves `A x = b` in place (`b` becomes `x`) with the last factorisation; `b` becomes
    /// NaN when there is none or it is singular.
    pub fn solve(&self, b: &mut [f64]) {
        let n = b.len();
        let solved = self.lu.as_ref().is_some_and(|lu| {
            let mut x = DVectorViewMut::from_slice(b, n);
            lu.solve_mut(&mut x)
        });
        if !solved {
            b.iter_mut().for_each(|v| *v = f64::NAN);
        }
    }
}

/// Inverse of a 1×1, 2×2 or 3×3 row-major matrix by cofactors (the belt–block with a
/// memoryless or one-state law); `false` when it is singular.
pub fn small_inverse(m: &[f64], n: usize, inv: &mut [f64]) -> bool {
    match n {
        0 => true,
        1 => {
            inv[0] = 1.0 / m[0];
            inv[0].is_finite()
        }
        2 => {
            let det = m[0] * m[3] - m[1] * m[2];
            let d = 1.0 / det;
            inv[..4].copy_from_slice(&[m[3] * d, -m[1] * d, -m[2] * d, m[0] * d]);
            d.is_finite() && det != 0.0
        }
        _ => {
            let c00 = m[4] * m[8] - m[5] * m[7];
            let c01 = m[5] * m[6] - m[3] * m[8];
            let c02 = m[3] * m[7] - m[4] * m[6];
            let det = m[0] * c00 + m[1] * c01 + m[2] * c02;
            let d = 1.0 / det;
            inv[..9].copy_from_slice(&[
                c00 * d,
                (m[2] * m[7] - m[1] * m[8]) * d,
                (m[1] * m[5] - m[2] * m[4]) * d,
                c01 * d,
                (m[0] * m[8] - m[2] * m[6]) * d,
                (m[2] * m[3] - m[0] * m[5]) * d,
                c02 * d,
                (m[1] * m[6] - m[0] * m[7]) * d,
                (m[0] * m[4] - m[1] * m[3]) * d,
            ]);
            d.is_finite() && det != 0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `‖A·inv − I‖_max` for row-major `n × n` matrices.
    fn identity_defect(a: &[f64], inv: &[f64], n: usize) -> f64 {
        let mut worst = 0.0f64;
        for i in 0..n {
            for j in 0..n {
                let p: f64 = (0..n).map(|k| a[i * n + k] * inv[k * n + j]).sum();
                worst = worst.max((p - f64::from(u8::from(i == j))).abs());
            }
        }
        worst
    }

    #[test]
    fn small_inverses_invert() {
        let m3 = [2.0, -1.0, 0.5, 1.0, 3.0, -2.0, 0.0, 1.5, 4.0];
        let mut inv = [0.0; 9];
        assert!(small_inverse(&m3, 3, &mut inv));
        assert!(identity_defect(&m3, &inv, 3) < 1e-14);
        let mut inv2 = [0.0; 4];
        assert!(small_inverse(&[1.0, 2.0, 3.0, 4.0], 2, &mut inv2));
        assert_eq!(inv2, [-2.0, 1.0, 1.5, -0.5]);
        assert!(!small_inverse(&[1.0, 2.0, 2.0, 4.0], 2, &mut inv2));
    }

    #[test]
    fn lu_inverse_and_solve_need_pivoting() {
        // Zero leading pivot; a 5 × 5 with a known solution.
        let n = 5;
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = if i == j && i > 0 {
                    4.0
                } else {
                    ((i * 3 + j * 7) % 5) as f64 * 0.25
                };
            }
        }
        assert_eq!(a[0], 0.0);
        let mut inv = vec![0.0; n * n];
        assert!(invert(&a, n, &mut inv));
        assert!(identity_defect(&a, &inv, n) < 1e-14);
        let x_true = [1.0, -2.0, 3.0, 0.5, -1.5];
        let mut b: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| a[i * n + j] * x_true[j]).sum())
            .collect();
        let mut lu = DenseLu::default();
        assert!(lu.factor(&a, n));
        lu.solve(&mut b);
        for (x, e) in b.iter().zip(x_true) {
            assert!((x - e).abs() < 1e-14, "{b:?}");
        }
    }

    #[test]
    fn reports_singular_matrices() {
        let s = [
            1.0, 2.0, 0.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ];
        let mut inv = [0.0; 16];
        assert!(!invert(&s, 4, &mut inv));
        let mut lu = DenseLu::default();
        assert!(!lu.factor(&s, 4));
        let mut b = [1.0; 4];
        lu.solve(&mut b);
        assert!(b.iter().all(|v| v.is_nan()));
    }
}
