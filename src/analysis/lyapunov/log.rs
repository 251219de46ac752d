//! Running sums of a Lyapunov computation and its running estimate.

use std::sync::{Arc, Mutex, MutexGuard};

/// Sums accumulated at each renormalisation, and the running estimate at the scheduled ones.
///
/// Shared (`Arc<Mutex<_>>`) between the model that renormalises inside the integration and the
/// run handle that reads it, so a front end can show the estimate converging while it runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExponentLog {
    /// Start of the averaging (the first renormalisation after the transient); `None` while
    /// the transient runs.
    pub t_start: Option<f64>,
    /// Time of the latest renormalisation.
    pub t_last: f64,
    /// `Σ ln R_ii` (spectrum) or `Σ ln(d_k/d₀)` (Benettin) since `t_start`, per direction.
    pub sums: Vec<f64>,
    /// How often each direction collapsed (a singular saltation matrix): exponent `−∞`.
    pub collapses: Vec<u64>,
    /// Renormalisations since `t_start`.
    pub renormalisations: u64,
    /// Switches whose saltation matrix was applied since `t_start`.
    pub switches: u64,
    /// Grazing switches left out since `t_start`.
    pub grazing: u64,
    /// `∫ tr J dt + Σ ln|det S|` since `t_start`, when it is tracked (full spectra of flows,
    /// every spectrum of a map): the exact volume growth that `Σ λ_i` must reproduce.
    pub log_volume: Option<f64>,
    /// Running estimate `(averaging time, exponents)` at the scheduled renormalisations.
    pub history: Vec<(f64, Vec<f64>)>,
    /// Record every `history_stride`-th scheduled renormalisation (doubles when thinned).
    history_stride: u64,
    history_count: u64,
    history_capacity: usize,
}

impl ExponentLog {
    /// An empty log for `k` directions keeping at most `history_capacity` estimates.
    pub fn new(k: usize, history_capacity: usize) -> Self {
        Self {
            sums: vec![0.0; k],
            collapses: vec![0; k],
            history_stride: 1,
            history_capacity: history_capacity.max(2),
            ..Self::default()
        }
    }

    /// Averaging time so far (0 during the transient).
    pub fn averaging_time(&self) -> f64 {
        self.t_start.map_or(0.0, |t0| self.t_last - t0)
    }

    /// Current estimate `λ_i = S_i/T` (`−∞` for collapsed directions; NaN before any
    /// averaging).
    pub fn exponents(&self) -> Vec<f64> {
        let t = self.averaging_time();
        self.sums
            .iter()
            .zip(&self.collapses)
            .map(|(s, &c)| {
                if c > 0 {
                    f64::NEG_INFINITY
                } else if t > 0.0 {
                    s / t
                } else {
                    f64::NAN
                }
            })
            .collect()
    }

    /// `(∫ tr J dt + Σ ln|det S|)/T`, the mean volume growth rate (= Σλ for a full spectrum).
    pub fn mean_divergence(&self) -> Option<f64> {
        let t = self.averaging_time();
        self.log_volume.filter(|_| t > 0.0).map(|v| v / t)
    }

    /// Starts the averaging at `t` (sums cleared).
    pub(crate) fn start(&mut self, t: f64) {
        self.t_start = Some(t);
        self.t_last = t;
        self.sums.iter_mut().for_each(|s| *s = 0.0);
        self.collapses.iter_mut().for_each(|c| *c = 0);
        self.renormalisations = 0;
        self.switches = 0;
        self.grazing = 0;
        self.log_volume = self.log_volume.map(|_| 0.0);
        self.history.clear();
    }

    /// Whether the averaging has started.
    pub fn averaging(&self) -> bool {
        self.t_start.is_some()
    }

    /// Adds one renormalisation's `ln R_ii` (or `ln(d/d₀)`) at time `t`.
    pub(crate) fn add(&mut self, t: f64, log_r: &[f64], collapsed: &[bool]) {
        for (i, (&l, &c)) in log_r.iter().zip(collapsed).enumerate() {
            if c {
                self.collapses[i] += 1;
            } else {
                self.sums[i] += l;
            }
        }
        self.t_last = t;
        self.renormalisations += 1;
    }

    /// Records the running estimate (at scheduled renormalisations), thinning the oldest half
    /// when full.
    pub(crate) fn record(&mut self) {
        if self.averaging_time() <= 0.0 {
            return;
        }
        self.history_count += 1;
        if !self.history_count.is_multiple_of(self.history_stride) {
            return;
        }
        if self.history.len() >= self.history_capacity {
            let mut i = 0;
            self.history.retain(|_| {
                i += 1;
                i % 2 == 0
            });
            self.history_stride *= 2;
        }
        let entry = (self.averaging_time(), self.exponents());
        self.history.push(entry);
    }
}

/// A log shared between the integration and its reader.
pub type SharedLog = Arc<Mutex<ExponentLog>>;

/// Locks a shared log (a panic in another holder leaves the sums readable).
pub fn lock(log: &SharedLog) -> MutexGuard<'_, ExponentLog> {
    log.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_is_sum_over_time_and_collapse_is_minus_infinity() {
        let mut log = ExponentLog::new(2, 4);
        log.start(10.0);
        log.add(11.0, &[0.5, -1.0], &[false, false]);
        log.add(12.0, &[0.5, f64::NEG_INFINITY], &[false, true]);
        assert_eq!(log.averaging_time(), 2.0);
        assert_eq!(log.exponents(), vec![0.5, f64::NEG_INFINITY]);
        for _ in 0..20 {
            log.record();
        }
        assert!(log.history.len() <= 4);
    }
}
