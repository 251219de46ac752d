//! Output columns and what they mean.
//!
//! Every column a model writes carries a [`Role`]: front ends, analyses and the command line
//! choose columns by meaning ("the slip velocity of contact 1", "the energy-balance error"),
//! never by name, so a new system works in every view without the views knowing it.

use serde::{Deserialize, Serialize};

/// The meaning of an output column. Indices count from 0 (degrees of freedom and contacts in
/// the order of the system's [`Layout`](crate::systems::Layout)).
///
/// Energy columns follow one sign convention, so an energy account can add them up whatever
/// the system: `E_kin + E_stored = E₀ + W_in + W_friction − W_damping` (+ the balance error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    /// Model time (added by the driver; iteration index for maps).
    Time,
    /// Event flag of the driver's rows (1 at the before/after pair of a switch, else 0).
    EventFlag,
    /// Generalised coordinate of degree of freedom `dof` (displacement or angle).
    Position(usize),
    /// Velocity of degree of freedom `dof`.
    Velocity(usize),
    /// Slip velocity `v_rel = v₁ − v₂` of a contact.
    SlipVelocity(usize),
    /// Friction force on body 1 of a contact.
    FrictionForce(usize),
    /// Normal load of a contact.
    NormalLoad(usize),
    /// Stick flag of a contact: 1 stuck, 0 slipping.
    Stick(usize),
    /// Internal state `index` of a contact's friction law.
    LawState {
        /// Contact.
        contact: usize,
        /// State of that contact's law.
        index: usize,
    },
    /// Force of link `l` of the layout on its end `b` (the bench's `−k·x` on the block).
    SpringForce(usize),
    /// Kinetic energy of the moving masses.
    KineticEnergy,
    /// Energy stored in springs and potentials.
    StoredEnergy,
    /// Work put in by the drivers since the start.
    InputWork,
    /// Work of friction on the relative motion since the start, ≤ 0 for dissipative laws
    /// (its negative is the energy friction dissipated); `Some(c)` for one contact, `None` for
    /// the sum over every contact.
    FrictionWork(Option<usize>),
    /// Energy dissipated by viscous dampers since the start (≥ 0).
    DampingWork,
    /// Energy-balance error `E_kin + E_stored − (E₀ + W_in + W_friction − W_damping)`.
    EnergyError,
    /// State component `k` of a system without mechanics (the reference flows and maps).
    State(usize),
    /// Position of the driver: the support or body pulled at the driver speed (the atomic
    /// models' cantilever base), against which a friction loop is drawn.
    DriverPosition,
    /// Velocity of the driver (a load point following a programme of speeds).
    DriverVelocity,
    /// Relative spin about the normal of a contact that slides and spins [rad/s].
    Spin(usize),
    /// Ratio of spinning to sliding `a·|ω_s|/|v_s|` of a contact that slides and spins (`a`
    /// the contact radius): the abscissa of the coupling of the two frictions.
    SpinSlideRatio(usize),
    /// Coordinate `axis` (0 = x, 1 = y, 2 = z) [m] of moving point `point` of the layout's
    /// [`Scene`](crate::systems::Scene).
    ScenePoint {
        /// The scene's moving point.
        point: usize,
        /// 0, 1, 2 for x, y, z.
        axis: usize,
    },
    /// External force applied to degree of freedom `dof` by a test (the break-away rig's
    /// force ramp).
    AppliedForce(usize),
    /// Anything else (derived quantities).
    Other,
}

impl Role {
    /// The contact a per-contact column belongs to.
    pub fn contact(self) -> Option<usize> {
        match self {
            Role::SlipVelocity(c)
            | Role::FrictionForce(c)
            | Role::NormalLoad(c)
            | Role::Stick(c)
            | Role::LawState { contact: c, .. }
            | Role::Spin(c)
            | Role::SpinSlideRatio(c)
            | Role::FrictionWork(Some(c)) => Some(c),
            _ => None,
        }
    }

    /// The degree of freedom of a kinematic column.
    pub fn dof(self) -> Option<usize> {
        match self {
            Role::Position(d) | Role::Velocity(d) => Some(d),
            _ => None,
        }
    }
}

/// One output column: name (CSV header), unit, display symbol and meaning.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Column name, e.g. `v_rel` (CSV header; unique within a run).
    pub name: String,
    /// SI unit, e.g. `m/s` ("" when dimensionless).
    pub unit: String,
    /// Symbol for plot axes and legends, e.g. `F_f,1`; the name when not set.
    pub symbol: String,
    /// What the column means.
    pub role: Role,
}

impl Column {
    /// A column with name and unit and no particular meaning ([`Role::Other`]).
    pub fn new(name: impl Into<String>, unit: impl Into<String>) -> Self {
        let name = name.into();
        Self {
            symbol: name.clone(),
            name,
            unit: unit.into(),
            role: Role::Other,
        }
    }

    /// The same column with a meaning.
    pub fn role(mut self, role: Role) -> Self {
        self.role = role;
        self
    }

    /// The same column with a display symbol.
    pub fn symbol(mut self, symbol: impl Into<String>) -> Self {
        self.symbol = symbol.into();
        self
    }

    /// Axis label: symbol and unit, `F_f [N]` (symbol alone when dimensionless).
    pub fn label(&self) -> String {
        if self.unit.is_empty() {
            self.symbol.clone()
        } else {
            format!("{} [{}]", self.symbol, self.unit)
        }
    }
}

/// Index of the first column with `role` in `columns`.
pub fn find_role(columns: &[Column], role: Role) -> Option<usize> {
    columns.iter().position(|c| c.role == role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_columns_by_meaning() {
        let cols = vec![
            Column::new("t", "s").role(Role::Time),
            Column::new("x1", "m").role(Role::Position(0)).symbol("x₁"),
            Column::new("x2", "m").role(Role::Position(1)),
            Column::new("f2", "N").role(Role::FrictionForce(1)),
            Column::new("stick1", "").role(Role::Stick(0)),
        ];
        assert_eq!(find_role(&cols, Role::Position(1)), Some(2));
        assert_eq!(find_role(&cols, Role::Velocity(0)), None);
        assert_eq!(cols[3].role.contact(), Some(1));
        assert_eq!(cols[2].role.dof(), Some(1));
        assert_eq!(cols[1].label(), "x₁ [m]");
        assert_eq!(cols[4].label(), "stick1");
    }
}
