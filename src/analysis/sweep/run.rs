//! One branch of a sweep: the runs of its values in order, each from the previous end state.

use std::sync::atomic::Ordering;

use super::{Branch, Shared, SweepError, SweepPoint, Transient, ValueRun};
use crate::analysis::dynamics::{Dynamics, PresetDynamics, section_name};
use crate::integrate::driver::{SampleSink, SectionId};
use crate::integrate::{Model, Simulation};

/// Integration chunks per run (cancellation is checked between chunks).
const CHUNKS: usize = 32;

/// Collects the section points after the transient and, optionally, one column.
struct SweepSink {
    section: SectionId,
    transient: Transient,
    /// Start time of the run.
    t0: f64,
    returns: usize,
    recording: bool,
    points: Vec<SweepPoint>,
    dropped: usize,
    /// Row index of the captured column.
    capture: Option<usize>,
    samples: Vec<f64>,
    /// Keep whole rows after the transient.
    keep_rows: bool,
    rows: Vec<Vec<f64>>,
}

impl SweepSink {
    fn update_recording(&mut self, t: f64) {
        if !self.recording {
            self.recording = match self.transient {
                Transient::Seconds(s) => t - self.t0 >= s,
                Transient::Returns(n) => self.returns >= n,
            };
        }
    }
}

impl SampleSink for SweepSink {
    fn push(&mut self, row: &[f64]) {
        let Some(col) = self.capture else {
            return;
        };
        let n = row.len();
        // Event rows are not regular samples; they are kept with the rows.
        if row[n - 1] != 0.0 && !self.keep_rows {
            return;
        }
        self.update_recording(row[0]);
        if self.recording {
            if self.keep_rows {
                self.rows.push(row.to_vec());
            }
            if row[n - 1] == 0.0 {
                self.samples.push(row[1 + col]);
            }
        }
    }

    fn push_section(&mut self, section: SectionId, row: &[f64]) {
        if section != self.section {
            return;
        }
        self.update_recording(row[0]);
        if self.recording {
            let n = row.len();
            self.points.push(SweepPoint {
                t_s: row[0],
                row: row[1..n - 1].to_vec(),
            });
        } else {
            self.dropped += 1;
            self.returns += 1;
            // A return-count transient ends with the n-th return.
            self.update_recording(row[0]);
        }
    }
}

/// Runs `indices` of the spec's values in order on one branch.
pub(super) fn run_branch(
    shared: &Shared<'_>,
    branch: Branch,
    indices: &[usize],
) -> Result<Vec<ValueRun>, SweepError> {
    let mut out = Vec::with_capacity(indices.len());
    let mut carry: Option<(Vec<f64>, f64)> = None;
    for &i in indices {
        let result = run_value(shared, branch, i, carry.as_ref());
        match result {
            Ok((run, end)) => {
                shared.finished(&run);
                out.push(run);
                if branch != Branch::Fixed {
                    carry = Some(end);
                }
            }
            Err(e) => {
                if !matches!(e, SweepError::Cancelled { .. }) {
                    shared.abort.store(true, Ordering::Relaxed);
                }
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// One parameter value: returns the run and its end state and time.
fn run_value(
    shared: &Shared<'_>,
    branch: Branch,
    index: usize,
    start: Option<&(Vec<f64>, f64)>,
) -> Result<(ValueRun, (Vec<f64>, f64)), SweepError> {
    let spec = shared.spec;
    let value = spec.values[index];
    let cancelled = || SweepError::Cancelled { done: 0, total: 0 };
    if shared.stopped() {
        return Err(cancelled());
    }
    let param_err = |message: String| SweepError::Parameter {
        param: spec.param.clone(),
        value,
        message,
    };
    let mut preset = shared.base.clone();
    preset
        .set_path(&spec.param, &format!("{value}"))
        .map_err(&param_err)?;
    if let Some((path, msg)) = preset.problems().into_iter().next() {
        return Err(param_err(format!("{path}: {msg}")));
    }
    let dynamics = PresetDynamics::new(preset);
    let (model, y_default) = dynamics.build();
    let forcing = dynamics.forcing_period_s();
    let section = spec
        .section
        .resolve(model.section_names().len(), forcing, dynamics.exact_stick())
        .ok_or_else(|| SweepError::NoSection {
            param: spec.param.clone(),
            value,
        })?;
    let section_label = section_name(model.as_ref(), section);
    let capture = match &spec.capture {
        Some(c) => Some(
            model
                .columns()
                .iter()
                .position(|col| col.name == c.column)
                .ok_or_else(|| {
                    param_err(format!("the model has no output column `{}`", c.column))
                })?,
        ),
        None => None,
    };
    // A value continues from the last one's end state; its clock restarts (at the same phase
    // of the forcing, if any): a long sweep's accumulated time would otherwise coarsen the
    // smallest step the driver accepts (1e-14 of t), which stiff switches need.
    let (y0, t0) = match start {
        Some((y, t)) if y.len() == y_default.len() => {
            // A load noise is a function of time of its own: its clock goes on.
            let noisy = shared.base.noise.is_some();
            let t0 = match forcing {
                _ if noisy => *t,
                Some(period) if period.is_finite() && period > 0.0 => t.rem_euclid(period),
                _ if model.is_autonomous() => 0.0,
                _ => *t,
            };
            (y.clone(), t0)
        }
        _ => (y_default, 0.0),
    };
    let run_err = |source| SweepError::Run {
        param: spec.param.clone(),
        value,
        branch,
        source,
    };
    let mut settings = dynamics.settings();
    settings.output_interval_s = spec
        .capture
        .as_ref()
        .map_or(spec.duration_s, |c| c.interval_s);
    let mut sim = Simulation::new(model, y0, t0, settings).map_err(run_err)?;
    sim.track_sections(
        (section == SectionId::Stroboscopic)
            .then_some(forcing)
            .flatten(),
    );
    let mut sink = SweepSink {
        section,
        transient: spec.transient,
        t0,
        returns: 0,
        recording: false,
        points: Vec::new(),
        dropped: 0,
        capture,
        samples: Vec::new(),
        keep_rows: spec.capture.as_ref().is_some_and(|c| c.rows),
        rows: Vec::new(),
    };
    let t_end = t0 + spec.duration_s;
    for k in 1..=CHUNKS {
        if shared.stopped() {
            return Err(cancelled());
        }
        let t_stop = if k == CHUNKS {
            t_end
        } else {
            t0 + spec.duration_s * k as f64 / CHUNKS as f64
        };
        sim.advance(t_stop, &mut sink).map_err(run_err)?;
    }
    let final_state = sink.points.is_empty();
    if final_state {
        let m: &dyn Model = sim.model();
        let mut row = vec![0.0; m.columns().len()];
        m.observe(sim.time_s(), sim.state(), &mut row);
        sink.points.push(SweepPoint {
            t_s: sim.time_s(),
            row,
        });
    }
    let unsettled = matches!(spec.transient, Transient::Returns(n)
        if final_state && sink.dropped > 0 && sink.dropped < n);
    let run = ValueRun {
        branch,
        index,
        value,
        section: section_label,
        points: sink.points,
        final_state,
        dropped: sink.dropped,
        unsettled,
        samples: sink.samples,
        rows: sink.rows,
    };
    Ok((run, (sim.state().to_vec(), sim.time_s())))
}
