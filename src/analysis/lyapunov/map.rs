//! Lyapunov spectrum of a map: tangent vectors multiplied by the map's Jacobian every
//! iteration, `Q ← J(x_n)·Q`, re-orthonormalised after every iteration, `λ_i = Σ ln R_ii / N`
//! (per iteration). `Σ ln|det J(x_n)|/N` is tracked as the exact volume contraction.

use std::collections::VecDeque;

use super::flow::MAX_POINTS;
use super::log::ExponentLog;
use super::qr::{generic_frame, log_abs_det, orthonormalize};
use super::{LyapunovError, LyapunovOptions, Spectrum, SystemKind};
use crate::integrate::{MapModel, SimError};

/// The spectrum of `map` from `x0`: `opts.transient` iterations dropped, then
/// `opts.duration` averaged.
pub fn map_spectrum(
    map: &dyn MapModel,
    x0: &[f64],
    opts: &LyapunovOptions,
) -> Result<Spectrum, LyapunovError> {
    opts.check()?;
    let (n, m) = (map.dim(), map.dim() - map.n_passive());
    let k = opts.n_exponents.unwrap_or(m).clamp(1, m);
    let mut scales = vec![1.0; n];
    map.state_scales(&mut scales);
    let mut x = x0.to_vec();
    let mut next = vec![0.0; n];
    let mut q = generic_frame(m, k);
    let mut jq = vec![0.0; m * k];
    let mut jac = vec![0.0; m * m];
    let transient = opts.transient.max(0.0).ceil() as u64;
    let total = transient + opts.duration.max(0.0).ceil() as u64;
    let every = opts.renorm_interval.max(1.0).round() as u64;
    let mut log = ExponentLog::new(k, opts.history_capacity);
    let track_volume = k == m;
    let mut volume = 0.0;
    if track_volume {
        log.log_volume = Some(0.0);
    }
    if transient == 0 {
        log.start(0.0);
    }
    let mut points = VecDeque::new();
    for it in 1..=total {
        map.jacobian(&x, &mut jac);
        // Scaled tangent coordinates: q̃ = D⁻¹·J·D·q.
        for c in 0..k {
            for i in 0..m {
                let mut acc = 0.0;
                for j in 0..m {
                    acc += jac[i * m + j] * scales[j] * q[c * m + j];
                }
                jq[c * m + i] = acc / scales[i];
            }
        }
        std::mem::swap(&mut q, &mut jq);
        if track_volume && log.averaging() {
            volume += log_abs_det(&jac, m);
        }
        map.step(&x, &mut next);
        std::mem::swap(&mut x, &mut next);
        if let Some(i) = x.iter().position(|v| !v.is_finite() || v.abs() > 1e150) {
            return Err(SimError::NonFinite {
                t_s: it as f64,
                name: map.state_names().get(i).cloned().unwrap_or_default(),
                value: x[i],
            }
            .into());
        }
        let step = orthonormalize(&mut q, m, k);
        if log.averaging() {
            log.add(it as f64, &step.log_r, &step.collapsed);
            if track_volume {
                log.log_volume = Some(volume);
            }
            if it % every == 0 {
                log.record();
            }
            if points.len() == MAX_POINTS {
                points.pop_front();
            }
            points.push_back(x[..m].to_vec());
        } else if it >= transient {
            log.start(it as f64);
        }
    }
    Ok(Spectrum {
        exponents: log.exponents(),
        averaging_time: log.averaging_time(),
        kind: SystemKind::Map,
        method: "products of map Jacobians + Gram–Schmidt every iteration",
        integrator: "map iteration",
        mean_divergence: log.mean_divergence(),
        switches: 0,
        grazing: 0,
        renormalisations: log.renormalisations,
        stats: crate::integrate::Stats {
            steps: total,
            rhs_evals: total,
            ..crate::integrate::Stats::default()
        },
        history: log.history,
        poincare_points: points.into_iter().collect(),
    })
}
