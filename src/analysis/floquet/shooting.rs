//! Shooting: Newton on the Poincaré map, with its Jacobian by central differences.

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

use super::FloquetError;
use crate::analysis::dynamics::Dynamics;
use crate::analysis::probe::{FlowError, ModeSnapshot, flow, next_return};
use crate::integrate::driver::SectionId;

/// Number of section returns `K ≤ k_max` after which the tail of `points` repeats: the smallest
/// `K` whose last `K` points match those `K` returns earlier to 1e-3 of the state scales, else
/// the `K` with the closest match.
pub(super) fn detect_returns(
    points: &[(f64, Vec<f64>)],
    nd: usize,
    scales: &[f64],
    k_max: usize,
) -> usize {
    let m = points.len();
    let mut best = (1, f64::INFINITY);
    for k in 1..=k_max.max(1) {
        if 2 * k > m {
            break;
        }
        let mut d: f64 = 0.0;
        for j in 0..k {
            let (a, b) = (&points[m - 1 - j].1, &points[m - 1 - j - k].1);
            for i in 0..nd {
                d = d.max((a[i] - b[i]).abs() / a[i].abs().max(scales[i]));
            }
        }
        if d <= 1e-3 {
            return k;
        }
        if d < best.1 {
            best = (k, d);
        }
    }
    best.0
}

/// The converged orbit.
pub(super) struct Orbit {
    /// Full state at the fixed point on the section (phase 0 when forced).
    pub state: Vec<f64>,
    /// Period [s].
    pub period_s: f64,
    /// Switch times over one period, measured from the fixed point.
    pub event_times: Vec<f64>,
    /// Jacobian of the (K-fold) Poincaré map at the fixed point in section coordinates (all
    /// dynamic components when forced).
    pub map_jacobian: DMatrix<f64>,
    /// Newton iterations.
    pub iterations: usize,
    /// Final scaled residual.
    pub residual: f64,
}

/// One evaluation of the map.
struct MapValue {
    /// Image in section coordinates.
    u: Vec<f64>,
    /// Return time [s].
    t: f64,
    /// Switch times on the way.
    events: Vec<f64>,
}

/// The Poincaré map of one system and section.
pub(super) struct Shooting<'a> {
    pub dynamics: &'a dyn Dynamics,
    pub section: SectionId,
    pub forcing_period_s: Option<f64>,
    pub returns: usize,
    pub scales: Vec<f64>,
    pub nd: usize,
    pub fd_step: f64,
    pub period_guess_s: f64,
    /// The model at the first guess (its modes and memories); every map evaluation starts
    /// in them.
    pub modes: Option<&'a ModeSnapshot>,
}

impl Shooting<'_> {
    /// The section coordinates: every dynamic component, except the one solved for on a
    /// model section.
    fn coordinates(&self, dependent: Option<usize>) -> Vec<usize> {
        (0..self.nd).filter(|&i| Some(i) != dependent).collect()
    }

    /// Section function value at `y` (t = 0: autonomous).
    fn section_value(&self, index: usize, y: &[f64]) -> f64 {
        let (model, _) = self.dynamics.build();
        let mut s = vec![0.0; model.section_names().len()];
        model.sections(0.0, y, &mut s);
        s[index]
    }

    fn increment(&self, j: usize, value: f64) -> f64 {
        self.fd_step * value.abs().max(self.scales[j])
    }

    /// Component with the largest scaled derivative of section `index` at `y`.
    fn dependent_component(&self, index: usize, y: &[f64]) -> usize {
        let mut best = (0, 0.0);
        for j in 0..self.nd {
            let h = self.increment(j, y[j]);
            let (mut yp, mut ym) = (y.to_vec(), y.to_vec());
            yp[j] += h;
            ym[j] -= h;
            let g = (self.section_value(index, &yp) - self.section_value(index, &ym)) / (2.0 * h)
                * y[j].abs().max(self.scales[j]);
            if g.abs() > best.1 {
                best = (j, g.abs());
            }
        }
        best.0
    }

    /// Moves component `j` of `y` onto the section (Newton on the section function).
    fn project(&self, index: usize, j: usize, y: &mut [f64]) {
        for _ in 0..8 {
            let s = self.section_value(index, y);
            if s == 0.0 {
                return;
            }
            let h = self.increment(j, y[j]);
            let (mut yp, mut ym) = (y.to_vec(), y.to_vec());
            yp[j] += h;
            ym[j] -= h;
            let ds = (self.section_value(index, &yp) - self.section_value(index, &ym)) / (2.0 * h);
            if ds == 0.0 || !ds.is_finite() {
                return;
            }
            let step = s / ds;
            y[j] -= step;
            if step.abs() <= 1e-15 * y[j].abs().max(self.scales[j]) {
                return;
            }
        }
    }

    /// Full state for section coordinates `u`, other components from `template`.
    fn state(
        &self,
        u: &[f64],
        coords: &[usize],
        dependent: Option<usize>,
        template: &[f64],
    ) -> Vec<f64> {
        let mut y = template.to_vec();
        for (k, &i) in coords.iter().enumerate() {
            y[i] = u[k];
        }
        if let (SectionId::Model(index), Some(j)) = (self.section, dependent) {
            self.project(index, j, &mut y);
        }
        y
    }

    fn map(
        &self,
        u: &[f64],
        coords: &[usize],
        dependent: Option<usize>,
        template: &[f64],
    ) -> Result<MapValue, FlowError> {
        let y0 = self.state(u, coords, dependent, template);
        let (t, y, events) = match (self.section, self.forcing_period_s) {
            (SectionId::Model(index), _) => {
                let r = next_return(
                    self.dynamics,
                    &y0,
                    0.0,
                    self.modes,
                    index,
                    self.returns,
                    0.6 * self.period_guess_s,
                    5.0 * self.period_guess_s,
                )?;
                (r.t, r.y, r.event_times)
            }
            (SectionId::Stroboscopic, Some(p)) => {
                let t = p * self.returns as f64;
                let r = flow(self.dynamics, &y0, 0.0, t, self.modes)?;
                (t, r.y, r.event_times)
            }
            (SectionId::Stroboscopic, None) => return Err(FlowError::NoReturn(0.0)),
        };
        Ok(MapValue {
            u: coords.iter().map(|&i| y[i]).collect(),
            t,
            events,
        })
    }

    fn scaled_norm(&self, v: &[f64], at: &[f64], coords: &[usize]) -> f64 {
        v.iter()
            .zip(at)
            .zip(coords)
            .map(|((d, a), &i)| d.abs() / a.abs().max(self.scales[i]))
            .fold(0.0, f64::max)
    }

    /// Jacobian of the map at `u` by central differences (columns in parallel).
    fn jacobian(
        &self,
        u: &[f64],
        coords: &[usize],
        dependent: Option<usize>,
        template: &[f64],
    ) -> Result<DMatrix<f64>, FlowError> {
        let m = coords.len();
        let columns: Vec<Vec<f64>> = (0..m)
            .into_par_iter()
            .map(|k| {
                let h = self.increment(coords[k], u[k]);
                let (mut up, mut um) = (u.to_vec(), u.to_vec());
                up[k] += h;
                um[k] -= h;
                let p = self.map(&up, coords, dependent, template)?;
                let q = self.map(&um, coords, dependent, template)?;
                Ok((0..m).map(|i| (p.u[i] - q.u[i]) / (2.0 * h)).collect())
            })
            .collect::<Result<_, FlowError>>()?;
        Ok(DMatrix::from_fn(m, m, |i, j| columns[j][i]))
    }

    /// Newton on `P(u) − u` from the full state `guess`.
    pub(super) fn newton(
        &self,
        guess: &[f64],
        tol: f64,
        max_iter: usize,
    ) -> Result<Orbit, FloquetError> {
        let stage = |source| FloquetError::Flow {
            stage: "shooting",
            source,
        };
        let dependent = match self.section {
            SectionId::Model(index) => Some(self.dependent_component(index, guess)),
            SectionId::Stroboscopic => None,
        };
        let coords = self.coordinates(dependent);
        let template = guess.to_vec();
        let mut u: Vec<f64> = coords.iter().map(|&i| guess[i]).collect();
        let mut pu = self.map(&u, &coords, dependent, &template).map_err(stage)?;
        let residual_of = |pu: &MapValue, u: &[f64]| {
            let r: Vec<f64> = pu.u.iter().zip(u).map(|(a, b)| a - b).collect();
            (self.scaled_norm(&r, u, &coords), r)
        };
        let (mut res, mut r) = residual_of(&pu, &u);
        let mut iterations = 0;
        while res > tol && iterations < max_iter {
            iterations += 1;
            let dp = self
                .jacobian(&u, &coords, dependent, &template)
                .map_err(stage)?;
            let m = coords.len();
            let a = &dp - DMatrix::identity(m, m);
            let delta = a
                .lu()
                .solve(&(-DVector::from_column_slice(&r)))
                .ok_or(FloquetError::Singular)?;
            // Damped step: halve until the residual drops (at most five times).
            let mut lambda = 1.0;
            loop {
                let trial: Vec<f64> = u
                    .iter()
                    .zip(delta.iter())
                    .map(|(a, d)| a + lambda * d)
                    .collect();
                let p = self.map(&trial, &coords, dependent, &template);
                let accept_anyway = lambda < 0.05;
                match p {
                    Ok(p) => {
                        let (res_new, r_new) = residual_of(&p, &trial);
                        if res_new < res || accept_anyway {
                            u = trial;
                            pu = p;
                            res = res_new;
                            r = r_new;
                            break;
                        }
                    }
                    Err(e) if accept_anyway => return Err(stage(e)),
                    Err(_) => {}
                }
                lambda *= 0.5;
            }
        }
        // Integration noise can hold the residual slightly above a very tight tolerance.
        if res > 1e3 * tol || !res.is_finite() {
            return Err(FloquetError::NotConverged {
                iterations,
                residual: res,
                returns: self.returns,
            });
        }
        // The Jacobian at the converged point (the last one was taken one step earlier).
        let map_jacobian = self
            .jacobian(&u, &coords, dependent, &template)
            .map_err(stage)?;
        let state = self.state(&u, &coords, dependent, &template);
        Ok(Orbit {
            state,
            period_s: pu.t,
            event_times: pu.events,
            map_jacobian,
            iterations,
            residual: res,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_the_number_of_returns_per_period() {
        let pts = |k: usize, n: usize| -> Vec<(f64, Vec<f64>)> {
            (0..n)
                .map(|i| (i as f64, vec![(i % k) as f64 * 0.01 + 1e-9 * i as f64, 0.0]))
                .collect()
        };
        let scales = [0.01, 0.01];
        assert_eq!(detect_returns(&pts(1, 10), 2, &scales, 8), 1);
        assert_eq!(detect_returns(&pts(2, 10), 2, &scales, 8), 2);
        assert_eq!(detect_returns(&pts(3, 12), 2, &scales, 8), 3);
        // Too few points for K = 5 to be checked twice: the closest match among K ≤ 4.
        assert!(detect_returns(&pts(5, 8), 2, &scales, 8) <= 4);
    }
}
