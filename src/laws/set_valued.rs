//! Mode logic of set-valued stick (MODELS §2.2, option 1), shared by every law with a static
//! friction threshold.
//!
//! Modes slip⁺, slip⁻ and stick. In slip the sign of the friction force is the mode's, so the
//! force stays smooth up to the zero crossing that ends the mode. At `v_rel = 0` the contact
//! sticks when the holding force `F_req` is within `F_S = μ_S·N`, otherwise it slips on in the
//! direction of the relative acceleration under the largest friction, `−sgn(F_req)`. Stick ends
//! exactly when `|F_req|` reaches `F_S`.

use super::{Contact, LawSwitch, sgn};

/// Discrete mode of a set-valued contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StickMode {
    /// `v_rel ≡ 0`; the friction force is whatever holds the contact.
    Stick,
    /// Sliding with the given direction (`+1` or `−1`).
    Slip(f64),
}

impl StickMode {
    /// Mode at the start of a run or after a switch at `v_rel = 0` (with `v_rel ≠ 0` the
    /// direction of sliding decides).
    pub fn choose(c: &Contact, f_static_n: f64) -> (Self, LawSwitch) {
        if c.v_rel_mps != 0.0 {
            return (StickMode::Slip(sgn(c.v_rel_mps)), LawSwitch::Continue);
        }
        let hold = c.f_hold_n;
        if hold.is_nan() {
            // No mechanics (prescribed motion): at rest there is no force to hold; slide on.
            return (StickMode::Slip(1.0), LawSwitch::Continue);
        }
        if hold.abs() <= f_static_n {
            (StickMode::Stick, LawSwitch::Stick)
        } else {
            (StickMode::Slip(-sgn(hold)), LawSwitch::Continue)
        }
    }

    /// Event function: positive while the mode holds.
    pub fn guard(&self, c: &Contact, f_static_n: f64) -> f64 {
        match *self {
            StickMode::Stick => f_static_n - c.f_hold_n.abs(),
            StickMode::Slip(dir) => dir * c.v_rel_mps,
        }
    }

    /// The mode after the guard fired.
    pub fn after_event(&self, c: &Contact, f_static_n: f64) -> (Self, LawSwitch) {
        match *self {
            // Break-away: slide against the holding force.
            StickMode::Stick => (StickMode::Slip(-sgn(c.f_hold_n)), LawSwitch::Continue),
            // Prescribed motion: the imposed velocity passes through zero into the other slip.
            StickMode::Slip(dir) if c.f_hold_n.is_nan() => {
                (StickMode::Slip(-dir), LawSwitch::Continue)
            }
            // Zero crossing of v_rel: decide as at v_rel = 0.
            StickMode::Slip(_) => {
                let at_rest = Contact {
                    v_rel_mps: 0.0,
                    ..*c
                };
                Self::choose(&at_rest, f_static_n)
            }
        }
    }

    /// After parameters changed in place (a live change): the slip the contact must take when
    /// its mode no longer matches the motion — stuck, or sliding the other way, while it now
    /// moves relative to its surface because that surface's speed changed (a belt-speed
    /// slider). The body keeps its velocity (no impulse can make it follow the surface at
    /// once), so it slides in the direction of `v_rel`. `None` when the mode still holds.
    pub fn resumed_slip(&self, c: &Contact) -> Option<Self> {
        let v = c.v_rel_mps;
        if v == 0.0 || c.f_hold_n.is_nan() {
            return None;
        }
        match *self {
            StickMode::Slip(dir) if dir == sgn(v) => None,
            _ => Some(StickMode::Slip(sgn(v))),
        }
    }

    /// Whether the mode is stick.
    pub fn is_stick(&self) -> bool {
        matches!(self, StickMode::Stick)
    }
}
