//! Frenkel–Kontorova–Tomlinson chain (Weiss & Elmer, Phys Rev B 53:7539, 1996; MODELS §3.3):
//! `N` atoms of a slider's contact layer, coupled to their neighbours by springs `k_c` at rest
//! spacing `b`, each tied to the slider body by a spring `k_b`, over a crystal surface
//! `V(x) = −U₀·cos(2πx/a)`, damped into the substrate and, at `T > 0`, thermally kicked:
//! ```text
//! m·ẍ_j = k_c·(x_{j+1} − 2x_j + x_{j−1}) + k_b·(X + j·b − x_j) − (2πU₀/a)·sin(2πx_j/a)
//!         − γ·ẋ_j + √(2γk_BT)·ξ_j(t)
//! X = v·t   or   M·Ẍ = k_d·(v·t − X) − Σ_j k_b·(X + j·b − x_j)
//! F_fric = Σ_j k_b·(X + j·b − x_j)   (the force the body needs to slide the layer)
//! ```
//! Periodic boundary: `x_{N} = x_0 + N·b`. A ring must also fit the substrate, `N·b = M·a`, so
//! the spacing ratio is rational, `b/a = M/N` (`periods` M over `atoms` N): `M = N` is
//! commensurate; consecutive Fibonacci numbers (55/89, 89/144) approximate the golden mean
//! `(√5 − 1)/2`, the most incommensurate ratio.
//!
//! Two dimensionless numbers govern it: `K = 4π²U₀/(k_c·a²)` (the Frenkel–Kontorova
//! corrugation; for the golden mean and `k_b → 0` the chain pins above Aubry's
//! `K_c = 0.971635`) and `η_b = 4π²U₀/(k_b·a²)` (the single-atom Tomlinson criterion, `k_c = 0`).
//! With both springs the threshold moves: [`quasi_static`] measures it.
//!
//! State: `p_j = x_j − v·t − j·b` (each atom's displacement from its place on the driven
//! frame), `ṗ_j`, then, when the body is driven through a spring, `w = X − v·t` and `ẇ`, then
//! the drive's input work and the heat taken from the substrate's bath.

mod model;
pub mod quasi_static;

pub use model::Fkt;

use std::f64::consts::PI;

use serde::{Deserialize, Serialize};

use super::chain::subscript;
use super::{
    Anchor, Built, ContactInfo, Derived, Dof, Layout, Link, LinkKind, Substrate,
    Surface, SystemKind, ThermalFriction, HeatBathKeys,
};
use crate::integrate::driver::DriverSettings;
use crate::integrate::{BaoabRun, Engine, SimError};
use crate::laws::{LawConfig, NoiseParams};
use crate::params::ExtraField;

/// Equation of motion shown in the window.
pub const EQUATION: &str = "m·ẍⱼ = k_c·(xⱼ₊₁ − 2xⱼ + xⱼ₋₁) + k_b·(X + j·b − xⱼ) − (2πU₀/a)·sin(2πxⱼ/a) \
     − γ·ẋⱼ + noise,  b/a = M/N,  F = Σ k_b·(X + j·b − xⱼ)";

/// Quasi-static steps per period of the forward branch when the athermal friction is asked for.
const QUASI_STATIC_STEPS: usize = 120;

/// The golden mean `(√5 − 1)/2`.
pub const GOLDEN_MEAN: f64 = 0.618_033_988_749_894_9;

/// Aubry's breaking of analyticity for the golden-mean Frenkel–Kontorova chain (standard-map
/// parameter; Greene 1979, MacKay 1983).
pub const AUBRY_K_C: f64 = 0.971_635_406;

/// How the slider body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BodyDrive {
    /// The body moves at the drive speed `v` exactly.
    #[default]
    Kinematic,
    /// The body (mass M) is pulled through a spring `k_d` whose end moves at `v`.
    Spring,
}

impl ExtraField for BodyDrive {
    fn choices() -> &'static [&'static str] {
        &["Kinematic", "Spring"]
    }
}

crate::param_struct! {
    /// Frenkel–Kontorova–Tomlinson parameters. Defaults: 89 atoms over 55 lattice periods (the
    /// golden mean), weak corrugation K = 0.5, so the contact is superlubric.
    pub struct FktParams {
        /// Number of atoms `N` in the ring.
        atoms: "atoms" = 89.0, "Atoms", "N", "", [2.0, 2000.0], Log, integer, restart;
        /// Lattice periods `M` the ring spans: spacing `b = (M/N)·a`.
        periods: "periods" = 55.0, "Lattice periods spanned", "M", "", [1.0, 2000.0], Log, integer, restart;
        /// Lattice period `a` of the surface.
        lattice: "lattice" = 3e-10, "Lattice period", "a", "m", [2e-11, 5e-9], Log;
        /// Corrugation amplitude `U₀` of the surface potential.
        corrugation: "corrugation" = 1.1398e-20, "Corrugation amplitude", "U₀", "J", [1e-30, 1e-17], Log;
        /// Stiffness `k_c` of the springs between neighbouring atoms.
        coupling: "coupling" = 10.0, "Interatomic stiffness", "k_c", "N/m", [0.0, 1e3], Linear;
        /// Stiffness `k_b` tying each atom to the slider body.
        body_stiffness: "body_stiffness" = 1.0, "Atom–body stiffness", "k_b", "N/m", [1e-6, 1e3], Log;
        /// Mass `m` of an atom.
        mass: "mass" = 1e-25, "Atom mass", "m", "kg", [1e-28, 1e-10], Log;
        /// Damping `γ` of each atom's motion into the substrate (also the bath coupling).
        damping: "damping" = 3.162e-13, "Damping", "γ", "kg/s", [1e-18, 1e-3], Log;
        /// Drive speed `v`.
        speed: "speed" = 0.05, "Drive speed", "v", "m/s", [1e-9, 1e3], Log;
        /// Stiffness `k_d` of the drive spring (spring drive only).
        drive_stiffness: "drive_stiffness" = 10.0, "Drive stiffness", "k_d", "N/m", [1e-3, 1e4], Log;
        /// Mass `M` of the slider body (spring drive only).
        body_mass: "body_mass" = 1e-23, "Body mass", "M", "kg", [1e-27, 1e-8], Log;
        /// Temperature of the substrate's heat bath (0: no thermal noise).
        temperature: "temperature" = 0.0, "Temperature", "T", "K", [0.0, 2000.0], Linear;
        /// Seed of the thermal noise.
        seed: "seed" = 1.0, "Noise seed", "seed", "", [0.0, 1e9], Linear, integer, restart;
    }
    extra {
        /// Kinematic body or body pulled through a spring.
        drive: "drive": BodyDrive = BodyDrive::Kinematic;
    }
}

impl FktParams {
    /// Number of atoms.
    pub fn n_atoms(&self) -> usize {
        (self.atoms.round() as usize).clamp(2, 2000)
    }

    /// Lattice periods spanned.
    pub fn n_periods(&self) -> usize {
        (self.periods.round() as usize).clamp(1, 2000)
    }

    /// Spacing ratio `b/a = M/N`.
    pub fn ratio(&self) -> f64 {
        self.n_periods() as f64 / self.n_atoms() as f64
    }

    /// Rest spacing `b` [m].
    pub fn spacing_m(&self) -> f64 {
        self.ratio() * self.lattice
    }

    /// Frenkel–Kontorova corrugation `K = 4π²U₀/(k_c·a²)` (∞ without coupling).
    pub fn fk_k(&self) -> f64 {
        4.0 * PI * PI * self.corrugation / (self.coupling * self.lattice * self.lattice)
    }

    /// Single-atom criterion `η_b = 4π²U₀/(k_b·a²)`.
    pub fn eta_b(&self) -> f64 {
        4.0 * PI * PI * self.corrugation / (self.body_stiffness * self.lattice * self.lattice)
    }

    /// Whether the body is a degree of freedom.
    pub fn body_moves(&self) -> bool {
        self.drive == BodyDrive::Spring
    }

    /// Largest BAOAB step: a fiftieth of the period of the stiffest mode
    /// ([`omega_max`](Self::omega_max)).
    pub fn max_time_step_s(&self) -> f64 {
        std::f64::consts::TAU / self.omega_max() / 50.0
    }

    /// Angular frequency of the stiffest mode [rad/s]:
    /// `ω_max² = (k_b + 4k_c + 4π²U₀/a²)/m` (and the body's when it moves).
    pub fn omega_max(&self) -> f64 {
        let curv = 4.0 * PI * PI * self.corrugation / (self.lattice * self.lattice);
        let mut w2 = (self.body_stiffness + 4.0 * self.coupling + curv) / self.mass;
        if self.body_moves() {
            let n = self.n_atoms() as f64;
            w2 = w2.max((self.drive_stiffness + n * self.body_stiffness) / self.body_mass);
        }
        w2.sqrt()
    }

    /// Whether the atoms' damping makes the equations stiff
    /// ([`damping_is_stiff`](crate::integrate::damping_is_stiff)): then an implicit method.
    pub fn overdamped(&self) -> bool {
        crate::integrate::damping_is_stiff(self.damping / self.mass, self.omega_max())
    }

    /// Support travel per lattice period `a/v` [s].
    pub fn lattice_time_s(&self) -> f64 {
        self.lattice / self.speed.abs().max(f64::MIN_POSITIVE)
    }
}

impl SystemKind for FktParams {
    const NAME: &'static str = "Frenkel–Kontorova–Tomlinson chain (atomic friction)";
    const EQUATION: &'static str = EQUATION;

    /// The friction is the substrate's potential and damping: no law from the preset.
    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        let n = self.n_atoms();
        let mut dofs: Vec<Dof> = (0..n)
            .map(|j| Dof {
                name: format!("atom {}", j + 1),
                symbol: format!("x{}", subscript(j + 1)),
                unit: "m".into(),
                mass: self.mass,
            })
            .collect();
        let body = if self.body_moves() {
            dofs.push(Dof {
                name: "slider body".into(),
                symbol: "X".into(),
                unit: "m".into(),
                mass: self.body_mass,
            });
            Anchor::Dof(n)
        } else {
            Anchor::Driver
        };
        let mut links: Vec<Link> = (0..n)
            .map(|j| Link {
                kind: LinkKind::Spring,
                a: body,
                b: Anchor::Dof(j),
                label: "k_b".into(),
            })
            .collect();
        links.extend((0..n).map(|j| Link {
            kind: LinkKind::Spring,
            a: Anchor::Dof(j),
            b: Anchor::Dof((j + 1) % n),
            label: "k_c".into(),
        }));
        if self.body_moves() {
            links.push(Link {
                kind: LinkKind::Spring,
                a: Anchor::Driver,
                b: body,
                label: "k_d".into(),
            });
        }
        Layout {
            scene: None,
            dofs,
            contacts: (0..n)
                .map(|j| ContactInfo {
                    name: format!("atom {} on the crystal", j + 1),
                    dof: j,
                    surface: Surface::Lattice,
                })
                .collect(),
            links,
            driver_speed_mps: Some(self.speed),
            substrate: Some(Substrate {
                period_m: self.lattice,
                amplitude_j: self.corrugation,
            }),
        }
    }

    /// The drive advances one lattice period in `a/v`: the equations repeat.
    fn forcing_period_s(&self) -> Option<f64> {
        (self.speed != 0.0).then(|| self.lattice_time_s())
    }

    fn derived(&self) -> Vec<Derived> {
        let mut d = vec![
            Derived {
                label: "b/a",
                value: self.ratio(),
                unit: "",
            },
            Derived {
                label: "K (chain)",
                value: self.fk_k(),
                unit: "",
            },
            Derived {
                label: "η_b (one atom)",
                value: self.eta_b(),
                unit: "",
            },
            Derived {
                label: "a/v",
                value: self.lattice_time_s(),
                unit: "s",
            },
        ];
        if self.temperature > 0.0 {
            d.push(Derived {
                label: "k_BT/U₀",
                value: crate::integrate::BOLTZMANN_J_PER_K * self.temperature / self.corrugation,
                unit: "",
            });
        }
        d
    }

    fn is_stochastic(&self) -> bool {
        self.temperature > 0.0
    }

    fn heat_bath_keys(&self) -> Option<HeatBathKeys> {
        Some(HeatBathKeys {
            speed: "speed",
            temperature: "temperature",
        })
    }

    /// Drag `N·γ·v` of the atoms; the athermal friction is the energy the quasi-static forward
    /// branch releases per distance (zero for a superlubric ring).
    fn thermal_friction(&self) -> Option<ThermalFriction> {
        Some(ThermalFriction {
            keys: self.heat_bath_keys()?,
            drag_kg_per_s: self.n_atoms() as f64 * self.damping,
            athermal_friction_n: quasi_static::QuasiStaticChain::new(self)
                .map(|c| c.forward_branch(QUASI_STATIC_STEPS).dissipated_per_distance_n),
        })
    }

    /// Above zero kelvin the run is Langevin dynamics by BAOAB, whatever the integrator.
    fn engine(&self, settings: &DriverSettings) -> Option<Result<Box<dyn Engine>, SimError>> {
        (self.temperature > 0.0).then(|| {
            let model = Fkt::new(self.clone());
            let y0 = model.initial_state();
            BaoabRun::new(model, y0, settings.output_interval_s)
                .map(|r| Box::new(r) as Box<dyn Engine>)
        })
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let model = Fkt::new(self.clone());
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}
