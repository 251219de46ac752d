//! `tribolab rig` on a characterisation rig: the standard test's table as CSV (to a file,
//! atomically, or stdout) and its findings on stderr; a system that runs no standard test is
//! still read for load-point steps and holds.

use std::process::{Command, Output};

fn tribolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The Stribeck preset writes one row per speed (nine each way) with the measured friction
/// beside the law's characteristic, and says on stderr what the curve shows.
#[test]
fn the_stribeck_rig_writes_its_curve_as_csv() {
    let dir = std::env::temp_dir().join(format!("tribolab-cli-rig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("stribeck.csv");
    let o = tribolab(&[
        "rig",
        "presets/rig_stribeck_lugre.ron",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).expect("written");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("v,friction_measured,friction_steady"));
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|c| c.parse().expect("a number")).collect())
        .collect();
    assert_eq!(rows.len(), 18);
    for r in &rows {
        // 20 s levels: within 0.05 % of the characteristic (the note in the preset).
        assert!((r[1] - r[2]).abs() < 5e-4 * r[2].abs(), "{r:?}");
    }
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("Stribeck curve"), "{err}");
    assert!(err.contains("friction falls from 1.50 N"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The break-away preset to stdout: one row per ramp, the findings naming the trend.
#[test]
fn the_break_away_rig_writes_one_row_per_ramp() {
    let o = tribolab(&["rig", "presets/rig_break_away_lugre.ron"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("force_rate,break_away_force,applied_force_then\n"));
    assert_eq!(text.lines().count(), 7);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("falls steadily"), "{err}");
}

/// A run too short for any stretch to complete says so instead of printing an empty verdict.
#[test]
fn a_run_too_short_says_nothing_is_complete() {
    let o = tribolab(&["rig", "presets/rig_stribeck_lugre.ron", "--duration", "5"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing complete yet"));
}
