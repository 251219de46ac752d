//! Bounded sample history for the plots: one contiguous buffer per column, so memory stays flat
//! on a run left for hours, time windows are found by binary search and the plots scan plain
//! slices (a frame with 10⁶ samples reads them at memory speed).
//!
//! Each column is a `Vec` that grows to `capacity + capacity/4` samples and then drops its
//! oldest samples down to `capacity` in one move: amortised one copy per four pushes, memory at
//! most 1.25 × capacity, and every column always one slice (a ring buffer would wrap).
//! Alongside, each column keeps min/max summaries of its blocks of
//! [`BLOCK_LEN`](super::decimate::BLOCK_LEN) samples, so the plots decimate a million samples by
//! reading some ten thousand summaries; samples are dropped in whole blocks to keep them aligned.

use std::collections::VecDeque;

use super::decimate::{BLOCK_LEN, Block};
use crate::integrate::driver::SectionId;

/// Default capacity: 2²⁰ samples (17 min at the default 1 ms output interval).
pub const DEFAULT_CAPACITY: usize = 1 << 20;

/// Most numbers the history holds over all its columns (2²⁵, 256 MiB): a chain of a hundred
/// blocks writes some 700 columns, so its history is shorter in samples.
pub const BUDGET_VALUES: usize = 1 << 25;

/// Capacity in samples for a run with `n_columns` columns: [`DEFAULT_CAPACITY`], or fewer so
/// that all columns together stay within [`BUDGET_VALUES`].
pub fn capacity_for(n_columns: usize) -> usize {
    DEFAULT_CAPACITY.min(BUDGET_VALUES / n_columns.max(1))
}

/// Bounded buffers of the simulation's output columns.
#[derive(Clone, Debug, Default)]
pub struct History {
    names: Vec<String>,
    columns: Vec<Vec<f64>>,
    /// Summaries of each column's complete blocks.
    blocks: Vec<Vec<Block>>,
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
            columns: (0..n).map(|_| Vec::new()).collect(),
            blocks: (0..n).map(|_| Vec::new()).collect(),
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
        self.columns.first().map_or(0, Vec::len)
    }

    /// Whether no sample is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of samples kept at least (once that many arrived); at most 1.25 × this.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Appends rows given flat (`row_len` values each); drops the oldest beyond the bound.
    pub fn extend_flat(&mut self, flat: &[f64]) {
        let w = self.columns.len();
        if w == 0 {
            return;
        }
        let rows = flat.len() / w;
        let bound = self.capacity + self.capacity / 4;
        for (c, col) in self.columns.iter_mut().enumerate() {
            // Grow by doubling up to the bound, then exactly: memory never exceeds the bound
            // (plain doubling would take 2 × capacity).
            let need = col.len() + rows;
            if need > col.capacity() {
                let want = need.max((2 * col.capacity()).min(bound));
                col.reserve_exact(want - col.len());
            }
            col.extend(flat.iter().skip(c).step_by(w));
            let summaries = &mut self.blocks[c];
            while (summaries.len() + 1) * BLOCK_LEN <= col.len() {
                let k = summaries.len() * BLOCK_LEN;
                summaries.push(Block::of(&col[k..k + BLOCK_LEN]));
            }
        }
        if self.len() > bound {
            // Drop whole blocks, at least down to the capacity.
            let excess = (self.len() - self.capacity).div_ceil(BLOCK_LEN);
            for (col, summaries) in self.columns.iter_mut().zip(&mut self.blocks) {
                col.drain(..excess * BLOCK_LEN);
                summaries.drain(..excess);
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

    /// A column, oldest sample first.
    pub fn column(&self, index: usize) -> &[f64] {
        &self.columns[index]
    }

    /// Min/max summaries of the complete blocks of column `index`.
    pub fn blocks(&self, index: usize) -> &[Block] {
        &self.blocks[index]
    }

    /// Smallest and largest value of column `index` over `range` (`None` when empty).
    pub fn extremes(&self, index: usize, range: std::ops::Range<usize>) -> Option<(f64, f64)> {
        super::decimate::range_extremes(&self.columns[index], &self.blocks[index], range)
    }

    /// Min/max decimation of column `y` against column `x` over `range` to about `pixels`
    /// columns (see [`min_max`](super::decimate::min_max)).
    pub fn decimated(
        &self,
        x: usize,
        y: usize,
        range: std::ops::Range<usize>,
        pixels: usize,
    ) -> Vec<[f64; 2]> {
        super::decimate::min_max_summarised(
            &self.columns[x],
            &self.columns[y],
            &self.blocks[y],
            range,
            pixels,
        )
    }

    /// Value of column `index` in the newest sample.
    pub fn last(&self, index: usize) -> Option<f64> {
        self.columns.get(index)?.last().copied()
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
        // Capacity 256 = eight blocks of 32: 320 samples fit; the 321st drops the oldest
        // whole blocks (three) down to at most the capacity.
        let mut h = History::new(vec!["t".into(), "x".into()], 256);
        let flat: Vec<f64> = (0..320).flat_map(|i| [i as f64, 2.0 * i as f64]).collect();
        h.extend_flat(&flat);
        assert_eq!(h.len(), 320);
        h.extend_flat(&[320.0, 640.0]);
        assert_eq!(h.len(), 321 - 96);
        assert_eq!(h.column(0)[0], 96.0);
        assert_eq!(h.last(1), Some(640.0));
        assert_eq!(h.range_since(315.0), 219..225);
        // A long run: the bound holds, the newest samples are kept, the summaries match.
        let flat: Vec<f64> = (321..100_000)
            .flat_map(|i| [i as f64, ((i * 37) % 101) as f64])
            .collect();
        h.extend_flat(&flat);
        assert!((192..=320).contains(&h.len()), "{}", h.len());
        assert_eq!(h.last(0), Some(99_999.0));
        assert!(h.column(0).windows(2).all(|w| w[1] == w[0] + 1.0));
        assert_eq!(
            h.blocks(1),
            crate::gui::decimate::blocks(h.column(1)).as_slice()
        );
        let (lo, hi) = h.extremes(1, 3..h.len() - 2).unwrap();
        let col = &h.column(1)[3..h.len() - 2];
        assert_eq!(lo, col.iter().copied().fold(f64::MAX, f64::min));
        assert_eq!(hi, col.iter().copied().fold(f64::MIN, f64::max));
    }
}
