//! Regime maps (MODELS §4.11) against the linear stability of steady sliding, shards merged to
//! the bytes of the unsplit map, and the CLI end to end (`map`, `merge`).
//!
//! The bench: a block on a spring, dragged by a belt at v_b, with a Gaussian Stribeck curve
//! `μ(v) = μ_C + (μ_S − μ_C)·exp(−(v/v_S)²)` (μ_S = 0.4, μ_C = 0.3, v_S = 1 cm/s, N = 9.81 N)
//! and no belt joint. Steady sliding at v_b is linearly unstable where the damping is below the
//! falling slope, `c < c_c(v_b) = N·|μ′(v_b)|` (asked of the system, not computed here), so
//! there the run cannot end steady; where the damping exceeds the steepest slope anywhere,
//! `c > max |N·μ′| = N(μ_S − μ_C)·√2·e^(−1/2)/v_S = 84.2 N·s/m`, the net force on the block rises
//! with its speed everywhere and every run ends in steady sliding.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;

use tribolab::analysis::dynamics::SectionChoice;
use tribolab::analysis::regime_map::{Axis, MapControl, MapSpec, Regime, Shard, csv, regime_map};
use tribolab::analysis::sweep::Transient;
use tribolab::preset::{Preset, builtin};

fn bench() -> Preset {
    builtin::load("stribeck_stick_slip").unwrap().unwrap()
}

fn spec(nx: usize, ny: usize, shard: Shard) -> MapSpec {
    MapSpec {
        x: Axis::new("system.wheel_rpm", 0.5, 5.0, nx),
        y: Axis::new("system.damping", 0.0, 100.0, ny),
        duration_s: 40.0,
        transient: Transient::Seconds(25.0),
        section: SectionChoice::Auto,
        shard,
        threads: None,
        lyapunov: false,
    }
}

/// The steepest falling slope of the characteristic, `N(μ_S − μ_C)·√2·e^(−1/2)/v_S`.
const MAX_SLOPE: f64 = 9.81 * 0.1 * std::f64::consts::SQRT_2 * 0.606_530_659_712_633_4 / 0.01;

#[test]
fn map_respects_the_linear_stability_of_steady_sliding() {
    let base = bench();
    let s = spec(6, 6, Shard::ALL);
    let cells = regime_map(&base, &s, MapControl::default()).unwrap();
    assert_eq!(cells.len(), 36);
    let (mut unstable, mut damped) = (0, 0);
    for c in &cells {
        let mut p = base.clone();
        p.set_path("system.wheel_rpm", &c.x.to_string()).unwrap();
        let boundary = p
            .system
            .stability_boundaries(&p.contact_laws())
            .into_iter()
            .find(|b| b.path == "system.damping");
        println!(
            "n = {:.2} rpm, c = {:5.1} N·s/m: {:?} (c_c = {:?}), stick {:.2}, {} events",
            c.x,
            c.y,
            c.regime,
            boundary.as_ref().map(|b| b.value),
            c.stick_fraction,
            c.slip_events
        );
        assert!(c.message.is_empty(), "{}", c.message);
        if let Some(b) = boundary
            && c.y < b.value
        {
            unstable += 1;
            assert!(
                c.regime != Regime::Steady,
                "steady sliding is unstable below c_c = {}: {c:?}",
                b.value
            );
            // An oscillation: stick–slip, or near the boundary the cycle born there, which
            // does not stick.
            assert!(c.amplitude > 1e-5, "{c:?}");
        }
        if c.y > 1.1 * MAX_SLOPE {
            damped += 1;
            assert_eq!(c.regime, Regime::Steady, "{c:?}");
            assert_eq!(c.slip_events, 0);
            assert_eq!(c.stick_fraction, 0.0);
            assert!(c.frequency_hz.is_nan());
        }
    }
    assert!(
        unstable >= 5 && damped >= 6,
        "{unstable} unstable, {damped} damped"
    );
}

/// A map split into three shards and merged gives the bytes of the unsplit map; a missing or
/// repeated shard, or a shard of another map, is refused with a message that names the file.
#[test]
fn shards_merge_into_the_unsplit_map() {
    let base = bench();
    let write = |shard: Shard| {
        let s = spec(4, 3, shard);
        let cells = regime_map(&base, &s, MapControl::default()).unwrap();
        let mut out = Vec::new();
        csv::write(&mut out, &base, &s, "m", &cells).unwrap();
        String::from_utf8(out).unwrap()
    };
    let whole = write(Shard::ALL);
    assert_eq!(whole.lines().filter(|l| !l.starts_with('#')).count(), 13);
    let shards: Vec<(String, String)> = (1..=3)
        .map(|k| (format!("s{k}.csv"), write(Shard { index: k, count: 3 })))
        .collect();
    assert!(shards[1].1.contains("# shard: 2/3"));
    // In any order.
    let reordered = vec![shards[2].clone(), shards[0].clone(), shards[1].clone()];
    assert_eq!(csv::merge(&reordered).unwrap(), whole);

    let missing = csv::merge(&shards[..2]).unwrap_err();
    assert!(missing.contains("3/3"), "{missing}");
    let twice = csv::merge(&[shards[0].clone(), shards[0].clone(), shards[1].clone()]).unwrap_err();
    assert!(twice.contains("both shard 1/3"), "{twice}");
    let mut other = base.clone();
    other.set_path("law.mu_s", "0.45").unwrap();
    let s = spec(4, 3, Shard { index: 3, count: 3 });
    let cells = regime_map(&other, &s, MapControl::default()).unwrap();
    let mut text = Vec::new();
    csv::write(&mut text, &other, &s, "m", &cells).unwrap();
    let foreign = vec![
        shards[0].clone(),
        shards[1].clone(),
        ("other.csv".to_string(), String::from_utf8(text).unwrap()),
    ];
    let err = csv::merge(&foreign).unwrap_err();
    assert!(
        err.contains("other.csv") && err.contains("# preset"),
        "{err}"
    );
    // A cell dropped from a shard is found.
    let cut: String = shards[0]
        .1
        .lines()
        .filter(|l| !l.starts_with("3,"))
        .map(|l| format!("{l}\n"))
        .collect();
    let err =
        csv::merge(&[("s1.csv".into(), cut), shards[1].clone(), shards[2].clone()]).unwrap_err();
    assert!(err.contains("cell 3"), "{err}");
}

/// Values the parameter cannot take fail their own cells, with the field named; the rest of
/// the map runs.
#[test]
fn a_bad_cell_fails_alone() {
    let mut s = spec(2, 3, Shard::ALL);
    s.y = Axis::new("system.damping", 50.0, 150.0, 3);
    let cells = regime_map(&bench(), &s, MapControl::default()).unwrap();
    let failed: Vec<_> = cells
        .iter()
        .filter(|c| c.regime == Regime::Failed)
        .collect();
    assert_eq!(failed.len(), 2, "{cells:?}");
    for c in &failed {
        assert_eq!(c.y, 150.0);
        assert!(c.message.contains("damping"), "{}", c.message);
    }
    assert!(
        cells
            .iter()
            .filter(|c| c.y < 150.0)
            .all(|c| c.message.is_empty())
    );
}

fn tribolab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tribolab-map-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tribolab map` in two shards and `tribolab merge` write the file of the unsplit map, byte for
/// byte; bad arguments are usage errors.
#[test]
fn cli_map_shards_and_merge() {
    let dir = scratch_dir("cli");
    let args = |out: &PathBuf| -> Vec<String> {
        [
            "map",
            "stribeck_stick_slip",
            "--x",
            "system.wheel_rpm=0.5:5:3",
            "--y",
            "system.damping=0:100:2",
            "--duration",
            "20",
            "--quiet",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect()
    };
    let run = |extra: &[&str], out: &PathBuf| {
        let mut a = args(out);
        a.extend(extra.iter().map(|s| s.to_string()));
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = tribolab(&refs);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let whole = dir.join("whole.csv");
    run(&[], &whole);
    let (a, b) = (dir.join("a.csv"), dir.join("b.csv"));
    run(&["--shard", "1/2"], &a);
    run(&["--shard", "2/2"], &b);
    let merged = dir.join("merged.csv");
    let o = tribolab(&[
        "merge",
        &b.display().to_string(),
        &a.display().to_string(),
        "--out",
        &merged.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), whole_text);
    let header = whole_text.lines().find(|l| !l.starts_with('#')).unwrap();
    assert!(header.starts_with("cell,ix,iy,system.wheel_rpm,system.damping,regime,period"));
    assert!(header.contains("amplitude_m"), "{header}");

    for bad in [
        vec!["map", "stribeck_stick_slip", "--y", "system.damping=0:1:2"],
        vec![
            "map",
            "stribeck_stick_slip",
            "--x",
            "system.wheel_rpm=1:2",
            "--y",
            "law.mu_s=0.3:0.5:2",
        ],
        vec![
            "map",
            "stribeck_stick_slip",
            "--x",
            "system.wheel_rpm=1:2:2",
            "--y",
            "law.mu_s=0.3:0.5:2",
            "--shard",
            "3/2",
        ],
    ] {
        let o = tribolab(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
    let o = tribolab(&["merge", &a.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("2/2"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With `lyapunov`, each cell carries its largest exponent and the exponent has the last word
/// between a torus and chaos. The pair of blocks of Huang & Turcotte's model (see
/// `two_block_chaos.rs`): period 4 at a load ratio β = N₂/N₁ = 1.25 (λ₁ ≈ 0), chaos at
/// β = 1.2 (λ₁ ≈ +0.07 /s).
#[test]
fn lyapunov_exponent_per_cell_tells_chaos_from_a_period_four_orbit() {
    let mut base = builtin::load("two_block_bk").unwrap().unwrap();
    for (path, value) in [
        ("contact.2", "default"),
        ("law.mu_s", "0.4"),
        ("law.mu_k", "0.2"),
        ("system.damping_1", "0"),
        ("system.damping_2", "0"),
        ("system.belt_speed", "0.01"),
        ("system.coupling_stiffness", "100"),
        ("run.output_interval", "0.01"),
    ] {
        base.set_path(path, value).unwrap();
    }
    let spec = MapSpec {
        x: Axis::new("system.normal_load_2", 9.81 * 1.2, 9.81 * 1.25, 2),
        y: Axis::new("system.damping_1", 0.0, 0.0, 1),
        duration_s: 1000.0,
        transient: Transient::Seconds(300.0),
        section: SectionChoice::Auto,
        shard: Shard::ALL,
        threads: None,
        lyapunov: true,
    };
    let cells = regime_map(&base, &spec, MapControl::default()).unwrap();
    let (chaotic, periodic) = (&cells[0], &cells[1]);
    println!("{chaotic:?}\n{periodic:?}");
    assert_eq!(chaotic.regime, Regime::Chaotic);
    assert!(chaotic.lambda1_per_s > 0.03, "{}", chaotic.lambda1_per_s);
    assert!(
        matches!(periodic.regime, Regime::Periodic(_)),
        "{periodic:?}"
    );
    assert!(
        periodic.lambda1_per_s.abs() < 0.01,
        "{}",
        periodic.lambda1_per_s
    );
    // Without the exponent the column stays empty (NaN).
    let cells = regime_map(
        &base,
        &MapSpec {
            lyapunov: false,
            duration_s: 400.0,
            ..spec
        },
        MapControl::default(),
    )
    .unwrap();
    assert!(cells.iter().all(|c| c.lambda1_per_s.is_nan()));
}
