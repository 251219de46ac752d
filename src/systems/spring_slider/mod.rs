//! Spring–slider: a block on a fixed surface pulled through a spring whose far end, the load
//! point, follows a programme — steady pulling, velocity steps, slide–hold–slide. It is the
//! rig of rock-mechanics and tribology laboratories (Dieterich 1979; Marone 1998) and the
//! textbook system for the stability of steady sliding (MODELS §2.14, §3.5).
//! ```text
//! m·ẍ = k·(x_lp(t) − x) − c·ẋ + F_f(ẋ, N, state),    ẋ_lp = v_lp(t),    v_rel = ẋ
//! ```
//! The integrated coordinate is the slider's offset from the load point, `u = x − x_lp`
//! (`u̇ = ẋ − v_lp`, spring force `−k·u`), so steady pulling is an autonomous system with
//! bounded states whose periodic orbits close; the slider's displacement `x` (from its start,
//! the position column) and the load point's `x_lp` are outputs. With `v_lp` constant this is the belt–block bench seen from the
//! belt, with the sliding velocity measured directly (no subtraction of a belt speed).
//!
//! State `[u, ẋ, law states…, W_f, W_in, W_c]`: friction work `∫F_f·ẋ dt`, the load point's
//! input `∫−k·u·v_lp dt` and the damper's `∫c·ẋ² dt`, so that
//! `E_kin + E_spring = E₀ + W_in + W_f − W_c` checks every run.
//!
//! **Start.** `SteadySliding` (default): the slider moves at `v₁` with the spring stretched to
//! the law's steady friction at `v₁` and the law's states at their steady values where the law
//! has them ([`FrictionLaw::steady_states`](crate::laws::FrictionLaw::steady_states)), so a run
//! begins in steady sliding and the programme's first step or hold is a clean test. `Rest`:
//! slider at rest, spring relaxed, the law's own initial states.

mod model;
pub mod programme;

pub use model::SpringSlider;
pub use programme::{Programme, Schedule};

use serde::{Deserialize, Serialize};

use super::{
    Anchor, Built, ContactInfo, Derived, Dof, Layout, Link, LinkKind, StabilityBoundary,
    Surface, SystemKind,
};
use crate::laws::{LawConfig, NoiseParams, NormalLoadNoise};
use crate::params::ExtraField;

/// Equation of motion shown in the window.
pub const EQUATION: &str = "m·ẍ = k·(x_lp(t) − x) − c·ẋ + F_f(ẋ, N),  ẋ_lp = v_lp(t)";

/// How a run starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Start {
    /// Sliding steadily at the load-point speed `v₁`.
    #[default]
    SteadySliding,
    /// At rest with the spring relaxed.
    Rest,
}

impl ExtraField for Start {
    fn choices() -> &'static [&'static str] {
        &["SteadySliding", "Rest"]
    }
}

crate::param_struct! {
    /// Spring–slider parameters (defaults: a laboratory friction rig, one slider of 1 kg under
    /// 100 N pulled at 1 µm/s).
    pub struct SpringSliderParams {
        /// Mass of the slider (and whatever moves with it).
        mass_kg: "mass" = 1.0, "Slider mass", "m", "kg", [1e-3, 1e3], Log;
        /// Stiffness of the spring between the load point and the slider (the machine).
        stiffness_n_per_m: "stiffness" = 1e5, "Spring stiffness", "k", "N/m", [0.1, 1e10], Log;
        /// Viscous damping of the slider's motion.
        damping_ns_per_m: "damping" = 0.0, "Damping", "c", "N·s/m", [0.0, 1e6], Linear;
        /// Normal load pressing the slider on the surface.
        normal_load_n: "normal_load" = 100.0, "Normal load", "N", "N", [0.0, 1e6], Linear;
        /// Speed of the load point (the first speed of velocity steps).
        speed_mps: "speed" = 1e-6, "Load-point speed", "v₁", "m/s", [1e-10, 10.0], Log;
        /// Second speed of the velocity-step programme.
        step_speed_mps: "step_speed" = 1e-5, "Step speed (velocity steps)", "v₂", "m/s", [1e-10, 10.0], Log;
        /// Time between velocity steps.
        step_interval_s: "step_interval" = 100.0, "Step interval (velocity steps)", "t_s", "s", [1e-4, 1e6], Log;
        /// Sliding time before each hold.
        slide_s: "slide_time" = 100.0, "Slide before each hold", "t_slide", "s", [1e-4, 1e6], Log;
        /// Length of the first hold.
        hold_s: "hold_time" = 1.0, "First hold", "t_h", "s", [1e-4, 1e6], Log;
        /// Each hold is this many times longer than the one before (1: equal holds).
        hold_growth: "hold_growth" = 3.162_277_660_168_379_5, "Hold growth", "g", "", [1.0, 100.0], Log;
    }
    extra {
        /// What the load point does: `Steady`, `VelocitySteps` or `SlideHoldSlide`.
        programme: "programme": Programme = Programme::Steady;
        /// How the run starts: `SteadySliding` at the load-point speed, or `Rest`.
        start: "start": Start = Start::SteadySliding;
    }
}

impl SpringSliderParams {
    /// The load point's schedule.
    pub fn schedule(&self) -> Schedule {
        Schedule {
            programme: self.programme,
            speed_mps: self.speed_mps,
            step_speed_mps: self.step_speed_mps,
            step_interval_s: self.step_interval_s,
            slide_s: self.slide_s,
            hold_s: self.hold_s,
            hold_growth: self.hold_growth,
        }
    }

    /// Natural angular frequency `√(k/m)` [rad/s].
    pub fn omega_rad_per_s(&self) -> f64 {
        (self.stiffness_n_per_m / self.mass_kg).sqrt()
    }
}

impl SystemKind for SpringSliderParams {
    const NAME: &'static str = "Spring–slider (load-point programme)";
    const EQUATION: &'static str = EQUATION;

    fn nominal_normal_load_n(&self, _contact: usize) -> Option<f64> {
        Some(self.normal_load_n)
    }

    fn n_contacts(&self) -> usize {
        1
    }

    fn layout(&self) -> Layout {
        Layout {
            scene: None,
            dofs: vec![Dof {
                name: "slider".into(),
                symbol: "x".into(),
                unit: "m".into(),
                mass: self.mass_kg,
            }],
            contacts: vec![ContactInfo {
                name: "slider on the surface".into(),
                dof: 0,
                surface: Surface::Ground,
            }],
            links: vec![Link {
                kind: if self.damping_ns_per_m > 0.0 {
                    LinkKind::SpringDamper
                } else {
                    LinkKind::Spring
                },
                a: Anchor::Driver,
                b: Anchor::Dof(0),
                label: "k".into(),
            }],
            driver_speed_mps: Some(self.speed_mps),
            substrate: None,
        }
    }

    /// The programme's period when it repeats (velocity steps, equal holds).
    fn forcing_period_s(&self) -> Option<f64> {
        self.schedule().period_s()
    }

    fn derived(&self) -> Vec<Derived> {
        vec![Derived {
            label: "f₀",
            value: self.omega_rad_per_s() / std::f64::consts::TAU,
            unit: "Hz",
        }]
    }

    /// The critical stiffness of steady sliding at `v₁` with rate-and-state friction
    /// ([`hopf_threshold`](crate::laws::rate_state_stability::hopf_threshold)).
    fn stability_boundaries(&self, laws: &[LawConfig]) -> Vec<StabilityBoundary> {
        let Some(LawConfig::RateState(law)) = laws.first() else {
            return Vec::new();
        };
        crate::laws::rate_state_stability::hopf_threshold(
            law,
            self.normal_load_n,
            self.mass_kg,
            self.damping_ns_per_m,
            self.speed_mps,
        )
        .map(StabilityBoundary::stiffness)
        .into_iter()
        .collect()
    }

    fn build(&self, laws: &[LawConfig], noise: Option<&NoiseParams>) -> Built {
        let law = laws
            .first()
            .map(LawConfig::build)
            .unwrap_or_else(|| LawConfig::default().build());
        let model = SpringSlider::new(self.clone(), law, noise.cloned().map(NormalLoadNoise::new));
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}
