//! Burridge–Knopoff chain of N blocks on a moving belt (MODELS §3.2; S1 eq 1 in its belt form):
//! every block is held to the frame by a pull spring `k_p` and a damper `c`, coupled to its
//! neighbours by springs `k_c`, and slides on the belt with its own friction law.
//! ```text
//! m·ẍ_i + c·ẋ_i + k_p·x_i − k_c·(x_{i+1} − 2x_i + x_{i−1}) = F_f,i(ẋ_i − v_b, N),   i = 1…N
//! ```
//! Free ends (`x₀ ≡ x₁`, `x_{N+1} ≡ x_N`), fixed ends (`x₀ = x_{N+1} = 0`) or a ring. S1 writes
//! the chain pulled over fixed ground by a plate at speed `v`; `y = x − v·t` turns it into this
//! form, blocks held still over a belt moving at `v_b = v`, so the bench's laws and stick rule
//! apply unchanged (a stuck block moves with the belt; a slip moves it back against it).
//!
//! State, block after block, `[x_i, ẋ_i, law states of block i]`, then three work integrals:
//! the friction work on the relative motion of all blocks, the belt's input and the dampers'
//! dissipation, so that `E_kin + E_spring = E₀ + W_b + W_f − W_c` checks every run. The dynamic
//! Jacobian is block-tridiagonal (a ring adds the corners): the stiff integrator factors it as
//! a sparse matrix, so a step costs O(N).

mod ends;
mod model;

pub use ends::{ChainEnds, InitialPattern};
pub use model::Chain;

use super::contacts::ContactLaws;
use super::{
    Anchor, Built, ContactInfo, Derived, Dof, Layout, Link, LinkKind, Surface, SystemKind,
};
use crate::laws::{LawConfig, NoiseParams, NormalLoadNoise};

/// Equation of motion shown in the window.
pub const EQUATION: &str =
    "m·ẍᵢ + c·ẋᵢ + k_p·xᵢ − k_c·(xᵢ₊₁ − 2xᵢ + xᵢ₋₁) = F_f,i(ẋᵢ − v_b, N),  i = 1…N";

/// Chains of up to this many blocks write a row before and after every stick or slip switch;
/// longer ones only their regular samples (a full row at each switch of one block would cost
/// O(N) per switch, O(N²) per model-second).
pub const SWITCH_ROWS_MAX_BLOCKS: usize = 10;

/// Most blocks a chain may have.
pub const MAX_BLOCKS: usize = 5000;

crate::param_struct! {
    /// Chain parameters (defaults: 100 identical blocks on a slow belt, a small seeded spread
    /// of the initial positions so that the blocks do not move in lockstep).
    pub struct ChainParams {
        /// Number of blocks.
        blocks: "blocks" = 100.0, "Number of blocks", "N", "", [1.0, 5000.0], Log, integer, restart;
        /// Mass of every block.
        mass_kg: "mass" = 1.0, "Block mass", "m", "kg", [0.01, 100.0], Log;
        /// Spring holding each block to the frame (the leaf springs of the pulling plate).
        pull_stiffness_n_per_m: "pull_stiffness" = 40.0, "Pull stiffness", "k_p", "N/m", [0.01, 1e6], Log;
        /// Spring between neighbouring blocks.
        coupling_stiffness_n_per_m: "coupling_stiffness" = 100.0, "Coupling stiffness", "k_c", "N/m", [0.0, 1e6], Linear;
        /// Damper of each block to the frame.
        damping_ns_per_m: "damping" = 0.0, "Damping", "c", "N·s/m", [0.0, 100.0], Linear;
        /// Normal load pressing each block on the belt.
        normal_load_n: "normal_load" = 9.81, "Normal load per block", "N", "N", [0.0, 1000.0], Linear;
        /// Speed of the belt (of the pulling plate, in S1's frame).
        belt_speed_mps: "belt_speed" = 0.01, "Belt speed", "v_b", "m/s", [0.0, 10.0], Linear;
        /// Amplitude of the initial positions (pattern below).
        initial_spread_m: "initial_spread" = 1e-3, "Initial position spread", "A", "m", [0.0, 1.0], Linear, restart;
        /// Relative spread of the block masses: m_i = m·(1 + δ_m·u_i), u_i uniform in [−1, 1], drawn from the mass seed.
        mass_spread: "mass_spread" = 0.0, "Mass spread", "δ_m", "", [0.0, 0.9], Linear, restart;
    }
    extra {
        /// Boundary condition of the coupling springs.
        ends: "ends": ChainEnds = ChainEnds::Free;
        /// How the initial positions spread along the chain.
        initial_pattern: "initial_pattern": InitialPattern = InitialPattern::Random { seed: 1 };
        /// Seed of the mass spread (the same seed gives the same masses in every version).
        mass_seed: "mass_seed": u64 = 1;
    }
}

impl ChainParams {
    /// Number of blocks as a count (the parameter is a float like every slider value).
    pub fn n_blocks(&self) -> usize {
        (self.blocks.round() as usize).clamp(1, MAX_BLOCKS)
    }

    /// Normal-mode angular frequencies of the frictionless, undamped chain [rad/s], ascending
    /// ([`ChainEnds::normal_mode_omegas_rad_per_s`]).
    pub fn normal_mode_omegas_rad_per_s(&self) -> Vec<f64> {
        self.ends.normal_mode_omegas_rad_per_s(
            self.n_blocks(),
            self.mass_kg,
            self.pull_stiffness_n_per_m,
            self.coupling_stiffness_n_per_m,
        )
    }

    /// Mass of each block [kg]: all `m`, or `m·(1 + δ_m·u_i)` with `u_i` uniform in
    /// `[−1, 1]` from the seeded generator.
    pub fn masses_kg(&self) -> Vec<f64> {
        let n = self.n_blocks();
        if self.mass_spread == 0.0 {
            return vec![self.mass_kg; n];
        }
        let mut rng = crate::util::rng::SplitMix64::new(self.mass_seed);
        (0..n)
            .map(|_| self.mass_kg * (1.0 + self.mass_spread * (2.0 * rng.uniform_open() - 1.0)))
            .collect()
    }

    /// Initial positions [m].
    pub fn initial_positions_m(&self) -> Vec<f64> {
        self.initial_pattern
            .positions_m(self.n_blocks(), self.initial_spread_m)
    }

    /// Carlson–Langer stiffness ratio `ℓ = √(k_c/k_p)`: how many blocks a slip pulls along.
    pub fn stiffness_ratio(&self) -> f64 {
        (self.coupling_stiffness_n_per_m / self.pull_stiffness_n_per_m).sqrt()
    }
}

/// Block symbol `x₁`, `x₁₂`: the index in subscript digits.
pub(crate) fn subscript(i: usize) -> String {
    const DIGITS: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    i.to_string()
        .bytes()
        .map(|b| DIGITS[usize::from(b - b'0')])
        .collect()
}

impl SystemKind for ChainParams {
    const NAME: &'static str = "Burridge–Knopoff chain";
    const EQUATION: &'static str = EQUATION;

    fn nominal_normal_load_n(&self, _contact: usize) -> Option<f64> {
        Some(self.normal_load_n)
    }

    fn n_contacts(&self) -> usize {
        self.n_blocks()
    }

    fn layout(&self) -> Layout {
        let n = self.n_blocks();
        let dofs = self
            .masses_kg()
            .into_iter()
            .enumerate()
            .map(|(i, mass)| Dof {
                name: format!("block {}", i + 1),
                symbol: format!("x{}", subscript(i + 1)),
                unit: "m".into(),
                mass,
            })
            .collect();
        let contacts = (0..n)
            .map(|i| ContactInfo {
                name: format!("block {} on the belt", i + 1),
                dof: i,
                surface: Surface::Belt,
            })
            .collect();
        let mut links: Vec<Link> = (0..n)
            .map(|i| Link {
                kind: if self.damping_ns_per_m > 0.0 {
                    LinkKind::SpringDamper
                } else {
                    LinkKind::Spring
                },
                a: Anchor::Ground,
                b: Anchor::Dof(i),
                label: "k_p".into(),
            })
            .collect();
        links.extend(self.ends.springs(n).into_iter().map(|(a, b)| Link {
            kind: LinkKind::Spring,
            a: a.map_or(Anchor::Ground, Anchor::Dof),
            b: b.map_or(Anchor::Ground, Anchor::Dof),
            label: "k_c".into(),
        }));
        Layout {
            scene: None,
            dofs,
            contacts,
            links,
            driver_speed_mps: Some(self.belt_speed_mps),
            substrate: None,
        }
    }

    fn derived(&self) -> Vec<Derived> {
        let w = self.normal_mode_omegas_rad_per_s();
        let tau = std::f64::consts::TAU;
        vec![
            Derived {
                label: "f_min",
                value: w.first().copied().unwrap_or(f64::NAN) / tau,
                unit: "Hz",
            },
            Derived {
                label: "f_max",
                value: w.last().copied().unwrap_or(f64::NAN) / tau,
                unit: "Hz",
            },
            Derived {
                label: "ℓ = √(k_c/k_p)",
                value: self.stiffness_ratio(),
                unit: "",
            },
        ]
    }

    fn build(&self, laws: &[LawConfig], noise: Option<&NoiseParams>) -> Built {
        let n = self.n_blocks();
        let mut configs: Vec<LawConfig> = laws.to_vec();
        configs.resize(n, laws.first().cloned().unwrap_or_default());
        let model = Chain::new(
            self.clone(),
            ContactLaws::new(&configs),
            noise.cloned().map(NormalLoadNoise::new),
        );
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscripts() {
        assert_eq!(subscript(1), "₁");
        assert_eq!(subscript(120), "₁₂₀");
    }
}
