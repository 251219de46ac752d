//! `tribolab floquet` and `tribolab sweep` end to end: output formats, exit codes and atomic
//! output files.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;

fn tribolab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tribolab-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The number after `"key": ` in flat JSON text.
fn json_number(text: &str, key: &str) -> f64 {
    let pat = format!("\"{key}\": ");
    let start = text.find(&pat).unwrap() + pat.len();
    let end = start + text[start..].find([',', '\n', '}']).unwrap();
    text[start..end].trim().parse().unwrap()
}

#[test]
fn floquet_reports_the_closed_form_cycle_as_text_and_json() {
    let out = tribolab(&["floquet", "coulomb_stick_slip_undamped", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8(out.stdout).unwrap();
    assert!((json_number(&json, "period_s") - 0.671238898038469).abs() < 1e-9);
    assert!(json.contains("\"verdict\": \"stable\""), "{json}");
    assert!(json.contains("\"trivial_index\": 0"), "{json}");
    assert_eq!(json_number(&json, "switches_per_period"), 2.0);

    let out = tribolab(&[
        "floquet",
        "coulomb_stick_slip_undamped",
        "--set",
        "law.mu_s=0.45",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // D = 0.015 m: T = 0.3 + (2π − 2·atan(1.5))/10 = 0.7319528...
    let period = 0.3 + (2.0 * std::f64::consts::PI - 2.0 * 1.5f64.atan()) / 10.0;
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("period"))
        .unwrap();
    let value: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!((value - period).abs() < 1e-8, "{line} vs {period}");
    assert!(text.contains("trivial") && text.contains("asymptotically stable"));
}

#[test]
fn floquet_fails_cleanly_without_an_orbit() {
    // Normal-load noise: no orbit is periodic.
    let out = tribolab(&[
        "floquet",
        "coulomb_stick_slip_undamped",
        "--set",
        "noise=on",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("aperiodic"), "{err}");
    let out = tribolab(&[
        "floquet",
        "coulomb_stick_slip_undamped",
        "--section",
        "bogus",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn sweep_writes_one_row_per_poincare_point_with_the_parameter_first() {
    let dir = scratch_dir("sweep");
    let file = dir.join("diagram.csv");
    let out = tribolab(&[
        "sweep",
        "coulomb_stick_slip_undamped",
        "--param",
        "law.mu_s",
        "--from",
        "0.35",
        "--to",
        "0.45",
        "--steps",
        "3",
        "--duration",
        "8",
        "--transient",
        "4",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(&file).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..5], ["law.mu_s", "branch", "section", "t", "x"]);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().any(|r| r[1] == "up") && rows.iter().any(|r| r[1] == "down"));
    for r in &rows {
        assert_eq!(r.len(), header.len());
        assert_eq!(r[2], "stick onset");
        let mu_s: f64 = r[0].parse().unwrap();
        let x: f64 = r[4].parse().unwrap();
        // Re-stick at (2μ_K − μ_S)·N/k.
        assert!((x - (0.6 - mu_s) * 0.1).abs() < 1e-9, "{r:?}");
    }
    // Response-frequency mode: one row per run.
    let out = tribolab(&[
        "sweep",
        "coulomb_stick_slip_undamped",
        "--param",
        "system.wheel_rpm",
        "--from",
        "8",
        "--to",
        "12",
        "--steps",
        "2",
        "--duration",
        "30",
        "--transient",
        "5",
        "--fixed",
        "--response",
        "--quiet",
    ]);
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "system.wheel_rpm,branch,drive_hz,response_hz,amplitude"
    );
    assert_eq!(lines.len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failed_sweep_leaves_no_file() {
    let dir = scratch_dir("fail");
    let file = dir.join("diagram.csv");
    std::fs::write(&file, "old").unwrap();
    let out = tribolab(&[
        "sweep",
        "coulomb_stick_slip_undamped",
        "--param",
        "law.mu_s",
        "--from",
        "0.4",
        "--to",
        "3",
        "--steps",
        "2",
        "--duration",
        "2",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("law.mu_s = 3"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "temporary file left behind"
    );
    let out = tribolab(&["sweep", "coulomb_stick_slip_undamped", "--from", "1"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_reads_a_tribolab_run_and_writes_a_spectrogram() {
    // A run's own CSV (with its event rows at stick/slip switches) analyses directly; the
    // stick–slip frequency of the undamped Coulomb cycle is 1/0.6712389 s = 1.4898 Hz.
    let dir = scratch_dir("spectrogram");
    let run_csv = dir.join("run.csv");
    let out = tribolab(&[
        "run",
        "coulomb_stick_slip_undamped",
        "--duration",
        "40",
        "--out",
        run_csv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let spg = dir.join("spg.csv");
    let out = tribolab(&[
        "analyze",
        run_csv.to_str().unwrap(),
        "--column",
        "x",
        "--json",
        "--spectrogram",
        spg.to_str().unwrap(),
        "--segment",
        "8192",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(json.contains("skipped"), "{json}");
    let f0 = 1.0 / 0.671_238_898_038_469;
    let first_peak = json_number(&json, "freq_hz");
    assert!((first_peak - f0).abs() < 1e-3 * f0, "{first_peak} vs {f0}");
    // Long format: every segment lists the same bins; each segment's strongest bin is f₀'s.
    let text = std::fs::read_to_string(&spg).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t_s,f_hz,amplitude"));
    let rows: Vec<[f64; 3]> = lines
        .map(|l| {
            let v: Vec<f64> = l.split(',').map(|c| c.parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        })
        .collect();
    let times: Vec<f64> = {
        let mut t: Vec<f64> = rows.iter().map(|r| r[0]).collect();
        t.dedup();
        t
    };
    // 40 s at 1 ms: (40 001 − 8192)/4096 + 1 = 8 segments of 4096 bins.
    assert_eq!(times.len(), 8, "{times:?}");
    assert_eq!(rows.len(), 8 * 4096);
    let resolution = 1.0 / (8192.0 * 1e-3);
    for t in &times {
        let best = rows
            .iter()
            .filter(|r| r[0] == *t)
            .max_by(|a, b| a[2].total_cmp(&b[2]))
            .unwrap();
        assert!((best[1] - f0).abs() <= resolution, "t = {t}: {best:?}");
    }
    // A directory that does not exist: an error and no file.
    let bad = dir.join("missing").join("spg.csv");
    let out = tribolab(&[
        "analyze",
        run_csv.to_str().unwrap(),
        "--column",
        "x",
        "--spectrogram",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(!bad.exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// A series longer than the default cap reports each stage on stderr as it starts (a series
/// of millions of samples runs for minutes); the default cap stays quiet; stdout is the
/// report either way.
#[test]
fn analyze_reports_progress_on_long_series() {
    let dir = scratch_dir("progress");
    let csv = dir.join("long.csv");
    let mut text = String::from("t_s,x_m\n");
    for i in 0..61_000 {
        let t = i as f64 * 1e-3;
        text.push_str(&format!(
            "{t},{}\n",
            (2.0 * std::f64::consts::PI * 3.1 * t).sin()
        ));
    }
    std::fs::write(&csv, text).unwrap();
    let out = tribolab(&["analyze", csv.to_str().unwrap(), "--dim", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = tribolab(&[
        "analyze",
        csv.to_str().unwrap(),
        "--max-samples",
        "61000",
        "--dim",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8(out.stderr).unwrap();
    for stage in [
        "spectrum",
        "mutual information",
        "Cao's method (dimension), d = 1 of",
        "largest exponent (Wolf)",
    ] {
        assert!(err.contains(&format!("analyze: {stage}")), "{stage}: {err}");
    }
    assert!(String::from_utf8(out.stdout).unwrap().contains("Cao E1"));
    std::fs::remove_dir_all(&dir).unwrap();
}
