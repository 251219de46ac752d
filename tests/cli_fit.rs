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

/// LuGre at 2 N behind a sinusoidal position of ±0.8 mm at 0.5 Hz, 6 s, steps of 2–4 ms,
/// friction with 5 mN of noise; written as a lab's file in µN and mm.
fn tribometer_file(path: &std::path::Path) {
    let mut rng = SplitMix64::new(42);
    let mut t = vec![0.0];
    while *t.last().expect("non-empty") < 6.0 {
        let last = *t.last().expect("non-empty");
        t.push(last + 2e-3 + 2e-3 * rng.uniform_open());
    }
    let w = std::f64::consts::TAU * 0.5;
    let x: Vec<f64> = t.iter().map(|t| 8e-4 * (w * t).sin()).collect();
    let v: Vec<f64> = t.iter().map(|t| 8e-4 * w * (w * t).cos()).collect();
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
    let mut text = String::from("# bench run 17, ball on flat\ntime\tFn\tpos\tFf\n");
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

#[test]
fn a_tribometer_file_goes_to_a_fitted_law_with_intervals_and_a_preset() {
    let dir = temp_dir("law");
    let data = dir.join("bench.tsv");
    tribometer_file(&data);
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
    tribometer_file(&data);
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
