//! Delay embedding of a scalar series (MODELS §4.5, S1 eq 43), viewed in place.
//! ```text
//! y_n = (s_n, s_{n−τ}, …, s_{n−(d−1)τ}),   n = (d−1)τ … N−1
//! ```
//! Vector `i` (0-based, `0 ≤ i < N − (d−1)τ`) is anchored at sample `n = i + (d−1)τ`, so
//! consecutive vectors are one sample apart and "evolving a point k steps" is `i → i + k`.
//! The vectors are never copied: component `j` of vector `i` is read from the series.

use super::error::{SeriesError, check_finite};

/// Distance used between delay vectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Norm {
    /// `‖a − b‖_∞ = max_j |a_j − b_j|` (Cao's method).
    Max,
    /// `‖a − b‖₂ = √Σ_j (a_j − b_j)²` (Wolf, Rosenstein).
    #[default]
    Euclidean,
}

impl Norm {
    /// The norm's name, for reports.
    pub fn name(self) -> &'static str {
        match self {
            Norm::Max => "max",
            Norm::Euclidean => "euclidean",
        }
    }
}

/// A delay embedding `y_n = (s_n, s_{n−τ}, …, s_{n−(d−1)τ})` borrowing its series.
#[derive(Clone, Copy, Debug)]
pub struct Embedding<'a> {
    series: &'a [f64],
    dim: usize,
    delay: usize,
}

impl<'a> Embedding<'a> {
    /// Embeds `series` in dimension `dim ≥ 1` with delay `delay ≥ 1` samples; needs at least
    /// one vector (`N > (d−1)τ`) and finite samples.
    pub fn new(series: &'a [f64], dim: usize, delay: usize) -> Result<Self, SeriesError> {
        if dim == 0 || delay == 0 {
            return Err(SeriesError::InvalidParameter {
                what: "delay embedding",
                message: format!("dimension ({dim}) and delay ({delay}) must be at least 1"),
            });
        }
        let span = (dim - 1).saturating_mul(delay);
        if series.len() <= span {
            return Err(SeriesError::TooShort {
                what: "delay embedding",
                got: series.len(),
                need: span + 1,
            });
        }
        check_finite(series)?;
        Ok(Self { series, dim, delay })
    }

    /// Number of delay vectors `N − (d−1)τ`.
    pub fn len(&self) -> usize {
        self.series.len() - (self.dim - 1) * self.delay
    }

    /// Whether there are no vectors (never, by construction).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Embedding dimension `d`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Delay `τ` [samples].
    pub fn delay(&self) -> usize {
        self.delay
    }

    /// The embedded series.
    pub fn series(&self) -> &'a [f64] {
        self.series
    }

    /// Sample index `n = i + (d−1)τ` of vector `i`'s first component.
    pub fn anchor(&self, i: usize) -> usize {
        i + (self.dim - 1) * self.delay
    }

    /// Component `j` of vector `i`: `s_{n − jτ}`.
    #[inline]
    pub fn coord(&self, i: usize, j: usize) -> f64 {
        self.series[self.anchor(i) - j * self.delay]
    }

    /// Copies vector `i` into `out` (length `d`).
    pub fn copy_point(&self, i: usize, out: &mut [f64]) {
        for (j, o) in out.iter_mut().enumerate().take(self.dim) {
            *o = self.coord(i, j);
        }
    }

    /// `‖y_i − y_k‖` in `norm`.
    pub fn distance(&self, i: usize, k: usize, norm: Norm) -> f64 {
        let (a, b) = (self.anchor(i), self.anchor(k));
        let mut acc = 0.0_f64;
        for j in 0..self.dim {
            let d = self.series[a - j * self.delay] - self.series[b - j * self.delay];
            acc = match norm {
                Norm::Max => acc.max(d.abs()),
                Norm::Euclidean => acc + d * d,
            };
        }
        match norm {
            Norm::Max => acc,
            Norm::Euclidean => acc.sqrt(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_follow_s1_eq_43() {
        let s: Vec<f64> = (0..10).map(f64::from).collect();
        let e = Embedding::new(&s, 3, 2).unwrap();
        assert_eq!(e.len(), 6);
        let mut y = [0.0; 3];
        e.copy_point(0, &mut y);
        assert_eq!(y, [4.0, 2.0, 0.0]);
        e.copy_point(5, &mut y);
        assert_eq!(y, [9.0, 7.0, 5.0]);
        assert_eq!(e.distance(0, 5, Norm::Max), 5.0);
        assert!((e.distance(0, 5, Norm::Euclidean) - 75f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_parameters() {
        let s = [1.0, 2.0, 3.0];
        assert!(matches!(
            Embedding::new(&s, 3, 2),
            Err(SeriesError::TooShort { need: 5, .. })
        ));
        assert!(Embedding::new(&s, 0, 1).is_err());
        assert!(matches!(
            Embedding::new(&[1.0, f64::NAN], 1, 1),
            Err(SeriesError::NonFinite { index: 1, .. })
        ));
    }
}
