//! Runs split into shards and merged back give the bytes of the unsplit run: a regime map run
//! as the Slurm job array of `docs/cluster/map_array.sbatch` would run it (each task with its
//! `SLURM_ARRAY_TASK_ID`, in a shuffled order), a fixed-start sweep and a friction sweep split
//! with `--shard K/N`; and the splits that cannot be made are refused with the reason.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tribolab(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tribolab-shards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Merges `files` (in `dir`) and returns the merged text.
fn merge(dir: &Path, files: &[String]) -> String {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--out", "merged.csv"]);
    ok(&tribolab(dir, &args));
    read(dir.join("merged.csv"))
}

#[test]
fn slurm_array_of_the_documented_job_script_merges_into_the_unsplit_map() {
    let dir = scratch_dir("slurm");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cluster/map_array.sbatch");
    let text = read(script.clone());
    // The array size as the script declares it; the test runs a smaller map with 5 tasks.
    assert!(text.contains("#SBATCH --array=1-64"), "{text}");
    let (preset, x, y, duration) = (
        "stribeck_stick_slip",
        "system.wheel_rpm=0.5:5:4",
        "system.damping=0:100:3",
        "30",
    );
    let tasks = 5;
    for task in [3, 5, 1, 4, 2] {
        let out = Command::new("bash")
            .arg(&script)
            .current_dir(&dir)
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", tasks.to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("TRIBOLAB", env!("CARGO_BIN_EXE_tribolab"))
            .env("PRESET", preset)
            .env("X", x)
            .env("Y", y)
            .env("DURATION", duration)
            .output()
            .unwrap();
        ok(&out);
    }
    let shards: Vec<String> = (1..=tasks).map(|k| format!("shards/map_{k}.csv")).collect();
    assert!(read(dir.join(&shards[1])).contains("# shard: 2/5"));
    let merged = merge(&dir, &shards);
    ok(&tribolab(
        &dir,
        &[
            "map",
            preset,
            "--x",
            x,
            "--y",
            y,
            "--duration",
            duration,
            "--quiet",
            "--out",
            "whole.csv",
        ],
    ));
    let whole = read(dir.join("whole.csv"));
    assert_eq!(whole.lines().filter(|l| !l.starts_with('#')).count(), 13);
    assert_eq!(merged, whole);
    // Without the array's variables the script refuses to run.
    let out = Command::new("bash")
        .arg(&script)
        .current_dir(&dir)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("job array"));
}

/// The sweep's own arguments (without the shard and the output).
const SWEEP: &[&str] = &[
    "sweep",
    "coulomb_stick_slip_undamped",
    "--param",
    "law.mu_s",
    "--from",
    "0.35",
    "--to",
    "0.45",
    "--steps",
    "5",
    "--duration",
    "8",
    "--transient",
    "4",
    "--fixed",
    "--quiet",
];

#[test]
fn fixed_sweep_shards_merge_into_the_unsplit_diagram() {
    let dir = scratch_dir("sweep");
    let mut files = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let file = format!("sweep_{k}.csv");
        let mut args = SWEEP.to_vec();
        args.extend(["--shard", &shard, "--out", &file]);
        ok(&tribolab(&dir, &args));
        files.push(file);
    }
    let first = read(dir.join(&files[0]));
    assert!(first.starts_with("# tribolab sweep\n"), "{first}");
    assert!(
        first.contains("# unit 0\n") && first.contains("# unit 3\n"),
        "{first}"
    );
    let merged = merge(&dir, &files);
    let mut args = SWEEP.to_vec();
    args.extend(["--out", "whole.csv"]);
    ok(&tribolab(&dir, &args));
    let whole = read(dir.join("whole.csv"));
    assert!(whole.starts_with("law.mu_s,branch,section,t,"), "{whole}");
    assert_eq!(merged, whole);
    // Five values, one per row block: each value's rows carry it.
    for v in ["0.35", "0.375", "0.4", "0.425", "0.45"] {
        assert!(
            whole.lines().any(|l| l.starts_with(&format!("{v},fixed,"))),
            "{v}"
        );
    }

    // A continuation sweep cannot be split; a shard of another sweep is refused at merge.
    let mut args: Vec<&str> = SWEEP.iter().copied().filter(|a| *a != "--fixed").collect();
    args.extend(["--shard", "1/2"]);
    let out = tribolab(&dir, &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--fixed"));
    let mut args: Vec<&str> = SWEEP
        .iter()
        .map(|a| if *a == "8" { "9" } else { a })
        .collect();
    args.extend(["--shard", "3/3", "--out", "other.csv"]);
    ok(&tribolab(&dir, &args));
    let out = tribolab(
        &dir,
        &["merge", &files[0], &files[1], "other.csv", "--out", "x.csv"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("other.csv") && err.contains("# run"), "{err}");
    assert!(
        !dir.join("x.csv").exists(),
        "a refused merge writes nothing"
    );
}

#[test]
fn friction_sweep_shards_merge_into_the_unsplit_table() {
    let dir = scratch_dir("friction");
    let common = [
        "friction",
        "pt_thermal_300k",
        "--param",
        "system.speed",
        "--from",
        "1e-7",
        "--to",
        "1e-5",
        "--steps",
        "4",
        "--log",
        "--seeds",
        "2",
        "--transient",
        "1",
        "--measure",
        "2",
        "--quiet",
    ];
    let mut files = Vec::new();
    for k in [2, 1] {
        let shard = format!("{k}/2");
        let file = format!("friction_{k}.csv");
        let mut args = common.to_vec();
        args.extend(["--shard", &shard, "--out", &file]);
        ok(&tribolab(&dir, &args));
        files.push(file);
    }
    let merged = merge(&dir, &files);
    let mut args = common.to_vec();
    args.extend(["--out", "whole.csv"]);
    ok(&tribolab(&dir, &args));
    let whole = read(dir.join("whole.csv"));
    assert_eq!(whole.lines().count(), 5, "{whole}");
    assert_eq!(merged, whole);
    let mut args = common.to_vec();
    args.extend(["--shard", "1/2", "--fit"]);
    let out = tribolab(&dir, &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("merge the shards"));
}
