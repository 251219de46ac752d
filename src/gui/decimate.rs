//! Min/max decimation: at most two points per pixel column, in the order they occur, so a
//! million-sample trace draws in about a millisecond and a one-sample stick–slip spike stays
//! visible.
//!
//! The time axis is sorted, so each pixel column's samples are found by binary search and its
//! extremes by one pass over a contiguous slice: no per-sample division or branch on the bucket.

/// Decimates `y(x)` over the index range `range` (of the sorted `x`) to about `pixels` columns.
pub fn min_max(
    x: &[f64],
    y: &[f64],
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
            start + x[start..range.end].partition_point(|&t| t < edge)
        };
        if end == start {
            continue;
        }
        let (lo, hi) = extremes(&y[start..end]);
        let (a, b) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        out.push([x[start + a], y[start + a]]);
        if b != a {
            out.push([x[start + b], y[start + b]]);
        }
        start = end;
    }
    out
}

/// Offsets of the first minimum and the first maximum of a non-empty slice.
fn extremes(y: &[f64]) -> (usize, usize) {
    let (mut lo, mut hi) = (0, 0);
    let (mut y_lo, mut y_hi) = (y[0], y[0]);
    for (i, &v) in y.iter().enumerate().skip(1) {
        if v < y_lo {
            y_lo = v;
            lo = i;
        }
        if v > y_hi {
            y_hi = v;
            hi = i;
        }
    }
    (lo, hi)
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
}
