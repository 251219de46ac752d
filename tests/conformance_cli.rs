//! Every registered system through every command of the command line: `run`, `check`,
//! `lyapunov`, `floquet`, `sweep` (and its `--response` form). A new system that a command
//! cannot handle fails here. Each system runs from a built-in preset of it (the first in the
//! menu), or from its defaults when it has none.

#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

use tribolab::preset::{Preset, builtin};
use tribolab::systems::SYSTEMS;

fn tribolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A preset file of every registered system: its first built-in preset, else its defaults
/// with the default law, short runs.
fn presets() -> Vec<(String, std::path::PathBuf, Preset)> {
    let dir = std::env::temp_dir().join(format!("tribolab-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    SYSTEMS
        .iter()
        .map(|info| {
            let builtin = builtin::BUILTIN.iter().find_map(|(stem, _)| {
                let p = builtin::load(stem)?.ok()?;
                (p.system.variant() == info.variant).then_some(p)
            });
            let mut p = builtin.unwrap_or_else(|| Preset {
                system: (info.default_config)(),
                ..Preset::default()
            });
            // Five seconds, or the preset's own span for systems on faster time scales (the
            // atomic models run microseconds).
            p.run.duration_s = if info.discrete {
                2000.0
            } else {
                p.run.duration_s.min(5.0)
            };
            let path = dir.join(format!("{}.ron", info.key));
            p.save(&path).unwrap();
            (info.key.to_string(), path, p)
        })
        .collect()
}

/// A numeric system parameter that applies live, with a small range around its value.
fn sweep_range(p: &Preset) -> (String, f64, f64) {
    let params = p.system.params();
    let meta = params
        .meta()
        .iter()
        .find(|m| !m.restart && params.get(m.key).is_some_and(|v| v != 0.0))
        .unwrap();
    let v = params.get(meta.key).unwrap();
    let (a, b) = (v, (v * 1.05).clamp(meta.min, meta.max));
    (format!("system.{}", meta.key), a.min(b), a.max(b))
}

fn assert_ok(key: &str, what: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{key}: `{what}` failed ({:?}):\n{}",
        out.status.code(),
        text(&out.stderr)
    );
}

#[test]
fn every_system_runs_checks_and_writes_its_csv() {
    for (key, path, p) in presets() {
        let file = path.to_str().unwrap();
        assert_ok(&key, "check", &tribolab(&["check", file]));
        let out = tribolab(&["run", file]);
        assert_ok(&key, "run", &out);
        let csv = text(&out.stdout);
        let header = csv.lines().next().unwrap();
        let columns = p.build_runner().unwrap().column_names();
        assert_eq!(header, columns.join(","), "{key}: the CSV header");
        assert!(
            csv.lines().count() > 100,
            "{key}: {} rows",
            csv.lines().count()
        );
    }
}

#[test]
fn every_system_has_a_lyapunov_spectrum() {
    for (key, path, p) in presets() {
        let duration = if p.system.is_map() {
            "2000".to_string()
        } else {
            (4.0 * p.run.duration_s).min(20.0).to_string()
        };
        let out = tribolab(&[
            "lyapunov",
            path.to_str().unwrap(),
            "--duration",
            &duration,
            "--no-benettin",
        ]);
        // A system without tangent equations refuses, saying why.
        if let Some(why) = p.system.tangent_refusal() {
            assert_eq!(out.status.code(), Some(1), "{key}: lyapunov");
            assert!(
                text(&out.stderr).contains(why),
                "{key}: {}",
                text(&out.stderr)
            );
            continue;
        }
        assert_ok(&key, "lyapunov", &out);
        let report = text(&out.stdout);
        assert!(report.contains("λ1"), "{key}: {report}");
    }
}

/// Floquet needs a periodic orbit. Every command must end with a result or a typed refusal
/// (exit 1, `error: …`), never a crash; and every friction system has a built-in preset that
/// settles on a periodic orbit the command finds.
#[test]
fn every_system_goes_through_floquet() {
    for info in SYSTEMS {
        let stems: Vec<&str> = builtin::BUILTIN
            .iter()
            .map(|(stem, _)| *stem)
            .filter(|stem| {
                builtin::load(stem)
                    .and_then(Result::ok)
                    .is_some_and(|p| p.system.variant() == info.variant)
            })
            .collect();
        let mut found = false;
        for stem in &stems {
            let own = builtin::load(stem).unwrap().unwrap().run.duration_s;
            let transient = own.min(20.0).to_string();
            let out = tribolab(&["floquet", stem, "--transient", &transient]);
            assert!(
                out.status.success() || out.status.code() == Some(1),
                "{stem}: floquet crashed ({:?}): {}",
                out.status.code(),
                text(&out.stderr)
            );
            if out.status.success() {
                assert!(text(&out.stdout).contains("multipliers"), "{stem}");
                found = true;
            } else {
                assert!(text(&out.stderr).starts_with("error: "), "{stem}");
            }
        }
        let friction = (info.default_config)().uses_law();
        assert!(
            found || !friction,
            "{}: no built-in preset with a periodic orbit Floquet finds",
            info.name
        );
    }
}

#[test]
fn every_system_sweeps() {
    for (key, path, p) in presets() {
        let (param, from, to) = sweep_range(&p);
        let (from, to) = (from.to_string(), to.to_string());
        let duration = if p.system.is_map() {
            "500".to_string()
        } else {
            (2.0 * p.run.duration_s).min(10.0).to_string()
        };
        let file = path.to_str().unwrap();
        let base = [
            "sweep",
            file,
            "--param",
            &param,
            "--from",
            &from,
            "--to",
            &to,
            "--steps",
            "2",
            "--duration",
            &duration,
        ];
        let out = tribolab(&base);
        assert_ok(&key, "sweep", &out);
        let csv = text(&out.stdout);
        assert!(
            csv.lines()
                .next()
                .unwrap()
                .starts_with(&format!("{param},branch,section,t,")),
            "{key}: {}",
            csv.lines().next().unwrap()
        );
        if !p.system.is_map() {
            let mut with_response = base.to_vec();
            with_response.push("--response");
            let out = tribolab(&with_response);
            assert_ok(&key, "sweep --response", &out);
            assert_eq!(
                text(&out.stdout).lines().next().unwrap(),
                format!("{param},branch,drive_hz,response_hz,amplitude"),
                "{key}"
            );
        }
    }
}

#[test]
fn systems_lists_every_registered_system() {
    let out = tribolab(&["systems"]);
    assert!(out.status.success());
    let s = text(&out.stdout);
    for info in SYSTEMS {
        assert!(
            s.contains(info.name) && s.contains(info.key),
            "{}",
            info.name
        );
        for m in info.meta {
            assert!(s.contains(&format!("system.{}", m.key)), "{}", m.key);
        }
    }
    assert!(s.contains("restarts the run"));
}

/// `run --summary` reports the energy account and one line per contact for every mechanical
/// system, found by role; the put-in energy balances what is stored, moving and dissipated.
#[test]
fn every_system_summarises_its_energy_and_contacts() {
    for (key, path, p) in presets() {
        let out_csv = path.with_extension("csv");
        let out = tribolab(&[
            "run",
            path.to_str().unwrap(),
            "--summary",
            "--out",
            out_csv.to_str().unwrap(),
        ]);
        assert_ok(&key, "run --summary", &out);
        let report = text(&out.stderr);
        let n = p.system.n_contacts();
        for c in 1..=n {
            assert!(
                report.contains(&format!("contact {c} (")) && report.contains("slip event"),
                "{key}: {report}"
            );
        }
        if p.system.layout().is_mechanical() {
            assert!(report.starts_with("energy at t = "), "{key}: {report}");
            // Per contact, or all contacts together (chains keep one friction-work integral).
            assert!(report.contains("dissipated by: friction"), "{key}");
        } else {
            assert!(report.trim().is_empty(), "{key}: {report}");
        }
    }
}
