//! Every shipped preset loads, round-trips (save → load equal) and runs what it advertises:
//! its own duration, capped at 100 model-seconds (100 iterations for the discrete maps; 20 000
//! steps for fixed-step presets in a debug build).

#![allow(clippy::unwrap_used)]

use tribolab::integrate::driver::NullSink;
use tribolab::preset::Preset;
use tribolab::preset::builtin::BUILTIN;

#[test]
fn every_file_in_presets_is_embedded() {
    let mut on_disk: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/presets"))
            .expect("presets/ exists")
            .filter_map(|e| {
                let name = e.ok()?.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".ron").map(str::to_string)
            })
            .collect();
    on_disk.sort();
    let mut embedded: Vec<String> = BUILTIN.iter().map(|(s, _)| s.to_string()).collect();
    embedded.sort();
    assert_eq!(on_disk, embedded);
}

#[test]
fn every_preset_loads_and_round_trips() {
    for (stem, text) in BUILTIN {
        let p = Preset::from_ron(text, stem).unwrap_or_else(|e| panic!("{e}"));
        assert!(!p.description.is_empty(), "{stem} has no description");
        let again = Preset::from_ron(&p.to_ron().expect("serialises"), stem)
            .unwrap_or_else(|e| panic!("{stem} after round trip: {e}"));
        assert_eq!(p, again, "{stem} changed in the round trip");
    }
}

#[test]
fn every_preset_runs_its_duration_up_to_100_model_seconds() {
    for (stem, text) in BUILTIN {
        let mut p = Preset::from_ron(text, stem).expect("loads");
        p.run.output_interval_s = 0.01;
        // Not a flat 100 s: the 100-block LuGre chain advertises 10 s, and beyond that ever
        // more blocks stick and slip at different times, so a debug build would need minutes.
        let mut duration_s = p.run.duration_s.min(100.0);
        // Fixed-step presets (the asperity model: 60 000 RK4 steps of a 700-state model per
        // model second) run 20 000 steps in a debug build; `tests/asperity.rs` runs them whole
        // in release.
        if cfg!(debug_assertions) && p.run.integrator == tribolab::integrate::Method::Rk4 {
            duration_s = duration_s.min(2e4 * p.run.rk4_dt_s);
        }
        let mut sim = p.build_runner().unwrap_or_else(|e| panic!("{stem}: {e}"));
        sim.advance(duration_s, &mut NullSink)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert!(
            sim.time_s() >= duration_s,
            "{stem} stopped at {}",
            sim.time_s()
        );
    }
}

#[test]
fn maps_run_through_the_runner_and_refuse_the_flow_driver() {
    use tribolab::integrate::{Runner, SimError};
    let p = tribolab::preset::builtin::load("henon_map")
        .unwrap()
        .unwrap();
    match p.build_simulation() {
        Err(SimError::Model { message, .. }) => assert!(message.contains("discrete map")),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("a map built a flow simulation"),
    }
    let mut run = p.build_runner().unwrap();
    assert!(matches!(run, Runner::Map(_)));
    let mut rows: Vec<Vec<f64>> = Vec::new();
    run.advance(3.0, &mut rows).unwrap();
    // t = 0, 1, 2, 3 with x' = 1 − 1.4x² + y, y' = 0.3x from (0, 0).
    assert_eq!(rows[1], vec![1.0, 1.0, 0.0, 0.0]);
    assert_eq!(rows[2], vec![2.0, 1.0 - 1.4, 0.3, 0.0]);
    assert_eq!(run.column_names(), ["t", "x", "y", "event"]);
}

#[test]
fn load_noise_on_a_system_without_normal_load_is_a_problem() {
    let mut p = tribolab::preset::builtin::load("lorenz").unwrap().unwrap();
    p.set_path("noise", "on").unwrap();
    let problems = p.problems();
    assert!(
        problems
            .iter()
            .any(|(path, m)| path == "noise" && m.contains("Lorenz")),
        "{problems:?}"
    );
}

/// Regression: μ_K above μ_S passed `check` and the run died with "1000 stick/slip switches
/// within 0e0 s". Every law whose assumptions order two of its parameters refuses the reverse
/// order with a message naming both fields; equal values are accepted.
#[test]
fn contradicting_law_parameters_are_refused_naming_both_fields() {
    let cases = [
        ("StaticKinetic", "mu_k", "mu_s"),
        ("Subloading", "mu_k", "mu_s"),
        ("StribeckS1", "mu_c", "mu_s"),
        ("Tustin", "mu_c", "mu_s"),
        ("BoPavelescu", "mu_c", "mu_s"),
        ("Gaussian", "mu_c", "mu_s"),
        ("Lorentzian", "mu_c", "mu_s"),
        ("PoppStelter", "mu_c", "mu_s"),
        ("PowellWiercigroch", "mu_c", "mu_s"),
        ("Stefanski", "mu_c", "mu_s"),
        ("LuGre", "f_c", "f_s"),
        ("Gms", "f_c", "f_s"),
    ];
    for (law, lower, upper) in cases {
        let mut p = tribolab::preset::builtin::load("s1_bench_19_36rpm")
            .unwrap()
            .unwrap();
        p.set_path("law", law).unwrap();
        p.set_path(&format!("law.{upper}"), "0.5").unwrap();
        p.set_path(&format!("law.{lower}"), "0.5").unwrap();
        assert!(p.problems().is_empty(), "{law}: {:?}", p.problems());
        p.set_path(&format!("law.{lower}"), "0.6").unwrap();
        let problems = p.problems();
        assert_eq!(problems.len(), 1, "{law}: {problems:?}");
        let (path, message) = &problems[0];
        assert_eq!(path, &format!("law.{lower}"), "{law}");
        assert!(
            message.contains(&format!("({lower})")) && message.contains(&format!("({upper})")),
            "{law}: {message}"
        );
        // A preset file with the contradiction is refused at load, at the field's location.
        let text = p.to_ron().unwrap();
        let err = tribolab::preset::Preset::from_ron(&text, "contradiction.ron").unwrap_err();
        let shown = err.to_string();
        assert!(shown.contains("contradiction.ron:"), "{shown}");
        assert!(shown.contains(&format!("law.{lower}")), "{shown}");
    }
    // Armstrong's F_S,∞ is the static *excess* over F_C: any order is allowed.
    let mut p = tribolab::preset::builtin::load("s1_bench_19_36rpm")
        .unwrap()
        .unwrap();
    p.set_path("law", "Armstrong").unwrap();
    p.set_path("law.f_c", "2").unwrap();
    p.set_path("law.f_s", "0.5").unwrap();
    assert!(p.problems().is_empty(), "{:?}", p.problems());
}

/// The belt's joint is part of the belt: it cannot be longer than the belt loop.
#[test]
fn a_joint_longer_than_the_belt_is_refused() {
    let mut p = tribolab::preset::builtin::load("s1_bench_19_36rpm")
        .unwrap()
        .unwrap();
    p.set_path("system.belt_length", "0.1").unwrap();
    p.set_path("system.joint_length", "0.2").unwrap();
    let problems = p.problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, "system.joint_length");
    assert!(problems[0].1.contains("(belt_length)"), "{}", problems[0].1);
}

/// Regression: the step was capped at 1/8 of the joint's passage for the whole run, so a
/// joint of ℓ_j = 1e-9 m took hours for 20 s. The cap now holds inside the passage only (its
/// start and end are breakpoints), and the run costs what a run without the joint costs.
#[test]
fn a_very_short_belt_joint_costs_no_more_than_the_belt() {
    let steps = |joint_length: &str| {
        let mut p = tribolab::preset::builtin::load("s1_bench_19_36rpm")
            .unwrap()
            .unwrap();
        p.set_path("system.joint_length", joint_length).unwrap();
        let mut sim = p.build_simulation().unwrap();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        sim.advance(20.0, &mut rows).unwrap();
        sim.stats().steps
    };
    let without = steps("0");
    let short = steps("1e-9");
    assert!(
        short < without + 200,
        "1e-9 m joint: {short} steps, no joint: {without}"
    );
    // The default 20 mm joint is still resolved: inside a passage (0.2 s at 0.1 m/s, once
    // per 9.9 s belt turn) the step is at most an eighth of it, outside it is free.
    let p = tribolab::preset::builtin::load("s1_bench_19_36rpm")
        .unwrap()
        .unwrap();
    let turn_s = 1.0 / (std::f64::consts::TAU * 0.05 * 19.36 / 60.0);
    let passage_s = 0.02 * turn_s;
    let (model, _) = p.build_model();
    for t in [
        0.0,
        0.5 * passage_s,
        turn_s + 0.9 * passage_s,
        turn_s * (1.0 - 1e-12),
    ] {
        let h = model.max_step_s(t);
        assert!((h - passage_s / 8.0).abs() < 1e-12, "t = {t}: {h}");
    }
    for t in [1.1 * passage_s, 0.5 * turn_s, turn_s * 0.999] {
        assert_eq!(model.max_step_s(t), f64::INFINITY, "t = {t}");
    }
}

/// Regression (messages): 1e300 printed as a 300-digit integer; `noise.seed=1.5` said only
/// "Non-whitespace trailing characters"; a file that is not UTF-8 had no line:col.
#[test]
fn messages_say_what_was_expected_and_where() {
    let mut p = tribolab::preset::builtin::load("s1_bench_19_36rpm")
        .unwrap()
        .unwrap();
    p.set_path("system.mass", "1e300").unwrap_err();
    let err = p.set_path("system.mass", "1e300").unwrap_err();
    assert!(err.contains("mass = 1e300 is outside"), "{err}");
    assert!(err.len() < 120, "{err}");
    p.set_path("noise", "on").unwrap();
    let err = p.set_path("noise.seed", "1.5").unwrap_err();
    assert!(err.contains("`1.5` is not a whole number"), "{err}");

    let dir = std::env::temp_dir().join(format!("tribolab-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin1.ron");
    std::fs::write(&file, b"(name: \"x\",\n description: \"caf\xe9\",\n)").unwrap();
    let err = tribolab::preset::Preset::load(&file)
        .unwrap_err()
        .to_string();
    assert!(err.contains("latin1.ron:2:19:"), "{err}");
    assert!(err.contains("not UTF-8") && err.contains("0xE9"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Regression (messages): an optional value wrapped in `Some(…)` (presets write optional
/// values without it) got "Unexpected field named `Some` in `Preset`" — the wrong struct — or a
/// bare "Expected identifier"; now the message says how to write it, at the field.
#[test]
fn some_around_an_optional_value_is_explained() {
    let (_, text) = tribolab::preset::builtin::BUILTIN
        .iter()
        .find(|(s, _)| *s == "s1_bench_19_36rpm")
        .unwrap();
    for (wrapped, col) in [
        ("noise: Some(Some((sigma: 0.1))),", 17),
        ("noise: Some((sigma: 0.1)),", 17),
    ] {
        let bad = text.replacen(
            "    system: BeltBlock(",
            &format!("    {wrapped}\n    system: BeltBlock("),
            1,
        );
        let err = tribolab::preset::Preset::from_ron(&bad, "x.ron").unwrap_err();
        let p = &err.problems[0];
        assert_eq!((p.line, p.col), (7, col), "{err}");
        assert!(!p.message.contains("in `Preset`"), "{err}");
        assert!(p.message.contains("without `Some(…)`"), "{err}");
        assert!(p.message.contains("noise: (…)"), "{err}");
    }
}
