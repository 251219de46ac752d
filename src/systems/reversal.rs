//! Velocity-reversal events for laws with a kink at `v_rel = 0` (terms in `|v|`, as in LuGre
//! and Dahl): the system adds one event whose guard is `d·v_rel` with `d` the current direction,
//! so every zero crossing of the relative velocity ends a step exactly and the integrator
//! restarts on the other side of the kink instead of averaging over it (which cost Rodas5 four
//! orders of magnitude of accuracy on a Dahl loop).

/// Direction of the relative motion, switched by the reversal event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reversal {
    direction: f64,
}

impl Reversal {
    /// Tracker for a relative velocity `v_rel` at the start.
    pub fn new(v_rel: f64) -> Self {
        Self {
            direction: if v_rel < 0.0 { -1.0 } else { 1.0 },
        }
    }

    /// Event function: positive while moving in the tracked direction.
    pub fn guard(&self, v_rel: f64) -> f64 {
        self.direction * v_rel
    }

    /// The relative velocity passed through zero.
    pub fn flip(&mut self) {
        self.direction = -self.direction;
    }

    /// Re-reads the direction (after a restart from an arbitrary state).
    pub fn reset(&mut self, v_rel: f64) {
        if v_rel != 0.0 {
            self.direction = v_rel.signum();
        }
    }
}
