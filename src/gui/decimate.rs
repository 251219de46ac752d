//! Min/max decimation: at most two points per pixel column, in the order they occur, so a
//! million-sample trace draws in well under a millisecond and a one-sample stick–slip spike
//! stays visible.
//!
//! The time axis is sorted, so each pixel column's samples are found by binary search. Their
//! extremes come from per-block summaries ([`Block`], kept by the history as samples arrive)
//! plus a direct scan of the partial blocks at the column's edges: a frame reads about
//! `n / BLOCK_LEN` summaries instead of `n` samples.

/// Samples per summary block.
pub const BLOCK_LEN: usize = 32;

/// Extremes of one block of [`BLOCK_LEN`] consecutive samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Block {
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Offset in the block of the first smallest value.
    pub i_min: u8,
    /// Offset in the block of the first largest value.
    pub i_max: u8,
}

impl Block {
    /// Summary of one block (`y.len() == BLOCK_LEN`).
    pub fn of(y: &[f64]) -> Self {
        let mut e = Extremes::at(0, y[0]);
        for (i, &v) in y.iter().enumerate().skip(1) {
            e.take(i, v);
        }
        Self {
            min: e.min,
            max: e.max,
            i_min: e.i_min as u8,
            i_max: e.i_max as u8,
        }
    }
}

/// Summaries of every complete block of `y`.
pub fn blocks(y: &[f64]) -> Vec<Block> {
    y.chunks_exact(BLOCK_LEN).map(Block::of).collect()
}

/// Running first minimum and first maximum with their indices.
#[derive(Clone, Copy)]
struct Extremes {
    min: f64,
    max: f64,
    i_min: usize,
    i_max: usize,
}

impl Extremes {
    fn at(i: usize, v: f64) -> Self {
        Self {
            min: v,
            max: v,
            i_min: i,
            i_max: i,
        }
    }

    /// Takes sample `i` (indices increase, so strict comparisons keep the first occurrence).
    fn take(&mut self, i: usize, v: f64) {
        if v < self.min {
            self.min = v;
            self.i_min = i;
        }
        if v > self.max {
            self.max = v;
            self.i_max = i;
        }
    }

    fn scan(&mut self, y: &[f64], range: std::ops::Range<usize>) {
        for i in range {
            self.take(i, y[i]);
        }
    }

    fn block(&mut self, k: usize, b: &Block) {
        if b.min < self.min {
            self.min = b.min;
            self.i_min = k * BLOCK_LEN + b.i_min as usize;
        }
        if b.max > self.max {
            self.max = b.max;
            self.i_max = k * BLOCK_LEN + b.i_max as usize;
        }
    }
}

/// Decimates `y(x)` over the index range `range` (of the sorted `x`) to about `pixels` columns.
pub fn min_max(
    x: &[f64],
    y: &[f64],
    range: std::ops::Range<usize>,
    pixels: usize,
) -> Vec<[f64; 2]> {
    min_max_summarised(x, y, &[], range, pixels)
}

/// [`min_max`] reading the extremes of whole blocks from `blocks` (the summaries of the first
/// `blocks.len()` blocks of `y`; any prefix of them, even none, gives the same result).
pub fn min_max_summarised(
    x: &[f64],
    y: &[f64],
    blocks: &[Block],
    range: std::ops::Range<usize>,
    pixels: usize,
) -> Vec<[f64; 2]> {
    let n = range.len();
    let pixels = pixels.max(1);
    if n <= 2 * pixels {
        return range.map(|i| [x[i], y[i]]).collect();
    }
    let (x0, x1) = (x[range.start], x[range.end - 1]);
    let span = (x1 - x0).max(f64::MIN_POSITIVE);
    let mut out = Vec::with_capacity(2 * pixels + 2);
    let mut start = range.start;
    for column in 1..=pixels {
        if start >= range.end {
            break;
        }
        // End of this column: first sample at or beyond its right edge (the last column takes
        // the rest, so rounding never loses the newest sample).
        let end = if column == pixels {
            range.end
        } else {
            let edge = x0 + span * column as f64 / pixels as f64;
            first_not_before(x, start, range.end, edge)
        };
        if end == start {
            continue;
        }
        let e = extremes(y, blocks, start..end);
        let (a, b) = if e.i_min <= e.i_max {
            (e.i_min, e.i_max)
        } else {
            (e.i_max, e.i_min)
        };
        out.push([x[a], y[a]]);
        if b != a {
            out.push([x[b], y[b]]);
        }
        start = end;
    }
    out
}

/// First index in `from..end` of the sorted `x` with `x ≥ edge` (`end` if none).
///
/// Samples are nearly uniform in time, so the answer is guessed by linear interpolation and
/// then bracketed by galloping from the guess: a couple of probes near the column being read,
/// where a binary search over a million samples would miss the cache twenty times.
fn first_not_before(x: &[f64], from: usize, end: usize, edge: f64) -> usize {
    if from >= end || edge <= x[from] {
        return from;
    }
    let last = end - 1;
    if edge > x[last] {
        return end;
    }
    // Here x[from] < edge ≤ x[last].
    let frac = (edge - x[from]) / (x[last] - x[from]);
    let guess = from + ((frac * (last - from) as f64) as usize).min(last - from);
    let (mut lo, mut hi) = (from + 1, last); // answer in lo..=hi
    if x[guess] < edge {
        lo = guess + 1;
        let mut step = 1;
        while lo + step - 1 < hi && x[lo + step - 1] < edge {
            lo += step;
            step *= 2;
        }
        hi = hi.min(lo + step - 1);
    } else {
        hi = guess;
        let mut step = 1;
        while hi >= lo + step && x[hi - step] >= edge {
            hi -= step;
            step *= 2;
        }
        lo = lo.max(hi.saturating_sub(step) + 1);
    }
    lo + x[lo..hi].partition_point(|&t| t < edge)
}

/// Smallest and largest value of `y[range]` (`None` when empty), whole blocks read from their
/// summaries.
pub fn range_extremes(
    y: &[f64],
    blocks: &[Block],
    range: std::ops::Range<usize>,
) -> Option<(f64, f64)> {
    (!range.is_empty()).then(|| {
        let e = extremes(y, blocks, range);
        (e.min, e.max)
    })
}

/// Extremes of `y[range]` (non-empty): whole summarised blocks from their summaries, the
/// partial blocks at the edges sample by sample.
fn extremes(y: &[f64], blocks: &[Block], range: std::ops::Range<usize>) -> Extremes {
    let mut e = Extremes::at(range.start, y[range.start]);
    let first_block = range.start.div_ceil(BLOCK_LEN);
    let end_block = (range.end / BLOCK_LEN).min(blocks.len());
    if first_block >= end_block {
        e.scan(y, range.start + 1..range.end);
        return e;
    }
    e.scan(y, range.start + 1..first_block * BLOCK_LEN);
    for (k, b) in blocks.iter().enumerate().take(end_block).skip(first_block) {
        e.block(k, b);
    }
    e.scan(y, end_block * BLOCK_LEN..range.end);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_single_sample_spike_and_bounds_the_count() {
        let n = 1_000_000;
        let x: Vec<f64> = (0..n).map(|i| i as f64 * 1e-3).collect();
        let mut y: Vec<f64> = (0..n).map(|i| (i as f64 * 1e-3).sin()).collect();
        y[777_777] = 50.0;
        y[123_456] = -50.0;
        let pts = min_max(&x, &y, 0..n, 800);
        assert!(pts.len() <= 2 * 801, "{} points", pts.len());
        assert!(pts.iter().any(|p| p[1] == 50.0), "spike lost");
        assert!(pts.iter().any(|p| p[1] == -50.0), "dip lost");
        assert!(pts.windows(2).all(|w| w[0][0] <= w[1][0]), "not ordered");
        assert_eq!(
            pts.last().map(|p| p[0]),
            Some(x[n - 1]),
            "newest sample lost"
        );
    }

    #[test]
    fn each_column_keeps_its_own_extremes() {
        // A sub-range with repeated times (event rows duplicate t) decimates to the true
        // extremes of every column.
        let x: Vec<f64> = (0..10_000).map(|i| (i / 2) as f64).collect();
        let y: Vec<f64> = (0..10_000).map(|i| ((i * 7919) % 1000) as f64).collect();
        let pts = min_max(&x, &y, 1000..9000, 100);
        let cols = 100.0;
        let (x0, x1) = (x[1000], x[8999]);
        for k in 0..100 {
            let (a, b) = (
                x0 + (x1 - x0) * k as f64 / cols,
                x0 + (x1 - x0) * (k + 1) as f64 / cols,
            );
            let inside = |t: f64| t >= a && (t < b || k == 99);
            let want_max = (1000..9000)
                .filter(|&i| inside(x[i]))
                .map(|i| y[i])
                .fold(f64::MIN, f64::max);
            let got_max = pts
                .iter()
                .filter(|p| inside(p[0]))
                .map(|p| p[1])
                .fold(f64::MIN, f64::max);
            assert_eq!(got_max, want_max, "column {k}");
        }
    }

    #[test]
    fn block_summaries_change_nothing_but_the_speed() {
        // Pseudo-random data with ties, ranges and columns that do not align with the blocks,
        // and summaries covering only part of the series.
        let n = 20_000;
        let x: Vec<f64> = (0..n).map(|i| (i / 3) as f64 * 1e-3).collect();
        let mut r = 12345u64;
        let y: Vec<f64> = (0..n)
            .map(|_| {
                r = r
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((r >> 40) % 97) as f64
            })
            .collect();
        let all = blocks(&y);
        for (range, pixels, summarised) in [
            (0..n, 300, all.len()),
            (17..19_991, 123, all.len()),
            (1000..15_000, 700, 100),
            (5..n, 50, 0),
        ] {
            let plain = min_max(&x, &y, range.clone(), pixels);
            let fast = min_max_summarised(&x, &y, &all[..summarised], range.clone(), pixels);
            assert_eq!(plain, fast, "range {range:?}, {pixels} px");
        }
    }

    #[test]
    fn galloping_search_finds_the_first_sample_at_or_after_the_edge() {
        let x: Vec<f64> = (0..1000).map(|i| (i / 4) as f64).collect();
        for from in [0, 1, 3, 500, 998] {
            for edge in [-1.0, 0.0, 0.5, 1.0, 125.0, 200.0, 249.0, 249.5, 1e9] {
                let want = from + x[from..].partition_point(|&t| t < edge);
                assert_eq!(
                    first_not_before(&x, from, 1000, edge),
                    want,
                    "{from} {edge}"
                );
            }
        }
    }
}
