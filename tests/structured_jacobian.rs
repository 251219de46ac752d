//! Declared Jacobian structures (`Model::jacobian_structure`): the column-grouped difference
//! Jacobian equals the column-by-column one, and the Rosenbrock stepper's structured path
//! (grouped differences + faer's sparse LU) follows the same trajectory as the dense path on a
//! stiff chain of 200 blocks (`tests/support/chain.rs`).

mod support;

use support::chain::{Chain, Declared};
use tribolab::integrate::column_groups::{ColumnGroups, GroupedDifference};
use tribolab::integrate::driver::DriverSettings;
use tribolab::integrate::{Method, Model, SampleSink, Simulation, SparsityPattern};

#[derive(Default)]
struct Rows(Vec<Vec<f64>>);

impl SampleSink for Rows {
    fn push(&mut self, row: &[f64]) {
        self.0.push(row.to_vec());
    }
}

/// A state away from equilibrium, with velocities on both sides of the belt's.
fn probe_state(chain: &Chain) -> Vec<f64> {
    let mut y = chain.initial_state();
    for k in 0..chain.blocks {
        y[2 * k + 1] = 0.05 + 0.002 * ((k * 37 % 11) as f64 - 5.0);
    }
    y
}

/// Forward-difference increments as the stepper takes them: `√ε·max(|y_j|, s_j)`.
fn increments(chain: &Chain, y: &[f64]) -> Vec<f64> {
    let mut s = vec![0.0; chain.dim()];
    chain.state_scales(&mut s);
    (0..2 * chain.blocks)
        .map(|j| f64::EPSILON.sqrt() * y[j].abs().max(s[j]))
        .collect()
}

/// The dense forward-difference Jacobian of the dynamic block, row-major, one column per
/// right-hand side.
fn dense_difference(chain: &Chain, y: &[f64], delta: &[f64]) -> Vec<f64> {
    let (n, nd) = (chain.dim(), 2 * chain.blocks);
    let mut f0 = vec![0.0; n];
    chain.rhs(0.3, y, &mut f0);
    let mut jac = vec![0.0; nd * nd];
    let (mut yp, mut f) = (y.to_vec(), vec![0.0; n]);
    for j in 0..nd {
        yp[j] = y[j] + delta[j];
        chain.rhs(0.3, &yp, &mut f);
        yp[j] = y[j];
        for i in 0..nd {
            jac[i * nd + j] = (f[i] - f0[i]) / delta[j];
        }
    }
    jac
}

/// Grouped differences over `pattern` agree with the dense differences to `1e-10` of the
/// largest entry, and the dense differences vanish outside the pattern (so the pattern is
/// complete). Returns the number of groups.
fn assert_grouped_equals_dense(chain: &Chain, pattern: &SparsityPattern) -> usize {
    let y = probe_state(chain);
    let delta = increments(chain, &y);
    let dense = dense_difference(chain, &y, &delta);
    let nd = 2 * chain.blocks;
    let mut f0 = vec![0.0; chain.dim()];
    chain.rhs(0.3, &y, &mut f0);
    let mut diff = GroupedDifference::new(pattern, chain.dim());
    let mut values = vec![0.0; pattern.nnz()];
    let evals = diff.difference(chain, 0.3, &y, &f0, &delta, pattern, &mut values);
    assert_eq!(evals as usize, diff.groups().len());
    let scale = dense.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(scale > 1e3, "stiff entries expected, largest {scale}");
    let mut worst = 0.0f64;
    for ((i, j), v) in pattern.entries().zip(&values) {
        worst = worst.max((v - dense[i * nd + j]).abs());
        // The difference quotient approximates the analytic entry (truncation ~√ε relative).
        let exact = chain.jacobian_entry(&y, i, j);
        assert!(
            (v - exact).abs() <= 1e-5 * scale,
            "({i}, {j}): {v} vs analytic {exact}"
        );
    }
    assert!(
        worst <= 1e-10 * scale,
        "grouped vs dense: {worst:e} (scale {scale:e})"
    );
    for i in 0..nd {
        for j in 0..nd {
            if pattern.position(i, j).is_none() {
                assert_eq!(dense[i * nd + j], 0.0, "({i}, {j}) outside the pattern");
            }
        }
    }
    diff.groups().len()
}

/// (b) The band `lower = 3, upper = 1` of a 60-block chain: 5 groups instead of 120 columns.
#[test]
fn banded_grouped_differences_equal_dense_differences() {
    let chain = Chain::new(60, Declared::Banded);
    let band = SparsityPattern::banded(120, 3, 1);
    assert_eq!(assert_grouped_equals_dense(&chain, &band), 5);
}

/// (c) The exact pattern (5 entries per block): every group structurally orthogonal, fewer
/// groups than the band needs.
#[test]
fn sparse_pattern_groups_and_differences() {
    let chain = Chain::new(60, Declared::Sparse);
    let pattern = chain.exact_pattern();
    assert_eq!(pattern.nnz(), 5 * 60 - 2);
    let groups = ColumnGroups::new(&pattern);
    for g in 0..groups.len() {
        let mut hit = [false; 120];
        for &j in groups.group(g) {
            for &i in pattern.rows_of(j) {
                assert!(!hit[i], "group {g} hits row {i} twice");
                hit[i] = true;
            }
        }
    }
    let n_groups = assert_grouped_equals_dense(&chain, &pattern);
    assert!(n_groups < 5, "{n_groups} groups");
}

/// What one run of the chain gave.
struct Run {
    rows: Vec<Vec<f64>>,
    rhs_evals: u64,
    steps: u64,
}

fn run(blocks: usize, declared: Declared, method: Method, t_end: f64) -> Run {
    let chain = Chain::new(blocks, declared);
    let y0 = chain.initial_state();
    let settings = DriverSettings {
        method,
        rtol: 1e-6,
        rk4_dt_s: 1e-4,
        output_interval_s: 0.01,
    };
    let mut sim = Simulation::new(Box::new(chain), y0, 0.0, settings).expect("starts");
    let mut rows = Rows::default();
    sim.advance(t_end, &mut rows).expect("runs");
    let stats = sim.stats();
    Run {
        rows: rows.0,
        rhs_evals: stats.rhs_evals,
        steps: stats.steps,
    }
}

/// Largest difference between the sampled outputs of two runs for each column after `t`,
/// relative to the column's largest magnitude.
fn max_rel_differences(a: &Run, b: &Run) -> Vec<f64> {
    assert_eq!(a.rows.len(), b.rows.len(), "sample counts differ");
    let width = a.rows[0].len();
    (1..width)
        .map(|c| {
            let size = a.rows.iter().fold(0.0f64, |m, r| m.max(r[c].abs()));
            let mut worst = 0.0f64;
            for (ra, rb) in a.rows.iter().zip(&b.rows) {
                assert_eq!(ra[0], rb[0], "sample times differ");
                let d = (ra[c] - rb[c]).abs();
                // The event-flag column is 0 throughout: any difference counts fully.
                worst = worst.max(if size > 0.0 { d / size } else { d });
            }
            worst
        })
        .collect()
}

/// (a) A stiff chain of 200 blocks (401 states) with Rodas4 at rtol 1e-6: declared banded,
/// sparse, and banded with analytic values, the samples agree with the dense path's to 1e-7 of
/// each column's size, with the same step count ± 2, and the structured runs spend far fewer
/// right-hand sides.
///
/// The tolerance: these runs differ only by round-off in the linear algebra (faer's sparse LU
/// vs nalgebra's dense LU), but the step-size control amplifies round-off here — perturbing one
/// initial state by 1e-15 relative moves the samples by 2e-8 — so 1e-7 is the noise floor with
/// margin. A wrong Jacobian shows far above it: the band declared one sub-diagonal too narrow
/// (checked below) moves the samples by ~1e-4 and takes ~15 times the steps.
#[test]
fn structured_paths_follow_the_dense_trajectory() {
    let (blocks, t_end) = (200, 0.15);
    let method = Method::Rodas4;
    let dense = run(blocks, Declared::Dense, method, t_end);
    assert!(dense.steps > 20, "only {} steps", dense.steps);
    for declared in [Declared::Banded, Declared::Sparse, Declared::BandedAnalytic] {
        let other = run(blocks, declared, method, t_end);
        let diff = max_rel_differences(&dense, &other);
        assert!(
            diff.iter().all(|d| *d <= 1e-7),
            "{declared:?}: samples differ by {diff:?} relative (x0, v_mid, work, event)"
        );
        assert!(
            other.steps.abs_diff(dense.steps) <= 2,
            "{declared:?}: {} steps vs dense {}",
            other.steps,
            dense.steps
        );
        assert!(
            other.rhs_evals * 10 < dense.rhs_evals,
            "{declared:?}: {} evaluations vs dense {}",
            other.rhs_evals,
            dense.rhs_evals
        );
    }
    // Negative control: a band that misses v̇_k's dependence on x_{k−1} is wrong, and the
    // comparison sees it.
    let wrong = run(blocks, Declared::TooNarrow, method, t_end);
    let diff = max_rel_differences(&dense, &wrong);
    assert!(
        diff.iter().any(|d| *d > 1e-5),
        "a wrong Jacobian went unnoticed: {diff:?}"
    );
}
