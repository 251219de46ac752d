//! The series the attractor and embedding panels analyse: the newest regular samples of a
//! simulation column (event rows left out), or the imported CSV series.

use crate::gui::history::History;
use crate::gui::jobs::{SeriesInput, SeriesOrigin};

use super::ImportedSeries;

/// Columns of a history that can be analysed (every output column but `t` and `event`).
pub fn signals(history: &History) -> Vec<String> {
    let names = history.names();
    names
        .iter()
        .filter(|n| *n != "t" && *n != "event")
        .cloned()
        .collect()
}

/// The newest `max` regular samples of column `name`, with their sampling interval (from the
/// sample times; maps: 1 iteration) and the time of the first one.
pub fn from_history(history: &History, name: &str, max: usize) -> Option<SeriesInput> {
    let ic = history.index(name)?;
    let iev = history.index("event")?;
    let (t, v, ev) = (history.column(0), history.column(ic), history.column(iev));
    let mut idx: Vec<usize> = (0..history.len())
        .rev()
        .filter(|&i| ev[i] == 0.0)
        .take(max.max(2))
        .collect();
    idx.reverse();
    if idx.len() < 2 {
        return None;
    }
    let (first, last) = (idx[0], idx[idx.len() - 1]);
    let dt_s = (t[last] - t[first]) / (idx.len() - 1) as f64;
    let values: Vec<f64> = idx.iter().map(|&i| v[i]).collect();
    let mut notes = Vec::new();
    if history.len() > max {
        notes.push(format!("the newest {} samples of the run", values.len()));
    }
    Some(SeriesInput {
        origin: SeriesOrigin::Simulation,
        name: name.to_string(),
        values,
        dt_s,
        t0_s: t[first],
        notes,
    })
}

/// The imported series, at most its first `max` samples.
pub fn from_imported(imported: &ImportedSeries, max: usize) -> SeriesInput {
    let s = &imported.series;
    let mut values = s.values.clone();
    let mut notes = Vec::new();
    if s.resampled {
        notes.push(format!(
            "time steps not uniform (worst {:.3} % off the median): resampled linearly to t_s = {} s",
            100.0 * s.spacing.max_deviation,
            super::short(s.dt_s)
        ));
    }
    if values.len() > max {
        notes.push(format!(
            "analysed the first {max} of {} samples",
            values.len()
        ));
        values.truncate(max);
    }
    SeriesInput {
        origin: SeriesOrigin::Imported {
            file: imported.file.clone(),
        },
        name: s.name.clone(),
        values,
        dt_s: s.dt_s,
        t0_s: s.t0_s,
        notes,
    }
}
