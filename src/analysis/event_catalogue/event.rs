//! A catalogued slip event, and why a sample may be refused.

use std::fmt;

/// One slip event of the chain. Block indices are 0-based.
#[derive(Clone, Debug, PartialEq)]
pub struct SlipEvent {
    /// Time of the last sample before slipping was seen (first sample if truncated there) [s].
    pub start_s: f64,
    /// Time of the first sample with none of its blocks slipping (last sample if truncated) [s].
    pub end_s: f64,
    /// Lowest index among the blocks slipping in the event's first slipping sample.
    pub epicentre: usize,
    /// Number of distinct blocks that slipped.
    pub blocks: usize,
    /// First block of the span (see the module doc for periodic wrap).
    pub first_block: usize,
    /// Last block of the span (see the module doc for periodic wrap).
    pub last_block: usize,
    /// Potency `Σ_i |Δs_i|` over the blocks involved [m].
    pub potency_m: f64,
    /// `log10(potency_m)`; −∞ when the potency is zero.
    pub magnitude: f64,
    /// Largest slip rate `|v_rel,i|` of a slipping block during the event [m/s].
    pub peak_slip_rate_mps: f64,
    /// Force drop: over the blocks that slipped, `Σ_i (|F_i| before its first slip − |F_i|
    /// after its last)`, with `F_i` the block's friction force [N]. Only the ruptured blocks
    /// count (the rest of the chain goes on loading meanwhile).
    pub force_drop_n: f64,
    /// Cut by the start or the end of the record.
    pub truncated: bool,
}

impl SlipEvent {
    /// `end_s − start_s` [s].
    pub fn duration_s(&self) -> f64 {
        self.end_s - self.start_s
    }
}

/// Why a sample was rejected (the builder is left unchanged).
#[derive(Clone, Debug, PartialEq)]
pub enum SampleError {
    /// A slice does not have one entry per block.
    Length {
        /// Which argument.
        what: &'static str,
        /// Its length.
        got: usize,
        /// The number of blocks.
        expected: usize,
    },
    /// A value is NaN or infinite.
    NonFinite {
        /// Which argument.
        what: &'static str,
        /// 0-based block index, for per-block values.
        block: Option<usize>,
        /// The offending value.
        value: f64,
    },
    /// The time is not after the previous accepted sample's.
    TimeNotIncreasing {
        /// The rejected sample's time [s].
        t_s: f64,
        /// The previous accepted sample's time [s].
        previous_s: f64,
    },
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Length {
                what,
                got,
                expected,
            } => {
                write!(f, "{what} has {got} entries for {expected} blocks")
            }
            Self::NonFinite { what, block, value } => match block {
                Some(i) => write!(f, "{what} of block {} is {value}, not finite", i + 1),
                None => write!(f, "{what} is {value}, not finite"),
            },
            Self::TimeNotIncreasing { t_s, previous_s } => {
                write!(f, "time {t_s} s is not after the previous {previous_s} s")
            }
        }
    }
}

impl std::error::Error for SampleError {}
