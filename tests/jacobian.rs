//! The analytic Jacobians of the belt–block (LuGre, static laws in slip and with smoothed
//! signs) against central differences of the right-hand side.

#![allow(clippy::unwrap_used)]

use tribolab::preset::Preset;

fn check(preset: &Preset, y_mod: impl Fn(&mut [f64]), label: &str) {
    let mut p = preset.clone();
    p.noise = None;
    let (mut model, mut y) = p.build_model();
    model.initialize(0.0, &mut y).unwrap();
    y_mod(&mut y);
    let n = model.dim();
    let nd = n - model.n_quadratures();
    let mut jac = vec![0.0; n * nd];
    assert!(
        model.jacobian(0.37, &y, &mut jac),
        "{label}: no analytic Jacobian"
    );
    let mut scales = vec![0.0; n];
    model.state_scales(&mut scales);
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    for j in 0..nd {
        let h = 1e-6 * y[j].abs().max(scales[j]);
        let mut yp = y.clone();
        yp[j] += h;
        let mut ym = y.clone();
        ym[j] -= h;
        model.rhs(0.37, &yp, &mut fp);
        model.rhs(0.37, &ym, &mut fm);
        for i in 0..n {
            let fd = (fp[i] - fm[i]) / (2.0 * h);
            let an = jac[i * nd + j];
            let scale = fd.abs().max(an.abs()).max(1e-8);
            assert!(
                (fd - an).abs() <= 1e-5 * scale,
                "{label}: ∂f{i}/∂y{j} analytic {an} vs difference {fd}"
            );
        }
    }
}

fn preset(stem: &str) -> Preset {
    tribolab::preset::builtin::load(stem).unwrap().unwrap()
}

#[test]
fn lugre_belt_block() {
    let mut p = preset("lugre_canudas_1995");
    check(
        &p,
        |y| {
            y[1] = 0.03;
            y[2] = 4e-6;
        },
        "LuGre slip",
    );
    check(
        &p,
        |y| {
            y[1] = 0.1003;
            y[2] = -2e-6;
        },
        "LuGre near stick",
    );
    p.set_path("law.v_d", "0.002").unwrap();
    check(
        &p,
        |y| {
            y[1] = 0.099;
            y[2] = 1e-5;
        },
        "LuGre with σ₁(v)",
    );
}

#[test]
fn static_laws_in_slip_and_smoothed() {
    for law in [
        "gaussian",
        "tustin",
        "lorentzian",
        "stribeck_s1",
        "popp_stelter",
        "bo_pavelescu",
    ] {
        for sign in ["SetValued", "Tanh(1e-3)", "Arctan(1e-3)"] {
            let mut p = preset("stribeck_stick_slip");
            p.set_path("law", law).unwrap();
            p.set_path("law.sign", sign).unwrap();
            p.set_path("system.initial_slip_velocity", "-0.03").unwrap();
            check(&p, |y| y[0] = 0.012, &format!("{law} {sign}"));
        }
    }
}
