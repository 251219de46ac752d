//! The chain's dynamic Jacobian: its block-tridiagonal pattern and its analytic values.
//!
//! Block `i`'s contact sees `v_rel = ẋ_i − v_b` and the holding force
//! `F_hold = k_p·x_i + c·ẋ_i − k_c·Σ_j (x_j − x_i)` (j over its neighbours, the frame at a fixed
//! end), so with the law's own derivatives (`∂F/∂v`, `∂F/∂F_hold`, `∂F/∂s`, `∂ṡ/∂v`, `∂ṡ/∂s`):
//! ```text
//! ∂ẍ_i/∂x_i = (∂F/∂F_hold − 1)·(k_p + k_c·n_i)/m      n_i: springs on block i
//! ∂ẍ_i/∂x_j = −(∂F/∂F_hold − 1)·k_c/m                 for each neighbour j
//! ∂ẍ_i/∂ẋ_i = (∂F/∂v + (∂F/∂F_hold − 1)·c)/m,          ∂ẍ_i/∂s_i = (∂F/∂s)/m
//! ∂ṡ_i/∂ẋ_i = ∂ṡ/∂v,   ∂ṡ_i/∂s_i = ∂ṡ/∂s
//! ```
//! An exact Jacobian keeps the Rosenbrock methods at their order: with differenced columns the
//! 100-block LuGre chain stalls at errors of ~10⁻¹¹ however tight the tolerance.

use super::Chain;
use crate::integrate::SparsityPattern;
use crate::laws::{FrictionLaw, LawJacobian};

/// Most law states per block the analytic Jacobian handles (more: differenced columns).
const MAX_LAW_STATES: usize = 8;

impl Chain {
    /// Entries of the dynamic Jacobian that may be non-zero: each block's velocity and law
    /// state rows depend on its own segment and on its neighbours' positions.
    pub(super) fn sparsity(&self) -> Option<SparsityPattern> {
        let mut entries = Vec::new();
        for i in 0..self.n {
            let seg = self.seg_at[i]..self.seg_at[i + 1];
            let s = seg.start;
            entries.push((s, s + 1));
            let (l, r) = self.neighbours[i];
            for row in s + 1..seg.end {
                for col in seg.clone() {
                    entries.push((row, col));
                }
                for j in [l, r].into_iter().flatten() {
                    entries.push((row, self.seg_at[j]));
                }
            }
        }
        SparsityPattern::from_entries(self.work_at(), entries).ok()
    }

    /// Analytic values in pattern order; `false` when a block's law has no analytic Jacobian
    /// in its current mode (the integrator then differences).
    pub(super) fn jacobian_values(&self, t: f64, y: &[f64], values: &mut [f64]) -> bool {
        let Some(pattern) = self.pattern.as_ref() else {
            return false;
        };
        if values.len() != pattern.nnz() {
            return false;
        }
        values.fill(0.0);
        let p = &self.params;
        let (kp, kc, cd) = (
            p.pull_stiffness_n_per_m,
            p.coupling_stiffness_n_per_m,
            p.damping_ns_per_m,
        );
        let factor = self.load_factor(t);
        let mut missing = false;
        let mut add = |row: usize, col: usize, v: f64| match pattern.position(row, col) {
            Some(k) => values[k] += v,
            None => missing |= v != 0.0,
        };
        for i in 0..self.n {
            let s = self.seg_at[i];
            let ns = self.seg_at[i + 1] - s - 2;
            if ns > MAX_LAW_STATES {
                return false;
            }
            let (mut df_ds, mut dds_dv, mut dds_ds) = (
                [0.0; MAX_LAW_STATES],
                [0.0; MAX_LAW_STATES],
                [0.0; MAX_LAW_STATES * MAX_LAW_STATES],
            );
            let mut lj = LawJacobian {
                df_dv: 0.0,
                df_dhold: 0.0,
                df_ds: &mut df_ds[..ns],
                dds_dv: &mut dds_dv[..ns],
                dds_ds: &mut dds_ds[..ns * ns],
            };
            let c = self.contact(i, t, y, factor);
            if !self.laws.law(i).jacobian(&c, &y[s + 2..s + 2 + ns], &mut lj) {
                return false;
            }
            let (df_dv, df_dhold) = (lj.df_dv, lj.df_dhold);
            let (l, r) = self.neighbours[i];
            let frame_springs = if p.ends.ties_to_frame() {
                usize::from(l.is_none()) + usize::from(r.is_none())
            } else {
                0
            };
            let springs = [l, r].iter().flatten().count() + frame_springs;
            let held = (df_dhold - 1.0) * self.inv_mass[i];
            add(s, s + 1, 1.0);
            add(s + 1, s, held * (kp + kc * springs as f64));
            add(s + 1, s + 1, (df_dv + (df_dhold - 1.0) * cd) * self.inv_mass[i]);
            for j in [l, r].into_iter().flatten() {
                add(s + 1, self.seg_at[j], -held * kc);
            }
            for a in 0..ns {
                add(s + 1, s + 2 + a, df_ds[a] * self.inv_mass[i]);
                add(s + 2 + a, s + 1, dds_dv[a]);
                for b in 0..ns {
                    add(s + 2 + a, s + 2 + b, dds_ds[a * ns + b]);
                }
            }
        }
        !missing
    }
}
