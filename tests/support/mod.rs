//! Models shared by several integration tests and benchmarks.

pub mod chain;
pub mod scaling;
