//! Saltation matrices of mode switches (MODELS §2.2, §4.3; Müller 1995; Leine & Nijmeijer 2004).
//!
//! At a switch of event function `h` (`h > 0` while the old mode holds) from the field `f⁻` to
//! `f⁺` with the state reset `y⁺ = R(y⁻, t)`, a tangent vector jumps by
//! ```text
//! S = R_y + (f⁺ − R_y·f⁻ − R_t)·nᵀ / (nᵀf⁻ + ∂h/∂t),      n = ∂h/∂y
//! ```
//! **Resets.** A perturbation `δy⁻` meets the surface `δt = −nᵀδy⁻/(nᵀf⁻ + ∂h/∂t)` later, at
//! `y⁻ + δy⁻ + f⁻·δt`; the reset maps that point and the new field carries it back by `δt`.
//! So column `j` of `S` is the derivative of `R` along the surface-tangent space-time
//! direction `(e_j + f⁻·δt_j, δt_j)`, minus `f⁺·δt_j`. For a model that can be copied
//! ([`Model::boxed_clone`]) it is taken by central differences of the model's own
//! `apply_event` on copies of the pre-switch model — every reset is covered as written:
//! Armstrong's `x_s := 0`, its dwell and static-memory updates, the subloading `r_s := r`, GMS
//! elements set onto their thresholds. Differencing along the surface keeps both sides of a
//! reset that has a kink across the surface (`r_s := min(r_s, r)` at `r = r_s`) on the same
//! branch. A model that cannot be copied gets `R = identity`, which reduces `S` to
//! `I + (f⁺ − f⁻)·nᵀ/(nᵀf⁻ + ∂h/∂t)` and is exact for the set-valued stick's `v := v_b` (it only
//! removes round-off from a state already on the surface).
//!
//! Entering stick the new field is tangent to the surface (`nᵀf⁺ = 0`), S is singular and the
//! orbit gets a zero multiplier, i.e. an exponent `−∞`.

use super::jacobian::{Work, active_dim, guard_gradient};
use crate::integrate::{Model, SimError};

/// Relative increment of the reset's central differences, in units of the state scales (the
/// resets are linear or smooth along the surface: truncation ~1e-12, round-off ~1e-10).
pub const RESET_FD_REL: f64 = 1e-6;

/// Relative size of `nᵀf⁻ + ∂h/∂t` under which a crossing counts as grazing (tangential): its
/// saltation matrix is unbounded and the switch is left out (counted).
pub const GRAZING_REL: f64 = 1e-12;

/// The data of one switch: fields before and after, guard gradient and time derivative.
#[derive(Clone, Debug, PartialEq)]
pub struct Switch {
    /// Event index.
    pub index: usize,
    /// `f⁻` (first `m` components).
    pub f_minus: Vec<f64>,
    /// `f⁺` (first `m` components).
    pub f_plus: Vec<f64>,
    /// `n = ∂h/∂y` (first `m` components).
    pub normal: Vec<f64>,
    /// `∂h/∂t`.
    pub dh_dt: f64,
    /// `S` from the differenced reset (`m × m`, row-major, unscaled), when the model could be
    /// copied; `None`: the identity reset.
    pub reset: Option<Vec<f64>>,
}

impl Switch {
    /// `nᵀf⁻ + ∂h/∂t`.
    pub fn denominator(&self) -> f64 {
        dot(&self.normal, &self.f_minus) + self.dh_dt
    }

    /// Whether the crossing is (numerically) tangential.
    pub fn is_grazing(&self) -> bool {
        let size: f64 = self
            .normal
            .iter()
            .zip(&self.f_minus)
            .map(|(n, f)| (n * f).abs())
            .sum::<f64>()
            + self.dh_dt.abs();
        let den = self.denominator().abs();
        den.is_nan() || den <= GRAZING_REL * size
    }

    /// `S` (`m × m`, row-major).
    pub fn matrix(&self) -> Vec<f64> {
        if let Some(s) = &self.reset {
            return s.clone();
        }
        let m = self.normal.len();
        let den = self.denominator();
        let mut s = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                s[i * m + j] = f64::from(u8::from(i == j))
                    + (self.f_plus[i] - self.f_minus[i]) * self.normal[j] / den;
            }
        }
        s
    }

    /// `ln|det S|` (`−∞` when entering stick).
    pub fn log_abs_det(&self) -> f64 {
        match &self.reset {
            Some(s) => {
                let m = self.normal.len();
                let det = nalgebra::DMatrix::from_row_slice(m, m, s).determinant();
                det.abs().ln()
            }
            None => ((dot(&self.normal, &self.f_plus) + self.dh_dt) / self.denominator())
                .abs()
                .ln(),
        }
    }

    /// Applies `S` to `k` tangent columns of length `m` stored in scaled coordinates
    /// (`q = D⁻¹·δy`, `D = diag(scales)`): `q ← D⁻¹·S·D·q`.
    pub fn apply_scaled(&self, q: &mut [f64], m: usize, k: usize, scales: &[f64]) {
        if let Some(s) = &self.reset {
            apply_matrix_scaled(s, q, m, k, scales);
            return;
        }
        let den = self.denominator();
        for c in 0..k {
            let col = &mut q[c * m..(c + 1) * m];
            let w: f64 = (0..m)
                .map(|j| self.normal[j] * scales[j] * col[j])
                .sum::<f64>()
                / den;
            for i in 0..m {
                col[i] += (self.f_plus[i] - self.f_minus[i]) / scales[i] * w;
            }
        }
    }
}

/// `q ← D⁻¹·S·D·q` for `k` columns of length `m` (`S` row-major `m × m`).
pub fn apply_matrix_scaled(s: &[f64], q: &mut [f64], m: usize, k: usize, scales: &[f64]) {
    let mut d = vec![0.0; m];
    for c in 0..k {
        let col = &mut q[c * m..(c + 1) * m];
        for (dj, (qj, sj)) in d.iter_mut().zip(col.iter().zip(scales)) {
            *dj = qj * sj;
        }
        for i in 0..m {
            let row = &s[i * m..(i + 1) * m];
            col[i] = dot(row, &d) / scales[i];
        }
    }
}

/// Scaled move of an after-step projection under which it counts as round-off (the identity
/// for tangents): a constraint the vector field keeps, corrected by a few ulps.
pub const PROJECTION_MIN_MOVE: f64 = 1e-7;

/// Largest relative increment of a projection's central differences; it is also kept at a
/// hundredth of the projection's move, so both sides stay on the projected branch.
pub const PROJECTION_FD_REL: f64 = 1e-6;

/// The Jacobian `P_y` (`m × m`, row-major, unscaled) of an after-step projection that moved
/// the state from `y_pre` to `y_post` by more than round-off — a constraint enforced step by
/// step that the vector field does not keep (a GMS element pinned to its falling threshold) —
/// by central differences of the model's own `after_step` on copies of the model as it was
/// before (`before`). `None`: the move was round-off (identity), or a perturbed projection
/// failed to give a finite state.
pub fn projection_jacobian(
    before: &dyn Model,
    t: f64,
    y_pre: &[f64],
    y_post: &[f64],
    scales: &[f64],
    m: usize,
) -> Option<Vec<f64>> {
    let moved = (0..m)
        .map(|i| (y_post[i] - y_pre[i]).abs() / scales[i])
        .fold(0.0, f64::max);
    // NaN counts as no move.
    if moved.is_nan() || moved <= PROJECTION_MIN_MOVE {
        return None;
    }
    let rel = PROJECTION_FD_REL.min(1e-2 * moved);
    let mut p = vec![0.0; m * m];
    let mut yp = y_pre.to_vec();
    let mut ym = y_pre.to_vec();
    for j in 0..m {
        let h = rel * scales[j];
        yp.copy_from_slice(y_pre);
        ym.copy_from_slice(y_pre);
        yp[j] += h;
        ym[j] -= h;
        before.boxed_clone()?.after_step(t, &mut yp);
        before.boxed_clone()?.after_step(t, &mut ym);
        for i in 0..m {
            let v = (yp[i] - ym[i]) / (2.0 * h);
            if !v.is_finite() {
                return None;
            }
            p[i * m + j] = v;
        }
    }
    Some(p)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Carries out event `index` of `model` at `(t, y)` — `y` becomes the state after the switch,
/// the model its new mode — and returns the switch data for the saltation matrix (with the
/// differenced reset when the model can be copied).
pub fn switch(
    model: &mut dyn Model,
    index: usize,
    t: f64,
    y: &mut [f64],
    scales: &[f64],
    work: &mut Work,
) -> Result<Switch, SimError> {
    let (n, m) = (model.dim(), active_dim(model));
    let mut f = vec![0.0; n];
    model.rhs(t, y, &mut f);
    let f_minus = f[..m].to_vec();
    let mut normal = vec![0.0; m];
    let dh_dt = guard_gradient(model, index, t, y, scales, &mut normal, work);
    let before = model.boxed_clone();
    let y_minus = y.to_vec();
    model.apply_event(index, t, y)?;
    model.rhs(t, y, &mut f);
    let mut sw = Switch {
        index,
        f_minus,
        f_plus: f[..m].to_vec(),
        normal,
        dh_dt,
        reset: None,
    };
    if let Some(before) = before
        && !sw.is_grazing()
    {
        sw.reset = differenced(before.as_ref(), &sw, t, &y_minus, scales);
    }
    Ok(sw)
}

/// `S` by central differences of the reset along the switching surface (module notes);
/// `None` if a perturbed reset fails or gives a non-finite state.
fn differenced(
    before: &dyn Model,
    sw: &Switch,
    t: f64,
    y_minus: &[f64],
    scales: &[f64],
) -> Option<Vec<f64>> {
    let m = sw.normal.len();
    let den = sw.denominator();
    let mut s = vec![0.0; m * m];
    let mut yp = y_minus.to_vec();
    let mut ym = y_minus.to_vec();
    for j in 0..m {
        let h = RESET_FD_REL * scales[j];
        let dt = -sw.normal[j] / den;
        yp.copy_from_slice(y_minus);
        ym.copy_from_slice(y_minus);
        for (i, (p, q)) in yp.iter_mut().zip(ym.iter_mut()).enumerate().take(m) {
            let along = f64::from(u8::from(i == j)) + sw.f_minus[i] * dt;
            *p = y_minus[i] + h * along;
            *q = y_minus[i] - h * along;
        }
        let mut plus = before.boxed_clone()?;
        plus.apply_event(sw.index, t + h * dt, &mut yp).ok()?;
        let mut minus = before.boxed_clone()?;
        minus.apply_event(sw.index, t - h * dt, &mut ym).ok()?;
        for i in 0..m {
            let v = (yp[i] - ym[i]) / (2.0 * h) - sw.f_plus[i] * dt;
            if !v.is_finite() {
                return None;
            }
            s[i * m + j] = v;
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entering_a_sliding_surface_is_singular() {
        // n = (0, 1), f⁻ = (1, −2), f⁺ = (1, 0): S = diag(1, 0) (Leine & Nijmeijer, stick).
        let s = Switch {
            index: 0,
            f_minus: vec![1.0, -2.0],
            f_plus: vec![1.0, 0.0],
            normal: vec![0.0, 1.0],
            dh_dt: 0.0,
            reset: None,
        };
        assert_eq!(s.matrix(), vec![1.0, 0.0, 0.0, 0.0]);
        assert_eq!(s.log_abs_det(), f64::NEG_INFINITY);
        // Scaled application equals D⁻¹ S D.
        let mut q = vec![0.3, 0.7];
        s.apply_scaled(&mut q, 2, 1, &[2.0, 5.0]);
        assert!((q[0] - 0.3).abs() < 1e-16 && q[1].abs() < 1e-15, "{q:?}");
    }
}
