//! Prescribed-motion characterisation rigs (MODELS §3.5): the relative motion is imposed and the
//! friction force is measured, as on a tribometer. Used to check laws against closed forms
//! (hysteresis loops, steady Stribeck curves) independently of any mechanics; `sampled` plays a
//! recorded velocity and load to a law (the simulation of a force-data fit). Both hand the law,
//! its events and its state layout to `driven_law`, and say only how the contact moves.

mod driven_law;
mod prescribed;
mod sampled;

pub use driven_law::DrivenLaw;
pub use prescribed::{Motion, PrescribedMotion, run_prescribed};
pub use sampled::{Recording, SampledMotion, force_along};
