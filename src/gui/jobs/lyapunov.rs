//! The Lyapunov job: the spectrum of the preset's flow or map, advanced in chunks of about
//! 50 ms of work; after each chunk the running estimate (its history `λ_i(T)`, the verdict on
//! what has been averaged so far) goes to the window, and the cancel flag is checked.

use std::time::Instant;

use super::{JobMsg, Reply};
use crate::analysis::classify::{Classification, SystemKind};
use crate::analysis::lyapunov::{
    FlowSpectrum, LyapunovError, LyapunovOptions, MapSpectrum, Spectrum, classify_spectrum,
};
use crate::preset::Preset;

/// Wall time aimed at per chunk [s].
const CHUNK_WALL_S: f64 = 0.05;

/// The estimate at one moment of a run.
#[derive(Clone, Debug)]
pub struct LyapunovSnapshot {
    /// The spectrum so far (its Poincaré points dropped after classifying).
    pub spectrum: Spectrum,
    /// Verdict on the averaging so far.
    pub classification: Classification,
    /// Options of the run.
    pub options: LyapunovOptions,
    /// Model time (iterations for maps) reached, transient included.
    pub time: f64,
    /// Whether the run is complete.
    pub done: bool,
}

impl LyapunovSnapshot {
    /// Fraction of the run done.
    pub fn fraction(&self) -> f64 {
        let total = self.options.transient + self.options.duration;
        if total > 0.0 {
            (self.time / total).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }

    /// Whether the exponents are per iteration (a map).
    pub fn is_map(&self) -> bool {
        self.spectrum.kind == SystemKind::Map
    }
}

/// A running computation of either kind.
enum Runner {
    Flow(Box<FlowSpectrum>),
    Map(Box<MapSpectrum>),
}

impl Runner {
    fn time(&self) -> f64 {
        match self {
            Runner::Flow(r) => r.time(),
            Runner::Map(r) => r.iterations() as f64,
        }
    }

    fn advance(&mut self, to: f64) -> Result<(), LyapunovError> {
        match self {
            Runner::Flow(r) => r.advance(to).map_err(LyapunovError::from),
            Runner::Map(r) => r.advance(to),
        }
    }

    fn spectrum(&self) -> Spectrum {
        match self {
            Runner::Flow(r) => r.spectrum(),
            Runner::Map(r) => r.spectrum(),
        }
    }
}

fn build(preset: &Preset, opts: &LyapunovOptions) -> Result<Runner, LyapunovError> {
    crate::analysis::lyapunov::check_deterministic(preset)?;
    if let Some((map, x0)) = preset.build_map() {
        return Ok(Runner::Map(Box::new(MapSpectrum::new(map, x0, opts)?)));
    }
    let (model, y0) = preset.build_model();
    Ok(Runner::Flow(Box::new(FlowSpectrum::new(
        model,
        y0,
        preset.driver_settings(),
        opts,
    )?)))
}

fn snapshot(run: &Runner, opts: &LyapunovOptions, done: bool) -> LyapunovSnapshot {
    let mut spectrum = run.spectrum();
    let classification = classify_spectrum(&spectrum);
    spectrum.poincare_points = Vec::new();
    LyapunovSnapshot {
        spectrum,
        classification,
        options: opts.clone(),
        time: run.time(),
        done,
    }
}

/// Runs the job (see the module doc).
pub(super) fn run(preset: &Preset, options: &LyapunovOptions, reply: &Reply) {
    let id = reply.id();
    let mut opts = options.clone();
    opts.forcing_period_s = opts
        .forcing_period_s
        .or_else(|| preset.system.forcing_period_s());
    let mut runner = match build(preset, &opts) {
        Ok(r) => r,
        Err(e) => {
            reply.last(JobMsg::Failed {
                id,
                message: e.to_string(),
            });
            return;
        }
    };
    let t_end = opts.transient + opts.duration;
    let mut chunk = opts
        .renorm_interval
        .max(if preset.system.is_map() { 100.0 } else { 0.0 });
    loop {
        if reply.cancelled() {
            reply.last(JobMsg::Cancelled { id });
            return;
        }
        let t = runner.time();
        if t >= t_end {
            break;
        }
        let started = Instant::now();
        if let Err(e) = runner.advance((t + chunk).min(t_end)) {
            reply.last(JobMsg::Failed {
                id,
                message: e.to_string(),
            });
            return;
        }
        let spent = started.elapsed().as_secs_f64();
        chunk *= (CHUNK_WALL_S / spent.max(1e-6)).clamp(0.5, 4.0);
        let snap = snapshot(&runner, &opts, false);
        reply.progress(snap.fraction(), progress_text(&snap));
        reply.live(JobMsg::Lyapunov {
            id,
            snapshot: Box::new(snap),
        });
    }
    reply.last(JobMsg::Lyapunov {
        id,
        snapshot: Box::new(snapshot(&runner, &opts, true)),
    });
}

fn progress_text(s: &LyapunovSnapshot) -> String {
    let unit = if s.is_map() { "iterations" } else { "s" };
    if s.spectrum.averaging_time > 0.0 {
        format!(
            "averaged {:.0} of {:.0} {unit}",
            s.spectrum.averaging_time, s.options.duration
        )
    } else {
        format!(
            "transient: {:.0} of {:.0} {unit}",
            s.time, s.options.transient
        )
    }
}
