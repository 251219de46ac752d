//! Time-series tools against the check values of MODELS §5 (the `*` rows are tolerant targets):
//! AMI delay and Cao dimension of Lorenz and Hénon, the noise flag of Cao on white noise, and
//! the largest exponent from a series by the divergence curve and by Wolf's method.
//!
//! The series are generated here: Lorenz σ = 10, ρ = 28, β = 8/3 by classical RK4 (h = 0.005 s,
//! sampled every t_s = 0.01 s after a 20 s transient), Hénon a = 1.4, b = 0.3, white noise from
//! the crate's SplitMix64.

#![allow(clippy::unwrap_used)]

use std::sync::OnceLock;

use tribolab::analysis::cao::{CaoOptions, cao};
use tribolab::analysis::divergence::{DivergenceMethod, DivergenceOptions, divergence_curve};
use tribolab::analysis::linefit::StraightCriteria;
use tribolab::analysis::mutual_information::{AmiOptions, DelayRule, ami_delay};
use tribolab::analysis::wolf::{WolfOptions, wolf};
use tribolab::util::rng::SplitMix64;

const TS: f64 = 0.01;
const N_LORENZ: usize = 20_000;

fn lorenz_rhs(y: [f64; 3]) -> [f64; 3] {
    let (s, r, b) = (10.0, 28.0, 8.0 / 3.0);
    [
        s * (y[1] - y[0]),
        y[0] * (r - y[2]) - y[1],
        y[0] * y[1] - b * y[2],
    ]
}

fn rk4_step(y: [f64; 3], h: f64) -> [f64; 3] {
    let add =
        |a: [f64; 3], k: [f64; 3], c: f64| [a[0] + c * k[0], a[1] + c * k[1], a[2] + c * k[2]];
    let k1 = lorenz_rhs(y);
    let k2 = lorenz_rhs(add(y, k1, h / 2.0));
    let k3 = lorenz_rhs(add(y, k2, h / 2.0));
    let k4 = lorenz_rhs(add(y, k3, h));
    std::array::from_fn(|i| y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
}

/// Lorenz x sampled at t_s = 0.01 s.
fn lorenz_x() -> &'static [f64] {
    static CELL: OnceLock<Vec<f64>> = OnceLock::new();
    CELL.get_or_init(|| {
        let h = TS / 2.0;
        let mut y = [1.0, 1.0, 1.0];
        for _ in 0..(20.0 / h) as usize {
            y = rk4_step(y, h);
        }
        (0..N_LORENZ)
            .map(|_| {
                let x = y[0];
                y = rk4_step(rk4_step(y, h), h);
                x
            })
            .collect()
    })
}

fn henon_x(n: usize) -> Vec<f64> {
    let (mut x, mut y) = (0.1, 0.0);
    let mut out = Vec::with_capacity(n);
    for i in 0..n + 1000 {
        (x, y) = (1.0 - 1.4 * x * x + y, 0.3 * x);
        if i >= 1000 {
            out.push(x);
        }
    }
    out
}

fn white_noise(n: usize) -> Vec<f64> {
    let mut g = SplitMix64::new(2024);
    (0..n).map(|_| g.normal()).collect()
}

#[test]
fn ami_of_lorenz_x_has_its_first_minimum_at_16_samples() {
    for bins in [16, 32, 64] {
        let opts = AmiOptions {
            bins,
            ..AmiOptions::default()
        };
        let (curve, choice) = ami_delay(lorenz_x(), &opts).unwrap();
        let choice = choice.unwrap();
        eprintln!(
            "AMI B = {bins}: τ = {} ({:?}), I(0) = {:.3}",
            choice.delay, choice.rule, curve.values[0]
        );
        assert_eq!(choice.rule, DelayRule::FirstMinimum);
        assert!((14..=19).contains(&choice.delay), "B = {bins}: {choice:?}");
    }
}

#[test]
fn cao_on_henon_gives_dimension_2() {
    let r = cao(
        &henon_x(20_000),
        &CaoOptions {
            delay: 1,
            max_dim: 6,
            theiler: 0,
        },
    )
    .unwrap();
    eprintln!("Hénon E1 = {:.3?}\n      E2 = {:.3?}", r.e1, r.e2);
    assert!((r.e1[1] - 0.94).abs() < 0.04, "E1(2) = {}", r.e1[1]);
    assert!(
        r.e1[2..].iter().all(|v| (v - 1.0).abs() < 0.1),
        "{:?}",
        r.e1
    );
    assert!(r.e2[0].unwrap() < 0.05, "E2(1) = {:?}", r.e2[0]);
    assert_eq!(r.dimension, Some(2));
    assert!(!r.noise);
}

#[test]
fn cao_on_lorenz_gives_dimension_3() {
    let r = cao(
        lorenz_x(),
        &CaoOptions {
            delay: 16,
            max_dim: 6,
            theiler: 100,
        },
    )
    .unwrap();
    eprintln!("Lorenz E1 = {:.3?}\n       E2 = {:.3?}", r.e1, r.e2);
    assert!((r.e1[1] - 0.12).abs() < 0.06, "E1(2) = {}", r.e1[1]);
    assert!((r.e1[2] - 0.92).abs() < 0.05, "E1(3) = {}", r.e1[2]);
    assert_eq!(r.dimension, Some(3));
    assert!(!r.noise);
}

#[test]
fn cao_flags_white_noise() {
    let r = cao(
        &white_noise(20_000),
        &CaoOptions {
            delay: 1,
            max_dim: 6,
            theiler: 0,
        },
    )
    .unwrap();
    eprintln!("noise E1 = {:.3?}\n      E2 = {:.3?}", r.e1, r.e2);
    assert!(r.noise);
    assert!(
        r.e2.iter()
            .all(|v| v.is_some_and(|v| (v - 1.0).abs() < 0.05)),
        "{:?}",
        r.e2
    );
    assert!(
        r.e1.windows(2).all(|w| w[1] > w[0]),
        "E1 keeps rising: {:?}",
        r.e1
    );
}

fn lorenz_divergence() -> tribolab::analysis::divergence::DivergenceCurve {
    let o = DivergenceOptions {
        dim: 3,
        delay: 16,
        theiler: 100,
        max_steps: 600,
        method: DivergenceMethod::Rosenstein,
    };
    divergence_curve(lorenz_x(), TS, &o).unwrap()
}

#[test]
fn rosenstein_on_lorenz_fits_0_9_per_second() {
    let c = lorenz_divergence();
    let fixed = c.fit_between(1.0, 2.5).unwrap();
    let auto = c.fit_auto(&StraightCriteria::default()).unwrap();
    eprintln!(
        "Rosenstein: fixed [1, 2.5] s → {:.4}; auto {auto:?}",
        fixed.slope
    );
    assert!((0.8..=0.97).contains(&fixed.slope), "{fixed:?}");
    assert!((0.8..=0.97).contains(&auto.slope), "{auto:?}");
    let (t0, t1) = (auto.start as f64 * TS, auto.end as f64 * TS);
    assert!(
        t0 <= 1.2 && t1 >= 2.5,
        "automatic region {t0}–{t1} s misses [1, 2.5] s"
    );
    assert!(auto.r2 >= 0.99);
}

#[test]
fn wolf_on_lorenz_is_within_15_percent() {
    let o = WolfOptions::for_series(lorenz_x(), 3, 16, 100);
    let r = wolf(lorenz_x(), TS, &o).unwrap();
    eprintln!("Wolf Lorenz: {r:?}");
    assert!((r.lambda_per_s - 0.906).abs() < 0.15 * 0.906, "{r:?}");
}

#[test]
fn henon_exponent_from_the_series() {
    let s = henon_x(20_000);
    let o = DivergenceOptions {
        dim: 2,
        delay: 1,
        theiler: 5,
        max_steps: 40,
        method: DivergenceMethod::Rosenstein,
    };
    let fit = divergence_curve(&s, 1.0, &o)
        .unwrap()
        .fit_auto(&StraightCriteria::default())
        .unwrap();
    let w = wolf(&s, 1.0, &WolfOptions::for_series(&s, 2, 1, 5)).unwrap();
    eprintln!("Hénon: Rosenstein {fit:?}, Wolf {w:?}");
    assert!((fit.slope - 0.42).abs() < 0.04, "{fit:?}");
    assert!((w.lambda_per_s - 0.42).abs() < 0.04, "{w:?}");
}

#[test]
fn white_noise_divergence_has_no_straight_region() {
    let o = DivergenceOptions {
        dim: 3,
        delay: 1,
        theiler: 5,
        max_steps: 100,
        method: DivergenceMethod::Rosenstein,
    };
    let c = divergence_curve(&white_noise(20_000), 1.0, &o).unwrap();
    assert_eq!(
        c.fit_auto(&StraightCriteria::default()),
        None,
        "{:?}",
        &c.values[..10]
    );
}

#[test]
fn pipeline_on_lorenz_finds_delay_dimension_and_exponent() {
    use tribolab::analysis::pipeline::{Choice, PipelineOptions, analyze_series};
    let r = analyze_series("x", lorenz_x(), TS, &PipelineOptions::default()).unwrap();
    eprintln!("{}", r.to_text());
    assert!((14..=19).contains(&r.delay) && r.delay_choice.0 == Choice::Rule);
    assert_eq!((r.dim, r.dim_choice), (3, Choice::Rule));
    assert!(!r.cao.noise);
    let fit = r.fit.unwrap();
    assert!((0.8..=0.97).contains(&fit.slope), "{fit:?}");
    let w = r.wolf.unwrap();
    assert!((w.lambda_per_s - 0.906).abs() < 0.15 * 0.906, "{w:?}");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let json = r.to_json().to_pretty();
    for key in [
        "\"series\"",
        "\"delay\"",
        "\"cao\"",
        "\"rosenstein\"",
        "\"wolf\"",
        "\"warnings\": []",
    ] {
        assert!(json.contains(key), "{key} missing");
    }
}

#[test]
fn pipeline_on_white_noise_warns() {
    use tribolab::analysis::pipeline::{PipelineOptions, analyze_series};
    let noise = white_noise(5000);
    let o = PipelineOptions {
        delay: Some(1),
        max_dim: 6,
        ..PipelineOptions::default()
    };
    let r = analyze_series("noise", &noise, 1e-3, &o).unwrap();
    assert!(r.cao.noise);
    assert!(r.fit.is_none());
    let text = r.to_text();
    assert!(
        text.contains("looks like noise") && text.contains("no straight region"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------------
// The `tribolab analyze` command, run as a binary on temporary CSV files.

struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!("tribolab-analyze-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        Self(p)
    }

    fn file(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

fn tribolab(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .unwrap()
}

/// The number after `"key": ` in the JSON text, searched from the first occurrence of `section`.
fn json_number(json: &str, section: &str, key: &str) -> f64 {
    let from = json.find(&format!("\"{section}\"")).unwrap();
    let tail = &json[from..];
    let at = tail.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4;
    let end = tail[at..].find([',', '\n', '}']).unwrap();
    tail[at..at + end].trim().parse().unwrap()
}

fn henon_csv(n: usize, dt: f64) -> String {
    let mut text = String::from("time [s],x,comment\n");
    for (k, x) in henon_x(n).iter().enumerate() {
        text.push_str(&format!("{},{x},ok\n", k as f64 * dt));
    }
    text
}

#[test]
fn cli_analyze_prints_json() {
    let dir = TempDir::new("json");
    let path = dir.file("henon.csv", &henon_csv(5000, 0.5));
    let out = tribolab(&["analyze", &path, "--column", "x", "--delay", "1", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for key in [
        "source",
        "series",
        "spectrum",
        "peaks",
        "delay",
        "theiler",
        "cao",
        "e1",
        "e2",
        "embedding",
        "rosenstein",
        "fit",
        "log_divergence",
        "wolf",
        "bits_per_s",
        "warnings",
    ] {
        assert!(
            stdout.contains(&format!("\"{key}\"")),
            "no `{key}` in\n{stdout}"
        );
    }
    assert!(stdout.contains("\"time_column\": \"time [s]\""));
    assert_eq!(json_number(&stdout, "series", "samples"), 5000.0);
    assert_eq!(json_number(&stdout, "series", "dt_s"), 0.5);
    assert_eq!(json_number(&stdout, "cao", "dimension"), 2.0);
    // λ₁ = 0.419 per iteration = 0.838 1/s at t_s = 0.5 s.
    let ros = json_number(&stdout, "rosenstein", "lambda_per_s");
    let wolf = json_number(&stdout, "wolf", "lambda_per_s");
    assert!(
        (ros - 0.838).abs() < 0.08 && (wolf - 0.838).abs() < 0.08,
        "{ros} {wolf}"
    );
    assert!(json_number(&stdout, "fit", "end_s") > json_number(&stdout, "fit", "start_s"));
}

#[test]
fn cli_analyze_text_and_resampling() {
    let dir = TempDir::new("text");
    // Drop one row: a 2Δ step makes the record non-uniform.
    let text: String = henon_csv(3000, 0.01)
        .lines()
        .enumerate()
        .filter(|(k, _)| *k != 100)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let path = dir.file("gap.csv", &text);
    let refused = tribolab(&["analyze", &path, "--column", "x", "--delay", "1"]);
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("not uniform") && err.contains("--resample"),
        "{err}"
    );
    let ok = tribolab(&[
        "analyze",
        &path,
        "--column",
        "x",
        "--delay",
        "1",
        "--resample",
    ]);
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(
        stdout.contains("resampled linearly") && stdout.contains("largest exponent"),
        "{stdout}"
    );
}

#[test]
fn cli_analyze_rejects_bad_input() {
    let dir = TempDir::new("bad");
    let ragged = dir.file("ragged.csv", "t,x\n0,1\n1,2,3\n");
    let out = tribolab(&["analyze", &ragged, "--column", "x"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{ragged}:3:5: row has 3 cells")),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let bad_cell = dir.file("cell.csv", "t,x\n0,1\n1,x1\n");
    let out = tribolab(&["analyze", &bad_cell, "--column", "x", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(":3:3: `x1` in column `x` is not a number")
    );

    let good = dir.file("good.csv", &henon_csv(1000, 1.0));
    let out = tribolab(&["analyze", &good, "--column", "y"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no column named `y`"));
    // Two data columns and no --column: a usage error naming them.
    let out = tribolab(&["analyze", &good]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`x`, `comment`"));
    let out = tribolab(&["analyze", &good, "--column", "comment"]);
    assert_eq!(out.status.code(), Some(1));
    let out = tribolab(&["analyze", &dir.0.join("missing.csv").display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
}

/// Regression: `analyze` aborted for a signal scaled by 1e160 or 1e-200 (squared distances
/// overflow or vanish). Delay, window, dimension and exponents do not depend on the scale:
/// the same numbers at 1, 1e160 and 1e-200 (the spectrum scales with the signal).
#[test]
fn the_analysis_does_not_depend_on_the_signal_scale() {
    use tribolab::analysis::pipeline::{PipelineOptions, analyze_series};
    let x = &lorenz_x()[..5000];
    let base = analyze_series("x", x, TS, &PipelineOptions::default()).unwrap();
    let base_fit = base.fit.as_ref().unwrap().slope;
    for scale in [1e160, 1e-200] {
        let scaled: Vec<f64> = x.iter().map(|v| v * scale).collect();
        let r = analyze_series("x", &scaled, TS, &PipelineOptions::default())
            .unwrap_or_else(|e| panic!("scale {scale}: {e}"));
        assert_eq!(
            (r.delay, r.theiler, r.dim),
            (base.delay, base.theiler, base.dim),
            "scale {scale}"
        );
        let slope = r.fit.as_ref().unwrap().slope;
        assert!(
            (slope - base_fit).abs() < 1e-9 * base_fit.abs(),
            "scale {scale}: {slope} vs {base_fit}"
        );
        let (a, b) = (
            r.wolf.unwrap().lambda_per_s,
            base.wolf.as_ref().unwrap().lambda_per_s,
        );
        assert!(
            (a - b).abs() < 1e-9 * b.abs(),
            "scale {scale}: Wolf {a} vs {b}"
        );
        let rel = r.peaks[0].amplitude / (base.peaks[0].amplitude * scale);
        assert!(
            (rel - 1.0).abs() < 1e-12,
            "scale {scale}: peak amplitude ratio {rel}"
        );
    }
}
