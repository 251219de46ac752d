//! Where a run's output goes: regular and event rows, and Poincaré points.

/// Which Poincaré section a point belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionId {
    /// The model's section with this index (see `Model::section_names`).
    Model(usize),
    /// Stroboscopic section `t = t₀ + k·T`.
    Stroboscopic,
}

/// Receives output rows: `t`, then the model's columns, then the event flag (0 or 1).
pub trait SampleSink {
    /// One output row.
    fn push(&mut self, row: &[f64]);

    /// One Poincaré point (same row layout), when section tracking is on.
    fn push_section(&mut self, _section: SectionId, _row: &[f64]) {}

    /// Whether [`section_model`](SampleSink::section_model) wants the model at every Poincaré
    /// point (off by default: copying costs an allocation per point).
    fn wants_section_models(&self) -> bool {
        false
    }

    /// The model at the Poincaré point of `section` at time `t_s` just pushed, with its state
    /// `y` (its modes and memories there), when
    /// [`wants_section_models`](SampleSink::wants_section_models). Called again, with the
    /// state and modes after the switch, when a mode switch happens at the point's instant (a
    /// stick-onset section lands on the stick event): the point then belongs to the new mode.
    fn section_model(
        &mut self,
        _section: SectionId,
        _t_s: f64,
        _y: &[f64],
        _model: &dyn crate::integrate::Model,
    ) {
    }
}

impl SampleSink for Vec<Vec<f64>> {
    fn push(&mut self, row: &[f64]) {
        Vec::push(self, row.to_vec());
    }
}

/// A sink that drops everything (for timing runs).
pub struct NullSink;

impl SampleSink for NullSink {
    fn push(&mut self, _row: &[f64]) {}
}
