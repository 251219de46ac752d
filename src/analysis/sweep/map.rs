//! Orbit diagrams of the discrete maps (logistic, Hénon), with the conventions of the flows'
//! sweep so the diagram reads the same [`SweepResult`]: up and down branches continuing from the previous end state, the transient
//! counted in iterations (`Returns(n)`: n iterates, `Seconds(s)`: s iterates), every later
//! iterate a point. An orbit that escapes to infinity records no points and the next value
//! starts again from the preset's initial state.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::{
    Branch, SweepControl, SweepError, SweepPoint, SweepProgress, SweepResult, SweepSpec,
    SweepStart, Transient, ValueRun,
};
use crate::integrate::is_bounded;
use crate::integrate::map::MAP_SECTION;
use crate::preset::Preset;

/// Iterations between cancellation checks.
const CHECK_EVERY: u64 = 4096;

fn values_of(spec: &SweepSpec, branch: Branch) -> Vec<usize> {
    let n = spec.values.len();
    match branch {
        Branch::Down => (0..n).rev().collect(),
        Branch::Up | Branch::Fixed => (0..n).collect(),
    }
}

/// Runs the map sweep (module doc).
pub(super) fn sweep_map(
    base: &Preset,
    spec: &SweepSpec,
    control: SweepControl<'_>,
) -> Result<SweepResult, SweepError> {
    if spec.values.is_empty() {
        return Err(SweepError::Spec("the sweep has no parameter values".into()));
    }
    let columns = base
        .build_map()
        .map(|(m, _)| m.columns().into_iter().map(|c| c.name).collect())
        .unwrap_or_default();
    let done = AtomicUsize::new(0);
    let total = spec.total_runs();
    let branch = |b: Branch| run_branch(base, spec, b, control, &done, total);
    let runs = match spec.start {
        SweepStart::Continue if spec.values.len() > 1 => {
            let (up, down) = rayon::join(|| branch(Branch::Up), || branch(Branch::Down));
            let mut up = up?;
            up.extend(down?);
            up
        }
        SweepStart::Continue => branch(Branch::Up)?,
        SweepStart::Fixed => branch(Branch::Fixed)?,
    };
    Ok(SweepResult {
        param: spec.param.clone(),
        columns,
        runs,
    })
}

fn run_branch(
    base: &Preset,
    spec: &SweepSpec,
    branch: Branch,
    control: SweepControl<'_>,
    done: &AtomicUsize,
    total: usize,
) -> Result<Vec<ValueRun>, SweepError> {
    let cancelled = || control.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let mut out = Vec::new();
    let mut carry: Option<Vec<f64>> = None;
    let iterations = spec.duration_s.max(1.0).round() as u64;
    let transient = match spec.transient {
        Transient::Returns(n) => n as u64,
        Transient::Seconds(s) => s.max(0.0).round() as u64,
    };
    for index in values_of(spec, branch) {
        let value = spec.values[index];
        let mut preset = base.clone();
        let param_err = |message: String| SweepError::Parameter {
            param: spec.param.clone(),
            value,
            message,
        };
        preset
            .set_path(&spec.param, &format!("{value}"))
            .map_err(param_err)?;
        if let Some((path, msg)) = preset.problems().into_iter().next() {
            return Err(param_err(format!("{path}: {msg}")));
        }
        let Some((map, x0)) = preset.build_map() else {
            return Err(SweepError::Spec(format!(
                "{} is not a discrete map",
                preset.system.info().name
            )));
        };
        let mut x = match carry.take() {
            Some(c) if c.len() == x0.len() && branch != Branch::Fixed => c,
            _ => x0,
        };
        let mut next = vec![0.0; x.len()];
        let mut row = vec![0.0; map.columns().len()];
        let mut points = Vec::new();
        let mut escaped = false;
        for it in 1..=iterations {
            if it % CHECK_EVERY == 0 && cancelled() {
                return Err(SweepError::Cancelled { done: 0, total });
            }
            map.step(&x, &mut next);
            std::mem::swap(&mut x, &mut next);
            if x.iter().any(|&v| !is_bounded(v)) {
                escaped = true;
                break;
            }
            if it > transient {
                map.observe(&x, &mut row);
                points.push(SweepPoint {
                    t_s: it as f64,
                    row: row.clone(),
                });
            }
        }
        if cancelled() {
            return Err(SweepError::Cancelled { done: 0, total });
        }
        if !escaped {
            carry = Some(x);
        }
        let run = ValueRun {
            branch,
            index,
            value,
            section: MAP_SECTION.into(),
            points,
            final_state: false,
            dropped: transient.min(iterations) as usize,
            unsettled: false,
            samples: Vec::new(),
            rows: Vec::new(),
        };
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(progress) = control.progress {
            progress(&SweepProgress {
                done: n,
                total,
                run: &run,
            });
        }
        out.push(run);
    }
    Ok(out)
}
