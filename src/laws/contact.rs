//! What a friction law sees of the mechanics at one instant, and what it asks back.

/// Kinematics and loads at a contact.
///
/// Sign convention (MODELS §1): body 1 (block) slides on body 2 (belt), `v_rel = v₁ − v₂`, and a
/// law returns `F_f`, the tangential force **on body 1**; for static laws `F_f·v_rel ≤ 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Simulation time [s].
    pub t_s: f64,
    /// Relative sliding velocity `v_rel` [m/s].
    pub v_rel_mps: f64,
    /// Instantaneous normal load `N` [N].
    pub normal_load_n: f64,
    /// `N/N₀`: instantaneous over nominal normal load. Laws written in force units (LuGre, Dahl,
    /// GMS, Armstrong) scale their force levels by it, so a load bump acts on every law.
    pub load_ratio: f64,
    /// The friction force on body 1 that would keep `v_rel` at zero, `F_req = m·a₂ − F_app` [N].
    /// NaN when the motion is prescribed (no mechanics to hold).
    pub f_hold_n: f64,
}

impl Contact {
    /// A contact at constant nominal load, as used by characteristic curves and prescribed runs.
    pub fn kinematic(t_s: f64, v_rel_mps: f64, normal_load_n: f64) -> Self {
        Self {
            t_s,
            v_rel_mps,
            normal_load_n,
            load_ratio: 1.0,
            f_hold_n: f64::NAN,
        }
    }
}

/// What a law asks of the system after a mode change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LawSwitch {
    /// Nothing for the system to do.
    Continue,
    /// Rigid stick begins: the system must set `v_rel` to exactly zero.
    Stick,
}

/// Signum with `sgn 0 = 0` (MODELS §1).
pub fn sgn(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}
