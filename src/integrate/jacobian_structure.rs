//! Which entries of a model's Jacobian may be non-zero, declared by the model
//! ([`Model::jacobian_structure`](super::Model::jacobian_structure)).
//!
//! The structure covers the **dynamic block** `∂f_d/∂y_d`, the `n_d × n_d` top-left block of
//! `∂f/∂y` with `n_d = dim − n_quadratures`, rows and columns in state order. The quadrature
//! rows (work integrals) are not part of it: they may depend on every dynamic state. A large
//! model that declares a banded or sparse block gets the Rosenbrock stepper's structured path:
//! a column-grouped difference Jacobian ([`ColumnGroups`](super::column_groups::ColumnGroups))
//! and a sparse LU ([`SparseLu`](super::sparse_lu::SparseLu)).
//!
//! The structure must be a superset of the non-zeros in every mode the model can be in (stick
//! and slip alike) and must not change while the dimension stays the same; an entry declared
//! but zero only costs work, an entry left out makes the Jacobian wrong.

/// The declared structure of the dynamic Jacobian block.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum JacobianStructure {
    /// Every entry may be non-zero (small systems: the dense path).
    #[default]
    Dense,
    /// `∂f_i/∂y_j = 0` unless `i − lower ≤ j ≤ i + upper`: `lower` sub-diagonals and `upper`
    /// super-diagonals (a chain of blocks with interleaved `(x_k, v_k)` states coupled to its
    /// neighbours has `lower = upper = 3` or less).
    Banded {
        /// Number of sub-diagonals (entries below the diagonal, `i > j`).
        lower: usize,
        /// Number of super-diagonals (entries above the diagonal, `j > i`).
        upper: usize,
    },
    /// An explicit pattern of the `n_d × n_d` block.
    Sparse(SparsityPattern),
}

impl JacobianStructure {
    /// The pattern of the dynamic block of dimension `nd`, or `None` for [`Dense`](Self::Dense)
    /// and for a [`Sparse`](Self::Sparse) pattern of another dimension (a model bug; the
    /// caller then falls back to dense).
    pub fn pattern(&self, nd: usize) -> Option<SparsityPattern> {
        match self {
            Self::Dense => None,
            Self::Banded { lower, upper } => Some(SparsityPattern::banded(nd, *lower, *upper)),
            Self::Sparse(p) if p.dim() == nd => Some(p.clone()),
            Self::Sparse(_) => None,
        }
    }
}

/// Why a list of entries is not a pattern.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// An entry lies outside the `n × n` matrix.
    #[error("pattern entry ({row}, {col}) lies outside the {n} × {n} matrix")]
    OutOfRange {
        /// Row index.
        row: usize,
        /// Column index.
        col: usize,
        /// Matrix dimension.
        n: usize,
    },
}

/// The possibly non-zero entries of an `n × n` matrix in compressed sparse column (CSC) form:
/// the rows of column `j` are `row_idx[col_ptr[j]..col_ptr[j + 1]]`, strictly increasing.
///
/// This order (column by column, rows ascending) is the **pattern order** in which values
/// are stored, e.g. by [`Model::jacobian_sparse`](super::Model::jacobian_sparse).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparsityPattern {
    n: usize,
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
}

impl SparsityPattern {
    /// The pattern of the `(row, col)` pairs of an `n × n` matrix, in any order; duplicates
    /// are merged.
    pub fn from_entries(
        n: usize,
        entries: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<Self, PatternError> {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (row, col) in entries {
            if row >= n || col >= n {
                return Err(PatternError::OutOfRange { row, col, n });
            }
            pairs.push((col, row));
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut col_ptr = vec![0; n + 1];
        for &(col, _) in &pairs {
            col_ptr[col + 1] += 1;
        }
        for j in 0..n {
            col_ptr[j + 1] += col_ptr[j];
        }
        let row_idx = pairs.into_iter().map(|(_, row)| row).collect();
        Ok(Self {
            n,
            col_ptr,
            row_idx,
        })
    }

    /// The band `i − lower ≤ j ≤ i + upper` of an `n × n` matrix.
    pub fn banded(n: usize, lower: usize, upper: usize) -> Self {
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::new();
        col_ptr.push(0);
        for j in 0..n {
            // Column j holds rows j − upper ..= j + lower.
            row_idx.extend(j.saturating_sub(upper)..=(j.saturating_add(lower)).min(n - 1));
            col_ptr.push(row_idx.len());
        }
        Self {
            n,
            col_ptr,
            row_idx,
        }
    }

    /// The same pattern with the diagonal added (the matrix `I/(hγ) − J` always has it).
    pub fn with_diagonal(&self) -> Self {
        let diagonal = (0..self.n).map(|i| (i, i));
        Self::from_entries(self.n, self.entries().chain(diagonal)).unwrap_or_else(|_| self.clone())
    }

    /// Matrix dimension `n`.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Number of entries.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// Column pointers (length `n + 1`).
    pub fn col_ptr(&self) -> &[usize] {
        &self.col_ptr
    }

    /// Row indices in pattern order.
    pub fn row_idx(&self) -> &[usize] {
        &self.row_idx
    }

    /// The rows of column `j`, ascending.
    pub fn rows_of(&self, j: usize) -> &[usize] {
        &self.row_idx[self.col_ptr[j]..self.col_ptr[j + 1]]
    }

    /// Position of entry `(row, col)` in pattern order, if it is part of the pattern.
    pub fn position(&self, row: usize, col: usize) -> Option<usize> {
        let start = self.col_ptr[col];
        self.rows_of(col)
            .binary_search(&row)
            .ok()
            .map(|k| start + k)
    }

    /// The `(row, col)` pairs in pattern order.
    pub fn entries(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |j| self.rows_of(j).iter().map(move |&i| (i, j)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_sorted_by_column_and_merged() {
        let p = SparsityPattern::from_entries(3, [(2, 0), (0, 0), (1, 2), (0, 0), (2, 2)])
            .expect("in range");
        assert_eq!(p.col_ptr(), &[0, 2, 2, 4]);
        assert_eq!(p.row_idx(), &[0, 2, 1, 2]);
        assert_eq!(p.position(1, 2), Some(2));
        assert_eq!(p.position(1, 0), None);
        let back: Vec<_> = p.entries().collect();
        assert_eq!(back, vec![(0, 0), (2, 0), (1, 2), (2, 2)]);
        assert_eq!(p.with_diagonal().nnz(), 5);
        assert_eq!(
            SparsityPattern::from_entries(2, [(0, 2)]),
            Err(PatternError::OutOfRange {
                row: 0,
                col: 2,
                n: 2
            })
        );
    }

    #[test]
    fn band_matches_its_definition() {
        let (n, lower, upper) = (7, 2, 1);
        let p = SparsityPattern::banded(n, lower, upper);
        for i in 0..n {
            for j in 0..n {
                let inside = j + lower >= i && j <= i + upper;
                assert_eq!(p.position(i, j).is_some(), inside, "({i}, {j})");
            }
        }
        assert_eq!(
            JacobianStructure::Banded { lower, upper }.pattern(n),
            Some(p)
        );
        assert_eq!(JacobianStructure::Dense.pattern(n), None);
        let wrong = JacobianStructure::Sparse(SparsityPattern::banded(3, 0, 0));
        assert_eq!(wrong.pattern(n), None);
        // A band wider than the matrix is the full matrix.
        assert_eq!(SparsityPattern::banded(3, 9, 9).nnz(), 9);
        assert_eq!(SparsityPattern::banded(0, 1, 1).nnz(), 0);
    }
}
