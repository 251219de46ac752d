//! Discrete-time systems `x_{n+1} = F(x_n)` (the logistic and Hénon maps) and their runner.
//!
//! A [`MapModel`] is the discrete counterpart of [`Model`](super::Model): state, one
//! iteration, its Jacobian and output columns. [`MapRun`] iterates it and writes the same sample
//! rows as [`Simulation`](super::Simulation) — `t` (here the iteration index `n`), the model's
//! columns, the event flag (always 0) — through the same [`SampleSink`], so front ends show and
//! save maps like flows. Every iterate is also a Poincaré point (a map is its own section).

use super::driver::{SampleSink, SectionId, Stats};
use super::{Column, Role, SimError, is_bounded};

/// A discrete dynamical system `x_{n+1} = F(x_n)`.
///
/// The last [`n_passive`](MapModel::n_passive) components are passive companions (e.g. a second
/// start 1e-5 away, S1 Fig 15): iterated with the others but feeding nothing back, so they are
/// left out of the Jacobian and of the Lyapunov spectrum.
pub trait MapModel {
    /// Number of state components (passive ones included).
    fn dim(&self) -> usize;

    /// Number of trailing passive components.
    fn n_passive(&self) -> usize {
        0
    }

    /// Names of the state components.
    fn state_names(&self) -> Vec<String>;

    /// Typical magnitude of each state component (metric of the tangent space).
    fn state_scales(&self, scales: &mut [f64]) {
        scales.iter_mut().for_each(|s| *s = 1.0);
    }

    /// One iteration `out = F(x)`.
    fn step(&self, x: &[f64], out: &mut [f64]);

    /// Jacobian `∂F/∂x` of the active block (`m × m`, row-major, `m = dim − n_passive`).
    fn jacobian(&self, x: &[f64], jac: &mut [f64]);

    /// Output columns (without `t`, which the runner adds first).
    fn columns(&self) -> Vec<Column>;

    /// Fills one output row (same order as [`columns`](MapModel::columns)).
    fn observe(&self, x: &[f64], row: &mut [f64]);

    /// Takes new parameters while running, keeping the state (see
    /// [`Model::reconfigure`](super::Model::reconfigure)); the default refuses.
    fn reconfigure(
        &mut self,
        _spec: &crate::systems::SystemSpec,
    ) -> Result<(), crate::systems::Restart> {
        Err(crate::systems::Restart::Unsupported)
    }
}

/// Name of the only Poincaré "section" of a map: every iterate.
pub const MAP_SECTION: &str = "every iterate";

/// A running iteration of one map; `t` counts iterations.
pub struct MapRun {
    map: Box<dyn MapModel + Send>,
    x: Vec<f64>,
    next: Vec<f64>,
    n: u64,
    row: Vec<f64>,
    names: Vec<String>,
    started: bool,
    sections: bool,
}

impl MapRun {
    /// Prepares the iteration of `map` from `x0` (iteration 0).
    pub fn new(map: Box<dyn MapModel + Send>, x0: Vec<f64>) -> Result<Self, SimError> {
        assert_eq!(x0.len(), map.dim(), "initial state has the wrong dimension");
        let row_len = 2 + map.columns().len();
        let names = map.state_names();
        let run = Self {
            next: vec![0.0; x0.len()],
            x: x0,
            map,
            n: 0,
            row: vec![0.0; row_len],
            names,
            started: false,
            sections: false,
        };
        run.check_finite()?;
        Ok(run)
    }

    /// Iteration index, as the run's time.
    pub fn time_s(&self) -> f64 {
        self.n as f64
    }

    /// Number of iterations done.
    pub fn iterations(&self) -> u64 {
        self.n
    }

    /// Current state.
    pub fn state(&self) -> &[f64] {
        &self.x
    }

    /// The map.
    pub fn map(&self) -> &dyn MapModel {
        self.map.as_ref()
    }

    /// The map, mutable (live parameter changes take effect at the next iteration).
    pub fn map_mut(&mut self) -> &mut (dyn MapModel + Send) {
        self.map.as_mut()
    }

    /// Output column names: `t`, the map's columns, `event`.
    pub fn column_names(&self) -> Vec<String> {
        self.columns().into_iter().map(|c| c.name).collect()
    }

    /// Output columns with their meaning: `t` (the iteration index `n`), the map's columns,
    /// `event` (always 0).
    pub fn columns(&self) -> Vec<Column> {
        let mut v = vec![Column::new("t", "").role(Role::Time).symbol("n")];
        v.extend(self.map.columns());
        v.push(Column::new("event", "").role(Role::EventFlag));
        v
    }

    /// Takes new parameters; the next iteration uses them.
    pub fn reconfigure(
        &mut self,
        spec: &crate::systems::SystemSpec,
    ) -> Result<(), crate::systems::Restart> {
        self.map.reconfigure(spec)
    }

    /// Sends every iterate to [`SampleSink::push_section`] as well.
    pub fn track_sections(&mut self) {
        self.sections = true;
    }

    /// Iterates until `n ≥ t_stop`, pushing one row per iterate (and the initial row once).
    pub fn advance(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        if !self.started {
            self.started = true;
            self.emit(sink);
        }
        while (self.n as f64) < t_stop {
            self.map.step(&self.x, &mut self.next);
            std::mem::swap(&mut self.x, &mut self.next);
            self.n += 1;
            self.check_finite()?;
            self.emit(sink);
        }
        Ok(())
    }

    /// Counters: every iteration counts as a step and a right-hand side.
    pub fn stats(&self) -> Stats {
        Stats {
            steps: self.n,
            rhs_evals: self.n,
            ..Stats::default()
        }
    }

    fn emit(&mut self, sink: &mut dyn SampleSink) {
        let len = self.row.len();
        self.row[0] = self.n as f64;
        self.map.observe(&self.x, &mut self.row[1..len - 1]);
        self.row[len - 1] = 0.0;
        sink.push(&self.row);
        if self.sections {
            sink.push_section(SectionId::Model(0), &self.row);
        }
    }

    fn check_finite(&self) -> Result<(), SimError> {
        match self.x.iter().position(|&v| !is_bounded(v)) {
            None => Ok(()),
            Some(i) => Err(SimError::MapDiverged {
                iteration: self.n,
                name: self
                    .names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("x[{i}]")),
                value: self.x[i],
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x' = x/2 + 1` (fixed point 2), with a passive copy.
    struct Halving;

    impl MapModel for Halving {
        fn dim(&self) -> usize {
            2
        }
        fn n_passive(&self) -> usize {
            1
        }
        fn state_names(&self) -> Vec<String> {
            vec!["x".into(), "x2".into()]
        }
        fn step(&self, x: &[f64], out: &mut [f64]) {
            out[0] = 0.5 * x[0] + 1.0;
            out[1] = 0.5 * x[1] + 1.0;
        }
        fn jacobian(&self, _x: &[f64], jac: &mut [f64]) {
            jac[0] = 0.5;
        }
        fn columns(&self) -> Vec<Column> {
            vec![Column::new("x", ""), Column::new("x2", "")]
        }
        fn observe(&self, x: &[f64], row: &mut [f64]) {
            row.copy_from_slice(x);
        }
    }

    #[test]
    fn rows_count_iterations_like_time() {
        let mut run = MapRun::new(Box::new(Halving), vec![0.0, 4.0]).unwrap();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        run.advance(3.0, &mut rows).unwrap();
        assert_eq!(run.column_names(), ["t", "x", "x2", "event"]);
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[3], vec![3.0, 1.75, 2.25, 0.0]);
        // Time only moves forward; a second call continues.
        run.advance(2.5, &mut rows).unwrap();
        assert_eq!(rows.len(), 4);
        run.advance(3.5, &mut rows).unwrap();
        assert_eq!(run.time_s(), 4.0);
    }

    #[test]
    fn divergence_is_a_typed_error() {
        struct Doubling;
        impl MapModel for Doubling {
            fn dim(&self) -> usize {
                1
            }
            fn state_names(&self) -> Vec<String> {
                vec!["x".into()]
            }
            fn step(&self, x: &[f64], out: &mut [f64]) {
                out[0] = x[0] * x[0];
            }
            fn jacobian(&self, x: &[f64], jac: &mut [f64]) {
                jac[0] = 2.0 * x[0];
            }
            fn columns(&self) -> Vec<Column> {
                vec![Column::new("x", "")]
            }
            fn observe(&self, x: &[f64], row: &mut [f64]) {
                row[0] = x[0];
            }
        }
        let mut run = MapRun::new(Box::new(Doubling), vec![10.0]).unwrap();
        let e = run.advance(100.0, &mut crate::integrate::driver::NullSink);
        assert!(
            matches!(e, Err(SimError::MapDiverged { ref name, .. }) if name == "x"),
            "{e:?}"
        );
        // Iterations, not seconds: x ← x² from 10 gives 10^(2ⁿ), past 1e150 at n = 8.
        let message = e.map_err(|e| e.to_string()).unwrap_err();
        assert!(
            message.starts_with("map diverged at iteration 8: state `x`"),
            "{message}"
        );
    }
}
