//! The energy columns every mechanical system writes, in one order and with one sign
//! convention ([`Role`]): kinetic and stored energy, the friction work of each contact, the
//! drivers' input, the dampers' dissipation and the balance error.

use crate::integrate::{Column, Role};

/// `e_kin`, `e_spring`, the friction work of each of `n_contacts` contacts (`w_friction` for a
/// single contact, else `w_friction1`, `w_friction2`, …), `w_belt`, `w_damping`,
/// `energy_error`.
pub fn energy_columns(n_contacts: usize) -> Vec<Column> {
    let friction = (0..n_contacts).map(|c| {
        let (name, symbol) = if n_contacts == 1 {
            ("w_friction".to_string(), "W_friction".to_string())
        } else {
            (
                format!("w_friction{}", c + 1),
                format!("W_friction,{}", c + 1),
            )
        };
        Column::new(name, "J")
            .role(Role::FrictionWork(Some(c)))
            .symbol(symbol)
    });
    with_friction_columns(friction)
}

/// The same columns with one `w_friction`, the friction work summed over every contact: for
/// systems with many contacts (chains), where a column per contact would be as many
/// integrated quadratures as blocks.
pub fn energy_columns_summed() -> Vec<Column> {
    let total = Column::new("w_friction", "J")
        .role(Role::FrictionWork(None))
        .symbol("W_friction");
    with_friction_columns(std::iter::once(total))
}

fn with_friction_columns(friction: impl Iterator<Item = Column>) -> Vec<Column> {
    let mut cols = vec![
        Column::new("e_kin", "J")
            .role(Role::KineticEnergy)
            .symbol("E_kin"),
        Column::new("e_spring", "J")
            .role(Role::StoredEnergy)
            .symbol("E_spring"),
    ];
    cols.extend(friction);
    cols.extend([
        Column::new("w_belt", "J")
            .role(Role::InputWork)
            .symbol("W_belt"),
        Column::new("w_damping", "J")
            .role(Role::DampingWork)
            .symbol("W_damping"),
        Column::new("energy_error", "J")
            .role(Role::EnergyError)
            .symbol("ΔE"),
    ]);
    cols
}

/// The energy columns of a system coupled to a heat bath instead of a friction law (the
/// atomic-scale models): `e_kin`, `e_stored` (springs and the substrate potential),
/// `w_friction` (the heat the substrate's bath gave, ≤ 0 on average: its negative is the
/// energy friction dissipated), `w_drive` and `energy_error`.
pub fn energy_columns_bath() -> Vec<Column> {
    vec![
        Column::new("e_kin", "J")
            .role(Role::KineticEnergy)
            .symbol("E_kin"),
        Column::new("e_stored", "J")
            .role(Role::StoredEnergy)
            .symbol("E_stored"),
        Column::new("w_friction", "J")
            .role(Role::FrictionWork(None))
            .symbol("W_substrate"),
        Column::new("w_drive", "J")
            .role(Role::InputWork)
            .symbol("W_drive"),
        Column::new("energy_error", "J")
            .role(Role::EnergyError)
            .symbol("ΔE"),
    ]
}
