//! A block on one frictional contact, held by a spring and a damper: what the belt–block bench
//! and the spring–slider share. The state is `[q, v, law states…, work integrals…]` with `q` the
//! spring's coordinate and `v` the block's velocity, the holding force is `F_hold = k·q + c·v`,
//! and the mechanics read `q̇ = v − v_d(t)`, `v̇ = (F_f − F_hold)/m` (`v_d` the velocity of the
//! spring's far end in the frame of `v`: zero for the bench, the load point's for the
//! spring–slider). This holds the contact's law with its events — the law's own, then a
//! velocity-reversal event for laws with a kink at `v_rel = 0` — and the Jacobian rows of `q`,
//! `v` and the law states.

use super::reversal::Reversal;
use crate::integrate::{Column, Role};
use crate::laws::{Contact, FrictionLaw, Law, LawJacobian, LawSwitch};

/// The energy account of a block of mass `m` on a spring `k` whose state ends with the three
/// work integrals `[W_f, W_in, W_c]` (friction on the relative motion, the driver's input, the
/// damper's dissipation): `E_kin + E_spring = E₀ + W_in + W_f − W_c`.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockEnergy {
    /// `E₀`: the mechanical energy the account starts from [J].
    pub initial_j: f64,
}

impl BlockEnergy {
    /// `½m·v² + ½k·q²` at `y = [q, v, …]`.
    pub fn mechanical_j(y: &[f64], mass: f64, stiffness: f64) -> f64 {
        0.5 * mass * y[1] * y[1] + 0.5 * stiffness * y[0] * y[0]
    }

    /// Sets `E₀` so that the balance error is zero now (the work integrals start at
    /// `y[works]`): the initial energy at `t = 0`, a fresh start of the check after a live
    /// change.
    pub fn rebase(&mut self, y: &[f64], works: usize, mass: f64, stiffness: f64) {
        let w = &y[works..works + 3];
        self.initial_j = Self::mechanical_j(y, mass, stiffness) - (w[1] + w[0] - w[2]);
    }

    /// Writes `e_kin`, `e_spring`, `w_friction`, `w_in`, `w_damping` and the balance error
    /// into `out` (the order of [`energy_columns`](super::energy_columns::energy_columns)).
    pub fn write(&self, y: &[f64], works: usize, mass: f64, stiffness: f64, out: &mut [f64]) {
        let (w_f, w_in, w_c) = (y[works], y[works + 1], y[works + 2]);
        let e_kin = 0.5 * mass * y[1] * y[1];
        let e_spring = 0.5 * stiffness * y[0] * y[0];
        out[0] = e_kin;
        out[1] = e_spring;
        out[2] = w_f;
        out[3] = w_in;
        out[4] = w_c;
        out[5] = (e_kin + e_spring) - (self.initial_j + w_in + w_f - w_c);
    }
}

/// Law states that fit the stack buffers of the Jacobian.
pub const MAX_LAW_STATES: usize = 8;

/// The law of the one contact, with its events.
#[derive(Clone, Debug)]
pub struct OneContact {
    law: Law,
    n_law: usize,
    n_law_events: usize,
    law_after_step: bool,
    /// Velocity-reversal event for laws with a kink at `v_rel = 0`.
    reversal: Option<Reversal>,
}

/// Slopes of the friction force with respect to the mechanics, for the work rows of a
/// Jacobian: `∂F/∂q`, `∂F/∂v` and `∂F/∂s_j`.
#[derive(Clone, Copy, Debug)]
pub struct ForceSlopes {
    /// `∂F_f/∂q`.
    pub df_dq: f64,
    /// `∂F_f/∂v`.
    pub df_dv: f64,
    /// `∂F_f/∂s_j` (the first `n_states` entries).
    pub df_ds: [f64; MAX_LAW_STATES],
}

impl OneContact {
    /// The contact with `law`, its slip velocity `v_rel0` at the start.
    pub fn new(law: Law, v_rel0: f64) -> Self {
        let reversal = law.kinks_at_reversal().then(|| Reversal::new(v_rel0));
        Self {
            n_law: law.n_states(),
            n_law_events: law.n_events(),
            law_after_step: law.has_after_step(),
            reversal,
            law,
        }
    }

    /// The law (with its current mode).
    pub fn law(&self) -> &Law {
        &self.law
    }

    /// The law, mutable (live parameter changes).
    pub fn law_mut(&mut self) -> &mut Law {
        &mut self.law
    }

    /// Number of the law's states.
    pub fn n_states(&self) -> usize {
        self.n_law
    }

    /// Number of the law's own events.
    pub fn n_law_events(&self) -> usize {
        self.n_law_events
    }

    /// Whether the law has an after-step hook.
    pub fn has_after_step(&self) -> bool {
        self.law_after_step
    }

    /// The velocity-reversal event, when the law needs one.
    pub fn reversal(&self) -> Option<&Reversal> {
        self.reversal.as_ref()
    }

    /// The law's states in the model's state `y`.
    pub fn states<'a>(&self, y: &'a [f64]) -> &'a [f64] {
        &y[2..2 + self.n_law]
    }

    /// Events of the contact: the law's, then the reversal.
    pub fn n_events(&self) -> usize {
        self.n_law_events + usize::from(self.reversal.is_some())
    }

    /// Friction force on the block at contact `c` [N].
    pub fn force_n(&self, c: &Contact, y: &[f64]) -> f64 {
        let mut scratch = [0.0; 64];
        let mut heap;
        let ds: &mut [f64] = if self.n_law <= scratch.len() {
            &mut scratch[..self.n_law]
        } else {
            heap = vec![0.0; self.n_law];
            &mut heap
        };
        self.law.eval(c, self.states(y), ds)
    }

    /// Chooses the law's mode at the start of a run (`resume = false`) or after a live change
    /// (`true`, keeping the memory), and re-reads the direction of sliding; the law's switch.
    pub fn start(&mut self, c: &Contact, y: &mut [f64], resume: bool) -> LawSwitch {
        let n = self.n_law;
        let s = &mut y[2..2 + n];
        let switch = if resume {
            self.law.resume(c, s)
        } else {
            self.law.initialize(c, s)
        };
        if let Some(r) = self.reversal.as_mut() {
            r.reset(c.v_rel_mps);
        }
        switch
    }

    /// Fires event `index` (the law's, or the reversal after them); the law's switch.
    pub fn apply_event(&mut self, index: usize, c: &Contact, y: &mut [f64]) -> LawSwitch {
        if index == self.n_law_events {
            if let Some(r) = self.reversal.as_mut() {
                r.flip();
            }
            return LawSwitch::Continue;
        }
        let n = self.n_law;
        self.law.apply_event(index, c, &mut y[2..2 + n])
    }

    /// The law's after-step hook; whether it changed anything.
    pub fn after_step(&mut self, c: &Contact, y: &mut [f64]) -> bool {
        if !self.law_after_step {
            return false;
        }
        let n = self.n_law;
        self.law.after_step(c, &mut y[2..2 + n])
    }

    /// Fills the rows of `q`, `v` and the law states of the Jacobian (row length
    /// `nd = 2 + n_states`; `jac` zeroed first) of `q̇ = v − v_d`, `v̇ = (F_f − k·q − c·v)/m`
    /// with `F_hold = k·q + c·v`: `∂v̇/∂q = (∂F/∂F_hold − 1)·k/m`,
    /// `∂v̇/∂v = (∂F/∂v + (∂F/∂F_hold − 1)·c)/m`. `None` when the law has no analytic
    /// derivatives (or too many states).
    pub fn jacobian(
        &self,
        c: &Contact,
        y: &[f64],
        stiffness: f64,
        damping: f64,
        mass: f64,
        jac: &mut [f64],
    ) -> Option<ForceSlopes> {
        let n = self.n_law;
        if n > MAX_LAW_STATES {
            return None;
        }
        let (mut df_ds, mut dds_dv, mut dds_ds) = (
            [0.0; MAX_LAW_STATES],
            [0.0; MAX_LAW_STATES],
            [0.0; MAX_LAW_STATES * MAX_LAW_STATES],
        );
        let mut lj = LawJacobian {
            df_dv: 0.0,
            df_dhold: 0.0,
            df_ds: &mut df_ds[..n],
            dds_dv: &mut dds_dv[..n],
            dds_ds: &mut dds_ds[..n * n],
        };
        if !self.law.jacobian(c, self.states(y), &mut lj) {
            return None;
        }
        let m_inv = 1.0 / mass;
        let nd = 2 + n;
        jac.iter_mut().for_each(|v| *v = 0.0);
        let df_dq = lj.df_dhold * stiffness;
        let df_dv = lj.df_dv + lj.df_dhold * damping;
        jac[1] = 1.0;
        jac[nd] = (df_dq - stiffness) * m_inv;
        jac[nd + 1] = (df_dv - damping) * m_inv;
        for jj in 0..n {
            jac[nd + 2 + jj] = lj.df_ds[jj] * m_inv;
        }
        for i in 0..n {
            let row = (2 + i) * nd;
            jac[row + 1] = lj.dds_dv[i];
            for jj in 0..n {
                jac[row + 2 + jj] = lj.dds_ds[i * n + jj];
            }
        }
        Some(ForceSlopes {
            df_dq,
            df_dv,
            df_ds,
        })
    }

    /// The contact's columns after the block's position and velocity: `v_rel`,
    /// `friction_force`, `spring_force`, `stick`, `normal_load`.
    pub fn contact_columns() -> [Column; 5] {
        [
            Column::new("v_rel", "m/s").role(Role::SlipVelocity(0)),
            Column::new("friction_force", "N")
                .role(Role::FrictionForce(0))
                .symbol("F_f"),
            Column::new("spring_force", "N")
                .role(Role::SpringForce(0))
                .symbol("F_k"),
            Column::new("stick", "").role(Role::Stick(0)),
            Column::new("normal_load", "N")
                .role(Role::NormalLoad(0))
                .symbol("N"),
        ]
    }

    /// The values of [`contact_columns`](Self::contact_columns) at contact `c`, state `y`,
    /// with the spring's force on the block and the stick flag.
    pub fn write_contact(
        &self,
        c: &Contact,
        y: &[f64],
        spring_force_n: f64,
        stuck: bool,
        out: &mut [f64],
    ) {
        out[0] = c.v_rel_mps;
        out[1] = self.force_n(c, y);
        out[2] = spring_force_n;
        out[3] = f64::from(u8::from(stuck));
        out[4] = c.normal_load_n;
    }

    /// The law's state columns.
    pub fn state_columns(&self) -> impl Iterator<Item = Column> {
        self.law
            .state_columns()
            .into_iter()
            .enumerate()
            .map(|(index, c)| c.role(Role::LawState { contact: 0, index }))
    }
}
