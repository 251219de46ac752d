//! Bounded sample history for the plots: one ring buffer per column, so memory stays flat on a
//! run left for hours, and time windows are found by binary search.

use std::collections::VecDeque;

use crate::integrate::driver::SectionId;

/// Default capacity: 2²⁰ samples (17 min at the default 1 ms output interval).
pub const DEFAULT_CAPACITY: usize = 1 << 20;

/// Ring buffers of the simulation's output columns.
#[derive(Clone, Debug, Default)]
pub struct History {
    names: Vec<String>,
    columns: Vec<VecDeque<f64>>,
    capacity: usize,
    /// Poincaré points: (section, row).
    sections: VecDeque<(SectionId, Vec<f64>)>,
    section_capacity: usize,
}

impl History {
    /// An empty history for the given column names.
    pub fn new(names: Vec<String>, capacity: usize) -> Self {
        let n = names.len();
        Self {
            names,
            columns: (0..n).map(|_| VecDeque::new()).collect(),
            capacity: capacity.max(16),
            sections: VecDeque::new(),
            section_capacity: 100_000,
        }
    }

    /// Column names (`t` first).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Index of a column by name.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Number of stored samples.
    pub fn len(&self) -> usize {
        self.columns.first().map_or(0, VecDeque::len)
    }

    /// Whether no sample is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Largest number of samples kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Appends rows given flat (`row_len` values each); drops the oldest beyond capacity.
    pub fn extend_flat(&mut self, flat: &[f64]) {
        let w = self.columns.len();
        if w == 0 {
            return;
        }
        for row in flat.chunks_exact(w) {
            for (col, v) in self.columns.iter_mut().zip(row) {
                col.push_back(*v);
            }
        }
        let excess = self.len().saturating_sub(self.capacity);
        if excess > 0 {
            for col in &mut self.columns {
                col.drain(..excess);
            }
        }
    }

    /// Adds a Poincaré point.
    pub fn push_section(&mut self, id: SectionId, row: Vec<f64>) {
        self.sections.push_back((id, row));
        if self.sections.len() > self.section_capacity {
            self.sections.pop_front();
        }
    }

    /// Poincaré points of one section.
    pub fn section_points(&self, id: SectionId) -> impl Iterator<Item = &[f64]> {
        self.sections
            .iter()
            .filter(move |(s, _)| *s == id)
            .map(|(_, r)| r.as_slice())
    }

    /// A column.
    pub fn column(&self, index: usize) -> &VecDeque<f64> {
        &self.columns[index]
    }

    /// Value of column `index` in the newest sample.
    pub fn last(&self, index: usize) -> Option<f64> {
        self.columns.get(index)?.back().copied()
    }

    /// Index range of the samples with `t ≥ t_from` (time is column 0).
    pub fn range_since(&self, t_from: f64) -> std::ops::Range<usize> {
        let t = &self.columns[0];
        t.partition_point(|&v| v < t_from)..t.len()
    }

    /// Row `i` as a vector (for export).
    pub fn row(&self, i: usize) -> Vec<f64> {
        self.columns.iter().map(|c| c[i]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_samples_within_capacity() {
        let mut h = History::new(vec!["t".into(), "x".into()], 16);
        let flat: Vec<f64> = (0..40).flat_map(|i| [i as f64, 2.0 * i as f64]).collect();
        h.extend_flat(&flat);
        assert_eq!(h.len(), 16);
        assert_eq!(h.column(0)[0], 24.0);
        assert_eq!(h.last(1), Some(78.0));
        assert_eq!(h.range_since(30.0), 6..16);
    }
}
