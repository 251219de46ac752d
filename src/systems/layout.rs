//! What a system is made of, for front ends: its degrees of freedom, its frictional contacts
//! and the springs and dampers between them. The window draws a generic schematic from it and
//! offers "which block" and "which contact" choices; analyses group columns by contact.
//!
//! Indices here are the indices of [`Role`](crate::integrate::Role)'s per-DOF and per-contact
//! columns.

/// One degree of freedom.
#[derive(Clone, Debug, PartialEq)]
pub struct Dof {
    /// Name for choices and legends ("block 1").
    pub name: String,
    /// Symbol of its coordinate (`x₁`).
    pub symbol: String,
    /// Unit of its coordinate (`m`, `rad`).
    pub unit: String,
    /// Mass (or moment of inertia) [kg or kg·m²], for drawing sizes; NaN when it has none.
    pub mass: f64,
}

/// What the second body of a contact is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// A moving belt (at [`Layout::driver_speed_mps`]).
    Belt,
    /// Fixed ground.
    Ground,
    /// Another degree of freedom.
    Dof(usize),
    /// A fixed crystal lattice: a periodic potential ([`Layout::substrate`]) rather than a
    /// friction law (the atomic-scale models).
    Lattice,
}

/// The periodic potential `V(x) = −U₀·cos(2πx/a)` of a crystal substrate, for drawing it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Substrate {
    /// Lattice period `a` [m].
    pub period_m: f64,
    /// Corrugation amplitude `U₀` [J].
    pub amplitude_j: f64,
}

/// One frictional contact: a friction law between a degree of freedom and a surface.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactInfo {
    /// Name for choices and legends ("contact 1 (block 1 on the belt)").
    pub name: String,
    /// The degree of freedom that slides (body 1).
    pub dof: usize,
    /// What it slides on (body 2).
    pub surface: Surface,
}

/// An end of a spring or damper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// A degree of freedom.
    Dof(usize),
    /// The fixed frame.
    Ground,
    /// The driver (a plate pulled at the driver speed).
    Driver,
}

/// Kind of a mechanical link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// Linear spring.
    Spring,
    /// Viscous damper.
    Damper,
    /// Spring and damper in parallel.
    SpringDamper,
}

/// A spring and/or damper between two anchors.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// What it is.
    pub kind: LinkKind,
    /// First end.
    pub a: Anchor,
    /// Second end.
    pub b: Anchor,
    /// Label ("k_c = 100 N/m").
    pub label: String,
}

/// The parts of a system.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// Degrees of freedom, in column order.
    pub dofs: Vec<Dof>,
    /// Frictional contacts, in column order (one friction law each).
    pub contacts: Vec<ContactInfo>,
    /// Springs and dampers.
    pub links: Vec<Link>,
    /// Constant speed of the driver (belt, pulling plate) [m/s], when it has one: plots mark
    /// it, and a contact on the belt sticks when its velocity equals it.
    pub driver_speed_mps: Option<f64>,
    /// The periodic substrate potential of contacts on a [`Surface::Lattice`].
    pub substrate: Option<Substrate>,
    /// A spatial drawing of the system, for systems that move in three dimensions.
    pub scene: Option<super::Scene>,
}

impl Layout {
    /// Whether the system is mechanical (has degrees of freedom to draw).
    pub fn is_mechanical(&self) -> bool {
        !self.dofs.is_empty()
    }
}
