//! `tribolab bench`: the workloads of `../shared/bench/peer_bench.py` (W1 LuGre, W2 smoothed
//! Stribeck; 100 model-s; adaptive at rtol 1e-8, RK4 at dt = 1e-5) and the event-driven Coulomb
//! cycle, timed without start-up (best of five) and printed as JSON lines with the same
//! checksums as the peer script: limit-cycle period from up-crossings of v_b − ẋ through
//! 0.05 m/s on a 2000 Hz dense grid, peak friction force, final state (x, ẋ, z with the peer's
//! sign z_peer = −z). Then the chains (`bench_chain`): W3, the 100-block LuGre chain of
//! `peer_bench.py --chain`, and Carlson–Langer chains of 10 to 1000 blocks. Runs from a release
//! build without the test dependencies.

use std::io::Write;
use std::time::Instant;

use super::opts::{flag_value, split_flag};
use super::{CliError, stdout_result};
use crate::integrate::Method;
use crate::integrate::driver::NullSink;
use crate::preset::Preset;
use crate::preset::builtin;

const T_END: f64 = 100.0;
const REPEATS: usize = 5;

pub(super) fn bench(args: &[String]) -> Result<(), CliError> {
    let mut quick = false;
    // `--only TEXT`: the cases whose workload or engine contains TEXT (e.g. `RK4`, `W1`).
    let mut only: Option<String> = None;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match split_flag(a) {
            ("--quick", None) => quick = true,
            ("--only", inline) => only = Some(flag_value("--only", &inline, &mut rest)?),
            _ => {
                return Err(CliError::Usage(format!(
                    "bench: unexpected argument `{a}` (expected --quick, --only TEXT)"
                )));
            }
        }
    }
    let cases: &[(&str, &str, Method, &str)] = &[
        (
            "W1-LuGre",
            "lugre_canudas_1995",
            Method::Rodas4,
            "tribolab-Rodas4",
        ),
        (
            "W1-LuGre",
            "lugre_canudas_1995",
            Method::Rodas5,
            "tribolab-Rodas5",
        ),
        (
            "W2-Stribeck-tanh",
            "w2_stribeck_tanh",
            Method::Rodas4,
            "tribolab-Rodas4",
        ),
        (
            "W2-Stribeck-tanh",
            "w2_stribeck_tanh",
            Method::Rodas5,
            "tribolab-Rodas5",
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
        (
            "Coulomb-event-driven",
            "coulomb_stick_slip_undamped",
            Method::Auto,
            "tribolab-Dopri5-events",
        ),
    ];
    let mut out = std::io::stdout().lock();
    for &(workload, stem, method, engine) in cases {
        if quick && method == Method::Rk4 {
            continue;
        }
        if let Some(text) = &only
            && !workload.contains(text.as_str())
            && !engine.contains(text.as_str())
        {
            continue;
        }
        let p = preset(stem, method)?;
        let (wall, steps, nfev) = timed(&p)?;
        let (period, n, f_max, fin) = checksums(&p)?;
        let line = format!(
            "{{\"workload\": \"{workload}\", \"engine\": \"{engine}\", \"wall_s\": {wall:.6}, \
             \"model_s_per_wall_s\": {:.4e}, \"steps\": {steps}, \"nfev\": {nfev}, \
             \"period\": {period}, \"n_cycles\": {n}, \"F_max\": {f_max}, \"final_state\": {fin:?}}}",
            T_END / wall
        );
        stdout_result(writeln!(out, "{line}"))?;
    }
    super::bench_chain::chain_cases(only.as_deref(), quick, &mut out)
}

fn preset(stem: &str, method: Method) -> Result<Preset, CliError> {
    let mut p = builtin::load(stem)
        .ok_or_else(|| CliError::Failed(format!("no built-in preset {stem}")))?
        .map_err(|e| CliError::Failed(e.to_string()))?;
    p.run.integrator = method;
    if method != Method::Auto {
        p.run.rtol = 1e-8;
    }
    p.run.rk4_dt_s = 1e-5;
    Ok(p)
}

fn timed(p: &Preset) -> Result<(f64, u64, u64), CliError> {
    let mut q = p.clone();
    q.run.output_interval_s = 10.0;
    let mut best = f64::INFINITY;
    let mut stats = (0, 0);
    for _ in 0..REPEATS {
        let mut sim = q
            .build_simulation()
            .map_err(|e| CliError::Failed(e.to_string()))?;
        let t0 = Instant::now();
        sim.advance(T_END, &mut NullSink)
            .map_err(|e| CliError::Failed(e.to_string()))?;
        best = best.min(t0.elapsed().as_secs_f64());
        stats = (sim.stats().steps, sim.stats().rhs_evals);
    }
    Ok((best, stats.0, stats.1))
}

fn checksums(p: &Preset) -> Result<(f64, usize, f64, Vec<f64>), CliError> {
    let mut q = p.clone();
    q.run.output_interval_s = 1.0 / 2000.0;
    let mut sim = q
        .build_simulation()
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(T_END, &mut rows)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let names = sim.column_names();
    let col = |n: &str| names.iter().position(|c| c == n);
    let (Some(it), Some(iv), Some(ix), Some(ivel), Some(ifr), Some(iev)) = (
        col("t"),
        col("v_rel"),
        col("x"),
        col("v"),
        col("friction_force"),
        col("event"),
    ) else {
        return Err(CliError::Failed("missing output columns".into()));
    };
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
    let fin = match grid.last() {
        Some(last) => {
            let mut v = vec![last[ix], last[ivel]];
            if let Some(iz) = col("z") {
                v.push(-last[iz]);
            }
            v
        }
        None => vec![],
    };
    Ok((period, ups.len(), f_max, fin))
}
