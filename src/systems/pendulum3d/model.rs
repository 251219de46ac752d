//! The pendulum's equations of motion, contact and energy account ([module docs](super)).

use nalgebra::{Matrix3, Matrix4, Vector3, Vector4};

use super::kinematics::{Kinematics, N};

/// Rate at which a held coordinate's perturbations decay [1/s]: the Lyapunov exponents of the
/// held directions (two per held angle), not dynamics of the pendulum.
pub const HOLD_RATE: f64 = 100.0;
use super::{ARROW_M_PER_N, Drive, Obstacle, Pendulum3dParams, SecondJoint, points};
use crate::integrate::{Column, Model, Role, SimError};
use crate::laws::sliding_spinning::{PadeSpinFriction, hertz_radius_m};
use crate::systems::{ConfigOf, Restart, SystemSpec};

/// Indices of the work integrals in the state `[φ₁…φ₄, φ̇₁…φ̇₄, W_in, W_friction, W_damping]`.
const W_IN: usize = 8;
const W_FRICTION: usize = 9;
const W_DAMPING: usize = 10;
const DIM: usize = 11;

/// The obstacle's unit normal, towards the pendulum.
fn normal() -> Vector3<f64> {
    -Vector3::x()
}

/// The ball–obstacle contact at one state.
#[derive(Clone, Debug, Default)]
pub struct ContactState {
    /// Penetration `δ = R_b − n·(c − p_ob)` [m] (negative: apart).
    pub delta: f64,
    /// Its rate [m/s].
    pub delta_rate: f64,
    /// Normal force [N].
    pub normal_n: f64,
    /// Friction force on the ball [N].
    pub friction: Vector3<f64>,
    /// Sliding velocity of the ball on the obstacle at the contact [m/s].
    pub slide: Vector3<f64>,
    /// Relative spin about the normal [rad/s].
    pub spin: f64,
    /// Hertz contact radius [m].
    pub radius_m: f64,
    /// Contact point.
    pub point: Vector3<f64>,
    /// Velocity of the obstacle's surface at the contact point [m/s].
    pub surface_velocity: Vector3<f64>,
    /// Power dissipated by the contact's dashpot [W].
    pub damping_power_w: f64,
}

/// One evaluation of the equations at `(t, y)`.
struct Eval {
    kin: Kinematics,
    contact: ContactState,
    qdd: [f64; N],
    drive_torque: f64,
    joint_power: f64,
}

/// The 3-D double pendulum as a [`Model`].
#[derive(Clone, Debug)]
pub struct Pendulum3d {
    params: Pendulum3dParams,
    law: PadeSpinFriction,
    stiffness: f64,
    modulus: f64,
    in_contact: bool,
    initial_energy: f64,
}

impl Pendulum3d {
    /// The model with these parameters.
    pub fn new(params: Pendulum3dParams) -> Self {
        let mut m = Self {
            law: PadeSpinFriction {
                mu: 0.0,
                b_t: 0.0,
                eps_mps: 1.0,
            },
            stiffness: 0.0,
            modulus: 1.0,
            in_contact: false,
            initial_energy: 0.0,
            params,
        };
        m.derive();
        m
    }

    fn derive(&mut self) {
        let p = &self.params;
        self.law = PadeSpinFriction {
            mu: p.mu,
            b_t: p.pade_b,
            eps_mps: p.friction_eps,
        };
        self.modulus = p.effective_modulus_pa();
        self.stiffness = p.hertz_stiffness();
    }

    /// Parameters.
    pub fn params(&self) -> &Pendulum3dParams {
        &self.params
    }

    /// Whether the ball is in contact with the obstacle (the event-driven mode).
    pub fn in_contact(&self) -> bool {
        self.in_contact
    }

    /// `y₀`: the initial angles and rates, no work done.
    pub fn initial_state(&self) -> Vec<f64> {
        let p = &self.params;
        let mut y = vec![0.0; DIM];
        y[..8].copy_from_slice(&[
            p.initial_phi1,
            p.initial_phi2,
            p.initial_phi3,
            p.initial_phi4,
            p.initial_rate1,
            p.initial_rate2,
            p.initial_rate3,
            p.initial_rate4,
        ]);
        y
    }

    fn has_obstacle(&self) -> bool {
        self.params.obstacle == Obstacle::Present
    }

    /// Which of φ₁…φ₄ move: joint 2 held when locked, φ₂ held when the motor swings link 1
    /// (the drive then turns joint 1's outer axis in its place).
    fn free_coordinates(&self) -> [bool; N] {
        let joint2 = self.params.second_joint == SecondJoint::Free;
        [true, self.params.drive != Drive::Swing, joint2, joint2]
    }

    /// The kinematics at `(t, y)`.
    pub fn kinematics(&self, t: f64, y: &[f64]) -> Kinematics {
        Kinematics::new(&self.params.geometry(), self.params.base(t), &y[..N], &y[N..2 * N])
    }

    /// Penetration of the ball into the obstacle's plane [m] (negative: apart).
    pub fn penetration(&self, kin: &Kinematics) -> f64 {
        let p_ob = Vector3::from(self.params.obstacle_centre());
        self.params.ball_radius - normal().dot(&(kin.ball - p_ob))
    }

    /// The contact forces (zero out of contact).
    pub fn contact(&self, kin: &Kinematics) -> ContactState {
        let p = &self.params;
        let n = normal();
        let p_ob = Vector3::from(p.obstacle_centre());
        let delta = self.penetration(kin);
        let point = kin.ball - p.ball_radius * n;
        let mut c = ContactState {
            delta,
            point,
            ..Default::default()
        };
        if !self.has_obstacle() || !self.in_contact {
            return c;
        }
        c.delta_rate = -n.dot(&kin.velocity(1, &kin.ball));
        let d = delta.max(0.0);
        let elastic = self.stiffness * d * d.sqrt();
        c.normal_n = (elastic * (1.0 + p.contact_damping * c.delta_rate)).max(0.0);
        c.damping_power_w = (c.normal_n - elastic) * c.delta_rate;
        c.surface_velocity = p.obstacle_spin * n.cross(&(point - p_ob));
        let relative = kin.velocity(1, &point) - c.surface_velocity;
        c.slide = relative - n * n.dot(&relative);
        c.spin = (kin.omega[1] - p.obstacle_spin * n).dot(&n);
        c.radius_m = hertz_radius_m(c.normal_n, p.ball_radius, self.modulus);
        c.friction = self.law.force(&c.slide, c.spin, c.normal_n, c.radius_m);
        c
    }

    /// Mass matrix, `Q − h` and the drive's generalised quantities at one state.
    fn evaluate(&self, t: f64, y: &[f64]) -> Eval {
        let p = &self.params;
        let kin = self.kinematics(t, y);
        let contact = self.contact(&kin);
        let masses = [p.mass1, p.mass2];
        let inertia = [
            Matrix3::from_diagonal(&Vector3::new(p.inertia1_x, p.inertia1_y, p.inertia1_z)),
            Matrix3::from_diagonal(&Vector3::new(p.inertia2_x, p.inertia2_y, p.inertia2_z)),
        ];
        let gravity = Vector3::new(0.0, 0.0, -p.gravity);
        let contact_force = contact.normal_n * normal() + contact.friction;
        // Per link: world inertia, a⁰ of the centre of mass, the moment term.
        let mut links = Vec::with_capacity(2);
        for k in 0..2 {
            let r = kin.rot[k];
            let iw = r * inertia[k] * r.transpose();
            let w = kin.omega[k];
            let moment0 = iw * kin.alpha0[k] + w.cross(&(iw * w));
            links.push((iw, kin.acceleration0(k, &kin.com[k]), moment0));
        }
        // Generalised quantities for joints 0 (ψ) … 4 (φ₄).
        let jv = |k: usize, j: usize| kin.partial_velocity(k, j, &kin.com[k]);
        let jw = |k: usize, j: usize| kin.partial_omega(k, j);
        let mut mass = Matrix4::zeros();
        let mut rhs = Vector4::zeros();
        let mut coupling = [0.0; N]; // M_ψj
        let mut free_psi = 0.0; // h_ψ − Q_ψ (gravity, contact)
        for j in 0..5 {
            let mut f = 0.0;
            for (k, (iw, a0, m0)) in links.iter().enumerate() {
                let (vj, wj) = (jv(k, j), jw(k, j));
                f += masses[k] * vj.dot(&(a0 - gravity)) + wj.dot(m0);
                for l in 1..5 {
                    let m = masses[k] * vj.dot(&jv(k, l)) + wj.dot(&(iw * jw(k, l)));
                    if j == 0 {
                        coupling[l - 1] += m;
                    } else {
                        mass[(j - 1, l - 1)] += m;
                    }
                }
            }
            f -= kin.partial_velocity(1, j, &contact.point).dot(&contact_force);
            if j == 0 {
                free_psi = f;
            } else {
                rhs[j - 1] = -f;
            }
        }
        // Joint friction, smoothed below ε_b.
        let mut joint_power = 0.0;
        for j in 0..N {
            let rate = y[N + j];
            let torque = p.joint_torque * rate / (rate * rate + p.joint_rate * p.joint_rate).sqrt();
            rhs[j] -= torque;
            joint_power += torque * rate;
        }
        // Held coordinates: identity rows and columns, zero right-hand side, so q̈ = 0 there
        // and the free ones solve their own block exactly.
        let free = self.free_coordinates();
        for j in (0..N).filter(|&j| !free[j]) {
            for l in 0..N {
                mass[(j, l)] = 0.0;
                mass[(l, j)] = 0.0;
            }
            mass[(j, j)] = 1.0;
            rhs[j] = 0.0;
        }
        let mut qdd = [0.0; N];
        if let Some(x) = mass.lu().solve(&rhs) {
            qdd.copy_from_slice(x.as_slice());
        } else {
            qdd = [f64::NAN; N];
        }
        let drive_torque = free_psi + coupling.iter().zip(&qdd).map(|(m, a)| m * a).sum::<f64>();
        Eval {
            kin,
            contact,
            qdd,
            drive_torque,
            joint_power,
        }
    }

    /// Kinetic energy and stored energy (gravity above the pivot, Hertz spring) [J].
    pub fn energies(&self, kin: &Kinematics, delta: f64) -> (f64, f64) {
        let p = &self.params;
        let masses = [p.mass1, p.mass2];
        let inertia = [
            Vector3::new(p.inertia1_x, p.inertia1_y, p.inertia1_z),
            Vector3::new(p.inertia2_x, p.inertia2_y, p.inertia2_z),
        ];
        let mut kinetic = 0.0;
        let mut stored = 0.0;
        for k in 0..2 {
            let v = kin.velocity(k, &kin.com[k]);
            let w_body = kin.rot[k].transpose() * kin.omega[k];
            kinetic += 0.5 * masses[k] * v.norm_squared()
                + 0.5 * w_body.component_mul(&w_body).dot(&inertia[k]);
            stored += masses[k] * p.gravity * kin.com[k].z;
        }
        if self.has_obstacle() && self.in_contact && delta > 0.0 {
            stored += 0.4 * self.stiffness * delta * delta * delta.sqrt();
        }
        (kinetic, stored)
    }

    /// Angular momentum about the pivot [kg·m²/s].
    pub fn angular_momentum(&self, t: f64, y: &[f64]) -> Vector3<f64> {
        let p = &self.params;
        let kin = self.kinematics(t, y);
        let masses = [p.mass1, p.mass2];
        let inertia = [
            Vector3::new(p.inertia1_x, p.inertia1_y, p.inertia1_z),
            Vector3::new(p.inertia2_x, p.inertia2_y, p.inertia2_z),
        ];
        (0..2)
            .map(|k| {
                let r = kin.rot[k];
                let w_body = r.transpose() * kin.omega[k];
                let spin = r * w_body.component_mul(&inertia[k]);
                masses[k] * kin.com[k].cross(&kin.velocity(k, &kin.com[k])) + spin
            })
            .sum()
    }

    fn start_energy_account(&mut self, t: f64, y: &[f64]) {
        let kin = self.kinematics(t, y);
        let (k, s) = self.energies(&kin, self.penetration(&kin));
        self.initial_energy = k + s - (y[W_IN] + y[W_FRICTION] - y[W_DAMPING]);
    }

    fn choose_contact_mode(&mut self, t: f64, y: &[f64]) {
        self.in_contact = self.has_obstacle() && self.penetration(&self.kinematics(t, y)) > 0.0;
    }
}

/// Periods of the small swings in the x–z plane about the hanging rest [s], slowest first
/// (one with joint 2 locked); empty without gravity. From the planar compound double pendulum:
/// `M₀ = [[I_y1 + m₁e₁² + I_y2 + m₂(L₁+e₂)², I_y2 + m₂e₂(L₁+e₂)], [·, I_y2 + m₂e₂²]]`,
/// `K₀ = g·[[m₁e₁ + m₂(L₁+e₂), m₂e₂], [m₂e₂, m₂e₂]]`.
pub fn small_swing_periods(p: &Pendulum3dParams) -> Vec<f64> {
    if p.gravity <= 0.0 {
        return Vec::new();
    }
    let (m1, m2, e1, e2, l1) = (p.mass1, p.mass2, p.com1, p.com2, p.length1);
    let m11 = p.inertia1_y + m1 * e1 * e1 + p.inertia2_y + m2 * (l1 + e2) * (l1 + e2);
    let m12 = p.inertia2_y + m2 * e2 * (l1 + e2);
    let m22 = p.inertia2_y + m2 * e2 * e2;
    let k11 = p.gravity * (m1 * e1 + m2 * (l1 + e2));
    let k12 = p.gravity * m2 * e2;
    let k22 = k12;
    let tau = std::f64::consts::TAU;
    if p.second_joint == SecondJoint::Locked {
        return vec![tau / (k11 / m11).sqrt()];
    }
    // det(K − λM) = 0: a λ² + b λ + c = 0.
    let a = m11 * m22 - m12 * m12;
    let b = -(k11 * m22 + k22 * m11 - 2.0 * k12 * m12);
    let c = k11 * k22 - k12 * k12;
    let disc = (b * b - 4.0 * a * c).max(0.0).sqrt();
    let (lo, hi) = ((-b - disc) / (2.0 * a), (-b + disc) / (2.0 * a));
    [lo, hi]
        .iter()
        .filter(|l| **l > 0.0)
        .map(|l| tau / l.sqrt())
        .collect()
}

impl Model for Pendulum3d {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        DIM
    }

    fn n_quadratures(&self) -> usize {
        3
    }

    fn state_names(&self) -> Vec<String> {
        [
            "phi1", "phi2", "phi3", "phi4", "rate1", "rate2", "rate3", "rate4", "w_input",
            "w_friction", "w_damping",
        ]
        .map(String::from)
        .to_vec()
    }

    fn state_scales(&self, scales: &mut [f64]) {
        scales[..N].fill(1.0);
        scales[N..2 * N].fill(5.0);
        scales[2 * N..].fill(1.0);
    }

    fn is_autonomous(&self) -> bool {
        !self.params.is_driven()
    }

    fn time_scale_s(&self) -> f64 {
        0.05
    }

    fn prefers_implicit(&self) -> bool {
        false
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        for (j, free) in self.free_coordinates().into_iter().enumerate() {
            if !free {
                y[N + j] = 0.0;
            }
        }
        self.choose_contact_mode(t, y);
        self.start_energy_account(t, y);
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let e = self.evaluate(t, y);
        dy[..N].copy_from_slice(&y[N..2 * N]);
        dy[N..2 * N].copy_from_slice(&e.qdd);
        // Held coordinates relax to their set angle at rest. On the trajectory these terms are
        // zero; in the tangent space they make the held directions decay (exponents −κ)
        // instead of drifting (a rate perturbation would grow the angle linearly and show as
        // spurious zero Lyapunov exponents).
        let p = &self.params;
        let set = [p.initial_phi1, p.initial_phi2, p.initial_phi3, p.initial_phi4];
        for (j, free) in self.free_coordinates().into_iter().enumerate() {
            if !free {
                dy[j] = -HOLD_RATE * (y[j] - set[j]);
                dy[N + j] = -HOLD_RATE * y[N + j];
            }
        }
        let c = &e.contact;
        let base_rate = self.params.base(t).rate;
        dy[W_IN] = e.drive_torque * base_rate + c.friction.dot(&c.surface_velocity);
        dy[W_FRICTION] = c.friction.dot(&c.slide);
        dy[W_DAMPING] = e.joint_power + c.damping_power_w;
    }

    fn n_events(&self) -> usize {
        usize::from(self.has_obstacle())
    }

    /// Contact onset and release: `−δ` while apart, `δ` in contact.
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        if self.has_obstacle() {
            let delta = self.penetration(&self.kinematics(t, y));
            g[0] = if self.in_contact { delta } else { -delta };
        }
    }

    fn apply_event(&mut self, _index: usize, _t: f64, _y: &mut [f64]) -> Result<(), SimError> {
        self.in_contact = !self.in_contact;
        Ok(())
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = Vec::new();
        for (d, s) in ["φ₁", "φ₂", "φ₃", "φ₄"].iter().enumerate() {
            cols.push(
                Column::new(format!("phi{}", d + 1), "rad")
                    .role(Role::Position(d))
                    .symbol(*s),
            );
        }
        for (d, s) in ["φ̇₁", "φ̇₂", "φ̇₃", "φ̇₄"].iter().enumerate() {
            cols.push(
                Column::new(format!("rate{}", d + 1), "rad/s")
                    .role(Role::Velocity(d))
                    .symbol(*s),
            );
        }
        if self.has_obstacle() {
            cols.extend([
                Column::new("v_slide", "m/s")
                    .role(Role::SlipVelocity(0))
                    .symbol("|v_s|"),
                Column::new("f_friction", "N")
                    .role(Role::FrictionForce(0))
                    .symbol("|T|"),
                Column::new("normal", "N")
                    .role(Role::NormalLoad(0))
                    .symbol("N"),
                Column::new("stick", "").role(Role::Stick(0)).symbol("stick"),
                Column::new("spin", "rad/s").role(Role::Spin(0)).symbol("ω_s"),
                Column::new("spin_slide_ratio", "")
                    .role(Role::SpinSlideRatio(0))
                    .symbol("a|ω_s|/|v_s|"),
                Column::new("mu_effective", "").symbol("|T|/N"),
                Column::new("contact_radius", "m").symbol("a"),
                Column::new("penetration", "m").symbol("δ"),
            ]);
        }
        cols.extend([
            Column::new("psi", "rad").symbol("ψ"),
            Column::new("drive_torque", "N·m").symbol("τ_ψ"),
        ]);
        let names = ["joint2", "ball", "arm", "contact", "force"];
        for (point, name) in names.iter().enumerate().take(points::COUNT) {
            for (axis, a) in ["x", "y", "z"].iter().enumerate() {
                cols.push(
                    Column::new(format!("{name}_{a}"), "m")
                        .role(Role::ScenePoint { point, axis })
                        .symbol(format!("{name} {a}")),
                );
            }
        }
        cols.extend([
            Column::new("e_kin", "J")
                .role(Role::KineticEnergy)
                .symbol("E_kin"),
            Column::new("e_stored", "J")
                .role(Role::StoredEnergy)
                .symbol("E_stored"),
        ]);
        if self.has_obstacle() {
            cols.push(
                Column::new("w_friction", "J")
                    .role(Role::FrictionWork(Some(0)))
                    .symbol("W_friction"),
            );
        }
        cols.extend([
            Column::new("w_input", "J")
                .role(Role::InputWork)
                .symbol("W_drive"),
            Column::new("w_damping", "J")
                .role(Role::DampingWork)
                .symbol("W_damping"),
            Column::new("energy_error", "J")
                .role(Role::EnergyError)
                .symbol("ΔE"),
        ]);
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let e = self.evaluate(t, y);
        let c = &e.contact;
        let base = self.params.base(t);
        let mut out = Vec::with_capacity(row.len());
        out.extend_from_slice(&y[..2 * N]);
        if self.has_obstacle() {
            let slide = c.slide.norm();
            let friction = c.friction.norm();
            let touching = c.normal_n > 0.0;
            let ratio = if touching {
                c.radius_m * c.spin.abs() / slide.max(self.params.friction_eps)
            } else {
                0.0
            };
            out.extend([
                slide,
                friction,
                c.normal_n,
                f64::from(u8::from(touching && slide <= self.params.friction_eps)),
                c.spin,
                ratio,
                if touching { friction / c.normal_n } else { 0.0 },
                c.radius_m,
                c.delta,
            ]);
        }
        out.extend([base.angle, e.drive_torque]);
        let arm = 0.08 * (e.kin.axes[1]);
        let force_tip = c.point + ARROW_M_PER_N * (c.normal_n * normal() + c.friction);
        for v in [e.kin.joint2, e.kin.ball, arm, c.point, force_tip] {
            out.extend(v.iter());
        }
        let (kinetic, stored) = self.energies(&e.kin, c.delta);
        out.extend([kinetic, stored]);
        let friction_work = y[W_FRICTION];
        if self.has_obstacle() {
            out.push(friction_work);
        }
        let error =
            kinetic + stored - (self.initial_energy + y[W_IN] + friction_work - y[W_DAMPING]);
        out.extend([y[W_IN], y[W_DAMPING], error]);
        row.copy_from_slice(&out);
    }

    fn section_names(&self) -> Vec<String> {
        let mut names = vec!["link 1 swings through the vertical (φ₂ falling through 0)".into()];
        if self.has_obstacle() {
            names.push("contact onset (the ball meets the obstacle)".into());
        }
        names
    }

    fn sections(&self, t: f64, y: &[f64], s: &mut [f64]) {
        s[0] = -y[1];
        if self.has_obstacle() {
            s[1] = self.penetration(&self.kinematics(t, y));
        }
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let params = Pendulum3dParams::of(&spec.system)
            .ok_or_else(|| Restart::Changed("another system was chosen".into()))?;
        if params.obstacle != self.params.obstacle
            || params.second_joint != self.params.second_joint
            || params.drive != self.params.drive
        {
            return Err(Restart::Changed(
                "the obstacle, the second joint or the drive changed: the run starts afresh".into(),
            ));
        }
        self.params = params.clone();
        self.derive();
        Ok(())
    }

    /// Keeps the state; the contact mode follows the obstacle if it moved; restarts the energy
    /// account.
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.choose_contact_mode(t, y);
        self.start_energy_account(t, y);
        Ok(())
    }
}
