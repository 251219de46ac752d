//! tribolab — a laboratory for dry friction and stick–slip dynamics.
//!
//! The core (friction laws, mechanical systems, integrators, presets) has no GUI dependency; the
//! desktop window (`gui` feature) and the command line are thin front ends over it. See
//! `ARCHITECTURE.md` for the module map.

#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod analysis;
pub mod cli;
pub mod figure;
#[cfg(feature = "gui")]
pub mod gui;
pub mod identify;
pub mod integrate;
pub mod laws;
pub mod lesson;
pub mod params;
pub mod preset;
pub mod rig;
pub mod systems;
pub mod util;
