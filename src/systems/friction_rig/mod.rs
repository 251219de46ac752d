//! Characterisation rig: one friction contact under a standard test, measured the way a
//! tribology laboratory measures it (MODELS §3.5). Any law can be put on it.
//!
//! Kinematic tests impose the relative motion and read the friction force (state
//! `[x, law states…]`, `ẋ = v(t)`, `F_f` read from the law):
//! ```text
//! slides          v = v_k from rest over a distance d on a fresh contact each; μ = R/N against
//!                 the sliding distance, one curve per speed
//! Stribeck        v = ±v_k, log-spaced, each held t_v; the mean force over each level's second
//!                 half against the law's steady characteristic F_ss(v)
//! frictional lag  v = v₀ + v₁·sin(2πf_j t), f_j = f·g^j; the F–v loop of the last cycle of each
//! pre-sliding     x = A·(sin ωt + b·sin 3ωt); the F–x loops, whether inner loops close where they
//!                 began, and the Masing rule F = F_r − 2·F_v((x_r − x)/2) after the top reversal
//! ```
//! The break-away test imposes a force on a free mass instead (state `[x, ẋ, law states…]`):
//! ```text
//! m·ẍ = Ḟ_k·(t − t_k) + F_f(ẋ, N, state)
//! ```
//! until the mass has slipped `x_stop` since the ramp began; then the load is taken off, the
//! contact renewed (the law's initial state: a fresh contact, as when a test is repeated on a
//! new spot) and the next ramp runs at `Ḟ_{k+1} = g·Ḟ_k`. The break-away force of a ramp is the
//! largest friction force the contact held during it.
//!
//! Kinematic tests have no mechanics, so a law set-valued at rest has no holding force; no
//! kinematic test stops the motion (the Stribeck test and a reversing lag pass through zero,
//! where such a law changes direction). The break-away test holds them exactly (stick mode).
//! Slide–hold–slide (dwell-time) tests run on the spring–slider, whose load point stops.

mod force_ramp;
mod kinematic;
pub mod programme;

pub use force_ramp::ForceRamp;
pub use kinematic::KinematicRig;
pub use programme::{MAX_SLIDES, Programme, RigTest, Segment, SlideSpeeds};

use super::{Built, ContactInfo, Derived, Dof, Layout, Surface, SystemKind};
use crate::integrate::{Column, Role};
use crate::laws::{LawConfig, NoiseParams};

/// The sample's columns both rigs write first: `x, v, v_rel, friction_force`, the applied
/// force when the rig pushes (`with_applied`), `stick, normal_load`.
fn sample_columns(with_applied: bool) -> Vec<Column> {
    let mut cols = vec![
        Column::new("x", "m").role(Role::Position(0)),
        Column::new("v", "m/s").role(Role::Velocity(0)),
        Column::new("v_rel", "m/s").role(Role::SlipVelocity(0)),
        Column::new("friction_force", "N")
            .role(Role::FrictionForce(0))
            .symbol("F_f"),
    ];
    if with_applied {
        cols.push(
            Column::new("applied_force", "N")
                .role(Role::AppliedForce(0))
                .symbol("F_app"),
        );
    }
    cols.extend([
        Column::new("stick", "").role(Role::Stick(0)),
        Column::new("normal_load", "N")
            .role(Role::NormalLoad(0))
            .symbol("N"),
    ]);
    cols
}

/// Equation shown in the window.
pub const EQUATION: &str =
    "x = x(t) imposed, F_f read (kinematic tests);  m·ẍ = Ḟ·(t − t_k) + F_f (break-away)";

crate::param_struct! {
    /// Characterisation-rig parameters (defaults: a Stribeck sweep from 10 µm/s to 0.1 m/s).
    pub struct FrictionRigParams {
        /// Normal load on the contact.
        normal_load_n: "normal_load" = 1.0, "Normal load", "N", "N", [1e-6, 1e6], Log;
        /// Mass pushed by the force ramp of the break-away test.
        mass_kg: "mass" = 1.0, "Mass (break-away)", "m", "kg", [1e-6, 1e3], Log;
        /// Slowest speed of the Stribeck test.
        speed_min_mps: "speed_min" = 1e-5, "Slowest speed (Stribeck)", "v_min", "m/s", [1e-9, 1.0], Log;
        /// Fastest speed of the Stribeck test.
        speed_max_mps: "speed_max" = 0.1, "Fastest speed (Stribeck)", "v_max", "m/s", [1e-8, 10.0], Log;
        /// Speeds per direction of the Stribeck test, log-spaced.
        speeds: "speeds" = 9.0, "Speeds per direction (Stribeck)", "n_v", "", [2.0, 40.0], Linear, integer;
        /// Time at each speed of the Stribeck test (the second half is averaged).
        level_s: "level_time" = 100.0, "Time at each speed (Stribeck)", "t_v", "s", [1e-4, 1e5], Log;
        /// Mean speed of the frictional-lag test.
        mean_speed_mps: "mean_speed" = 1e-3, "Mean speed (lag)", "v₀", "m/s", [-10.0, 10.0], Linear;
        /// Speed amplitude of the frictional-lag test.
        speed_amplitude_mps: "speed_amplitude" = 8e-4, "Speed amplitude (lag)", "v₁", "m/s", [0.0, 10.0], Linear;
        /// First frequency of the frictional-lag test; frequency of the pre-sliding test.
        frequency_hz: "frequency" = 1.0, "Frequency (lag: the first)", "f", "Hz", [1e-4, 1e4], Log;
        /// Each frictional-lag frequency is this many times the one before.
        frequency_growth: "frequency_growth" = 10.0, "Frequency step (lag)", "g_f", "", [1.0, 100.0], Log;
        /// Number of frictional-lag frequencies.
        frequencies: "frequencies" = 3.0, "Frequencies (lag)", "n_f", "", [1.0, 8.0], Linear, integer;
        /// Cycles at each frequency (frictional lag) or in all (pre-sliding).
        cycles: "cycles" = 3.0, "Cycles (lag, pre-sliding)", "n_c", "", [1.0, 50.0], Linear, integer;
        /// Displacement amplitude of the pre-sliding test.
        amplitude_m: "amplitude" = 5e-6, "Displacement amplitude (pre-sliding)", "A", "m", [1e-10, 1e-2], Log;
        /// Relative amplitude of the third harmonic (nested reversals) of the pre-sliding test.
        harmonic_ratio: "harmonic_ratio" = 0.5, "Third-harmonic share (pre-sliding)", "b", "", [0.0, 1.0], Linear;
        /// Force rate of the first break-away ramp.
        force_rate_n_per_s: "force_rate" = 0.1, "First force rate (break-away)", "Ḟ", "N/s", [1e-6, 1e6], Log;
        /// Each break-away ramp is this many times faster than the one before.
        rate_growth: "rate_growth" = 3.162_277_660_168_379_5, "Force-rate step (break-away)", "g_F", "", [1.0, 100.0], Log;
        /// Number of break-away ramps.
        ramps: "ramps" = 7.0, "Ramps (break-away)", "n_r", "", [1.0, 30.0], Linear, integer;
        /// Slip after which a break-away ramp ends.
        stop_slip_m: "stop_slip" = 1e-4, "Slip that ends a ramp (break-away)", "x_stop", "m", [1e-9, 1.0], Log;
        /// Sliding distance of each slide of the slides test.
        slide_distance_m: "slide_distance" = 1e-3, "Distance of each slide (slides)", "d", "m", [1e-9, 10.0], Log;
    }
    extra {
        /// The test: `Stribeck`, `FrictionalLag`, `PreSliding`, `BreakAway` or `Slides`.
        test: "test": RigTest = RigTest::Stribeck;
        /// Speeds of the slides test [m/s], one slide each, in order (at most eight).
        slide_speeds: "slide_speeds": SlideSpeeds = SlideSpeeds::default();
    }
    consistency = |p: &Self| (p.test == RigTest::NormalCreep).then(|| (
        "test".to_string(),
        "the normal-creep test reads how far a loaded body approaches the counter-surface; a \
         law alone has no such body — run it on the asperity model (system: Asperity)"
            .to_string(),
    )).or_else(|| crate::params::not_above(
        ("speed_min", "v_min", p.speed_min_mps),
        ("speed_max", "v_max", p.speed_max_mps),
        "the Stribeck test runs from the slowest speed to the fastest",
    ));
}

impl FrictionRigParams {
    /// The test with its numbers.
    pub fn programme(&self) -> Programme {
        let count = |x: f64| x.round().max(1.0) as usize;
        Programme {
            test: self.test,
            speed_range_mps: (self.speed_min_mps, self.speed_max_mps),
            speeds: count(self.speeds).max(2),
            level_s: self.level_s,
            mean_speed_mps: self.mean_speed_mps,
            speed_amplitude_mps: self.speed_amplitude_mps,
            frequency_hz: self.frequency_hz,
            frequency_growth: self.frequency_growth,
            frequencies: count(self.frequencies),
            cycles: count(self.cycles),
            amplitude_m: self.amplitude_m,
            harmonic_ratio: self.harmonic_ratio,
            force_rate_n_per_s: self.force_rate_n_per_s,
            rate_growth: self.rate_growth,
            ramps: count(self.ramps),
            stop_slip_m: self.stop_slip_m,
            slide_speeds_mps: std::array::from_fn(|k| {
                self.slide_speeds.0.get(k).copied().unwrap_or(1e-3)
            }),
            slides: self.slide_speeds.0.len().clamp(1, MAX_SLIDES),
            slide_distance_m: self.slide_distance_m,
        }
    }
}

impl SystemKind for FrictionRigParams {
    const NAME: &'static str = "Characterisation rig (standard friction tests)";
    const EQUATION: &'static str = EQUATION;

    fn n_contacts(&self) -> usize {
        1
    }

    /// The rig's load is the law's nominal load: laws written in force units act as written.
    fn nominal_normal_load_n(&self, _contact: usize) -> Option<f64> {
        Some(self.normal_load_n)
    }

    fn layout(&self) -> Layout {
        let kinematic = self.test.is_kinematic();
        Layout {
            scene: None,
            dofs: vec![Dof {
                name: "sample".into(),
                symbol: "x".into(),
                unit: "m".into(),
                // The kinematic tests prescribe the motion: no inertia (0, not NaN, so
                // layouts compare equal).
                mass: if kinematic { 0.0 } else { self.mass_kg },
            }],
            contacts: vec![ContactInfo {
                name: "sample on the counter-surface".into(),
                dof: 0,
                surface: Surface::Ground,
            }],
            links: Vec::new(),
            driver_speed_mps: None,
            substrate: None,
        }
    }

    /// The pre-sliding test repeats its nested loop; the other tests change as they go.
    fn forcing_period_s(&self) -> Option<f64> {
        (self.test == RigTest::PreSliding).then(|| 1.0 / self.frequency_hz)
    }

    fn derived(&self) -> Vec<Derived> {
        let p = self.programme();
        let mut out = Vec::new();
        if let Some(d) = p.duration_s() {
            out.push(Derived {
                label: "test length",
                value: d,
                unit: "s",
            });
        }
        match self.test {
            RigTest::Stribeck => out.push(Derived {
                label: "slid at v_min",
                value: self.speed_min_mps * self.level_s,
                unit: "m",
            }),
            RigTest::BreakAway => out.push(Derived {
                label: "fastest rate",
                value: p.ramp_rate_n_per_s(p.ramps - 1),
                unit: "N/s",
            }),
            RigTest::FrictionalLag
            | RigTest::PreSliding
            | RigTest::Slides
            | RigTest::NormalCreep => {}
        }
        out
    }

    fn characterisation(&self) -> Option<Programme> {
        Some(self.programme())
    }

    fn build(&self, laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let law = laws
            .first()
            .map(LawConfig::build)
            .unwrap_or_else(|| LawConfig::default().build());
        if self.test.is_kinematic() {
            let model = KinematicRig::new(law, self.programme(), self.normal_load_n);
            let y0 = model.initial_state();
            Built::Flow(Box::new(model), y0)
        } else {
            let model = ForceRamp::new(law, self.programme(), self.normal_load_n, self.mass_kg);
            let y0 = model.initial_state();
            Built::Flow(Box::new(model), y0)
        }
    }
}
