//! The stepper for a method, with the dimension fixed at compile time for small systems.

use crate::integrate::rk4::Rk4;
use crate::integrate::rosenbrock::Rosenbrock;
use crate::integrate::rosenbrock_tableaus::Tableau;
use crate::integrate::stepper::Stepper;

/// Rosenbrock with the dimension fixed at compile time for small systems (unrolled loops).
pub(super) fn rosenbrock_for(tab: &'static Tableau, n: usize) -> Box<dyn Stepper + Send> {
    match n {
        5 => Box::new(Rosenbrock::<5>::new(tab, n)),
        6 => Box::new(Rosenbrock::<6>::new(tab, n)),
        7 => Box::new(Rosenbrock::<7>::new(tab, n)),
        8 => Box::new(Rosenbrock::<8>::new(tab, n)),
        _ => Box::new(Rosenbrock::<0>::new(tab, n)),
    }
}

/// RK4 with the dimension fixed at compile time for small systems (unrolled loops).
pub(super) fn rk4_for(n: usize, dt: f64) -> Box<dyn Stepper + Send> {
    match n {
        4 => Box::new(Rk4::<4>::new(n, dt)),
        5 => Box::new(Rk4::<5>::new(n, dt)),
        6 => Box::new(Rk4::<6>::new(n, dt)),
        7 => Box::new(Rk4::<7>::new(n, dt)),
        8 => Box::new(Rk4::<8>::new(n, dt)),
        _ => Box::new(Rk4::<0>::new(n, dt)),
    }
}
