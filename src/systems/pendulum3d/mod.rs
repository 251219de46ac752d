//! The 3-D double physical pendulum with Cardan joints hitting a spinning obstacle (MODELS §3.6;
//! Kudra & Awrejcewicz): two links on two-axis (Cardan) joints, a base turned by a drive about
//! the vertical, and a ball on the second link that strikes a spinning flat obstacle, where a
//! Hertz contact with coupled sliding and spinning friction acts (the Padé law,
//! [`sliding_spinning`](crate::laws::sliding_spinning)).
//!
//! ```text
//! q = (φ₁, φ₂, φ₃, φ₄);   M(q, t)·q̈ = Q_gravity + Q_joints + Q_contact − h(q, q̇, t)
//! M = Σ_k m_k J_vkᵀJ_vk + J_ωkᵀ Ī_k J_ωk,   h = Σ_k m_k J_vkᵀ a⁰_k + J_ωkᵀ(Ī_k α⁰_k + ω_k × Ī_k ω_k)
//! drive: ψ̇ = ω₀ + q_d·cos(Ωt);  joints: Q_j = −M_b·φ̇_j/√(φ̇_j² + ε_b²)
//! contact: δ = R_b − n·(c − p_ob),  N = max(0, k_H·δ^1.5·(1 + b·δ̇)),  k_H = (4/3)E*√R_b
//!          T = −μN·v_s/√(|v_s|² + b_T²a²ω_s² + ε²),   Q_contact = J_pᵀ(N·n + T)
//! ```
//!
//! **How the equations are derived** (decided here; the seed gives parameters, not the
//! kinematics): Kane's form of Newton–Euler, assembled numerically at every evaluation from
//! exact recursive kinematics ([`kinematics`]): joint axes `u_j` in the world frame, partial
//! velocities `u_j × (p − o_j)`, and the accelerations at `q̈ = 0` (Coriolis, centripetal and
//! the drive's `ψ̈`). No symbolic expansion, no differentiation; checked by energy and angular
//! momentum conservation, the linearised eigenfrequencies and the large-swing period of the
//! locked pendulum (tests).
//!
//! **Other decisions** (all [PROPOSED] in MODELS): frames z up, links hanging along −z; the
//! Cardan axes are massless; inertias are about the centres of mass on the body axes; the
//! obstacle is an unbounded plane with normal `n = −x̂` through `p_ob`, spinning about `n`
//! (drawn as a disc); the drive amplitude `q_d` is an angular-velocity amplitude; the Hertz
//! dashpot `b` multiplies the elastic force (Hunt–Crossley form), clipped at zero so the contact
//! never pulls. The ball's spin friction torque is neglected, as in the seed.

mod kinematics;
mod model;

pub use kinematics::{Base, Geometry, Kinematics};
pub use model::{ContactState, HOLD_RATE, Pendulum3d, small_swing_periods};

use serde::{Deserialize, Serialize};

use super::{
    Built, ContactInfo, Derived, Dof, Layout, Scene, ScenePart, ScenePoint, Surface, SystemKind,
};
use crate::laws::sliding_spinning::{effective_modulus_pa, hertz_stiffness};
use crate::laws::{LawConfig, NoiseParams};
use crate::params::ExtraField;

/// Equation shown in the window.
pub const EQUATION: &str = "M(q)q̈ = Q_g + Q_joints + Q_contact − h(q, q̇, t),  ψ̇ = ω₀ + q_d cos Ωt,  \
N = k_H δ^1.5 (1 + bδ̇),  T = −μN v_s/√(v_s² + b_T²a²ω_s² + ε²)";

/// Whether the spinning obstacle is there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Obstacle {
    /// The obstacle stands where its parameters put it.
    #[default]
    Present,
    /// No obstacle: the pendulum swings freely.
    Removed,
}

impl ExtraField for Obstacle {
    fn choices() -> &'static [&'static str] {
        &["Present", "Removed"]
    }
}

/// What the drive turns (the seed gives the drive's law, not its axis; both readings here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Drive {
    /// The base twists about the vertical through joint 1; all four Cardan angles are free.
    /// The twist reaches the links only through the joints' friction and the links' own
    /// inertia about the vertical.
    #[default]
    Twist,
    /// A motor turns joint 1's outer axis, the horizontal `ŷ` facing the obstacle, in place of
    /// φ₂ (held at its initial value): link 1 is swung towards the obstacle and back, link 2
    /// and the inner axis φ₁ stay free.
    Swing,
}

impl ExtraField for Drive {
    fn choices() -> &'static [&'static str] {
        &["Twist", "Swing"]
    }
}

impl Drive {
    /// The world axis the drive turns about.
    pub fn axis(self) -> nalgebra::Vector3<f64> {
        match self {
            Self::Twist => nalgebra::Vector3::z(),
            Self::Swing => nalgebra::Vector3::y(),
        }
    }
}

/// Whether the second Cardan joint moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SecondJoint {
    /// Both axes of joint 2 turn.
    #[default]
    Free,
    /// Joint 2 is locked at its initial angles: one rigid physical pendulum.
    Locked,
}

impl ExtraField for SecondJoint {
    fn choices() -> &'static [&'static str] {
        &["Free", "Locked"]
    }
}

crate::param_struct! {
    /// Parameters of the 3-D pendulum (defaults: the seed's pendulum and contact, MODELS §3.6).
    pub struct Pendulum3dParams {
        /// Mass of link 1 (with its Cardan axes).
        mass1: "mass1" = 4.59, "Mass of link 1", "m₁", "kg", [0.01, 100.0], Log;
        /// Mass of link 2 (with the ball).
        mass2: "mass2" = 2.41, "Mass of link 2", "m₂", "kg", [0.01, 100.0], Log;
        /// Moment of inertia of link 1 about its x axis, through its centre of mass.
        inertia1_x: "inertia1_x" = 0.0315, "Inertia of link 1 about x", "I_x1", "kg·m²", [1e-5, 10.0], Log;
        /// Moment of inertia of link 1 about its y axis.
        inertia1_y: "inertia1_y" = 0.0315, "Inertia of link 1 about y", "I_y1", "kg·m²", [1e-5, 10.0], Log;
        /// Moment of inertia of link 1 about its own axis z.
        inertia1_z: "inertia1_z" = 0.0078, "Inertia of link 1 about its axis", "I_z1", "kg·m²", [1e-5, 10.0], Log;
        /// Moment of inertia of link 2 about its x axis, through its centre of mass.
        inertia2_x: "inertia2_x" = 0.0084, "Inertia of link 2 about x", "I_x2", "kg·m²", [1e-5, 10.0], Log;
        /// Moment of inertia of link 2 about its y axis.
        inertia2_y: "inertia2_y" = 0.0055, "Inertia of link 2 about y", "I_y2", "kg·m²", [1e-5, 10.0], Log;
        /// Moment of inertia of link 2 about its own axis z.
        inertia2_z: "inertia2_z" = 0.0038, "Inertia of link 2 about its axis", "I_z2", "kg·m²", [1e-5, 10.0], Log;
        /// Length of link 1 (joint 1 to joint 2).
        length1: "length1" = 0.228, "Length of link 1", "L₁", "m", [0.01, 2.0], Linear, restart;
        /// Distance from joint 2 to the ball's centre.
        length2: "length2" = 0.175, "Length of link 2 (to the ball)", "L₂", "m", [0.01, 2.0], Linear, restart;
        /// Distance from joint 1 to the centre of mass of link 1.
        com1: "com1" = 0.122, "Centre of mass of link 1", "e₁", "m", [0.0, 2.0], Linear;
        /// Distance from joint 2 to the centre of mass of link 2.
        com2: "com2" = 0.0586, "Centre of mass of link 2", "e₂", "m", [0.0, 2.0], Linear;
        /// Radius of the ball at the end of link 2.
        ball_radius: "ball_radius" = 0.025, "Ball radius", "R_b", "m", [0.001, 0.2], Log;
        /// Gravitational acceleration.
        gravity: "gravity" = 9.81, "Gravity", "g", "m/s²", [0.0, 30.0], Linear;
        /// Friction torque of each joint axis in sliding.
        joint_torque: "joint_torque" = 0.04, "Joint friction torque", "M_b", "N·m", [0.0, 2.0], Linear;
        /// Rate below which the joint friction is smoothed.
        joint_rate: "joint_rate" = 0.4, "Joint smoothing rate", "ε_b", "1/s", [1e-3, 10.0], Log;
        /// Mean rate of the base about the vertical.
        drive_mean: "drive_mean" = 0.0, "Base mean rate", "ω₀", "rad/s", [-20.0, 20.0], Linear, restart;
        /// Amplitude of the base's rate oscillation.
        drive_amplitude: "drive_amplitude" = 3.0, "Base rate amplitude", "q_d", "rad/s", [0.0, 20.0], Linear, restart;
        /// Angular frequency of the base's oscillation.
        drive_frequency: "drive_frequency" = 3.0, "Base angular frequency", "Ω", "rad/s", [0.0, 50.0], Linear, restart;
        /// Spin rate of the obstacle about its normal.
        obstacle_spin: "obstacle_spin" = 5.0, "Obstacle spin", "ω_ob", "rad/s", [-100.0, 100.0], Linear;
        /// x of the obstacle's centre (its face is the plane x = x_ob, facing −x).
        obstacle_x: "obstacle_x" = 0.20, "Obstacle position x", "x_ob", "m", [-2.0, 2.0], Linear;
        /// y of the obstacle's centre (its spin axis).
        obstacle_y: "obstacle_y" = 0.0, "Obstacle centre y", "y_ob", "m", [-2.0, 2.0], Linear;
        /// z of the obstacle's centre (its spin axis).
        obstacle_z: "obstacle_z" = -0.403, "Obstacle centre z", "z_ob", "m", [-2.0, 2.0], Linear;
        /// Young's modulus of the ball.
        youngs1: "youngs1" = 1e7, "Young's modulus of the ball", "E₁", "Pa", [1e5, 1e12], Log;
        /// Young's modulus of the obstacle.
        youngs2: "youngs2" = 1e7, "Young's modulus of the obstacle", "E₂", "Pa", [1e5, 1e12], Log;
        /// Poisson's ratio of the ball.
        poisson1: "poisson1" = 0.3, "Poisson's ratio of the ball", "ν₁", "", [0.0, 0.5], Linear;
        /// Poisson's ratio of the obstacle.
        poisson2: "poisson2" = 0.3, "Poisson's ratio of the obstacle", "ν₂", "", [0.0, 0.5], Linear;
        /// Contact damping: the normal force is k_H·δ^1.5·(1 + b·δ̇).
        contact_damping: "contact_damping" = 0.5, "Contact damping", "b", "s/m", [0.0, 100.0], Linear;
        /// Friction coefficient of the contact.
        mu: "mu" = 0.5, "Friction coefficient", "μ", "", [0.0, 2.0], Linear;
        /// Padé coefficient of the sliding–spinning coupling.
        pade_b: "pade_b" = 0.681, "Padé coefficient", "b_T", "", [0.0, 3.0], Linear;
        /// Speed below which the contact friction is smoothed.
        friction_eps: "friction_eps" = 1e-3, "Friction smoothing speed", "ε", "m/s", [1e-6, 0.1], Log;
        /// Initial φ₁ (link 1 about x).
        initial_phi1: "initial_phi1" = 0.0, "Initial φ₁", "φ₁(0)", "rad", [-3.2, 3.2], Linear, restart;
        /// Initial φ₂ (link 1 about y: the swing towards the obstacle is negative).
        initial_phi2: "initial_phi2" = 0.6, "Initial φ₂", "φ₂(0)", "rad", [-3.2, 3.2], Linear, restart;
        /// Initial φ₃ (link 2 about x).
        initial_phi3: "initial_phi3" = 0.0, "Initial φ₃", "φ₃(0)", "rad", [-3.2, 3.2], Linear, restart;
        /// Initial φ₄ (link 2 about y).
        initial_phi4: "initial_phi4" = 0.0, "Initial φ₄", "φ₄(0)", "rad", [-3.2, 3.2], Linear, restart;
        /// Initial rate of φ₁.
        initial_rate1: "initial_rate1" = 0.0, "Initial rate of φ₁", "φ̇₁(0)", "rad/s", [-50.0, 50.0], Linear, restart;
        /// Initial rate of φ₂.
        initial_rate2: "initial_rate2" = 0.0, "Initial rate of φ₂", "φ̇₂(0)", "rad/s", [-50.0, 50.0], Linear, restart;
        /// Initial rate of φ₃.
        initial_rate3: "initial_rate3" = 0.0, "Initial rate of φ₃", "φ̇₃(0)", "rad/s", [-50.0, 50.0], Linear, restart;
        /// Initial rate of φ₄.
        initial_rate4: "initial_rate4" = 0.0, "Initial rate of φ₄", "φ̇₄(0)", "rad/s", [-50.0, 50.0], Linear, restart;
    }
    extra {
        /// Whether the spinning obstacle is there.
        obstacle: "obstacle": Obstacle = Obstacle::Present;
        /// Whether joint 2 turns or is locked (one rigid pendulum).
        second_joint: "second_joint": SecondJoint = SecondJoint::Free;
        /// What the drive turns: the base about the vertical, or link 1 about joint 1's outer axis.
        drive: "drive": Drive = Drive::Twist;
    }
}

impl Pendulum3dParams {
    /// Lengths for the kinematics.
    pub fn geometry(&self) -> Geometry {
        Geometry {
            l1: self.length1,
            l2: self.length2,
            e1: self.com1,
            e2: self.com2,
        }
    }

    /// Effective modulus `E*` of the contact [Pa].
    pub fn effective_modulus_pa(&self) -> f64 {
        effective_modulus_pa(self.youngs1, self.poisson1, self.youngs2, self.poisson2)
    }

    /// Hertz stiffness `k_H` [N/m^1.5].
    pub fn hertz_stiffness(&self) -> f64 {
        hertz_stiffness(self.ball_radius, self.effective_modulus_pa())
    }

    /// The drive's motion at `t`: `ψ̇ = ω₀ + q_d·cos(Ωt)`, `ψ = ω₀t + (q_d/Ω)·sin(Ωt)`, so an
    /// oscillating drive swings symmetrically about its start.
    pub fn base(&self, t: f64) -> Base {
        let (w0, q, big) = (self.drive_mean, self.drive_amplitude, self.drive_frequency);
        if big > 0.0 {
            let (s, c) = (big * t).sin_cos();
            Base {
                axis: self.drive.axis(),
                angle: w0 * t + q / big * s,
                rate: w0 + q * c,
                accel: -q * big * s,
            }
        } else {
            Base {
                axis: self.drive.axis(),
                angle: w0 * t,
                rate: w0,
                accel: 0.0,
            }
        }
    }

    /// Whether the base moves at all.
    pub fn is_driven(&self) -> bool {
        self.drive_mean != 0.0 || (self.drive_amplitude != 0.0 && self.drive_frequency > 0.0)
    }

    /// The obstacle's centre `p_ob` [m].
    pub fn obstacle_centre(&self) -> [f64; 3] {
        [self.obstacle_x, self.obstacle_y, self.obstacle_z]
    }
}

/// Moving points of the scene, in column order.
pub(crate) mod points {
    /// Joint 2.
    pub const JOINT2: usize = 0;
    /// The ball's centre.
    pub const BALL: usize = 1;
    /// The end of the base's arm (shows the drive angle ψ).
    pub const ARM: usize = 2;
    /// The contact point.
    pub const CONTACT: usize = 3;
    /// Head of the contact-force arrow.
    pub const FORCE: usize = 4;
    /// How many.
    pub const COUNT: usize = 5;
}

/// Length of the contact-force arrow per newton [m/N].
pub const ARROW_M_PER_N: f64 = 2e-3;

impl SystemKind for Pendulum3dParams {
    const NAME: &'static str = "3-D double pendulum on a spinning obstacle";
    const EQUATION: &'static str = EQUATION;

    /// The contact's friction is the Padé law, part of the model: no law from the preset.
    fn n_contacts(&self) -> usize {
        0
    }

    fn layout(&self) -> Layout {
        let dof = |name: &str, symbol: &str, inertia: f64| Dof {
            name: name.into(),
            symbol: symbol.into(),
            unit: "rad".into(),
            mass: inertia,
        };
        let scene = {
            let moving = ScenePoint::Moving;
            let origin = ScenePoint::Fixed([0.0; 3]);
            let mut parts = vec![
                ScenePart::Rod {
                    a: ScenePoint::Fixed([0.0, 0.0, 0.06]),
                    b: origin,
                    width_m: 0.012,
                },
                ScenePart::Rod {
                    a: origin,
                    b: moving(points::ARM),
                    width_m: 0.008,
                },
                ScenePart::Rod {
                    a: origin,
                    b: moving(points::JOINT2),
                    width_m: 0.02,
                },
                ScenePart::Ball {
                    centre: origin,
                    radius_m: 0.012,
                },
                ScenePart::Rod {
                    a: moving(points::JOINT2),
                    b: moving(points::BALL),
                    width_m: 0.014,
                },
                ScenePart::Ball {
                    centre: moving(points::JOINT2),
                    radius_m: 0.01,
                },
                ScenePart::Ball {
                    centre: moving(points::BALL),
                    radius_m: self.ball_radius,
                },
            ];
            if self.obstacle == Obstacle::Present {
                parts.insert(
                    0,
                    ScenePart::Disc {
                        centre: self.obstacle_centre(),
                        normal: [-1.0, 0.0, 0.0],
                        radius_m: 0.12,
                        spin_rad_s: self.obstacle_spin,
                    },
                );
                parts.push(ScenePart::Arrow {
                    from: moving(points::CONTACT),
                    to: moving(points::FORCE),
                });
            }
            // About the middle of the hanging pendulum; holds the swing and the obstacle.
            let reach = self.length1 + self.length2 + self.ball_radius;
            let centre = [0.0, 0.0, -0.5 * reach];
            let obstacle = if self.obstacle == Obstacle::Present {
                let [x, y, z] = self.obstacle_centre();
                (x * x + y * y + (z - centre[2]).powi(2)).sqrt() + 0.12
            } else {
                0.0
            };
            Scene {
                parts,
                centre_m: centre,
                extent_m: (0.55 * reach).max(obstacle),
                arrow_meaning: format!(
                    "arrow: contact force, {} per newton",
                    crate::util::eng::format_si(ARROW_M_PER_N, "m", 2)
                ),
            }
        };
        Layout {
            dofs: vec![
                dof("link 1 about x", "φ₁", self.inertia1_x),
                dof("link 1 about y", "φ₂", self.inertia1_y),
                dof("link 2 about x", "φ₃", self.inertia2_x),
                dof("link 2 about y", "φ₄", self.inertia2_y),
            ],
            contacts: if self.obstacle == Obstacle::Present {
                vec![ContactInfo {
                    name: "ball on the spinning obstacle".into(),
                    dof: 3,
                    surface: Surface::Ground,
                }]
            } else {
                Vec::new()
            },
            links: Vec::new(),
            driver_speed_mps: None,
            substrate: None,
            scene: Some(scene),
        }
    }

    /// The base's oscillation, when the base does not also turn steadily.
    fn forcing_period_s(&self) -> Option<f64> {
        (self.drive_mean == 0.0 && self.drive_amplitude != 0.0 && self.drive_frequency > 0.0)
            .then(|| std::f64::consts::TAU / self.drive_frequency)
    }

    fn derived(&self) -> Vec<Derived> {
        let e = self.effective_modulus_pa();
        let k = self.hertz_stiffness();
        let mut out = vec![
            Derived {
                label: "E*",
                value: e,
                unit: "Pa",
            },
            Derived {
                label: "k_H",
                value: k,
                unit: "N/m^1.5",
            },
        ];
        let labels = ["small-swing period", "second swing period"];
        for (label, period) in labels.iter().zip(model::small_swing_periods(self)) {
            out.push(Derived {
                label,
                value: period,
                unit: "s",
            });
        }
        out
    }

    fn build(&self, _laws: &[LawConfig], _noise: Option<&NoiseParams>) -> Built {
        let model = Pendulum3d::new(self.clone());
        let y0 = model.initial_state();
        Built::Flow(Box::new(model), y0)
    }
}
