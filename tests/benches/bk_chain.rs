//! Criterion benchmarks of the Burridge–Knopoff chains (the README's chain table):
//!
//! - W3, the 100-block LuGre chain of `../shared/bench/peer_bench.py --chain`, 10 model-s:
//!   Dormand–Prince at rtol 1e-13 (as accurate as the peer's RK4 at dt = 1e-5: 2.5e-13
//!   against 2.9e-13 from a converged reference), Rodas4 with the exact sparse Jacobian at
//!   1e-12, and the preset's own Rodas4 at 1e-8;
//! - Carlson–Langer chains of 100 and 1000 blocks (the active-set scheme), 200 time units
//!   after a 1000-unit transient (set up outside the timing).
//!
//! `cargo bench --no-default-features --bench bk_chain`; slip events per wall-second and the
//! cost exponent: `tribolab bench --only Carlson`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tribolab::integrate::Method;
use tribolab::integrate::driver::NullSink;
use tribolab::preset::{Preset, builtin};

fn preset(stem: &str) -> Preset {
    builtin::load(stem).expect("built in").expect("loads")
}

fn w3(c: &mut Criterion) {
    let mut g = c.benchmark_group("w3_lugre_chain_10_model_s");
    g.sample_size(10);
    for (name, method, rtol) in [
        ("dopri5_rtol1e-13", Method::Dopri5, 1e-13),
        ("rodas4_rtol1e-12", Method::Rodas4, 1e-12),
        ("preset_rodas4_rtol1e-8", Method::Auto, 1e-8),
    ] {
        let mut p = preset("lugre_chain_w3");
        p.run.integrator = method;
        p.run.rtol = rtol;
        p.run.output_interval_s = 10.0;
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut sim = p.build_runner().expect("builds");
                sim.advance(10.0, &mut NullSink).expect("runs");
                sim.stats().steps
            })
        });
    }
    g.finish();
}

fn carlson_langer(c: &mut Criterion) {
    let mut g = c.benchmark_group("carlson_langer_200_time_units");
    g.sample_size(10);
    for blocks in [100usize, 1000] {
        let mut p = preset("carlson_langer_100");
        p.set_path("system.blocks", &blocks.to_string())
            .expect("blocks");
        g.bench_function(format!("n{blocks}"), |b| {
            b.iter_batched(
                || {
                    let mut run = p.build_runner().expect("builds");
                    run.advance(1000.0, &mut NullSink).expect("transient");
                    run
                },
                |mut run| {
                    run.advance(1200.0, &mut NullSink).expect("runs");
                    run.stats().events
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, w3, carlson_langer);
criterion_main!(benches);
