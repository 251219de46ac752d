//! Prints the scaling measurement of the structured Rosenbrock path (`tests/support/scaling.rs`):
//! `cargo test --release --no-default-features --test chain_scaling -- --ignored --nocapture`.
//! Not a check (timings depend on the machine); the exponent fit is tested on exact data.

mod support;

#[test]
#[ignore = "a timing measurement; run in release with --ignored --nocapture"]
fn chain_cost_against_blocks() {
    support::scaling::report();
}

#[test]
fn exponent_fit_recovers_a_power_law() {
    let pts: Vec<(f64, f64)> = [10.0f64, 100.0, 1000.0]
        .iter()
        .map(|&n| (n, 3.0 * n.powf(1.3)))
        .collect();
    let e = support::scaling::fitted_exponent(&pts);
    assert!((e - 1.3).abs() < 1e-12, "{e}");
}
