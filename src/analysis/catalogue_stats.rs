//! The statistics a seismologist reads off a slip-event catalogue (MODELS §4.9), in one place
//! for the window and the CLI: the completeness magnitude by maximum curvature, the
//! Aki–Utsu b-value above it with its Shi–Bolt error and a bootstrap interval, and the
//! Clauset–Shalizi–Newman power-law fit of the potencies. Truncated events (cut by the start
//! or end of the record) and events without slip are left out.

use super::event_catalogue::SlipEvent;
use super::magnitude_stats::{
    BValue, Interval, MAX_CURVATURE_CORRECTION, PowerLawFit, aki_utsu_b, bootstrap_b,
    mc_max_curvature, power_law_fit,
};

/// Magnitude bin width used for the completeness magnitude and the b-value (0.1, as in
/// seismic catalogues).
pub const MAGNITUDE_BIN: f64 = 0.1;
/// Bootstrap resamples of the b-value interval.
pub const BOOTSTRAP_RESAMPLES: usize = 500;
/// Confidence of the bootstrap interval.
pub const CONFIDENCE: f64 = 0.95;
/// Fewest events for a b-value.
pub const MIN_EVENTS: usize = 20;

/// Statistics of a catalogue.
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogueStats {
    /// Events used (complete, with slip).
    pub n_events: usize,
    /// Their magnitudes `log10(potency)`, in catalogue order.
    pub magnitudes: Vec<f64>,
    /// Completeness magnitude: maximum curvature plus the usual 0.2.
    pub m_c: Option<f64>,
    /// Aki–Utsu b-value above `m_c` (magnitudes binned at [`MAGNITUDE_BIN`]).
    pub b: Option<BValue>,
    /// Percentile-bootstrap interval of b.
    pub b_interval: Option<Interval>,
    /// Power-law fit of the potencies.
    pub power_law: Option<PowerLawFit>,
}

impl CatalogueStats {
    /// Statistics of `events`.
    pub fn of(events: &[SlipEvent]) -> Self {
        let magnitudes: Vec<f64> = events
            .iter()
            .filter(|e| !e.truncated && e.potency_m > 0.0 && e.magnitude.is_finite())
            .map(|e| e.magnitude)
            .collect();
        let n_events = magnitudes.len();
        if n_events < MIN_EVENTS {
            return Self {
                n_events,
                magnitudes,
                m_c: None,
                b: None,
                b_interval: None,
                power_law: None,
            };
        }
        let m_c = mc_max_curvature(&magnitudes, MAGNITUDE_BIN, MAX_CURVATURE_CORRECTION);
        let b = m_c.and_then(|mc| aki_utsu_b(&magnitudes, mc, MAGNITUDE_BIN));
        let b_interval = m_c.and_then(|mc| {
            bootstrap_b(
                &magnitudes,
                mc,
                MAGNITUDE_BIN,
                BOOTSTRAP_RESAMPLES,
                1,
                CONFIDENCE,
            )
        });
        let potencies: Vec<f64> = magnitudes.iter().map(|m| 10f64.powf(*m)).collect();
        Self {
            n_events,
            m_c,
            b,
            b_interval,
            power_law: power_law_fit(&potencies),
            magnitudes,
        }
    }

    /// A few lines for a terminal or a status panel.
    pub fn report(&self) -> String {
        let mut out = format!("{} complete slip events", self.n_events);
        if self.n_events < MIN_EVENTS {
            out.push_str(&format!(" (fewer than {MIN_EVENTS}: no statistics yet)"));
            return out;
        }
        if let (Some(mc), Some(b)) = (self.m_c, &self.b) {
            out.push_str(&format!(
                "\nGutenberg–Richter above M_c = {mc:.2} ({} events): b = {:.3} ± {:.3} (Shi–Bolt)",
                b.n_events, b.b, b.std_error_shi_bolt
            ));
            if let Some(i) = &self.b_interval {
                out.push_str(&format!(
                    ", {:.0} % bootstrap interval [{:.3}, {:.3}]",
                    100.0 * i.confidence,
                    i.low,
                    i.high
                ));
            }
        }
        if let Some(p) = &self.power_law {
            out.push_str(&format!(
                "\npotency power law p(P) ∝ P^−α above P_min = {:.3e}: α = {:.3} ± {:.3} \
                 ({} events, KS distance {:.3}, {:.1} decades{})",
                p.x_min,
                p.alpha,
                p.std_error,
                p.n_tail,
                p.ks_distance,
                p.decades(),
                if p.spans_one_decade() {
                    ""
                } else {
                    "; less than one decade: not a power law to speak of"
                }
            ));
        }
        out
    }
}
