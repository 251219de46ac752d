//! Friction identification: fitting laws and systems to measurements by weighted least squares
//! with Levenberg–Marquardt, with standard errors, 95 % intervals, correlations and an
//! identifiability verdict per parameter (MODELS §4.10).
//!
//! - [`force_data`]: a friction measurement (time, velocity or position, load, force) in SI
//!   units from an imported CSV with a unit per column ([`units`]; velocity from position by
//!   [`derivative`]);
//! - [`law_fit`]: a law against force data (algebraic for laws without states, simulated along
//!   the record for the others);
//! - [`trajectory_fit`]: any preset's parameters against a recorded displacement or velocity;
//! - [`fit`]: stages of [`lm`] (the `levenberg-marquardt` crate in bounded, scaled coordinates,
//!   [`free_param`]) and the [`statistics`] at the optimum ([`student_t`] for the intervals);
//! - [`report`]: the table for people and for JSON.

pub mod derivative;
pub mod fit;
pub mod force_data;
pub mod free_param;
pub mod law_fit;
pub mod lm;
pub mod problem;
pub mod report;
pub mod statistics;
pub mod student_t;
pub mod trajectory_fit;
pub mod units;

pub use fit::{FitResult, fit, kept_values};
pub use force_data::{ColumnSpec, ForceColumns, ForceData, ForceOptions, ForceSign};
pub use free_param::FreeParam;
pub use law_fit::{LawFit, LawFitOptions};
pub use lm::{LmControl, LmError, LmProgress, LmSettings};
pub use problem::FitProblem;
pub use statistics::{Estimate, Flag, Statistics};
pub use trajectory_fit::{Observed, TrajectoryData, TrajectoryFit};
