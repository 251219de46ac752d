//! Robustness suites that stay in the repository (bounded, seeded, run by CI):
//!
//! * mutated presets through the parser: no panic, every problem located (line:col);
//! * random `--set` paths and values: no panic, every refusal names the field;
//! * malformed CSV files through the import: no panic, every error names the file;
//! * awkward series through `analyze`: no panic, every number in a report finite;
//! * random in-range parameters for every built-in preset's system and law: the run advances
//!   or stops with a typed error, never panics, never hangs, never writes a non-finite value.
//!
//! Every suite draws from fixed seeds, so a failure names an input that reproduces it.
//! Figures are printed (`cargo test --test robustness -- --nocapture`) and quoted in
//! docs/ROBUSTNESS.md.

#![allow(clippy::unwrap_used)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tribolab::analysis::measured::{CsvSelection, Resample, parse_csv};
use tribolab::analysis::pipeline::{PipelineOptions, analyze_series};
use tribolab::integrate::Runner;
use tribolab::params::Scale;
use tribolab::preset::{Preset, builtin};
use tribolab::util::rng::SplitMix64;

/// Uniform integer in `0..n`.
fn below(g: &mut SplitMix64, n: usize) -> usize {
    (g.next_u64() % n.max(1) as u64) as usize
}

fn pick<'a, T>(g: &mut SplitMix64, items: &'a [T]) -> &'a T {
    &items[below(g, items.len())]
}

/// Text that parsers trip over.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "'",
    "Some(",
    "None",
    "/*",
    "*/",
    "//",
    "\n",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "-0.0",
    "1.5",
    "0x1F",
    "99999999999999999999",
    "true",
    "é",
    "µ",
    "\u{feff}",
    "\t",
    "r#\"",
    "#",
    "law",
    "system",
    "version",
    "LuGre",
    "BeltBlock",
    "mu_s",
    "..",
    "-",
    "+",
    "e",
    "()",
    "{}",
];

/// One random edit of `text` (on character boundaries).
fn mutate(g: &mut SplitMix64, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len().max(1);
    let at = below(g, n);
    let len = 1 + below(g, 12);
    let end = (at + len).min(chars.len());
    let s = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
    match below(g, 7) {
        // Delete a stretch.
        0 => s(0, at) + &s(end, chars.len()),
        // Insert a token.
        1 => s(0, at) + *pick(g, TOKENS) + &s(at, chars.len()),
        // Replace a stretch by a token.
        2 => s(0, at) + *pick(g, TOKENS) + &s(end, chars.len()),
        // Truncate.
        3 => s(0, at),
        // Duplicate a stretch.
        4 => s(0, end) + &s(at, chars.len()),
        // Replace the next number by an extreme or malformed one.
        5 => {
            let rest = s(at, chars.len());
            match rest.find(|c: char| c.is_ascii_digit()) {
                Some(k) => {
                    let tail = &rest[k..];
                    let len = tail
                        .find(|c: char| !(c.is_ascii_digit() || ".eE-+".contains(c)))
                        .unwrap_or(tail.len());
                    let swap = pick(
                        g,
                        &[
                            "1e308", "-1e308", "0", "-1", "1e-320", "NaN", "1.5", "1e3e3",
                        ],
                    );
                    s(0, at) + &rest[..k] + swap + &tail[len..]
                }
                None => s(0, at),
            }
        }
        // Swap two lines.
        _ => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.len() > 1 {
                let (a, b) = (below(g, lines.len()), below(g, lines.len()));
                lines.swap(a, b);
            }
            lines.join("\n")
        }
    }
}

#[test]
fn mutated_presets_never_panic_and_every_problem_is_located() {
    let mut g = SplitMix64::new(0x5eed_0001);
    let (mut tried, mut refused) = (0usize, 0usize);
    for (stem, text) in builtin::BUILTIN {
        for k in 0..80 {
            let mut t = text.to_string();
            for _ in 0..1 + below(&mut g, 3) {
                t = mutate(&mut g, &t);
            }
            tried += 1;
            let result = catch_unwind(|| Preset::from_ron(&t, "fuzz.ron"));
            let Ok(result) = result else {
                panic!("{stem} mutation {k} panicked the parser:\n{t}");
            };
            if let Err(e) = result {
                refused += 1;
                assert!(
                    !e.problems.is_empty(),
                    "{stem} {k}: an error without problems"
                );
                for p in &e.problems {
                    assert!(
                        p.line >= 1 && p.col >= 1,
                        "{stem} {k}: problem not located: {p:?}\n{t}"
                    );
                    assert!(!p.message.is_empty(), "{stem} {k}: empty message");
                }
            }
        }
    }
    println!("presets: {tried} mutated texts, {refused} refused with located problems, 0 panics");
    assert!(
        refused > tried / 2,
        "mutations too gentle: {refused} of {tried}"
    );
}

/// Values `--set` is given in the wild.
const VALUES: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "1e308",
    "-1e308",
    "1e-320",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1.5",
    "2.5e",
    "",
    " ",
    "abc",
    "Some(1)",
    "None",
    "()",
    "[1, 2]",
    "1,5",
    "0x10",
    "1_000",
    "+3",
    "18446744073709551616",
    "Tanh(1e-4)",
    "Karnopp(-1)",
    "LuGre",
    "Coulomb",
    "(1)",
    "\"x\"",
];

#[test]
fn random_set_paths_never_panic_and_refusals_name_the_field() {
    let mut g = SplitMix64::new(0x5eed_0002);
    let (mut tried, mut refused) = (0usize, 0usize);
    for (stem, _) in builtin::BUILTIN {
        let base = builtin::load(stem).unwrap().unwrap();
        let mut keys: Vec<String> = Vec::new();
        for m in base.system.params().meta() {
            keys.push(format!("system.{}", m.key));
        }
        for m in base.law.params().meta() {
            keys.push(format!("law.{}", m.key));
        }
        for k in base.law.params().extra_keys() {
            keys.push(format!("law.{k}"));
        }
        keys.extend(
            [
                "law",
                "system",
                "noise",
                "run.duration",
                "run.dt",
                "law.",
                ".",
                "",
                "law.nope",
                "system.x.y",
                "contacts",
                "spread",
            ]
            .map(String::from),
        );
        for _ in 0..60 {
            let key = pick(&mut g, &keys).clone();
            let value = *pick(&mut g, VALUES);
            let mut p = base.clone();
            tried += 1;
            let Ok(result) = catch_unwind(AssertUnwindSafe(|| p.set_path(&key, value))) else {
                panic!("{stem}: --set {key}={value} panicked");
            };
            match result {
                Err(msg) => {
                    refused += 1;
                    assert!(
                        !msg.trim().is_empty(),
                        "{stem}: {key}={value}: empty message"
                    );
                    let field = key.rsplit('.').next().unwrap_or("");
                    assert!(
                        field.is_empty() || msg.contains(field) || msg.contains(&key),
                        "{stem}: --set {key}={value}: the message does not name the field: {msg}"
                    );
                }
                Ok(()) => {
                    // Accepted text must leave a preset whose problems (if any) are words.
                    let Ok(problems) = catch_unwind(AssertUnwindSafe(|| p.problems())) else {
                        panic!("{stem}: problems() panicked after {key}={value}");
                    };
                    assert!(problems.iter().all(|(k, m)| !k.is_empty() && !m.is_empty()));
                }
            }
        }
    }
    println!("--set: {tried} paths and values, {refused} refused naming the field, 0 panics");
}

#[test]
fn malformed_csv_files_never_panic_and_errors_name_the_file() {
    let mut g = SplitMix64::new(0x5eed_0003);
    let good: String = std::iter::once("t_s,x_m,f_n\n".to_string())
        .chain((0..40).map(|i| {
            let t = i as f64 * 1e-3;
            format!("{t},{},{}\n", (7.0 * t).sin(), (3.0 * t).cos())
        }))
        .collect();
    let extra = [
        "",
        "\n",
        "t,t\n1,2\n",
        "a;b\n1;2\n",
        "t,x\n1,2\n1,3\n",
        "t,x\n2,1\n1,1\n",
        "# only\n",
        "t,x\n1,\n",
        "t,x\n1,2,3\n",
        "\u{feff}t,x\r\n0,1\r\n1,2\r\n",
        "t,x\n0,1e400\n1,2\n",
        "t\tx\n0\t1\n1\t2\n",
    ];
    let (mut tried, mut refused) = (0usize, 0usize);
    for k in 0..600 {
        let text = if k < extra.len() {
            extra[k].to_string()
        } else {
            let mut t = good.clone();
            for _ in 0..1 + below(&mut g, 4) {
                t = mutate(&mut g, &t);
            }
            t
        };
        for columns in [&[][..], &["x_m"][..]] {
            tried += 1;
            let sel = CsvSelection {
                time: None,
                columns,
            };
            let Ok(result) = catch_unwind(|| parse_csv(&text, "fuzz.csv", sel)) else {
                panic!("CSV {k} panicked the import:\n{text}");
            };
            match result {
                Err(e) => {
                    refused += 1;
                    let msg = e.to_string();
                    assert!(msg.starts_with("fuzz.csv"), "CSV {k}: unlocated `{msg}`");
                }
                Ok(table) => {
                    for (name, _) in &table.columns {
                        let Ok(r) = catch_unwind(AssertUnwindSafe(|| {
                            table.series(name, 1e-3, Resample::LinearToMedian)
                        })) else {
                            panic!("CSV {k}: series({name}) panicked:\n{text}");
                        };
                        if let Err(e) = r {
                            assert!(e.to_string().starts_with("fuzz.csv"), "{e}");
                        }
                    }
                }
            }
        }
    }
    println!("CSV: {tried} imports, {refused} refused naming the file, 0 panics");
}

/// Series `analyze` meets: constant, stepped, spiky, quantised, noisy, huge, tiny, short.
fn awkward_series(g: &mut SplitMix64, k: usize) -> Vec<f64> {
    let n = [200, 257, 600, 1500][k % 4];
    let scale = [1.0, 1e160, 1e-200, 1e-9, 1e9][(k / 4) % 5];
    let f = |i: usize| i as f64;
    let base: Vec<f64> = match k % 9 {
        0 => vec![1.0; n],
        1 => (0..n).map(|i| f64::from(u8::from(i >= n / 2))).collect(),
        2 => (0..n).map(|i| f64::from(u8::from(i % 37 == 0))).collect(),
        3 => (0..n).map(|i| (f(i) * 0.1).sin().round()).collect(),
        4 => (0..n).map(|_| g.normal()).collect(),
        5 => (0..n).map(|i| if i == n / 3 { 1.0 } else { 0.0 }).collect(),
        6 => (0..n)
            .map(|i| (f(i) * 0.05).sin() + 1e-12 * g.normal())
            .collect(),
        7 => {
            let mut x = 0.0;
            (0..n)
                .map(|_| {
                    x += g.normal();
                    x
                })
                .collect()
        }
        _ => (0..n).map(|i| ((f(i) * 0.3).sin() * 4.0).floor()).collect(),
    };
    base.into_iter().map(|v| v * scale).collect()
}

#[test]
fn awkward_series_never_panic_and_reports_are_finite() {
    let mut g = SplitMix64::new(0x5eed_0004);
    let (mut tried, mut refused) = (0usize, 0usize);
    let mut undefined_e2 = 0usize;
    for k in 0..45 {
        let s = awkward_series(&mut g, k);
        tried += 1;
        let Ok(result) =
            catch_unwind(|| analyze_series("s", &s, 1e-3, &PipelineOptions::default()))
        else {
            panic!("series {k} panicked the analysis");
        };
        match result {
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
            Ok(r) => {
                // JSON writes non-finite numbers as null; the text report would show them.
                let text = r.to_text();
                let words: Vec<&str> = text
                    .split(|c: char| c.is_whitespace() || ",;:()=[]".contains(c))
                    .collect();
                for bad in ["NaN", "inf", "-inf"] {
                    assert!(
                        !words.contains(&bad),
                        "series {k}: {bad} in the report:\n{text}"
                    );
                }
                for p in r.peaks.iter().chain(&r.harmonics) {
                    assert!(
                        p.freq_hz.is_finite() && p.amplitude.is_finite(),
                        "{k}: {p:?}"
                    );
                }
                assert!(
                    r.cao.e1.iter().all(|v| v.is_finite()),
                    "{k}: {:?}",
                    r.cao.e1
                );
                assert!(r.cao.e2.iter().flatten().all(|v| v.is_finite()));
                undefined_e2 += r.cao.e2.iter().filter(|v| v.is_none()).count();
            }
        }
    }
    println!(
        "analyze: {tried} awkward series, {refused} refused with a reason, 0 panics, \
         {undefined_e2} undefined E2 values (exact prediction) reported as such"
    );
}

/// Outcome of one bounded run.
enum Outcome {
    Ran,
    Advancing,
    Refused(String),
    Panicked(String),
}

/// A random in-range value for a parameter (log-uniform on log sliders).
fn draw(g: &mut SplitMix64, m: &tribolab::params::ParamMeta) -> f64 {
    let u = g.uniform_open();
    let v = match m.scale {
        Scale::Log if m.min > 0.0 => (m.min.ln() + u * (m.max.ln() - m.min.ln())).exp(),
        Scale::Log => {
            let lo = m.max * 1e-6;
            if u < 0.1 {
                m.min
            } else {
                (lo.ln() + u * (m.max.ln() - lo.ln())).exp()
            }
        }
        _ => m.min + u * (m.max - m.min),
    };
    let v = if m.integer { v.round() } else { v };
    v.clamp(m.min, m.max)
}

/// Model time each random run covers at most (its preset's duration if shorter), in chunks of
/// one output interval (as the window advances).
const MODEL_S: f64 = 0.2;
/// Wall time after which a run that is still advancing chunk by chunk is left (a long run at
/// a steady rate is not a hang; its cost is what the benchmarks measure).
const BUDGET_S: f64 = 1.5;
/// Wall time one chunk may take at most (debug build, the other core busy): a chunk slower
/// than this counts as a hang.
const WALL_LIMIT_S: f64 = 60.0;

#[test]
fn random_parameters_run_or_stop_with_a_typed_error_within_bounded_time() {
    let mut g = SplitMix64::new(0x5eed_0005);
    let (mut tried, mut ran, mut refused, mut inconsistent) = (0usize, 0usize, 0usize, 0usize);
    let mut advancing = 0usize;
    let mut slowest = (0.0f64, String::new());
    for (stem, _) in builtin::BUILTIN {
        let base = builtin::load(stem).unwrap().unwrap();
        for draw_no in 0..3 {
            let mut p = base.clone();
            let mut set = Vec::new();
            let system_meta = p.system.params().meta();
            let law_meta = if p.system.uses_law() {
                p.law.params().meta()
            } else {
                &[]
            };
            for (prefix, metas) in [("system", system_meta), ("law", law_meta)] {
                for m in metas {
                    // Element and block counts at their maximum make one run minutes long
                    // in a debug build; their cost is measured by the benchmarks instead.
                    if m.integer && m.max > 64.0 {
                        continue;
                    }
                    if below(&mut g, 2) == 0 {
                        let v = draw(&mut g, m);
                        let path = format!("{prefix}.{}", m.key);
                        p.set_path(&path, &format!("{v:e}")).unwrap();
                        set.push(format!("{path}={v:e}"));
                    }
                }
            }
            tried += 1;
            let what = format!("{stem} draw {draw_no}: {}", set.join(" "));
            if !p.problems().is_empty() {
                // Contradicting values are refused before any run (tested elsewhere).
                inconsistent += 1;
                continue;
            }
            let (tx, rx) = mpsc::channel();
            let job = p.clone();
            let started = Instant::now();
            std::thread::spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| -> Result<bool, String> {
                    let mut sim = job.build_runner().map_err(|e| e.to_string())?;
                    // A map's time counts iterations; atomic models run over nanoseconds.
                    let (end, chunk) = match sim {
                        Runner::Map(_) => (50.0, 1.0),
                        _ => {
                            let end = job.run.duration_s.min(MODEL_S);
                            (end, job.run.output_interval_s.max(end / 200.0))
                        }
                    };
                    let begun = Instant::now();
                    let mut t = 0.0;
                    while t < end {
                        if begun.elapsed().as_secs_f64() > BUDGET_S {
                            // Still advancing at a steady rate: a long run, not a hang.
                            return Ok(false);
                        }
                        t = (t + chunk).min(end);
                        let mut rows: Vec<Vec<f64>> = Vec::new();
                        sim.advance(t, &mut rows).map_err(|e| e.to_string())?;
                        for r in &rows {
                            if let Some(bad) = r.iter().position(|v| !v.is_finite()) {
                                panic!("non-finite value in column {bad} at t = {} s", r[0]);
                            }
                        }
                        // A heartbeat: this chunk returned.
                        if tx.send(None).is_err() {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }));
                let _ = tx.send(Some(match outcome {
                    Ok(Ok(true)) => Outcome::Ran,
                    Ok(Ok(false)) => Outcome::Advancing,
                    Ok(Err(e)) => Outcome::Refused(e),
                    Err(panic) => Outcome::Panicked(
                        panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default(),
                    ),
                }));
            });
            let outcome = loop {
                match rx.recv_timeout(Duration::from_secs_f64(WALL_LIMIT_S)) {
                    Ok(None) => continue,
                    Ok(Some(o)) => break o,
                    Err(_) => {
                        panic!("{what}: one output interval took over {WALL_LIMIT_S} s (a hang)")
                    }
                }
            };
            match outcome {
                Outcome::Ran => ran += 1,
                Outcome::Advancing => advancing += 1,
                Outcome::Refused(e) => {
                    refused += 1;
                    assert!(!e.is_empty(), "{what}: an error without words");
                    println!("refused: {what}: {e}");
                }
                Outcome::Panicked(e) => panic!("{what}: panicked: {e}"),
            }
            let wall = started.elapsed().as_secs_f64();
            if wall > slowest.0 {
                slowest = (wall, what);
            }
        }
    }
    println!(
        "random parameters: {tried} draws, {ran} ran to the end, {advancing} still advancing \
         after {BUDGET_S} s, {refused} stopped with a typed error, {inconsistent} refused as \
         contradicting, 0 panics, 0 hangs; slowest {:.1} s ({})",
        slowest.0, slowest.1
    );
}
