//! Lyapunov spectrum of a map: tangent vectors multiplied by the map's Jacobian every
//! iteration, `Q ← J(x_n)·Q`, re-orthonormalised after every iteration, `λ_i = Σ ln R_ii / N`
//! (per iteration). `Σ ln|det J(x_n)|/N` is tracked as the exact volume contraction.

use std::collections::VecDeque;

use super::flow::MAX_POINTS;
use super::log::ExponentLog;
use super::qr::{generic_frame, log_abs_det, orthonormalize};
use super::{Estimate, LyapunovError, LyapunovOptions, Spectrum, SystemKind};
use crate::integrate::{MapModel, SimError, Stats, is_bounded};

/// A running spectrum computation of a map; read [`estimate`](Self::estimate) at any time.
pub struct MapSpectrum {
    map: Box<dyn MapModel + Send>,
    x: Vec<f64>,
    next: Vec<f64>,
    q: Vec<f64>,
    jq: Vec<f64>,
    jac: Vec<f64>,
    scales: Vec<f64>,
    m: usize,
    k: usize,
    n: u64,
    transient: u64,
    total: u64,
    every: u64,
    volume: f64,
    log: ExponentLog,
    points: VecDeque<Vec<f64>>,
}

impl MapSpectrum {
    /// Prepares the spectrum of `map` from `x0`: `opts.transient` iterations dropped, then
    /// `opts.duration` averaged.
    pub fn new(
        map: Box<dyn MapModel + Send>,
        x0: Vec<f64>,
        opts: &LyapunovOptions,
    ) -> Result<Self, LyapunovError> {
        opts.check()?;
        let (n, m) = (map.dim(), map.dim() - map.n_passive());
        let k = opts.n_exponents.unwrap_or(m).clamp(1, m);
        let mut scales = vec![1.0; n];
        map.state_scales(&mut scales);
        let transient = opts.transient.ceil() as u64;
        let mut log = ExponentLog::new(k, opts.history_capacity);
        if k == m {
            log.log_volume = Some(0.0);
        }
        if transient == 0 {
            log.start(0.0);
        }
        Ok(Self {
            map,
            next: vec![0.0; n],
            x: x0,
            q: generic_frame(m, k),
            jq: vec![0.0; m * k],
            jac: vec![0.0; m * m],
            scales,
            m,
            k,
            n: 0,
            transient,
            total: transient + opts.duration.ceil() as u64,
            every: opts.renorm_interval.max(1.0).round() as u64,
            volume: 0.0,
            log,
            points: VecDeque::new(),
        })
    }

    /// Iterates until `n ≥ n_stop`.
    pub fn advance(&mut self, n_stop: f64) -> Result<(), LyapunovError> {
        let (m, k) = (self.m, self.k);
        while (self.n as f64) < n_stop {
            let it = self.n + 1;
            self.map.jacobian(&self.x, &mut self.jac);
            // Scaled tangent coordinates: q̃ = D⁻¹·J·D·q.
            for c in 0..k {
                for i in 0..m {
                    let mut acc = 0.0;
                    for j in 0..m {
                        acc += self.jac[i * m + j] * self.scales[j] * self.q[c * m + j];
                    }
                    self.jq[c * m + i] = acc / self.scales[i];
                }
            }
            std::mem::swap(&mut self.q, &mut self.jq);
            if self.log.log_volume.is_some() && self.log.averaging() {
                self.volume += log_abs_det(&self.jac, m);
            }
            self.map.step(&self.x, &mut self.next);
            std::mem::swap(&mut self.x, &mut self.next);
            self.n = it;
            if let Some(i) = self.x.iter().position(|&v| !is_bounded(v)) {
                return Err(SimError::MapDiverged {
                    iteration: it,
                    name: self.map.state_names().get(i).cloned().unwrap_or_default(),
                    value: self.x[i],
                }
                .into());
            }
            let step = orthonormalize(&mut self.q, m, k);
            if self.log.averaging() {
                self.log.add(it as f64, &step.log_r, &step.collapsed);
                if self.log.log_volume.is_some() {
                    self.log.log_volume = Some(self.volume);
                }
                if it.is_multiple_of(self.every) {
                    self.log.record();
                }
                if self.points.len() == MAX_POINTS {
                    self.points.pop_front();
                }
                self.points.push_back(self.x[..m].to_vec());
            } else if it >= self.transient {
                self.log.start(it as f64);
            }
        }
        Ok(())
    }

    /// Iterates to the end of the averaging.
    pub fn run(&mut self) -> Result<(), LyapunovError> {
        self.advance(self.total as f64)
    }

    /// Iterations done.
    pub fn iterations(&self) -> u64 {
        self.n
    }

    /// The running estimate now.
    pub fn estimate(&self) -> Estimate {
        Estimate {
            averaging_time: self.log.averaging_time(),
            exponents: self.log.exponents(),
        }
    }

    /// The sums and the running-estimate history.
    pub fn log(&self) -> &ExponentLog {
        &self.log
    }

    /// The result so far.
    pub fn spectrum(&self) -> Spectrum {
        Spectrum {
            exponents: self.log.exponents(),
            averaging_time: self.log.averaging_time(),
            kind: SystemKind::Map,
            method: "products of map Jacobians + Gram–Schmidt every iteration",
            integrator: "map iteration",
            mean_divergence: self.log.mean_divergence(),
            switches: 0,
            grazing: 0,
            renormalisations: self.log.renormalisations,
            stats: Stats {
                steps: self.n,
                rhs_evals: self.n,
                ..Stats::default()
            },
            history: self.log.history.clone(),
            poincare_points: self.points.iter().cloned().collect(),
        }
    }
}

/// The spectrum of `map` from `x0` in one call (see [`MapSpectrum`]).
pub fn map_spectrum(
    map: Box<dyn MapModel + Send>,
    x0: &[f64],
    opts: &LyapunovOptions,
) -> Result<Spectrum, LyapunovError> {
    let mut run = MapSpectrum::new(map, x0.to_vec(), opts)?;
    run.run()?;
    Ok(run.spectrum())
}
