//! How a chain of blocks ends, and how its blocks start: the boundary condition of the coupling
//! springs (with the normal modes it gives) and the initial spread of the positions.

use serde::{Deserialize, Serialize};

use crate::params::ExtraField;
use crate::util::rng::SplitMix64;

/// Boundary condition of the coupling springs at the two ends of a chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChainEnds {
    /// The end blocks have one neighbour (`x₀ ≡ x₁`, `x_{N+1} ≡ x_N`).
    #[default]
    Free,
    /// The end blocks are tied to the frame by a coupling spring (`x₀ = x_{N+1} = 0`).
    Fixed,
    /// The last block is coupled to the first (a ring).
    Periodic,
}

impl ExtraField for ChainEnds {
    fn choices() -> &'static [&'static str] {
        &["Free", "Fixed", "Periodic"]
    }
}

impl ChainEnds {
    /// Every choice, for menus.
    pub const ALL: [ChainEnds; 3] = [ChainEnds::Free, ChainEnds::Fixed, ChainEnds::Periodic];

    /// Short name for menus.
    pub fn name(self) -> &'static str {
        match self {
            ChainEnds::Free => "free ends",
            ChainEnds::Fixed => "fixed ends",
            ChainEnds::Periodic => "periodic (ring)",
        }
    }

    /// Left and right neighbours of block `i` of `n`: `Some(j)` a block, `None` nothing (free)
    /// or the frame (fixed; see [`ties_to_frame`](Self::ties_to_frame)).
    #[inline]
    pub fn neighbours(self, i: usize, n: usize) -> (Option<usize>, Option<usize>) {
        let left = if i > 0 {
            Some(i - 1)
        } else if self == ChainEnds::Periodic && n > 1 {
            Some(n - 1)
        } else {
            None
        };
        let right = if i + 1 < n {
            Some(i + 1)
        } else if self == ChainEnds::Periodic && n > 1 {
            Some(0)
        } else {
            None
        };
        (left, right)
    }

    /// Whether a missing neighbour is the frame (a spring to `x = 0`).
    #[inline]
    pub fn ties_to_frame(self) -> bool {
        self == ChainEnds::Fixed
    }

    /// Coupling springs of a chain of `n` blocks as `(a, b)` pairs of block indices (`None`
    /// for the frame), each spring once.
    pub fn springs(self, n: usize) -> Vec<(Option<usize>, Option<usize>)> {
        let mut out: Vec<_> = (1..n).map(|i| (Some(i - 1), Some(i))).collect();
        match self {
            ChainEnds::Free => {}
            ChainEnds::Fixed => {
                out.insert(0, (None, Some(0)));
                out.push((Some(n - 1), None));
            }
            // A ring of two blocks has two springs between them; one block has none.
            ChainEnds::Periodic if n >= 2 => out.push((Some(n - 1), Some(0))),
            ChainEnds::Periodic => {}
        }
        out
    }

    /// Angular frequencies of the frictionless, undamped chain's normal modes [rad/s],
    /// ascending: `ω_n² = (k_p + 4·k_c·sin²θ_n)/m` with `θ_n = nπ/(2N)`, n = 0…N−1 (free),
    /// `θ_n = nπ/(2(N+1))`, n = 1…N (fixed) and `θ_n = nπ/N`, n = 0…N−1 (periodic; pairs
    /// n and N−n coincide).
    pub fn normal_mode_omegas_rad_per_s(
        self,
        n: usize,
        mass_kg: f64,
        pull_n_per_m: f64,
        coupling_n_per_m: f64,
    ) -> Vec<f64> {
        let nf = n as f64;
        let theta: Vec<f64> = match self {
            ChainEnds::Free => (0..n)
                .map(|k| k as f64 * std::f64::consts::PI / (2.0 * nf))
                .collect(),
            ChainEnds::Fixed => (1..=n)
                .map(|k| k as f64 * std::f64::consts::PI / (2.0 * (nf + 1.0)))
                .collect(),
            ChainEnds::Periodic => (0..n)
                .map(|k| k as f64 * std::f64::consts::PI / nf)
                .collect(),
        };
        let mut w: Vec<f64> = theta
            .iter()
            .map(|th| {
                let s = th.sin();
                ((pull_n_per_m + 4.0 * coupling_n_per_m * s * s) / mass_kg).sqrt()
            })
            .collect();
        w.sort_by(f64::total_cmp);
        w
    }
}

/// How the initial positions spread along the chain, with amplitude `A` (the
/// `initial_spread` parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InitialPattern {
    /// `x_i(0) = A·u_i`, `u_i` uniform in (−1, 1) from the seeded generator.
    Random {
        /// Seed of the generator.
        seed: u64,
    },
    /// `x_i(0) = A·sin(i)`, i = 0…N−1 (in radians): the deterministic spread of the peer
    /// benchmark's LuGre chain.
    SineOfIndex,
    /// Every block at `x_i(0) = A` (the chain starts in step, its coupling springs slack).
    Uniform,
    /// One bump: `x_i(0) = A` for the middle block, 0 elsewhere (a single avalanche seed).
    MiddleBlock,
}

impl Default for InitialPattern {
    fn default() -> Self {
        InitialPattern::Random { seed: 1 }
    }
}

impl ExtraField for InitialPattern {}

impl InitialPattern {
    /// Short name for menus.
    pub fn name(self) -> &'static str {
        match self {
            InitialPattern::Random { .. } => "random (seeded)",
            InitialPattern::SineOfIndex => "A·sin(i)",
            InitialPattern::Uniform => "all equal",
            InitialPattern::MiddleBlock => "middle block displaced",
        }
    }

    /// Initial positions of `n` blocks [m] with amplitude `amplitude_m`.
    pub fn positions_m(self, n: usize, amplitude_m: f64) -> Vec<f64> {
        match self {
            InitialPattern::Random { seed } => {
                let mut rng = SplitMix64::new(seed);
                (0..n)
                    .map(|_| amplitude_m * (2.0 * rng.uniform_open() - 1.0))
                    .collect()
            }
            InitialPattern::SineOfIndex => {
                (0..n).map(|i| amplitude_m * (i as f64).sin()).collect()
            }
            InitialPattern::Uniform => vec![amplitude_m; n],
            InitialPattern::MiddleBlock => (0..n)
                .map(|i| if i == n / 2 { amplitude_m } else { 0.0 })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_by_ends() {
        assert_eq!(ChainEnds::Free.neighbours(0, 3), (None, Some(1)));
        assert_eq!(ChainEnds::Free.neighbours(2, 3), (Some(1), None));
        assert_eq!(ChainEnds::Periodic.neighbours(0, 3), (Some(2), Some(1)));
        assert_eq!(ChainEnds::Periodic.neighbours(2, 3), (Some(1), Some(0)));
        assert_eq!(ChainEnds::Periodic.neighbours(0, 1), (None, None));
        assert_eq!(ChainEnds::Fixed.springs(3).len(), 4);
        assert_eq!(ChainEnds::Periodic.springs(3).len(), 3);
        assert_eq!(ChainEnds::Free.springs(3).len(), 2);
    }

    #[test]
    fn two_block_modes_match_the_eigenvalues() {
        // Free pair: ω² = k_p/m and (k_p + 2k_c)/m; fixed pair: (k_p + k_c)/m and (k_p + 3k_c)/m.
        let w = ChainEnds::Free.normal_mode_omegas_rad_per_s(2, 1.0, 100.0, 50.0);
        assert!((w[0] - 10.0).abs() < 1e-12 && (w[1] - 200f64.sqrt()).abs() < 1e-12);
        let w = ChainEnds::Fixed.normal_mode_omegas_rad_per_s(2, 1.0, 100.0, 50.0);
        assert!((w[0] - 150f64.sqrt()).abs() < 1e-12, "{w:?}");
        assert!((w[1] - 250f64.sqrt()).abs() < 1e-12, "{w:?}");
    }

    #[test]
    fn random_pattern_is_seeded() {
        let a = InitialPattern::Random { seed: 7 }.positions_m(5, 1e-3);
        let b = InitialPattern::Random { seed: 7 }.positions_m(5, 1e-3);
        let c = InitialPattern::Random { seed: 8 }.positions_m(5, 1e-3);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|x| x.abs() < 1e-3));
    }
}
