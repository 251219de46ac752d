//! Sparse LU of the Rosenbrock matrix `M = I/(hγ) − J` with the `faer` crate.
//!
//! The pattern of `M` is the model's declared Jacobian pattern plus the diagonal. Its symbolic
//! part, the COLAMD fill-reducing column order, depends on the pattern only and is computed
//! **once** in [`SparseLu::new`]; every step then refactors numerically with faer's
//! simplicial left-looking LU (Gilbert–Peierls, partial pivoting by rows) into the storage and
//! scratch of the previous factorisation, and solves by two sparse triangular sweeps.
//!
//! Simplicial, not supernodal: the chains this serves have narrow bands and little fill,
//! where the simplicial kernel is the faster one, and leaving faer's supernodal code
//! uninstantiated keeps its generic code out of this crate's build (compile time).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::perm::PermRef;
use faer::sparse::linalg::colamd;
use faer::sparse::linalg::lu::simplicial::{
    SimplicialLu, factorize_simplicial_numeric_lu, factorize_simplicial_numeric_lu_scratch,
    solve_in_place_scratch,
};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, MatMut, Par};

use super::jacobian_structure::SparsityPattern;

/// Why the sparse LU could not be set up (faer's ordering or scratch allocation).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sparse LU setup failed: {0}")]
pub struct SparseLuError(String);

/// A reusable sparse LU of `diag·I − J` for a fixed pattern of `J`.
pub struct SparseLu {
    /// Pattern of `M` (the Jacobian's plus the diagonal).
    pattern: SparsityPattern,
    /// Values of `M` in its pattern order.
    values: Vec<f64>,
    /// Position in `values` of each Jacobian entry (Jacobian pattern order).
    jac_pos: Vec<usize>,
    /// Position in `values` of each diagonal entry.
    diag_pos: Vec<usize>,
    /// COLAMD column order (forward, inverse).
    col_perm: (Vec<usize>, Vec<usize>),
    /// Row pivoting of the last factorisation (forward, inverse).
    row_perm: (Vec<usize>, Vec<usize>),
    lu: SimplicialLu<usize, f64>,
    factor_scratch: MemBuffer,
    solve_scratch: MemBuffer,
    /// `lu` holds the factors of the current `values`.
    factored: bool,
}

impl std::fmt::Debug for SparseLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseLu")
            .field("n", &self.pattern.dim())
            .field("nnz", &self.pattern.nnz())
            .field("factored", &self.factored)
            .finish_non_exhaustive()
    }
}

impl SparseLu {
    /// Symbolic analysis (column order, workspace) for Jacobians with pattern `jac`.
    pub fn new(jac: &SparsityPattern) -> Result<Self, SparseLuError> {
        let pattern = jac.with_diagonal();
        let n = pattern.dim();
        let jac_pos = jac
            .entries()
            .map(|(i, j)| pattern.position(i, j))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| SparseLuError("Jacobian entry missing from the pattern".into()))?;
        let diag_pos = (0..n)
            .map(|i| pattern.position(i, i))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| SparseLuError("diagonal missing from the pattern".into()))?;
        let alloc = |req| {
            MemBuffer::try_new(req).map_err(|_| SparseLuError("out of memory for scratch".into()))
        };
        let (mut fwd, mut inv) = (vec![0; n], vec![0; n]);
        let mut order_scratch = alloc(colamd::order_scratch::<usize>(n, n, pattern.nnz()))?;
        colamd::order(
            &mut fwd,
            &mut inv,
            symbolic_view(&pattern),
            colamd::Control::default(),
            MemStack::new(&mut order_scratch),
        )
        .map_err(|e| SparseLuError(format!("{e:?}")))?;
        Ok(Self {
            values: vec![0.0; pattern.nnz()],
            pattern,
            jac_pos,
            diag_pos,
            col_perm: (fwd, inv),
            row_perm: (vec![0; n], vec![0; n]),
            lu: SimplicialLu::new(),
            factor_scratch: alloc(factorize_simplicial_numeric_lu_scratch::<usize, f64>(n, n))?,
            solve_scratch: alloc(solve_in_place_scratch::<usize, f64>(n, 1, Par::Seq))?,
            factored: false,
        })
    }

    /// Dimension `n`.
    pub fn dim(&self) -> usize {
        self.pattern.dim()
    }

    /// Factors `M = diag·I − J` for the Jacobian values `jac` (in the pattern order of the
    /// pattern given to [`new`](Self::new)); `false` when faer finds it structurally singular.
    /// A numerically singular `M` gives non-finite solutions, which the caller rejects.
    pub fn factor(&mut self, diag: f64, jac: &[f64]) -> bool {
        self.values.iter_mut().for_each(|v| *v = 0.0);
        for &p in &self.diag_pos {
            self.values[p] = diag;
        }
        for (&p, &j) in self.jac_pos.iter().zip(jac) {
            self.values[p] -= j;
        }
        let n = self.dim();
        let matrix = SparseColMatRef::new(symbolic_view(&self.pattern), &self.values);
        let col_perm = PermRef::new_checked(&self.col_perm.0, &self.col_perm.1, n);
        let (row_fwd, row_inv) = &mut self.row_perm;
        self.factored = factorize_simplicial_numeric_lu(
            row_fwd,
            row_inv,
            &mut self.lu,
            matrix,
            col_perm,
            MemStack::new(&mut self.factor_scratch),
        )
        .is_ok();
        self.factored
    }

    /// Solves `M x = b` in place with the last factorisation (`b` becomes `x`).
    pub fn solve_in_place(&mut self, b: &mut [f64]) {
        if !self.factored {
            b.iter_mut().for_each(|v| *v = f64::NAN);
            return;
        }
        let n = self.dim();
        let rhs = MatMut::from_column_major_slice_mut(&mut b[..n], n, 1);
        let row_perm = PermRef::new_checked(&self.row_perm.0, &self.row_perm.1, n);
        let col_perm = PermRef::new_checked(&self.col_perm.0, &self.col_perm.1, n);
        self.lu.solve_in_place_with_conj(
            row_perm,
            col_perm,
            Conj::No,
            rhs,
            Par::Seq,
            MemStack::new(&mut self.solve_scratch),
        );
    }
}

/// faer's view of a pattern (the invariants hold by construction: sorted, in range).
fn symbolic_view(p: &SparsityPattern) -> SymbolicSparseColMatRef<'_, usize> {
    SymbolicSparseColMatRef::new_checked(p.dim(), p.dim(), p.col_ptr(), None, p.row_idx())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_tridiagonal_system_against_its_product() {
        let n = 40;
        let p = SparsityPattern::banded(n, 1, 1);
        // J: sub-diagonal 1, diagonal −2 + 0.01 i, super-diagonal 0.5 (pattern order).
        let jac: Vec<f64> = p
            .entries()
            .map(|(i, j)| match i as i64 - j as i64 {
                1 => 1.0,
                0 => -2.0 + 0.01 * i as f64,
                _ => 0.5,
            })
            .collect();
        let mut lu = SparseLu::new(&p).expect("symbolic analysis");
        let diag = 3.0;
        assert!(lu.factor(diag, &jac));
        let x_true: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        // b = (diag·I − J)·x.
        let mut b: Vec<f64> = x_true.iter().map(|x| diag * x).collect();
        for ((i, j), v) in p.entries().zip(&jac) {
            b[i] -= v * x_true[j];
        }
        lu.solve_in_place(&mut b);
        for (x, e) in b.iter().zip(&x_true) {
            assert!((x - e).abs() < 1e-13, "{x} vs {e}");
        }
    }

    #[test]
    fn pivots_past_a_zero_diagonal() {
        // M = diag·I − J with diag = 1 and J = [[1, −1], [−1, 0]]: M = [[0, 1], [1, 1]].
        let p = SparsityPattern::from_entries(2, [(0, 0), (0, 1), (1, 0)]).expect("in range");
        let mut lu = SparseLu::new(&p).expect("symbolic analysis");
        assert!(lu.factor(1.0, &[1.0, -1.0, -1.0]));
        let mut b = [2.0, 5.0]; // x = (3, 2)
        lu.solve_in_place(&mut b);
        assert!(
            (b[0] - 3.0).abs() < 1e-15 && (b[1] - 2.0).abs() < 1e-15,
            "{b:?}"
        );
    }
}
