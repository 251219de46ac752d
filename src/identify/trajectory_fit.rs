//! Fitting a preset's parameters to a recorded trajectory: the displacement or velocity of a
//! degree of freedom (or a contact's friction force) that a bench recorded, against the same
//! output of the simulated system (issue "identify friction", item 2).
//!
//! The simulation starts at the preset's initial state at `t = 0`, which is aligned with the
//! record's first sample; it is sampled at the record's median step (exactly on the samples
//! of a uniform record) and read at each sample time by linear interpolation between its
//! rows (stick/slip switches add rows, so kinks are not smoothed over). Residuals are
//! `(ŷ_i − y_i)/σ_i` with recorded standard deviations, else `ŷ_i − y_i` in SI units.

use crate::integrate::column::find_role;
use crate::integrate::{Role, SampleSink};
use crate::preset::Preset;

use super::free_param::FreeParam;
use super::law_fit::free_meta;
use super::problem::FitProblem;

/// Which output of the system a record is compared with.
pub type Observed = Role;

/// One recorded trajectory.
#[derive(Clone, Debug, PartialEq)]
pub struct TrajectoryData {
    /// Name for reports (the file).
    pub name: String,
    /// Sample times [s]; the first is aligned with the simulation's start.
    pub t_s: Vec<f64>,
    /// Recorded values [SI unit of the output].
    pub values: Vec<f64>,
    /// Standard deviation of each value, when given.
    pub sigma: Option<Vec<f64>>,
    /// The output they are compared with.
    pub observed: Observed,
}

/// A preset fitted to recorded trajectories.
pub struct TrajectoryFit {
    base: Preset,
    keys: Vec<String>,
    data: Vec<TrajectoryData>,
    column: usize,
    time_column: usize,
}

impl TrajectoryFit {
    /// A fit of the preset paths `keys` (`law.mu_s`, `system.damping`) of `base` to `data`.
    pub fn new(base: Preset, keys: &[&str], data: Vec<TrajectoryData>) -> Result<Self, String> {
        for key in keys {
            meta_of(&base, key)?;
        }
        let first = data.first().ok_or("no recorded trajectory given")?;
        if data
            .iter()
            .any(|d| d.t_s.len() < 2 || d.t_s.len() != d.values.len())
        {
            return Err("every record needs at least two samples, one value per time".into());
        }
        for d in &data {
            let bad = d
                .sigma
                .as_ref()
                .and_then(|s| s.iter().position(|s| !(s.is_finite() && *s > 0.0)));
            if let Some(i) = bad {
                return Err(format!(
                    "{}: row {}: a standard deviation must be a positive number",
                    d.name,
                    i + 1
                ));
            }
        }
        let sim = base.build_simulation().map_err(|e| e.to_string())?;
        let columns = sim.columns();
        let column = find_role(&columns, first.observed).ok_or_else(|| {
            format!(
                "the {} has no output {:?} to compare the record with",
                base.system.info().name,
                first.observed
            )
        })?;
        let time_column = find_role(&columns, Role::Time).unwrap_or(0);
        if data.iter().any(|d| d.observed != first.observed) {
            return Err("all records of one fit must observe the same output".into());
        }
        Ok(Self {
            base,
            keys: keys.iter().map(|k| k.to_string()).collect(),
            data,
            column,
            time_column,
        })
    }

    /// The free parameters, starting at the preset's values.
    pub fn free_params(&self) -> Vec<FreeParam> {
        self.keys
            .iter()
            .filter_map(|k| {
                let (meta, value) = meta_of(&self.base, k).ok()?;
                Some(FreeParam::from_meta(k.clone(), meta, value))
            })
            .collect()
    }

    /// The preset with the free parameters set to `p`.
    pub fn preset_at(&self, p: &[f64]) -> Result<Preset, String> {
        let mut preset = self.base.clone();
        for (k, v) in self.keys.iter().zip(p) {
            preset.set_path(k, &v.to_string())?;
        }
        Ok(preset)
    }

    /// The simulated output at every sample of every record.
    pub fn predicted(&self, p: &[f64]) -> Result<Vec<Vec<f64>>, String> {
        let mut preset = self.preset_at(p)?;
        self.data
            .iter()
            .map(|d| {
                let t0 = d.t_s[0];
                let span = d.t_s[d.t_s.len() - 1] - t0;
                let mut steps: Vec<f64> = d.t_s.windows(2).map(|w| w[1] - w[0]).collect();
                steps.sort_by(f64::total_cmp);
                let median = steps[steps.len() / 2];
                preset.run.output_interval_s = median.min(preset.run.output_interval_s);
                let mut sim = preset.build_simulation().map_err(|e| e.to_string())?;
                let mut keep = Keep {
                    time: self.time_column,
                    value: self.column,
                    rows: Vec::new(),
                };
                // Half a step beyond the last sample, so the row at (or an ulp past) it is
                // delivered and the last sample is interpolated, not held.
                sim.advance(span + 0.5 * median, &mut keep).map_err(|e| {
                    format!(
                        "{}: the simulation stopped at t = {} s: {e}",
                        d.name,
                        sim.time_s()
                    )
                })?;
                Ok(d.t_s
                    .iter()
                    .map(|t| interpolate(&keep.rows, t - t0))
                    .collect())
            })
            .collect()
    }

    /// The records.
    pub fn data(&self) -> &[TrajectoryData] {
        &self.data
    }
}

impl FitProblem for TrajectoryFit {
    fn n_residuals(&self) -> usize {
        self.data.iter().map(|d| d.t_s.len()).sum()
    }

    fn residuals(&self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
        let predicted = self.predicted(p)?;
        let mut k = 0;
        for (d, y_hat) in self.data.iter().zip(&predicted) {
            for (i, (y_hat, y)) in y_hat.iter().zip(&d.values).enumerate() {
                let w = d.sigma.as_ref().map_or(1.0, |s| 1.0 / s[i]);
                out[k] = w * (y_hat - y);
                k += 1;
            }
        }
        Ok(())
    }

    fn difference_step(&self) -> f64 {
        (self.base.run.rtol.sqrt() * 10.0).clamp(1e-6, 1e-3)
    }
}

/// The metadata and current value of a preset path `law.KEY` or `system.KEY`.
pub fn meta_of(
    preset: &Preset,
    path: &str,
) -> Result<(&'static crate::params::ParamMeta, f64), String> {
    let (head, key) = path.split_once('.').ok_or_else(|| {
        format!("`{path}`: give a parameter as law.KEY or system.KEY (e.g. law.mu_s)")
    })?;
    let params = match head {
        "law" => preset.law.params(),
        "system" => preset.system.params(),
        _ => {
            return Err(format!(
                "`{path}`: only law.KEY and system.KEY parameters can be fitted"
            ));
        }
    };
    let meta = free_meta(params.meta(), head, key)?;
    let value = params.get(key).unwrap_or(meta.default);
    Ok((meta, value))
}

/// Keeps `(t, value)` of every row.
struct Keep {
    time: usize,
    value: usize,
    rows: Vec<(f64, f64)>,
}

impl SampleSink for Keep {
    fn push(&mut self, row: &[f64]) {
        self.rows.push((row[self.time], row[self.value]));
    }
}

/// The value at `t` between the rows (held beyond the ends).
fn interpolate(rows: &[(f64, f64)], t: f64) -> f64 {
    let i = rows.partition_point(|r| r.0 <= t);
    match (i.checked_sub(1).and_then(|j| rows.get(j)), rows.get(i)) {
        (Some(a), Some(b)) if b.0 > a.0 => a.1 + (b.1 - a.1) * (t - a.0) / (b.0 - a.0),
        (Some(a), _) => a.1,
        (None, Some(b)) => b.1,
        (None, None) => f64::NAN,
    }
}
