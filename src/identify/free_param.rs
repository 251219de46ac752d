//! A parameter a fit may move, and the coordinates the estimator moves it in (MODELS §4.10:
//! "parameters on the scale of their metadata (log-scaled ones as ln p), bounds by
//! transformation").
//!
//! Three coordinates:
//! - `p`, the parameter in its own unit;
//! - `z`, the *scaled* coordinate the statistics are stated in: `z = ln p` for a parameter whose
//!   slider is logarithmic, `z = p/s` otherwise with `s = |p_start|` (or 1/100 of the range when
//!   the start is 0), so a unit step in `z` is "the size of the parameter";
//! - `u`, the unbounded coordinate Levenberg–Marquardt moves: `z = z_lo + (z_hi − z_lo)·(1 +
//!   sin u)/2` between two finite bounds (the transformation MINUIT uses), so every trial point
//!   lies inside the parameter's range.

use crate::params::{ParamMeta, Scale};

/// Fraction of the range a start on a bound is moved inwards by, so the bound transformation
/// has a non-zero slope there.
const START_INSET: f64 = 1e-3;

/// One free parameter of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct FreeParam {
    /// Its key (a law key such as `mu_s`, or a preset path such as `law.mu_s`).
    pub key: String,
    /// Symbol for tables (`μ_S`).
    pub symbol: String,
    /// SI unit ("" for dimensionless).
    pub unit: String,
    /// Start value [unit].
    pub start: f64,
    /// Smallest value allowed [unit].
    pub min: f64,
    /// Largest value allowed [unit].
    pub max: f64,
    /// Whether it is fitted as `ln p` (its slider is logarithmic).
    pub log: bool,
}

impl FreeParam {
    /// A free parameter described by `meta`, starting at `start`.
    pub fn from_meta(key: impl Into<String>, meta: &ParamMeta, start: f64) -> Self {
        Self {
            key: key.into(),
            symbol: meta.symbol.to_string(),
            unit: meta.unit.to_string(),
            start,
            min: meta.min,
            max: meta.max,
            log: meta.scale == Scale::Log && meta.min > 0.0,
        }
    }

    /// The same parameter with narrower bounds (never wider than its metadata's).
    pub fn with_bounds(mut self, min: f64, max: f64) -> Self {
        self.min = self.min.max(min);
        self.max = self.max.min(max);
        self
    }

    /// Scale `s` of a linear parameter (`z = p/s`); 1 for a log parameter.
    pub fn scale(&self) -> f64 {
        if self.log {
            return 1.0;
        }
        if self.start != 0.0 {
            return self.start.abs();
        }
        let span = self.max - self.min;
        if span.is_finite() && span > 0.0 {
            span / 100.0
        } else {
            1.0
        }
    }

    /// `z` of a value.
    pub fn z_of(&self, p: f64) -> f64 {
        if self.log { p.ln() } else { p / self.scale() }
    }

    /// The value at `z`, kept inside the range (`exp(ln 10)` rounds above 10).
    pub fn p_of(&self, z: f64) -> f64 {
        let p = if self.log { z.exp() } else { z * self.scale() };
        p.clamp(self.min, self.max)
    }

    /// The difference step in `z` for a base step `h`: `h` for a logarithmic parameter (a
    /// relative step), `h·max(|z|, 1)` for a linear one, so the step follows the value when
    /// it has grown far beyond its start (`z = p/|p₀|`).
    pub fn z_step(&self, z: f64, h: f64) -> f64 {
        if self.log { h } else { h * z.abs().max(1.0) }
    }

    /// `dp/dz` at `z`.
    pub fn dp_dz(&self, z: f64) -> f64 {
        if self.log { z.exp() } else { self.scale() }
    }

    /// The bounds in `z` (infinite where the range is open).
    pub fn z_bounds(&self) -> (f64, f64) {
        let lo = self.z_of(self.min);
        let hi = self.z_of(self.max);
        (lo.min(hi), lo.max(hi))
    }

    /// `z` at the unbounded coordinate `u`.
    pub fn z_of_u(&self, u: f64) -> f64 {
        match self.z_bounds() {
            (lo, hi) if lo.is_finite() && hi.is_finite() => lo + (hi - lo) * 0.5 * (1.0 + u.sin()),
            (lo, _) if lo.is_finite() => lo - 1.0 + (u * u + 1.0).sqrt(),
            (_, hi) if hi.is_finite() => hi + 1.0 - (u * u + 1.0).sqrt(),
            _ => u,
        }
    }

    /// `dz/du` at `u`.
    pub fn dz_du(&self, u: f64) -> f64 {
        match self.z_bounds() {
            (lo, hi) if lo.is_finite() && hi.is_finite() => (hi - lo) * 0.5 * u.cos(),
            (lo, _) if lo.is_finite() => u / (u * u + 1.0).sqrt(),
            (_, hi) if hi.is_finite() => -u / (u * u + 1.0).sqrt(),
            _ => 1.0,
        }
    }

    /// The unbounded coordinate of the start value (moved off a bound by 1/1000 of the range).
    pub fn u_start(&self) -> f64 {
        let (lo, hi) = self.z_bounds();
        let z = self.z_of(self.start);
        match (lo.is_finite(), hi.is_finite()) {
            (true, true) => {
                let inset = START_INSET * (hi - lo);
                let z = z.clamp(lo + inset, hi - inset);
                (2.0 * (z - lo) / (hi - lo) - 1.0).clamp(-1.0, 1.0).asin()
            }
            (true, false) => {
                let d = (z - lo).max(START_INSET) + 1.0;
                (d * d - 1.0).sqrt()
            }
            (false, true) => {
                let d = (hi - z).max(START_INSET) + 1.0;
                (d * d - 1.0).sqrt()
            }
            (false, false) => z,
        }
    }

    /// Whether `p` lies on (within 1e-6 of the `z` range of) a bound: `Some(true)` for the
    /// upper one.
    pub fn on_bound(&self, p: f64) -> Option<bool> {
        let (lo, hi) = self.z_bounds();
        let z = self.z_of(p);
        let tol = if lo.is_finite() && hi.is_finite() {
            1e-6 * (hi - lo)
        } else {
            1e-9
        };
        if hi.is_finite() && z >= hi - tol {
            Some(true)
        } else if lo.is_finite() && z <= lo + tol {
            Some(false)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(start: f64, min: f64, max: f64, log: bool) -> FreeParam {
        FreeParam {
            key: "k".into(),
            symbol: "k".into(),
            unit: String::new(),
            start,
            min,
            max,
            log,
        }
    }

    #[test]
    fn the_unbounded_coordinate_maps_into_the_range_and_back() {
        for p in [
            param(0.4, 0.0, 2.0, false),
            param(1e5, 1e3, 1e9, true),
            param(3.0, 0.0, f64::INFINITY, false),
            param(-2.0, f64::NEG_INFINITY, 0.0, false),
            param(7.0, f64::NEG_INFINITY, f64::INFINITY, false),
        ] {
            let u = p.u_start();
            let back = p.p_of(p.z_of_u(u));
            assert!(
                (back - p.start).abs() < 1e-12 * p.start.abs(),
                "{p:?}: {back}"
            );
            for u in [-1e3, -2.0, 0.3, 5.0, 1e3] {
                let v = p.p_of(p.z_of_u(u));
                assert!(v >= p.min && v <= p.max, "{p:?}: u {u} → {v}");
                let h = 1e-6;
                let fd = (p.z_of_u(u + h) - p.z_of_u(u - h)) / (2.0 * h);
                assert!(
                    (fd - p.dz_du(u)).abs() < 1e-6 * (1.0 + fd.abs()),
                    "{p:?} u {u}"
                );
            }
        }
    }

    #[test]
    fn a_start_on_a_bound_moves_inside_and_bounds_are_recognised() {
        let p = param(0.0, 0.0, 10.0, false);
        let start = p.p_of(p.z_of_u(p.u_start()));
        assert!(start > 0.0 && start < 0.02, "{start}");
        assert_eq!(p.on_bound(10.0), Some(true));
        assert_eq!(p.on_bound(0.0), Some(false));
        assert_eq!(p.on_bound(5.0), None);
    }
}
