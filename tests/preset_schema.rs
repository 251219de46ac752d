//! Preset schema v2 (per-contact laws, seeded spread) and the version-1 files that shipped
//! before it: every one of them still loads, is upgraded on read, describes the same experiment
//! as the shipped preset and runs the same rows; saving writes version 2.

#![allow(clippy::unwrap_used)]

use tribolab::preset::{Preset, SCHEMA_VERSION, builtin};

fn v1_fixtures() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/presets_v1");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.ok()?.path();
            let stem = path.file_stem()?.to_string_lossy().into_owned();
            Some((stem, std::fs::read_to_string(&path).ok()?))
        })
        .collect();
    out.sort();
    out
}

/// Every version-1 preset that shipped (24 files, copied from the last version-1 release)
/// loads, reads as version 2, equals the shipped (now version-2) preset field for field (the
/// description and notes aside, which may be reworded for students), and
/// runs the same samples for two model-seconds (50 iterations for maps).
#[test]
fn every_shipped_version_1_preset_loads_and_runs_as_before() {
    let fixtures = v1_fixtures();
    assert_eq!(fixtures.len(), 24);
    for (stem, text) in fixtures {
        assert!(text.contains("version: 1,"), "{stem} is a version-1 file");
        let old = Preset::from_ron(&text, &stem).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(old.version, SCHEMA_VERSION, "{stem} upgraded on read");
        assert!(old.contacts.is_empty() && old.spread.is_empty());
        let shipped = builtin::load(&stem).unwrap().unwrap();
        // The same experiment; the words for the reader (description, notes) may be reworded.
        let experiment = |p: &Preset| Preset {
            description: String::new(),
            notes: String::new(),
            ..p.clone()
        };
        assert_eq!(experiment(&old), experiment(&shipped), "{stem}");
        assert_eq!(old.name, shipped.name, "{stem}");
        let t_end = if old.system.is_map() { 50.0 } else { 2.0 };
        let rows = |p: &Preset| {
            let mut sim = p.build_runner().unwrap();
            let mut r = Vec::<Vec<f64>>::new();
            sim.advance(t_end, &mut r).unwrap();
            r
        };
        assert_eq!(rows(&old), rows(&shipped), "{stem}: same rows");
    }
}

/// Output columns this build adds that the previous release did not write: the
/// seven-parameter law's dwell time and static memory, continuous states since the tangent
/// dynamics carry them (their values are checked by `tests/armstrong.rs`).
const ADDED_SINCE_PREVIOUS_RELEASE: &[&str] = &["t_d", "f_s_memory"];

/// Every version-1 preset, run by this build, reproduces the rows the previous release wrote
/// for it (recorded in `tests/fixtures/previous_release_rows.csv` from that release's own
/// CSVs) at two sample times, to 1e-9 relative — a check against another build's output,
/// not this one's.
#[test]
fn version_1_presets_reproduce_the_previous_release() {
    let reference = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/previous_release_rows.csv"
    ))
    .unwrap();
    let fixtures = v1_fixtures();
    let mut checked = 0;
    for line in reference.lines().filter(|l| !l.starts_with('#')) {
        let mut cells = line.split(',');
        let stem = cells.next().unwrap();
        let expected: Vec<f64> = cells.map(|c| c.parse().unwrap()).collect();
        let (_, text) = fixtures.iter().find(|(s, _)| s == stem).unwrap();
        let p = Preset::from_ron(text, stem).unwrap();
        let mut sim = p.build_runner().unwrap();
        let kept: Vec<bool> = sim
            .column_names()
            .iter()
            .map(|n| !ADDED_SINCE_PREVIOUS_RELEASE.contains(&n.as_str()))
            .collect();
        let mut r = Vec::<Vec<f64>>::new();
        sim.advance(expected[0], &mut r).unwrap();
        let ev = expected.len() - 1;
        let row: Vec<f64> = r
            .iter()
            .map(|row| {
                row.iter()
                    .zip(&kept)
                    .filter(|(_, k)| **k)
                    .map(|(x, _)| *x)
                    .collect::<Vec<f64>>()
            })
            .find(|row| row[0] == expected[0] && row.get(ev) == Some(&0.0))
            .unwrap_or_else(|| panic!("{stem}: no sample at t = {}", expected[0]));
        assert_eq!(row.len(), expected.len(), "{stem}: columns");
        for (k, (a, b)) in row.iter().zip(&expected).enumerate() {
            assert!(
                (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                "{stem}, t = {}, column {k}: {a} against {b} in the previous release",
                expected[0]
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 48);
}

#[test]
fn saving_writes_version_2_and_only_the_fields_in_use() {
    let p = builtin::load("s1_bench_19_36rpm").unwrap().unwrap();
    let text = p.to_ron().unwrap();
    assert!(text.contains("version: 2,"), "{text}");
    assert!(
        !text.contains("contacts") && !text.contains("spread"),
        "{text}"
    );
    let two = builtin::load("two_block_bk").unwrap().unwrap();
    let text = two.to_ron().unwrap();
    assert!(text.contains("contacts: ["), "{text}");
    assert_eq!(Preset::from_ron(&text, "x").unwrap(), two);
}

#[test]
fn a_newer_or_unknown_version_is_refused_with_its_place() {
    let text = builtin::BUILTIN
        .iter()
        .find(|(s, _)| *s == "coulomb")
        .unwrap()
        .1
        .replace("version: 2,", "version: 3,");
    let e = Preset::from_ron(&text, "new.ron").unwrap_err().to_string();
    assert!(
        e.contains("new.ron:3:5: version:") && e.contains("newer"),
        "{e}"
    );
    let e = Preset::from_ron(&text.replace("version: 3,", "version: 0,"), "old.ron")
        .unwrap_err()
        .to_string();
    assert!(e.contains("version 0 does not exist"), "{e}");
}

/// Per-contact overrides and spreads are located like every other field: an override of a
/// contact the system does not have, a law value out of range inside an override, and a spread
/// of a parameter no contact has each give `file:line:col` and the dotted path.
#[test]
fn contact_problems_are_located() {
    let text = r#"#![enable(implicit_some, unwrap_variant_newtypes)]
(
    version: 2,
    name: "x",
    description: "y",
    system: TwoBlock(),
    law: StaticKinetic(mu_s: 0.4, mu_k: 0.3),
    contacts: [
        (contact: 2, law: StaticKinetic(mu_s: 9.0, mu_k: 0.3)),
        (contact: 3, law: Coulomb()),
    ],
    spread: [(param: "sigma0", relative: 0.1, seed: 3)],
)
"#;
    let e = Preset::from_ron(text, "two.ron").unwrap_err().to_string();
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 3, "{e}");
    assert!(
        lines[0].starts_with("two.ron:9:41: contacts[0].law.mu_s:"),
        "{e}"
    );
    assert!(
        lines[1].starts_with("two.ron:10:10: contacts[1].contact: contact 3"),
        "{e}"
    );
    assert!(
        lines[2].starts_with("two.ron:12:15: spread[0].param:"),
        "{e}"
    );
}

/// A spread gives every contact its own value, the same on every load, inside the parameter's
/// range; changing the seed changes them.
#[test]
fn spread_is_seeded_and_reproducible() {
    let mut p = builtin::load("two_block_bk").unwrap().unwrap();
    p.set_path("spread.mu_k", "0.1").unwrap();
    let a = p.contact_laws();
    let mu = |laws: &[tribolab::laws::LawConfig], i: usize| laws[i].params().get("mu_k").unwrap();
    assert_ne!(mu(&a, 0), 0.3);
    assert_ne!(mu(&a, 0), mu(&a, 1));
    let reloaded = Preset::from_ron(&p.to_ron().unwrap(), "x").unwrap();
    assert_eq!(reloaded.contact_laws(), a);
    p.spread[0].seed = 2;
    assert_ne!(p.contact_laws(), a);
}

/// Every option a menu offers for a non-numeric field (`ExtraField::choices`) is accepted by
/// that field and reads back as itself, for every law and system: the menus' names and the
/// preset format cannot drift apart.
#[test]
fn every_named_option_of_a_menu_is_accepted() {
    let mut offered = 0;
    let mut check = |params: &mut dyn tribolab::params::ParamSet, what: &str| {
        for &key in params.extra_keys() {
            for &option in params.extra_choices(key) {
                params
                    .set_text(key, option)
                    .unwrap_or_else(|e| panic!("{what}.{key} = {option}: {e}"));
                assert_eq!(
                    params.get_text(key).as_deref(),
                    Some(option),
                    "{what}.{key}"
                );
                offered += 1;
            }
        }
    };
    for info in tribolab::laws::LAWS {
        check((info.default_config)().params_mut(), info.key);
    }
    for info in tribolab::systems::SYSTEMS {
        check((info.default_config)().params_mut(), info.key);
    }
    // Evolution, form, ends, overstress form, body drive, programme, start.
    assert!(offered >= 15, "{offered} options");
}
