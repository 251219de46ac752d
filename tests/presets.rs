//! Every shipped preset loads, round-trips (save → load equal) and runs 100 model-seconds
//! (100 iterations for the discrete maps).

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
fn every_preset_runs_100_model_seconds() {
    for (stem, text) in BUILTIN {
        let mut p = Preset::from_ron(text, stem).expect("loads");
        p.run.output_interval_s = 0.01;
        let mut sim = p.build_runner().unwrap_or_else(|e| panic!("{stem}: {e}"));
        sim.advance(100.0, &mut NullSink)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert!(sim.time_s() >= 100.0);
    }
}
