//! Criterion benchmark of CSV output: rows of the LuGre bench written by the CLI's CSV sink
//! into memory, rows per second, beside the formatter it replaced (`format!` with `{}`/`{:e}`
//! and a `String` per number, kept here as the baseline). Run with
//! `cargo bench --no-default-features --bench csv`.

use std::io::Write;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tribolab::cli::CsvSink;
use tribolab::integrate::SampleSink;
use tribolab::preset::builtin;

/// Rows recorded once and written by every iteration.
fn rows() -> (Vec<String>, Vec<Vec<f64>>) {
    let mut p = builtin::load("lugre_canudas_1995")
        .expect("built-in preset exists")
        .expect("built-in preset is valid");
    p.run.output_interval_s = 1e-3;
    let mut r = p.build_runner().expect("builds");
    let mut rows = Vec::<Vec<f64>>::new();
    r.advance(20.0, &mut rows).expect("runs");
    (r.column_names(), rows)
}

/// The number formatter the CSV sink used before (shortest round trip through `std::fmt`).
fn std_format(v: f64) -> String {
    if v == 0.0 || v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v}")
    } else if v.abs() < 1e-4 || v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn benches(c: &mut Criterion) {
    let (header, rows) = rows();
    let mut g = c.benchmark_group("csv");
    g.throughput(Throughput::Elements(rows.len() as u64));
    g.bench_function("lugre_rows", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(rows.len() * 256);
            let mut sink = CsvSink::new(&mut out, &header).expect("header");
            for row in &rows {
                sink.push(row);
            }
            sink.finish().expect("written");
            out.len()
        });
    });
    g.bench_function("lugre_rows_std_format_baseline", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(rows.len() * 256);
            writeln!(out, "{}", header.join(",")).expect("header");
            let mut line = String::new();
            for row in &rows {
                line.clear();
                for (i, v) in row.iter().enumerate() {
                    if i > 0 {
                        line.push(',');
                    }
                    line.push_str(&std_format(*v));
                }
                line.push('\n');
                out.write_all(line.as_bytes()).expect("row");
            }
            out.len()
        });
    });
    g.finish();
}

criterion_group!(csv, benches);
criterion_main!(csv);
