//! The thermally activated friction law of Sang, Dubé & Grant (Phys Rev Lett 87:174301, 2001)
//! fitted to friction against speed:
//! ```text
//! F(v) = F_c − ΔF·|ln(v/v_c)|^β      (v < v_c; theory: β = 2/3)
//! ```
//! A tip slips when thermal noise carries it over a barrier that vanishes like
//! `(F_c − F)^(3/2)` as the force approaches the athermal slip force `F_c`; at speed `v` the
//! slip happens where the activation rate matches the loading rate, which gives the 2/3 power
//! of the logarithm.
//!
//! The fit: for given `v_c` and `β` the law is linear in `F_c` and `ΔF` (weighted linear least
//! squares); `ln v_c` and `β` are searched on a grid and refined by shrinking the grid around
//! the best point. `v_c` is kept above every fitted speed.
//!
//! With four free parameters the exponent is poorly determined by a few decades of noisy data
//! (a nearly logarithmic law fits almost as well with `β → 0` and a distant `v_c`). When the
//! athermal force is known independently — the quasi-static friction of the cold tip — pass it
//! as [`FitOptions::limit_n`]: the fit is then linear in `ΔF` alone and `β` is well defined.

/// A fitted law.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActivatedFit {
    /// Athermal force `F_c` [N].
    pub f_c_n: f64,
    /// Amplitude `ΔF` [N].
    pub delta_f_n: f64,
    /// Crossover speed `v_c` [m/s].
    pub v_c_mps: f64,
    /// Exponent `β`.
    pub exponent: f64,
    /// Root-mean-square residual [N].
    pub rms_n: f64,
}

impl ActivatedFit {
    /// The law at speed `v` [N].
    pub fn force_n(&self, v: f64) -> f64 {
        self.f_c_n - self.delta_f_n * (self.v_c_mps / v).ln().abs().powf(self.exponent)
    }
}

use super::friction_sweep::FrictionPoint;
use crate::systems::ThermalFriction;

/// The law fitted to a friction-against-speed sweep, with the drag that was taken off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedSweepFit {
    /// The activated law of the corrugation's friction.
    pub law: ActivatedFit,
    /// Viscous drag coefficient added back [kg/s].
    pub drag_kg_per_s: f64,
    /// Whether `F_c` was held at the system's athermal friction.
    pub limit_known: bool,
    /// Speeds fitted (those below the athermal force after the drag is taken off).
    pub points_used: usize,
}

impl SpeedSweepFit {
    /// Total mean friction at speed `v` [N]: the law plus the drag.
    pub fn force_n(&self, v: f64) -> f64 {
        self.law.force_n(v) + self.drag_kg_per_s * v
    }
}

/// Fits the law to a sweep of friction against speed of a system with a thermal bath: the
/// mean viscous drag `drag·v` is taken off first (the law describes the corrugation's part);
/// when the system knows its athermal friction it is held as `F_c` and only the speeds whose
/// friction lies below it are fitted (above it the tip's inertia, not activation, sets the
/// friction). `exponent`: `Some(β)` fixed, `None` fitted.
pub fn fit_speed_sweep(
    points: &[FrictionPoint],
    study: &ThermalFriction,
    exponent: Option<f64>,
) -> Option<SpeedSweepFit> {
    let limit = study.athermal_friction_n.filter(|f| *f > 0.0);
    let (mut v, mut f, mut s) = (Vec::new(), Vec::new(), Vec::new());
    for p in points {
        let corrugation = p.mean_n - study.drag_kg_per_s * p.value;
        let usable =
            p.value > 0.0 && corrugation.is_finite() && limit.is_none_or(|c| corrugation < c);
        if usable {
            v.push(p.value);
            f.push(corrugation);
            s.push(p.sem_n);
        }
    }
    let law = fit(
        &v,
        &f,
        Some(&s),
        FitOptions {
            exponent,
            limit_n: limit,
        },
    )?;
    Some(SpeedSweepFit {
        law,
        drag_kg_per_s: study.drag_kg_per_s,
        limit_known: limit.is_some(),
        points_used: v.len(),
    })
}

/// What the fit holds fixed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitOptions {
    /// `Some(β)` holds the exponent fixed (`Some(2.0/3.0)` for the theory's law); `None` fits
    /// it in [0.05, 2].
    pub exponent: Option<f64>,
    /// `Some(F_c)` [N] holds the athermal force fixed (known from the cold system).
    pub limit_n: Option<f64>,
}

/// Weighted least squares of `f ≈ c − d·g` for `d` alone with `c` given; returns (c, d, sse).
fn linear_known(g: &[f64], f: &[f64], w: &[f64], c: f64) -> Option<(f64, f64, f64)> {
    let (mut sgg, mut sgf) = (0.0, 0.0);
    for ((&g, &f), &w) in g.iter().zip(f).zip(w) {
        sgg += w * g * g;
        sgf += w * g * (c - f);
    }
    if sgg <= 1e-300 {
        return None;
    }
    let d = sgf / sgg;
    let sse = g
        .iter()
        .zip(f)
        .zip(w)
        .map(|((&g, &f), &w)| w * (f - c + d * g).powi(2))
        .sum();
    Some((c, d, sse))
}

/// Weighted linear least squares of `f ≈ c − d·g` for (c, d); returns (c, d, sse).
fn linear(g: &[f64], f: &[f64], w: &[f64]) -> Option<(f64, f64, f64)> {
    let (mut sw, mut sg, mut sf, mut sgg, mut sgf) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for ((&g, &f), &w) in g.iter().zip(f).zip(w) {
        sw += w;
        sg += w * g;
        sf += w * f;
        sgg += w * g * g;
        sgf += w * g * f;
    }
    let det = sw * sgg - sg * sg;
    if det.abs() <= 1e-300 {
        return None;
    }
    // f = c + e·g with e = −d.
    let e = (sw * sgf - sg * sf) / det;
    let c = (sf - e * sg) / sw;
    let sse = g
        .iter()
        .zip(f)
        .zip(w)
        .map(|((&g, &f), &w)| w * (f - c - e * g).powi(2))
        .sum();
    Some((c, -e, sse))
}

/// Fits the law to speeds `v` [m/s] and forces `f` [N], with optional standard errors `sem`
/// (weights `1/sem²`; equal weights without them), holding fixed what `options` says.
pub fn fit(v: &[f64], f: &[f64], sem: Option<&[f64]>, options: FitOptions) -> Option<ActivatedFit> {
    let exponent = options.exponent;
    let n = v.len().min(f.len());
    if n < 3 || v.iter().any(|&v| v.is_nan() || v <= 0.0) {
        return None;
    }
    let w: Vec<f64> = match sem {
        Some(s) => s
            .iter()
            .take(n)
            .map(|&s| {
                if s > 0.0 && s.is_finite() {
                    1.0 / (s * s)
                } else {
                    0.0
                }
            })
            .collect(),
        None => vec![1.0; n],
    };
    // Zero errors (one seed): equal weights.
    let w = if w.contains(&0.0) { vec![1.0; n] } else { w };
    let ln_v_max = v
        .iter()
        .take(n)
        .map(|v| v.ln())
        .fold(f64::NEG_INFINITY, f64::max);
    let ln_v_min = v
        .iter()
        .take(n)
        .map(|v| v.ln())
        .fold(f64::INFINITY, f64::min);
    let span = (ln_v_max - ln_v_min).max(1.0);
    let eval = |ln_vc: f64, beta: f64| -> Option<(f64, f64, f64)> {
        let g: Vec<f64> = v
            .iter()
            .take(n)
            .map(|v| (ln_vc - v.ln()).powf(beta))
            .collect();
        match options.limit_n {
            Some(c) => linear_known(&g, &f[..n], &w, c),
            None => linear(&g, &f[..n], &w),
        }
    };
    let (mut lo_c, mut hi_c) = (ln_v_max + 1e-3 * span, ln_v_max + 5.0 * span);
    let (mut lo_b, mut hi_b) = match exponent {
        Some(b) => (b, b),
        None => (0.05, 2.0),
    };
    let mut best: Option<(f64, f64, f64, f64, f64)> = None;
    for _round in 0..8 {
        let steps = 60;
        for i in 0..=steps {
            let ln_vc = lo_c + (hi_c - lo_c) * i as f64 / steps as f64;
            for j in 0..=if exponent.is_some() { 0 } else { steps } {
                let beta = lo_b + (hi_b - lo_b) * j as f64 / steps as f64;
                if let Some((c, d, sse)) = eval(ln_vc, beta)
                    && best.is_none_or(|b| sse < b.4)
                {
                    best = Some((ln_vc, beta, c, d, sse));
                }
            }
        }
        let (bc, bb, ..) = best?;
        let dc = (hi_c - lo_c) / 8.0;
        let db = (hi_b - lo_b) / 8.0;
        lo_c = (bc - dc).max(ln_v_max + 1e-6 * span);
        hi_c = bc + dc;
        lo_b = (bb - db).max(0.05);
        hi_b = bb + db;
    }
    let (ln_vc, beta, c, d, _) = best?;
    let fit = ActivatedFit {
        f_c_n: c,
        delta_f_n: d,
        v_c_mps: ln_vc.exp(),
        exponent: beta,
        rms_n: 0.0,
    };
    let rms = (v
        .iter()
        .zip(f)
        .take(n)
        .map(|(&v, &f)| (f - fit.force_n(v)).powi(2))
        .sum::<f64>()
        / n as f64)
        .sqrt();
    Some(ActivatedFit { rms_n: rms, ..fit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_the_parameters_of_exact_data() {
        let law = ActivatedFit {
            f_c_n: 1.2e-9,
            delta_f_n: 0.15e-9,
            v_c_mps: 3e-5,
            exponent: 2.0 / 3.0,
            rms_n: 0.0,
        };
        let v: Vec<f64> = (0..9).map(|k| 1e-10 * 10f64.powf(0.5 * k as f64)).collect();
        let f: Vec<f64> = v.iter().map(|&v| law.force_n(v)).collect();
        let got = fit(&v, &f, None, FitOptions::default()).unwrap();
        assert!((got.exponent - 2.0 / 3.0).abs() < 1e-3, "{got:?}");
        assert!((got.f_c_n / law.f_c_n - 1.0).abs() < 1e-3, "{got:?}");
        assert!(got.rms_n < 1e-14, "{got:?}");
        // With the athermal force known, noisy data (±0.3 % of ΔF, alternating) still give
        // the exponent to a few per cent.
        let noisy: Vec<f64> = f
            .iter()
            .enumerate()
            .map(|(i, &f)| f + if i % 2 == 0 { 4.5e-13 } else { -4.5e-13 })
            .collect();
        let known = FitOptions {
            exponent: None,
            limit_n: Some(law.f_c_n),
        };
        let got = fit(&v, &noisy, None, known).unwrap();
        assert_eq!(got.f_c_n, law.f_c_n);
        assert!((got.exponent - 2.0 / 3.0).abs() < 0.03, "{got:?}");
        assert!((got.v_c_mps / law.v_c_mps).ln().abs() < 0.3, "{got:?}");
    }
}
