//! Min/max decimation: at most two points per pixel column, in the order they occur, so a
//! million-sample trace draws in microseconds and a one-sample stick–slip spike stays visible.

/// Decimates `y(x)` over the index range `range` to about `pixels` columns (ring buffers of
/// the history or plain slices).
pub fn min_max<X, Y>(x: &X, y: &Y, range: std::ops::Range<usize>, pixels: usize) -> Vec<[f64; 2]>
where
    X: std::ops::Index<usize, Output = f64> + ?Sized,
    Y: std::ops::Index<usize, Output = f64> + ?Sized,
{
    let n = range.len();
    let pixels = pixels.max(1);
    if n <= 2 * pixels {
        return range.map(|i| [x[i], y[i]]).collect();
    }
    let (x0, x1) = (x[range.start], x[range.end - 1]);
    let span = (x1 - x0).max(f64::MIN_POSITIVE);
    let mut out = Vec::with_capacity(2 * pixels + 2);
    let mut bucket = usize::MAX;
    let (mut lo, mut hi) = (0usize, 0usize);
    let flush = |out: &mut Vec<[f64; 2]>, lo: usize, hi: usize| {
        let (a, b) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        out.push([x[a], y[a]]);
        if b != a {
            out.push([x[b], y[b]]);
        }
    };
    for i in range {
        let b = (((x[i] - x0) / span) * pixels as f64) as usize;
        if b != bucket {
            if bucket != usize::MAX {
                flush(&mut out, lo, hi);
            }
            bucket = b;
            lo = i;
            hi = i;
        } else {
            if y[i] < y[lo] {
                lo = i;
            }
            if y[i] > y[hi] {
                hi = i;
            }
        }
    }
    if bucket != usize::MAX {
        flush(&mut out, lo, hi);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn keeps_a_single_sample_spike_and_bounds_the_count() {
        let n = 1_000_000;
        let x: VecDeque<f64> = (0..n).map(|i| i as f64 * 1e-3).collect();
        let mut y: VecDeque<f64> = (0..n).map(|i| (i as f64 * 1e-3).sin()).collect();
        y[777_777] = 50.0;
        let pts = min_max(&x, &y, 0..n, 800);
        assert!(pts.len() <= 2 * 801, "{} points", pts.len());
        assert!(pts.iter().any(|p| p[1] == 50.0), "spike lost");
        assert!(pts.windows(2).all(|w| w[0][0] <= w[1][0]), "not ordered");
    }
}
