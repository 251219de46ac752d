//! The chain cases of `tribolab bench`, printed as JSON lines like the bench workloads:
//!
//! - **W3** of `../shared/bench/peer_bench.py --chain`: the 100-block LuGre chain over 10
//!   model-s, with the checksums of the peer script (Σ x_i, x₁, x₁₀₀ at t = 10 s), for three
//!   integrator settings: Dormand–Prince at rtol 1e-13 (as accurate as the peer's RK4 at
//!   dt = 1e-5), Rodas4 at 1e-12 (the same accuracy with the stiff path) and the preset's own
//!   setting (Rodas4 at 1e-8). Best of five, without start-up.
//! - **Carlson–Langer** chains of 10, 100 and 1000 blocks: after an untimed transient, slip
//!   events per wall-second (the run feeds the event catalogue, as `tribolab events` does) and
//!   model time per wall-second, then the fitted exponent of wall time per model time against
//!   N.

use std::io::Write;
use std::time::Instant;

use super::{CliError, stdout_result};
use crate::analysis::chain_catalogue::ChainCatalogue;
use crate::analysis::linefit::power_law_exponent;
use crate::integrate::driver::NullSink;
use crate::integrate::{Method, Role, SampleSink, Simulation};
use crate::preset::{Preset, builtin};

/// Model time of W3 [s].
const W3_MODEL_S: f64 = 10.0;
const REPEATS: usize = 5;
/// Untimed start of the Carlson–Langer runs: the chain loads for ~1/ν before the first slip.
const CL_TRANSIENT: f64 = 1000.0;

/// Runs the chain cases whose workload or engine contains `only` (all if `None`); `quick`
/// leaves out the 1000-block Carlson–Langer chain.
pub(super) fn chain_cases(
    only: Option<&str>,
    quick: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let wanted = |workload: &str, engine: &str| {
        only.is_none_or(|t| workload.contains(t) || engine.contains(t))
    };
    let w3 = "W3-BK-chain-N100-LuGre";
    for (method, rtol, engine) in [
        (Method::Dopri5, 1e-13, "tribolab-Dopri5-rtol1e-13"),
        (Method::Rodas4, 1e-12, "tribolab-Rodas4-rtol1e-12"),
        (Method::Auto, 1e-8, "tribolab-preset-Rodas4-rtol1e-8"),
    ] {
        if !wanted(w3, engine) {
            continue;
        }
        let mut p = load("lugre_chain_w3")?;
        p.run.integrator = method;
        p.run.rtol = rtol;
        let line = w3_line(&p, w3, engine)?;
        stdout_result(writeln!(out, "{line}"))?;
    }
    let cl = "Carlson-Langer";
    if !wanted(cl, "tribolab") {
        return Ok(());
    }
    let mut points = Vec::new();
    for (blocks, model_time) in [(10usize, 4000.0), (100, 4000.0), (1000, 1000.0)] {
        if quick && blocks > 100 {
            continue;
        }
        let (line, wall_per_model) = cl_line(blocks, model_time)?;
        points.push((blocks as f64, wall_per_model));
        stdout_result(writeln!(out, "{line}"))?;
    }
    if points.len() >= 2 {
        stdout_result(writeln!(
            out,
            "{{\"workload\": \"{cl}\", \"cost_exponent\": {:.3}, \"blocks\": {:?}}}",
            power_law_exponent(&points),
            points.iter().map(|p| p.0 as usize).collect::<Vec<_>>()
        ))?;
    }
    Ok(())
}

fn load(stem: &str) -> Result<Preset, CliError> {
    builtin::load(stem)
        .ok_or_else(|| CliError::Failed(format!("no built-in preset {stem}")))?
        .map_err(|e| CliError::Failed(e.to_string()))
}

fn simulation(p: &Preset) -> Result<Simulation, CliError> {
    p.build_simulation()
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// The W3 timing and checksums as one JSON line.
fn w3_line(p: &Preset, workload: &str, engine: &str) -> Result<String, CliError> {
    let mut best = f64::INFINITY;
    let mut stats = None;
    for _ in 0..REPEATS {
        let mut sim = simulation(p)?;
        let t0 = Instant::now();
        sim.advance(W3_MODEL_S, &mut NullSink)
            .map_err(|e| CliError::Failed(e.to_string()))?;
        best = best.min(t0.elapsed().as_secs_f64());
        stats = Some((sim.stats(), sim.columns()));
    }
    let (st, columns) = stats.ok_or_else(|| CliError::Failed("no W3 run".into()))?;
    let state_row = {
        let mut q = p.clone();
        q.run.output_interval_s = W3_MODEL_S;
        let mut s = simulation(&q)?;
        let mut rows: Vec<Vec<f64>> = Vec::new();
        s.advance(W3_MODEL_S, &mut rows)
            .map_err(|e| CliError::Failed(e.to_string()))?;
        rows.pop()
            .ok_or_else(|| CliError::Failed("W3 wrote no output".into()))?
    };
    let x: Vec<f64> = (0..)
        .map_while(|i| columns.iter().position(|c| c.role == Role::Position(i)))
        .map(|c| state_row[c])
        .collect();
    let (first, last) = (
        x.first().copied().unwrap_or(f64::NAN),
        x.last().copied().unwrap_or(f64::NAN),
    );
    Ok(format!(
        "{{\"workload\": \"{workload}\", \"engine\": \"{engine}\", \"model_time_s\": {W3_MODEL_S}, \
         \"wall_s\": {best:.6}, \"model_s_per_wall_s\": {:.4e}, \"steps\": {}, \"nfev\": {}, \
         \"checksum_sum_X\": {:?}, \"checksum_X0\": {first:?}, \"checksum_X99\": {last:?}}}",
        W3_MODEL_S / best,
        st.steps,
        st.rhs_evals,
        x.iter().sum::<f64>()
    ))
}

/// Feeds every row to the catalogue.
struct Feed<'a>(&'a mut ChainCatalogue);

impl SampleSink for Feed<'_> {
    fn push(&mut self, row: &[f64]) {
        self.0.push_row(row);
    }
}

/// One Carlson–Langer chain: untimed transient, then `model_time` timed with the catalogue.
/// Returns the JSON line and the wall time per model time unit.
fn cl_line(blocks: usize, model_time: f64) -> Result<(String, f64), CliError> {
    let mut p = load("carlson_langer_100")?;
    p.set_path("system.blocks", &blocks.to_string())
        .map_err(|e| CliError::Failed(e.to_string()))?;
    // The run the window and `tribolab events` use: the active-set scheme above ten blocks.
    let mut sim = p
        .build_runner()
        .map_err(|e| CliError::Failed(e.to_string()))?;
    sim.advance(CL_TRANSIENT, &mut NullSink)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let before = sim.stats();
    let mut catalogue = ChainCatalogue::new(&sim.columns(), &p.system.layout())
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let t0 = Instant::now();
    sim.advance(CL_TRANSIENT + model_time, &mut Feed(&mut catalogue))
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let wall = t0.elapsed().as_secs_f64();
    let events = catalogue.finish().len();
    let st = sim.stats();
    let line = format!(
        "{{\"workload\": \"Carlson-Langer-N{blocks}\", \"engine\": \"tribolab {}\", \
         \"model_time\": {model_time}, \"wall_s\": {wall:.4}, \"slip_events\": {events}, \
         \"slip_events_per_wall_s\": {:.1}, \"model_time_per_wall_s\": {:.4e}, \
         \"stick_slip_switches\": {}, \"steps\": {}}}",
        sim.method_name(),
        events as f64 / wall,
        model_time / wall,
        st.events - before.events,
        st.steps - before.steps
    );
    Ok((line, wall / model_time))
}
