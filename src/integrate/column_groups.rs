//! Column grouping for difference Jacobians (Curtis, Powell & Reid 1974, "On the estimation
//! of sparse Jacobian matrices", *J. Inst. Math. Appl.* 13).
//!
//! Forward differences cost one right-hand side per column: `J_·j ≈ (f(y + δ_j e_j) − f(y))/δ_j`.
//! Two columns whose row patterns do not overlap can be perturbed **together**: in
//! `f(y + δ_j e_j + δ_k e_k) − f(y)` the rows of column `j` see only `δ_j`, those of `k` only
//! `δ_k`. A partition of the columns into such groups (a colouring of the column intersection
//! graph) gives the whole Jacobian in one evaluation per group. The greedy colouring in column
//! order used here gives a band of `l` sub- and `u` super-diagonals exactly `l + u + 1` groups
//! (column `j` in group `j mod (l + u + 1)`), independent of `n`.

use super::Model;
use super::jacobian_structure::SparsityPattern;

/// A partition of the columns of a pattern into structurally orthogonal groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnGroups {
    /// Columns of group `g`: `cols[group_ptr[g]..group_ptr[g + 1]]`, ascending.
    group_ptr: Vec<usize>,
    cols: Vec<usize>,
}

impl ColumnGroups {
    /// Greedy colouring: each column, in order, joins the first group none of whose columns
    /// shares a row with it.
    pub fn new(pattern: &SparsityPattern) -> Self {
        let n = pattern.dim();
        // Row-wise view of the pattern: the columns that have an entry in row i.
        let mut row_ptr = vec![0; n + 1];
        for &i in pattern.row_idx() {
            row_ptr[i + 1] += 1;
        }
        for i in 0..n {
            row_ptr[i + 1] += row_ptr[i];
        }
        let mut fill = row_ptr.clone();
        let mut row_cols = vec![0; pattern.nnz()];
        for j in 0..n {
            for &i in pattern.rows_of(j) {
                row_cols[fill[i]] = j;
                fill[i] += 1;
            }
        }
        const NONE: usize = usize::MAX;
        let mut group_of = vec![NONE; n];
        // forbidden[g] == j: group g holds a column that conflicts with column j.
        let mut forbidden: Vec<usize> = Vec::new();
        let mut n_groups = 0;
        for j in 0..n {
            for &i in pattern.rows_of(j) {
                for &k in &row_cols[row_ptr[i]..row_ptr[i + 1]] {
                    if group_of[k] != NONE {
                        forbidden[group_of[k]] = j;
                    }
                }
            }
            let g = (0..n_groups)
                .find(|&g| forbidden[g] != j)
                .unwrap_or(n_groups);
            if g == n_groups {
                n_groups += 1;
                forbidden.push(NONE);
            }
            group_of[j] = g;
        }
        let mut group_ptr = vec![0; n_groups + 1];
        for &g in &group_of {
            group_ptr[g + 1] += 1;
        }
        for g in 0..n_groups {
            group_ptr[g + 1] += group_ptr[g];
        }
        let mut fill = group_ptr.clone();
        let mut cols = vec![0; n];
        for (j, &g) in group_of.iter().enumerate() {
            cols[fill[g]] = j;
            fill[g] += 1;
        }
        Self { group_ptr, cols }
    }

    /// Number of groups (right-hand-side evaluations per Jacobian).
    pub fn len(&self) -> usize {
        self.group_ptr.len() - 1
    }

    /// Whether there are no columns at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The columns of group `g`, ascending.
    pub fn group(&self, g: usize) -> &[usize] {
        &self.cols[self.group_ptr[g]..self.group_ptr[g + 1]]
    }
}

/// Work vectors and the grouping for [`difference`](GroupedDifference::difference).
#[derive(Clone, Debug)]
pub struct GroupedDifference {
    groups: ColumnGroups,
    y: Vec<f64>,
    f: Vec<f64>,
}

impl GroupedDifference {
    /// Grouping of `pattern` (the dynamic block) for a model of dimension `n`.
    pub fn new(pattern: &SparsityPattern, n: usize) -> Self {
        Self {
            groups: ColumnGroups::new(pattern),
            y: vec![0.0; n],
            f: vec![0.0; n],
        }
    }

    /// The column grouping.
    pub fn groups(&self) -> &ColumnGroups {
        &self.groups
    }

    /// Forward-difference values of the pattern's entries, in pattern order:
    /// `values[p] = (f_i(y + Σ_{k∈g} δ_k e_k) − f0_i)/δ_j` for entry `p = (i, j)`, `j ∈ g`,
    /// with the increments `delta[j]`. Returns the number of right-hand-side evaluations
    /// (one per group).
    #[allow(clippy::too_many_arguments)]
    pub fn difference(
        &mut self,
        model: &dyn Model,
        t: f64,
        y: &[f64],
        f0: &[f64],
        delta: &[f64],
        pattern: &SparsityPattern,
        values: &mut [f64],
    ) -> u64 {
        let n = y.len();
        self.y[..n].copy_from_slice(y);
        for g in 0..self.groups.len() {
            let cols = self.groups.group(g);
            for &j in cols {
                self.y[j] = y[j] + delta[j];
            }
            model.rhs(t, &self.y[..n], &mut self.f[..n]);
            for &j in cols {
                self.y[j] = y[j];
                let start = pattern.col_ptr()[j];
                for (k, &i) in pattern.rows_of(j).iter().enumerate() {
                    values[start + k] = (self.f[i] - f0[i]) / delta[j];
                }
            }
        }
        self.groups.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every group is structurally orthogonal and every column is in exactly one group.
    fn assert_valid(p: &SparsityPattern, groups: &ColumnGroups) {
        let mut seen = vec![false; p.dim()];
        for g in 0..groups.len() {
            let mut rows = vec![false; p.dim()];
            for &j in groups.group(g) {
                assert!(!seen[j], "column {j} twice");
                seen[j] = true;
                for &i in p.rows_of(j) {
                    assert!(!rows[i], "group {g}: row {i} hit twice");
                    rows[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "a column is missing");
    }

    #[test]
    fn a_band_needs_its_width_in_groups() {
        for (n, l, u) in [(50, 1, 1), (50, 3, 1), (40, 0, 2), (5, 9, 9), (1, 0, 0)] {
            let p = SparsityPattern::banded(n, l, u);
            let groups = ColumnGroups::new(&p);
            assert_valid(&p, &groups);
            assert_eq!(groups.len(), (l + u + 1).min(n), "n {n}, l {l}, u {u}");
        }
    }

    #[test]
    fn an_arrow_pattern_groups_validly() {
        // Diagonal plus a full last row and column: the last column meets every row.
        let n = 30;
        let entries = (0..n)
            .flat_map(|i| [(i, i), (n - 1, i), (i, n - 1)])
            .collect::<Vec<_>>();
        let p = SparsityPattern::from_entries(n, entries).expect("in range");
        let groups = ColumnGroups::new(&p);
        assert_valid(&p, &groups);
        // Columns 0..n−1 all share row n−1: each needs its own group.
        assert_eq!(groups.len(), n);
        // A block diagonal of 2 × 2 blocks needs two groups.
        let blocks = (0..n)
            .flat_map(|i| [(i, i), (i ^ 1, i)])
            .collect::<Vec<_>>();
        let p = SparsityPattern::from_entries(n, blocks).expect("in range");
        let groups = ColumnGroups::new(&p);
        assert_valid(&p, &groups);
        assert_eq!(groups.len(), 2);
    }
}
