//! Criterion benchmarks of the belt–block: model-seconds per wall-second for event-driven
//! Coulomb, smoothed Stribeck (W2) and LuGre (W1, σ₀ = 1e5), adaptive and fixed-step RK4.
//! Run with `cargo bench --no-default-features --bench belt_block`.

use criterion::{Criterion, criterion_group, criterion_main};
use tribolab::integrate::Method;
use tribolab::integrate::driver::NullSink;
use tribolab::preset::Preset;
use tribolab::preset::builtin;

const MODEL_SECONDS: f64 = 100.0;

fn preset(stem: &str, method: Method) -> Preset {
    let mut p = builtin::load(stem)
        .expect("built-in preset exists")
        .expect("built-in preset is valid");
    p.run.integrator = method;
    p.run.output_interval_s = 1.0;
    p
}

fn run(p: &Preset) -> f64 {
    let mut sim = p.build_simulation().expect("builds");
    sim.advance(MODEL_SECONDS, &mut NullSink).expect("runs");
    sim.time_s()
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("belt_block_100_model_s");
    g.sample_size(10);
    let cases = [
        (
            "event_driven_coulomb",
            "coulomb_stick_slip_undamped",
            Method::Auto,
        ),
        ("w2_stribeck_tanh_rodas4", "w2_stribeck_tanh", Method::Auto),
        ("w1_lugre_rodas4", "lugre_canudas_1995", Method::Auto),
        ("w1_lugre_rk4_dt1e-5", "lugre_canudas_1995", Method::Rk4),
        (
            "w2_stribeck_tanh_rk4_dt1e-5",
            "w2_stribeck_tanh",
            Method::Rk4,
        ),
    ];
    for (name, stem, method) in cases {
        let p = preset(stem, method);
        g.bench_function(name, |b| b.iter(|| run(&p)));
    }
    g.finish();
}

criterion_group!(belt_block, benches);
criterion_main!(belt_block);
