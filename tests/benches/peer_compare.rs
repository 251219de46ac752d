//! Side-by-side companion of `../shared/bench/peer_bench.py`: the same workloads (W1 LuGre, W2
//! smoothed Stribeck; 100 model-s, rtol 1e-8 / RK4 dt = 1e-5), timed without start-up (best of
//! five), with the same checksums: limit-cycle period from up-crossings of v_b − ẋ through
//! 0.05 m/s on a 2000 Hz dense grid, peak friction force, final state (x, ẋ, z with the peer's
//! sign z_peer = −z). Run with `cargo bench --no-default-features --bench peer_compare`.

use std::time::Instant;

use tribolab::integrate::Method;
use tribolab::integrate::driver::NullSink;
use tribolab::preset::Preset;
use tribolab::preset::builtin;

const T_END: f64 = 100.0;

fn preset(stem: &str, method: Method) -> Preset {
    let mut p = builtin::load(stem)
        .expect("built-in preset exists")
        .expect("built-in preset is valid");
    p.run.integrator = method;
    p.run.rtol = 1e-8;
    p.run.rk4_dt_s = 1e-5;
    p
}

fn timed(p: &Preset) -> (f64, u64, u64) {
    let mut q = p.clone();
    q.run.output_interval_s = T_END;
    let mut best = f64::INFINITY;
    let mut stats = (0, 0);
    for _ in 0..5 {
        let mut sim = q.build_simulation().expect("builds");
        let t0 = Instant::now();
        sim.advance(T_END, &mut NullSink).expect("runs");
        best = best.min(t0.elapsed().as_secs_f64());
        stats = (sim.stats().steps, sim.stats().rhs_evals);
    }
    (best, stats.0, stats.1)
}

fn checksums(p: &Preset) -> (f64, usize, f64, Vec<f64>) {
    let mut q = p.clone();
    q.run.output_interval_s = 1.0 / 2000.0;
    let mut sim = q.build_simulation().expect("builds");
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(T_END, &mut rows).expect("runs");
    let names = sim.column_names();
    let col = |n: &str| names.iter().position(|c| c == n).expect("column");
    let (it, iv, ix, ivel, ifr, iev) = (
        col("t"),
        col("v_rel"),
        col("x"),
        col("v"),
        col("friction_force"),
        col("event"),
    );
    let grid: Vec<&Vec<f64>> = rows
        .iter()
        .filter(|r| r[iev] == 0.0 && r[it] <= T_END)
        .collect();
    let mut ups = vec![];
    for w in grid.windows(2) {
        let (a, b) = (-w[0][iv], -w[1][iv]);
        if a < 0.05 && b >= 0.05 {
            ups.push(w[0][it] + (0.05 - a) / (b - a) * (w[1][it] - w[0][it]));
        }
    }
    let period = if ups.len() > 2 {
        ups[ups.len() - 1] - ups[ups.len() - 2]
    } else {
        f64::NAN
    };
    let f_max = grid.iter().map(|r| r[ifr]).fold(f64::MIN, f64::max);
    let last = grid.last().expect("samples");
    let mut fin = vec![last[ix], last[ivel]];
    if let Some(iz) = names.iter().position(|c| c == "z") {
        fin.push(-last[iz]);
    }
    (period, ups.len(), f_max, fin)
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to parse.
    let cases = [
        (
            "W1-LuGre",
            "lugre_canudas_1995",
            Method::Rodas4,
            "tribolab-Rodas4",
        ),
        (
            "W2-Stribeck-tanh",
            "w2_stribeck_tanh",
            Method::Rodas4,
            "tribolab-Rodas4",
        ),
        (
            "W1-LuGre",
            "lugre_canudas_1995",
            Method::Rk4,
            "tribolab-RK4",
        ),
        (
            "W2-Stribeck-tanh",
            "w2_stribeck_tanh",
            Method::Rk4,
            "tribolab-RK4",
        ),
    ];
    for (workload, stem, method, engine) in cases {
        let p = preset(stem, method);
        let (wall, steps, nfev) = timed(&p);
        let (period, n, f_max, fin) = checksums(&p);
        println!(
            "{{\"workload\": \"{workload}\", \"engine\": \"{engine}\", \"wall_s\": {wall:.6}, \
             \"steps\": {steps}, \"nfev\": {nfev}, \"period\": {period}, \"n_cycles\": {n}, \
             \"F_max\": {f_max}, \"final_state\": {fin:?}}}"
        );
    }
}
