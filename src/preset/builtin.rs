//! Presets shipped in `presets/`, embedded in the binary so the app works from any folder.

use super::{Preset, PresetError};

/// `(file stem, RON text)` of every built-in preset, in menu order.
pub static BUILTIN: &[(&str, &str)] = &[
    (
        "s1_bench_19_36rpm",
        include_str!("../../presets/s1_bench_19_36rpm.ron"),
    ),
    (
        "s1_bench_14_87rpm",
        include_str!("../../presets/s1_bench_14_87rpm.ron"),
    ),
    (
        "s1_bench_10_04rpm",
        include_str!("../../presets/s1_bench_10_04rpm.ron"),
    ),
    (
        "s1_bench_4_47rpm",
        include_str!("../../presets/s1_bench_4_47rpm.ron"),
    ),
    (
        "coulomb_stick_slip_undamped",
        include_str!("../../presets/coulomb_stick_slip_undamped.ron"),
    ),
    (
        "stribeck_stick_slip",
        include_str!("../../presets/stribeck_stick_slip.ron"),
    ),
    (
        "lugre_canudas_1995",
        include_str!("../../presets/lugre_canudas_1995.ron"),
    ),
    (
        "bo_pavelescu",
        include_str!("../../presets/bo_pavelescu.ron"),
    ),
    ("coulomb", include_str!("../../presets/coulomb.ron")),
    (
        "dahl_presliding",
        include_str!("../../presets/dahl_presliding.ron"),
    ),
    (
        "gms_stick_slip",
        include_str!("../../presets/gms_stick_slip.ron"),
    ),
    ("lorentzian", include_str!("../../presets/lorentzian.ron")),
    (
        "maxwell_slip",
        include_str!("../../presets/maxwell_slip.ron"),
    ),
    (
        "popp_stelter",
        include_str!("../../presets/popp_stelter.ron"),
    ),
    (
        "powell_wiercigroch",
        include_str!("../../presets/powell_wiercigroch.ron"),
    ),
    (
        "seven_parameter_dwell",
        include_str!("../../presets/seven_parameter_dwell.ron"),
    ),
    ("stefanski", include_str!("../../presets/stefanski.ron")),
    (
        "subloading_dry",
        include_str!("../../presets/subloading_dry.ron"),
    ),
    (
        "subloading_fluid",
        include_str!("../../presets/subloading_fluid.ron"),
    ),
    ("tustin", include_str!("../../presets/tustin.ron")),
    (
        "w2_stribeck_tanh",
        include_str!("../../presets/w2_stribeck_tanh.ron"),
    ),
    (
        "two_block_bk",
        include_str!("../../presets/two_block_bk.ron"),
    ),
    (
        "chain_10_classroom",
        include_str!("../../presets/chain_10_classroom.ron"),
    ),
    (
        "chain_10_in_step",
        include_str!("../../presets/chain_10_in_step.ron"),
    ),
    (
        "chain_random_thresholds",
        include_str!("../../presets/chain_random_thresholds.ron"),
    ),
    (
        "carlson_langer_single_block",
        include_str!("../../presets/carlson_langer_single_block.ron"),
    ),
    (
        "carlson_langer_100",
        include_str!("../../presets/carlson_langer_100.ron"),
    ),
    (
        "lugre_chain_w3",
        include_str!("../../presets/lugre_chain_w3.ron"),
    ),
    (
        "pt_single_slips",
        include_str!("../../presets/pt_single_slips.ron"),
    ),
    (
        "pt_smooth_sliding",
        include_str!("../../presets/pt_smooth_sliding.ron"),
    ),
    (
        "pt_multiple_slips",
        include_str!("../../presets/pt_multiple_slips.ron"),
    ),
    (
        "pt_thermal_300k",
        include_str!("../../presets/pt_thermal_300k.ron"),
    ),
    (
        "fkt_five_atoms",
        include_str!("../../presets/fkt_five_atoms.ron"),
    ),
    (
        "fkt_incommensurate",
        include_str!("../../presets/fkt_incommensurate.ron"),
    ),
    (
        "fkt_commensurate",
        include_str!("../../presets/fkt_commensurate.ron"),
    ),
    ("lorenz", include_str!("../../presets/lorenz.ron")),
    (
        "logistic_map",
        include_str!("../../presets/logistic_map.ron"),
    ),
    ("henon_map", include_str!("../../presets/henon_map.ron")),
];

/// Loads a built-in preset by file stem.
pub fn load(stem: &str) -> Option<Result<Preset, PresetError>> {
    BUILTIN
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(s, text)| Preset::from_ron(text, &format!("<builtin:{s}>")))
}
