//! Small self-contained helpers with no physics in them.

pub mod atomic_write;
pub mod eng;
pub mod hash;
pub mod json;
pub mod number;
pub mod rng;
pub mod suggest;
