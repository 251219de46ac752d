//! A run advanced in chunks (as the window's worker does, a few milliseconds of model time at a
//! time) gives exactly the rows of the same run advanced at once: rows past a chunk's end are
//! observed when the integration passes them — before a switch that follows in the same step
//! changes the mode — and handed out by the next chunk, in time order.

#![allow(clippy::unwrap_used)]

use tribolab::integrate::Runner;
use tribolab::preset::builtin;

fn rows(stem: &str, t_end: f64, chunk_s: Option<f64>) -> Vec<Vec<f64>> {
    let p = builtin::load(stem).unwrap().unwrap();
    let mut sim: Runner = p.build_runner().unwrap();
    let mut out = Vec::<Vec<f64>>::new();
    match chunk_s {
        None => sim.advance(t_end, &mut out).unwrap(),
        Some(dt) => {
            let mut t = 0.0;
            while t < t_end {
                t = (t + dt).min(t_end);
                sim.advance(t, &mut out).unwrap();
            }
        }
    }
    out.retain(|r| r[0] <= t_end);
    out
}

#[test]
fn chunked_and_whole_runs_give_the_same_rows() {
    for (stem, t_end) in [
        ("coulomb_stick_slip_undamped", 5.0),
        ("seven_parameter_dwell", 10.0),
        ("gms_stick_slip", 10.0),
        ("two_block_bk", 5.0),
        ("s1_bench_19_36rpm", 5.0),
    ] {
        let whole = rows(stem, t_end, None);
        for chunk in [0.0137, 0.1] {
            let chunked = rows(stem, t_end, Some(chunk));
            assert_eq!(whole.len(), chunked.len(), "{stem}, chunks of {chunk} s");
            for (a, b) in whole.iter().zip(&chunked) {
                assert_eq!(a, b, "{stem}, chunks of {chunk} s: row at t = {}", a[0]);
            }
            // Time never runs backwards in the delivered rows.
            assert!(chunked.windows(2).all(|w| w[1][0] >= w[0][0]), "{stem}");
        }
    }
}
