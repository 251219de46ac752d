//! The `tribolab` command line: runs, `--set`, listings, and every kind of bad input giving a
//! clear message, a non-zero exit and no partial output file.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tribolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tribolab-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn column(csv: &str, name: &str) -> Vec<f64> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let i = header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|l| l.split(',').nth(i).unwrap().parse::<f64>().unwrap())
        .collect()
}

#[test]
fn laws_lists_every_law_with_keys_and_units() {
    let out = tribolab(&["laws"]);
    assert!(out.status.success());
    let s = text(&out.stdout);
    for law in tribolab::laws::LAWS {
        assert!(s.contains(law.variant), "{} missing", law.variant);
        for m in law.meta {
            assert!(
                s.contains(&format!("law.{}", m.key)),
                "{}.{}",
                law.variant,
                m.key
            );
        }
    }
    assert!(s.contains("N/m") && s.contains("m/s"));
}

#[test]
fn run_writes_csv_with_t_first_and_honours_set_and_duration() {
    let dir = temp_dir("run");
    let out_file = dir.join("cycle.csv");
    let out = tribolab(&[
        "run",
        "coulomb_stick_slip_undamped",
        "--duration",
        "3",
        "--set",
        "law.mu_s=0.45",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = std::fs::read_to_string(&out_file).unwrap();
    assert!(csv.starts_with("t,x,v,v_rel,friction_force"));
    let t = column(&csv, "t");
    assert_eq!(*t.last().unwrap(), 3.0);
    // Break-away at μ_S·N = 0.45 · 10 N.
    let f_max = column(&csv, "friction_force")
        .into_iter()
        .fold(f64::MIN, f64::max);
    assert!((f_max - 4.5).abs() < 1e-9, "{f_max}");
    // Without --out the CSV goes to stdout.
    let out = tribolab(&["run", "coulomb_stick_slip_undamped", "--duration", "0.01"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).lines().count(), 1 + 11);
}

/// Runs a failing command and checks the message, the exit code and the output file.
fn fails(args: &[&str], out_file: &Path, message: &str) {
    let out = tribolab(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = text(&out.stderr);
    assert!(err.contains(message), "{args:?}: stderr was\n{err}");
    if out_file.exists() {
        assert_eq!(std::fs::read_to_string(out_file).unwrap(), "precious");
    }
    let dir = out_file.parent().unwrap();
    let leftovers = std::fs::read_dir(dir).unwrap().count();
    assert!(leftovers <= 1, "temporary files left in {}", dir.display());
}

#[test]
fn bad_input_fails_cleanly_and_keeps_files() {
    let dir = temp_dir("bad");
    let out_file = dir.join("keep.csv");
    std::fs::write(&out_file, "precious").unwrap();
    let o = out_file.to_str().unwrap();
    let p = "coulomb_stick_slip_undamped";
    fails(
        &["run", p, "--set", "law=nonsense", "--out", o],
        &out_file,
        "unknown law",
    );
    fails(
        &["run", p, "--set", "system.mas=2", "--out", o],
        &out_file,
        "unknown key `mas`",
    );
    fails(
        &["run", p, "--set", "law.mu_s=NaN", "--out", o],
        &out_file,
        "finite",
    );
    fails(
        &["run", p, "--set", "law.mu_s=7", "--out", o],
        &out_file,
        "outside the allowed range",
    );
    fails(
        &["run", p, "--duration", "-1", "--out", o],
        &out_file,
        "--duration",
    );
    fails(
        &["run", "no/such/preset.ron", "--out", o],
        &out_file,
        "no such file",
    );
    fails(&["frobnicate"], &out_file, "unknown command");
    // A diverging integration: RK4 with a step far beyond LuGre's stability limit.
    fails(
        &[
            "run",
            "lugre_canudas_1995",
            "--set",
            "run.integrator=Rk4",
            "--set",
            "run.rk4_dt=0.01",
            "--out",
            o,
        ],
        &out_file,
        "integration diverged at t = ",
    );
}

#[test]
fn check_prints_every_problem_with_position() {
    let dir = temp_dir("check");
    let bad = dir.join("bad.ron");
    std::fs::write(
        &bad,
        "(\n    system: BeltBlock(mass: 0.0, stiffness: inf),\n    law: Tustin(v_s: -1.0),\n)\n",
    )
    .unwrap();
    let out = tribolab(&["check", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    let b = bad.display();
    assert!(err.contains(&format!("{b}:2:23: system.mass:")), "{err}");
    assert!(
        err.contains(&format!("{b}:2:34: system.stiffness:")),
        "{err}"
    );
    assert!(err.contains(&format!("{b}:3:17: law.v_s:")), "{err}");
    // Syntax and unknown fields: one error with its position and field path.
    std::fs::write(&bad, "(\n    law: Tustin(v_S: 0.1),\n)\n").unwrap();
    let err = text(&tribolab(&["check", bad.to_str().unwrap()]).stderr);
    assert!(
        err.contains(&format!("{b}:2:17")) && err.contains("v_S"),
        "{err}"
    );
    let good = dir.join("good.ron");
    std::fs::write(&good, "(law: LuGre(sigma0: 2e5))\n").unwrap();
    let out = tribolab(&["check", good.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Built-in presets by name, as for `run`; an unknown name says so.
    let out = tribolab(&["check", "henon_map", "lugre_canudas_1995"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("henon_map: ok"),
        "{}",
        text(&out.stdout)
    );
    let out = tribolab(&["check", "no_such_preset"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no built-in preset of that name"));
}

/// `bench --only TEXT` keeps the cases whose workload or engine contains TEXT; the line
/// carries the checksums of the peer script (here a finite, positive limit-cycle period).
#[test]
fn bench_only_runs_the_named_case() {
    let out = tribolab(&["bench", "--quick", "--only", "Coulomb"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one case expected, got:\n{stdout}");
    assert!(
        lines[0].contains("\"workload\": \"Coulomb-event-driven\""),
        "{stdout}"
    );
    let period: f64 = lines[0]
        .split("\"period\": ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .expect("period field");
    assert!(period > 0.0 && period.is_finite(), "period {period}");
    // A missing value or an unknown argument is a usage error, not "run everything".
    let out = tribolab(&["bench", "--only"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--only needs a value"));
    let out = tribolab(&["bench", "--qiuck"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unexpected argument `--qiuck`"));
}

/// Regression: Ctrl-C or SIGTERM during `run --out` left `.NAME.tmp-PID` behind (46 MB after
/// 1 s). The handler removes it; an existing target is left as it was. A SIGKILL cannot be
/// handled: its temporary is swept by the next write of the same file.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_write_leaves_no_temporary_and_keeps_the_old_file() {
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("tribolab-interrupt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("long.csv");
    std::fs::write(&target, "old\n").unwrap();
    let temporaries = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .count()
    };
    for signal in ["-INT", "-TERM", "-KILL"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tribolab"))
            .args(["run", "s1_bench_19_36rpm", "--duration", "1e7", "--out"])
            .arg(&target)
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while temporaries() == 0 {
            assert!(Instant::now() < deadline, "no temporary file appeared");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        let killed = Command::new("kill")
            .arg(signal)
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert!(!status.success(), "{signal}: {status}");
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "old\n",
            "{signal}"
        );
        if signal == "-KILL" {
            assert_eq!(temporaries(), 1, "SIGKILL leaves its temporary");
        } else {
            assert_eq!(temporaries(), 0, "{signal} left a temporary file");
        }
    }
    // The next write of the file sweeps the dead process's temporary.
    let out = tribolab(&[
        "run",
        "s1_bench_19_36rpm",
        "--duration",
        "1",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(temporaries(), 0);
    assert!(std::fs::read_to_string(&target).unwrap().starts_with("t,"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every command answers `--help` (and `help COMMAND`) with its own usage and exit 0; a
/// mistyped command, option, preset name, parameter key, field or choice gets the nearest
/// real one suggested; a file cut short says "unexpected end of file" with its place. Exit
/// codes: 0 done, 1 the command failed, 2 the command line is wrong.
#[test]
fn help_per_command_and_suggestions_for_typos() {
    for cmd in [
        "run", "check", "lyapunov", "analyze", "floquet", "sweep", "events", "friction", "rig",
        "fit", "map", "merge", "bench",
    ] {
        let out = tribolab(&[cmd, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{cmd}");
        let usage = text(&out.stdout);
        assert!(usage.contains(&format!("tribolab {cmd}")), "{cmd}: {usage}");
        // Only this command's lines (plus the notes on presets).
        let others = usage.matches("    tribolab ").count();
        let own = usage.matches(&format!("    tribolab {cmd} ")).count();
        assert_eq!(others, own, "{cmd}: {usage}");
        assert_eq!(text(&tribolab(&["help", cmd]).stdout), usage, "{cmd}");
    }
    let out = tribolab(&["rig", "-h"]);
    assert!(text(&out.stdout).contains("characterisation rig"));

    let cases: [(&[&str], i32, &str); 6] = [
        (&["runn"], 2, "unknown command `runn` (did you mean `run`?)"),
        (
            &["run", "coulomb", "--durration", "2"],
            2,
            "run: unknown option `--durration` (did you mean `--duration`?)",
        ),
        (
            &["run", "s1_bench_19_36rp"],
            1,
            "no built-in preset of that name (did you mean `s1_bench_19_36rpm`?)",
        ),
        (
            &["run", "coulomb", "--set", "system.stifness=3"],
            1,
            "unknown key `stifness` (did you mean `stiffness`?)",
        ),
        (
            &["help", "rgi"],
            2,
            "no command `rgi` (did you mean `rig`?)",
        ),
        (
            &["sweep", "coulomb", "--stpes", "3"],
            2,
            "(did you mean `--steps`?)",
        ),
    ];
    for (args, code, message) in cases {
        let out = tribolab(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }

    let dir = temp_dir("typos");
    let coulomb = std::fs::read_to_string("presets/coulomb.ron").unwrap();
    for (name, body, message) in [
        (
            "field.ron",
            coulomb.replace("stiffness:", "stifness:"),
            ":9: system.stifness: unknown field `stifness` in `BeltBlock` (did you mean `stiffness`?)",
        ),
        (
            "choice.ron",
            coulomb.replace("law: Coulomb(", "law: Colomb("),
            "law: unknown choice `Colomb` in `LawConfig` (did you mean `Coulomb`?)",
        ),
        (
            "cut.ron",
            coulomb[..coulomb.len() / 2].to_string(),
            "unexpected end of file",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let out = tribolab(&["check", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = text(&out.stderr);
        assert!(err.contains(message), "{name}: {err}");
        assert!(
            err.contains(&format!("{name}:")),
            "{name}: no file:line:col in {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
