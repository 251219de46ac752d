//! The FKT chain dragged infinitely slowly at zero temperature: the layer follows a minimum
//! of its energy as the body advances, and pins or slides.
//!
//! With the body at `X` (kinematic drive) and the atoms at `x_j = X + j·b + p_j`, the energy
//! ```text
//! E(p; X) = Σ_j U₀·(1 − cos(2πx_j/a)) + ½k_c·(p_{j+1} − p_j)² + ½k_b·p_j²
//! ```
//! is followed along increasing `X` by Newton's method on its gradient (the Hessian is a
//! symmetric cyclic tridiagonal matrix, factored by an O(N) Cholesky). Where the followed
//! minimum disappears (a fold: the factorisation fails or the configuration jumps by more than
//! `a/8`), a shifted Newton descent (a Levenberg shift keeps each step downhill) relaxes the
//! layer into the next minimum and the energy released is counted as dissipated.
//!
//! The force the body needs, `F(X) = −k_b·Σ_j p_j`, has period `a·gcd(M, N)/N` in `X`. Over one
//! period after a settling period:
//! * **superlubric** (no fold): the layer slides through a continuous family of minima; the
//!   mean force is zero and the largest is the static friction of the finite ring (zero for a
//!   truly incommensurate contact);
//! * **pinned** (folds): the atoms slip, the mean force is the energy released per distance.
//!
//! Decision on MODELS' open point (the threshold with both springs): [`pinning_threshold`]
//! bisects the corrugation for the first fold along the branch; for `k_b → 0` it tends to
//! Aubry's `K_c = 0.9716` of the golden-mean chain (tested), and `k_b > 0` raises it.

use std::f64::consts::{PI, TAU};

use super::FktParams;

/// The quasi-static layer of a parameter set (kinematic body).
#[derive(Clone, Debug)]
pub struct QuasiStaticChain {
    n: usize,
    a: f64,
    b: f64,
    u0: f64,
    kc: f64,
    kb: f64,
}

/// What one forward branch showed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Branch {
    /// Largest force on the body along the measured period [N] (static friction).
    pub max_force_n: f64,
    /// Mean force over the measured period [N] (kinetic friction as `v → 0`).
    pub mean_force_n: f64,
    /// Energy released by folds per distance travelled [N].
    pub dissipated_per_distance_n: f64,
    /// Folds (collective or single-atom slips) in the measured period.
    pub folds: usize,
    /// Period of the force in the body's position [m].
    pub period_m: f64,
}

/// Greatest common divisor.
fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A walk along the forward branch, with its tallies.
struct Walker<'a> {
    chain: &'a QuasiStaticChain,
    p: Vec<f64>,
    prev: Vec<f64>,
    x: f64,
    dx: f64,
    folds: usize,
    released: f64,
    max_f: f64,
    sum_f: f64,
}

impl Walker<'_> {
    fn walk(&mut self, steps: usize) {
        let c = self.chain;
        for _ in 0..steps {
            self.x += self.dx;
            let e_before = c.energy(&self.prev, self.x);
            let converged = c.relax(&mut self.p, self.x);
            let jump = self
                .prev
                .iter()
                .zip(&self.p)
                .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
            // A fold: the minimum followed so far is gone, the layer fell into another.
            if !converged || jump > c.a / 8.0 {
                self.folds += 1;
                self.released += (e_before - c.energy(&self.p, self.x)).max(0.0);
            }
            let f = c.force_n(&self.p);
            self.max_f = self.max_f.max(f);
            self.sum_f += f;
            self.prev.copy_from_slice(&self.p);
        }
    }
}

/// O(N) Cholesky factor of a symmetric cyclic tridiagonal matrix (diagonal `d`, every
/// off-diagonal and the corner equal to `e`); `None` when it is not positive definite.
struct CyclicCholesky {
    diag: Vec<f64>,
    sub: Vec<f64>,
    last: Vec<f64>,
}

impl CyclicCholesky {
    fn new(d: &[f64], e: f64) -> Option<Self> {
        let n = d.len();
        let r = n - 1;
        let mut diag = vec![0.0; n];
        let mut sub = vec![0.0; n];
        let mut last = vec![0.0; n];
        for i in 0..r {
            if i > 0 {
                sub[i] = e / diag[i - 1];
            }
            let p = d[i] - sub[i] * sub[i];
            if p.is_nan() || p <= 0.0 {
                return None;
            }
            diag[i] = p.sqrt();
        }
        let mut sum = 0.0;
        for j in 0..r {
            let h = if j == 0 || j == r - 1 { e } else { 0.0 };
            let prev = if j > 0 { last[j - 1] * sub[j] } else { 0.0 };
            last[j] = (h - prev) / diag[j];
            sum += last[j] * last[j];
        }
        let p = d[r] - sum;
        if p.is_nan() || p <= 0.0 {
            return None;
        }
        diag[r] = p.sqrt();
        Some(Self { diag, sub, last })
    }

    /// Solves `L·Lᵀ·x = rhs` in place.
    fn solve(&self, x: &mut [f64]) {
        let n = x.len();
        let r = n - 1;
        for i in 0..r {
            let prev = if i > 0 { self.sub[i] * x[i - 1] } else { 0.0 };
            x[i] = (x[i] - prev) / self.diag[i];
        }
        let s: f64 = (0..r).map(|j| self.last[j] * x[j]).sum();
        // Forward (L·z = rhs) ends with z_r; backward (Lᵀ·x = z) starts with x_r = z_r/L_rr.
        x[r] = (x[r] - s) / self.diag[r] / self.diag[r];
        for i in (0..r).rev() {
            let next = if i + 1 < r { self.sub[i + 1] * x[i + 1] } else { 0.0 };
            x[i] = (x[i] - next - self.last[i] * x[r]) / self.diag[i];
        }
    }
}

impl QuasiStaticChain {
    /// The quasi-static layer of `p` (at least three atoms).
    pub fn new(p: &FktParams) -> Option<Self> {
        let n = p.n_atoms();
        (n >= 3).then(|| Self {
            n,
            a: p.lattice,
            b: p.spacing_m(),
            u0: p.corrugation,
            kc: p.coupling,
            kb: p.body_stiffness,
        })
    }

    fn theta(&self, p: &[f64], x_body: f64, j: usize) -> f64 {
        TAU * (x_body + j as f64 * self.b + p[j]) / self.a
    }

    /// Energy `E(p; X)` [J].
    pub fn energy(&self, p: &[f64], x_body: f64) -> f64 {
        (0..self.n)
            .map(|j| {
                let d = p[(j + 1) % self.n] - p[j];
                self.u0 * (1.0 - self.theta(p, x_body, j).cos())
                    + 0.5 * self.kc * d * d
                    + 0.5 * self.kb * p[j] * p[j]
            })
            .sum()
    }

    fn gradient(&self, p: &[f64], x_body: f64, g: &mut [f64]) {
        let n = self.n;
        for j in 0..n {
            let lap = p[(j + n - 1) % n] + p[(j + 1) % n] - 2.0 * p[j];
            g[j] = TAU * self.u0 / self.a * self.theta(p, x_body, j).sin() - self.kc * lap
                + self.kb * p[j];
        }
    }

    fn hessian_diag(&self, p: &[f64], x_body: f64, d: &mut [f64]) {
        let c = 4.0 * PI * PI * self.u0 / (self.a * self.a);
        for (j, dj) in d.iter_mut().enumerate() {
            *dj = c * self.theta(p, x_body, j).cos() + 2.0 * self.kc + self.kb;
        }
    }

    /// Force the body needs at the configuration, `−k_b·Σ p_j` [N].
    pub fn force_n(&self, p: &[f64]) -> f64 {
        -self.kb * p.iter().sum::<f64>()
    }

    fn force_scale(&self) -> f64 {
        TAU * self.u0 / self.a + self.kb * self.a
    }

    /// Relaxes `p` into a minimum of `E(·; X)` by Newton steps, shifted (Levenberg) where the
    /// Hessian is not positive definite and damped so that the energy decreases. Returns
    /// whether it converged.
    fn relax(&self, p: &mut [f64], x_body: f64) -> bool {
        let n = self.n;
        let (mut g, mut d, mut step, mut trial) =
            (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let scale = 4.0 * self.kc + self.kb + 4.0 * PI * PI * self.u0 / (self.a * self.a);
        let tol = 1e-11 * self.force_scale();
        for _ in 0..500 {
            self.gradient(p, x_body, &mut g);
            self.hessian_diag(p, x_body, &mut d);
            let g_max = g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let exact = CyclicCholesky::new(&d, -self.kc);
            if g_max < tol && exact.is_some() {
                return true;
            }
            // Newton's step where the Hessian is positive definite; near a minimum it is
            // taken whole (the energy cannot resolve the last digits of the gradient).
            let (factor, newton) = match exact {
                Some(f) => (f, true),
                None => {
                    let mut shift = 1e-3 * scale;
                    loop {
                        let ds: Vec<f64> = d.iter().map(|v| v + shift).collect();
                        if let Some(f) = CyclicCholesky::new(&ds, -self.kc) {
                            break (f, false);
                        }
                        shift *= 4.0;
                    }
                }
            };
            step.iter_mut().zip(&g).for_each(|(s, g)| *s = -g);
            factor.solve(&mut step);
            // Limit a step to a tenth of the lattice period, then backtrack on the energy.
            let longest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            let mut alpha = (0.1 * self.a / longest).min(1.0);
            if !(newton && alpha == 1.0) {
                let e0 = self.energy(p, x_body);
                let slope: f64 = step.iter().zip(&g).map(|(s, g)| s * g).sum();
                loop {
                    for j in 0..n {
                        trial[j] = p[j] + alpha * step[j];
                    }
                    if self.energy(&trial, x_body) <= e0 + 1e-4 * alpha * slope || alpha < 1e-12
                    {
                        break;
                    }
                    alpha *= 0.5;
                }
            }
            for j in 0..n {
                p[j] += alpha * step[j];
            }
        }
        false
    }

    /// Follows the minimum forward in `steps` steps per force period: first until it has
    /// settled (the force repeats after a period, or a fold has released the loading; at most
    /// the body's travel that would hold every atom at its largest substrate force,
    /// `2πU₀/(a·k_b) + a`), then over as many periods again as the loading took, at least
    /// one, to measure the force and the folds.
    pub fn forward_branch(&self, steps: usize) -> Branch {
        let period = self.a * gcd(self.n, self.period_count()) as f64 / self.n as f64;
        let reach = TAU * self.u0 / (self.a * self.kb) + self.a;
        let max_periods = (reach / period).ceil() as usize + 1;
        let dx = period / steps as f64;
        let mut p = vec![0.0; self.n];
        self.relax(&mut p, 0.0);
        let mut walker = Walker {
            chain: self,
            p: p.clone(),
            prev: p,
            x: 0.0,
            dx,
            folds: 0,
            released: 0.0,
            max_f: f64::NEG_INFINITY,
            sum_f: 0.0,
        };
        let tol = 1e-9 * self.force_scale();
        let mut loading = 0;
        while loading < max_periods.max(1) {
            let f0 = self.force_n(&walker.p);
            walker.walk(steps);
            loading += 1;
            let settled = (self.force_n(&walker.p) - f0).abs() < tol;
            if walker.folds > 0 || settled {
                break;
            }
        }
        walker.folds = 0;
        walker.released = 0.0;
        walker.max_f = f64::NEG_INFINITY;
        walker.sum_f = 0.0;
        walker.walk(loading * steps);
        let distance = loading as f64 * period;
        Branch {
            max_force_n: walker.max_f,
            mean_force_n: walker.sum_f / (loading * steps) as f64,
            dissipated_per_distance_n: walker.released / distance,
            folds: walker.folds,
            period_m: period,
        }
    }

    /// `M`, recovered from the spacing.
    fn period_count(&self) -> usize {
        (self.b * self.n as f64 / self.a).round() as usize
    }
}

/// The corrugation `U₀` [J] above which the layer pins (folds appear along the quasi-static
/// branch), bisected in `[lo, hi]` to a relative width `rel_tol`; `None` if the layer already
/// pins at `lo` or still slides at `hi`.
pub fn pinning_threshold(p: &FktParams, lo: f64, hi: f64, rel_tol: f64) -> Option<f64> {
    let pins = |u0: f64| {
        let mut q = p.clone();
        q.corrugation = u0;
        QuasiStaticChain::new(&q).is_some_and(|c| c.forward_branch(120).folds > 0)
    };
    if pins(lo) || !pins(hi) {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    while hi / lo - 1.0 > rel_tol {
        let mid = (lo * hi).sqrt();
        if pins(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((lo * hi).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyclic_cholesky_solves() {
        let d = [4.0, 5.0, 3.5, 6.0, 4.5];
        let e = -1.2;
        let f = CyclicCholesky::new(&d, e).unwrap();
        let x_true = [1.0, -2.0, 0.5, 3.0, -1.0];
        let n = d.len();
        let mut b: Vec<f64> = (0..n)
            .map(|i| d[i] * x_true[i] + e * (x_true[(i + 1) % n] + x_true[(i + n - 1) % n]))
            .collect();
        f.solve(&mut b);
        for i in 0..n {
            assert!((b[i] - x_true[i]).abs() < 1e-12, "{b:?}");
        }
    }

    #[test]
    fn relax_converges() {
        let c = QuasiStaticChain::new(&FktParams::default()).unwrap();
        let mut p = vec![0.0; c.n];
        assert!(c.relax(&mut p, 0.0));
        assert!(c.relax(&mut p, 1e-13));
    }
}
