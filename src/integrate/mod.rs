//! Time integration: the [`Model`] interface every simulated system implements, three steppers
//! (explicit Dormand–Prince 5(4), L-stable Rosenbrock Rodas4/Rodas5, fixed-step RK4 with
//! statically dispatched batches of steps) and the hybrid
//! driver [`Simulation`] that locates events (stick/slip switches) on the solution; discrete
//! maps ([`MapModel`], [`MapRun`]) and a [`Runner`] over either.

pub mod column;
pub mod column_groups;
pub mod dopri5;
pub mod driver;
pub mod engine;
pub mod error;
pub mod jacobian_structure;
pub mod langevin;
pub mod linalg;
pub mod map;
pub mod method;
pub mod model;
pub mod rk4;
pub mod rk4_batch;
pub mod root;
pub mod rosenbrock;
mod rosenbrock_sparse;
pub mod rosenbrock_tableaus;
pub mod runner;
pub mod sparse_lu;
pub mod stepper;
pub mod tolerance;

pub use column::{Column, Role};
pub use driver::{SampleSink, Simulation, Stats};
pub use engine::Engine;
pub use error::{SimError, is_bounded};
pub use jacobian_structure::{JacobianStructure, SparsityPattern};
pub use langevin::{BOLTZMANN_J_PER_K, BaoabRun, LangevinSystem};
pub use map::{MapModel, MapRun};
pub use method::Method;
pub use model::{Model, STIFF_DAMPING_RATIO, damping_is_stiff};
pub use runner::Runner;
pub use tolerance::Tolerance;
