//! What the plots draw, chosen by the meaning of the run's columns ([`Role`]) and the system's
//! [`Layout`](crate::systems::Layout) — never by a column's or a system's name.

use serde::{Deserialize, Serialize};

use crate::gui::TriboApp;
use crate::integrate::Role;

/// Axes of the phase-plane and Poincaré views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaneChoice {
    /// Position against velocity of one degree of freedom.
    Phase(usize),
    /// Position of one degree of freedom against another's.
    Positions(usize, usize),
    /// Two state components of a system without mechanics (the reference flows and maps).
    States(usize, usize),
}

impl Default for PlaneChoice {
    fn default() -> Self {
        PlaneChoice::Phase(0)
    }
}

/// History column of the first column with `role`.
pub fn col(app: &TriboApp, role: Role) -> Option<usize> {
    app.run.column(role)
}

/// Number of degrees of freedom of the running system.
pub fn n_dofs(app: &TriboApp) -> usize {
    app.run.layout.dofs.len()
}

/// Number of contacts of the running system.
pub fn n_contacts(app: &TriboApp) -> usize {
    app.run.layout.contacts.len()
}

/// Name of degree of freedom `d` ("block 1").
pub fn dof_name(app: &TriboApp, d: usize) -> String {
    app.run.layout.dofs.get(d).map_or_else(
        || format!("degree of freedom {}", d + 1),
        |x| x.name.clone(),
    )
}

/// Name of contact `c` ("block 1 on the belt").
pub fn contact_name(app: &TriboApp, c: usize) -> String {
    app.run
        .layout
        .contacts
        .get(c)
        .map_or_else(|| format!("contact {}", c + 1), |x| x.name.clone())
}

/// Constant driver speed of the system (belt speed), if it has one [m/s].
pub fn driver_speed(app: &TriboApp) -> Option<f64> {
    app.run.layout.driver_speed_mps
}

/// Every phase-plane choice the running system offers, with its name: each degree of
/// freedom's phase plane, then the position planes of neighbouring degrees of freedom (at most
/// eight); without degrees of freedom, the consecutive pairs of data columns.
pub fn plane_options(app: &TriboApp) -> Vec<(PlaneChoice, String)> {
    let n = n_dofs(app);
    if n == 0 {
        let states: Vec<(usize, String)> = app
            .run
            .columns
            .iter()
            .filter_map(|c| match c.role {
                Role::State(k) => Some((k, c.symbol.clone())),
                _ => None,
            })
            .collect();
        let mut out = Vec::new();
        for (i, (a, na)) in states.iter().enumerate() {
            for (b, nb) in states.iter().skip(i + 1) {
                out.push((PlaneChoice::States(*a, *b), format!("{na}–{nb}")));
            }
        }
        return out;
    }
    let symbol = |d: usize| app.run.layout.dofs[d].symbol.clone();
    let mut out: Vec<(PlaneChoice, String)> = (0..n)
        .map(|d| {
            (
                PlaneChoice::Phase(d),
                format!("{}: position–velocity", dof_name(app, d)),
            )
        })
        .collect();
    for d in 0..n.saturating_sub(1).min(8) {
        out.push((
            PlaneChoice::Positions(d, d + 1),
            format!("positions {}–{}", symbol(d), symbol(d + 1)),
        ));
    }
    out
}

/// The history columns of a plane choice, when the run has them.
pub fn plane_axes(app: &TriboApp, choice: PlaneChoice) -> Option<(usize, usize)> {
    match choice {
        PlaneChoice::Phase(d) => Some((col(app, Role::Position(d))?, col(app, Role::Velocity(d))?)),
        PlaneChoice::Positions(a, b) => {
            Some((col(app, Role::Position(a))?, col(app, Role::Position(b))?))
        }
        PlaneChoice::States(a, b) => Some((col(app, Role::State(a))?, col(app, Role::State(b))?)),
    }
}

/// The session's plane choice if the running system has it, else its first option.
pub fn current_plane(app: &TriboApp) -> Option<PlaneChoice> {
    let options = plane_options(app);
    let chosen = app.session.view.plane;
    options
        .iter()
        .find(|(c, _)| *c == chosen)
        .or_else(|| options.first())
        .map(|(c, _)| *c)
}

/// The contact the friction–velocity view shows: the session's choice, if it exists.
pub fn current_contact(app: &TriboApp) -> Option<usize> {
    let n = n_contacts(app);
    (n > 0).then(|| app.session.view.contact.min(n - 1))
}

/// Columns the spectrum offers, by meaning: positions, velocities, slip velocities and friction
/// forces of the first eight degrees of freedom and contacts, and the state components of
/// systems without mechanics.
pub fn spectrum_options(app: &TriboApp) -> Vec<(Role, String)> {
    app.run
        .columns
        .iter()
        .filter(|c| {
            matches!(
                c.role,
                Role::Position(i) | Role::Velocity(i) | Role::SlipVelocity(i)
                    | Role::FrictionForce(i) | Role::State(i) if i < 8
            )
        })
        .map(|c| (c.role, c.label()))
        .collect()
}

/// History column the spectrum analyses: the session's choice when the run has it, else the
/// first offered column (the first position or state).
pub fn spectrum_column(app: &TriboApp) -> Option<usize> {
    let options = spectrum_options(app);
    let role = app
        .session
        .view
        .spectrum_column
        .filter(|r| options.iter().any(|(o, _)| o == r))
        .or_else(|| options.first().map(|(r, _)| *r))?;
    col(app, role)
}
