//! Running a characterisation rig's preset and reading its test in one call (the command line
//! and the tests; the window reads its live history instead).

use super::{RigReading, RigRecord, read};
use crate::integrate::column::find_role;
use crate::integrate::{Role, SampleSink, SimError};
use crate::preset::Preset;

/// Keeps the columns the reading needs (`None`: the column is absent).
struct Keep {
    index: [Option<usize>; 6],
    data: [Vec<f64>; 6],
}

impl SampleSink for Keep {
    fn push(&mut self, row: &[f64]) {
        for (d, i) in self.data.iter_mut().zip(&self.index) {
            if let Some(i) = i {
                d.push(row[*i]);
            }
        }
    }
}

/// Why a rig's test could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum RigRunError {
    /// The preset's system runs no standard test.
    #[error("the {0} runs no standard friction test (choose the characterisation rig)")]
    NotARig(String),
    /// The model could not be built.
    #[error("{0}")]
    Build(SimError),
}

/// A test read, and how the run ended (a run that stopped early still has its complete
/// stretches read).
#[derive(Debug)]
pub struct RigRun {
    /// The reading of what ran.
    pub reading: RigReading,
    /// `Err` when the run stopped before the preset's duration.
    pub outcome: Result<(), SimError>,
}

/// Runs `preset` (a characterisation rig) for its duration and reads its test.
pub fn run_and_read(preset: &Preset) -> Result<RigRun, RigRunError> {
    let Some(programme) = preset.system.characterisation() else {
        return Err(RigRunError::NotARig(preset.system.info().name.to_string()));
    };
    let mut sim = preset.build_runner().map_err(RigRunError::Build)?;
    let cols = sim.columns();
    let roles = [
        Role::Time,
        Role::Position(0),
        Role::SlipVelocity(0),
        Role::FrictionForce(0),
        Role::AppliedForce(0),
        Role::Position(1),
    ];
    let mut keep = Keep {
        index: roles.map(|r| find_role(&cols, r)),
        data: Default::default(),
    };
    let outcome = sim.advance(preset.run.duration_s, &mut keep);
    let d = &keep.data;
    let record = RigRecord {
        time: &d[0],
        position: &d[1],
        velocity: &d[2],
        friction: &d[3],
        applied: keep.index[4].map(|_| d[4].as_slice()),
        normal: keep.index[5].map(|_| d[5].as_slice()),
    };
    let load = preset.system.nominal_normal_load_n(0).unwrap_or(1.0);
    let laws = preset.contact_laws();
    let law = preset
        .system
        .uses_law()
        .then(|| laws.first().unwrap_or(&preset.law));
    Ok(RigRun {
        reading: read(&programme, law, load, &record),
        outcome,
    })
}
