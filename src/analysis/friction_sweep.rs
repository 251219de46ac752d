//! Mean friction against one parameter, with error bars over noise seeds: the curves of
//! atomic-friction experiments (friction against log speed, against temperature) and, for any
//! system, the steady friction of a sweep.
//!
//! For each value and each seed a fresh run is made (transient first, then the measuring
//! window); the friction of a run is the magnitude of the mean of its friction forces summed
//! over every contact, `F̄ = |⟨Σ_c F_f,c⟩|`, and, where the system has a lattice, the mean peak
//! lateral force per slip event. Per value: the mean over seeds and its standard error
//! `s/√n`. Durations may be given in drive periods (`a/v` for a tip pulled over a lattice), so
//! that one sweep spans decades of speed with the same number of slips per run.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::integrate::driver::SampleSink;
use crate::integrate::{Column, Role};
use crate::preset::Preset;

/// A span of model time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Span {
    /// Seconds.
    Seconds(f64),
    /// Periods of the drive (the system's forcing period; seconds when it has none).
    DrivePeriods(f64),
}

impl Span {
    /// The span in seconds for a preset.
    pub fn seconds(self, preset: &Preset) -> f64 {
        match self {
            Span::Seconds(s) => s,
            Span::DrivePeriods(n) => n * preset.system.forcing_period_s().unwrap_or(1.0),
        }
    }
}

/// What to sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionSweepSpec {
    /// Dotted preset path of the swept parameter (`system.speed`).
    pub param: String,
    /// Its values.
    pub values: Vec<f64>,
    /// Noise seeds (set as `system.seed` when the system has one; one run per seed).
    pub seeds: Vec<u64>,
    /// Discarded start of every run.
    pub transient: Span,
    /// Measuring window after the transient.
    pub measure: Span,
    /// Worker threads (default: available parallelism).
    pub threads: Option<usize>,
}

/// One swept value.
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionPoint {
    /// Parameter value.
    pub value: f64,
    /// Mean friction over seeds [N].
    pub mean_n: f64,
    /// Standard error of that mean [N] (0 for one seed).
    pub sem_n: f64,
    /// Mean peak lateral force per slip over seeds [N] (`NaN` without slips or lattice).
    pub peak_n: f64,
    /// Its standard error [N].
    pub peak_sem_n: f64,
    /// Slip events per lattice period of the driver's travel, mean over seeds (`NaN` without
    /// a lattice).
    pub slips_per_period: f64,
    /// The mean friction of each seed's run [N].
    pub per_seed_n: Vec<f64>,
}

/// Why a friction sweep stopped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FrictionSweepError {
    /// Ill-posed.
    #[error("{0}")]
    Spec(String),
    /// A run failed.
    #[error("{param} = {value}, seed {seed}: {message}")]
    Run {
        /// Parameter path.
        param: String,
        /// Value.
        value: f64,
        /// Seed.
        seed: u64,
        /// What happened.
        message: String,
    },
    /// Cancelled.
    #[error("cancelled")]
    Cancelled,
}

/// The measures of one run.
#[derive(Clone, Copy, Debug, Default)]
struct RunMeasure {
    friction_n: f64,
    peak_n: f64,
    slips_per_period: f64,
}

/// Accumulates the friction of the rows after the transient, and the peak lateral force of
/// each slip.
struct Accumulator {
    from_s: f64,
    friction: Vec<usize>,
    lateral: Option<usize>,
    stick: Option<usize>,
    driver: Option<usize>,
    sum: f64,
    n: u64,
    peak_running: f64,
    peaks: Vec<f64>,
    was_stuck: bool,
    driver_start: Option<f64>,
    driver_end: f64,
}

impl SampleSink for Accumulator {
    fn push(&mut self, row: &[f64]) {
        if row[0] < self.from_s {
            return;
        }
        self.sum += self.friction.iter().map(|&c| row[c]).sum::<f64>();
        self.n += 1;
        if let Some(d) = self.driver {
            self.driver_start.get_or_insert(row[d]);
            self.driver_end = row[d];
        }
        if let (Some(l), Some(s)) = (self.lateral, self.stick) {
            let stuck = row[s] > 0.5;
            if stuck {
                self.peak_running = self.peak_running.max(row[l].abs());
            } else if self.was_stuck && self.peak_running > 0.0 {
                self.peaks.push(self.peak_running);
                self.peak_running = 0.0;
            }
            self.was_stuck = stuck;
        }
    }
}

fn find(cols: &[Column], role: Role) -> Option<usize> {
    cols.iter().position(|c| c.role == role)
}

fn run_one(
    preset: &Preset,
    transient_s: f64,
    window_s: f64,
    cancel: Option<&AtomicBool>,
) -> Result<RunMeasure, String> {
    let mut runner = preset.build_runner().map_err(|e| e.to_string())?;
    let cols = runner.columns();
    let friction: Vec<usize> = cols
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.role, Role::FrictionForce(_)))
        .map(|(i, _)| i)
        .collect();
    if friction.is_empty() {
        return Err("the system reports no friction force".into());
    }
    let layout = preset.system.layout();
    let single = layout.contacts.len() == 1;
    let mut acc = Accumulator {
        from_s: transient_s,
        friction,
        lateral: single.then(|| find(&cols, Role::SpringForce(0))).flatten(),
        stick: single.then(|| find(&cols, Role::Stick(0))).flatten(),
        driver: find(&cols, Role::DriverPosition),
        sum: 0.0,
        n: 0,
        peak_running: 0.0,
        peaks: Vec::new(),
        was_stuck: true,
        driver_start: None,
        driver_end: 0.0,
    };
    let total = transient_s + window_s;
    let chunks = 64;
    for k in 1..=chunks {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err("cancelled".into());
        }
        runner
            .advance(total * k as f64 / chunks as f64, &mut acc)
            .map_err(|e| e.to_string())?;
    }
    if acc.n == 0 {
        return Err("no sample in the measuring window; lower the output interval".into());
    }
    let lattice = layout.substrate.map(|s| s.period_m);
    let slips_per_period = match (lattice, acc.driver_start) {
        (Some(a), Some(x0)) if (acc.driver_end - x0).abs() > 0.0 => {
            acc.peaks.len() as f64 / ((acc.driver_end - x0).abs() / a)
        }
        _ => f64::NAN,
    };
    let peak_n = if acc.peaks.is_empty() {
        f64::NAN
    } else {
        acc.peaks.iter().sum::<f64>() / acc.peaks.len() as f64
    };
    Ok(RunMeasure {
        friction_n: (acc.sum / acc.n as f64).abs(),
        peak_n,
        slips_per_period,
    })
}

fn mean_sem(x: &[f64]) -> (f64, f64) {
    let v: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (mean, 0.0);
    }
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// One run of a sweep, ready to start.
struct PreparedRun {
    value: f64,
    seed: u64,
    preset: Preset,
    transient_s: f64,
    window_s: f64,
}

impl PreparedRun {
    /// Model time the run covers [s].
    fn model_s(&self) -> f64 {
        self.transient_s + self.window_s
    }

    fn fail(&self, param: &str, message: String) -> FrictionSweepError {
        FrictionSweepError::Run {
            param: param.to_string(),
            value: self.value,
            seed: self.seed,
            message,
        }
    }
}

/// The preset of one run: the swept value and the seed set, checked, its duration fixed.
fn prepare(
    base: &Preset,
    spec: &FrictionSweepSpec,
    has_seed: bool,
    value: f64,
    seed: u64,
) -> Result<PreparedRun, FrictionSweepError> {
    let mut run = PreparedRun {
        value,
        seed,
        preset: base.clone(),
        transient_s: 0.0,
        window_s: 0.0,
    };
    let p = &mut run.preset;
    let set = p.set_path(&spec.param, &value.to_string()).and_then(|()| {
        if has_seed {
            p.set_path("system.seed", &seed.to_string())
        } else {
            Ok(())
        }
    });
    if let Err(m) = set {
        return Err(run.fail(&spec.param, m));
    }
    if let Some((field, message)) = p.problems().into_iter().next() {
        return Err(run.fail(&spec.param, format!("{field}: {message}")));
    }
    let transient_s = spec.transient.seconds(p);
    let window_s = spec.measure.seconds(p);
    p.run.duration_s = transient_s + window_s;
    run.transient_s = transient_s;
    run.window_s = window_s;
    Ok(run)
}

/// Runs the sweep. `progress` is called after every run with (done, total).
pub fn friction_sweep(
    base: &Preset,
    spec: &FrictionSweepSpec,
    cancel: Option<&AtomicBool>,
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> Result<Vec<FrictionPoint>, FrictionSweepError> {
    if spec.values.is_empty() || spec.seeds.is_empty() {
        return Err(FrictionSweepError::Spec(
            "a friction sweep needs at least one value and one seed".into(),
        ));
    }
    let has_seed = base.system.params().get("seed").is_some();
    // Every run is prepared first (its preset and its length), so a bad value fails before any
    // run starts.
    let mut runs = Vec::with_capacity(spec.values.len() * spec.seeds.len());
    for &value in &spec.values {
        for &seed in &spec.seeds {
            runs.push(prepare(base, spec, has_seed, value, seed)?);
        }
    }
    // The runs differ in cost by decades (a drive period is a/v), so they start longest first,
    // one per task: rayon's halving of an even split would leave the slow end of a speed sweep
    // to one worker (measured: a 9-speed sweep over four decades ran on one of two cores).
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&a, &b| runs[b].model_s().total_cmp(&runs[a].model_s()));
    let done = AtomicUsize::new(0);
    let total = runs.len();
    let finished: Vec<(usize, Result<RunMeasure, FrictionSweepError>)> =
        super::parallel::with_pool(spec.threads, || {
            order
                .par_iter()
                .with_max_len(1)
                .map(|&j| {
                    let run = &runs[j];
                    let r =
                        run_one(&run.preset, run.transient_s, run.window_s, cancel).map_err(|m| {
                            if m == "cancelled" {
                                FrictionSweepError::Cancelled
                            } else {
                                run.fail(&spec.param, m)
                            }
                        });
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(f) = progress {
                        f(d, total);
                    }
                    (j, r)
                })
                .collect()
        });
    let mut by_run: Vec<Option<Result<RunMeasure, FrictionSweepError>>> =
        (0..total).map(|_| None).collect();
    for (j, r) in finished {
        by_run[j] = Some(r);
    }
    let mut measures = Vec::with_capacity(total);
    for r in by_run.into_iter().flatten() {
        measures.push(r?);
    }
    let per = spec.seeds.len();
    Ok(spec
        .values
        .iter()
        .enumerate()
        .map(|(i, &value)| {
            let runs = &measures[i * per..(i + 1) * per];
            let f: Vec<f64> = runs.iter().map(|r| r.friction_n).collect();
            let peaks: Vec<f64> = runs.iter().map(|r| r.peak_n).collect();
            let slips: Vec<f64> = runs.iter().map(|r| r.slips_per_period).collect();
            let (mean_n, sem_n) = mean_sem(&f);
            let (peak_n, peak_sem_n) = mean_sem(&peaks);
            FrictionPoint {
                value,
                mean_n,
                sem_n,
                peak_n,
                peak_sem_n,
                slips_per_period: mean_sem(&slips).0,
                per_seed_n: f,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::preset::builtin;

    fn spec(threads: usize) -> FrictionSweepSpec {
        FrictionSweepSpec {
            param: "system.speed".into(),
            values: vec![1e-6, 1e-8, 1e-7],
            seeds: vec![1, 2],
            transient: Span::DrivePeriods(0.5),
            measure: Span::DrivePeriods(2.0),
            threads: Some(threads),
        }
    }

    /// Runs start longest first, but the points come back in the order of the values, each
    /// the same on one worker as on two (the noise is seeded per run).
    #[test]
    fn points_follow_the_values_whatever_the_run_order() {
        let p = builtin::load("pt_thermal_300k").unwrap().unwrap();
        let one = friction_sweep(&p, &spec(1), None, None).unwrap();
        let two = friction_sweep(&p, &spec(2), None, None).unwrap();
        let values: Vec<f64> = one.iter().map(|q| q.value).collect();
        assert_eq!(values, spec(1).values);
        assert_eq!(one, two);
        // Different speeds, different friction: the points are not one run repeated.
        assert!(one[0].mean_n != one[1].mean_n && one[1].mean_n != one[2].mean_n);
    }

    /// A value out of range fails before any run starts, naming the value.
    #[test]
    fn a_bad_value_fails_before_running() {
        let p = builtin::load("pt_thermal_300k").unwrap().unwrap();
        let mut s = spec(2);
        s.values.push(-1.0);
        let err = friction_sweep(&p, &s, None, None).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("-1"), "{text}");
    }
}
