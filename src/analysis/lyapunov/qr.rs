//! Re-orthonormalisation of tangent vectors: modified Gram–Schmidt, `V = Q̃·R`, `R_ii > 0`.
//!
//! Vectors are stored one after the other (`k` columns of length `m`). A column whose residual
//! after projection is below [`COLLAPSE_REL`] of its own norm has **collapsed**: the tangent
//! map was singular on the span (a saltation matrix entering stick has rank `m − 1`), its
//! `ln R_ii` is `−∞`. Collapsed columns are moved behind the others (so `−∞` exponents come last,
//! in order) and replaced by unit vectors orthogonal to all kept columns.

/// Residual/norm ratio under which a column counts as collapsed. Between two
/// re-orthonormalisations the runs keep the columns' spread far above this (they renormalise
/// whenever a residual falls under 1e-3 of its norm), so only a singular map reaches it.
pub const COLLAPSE_REL: f64 = 1e-11;

/// Outcome of one re-orthonormalisation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QrStep {
    /// `ln R_ii` per column position (`−∞` for collapsed positions).
    pub log_r: Vec<f64>,
    /// Which positions collapsed.
    pub collapsed: Vec<bool>,
}

/// Norm of a column.
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Worst alignment of the columns without changing them: the largest `‖v_i‖/R_ii` (1 for
/// orthogonal columns, ∞ for dependent ones) and the smallest and largest column norms.
pub fn conditioning(v: &[f64], m: usize, k: usize, work: &mut Vec<f64>) -> (f64, f64, f64) {
    work.clear();
    work.extend_from_slice(&v[..m * k]);
    let (mut worst, mut lo, mut hi) = (1.0f64, f64::INFINITY, 0.0f64);
    for i in 0..k {
        let n0 = norm(&work[i * m..(i + 1) * m]);
        lo = lo.min(n0);
        hi = hi.max(n0);
        for j in 0..i {
            let (head, tail) = work.split_at_mut(i * m);
            let qj = &head[j * m..(j + 1) * m];
            let vi = &mut tail[..m];
            let p = dot(qj, vi);
            vi.iter_mut().zip(qj).for_each(|(a, b)| *a -= p * b);
        }
        let r = norm(&work[i * m..(i + 1) * m]);
        worst = worst.max(if r > 0.0 { n0 / r } else { f64::INFINITY });
        if r > 0.0 {
            work[i * m..(i + 1) * m].iter_mut().for_each(|a| *a /= r);
        }
    }
    (worst, lo, hi)
}

/// Orthonormalises the `k` columns of `v` (length `m` each) in place and returns `ln R_ii`.
pub fn orthonormalize(v: &mut [f64], m: usize, k: usize) -> QrStep {
    assert!(k <= m && v.len() >= m * k);
    let mut kept: Vec<Vec<f64>> = Vec::with_capacity(k);
    let mut log_r = Vec::with_capacity(k);
    let mut n_collapsed = 0;
    for i in 0..k {
        let mut col = v[i * m..(i + 1) * m].to_vec();
        let n0 = norm(&col);
        // Two passes of projection ("twice is enough") keep orthogonality to round-off.
        let mut projected = vec![0.0; kept.len()];
        for _ in 0..2 {
            for (q, acc) in kept.iter().zip(projected.iter_mut()) {
                let p = dot(q, &col);
                *acc += p;
                col.iter_mut().zip(q).for_each(|(a, b)| *a -= p * b);
            }
        }
        let r = norm(&col);
        if n0 > 0.0 && r > COLLAPSE_REL * n0 && r.is_finite() {
            col.iter_mut().for_each(|a| *a /= r);
            kept.push(col);
            log_r.push(r.ln());
        } else {
            n_collapsed += 1;
        }
    }
    // Fill the collapsed positions with unit vectors orthogonal to everything kept.
    let n_kept = kept.len();
    for cand in 0..=m {
        if kept.len() >= k {
            break;
        }
        // A generic direction (not a coordinate axis) first, then the axes.
        let mut col = vec![0.0; m];
        if cand == 0 {
            col.iter_mut()
                .enumerate()
                .for_each(|(i, c)| *c = 1.0 + 0.1 * i as f64);
        } else {
            col[cand - 1] = 1.0;
        }
        for _ in 0..2 {
            for q in &kept {
                let p = dot(q, &col);
                col.iter_mut().zip(q).for_each(|(a, b)| *a -= p * b);
            }
        }
        let r = norm(&col);
        if r > 1e-6 {
            col.iter_mut().for_each(|a| *a /= r);
            kept.push(col);
        }
    }
    for (i, q) in kept.iter().enumerate() {
        v[i * m..(i + 1) * m].copy_from_slice(q);
    }
    let mut collapsed = vec![false; k];
    for i in n_kept..k {
        collapsed[i] = true;
        log_r.push(f64::NEG_INFINITY);
    }
    debug_assert_eq!(n_kept + n_collapsed, k);
    QrStep { log_r, collapsed }
}

/// `k` orthonormal columns of length `m` in a generic position (not aligned with coordinate
/// axes, so no column starts in a direction a projection annihilates exactly).
pub fn generic_frame(m: usize, k: usize) -> Vec<f64> {
    let mut v = vec![0.0; m * k];
    for c in 0..k {
        for i in 0..m {
            // Deterministic, well-conditioned: a diagonally dominant matrix with irrational
            // off-diagonal entries.
            let off = ((i * 7 + c * 3 + 1) as f64 * 0.618_033_988_749_894_9).fract() - 0.5;
            v[c * m + i] = if i == c { 1.0 } else { 0.3 * off };
        }
    }
    orthonormalize(&mut v, m, k);
    v
}

/// `ln|det A|` of an `m × m` row-major matrix (Gaussian elimination with partial pivoting;
/// `−∞` when singular).
pub fn log_abs_det(a: &[f64], m: usize) -> f64 {
    let mut a = a[..m * m].to_vec();
    let mut acc = 0.0;
    for k in 0..m {
        let p = (k..m)
            .max_by(|&i, &j| a[i * m + k].abs().total_cmp(&a[j * m + k].abs()))
            .unwrap_or(k);
        let pivot = a[p * m + k];
        if pivot == 0.0 || !pivot.is_finite() {
            return f64::NEG_INFINITY;
        }
        if p != k {
            for j in 0..m {
                a.swap(k * m + j, p * m + j);
            }
        }
        acc += pivot.abs().ln();
        for i in k + 1..m {
            let l = a[i * m + k] / pivot;
            for j in k..m {
                a[i * m + j] -= l * a[k * m + j];
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_r_of_a_known_factorisation() {
        // Columns (3, 4) and (1, 2): R = [[5, 11/5], [0, 2/5]].
        let mut v = vec![3.0, 4.0, 1.0, 2.0];
        let s = orthonormalize(&mut v, 2, 2);
        assert!((s.log_r[0] - 5f64.ln()).abs() < 1e-14);
        assert!((s.log_r[1] - 0.4f64.ln()).abs() < 1e-14);
        let expected = [0.6, 0.8, -0.8, 0.6];
        assert!(
            v.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-15),
            "{v:?}"
        );
        assert_eq!(s.collapsed, vec![false, false]);
    }

    #[test]
    fn dependent_columns_collapse_last_and_are_replaced() {
        // Column 0 is zero (annihilated), column 1 survives: the collapse moves behind it.
        let mut v = vec![0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        let s = orthonormalize(&mut v, 3, 3);
        assert_eq!(s.collapsed, vec![false, false, true]);
        assert!((s.log_r[0] - 2f64.ln()).abs() < 1e-14);
        assert!((s.log_r[1] - 2f64.sqrt().ln()).abs() < 1e-14);
        assert_eq!(s.log_r[2], f64::NEG_INFINITY);
        // Still an orthonormal frame.
        for i in 0..3 {
            for j in 0..3 {
                let d = dot(&v[i * 3..i * 3 + 3], &v[j * 3..j * 3 + 3]);
                let e = if i == j { 1.0 } else { 0.0 };
                assert!((d - e).abs() < 1e-12, "{i} {j} {d}");
            }
        }
    }

    #[test]
    fn log_det_of_a_matrix_that_needs_pivoting() {
        // det [[0, 2], [3, 1]] = −6.
        assert!((log_abs_det(&[0.0, 2.0, 3.0, 1.0], 2) - 6f64.ln()).abs() < 1e-15);
        assert_eq!(log_abs_det(&[1.0, 2.0, 2.0, 4.0], 2), f64::NEG_INFINITY);
    }

    #[test]
    fn generic_frame_is_orthonormal_and_off_axis() {
        let v = generic_frame(4, 3);
        let (worst, lo, hi) = conditioning(&v, 4, 3, &mut Vec::new());
        assert!(
            (worst - 1.0).abs() < 1e-12 && (lo - 1.0).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12
        );
        assert!(v.iter().all(|x| x.abs() > 1e-3), "{v:?}");
    }
}
