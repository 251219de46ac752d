//! The asperity-based friction model (MODELS §3.4, after De Moerlooze, Al-Bender and Van
//! Brussel 2010, whose paper stops before its equations: the formulation below is ours).
//!
//! An upper body (mass `M`, position `(x_m, y_m)`) carries `N` point asperities of mass `m`
//! hanging below it at horizontal offsets `ξ_i`, their tips at rest `s_i` below the body
//! (`s_i` drawn from a zero-mean height distribution of spread `σ_s`). Each asperity is held by
//! a tangential and a normal spring, each an elastic spring `k_el` beside an elasto-plastic
//! Maxwell-slip element `k_pl` of slip limit `Δ`, with a damper `c`. Below lies a rigid
//! profile `h(x)` of raised-cosine bumps of random wavelength ([`profile`]). With
//! `e_T = x_i − x_m − ξ_i`, `e_N = y_i − y_m + s_i`, `d_i = h(x_i) − y_i` (overlap) and
//! `g_i = −d_i` (gap):
//! ```text
//! M·ẍ_m = F_drive − Σ S_T,i              M·ÿ_m = −F_load − Σ S_N,i
//! m·ẍ_i = S_T,i + P_x,i + D_x,i + A_i     m·ÿ_i = S_N,i + P_y,i + D_y,i
//! S_T = −(k_el,T·e_T + k_pl,T·δ_T + c_T·ė_T)      δ̇_T = ė_T,         |δ_T| ≤ Δ_T
//! S_N = −(k_el,N·e_N + k_pl,N·δ_N + c_N·ė_N)      δ̇_N = ė_N − δ_N/τ_i, |δ_N| ≤ Δ_N
//! contact (d > 0):   P = p·(−h′, 1),  p = max(0, k_p·d + c_p·ḋ)
//! normal adhesion (Dugdale, g < g_a):  D = f_N·(h′, −1)   (a constant pull toward the profile)
//! tangential adhesion (in contact):  stuck ẋ_i = 0 while |A_i| ≤ f_T,i, else A_i = −f_T,i·sgn ẋ_i
//!                    f_T,i = a_T·k_el,N·max(e_N, 0)·(1 + b·ln(1 + θ_i/θ₀))
//! junction age:      θ̇_i = 1 − θ_i·|ẋ_i|/d_c  (in contact; a new contact starts at θ = 0)
//! F_drive = K·(x_lp(t) − x_m) + C·(ẋ_lp − ẋ_m)    (or x_m(t) imposed by a rig)
//! ```
//! Outputs: the friction force on the body `F_f = −Σ S_T,i` and the normal force
//! `F_n = −Σ S_N,i` — what the body feels through its asperities, as a load cell on it reads
//! them (the profile's forces on the asperities, `Σ (P + D + A)`, less the asperities'
//! inertia, which rings at their own frequencies) —, `μ = −F_f/F_load`, the real contact count,
//! the number slipping, the normal approach.
//!
//! The parameters are S2's dimensionless groups: `ω_n = √(K/M)`; per asperity
//! `m = μ_m·M/N`, `k_T = m·(r_T·ω_n)²`, `k_N = m·(r_N·ω_n)²`, `k_p = m·(r_P·ω_n)²`, damping
//! ratios `ζ`, `ζ_T`, `ζ_N`, `ζ_P`, the plastic share `φ = k_pl/(k_el + k_pl)`, lengths over
//! the mean wavelength `λ̄`, the normal adhesion over the load per asperity `F_load/N` and the
//! junction strength `a_T` over the elastic part of an asperity's normal force.
//!
//! Decisions where the paper is silent (MODELS §3.4, documented in the README):
//! * The plastic element of the normal spring creeps below its limit with a time constant
//!   `τ_i` spread log-uniformly over `[τ_min, τ_max]` across the asperities: under a constant
//!   load the body keeps approaching the profile about as `ln t`.
//! * A junction's strength grows with its asperity's compression `e_N` (its contact area, as
//!   for a flattened sphere `A = πR·w`): `f_T,i = a_T·k_el,N·e_N`. As the plastic elements
//!   creep, the load passes to the elastic ones, the asperities are squeezed further and the
//!   junctions grow at constant load — normal creep and the dwell-time growth of static
//!   friction have one cause (the Bowden–Tabor and Dieterich–Kilgore picture).
//! * A junction also ages (Dieterich's aging law, per asperity): at rest its age is the time in
//!   contact, while sliding the time to slip its own size, `d_c/|ẋ_i|`; its strength grows as
//!   `b·ln(1 + θ/θ₀)`. Sliding faster means younger, weaker junctions: the Stribeck fall; the
//!   dampers add a viscous rise, and above about 1 m/s the asperities cannot follow the profile
//!   and fly over it. Creep alone gives no such fall: an asperity that stays in contact while
//!   sliding has its mean load relaxed whatever the speed.
//! * Tangential adhesion acts along the mean plane (horizontal): sticking is exact
//!   (`ẋ_i = 0`, the holding force read from the other forces) and does no work; along the
//!   local tangent it would differ by O(h′²).
//! * Contact and adhesion forces are gradients of `½k_p·d²` and `f_N·g` (so not unit
//!   normals): the energy account closes exactly without damping and slip.
//! * Stick and slip of each asperity, the Maxwell-slip limits and contact changes are decided
//!   after each step (a time-stepping scheme inside the generic driver; use fixed-step RK4 with
//!   `Δt ≤ 0.5/ω` of the fastest asperity motion, shown beside the sliders).

mod model;
pub mod population;
pub mod profile;

pub use model::AsperityModel;
pub use population::{HeightDistribution, Population};
pub use profile::Profile;

use serde::{Deserialize, Serialize};

use super::friction_rig::{Programme as RigProgramme, RigTest, SlideSpeeds};
use super::spring_slider::{Programme as LoadPointProgramme, Schedule};
use super::{
    Anchor, Built, ContactInfo, Derived, Dof, Layout, Link, LinkKind, Surface, SystemKind,
};
use crate::laws::{LawConfig, NoiseParams};
use crate::params::ExtraField;

/// Equation of motion shown in the window.
pub const EQUATION: &str = "M·ẍ_m = K·(x_lp − x_m) + C·(ẋ_lp − ẋ_m) − Σ S_T,i,  \
M·ÿ_m = −F_load − Σ S_N,i,  m·ẍ_i = S_T,i + P_x,i + D_x,i + A_i,  m·ÿ_i = S_N,i + P_y,i + D_y,i  \
(elasto-plastic asperity springs that creep, contact P, Dugdale pull D, junction adhesion A, \
a random profile)";

/// How the body is moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Drive {
    /// Pulled through the drive spring by a load point following its programme (steady,
    /// velocity steps, slide–hold–slide).
    #[default]
    Spring,
    /// Moved by a characterisation rig: the sliding motion imposed by the test (Stribeck,
    /// frictional lag, pre-sliding, slides); the body still settles freely under the load. The
    /// normal-creep test holds it still sideways while the load comes on at the start (rising
    /// over `t_r` as a half cosine, so the body does not bounce and reverse the plastic
    /// elements) and reads the normal approach against the log of time.
    Rig,
}

impl ExtraField for Drive {
    fn choices() -> &'static [&'static str] {
        &["Spring", "Rig"]
    }
}

crate::param_struct! {
    /// Asperity-model parameters (defaults: a 16 Hz rig pulling a body on 100 asperities
    /// slowly enough to stick and slip).
    pub struct AsperityParams {
        /// Mass of the upper body.
        mass_kg: "mass" = 1.0, "Body mass", "M", "kg", [1e-3, 1e3], Log;
        /// Stiffness of the drive spring (sets ω_n = √(K/M)).
        drive_stiffness_n_per_m: "drive_stiffness" = 1e4, "Drive spring stiffness", "K", "N/m", [1e-2, 1e9], Log;
        /// Damping ratio of the drive spring on the body.
        drive_damping_ratio: "drive_damping" = 0.05, "Drive damping ratio", "ζ", "", [0.0, 2.0], Linear;
        /// Normal load on the body.
        load_n: "load" = 10.0, "Normal load", "F_load", "N", [1e-6, 1e6], Log;
        /// Time the load point waits before it starts its programme (the contact ages at rest).
        wait_s: "wait" = 0.0, "Wait before pulling", "t_w", "s", [0.0, 1e6], Linear;
        /// Speed of the load point (the first speed of velocity steps).
        speed_mps: "speed" = 1e-3, "Load-point speed", "v₁", "m/s", [1e-9, 10.0], Log;
        /// Second speed of the velocity-step programme.
        step_speed_mps: "step_speed" = 1e-2, "Step speed (velocity steps)", "v₂", "m/s", [1e-9, 10.0], Log;
        /// Time between velocity steps.
        step_interval_s: "step_interval" = 0.5, "Step interval (velocity steps)", "t_s", "s", [1e-4, 1e6], Log;
        /// Sliding time before each hold.
        slide_s: "slide_time" = 0.3, "Slide before each hold", "t_slide", "s", [1e-4, 1e6], Log;
        /// Length of the first hold.
        hold_s: "hold_time" = 0.03, "First hold", "t_h", "s", [1e-4, 1e6], Log;
        /// Each hold is this many times longer than the one before.
        hold_growth: "hold_growth" = 3.162_277_660_168_379_5, "Hold growth", "g", "", [1.0, 100.0], Log;
        /// Time over which the normal-creep test puts the load on (a half-cosine rise).
        load_rise_s: "load_rise" = 0.05, "Load rise time (normal creep)", "t_r", "s", [0.0, 1e4], Linear;
        /// Number of asperities.
        asperities: "asperities" = 100.0, "Asperities", "N", "", [1.0, 5000.0], Log, integer, restart;
        /// Mass of all asperities over the body's mass.
        mass_ratio: "mass_ratio" = 0.1, "Asperity mass / body mass", "μ_m", "", [1e-4, 10.0], Log;
        /// Natural frequency of an asperity's tangential spring over ω_n.
        tangential_ratio: "tangential_ratio" = 30.0, "Tangential frequency ratio", "ω_T/ω_n", "", [0.1, 1e4], Log;
        /// Natural frequency of an asperity's normal spring over ω_n.
        normal_ratio: "normal_ratio" = 30.0, "Normal frequency ratio", "ω_N/ω_n", "", [0.1, 1e4], Log;
        /// Natural frequency of an asperity on the contact stiffness over ω_n.
        contact_ratio: "contact_ratio" = 300.0, "Contact frequency ratio", "ω_P/ω_n", "", [0.1, 1e5], Log;
        /// Damping ratio of the asperities' tangential springs.
        tangential_damping: "tangential_damping" = 0.1, "Tangential damping ratio", "ζ_T", "", [0.0, 2.0], Linear;
        /// Damping ratio of the asperities' normal springs.
        normal_damping: "normal_damping" = 0.1, "Normal damping ratio", "ζ_N", "", [0.0, 2.0], Linear;
        /// Damping ratio of the contacts.
        contact_damping: "contact_damping" = 0.1, "Contact damping ratio", "ζ_P", "", [0.0, 2.0], Linear;
        /// Share of each asperity spring's stiffness in its elasto-plastic element.
        plastic_share: "plastic_share" = 0.3, "Plastic share of the asperity springs", "φ", "", [0.0, 0.95], Linear;
        /// Slip limit of the tangential elasto-plastic elements, over λ̄.
        tangential_limit: "tangential_limit" = 0.01, "Tangential slip limit / λ̄", "Δ_T/λ̄", "", [1e-6, 10.0], Log;
        /// Slip limit of the normal elasto-plastic elements, over λ̄.
        normal_limit: "normal_limit" = 0.2, "Normal slip limit / λ̄", "Δ_N/λ̄", "", [1e-6, 10.0], Log;
        /// Shortest creep time of the normal plastic elements.
        creep_time_min_s: "creep_time_min" = 0.01, "Shortest creep time", "τ_min", "s", [1e-6, 1e6], Log;
        /// Longest creep time of the normal plastic elements.
        creep_time_max_s: "creep_time_max" = 10.0, "Longest creep time", "τ_max", "s", [1e-6, 1e8], Log;
        /// Strength of a touching asperity's junction over the elastic part of its normal force.
        tangential_adhesion: "tangential_adhesion" = 0.4, "Junction strength / elastic normal force", "a_T", "", [0.0, 100.0], Linear;
        /// How much a junction strengthens per e-fold of its age (Dieterich's aging).
        aging: "aging" = 0.05, "Junction aging per e-fold of age", "b", "", [0.0, 10.0], Linear;
        /// Age at which a junction starts to strengthen.
        aging_time_s: "aging_time" = 1e-4, "Junction aging onset", "θ₀", "s", [1e-9, 1e6], Log;
        /// Slip that renews a junction, over λ̄.
        junction_size: "junction_size" = 0.002, "Junction renewal slip / λ̄", "d_c/λ̄", "", [1e-8, 10.0], Log;
        /// Normal (Dugdale) adhesion pull of one asperity over F_load/N.
        normal_adhesion: "normal_adhesion" = 0.1, "Normal adhesion × N/F_load", "f_N·N/F_load", "", [0.0, 100.0], Linear;
        /// Reach of the normal adhesion over λ̄.
        adhesion_range: "adhesion_range" = 0.01, "Adhesion range / λ̄", "g_a/λ̄", "", [0.0, 10.0], Linear;
        /// Mean wavelength of the profile's bumps.
        wavelength_m: "wavelength" = 5e-4, "Mean wavelength of the profile", "λ̄", "m", [1e-9, 1.0], Log;
        /// Spread (standard deviation) of the asperity heights, over λ̄.
        height_spread: "height_spread" = 0.2, "Height spread / λ̄", "σ_s/λ̄", "", [0.0, 100.0], Linear;
        /// Amplitude of the profile's bumps over the height spread.
        profile_amplitude: "profile_amplitude" = 0.5, "Profile amplitude / σ_s", "A_p/σ_s", "", [0.0, 100.0], Linear;
        /// Slowest speed of the Stribeck test.
        speed_min_mps: "speed_min" = 1e-5, "Slowest speed (Stribeck)", "v_min", "m/s", [1e-9, 1.0], Log;
        /// Fastest speed of the Stribeck test.
        speed_max_mps: "speed_max" = 0.1, "Fastest speed (Stribeck)", "v_max", "m/s", [1e-8, 10.0], Log;
        /// Speeds per direction of the Stribeck test, log-spaced.
        speeds: "speeds" = 5.0, "Speeds per direction (Stribeck)", "n_v", "", [2.0, 40.0], Linear, integer;
        /// Time at each speed of the Stribeck test (the second half is averaged).
        level_s: "level_time" = 1.0, "Time at each speed (Stribeck)", "t_v", "s", [1e-4, 1e5], Log;
        /// Mean speed of the frictional-lag test.
        mean_speed_mps: "mean_speed" = 1e-2, "Mean speed (lag)", "v₀", "m/s", [-10.0, 10.0], Linear;
        /// Speed amplitude of the frictional-lag test.
        speed_amplitude_mps: "speed_amplitude" = 8e-3, "Speed amplitude (lag)", "v₁", "m/s", [0.0, 10.0], Linear;
        /// First frequency of the frictional-lag test; frequency of the pre-sliding test.
        frequency_hz: "frequency" = 1.0, "Frequency (lag: the first)", "f", "Hz", [1e-4, 1e4], Log;
        /// Each frictional-lag frequency is this many times the one before.
        frequency_growth: "frequency_growth" = 10.0, "Frequency step (lag)", "g_f", "", [1.0, 100.0], Log;
        /// Number of frictional-lag frequencies.
        frequencies: "frequencies" = 2.0, "Frequencies (lag)", "n_f", "", [1.0, 8.0], Linear, integer;
        /// Cycles at each frequency (frictional lag) or in all (pre-sliding).
        cycles: "cycles" = 3.0, "Cycles (lag, pre-sliding)", "n_c", "", [1.0, 50.0], Linear, integer;
        /// Displacement amplitude of the pre-sliding test.
        amplitude_m: "amplitude" = 5e-5, "Displacement amplitude (pre-sliding)", "A", "m", [1e-10, 1e-2], Log;
        /// Relative amplitude of the third harmonic (nested reversals) of the pre-sliding test.
        harmonic_ratio: "harmonic_ratio" = 0.5, "Third-harmonic share (pre-sliding)", "b", "", [0.0, 1.0], Linear;
        /// Distance of each slide of the slides test.
        slide_distance_m: "slide_distance" = 1e-3, "Distance of each slide (slides)", "d", "m", [1e-9, 10.0], Log;
    }
    extra {
        /// How the body is moved: `Spring` or `Rig`.
        drive: "drive": Drive = Drive::Spring;
        /// What the load point does (drive `Spring`): `Steady`, `VelocitySteps`, `SlideHoldSlide`.
        programme: "programme": LoadPointProgramme = LoadPointProgramme::Steady;
        /// The rig's test (drive `Rig`): `Stribeck`, `FrictionalLag`, `PreSliding`, `Slides` or
        /// `NormalCreep`.
        test: "test": RigTest = RigTest::Stribeck;
        /// Speeds of the slides test [m/s].
        slide_speeds: "slide_speeds": SlideSpeeds = SlideSpeeds::default();
        /// Distribution of the asperity heights: `Gaussian`, `Exponential` or `LogNormal`.
        heights: "heights": HeightDistribution = HeightDistribution::Gaussian;
        /// Seed of the asperity heights, offsets and creep times and of the profile.
        seed: "seed": u64 = 1;
    }
    consistency = |p: &Self| {
        if p.drive == Drive::Rig && !p.test.is_kinematic() {
            return Some((
                "test".to_string(),
                "the asperity model runs the rig's imposed-motion tests (Stribeck, \
                 FrictionalLag, PreSliding, Slides, NormalCreep); a force ramp needs the body \
                 free, use drive: Spring"
                    .to_string(),
            ));
        }
        crate::params::not_above(
            ("creep_time_min", "τ_min", p.creep_time_min_s),
            ("creep_time_max", "τ_max", p.creep_time_max_s),
            "the creep times spread from the shortest to the longest",
        )
        .or_else(|| {
            crate::params::not_above(
                ("speed_min", "v_min", p.speed_min_mps),
                ("speed_max", "v_max", p.speed_max_mps),
                "the Stribeck test runs from the slowest speed to the fastest",
            )
        })
    };
}

/// Every per-asperity constant, derived from the groups [SI].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AsperityConstants {
    /// Mass of one asperity [kg].
    pub mass_kg: f64,
    /// Elastic and elasto-plastic tangential stiffness [N/m].
    pub k_el_t: f64,
    /// Elasto-plastic part of the tangential stiffness [N/m].
    pub k_pl_t: f64,
    /// Tangential damper [N·s/m].
    pub c_t: f64,
    /// Elastic part of the normal stiffness [N/m].
    pub k_el_n: f64,
    /// Elasto-plastic part of the normal stiffness [N/m].
    pub k_pl_n: f64,
    /// Normal damper [N·s/m].
    pub c_n: f64,
    /// Contact stiffness [N/m].
    pub k_p: f64,
    /// Contact damper [N·s/m].
    pub c_p: f64,
    /// Tangential and normal slip limits [m].
    pub limit_t_m: f64,
    /// Normal slip limit [m].
    pub limit_n_m: f64,
    /// Junction strength of a touching asperity per metre of its compression [N/m]:
    /// `f_T,i = a_T·k_el,N·max(e_N, 0)`.
    pub strength_n_per_m: f64,
    /// Normal adhesion pull [N].
    pub f_n_n: f64,
    /// Junction strengthening per e-fold of age `b`.
    pub aging: f64,
    /// Age at which a junction starts to strengthen `θ₀` [s].
    pub aging_time_s: f64,
    /// Slip that renews a junction `d_c` [m].
    pub junction_size_m: f64,
    /// Reach of the normal adhesion [m].
    pub gap_a_m: f64,
}

impl AsperityParams {
    /// Number of asperities.
    pub fn n_asperities(&self) -> usize {
        self.asperities.round().max(1.0) as usize
    }

    /// `ω_n = √(K/M)` [rad/s].
    pub fn omega_n_rad_per_s(&self) -> f64 {
        (self.drive_stiffness_n_per_m / self.mass_kg).sqrt()
    }

    /// Drive damper `C = 2ζ·√(K·M)` [N·s/m].
    pub fn drive_damping_ns_per_m(&self) -> f64 {
        2.0 * self.drive_damping_ratio * (self.drive_stiffness_n_per_m * self.mass_kg).sqrt()
    }

    /// Spread of the asperity heights `σ_s` [m].
    pub fn height_spread_m(&self) -> f64 {
        self.height_spread * self.wavelength_m
    }

    /// The constants of every asperity.
    pub fn constants(&self) -> AsperityConstants {
        let n = self.n_asperities() as f64;
        let wn = self.omega_n_rad_per_s();
        let m = self.mass_ratio * self.mass_kg / n;
        let stiff = |ratio: f64| m * (ratio * wn).powi(2);
        let damper = |zeta: f64, k: f64| 2.0 * zeta * (k * m).sqrt();
        let (kt, kn, kp) = (
            stiff(self.tangential_ratio),
            stiff(self.normal_ratio),
            stiff(self.contact_ratio),
        );
        let phi = self.plastic_share;
        let per_asperity = self.load_n / n;
        AsperityConstants {
            mass_kg: m,
            k_el_t: (1.0 - phi) * kt,
            k_pl_t: phi * kt,
            c_t: damper(self.tangential_damping, kt),
            k_el_n: (1.0 - phi) * kn,
            k_pl_n: phi * kn,
            c_n: damper(self.normal_damping, kn),
            k_p: kp,
            c_p: damper(self.contact_damping, kp),
            limit_t_m: self.tangential_limit * self.wavelength_m,
            limit_n_m: self.normal_limit * self.wavelength_m,
            strength_n_per_m: self.tangential_adhesion * (1.0 - phi) * kn,
            f_n_n: self.normal_adhesion * per_asperity,
            aging: self.aging,
            aging_time_s: self.aging_time_s,
            junction_size_m: self.junction_size * self.wavelength_m,
            gap_a_m: self.adhesion_range * self.wavelength_m,
        }
    }

    /// Whether the rig runs the normal-creep test.
    pub fn is_creep_test(&self) -> bool {
        self.drive == Drive::Rig && self.test == RigTest::NormalCreep
    }

    /// The normal load at `t` [N]: the normal-creep test's rise, else constant.
    pub fn load_at_n(&self, t: f64) -> f64 {
        if !self.is_creep_test() || t >= self.load_rise_s {
            return self.load_n;
        }
        if t <= 0.0 {
            return 0.0;
        }
        self.load_n * 0.5 * (1.0 - (std::f64::consts::PI * t / self.load_rise_s).cos())
    }

    /// The load point's schedule (drive `Spring`).
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

    /// The rig's test with its numbers (drive `Rig`).
    pub fn rig_programme(&self) -> RigProgramme {
        let count = |x: f64| x.round().max(1.0) as usize;
        let defaults = super::FrictionRigParams::default().programme();
        RigProgramme {
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
            slide_speeds_mps: std::array::from_fn(|k| {
                self.slide_speeds.0.get(k).copied().unwrap_or(1e-3)
            }),
            slides: self
                .slide_speeds
                .0
                .len()
                .clamp(1, super::friction_rig::MAX_SLIDES),
            slide_distance_m: self.slide_distance_m,
            ..defaults
        }
    }

    /// The largest step fixed-step RK4 should take: `0.5/ω` of the fastest asperity motion
    /// (RK4 is stable to 2.8/ω; at 0.5/ω it keeps the phase of that motion to 1e-3 per cycle),
    /// and no more than the shortest creep time.
    pub fn suggested_step_s(&self) -> f64 {
        let c = self.constants();
        let k = c.k_p + c.k_el_n + c.k_pl_n + c.k_el_t + c.k_pl_t;
        (0.5 / (k / c.mass_kg).sqrt()).min(self.creep_time_min_s)
    }
}

impl SystemKind for AsperityParams {
    const NAME: &'static str = "Asperity-based friction model";
    const EQUATION: &'static str = EQUATION;

    /// The friction is the model's own (asperities, adhesion, profile): no law is chosen.
    fn n_contacts(&self) -> usize {
        0
    }

    fn nominal_normal_load_n(&self, _contact: usize) -> Option<f64> {
        Some(self.load_n)
    }

    fn layout(&self) -> Layout {
        let dof = |name: &str, symbol: &str| Dof {
            name: name.into(),
            symbol: symbol.into(),
            unit: "m".into(),
            mass: self.mass_kg,
        };
        let spring = self.drive == Drive::Spring;
        Layout {
            scene: None,
            dofs: vec![
                dof("body (sliding)", "x_m"),
                dof("body (normal approach)", "y_m"),
            ],
            contacts: vec![ContactInfo {
                name: "asperities on the profile".into(),
                dof: 0,
                surface: Surface::Ground,
            }],
            links: if spring {
                vec![Link {
                    kind: LinkKind::SpringDamper,
                    a: Anchor::Driver,
                    b: Anchor::Dof(0),
                    label: "K".into(),
                }]
            } else {
                Vec::new()
            },
            driver_speed_mps: spring.then_some(self.speed_mps),
            substrate: None,
        }
    }

    fn forcing_period_s(&self) -> Option<f64> {
        match self.drive {
            Drive::Spring => self.schedule().period_s(),
            Drive::Rig => {
                (self.test == RigTest::PreSliding).then(|| 1.0 / self.frequency_hz)
            }
        }
    }

    fn derived(&self) -> Vec<Derived> {
        let c = self.constants();
        let wn = self.omega_n_rad_per_s();
        vec![
            Derived {
                label: "f_n",
                value: wn / std::f64::consts::TAU,
                unit: "Hz",
            },
            Derived {
                label: "asperity mass m",
                value: c.mass_kg,
                unit: "kg",
            },
            Derived {
                label: "contact stiffness k_p",
                value: c.k_p,
                unit: "N/m",
            },
            Derived {
                label: "RK4 step ≤",
                value: self.suggested_step_s(),
                unit: "s",
            },
            Derived {
                label: "junction strength a_T·k_el,N",
                value: c.strength_n_per_m,
                unit: "N/m",
            },
        ]
    }

    /// Contacts, sticking and plastic slip of the asperities are decided between steps (a
    /// time-stepping scheme), so the flow has no tangent equations to follow.
    fn tangent_refusal(&self) -> Option<&'static str> {
        Some(
            "the asperity model decides each asperity's contact, sticking and plastic slip \
             between time steps, so its motion has no tangent equations: Lyapunov exponents and \
             Floquet multipliers are not computed for it — read its time traces, spectra, \
             Poincaré points, sweeps and rig tests instead",
        )
    }

    fn characterisation(&self) -> Option<RigProgramme> {
        (self.drive == Drive::Rig).then(|| self.rig_programme())
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let model = AsperityModel::new(self.clone());
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}
