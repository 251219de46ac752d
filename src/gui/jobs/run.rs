//! The bodies of the Floquet, sweep, friction-sweep and series jobs (the Lyapunov and fit jobs
//! have their own files).

use super::{FrictionSweepResult, Job, JobMsg, Reply, SeriesInput, SeriesResult};
use crate::analysis::activated_friction::fit_speed_sweep;
use crate::analysis::friction_sweep::{FrictionSweepError, FrictionSweepSpec, friction_sweep};
use crate::analysis::pipeline::{PipelineOptions, analyze_series};
use crate::analysis::regime_map::figure::axis_value;
use crate::analysis::regime_map::{MapControl, MapProgress, MapSpec, regime_map};
use crate::analysis::sweep::{SweepControl, SweepError, SweepProgress, SweepSpec, sweep};
use crate::analysis::{FloquetOptions, PresetDynamics, Window, amplitude_spectrum, floquet};
use crate::params::fmt_num;
use crate::preset::Preset;

/// Runs one job to its end, cancellation or failure, answering through `reply`.
pub(super) fn run(job: Job, reply: &Reply) {
    match job {
        Job::Lyapunov { preset, options } => super::lyapunov::run(&preset, &options, reply),
        Job::Floquet {
            preset,
            options,
            rtol,
        } => floquet_job(*preset, &options, rtol, reply),
        Job::Sweep { preset, spec } => sweep_job(&preset, &spec, reply),
        Job::FrictionSweep { preset, spec } => friction_job(&preset, spec, reply),
        Job::RegimeMap { preset, spec } => map_job(&preset, &spec, reply),
        Job::Series { input, options } => series_job(*input, &options, reply),
        Job::Fit(job) => super::fit::run(*job, reply),
    }
}

fn floquet_job(preset: Preset, options: &FloquetOptions, rtol: f64, reply: &Reply) {
    reply.progress(
        0.0,
        "integrating the transient, then shooting for the periodic orbit…".into(),
    );
    let dynamics = PresetDynamics {
        preset,
        rtol: Some(rtol),
    };
    let result = floquet(&dynamics, options);
    let id = reply.id();
    if reply.cancelled() {
        reply.last(JobMsg::Cancelled { id });
        return;
    }
    reply.last(match result {
        Ok(report) => JobMsg::Floquet {
            id,
            report: Box::new(report),
        },
        Err(e) => JobMsg::Failed {
            id,
            message: e.to_string(),
        },
    });
}

fn sweep_job(preset: &Preset, spec: &SweepSpec, reply: &Reply) {
    let id = reply.id();
    let total = spec.total_runs();
    reply.progress(0.0, format!("0 of {total} runs"));
    let result = {
        let progress = |p: &SweepProgress<'_>| {
            reply.progress(
                p.done as f64 / p.total.max(1) as f64,
                format!(
                    "{} of {} runs ({} = {}, {} branch)",
                    p.done,
                    p.total,
                    spec.param,
                    fmt_num(p.run.value),
                    p.run.branch
                ),
            );
            reply.live(JobMsg::SweepRun {
                id,
                run: Box::new(p.run.clone()),
            });
        };
        sweep(
            preset,
            spec,
            SweepControl {
                cancel: Some(reply.flag()),
                progress: Some(&progress),
            },
        )
    };
    reply.last(match result {
        Ok(result) => JobMsg::Sweep {
            id,
            result: Box::new(result),
        },
        Err(SweepError::Cancelled { .. }) => JobMsg::Cancelled { id },
        Err(e) => JobMsg::Failed {
            id,
            message: e.to_string(),
        },
    });
}

fn friction_job(preset: &Preset, spec: FrictionSweepSpec, reply: &Reply) {
    let id = reply.id();
    let Some(study) = preset.system.thermal_friction() else {
        reply.last(JobMsg::Failed {
            id,
            message: "this system has no thermal bath and drive speed".into(),
        });
        return;
    };
    reply.progress(0.0, "starting the runs…".into());
    let progress = |done: usize, total: usize| {
        reply.progress(
            done as f64 / total.max(1) as f64,
            format!("{done} of {total} runs"),
        );
    };
    let result = friction_sweep(preset, &spec, Some(reply.flag()), Some(&progress));
    reply.last(match result {
        Ok(points) => {
            let by_speed = spec.param == format!("system.{}", study.keys.speed);
            let fit = |beta| {
                by_speed
                    .then(|| fit_speed_sweep(&points, &study, beta))
                    .flatten()
            };
            JobMsg::FrictionSweep {
                id,
                result: Box::new(FrictionSweepResult {
                    fit: fit(None),
                    fit_two_thirds: fit(Some(2.0 / 3.0)),
                    param: spec.param,
                    by_speed,
                    points,
                    study,
                }),
            }
        }
        Err(FrictionSweepError::Cancelled) => JobMsg::Cancelled { id },
        Err(e) => JobMsg::Failed {
            id,
            message: e.to_string(),
        },
    });
}

fn series_job(input: SeriesInput, options: &PipelineOptions, reply: &Reply) {
    let id = reply.id();
    reply.progress(
        0.0,
        format!(
            "spectrum, AMI, Cao, divergence curve and Wolf on {} samples…",
            input.values.len()
        ),
    );
    let spectrum = amplitude_spectrum(&input.values, input.dt_s, Window::Hann);
    let result = analyze_series(&input.name, &input.values, input.dt_s, options);
    if reply.cancelled() {
        reply.last(JobMsg::Cancelled { id });
        return;
    }
    reply.last(match result {
        Ok(report) => JobMsg::Series {
            id,
            result: Box::new(SeriesResult {
                input,
                spectrum,
                report,
            }),
        },
        Err(e) => JobMsg::Failed {
            id,
            message: format!("{}: {e}", input.name),
        },
    });
}

fn map_job(preset: &Preset, spec: &MapSpec, reply: &Reply) {
    let id = reply.id();
    let total = spec.shard_cells().len();
    reply.progress(0.0, format!("0 of {total} cells"));
    let progress = |p: &MapProgress<'_>| {
        reply.progress(
            p.done as f64 / p.total.max(1) as f64,
            format!(
                "{} of {} cells (latest {}, {}: {})",
                p.done,
                p.total,
                axis_value(preset, &spec.x.param, p.cell.x),
                axis_value(preset, &spec.y.param, p.cell.y),
                p.cell.regime.describe()
            ),
        );
        reply.live(JobMsg::MapCell {
            id,
            cell: Box::new(p.cell.clone()),
        });
    };
    let result = regime_map(
        preset,
        spec,
        MapControl {
            cancel: Some(reply.flag()),
            progress: Some(&progress),
        },
    );
    reply.last(match result {
        Ok(cells) => JobMsg::RegimeMap { id, cells },
        Err(SweepError::Cancelled { .. }) => JobMsg::Cancelled { id },
        Err(e) => JobMsg::Failed {
            id,
            message: e.to_string(),
        },
    });
}
