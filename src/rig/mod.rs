//! Prescribed-motion characterisation rigs (MODELS §3.5): the relative motion is imposed and the
//! friction force is measured, as on a tribometer. Used to check laws against closed forms
//! (hysteresis loops, steady Stribeck curves) independently of any mechanics.

mod prescribed;

pub use prescribed::{Motion, PrescribedMotion, run_prescribed};
