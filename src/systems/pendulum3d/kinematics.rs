//! Kinematics of the double pendulum with Cardan joints (MODELS §3.6), exact and recursive:
//! joint axes in the world frame, angular velocities, positions, velocities and the
//! accelerations at `q̈ = 0` (the drive's `ψ̈` included) from which the equations of motion are
//! assembled in Kane's form.
//!
//! ```text
//! joints: ψ about the base axis a (prescribed; ẑ or ŷ), φ₁ about R_a(ψ)x̂,
//!         φ₂ about R_a R_x(φ₁)ŷ (link 1);  φ₃ about R₁x̂, φ₄ about R₁R_x(φ₃)ŷ at O₂ (link 2)
//! R₁ = R_a(ψ)R_x(φ₁)R_y(φ₂),  R₂ = R₁R_x(φ₃)R_y(φ₄);  links hang along −z_k = −R_k ẑ
//! ω of a frame = Σ q̇_i u_i over the joints before it; u̇_i = ω_(frame u_i is fixed in) × u_i
//! ```

use nalgebra::{Matrix3, Vector3};

/// Rotation about x by `a`.
fn rot_x(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c)
}

/// Rotation about y by `a`.
fn rot_y(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c)
}

/// The lengths the kinematics needs [m].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Joint 1 to joint 2, `L₁`.
    pub l1: f64,
    /// Joint 2 to the ball's centre, `L₂`.
    pub l2: f64,
    /// Joint 1 to the centre of mass of link 1, `e₁`.
    pub e1: f64,
    /// Joint 2 to the centre of mass of link 2, `e₂`.
    pub e2: f64,
}

/// The prescribed base rotation at one instant: `ψ`, `ψ̇`, `ψ̈` about a fixed world axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Base {
    /// The fixed world axis the base turns about (unit vector).
    pub axis: Vector3<f64>,
    /// Angle [rad].
    pub angle: f64,
    /// Rate [rad/s].
    pub rate: f64,
    /// Acceleration [rad/s²].
    pub accel: f64,
}

impl Default for Base {
    /// At rest, about the vertical.
    fn default() -> Self {
        Self {
            axis: Vector3::z(),
            angle: 0.0,
            rate: 0.0,
            accel: 0.0,
        }
    }
}

/// Rotation by `angle` about the unit vector `axis` (Rodrigues).
fn rot_about(axis: &Vector3<f64>, angle: f64) -> Matrix3<f64> {
    nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(*axis), angle).into_inner()
}

/// Number of generalised coordinates (φ₁…φ₄).
pub const N: usize = 4;

/// Everything the equations of motion need at one state. Index 0 of the joint arrays is the
/// base `ψ`, 1…4 the Cardan angles.
#[derive(Clone, Debug)]
pub struct Kinematics {
    /// World axes of the five joints.
    pub axes: [Vector3<f64>; 5],
    /// Orientation of each link.
    pub rot: [Matrix3<f64>; 2],
    /// Angular velocity of each link.
    pub omega: [Vector3<f64>; 2],
    /// Angular acceleration of each link at `q̈ = 0`.
    pub alpha0: [Vector3<f64>; 2],
    /// Joint 2, `O₂`.
    pub joint2: Vector3<f64>,
    /// Velocity and acceleration at `q̈ = 0` of joint 2.
    pub joint2_vel: Vector3<f64>,
    joint2_acc0: Vector3<f64>,
    /// Centres of mass.
    pub com: [Vector3<f64>; 2],
    /// The ball's centre `c`.
    pub ball: Vector3<f64>,
}

impl Kinematics {
    /// The kinematics at angles `q`, rates `qd` and base motion `base`.
    pub fn new(g: &Geometry, base: Base, q: &[f64], qd: &[f64]) -> Self {
        let f0 = rot_about(&base.axis, base.angle);
        let fa = f0 * rot_x(q[0]);
        let r1 = fa * rot_y(q[1]);
        let fb = r1 * rot_x(q[2]);
        let r2 = fb * rot_y(q[3]);
        let axes = [
            base.axis,
            f0 * Vector3::x(),
            fa * Vector3::y(),
            r1 * Vector3::x(),
            fb * Vector3::y(),
        ];
        let rates = [base.rate, qd[0], qd[1], qd[2], qd[3]];
        // Angular velocity after each joint, and accelerations at q̈ = 0.
        let mut w = [Vector3::zeros(); 5];
        let mut a = [Vector3::zeros(); 5];
        let mut w_prev = Vector3::zeros();
        let mut a_prev = Vector3::zeros();
        for i in 0..5 {
            let turn = rates[i] * axes[i];
            w[i] = w_prev + turn;
            a[i] = a_prev + w_prev.cross(&turn);
            if i == 0 {
                a[i] += base.accel * axes[0];
            }
            (w_prev, a_prev) = (w[i], a[i]);
        }
        let (w1, w2, a1, a2) = (w[2], w[4], a[2], a[4]);
        let z1 = r1 * Vector3::z();
        let z2 = r2 * Vector3::z();
        let joint2 = -g.l1 * z1;
        let joint2_vel = w1.cross(&joint2);
        let joint2_acc0 = a1.cross(&joint2) + w1.cross(&w1.cross(&joint2));
        Self {
            axes,
            rot: [r1, r2],
            omega: [w1, w2],
            alpha0: [a1, a2],
            joint2,
            joint2_vel,
            joint2_acc0,
            com: [-g.e1 * z1, joint2 - g.e2 * z2],
            ball: joint2 - g.l2 * z2,
        }
    }

    /// Velocity of the material point at `p` of link `k`.
    pub fn velocity(&self, k: usize, p: &Vector3<f64>) -> Vector3<f64> {
        match k {
            0 => self.omega[0].cross(p),
            _ => self.joint2_vel + self.omega[1].cross(&(p - self.joint2)),
        }
    }

    /// Acceleration at `q̈ = 0` of the material point at `p` of link `k`.
    pub fn acceleration0(&self, k: usize, p: &Vector3<f64>) -> Vector3<f64> {
        let (w, a) = (self.omega[k], self.alpha0[k]);
        match k {
            0 => a.cross(p) + w.cross(&w.cross(p)),
            _ => {
                let r = p - self.joint2;
                self.joint2_acc0 + a.cross(&r) + w.cross(&w.cross(&r))
            }
        }
    }

    /// Partial velocity of the point `p` of link `k` for joint `j` (0 = ψ, 1…4 = φ₁…φ₄):
    /// `∂v/∂q̇_j = u_j × (p − o_j)`, zero where the joint does not carry the link.
    pub fn partial_velocity(&self, k: usize, j: usize, p: &Vector3<f64>) -> Vector3<f64> {
        match (k, j) {
            (0, 3 | 4) => Vector3::zeros(),
            (_, 0..=2) => self.axes[j].cross(p),
            _ => self.axes[j].cross(&(p - self.joint2)),
        }
    }

    /// Partial angular velocity of link `k` for joint `j`.
    pub fn partial_omega(&self, k: usize, j: usize) -> Vector3<f64> {
        match (k, j) {
            (0, 3 | 4) => Vector3::zeros(),
            _ => self.axes[j],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Geometry = Geometry {
        l1: 0.228,
        l2: 0.175,
        e1: 0.122,
        e2: 0.0586,
    };

    /// Velocities and accelerations against finite differences of positions along a path.
    #[test]
    fn velocities_and_accelerations_match_differences() {
        let path = |t: f64| {
            let q = [0.3 * t.sin(), 0.5 + 0.2 * t, -0.4 * (2.0 * t).cos(), 0.7 * t * t];
            let qd = [0.3 * t.cos(), 0.2, 0.8 * (2.0 * t).sin(), 1.4 * t];
            let qdd = [-0.3 * t.sin(), 0.0, 1.6 * (2.0 * t).cos(), 1.4];
            let base = Base {
                axis: Vector3::new(0.3, 0.8, 0.5).normalize(),
                angle: 0.4 * t * t,
                rate: 0.8 * t,
                accel: 0.8,
            };
            (q, qd, qdd, base)
        };
        let t = 0.6;
        let h = 1e-5;
        let (q, qd, qdd, base) = path(t);
        let k = Kinematics::new(&G, base, &q, &qd);
        let at = |t: f64| {
            let (q, qd, _, base) = path(t);
            Kinematics::new(&G, base, &q, &qd)
        };
        let (kp, km) = (at(t + h), at(t - h));
        // Ball velocity = d(ball)/dt.
        let dball = (kp.ball - km.ball) / (2.0 * h);
        assert!((dball - k.velocity(1, &k.ball)).norm() < 1e-8);
        // Full acceleration = a⁰ + Σ J q̈ (ψ̈ is in a⁰).
        let mut acc = k.acceleration0(1, &k.ball);
        for j in 1..5 {
            acc += k.partial_velocity(1, j, &k.ball) * qdd[j - 1];
        }
        let dvel = (kp.velocity(1, &kp.ball) - km.velocity(1, &km.ball)) / (2.0 * h);
        assert!((dvel - acc).norm() < 1e-6, "{dvel} vs {acc}");
        // Angular acceleration of link 2 and of link 1.
        for link in 0..2 {
            let mut alpha = k.alpha0[link];
            for j in 1..5 {
                alpha += k.partial_omega(link, j) * qdd[j - 1];
            }
            let dw = (kp.omega[link] - km.omega[link]) / (2.0 * h);
            assert!((dw - alpha).norm() < 1e-6, "link {link}");
        }
        // Angular velocity from the rotation: Ṙ Rᵀ = [ω]×.
        let rdot = (kp.rot[1] - km.rot[1]) / (2.0 * h);
        let skew = rdot * k.rot[1].transpose();
        let w = Vector3::new(skew[(2, 1)], skew[(0, 2)], skew[(1, 0)]);
        assert!((w - k.omega[1]).norm() < 1e-8);
    }
}
