//! The asperity model as a [`Model`] ([module docs](super) for the equations).
//!
//! State: `[x_m, y_m, ẋ_m, ẏ_m]`, then per asperity `[x_i, y_i, ẋ_i, ẏ_i, δ_T,i, δ_N,i, θ_i]`
//! (`θ_i` the age of its junction), then
//! four work integrals: the drivers' input (load point or rig, and the load), the dampers', the
//! adhesion's slip and the plastic elements' dissipation. The elements act at their limits
//! within a step (`k_pl·clamp(δ, ±Δ)`: the Maxwell-slip operator, exact at every output, their
//! dissipation integrated with the rest); after every step ([`Model::after_step`]) `δ` beyond
//! its limit is set back on it, a stuck asperity whose holding force exceeds `f_T,i` slips in the
//! direction it is pushed, a slipping one sticks when its speed changes sign, and one that
//! leaves the profile is free.

use super::{AsperityConstants, AsperityParams, Drive, Population, Profile};
use crate::integrate::{Column, Model, Role, SimError};
use crate::systems::energy_columns::energy_columns;
use crate::systems::friction_rig::Programme as RigProgramme;
use crate::systems::spring_slider::Schedule;
use crate::systems::{Restart, SystemConfig, SystemSpec};

/// Body states before the asperities.
const BODY: usize = 4;
/// States per asperity.
const PER: usize = 7;
/// Work integrals: input, damping, adhesion slip, plastic.
const N_WORK: usize = 4;

/// The asperity-based friction model.
#[derive(Clone, Debug)]
pub struct AsperityModel {
    params: AsperityParams,
    c: AsperityConstants,
    population: Population,
    profile: Profile,
    schedule: Schedule,
    rig: RigProgramme,
    n: usize,
    /// Start of the rig programme's current piece (drive `Rig`).
    piece_start_s: f64,
    /// Whether each asperity is stuck to the profile (tangential adhesion holding).
    stuck: Vec<bool>,
    /// Sliding direction of each slipping asperity in contact (0: free).
    slip_dir: Vec<f64>,
    /// The profile segment each asperity was last found over (a lookup hint).
    segment_hints: Vec<std::cell::Cell<usize>>,
    /// Energy at the start (and after each renewal), for the balance.
    initial_energy_j: f64,
    /// End of the last step (the junctions' ages move by the step after it).
    last_step_end_s: f64,
    /// Body height at the start: the normal approach is measured from it.
    initial_height_m: f64,
}

/// The forces on one asperity.
#[derive(Clone, Copy, Debug, Default)]
struct Forces {
    /// Spring forces on the asperity (reaction on the body).
    s_t: f64,
    s_n: f64,
    /// Contact force.
    p_x: f64,
    p_y: f64,
    /// Normal-adhesion pull.
    d_x: f64,
    d_y: f64,
    /// Tangential adhesion (holding force when stuck).
    a: f64,
    /// Strength of the asperity's junction `f_T,i` [N] (0 out of contact).
    strength: f64,
    /// Rates of work: dampers (≥ 0), adhesion slip (≥ 0), plastic creep (≥ 0).
    damping_w: f64,
    adhesion_w: f64,
    creep_w: f64,
    /// Strain rates of the plastic elements.
    de_t: f64,
    de_n: f64,
}

impl AsperityModel {
    /// The model of `params`, every asperity at rest.
    pub fn new(params: AsperityParams) -> Self {
        let n = params.n_asperities();
        let population = Population::draw(
            n,
            params.heights,
            params.height_spread_m(),
            params.wavelength_m,
            (params.creep_time_min_s, params.creep_time_max_s),
            params.seed,
        );
        let profile = Profile::random(
            params.profile_amplitude * params.height_spread_m(),
            params.wavelength_m,
            params.seed,
        );
        Self {
            c: params.constants(),
            schedule: params.schedule(),
            rig: params.rig_programme(),
            params,
            population,
            profile,
            n,
            piece_start_s: 0.0,
            stuck: vec![false; n],
            slip_dir: vec![0.0; n],
            segment_hints: vec![std::cell::Cell::new(0); n],
            initial_energy_j: 0.0,
            last_step_end_s: 0.0,
            initial_height_m: 0.0,
        }
    }

    /// Profile height and slope under asperity `i` at `x`.
    fn height_of(&self, i: usize, x_m: f64) -> (f64, f64) {
        self.profile.at_near(x_m, &self.segment_hints[i])
    }

    fn work_index(&self) -> usize {
        BODY + PER * self.n
    }

    /// Whether the body's sliding motion is imposed (rig, normal creep).
    fn imposed(&self) -> bool {
        self.params.drive != Drive::Spring
    }

    /// The body's sliding velocity: the rig's or the state's.
    fn body_velocity(&self, t: f64, y: &[f64]) -> f64 {
        match self.params.drive {
            Drive::Spring => y[2],
            Drive::Rig => self.rig.velocity_in_piece_mps(t, self.piece_start_s),
        }
    }

    /// Load point position and velocity (zero unless drive `Spring`; at rest for the wait).
    fn load_point(&self, t: f64) -> (f64, f64) {
        match self.params.drive {
            Drive::Spring if t >= self.params.wait_s => self.schedule.at(t - self.params.wait_s),
            _ => (0.0, 0.0),
        }
    }

    /// Drive-spring force on the body (drive `Spring`).
    fn drive_force(&self, t: f64, y: &[f64]) -> f64 {
        if self.imposed() {
            return 0.0;
        }
        let (x_lp, v_lp) = self.load_point(t);
        self.params.drive_stiffness_n_per_m * (x_lp - y[0])
            + self.params.drive_damping_ns_per_m() * (v_lp - y[2])
    }

    /// Every force on asperity `i` and its rates of work.
    fn forces(&self, i: usize, u_m: f64, y: &[f64]) -> Forces {
        let c = &self.c;
        let a = &y[BODY + PER * i..BODY + PER * (i + 1)];
        let (x, yy, u, w) = (a[0], a[1], a[2], a[3]);
        // The elements act at their limits even before the step's end sets them back there.
        let d_t = a[4].clamp(-c.limit_t_m, c.limit_t_m);
        let d_n = a[5].clamp(-c.limit_n_m, c.limit_n_m);
        let tau = self.population.creep_times_s[i];
        let e_t = x - y[0] - self.population.offsets_m[i];
        let e_n = yy - y[1] + self.population.reach_m[i];
        let de_t = u - u_m;
        let de_n = w - y[3];
        let s_t = -(c.k_el_t * e_t + c.k_pl_t * d_t + c.c_t * de_t);
        let s_n = -(c.k_el_n * e_n + c.k_pl_n * d_n + c.c_n * de_n);
        let (h, slope) = self.height_of(i, x);
        let overlap = h - yy;
        // Power the plastic elements dissipate: all they take in while slipping at their
        // limit, the creep `k_pl·δ²/τ` below it.
        let plastic_t = if a[4].abs() < c.limit_t_m {
            0.0
        } else {
            c.k_pl_t * d_t * de_t
        };
        let plastic_n = if a[5].abs() < c.limit_n_m {
            c.k_pl_n * d_n * d_n / tau
        } else {
            c.k_pl_n * d_n * de_n
        };
        let mut f = Forces {
            s_t,
            s_n,
            de_t,
            de_n: de_n - d_n / tau,
            damping_w: c.c_t * de_t * de_t + c.c_n * de_n * de_n,
            creep_w: plastic_t + plastic_n,
            ..Forces::default()
        };
        if overlap > 0.0 {
            let rate = slope * u - w;
            let elastic = c.k_p * overlap;
            let p = (elastic + c.c_p * rate).max(0.0);
            f.p_x = -slope * p;
            f.p_y = p;
            f.damping_w += (p - elastic) * rate;
        }
        if c.f_n_n > 0.0 && -overlap < c.gap_a_m {
            f.d_x = c.f_n_n * slope;
            f.d_y = -c.f_n_n;
        }
        if overlap > 0.0 {
            // Junction age θ = a[6]: Dieterich's aging law per junction.
            let aging = 1.0 + c.aging * (1.0 + a[6].max(0.0) / c.aging_time_s).ln();
            f.strength = c.strength_n_per_m * e_n.max(0.0) * aging;
        }
        if self.stuck[i] {
            f.a = -(f.s_t + f.p_x + f.d_x);
        } else if overlap > 0.0 && f.strength > 0.0 {
            let dir = if self.slip_dir[i] != 0.0 {
                self.slip_dir[i]
            } else {
                u.signum()
            };
            if u != 0.0 || self.slip_dir[i] != 0.0 {
                f.a = -f.strength * dir;
                f.adhesion_w = -f.a * u;
            }
        }
        f
    }

    /// Kinetic and stored energy [J].
    fn energies(&self, t: f64, y: &[f64]) -> (f64, f64) {
        let p = &self.params;
        let c = &self.c;
        let u_m = self.body_velocity(t, y);
        let body_sliding = if self.imposed() { 0.0 } else { u_m * u_m };
        let mut kin = 0.5 * p.mass_kg * (body_sliding + y[3] * y[3]);
        let (x_lp, _) = self.load_point(t);
        let mut stored = if self.imposed() {
            0.0
        } else {
            0.5 * p.drive_stiffness_n_per_m * (x_lp - y[0]).powi(2)
        };
        for i in 0..self.n {
            let a = &y[BODY + PER * i..BODY + PER * (i + 1)];
            kin += 0.5 * c.mass_kg * (a[2] * a[2] + a[3] * a[3]);
            let e_t = a[0] - y[0] - self.population.offsets_m[i];
            let e_n = a[1] - y[1] + self.population.reach_m[i];
            let d_t = a[4].clamp(-c.limit_t_m, c.limit_t_m);
            let d_n = a[5].clamp(-c.limit_n_m, c.limit_n_m);
            stored += 0.5 * (c.k_el_t * e_t * e_t + c.k_pl_t * d_t * d_t);
            stored += 0.5 * (c.k_el_n * e_n * e_n + c.k_pl_n * d_n * d_n);
            let overlap = self.height_of(i, a[0]).0 - a[1];
            if overlap > 0.0 {
                stored += 0.5 * c.k_p * overlap * overlap;
            }
            if c.f_n_n > 0.0 && -overlap < c.gap_a_m {
                stored += c.f_n_n * (-overlap - c.gap_a_m);
            }
        }
        (kin, stored)
    }

    /// The state at rest under `load_n` (the contacts' quasi-static equilibrium without
    /// adhesion), every touching asperity stuck.
    fn rest_state(&mut self, load_n: f64) -> Vec<f64> {
        let c = self.c;
        let n = self.n;
        let tips: Vec<f64> = (0..n)
            .map(|i| self.profile.at(self.population.offsets_m[i]).0 + self.population.reach_m[i])
            .collect();
        // Deflection e of the asperity spring and its force for a total compression `comp`.
        let spring = |comp: f64| -> (f64, f64) {
            if comp <= 0.0 {
                return (0.0, 0.0);
            }
            let e1 = comp / (1.0 + (c.k_el_n + c.k_pl_n) / c.k_p);
            let e = if e1 <= c.limit_n_m {
                e1
            } else {
                (comp - c.k_pl_n * c.limit_n_m / c.k_p) / (1.0 + c.k_el_n / c.k_p)
            };
            (e, c.k_p * (comp - e))
        };
        let top = tips.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let carried = |y_m: f64| tips.iter().map(|&tip| spring(tip - y_m).1).sum::<f64>();
        let mut y_m = top;
        if load_n > 0.0 {
            let k_series = c.k_p * c.k_el_n / (c.k_p + c.k_el_n);
            let mut lo = top - 2.0 * load_n / k_series.max(f64::MIN_POSITIVE);
            while carried(lo) < load_n {
                lo = top - 2.0 * (top - lo);
            }
            let mut hi = top;
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if carried(mid) > load_n {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            y_m = 0.5 * (lo + hi);
        }
        let mut y = vec![0.0; self.dim()];
        y[1] = y_m;
        for i in 0..n {
            let (e, _) = spring(tips[i] - y_m);
            let a = &mut y[BODY + PER * i..BODY + PER * (i + 1)];
            a[0] = self.population.offsets_m[i];
            a[1] = y_m - self.population.reach_m[i] + e;
            a[5] = e.min(c.limit_n_m);
            self.stuck[i] = tips[i] - y_m > 0.0 && c.strength_n_per_m > 0.0;
            self.slip_dir[i] = 0.0;
        }
        y
    }

    /// The state at the start: at rest under the load, or (normal creep) just touching, the
    /// load coming on at `t = 0`.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut probe = self.clone();
        let load = if self.params.is_creep_test() {
            0.0
        } else {
            self.params.load_n
        };
        probe.rest_state(load)
    }

    /// Number of asperities touching the profile and of those slipping on it.
    fn counts(&self, y: &[f64]) -> (usize, usize) {
        let mut touching = 0;
        let mut slipping = 0;
        for i in 0..self.n {
            let a = &y[BODY + PER * i..];
            if self.height_of(i, a[0]).0 - a[1] > 0.0 {
                touching += 1;
                if !self.stuck[i] {
                    slipping += 1;
                }
            }
        }
        (touching, slipping)
    }

    /// Starts the rig's slide afresh: the body back at `x = 0` on fresh contacts (the energy
    /// account carries on from the new state).
    fn renew(&mut self, t: f64, y: &mut [f64]) {
        let (k0, s0) = self.energies(t, y);
        let works = y[self.work_index()..].to_vec();
        let fresh = self.rest_state(self.params.load_n);
        y.copy_from_slice(&fresh);
        let w = self.work_index();
        y[w..].copy_from_slice(&works);
        let (k1, s1) = self.energies(t, y);
        self.initial_energy_j += (k1 + s1) - (k0 + s0);
    }
}

impl Model for AsperityModel {
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }

    fn dim(&self) -> usize {
        BODY + PER * self.n + N_WORK
    }

    fn n_quadratures(&self) -> usize {
        N_WORK
    }

    fn state_names(&self) -> Vec<String> {
        let mut v: Vec<String> = ["x_m", "y_m", "v_m", "w_m"].map(String::from).into();
        for i in 1..=self.n {
            for s in ["x", "y", "u", "w", "delta_t", "delta_n", "age"] {
                v.push(format!("{s}{i}"));
            }
        }
        v.extend(["w_in", "w_damping", "w_adhesion", "w_plastic"].map(String::from));
        v
    }

    fn state_scales(&self, scales: &mut [f64]) {
        let length = (self.params.height_spread_m() * 0.1).max(self.c.limit_t_m);
        let speed = length * self.params.omega_n_rad_per_s();
        for (k, s) in scales.iter_mut().enumerate() {
            *s = match k {
                0 | 1 => length,
                2 | 3 => speed,
                k if k >= self.work_index() => 1.0,
                k => match (k - BODY) % PER {
                    0 | 1 => length,
                    2 | 3 => speed,
                    4 => self.c.limit_t_m,
                    5 => self.c.limit_n_m,
                    _ => self.c.aging_time_s,
                },
            };
        }
    }

    fn is_autonomous(&self) -> bool {
        false
    }

    fn time_scale_s(&self) -> f64 {
        1.0 / self.params.omega_n_rad_per_s()
    }

    fn max_step_s(&self, t: f64) -> f64 {
        let own = self.params.suggested_step_s();
        match self.params.drive {
            Drive::Rig => own.min(self.rig.max_step_s(t)),
            Drive::Spring => own,
        }
    }

    fn next_breakpoint_s(&self, t: f64) -> f64 {
        match self.params.drive {
            Drive::Spring if t < self.params.wait_s => self.params.wait_s,
            Drive::Spring => self.params.wait_s + self.schedule.next_switch_s(t - self.params.wait_s),
            Drive::Rig if self.params.is_creep_test() && t < self.params.load_rise_s => {
                self.params.load_rise_s
            }
            Drive::Rig => self.rig.next_switch_s(t),
        }
    }

    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.piece_start_s = self.rig.piece_start_s(t);
        // Touching asperities start stuck, the others free.
        for i in 0..self.n {
            let a = &y[BODY + PER * i..];
            let touching = self.height_of(i, a[0]).0 - a[1] > 0.0;
            self.stuck[i] = touching && a[2] == 0.0 && self.c.strength_n_per_m > 0.0;
            self.slip_dir[i] = if touching && !self.stuck[i] {
                a[2].signum()
            } else {
                0.0
            };
        }
        let (k, s) = self.energies(t, y);
        self.initial_energy_j = k + s;
        self.initial_height_m = y[1];
        self.last_step_end_s = t;
        Ok(())
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let p = &self.params;
        let c = &self.c;
        let u_m = self.body_velocity(t, y);
        let mut reaction_x = 0.0;
        let mut reaction_y = 0.0;
        let mut damping = 0.0;
        let mut adhesion = 0.0;
        let mut plastic = 0.0;
        for i in 0..self.n {
            let f = self.forces(i, u_m, y);
            let k = BODY + PER * i;
            reaction_x -= f.s_t;
            reaction_y -= f.s_n;
            damping += f.damping_w;
            adhesion += f.adhesion_w;
            plastic += f.creep_w;
            dy[k] = y[k + 2];
            dy[k + 1] = y[k + 3];
            dy[k + 2] = if self.stuck[i] {
                0.0
            } else {
                (f.s_t + f.p_x + f.d_x + f.a) / c.mass_kg
            };
            dy[k + 3] = (f.s_n + f.p_y + f.d_y) / c.mass_kg;
            dy[k + 4] = f.de_t;
            dy[k + 5] = f.de_n;
            // The junction's age moves after each step (exactly, at the step's end speed).
            dy[k + 6] = 0.0;
        }
        let w = self.work_index();
        dy[0] = u_m;
        dy[1] = y[3];
        let load = p.load_at_n(t);
        dy[3] = (-load + reaction_y) / p.mass_kg;
        let load_power = -load * y[3];
        if self.imposed() {
            dy[2] = 0.0;
            // The rig pushes against the asperity springs' reaction.
            dy[w] = -reaction_x * u_m + load_power;
        } else {
            let drive = self.drive_force(t, y);
            dy[2] = (drive + reaction_x) / p.mass_kg;
            let (_, v_lp) = self.load_point(t);
            let rel = v_lp - y[2];
            damping += p.drive_damping_ns_per_m() * rel * rel;
            dy[w] = drive * v_lp + load_power;
        }
        dy[w + 1] = damping;
        dy[w + 2] = adhesion;
        dy[w + 3] = plastic;
    }

    /// The Maxwell-slip limits, then stick, slip and contact of every asperity; the rig's
    /// pieces (a slides test renews the contacts at the start of each slide).
    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        let mut changed = false;
        let h = t - self.last_step_end_s;
        self.last_step_end_s = t;
        if self.params.drive == Drive::Rig {
            let piece = self.rig.piece_start_s(t);
            if piece != self.piece_start_s {
                self.piece_start_s = piece;
                changed = true;
                if self.rig.renews_contact_at(piece) {
                    self.renew(t, y);
                    return true;
                }
            }
        }
        let c = self.c;
        let w = self.work_index();
        let u_m = self.body_velocity(t, y);
        for i in 0..self.n {
            let k = BODY + PER * i;
            // The elements' energy beyond their limits was dissipated as it went (rhs).
            for (state, limit) in [(k + 4, c.limit_t_m), (k + 5, c.limit_n_m)] {
                if y[state].abs() > limit {
                    y[state] = limit.copysign(y[state]);
                    changed = true;
                }
            }
            let touching = self.height_of(i, y[k]).0 - y[k + 1] > 0.0;
            // Out of contact there is no junction: a new contact starts a fresh one. In contact
            // it ages at rest and is renewed over its own size while sliding: θ̇ = 1 − θ|u|/d_c,
            // solved exactly over the step at the step's end speed (stiff when d_c/|u| ≪ h).
            if !touching {
                if y[k + 6] != 0.0 {
                    y[k + 6] = 0.0;
                    changed = true;
                }
            } else if h > 0.0 {
                let speed = y[k + 2].abs();
                y[k + 6] = if speed == 0.0 {
                    y[k + 6] + h
                } else {
                    let steady = c.junction_size_m / speed;
                    steady + (y[k + 6] - steady) * (-h / steady).exp()
                };
                changed = true;
            }
            if !touching || c.strength_n_per_m == 0.0 {
                if self.stuck[i] || self.slip_dir[i] != 0.0 {
                    self.stuck[i] = false;
                    self.slip_dir[i] = 0.0;
                    changed = true;
                }
                continue;
            }
            if self.stuck[i] {
                let f = self.forces(i, u_m, y);
                if f.a.abs() > f.strength {
                    self.stuck[i] = false;
                    self.slip_dir[i] = -f.a.signum();
                    changed = true;
                }
            } else {
                let u = y[k + 2];
                let dir = self.slip_dir[i];
                if dir == 0.0 && u != 0.0 {
                    self.slip_dir[i] = u.signum();
                    changed = true;
                } else if u * dir <= 0.0 {
                    // Stops on the profile: sticks (the last sliver of motion is adhesion's).
                    y[w + 2] += 0.5 * c.mass_kg * u * u;
                    y[k + 2] = 0.0;
                    self.slip_dir[i] = 0.0;
                    self.stuck[i] = true;
                    changed = true;
                }
            }
        }
        changed
    }

    fn columns(&self) -> Vec<Column> {
        let mut cols = vec![
            Column::new("x", "m").role(Role::Position(0)).symbol("x_m"),
            Column::new("v", "m/s").role(Role::Velocity(0)).symbol("v_m"),
            Column::new("v_rel", "m/s").role(Role::SlipVelocity(0)),
            Column::new("friction_force", "N")
                .role(Role::FrictionForce(0))
                .symbol("F_f"),
            Column::new("normal_force", "N")
                .role(Role::NormalLoad(0))
                .symbol("F_n"),
            Column::new("stick", "").role(Role::Stick(0)),
            Column::new("mu", "").symbol("μ = −F_f/F_load"),
            Column::new("y", "m").role(Role::Position(1)).symbol("y_m"),
            Column::new("w", "m/s").role(Role::Velocity(1)).symbol("ẏ_m"),
            Column::new("approach", "m").symbol("approach"),
            Column::new("contacts", "").symbol("n_contact"),
            Column::new("slipping", "").symbol("n_slip"),
        ];
        if !self.imposed() {
            cols.extend([
                Column::new("spring_force", "N")
                    .role(Role::SpringForce(0))
                    .symbol("F_K"),
                Column::new("x_lp", "m")
                    .role(Role::DriverPosition)
                    .symbol("x_lp"),
                Column::new("v_lp", "m/s")
                    .role(Role::DriverVelocity)
                    .symbol("v_lp"),
            ]);
        }
        cols.extend(energy_columns(1));
        cols
    }

    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        let u_m = self.body_velocity(t, y);
        let mut f_x = 0.0;
        let mut f_y = 0.0;
        // The forces the body feels through its asperities' springs, as a load cell on the
        // body reads them (the profile's forces on the asperities less their inertia, which
        // rings at the asperities' own frequencies).
        for i in 0..self.n {
            let f = self.forces(i, u_m, y);
            f_x -= f.s_t;
            f_y -= f.s_n;
        }
        let (touching, slipping) = self.counts(y);
        row[0] = y[0];
        row[1] = u_m;
        row[2] = u_m;
        row[3] = f_x;
        row[4] = f_y;
        row[5] = f64::from(u8::from(touching > 0 && slipping == 0));
        row[6] = -f_x / self.params.load_n;
        row[7] = y[1];
        row[8] = y[3];
        row[9] = self.initial_height_m - y[1];
        row[10] = touching as f64;
        row[11] = slipping as f64;
        let mut next = 12;
        if !self.imposed() {
            let (x_lp, v_lp) = self.load_point(t);
            row[12] = self.drive_force(t, y);
            row[13] = x_lp;
            row[14] = v_lp;
            next = 15;
        }
        let w = self.work_index();
        let (kin, stored) = self.energies(t, y);
        let (input, damping) = (y[w], y[w + 1]);
        let friction = -(y[w + 2] + y[w + 3]);
        let error = kin + stored - (self.initial_energy_j + input + friction - damping);
        row[next..next + 6].copy_from_slice(&[kin, stored, friction, input, damping, error]);
    }

    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        let SystemConfig::Asperity(new) = &spec.system else {
            return Err(Restart::Changed("another system".into()));
        };
        let old = &self.params;
        let same_bodies = new.n_asperities() == old.n_asperities()
            && new.seed == old.seed
            && new.heights == old.heights
            && new.drive == old.drive
            && new.wavelength_m == old.wavelength_m
            && new.height_spread == old.height_spread
            && new.profile_amplitude == old.profile_amplitude
            && new.creep_time_min_s == old.creep_time_min_s
            && new.creep_time_max_s == old.creep_time_max_s
            && new.rig_programme() == old.rig_programme()
            && new.schedule() == old.schedule()
            && new.wait_s == old.wait_s
            && new.load_rise_s == old.load_rise_s;
        if !same_bodies {
            return Err(Restart::Changed(
                "the asperities, the profile or the programme changed".into(),
            ));
        }
        self.params = new.clone();
        self.c = new.constants();
        Ok(())
    }

    /// Explicit: the scheme decides modes after each fixed step (fixed-step RK4; `Auto` takes
    /// Dormand–Prince under the same step limit, never a dense implicit solve of its states).
    fn prefers_implicit(&self) -> bool {
        false
    }

    /// New parameters change the stored energy: the balance starts again from here.
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.last_step_end_s = t;
        let (kin, stored) = self.energies(t, y);
        let w = self.work_index();
        let (input, damping) = (y[w], y[w + 1]);
        let friction = -(y[w + 2] + y[w + 3]);
        self.initial_energy_j = kin + stored - (input + friction - damping);
        Ok(())
    }
}
