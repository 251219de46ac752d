//! The rigid counter-profile of the asperity model (MODELS §3.4): raised-cosine bumps of
//! constant amplitude and random wavelength, laid end to end.
//!
//! ```text
//! segment j: X_j ≤ x < X_j + λ_j,  λ_j = λ̄·(0.5 + u_j),  u_j uniform in [0, 1)
//! h(x) = A_p·½·(1 − cos(2π(x − X_j)/λ_j)),   h′(x) = A_p·(π/λ_j)·sin(2π(x − X_j)/λ_j)
//! ```
//! `h` and `h′` are continuous (every segment starts and ends at a valley, `h = h′ = 0`). The
//! profile repeats after [`SEGMENTS`] segments (a period of about 4096·λ̄, farther than any test
//! slides), so it is defined for every `x`.

use crate::util::rng::SplitMix64;

/// Segments before the profile repeats.
pub const SEGMENTS: usize = 4096;

/// A profile of raised-cosine bumps.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    amplitude_m: f64,
    /// Start of each segment, `X_0 = 0`, and the period as the last entry.
    starts_m: Vec<f64>,
}

impl Profile {
    /// Bumps of amplitude `amplitude_m` and mean wavelength `wavelength_m`, drawn from `seed`.
    /// An amplitude of zero is a flat surface at `h = 0`.
    pub fn random(amplitude_m: f64, wavelength_m: f64, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed ^ 0x5052_4F46_494C_4521);
        let mut starts_m = Vec::with_capacity(SEGMENTS + 1);
        let mut x = 0.0;
        for _ in 0..SEGMENTS {
            starts_m.push(x);
            x += wavelength_m * (0.5 + rng.uniform_open());
        }
        starts_m.push(x);
        Self {
            amplitude_m,
            starts_m,
        }
    }

    /// Length after which the profile repeats [m].
    pub fn period_m(&self) -> f64 {
        self.starts_m[SEGMENTS]
    }

    /// Bump amplitude `A_p` [m].
    pub fn amplitude_m(&self) -> f64 {
        self.amplitude_m
    }

    /// Height `h(x)` and slope `h′(x)`.
    pub fn at(&self, x_m: f64) -> (f64, f64) {
        self.at_near(x_m, &std::cell::Cell::new(0))
    }

    /// Height and slope, looking first in the segment `hint` holds and its neighbours (an
    /// asperity moves little between calls), then by bisection; `hint` is left on the segment
    /// found.
    pub fn at_near(&self, x_m: f64, hint: &std::cell::Cell<usize>) -> (f64, f64) {
        if self.amplitude_m == 0.0 {
            return (0.0, 0.0);
        }
        let local = x_m.rem_euclid(self.period_m());
        let inside = |j: usize| self.starts_m[j] <= local && local < self.starts_m[j + 1];
        let guess = hint.get().min(SEGMENTS - 1);
        let j = if inside(guess) {
            guess
        } else if guess + 1 < SEGMENTS && inside(guess + 1) {
            guess + 1
        } else if guess > 0 && inside(guess - 1) {
            guess - 1
        } else {
            // Segment j with X_j ≤ local < X_{j+1}.
            self.starts_m[..SEGMENTS]
                .partition_point(|&s| s <= local)
                .saturating_sub(1)
        };
        hint.set(j);
        let length = self.starts_m[j + 1] - self.starts_m[j];
        let phase = std::f64::consts::TAU * (local - self.starts_m[j]) / length;
        let (sin, cos) = phase.sin_cos();
        let h = self.amplitude_m * 0.5 * (1.0 - cos);
        let slope = self.amplitude_m * std::f64::consts::PI / length * sin;
        (h, slope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heights_stay_within_the_amplitude_and_slopes_match_differences() {
        let p = Profile::random(2e-6, 1e-4, 7);
        let mut x = -3e-3;
        while x < 3e-3 {
            let (h, s) = p.at(x);
            assert!((0.0..=2e-6 * (1.0 + 1e-12)).contains(&h), "h({x}) = {h}");
            let dx = 1e-9;
            let fd = (p.at(x + dx).0 - p.at(x - dx).0) / (2.0 * dx);
            assert!((fd - s).abs() < 1e-6 * (2e-6 * std::f64::consts::PI / 5e-5), "{x}");
            // The hinted lookup finds the same segment from any start.
            for start in [0, 17, SEGMENTS - 1] {
                assert_eq!(p.at_near(x, &std::cell::Cell::new(start)), (h, s));
            }
            x += 3.7e-6;
        }
    }

    #[test]
    fn wavelengths_lie_between_half_and_one_and_a_half_of_the_mean() {
        let p = Profile::random(1.0, 2.0, 3);
        for w in p.starts_m.windows(2) {
            let l = w[1] - w[0];
            assert!((1.0..3.0).contains(&l), "{l}");
        }
        let mean = p.period_m() / SEGMENTS as f64;
        assert!((mean - 2.0).abs() < 0.03, "mean wavelength {mean}");
        // Periodic, continuous at the seam.
        let (h0, s0) = p.at(0.0);
        let (h1, s1) = p.at(p.period_m());
        assert!(h0.abs() < 1e-15 && h1.abs() < 1e-12 && s0.abs() < 1e-12 && s1.abs() < 1e-9);
    }
}
