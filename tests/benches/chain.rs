//! Criterion benchmarks of the structured Rosenbrock path: the synthetic stiff chain
//! (`tests/support/chain.rs`) over 0.2 model-seconds with Rodas4 at rtol 1e-6, banded at
//! N = 10, 100 and 1000 blocks and dense at N = 10 and 100 (dense N = 1000 takes ~1.4 s per
//! step). Run with `cargo bench --no-default-features --bench chain`; the full table with
//! fitted exponents is `tests/chain_scaling.rs`.

#[path = "../support/mod.rs"]
mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use support::chain::Declared;
use support::scaling::time_run;

const MODEL_SECONDS: f64 = 0.2;

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain_0.2_model_s");
    g.sample_size(10);
    let cases = [
        ("banded_n10", 10, Declared::Banded),
        ("banded_n100", 100, Declared::Banded),
        ("banded_n1000", 1000, Declared::Banded),
        ("dense_n10", 10, Declared::Dense),
        ("dense_n100", 100, Declared::Dense),
    ];
    for (name, blocks, declared) in cases {
        g.bench_function(name, |b| {
            b.iter(|| time_run(blocks, declared, MODEL_SECONDS, 1).steps)
        });
    }
    g.finish();
}

criterion_group!(chain, benches);
criterion_main!(chain);
