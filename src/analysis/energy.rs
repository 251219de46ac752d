//! The energy account of a run, read from its output columns by role (MODELS §3.1): what the
//! drivers put in, what is stored (springs) and moving (kinetic), what each friction contact
//! and the dampers dissipated, and the balance error
//! `E_kin + E_stored − (E₀ + W_in + ΣW_friction − W_damping)`.

use crate::integrate::column::find_role;
use crate::integrate::{Column, Role};

/// The account at one sample.
#[derive(Clone, Debug, PartialEq)]
pub struct EnergyAccount {
    /// Work put in by the drivers since the start [J].
    pub input_j: f64,
    /// Kinetic energy now [J].
    pub kinetic_j: f64,
    /// Energy stored in springs now [J].
    pub stored_j: f64,
    /// Energy dissipated by friction since the start (the negative of the friction work),
    /// per contact (`Some(c)`) or for all contacts together (`None`) [J].
    pub friction_dissipated_j: Vec<(Option<usize>, f64)>,
    /// Energy dissipated by the dampers since the start [J].
    pub damping_dissipated_j: f64,
    /// Mechanical energy at the start `E₀` [J] (from the balance).
    pub initial_j: f64,
    /// Balance error [J].
    pub balance_error_j: f64,
}

impl EnergyAccount {
    /// Everything dissipated [J].
    pub fn dissipated_j(&self) -> f64 {
        self.friction_dissipated_j
            .iter()
            .map(|(_, e)| e)
            .sum::<f64>()
            + self.damping_dissipated_j
    }
}

/// The account of `row` (laid out as `columns`), when the system reports its energies (the
/// reference flows and maps do not).
pub fn energy_account(columns: &[Column], row: &[f64]) -> Option<EnergyAccount> {
    let get = |role| find_role(columns, role).map(|i| row[i]);
    let kinetic_j = get(Role::KineticEnergy)?;
    let stored_j = get(Role::StoredEnergy)?;
    let balance_error_j = get(Role::EnergyError)?;
    let input_j = get(Role::InputWork).unwrap_or(0.0);
    let damping_dissipated_j = get(Role::DampingWork).unwrap_or(0.0);
    let friction_dissipated_j: Vec<(Option<usize>, f64)> = columns
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c.role {
            Role::FrictionWork(contact) => Some((contact, -row[i])),
            _ => None,
        })
        .collect();
    let friction_work: f64 = -friction_dissipated_j.iter().map(|(_, e)| e).sum::<f64>();
    let initial_j =
        kinetic_j + stored_j - input_j - friction_work + damping_dissipated_j - balance_error_j;
    Some(EnergyAccount {
        input_j,
        kinetic_j,
        stored_j,
        friction_dissipated_j,
        damping_dissipated_j,
        initial_j,
        balance_error_j,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_account_adds_up_by_role() {
        let columns = vec![
            Column::new("t", "s").role(Role::Time),
            Column::new("ek", "J").role(Role::KineticEnergy),
            Column::new("es", "J").role(Role::StoredEnergy),
            Column::new("wf1", "J").role(Role::FrictionWork(Some(0))),
            Column::new("wf2", "J").role(Role::FrictionWork(Some(1))),
            Column::new("wb", "J").role(Role::InputWork),
            Column::new("wc", "J").role(Role::DampingWork),
            Column::new("err", "J").role(Role::EnergyError),
        ];
        // E₀ = 1 J; in 10 J; friction took 3 + 4 J, dampers 2 J: 2 J left, 0.5 kinetic.
        let row = [5.0, 0.5, 1.5 + 1e-9, -3.0, -4.0, 10.0, 2.0, 1e-9];
        let a = energy_account(&columns, &row).unwrap();
        assert_eq!(
            a.friction_dissipated_j,
            vec![(Some(0), 3.0), (Some(1), 4.0)]
        );
        assert_eq!(a.dissipated_j(), 9.0);
        assert!((a.initial_j - 1.0).abs() < 1e-15, "{}", a.initial_j);
        assert_eq!(energy_account(&columns[..3], &row[..3]), None);
    }
}
