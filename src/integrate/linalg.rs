//! Dense LU factorisation with partial pivoting, in place and allocation-free after setup.
//! Used by the Rosenbrock stepper for its small `(I/(hγ) − J)` systems.

/// An `n × n` row-major matrix with its LU factors and pivots.
#[derive(Clone, Debug)]
pub struct DenseLu {
    n: usize,
    a: Vec<f64>,
    piv: Vec<usize>,
}

impl DenseLu {
    /// Workspace for `n × n` systems.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            a: vec![0.0; n * n],
            piv: vec![0; n],
        }
    }

    /// Mutable row-major storage, to be filled before [`factor`](Self::factor).
    pub fn matrix_mut(&mut self) -> &mut [f64] {
        &mut self.a
    }

    /// Factors the matrix in place. Returns `false` if it is singular.
    pub fn factor(&mut self) -> bool {
        let n = self.n;
        let a = &mut self.a;
        for k in 0..n {
            let mut p = k;
            let mut best = a[k * n + k].abs();
            for i in k + 1..n {
                let v = a[i * n + k].abs();
                if v > best {
                    best = v;
                    p = i;
                }
            }
            self.piv[k] = p;
            if best == 0.0 || !best.is_finite() {
                return false;
            }
            if p != k {
                for j in 0..n {
                    a.swap(k * n + j, p * n + j);
                }
            }
            let inv = 1.0 / a[k * n + k];
            for i in k + 1..n {
                let l = a[i * n + k] * inv;
                a[i * n + k] = l;
                if l != 0.0 {
                    for j in k + 1..n {
                        a[i * n + j] -= l * a[k * n + j];
                    }
                }
            }
        }
        true
    }

    /// Solves `A x = b` in place (`b` becomes `x`) with the stored factors.
    pub fn solve(&self, b: &mut [f64]) {
        let n = self.n;
        let a = &self.a;
        for k in 0..n {
            b.swap(k, self.piv[k]);
        }
        for i in 0..n {
            let mut s = b[i];
            for j in 0..i {
                s -= a[i * n + j] * b[j];
            }
            b[i] = s;
        }
        for i in (0..n).rev() {
            let mut s = b[i];
            for j in i + 1..n {
                s -= a[i * n + j] * b[j];
            }
            b[i] = s / a[i * n + i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_system_that_needs_pivoting() {
        let mut lu = DenseLu::new(3);
        lu.matrix_mut()
            .copy_from_slice(&[0.0, 2.0, 1.0, 1.0, -1.0, 0.0, 3.0, 0.0, 4.0]);
        assert!(lu.factor());
        // x = (1, 2, 3) gives b = (7, -1, 15).
        let mut b = [7.0, -1.0, 15.0];
        lu.solve(&mut b);
        for (x, e) in b.iter().zip([1.0, 2.0, 3.0]) {
            assert!((x - e).abs() < 1e-14, "{b:?}");
        }
    }

    #[test]
    fn reports_singular_matrix() {
        let mut lu = DenseLu::new(2);
        lu.matrix_mut().copy_from_slice(&[1.0, 2.0, 2.0, 4.0]);
        assert!(!lu.factor());
    }
}
