//! The slip-event catalogue of a running system, read from its output rows by column role: it
//! finds each block's stick flag, position, slip velocity and friction force from the columns
//! and the contacts' surfaces from the layout, and feeds the streaming
//! [`CatalogueBuilder`](super::event_catalogue::CatalogueBuilder). Front ends (the window, the
//! CLI) hand it rows; they never name a column.
//!
//! The slip coordinate of a block on a belt is `s_i = x_i − v_b·t` (a stuck block moves with
//! the belt, so `s_i` stays put and only slip changes it); on fixed ground it is `x_i`.

use super::event_catalogue::{CatalogueBuilder, SampleError, SlipEvent};
use crate::integrate::{Column, Role};
use crate::systems::{Anchor, Layout, Surface};

/// Why a system has no slip-event catalogue.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoCatalogue {
    /// The system has fewer than one contact with a stick flag.
    #[error("the system has no frictional contacts to catalogue")]
    NoContacts,
    /// A contact lacks a column the catalogue needs.
    #[error("contact {contact}: no {what} column")]
    MissingColumn {
        /// Contact index (from 1).
        contact: usize,
        /// Which column.
        what: &'static str,
    },
}

/// Column indices (in a row with `t` first) of one contact.
#[derive(Clone, Debug)]
struct ContactColumns {
    stick: usize,
    position: usize,
    slip_velocity: usize,
    friction: usize,
    surface_speed_mps: f64,
}

/// Reads rows of a system's output into its slip-event catalogue.
#[derive(Debug)]
pub struct ChainCatalogue {
    contacts: Vec<ContactColumns>,
    event_flag: Option<usize>,
    builder: CatalogueBuilder,
    slipping: Vec<bool>,
    coord: Vec<f64>,
    rate: Vec<f64>,
    force: Vec<f64>,
    /// Samples the builder refused, with the first reason.
    rejected: usize,
    first_rejection: Option<SampleError>,
}

impl ChainCatalogue {
    /// A catalogue for rows laid out as `columns` (a run's output columns: `t`, the model's,
    /// the event flag). Contacts are linked along the chain by
    /// the springs between their degrees of freedom; a spring from the last block to the first
    /// makes it a ring.
    pub fn new(columns: &[Column], layout: &Layout) -> Result<Self, NoCatalogue> {
        let n = layout.contacts.len();
        if n == 0 {
            return Err(NoCatalogue::NoContacts);
        }
        let find = |role: Role| columns.iter().position(|c| c.role == role);
        let mut contacts = Vec::with_capacity(n);
        for (c, info) in layout.contacts.iter().enumerate() {
            let missing = |what| NoCatalogue::MissingColumn {
                contact: c + 1,
                what,
            };
            contacts.push(ContactColumns {
                stick: find(Role::Stick(c)).ok_or_else(|| missing("stick flag"))?,
                position: find(Role::Position(info.dof)).ok_or_else(|| missing("position"))?,
                slip_velocity: find(Role::SlipVelocity(c))
                    .ok_or_else(|| missing("slip velocity"))?,
                friction: find(Role::FrictionForce(c)).ok_or_else(|| missing("friction force"))?,
                surface_speed_mps: match info.surface {
                    Surface::Belt => layout.driver_speed_mps.unwrap_or(0.0),
                    Surface::Ground | Surface::Dof(_) | Surface::Lattice => 0.0,
                },
            });
        }
        let event_flag = find(Role::EventFlag);
        Ok(Self {
            builder: CatalogueBuilder::new(n, is_ring(layout)),
            contacts,
            event_flag,
            slipping: vec![false; n],
            coord: vec![0.0; n],
            rate: vec![0.0; n],
            force: vec![0.0; n],
            rejected: 0,
            first_rejection: None,
        })
    }

    /// Feeds one output row (`t` first). Rows at a switch instant (event flag set) are
    /// skipped: the catalogue works on the regular samples, so its times are resolved to the
    /// output interval.
    pub fn push_row(&mut self, row: &[f64]) {
        if self
            .event_flag
            .is_some_and(|e| row.get(e).copied() == Some(1.0))
        {
            return;
        }
        let t = row.first().copied().unwrap_or(f64::NAN);
        for (i, c) in self.contacts.iter().enumerate() {
            let get = |k: usize| row.get(k).copied().unwrap_or(f64::NAN);
            self.slipping[i] = get(c.stick) == 0.0;
            self.coord[i] = get(c.position) - c.surface_speed_mps * t;
            self.rate[i] = get(c.slip_velocity).abs();
            self.force[i] = get(c.friction);
        }
        if let Err(e) = self
            .builder
            .push(t, &self.slipping, &self.coord, &self.rate, &self.force)
        {
            self.rejected += 1;
            self.first_rejection.get_or_insert(e);
        }
    }

    /// Events completed so far (drained).
    pub fn take_finished(&mut self) -> Vec<SlipEvent> {
        self.builder.take_finished()
    }

    /// Events still open.
    pub fn open_events(&self) -> usize {
        self.builder.open_events()
    }

    /// Rows refused (non-finite values, time not increasing) and the first reason.
    pub fn rejected(&self) -> (usize, Option<&SampleError>) {
        (self.rejected, self.first_rejection.as_ref())
    }

    /// Closes the events still open at the end of the record (flagged truncated) and returns
    /// them with those not yet drained.
    pub fn finish(self) -> Vec<SlipEvent> {
        self.builder.finish()
    }
}

/// Whether the contacts' degrees of freedom form a ring: a spring joins the last contact's
/// degree of freedom to the first's (with more than two contacts).
fn is_ring(layout: &Layout) -> bool {
    let n = layout.contacts.len();
    if n < 3 {
        return false;
    }
    let (first, last) = (layout.contacts[0].dof, layout.contacts[n - 1].dof);
    layout.links.iter().any(|l| {
        matches!(
            (l.a, l.b),
            (Anchor::Dof(a), Anchor::Dof(b)) if (a == last && b == first) || (a == first && b == last)
        )
    })
}
