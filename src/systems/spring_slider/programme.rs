//! The load point's programme: how fast the far end of the spring moves at each instant
//! (steady pulling, velocity steps, slide–hold–slide). Piecewise constant in velocity, so the
//! load point's position is piecewise linear and known in closed form.

use serde::{Deserialize, Serialize};

use crate::params::ExtraField;

/// What the load point does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Programme {
    /// Pulls at the load-point speed `v₁` all the time.
    #[default]
    Steady,
    /// Alternates between `v₁` and the step speed `v₂` every step interval `t_s`: `v₁` until
    /// `t_s`, `v₂` until `2t_s`, `v₁` until `3t_s`, … (steps up and down).
    VelocitySteps,
    /// Slides at `v₁` for the slide time, then stops for a hold, again and again; the `k`-th
    /// hold (from 0) lasts `t_h·g^k` (hold growth `g`), so one run measures healing over
    /// several decades of hold time.
    SlideHoldSlide,
}

impl ExtraField for Programme {
    fn choices() -> &'static [&'static str] {
        &["Steady", "VelocitySteps", "SlideHoldSlide"]
    }
}

/// A programme with its numbers [SI].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// What the load point does.
    pub programme: Programme,
    /// Load-point speed `v₁` [m/s].
    pub speed_mps: f64,
    /// Second speed `v₂` of velocity steps [m/s].
    pub step_speed_mps: f64,
    /// Interval between velocity steps `t_s` [s].
    pub step_interval_s: f64,
    /// Slide before each hold [s].
    pub slide_s: f64,
    /// First hold `t_h` [s].
    pub hold_s: f64,
    /// Growth factor `g` of successive holds.
    pub hold_growth: f64,
}

/// Holds beyond this many are not looked for (a run of 2⁴⁰ holds is not one anybody waits
/// for; it bounds the search for the current cycle).
const MAX_CYCLES: u64 = 1 << 40;

impl Schedule {
    /// Load-point position `x_lp(t)` [m] (0 at `t = 0`) and velocity `v_lp(t)` [m/s]; at a
    /// switching instant the velocity is the one that starts there.
    pub fn at(&self, t: f64) -> (f64, f64) {
        let t = t.max(0.0);
        match self.programme {
            Programme::Steady => (self.speed_mps * t, self.speed_mps),
            Programme::VelocitySteps => {
                let ts = self.step_interval_s;
                let k = (t / ts).floor();
                // Pairs of intervals (v₁ then v₂) completed, and the time into the current one.
                let pairs = (k / 2.0).floor();
                let into = t - k * ts;
                let base = pairs * (self.speed_mps + self.step_speed_mps) * ts;
                if k - 2.0 * pairs < 0.5 {
                    (base + self.speed_mps * into, self.speed_mps)
                } else {
                    (
                        base + self.speed_mps * ts + self.step_speed_mps * into,
                        self.step_speed_mps,
                    )
                }
            }
            Programme::SlideHoldSlide => {
                let k = self.cycle_at(t);
                let start = self.cycle_start_s(k);
                let slid = k as f64 * self.slide_s * self.speed_mps;
                let into = t - start;
                if into < self.slide_s {
                    (slid + self.speed_mps * into, self.speed_mps)
                } else {
                    (slid + self.speed_mps * self.slide_s, 0.0)
                }
            }
        }
    }

    /// The next instant after `t` at which the load-point velocity jumps (∞ when steady).
    pub fn next_switch_s(&self, t: f64) -> f64 {
        let t = t.max(0.0);
        match self.programme {
            Programme::Steady => f64::INFINITY,
            Programme::VelocitySteps => {
                let ts = self.step_interval_s;
                let next = ((t / ts).floor() + 1.0) * ts;
                // Round-off: never return t itself.
                if next > t { next } else { next + ts }
            }
            Programme::SlideHoldSlide => {
                let k = self.cycle_at(t);
                let start = self.cycle_start_s(k);
                let end_slide = start + self.slide_s;
                if end_slide > t {
                    end_slide
                } else {
                    self.cycle_start_s(k + 1)
                }
            }
        }
    }

    /// Period of the programme, when it repeats (velocity steps; holds of equal length).
    pub fn period_s(&self) -> Option<f64> {
        match self.programme {
            Programme::Steady => None,
            Programme::VelocitySteps => Some(2.0 * self.step_interval_s),
            Programme::SlideHoldSlide => {
                (self.hold_growth == 1.0).then_some(self.slide_s + self.hold_s)
            }
        }
    }

    /// Start of slide–hold cycle `k` [s]: `k·t_slide + t_h·(g^k − 1)/(g − 1)`.
    fn cycle_start_s(&self, k: u64) -> f64 {
        let g = self.hold_growth;
        let kf = k as f64;
        let holds = if (g - 1.0).abs() < 1e-12 {
            self.hold_s * kf
        } else {
            self.hold_s * (g.powf(kf) - 1.0) / (g - 1.0)
        };
        kf * self.slide_s + holds
    }

    /// The cycle containing `t`: the largest `k` with `cycle_start_s(k) ≤ t` (bisection on the
    /// increasing cycle starts).
    fn cycle_at(&self, t: f64) -> u64 {
        let (mut lo, mut hi) = (0u64, 1u64);
        while hi < MAX_CYCLES && self.cycle_start_s(hi) <= t {
            lo = hi;
            hi *= 2;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.cycle_start_s(mid) <= t {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(programme: Programme) -> Schedule {
        Schedule {
            programme,
            speed_mps: 2.0,
            step_speed_mps: 5.0,
            step_interval_s: 10.0,
            slide_s: 4.0,
            hold_s: 1.0,
            hold_growth: 3.0,
        }
    }

    /// The position is the integral of the velocity, continuous across every switch.
    #[test]
    fn position_integrates_velocity() {
        for programme in [
            Programme::Steady,
            Programme::VelocitySteps,
            Programme::SlideHoldSlide,
        ] {
            let s = schedule(programme);
            let dt = 1e-3;
            let mut x = 0.0;
            let mut t = 0.0;
            while t < 100.0 {
                let (_, v) = s.at(t + 0.5 * dt);
                x += v * dt;
                t += dt;
                let (xp, _) = s.at(t);
                assert!((xp - x).abs() < 1e-8 * (1.0 + x), "{programme:?} t = {t}: {xp} vs {x}");
            }
        }
    }

    /// Velocity steps: v₁ then v₂ then v₁; holds: slide 4 s, hold 1 s, slide 4 s, hold 3 s, …
    #[test]
    fn switch_times_and_speeds() {
        let s = schedule(Programme::VelocitySteps);
        assert_eq!(s.at(5.0).1, 2.0);
        assert_eq!(s.at(15.0).1, 5.0);
        assert_eq!(s.at(25.0).1, 2.0);
        assert_eq!(s.next_switch_s(0.0), 10.0);
        assert_eq!(s.next_switch_s(10.0), 20.0);
        assert_eq!(s.period_s(), Some(20.0));
        let h = schedule(Programme::SlideHoldSlide);
        let starts: Vec<f64> = std::iter::successors(Some(0.0), |&t| Some(h.next_switch_s(t)))
            .take(7)
            .collect();
        assert_eq!(starts, vec![0.0, 4.0, 5.0, 9.0, 12.0, 16.0, 25.0]);
        assert_eq!(h.at(4.5), (8.0, 0.0));
        assert_eq!(h.at(10.0).1, 0.0);
        assert_eq!(h.period_s(), None);
        assert_eq!(schedule(Programme::Steady).next_switch_s(3.0), f64::INFINITY);
    }
}
