//! Stick fraction and slip-event statistics (MODELS §4.8) on the closed-form undamped Coulomb
//! cycle (MODELS §5), exact from the switch events and by the |v_rel| threshold.

#![allow(clippy::unwrap_used)]

use std::f64::consts::PI;

use tribolab::analysis::slip_events::slip_statistics;
use tribolab::integrate::{Column, Role};
use tribolab::preset::builtin;

struct Closed {
    t_stick: f64,
    t_slip: f64,
    period: f64,
    force_drop: f64,
    slip_distance: f64,
    peak_speed: f64,
    /// First re-stick from the preset's start (x = 0, stuck): stick 0 → x_S, then slip.
    first_restick: f64,
}

fn closed_form() -> Closed {
    let (m, k, n, mu_s, mu_k, vb): (f64, f64, f64, f64, f64, f64) =
        (1.0, 100.0, 10.0, 0.4, 0.3, 0.1);
    let omega = (k / m).sqrt();
    let d = (mu_s - mu_k) * n / k;
    let t_stick = 2.0 * d / vb;
    let t_slip = (2.0 * PI - 2.0 * (omega * d / vb).atan()) / omega;
    let amplitude = (d * d + (vb / omega).powi(2)).sqrt();
    Closed {
        t_stick,
        t_slip,
        period: t_stick + t_slip,
        // Stick-side friction: μ_S N at break-away, (2μ_K − μ_S)N at re-stick.
        force_drop: mu_s * n - (2.0 * mu_k - mu_s) * n,
        // v_rel < 0 throughout the slip: ∫|v_rel| = v_b·t_slip − Δx = v_b·t_slip + 2D.
        slip_distance: vb * t_slip + 2.0 * d,
        // ẋ = −Aω at the slip's lowest point: |v_rel| = v_b + Aω.
        peak_speed: vb + amplitude * omega,
        first_restick: mu_s * n / k / vb + t_slip,
    }
}

/// Rows from the first re-stick to `t_end`, with their column names.
fn record(t_end: f64) -> (Vec<Column>, Vec<Vec<f64>>) {
    let p = builtin::load("coulomb_stick_slip_undamped")
        .unwrap()
        .unwrap();
    let mut sim = p.build_simulation().unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(t_end, &mut rows).unwrap();
    let from = closed_form().first_restick - 1e-9;
    rows.retain(|r| r[0] >= from);
    (sim.columns(), rows)
}

/// Stick time of the closed-form cycle inside `[a, b]` (stick intervals start at re-sticks).
fn stick_time(c: &Closed, a: f64, b: f64) -> f64 {
    let mut total = 0.0;
    let mut s = c.first_restick;
    while s < b {
        total += ((s + c.t_stick).min(b) - s.max(a)).max(0.0);
        s += c.period;
    }
    total
}

#[test]
fn exact_statistics_match_the_closed_form_cycle() {
    let c = closed_form();
    assert!((c.t_slip - 0.471239).abs() < 1e-6 && (c.force_drop - 2.0).abs() < 1e-12);
    let (cols, rows) = record(15.0);
    let s = slip_statistics(&cols, &rows, 0, 0, None).unwrap();
    assert!(s.exact);
    let (a, b) = (rows[0][0], rows[rows.len() - 1][0]);
    let expected_fraction = stick_time(&c, a, b) / (b - a);
    assert!(
        (s.stick_fraction - expected_fraction).abs() < 1e-8,
        "{} vs {expected_fraction}",
        s.stick_fraction
    );
    assert!((s.stick_fraction - c.t_stick / c.period).abs() < 0.02);
    // 15 s hold 21 complete events after the first re-stick at 0.871 s.
    assert!(s.events.len() >= 20, "{}", s.events.len());
    for e in &s.events {
        assert!((e.duration_s - c.t_slip).abs() < 1e-9, "{e:?}");
        assert!((e.force_drop_n - c.force_drop).abs() < 1e-8, "{e:?}");
        assert!((e.slip_distance_m - c.slip_distance).abs() < 1e-9, "{e:?}");
        assert!((e.peak_slip_speed_mps - c.peak_speed).abs() < 1e-7, "{e:?}");
    }
    for w in s.events.windows(2) {
        assert!((w[1].start_s - w[0].start_s - c.period).abs() < 1e-9);
    }
    let (mean, std) = s.mean_std(|e| e.slip_distance_m);
    assert!((mean - 0.0671239).abs() < 1e-7 && std < 1e-9);
}

#[test]
fn threshold_statistics_agree_to_the_sample_spacing() {
    let c = closed_form();
    let (cols, rows) = record(15.0);
    // Drop the switch information: what a smooth law or a measured record offers.
    let keep: Vec<usize> = (0..cols.len())
        .filter(|&i| !matches!(cols[i].role, Role::EventFlag | Role::Stick(_)))
        .collect();
    let cols2: Vec<Column> = keep.iter().map(|&i| cols[i].clone()).collect();
    let rows2: Vec<Vec<f64>> = rows
        .iter()
        .filter(|r| r[cols.len() - 1] == 0.0)
        .map(|r| keep.iter().map(|&i| r[i]).collect())
        .collect();
    let s = slip_statistics(&cols2, &rows2, 0, 0, None).unwrap();
    assert!(!s.exact && (s.v_tol_mps - 1e-4).abs() < 1e-12);
    let dt = 1e-3;
    assert!((s.stick_fraction - c.t_stick / c.period).abs() < 0.02);
    assert!(s.events.len() >= 20);
    for e in &s.events {
        assert!((e.duration_s - c.t_slip).abs() < 2.0 * dt, "{e:?}");
        // Stuck samples up to two spacings from the switches: 2·k·v_b·Δt = 0.02 N at each end.
        assert!((e.force_drop_n - c.force_drop).abs() < 0.0401, "{e:?}");
        assert!(
            (e.slip_distance_m - c.slip_distance).abs() < 2.0 * dt * 0.1,
            "{e:?}"
        );
        assert!((e.peak_slip_speed_mps - c.peak_speed).abs() < 1e-6, "{e:?}");
    }
}

/// A contact that opens (normal load zero for a while, as between an impact system's strikes)
/// counts neither as stick nor as slip while open: the stick fraction is of the contact time
/// and no event spans the opening.
#[test]
fn an_open_contact_is_neither_stick_nor_slip() {
    let c = closed_form();
    let (cols, mut rows) = record(15.0);
    let normal = cols
        .iter()
        .position(|col| col.role == Role::NormalLoad(0))
        .unwrap();
    // Open from the middle of the 4th stick after the first re-stick to the middle of the 9th.
    let mid_stick = |k: f64| c.first_restick + k * c.period + 0.5 * c.t_stick;
    let (open_from, open_to) = (mid_stick(3.0), mid_stick(8.0));
    for r in rows.iter_mut() {
        if r[0] > open_from && r[0] < open_to {
            r[normal] = 0.0;
        }
    }
    let s = slip_statistics(&cols, &rows, 0, 0, None).unwrap();
    // The last closed row before the opening and the first after it.
    let before = rows.iter().rev().find(|r| r[0] <= open_from).unwrap()[0];
    let after = rows.iter().find(|r| r[0] >= open_to).unwrap()[0];
    let (a, b) = (rows[0][0], rows[rows.len() - 1][0]);
    let contact = (before - a) + (b - after);
    let expected = (stick_time(&c, a, before) + stick_time(&c, after, b)) / contact;
    assert!(
        (s.stick_fraction - expected).abs() < 1e-8,
        "stick {} of the contact time against {expected}",
        s.stick_fraction
    );
    let cf = s.contact_fraction.unwrap();
    assert!(
        (cf - contact / (b - a)).abs() < 1e-12,
        "contact fraction {cf}"
    );
    // Whole events only: 3 before the opening; the 5 inside it and none across it.
    assert!(
        s.events
            .iter()
            .all(|e| e.start_s + e.duration_s <= before || e.start_s >= after),
        "an event spans the opening"
    );
    let closed = slip_statistics(&cols, &record(15.0).1, 0, 0, None).unwrap();
    let full = closed.events.len();
    assert_eq!(
        s.events.len(),
        full - 5,
        "{} of {full} events",
        s.events.len()
    );
    for e in &s.events {
        assert!((e.duration_s - c.t_slip).abs() < 1e-9, "{e:?}");
    }
    // The same record closed throughout reports no contact fraction.
    assert!(closed.contact_fraction.is_none());
}

/// Karnopp's law decides stick by its own band `|v_rel| < D_v`: the stick phase, spent
/// drifting at the velocity it entered the band with, reads as stick (the flag used to come
/// from `|v_rel| < 10⁻³·v_b`, and such a phase read as slip).
#[test]
fn karnopp_sticks_inside_its_band() {
    let c = closed_form();
    let mut p = builtin::load("coulomb_stick_slip_undamped")
        .unwrap()
        .unwrap();
    p.set_path("law.sign", "Karnopp(1e-3)").unwrap();
    let mut sim = p.build_simulation().unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(15.0, &mut rows).unwrap();
    let cols = sim.columns();
    let stick = cols
        .iter()
        .position(|col| col.role == Role::Stick(0))
        .unwrap();
    rows.retain(|r| r[0] >= c.first_restick);
    let stuck = rows.iter().filter(|r| r[stick] == 1.0).count();
    let fraction = stuck as f64 / rows.len() as f64;
    // Stick lasts 2D/(v_b − v_entry) with v_entry < D_v = 1 % of v_b.
    assert!(
        (fraction - c.t_stick / c.period).abs() < 0.02,
        "{fraction} vs {}",
        c.t_stick / c.period
    );
}
