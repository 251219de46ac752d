//! Typed errors of the time-series tools (delay embedding, AMI, Cao, Lyapunov estimators).

/// Why a time-series analysis could not be carried out.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SeriesError {
    /// Not enough samples (or delay vectors) for the requested analysis.
    #[error("{what}: {got} samples available, at least {need} needed")]
    TooShort {
        /// The analysis that failed.
        what: &'static str,
        /// Samples (or delay vectors) available.
        got: usize,
        /// Samples (or delay vectors) needed.
        need: usize,
    },
    /// A sample is NaN or infinite.
    #[error("sample {index} is {value}: the series must be finite")]
    NonFinite {
        /// 0-based sample index.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// The series has no spread (all samples equal).
    #[error("{what}: the series is constant, nothing to analyse")]
    Constant {
        /// The analysis that failed.
        what: &'static str,
    },
    /// A parameter is out of its range.
    #[error("{what}: {message}")]
    InvalidParameter {
        /// The analysis whose parameter is wrong.
        what: &'static str,
        /// What is wrong, in words.
        message: String,
    },
    /// No usable neighbour pair exists (Theiler window too wide, or duplicated data).
    #[error(
        "{what}: no neighbour outside the Theiler window of {theiler} samples; \
         use a longer series or a smaller window"
    )]
    NoNeighbours {
        /// The analysis that failed.
        what: &'static str,
        /// Theiler window [samples].
        theiler: usize,
    },
}

/// Checks that every sample is finite; returns the first offending one.
pub fn check_finite(series: &[f64]) -> Result<(), SeriesError> {
    match series.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(SeriesError::NonFinite {
            index,
            value: series[index],
        }),
        None => Ok(()),
    }
}

/// Peak-to-peak range `max s − min s` of a finite series (0 for an empty one).
pub fn range_of(series: &[f64]) -> f64 {
    let (lo, hi) = series
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    if hi >= lo { hi - lo } else { 0.0 }
}
