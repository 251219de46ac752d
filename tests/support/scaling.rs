//! Wall time per model-second of the synthetic chain (`chain.rs`) with the banded and the
//! dense Rosenbrock path, and the fitted exponent of cost against the number of blocks.
//! A measurement, not a check: `tests/chain_scaling.rs` prints it (ignored by default).

#![allow(dead_code)]

use std::time::Instant;

use super::chain::{Chain, Declared};
use tribolab::integrate::driver::{DriverSettings, NullSink};
use tribolab::integrate::{Method, Simulation};

/// Relative tolerance of the measured runs.
pub const RTOL: f64 = 1e-6;

/// One timed run from t = 0.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub blocks: usize,
    pub declared: Declared,
    /// Model time covered [s].
    pub model_s: f64,
    /// Best wall time of the repeats [s].
    pub wall_s: f64,
    pub steps: u64,
    pub rejected: u64,
    pub rhs_evals: u64,
}

impl Timing {
    /// Wall seconds per model second.
    pub fn wall_per_model_s(&self) -> f64 {
        self.wall_s / self.model_s
    }

    /// Wall seconds per attempted step.
    pub fn wall_per_step_s(&self) -> f64 {
        self.wall_s / (self.steps + self.rejected) as f64
    }
}

/// Runs the chain of `blocks` blocks with Rodas4 over `[0, model_s]`, best of `repeats`.
pub fn time_run(blocks: usize, declared: Declared, model_s: f64, repeats: usize) -> Timing {
    let mut best = f64::INFINITY;
    let mut stats = None;
    for _ in 0..repeats.max(1) {
        let chain = Chain::new(blocks, declared);
        let y0 = chain.initial_state();
        let settings = DriverSettings {
            method: Method::Rodas4,
            rtol: RTOL,
            rk4_dt_s: 1e-4,
            output_interval_s: model_s,
        };
        let mut sim = Simulation::new(Box::new(chain), y0, 0.0, settings).expect("starts");
        let start = Instant::now();
        sim.advance(model_s, &mut NullSink).expect("runs");
        best = best.min(start.elapsed().as_secs_f64());
        stats = Some(sim.stats());
    }
    let stats = stats.expect("at least one run");
    Timing {
        blocks,
        declared,
        model_s,
        wall_s: best,
        steps: stats.steps,
        rejected: stats.rejected,
        rhs_evals: stats.rhs_evals,
    }
}

/// Least-squares slope of `ln cost` against `ln n` (the library's fit).
pub use tribolab::analysis::linefit::power_law_exponent as fitted_exponent;

fn print_row(t: &Timing) {
    println!(
        "{:>5} {:>8} {:>7.3} {:>10.4} {:>12.4e} {:>7} {:>5} {:>9} {:>12.3e}",
        t.blocks,
        format!("{:?}", t.declared),
        t.model_s,
        t.wall_s,
        t.wall_per_model_s(),
        t.steps,
        t.rejected,
        t.rhs_evals,
        t.wall_per_step_s(),
    );
}

/// The measurement: banded over 1 model-second at N = 10, 100, 1000; dense over 1, 0.2 and
/// 0.02 model-seconds (the dense N = 1000 path costs seconds per step), banded again over
/// those short spans for a like-for-like ratio. Prints a table and the exponents.
pub fn report() {
    println!(
        "{:>5} {:>8} {:>7} {:>10} {:>12} {:>7} {:>5} {:>9} {:>12}",
        "N",
        "path",
        "model_s",
        "wall_s",
        "wall/model_s",
        "steps",
        "rej",
        "rhs_evals",
        "wall/step_s"
    );
    let sizes = [10usize, 100, 1000];
    let mut banded = Vec::new();
    let mut dense = Vec::new();
    for (&n, &short) in sizes.iter().zip(&[1.0, 0.2, 0.02]) {
        let b = time_run(n, Declared::Banded, 1.0, 3);
        print_row(&b);
        banded.push(b);
        let d = time_run(n, Declared::Dense, short, if n < 1000 { 3 } else { 1 });
        print_row(&d);
        dense.push(d);
        if short < 1.0 {
            let b_short = time_run(n, Declared::Banded, short, 3);
            print_row(&b_short);
            println!(
                "      dense/banded over {short} model-s: {:.1}x",
                d.wall_s / b_short.wall_s
            );
        }
    }
    let exp = |ts: &[Timing], f: fn(&Timing) -> f64| {
        fitted_exponent(
            &ts.iter()
                .map(|t| (t.blocks as f64, f(t)))
                .collect::<Vec<_>>(),
        )
    };
    println!(
        "fitted exponent of wall/model-s vs N: banded {:.2}, dense {:.2}",
        exp(&banded, Timing::wall_per_model_s),
        exp(&dense, Timing::wall_per_model_s)
    );
    println!(
        "fitted exponent of wall/step vs N:    banded {:.2}, dense {:.2}",
        exp(&banded, Timing::wall_per_step_s),
        exp(&dense, Timing::wall_per_step_s)
    );
}
