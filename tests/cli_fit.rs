//! `tribolab fit` from the command line: a tribometer file as labs write them (tab-separated,
//! normal force and friction in µN, position in mm, uneven time steps) goes to a fitted law
//! with intervals and a preset that loads; a trajectory record goes to fitted bench
//! parameters.

use std::process::{Command, Output};
use std::sync::Arc;

use tribolab::laws::LawConfig;
use tribolab::rig::{Recording, force_along};
use tribolab::util::rng::SplitMix64;

fn tribolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tribolab-cli-fit-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A lab's recording of LuGre at 2 N: a sinusoidal position of amplitude `amplitude_mm` at
/// `frequency_hz`, 6 s, steps of 2–4 ms, friction with 5 mN of noise, written tab-separated in
/// µN and mm with a comment line.
fn tribometer_file(path: &std::path::Path, amplitude_mm: f64, frequency_hz: f64) {
    let mut rng = SplitMix64::new(42);
    let mut t = vec![0.0];
    while *t.last().expect("non-empty") < 6.0 {
        let last = *t.last().expect("non-empty");
        t.push(last + 2e-3 + 2e-3 * rng.uniform_open());
    }
    let w = std::f64::consts::TAU * frequency_hz;
    let a = amplitude_mm * 1e-3;
    let x: Vec<f64> = t.iter().map(|t| a * (w * t).sin()).collect();
    let v: Vec<f64> = t.iter().map(|t| a * w * (w * t).cos()).collect();
    let n = t.len();
    let load: Vec<f64> = (0..n)
        .map(|i| 2.0 + 0.05 * (i as f64 * 0.01).sin())
        .collect();
    let mut law = LawConfig::LuGre(Default::default());
    for (k, val) in [("f_c", 1.0), ("f_s", 1.4), ("v_s", 1e-3), ("sigma2", 0.5)] {
        law.params_mut().set(k, val).expect("in range");
    }
    let rec = Arc::new(Recording {
        t_s: t.clone(),
        v_mps: v,
        load_n: load.clone(),
    });
    // Nominal load 2 N: the law's forces are those at 2 N.
    let f = force_along(law.build(), rec, 2.0, 1e-10).expect("runs");
    let mut text = String::from(
        "# ball on flat, synthetic: LuGre F_C = 1 N, F_S = 1.4 N, v_S = 1 mm/s, sigma2 = 0.5 N s/m \
         at 2 N, 5 mN noise (tests/cli_fit.rs)\ntime\tFn\tpos\tFf\n",
    );
    for i in 0..n {
        // A load cell reads the friction that resists the motion: −F on the body.
        let ff = -f[i] + 5e-3 * rng.normal();
        text += &format!(
            "{:.6}\t{:.3}\t{:.8}\t{:.3}\n",
            t[i],
            load[i] * 1e6,
            x[i] * 1e3,
            ff * 1e6
        );
    }
    std::fs::write(path, text).expect("write");
}

/// The worked example of the README (`docs/examples/ball_on_flat.tsv`): 20 mm at 1 Hz.
/// Regenerate with `cargo test --test cli_fit -- --ignored write_the_worked_example`.
#[test]
#[ignore = "writes docs/examples/ball_on_flat.tsv"]
fn write_the_worked_example() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples");
    std::fs::create_dir_all(&dir).expect("dir");
    tribometer_file(&dir.join("ball_on_flat.tsv"), 20.0, 1.0);
}

#[test]
fn a_tribometer_file_goes_to_a_fitted_law_with_intervals_and_a_preset() {
    let dir = temp_dir("law");
    let data = dir.join("bench.tsv");
    tribometer_file(&data, 0.8, 0.5);
    let out = dir.join("fitted.ron");
    let o = tribolab(&[
        "fit",
        data.to_str().expect("utf-8"),
        "--law",
        "lugre",
        "--columns",
        "time=time:s,position=pos:mm,load=Fn:uN,force=Ff:uN",
        "--free",
        "f_c,f_s,v_s,sigma2",
        "--nominal-load",
        "2",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("converged"), "{stdout}");
    assert!(stdout.contains("95 % interval"), "{stdout}");
    assert!(
        stdout.contains("uneven") || stdout.contains("samples"),
        "{stdout}"
    );
    let preset = tribolab::preset::Preset::load(&out).expect("the fitted preset loads");
    let p = preset.law.params();
    let f_c = p.get("f_c").expect("key");
    let f_s = p.get("f_s").expect("key");
    // Position differentiated over 11 samples: a small bias is allowed beside the noise.
    assert!((f_c - 1.0).abs() < 0.02, "F_C = {f_c}\n{stdout}");
    assert!((f_s - 1.4).abs() < 0.05, "F_S = {f_s}\n{stdout}");
    assert!(preset.notes.contains("95 % interval"), "{}", preset.notes);
    let o = tribolab(&["check", out.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // JSON carries the same estimates.
    let o = tribolab(&[
        "fit",
        data.to_str().expect("utf-8"),
        "--law",
        "lugre",
        "--columns",
        "time=time,position=pos:mm,load=Fn:uN,force=Ff:uN",
        "--free",
        "f_c,f_s",
        "--nominal-load",
        "2",
        "--json",
    ]);
    let json = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{json}");
    assert!(
        json.contains("\"key\": \"f_c\"") && json.contains("\"interval_95\""),
        "{json}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_columns_and_units_are_named() {
    let dir = temp_dir("errors");
    let data = dir.join("bench.tsv");
    tribometer_file(&data, 0.8, 0.5);
    let path = data.to_str().expect("utf-8");
    let o = tribolab(&[
        "fit",
        path,
        "--law",
        "lugre",
        "--columns",
        "position=pos:mm,force=Ff:mm",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("not a unit of force"), "{err}");
    let o = tribolab(&[
        "fit",
        path,
        "--law",
        "lugre",
        "--columns",
        "position=pos:mm,force=friction",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no column named `friction`"), "{err}");
    let o = tribolab(&[
        "fit",
        path,
        "--law",
        "lugre",
        "--free",
        "sigma9",
        "--columns",
        "position=pos:mm,force=Ff:uN",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no parameter `sigma9`"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The README's worked example, as printed there: every true value inside its interval.
#[test]
fn the_worked_example_of_the_readme_recovers_the_truth() {
    let data =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/ball_on_flat.tsv");
    let o = tribolab(&[
        "fit",
        data.to_str().expect("utf-8"),
        "--law",
        "lugre",
        "--columns",
        "time=time:s,position=pos:mm,load=Fn:uN,force=Ff:uN",
        "--free",
        "f_c,f_s,v_s,sigma2,sigma0",
        "--nominal-load",
        "2",
        "--json",
    ]);
    let json = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{json}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for (key, truth) in [
        ("f_c", 1.0),
        ("f_s", 1.4),
        ("v_s", 1e-3),
        ("sigma2", 0.5),
        ("sigma0", 1e5),
    ] {
        let at = json
            .find(&format!("\"key\": \"{key}\""))
            .unwrap_or_else(|| panic!("{key} in {json}"));
        let rest = &json[at..];
        let interval = &rest[rest.find("\"interval_95\": [").expect("interval") + 16..];
        let interval = &interval[..interval.find(']').expect("closing bracket")];
        let bounds: Vec<f64> = interval
            .split(',')
            .map(|x| x.trim().parse().expect("number"))
            .collect();
        assert!(
            bounds[0] <= truth && truth <= bounds[1],
            "{key}: {truth} outside {bounds:?}"
        );
    }
}
