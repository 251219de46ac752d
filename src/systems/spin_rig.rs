//! A rig for the sliding–spinning contact alone (MODELS §2.11): a ball pressed on a flat at a
//! constant load slides at a set speed while its spin about the normal is swept, so the
//! friction force can be read against the ratio of spinning to sliding. Beside the Padé law it
//! reports the exact model (Coulomb traction integrated over the Hertz pressure,
//! [`integral`](crate::laws::sliding_spinning::integral)) at the same ratio.
//!
//! ```text
//! v_s = v·x̂ (constant),  ω_s(t) = ω_lo·(ω_hi/ω_lo)^(frac(t/T))     (a log sweep, repeated)
//! T = −μN·v_s/√(v² + b_T²a²ω_s² + ε²),  a = (3NR/4E*)^⅓
//! ```
//! The state is the ball's spin angle `θ` (`θ̇ = ω_s`): the rig has no dynamics of its own.

use nalgebra::Vector3;

use super::{
    Built, ContactInfo, ConfigOf, Derived, Dof, Layout, Restart, Scene, ScenePart, ScenePoint,
    Surface, SystemKind, SystemSpec,
};
use crate::integrate::{Column, Model, Role};
use crate::laws::sliding_spinning::integral::{force_ratio_to, pade_ratio};
use crate::laws::sliding_spinning::{PadeSpinFriction, hertz_radius_m};
use crate::laws::{LawConfig, NoiseParams};

/// Equation shown in the window.
pub const EQUATION: &str =
    "T = −μN v_s/√(v² + b_T²a²ω_s² + ε²),  ω_s = ω_lo (ω_hi/ω_lo)^frac(t/T),  a = (3NR/4E*)^⅓";

crate::param_struct! {
    /// Parameters of the sliding–spinning rig (defaults: the 3-D pendulum's contact at 20 N).
    pub struct SpinRigParams {
        /// Normal load pressing the ball on the flat.
        load: "load" = 20.0, "Normal load", "N", "N", [1e-3, 1e4], Log;
        /// Radius of the ball.
        ball_radius: "ball_radius" = 0.025, "Ball radius", "R", "m", [1e-4, 1.0], Log;
        /// Effective modulus of the pair, 1/E* = (1 − ν₁²)/E₁ + (1 − ν₂²)/E₂.
        modulus: "modulus" = 5.494_505_494_505_495e6, "Effective modulus", "E*", "Pa", [1e5, 1e12], Log;
        /// Friction coefficient.
        mu: "mu" = 0.5, "Friction coefficient", "μ", "", [0.0, 2.0], Linear;
        /// Padé coefficient of the coupling.
        pade_b: "pade_b" = 0.681, "Padé coefficient", "b_T", "", [0.0, 3.0], Linear;
        /// Speed below which the friction is smoothed.
        friction_eps: "friction_eps" = 1e-6, "Friction smoothing speed", "ε", "m/s", [0.0, 0.1], Linear;
        /// Sliding speed of the ball's centre.
        slide_speed: "slide_speed" = 0.01, "Sliding speed", "v", "m/s", [1e-6, 10.0], Log;
        /// Spin at the start of each sweep.
        spin_low: "spin_low" = 0.1, "Spin at the start", "ω_lo", "rad/s", [1e-3, 1e5], Log;
        /// Spin at the end of each sweep.
        spin_high: "spin_high" = 1e4, "Spin at the end", "ω_hi", "rad/s", [1e-3, 1e6], Log;
        /// Duration of one sweep.
        sweep_time: "sweep_time" = 10.0, "Sweep duration", "T", "s", [1e-3, 1e4], Log;
    }
}

impl SpinRigParams {
    /// The spin at `t` [rad/s].
    pub fn spin(&self, t: f64) -> f64 {
        let phase = (t / self.sweep_time).rem_euclid(1.0);
        self.spin_low * (self.spin_high / self.spin_low).powf(phase)
    }

    /// Hertz contact radius [m].
    pub fn contact_radius_m(&self) -> f64 {
        hertz_radius_m(self.load, self.ball_radius, self.modulus)
    }

    fn law(&self) -> PadeSpinFriction {
        PadeSpinFriction {
            mu: self.mu,
            b_t: self.pade_b,
            eps_mps: self.friction_eps,
        }
    }
}

impl SystemKind for SpinRigParams {
    const NAME: &'static str = "Sliding–spinning contact (rig)";
    const EQUATION: &'static str = EQUATION;

    /// The friction is the Padé law: no law from the preset.
    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        let r = self.ball_radius;
        Layout {
            dofs: vec![Dof {
                name: "ball (spin angle)".into(),
                symbol: "θ".into(),
                unit: "rad".into(),
                mass: 0.0, // the rig prescribes its motion: no inertia (NaN would break Layout equality)
            }],
            contacts: vec![ContactInfo {
                name: "ball on the flat".into(),
                dof: 0,
                surface: Surface::Ground,
            }],
            links: Vec::new(),
            driver_speed_mps: None,
            substrate: None,
            scene: Some(Scene {
                parts: vec![
                    ScenePart::Disc {
                        centre: [0.0; 3],
                        normal: [0.0, 0.0, 1.0],
                        radius_m: 4.0 * r,
                        spin_rad_s: 0.0,
                    },
                    ScenePart::Ball {
                        centre: ScenePoint::Fixed([0.0, 0.0, r]),
                        radius_m: r,
                    },
                    ScenePart::Arrow {
                        from: ScenePoint::Fixed([0.0; 3]),
                        to: ScenePoint::Moving(0),
                    },
                ],
                centre_m: [0.0, 0.0, r],
                extent_m: 4.0 * r,
                arrow_meaning: "arrow: friction force, the ball's radius at μN".into(),
            }),
        }
    }

    fn forcing_period_s(&self) -> Option<f64> {
        Some(self.sweep_time)
    }

    fn derived(&self) -> Vec<Derived> {
        vec![Derived {
            label: "contact radius a",
            value: self.contact_radius_m(),
            unit: "m",
        }]
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        Built::Flow(Box::new(SpinRig(self.clone())), vec![0.0, 0.0])
    }
}

/// The rig as a [`Model`]: state `[θ, W_friction]`. The drive holds the motion, so it puts in
/// exactly the work friction takes out: `W_in = −W_friction = −∫ T·v dt`.
#[derive(Clone, Debug)]
pub struct SpinRig(pub SpinRigParams);

impl Model for SpinRig {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        2
    }

    fn n_quadratures(&self) -> usize {
        1
    }

    fn state_names(&self) -> Vec<String> {
        vec!["theta".into(), "w_friction".into()]
    }

    fn state_scales(&self, scales: &mut [f64]) {
        scales.fill(1.0);
    }

    fn is_autonomous(&self) -> bool {
        false
    }

    fn time_scale_s(&self) -> f64 {
        self.0.sweep_time / 100.0
    }

    fn max_step_s(&self, _t_s: f64) -> f64 {
        self.0.sweep_time / 200.0
    }

    fn prefers_implicit(&self) -> bool {
        false
    }

    fn rhs(&self, t: f64, _y: &[f64], dy: &mut [f64]) {
        let p = &self.0;
        let spin = p.spin(t);
        let v = Vector3::new(p.slide_speed, 0.0, 0.0);
        dy[0] = spin;
        dy[1] = p.law().force(&v, spin, p.load, p.contact_radius_m()).dot(&v);
    }

    fn columns(&self) -> Vec<Column> {
        vec![
            Column::new("theta", "rad").role(Role::Position(0)).symbol("θ"),
            Column::new("spin", "rad/s").role(Role::Velocity(0)).symbol("ω_s"),
            Column::new("v_slide", "m/s")
                .role(Role::SlipVelocity(0))
                .symbol("v"),
            Column::new("f_friction", "N")
                .role(Role::FrictionForce(0))
                .symbol("|T|"),
            Column::new("normal", "N").role(Role::NormalLoad(0)).symbol("N"),
            Column::new("stick", "").role(Role::Stick(0)).symbol("stick"),
            Column::new("spin_slide_ratio", "")
                .role(Role::SpinSlideRatio(0))
                .symbol("aω_s/v"),
            Column::new("ratio_pade", "").symbol("|T|/μN (Padé)"),
            Column::new("ratio_exact", "").symbol("|T|/μN (exact)"),
            Column::new("ratio_error", "").symbol("Padé − exact"),
            Column::new("arrow_x", "m").role(Role::ScenePoint { point: 0, axis: 0 }),
            Column::new("arrow_y", "m").role(Role::ScenePoint { point: 0, axis: 1 }),
            Column::new("arrow_z", "m").role(Role::ScenePoint { point: 0, axis: 2 }),
            Column::new("e_kin", "J")
                .role(Role::KineticEnergy)
                .symbol("E_kin"),
            Column::new("e_stored", "J")
                .role(Role::StoredEnergy)
                .symbol("E_stored"),
            Column::new("w_friction", "J")
                .role(Role::FrictionWork(Some(0)))
                .symbol("W_friction"),
            Column::new("w_input", "J")
                .role(Role::InputWork)
                .symbol("W_drive"),
            Column::new("w_damping", "J")
                .role(Role::DampingWork)
                .symbol("W_damping"),
            Column::new("energy_error", "J")
                .role(Role::EnergyError)
                .symbol("ΔE"),
        ]
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let p = &self.0;
        let spin = p.spin(t);
        let a = p.contact_radius_m();
        let v = Vector3::new(p.slide_speed, 0.0, 0.0);
        let force = p.law().force(&v, spin, p.load, a);
        let scale = p.mu * p.load;
        let ratio = if scale > 0.0 { force.norm() / scale } else { 0.0 };
        let xi = p.slide_speed / (a * spin.abs());
        let exact = force_ratio_to(xi, 1e-10);
        let arrow = force * (p.ball_radius / scale.max(1e-300));
        row.copy_from_slice(&[
            y[0],
            spin,
            p.slide_speed,
            force.norm(),
            p.load,
            0.0,
            a * spin.abs() / p.slide_speed,
            ratio,
            exact,
            pade_ratio(xi, p.pade_b) - exact,
            arrow.x,
            arrow.y,
            arrow.z,
            0.0,
            0.0,
            y[1],
            -y[1],
            0.0,
            0.0,
        ]);
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = SpinRigParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        self.0 = params.clone();
        Ok(())
    }
}
