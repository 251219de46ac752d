//! Figures for handouts: `tribolab plot` writes an SVG with a white background, a title, both
//! axes named with their units (prefixed to the values: µm, mm/s), a legend and the parameters
//! in the caption; the Stribeck rig's figure is compared with a stored one (set
//! UPDATE_SNAPSHOTS=1 to write it again after a deliberate change); bad views and sizes are
//! refused with the nearest view named.

use std::process::{Command, Output};

fn tribolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tribolab"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tribolab-figures-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn plot(args: &[&str], out: &std::path::Path) -> String {
    let mut all: Vec<&str> = vec!["plot"];
    all.extend_from_slice(args);
    let out_s = out.to_str().expect("utf-8");
    all.extend_from_slice(&["--out", out_s]);
    let o = tribolab(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out).expect("written")
}

#[test]
fn views_are_figures_with_units_legend_and_caption() {
    let d = dir("views");
    let svg = plot(
        &["rig_presliding_maxwell_slip", "--view", "rig"],
        &d.join("pre.svg"),
    );
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(r#"fill="white""#));
    assert!(svg.contains("Pre-sliding: force against displacement"));
    assert!(svg.contains("displacement x [µm]"), "x axis in µm");
    assert!(svg.contains("friction R [N]"));
    assert!(
        svg.contains(">−40<") && svg.contains(">40<"),
        "tick labels in µm"
    );
    assert!(svg.contains(">Masing rule<") && svg.contains(">reversal points<"));
    assert!(
        svg.contains("Maxwell-slip: M = 8, F_C = 3 N"),
        "law parameters in the caption"
    );

    let svg = plot(
        &[
            "s1_bench_19_36rpm",
            "--view",
            "friction-velocity",
            "--duration",
            "5",
            "--size",
            "640x480",
        ],
        &d.join("fv.svg"),
    );
    assert!(svg.contains(r#"width="640" height="480""#));
    assert!(svg.contains("slip velocity v_rel [mm/s]"));
    assert!(svg.contains(">steady characteristic<"));

    let svg = plot(
        &[
            "s1_bench_19_36rpm",
            "--view",
            "spectrum",
            "--duration",
            "30",
        ],
        &d.join("sp.svg"),
    );
    assert!(svg.contains("frequency f [Hz]"));
    assert!(svg.contains("largest peak 1.8"), "the stick–slip line");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_stribeck_figure_matches_its_snapshot() {
    let d = dir("snapshot");
    let svg = plot(&["rig_stribeck_lugre", "--view", "rig"], &d.join("s.svg"));
    let stored = std::path::Path::new("tests/snapshots/figure_rig_stribeck.svg");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(stored, &svg).expect("snapshot written");
    }
    let want = std::fs::read_to_string(stored).expect("tests/snapshots/figure_rig_stribeck.svg");
    assert!(
        svg == want,
        "the figure changed; compare {} with {}",
        d.join("s.svg").display(),
        stored.display()
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn bad_views_and_sizes_are_refused() {
    let d = dir("bad");
    let out = d.join("x.svg");
    let o = tribolab(&[
        "plot",
        "coulomb",
        "--view",
        "phse",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("(did you mean `phase`?)"));
    let o = tribolab(&[
        "plot",
        "coulomb",
        "--view",
        "phase",
        "--size",
        "10x10",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = tribolab(&[
        "plot",
        "coulomb",
        "--view",
        "rig",
        "--duration",
        "1",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("only a characterisation rig"));
    assert!(!out.exists(), "no file on failure");
    std::fs::remove_dir_all(&d).ok();
}
